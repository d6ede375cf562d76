"""Tests that kill mutmut's surviving mutants of core/pairing.py and core/knockout.py (issue 16).

Each test names the rule it pins: Gansu 2018 六、三 (积分编排), HBUE 2018 通知四、(一) (knockout
draws), or the reading written in the module's docstring. Equivalent mutants are listed in
tools/mutation-equivalents.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee_app.core import pairing as pairing_mod
from referee_app.core.knockout import (
    Undecided,
    decided_how,
    field_of,
    loser_of,
    placings,
    prize_overflow,
    undecided,
    winner_of,
)
from referee_app.core.pairing import (
    Pairing,
    PairingError,
    Table,
    active_pairs,
    best_matching,
    check_pairing,
    expected_pairs,
    pair_round,
    pairing_cost,
    pairing_from_json,
    round_gaps,
)
from referee_app.core.rulebook import load_rulebook
from referee_app.core.standings import (
    Bye,
    Decider,
    Disqualification,
    Entry,
    EventRecord,
    MatchResult,
    Suspension,
    Withdrawal,
    lot_digest,
)

GANSU = load_rulebook("gansu-2018")
HBUE = load_rulebook("hbue-2018")


def numbers(n: int) -> tuple[str, ...]:
    return tuple(str(i) for i in range(1, n + 1))


def win(rnd: int, ns: str, ew: str, ld: int = 1) -> MatchResult:
    """NS ``ns`` beats EW ``ew`` by ``ld`` levels."""
    return MatchResult(rnd, ns, ew, "NS", 2, 0, ld, -ld)


def ew_win(rnd: int, ns: str, ew: str, ld: int = 1) -> MatchResult:
    return MatchResult(rnd, ns, ew, "EW", 0, 2, -ld, ld)


def tie(rnd: int, ns: str, ew: str) -> MatchResult:
    return MatchResult(rnd, ns, ew, None, 1, 1, 0, 0)


def tables(pg: Pairing) -> list[tuple[str, str]]:
    return [(t.ns, t.ew) for t in pg.tables]


# -- a pairing as data (pair --json, and a draw entered by hand) ---------------------------------


def test_a_pairing_as_json_lists_tables_then_the_bye() -> None:
    pg = Pairing(2, "swiss", 0, [Table(1, "1", "2"), Table(2, "3", "4")], "5")
    assert pg.to_json() == [
        {"table": 1, "NS": "1", "EW": "2"},
        {"table": 2, "NS": "3", "EW": "4"},
        {"bye": "5"},
    ]
    assert Pairing(2, "swiss", 0, [Table(1, "1", "2")]).to_json() == [{"table": 1, "NS": "1", "EW": "2"}]


def test_a_pairing_read_back_from_json() -> None:
    pg = pairing_from_json(3, [{"table": "1", "NS": 1, "EW": 2}, {"bye": 5}])
    assert pg == Pairing(3, "entered", None, [Table(1, "1", "2")], "5")
    assert pairing_from_json(3, [], method="swiss", seed=7) == Pairing(3, "swiss", 7, [], None)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"table": 1}, "^pairing: expected a JSON list of tables$"),
        ([[1, 2]], r"^pairing\[0\]: expected an object$"),
        ([{"bye": "1"}, {"bye": "2"}], r"^pairing\[1\]: a second bye$"),
        (
            [{"table": 1, "NS": "1"}],
            r"^pairing\[0\]: expected table, NS and EW, got \{'table': 1, 'NS': '1'\}$",
        ),
        ([{"table": "x", "NS": "1", "EW": "2"}], r"pairing\[0\]: expected table, NS and EW"),
        ([{"table": None, "NS": "1", "EW": "2"}], r"pairing\[0\]: expected table, NS and EW"),
    ],
)
def test_a_malformed_pairing_is_refused_naming_the_entry(data: Any, message: str) -> None:
    with pytest.raises(PairingError, match=message):
        pairing_from_json(1, data)


# -- checking a pairing before it is published ---------------------------------------------------


def test_check_pairing_errors_each_named() -> None:
    rec = EventRecord(numbers(6))
    pg = Pairing(1, "entered", None, [Table(1, "1", "2"), Table(3, "2", "7")], None)
    errors, warnings = check_pairing(rec, pg)
    assert errors == [
        "round 1: pair 2 appears 2 times",
        "round 1: pair 7 is not in the round's field",
        "round 1: pair(s) 3, 4, 5, 6 of the field have no table and no bye",
        "round 1: tables numbered [1, 3], expected 1 … 2",
    ]
    assert warnings == []


def test_check_pairing_clean_and_the_bye_counts_as_seated() -> None:
    rec = EventRecord(numbers(5))
    pg = Pairing(1, "entered", None, [Table(1, "1", "2"), Table(2, "3", "4")], "5")
    assert check_pairing(rec, pg) == ([], [])
    # pairs 10 and 9 sort as numbers in the messages
    pg = Pairing(1, "entered", None, [Table(1, "10", "9"), Table(2, "10", "9")], None)
    errors, _ = check_pairing(rec, pg)
    assert errors[:2] == ["round 1: pair 9 appears 2 times", "round 1: pair 10 appears 2 times"]


def test_check_pairing_warns_of_a_rematch_and_a_second_bye() -> None:
    # Gansu 六、三 "相遇过的对不再相遇": a rematch entered by hand is allowed but flagged
    rec = EventRecord(numbers(5), results=(win(1, "1", "2"), win(1, "3", "4")), byes=(Bye(1, "5"),))
    pg = Pairing(2, "entered", None, [Table(1, "2", "1"), Table(2, "3", "5")], "4")
    assert check_pairing(rec, pg) == ([], ["round 2 table 1: pairs 2 and 1 already met in round 1"])
    pg = Pairing(2, "entered", None, [Table(1, "1", "3"), Table(2, "2", "4")], "5")
    assert check_pairing(rec, pg) == ([], ["round 2: pair 5 has had a bye already"])
    # a result of this round or a later one is no earlier meeting, a bye of this round no earlier bye
    rec2 = EventRecord(numbers(5), results=(win(2, "1", "2"),), byes=(Bye(2, "5"),))
    pg = Pairing(2, "entered", None, [Table(1, "1", "2"), Table(2, "3", "4")], "5")
    assert check_pairing(rec2, pg) == ([], [])


def test_check_pairing_a_table_of_a_pair_against_itself_is_no_rematch() -> None:
    rec = EventRecord(numbers(2), results=(win(1, "1", "1"),))
    pg = Pairing(2, "entered", None, [Table(1, "1", "1")], None)
    errors, warnings = check_pairing(rec, pg)
    assert warnings == [] and errors[0] == "round 2: pair 1 appears 2 times"


def test_check_pairing_of_a_knockout_round_reads_its_field() -> None:
    rec = EventRecord(numbers(4), results=(win(1, "1", "2"), win(1, "3", "4")))
    ok = Pairing(2, "knockout", 0, [Table(1, "1", "3")], None)
    assert check_pairing(rec, ok, knockout=True) == ([], [])
    errors, _ = check_pairing(rec, ok)  # as a Swiss round every pair should play
    assert errors == ["round 2: pair(s) 2, 4 of the field have no table and no bye"]


# -- the field and what a round is missing -------------------------------------------------------


def test_the_field_leaves_out_suspended_withdrawn_late_and_disqualified_pairs() -> None:
    rec = EventRecord(
        numbers(6),
        suspensions=(Suspension("1", 2, 1),),
        withdrawals=(Withdrawal("2", 2),),
        entries=(Entry("3", 3),),
        disqualifications=(Disqualification("4", 1),),
    )
    assert active_pairs(rec, 1) == ["1", "2", "4", "5", "6"]
    assert active_pairs(rec, 2) == ["5", "6"]
    assert active_pairs(rec, 3) == ["1", "3", "5", "6"]
    assert expected_pairs(rec, 2) == ["5", "6"]


def test_round_gaps_names_missing_pairs_and_undecided_knockout_matches() -> None:
    rec = EventRecord(numbers(5), results=(win(1, "1", "2"), tie(1, "3", "4")))
    assert round_gaps(rec, 1) == ["missing 5"]
    rec = EventRecord(numbers(5), results=(win(1, "1", "2"), tie(1, "3", "4")), byes=(Bye(1, "5"),))
    assert round_gaps(rec, 1) == []
    assert round_gaps(rec, 1, knockout=True) == ["undecided 3 4"]
    # round 2 of the knockout: winners 1 and the bye 5 (3–4 undecided, so neither)
    assert round_gaps(rec, 2, knockout=True) == ["missing 1", "missing 5"]
    rec2 = EventRecord(numbers(4), results=(win(1, "1", "2"), win(2, "3", "4")))
    assert round_gaps(rec2, 1) == ["missing 3", "missing 4"]


# -- round 1 by lot, a draw entered --------------------------------------------------------------


def test_round_1_by_lot_in_the_order_of_the_seeded_lots() -> None:
    rec = EventRecord(numbers(7))
    pg = pair_round(GANSU, rec, 1, seed=11)
    drawn = sorted(numbers(7), key=lambda p: lot_digest(11, p, "r1:"))
    assert pg.method == "lot" and pg.seed == 11 and pg.round == 1
    assert pg.bye == drawn[-1]
    assert pg.tables == [Table(i + 1, drawn[2 * i], drawn[2 * i + 1]) for i in range(3)]


def test_no_round_number_below_1() -> None:
    with pytest.raises(PairingError, match="--round: expected a round number ≥ 1, got 0"):
        pair_round(GANSU, EventRecord(numbers(4)), 0)


def test_a_field_of_one_is_not_paired() -> None:
    with pytest.raises(PairingError, match=r"round 1: 1 pair\(s\) to play; nothing to pair"):
        pair_round(GANSU, EventRecord(("1",)), 1)
    rec = EventRecord(numbers(2), results=(win(1, "1", "2"),), withdrawals=(Withdrawal("2", 2),))
    with pytest.raises(PairingError, match=r"round 2: 1 pair\(s\) to play; nothing to pair"):
        pair_round(GANSU, rec, 2)


def test_round_1_drawn_in_the_hall() -> None:
    pg = pair_round(GANSU, EventRecord(numbers(4)), 1, drawn=["4", "2", "3", "1"])
    assert pg == Pairing(1, "entered", None, [Table(1, "4", "2"), Table(2, "3", "1")], None)
    with pytest.raises(PairingError, match="--drawn: pair 9 is not in round 1's field"):
        pair_round(GANSU, EventRecord(numbers(4)), 1, drawn=["4", "2", "3", "9"])


def test_a_swiss_round_after_the_first_is_not_drawn() -> None:
    rec = EventRecord(numbers(4), results=(win(1, "1", "2"), win(1, "3", "4")))
    with pytest.raises(
        PairingError, match="round 2: a Swiss round after round 1 is paired by score, not drawn"
    ):
        pair_round(GANSU, rec, 2, drawn=["1", "3", "2", "4"])


# -- Swiss rounds (Gansu 六、三) -------------------------------------------------------------------


def test_swiss_winners_meet_winners_top_table_first_and_seats_by_ns_count() -> None:
    # round 1: 1 and 3 won sitting NS, 2 and 4 lost sitting EW
    rec = EventRecord(numbers(4), results=(win(1, "1", "2", 3), win(1, "3", "4", 1)))
    pg = pair_round(GANSU, rec, 2)
    assert pg.method == "swiss" and pg.round == 2 and pg.seed == 0 and pg.bye is None
    # 1 (ld 3) and 3 (ld 1) are due EW (both sat NS): equal, so the higher-ranked 1 sits NS;
    # 2 and 4 both sat EW, 4 ranks above 2 (−1 vs −3)
    assert [(t.table, t.ns, t.ew) for t in pg.tables] == [(1, "1", "3"), (2, "4", "2")]


def test_swiss_the_pair_that_sat_ns_fewer_times_sits_ns() -> None:
    # 1 sat NS, 3 sat EW in round 1 and both won: 3 (fewer NS) sits NS though ranked lower
    rec = EventRecord(numbers(4), results=(win(1, "1", "2", 3), ew_win(1, "4", "3", 1)))
    pg = pair_round(GANSU, rec, 2)
    assert tables(pg)[0] == ("3", "1")
    # the losers: 2 sat EW, 4 sat NS: 2 sits NS
    assert tables(pg)[1] == ("2", "4")


def test_swiss_bye_to_the_lowest_ranked_pair_without_one() -> None:
    rec = EventRecord(numbers(5), results=(win(1, "1", "2", 3), win(1, "3", "4", 1)), byes=(Bye(1, "5"),))
    pg = pair_round(GANSU, rec, 2)
    # 2 ranks last (ld −3) and has had no bye; 5 had round 1's
    assert pg.bye == "2"
    rec = EventRecord(
        numbers(3),
        results=(win(1, "1", "2"), win(2, "1", "3"), win(3, "2", "3")),
        byes=(Bye(1, "3"), Bye(2, "2"), Bye(3, "1")),
    )
    with pytest.raises(
        PairingError, match="round 4: every pair has had a bye; an odd field cannot be paired"
    ):
        pair_round(GANSU, rec, 4)


def test_swiss_the_bye_passes_up_when_the_rest_cannot_be_paired() -> None:
    # 3 pairs; 1–2 and 2–3 have met. The lowest-ranked pair without a bye would leave two
    # that have met, so the bye goes up to the next one whose absence leaves a table
    rec = EventRecord(
        numbers(3), results=(win(1, "1", "2"), win(2, "2", "3")), byes=(Bye(1, "3"), Bye(2, "1"))
    )
    pg = pair_round(GANSU, rec, 3)
    assert pg.bye == "2" and tables(pg) in ([("1", "3")], [("3", "1")])


def test_swiss_refuses_a_round_where_every_pair_has_met() -> None:
    rec = EventRecord(numbers(2), results=(win(1, "1", "2"),))
    with pytest.raises(
        PairingError, match="round 2: 2 pairs cannot all be paired without two pairs meeting again"
    ):
        pair_round(GANSU, rec, 2)


def test_swiss_reads_only_the_rounds_before() -> None:
    # a result of round 2 already recorded is not read when pairing round 2 again
    rec = EventRecord(numbers(4), results=(win(1, "1", "2"), win(1, "3", "4"), win(2, "1", "3")))
    pg = pair_round(GANSU, rec, 2)
    assert {frozenset(t) for t in tables(pg)} == {frozenset(("1", "3")), frozenset(("2", "4"))}


# -- the criteria (pairing_cost) and the matching --------------------------------------------------


def test_pairing_cost_counts_each_criterion() -> None:
    order = ["a", "b", "c", "d"]
    points = {"a": 4, "b": 2, "c": 2, "d": 0}
    due = {"a": 1, "b": 1, "c": -1, "d": 0}
    # a–b: gap 2 (weighs 4), both due +1 (same seat), distance 1; c–d: gap 2, due −1/0, distance 1
    assert pairing_cost([("a", "b"), ("c", "d")], order, points, due) == (8, 1, 2)
    # a–d: gap 4 (weighs 16), distance 3; b–c: same group, due +1/−1, distance 1: one large
    # gap costs more than two small ones (the old order, cross-group tables first, chose it)
    assert pairing_cost([("a", "d"), ("b", "c")], order, points, due) == (16, 0, 4)
    # both due −1 is a same-seat table too; a pair missing from points/due counts 0
    assert pairing_cost([("c", "x")], order + ["x"], points, {"c": -1, "x": -2}) == (4, 1, 2)
    assert pairing_cost([], order, points, due) == (0, 0, 0)


def test_best_matching_of_nothing_and_of_an_odd_field() -> None:
    assert best_matching([], set(), {}, {}) == []
    assert best_matching(["1", "2", "3"], set(), {}, {}) is None
    assert best_matching(["1"], set(), {}, {}) is None


def brute_best(
    order: list[str], met: set[frozenset[str]], points: dict[str, int], due: dict[str, int]
) -> Any:
    def all_(rest: list[str]) -> Any:
        if not rest:
            yield []
            return
        a = rest[0]
        for i in range(1, len(rest)):
            b = rest[i]
            if frozenset((a, b)) in met:
                continue
            for more in all_(rest[1:i] + rest[i + 1 :]):
                yield [(a, b), *more]

    return min((pairing_cost(m, order, points, due) for m in all_(order)), default=None)


def test_the_matching_finds_the_lexicographic_best_each_criterion_in_turn() -> None:
    """Gansu 六、三: 高分对高分，积分相近 (the smallest sum of squared score gaps), then seats,
    then rank distance — each deciding only when the ones before tie."""
    order = [str(i) for i in range(1, 9)]
    cases = [
        ({"1": 6, "2": 4, "3": 4, "4": 4, "5": 2, "6": 2, "7": 2, "8": 0}, {}, set()),
        ({p: 2 for p in order}, {"1": 1, "2": 1, "3": -1, "4": -1, "5": 1, "6": -1, "7": 0, "8": 0}, set()),
        (
            {"1": 4, "2": 4, "3": 2, "4": 2, "5": 2, "6": 2, "7": 0, "8": 0},
            {"1": 1, "2": 1},
            {frozenset(("3", "4"))},
        ),
        ({p: 0 for p in order}, {}, {frozenset(("1", "2")), frozenset(("3", "4")), frozenset(("1", "3"))}),
    ]
    for points, due, met in cases:
        found = best_matching(order, met, points, due)
        assert found is not None and sorted(p for t in found for p in t) == sorted(order)
        assert not any(frozenset(t) in met for t in found)
        assert pairing_cost(found, order, points, due) == brute_best(order, met, points, due)
        assert all(order.index(a) < order.index(b) for a, b in found)  # better-ranked first


def test_a_field_that_cannot_be_seated_at_all_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    order = ["1", "2", "3", "4"]
    met = {frozenset(("1", "2")), frozenset(("1", "3")), frozenset(("1", "4"))}
    assert best_matching(order, met, {}, {}) is None
    monkeypatch.setattr(pairing_mod, "BLOCK_LIMIT", 2)
    monkeypatch.setattr(pairing_mod, "BLOCK", 2)
    assert best_matching(order, met, {}, {}) is None


# -- large fields in blocks (BLOCK_LIMIT, BLOCK), with small blocks ---------------------------------


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pairing_mod, "BLOCK_LIMIT", 8)
    monkeypatch.setattr(pairing_mod, "BLOCK", 4)


def test_blocks_pair_consecutive_ranks_and_report_progress(small_blocks: None) -> None:
    order = [str(i) for i in range(1, 13)]
    seen: list[tuple[int, int]] = []
    found = best_matching(
        order, set(), dict.fromkeys(order, 0), dict.fromkeys(order, 0), lambda d, t: seen.append((d, t))
    )
    assert found == [("1", "2"), ("3", "4"), ("5", "6"), ("7", "8"), ("9", "10"), ("11", "12")]
    assert seen == [(4, 12), (8, 12), (12, 12)]
    # exactly BLOCK_LIMIT pairs: one matching, no blocks (one progress call would be a block)
    seen.clear()
    eight = order[:8]
    assert best_matching(eight, set(), {}, {}, lambda d, t: seen.append((d, t))) is not None
    assert seen == []


def test_a_pair_a_block_cannot_seat_moves_down(small_blocks: None) -> None:
    order = [str(i) for i in range(1, 13)]
    # 4 has met 1, 2 and 3: block 1 (1–4) seats one table, 4 and another move down
    met = {frozenset(("4", p)) for p in ("1", "2", "3")}
    found = best_matching(order, met, dict.fromkeys(order, 0), dict.fromkeys(order, 0))
    assert found is not None and len(found) == 6
    assert sorted(p for t in found for p in t) == sorted(order)
    assert not any(frozenset(t) in met for t in found)
    # the first block seats one table of 1, 2, 3; 4 is seated further down
    assert set(found[0]) < {"1", "2", "3"} and "4" not in found[0]


def test_an_odd_block_takes_the_next_pair(small_blocks: None) -> None:
    order = [str(i) for i in range(1, 11)]
    # 1 and 2 have met: 1, 2, 3, 4 → 1–3, 2–4; the carry is even. With 1 met by 2, 3, 4
    # block 1 seats 2–3 and carries 1 and 4 (even), so no pair is taken
    met = {frozenset(("1", p)) for p in ("2", "3", "4")}
    found = best_matching(order, met, dict.fromkeys(order, 0), dict.fromkeys(order, 0))
    assert found is not None and len(found) == 5
    assert not any(frozenset(t) in met for t in found)
    assert sorted(p for t in found for p in t) == sorted(order)


def test_a_last_block_that_cannot_be_seated_is_matched_again_with_blocks_above(small_blocks: None) -> None:
    order = [str(i) for i in range(1, 11)]
    # the last block (9, 10) has met: matched with the block above it
    met = {frozenset(("9", "10"))}
    found = best_matching(order, met, dict.fromkeys(order, 0), dict.fromkeys(order, 0))
    assert found is not None and len(found) == 5
    assert not any(frozenset(t) in met for t in found)
    assert sorted(p for t in found for p in t) == sorted(order)
    # the first block's tables stand
    assert found[:2] == [("1", "2"), ("3", "4")]


def test_blocks_that_cannot_be_seated_even_together_are_none(small_blocks: None) -> None:
    order = [str(i) for i in range(1, 11)]
    met = {frozenset(("10", p)) for p in order if p != "10"}
    assert best_matching(order, met, {}, {}) is None


# -- knockout (HBUE 通知四、(一)) ----------------------------------------------------------------------


def test_a_match_winner_loser_and_the_chief_referees_decider() -> None:
    m = tie(1, "1", "2")
    rec = EventRecord(numbers(2), results=(m,))
    assert winner_of(rec, m) is None and loser_of(rec, m) is None
    assert winner_of(rec, win(1, "1", "2")) == "1" and loser_of(rec, win(1, "1", "2")) == "2"
    assert winner_of(rec, ew_win(1, "1", "2")) == "2" and loser_of(rec, ew_win(1, "1", "2")) == "1"
    decided = EventRecord(numbers(2), results=(m,), deciders=(Decider(1, "2", "1", "lots", "抽签"),))
    assert winner_of(decided, m) == "2" and loser_of(decided, m) == "1"
    # a decider of another round, or of other pairs, does not decide this match
    other_round = EventRecord(numbers(2), results=(m,), deciders=(Decider(2, "2", "1", "lots", "r"),))
    assert winner_of(other_round, m) is None
    other_pairs = EventRecord(numbers(3), results=(m,), deciders=(Decider(1, "2", "3", "lots", "r"),))
    assert winner_of(other_pairs, m) is None


def test_undecided_matches_of_a_round() -> None:
    rec = EventRecord(numbers(6), results=(tie(1, "1", "2"), win(1, "3", "4"), tie(2, "5", "6")))
    assert undecided(rec, 1) == [Undecided(1, "1", "2")]
    assert undecided(rec, 2) == [Undecided(2, "5", "6")]


def test_the_knockout_field_is_the_winners_and_the_bye_less_those_gone() -> None:
    rec = EventRecord(
        numbers(7),
        results=(win(1, "1", "2"), ew_win(1, "3", "4"), win(1, "5", "6")),
        byes=(Bye(1, "7"),),
    )
    assert field_of(rec, 1) == list(numbers(7))
    assert field_of(rec, 0) == list(numbers(7))
    assert field_of(rec, 2) == ["1", "4", "5", "7"]
    gone = EventRecord(rec.pairs, rec.results, rec.byes, withdrawals=(Withdrawal("5", 2),))
    assert field_of(gone, 2) == ["1", "4", "7"]
    late = EventRecord(numbers(3), entries=(Entry("3", 2),))
    assert field_of(late, 1) == ["1", "2"]


def test_knockout_round_1_by_lot_or_drawn() -> None:
    rec = EventRecord(numbers(5))
    pg = pair_round(HBUE, rec, 1, seed=3, knockout=True)
    drawn = sorted(numbers(5), key=lambda p: lot_digest(3, p, "r1:"))
    assert pg.method == "lot" and pg.bye == drawn[-1]
    assert tables(pg) == [(drawn[0], drawn[1]), (drawn[2], drawn[3])]
    pg = pair_round(HBUE, rec, 1, knockout=True, drawn=["5", "4", "3", "2", "1"])
    assert pg.method == "entered" and tables(pg) == [("5", "4"), ("3", "2")] and pg.bye == "1"


def test_knockout_later_rounds_draw_among_the_winners() -> None:
    rec = EventRecord(numbers(6), results=(win(1, "1", "2"), win(1, "3", "4"), ew_win(1, "5", "6")))
    pg = pair_round(HBUE, rec, 2, seed=4, knockout=True)
    drawn = sorted(["1", "3", "6"], key=lambda p: lot_digest(4, p, "r2:"))
    assert pg.method == "knockout" and pg.round == 2 and pg.seed == 4
    assert tables(pg) == [(drawn[0], drawn[1])] and pg.bye == drawn[2]


def test_knockout_bye_to_the_last_drawn_without_one() -> None:
    # 5 winners in round 2 (one had round 1's bye): the bye goes to the last drawn that has not
    # had one; if every one has had one, to the last drawn
    rec = EventRecord(
        numbers(9),
        results=(win(1, "1", "2"), win(1, "3", "4"), win(1, "5", "6"), win(1, "7", "8")),
        byes=(Bye(1, "9"),),
    )
    for seed in range(6):
        drawn = sorted(["1", "3", "5", "7", "9"], key=lambda p: lot_digest(seed, p, "r2:"))
        pg = pair_round(HBUE, rec, 2, seed=seed, knockout=True)
        expected = [p for p in drawn if p != "9"][-1]
        assert pg.bye == expected
    # drawn in the hall: the last drawn has the bye, and a second bye is refused
    pg = pair_round(HBUE, rec, 2, knockout=True, drawn=["1", "3", "5", "9", "7"])
    assert pg.bye == "7" and pg.method == "entered"
    with pytest.raises(PairingError, match="--drawn: pair 9 would have a second bye"):
        pair_round(HBUE, rec, 2, knockout=True, drawn=["1", "3", "5", "7", "9"])


def test_knockout_every_winner_had_a_bye_the_last_drawn_has_it() -> None:
    rec = EventRecord(
        numbers(3), results=(win(1, "1", "2"), win(2, "1", "3")), byes=(Bye(1, "3"), Bye(2, "9"))
    )
    rec = EventRecord(
        ("1", "2", "3", "4", "5"),
        results=(win(1, "1", "2"), win(1, "3", "4")),
        byes=(Bye(1, "5"),),
    )
    # round 2: 1, 3, 5; only 5 had a bye
    pg = pair_round(HBUE, rec, 2, seed=0, knockout=True)
    assert pg.bye in ("1", "3")


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            EventRecord(numbers(4), results=(tie(1, "1", "2"), win(1, "3", "4"))),
            "round 1: pairs 1 and 2 have no winner",
        ),
        (EventRecord(numbers(4)), "round 1 has no results yet; a knockout draws among its winners"),
        (
            EventRecord(numbers(2), results=(win(1, "1", "2"),)),
            "round 1 left one winner, pair 1: the knockout is over",
        ),
        (
            EventRecord(numbers(2), results=(win(1, "1", "2"),), withdrawals=(Withdrawal("1", 2),)),
            "round 1 left no pair to draw",
        ),
    ],
)
def test_knockout_refusals(record: EventRecord, message: str) -> None:
    with pytest.raises(PairingError, match=message):
        pair_round(HBUE, record, 2, knockout=True)


def test_knockout_refuses_a_round_after_one_without_results_even_with_a_bye() -> None:
    rec = EventRecord(numbers(3), byes=(Bye(1, "3"),))
    with pytest.raises(PairingError, match="round 1 has no results yet"):
        pair_round(HBUE, rec, 2, knockout=True)


# -- knockout placings (HBUE 通知四: 决出前六名; prizes) ----------------------------------------------


def test_placings_without_a_rule_share_a_place_within_a_round() -> None:
    rec = EventRecord(
        numbers(8),
        results=(
            win(1, "1", "2"),
            win(1, "3", "4"),
            win(1, "5", "6"),
            win(1, "7", "8"),
            win(2, "1", "3"),
            win(2, "5", "7"),
            win(3, "1", "5"),
        ),
    )
    rows = placings(rec)
    assert [(r["rank"], r["pair"], r["out_in"], r["won"]) for r in rows] == [
        (1, "1", None, 3),
        (2, "5", 3, 2),
        (3, "3", 2, 1),
        (3, "7", 2, 1),
        (5, "2", 1, 0),
        (5, "4", 1, 0),
        (5, "6", 1, 0),
        (5, "8", 1, 0),
    ]
    assert all(r["split"] is None and r["prize"] is None for r in rows)


def test_placings_pairs_still_in_rank_by_the_round_reached() -> None:
    rec = EventRecord(
        numbers(5),
        results=(win(1, "1", "2"), win(1, "3", "4"), win(2, "1", "3")),
        byes=(Bye(1, "5"), Bye(2, "5")),
    )
    rows = placings(rec)
    # 1 (won round 2) and 5 (bye in round 2) reached round 2 and are still in: they share 1st
    assert [(r["rank"], r["pair"]) for r in rows] == [(1, "1"), (1, "5"), (3, "3"), (4, "2"), (4, "4")]
    assert rows[0]["out_in"] is None and rows[1]["won"] == 0


def test_placings_a_decider_and_disqualification_and_withdrawal() -> None:
    rec = EventRecord(
        numbers(6),
        results=(tie(1, "1", "2"), win(1, "3", "4"), win(2, "1", "3")),
        byes=(Bye(1, "5"),),
        deciders=(Decider(1, "1", "2", "lots", "抽签"),),
        disqualifications=(Disqualification("5", 2),),
        withdrawals=(Withdrawal("6", 1),),
    )
    rows = {r["pair"]: r for r in placings(rec)}
    assert rows["1"]["rank"] == 1 and rows["1"]["won"] == 2
    assert rows["3"]["out_in"] == 2 and rows["5"]["out_in"] == 2
    assert rows["2"]["out_in"] == 1 and rows["4"]["out_in"] == 1
    # withdrew before round 1 without playing: last, unranked
    assert rows["6"] == {"rank": None, "pair": "6", "out_in": 0, "won": 0, "split": None, "prize": None}
    assert [r["pair"] for r in placings(rec)][-1] == "6"


def test_placings_a_withdrawal_after_playing_counts_as_out_in_its_round() -> None:
    rec = EventRecord(
        numbers(4),
        results=(win(1, "1", "2"), win(1, "3", "4")),
        withdrawals=(Withdrawal("3", 2), Withdrawal("4", 1, back_from=2)),
    )
    rows = {r["pair"]: r for r in placings(rec)}
    assert rows["3"]["out_in"] == 2 and rows["3"]["rank"] == 2
    assert rows["4"]["out_in"] == 1  # lost round 1; a withdrawal with a return is no exit
    # withdrew from round 1 but had played in it (a result of round 1): out in round 1, ranked
    rec2 = EventRecord(
        numbers(4), results=(win(1, "1", "2"), win(1, "3", "4")), withdrawals=(Withdrawal("1", 1),)
    )
    assert {r["pair"]: r for r in placings(rec2)}["1"]["rank"] is not None


def test_placings_split_within_the_decided_places_by_level_difference_then_lots() -> None:
    rec = EventRecord(
        numbers(8),
        results=(
            win(1, "1", "2", 4),
            win(1, "3", "4", 1),
            win(1, "5", "6", 2),
            win(1, "7", "8", 2),
            win(2, "1", "3", 2),
            win(2, "5", "7", 1),
            win(3, "1", "5"),
        ),
    )
    rule = {"decided": 6, "split_by": ["level_difference", "lots"], "prizes": [{"count": 1}, {"count": 3}]}
    rows = placings(rec, rule, seed=5)
    # semi-final losers: 7 lost by 1, 3 by 2: 7 ranks 3rd (closer), split by level difference
    assert [(r["rank"], r["pair"], r["split"]) for r in rows[:4]] == [
        (1, "1", None),
        (2, "5", None),
        (3, "7", "level_difference"),
        (4, "3", None),
    ]
    # round 1 losers: 4 (−1) first; 6 and 8 (−2 each) by lots; 2 (−4) is past the 6th place
    r1 = rows[4:]
    assert r1[0]["pair"] == "4" and r1[0]["rank"] == 5 and r1[0]["split"] == "level_difference"
    six_eight = sorted(["6", "8"], key=lambda p: lot_digest(5, p, "place:"))
    # 6th is the last decided place: it is split from the next (by lots) and shares nothing
    assert r1[1]["pair"] == six_eight[0] and r1[1]["rank"] == 6 and r1[1]["split"] == "lots"
    assert [r["rank"] for r in r1[2:]] == [7, 7] and all(r["split"] is None for r in r1[2:])
    assert [r["prize"] for r in rows] == [0, 1, 1, 1, None, None, None, None]


def test_placings_lots_alone_and_a_split_at_the_last_decided_place() -> None:
    rec = EventRecord(numbers(4), results=(win(1, "1", "2", 1), win(1, "3", "4", 1), win(2, "1", "3")))
    order = sorted(["2", "4"], key=lambda p: lot_digest(9, p, "place:"))
    rows = placings(rec, {"decided": 4, "split_by": ["lots"]}, seed=9)
    assert [(r["rank"], r["pair"], r["split"]) for r in rows[2:]] == [
        (3, order[0], "lots"),
        (4, order[1], None),
    ]
    # decided down to 3: the split is at the last decided place: 3rd by lots, no split named
    # after the decided ones; the next shares 4th
    rows = placings(rec, {"decided": 3, "split_by": ["lots"]}, seed=9)
    assert [(r["rank"], r["pair"], r["split"]) for r in rows[2:]] == [
        (3, order[0], "lots"),
        (4, order[1], None),
    ]
    # nothing to split by: shared
    rows = placings(rec, {"decided": 4, "split_by": []}, seed=9)
    assert [r["rank"] for r in rows[2:]] == [3, 3]
    # places outside decided are shared
    rows = placings(rec, {"decided": 2, "split_by": ["lots"]}, seed=9)
    assert [r["rank"] for r in rows[2:]] == [3, 3]


def test_placings_prizes_by_count() -> None:
    rec = EventRecord(numbers(4), results=(win(1, "1", "2"), win(1, "3", "4"), win(2, "1", "3")))
    rows = placings(rec, {"decided": 0, "split_by": [], "prizes": [{"count": 1}, {"count": 1}, {"count": 2}]})
    assert [(r["rank"], r["prize"]) for r in rows] == [(1, 0), (2, 1), (3, 2), (3, 2)]
    rows = placings(rec, {"decided": 0, "split_by": [], "prizes": [{"count": 2}]})
    assert [r["prize"] for r in rows] == [0, 0, None, None]
    rows = placings(rec, {"decided": 0, "split_by": []})
    assert [r["prize"] for r in rows] == [None] * 4


# -- more of the same rules, from the survivors of a first run ------------------------------------


def test_check_pairing_names_pairs_in_number_order() -> None:
    rec = EventRecord(numbers(8))
    pg = Pairing(1, "entered", None, [Table(1, "1", "2"), Table(2, "10", "3"), Table(3, "4", "9")], None)
    errors, _ = check_pairing(rec, pg)
    assert errors == [
        "round 1: pair 9 is not in the round's field",
        "round 1: pair 10 is not in the round's field",
        "round 1: pair(s) 5, 6, 7, 8 of the field have no table and no bye",
    ]
    rec = EventRecord(numbers(10))
    pg = Pairing(1, "entered", None, [Table(1, "1", "2")], None)
    assert check_pairing(rec, pg)[0] == [
        "round 1: pair(s) 3, 4, 5, 6, 7, 8, 9, 10 of the field have no table and no bye"
    ]


def test_check_pairing_a_self_table_does_not_stop_the_rematch_check() -> None:
    rec = EventRecord(numbers(4), results=(win(1, "3", "4"),))
    pg = Pairing(2, "entered", None, [Table(1, "1", "1"), Table(2, "3", "4")], None)
    _, warnings = check_pairing(rec, pg)
    assert warnings == ["round 2 table 2: pairs 3 and 4 already met in round 1"]


def test_a_draw_entered_names_the_pairs_not_drawn_in_number_order() -> None:
    with pytest.raises(PairingError, match=r"^--drawn: pair\(s\) 9, 10, 11 of round 1's field not drawn$"):
        pair_round(GANSU, EventRecord(numbers(11)), 1, drawn=[str(i) for i in range(1, 9)])


def test_placings_lots_with_the_default_seed_of_0() -> None:
    rec = EventRecord(
        numbers(8),
        results=(
            win(1, "1", "2"),
            win(1, "3", "4"),
            win(1, "5", "6"),
            win(1, "7", "8"),
            win(2, "1", "3"),
            win(2, "5", "7"),
            win(3, "1", "5"),
        ),
    )
    rows = placings(rec, {"decided": 8, "split_by": ["lots"]})
    # the round-1 losers 2, 4, 6, 8 in the order of lot_digest(0, pair, "place:")
    assert [r["pair"] for r in rows[4:]] == sorted(
        ["2", "4", "6", "8"], key=lambda p: lot_digest(0, p, "place:")
    )
    assert [r["pair"] for r in rows[4:]] == ["4", "6", "8", "2"]
    assert [r["won"] for r in rows] == [3, 2, 1, 1, 0, 0, 0, 0]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5, 6, 7, 8]


def test_placings_read_results_in_any_order() -> None:
    # 1 won rounds 1 and 2 (listed round 2 first); 5 had byes in rounds 1 and 2 … and a win;
    # both are still in, having reached round 2: they share 1st
    rec = EventRecord(
        numbers(5),
        results=(win(2, "1", "3"), win(1, "1", "2"), win(1, "3", "4")),
        byes=(Bye(2, "5"), Bye(1, "5")),
    )
    rows = placings(rec)
    assert [(r["rank"], r["pair"]) for r in rows[:2]] == [(1, "1"), (1, "5")]


def test_placings_a_pair_with_a_bye_then_a_win_reached_the_later_round() -> None:
    # 5: bye in round 1, beat 1 in round 2; 3: won round 1, bye in round 2. Both still in after
    # round 2, both reached round 2: they share 1st
    rec = EventRecord(
        numbers(5),
        results=(win(1, "1", "2"), win(1, "3", "4"), win(2, "5", "1")),
        byes=(Bye(1, "5"), Bye(2, "3")),
    )
    rows = placings(rec)
    assert sorted((r["rank"], r["pair"]) for r in rows[:2]) == [(1, "3"), (1, "5")]


def test_placings_an_undecided_tie_does_not_stop_the_count() -> None:
    rec = EventRecord(numbers(4), results=(tie(1, "1", "2"), win(1, "3", "4")))
    rows = {r["pair"]: r for r in placings(rec)}
    assert rows["3"]["won"] == 1 and rows["4"]["out_in"] == 1
    assert rows["1"]["out_in"] is None and rows["2"]["out_in"] is None


def test_placings_ignore_pairs_outside_the_event() -> None:
    rec = EventRecord(numbers(2), results=(win(1, "1", "2"), win(1, "9", "8")), byes=(Bye(1, "7"),))
    assert [r["pair"] for r in placings(rec)] == ["1", "2"]


def test_placings_a_readmitted_pair_is_not_out() -> None:
    rec = EventRecord(
        numbers(4),
        results=(win(1, "1", "2"), win(1, "3", "4")),
        withdrawals=(Withdrawal("1", 1, back_from=2),),
    )
    rows = {r["pair"]: r for r in placings(rec)}
    assert rows["1"]["out_in"] is None and rows["1"]["rank"] == 1


def test_placings_a_pair_that_withdrew_from_round_2_without_playing_is_out_in_round_2() -> None:
    # 5 was suspended in round 1 (did not play) and withdrew from round 2: out in round 2
    rec = EventRecord(
        numbers(5),
        results=(win(1, "1", "2"), win(1, "3", "4")),
        suspensions=(Suspension("5", 1, 1),),
        withdrawals=(Withdrawal("5", 2),),
    )
    rows = {r["pair"]: r for r in placings(rec)}
    assert rows["5"]["out_in"] == 2 and rows["5"]["rank"] is not None


def test_placings_split_a_disqualified_pair_with_no_match_lost_counts_level_difference_0() -> None:
    rec = EventRecord(
        numbers(4),
        results=(win(1, "1", "2", 2), win(1, "3", "4", 1)),
        disqualifications=(Disqualification("3", 1),),
    )
    rows = placings(rec, {"decided": 4, "split_by": ["level_difference", "lots"]}, seed=1)
    # out in round 1: 3 (disqualified, no match lost: 0), 4 (lost by 1), 2 (lost by 2)
    assert [r["pair"] for r in rows[1:]] == ["3", "4", "2"]
    assert [r["split"] for r in rows[1:]] == ["level_difference", "level_difference", None]


def test_placings_equal_keys_are_not_split() -> None:
    rec = EventRecord(numbers(4), results=(win(1, "1", "2", 1), win(1, "3", "4", 1), win(2, "1", "3")))
    rows = placings(rec, {"decided": 4, "split_by": ["level_difference"]})
    assert [(r["rank"], r["pair"], r["split"], r["won"]) for r in rows[2:]] == [
        (3, "2", None, 0),
        (4, "4", None, 0),
    ]
    assert [(r["rank"], r["won"]) for r in rows[:2]] == [(1, 2), (2, 1)]


def test_placings_pairs_still_in_rank_by_how_far_they_got() -> None:
    # round 2 half played: 1 beat 3; 5 and 7 have not played it yet
    rec = EventRecord(
        numbers(8),
        results=(win(1, "1", "2"), win(1, "3", "4"), win(1, "5", "6"), win(1, "7", "8"), win(2, "1", "3")),
    )
    rows = placings(rec)
    assert [(r["rank"], r["pair"], r["out_in"]) for r in rows[:4]] == [
        (1, "1", None),
        (2, "5", None),
        (2, "7", None),
        (4, "3", 2),
    ]


def test_pairing_cost_reads_a_missing_score_or_seat_as_0_on_either_side() -> None:
    order = ["x", "c", "a", "b"]
    assert pairing_cost([("x", "c")], order, {"c": 2}, {}) == (4, 0, 1)
    assert pairing_cost([("c", "x")], order, {"c": 2}, {}) == (4, 0, 1)
    assert pairing_cost([("a", "b")], order, {}, {"b": 1}) == (0, 0, 1)
    assert pairing_cost([("a", "b")], order, {}, {"a": 1}) == (0, 0, 1)
    assert pairing_cost([("a", "b")], order, {}, {"a": -1}) == (0, 0, 1)


def test_an_even_field_by_lot_has_no_bye() -> None:
    pg = pair_round(GANSU, EventRecord(numbers(4)), 1, seed=2)
    assert pg.bye is None and pg.to_json()[-1] != {"bye": ""} and len(pg.tables) == 2


def test_a_knockout_draw_entered_keeps_its_round() -> None:
    pg = pair_round(HBUE, EventRecord(numbers(4)), 1, knockout=True, drawn=["1", "2", "3", "4"])
    assert pg.round == 1
    with pytest.raises(PairingError, match="^--drawn: pair 9 is not in round 1's field$"):
        pair_round(HBUE, EventRecord(numbers(4)), 1, knockout=True, drawn=["1", "2", "3", "9"])
    rec = EventRecord(numbers(4), results=(win(1, "1", "2"), win(1, "3", "4")))
    pg = pair_round(HBUE, rec, 2, knockout=True, drawn=["3", "1"])
    assert pg.round == 2 and tables(pg) == [("3", "1")]
    with pytest.raises(PairingError, match="^--drawn: pair 2 is not in round 2's field$"):
        pair_round(HBUE, rec, 2, knockout=True, drawn=["3", "2"])


def test_a_knockout_round_paired_again_ignores_its_own_recorded_bye() -> None:
    rec = EventRecord(numbers(6), results=(win(1, "1", "2"), win(1, "3", "4"), win(1, "5", "6")))
    first = pair_round(HBUE, rec, 2, seed=1, knockout=True)
    assert first.bye is not None
    again = EventRecord(rec.pairs, rec.results, byes=(Bye(2, first.bye),))
    assert pair_round(HBUE, again, 2, seed=1, knockout=True).bye == first.bye


def test_the_knockout_field_in_number_order() -> None:
    assert field_of(EventRecord(numbers(12)), 1) == [str(i) for i in range(1, 13)]
    rec = EventRecord(
        numbers(12), results=(win(1, "1", "2"), ew_win(1, "9", "10"), win(1, "11", "12"), win(1, "3", "4"))
    )
    assert field_of(rec, 2) == ["1", "3", "10", "11"]


@pytest.fixture
def odd_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pairing_mod, "BLOCK_LIMIT", 4)
    monkeypatch.setattr(pairing_mod, "BLOCK", 3)


def test_an_odd_block_takes_the_next_pair_to_seat_every_table(odd_blocks: None) -> None:
    order = [str(i) for i in range(1, 11)]
    seen: list[tuple[int, int]] = []
    found = best_matching(
        order, set(), dict.fromkeys(order, 0), dict.fromkeys(order, 0), lambda d, t: seen.append((d, t))
    )
    assert found == [("1", "2"), ("3", "4"), ("5", "6"), ("7", "8"), ("9", "10")]
    # blocks of 3 + 1: 1–4, 5–8, then 9–10
    assert seen == [(4, 10), (8, 10), (10, 10)]


def test_the_last_block_ending_the_field_exactly_is_matched_whole(small_blocks: None) -> None:
    # 12 pairs in blocks of 4: the last block (9–12) ends the field; 12 has met 9, 10 and 11, so
    # it cannot be seated alone: matched with the block above it
    order = [str(i) for i in range(1, 13)]
    met = {frozenset(("12", p)) for p in ("9", "10", "11")}
    zeros = dict.fromkeys(order, 0)
    found = best_matching(order, met, zeros, zeros)
    assert found is not None and sorted(p for t in found for p in t) == sorted(order)
    assert not any(frozenset(t) in met for t in found)
    assert found[:2] == [("1", "2"), ("3", "4")]
    # the two blocks matched again together are matched in rank order (8 before 10, as numbers)
    tail = found[2:]
    assert pairing_cost(tail, order[4:], zeros, zeros) == brute_best(order[4:], met, zeros, zeros)


def test_two_blocks_the_second_matched_with_the_first(
    small_blocks: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pairing_mod, "BLOCK_LIMIT", 6)  # 8 pairs: two blocks of 4
    order = [str(i) for i in range(1, 9)]
    met = {frozenset(("8", p)) for p in ("5", "6", "7")}
    found = best_matching(order, met, dict.fromkeys(order, 0), dict.fromkeys(order, 0))
    assert found is not None and sorted(p for t in found for p in t) == sorted(order)
    assert not any(frozenset(t) in met for t in found)


def test_a_block_is_matched_over_every_table_of_the_block(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within a block every table is a candidate, as in a whole field: 1 and 6 share a score
    five ranks apart and meet (the old nearest-ranks candidates could not reach it)."""
    monkeypatch.setattr(pairing_mod, "BLOCK_LIMIT", 6)
    monkeypatch.setattr(pairing_mod, "BLOCK", 6)
    order = [str(i) for i in range(1, 13)]
    points = {"1": 4, "2": 2, "3": 2, "4": 2, "5": 2, "6": 4} | {p: 0 for p in order[6:]}
    found = best_matching(order, set(), points, dict.fromkeys(order, 0))
    assert found is not None
    assert ("1", "6") in found[:3] and sorted(p for t in found[:3] for p in t) == order[:6]


