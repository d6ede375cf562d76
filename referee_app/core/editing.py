"""Changes a referee makes to a round's case (记录), as pure functions on case dicts.

Each returns a new case and leaves its argument untouched, so a proposal can be previewed
(judged) before it is saved, and every saved version stays as it was.
"""

from __future__ import annotations

import copy
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
