"""Tests that kill mutmut's surviving mutants of core/standings.py (issue 16).

Each test names the rule it pins: the event's clause (BHG 2011 比赛方法, Gansu 2018 六、四,
HBUE 2018 通知四、(一)) or the reading of DOMAIN.md §5 written in the module's docstring.
Every tie-break is tested on its own (a rulebook of ``match_points``, that tie-break and
nothing else), so a mutant in one cannot hide behind the next. Equivalent mutants are
listed in tools/mutation-equivalents.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee_app.core.rulebook import load_rulebook
from referee_app.core.standings import (
    ASSUMED_MARK,
    Bye,
    Decider,
    Disqualification,
    Entry,
    EventRecord,
    MatchResult,
    StandingsError,
    Suspension,
    Withdrawal,
    assumed_footnote,
    compute_standings,
    format_tiebreak,
    lot_digest,
    natural_key,
    rows_by_pair,
    tiebreak_label,
)

BHG = load_rulebook("bhg-2011")
GANSU = load_rulebook("gansu-2018")
HBUE = load_rulebook("hbue-2018")


def win(rnd: int, winner: str, loser: str, ld: int = 1) -> MatchResult:
    """``winner`` (sitting NS) beats ``loser`` by ``ld`` levels: 2 : 0."""
    return MatchResult(rnd, winner, loser, "NS", 2, 0, ld, -ld)


def ew_win(rnd: int, ns: str, ew: str, ld: int = 1) -> MatchResult:
    """``ew`` (sitting EW) beats ``ns``: 0 : 2."""
    return MatchResult(rnd, ns, ew, "EW", 0, 2, -ld, ld)


def draw(rnd: int, ns: str, ew: str) -> MatchResult:
    return MatchResult(rnd, ns, ew, None, 1, 1, 0, 0)


def only(tie_break: str, *, lots: bool = False, win_points: int = 2) -> dict[str, Any]:
    """A rulebook ranking by match points, then ``tie_break`` alone (then lots if asked)."""
    order = ["match_points", tie_break] + (["lots"] if lots else [])
    return {"match_points": {"win": win_points, "draw": 1, "loss": 0}, "standings": {"tie_breaks": order}}


def table(rules: Any, rec: EventRecord, **kw: Any) -> list[tuple[int, str]]:
    return [(r["rank"], r["pair"]) for r in compute_standings(rules, rec, **kw).rows]


def by_pair(rules: Any, rec: EventRecord, **kw: Any) -> dict[str, Any]:
    return rows_by_pair(compute_standings(rules, rec, **kw).rows)


# -- labels, footnote, formatting --------------------------------------------------------------


def test_tiebreak_label_in_both_languages_marked_only_when_assumed() -> None:
    assert tiebreak_label("opponents_score", "zh") == "对手分"
    assert tiebreak_label("opponents_score", "en") == "Opponents' score"
    assert tiebreak_label("small_points", "zh", assumed=["small_points"]) == "小分" + ASSUMED_MARK
    assert tiebreak_label("small_points", "en", assumed=["lots"]) == "Small points"
    assert ASSUMED_MARK == "*"


def test_assumed_footnote_names_each_reading_and_the_bye() -> None:
    """The line under the table names what the event's text does not define (项目规则: assumed)."""
    assert assumed_footnote([], "zh") == ""
    assert assumed_footnote((), "en") == ""
    zh = assumed_footnote(["opponents_score", "bye"], "zh")
    assert zh == "* 假定：规程未载明其算法，按规则文件的解读计算：对手分、轮空计分"
    en = assumed_footnote(["level_difference", "bye"], "en")
    assert en == (
        "* Assumed: the event's text does not define them; the rulebook's reading applies: "
        "Level difference, bye scoring"
    )


@pytest.mark.parametrize(
    ("key", "value", "shown"),
    [
        ("opponents_score", None, "—"),
        ("lots", {"seed": 7, "draw": 3}, "3"),
        ("previous_round_points", [6, 4, 2], "6/4/2"),
        ("previous_round_points", [], "—"),
        ("small_points", 2.5, "2.5"),
        ("level_difference", -3, "-3"),
    ],
)
def test_format_tiebreak(key: str, value: Any, shown: str) -> None:
    assert format_tiebreak(key, value) == shown


