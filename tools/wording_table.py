"""The table of every wording a referee reads: each ruling of the three bundled rulebooks
(every kind × every rule branch × the side's role × zh/en, with its short sanction for the
paper and the log), hand texts for capped and stopped gains, both sides losing, the J drop,
passing A, and the round's result lines.

    python tools/wording_table.py            # writes tests/wording/table.md
    python tools/wording_table.py --check    # exit 1 when the file differs

tests/wording/test_table.py regenerates it and compares, so any change of words shows up
in review as a change of this file."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from referee_app.core import text
from referee_app.core.case import parse_case
from referee_app.core.engine import RoundJudge, cite
from referee_app.core.rulebook import bundled_ids, load_rulebook
from referee_app.core.ruling import Ruling
from referee_app.printing.render import _DECIDED_BY

OUT = Path(__file__).resolve().parent.parent / "tests" / "wording" / "table.md"
LANGS = ("zh", "en")
#: The offender is North (North-South); its role when ruled in a hand, or before play.
ROLES: tuple[tuple[str | None, str | None], ...] = (
    (None, None),
    ("dealer_side", "NS"),
    ("defenders", "EW"),
)


def _infraction(kind: str, sanction: dict[str, Any]) -> Any:
    """What apply_sanction reads of an infraction: the smallest choice the referee may make."""
    low_points = (sanction.get("points_range") or [None])[0]
    low_rounds = (sanction.get("suspension_range") or [None])[0]
    return SimpleNamespace(
        kind=kind,
        path="table",
        points=low_points,
        cards=1,
        thrown=2,
        suspension_rounds=low_rounds,
        override=None,
    )


def ruling_lines(event: str) -> list[str]:
    rb = load_rulebook(event)
    judge = RoundJudge(rb, parse_case({"event": event, "first_dealer": "E", "hands": [], "finished": "open"}))
    lines: list[str] = []
    for kind, spec in rb.data["infractions"].items():
        for rule in spec["rules"]:
            sanction = rule.get("sanction")
            if sanction is None:  # worded as the rule it is the same as
                continue
            for role, dealer_side in ROLES:
                ruling = Ruling(
                    kind=kind,
                    seat="N",
                    side="NS",
                    against="NS",
                    role=role,
                    label=spec["label"],
                    rule=rule["id"],
                    branch=rule["id"],
                    citation=cite(rule["clause"]),
                    clause=rule["clause"],
                    assumed=bool(rule["clause"].get("assumed")),
                )
                try:
                    judge.apply_sanction(ruling, sanction, _infraction(kind, sanction), dealer_side)
                except Exception:  # a hand loss cannot be ruled before play: no such line
                    continue
                where = role or "before_play"
                for lang in LANGS:
                    said = text.ruling_text(ruling, lang, rb)
                    short = text.sanction_summary(ruling.to_json(), lang, instruction=False)
                    lines.append(f"| {event} | {kind} | {rule['id']} | {where} | {lang} | {said} | {short} |")
                if ruling.hand_lost and role is not None:
                    for lang in LANGS:
                        said = text.ruling_text(ruling, lang, rb, both_lost=True)
                        row = f"| {event} | {kind} | {rule['id']} | {where}, both lost | {lang} | {said} | |"
                        lines.append(row)
    return lines


FIVE_THREE = {"NS": "5", "EW": "3"}
#: (name, dealer side, total, gains, keep deal, lost by, J drop, next dealer, passed A, before)
HANDS: tuple[tuple[Any, ...], ...] = (
    ("plain keep", "NS", 40, {"NS": 1, "EW": 0}, True, None, None, "S", None, FIVE_THREE),
    ("plain take", "NS", 120, {"NS": 0, "EW": 1}, False, None, None, "E", None, FIVE_THREE),
    ("stopped at A", "NS", 0, {"NS": 3, "EW": 0}, True, None, None, "S", None, {"NS": "Q", "EW": "3"}),
    ("at A not played", "NS", 160, {"NS": 0, "EW": 2}, False, None, None, "E", None, {"NS": "5", "EW": "A"}),
    ("stopped at J", "NS", 0, {"NS": 3, "EW": 0}, True, None, None, "S", None, {"NS": "9", "EW": "3"}),
    ("passing A", "NS", 0, {"NS": 3, "EW": 0}, True, None, None, None, "NS", {"NS": "A", "EW": "3"}),
    ("J drop", "NS", 90, {"NS": 0, "EW": 0}, False, None, "2", "E", None, {"NS": "J", "EW": "3"}),
    ("dealer loses", "NS", 40, {"NS": 0, "EW": 2}, False, "NS", None, "E", None, FIVE_THREE),
    ("defenders lose", "NS", 40, {"NS": 3, "EW": 0}, True, "EW", None, "S", None, FIVE_THREE),
    ("both lose, open grab", "NS", 40, {"NS": 0, "EW": 0}, True, "both", None, None, None, FIVE_THREE),
    ("both lose, on points", "NS", 40, {"NS": 1, "EW": 0}, True, "both", None, "S", None, FIVE_THREE),
)


def hand_lines(event: str) -> list[str]:
    rb = load_rulebook(event)
    mandatory = tuple(rb.data["levels"]["mandatory"])
    lines = []
    for name, dealer_side, total, gains, keep, lost_by, j_drop, nxt, passed_a, before in HANDS:
        for lang in LANGS:
            said = text.hand_text(
                lang,
                dealer_side,
                total,
                gains,
                keep,
                lost_by,
                j_drop,
                nxt,
                passed_a,
                levels_before=before,
                mandatory=mandatory,
            )
            lines.append(f"| {event} | hand | {name} | {before['NS']}:{before['EW']} | {lang} | {said} | |")
    return lines


def result_lines() -> list[str]:
    lines = []
    for key, (zh, en) in _DECIDED_BY.items():
        lines.append(f"| all | result | {key} | | zh | {zh} | |")
        lines.append(f"| all | result | {key} | | en | {en} | |")
    for cause, words in text.FORFEIT_WORDS.items():
        for lang in LANGS:
            lines.append(f"| all | forfeit | {cause} | | {lang} | {words[lang]} | |")
    return lines


def table() -> str:
    head = [
        "# Every wording a referee reads (generated by tools/wording_table.py: do not edit)",
        "",
        "| event | kind | branch | role / levels | lang | text | short (paper, log) |",
        "|---|---|---|---|---|---|---|",
    ]
    body: list[str] = []
    for event in bundled_ids():
        body += ruling_lines(event)
    for event in bundled_ids():
        body += hand_lines(event)
    body += result_lines()
    return "\n".join(head + body) + "\n"


def main(argv: list[str]) -> int:
    made = table()
    if "--check" in argv:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == made
        if not same:
            print(f"{OUT}: differs from what tools/wording_table.py makes: run it, review", file=sys.stderr)
        return 0 if same else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(made, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
