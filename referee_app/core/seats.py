"""Seats (座位), sides (方) and the order of play.

Play and dealing go counter-clockwise: the next seat (下家) after E is N, after N is W,
after W is S and after S is E. N/S are partners, E/W are partners.

>>> next_seat("E"), partner("E"), side_of("N")
('N', 'W', 'NS')
"""

from __future__ import annotations

SEATS: tuple[str, ...] = ("E", "S", "W", "N")
SIDES: tuple[str, ...] = ("NS", "EW")

_NEXT = {"E": "N", "N": "W", "W": "S", "S": "E"}
_PARTNER = {"E": "W", "W": "E", "N": "S", "S": "N"}

SEAT_NAMES = {
    "zh": {"E": "东", "S": "南", "W": "西", "N": "北"},
    "en": {"E": "East", "S": "South", "W": "West", "N": "North"},
}
SIDE_NAMES = {
    "zh": {"NS": "南北方", "EW": "东西方"},
    "en": {"NS": "North-South", "EW": "East-West"},
}


def next_seat(seat: str) -> str:
    """The seat that plays after ``seat`` (下家)."""
    return _NEXT[seat]


def partner(seat: str) -> str:
    """The partner's seat (对家)."""
    return _PARTNER[seat]


def side_of(seat: str) -> str:
    """The side a seat belongs to: ``NS`` or ``EW``."""
    return "NS" if seat in ("N", "S") else "EW"


def other_side(side: str) -> str:
    return "EW" if side == "NS" else "NS"