def test_natural_key_sorts_pair_numbers_as_numbers_then_names() -> None:
    assert natural_key("10") == (0, 10, "")
    assert natural_key("B2") == (1, 0, "B2")
    assert sorted(["10", "B", "2", "A", "1"], key=natural_key) == ["1", "2", "10", "A", "B"]


def test_rows_by_pair_keys_each_row_by_its_pair() -> None:
    rows = [{"pair": "3", "rank": 1}, {"pair": "1", "rank": 2}]
    assert rows_by_pair(rows) == {"3": rows[0], "1": rows[1]}


def test_lot_digest_is_sha256_of_seed_salt_and_pair() -> None:
    import hashlib

    assert lot_digest(4, "12") == hashlib.sha256(b"4:12").hexdigest()
    assert lot_digest(4, "12", "ko") == hashlib.sha256(b"4:ko12").hexdigest()


# -- MatchResult.from_result ------------------------------------------------------------------


def test_from_result_reads_the_engines_result() -> None:
    result = {"winner": "NS", "match_points": {"NS": "2", "EW": 0}, "level_difference": {"NS": 3, "EW": -3}}
    m = MatchResult.from_result(2, 11, 4, result)
    assert m == MatchResult(2, "11", "4", "NS", 2, 0, 3, -3, None)
    assert isinstance(m.ns_points, int)


def test_from_result_without_level_difference_counts_zero() -> None:
    for ld in ({}, {"level_difference": None}):
        m = MatchResult.from_result(1, "1", "2", {"winner": None, "match_points": {"NS": 1, "EW": 1}, **ld})
        assert (m.ns_level_difference, m.ew_level_difference, m.forfeit) == (0, 0, None)


@pytest.mark.parametrize(("winner", "forfeit"), [("NS", "EW"), ("EW", "NS"), (None, "both")])
def test_from_result_names_the_side_that_forfeited(winner: str | None, forfeit: str) -> None:
    """A forfeit (弃权) names the loser; no winner is a double forfeit."""
    result = {"winner": winner, "decided_by": "forfeit", "match_points": {"NS": 0, "EW": 0}}
    assert MatchResult.from_result(1, "1", "2", result).forfeit == forfeit


# -- who is in the field of a round -----------------------------------------------------------


def test_late_entry_plays_from_its_first_round_on() -> None:
    rec = EventRecord(pairs=("1", "2"), entries=(Entry("2", 3), Entry("2", 2), Entry("1", 1)))
    assert rec.first_round("2") == 3  # the latest recorded entry wins
    assert rec.first_round("9") == 1
    assert not rec.plays("2", 2) and rec.plays("2", 3) and rec.plays("2", 4)
    assert rec.plays("1", 1)


def test_withdrawal_covers_its_rounds_until_readmitted() -> None:
    """退赛 from round 2, re-admitted from round 4: out in 2 and 3 only."""
    w = Withdrawal("1", 2, 4)
    assert [r for r in range(1, 6) if w.covers(r)] == [2, 3]
    assert [r for r in range(1, 6) if Withdrawal("1", 2).covers(r)] == [2, 3, 4, 5]
    rec = EventRecord(pairs=("1", "2"), withdrawals=(w,))
    assert [r for r in range(1, 6) if rec.withdrawn("1", r)] == [2, 3]
    assert not rec.withdrawn("2", 2)
    assert [r for r in range(1, 6) if rec.plays("1", r)] == [1, 4, 5]


def test_suspension_covers_exactly_its_rounds() -> None:
    """停赛 2 rounds from round 3: rounds 3 and 4."""
    s = Suspension("1", 3, 2)
    assert [r for r in range(1, 7) if s.covers(r)] == [3, 4]
    rec = EventRecord(pairs=("1", "2"), suspensions=(s,))
    assert [r for r in range(1, 7) if rec.plays("1", r)] == [1, 2, 5, 6]
    assert all(rec.plays("2", r) for r in range(1, 7))