def test_swiss_ranks_by_the_standings_after_the_previous_round_only() -> None:
    # after round 1: 3 (+3) above 1 (+1); a round-2 result already recorded (1 beat 3 by 5)
    # would put 1 on top: round 2 is paired as if it were not there
    rec = EventRecord(numbers(4), results=(win(1, "1", "2", 1), win(1, "3", "4", 3), ew_win(2, "3", "1", 5)))
    pg = pair_round(GANSU, rec, 2)
    assert [(t.table, t.ns, t.ew) for t in pg.tables] == [(1, "3", "1"), (2, "2", "4")]


def test_swiss_seats_count_only_the_rounds_before() -> None:
    # a recorded round-2 result where 3 sat NS does not count as a second NS for 3
    rec = EventRecord(numbers(4), results=(win(1, "1", "2", 1), win(1, "3", "4", 3), win(2, "3", "1", 5)))
    pg = pair_round(GANSU, rec, 2)
    assert tables(pg)[0] == ("3", "1")


def test_swiss_a_round_paired_again_ignores_its_own_recorded_bye() -> None:
    rec = EventRecord(numbers(5), results=(win(1, "1", "2", 3), win(1, "3", "4", 1)), byes=(Bye(1, "5"),))
    first = pair_round(GANSU, rec, 2)
    assert first.bye == "2"
    again = EventRecord(rec.pairs, rec.results, byes=(*rec.byes, Bye(2, "2")))
    assert pair_round(GANSU, again, 2).bye == "2"


