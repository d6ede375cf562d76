"""Pairing the next round: 积分编排 (Swiss-style, by score groups) and the knockout draw.

Pure Python. :func:`pair_round` reads the same :class:`~.standings.EventRecord` as the
standings and returns a :class:`Pairing`: tables (table, NS pair, EW pair) and the bye.

积分编排 (Gansu 六、三: "第一轮对阵由裁判长…统一抽签 … 从第二轮开始 … 高分对高分，积分相近的
相遇。相遇过的对不再相遇。"):

* **round 1** by lot: the pairs in the order of ``sha256("<seed>:r1:<pair>")`` (the
  seed is recorded in the output), tables 1, 2, … in that order, the first of each two NS.
* **later rounds**: the pairs playing are ranked by the standings after the previous round
  (the rulebook's tie-break order, lots with the same seed). The pairing is the one that is
  best under this order of criteria, each counting only when the ones before it tie
  (:func:`pairing_cost`; a maximum-weight perfect matching finds it exactly):

  1. no two pairs meet twice (a forfeited match counts as a meeting) — never broken;
  2. the bye to the lowest-ranked eligible pair (below);
  3. the smallest **weighted score gap**: the sum over the tables of the square of the
     two pairs' difference in match points. "高分对高分，积分相近的相遇": a table two points
     apart weighs 4, two tables one point apart weigh 2, so one large gap costs more than
     several small ones, and the leader never meets a near-bottom pair when a legal
     pairing with smaller differences exists;
  4. seat balance: the fewest tables where both pairs are due the same seat;
  5. the smallest sum of rank distances (1 meets 2, 3 meets 4 within a group).

  The same criteria at every field size: one exact matching over every legal table of the
  whole field, up to :data:`BLOCK_LIMIT` pairs. Fields over :data:`BLOCK_LIMIT` pairs are
  matched in blocks of :data:`BLOCK` consecutive ranks, best first, each as above; pairs a
  block cannot seat move down into the next (a table across a block boundary is not
  considered there — a compromise made only for speed, for fields no hall has seen).
  :func:`explain_pairing` says, per table, which pair floated and which criterion decided.
* **bye (轮空)** for an odd field: the lowest-ranked pair that has not had a bye and whose
  absence leaves the rest pairable. A pair has at most one bye; when every pair has had
  one the pairing is refused. A pair that entered late has not had a bye for the rounds
  before its entry.
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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import knockout as ko
from .errors import Reported
from .standings import EventRecord, compute_standings, lot_digest, natural_key

BLOCK_LIMIT = 256
"""Fields up to this many pairs are one exact matching over every legal table of the whole
field; larger ones are matched in blocks of :data:`BLOCK` consecutive ranks, a compromise
made only for speed: the matching over every table grows with the cube of the field
(rustworkx, one round: 0.04 s at 96 pairs, 0.15 s at 200, 2.8 s at 512, 33 s at 1024).
Every field of up to 256 pairs — every event the seeds describe — gets the exact optimum."""

BLOCK = 256
"""Pairs per block in fields over :data:`BLOCK_LIMIT`."""

Progress = Callable[[int, int], None]
"""``progress(pairs done, pairs in all)`` while a large field is paired."""


class PairingError(Reported, ValueError):
    """The round cannot be paired under the rules: the message says why, in one line."""

    default_code = "pairing.error"


@dataclass(frozen=True, slots=True)
class Table:
    table: int
    ns: str
    ew: str


@dataclass
class Pairing:
    """A round's pairing: ``method`` is ``"lot"``, ``"swiss"``, ``"knockout"`` or
    ``"entered"`` (the draw made in the hall, entered as made)."""

    round: int
    method: str
    seed: int | None
    tables: list[Table] = field(default_factory=list)
    bye: str | None = None

    def to_json(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"table": t.table, "NS": t.ns, "EW": t.ew} for t in self.tables]
        if self.bye is not None:
            out.append({"bye": self.bye})
        return out


def active_pairs(record: EventRecord, round_no: int) -> list[str]:
    """The pairs in the field of round ``round_no``: entered, not withdrawn, not suspended
    then, not disqualified before."""
    return [p for p in record.pairs if record.plays(p, round_no)]


def expected_pairs(record: EventRecord, round_no: int, *, knockout: bool = False) -> list[str]:
    """The pairs that should have a match or the bye in round ``round_no``."""
    return ko.field_of(record, round_no) if knockout else active_pairs(record, round_no)


def round_gaps(record: EventRecord, round_no: int, *, knockout: bool = False) -> list[str]:
    """What keeps round ``round_no`` from being complete, one language-free line each:
    ``"missing <pair>"`` (expected, no result and no bye) and, in a knockout,
    ``"undecided <ns> <ew>"`` (a tie without the deciding result)."""
    seen = {p for m in record.results if m.round == round_no for p in (m.ns, m.ew)}
    seen |= {b.pair for b in record.byes if b.round == round_no}
    gaps = [f"missing {p}" for p in expected_pairs(record, round_no, knockout=knockout) if p not in seen]
    if knockout:
        gaps += [f"undecided {u.ns} {u.ew}" for u in ko.undecided(record, round_no)]
    return gaps


def check_pairing(
    record: EventRecord, pairing: Pairing, *, knockout: bool = False
) -> tuple[list[str], list[str]]:
    """Before publishing: (errors, warnings), one line each. Errors: a pair outside the
    round's field, a pair twice, a pair of the field left out, tables not numbered 1, 2, …
    Warnings: a rematch, a second bye (allowed by hand, but the chief referee should know)."""
    errors: list[str] = []
    warnings: list[str] = []
    rnd = pairing.round
    field_ = set(expected_pairs(record, rnd, knockout=knockout))
    seated = [p for t in pairing.tables for p in (t.ns, t.ew)] + ([pairing.bye] if pairing.bye else [])
    for p, c in sorted(Counter(seated).items(), key=lambda x: natural_key(x[0])):
        if c > 1:
            errors.append(f"round {rnd}: pair {p} appears {c} times")
    for p in sorted(set(seated) - field_, key=natural_key):
        errors.append(f"round {rnd}: pair {p} is not in the round's field")
    left = sorted(field_ - set(seated), key=natural_key)
    if left:
        errors.append(f"round {rnd}: pair(s) {', '.join(left)} of the field have no table and no bye")
    numbers = [t.table for t in pairing.tables]
    if numbers != list(range(1, len(numbers) + 1)):
        errors.append(f"round {rnd}: tables numbered {numbers}, expected 1 … {len(numbers)}")
    met = {frozenset((m.ns, m.ew)): m.round for m in record.results if m.round < rnd}
    for t in pairing.tables:
        if t.ns == t.ew:
            continue
        earlier = met.get(frozenset((t.ns, t.ew)))
        if earlier is not None:
            warnings.append(
                f"round {rnd} table {t.table}: pairs {t.ns} and {t.ew} already met in round {earlier}"
            )
    if pairing.bye and any(b.pair == pairing.bye and b.round < rnd for b in record.byes):
        warnings.append(f"round {rnd}: pair {pairing.bye} has had a bye already")
    return errors, warnings


def pairing_from_json(round_no: int, data: Any, method: str = "entered", seed: int | None = None) -> Pairing:
    """A pairing from the JSON ``pair --json`` prints (tables, then ``{"bye": …}``), e.g. one
    edited or entered by hand; a one-line error naming the entry when it is malformed."""
    if not isinstance(data, list):
        raise PairingError("pairing: expected a JSON list of tables", code="pairing.not_list")
    tables: list[Table] = []
    bye: str | None = None
    for i, row in enumerate(data):
        if not isinstance(row, dict):
            raise PairingError(
                f"pairing[{i}]: expected an object", code="pairing.row_not_object", field=f"pairing[{i}]"
            )
        if "bye" in row:
            if bye is not None:
                raise PairingError(
                    f"pairing[{i}]: a second bye", code="pairing.row_second_bye", field=f"pairing[{i}]"
                )
            bye = str(row["bye"])
            continue
        try:
            tables.append(Table(int(row["table"]), str(row["NS"]), str(row["EW"])))
        except (KeyError, TypeError, ValueError):
            raise PairingError(
                f"pairing[{i}]: expected table, NS and EW, got {row}",
                code="pairing.row_shape",
                field=f"pairing[{i}]",
            ) from None
    return Pairing(round_no, method, seed, tables, bye)


def pair_round(
    rulebook: Any,
    record: EventRecord,
    round_no: int,
    *,
    seed: int = 0,
    knockout: bool = False,
    drawn: Sequence[str] | None = None,
    progress: Progress | None = None,
) -> Pairing:
    """The pairing of round ``round_no`` from the results of the rounds before it (later
    rounds, if any are recorded, are not read).

    ``drawn``: the draw as made in the hall (the pairs in the order drawn; tables 1, 2, …
    take them two by two, the first NS; an odd last one has the bye). Only for a round
    paired by lot (round 1, or a knockout round); checked against the field."""
    if round_no < 1:
        raise PairingError(
            f"--round: expected a round number ≥ 1, got {round_no}",
            code="input.round",
            field="round",
            got=round_no,
        )
    if knockout:
        return _knockout(record, round_no, seed, drawn)
    playing = active_pairs(record, round_no)
    if round_no == 1:
        if drawn is not None:
            return _entered(playing, round_no, drawn, set())
        return _by_lot(playing, round_no, seed, set())
    if drawn is not None:
        raise PairingError(
            f"round {round_no}: a Swiss round after round 1 is paired by score, not drawn",
            code="pairing.not_drawn",
            round=round_no,
        )
    if len(playing) < 2:
        raise PairingError(f"round {round_no}: {len(playing)} pair(s) to play; nothing to pair")
    f = swiss_field(rulebook, record, round_no, playing, seed)
    order, met, had_bye, points, due, ns_seats = f.order, f.met, f.had_bye, f.points, f.due, f.ns_seats

    bye: str | None = None
    matches: list[tuple[str, str]] | None = None
    if len(order) % 2:
        candidates = [p for p in reversed(order) if p not in had_bye]
        if not candidates:
            raise PairingError(
                f"round {round_no}: every pair has had a bye; an odd field cannot be paired",
                code="pairing.all_had_bye",
                round=round_no,
            )
        for cand in candidates:
            rest = [p for p in order if p != cand]
            matches = best_matching(rest, met, points, due, progress)
            if matches is not None:
                bye = cand
                break
    else:
        matches = best_matching(order, met, points, due, progress)
    if matches is None:
        raise PairingError(
            f"round {round_no}: {len(order)} pairs cannot all be paired without two pairs meeting again",
            code="pairing.rematch",
            round=round_no,
            n=len(order),
        )
    pos = {p: i for i, p in enumerate(order)}
    matches.sort(key=lambda m: min(pos[m[0]], pos[m[1]]))
    tables = []
    for i, (a, b) in enumerate(matches, start=1):
        hi, lo = (a, b) if pos[a] < pos[b] else (b, a)
        ns, ew = (lo, hi) if ns_seats[lo] < ns_seats[hi] else (hi, lo)
        tables.append(Table(i, ns, ew))
    return Pairing(round_no, "swiss", seed, tables, bye)


@dataclass(frozen=True)
class SwissField:
    """What a score-group round is paired from: the pairs playing in standings order (best
    first), the meetings and byes before the round, match points, seats due (NS − EW)."""

    order: list[str]
    met: set[frozenset[str]]
    had_bye: set[str]
    points: dict[str, int]
    due: dict[str, int]
    ns_seats: Counter[str]


def swiss_field(
    rulebook: Any, record: EventRecord, round_no: int, playing: Sequence[str], seed: int
) -> SwissField:
    table = compute_standings(rulebook, record, through_round=round_no - 1, seed=seed)
    rank = {row["pair"]: i for i, row in enumerate(table.rows)}
    points = {row["pair"]: int(row["match_points"]) for row in table.rows}
    order = sorted(playing, key=lambda p: (rank.get(p, len(rank)), natural_key(p)))
    met: set[frozenset[str]] = {frozenset((m.ns, m.ew)) for m in record.results if m.round < round_no}
    had_bye = {b.pair for b in record.byes if b.round < round_no}
    ns_seats = Counter(m.ns for m in record.results if m.round < round_no)
    ew_seats = Counter(m.ew for m in record.results if m.round < round_no)
    due = {p: ns_seats[p] - ew_seats[p] for p in order}
    return SwissField(order, met, had_bye, points, due, ns_seats)


@dataclass(frozen=True, slots=True)
class TableWhy:
    """Why a table of a round is as it is (为什么这样编排), language-free; worded at the edges.

    ``ns_points``/``ew_points``: match points before the round; ``ns_rank``/``ew_rank``:
    places in the standings before it (1 = first). ``floated_down``: the pair with more
    points, playing below its score group (下浮); ``floated_up``: the one with fewer,
    playing above its group (上浮); both None for a table within one group.

    ``decided_by``: ``"lot"`` (drawn), ``"entered"`` (made by hand or seated at the tables),
    ``"rematch"`` (every exchange of opponents with another table makes a rematch), one of
    :data:`CRITERIA` (the first criterion by which the best exchange is worse), ``"tie"``
    (an exchange is as good under every criterion; rank order chose) or
    ``"against_criteria"`` (an exchange is better: a pairing changed by hand, or a record
    changed since). ``without``: the pairing's cost after that exchange (:func:`pairing_cost`)."""

    table: int
    ns: str
    ew: str
    ns_points: int
    ew_points: int
    ns_rank: int
    ew_rank: int
    floated_down: str | None
    floated_up: str | None
    decided_by: str
    without: tuple[int, int, int] | None = None

    @property
    def gap(self) -> int:
        return abs(self.ns_points - self.ew_points)


