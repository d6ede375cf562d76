"""Standings (名次): the event's pairs ranked by the rulebook's tie-break order.

Pure Python (no Qt, no database, no reportlab). The input is an :class:`EventRecord` —
every pair, every round's result per match, and the byes, suspensions and
disqualifications — and the event's rulebook; :func:`compute_standings` returns a
:class:`Standings` whose ``rows`` are ``{"rank", "pair", "match_points", "tiebreaks"}`` in
rank order.

Definitions (each a choice where the events' texts are silent; DOMAIN.md §5):

* **match points (积分)** — the match points recorded for the pair in each round (a forfeit
  uses the recorded points, e.g. BHG 0 : 2), plus byes.
* **bye (轮空)** — counts as a win: the rulebook's ``match_points.win``
  (:data:`BYE_LEVEL_DIFFERENCE` = 0 levels). A bye has no opponent, so it adds nothing to
  对手分, 小分 or head to head. Each pair has at most one bye (the pairing sees to it).
* **suspension (停赛)** — a suspended round scores 0 match points and 0 level difference
  and has no opponent.
* **opponents' score (对手分)** — the sum, over every match played (a forfeited match counts
  as a meeting), of the opponent's total match points after the standings round.
* **level difference (级差分)** — the sum of the recorded per-round level differences
  (``result.level_difference`` of the engine; a forfeit's recorded levels, a bye 0).
* **progressive score (累进分)** — the sum of the pair's cumulative match points after each
  round 1 … R.
* **small points (小分)** — the sum of the total match points of the opponents the pair
  beat, plus half the total of those it drew with (a double forfeit is neither).
* **head to head (相互间成绩)** — applied to exactly the pairs still tied at that point,
  and only when every two of them have met: each pair's match points from the matches among
  them. When they have not all met, it separates nobody (value ``None``).
* **previous round points (上一轮总积分)** — Gansu 六、四: the cumulative match points after
  round R−1, then R−2, … back to round 1, compared in that order.
* **lots (抽签)** — deterministic from a recorded seed: pair *p* draws
  ``sha256("<seed>:<p>")``; the smallest digest draws lot 1 and ranks first. The seed is
  part of the output (``tiebreaks["lots"] = {"seed": s, "draw": n}``), so anyone can
  re-draw. Lots break every remaining tie; ranks are shared only when the rulebook has no
  ``lots`` and every listed tie-break is equal.
* **disqualified (取消比赛资格)** — the pair keeps its row but is ranked after every pair
  that is not disqualified (ordered among themselves by the same tie-breaks), and its row
  carries ``tiebreaks["disqualified"] = <round>``. Its matches stand: its opponents keep the
  points they won and it still counts in their 对手分 and 小分.

>>> rb = {"match_points": {"win": 2, "draw": 1, "loss": 0},
...       "standings": {"tie_breaks": ["match_points", "opponents_score", "lots"]}}
>>> rec = EventRecord(pairs=("1", "2", "3", "4"), results=(
...     MatchResult(1, "1", "2", "NS", 2, 0, 3, -3), MatchResult(1, "3", "4", "EW", 0, 2, -1, 1)))
>>> [(r["rank"], r["pair"], r["match_points"]) for r in compute_standings(rb, rec, seed=1).rows][:2]
[(1, '4', 2), (2, '1', 2)]

Pairs 1 and 4 both won against a pair with 0 points: the lots drawn with seed 1 decide.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import Reported

BYE_LEVEL_DIFFERENCE = 0
"""Level difference credited for a bye (轮空): none."""

TIE_BREAKS = (
    "match_points",
    "opponents_score",
    "level_difference",
    "progressive_score",
    "small_points",
    "head_to_head",
    "previous_round_points",
    "lots",
)

TIE_BREAK_LABELS: dict[str, tuple[str, str]] = {
    "match_points": ("积分", "Match points"),
    "opponents_score": ("对手分", "Opponents' score"),
    "level_difference": ("级差分", "Level difference"),
    "progressive_score": ("累进分", "Progressive score"),
    "small_points": ("小分", "Small points"),
    "head_to_head": ("相互间成绩", "Head to head"),
    "previous_round_points": ("上一轮总积分", "Earlier rounds' points"),
    "lots": ("抽签", "Lots"),
}
"""Each tie-break's name: (Chinese, English)."""