def test_disqualified_pair_plays_its_round_but_no_later_one() -> None:
    """取消比赛资格 in round 2 (the earliest recorded): it played 2, it plays no round after."""
    rec = EventRecord(
        pairs=("1", "2"), disqualifications=(Disqualification("1", 3), Disqualification("1", 2))
    )
    assert rec.disqualified_in("1") == 2 and rec.disqualified_in("2") is None
    assert [r for r in range(1, 5) if rec.plays("1", r)] == [1, 2]
    assert all(rec.plays("2", r) for r in range(1, 5))


def test_last_round_counts_results_and_byes() -> None:
    assert EventRecord(pairs=("1",)).last_round() == 0
    assert (
        EventRecord(pairs=("1", "2", "3"), results=(win(2, "1", "2"),), byes=(Bye(3, "3"),)).last_round() == 3
    )
    assert (
        EventRecord(pairs=("1", "2", "3"), results=(win(4, "1", "2"),), byes=(Bye(3, "3"),)).last_round() == 4
    )


# -- errors: one line naming what is wrong ----------------------------------------------------


def test_errors_name_the_round_the_pair_and_the_field() -> None:
    with pytest.raises(StandingsError, match=r"^round 2: pair 3 plays itself$"):
        compute_standings(BHG, EventRecord(("3", "4"), (win(2, "3", "3"),)))
    with pytest.raises(StandingsError, match=r"^round 1: pair 2 has two results \(bye\)$"):
        compute_standings(BHG, EventRecord(("1", "2"), (win(1, "1", "2"),), byes=(Bye(1, "2"),)))
    with pytest.raises(StandingsError, match=r"^round 1: pair 1 has two results \(match\)$"):
        compute_standings(BHG, EventRecord(("1", "2", "3"), (win(1, "1", "2"), win(1, "3", "1"))))
    with pytest.raises(StandingsError, match=r"^--round: expected 0 or more, got -1$"):
        compute_standings(BHG, EventRecord(("1", "2")), through_round=-1)
    with pytest.raises(StandingsError, match=r"^rulebook: expected a Rulebook or its data$"):
        compute_standings(["match_points"], EventRecord(("1", "2")))
    with pytest.raises(StandingsError, match=r"^standings.tie_breaks: unknown tie-break 'coin'$"):
        compute_standings(only("coin"), EventRecord(("1", "2")))


def test_errors_reach_the_chinese_desk_with_their_round_pair_and_field() -> None:
    """The same refusals as the referee desk reads them in Chinese (issue 9: errors carry a
    code, a field and values; the words come from the catalogue)."""
    from referee_app.app.messages import describe

    def zh(rulebook: Any, record: EventRecord, **kw: Any) -> str:
        with pytest.raises(StandingsError) as caught:
            compute_standings(rulebook, record, **kw)
        return describe(caught.value, "zh")

    assert zh(BHG, EventRecord(("3", "4"), (win(2, "3", "3"),))) == "第 2 轮：参赛对 3 与自己对阵。"
    two = EventRecord(("1", "2"), (win(1, "1", "2"),), byes=(Bye(1, "2"),))
    assert zh(BHG, two) == "第 1 轮：参赛对 2 有两个结果。"
    assert zh(BHG, EventRecord(("1", "2")), through_round=-1) == "轮次：应为 0 或更大的轮次，收到 -1。"
    assert zh(only("coin"), EventRecord(("1", "2"))) == "规则中有未知的同分排序办法“coin”。"


def test_head_to_head_that_cannot_apply_to_one_group_still_ranks_the_groups_below() -> None:
    """Head-to-head (相互间成绩, a tie-break a rulebook may name) applies only when every two of a
    tied group have met; a group where it cannot apply stays tied, and the groups ranked
    below it are still ranked — no pair drops out of the table."""
    rec = EventRecord(
        tuple("123456"),
        (
            win(1, "3", "5"), win(1, "1", "4"), win(1, "6", "2"),
            win(2, "6", "4"), win(2, "3", "2"), win(2, "5", "1"),
            win(3, "2", "1"), win(3, "5", "6"), win(3, "4", "3"),
        ),
    )  # fmt: skip
    # 3, 5, 6 won twice but 3 never met 6; 1, 2, 4 won once but 2 never met 4
    assert table(only("head_to_head"), rec) == [(1, "3"), (1, "5"), (1, "6"), (4, "1"), (4, "2"), (4, "4")]


