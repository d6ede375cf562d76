"""Levels (级): 2, 3, … 10, J, Q, K, A, and how a gain moves a side along them.

A mandatory level (必打级) cannot be skipped: a gain stops on it, and a side standing on
it moves on only by winning a hand as the dealer side at that level. Passing A (过A) —
winning a hand as dealer at A — wins the round.

>>> advance("9", 3, ["J", "A"], playing_it=False)
('J', False)
>>> advance("A", 1, ["A"], playing_it=True)
('A', True)
"""

from __future__ import annotations

from collections.abc import Iterable

LEVELS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_INDEX = {level: i for i, level in enumerate(LEVELS)}


def level_index(level: str) -> int:
    return _INDEX[level]


def is_level(value: object) -> bool:
    return isinstance(value, str) and value in _INDEX


def advance(level: str, gain: int, mandatory: Iterable[str], playing_it: bool) -> tuple[str, bool]:
    """Move ``level`` up by ``gain`` levels; return the new level and whether A was passed.

    ``playing_it`` is true when the side won this hand as the dealer side at ``level``:
    only then may it leave a mandatory level, and only then does a gain at A pass A.
    A negative gain moves down, never below 2.
    """
    if gain < 0:
        return LEVELS[max(0, _INDEX[level] + gain)], False
    if gain == 0:
        return level, False
    stops = set(mandatory) | {"A"}
    if level in stops and not playing_it:
        return level, False
    index = _INDEX[level]
    for _ in range(gain):
        if LEVELS[index] == "A":
            return "A", playing_it
        index += 1
        if LEVELS[index] in stops:
            break
    return LEVELS[index], False


def difference(a: str, b: str) -> int:
    """Level difference (级差) of ``a`` over ``b``."""
    return _INDEX[a] - _INDEX[b]