ASSUMED_MARK = "*"
"""Shown after a tie-break's name where its definition is the rulebook's reading."""


def tiebreak_label(key: str, lang: str, assumed: Iterable[str] = ()) -> str:
    """A tie-break's column heading, marked when its definition is assumed."""
    label = TIE_BREAK_LABELS[key][0 if lang == "zh" else 1]
    return label + ASSUMED_MARK if key in assumed else label


def assumed_footnote(assumed: Sequence[str], lang: str) -> str:
    """The line under a standings table naming the readings the event's text does not give."""
    if not assumed:
        return ""
    zh = lang == "zh"
    bye = "轮空计分" if zh else "bye scoring"
    names = [TIE_BREAK_LABELS[k][0 if zh else 1] if k in TIE_BREAK_LABELS else bye for k in assumed]
    if zh:
        return f"{ASSUMED_MARK} 假定：规程未载明其算法，按规则文件的解读计算：" + "、".join(names)
    lead = f"{ASSUMED_MARK} Assumed: the event's text does not define them; the rulebook's reading applies: "
    return lead + ", ".join(names)


class StandingsError(Reported, ValueError):
    """The results cannot be ranked (a pair plays twice in a round, an unknown tie-break …)."""

    default_code = "standings.error"


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One match's result (one round, one table), as the engine decided it.

    ``winner`` is ``"NS"``, ``"EW"`` or ``None`` (a draw, or a double forfeit);
    ``forfeit`` names the side that forfeited (``"NS"``, ``"EW"``, ``"both"``) or is None.
    """

    round: int
    ns: str
    ew: str
    winner: str | None
    ns_points: int
    ew_points: int
    ns_level_difference: int = 0
    ew_level_difference: int = 0
    forfeit: str | None = None
    #: The table it was played at (桌号), where the store says: lists print matches by table.
    table: int | None = None
    #: A tie on time the rulebook leaves to lots or the referee (``lots``, ``decision``): no
    #: winner and no match points until a :class:`Decider` for the match is recorded.
    awaits: str | None = None

    @classmethod
    def from_result(
        cls, round_no: int, ns: str, ew: str, result: Mapping[str, Any], table: int | None = None
    ) -> MatchResult:
        """From the engine's ``decision["result"]`` (winner, match_points, level_difference)."""
        mp = result["match_points"]
        ld = result.get("level_difference") or {"NS": 0, "EW": 0}
        forfeit = None
        if result.get("decided_by") == "forfeit":
            winner = result.get("winner")
            forfeit = "both" if winner is None else ("EW" if winner == "NS" else "NS")
        return cls(
            round_no,
            str(ns),
            str(ew),
            result.get("winner"),
            int(mp["NS"]),
            int(mp["EW"]),
            int(ld["NS"]),
            int(ld["EW"]),
            forfeit,
            table,
            result.get("awaits"),
        )

    def decided(self, deciders: tuple[Decider, ...], match_points: Mapping[str, Any]) -> MatchResult:
        """The match as its awaited decision made it: the decider's pair wins with the win's
        match points, the other takes the loss's; unchanged while none is recorded (or when
        the match awaits nothing)."""
        if self.awaits is None:
            return self
        d = next(
            (d for d in deciders if d.round == self.round and {d.winner, d.loser} == {self.ns, self.ew}), None
        )
        if d is None:
            return self
        win, loss = int(match_points["win"]), int(match_points["loss"])
        ns_won = d.winner == self.ns
        return replace(
            self,
            winner="NS" if ns_won else "EW",
            ns_points=win if ns_won else loss,
            ew_points=loss if ns_won else win,
        )


@dataclass(frozen=True, slots=True)
class Bye:
    """A pair that sat out round ``round`` with a bye (轮空): counted as a win."""

    round: int
    pair: str


@dataclass(frozen=True, slots=True)
class Suspension:
    """停赛: ``pair`` does not play rounds ``first_round`` … ``first_round + rounds − 1``."""

    pair: str
    first_round: int
    rounds: int

    def covers(self, round_no: int) -> bool:
        return self.first_round <= round_no < self.first_round + self.rounds