def test_round_zero_ranks_everyone_equal_by_lots() -> None:
    rec = EventRecord(pairs=("1", "2"), results=(win(1, "1", "2"),))
    t = compute_standings(BHG, rec, through_round=0, seed=3)
    assert t.round == 0 and all(r["match_points"] == 0 for r in t.rows)


# -- the tally: every match, every bye, in any order -------------------------------------------


def test_a_pair_missing_from_the_list_still_gets_its_row() -> None:
    """A result names pair 9, which the record's pair list lacks: it is ranked, not dropped."""
    rows = by_pair(BHG, EventRecord(pairs=("1",), results=(win(1, "9", "1"),)))
    assert rows["9"]["match_points"] == 2 and rows["1"]["tiebreaks"]["opponents_score"] == 2


def test_results_after_the_standings_round_are_skipped_in_any_order() -> None:
    """Standings after round 2 ignore round 3, wherever it stands in the record."""
    rec = EventRecord(
        pairs=("1", "2", "3"),
        results=(win(3, "2", "1"), win(1, "1", "2"), win(2, "3", "2")),
        byes=(Bye(3, "3"), Bye(1, "3"), Bye(2, "1")),
    )
    rows = by_pair(BHG, rec, through_round=2)
    assert {p: r["match_points"] for p, r in rows.items()} == {"1": 4, "2": 0, "3": 4}


def test_a_bye_keeps_the_level_difference_earned_in_play() -> None:
    """A bye credits no levels (BYE_LEVEL_DIFFERENCE = 0) and takes none away."""
    rec = EventRecord(pairs=("1", "2", "3"), results=(win(1, "1", "2", 3),), byes=(Bye(2, "1"),))
    rows = by_pair(BHG, rec)
    assert rows["1"]["tiebreaks"]["level_difference"] == 3
    assert rows["1"]["match_points"] == 4  # the bye counts as a win (match_points.win)
    assert by_pair(only("level_difference", win_points=3), rec)["1"]["match_points"] == 5


def test_a_win_sitting_east_west_counts_as_beating_the_opponent() -> None:
    """小分 counts the pairs beaten whichever side the winner sat (BHG 比赛方法 小分)."""
    rec = EventRecord(pairs=("1", "2", "3"), results=(ew_win(1, "2", "1"), win(2, "2", "3")))
    rows = by_pair(BHG, rec)
    assert rows["1"]["tiebreaks"]["small_points"] == 2  # beat 2, who has 2 points
    assert rows["2"]["tiebreaks"]["small_points"] == 0  # beat 3 (0 points), lost to 1


def test_a_double_forfeit_is_not_a_draw_for_small_points() -> None:
    """Both sides forfeit (双方弃权): neither drew, so neither gets half the other's points."""
    both = MatchResult(1, "1", "2", None, 0, 0, 0, 0, "both")
    rec = EventRecord(pairs=("1", "2", "3"), results=(both, win(2, "2", "3")))
    rows = by_pair(BHG, rec)
    assert rows["1"]["tiebreaks"]["small_points"] == 0
    drawn = EventRecord(pairs=("1", "2", "3"), results=(draw(1, "1", "2"), win(2, "2", "3")))
    assert by_pair(BHG, drawn)["1"]["tiebreaks"]["small_points"] == 1.5  # half of 2's 3 points


# -- each tie-break on its own ----------------------------------------------------------------


