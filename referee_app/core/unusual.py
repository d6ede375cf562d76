"""Facts that are odd but can have happened (不常见但可能的事实): judged only once the
referee confirms them, and the confirmation is kept in the case.

A fact that cannot have happened is refused outright (:mod:`.case`, the engine). Some facts
are merely unlikely, and a referee at the table may know better than the text: more
re-declarations than a limit the rulebook itself only assumes, or the same offence logged twice
at the same trick (most often a double entry, sometimes a player who really did it again).
Saving a record with one is refused (:class:`CaseError` naming the field) until the case's
``confirmed`` list carries ``{"fact": ..., "field": ...}`` for it — the window asks the
referee; the decision repeats the confirmations it rests on, so the record shows the referee
vouched for the fact. Judging a case file alone does not ask: the file is its author's word.

The checks read the rulebook's data, so a new event's rulebook gets them too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .case import CONFIRMABLE_FACTS, Case, Hand, Infraction
from .errors import CaseError

#: Every fact this module asks the referee to confirm.
FACTS = CONFIRMABLE_FACTS


@dataclass(frozen=True)
class UnusualFact:
    """One odd fact: which check, the case field it sits in, and what the message shows."""

    fact: str
    field: str
    values: dict[str, Any] = dataclasses.field(default_factory=dict)

    def as_confirmation(self) -> dict[str, str]:
        return {"fact": self.fact, "field": self.field}


def redeclarations_allowed(rules: Mapping[str, Any], number: int) -> tuple[int, dict[str, Any]] | None:
    """How many re-declarations (反主) the event allows in hand ``number`` (from 1) and the
    clause saying so; None where the rulebook sets no limit for that hand."""
    limits = rules.get("redeclarations")
    if limits is None:
        return None
    holding = [lim for lim in limits["limits"] if lim["from_hand"] <= number]
    if not holding:
        return None
    return max(holding, key=lambda lim: lim["from_hand"])["max"], limits["clause"]


def unusual_facts(case: Case, rules: Mapping[str, Any]) -> list[UnusualFact]:
    """The odd facts of ``case`` under the event's ``rules``, in the order of the case."""
    found: list[UnusualFact] = []
    for number, hand in enumerate(case.hands, start=1):
        limit = redeclarations_allowed(rules, number)
        if limit is not None and hand.redeclarations > limit[0] and limit[1].get("assumed"):
            found.append(
                UnusualFact(
                    "redeclarations_over_assumed",
                    f"{hand.path}.redeclarations",
                    {"got": hand.redeclarations, "allowed": limit[0], "n": number},
                )
            )
        found.extend(_repeated_offences(hand, number))
    return found


def _repeated_offences(hand: Hand, number: int) -> list[UnusualFact]:
    """A second infraction with the same facts as an earlier one of the hand, both placed at
    a trick: the same player did the same thing in the same trick twice."""
    seen: dict[tuple[Any, ...], tuple[int, Infraction]] = {}
    out: list[UnusualFact] = []
    for k, inf in enumerate(hand.infractions, start=1):
        if inf.trick is None or inf.void_reason is not None:
            continue
        key = _facts_of(inf)
        first = seen.get(key)
        if first is None:
            seen[key] = (k, inf)
            continue
        values = {"first": first[1].path, "trick": inf.trick, "n": number, "k": k, "first_k": first[0]}
        out.append(UnusualFact("same_offence_twice", inf.path, values))
    return out


def _facts_of(inf: Infraction) -> tuple[Any, ...]:
    # everything the referee entered about the offence, not where it sits in the case
    return (
        inf.kind,
        inf.seat,
        inf.side,
        inf.cards,
        inf.trick,
        inf.discovered,
        inf.phase,
        inf.severity,
        inf.affects_result,
        inf.what,
        inf.thrown,
    )


def confirmations_in_effect(case: Case, rules: Mapping[str, Any]) -> list[dict[str, str]]:
    """The case's confirmations of odd facts it still holds (a confirmation of a fact no
    longer in the case, its infraction deleted, is not kept)."""
    confirmed = {(c["fact"], c["field"]) for c in case.confirmed}
    return [f.as_confirmation() for f in unusual_facts(case, rules) if (f.fact, f.field) in confirmed]


def refuse_unconfirmed(case: Case, rules: Mapping[str, Any]) -> None:
    """Raise :class:`CaseError` for the first odd fact the case does not confirm. Saving a
    record asks this (a referee vouches for the fact); judging a case file does not."""
    confirmed = {(c["fact"], c["field"]) for c in case.confirmed}
    for fact in unusual_facts(case, rules):
        if (fact.fact, fact.field) in confirmed:
            continue
        raise CaseError(
            f"{fact.field}: {_describe(fact)}; if that is what happened, confirm it "
            f'(add {{"fact": "{fact.fact}", "field": "{fact.field}"}} to "confirmed")',
            code=f"case.unusual_{fact.fact}",
            field=fact.field,
            fact=fact.fact,
            **fact.values,
        )


def _describe(fact: UnusualFact) -> str:
    v = fact.values
    if fact.fact == "redeclarations_over_assumed":
        return (
            f"{v['got']} re-declarations in hand {v['n']}, more than the {v['allowed']} the "
            "rulebook assumes (the event's text is silent)"
        )
    return f"the same offence as {v['first']} in trick {v['trick']}, logged again"
