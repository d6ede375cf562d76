"""Prizes (奖项) down the places: which place earns which of the rulebook's prizes, and where
the places do not settle a prize list by themselves.

A rulebook states its prizes in order with a count each (Gansu 七 "第1名…第4-12名纪念奖";
HBUE 五 "一等(名次)奖8对，二等奖24对，三等奖32对"): the first ``count`` places earn the
first prize, the next ``count`` the second, and so on. Two things the chief referee must
settle, which this module names and never decides:

* **overflow** — shared places (a knockout's pairs out in one round past its decided places)
  give a prize to more pairs than its count;
* **lots at a boundary** — pairs equal on every criterion before the lots straddle a prize's
  last place: the lots alone decide which of them gets it.

Pure Python, language-free: the app words them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def prize_of(rank: int | None, prizes: Sequence[Mapping[str, Any]]) -> int | None:
    """The index of the prize place ``rank`` earns (None: no prize, or no rank).

    >>> prize_of(9, [{"count": 8}, {"count": 24}]), prize_of(33, [{"count": 8}, {"count": 24}])
    (1, None)
    """
    if rank is None:
        return None
    top = 0
    for n, prize in enumerate(prizes):
        top += int(prize["count"])
        if rank <= top:
            return n
    return None


def overflow(rows: Sequence[Mapping[str, Any]], prizes: Sequence[Mapping[str, Any]]) -> list[dict[str, int]]:
    """The prizes more pairs earn than the rulebook gives (shared places reach past a
    prize's count): ``{"prize": index, "count": given, "pairs": earning}`` each; [] when
    every prize's places are within its count. ``rows`` carry each pair's ``prize``."""
    earning = [sum(1 for r in rows if r.get("prize") == n) for n in range(len(prizes))]
    return [
        {"prize": n, "count": int(prize["count"]), "pairs": earning[n]}
        for n, prize in enumerate(prizes)
        if earning[n] > int(prize["count"])
    ]


def tied_groups(rows: Sequence[Mapping[str, Any]], tie_breaks: Sequence[str]) -> list[list[str]]:
    """Groups (two pairs or more, in rank order) of a standings table's rows equal on every
    criterion before the lots: their order is the lots' (or they share a rank)."""
    keys = [k for k in tie_breaks if k not in ("match_points", "lots")]
    groups: dict[tuple[Any, ...], list[str]] = {}
    for row in rows:
        key = (row["match_points"], *(repr(row["tiebreaks"].get(k)) for k in keys))
        groups.setdefault(key, []).append(str(row["pair"]))
    return [members for members in groups.values() if len(members) > 1]


def decided_by_lots(
    rows: Sequence[Mapping[str, Any]], groups: Sequence[Sequence[str]], prizes: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Tied groups (:func:`tied_groups`) whose places straddle a prize's last place: the
    lots alone gave some of them a prize (or a better one) the others do not get.
    ``{"pairs": [...], "first": place, "last": place, "prize": index of the better prize}``."""
    rank = {str(r["pair"]): r.get("rank") for r in rows}
    out = []
    for members in groups:
        earned = [prize_of(rank.get(p), prizes) for p in members]
        if len(set(earned)) > 1:
            places = [int(r) for p in members if (r := rank.get(p)) is not None]
            best = min(e for e in earned if e is not None)
            out.append({"pairs": list(members), "first": min(places), "last": max(places), "prize": best})
    return out