def test_opponents_score_alone_ranks_the_stronger_schedule_first() -> None:
    """对手分 (BHG 比赛方法; Gansu 六、四): the sum of the opponents' total match points."""
    rec = EventRecord(
        pairs=("1", "2", "3", "4"),
        results=(win(1, "3", "4"), win(2, "2", "4"), win(2, "1", "3")),
    )
    rows = by_pair(only("opponents_score"), rec)
    assert rows["1"]["tiebreaks"]["opponents_score"] == 2 and rows["2"]["tiebreaks"]["opponents_score"] == 0
    # 1 met 3 (2 points); 3 met 4 (0) and 1 (2); 2 met 4 (0): 1 and 3 share rank 1
    assert table(only("opponents_score"), rec)[:3] == [(1, "1"), (1, "3"), (3, "2")]


def test_level_difference_alone_ranks_the_larger_sum_first() -> None:
    """级差分 (BHG 比赛方法 级差大者名次列前): the sum of the per-round level differences."""
    rec = EventRecord(
        pairs=("1", "2", "3", "4"),
        results=(win(1, "1", "3", 2), win(1, "2", "4", 4), MatchResult(2, "1", "2", None, 1, 1, 3, -3)),
    )
    rows = by_pair(only("level_difference"), rec)
    assert rows["1"]["tiebreaks"]["level_difference"] == 5 and rows["2"]["tiebreaks"]["level_difference"] == 1
    assert table(only("level_difference"), rec)[:2] == [(1, "1"), (2, "2")]


def test_progressive_score_alone_rewards_the_earlier_win() -> None:
    """累进分: the sum of the cumulative points after each round (2+2 beats 0+2)."""
    rec = EventRecord(
        pairs=("1", "2", "3", "4"),
        results=(win(1, "1", "3"), win(1, "4", "2"), win(2, "2", "1"), win(2, "3", "4")),
    )
    rows = by_pair(only("progressive_score"), rec)
    assert (
        rows["1"]["tiebreaks"]["progressive_score"] == 4 and rows["2"]["tiebreaks"]["progressive_score"] == 2
    )
    assert [p for _, p in table(only("progressive_score"), rec)] == ["1", "4", "2", "3"]


def test_small_points_alone_beaten_in_full_drawn_by_half() -> None:
    """小分 (BHG 比赛方法): opponents beaten count their total, drawn ones half; whole when even."""
    rec = EventRecord(
        pairs=("1", "2", "3", "4", "5"),
        results=(win(1, "1", "2"), draw(1, "3", "4"), win(2, "2", "5"), draw(2, "1", "3"), win(3, "4", "5")),
    )
    rows = by_pair(only("small_points"), rec)
    # 1 beat 2 (2 points) and drew with 3 (2 points): 2 + 1 = 3, a whole number
    assert rows["1"]["tiebreaks"]["small_points"] == 3 and isinstance(
        rows["1"]["tiebreaks"]["small_points"], int
    )
    # 3 drew with 4 (3 points) and with 1 (3 points): 1.5 + 1.5 = 3
    assert rows["3"]["tiebreaks"]["small_points"] == 3
    # 4 drew with 3 (2 points) and beat 5 (0 points): 1
    assert rows["4"]["tiebreaks"]["small_points"] == 1
    odd = EventRecord(pairs=("1", "2", "3"), results=(draw(1, "1", "2"), win(2, "2", "3")))
    assert by_pair(only("small_points"), odd)["1"]["tiebreaks"]["small_points"] == 1.5


def test_small_points_alone_ranks_the_larger_first() -> None:
    rec = EventRecord(
        pairs=("1", "2", "3", "4"), results=(win(1, "1", "3"), win(1, "2", "4"), win(2, "3", "4"))
    )
    # 1 and 2 have 2 points; 1 beat 3 (2 points), 2 beat 4 (0)
    assert table(only("small_points"), rec)[:2] == [(1, "1"), (2, "2")]
    rec2 = EventRecord(
        pairs=("1", "2", "3", "4"), results=(win(1, "2", "3"), win(1, "1", "4"), win(2, "3", "4"))
    )
    assert table(only("small_points"), rec2)[:2] == [(1, "2"), (2, "1")]


