"""One ruling (判罚) as data: what the engine decides on an infraction and what the store
keeps, in no language. Its own module because the engine makes rulings and :mod:`.text`
words them: both import it, neither imports the other."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .seats import SIDES


@dataclass
class Ruling:
    """One ruling (判罚) on one infraction: the sanction, where it comes from, and why."""

    kind: str
    seat: str | None
    side: str
    against: str
    points: int = 0
    warning: bool = False
    hand_lost: bool = False
    award: dict[str, int] | None = None
    ends_hand: bool = False
    round_forfeit: bool = False
    suspension_rounds: int = 0
    disqualified: bool = False
    levels: dict[str, int] = field(default_factory=dict)
    instruction: dict[str, str] | None = None
    occurrence: int = 1
    scope: str | None = None
    escalated: bool = False
    assumed: bool = False
    rule: str = ""
    branch: str = ""
    citation: str = ""
    clause: dict[str, Any] = field(default_factory=dict)
    override_reason: str | None = None
    proposed: Ruling | None = None
    void_reason: str | None = None
    role: str | None = None  # "dealer_side" or "defenders" when ruled during a hand
    label: dict[str, str] = field(default_factory=dict)
    #: The infraction this ruling answers, by its place in the case (``hands[1].infractions[0]``).
    infraction: str = ""

    def to_json(self) -> dict[str, Any]:
        """The ruling as data, in no language: what is stored, chained and hashed. The words a
        referee reads are added by :func:`word` (``text``, the ``instruction`` in one language)."""
        out: dict[str, Any] = {
            "infraction": self.infraction,
            "kind": self.kind,
            "seat": self.seat,
            "side": self.side,
            "points": self.points,
            "against": self.against,
            "warning": self.warning,
            "hand_lost": self.hand_lost,
            "award": self.award,
            "ends_hand": self.ends_hand,
            "round_forfeit": self.round_forfeit,
            "suspension_rounds": self.suspension_rounds,
            "disqualified": self.disqualified,
            "levels": {s: self.levels.get(s, 0) for s in SIDES},
            "instruction": self.instruction,
            "occurrence": self.occurrence,
            "scope": self.scope,
            "escalated": self.escalated,
            "assumed": self.assumed,
            "rule": self.rule,
            "branch": self.branch,
            "citation": self.citation,
            "role": self.role,
            "label": self.label,
            "overridden": self.override_reason is not None,
            "voided": self.void_reason is not None,
        }
        if self.void_reason is not None:
            out["void_reason"] = self.void_reason
        if self.override_reason is not None:
            out["override_reason"] = self.override_reason
            assert self.proposed is not None
            out["proposed"] = self.proposed.to_json()
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ruling:
        """The ruling back from :meth:`to_json` (to word it in a language)."""
        proposed = data.get("proposed")
        return cls(
            kind=data["kind"],
            seat=data.get("seat"),
            side=data["side"],
            against=data["against"],
            points=int(data.get("points") or 0),
            warning=bool(data.get("warning")),
            hand_lost=bool(data.get("hand_lost")),
            award=data.get("award"),
            ends_hand=bool(data.get("ends_hand")),
            round_forfeit=bool(data.get("round_forfeit")),
            suspension_rounds=int(data.get("suspension_rounds") or 0),
            disqualified=bool(data.get("disqualified")),
            levels=dict(data.get("levels") or {}),
            instruction=data.get("instruction"),
            occurrence=int(data.get("occurrence") or 1),
            scope=data.get("scope"),
            escalated=bool(data.get("escalated")),
            assumed=bool(data.get("assumed")),
            rule=data.get("rule") or "",
            branch=data.get("branch") or "",
            citation=data.get("citation") or "",
            override_reason=data.get("override_reason"),
            proposed=cls.from_json(proposed) if isinstance(proposed, Mapping) else None,
            void_reason=data.get("void_reason"),
            role=data.get("role"),
            label=dict(data.get("label") or {}),
            infraction=data.get("infraction") or "",
        )