@dataclass(frozen=True, slots=True)
class Disqualification:
    """取消比赛资格 in round ``round``: the pair plays no later round and is ranked last."""

    pair: str
    round: int


@dataclass(frozen=True, slots=True)
class Entry:
    """A late entry: ``pair`` plays from round ``first_round`` on; the rounds before it are
    neither played nor a bye (no retroactive bye)."""

    pair: str
    first_round: int


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """退赛: ``pair`` withdrew from round ``first_round``; re-admitted from round ``back_from``
    (None: not re-admitted). Its earlier matches stand."""

    pair: str
    first_round: int
    back_from: int | None = None

    def covers(self, round_no: int) -> bool:
        return self.first_round <= round_no and (self.back_from is None or round_no < self.back_from)


@dataclass(frozen=True, slots=True)
class Decider:
    """The chief referee's deciding result of a tied knockout match: ``winner`` goes on,
    decided ``how`` (``"lots"`` or ``"decision"``) for ``reason``."""

    round: int
    winner: str
    loser: str
    how: str
    reason: str
    #: The decision corrected an earlier one (``decide --correct``).
    corrected: bool = False


@dataclass(frozen=True)
class EventRecord:
    """Everything standings and pairing read: the pairs and what happened in each round."""

    pairs: tuple[str, ...]
    results: tuple[MatchResult, ...] = ()
    byes: tuple[Bye, ...] = ()
    suspensions: tuple[Suspension, ...] = ()
    disqualifications: tuple[Disqualification, ...] = ()
    entries: tuple[Entry, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = ()
    deciders: tuple[Decider, ...] = ()

    def first_round(self, pair: str) -> int:
        """The first round ``pair`` can play (1 unless it entered late)."""
        return max((e.first_round for e in self.entries if e.pair == pair), default=1)

    def withdrawn(self, pair: str, round_no: int) -> bool:
        return any(w.pair == pair and w.covers(round_no) for w in self.withdrawals)

    def plays(self, pair: str, round_no: int) -> bool:
        """Whether ``pair`` is in the field of round ``round_no``: entered, not withdrawn,
        not suspended then, not disqualified in an earlier round."""
        dq = self.disqualified_in(pair)
        return (
            self.first_round(pair) <= round_no
            and not self.withdrawn(pair, round_no)
            and not self.suspended(pair, round_no)
            and not (dq is not None and dq < round_no)
        )

    def last_round(self) -> int:
        rounds = [r.round for r in self.results] + [b.round for b in self.byes]
        return max(rounds, default=0)

    def disqualified_in(self, pair: str) -> int | None:
        rounds = [d.round for d in self.disqualifications if d.pair == pair]
        return min(rounds) if rounds else None

    def suspended(self, pair: str, round_no: int) -> bool:
        return any(s.pair == pair and s.covers(round_no) for s in self.suspensions)


@dataclass
class Standings:
    """The ranked table: ``rows`` in rank order, the round it is after, the seed of the lots."""

    round: int
    seed: int
    tie_breaks: list[str]
    rows: list[dict[str, Any]] = field(default_factory=list)
    #: Tie-breaks (and ``bye``) whose definition is the rulebook's reading where the event's
    #: text is silent (``standings.readings`` marked assumed), in the rulebook's order.
    assumed: list[str] = field(default_factory=list)

    def to_json(self) -> list[dict[str, Any]]:
        return self.rows


def format_tiebreak(key: str, value: Any) -> str:
    """A tie-break value as shown and printed: lots as their draw, earlier rounds' points joined."""
    if value is None:
        return "—"
    if key == "lots":
        return str(value["draw"])
    if key == "previous_round_points":
        return "/".join(str(v) for v in value) or "—"
    return str(value)


def natural_key(pair: str) -> tuple[int, int, str]:
    """Pair numbers sort as numbers when they are numbers: 2 before 10."""
    return (0, int(pair), "") if pair.isdigit() else (1, 0, pair)


def lot_digest(seed: int, pair: str, salt: str = "") -> str:
    """The lot pair ``pair`` draws with ``seed`` (smaller is better)."""
    return hashlib.sha256(f"{seed}:{salt}{pair}".encode()).hexdigest()


def _rules(rulebook: Any) -> Mapping[str, Any]:
    data = getattr(rulebook, "data", rulebook)
    if not isinstance(data, Mapping):
        raise StandingsError("rulebook: expected a Rulebook or its data")
    return data


class _Tally:
    """Per-pair sums over rounds 1 … R (internal)."""

    __slots__ = ("points_by_round", "ld", "opponents", "beaten", "drawn", "meetings")

    def __init__(self) -> None:
        self.points_by_round: dict[int, int] = {}
        self.ld = 0
        self.opponents: list[str] = []
        self.beaten: list[str] = []
        self.drawn: list[str] = []
        self.meetings: dict[str, int] = defaultdict(int)  # opponent -> match points scored


def _tally(record: EventRecord, through: int, win_points: int) -> dict[str, _Tally]:
    tallies: dict[str, _Tally] = {p: _Tally() for p in record.pairs}

    def get(p: str) -> _Tally:
        t = tallies.get(p)
        if t is None:
            t = tallies[p] = _Tally()
        return t

    played: set[tuple[int, str]] = set()

    def once(rnd: int, pair: str, what: str) -> None:
        if (rnd, pair) in played:
            raise StandingsError(
                f"round {rnd}: pair {pair} has two results ({what})",
                code="standings.two_results",
                round=rnd,
                pair=pair,
            )
        played.add((rnd, pair))

    for m in record.results:
        if m.round > through:
            continue
        if m.ns == m.ew:
            raise StandingsError(
                f"round {m.round}: pair {m.ns} plays itself",
                code="standings.plays_itself",
                round=m.round,
                pair=m.ns,
            )
        once(m.round, m.ns, "match")
        once(m.round, m.ew, "match")
        ns, ew = get(m.ns), get(m.ew)
        ns.points_by_round[m.round] = m.ns_points
        ew.points_by_round[m.round] = m.ew_points
        ns.ld += m.ns_level_difference
        ew.ld += m.ew_level_difference
        ns.opponents.append(m.ew)
        ew.opponents.append(m.ns)
        ns.meetings[m.ew] += m.ns_points
        ew.meetings[m.ns] += m.ew_points
        if m.winner == "NS":
            ns.beaten.append(m.ew)
        elif m.winner == "EW":
            ew.beaten.append(m.ns)
        elif m.forfeit != "both":
            ns.drawn.append(m.ew)
            ew.drawn.append(m.ns)
    for b in record.byes:
        if b.round > through:
            continue
        once(b.round, b.pair, "bye")
        t = get(b.pair)
        t.points_by_round[b.round] = win_points
        t.ld += BYE_LEVEL_DIFFERENCE
    # a suspended round scores nothing: no entry needed
    return tallies


def compute_standings(
    rulebook: Any,
    record: EventRecord,
    *,
    through_round: int | None = None,
    seed: int = 0,
) -> Standings:
    """Rank the pairs after ``through_round`` (default: the last round with a result).

    ``rulebook`` is a :class:`~referee_app.core.rulebook.Rulebook` or its ``data``; its
    ``standings.tie_breaks`` is followed exactly, in order.
    """
    rules = _rules(rulebook)
    order = list(rules["standings"]["tie_breaks"])
    unknown = [k for k in order if k not in TIE_BREAKS]
    if unknown:
        raise StandingsError(
            f"standings.tie_breaks: unknown tie-break {unknown[0]!r}",
            code="standings.tie_break",
            key=unknown[0],
        )
    through = record.last_round() if through_round is None else through_round
    if through < 0:
        raise StandingsError(
            f"--round: expected 0 or more, got {through}",
            code="input.round_or_zero",
            field="round",
            got=through,
        )
    win = int(rules["match_points"]["win"])
    if any(m.awaits for m in record.results):  # ties decided by lots or the referee
        decided = tuple(m.decided(record.deciders, rules["match_points"]) for m in record.results)
        record = replace(record, results=decided)
    tallies = _tally(record, through, win)

    total: dict[str, int] = {}
    cumulative: dict[str, list[int]] = {}
    for p, t in tallies.items():
        run, cum = 0, []
        for r in range(1, through + 1):
            run += t.points_by_round.get(r, 0)
            cum.append(run)
        cumulative[p] = cum
        total[p] = run

    values: dict[str, dict[str, Any]] = {p: {} for p in tallies}
    for p, t in tallies.items():
        v = values[p]
        v["match_points"] = total[p]
        v["opponents_score"] = sum(total[o] for o in t.opponents)
        v["level_difference"] = t.ld
        v["progressive_score"] = sum(cumulative[p])
        small2 = 2 * sum(total[o] for o in t.beaten) + sum(total[o] for o in t.drawn)
        v["small_points"] = small2 // 2 if small2 % 2 == 0 else small2 / 2
        v["previous_round_points"] = cumulative[p][-2::-1]  # after, … 1
        v["head_to_head"] = None
        v["lots"] = lot_digest(seed, p)

    readings = rules["standings"].get("readings") or {}
    assumed = [k for k in [*order, "bye"] if k in readings and readings[k]["assumed"]]
    had_bye = {b.pair for b in record.byes if b.round <= through}

    disq = {p: record.disqualified_in(p) for p in tallies}
    eligible = sorted((p for p in tallies if disq[p] is None), key=natural_key)
    out_of_it = sorted((p for p in tallies if disq[p] is not None), key=natural_key)

    draws = {p: i + 1 for i, p in enumerate(sorted(tallies, key=lambda p: values[p]["lots"]))}

    rows: list[dict[str, Any]] = []
    for block in (eligible, out_of_it):
        for group in _rank(block, order, values, tallies):
            rank = len(rows) + 1
            for p in group:
                tb: dict[str, Any] = {}
                for key in order:
                    if key == "match_points":
                        continue
                    if key == "lots":
                        tb["lots"] = {"seed": seed, "draw": draws[p]}
                    else:
                        tb[key] = values[p][key]
                if disq[p] is not None:
                    tb["disqualified"] = disq[p]
                row_assumed = [k for k in assumed if k != "bye" or p in had_bye]
                rows.append(
                    {
                        "rank": rank,
                        "pair": p,
                        "match_points": total[p],
                        "tiebreaks": tb,
                        "assumed": row_assumed,
                    }
                )
    return Standings(round=through, seed=seed, tie_breaks=order, rows=rows, assumed=assumed)


def _rank(
    pairs: Sequence[str],
    order: Sequence[str],
    values: Mapping[str, dict[str, Any]],
    tallies: Mapping[str, _Tally],
) -> list[list[str]]:
    """The pairs in rank order, as groups that no tie-break separates (usually of one)."""
    groups: list[list[str]] = [list(pairs)] if pairs else []
    for key in order:
        refined: list[list[str]] = []
        for g in groups:
            if len(g) == 1:
                refined.append(g)
                continue
            if key == "head_to_head":
                score = _head_to_head(g, tallies)
                if score is None:
                    refined.append(g)
                    continue
                for p in g:
                    values[p]["head_to_head"] = score[p]

            def sort_key(p: str, key: str = key) -> Any:
                # head_to_head was just stored in values; lots and the rest were computed before
                return values[p][key]

            refined.extend(_split(g, sort_key, descending=key != "lots"))
        groups = refined
    return groups


def _split(group: list[str], key: Any, *, descending: bool) -> list[list[str]]:
    ordered = sorted(group, key=natural_key)
    ordered.sort(key=key, reverse=descending)  # stable: equal values stay by pair number
    out: list[list[str]] = []
    last: Any = object()
    for p in ordered:
        k = key(p)
        if out and k == last:
            out[-1].append(p)
        else:
            out.append([p])
            last = k
    return out


def _head_to_head(group: Sequence[str], tallies: Mapping[str, _Tally]) -> dict[str, int] | None:
    """Match points among exactly ``group``, or None unless every two of them have met."""
    members = set(group)
    score: dict[str, int] = {}
    for p in group:
        met = tallies[p].meetings
        if any(o not in met for o in members if o != p):
            return None
        score[p] = sum(pts for o, pts in met.items() if o in members)
    return score


def rows_by_pair(rows: Iterable[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    return {r["pair"]: r for r in rows}