def test_previous_round_points_after_r_minus_1_then_back() -> None:
    """Gansu 六、四: after round R−1, then R−2, … back to round 1 (the last round itself not)."""
    rec = EventRecord(
        pairs=("1", "2", "3", "4"),
        results=(
            win(1, "1", "3"),
            win(1, "2", "4"),
            draw(2, "1", "4"),
            win(2, "3", "2"),
            win(3, "2", "1"),
            win(3, "3", "4"),
        ),
    )
    rows = by_pair(only("previous_round_points"), rec)
    assert rows["1"]["tiebreaks"]["previous_round_points"] == [3, 2]
    assert rows["2"]["tiebreaks"]["previous_round_points"] == [2, 2]
    assert rows["3"]["tiebreaks"]["previous_round_points"] == [2, 0]
    # 2 and 3 both have 4 points and 2 after round 2; 2 had more after round 1
    assert [p for _, p in table(only("previous_round_points"), rec)] == ["2", "3", "1", "4"]
    assert (
        by_pair(only("previous_round_points"), rec, through_round=1)["1"]["tiebreaks"][
            "previous_round_points"
        ]
        == []
    )


def test_head_to_head_sums_every_meeting_among_the_tied_pairs() -> None:
    """相互间成绩: each tied pair's points from all its matches against the others tied."""
    rec = EventRecord(
        pairs=("1", "2", "3", "4"),
        results=(
            win(1, "2", "1"),
            win(1, "3", "4"),
            draw(2, "1", "2"),
            win(2, "4", "3"),
            win(3, "1", "4"),
            win(3, "3", "2"),
        ),
    )
    # points: 1: 0+1+2 = 3, 2: 2+1+0 = 3, 3: 2+0+2 = 4, 4: 0+2+0 = 2; 1 and 2 tied
    rows = by_pair(only("head_to_head"), rec)
    assert rows["2"]["tiebreaks"]["head_to_head"] == 3 and rows["1"]["tiebreaks"]["head_to_head"] == 1
    assert [p for _, p in table(only("head_to_head"), rec)] == ["3", "2", "1", "4"]
    # EW's points count too: 1 beat 2 sitting EW in round 2
    rec2 = EventRecord(
        pairs=("1", "2", "3", "4"),
        results=(
            win(1, "2", "1"),
            win(1, "3", "4"),
            ew_win(2, "2", "1"),
            win(2, "4", "3"),
            win(3, "1", "4"),
            win(3, "2", "3"),
        ),
    )
    rows2 = by_pair(only("head_to_head"), rec2)
    assert rows2["1"]["tiebreaks"]["head_to_head"] == 2 and rows2["2"]["tiebreaks"]["head_to_head"] == 2


def test_head_to_head_needs_every_two_tied_pairs_to_have_met() -> None:
    """Three tied pairs of which two never met: head to head separates nobody (None)."""
    circle = EventRecord(
        pairs=("1", "2", "3"), results=(win(1, "1", "2"), win(2, "2", "3")), byes=(Bye(1, "3"),)
    )
    # 1, 2 and 3 all have 2 points, but 1 and 3 never met (3's points are a bye)
    rows = by_pair(only("head_to_head"), circle)
    assert all(r["tiebreaks"]["head_to_head"] is None for r in rows.values())
    assert [r for r, _ in table(only("head_to_head"), circle)] == [1, 1, 1]


def test_lots_alone_smallest_digest_first_with_its_draw_number() -> None:
    """抽签: pair p draws sha256("<seed>:<p>"); the smallest ranks first, draw 1."""
    rec = EventRecord(pairs=("1", "2", "3", "4"))
    t = compute_standings(only("lots"), rec, seed=11)
    expected = sorted("1234", key=lambda p: lot_digest(11, p))
    assert [r["pair"] for r in t.rows] == expected
    assert [r["tiebreaks"]["lots"] for r in t.rows] == [{"seed": 11, "draw": n} for n in (1, 2, 3, 4)]
    assert [r["rank"] for r in t.rows] == [1, 2, 3, 4]
    assert compute_standings(only("lots"), rec).seed == 0  # the default seed is recorded


