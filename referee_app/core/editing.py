"""Changes a referee makes to a round's case (记录), as pure functions on case dicts.

Each returns a new case and leaves its argument untouched, so a proposal can be previewed
(judged) before it is saved, and every saved version stays as it was.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import CaseError


def new_case(event: str, first_dealer: str, levels: dict[str, str] | None = None) -> dict[str, Any]:
    return {
        "event": event,
        "first_dealer": first_dealer,
        "levels": dict(levels or {"NS": "2", "EW": "2"}),
        "before_play": [],
        "hands": [],
        "finished": "open",
    }


def hand_in_progress(case: dict[str, Any]) -> dict[str, Any] | None:
    hands = case.get("hands") or []
    if hands and hands[-1].get("in_progress"):
        return hands[-1]
    return None


def confirm_fact(case: Mapping[str, Any], fact: str, field: str) -> dict[str, Any]:
    """The case with the referee's confirmation that an odd fact (:mod:`.unusual`) happened,
    kept in ``confirmed`` so the record shows it was vouched for."""
    out = copy.deepcopy(dict(case))
    entry = {"fact": fact, "field": field}
    confirmed = out.setdefault("confirmed", [])
    if entry not in confirmed:
        confirmed.append(entry)
    return out


def add_infraction(case: dict[str, Any], infraction: dict[str, Any]) -> dict[str, Any]:
    """Log an infraction in the hand being played (a new one is opened if none is)."""
    out = copy.deepcopy(case)
    if infraction.get("kind") == "late_arrival":
        out.setdefault("before_play", []).append(dict(infraction))
        return out
    hand = hand_in_progress(out)
    if hand is None:
        hand = {"in_progress": True, "infractions": []}
        out.setdefault("hands", []).append(hand)
    hand.setdefault("infractions", []).append(dict(infraction))
    return out


def hand_in_play(case: Mapping[str, Any]) -> int:
    """The number of the hand being drawn or played now: the hand in progress, or the next
    one when every hand given is scored."""
    hands = case.get("hands") or []
    if hands and hands[-1].get("in_progress"):
        return len(hands)
    return len(hands) + 1


def give_time_warning(case: Mapping[str, Any]) -> dict[str, Any] | None:
    """The case with the round's time warning (限时提醒) recorded at the hand in play, or None
    when it already records one or the round has ended."""
    if "time_warning" in case or case.get("finished") == "time":
        return None
    out = copy.deepcopy(dict(case))
    out["time_warning"] = {"hand": hand_in_play(case)}
    return out


def ended_at_once(case: Mapping[str, Any], decision: Mapping[str, Any]) -> int | None:
    """The index of the hand the case still has in progress that its decision already scored:
    a ruling ended it at once (该副牌立即结束). Nothing more is logged into it; its points are
    entered next. None: no such hand."""
    hands = case.get("hands") or []
    decided = decision.get("hands") or []
    if not hands or not hands[-1].get("in_progress") or len(decided) < len(hands):
        return None
    return None if decided[len(hands) - 1].get("in_progress") else len(hands) - 1


def refuse_after_end(
    old_case: Mapping[str, Any], old_decision: Mapping[str, Any], new: Mapping[str, Any]
) -> None:
    """Refuse ``new`` when it logs an infraction into a hand that had ended at once in the
    saved version (``old_case`` judged as ``old_decision``)."""
    ended = ended_at_once(old_case, old_decision)
    if ended is None:
        return
    before = (old_case.get("hands") or [])[ended].get("infractions") or []
    hands = new.get("hands") or []
    after = hands[ended].get("infractions") or [] if len(hands) > ended else []
    if len(after) > len(before):
        where = f"hands[{ended}].infractions[{len(before)}]"
        raise CaseError(
            f"{where}: hand {ended + 1} has already ended at once (该副牌立即结束); "
            "enter its points before logging anything in the next hand",
            code="case.logged_after_end",
            field=where,
            n=ended + 1,
        )


def complete_hand(
    case: dict[str, Any],
    defender_points: int,
    redeclarations: int = 0,
    bottom: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Enter the hand's points: the hand in progress (or a new one) is scored."""
    out = copy.deepcopy(case)
    hand = hand_in_progress(out)
    if hand is None:
        hand = {"infractions": []}
        out.setdefault("hands", []).append(hand)
    hand.pop("in_progress", None)
    hand["defender_points"] = defender_points
    hand["redeclarations"] = redeclarations
    hand["bottom"] = dict(bottom or {"points": 0, "captured": False})
    if not hand.get("infractions"):
        hand.pop("infractions", None)
    return out


