"""The domain core: seats, levels, rulebooks, the ruling engine. No Qt, no database.

>>> from referee_app.core import judge
>>> decision = judge({"event": "bhg-2011", "first_dealer": "E", "finished": "open",
...                   "hands": [{"defender_points": 60}]}, lang="en")
>>> decision["hands"][0]["levels_after"]
{'NS': '2', 'EW': '3'}
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:
    from .case import parse_case
    from .engine import Decision, HandOutcome, Ruling, decide, is_language_free, judge, word, word_ruling
    from .errors import CaseError, RulebookError
    from .rulebook import Rulebook, bundled_ids, load_rulebook, rulebook_from_text

__all__ = [
    "CaseError",
    "Decision",
    "HandOutcome",
    "Rulebook",
    "RulebookError",
    "Ruling",
    "bundled_ids",
    "decide",
    "is_language_free",
    "judge",
    "load_rulebook",
    "parse_case",
    "rulebook_from_text",
    "word",
    "word_ruling",
]

# each name's module is imported on first use: the window paints before the engine loads
__getattr__ = lazy_names(
    __name__,
    {
        "parse_case": ".case",
        **dict.fromkeys(
            (
                "Decision",
                "HandOutcome",
                "Ruling",
                "decide",
                "is_language_free",
                "judge",
                "word",
                "word_ruling",
            ),
            ".engine",
        ),
        "CaseError": ".errors",
        "RulebookError": ".errors",
        **dict.fromkeys(("Rulebook", "bundled_ids", "load_rulebook", "rulebook_from_text"), ".rulebook"),
    },
)
