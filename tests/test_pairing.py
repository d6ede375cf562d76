"""Pairing (积分编排, Gansu 六、三) and the knockout draw (HBUE 通知四、(一))."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee_app.core import pairing as pairing_mod
from referee_app.core.pairing import Pairing, PairingError, best_matching, pair_round
from referee_app.core.rulebook import load_rulebook
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


def test_4096_pairs_pair_without_repeats_in_blocks_with_progress() -> None:
    """Issue 11: a field of 4096 pairs is paired (it used to exhaust the recursion limit
    from about 2000 pairs), block by block, every pair seated once, no rematch. Three rounds
    here (each block is one matching over every table it allows, 16 of them a round);
    bench/bench_desk.py --large pairs all nine."""
    rng = random.Random(5)
    rec = EventRecord(numbers(4096))
    for r in range(1, 4):
        seen: list[tuple[int, int]] = []
        pg = pair_round(GANSU, rec, r, seed=5, progress=lambda d, t, seen=seen: seen.append((d, t)))
        seated = [p for t in pg.tables for p in (t.ns, t.ew)]
        assert sorted(seated) == sorted(rec.pairs) and pg.bye is None
        if r > 1:
            assert seen and seen[-1] == (4096, 4096)
            assert [d for d, _ in seen] == sorted(d for d, _ in seen)
        rec = play(rec, pg, rng)
    meetings = Counter(frozenset((m.ns, m.ew)) for m in rec.results)
    assert max(meetings.values()) == 1 and len(meetings) == 3 * 2048


def test_256_pairs_are_matched_as_one_field_not_in_blocks() -> None:
    """Blocks are a compromise for speed only: a field up to BLOCK_LIMIT (256 pairs) is one
    matching of the whole field, so no block reports progress."""
    assert pairing_mod.BLOCK_LIMIT >= 256
    order = [str(i) for i in range(1, 257)]
    seen: list[tuple[int, int]] = []
    found = best_matching(
        order, set(), dict.fromkeys(order, 0), dict.fromkeys(order, 0), lambda d, t: seen.append((d, t))
    )
    assert seen == []
    assert found == [(order[i], order[i + 1]) for i in range(0, 256, 2)]


def test_a_last_block_that_cannot_be_seated_is_matched_with_the_block_above() -> None:
    """Two pairs over BLOCK_LIMIT, in blocks: the last two have met, so the last block (just
    them) has no table; it is matched again together with the block above it."""
    n = pairing_mod.BLOCK_LIMIT + 2
    order = [str(i) for i in range(1, n + 1)]
    last_two = frozenset((order[-2], order[-1]))
    seen: list[tuple[int, int]] = []
    found = best_matching(
        order, {last_two}, dict.fromkeys(order, 0), dict.fromkeys(order, 0), lambda d, t: seen.append((d, t))
    )
    assert seen and seen[-1] == (n, n)  # it was paired in blocks
    assert found is not None and len(found) == n // 2
    assert sorted(p for t in found for p in t) == sorted(order)
    assert last_two not in {frozenset(t) for t in found}


# -- optimal pairing against exhaustive search (issue 13, item 6) ------------------------------
def _all_pairings(order: list[str], met: set[frozenset[str]]):
    """Every rematch-free perfect matching of ``order``: iterative, an explicit stack."""
    stack: list[tuple[tuple[str, ...], tuple[tuple[str, str], ...]]] = [(tuple(order), ())]
    while stack:
        rest, done = stack.pop()
        if not rest:
            yield list(done)
            continue
        top = rest[0]
        for j in range(1, len(rest)):
            if frozenset((top, rest[j])) not in met:
                stack.append((rest[1:j] + rest[j + 1 :], done + ((top, rest[j]),)))


def _exhaustive(rec: EventRecord, rnd: int, seed: int):
    """The best (bye, cost) by brute force, with the criteria's stated order."""
    from referee_app.core.pairing import active_pairs, pairing_cost

    rows = compute_standings(GANSU, rec, through_round=rnd - 1, seed=seed).rows
    rank = {r["pair"]: i for i, r in enumerate(rows)}
    points = {r["pair"]: r["match_points"] for r in rows}
    order = sorted(active_pairs(rec, rnd), key=lambda p: rank[p])
    met = {frozenset((m.ns, m.ew)) for m in rec.results}
    had_bye = {b.pair for b in rec.byes}
    ns = Counter(m.ns for m in rec.results)
    ew = Counter(m.ew for m in rec.results)
    due = {p: ns[p] - ew[p] for p in order}
    byes = [None] if len(order) % 2 == 0 else [p for p in reversed(order) if p not in had_bye]
    for bye in byes:
        rest = [p for p in order if p != bye]
        costs = [pairing_cost(m, rest, points, due) for m in _all_pairings(rest, met)]
        if costs:
            return bye, min(costs), rest, points, due
    return None


