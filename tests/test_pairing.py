"""Pairing (积分编排, Gansu 六、三) and the knockout draw (HBUE 通知四、(一))."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee_app.core import load_rulebook
from referee_app.core.pairing import Pairing, PairingError, pair_round
from referee_app.core.standings import (
    Bye,
    Disqualification,
    EventRecord,
    MatchResult,
    Suspension,
    compute_standings,
)

GANSU = load_rulebook("gansu-2018")
BHG = load_rulebook("bhg-2011")
HBUE = load_rulebook("hbue-2018")


def numbers(n: int) -> tuple[str, ...]:
    return tuple(str(i) for i in range(1, n + 1))


def play(rec: EventRecord, pg: Pairing, rng: random.Random, draws: bool = True) -> EventRecord:
    """Random results for a pairing: NS or EW wins by 1–5 levels, sometimes a draw."""
    results = list(rec.results)
    for t in pg.tables:
        x = rng.random()
        if draws and x < 0.1:
            results.append(MatchResult(pg.round, t.ns, t.ew, None, 1, 1, 0, 0))
            continue
        ns_wins = x < 0.55
        d = rng.randint(1, 5) * (1 if ns_wins else -1)
        a, b = (2, 0) if ns_wins else (0, 2)
        results.append(MatchResult(pg.round, t.ns, t.ew, "NS" if ns_wins else "EW", a, b, d, -d))
    byes = rec.byes + ((Bye(pg.round, pg.bye),) if pg.bye else ())
    return EventRecord(rec.pairs, tuple(results), byes, rec.suspensions, rec.disqualifications)


def run_event(n: int, rounds: int, seed: int) -> tuple[EventRecord, list[Pairing]]:
    rng = random.Random(seed)
    rec = EventRecord(numbers(n))
    pairings = []
    for r in range(1, rounds + 1):
        pg = pair_round(GANSU, rec, r, seed=seed)
        pairings.append(pg)
        rec = play(rec, pg, rng)
    return rec, pairings


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_gansu_6_3_no_pair_meets_twice_in_9_rounds_of_64(seed: int) -> None:
    """Gansu 六、三: 相遇过的对不再相遇 — 64 pairs, 9 rounds, random results."""
    rec, pairings = run_event(64, 9, seed)
    meetings = [frozenset((m.ns, m.ew)) for m in rec.results]
    assert len(meetings) == 9 * 32 and len(set(meetings)) == len(meetings)
    for pg in pairings:
        seated = [p for t in pg.tables for p in (t.ns, t.ew)]
        assert sorted(seated) == sorted(rec.pairs) and pg.bye is None
        assert [t.table for t in pg.tables] == list(range(1, 33))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_odd_field_each_pair_at_most_one_bye(seed: int) -> None:
    """63 pairs, 9 rounds: one bye a round, never twice to a pair, to the lowest-ranked still without one."""
    rng = random.Random(seed)
    rec = EventRecord(numbers(63))
    for r in range(1, 10):
        pg = pair_round(GANSU, rec, r, seed=seed)
        assert pg.bye is not None
        seated = [p for t in pg.tables for p in (t.ns, t.ew)]
        assert len(seated) == 62 and pg.bye not in seated
        if r > 1:
            ranked = [row["pair"] for row in compute_standings(GANSU, rec, seed=seed).rows]
            had = {b.pair for b in rec.byes}
            lowest_without = [p for p in reversed(ranked) if p not in had][0]
            assert pg.bye == lowest_without  # nothing blocks it in a field this size
        rec = play(rec, pg, rng)
    byes = [b.pair for b in rec.byes]
    assert len(byes) == 9 and len(set(byes)) == 9
    meetings = [frozenset((m.ns, m.ew)) for m in rec.results]
    assert len(set(meetings)) == len(meetings)


def test_round_1_by_lot_is_seeded() -> None:
    """Gansu 六、三: 第一轮对阵由裁判长…统一抽签 — the same seed gives the same draw."""
    rec = EventRecord(numbers(16))
    a, b = pair_round(GANSU, rec, 1, seed=42), pair_round(GANSU, rec, 1, seed=42)
    assert a.to_json() == b.to_json() and a.method == "lot" and a.seed == 42
    assert pair_round(GANSU, rec, 1, seed=43).to_json() != a.to_json()


def test_high_against_high_within_score_groups() -> None:
    """Gansu 六、三: 高分对高分，积分相近的相遇 — after round 1 winners meet winners."""
    rng = random.Random(9)
    rec = EventRecord(numbers(16))
    rec = play(rec, pair_round(GANSU, rec, 1, seed=9), rng, draws=False)
    pg = pair_round(GANSU, rec, 2, seed=9)
    points = {row["pair"]: row["match_points"] for row in compute_standings(GANSU, rec, seed=9).rows}
    assert all(points[t.ns] == points[t.ew] for t in pg.tables)
    assert [points[pg.tables[i].ns] for i in range(8)] == [2] * 4 + [0] * 4  # table 1 is the top match
    ranked = [row["pair"] for row in compute_standings(GANSU, rec, seed=9).rows]
    assert {pg.tables[0].ns, pg.tables[0].ew} == set(ranked[:2])


def test_backtracking_floats_down_when_a_group_cannot_pair() -> None:
    """1 and 2 lead but have met; 3 and 4 have met: 1 meets 3, 2 meets 4 (a float each way)."""
    rec = EventRecord(
        numbers(4),
        (
            MatchResult(1, "1", "2", None, 1, 1, 0, 0),
            MatchResult(1, "3", "4", None, 1, 1, 0, 0),
            MatchResult(2, "1", "3", "NS", 2, 0, 1, -1),
            MatchResult(2, "2", "4", "NS", 2, 0, 1, -1),
        ),
    )
    ranked = [row["pair"] for row in compute_standings(GANSU, rec, seed=0).rows]
    assert set(ranked[:2]) == {"1", "2"}
    pg = pair_round(GANSU, rec, 3, seed=0)
    met = {frozenset(("1", "2")), frozenset(("3", "4")), frozenset(("1", "3")), frozenset(("2", "4"))}
    assert {frozenset((t.ns, t.ew)) for t in pg.tables} == {frozenset(("1", "4")), frozenset(("2", "3"))}
    assert not {frozenset((t.ns, t.ew)) for t in pg.tables} & met
    with pytest.raises(PairingError, match="cannot all be paired"):
        done = rec.results + (
            MatchResult(3, "1", "4", "NS", 2, 0, 1, -1),
            MatchResult(3, "2", "3", "NS", 2, 0, 1, -1),
        )
        pair_round(GANSU, EventRecord(numbers(4), done), 4, seed=0)


def test_seats_alternate() -> None:
    """The pair that sat NS fewer times sits NS."""
    rec = EventRecord(
        numbers(4),
        (MatchResult(1, "1", "2", "NS", 2, 0, 1, -1), MatchResult(1, "3", "4", "EW", 0, 2, -1, 1)),
    )
    pg = pair_round(GANSU, rec, 2, seed=0)
    assert {(t.ns, t.ew) for t in pg.tables} == {("4", "1"), ("2", "3")}


def test_suspended_and_disqualified_pairs_are_not_paired() -> None:
    rec = EventRecord(
        numbers(6),
        (
            MatchResult(1, "1", "2", "NS", 2, 0, 1, -1),
            MatchResult(1, "3", "4", "NS", 2, 0, 1, -1),
            MatchResult(1, "5", "6", "NS", 2, 0, 1, -1),
        ),
        suspensions=(Suspension("3", 2, 1),),
        disqualifications=(Disqualification("6", 1),),
    )
    pg = pair_round(BHG, rec, 2, seed=0)
    seated = {p for t in pg.tables for p in (t.ns, t.ew)}
    assert seated == {"1", "2", "4", "5"} and pg.bye is None
    assert "3" in {p for t in pair_round(BHG, rec, 3, seed=0).tables for p in (t.ns, t.ew)}


def test_hbue_tongzhi_4_knockout_winners_draw_lots() -> None:
    """HBUE 通知四、(一): 胜出者开始现场抽签进入下一盘比赛."""
    rec = EventRecord(numbers(8))
    r1 = pair_round(HBUE, rec, 1, seed=3, knockout=True)
    assert len(r1.tables) == 4
    rec = play(rec, r1, random.Random(3), draws=False)
    winners = {m.ns if m.winner == "NS" else m.ew for m in rec.results}
    r2 = pair_round(HBUE, rec, 2, seed=3, knockout=True)
    assert r2.method == "knockout" and {p for t in r2.tables for p in (t.ns, t.ew)} == winners
    assert r2.to_json() == pair_round(HBUE, rec, 2, seed=3, knockout=True).to_json()
    rec = play(rec, r2, random.Random(4), draws=False)
    r3 = pair_round(HBUE, rec, 3, seed=3, knockout=True)
    assert len(r3.tables) == 1
    rec = play(rec, r3, random.Random(5), draws=False)
    with pytest.raises(PairingError, match="the knockout is over"):
        pair_round(HBUE, rec, 4, seed=3, knockout=True)


def test_knockout_odd_winners_bye_and_draws_refused() -> None:
    rec = EventRecord(
        numbers(6), tuple(MatchResult(1, str(2 * i + 1), str(2 * i + 2), "NS", 2, 0, 1, -1) for i in range(3))
    )
    pg = pair_round(HBUE, rec, 2, seed=1, knockout=True)
    assert pg.bye in {"1", "3", "5"} and len(pg.tables) == 1
    assert pg.to_json()[-1] == {"bye": pg.bye}
    drawn = EventRecord(numbers(2), (MatchResult(1, "1", "2", None, 1, 1, 0, 0),))
    with pytest.raises(PairingError, match="no winner"):
        pair_round(HBUE, drawn, 2, knockout=True)


def test_512_pairs_9_rounds_pair_without_repeats() -> None:
    rec, pairings = run_event(512, 9, 17)
    meetings = Counter(frozenset((m.ns, m.ew)) for m in rec.results)
    assert max(meetings.values()) == 1 and len(meetings) == 9 * 256
