"""Pairing the next round: 积分编排 (Swiss-style, by score groups) and the knockout draw.

Pure Python. :func:`pair_round` reads the same :class:`~.standings.EventRecord` as the
standings and returns a :class:`Pairing`: tables (table, NS pair, EW pair) and the bye.

积分编排 (Gansu 六、三: "第一轮对阵由裁判长…统一抽签 … 从第二轮开始 … 高分对高分，积分相近的
相遇。相遇过的对不再相遇。"):

* **round 1** by lot: the pairs in the order of ``sha256("<seed>:r1:<pair>")`` (the
  seed is recorded in the output), tables 1, 2, … in that order, the first of each two NS.
* **later rounds**: the pairs playing are ranked by the standings after the previous round
  (the rulebook's tie-break order, lots with the same seed). The highest-ranked unpaired
  pair meets the next-highest it has not met; when that leaves the rest unpairable the
  search backtracks and tries the next candidate, so a pair floats down into the next score
  group only when its own group cannot be paired. Two pairs never meet twice (a forfeited
  match counts as a meeting).
* **bye (轮空)** for an odd field: the lowest-ranked pair that has not had a bye and whose
  absence leaves the rest pairable. A pair has at most one bye; when every pair has had
  one the pairing is refused.
* **seats**: the pair that has sat NS fewer times sits NS; equal → the higher-ranked pair.
  Table 1 is the top match.
* pairs suspended (停赛) in the round, and pairs disqualified in an earlier round, are not
  paired.

Knockout (HBUE 通知四、(一): "每盘比赛全部结束后胜出者开始现场抽签进入下一盘比赛"): round 1 by lot
among all pairs; later rounds draw lots among the previous round's winners (and its bye):
order by ``sha256("<seed>:r<R>:<pair>")``, tables in that order, and for an odd number of
winners the last drawn pair without a bye so far has the bye.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .standings import EventRecord, compute_standings, lot_digest, natural_key

SEARCH_LIMIT = 2_000_000
"""Candidate pairings tried before the search gives up (a field that cannot be paired)."""


class PairingError(ValueError):
    """The round cannot be paired under the rules: the message says why, in one line."""


@dataclass(frozen=True, slots=True)
class Table:
    table: int
    ns: str
    ew: str


@dataclass
class Pairing:
    """A round's pairing: ``method`` is ``"lot"``, ``"swiss"`` or ``"knockout"``."""

    round: int
    method: str
    seed: int
    tables: list[Table] = field(default_factory=list)
    bye: str | None = None

    def to_json(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"table": t.table, "NS": t.ns, "EW": t.ew} for t in self.tables]
        if self.bye is not None:
            out.append({"bye": self.bye})
        return out


def active_pairs(record: EventRecord, round_no: int) -> list[str]:
    """The pairs that play round ``round_no``: not suspended then, not disqualified before."""
    out = []
    for p in record.pairs:
        dq = record.disqualified_in(p)
        if dq is not None and dq < round_no:
            continue
        if record.suspended(p, round_no):
            continue
        out.append(p)
    return out


def pair_round(
    rulebook: Any,
    record: EventRecord,
    round_no: int,
    *,
    seed: int = 0,
    knockout: bool = False,
) -> Pairing:
    """The pairing of round ``round_no`` from the results of the rounds before it (later
    rounds, if any are recorded, are not read)."""
    if round_no < 1:
        raise PairingError(f"--round: expected a round number ≥ 1, got {round_no}")
    if knockout:
        return _knockout(record, round_no, seed)
    playing = active_pairs(record, round_no)
    if round_no == 1:
        return _by_lot(playing, round_no, seed, set())
    if len(playing) < 2:
        raise PairingError(f"round {round_no}: {len(playing)} pair(s) to play; nothing to pair")
    table = compute_standings(rulebook, record, through_round=round_no - 1, seed=seed)
    rank = {row["pair"]: i for i, row in enumerate(table.rows)}
    order = sorted(playing, key=lambda p: (rank.get(p, len(rank)), natural_key(p)))
    met: set[frozenset[str]] = {frozenset((m.ns, m.ew)) for m in record.results if m.round < round_no}
    had_bye = {b.pair for b in record.byes if b.round < round_no}
    ns_seats = Counter(m.ns for m in record.results if m.round < round_no)

    bye: str | None = None
    matches: list[tuple[str, str]] | None = None
    if len(order) % 2:
        candidates = [p for p in reversed(order) if p not in had_bye]
        if not candidates:
            raise PairingError(f"round {round_no}: every pair has had a bye; an odd field cannot be paired")
        budget = _Budget()
        for cand in candidates:
            rest = tuple(p for p in order if p != cand)
            matches = _match(rest, met, budget)
            if matches is not None:
                bye = cand
                break
    else:
        matches = _match(tuple(order), met, _Budget())
    if matches is None:
        raise PairingError(
            f"round {round_no}: {len(order)} pairs cannot all be paired without two pairs meeting again"
        )
    tables = []
    for i, (hi, lo) in enumerate(matches, start=1):
        ns, ew = (lo, hi) if ns_seats[lo] < ns_seats[hi] else (hi, lo)
        tables.append(Table(i, ns, ew))
    return Pairing(round_no, "swiss", seed, tables, bye)


