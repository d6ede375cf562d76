"""Knockout (淘汰制) bookkeeping: who is still in, who won a match, the final placings.

Pure Python, read from the same :class:`~.standings.EventRecord` as the standings.

* **the field of a round**: round 1 is every pair that plays it; round R > 1 is the winners
  of round R−1 and its bye, less the pairs that withdrew or were disqualified since. A pair
  missing from a round's matches is therefore a bye only if it was in that round's field —
  however many pairs have gone out before (13 pairs: a bye in round 1 and in round 2).
* **a match's winner**: the recorded winner; a tied match (平局, e.g. 2:2 with neither side
  moving) has none and the event stops there until the chief referee enters the deciding
  result (:class:`~.standings.Decider`: by lots or by decision, with its reason).
* **placings**: the last pair standing is 1st; the others are ranked by the round they went
  out in (later is better), sharing a place within a round (e.g. the two semi-final losers
  share 3rd) unless the rulebook's placing rule separates them (see :func:`placings`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .standings import EventRecord, MatchResult, lot_digest, natural_key


@dataclass(frozen=True, slots=True)
class Undecided:
    """A match of the round that has no winner yet: a tie waiting for the deciding result."""

    round: int
    ns: str
    ew: str


def winner_of(record: EventRecord, m: MatchResult) -> str | None:
    """The pair that goes on from match ``m``: its winner, or the chief referee's decider."""
    if m.winner == "NS":
        return m.ns
    if m.winner == "EW":
        return m.ew
    for d in record.deciders:
        if d.round == m.round and {d.winner, d.loser} == {m.ns, m.ew}:
            return d.winner
    return None


def loser_of(record: EventRecord, m: MatchResult) -> str | None:
    w = winner_of(record, m)
    if w is None:
        return None
    return m.ew if w == m.ns else m.ns


def field_of(record: EventRecord, round_no: int) -> list[str]:
    """The pairs that should play knockout round ``round_no`` (in pair-number order)."""
    if round_no <= 1:
        return sorted((p for p in record.pairs if record.plays(p, 1)), key=natural_key)
    prev = round_no - 1
    on: list[str] = []
    for m in record.results:
        if m.round == prev:
            w = winner_of(record, m)
            if w is not None:
                on.append(w)
    on += [b.pair for b in record.byes if b.round == prev]
    return sorted((p for p in set(on) if record.plays(p, round_no)), key=natural_key)


def undecided(record: EventRecord, round_no: int) -> list[Undecided]:
    """The round's tied matches without a deciding result."""
    return [
        Undecided(m.round, m.ns, m.ew)
        for m in record.results
        if m.round == round_no and winner_of(record, m) is None
    ]


def placings(
    record: EventRecord, rule: Mapping[str, Any] | None = None, seed: int = 0
) -> list[dict[str, Any]]:
    """Rows ``{"rank", "pair", "out_in", "won", "split", "prize"}`` best first.

    ``out_in`` is the round the pair lost in (None for the winner and pairs still in).
    Without a ``rule`` ranks are shared within a round. With the rulebook's
    ``standings.placings`` (``decided``, ``split_by``, ``prizes``), pairs that went out in the
    same round are separated while their places are within ``decided``, by the level
    difference of the match they lost (closer ranks higher), then lots (``seed``); ``split``
    names what separated a pair from the next (None when nothing had to). ``prize`` is the
    index of the rulebook's prize the place earns (None: no prize). Pairs that never played
    (withdrew before round 1) come last, unranked (``rank`` None)."""
    out_in: dict[str, int] = {}
    lost_by: dict[str, int] = {}
    won: dict[str, int] = {p: 0 for p in record.pairs}
    reached: dict[str, int] = {p: 0 for p in record.pairs}
    for m in record.results:
        for p in (m.ns, m.ew):
            reached[p] = max(reached.get(p, 0), m.round)
        w = winner_of(record, m)
        if w is None:
            continue
        won[w] = won.get(w, 0) + 1
        lost = m.ew if w == m.ns else m.ns
        out_in[lost] = m.round
        lost_by[lost] = m.ew_level_difference if lost == m.ew else m.ns_level_difference
    for b in record.byes:
        reached[b.pair] = max(reached.get(b.pair, 0), b.round)
    for d in record.disqualifications:
        out_in.setdefault(d.pair, d.round)
    for wd in record.withdrawals:
        if wd.back_from is None and wd.pair not in out_in:
            out_in[wd.pair] = wd.first_round if wd.first_round > 1 or reached.get(wd.pair, 0) else 0

    def group(p: str) -> tuple[int, int]:
        gone = out_in.get(p)
        return (1 if gone is not None else 0, -(gone if gone is not None else reached[p]))

    order = sorted(record.pairs, key=lambda p: (group(p), natural_key(p)))
    decided = int(rule["decided"]) if rule else 0
    split_by = list(rule["split_by"]) if rule else []
    rows: list[dict[str, Any]] = []
    i = 0
    while i < len(order):
        g = group(order[i])
        same = [p for p in order[i:] if group(p) == g]
        gone = out_in.get(same[0])
        if gone == 0:
            rows += [{"rank": None, "pair": p, "out_in": 0, "won": won[p], "split": None} for p in same]
        elif len(same) > 1 and i < decided and split_by:
            keys: list[tuple[tuple[Any, ...], str]] = []
            for p in same:
                k: list[Any] = []
                for how in split_by:
                    k.append(
                        -lost_by.get(p, 0) if how == "level_difference" else lot_digest(seed, p, "place:")
                    )
                keys.append((tuple(k), p))
            keys.sort()
            for j, (key, p) in enumerate(keys):
                split = None
                if j + 1 < len(keys):
                    nxt = keys[j + 1][0]
                    split = next((split_by[x] for x in range(len(key)) if key[x] != nxt[x]), None)
                rank = i + j + 1
                if rank > decided:  # past the decided places: shared with the rest of its round
                    rank, split = max(decided + 1, i + 1), None
                rows.append({"rank": rank, "pair": p, "out_in": gone, "won": won[p], "split": split})
        else:
            rows += [{"rank": i + 1, "pair": p, "out_in": gone, "won": won[p], "split": None} for p in same]
        i += len(same)
    from .prizes import prize_of

    prizes = list(rule.get("prizes") or []) if rule else []
    for r in rows:
        r["prize"] = prize_of(r["rank"], prizes)
    return rows


def decided_how(record: EventRecord, m: MatchResult) -> str | None:
    """How a tied match was decided: the chief referee's decider's ``how`` (``"lots"`` or
    ``"decision"``); None when the match had a winner of its own (or none yet)."""
    if m.winner is not None:
        return None
    for d in record.deciders:
        if d.round == m.round and {d.winner, d.loser} == {m.ns, m.ew}:
            return d.how
    return None


def prize_overflow(rows: Sequence[Mapping[str, Any]], rule: Mapping[str, Any] | None) -> list[dict[str, int]]:
    """The prizes more pairs earn than the rulebook gives (shared places reach past a
    prize's count): ``{"prize": index, "count": given, "pairs": earning}`` each; [] when
    every prize's places are within its count (:func:`.prizes.overflow`)."""
    from .prizes import overflow

    return overflow(rows, list((rule or {}).get("prizes") or []))