def correct_hand(
    case: dict[str, Any],
    hand_index: int,
    defender_points: int,
    redeclarations: int = 0,
    bottom: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Replace the points of an already scored hand (a mistyped score); its rulings stay, and
    every later hand is judged again from the corrected levels."""
    out = copy.deepcopy(case)
    hand = out["hands"][hand_index]
    if hand.get("in_progress"):
        raise CaseError("the hand is still being played: enter its points instead", code="edit.hand_in_play")
    hand["defender_points"] = defender_points
    hand["redeclarations"] = redeclarations
    hand["bottom"] = dict(bottom or {"points": 0, "captured": False})
    return out


def infraction_at(case: dict[str, Any], hand_index: int | None, index: int) -> dict[str, Any]:
    """The infraction of hand ``hand_index`` (``None``: before play) at ``index``."""
    items = case["before_play"] if hand_index is None else case["hands"][hand_index]["infractions"]
    return items[index]


def void_infraction(case: dict[str, Any], hand_index: int | None, index: int, reason: str) -> dict[str, Any]:
    """Void a logged ruling with a reason; it stays in the record, struck through."""
    out = copy.deepcopy(case)
    infraction_at(out, hand_index, index)["void"] = {"reason": reason}
    return out


def override_infraction(
    case: dict[str, Any], hand_index: int | None, index: int, sanctions: list[Any], reason: str
) -> dict[str, Any]:
    """Replace a logged ruling by the referee's own, with the reason kept."""
    out = copy.deepcopy(case)
    infraction_at(out, hand_index, index)["override"] = {"sanctions": sanctions, "reason": reason}
    return out


def end_on_time(case: dict[str, Any]) -> dict[str, Any]:
    """The round ends on time after the last complete hand (a hand in progress is dropped
    only when it carries no ruling)."""
    out = copy.deepcopy(case)
    hand = hand_in_progress(out)
    if hand is not None:
        if hand.get("infractions"):
            raise CaseError(
                "the hand in progress has rulings: enter its points first", code="edit.rulings_in_play"
            )
        out["hands"].pop()
    out["finished"] = "time"
    return out


def withdraw(case: dict[str, Any], side: str, reason: str) -> dict[str, Any]:
    """A pair leaves during the round (中途退出): the case with its ``withdrawal`` (``side``,
    the referee's ``reason``). The hands given stand and the rulebook's forfeit applies after
    them (the engine, citing ``forfeit.withdrawal_clause``). A hand in progress with no
    ruling is dropped (nothing of it was scored); one with rulings stays, its rulings stand."""
    out = copy.deepcopy(case)
    hand = hand_in_progress(out)
    if hand is not None and not hand.get("infractions"):
        out["hands"].pop()
    out["withdrawal"] = {"side": side, "reason": reason.strip()}
    return out


#: What answers a ruling after it was made: the referee's own ruling in its place (改判) or
#: its voiding (撤销), by the table referee, the chief referee or the committee.
DECISION_KEYS = ("override", "void")


@dataclass(frozen=True)
class DecisionPlace:
    """Where a decision on a ruling stands in a case: the hand (0: before play), the
    infraction's position in it, its kind, and which decision (``override`` or ``void``)."""

    hand: int
    position: int
    kind: str
    decision: str


@dataclass(frozen=True)
class CarriedForward:
    """A submitted case with what the earlier version recorded carried into it.

    ``dealers``: the hands (numbers) whose dealer as played was kept; ``decisions``: the
    decisions on rulings carried into the submitted case, which did not name them;
    ``touched``: decisions of the earlier version on rulings the submitted case changes,
    drops or decides otherwise (they are not carried: the caller must confirm them)."""

    case: dict[str, Any]
    dealers: tuple[int, ...]
    decisions: tuple[DecisionPlace, ...]
    touched: tuple[DecisionPlace, ...]


def _facts(infraction: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in infraction.items() if k not in DECISION_KEYS}


def facts_key(infraction: Mapping[str, Any]) -> str:
    """The infraction's facts as one comparable text (decisions left out)."""
    return json.dumps(_facts(infraction), sort_keys=True, ensure_ascii=False)


def _committees(decision: Any) -> bool:
    """Whether a decision on a ruling is the arbitration committee's (an appeal's): it names
    its appeal; one stored before decisions did so says it in its reason (申诉 #N)."""
    if not isinstance(decision, Mapping):
        return False
    return "appeal" in decision or str(decision.get("reason", "")).startswith("申诉 #")


def _decisions(infraction: Mapping[str, Any]) -> dict[str, Any]:
    return {k: infraction[k] for k in DECISION_KEYS if k in infraction}


def _infractions(case: Mapping[str, Any]) -> list[tuple[int, list[Any]]]:
    """(hand number, its infractions) for before play (0) and every hand."""
    out: list[tuple[int, list[Any]]] = [(0, list(case.get("before_play") or []))]
    for n, hand in enumerate(case.get("hands") or [], start=1):
        out.append((n, list(hand.get("infractions") or []) if isinstance(hand, Mapping) else []))
    return out


def carry_forward(
    earlier_case: Mapping[str, Any], earlier_decision: Mapping[str, Any], submitted: Mapping[str, Any]
) -> CarriedForward:
    """``submitted`` as a new version of ``earlier_case`` (judged as ``earlier_decision``)
    must keep what happened and what was decided since (facts are recorded, not recomputed):

    * each hand after the first that the earlier version had keeps the seat that dealt it
      (``dealt_by``), unless the submitted case names one itself or changes the first dealer
      (then the earlier dealers came from a wrong start and are not facts of this table);
    * a decision on a ruling (``override``, ``void``) stays with that ruling: an infraction of
      the same hand with the same facts that the submitted case gives without a decision gets
      the earlier one; one the submitted case changes, drops or decides otherwise is
      ``touched``.
    """
    out = copy.deepcopy(dict(submitted))
    dealers: list[int] = []
    hands = out.get("hands")
    played = earlier_decision.get("hands") or []
    if isinstance(hands, list) and out.get("first_dealer") == earlier_case.get("first_dealer"):
        for i in range(1, min(len(hands), len(played))):
            hand, was = hands[i], played[i]
            if isinstance(hand, dict) and "dealt_by" not in hand and isinstance(was, Mapping):
                if was.get("dealer") in ("N", "E", "S", "W"):
                    hand["dealt_by"] = was["dealer"]
                    dealers.append(i + 1)
    kept: list[DecisionPlace] = []
    touched: list[DecisionPlace] = []
    now = dict(_infractions(out))
    for number, items in _infractions(earlier_case):
        given = now.get(number, [])
        # infractions with the same facts are told apart by their order only: the n-th of the
        # earlier ones is the n-th of the given ones; when fewer are given, which one went is
        # not known, and a decision among them is touched
        groups: dict[str, list[int]] = {}
        for pos, inf in enumerate(items):
            if isinstance(inf, Mapping):
                groups.setdefault(facts_key(inf), []).append(pos)
        given_groups: dict[str, list[int]] = {}
        for j, other in enumerate(given):
            if isinstance(other, dict):
                given_groups.setdefault(facts_key(other), []).append(j)
        for key, positions in groups.items():
            decided = [pos for pos in positions if any(k in items[pos] for k in DECISION_KEYS)]
            if not decided:
                continue
            twins = given_groups.get(key, [])
            for n, pos in enumerate(positions):
                inf = items[pos]
                keys = [k for k in DECISION_KEYS if k in inf]
                if not keys:
                    continue
                places = [DecisionPlace(number, pos, str(inf.get("kind")), k) for k in keys]
                if len(twins) < len(positions):
                    touched.extend(places)
                    continue
                other = given[twins[n]]
                if not any(k in other for k in DECISION_KEYS):
                    for k in keys:
                        other[k] = copy.deepcopy(inf[k])
                    kept.extend(places)
                elif any(other.get(k) != inf[k] for k in keys) or (
                    _decisions(other) != _decisions(inf) and any(_committees(inf[k]) for k in keys)
                ):
                    # decided otherwise; or a decision added on top of the committee's (a table
                    # referee's voiding of the committee's warning): both need confirming
                    touched.extend(places)
            # a decision given where the earlier version had none is a new decision: no carry
    return CarriedForward(out, tuple(dealers), tuple(kept), tuple(touched))


def with_dealers(case: Mapping[str, Any], decision: Mapping[str, Any]) -> Mapping[str, Any]:
    """``case`` with the seat that dealt each hand after the first, as ``decision`` judged it,
    kept as ``dealt_by``: recorded when the hand is saved, a fact for every later version.
    The argument is left as it is; what did not change is shared with it (read it, do not
    change it: every save does this, and a copy of a whole round costs more than the rest)."""
    hands = case.get("hands")
    judged = decision.get("hands") or []
    if not isinstance(hands, list):
        return case
    out = list(hands)
    changed = False
    for i in range(1, min(len(hands), len(judged))):
        dealer = judged[i].get("dealer")
        if isinstance(hands[i], dict) and dealer and hands[i].get("dealt_by") != dealer:
            out[i] = {**hands[i], "dealt_by": dealer}
            changed = True
    return {**case, "hands": out} if changed else case


def lighter_but_worse(
    side: str, hand: int, before: Mapping[str, Any], after: Mapping[str, Any]
) -> tuple[str, str] | None:
    """Whether ``after`` (a decision with hand ``hand``'s ruling against ``side`` changed) is
    lighter for ``side`` in that hand yet leaves its match worse than ``before`` did — as a
    rule that depends on the level can make it (HBUE's J rule drops a dealer side at J):
    (the result before, after) for ``side`` as ``match points/level difference``, else None.
    An appeal must not leave the side it relieves worse off."""
    other = "EW" if side == "NS" else "NS"

    def hand_of(d: Mapping[str, Any]) -> Mapping[str, Any] | None:
        hands = d.get("hands") or []
        return hands[hand - 1] if 0 < hand <= len(hands) else None

    hb, ha = hand_of(before), hand_of(after)
    if hb is None or ha is None or hb.get("in_progress") or ha.get("in_progress"):
        return None

    def margin(h: Mapping[str, Any]) -> int:
        gains = h.get("gains") or {}
        return int(gains.get(side) or 0) - int(gains.get(other) or 0)

    lost_before = hb.get("lost_by") in (side, "both")
    lost_after = ha.get("lost_by") in (side, "both")
    lighter = (lost_before and not lost_after) or (lost_before == lost_after and margin(ha) >= margin(hb))
    if not lighter:
        return None

    def standing(d: Mapping[str, Any]) -> tuple[int, int]:
        result = d.get("result") or {}
        if result:
            return int(result["match_points"][side]), int(result["level_difference"][side])
        return 0, 0  # the round goes on: nothing decided to compare

    if not (before.get("result") and after.get("result")):
        return None
    was, now = standing(before), standing(after)
    if now >= was:
        return None
    return f"{was[0]}/{was[1]:+d}", f"{now[0]}/{now[1]:+d}"


def same_infraction(
    appealed_case: Mapping[str, Any], hand: int, position: int, case: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The infraction of ``case`` that is the one at ``position`` of hand ``hand`` (0: before
    play) in ``appealed_case`` (an earlier version of the same table): the same facts, and
    among infractions with the same facts the same one in order. None when ``case`` no
    longer has it, or has fewer of its twins (which one went is not known)."""
    then = dict(_infractions(appealed_case)).get(hand, [])
    if not 0 <= position < len(then) or not isinstance(then[position], Mapping):
        return None
    key = facts_key(then[position])
    ordinal = sum(1 for inf in then[:position] if isinstance(inf, Mapping) and facts_key(inf) == key)
    twins_then = sum(1 for inf in then if isinstance(inf, Mapping) and facts_key(inf) == key)
    now = [
        inf
        for inf in dict(_infractions(case)).get(hand, [])
        if isinstance(inf, dict) and facts_key(inf) == key
    ]
    if len(now) < twins_then:
        return None
    return now[ordinal]