def test_swiss_an_odd_field_no_bye_can_seat_is_refused() -> None:
    # 3 pairs that have all met: whoever has the bye, the other two have met
    rec = EventRecord(numbers(3), results=(win(1, "1", "2"), win(2, "1", "3"), win(3, "2", "3")))
    with pytest.raises(
        PairingError, match="^round 4: 3 pairs cannot all be paired without two pairs meeting again$"
    ):
        pair_round(GANSU, rec, 4)


def test_swiss_a_large_field_reports_its_progress(small_blocks: None) -> None:
    for n in (12, 13):
        rec = EventRecord(numbers(n), results=tuple(win(1, str(i), str(i + 1)) for i in range(1, n, 2)))
        seen: list[tuple[int, int]] = []
        pg = pair_round(GANSU, rec, 2, progress=lambda d, t, seen=seen: seen.append((d, t)))
        assert len(pg.tables) == n // 2 and seen and seen[-1] == (n // 2 * 2, n // 2 * 2)


def test_swiss_tables_are_numbered_by_their_better_ranked_pair() -> None:
    # round 3 of 4 pairs: 1 has met 2 and 3, so the tables are 1–4 and 2–3; table 1 is 1's
    rec = EventRecord(
        numbers(4), results=(win(1, "1", "2"), win(1, "3", "4"), win(2, "1", "3"), win(2, "2", "4"))
    )
    pg = pair_round(GANSU, rec, 3)
    assert {frozenset((t.ns, t.ew)) for t in pg.tables} == {frozenset(("1", "4")), frozenset(("2", "3"))}
    assert "1" in (pg.tables[0].ns, pg.tables[0].ew)