@dataclass(frozen=True)
class PairingWhy:
    """Why a round's pairing is as it is: a :class:`TableWhy` per table, the bye's reason
    (``"lot"``; ``"lowest"``, the lowest-ranked pair without a bye; ``"lower_unpairable"``,
    every lower-ranked pair without a bye would leave the rest unpairable; ``"entered"``)
    and the pairing's cost (:func:`pairing_cost`; None for a drawn round)."""

    round: int
    method: str
    tables: tuple[TableWhy, ...]
    bye: str | None = None
    bye_reason: str | None = None
    cost: tuple[int, int, int] | None = None


def explain_pairing(
    rulebook: Any, record: EventRecord, pairing: Pairing, *, seed: int | None = None
) -> PairingWhy:
    """Why each table of ``pairing`` (a round's pairing, made by :func:`pair_round` or by
    hand) is as it is, against the criteria and the record before the round. For each
    table every exchange of opponents with another table (a–b, c–d into a–c, b–d or a–d,
    b–c) that makes no rematch is weighed; the best of them, compared with the pairing,
    names the criterion that decided (``without``: the pairing's cost after it). Exchanges,
    not a whole new matching per table: a referee can check one by hand, and the round's
    explanation stays quick (200 pairs: 10 000 exchanges, not 100 matchings).
    ``seed``: the standings' lots (default: the pairing's)."""
    rnd = pairing.round
    playing = [p for t in pairing.tables for p in (t.ns, t.ew)]
    f = swiss_field(
        rulebook,
        record,
        rnd,
        playing + ([pairing.bye] if pairing.bye else []),
        (pairing.seed or 0) if seed is None else seed,
    )
    place = {p: i + 1 for i, p in enumerate(f.order)}
    drawn = pairing.method in ("lot", "knockout")
    by_criteria = pairing.method == "swiss"
    matches = [(t.ns, t.ew) for t in pairing.tables]
    rest = [p for p in f.order if p != pairing.bye]
    cost = pairing_cost(matches, rest, f.points, f.due) if not drawn else None
    pos = {p: i for i, p in enumerate(rest)}

    def one(a: str, b: str) -> tuple[int, int, int]:  # a table's share of pairing_cost
        same = _same_seat_due(f.due.get(a, 0), f.due.get(b, 0))
        return score_gap(f.points, a, b) ** 2, same, abs(pos.get(a, 0) - pos.get(b, 0))

    def swaps(a: str, b: str) -> tuple[int, int, int] | None:
        """The least change of cost (lexicographic) of exchanging opponents with another
        table without a rematch; None when every exchange is a rematch."""
        base = one(a, b)
        best: tuple[int, int, int] | None = None
        for c, d in matches:
            if {c, d} & {a, b}:
                continue
            here = tuple(x + y for x, y in zip(base, one(c, d), strict=True))
            for (p, q), (r, u) in (((a, c), (b, d)), ((a, d), (b, c))):
                if frozenset((p, q)) in f.met or frozenset((r, u)) in f.met:
                    continue
                there = tuple(x + y for x, y in zip(one(p, q), one(r, u), strict=True))
                delta = (there[0] - here[0], there[1] - here[1], there[2] - here[2])
                if best is None or delta < best:
                    best = delta
        return best

    whys: list[TableWhy] = []
    for t in pairing.tables:
        pn, pe = f.points.get(t.ns, 0), f.points.get(t.ew, 0)
        down = t.ns if pn > pe else t.ew if pe > pn else None
        up = None if down is None else (t.ew if down == t.ns else t.ns)
        decided, without = "lot" if drawn else "entered", None
        if by_criteria and cost is not None:
            delta = swaps(t.ns, t.ew)
            if delta is None:
                decided = "rematch"
            else:
                without = (cost[0] + delta[0], cost[1] + delta[1], cost[2] + delta[2])
                if delta < (0, 0, 0):
                    decided = "against_criteria"
                else:
                    diff = [k for k in range(len(CRITERIA)) if delta[k] != 0]
                    decided = CRITERIA[diff[0]] if diff else "tie"
        whys.append(
            TableWhy(
                t.table,
                t.ns,
                t.ew,
                pn,
                pe,
                place.get(t.ns, 0),
                place.get(t.ew, 0),
                down,
                up,
                decided,
                without,
            )
        )
    bye_reason = None
    if pairing.bye is not None:
        if drawn:
            bye_reason = "lot"
        elif not by_criteria:
            bye_reason = "entered"
        else:
            lower = [p for p in f.order[f.order.index(pairing.bye) + 1 :] if p not in f.had_bye]
            bye_reason = "lower_unpairable" if lower else "lowest"
    return PairingWhy(rnd, pairing.method, tuple(whys), pairing.bye, bye_reason, cost)


