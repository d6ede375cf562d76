"""The hall web page's words (``resources/messages/web.toml``), Chinese and English."""

from __future__ import annotations

from typing import Any

from ..app.messages import catalogue, plural_form

LANGS = ("zh", "en")
#: Each language named in itself: the link to the page in the other language.
LANGUAGE_NAMES = {"zh": "中文", "en": "English"}


def word(code: str, lang: str, /, **values: Any) -> str:
    """The page's text ``code`` in ``lang``, filled with ``values``."""
    entry = catalogue("web")[code]
    return plural_form(entry.get(lang, entry["zh"]), values).format(**values)