def nearest_case() -> tuple[list[str], dict[str, int]]:
    """Six pairs where 1 and 6 share a score but are five ranks apart."""
    order = [str(i) for i in range(1, 7)]
    return order, {"1": 4, "2": 2, "3": 2, "4": 2, "5": 2, "6": 4}


@pytest.mark.parametrize("extra", [0, 120])
def test_every_table_is_considered_at_every_field_size(extra: int) -> None:
    """The same criteria at every field size: with 120 more pairs below (a field over the old
    limit of 96), 1 still meets 6, its only opponent with the same score."""
    order, points = nearest_case()
    order = order + [f"x{i}" for i in range(extra)]
    points = points | {p: 0 for p in order[6:]}
    found = best_matching(order, set(), points, dict.fromkeys(order, 0))
    assert found is not None and ("1", "6") in found


def test_a_block_widens_the_candidates_of_a_pair_that_has_met_its_nearest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Within a block (not the last), a pair whose nearest candidates it has all met gets the
    block's whole field as candidates, so it is seated in its own block: 1 has met 2 and 4,
    its only table there is 3 (and 2 then meets 4). Without widening it would be carried
    down and meet a pair of the next block."""
    monkeypatch.setattr(pairing_mod, "BLOCK_LIMIT", 6)
    monkeypatch.setattr(pairing_mod, "BLOCK", 4)
    order = [str(i) for i in range(1, 9)]
    met = {frozenset(("1", "2")), frozenset(("1", "4"))}
    found = best_matching(order, met, dict.fromkeys(order, 0), dict.fromkeys(order, 0))
    assert found is not None
    assert {("1", "3"), ("2", "4")} <= set(found)


# -- refusals: each carries its code, field and values (issue 9: the desk words them in
#    Chinese from these and the window points at the field) ------------------------------------


def refused(call: Any) -> tuple[str, str | None, dict[str, Any]]:
    with pytest.raises(PairingError) as caught:
        call()
    return caught.value.code, caught.value.field, caught.value.values


def test_a_malformed_pairing_names_its_entry_as_the_field() -> None:
    assert refused(lambda: pairing_from_json(1, {"table": 1})) == ("pairing.not_list", None, {})
    assert refused(lambda: pairing_from_json(1, [[1, 2]])) == ("pairing.row_not_object", "pairing[0]", {})
    two_byes = [{"bye": "1"}, {"bye": "2"}]
    assert refused(lambda: pairing_from_json(1, two_byes)) == ("pairing.row_second_bye", "pairing[1]", {})
    short = [{"table": 1, "NS": "1", "EW": "2"}, {"table": 2, "NS": "3"}]
    assert refused(lambda: pairing_from_json(1, short)) == ("pairing.row_shape", "pairing[1]", {})


def test_a_swiss_round_refused_with_its_round() -> None:
    rec = EventRecord(numbers(4), (win(1, "1", "2"), win(1, "3", "4")))
    assert refused(lambda: pair_round(GANSU, rec, 0)) == ("input.round", "round", {"got": 0})
    drawn = ["1", "2", "3", "4"]
    assert refused(lambda: pair_round(GANSU, rec, 2, drawn=drawn)) == (
        "pairing.not_drawn",
        None,
        {"round": 2},
    )
    # Gansu 六、三 相遇过的对不再相遇: two pairs who met cannot be paired again
    met = EventRecord(numbers(2), (win(1, "1", "2"),))
    assert refused(lambda: pair_round(GANSU, met, 2)) == ("pairing.rematch", None, {"round": 2, "n": 2})
    # an odd field where every pair has had its bye
    byes = EventRecord(
        numbers(3),
        (win(1, "1", "2"), win(2, "2", "3"), win(3, "3", "1")),
        byes=(Bye(1, "3"), Bye(2, "1"), Bye(3, "2")),
    )
    assert refused(lambda: pair_round(GANSU, byes, 4)) == ("pairing.all_had_bye", None, {"round": 4})


def test_a_draw_entered_by_hand_refused_on_the_drawn_field() -> None:
    rec = EventRecord(numbers(5))
    assert refused(lambda: pair_round(GANSU, rec, 1, drawn=["1", "2", "2", "3", "4"])) == (
        "pairing.drawn_twice",
        "drawn",
        {"pair": "2"},
    )
    assert refused(lambda: pair_round(GANSU, rec, 1, drawn=["1", "2", "3", "4", "9"])) == (
        "pairing.drawn_unknown",
        "drawn",
        {"pair": "9", "round": 1},
    )
    assert refused(lambda: pair_round(GANSU, rec, 1, drawn=["1", "2", "3"])) == (
        "pairing.not_drawn_all",
        "drawn",
        {"pairs": ["4", "5"], "round": 1},
    )
    # HBUE knockout: a pair with round 1's bye cannot be drawn the bye again
    ko = EventRecord(numbers(5), (win(1, "1", "2"), win(1, "3", "4")), byes=(Bye(1, "5"),))
    assert refused(lambda: pair_round(HBUE, ko, 2, knockout=True, drawn=["1", "3", "5"])) == (
        "pairing.second_bye",
        "drawn",
        {"pair": "5"},
    )


def test_a_knockout_round_refused_with_the_round_before_it() -> None:
    tied = EventRecord(numbers(4), (tie(1, "1", "2"), win(1, "3", "4")))
    assert refused(lambda: pair_round(HBUE, tied, 2, knockout=True)) == (
        "pairing.no_winner",
        None,
        {"round": 1, "ns": "1", "ew": "2"},
    )
    assert refused(lambda: pair_round(HBUE, EventRecord(numbers(4)), 2, knockout=True)) == (
        "pairing.no_results",
        None,
        {"round": 1},
    )
    final = EventRecord(numbers(2), (win(1, "1", "2"),))
    assert refused(lambda: pair_round(HBUE, final, 2, knockout=True)) == (
        "pairing.knockout_over",
        None,
        {"round": 1, "pair": "1"},
    )


def test_a_tied_match_says_how_the_chief_referee_decided_it() -> None:
    m = tie(1, "1", "2")
    by_lot = EventRecord(numbers(3), results=(m,), deciders=(Decider(1, "2", "1", "lots", "抽签"),))
    assert decided_how(by_lot, m) == "lots"
    by_decision = EventRecord(
        numbers(3), results=(m,), deciders=(Decider(1, "1", "2", "decision", "裁判长"),)
    )
    assert decided_how(by_decision, m) == "decision"
    # a match with its own winner, a decider of another round or of other pairs: not decided
    assert decided_how(by_lot, win(1, "1", "2")) is None
    assert decided_how(EventRecord(numbers(3), results=(m,)), m) is None
    other_round = EventRecord(numbers(3), results=(m,), deciders=(Decider(2, "2", "1", "lots", "r"),))
    assert decided_how(other_round, m) is None
    other_pairs = EventRecord(numbers(3), results=(m,), deciders=(Decider(1, "2", "3", "lots", "r"),))
    assert decided_how(other_pairs, m) is None
    # the first matching decider of several
    two = EventRecord(
        numbers(3),
        results=(m,),
        deciders=(Decider(1, "3", "1", "lots", "r"), Decider(1, "1", "2", "decision", "r")),
    )
    assert decided_how(two, m) == "decision"


def test_prizes_more_pairs_earn_than_the_rulebook_gives_are_named() -> None:
    rule = {"prizes": [{"count": 1}, {"count": 2}, {"count": 3}]}
    rows = [{"prize": 0}, {"prize": 1}, {"prize": 1}, {"prize": 1}, {"prize": 2}, {"prize": None}, {}]
    assert prize_overflow(rows, rule) == [{"prize": 1, "count": 2, "pairs": 3}]
    # exactly the count is no overflow; several prizes over; no rule or no prizes: none
    assert prize_overflow([{"prize": 0}], rule) == []
    over = prize_overflow([{"prize": 0}, {"prize": 0}, *[{"prize": 2}] * 4], rule)
    assert over == [{"prize": 0, "count": 1, "pairs": 2}, {"prize": 2, "count": 3, "pairs": 4}]
    assert prize_overflow(rows, None) == [] and prize_overflow(rows, {}) == []
    assert prize_overflow([{"prize": 0}, {"prize": 0}], {"prizes": [{"count": "1"}]}) == [
        {"prize": 0, "count": 1, "pairs": 2}
    ]