def pairing_cost(
    matches: Sequence[tuple[str, str]],
    order: Sequence[str],
    points: Mapping[str, int],
    due: Mapping[str, int],
) -> tuple[int, int, int]:
    """The criteria 3–5 of a set of tables, smaller is better, compared in order:
    (weighted score gap — the sum of the squared differences in match points —, tables
    whose pairs are due the same seat, sum of rank distances)."""
    pos = {p: i for i, p in enumerate(order)}
    gaps = seats = dist = 0
    for a, b in matches:
        gaps += score_gap(points, a, b) ** 2
        seats += _same_seat_due(due.get(a, 0), due.get(b, 0))
        dist += abs(pos[a] - pos[b])
    return gaps, seats, dist


CRITERIA = ("score_gap", "seats", "rank")
"""The names of :func:`pairing_cost`'s criteria, in its order (``TableWhy.decided_by``)."""


def score_gap(points: Mapping[str, int], a: str, b: str) -> int:
    """The difference in match points of two pairs (积分差)."""
    return abs(points.get(a, 0) - points.get(b, 0))


def _same_seat_due(a: int, b: int) -> int:
    return int((a > 0 and b > 0) or (a < 0 and b < 0))


def best_matching(
    order: Sequence[str],
    met: set[frozenset[str]],
    points: Mapping[str, int],
    due: Mapping[str, int],
    progress: Progress | None = None,
) -> list[tuple[str, str]] | None:
    """The tables of ``order`` (best ranked first) with the smallest :func:`pairing_cost`
    among those with no rematch; None when no such pairing exists.

    One maximum-weight matching whose edge weights encode the criteria lexicographically:
    each criterion's weight unit exceeds the largest total the criteria after it can reach,
    so a better value of an earlier criterion always outweighs the later ones. Fields over
    :data:`BLOCK_LIMIT` pairs are matched in blocks of ranks (:func:`_blockwise`);
    ``progress(done, total)`` is called after each block."""
    n = len(order)
    if n == 0:
        return []
    if n % 2:
        return None
    if n > BLOCK_LIMIT:
        return _blockwise(order, met, points, due, progress)
    return _whole_field(order, met, points, due)