class _Budget:
    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = SEARCH_LIMIT


def _match(order: tuple[str, ...], met: set[frozenset[str]], budget: _Budget) -> list[tuple[str, str]] | None:
    """Pair ``order`` (best first), top against the next it has not met, backtracking.

    Depth-first: the first complete pairing found in this order is the one that keeps each
    pair as high as it can go; sets of pairs already shown unpairable are remembered.
    """
    failed: set[tuple[str, ...]] = set()
    opponents: dict[str, set[str]] = {p: set() for p in order}
    for m in met:
        a, b = tuple(m)
        if a in opponents and b in opponents:
            opponents[a].add(b)
            opponents[b].add(a)

    def solve(remaining: tuple[str, ...]) -> list[tuple[str, str]] | None:
        if not remaining:
            return []
        if remaining in failed:
            return None
        top, seen = remaining[0], opponents[remaining[0]]
        for j in range(1, len(remaining)):
            cand = remaining[j]
            if cand in seen:
                continue
            budget.left -= 1
            if budget.left < 0:
                raise PairingError(
                    f"the pairing search gave up after {SEARCH_LIMIT} tries; pair this round by hand"
                )
            sub = solve(remaining[1:j] + remaining[j + 1 :])
            if sub is not None:
                sub.append((top, cand))
                return sub
        failed.add(remaining)
        return None

    found = solve(order)
    if found is None:
        return None
    found.reverse()
    return found


def _by_lot(playing: Sequence[str], round_no: int, seed: int, had_bye: set[str]) -> Pairing:
    if len(playing) < 2:
        raise PairingError(f"round {round_no}: {len(playing)} pair(s) to play; nothing to pair")
    drawn = sorted(playing, key=lambda p: lot_digest(seed, p, f"r{round_no}:"))
    bye = None
    if len(drawn) % 2:
        without = [p for p in drawn if p not in had_bye]
        bye = (without or drawn)[-1]
        drawn.remove(bye)
    tables = [Table(i + 1, drawn[2 * i], drawn[2 * i + 1]) for i in range(len(drawn) // 2)]
    return Pairing(round_no, "lot" if round_no == 1 else "knockout", seed, tables, bye)


def _knockout(record: EventRecord, round_no: int, seed: int) -> Pairing:
    playing = active_pairs(record, round_no)
    if round_no == 1:
        return _by_lot(playing, 1, seed, set())
    prev = round_no - 1
    winners: list[str] = []
    for m in sorted(record.results, key=lambda m: (m.round, natural_key(m.ns))):
        if m.round != prev:
            continue
        if m.winner is None:
            raise PairingError(f"round {prev}: pairs {m.ns} and {m.ew} have no winner; a knockout needs one")
        winners.append(m.ns if m.winner == "NS" else m.ew)
    winners += [b.pair for b in record.byes if b.round == prev]
    still = set(playing)
    winners = [p for p in winners if p in still]
    if not winners:
        raise PairingError(f"round {prev} has no results yet; a knockout draws among its winners")
    if len(winners) == 1:
        raise PairingError(f"round {prev} left one winner, pair {winners[0]}: the knockout is over")
    had_bye = {b.pair for b in record.byes if b.round < round_no}
    pairing = _by_lot(winners, round_no, seed, had_bye)
    pairing.method = "knockout"
    return pairing