def test_tiebreaks_in_the_rulebooks_order_without_match_points() -> None:
    rec = EventRecord(pairs=("1", "2"), results=(win(1, "1", "2"),))
    t = compute_standings(GANSU, rec, seed=2)
    assert t.tie_breaks == [
        "match_points",
        "level_difference",
        "opponents_score",
        "previous_round_points",
        "lots",
    ]
    assert list(t.rows[0]["tiebreaks"]) == [
        "level_difference",
        "opponents_score",
        "previous_round_points",
        "lots",
    ]
    assert t.to_json() is t.rows
    assert [(r["rank"], r["pair"], r["match_points"]) for r in t.rows] == [(1, "1", 2), (2, "2", 0)]


def test_assumed_readings_and_the_bye_only_on_rows_that_had_one() -> None:
    """HBUE 通知四、(一): lots and bye scoring are the rulebook's reading (assumed); the bye's
    mark goes only on the rows of pairs that had a bye by the standings round."""
    rec = EventRecord(
        pairs=("1", "2", "3"), results=(win(1, "1", "2"), win(2, "3", "1")), byes=(Bye(1, "3"), Bye(2, "2"))
    )
    t = compute_standings(HBUE, rec, through_round=1)
    assert t.assumed == ["lots", "bye"]
    rows = rows_by_pair(t.rows)
    assert rows["3"]["assumed"] == ["lots", "bye"]
    assert rows["2"]["assumed"] == ["lots"]  # its bye is in round 2, after the standings round
    assert rows["1"]["assumed"] == ["lots"]
    # Gansu marks level difference and opponents' score, not 上一轮总积分 (its text defines it)
    gansu = compute_standings(GANSU, rec).assumed
    assert gansu[:2] == ["level_difference", "opponents_score"] and "previous_round_points" not in gansu
    assert compute_standings(only("lots"), rec).assumed == []


def test_disqualified_pairs_ranked_after_the_rest_by_the_same_tie_breaks() -> None:
    """取消比赛资格: ranked after every other pair, among themselves by the same order."""
    rec = EventRecord(
        pairs=("1", "2", "3", "4"),
        results=(win(1, "1", "2"), win(1, "3", "4"), win(2, "1", "3"), win(2, "2", "4")),
        disqualifications=(Disqualification("1", 2), Disqualification("3", 2)),
    )
    t = compute_standings(only("opponents_score"), rec)
    assert [(r["rank"], r["pair"]) for r in t.rows] == [(1, "2"), (2, "4"), (3, "1"), (4, "3")]
    assert [r["tiebreaks"].get("disqualified") for r in t.rows] == [None, None, 2, 2]


def test_a_pair_sitting_north_south_twice_in_one_round_is_refused() -> None:
    with pytest.raises(StandingsError, match=r"^round 1: pair 1 has two results \(match\)$"):
        compute_standings(BHG, EventRecord(("1", "2", "3"), (win(1, "1", "2"), win(1, "1", "3"))))


def test_equal_pairs_listed_by_pair_number_2_before_10() -> None:
    """Pairs no tie-break separates share the rank and are listed by number, as numbers."""
    rec = EventRecord(pairs=("10", "2", "3", "4"), results=(win(1, "10", "3"), win(1, "2", "4")))
    assert table(custom_order(["match_points"]), rec) == [(1, "2"), (1, "10"), (3, "3"), (3, "4")]


def custom_order(order: list[str]) -> dict[str, Any]:
    return {"match_points": {"win": 2, "draw": 1, "loss": 0}, "standings": {"tie_breaks": order}}


def test_without_any_tie_break_all_share_rank_1_listed_by_pair_number() -> None:
    """A rulebook listing no tie-break ranks nobody apart; the disqualified still come last."""
    rec = EventRecord(
        pairs=("10", "9", "2", "11", "3"),
        results=(win(1, "10", "9"), win(1, "2", "11")),
        disqualifications=(Disqualification("11", 1), Disqualification("3", 1)),
    )
    t = compute_standings(custom_order([]), rec)
    assert [(r["rank"], r["pair"]) for r in t.rows] == [(1, "2"), (1, "9"), (1, "10"), (4, "3"), (4, "11")]