def _whole_field(
    order: Sequence[str],
    met: set[frozenset[str]],
    points: Mapping[str, int],
    due: Mapping[str, int],
) -> list[tuple[str, str]] | None:
    if len(order) % 2:
        return None
    found = _matching(order, met, points, due)
    return found if len(found) * 2 == len(order) else None


def _blockwise(
    order: Sequence[str],
    met: set[frozenset[str]],
    points: Mapping[str, int],
    due: Mapping[str, int],
    progress: Progress | None,
) -> list[tuple[str, str]] | None:
    """A large field in blocks of :data:`BLOCK` consecutive ranks, best first, each matched
    as a whole field is; the pairs a block cannot seat (rematches) move down into the next
    block. When the last block cannot be seated, it is matched together with the blocks
    above it, one more at a time."""
    n = len(order)
    rank = {p: k for k, p in enumerate(order)}
    done: list[list[tuple[str, str]]] = []
    carry: list[str] = []
    i = 0
    while i < n:
        block = carry + list(order[i : i + BLOCK])
        i += BLOCK
        if i < n and len(block) % 2:
            block.append(order[i])
            i += 1
        if i < n:
            found = _matching(block, met, points, due)
            seated = {p for m in found for p in m}
            carry = [p for p in block if p not in seated]
            done.append(found)
        else:
            found_all = _whole_field(block, met, points, due)
            back = len(done)
            while found_all is None and back > 0:
                back -= 1  # take the tables of one more block back and match them again
                block = [p for m in done[back] for p in m] + block
                block.sort(key=rank.__getitem__)
                del done[back:]
                found_all = _whole_field(block, met, points, due)
            if found_all is None:
                return None
            done.append(found_all)
        if progress is not None:
            progress(min(i, n), n)
    return [m for block_tables in done for m in block_tables]