@pytest.mark.parametrize("n,seed", [(6, 1), (7, 2), (9, 3), (10, 4), (11, 5), (12, 6), (13, 7), (14, 8)])
def test_pairing_is_optimal_against_exhaustive_search(n: int, seed: int) -> None:
    """Up to 14 pairs over 5 rounds: the bye and the cost of the tables equal the best
    that trying every rematch-free pairing finds."""
    from referee_app.core.pairing import pairing_cost

    rng = random.Random(seed)
    rec = EventRecord(numbers(n))
    rec = play(rec, pair_round(GANSU, rec, 1, seed=seed), rng)
    for rnd in range(2, 6):
        best = _exhaustive(rec, rnd, seed)
        if best is None:
            with pytest.raises(PairingError):
                pair_round(GANSU, rec, rnd, seed=seed)
            return
        bye, cost, rest, points, due = best
        pg = pair_round(GANSU, rec, rnd, seed=seed)
        assert pg.bye == bye
        assert pairing_cost([(t.ns, t.ew) for t in pg.tables], rest, points, due) == cost
        rec = play(rec, pg, rng)


def test_score_groups_pair_internally_when_they_can() -> None:
    """Issue 13's case: a group that can pair internally is not split. After two rounds
    1–4 have 3 points and 1–2, 3–4 have met; the top-down search took the first legal
    opponent and could float; the matching keeps every table within its group."""
    r1 = [MatchResult(1, str(i), str(i + 4), "NS", 2, 0, 1, -1) for i in range(1, 5)]
    r2 = [MatchResult(2, a, b, None, 1, 1, 0, 0) for a, b in (("1", "2"), ("3", "4"), ("5", "6"), ("7", "8"))]
    rec = EventRecord(numbers(8), tuple(r1 + r2))
    pts = {r["pair"]: r["match_points"] for r in compute_standings(GANSU, rec, seed=0).rows}
    for seed in range(6):
        pg = pair_round(GANSU, rec, 3, seed=seed)
        assert all(pts[t.ns] == pts[t.ew] for t in pg.tables)


# -- knockout with an odd field, ties, entries and withdrawals (issue 13, items 1, 3, 5) -------
def test_13_pair_knockout_keeps_every_bye_and_ends_with_one_winner() -> None:
    from referee_app.core.knockout import placings

    rec = EventRecord(numbers(13))
    rng = random.Random(13)
    rnd, byes = 1, []
    while True:
        try:
            pg = pair_round(HBUE, rec, rnd, seed=5, knockout=True)
        except PairingError as err:
            assert "the knockout is over" in str(err)
            break
        if pg.bye:
            byes.append(pg.bye)
        rec = play(rec, pg, rng, draws=False)
        rnd += 1
    assert rnd - 1 == 4 and len(byes) == 2 and len(set(byes)) == 2
    rows = placings(rec)
    unbeaten = [
        p
        for p in rec.pairs
        if not any((m.ns == p and m.winner == "EW") or (m.ew == p and m.winner == "NS") for m in rec.results)
    ]
    assert len(unbeaten) == 1 and (rows[0]["rank"], rows[0]["pair"], rows[0]["out_in"]) == (
        1,
        unbeaten[0],
        None,
    )
    final = [m for m in rec.results if m.round == 4][0]
    assert rows[1]["rank"] == 2 and rows[1]["pair"] in {final.ns, final.ew} - {unbeaten[0]}
    assert [r["rank"] for r in rows[2:4]] == [3, 3]
    assert sum(1 for r in rows if r["out_in"] == 1) == 6


def test_tied_knockout_match_goes_on_with_the_deciding_result() -> None:
    from referee_app.core.standings import Decider

    tie = EventRecord(
        numbers(4), (MatchResult(1, "1", "2", None, 1, 1, 0, 0), MatchResult(1, "3", "4", "NS", 2, 0, 1, -1))
    )
    with pytest.raises(PairingError, match="no winner.*decide"):
        pair_round(HBUE, tie, 2, knockout=True)
    decided = EventRecord(tie.pairs, tie.results, deciders=(Decider(1, "2", "1", "lots", "抽签"),))
    pg = pair_round(HBUE, decided, 2, seed=1, knockout=True)
    assert {pg.tables[0].ns, pg.tables[0].ew} == {"2", "3"}


