"""The trial bench (试判): a draft rulebook judged on sample hands beside the bundled rulebook
it started from, before the event, so a rulebook that says something other than the event's
text shows before play.

The samples are the bundled example cases of the rulebook the draft started from (the clause
and combination cases the tests judge, shipped with the app: :func:`examples_dir`), those
whose infractions are all kinds the draft has, and the chief referee's own case files. Each
is judged twice, by the draft and by the bundled rulebook; the two decisions are compared
on what they decide (points, levels, deal, hand losses, sanctions, the result), not on the
wording of clauses, and shown in the user's language side by side.

The command line (``rules try``) and the window's trial dialog share it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.engine import decide, word
from ..core.errors import CaseError, RulebookError
from ..core.inputs import read_json
from ..core.rulebook import Rulebook, bundled_ids, load_rulebook
from ..locations import examples_dir
from .messages import describe, message

#: The line ``rules new`` writes into a new rulebook: the bundled rulebook it was copied from.
BASED_ON = re.compile(r"^# based-on: ([a-z0-9][a-z0-9_-]*)\b", re.MULTILINE)
#: What a decision says that is no ruling: the rulebook's id and hash, its clauses' words.
_NOT_RULINGS = {"event", "rulebook_sha256", "rule", "citation", "clause", "label", "instruction", "text"}


def based_on(draft: Rulebook) -> str | None:
    """The bundled rulebook a draft was made from (its ``# based-on:`` line), if bundled."""
    found = BASED_ON.search(draft.source_text)
    return found.group(1) if found and found.group(1) in bundled_ids() else None


@dataclass
class Trial:
    """One sample judged by the draft and by the bundled rulebook: each decision worded in
    the language asked (None where the case was refused, with the refusal's line)."""

    name: str
    own: bool
    draft: dict[str, Any] | None
    base: dict[str, Any] | None
    draft_refused: str | None
    base_refused: str | None

    @property
    def differs(self) -> bool:
        if (self.draft is None) != (self.base is None):
            return True
        if self.draft is None or self.base is None:
            return self.draft_refused != self.base_refused
        return _decided(self.draft) != _decided(self.base)


def _decided(node: Any) -> Any:
    """What a decision decides, without the rulebook's id, hash and clause words."""
    if isinstance(node, dict):
        return {k: _decided(v) for k, v in node.items() if k not in _NOT_RULINGS}
    if isinstance(node, list):
        return [_decided(v) for v in node]
    return node


def _kinds_of(case: Any) -> set[str]:
    if not isinstance(case, dict):
        return set()
    found = {str(i.get("kind")) for i in case.get("before_play") or [] if isinstance(i, dict)}
    for hand in case.get("hands") or []:
        if isinstance(hand, dict):
            found |= {str(i.get("kind")) for i in hand.get("infractions") or [] if isinstance(i, dict)}
    return found


def example_cases(base_id: str, kinds: list[str]) -> list[Path]:
    """The bundled example cases of ``base_id`` whose infractions the draft's ``kinds`` all
    cover (a case refused on purpose, ``{"error": true}``, is left out: it tests the case
    format, not the rulebook)."""
    folder = examples_dir()
    if not folder.is_dir():
        return []
    found: list[Path] = []
    for path in sorted(folder.rglob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        try:
            case = json.loads(path.read_text(encoding="utf-8"))
            expected = path.with_name(path.stem + ".expected.json")
            if expected.exists() and json.loads(expected.read_text(encoding="utf-8")).get("error"):
                continue
        except (OSError, ValueError):
            continue
        if isinstance(case, dict) and case.get("event") == base_id and _kinds_of(case) <= set(kinds):
            found.append(path)
    return found


def _judge(case: Any, rulebook: Rulebook, lang: str) -> tuple[dict[str, Any] | None, str | None]:
    try:
        return word(decide(case, rulebook=rulebook).to_json(), lang, rulebook), None
    except (CaseError, RulebookError) as exc:
        return None, describe(exc, lang)


def own_cases(paths: list[str]) -> list[Path]:
    """The chief referee's own case files: each file given, and the cases in each folder."""
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found += sorted(p for p in path.rglob("*.json") if not p.name.endswith(".expected.json"))
        else:
            found.append(path)
    return found


def try_rulebook(draft: Rulebook, base: Rulebook, own: list[Path], lang: str) -> list[Trial]:
    """Judge the examples of ``base`` (for the kinds the draft has) and the ``own`` case files
    with the draft and with ``base``; an own file that cannot be read is refused (a
    :class:`~referee_app.core.inputs.BadInput`), nothing is judged."""
    samples: list[tuple[Path, bool, Any]] = []
    for path in own:
        samples.append((path, True, read_json(str(path))))
    for path in example_cases(base.id, draft.kinds):
        samples.append((path, False, json.loads(path.read_text(encoding="utf-8"))))
    trials = []
    for path, is_own, case in samples:
        mine, mine_refused = _judge(case, draft, lang)
        theirs, theirs_refused = _judge(case, base, lang)
        trials.append(
            Trial(path.name if not is_own else str(path), is_own, mine, theirs, mine_refused, theirs_refused)
        )
    return trials


def open_trial(draft_ref: str, against: str | None) -> tuple[Rulebook, Rulebook]:
    """The draft and the bundled rulebook it is tried against (``against``, else the one it
    was copied from)."""
    draft = load_rulebook(draft_ref)
    base_id = against or based_on(draft)
    if base_id is None:
        raise RulebookError(
            f"{draft_ref}: not made by `rules new`; name the bundled rulebook to try it against (--against)",
            code="trial.no_base",
            field="against",
            ref=draft_ref,
            known=", ".join(bundled_ids()),
        )
    if base_id not in bundled_ids():
        raise RulebookError(
            f"{base_id}: no bundled rulebook with this id (bundled: {', '.join(bundled_ids())})",
            code="rulebook.unknown",
            field="against",
            ref=base_id,
            known=", ".join(bundled_ids()),
        )
    return draft, load_rulebook(base_id)


# -- in words ------------------------------------------------------------------------------


def decision_lines(decision: dict[str, Any] | None, refused: str | None, lang: str) -> list[str]:
    """A worded decision, one line per ruling before play, per hand (its rulings and its
    outcome), and the round's result."""
    if decision is None:
        return [message("trial.refused", lang, line=refused or "")]
    lines = [r["text"] for r in decision.get("before_play") or [] if r.get("text")]
    for hand in decision.get("hands") or []:
        rulings = "".join(f"{r['text']} " for r in hand.get("rulings") or [] if r.get("text"))
        lines.append(
            message("trial.hand", lang, n=hand["number"], rulings=rulings, text=hand.get("text", ""))
        )
    result = decision.get("result")
    if result:
        how = message(f"trial.decided_by.{result.get('decided_by')}", lang) if _has_how(result) else ""
        winner = result.get("winner")
        if winner in ("NS", "EW"):
            lines.append(message("trial.winner", lang, side=message(f"value.side.{winner}", lang), how=how))
        else:
            lines.append(message("trial.no_winner", lang, how=how))
    return lines


def _has_how(result: dict[str, Any]) -> bool:
    from .messages import has

    return has(f"trial.decided_by.{result.get('decided_by')}")


def trial_report(trials: list[Trial], draft: Rulebook, base: Rulebook, lang: str) -> list[str]:
    """The trial bench in words: a heading, each sample (its rulings by the draft and, where
    they differ, by the bundled rulebook, flagged; those first), and a summary."""
    out = [
        message(
            "trial.heading",
            lang,
            draft=draft.id,
            base=base.id,
            n=len(trials),
            own=sum(t.own for t in trials),
        )
    ]
    # the samples ruled otherwise first: what the chief referee has to read
    for trial in sorted(trials, key=lambda t: not t.differs):
        mine = decision_lines(trial.draft, trial.draft_refused, lang)
        if trial.differs:
            out.append(message("trial.differs", lang, case=trial.name))
            out += [message("trial.by", lang, rulebook=draft.id, line=line) for line in mine]
            theirs = decision_lines(trial.base, trial.base_refused, lang)
            out += [message("trial.by", lang, rulebook=base.id, line=line) for line in theirs]
        else:
            out.append(message("trial.same", lang, case=trial.name))
            out += [message("trial.by", lang, rulebook=f"{draft.id} = {base.id}", line=line) for line in mine]
    differing = sum(t.differs for t in trials)
    out.append(message("trial.summary", lang, n=len(trials), differing=differing, base=base.id))
    return out