def _matching(
    order: Sequence[str],
    met: set[frozenset[str]],
    points: Mapping[str, int],
    due: Mapping[str, int],
) -> list[tuple[str, str]]:
    """The maximum-weight matching among ``order`` with the most tables (perhaps not all),
    over every table that is not a rematch.

    rustworkx's blossom algorithm (Rust): about 60 times faster than networkx's pure-Python
    one on the same graphs, with the same optimum. It takes integer weights as 128-bit
    integers; these stay far below that (2048 pairs, gaps of 40 points: about 10^25)."""
    import rustworkx as rx

    n = len(order)
    if n < 2:
        return []
    tables = n // 2
    pts = [points.get(p, 0) for p in order]
    dues = [due.get(p, 0) for p in order]
    max_gap = max(pts) - min(pts)
    # each criterion's unit exceeds the largest total the criteria after it can reach, so a
    # better value of an earlier criterion always outweighs the later ones (lexicographic)
    unit_seat = tables * n + 1
    unit_gap = unit_seat * (tables + 1)
    base = unit_gap * (tables * max_gap * max_gap + 1)
    edges: list[tuple[int, int, int]] = []
    for i in range(n):
        a, pa, da = order[i], pts[i], dues[i]
        for j in range(i + 1, n):
            pair = frozenset((a, order[j]))
            if pair in met:
                continue
            gap = pa - pts[j]
            db = dues[j]
            same_seat = (da > 0 and db > 0) or (da < 0 and db < 0)
            edges.append((i, j, base - unit_gap * gap * gap - unit_seat * same_seat - (j - i)))
    g: rx.PyGraph = rx.PyGraph(multigraph=False)
    g.add_nodes_from(range(n))
    g.add_edges_from(edges)
    found = rx.max_weight_matching(g, max_cardinality=True, weight_fn=int)
    # the tables in rank order of their better pair (the matching is a set)
    return [(order[a], order[b]) for a, b in sorted((min(a, b), max(a, b)) for a, b in found)]