def test_a_pair_alone_on_its_points_does_not_stop_the_next_tie_break() -> None:
    """After 积分 one pair leads alone; the two tied below it are still separated by 对手分."""
    rec = EventRecord(
        pairs=("1", "2", "3", "4", "5", "6"),
        results=(
            win(1, "1", "2"),
            win(1, "3", "4"),
            win(1, "5", "6"),
            win(2, "1", "3"),
            win(2, "4", "2"),
            win(2, "6", "5"),
        ),
    )
    # 1: 4 points; 3, 4, 5, 6: 2 points; 对手分 3: 4+2 = 6 … 4: 2+0 = 2, 5: 2+2 = 4, 6: 2+2 = 4
    assert table(only("opponents_score"), rec) == [(1, "1"), (2, "3"), (3, "5"), (3, "6"), (5, "4"), (6, "2")]


# -- a tie on time left to lots or the chief referee (round.tie = "lots" / "referee") -------------


def awaiting(rnd: int, ns: str, ew: str, how: str = "lots") -> MatchResult:
    """A round tied on time that awaits the chief referee's lots or decision: no winner, 0:0."""
    return MatchResult.from_result(
        rnd,
        ns,
        ew,
        {
            "winner": None,
            "match_points": {"NS": 0, "EW": 0},
            "level_difference": {"NS": 0, "EW": 0},
            "awaits": how,
        },
        table=4,
    )


def test_a_tie_awaiting_lots_keeps_its_table_and_what_it_awaits() -> None:
    m = awaiting(2, "5", "6", "decision")
    assert (m.round, m.ns, m.ew, m.winner, m.table, m.awaits) == (2, "5", "6", None, 4, "decision")
    assert (m.ns_points, m.ew_points, m.forfeit) == (0, 0, None)


@pytest.mark.parametrize(("drawn", "ns_points", "ew_points"), [("5", 3, 1), ("6", 1, 3)])
def test_the_decided_pair_takes_the_wins_points_and_the_other_the_losss(
    drawn: str, ns_points: int, ew_points: int
) -> None:
    m = awaiting(2, "5", "6")
    other = "6" if drawn == "5" else "5"
    d = m.decided((Decider(2, drawn, other, "lots", "抽签"),), {"win": 3, "loss": 1})
    assert d.winner == ("NS" if drawn == "5" else "EW")
    assert (d.ns_points, d.ew_points) == (ns_points, ew_points)
    assert (d.round, d.ns, d.ew, d.table, d.awaits) == (2, "5", "6", 4, "lots")  # the rest kept


def test_a_tie_stays_awaiting_without_its_own_decision_and_a_match_with_a_winner_is_never_decided() -> None:
    m = awaiting(2, "5", "6")
    elsewhere = (Decider(1, "5", "6", "lots", "上一轮"), Decider(2, "5", "7", "lots", "另一桌"))
    assert m.decided(elsewhere, {"win": 3, "loss": 1}) is m
    played = win(2, "5", "6")
    assert played.decided((Decider(2, "6", "5", "lots", "x"),), {"win": 3, "loss": 1}) is played


def test_standings_give_an_awaited_tie_its_decision_and_nothing_before_it() -> None:
    rules = only("opponents_score")
    record = EventRecord(
        pairs=("1", "2", "3", "4"),
        results=(awaiting(1, "1", "2"), win(1, "3", "4")),
    )
    before = {r["pair"]: r for r in compute_standings(rules, record, seed=1).rows}
    assert (before["1"]["match_points"], before["2"]["match_points"], before["3"]["match_points"]) == (
        0,
        0,
        2,
    )
    decided = EventRecord(
        record.pairs, results=record.results, deciders=(Decider(1, "2", "1", "lots", "抽签"),)
    )
    after = {r["pair"]: r for r in compute_standings(rules, decided, seed=1).rows}
    assert (after["1"]["match_points"], after["2"]["match_points"]) == (0, 2)
