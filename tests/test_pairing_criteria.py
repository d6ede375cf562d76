"""Gansu 六、三 「高分对高分，积分相近的相遇。相遇过的对不再相遇。」: the weighted score gap
(sum of squared differences), the same at every field size, and why each table is as it is.
Checked against brute force over generated events (core.simulation)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee_app.core.pairing import (
    CRITERIA,
    Pairing,
    Table,
    active_pairs,
    explain_pairing,
    pair_round,
    pairing_cost,
    swiss_field,
)
from referee_app.core.rulebook import load_rulebook
from referee_app.core.simulation import random_event
from referee_app.core.standings import EventRecord, MatchResult

GANSU = load_rulebook("gansu-2018")
BHG = load_rulebook("bhg-2011")


def win(rnd: int, ns: str, ew: str) -> MatchResult:
    return MatchResult(rnd, ns, ew, "NS", 2, 0, 1, -1)


def draw(rnd: int, ns: str, ew: str) -> MatchResult:
    return MatchResult(rnd, ns, ew, None, 1, 1, 0, 0)


def ew_win(rnd: int, ns: str, ew: str) -> MatchResult:
    return MatchResult(rnd, ns, ew, "EW", 0, 2, -1, 1)


def test_the_leader_does_not_meet_the_bottom_pair_when_smaller_gaps_are_legal() -> None:
    """Round 4 of six pairs (a generated event): 6 and 4 lead with 5 points, 1 and 5 have 3,
    2 has 2, 3 has 0. Counting cross-group tables first (then the plain sum of gaps) put the
    leader 6 against the bottom pair 3, five points apart; the weighted gap seats it against
    1, two points apart, and no legal pairing has a smaller weighted gap."""
    results = (
        ew_win(1, "2", "6"),
        win(1, "4", "3"),
        draw(1, "1", "5"),
        draw(2, "6", "4"),
        win(2, "5", "2"),
        ew_win(2, "3", "1"),
        win(3, "4", "1"),
        win(3, "6", "5"),
        win(3, "2", "3"),
    )
    rec = EventRecord(tuple("123456"), results)
    f = swiss_field(GANSU, rec, 4, active_pairs(rec, 4), 0)
    assert f.order[0] == "6" and f.points == {"6": 5, "4": 5, "1": 3, "5": 3, "2": 2, "3": 0}
    pg = pair_round(GANSU, rec, 4)
    tables = {frozenset((t.ns, t.ew)) for t in pg.tables}
    assert frozenset(("6", "3")) not in tables and frozenset(("6", "1")) in tables
    best = min(pairing_cost(m, f.order, f.points, f.due)[0] for m in _all_pairings(f.order, f.met))
    assert pairing_cost([(t.ns, t.ew) for t in pg.tables], f.order, f.points, f.due)[0] == best == 22


def test_one_large_gap_costs_more_than_two_small_ones() -> None:
    order = ["a", "b", "c", "d"]
    points = {"a": 4, "b": 2, "c": 2, "d": 0}
    two_small = pairing_cost([("a", "b"), ("c", "d")], order, points, {})
    one_large = pairing_cost([("a", "d"), ("b", "c")], order, points, {})
    assert two_small < one_large and two_small[0] == 8 and one_large[0] == 16


def _all_pairings(order: list[str], met: set[frozenset[str]]) -> Iterator[list[tuple[str, str]]]:
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


def _brute_force(rulebook: object, rec: EventRecord, rnd: int, seed: int) -> tuple[str | None, int] | None:
    """The bye and the smallest weighted gap over every rematch-free pairing (no matching)."""
    f = swiss_field(rulebook, rec, rnd, active_pairs(rec, rnd), seed)
    byes: list[str | None] = (
        [None] if len(f.order) % 2 == 0 else [p for p in reversed(f.order) if p not in f.had_bye]
    )
    for bye in byes:
        rest = [p for p in f.order if p != bye]
        gaps = [pairing_cost(m, rest, f.points, f.due)[0] for m in _all_pairings(rest, f.met)]
        if gaps:
            return bye, min(gaps)
    return None


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pairs=st.integers(min_value=3, max_value=10),
    rounds=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=10**6),
    bhg=st.booleans(),
)
def test_generated_events_never_pair_above_the_brute_force_minimum_or_rematch(
    pairs: int, rounds: int, seed: int, bhg: bool
) -> None:
    rb = BHG if bhg else GANSU
    event = random_event(rb, pairs, rounds, seed)
    meetings = Counter(frozenset((m.ns, m.ew)) for m in event.record.results)
    assert not meetings or max(meetings.values()) == 1
    for pg in event.pairings[1:]:
        before = EventRecord(
            event.record.pairs,
            tuple(m for m in event.record.results if m.round < pg.round),
            tuple(b for b in event.record.byes if b.round < pg.round),
        )
        best = _brute_force(rb, before, pg.round, seed)
        assert best is not None
        f = swiss_field(rb, before, pg.round, active_pairs(before, pg.round), seed)
        rest = [p for p in f.order if p != pg.bye]
        assert pg.bye == best[0]
        assert pairing_cost([(t.ns, t.ew) for t in pg.tables], rest, f.points, f.due)[0] == best[1]


def test_each_table_says_which_pair_floated_and_which_criterion_decided() -> None:
    # round 2 of five pairs: 1, 3 won (2 points), 2, 4 lost, 5 had the bye (2 points)
    from referee_app.core.standings import Bye

    rec = EventRecord(tuple("12345"), (win(1, "1", "2"), win(1, "3", "4")), (Bye(1, "5"),))
    pg = pair_round(GANSU, rec, 2)
    why = explain_pairing(GANSU, rec, pg)
    assert why.round == 2 and why.method == "swiss" and why.cost is not None
    assert [w.table for w in why.tables] == [t.table for t in pg.tables]
    assert why.bye == pg.bye and why.bye_reason in ("lowest", "lower_unpairable")
    floats = [w for w in why.tables if w.floated_down is not None]
    # three pairs on 2 points: one of them floats down to meet a pair on 0
    assert len(floats) == 1
    w = floats[0]
    down_points = w.ns_points if w.floated_down == w.ns else w.ew_points
    up_points = w.ew_points if w.floated_down == w.ns else w.ns_points
    assert (down_points, up_points, w.gap) == (2, 0, 2) and w.floated_up in (w.ns, w.ew)
    for t in why.tables:
        assert t.decided_by in (*CRITERIA, "tie", "rematch")
        if t.decided_by in CRITERIA:
            assert t.without is not None and t.without > why.cost
    within = [t for t in why.tables if t.floated_down is None]
    assert within and all(t.ns_points == t.ew_points for t in within)


def test_a_table_forced_by_the_no_rematch_rule_says_so() -> None:
    # 1–2 and 3–4 met, 1–3 met: round 3 can only be 1–4, 2–3
    rec = EventRecord(tuple("1234"), (win(1, "1", "2"), win(1, "3", "4"), win(2, "1", "3"), win(2, "2", "4")))
    pg = pair_round(GANSU, rec, 3)
    assert {w.decided_by for w in explain_pairing(GANSU, rec, pg).tables} == {"rematch"}


def test_a_drawn_round_and_a_hand_made_pairing_are_explained_as_such() -> None:
    rec = EventRecord(tuple("1234"))
    drawn = explain_pairing(GANSU, rec, pair_round(GANSU, rec, 1, seed=3))
    assert {w.decided_by for w in drawn.tables} == {"lot"} and drawn.cost is None
    played = EventRecord(tuple("1234"), (win(1, "1", "2"), win(1, "3", "4")))
    by_hand = Pairing(2, "swiss", 0, [Table(1, "1", "4"), Table(2, "3", "2")])
    # 1 and 3 (2 points each) kept apart: a pairing without 1–4 is better
    assert {w.decided_by for w in explain_pairing(GANSU, played, by_hand).tables} == {"against_criteria"}