def test_late_entry_has_no_retroactive_bye_and_can_have_one_later() -> None:
    from referee_app.core.pairing import round_gaps
    from referee_app.core.standings import Entry

    r1 = tuple(MatchResult(1, str(2 * i + 1), str(2 * i + 2), "NS", 2, 0, 1, -1) for i in range(6))
    rec = EventRecord(numbers(13), r1, entries=(Entry("13", 2),))
    assert round_gaps(rec, 1) == []  # 13 is not missing from round 1: it had not entered
    pg = pair_round(GANSU, rec, 2, seed=0)
    ranked = [r["pair"] for r in compute_standings(GANSU, rec, seed=0).rows]
    assert pg.bye == ranked[-1]  # nobody had a bye in round 1: the lowest-ranked pair
    assert "13" in {p for t in pg.tables for p in (t.ns, t.ew)} | {pg.bye}
    rows = {r["pair"]: r["match_points"] for r in compute_standings(GANSU, rec, seed=0).rows}
    assert rows["13"] == 0  # no points for the round before it entered


def test_withdrawal_and_readmission() -> None:
    from referee_app.core.pairing import round_gaps
    from referee_app.core.standings import Withdrawal

    r1 = tuple(MatchResult(1, str(2 * i + 1), str(2 * i + 2), "NS", 2, 0, 1, -1) for i in range(3))
    rec = EventRecord(numbers(6), r1, withdrawals=(Withdrawal("6", 2, 4),))
    pg2 = pair_round(GANSU, rec, 2, seed=0)
    assert "6" not in {p for t in pg2.tables for p in (t.ns, t.ew)} and pg2.bye is not None
    assert "missing 6" not in round_gaps(rec, 2)
    later = pair_round(GANSU, rec, 4, seed=0)
    assert "6" in {p for t in later.tables for p in (t.ns, t.ew)}
    assert round_gaps(rec, 2) == [f"missing {p}" for p in "12345"]


def test_entered_draw_is_checked_against_the_field() -> None:
    pg = pair_round(GANSU, EventRecord(numbers(5)), 1, drawn=["3", "1", "5", "2", "4"])
    assert pg.method == "entered" and pg.tables[0] == pg.tables[0].__class__(1, "3", "1") and pg.bye == "4"
    with pytest.raises(PairingError, match="pair 2 is drawn twice"):
        pair_round(GANSU, EventRecord(numbers(5)), 1, drawn=["2", "1", "5", "2", "4"])
    with pytest.raises(PairingError, match="3 of round 1's field not drawn"):
        pair_round(GANSU, EventRecord(numbers(5)), 1, drawn=["1", "5", "2", "4"])


def test_hbue_places_decided_to_six_and_prizes() -> None:
    """HBUE "直至决出前六名" and its prizes (一等(名次)奖 8, 二等奖 24, 三等奖 32), by the
    rulebook's stated (assumed) rule: within the top six, pairs out in the same round are
    separated by the level difference of the match they lost, then lots."""
    from referee_app.core.knockout import placings

    rule = HBUE.data["standings"]["placings"]
    assert rule["decided"] == 6 and rule["clause"]["assumed"]
    rec = EventRecord(numbers(16))
    rng = random.Random(8)
    for rnd in range(1, 5):
        rec = play(rec, pair_round(HBUE, rec, rnd, seed=2, knockout=True), rng, draws=False)
    rows = placings(rec, rule, seed=2)
    ranks = [r["rank"] for r in rows]
    assert ranks[:6] == [1, 2, 3, 4, 5, 6]  # decided: no shared place in the top six
    assert ranks[6:8] == [7, 7] and ranks[8:] == [9] * 8  # shared after it, within a round
    assert [r["prize"] for r in rows] == [0] * 8 + [1] * 8
    lost = {}
    for m in rec.results:
        if m.round == 3:
            loser_ld = m.ns_level_difference if m.winner == "EW" else m.ew_level_difference
            lost[m.ns if m.winner == "EW" else m.ew] = loser_ld
    semis = [r for r in rows if r["out_in"] == 3]
    assert lost[semis[0]["pair"]] >= lost[semis[1]["pair"]]
    assert semis[0]["split"] in ("level_difference", "lots")
    assert [r["rank"] for r in placings(rec)][2:4] == [3, 3]  # no rule: shared