def _entered(playing: Sequence[str], round_no: int, drawn: Sequence[str], had_bye: set[str]) -> Pairing:
    """The draw made in the hall, as entered: checked against the round's field."""
    field_ = set(playing)
    dup = [p for p, c in Counter(drawn).items() if c > 1]
    if dup:
        raise PairingError(
            f"--drawn: pair {dup[0]} is drawn twice", code="pairing.drawn_twice", field="drawn", pair=dup[0]
        )
    unknown = [p for p in drawn if p not in field_]
    if unknown:
        raise PairingError(
            f"--drawn: pair {unknown[0]} is not in round {round_no}'s field",
            code="pairing.drawn_unknown",
            field="drawn",
            pair=unknown[0],
            round=round_no,
        )
    left = sorted(field_ - set(drawn), key=natural_key)
    if left:
        raise PairingError(
            f"--drawn: pair(s) {', '.join(left)} of round {round_no}'s field not drawn",
            code="pairing.not_drawn_all",
            field="drawn",
            pairs=left,
            round=round_no,
        )
    order = list(drawn)
    bye = order.pop() if len(order) % 2 else None
    if bye is not None and bye in had_bye:
        raise PairingError(
            f"--drawn: pair {bye} would have a second bye", code="pairing.second_bye", field="drawn", pair=bye
        )
    tables = [Table(i + 1, order[2 * i], order[2 * i + 1]) for i in range(len(order) // 2)]
    return Pairing(round_no, "entered", None, tables, bye)


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


def _knockout(record: EventRecord, round_no: int, seed: int, drawn: Sequence[str] | None) -> Pairing:
    if round_no == 1:
        playing = ko.field_of(record, 1)
        if drawn is not None:
            return _entered(playing, 1, drawn, set())
        return _by_lot(playing, 1, seed, set())
    prev = round_no - 1
    tied = ko.undecided(record, prev)
    if tied:
        t = tied[0]
        raise PairingError(
            f"round {prev}: pairs {t.ns} and {t.ew} have no winner; a knockout needs one "
            f"(enter the chief referee's deciding result: referee-app decide)",
            code="pairing.no_winner",
            round=prev,
            ns=t.ns,
            ew=t.ew,
        )
    winners = ko.field_of(record, round_no)
    if not any(m.round == prev for m in record.results):
        raise PairingError(
            f"round {prev} has no results yet; a knockout draws among its winners",
            code="pairing.no_results",
            round=prev,
        )
    if len(winners) == 1:
        raise PairingError(
            f"round {prev} left one winner, pair {winners[0]}: the knockout is over",
            code="pairing.knockout_over",
            round=prev,
            pair=winners[0],
        )
    if not winners:
        raise PairingError(f"round {prev} left no pair to draw", code="pairing.nothing_left", round=prev)
    had_bye = {b.pair for b in record.byes if b.round < round_no}
    if drawn is not None:
        pairing = _entered(winners, round_no, drawn, had_bye)
    else:
        pairing = _by_lot(winners, round_no, seed, had_bye)
        pairing.method = "knockout"
    return pairing
