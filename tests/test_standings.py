"""Standings (名次) on hand-made examples, each following a bundled rulebook's clause.

BHG 2011 比赛方法: 积分 → 对手分 → 级差分 → 小分 → 抽签.
Gansu 2018 六、四: 积分 → 总级差分 → 对手分 → 上一轮总积分 (and so on back) → 抽签.
HBUE 2018 通知四、(一) (knockout): 积分 → 抽签.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee_app.core.engine import judge
from referee_app.core.rulebook import load_rulebook
from referee_app.core.standings import (
    Bye,
    Disqualification,
    EventRecord,
    MatchResult,
    StandingsError,
    Suspension,
    compute_standings,
    lot_digest,
)

from .conftest import ROOT

BHG = load_rulebook("bhg-2011")
GANSU = load_rulebook("gansu-2018")
HBUE = load_rulebook("hbue-2018")


def win(rnd: int, winner: str, loser: str, ld: int = 1) -> MatchResult:
    """``winner`` (sitting NS) beats ``loser`` by ``ld`` levels: 2 : 0."""
    return MatchResult(rnd, winner, loser, "NS", 2, 0, ld, -ld)


def draw(rnd: int, ns: str, ew: str) -> MatchResult:
    return MatchResult(rnd, ns, ew, None, 1, 1, 0, 0)


def order(table: Any) -> list[str]:
    return [r["pair"] for r in table.rows]


def custom(*tie_breaks: str) -> dict[str, Any]:
    return {"match_points": {"win": 2, "draw": 1, "loss": 0}, "standings": {"tie_breaks": list(tie_breaks)}}


# Six pairs, two rounds. 1 and 2 both win twice: 1 against stronger opponents (对手分 4 vs 0),
# 2 by more levels (级差分 6 vs 2). 3 and 5 tie on points, 对手分 and 级差分; 5 had more after
# round 1. 4 and 6 tie on points and 对手分; 6 lost by fewer levels.
SIX = EventRecord(
    pairs=("1", "2", "3", "4", "5", "6"),
    results=(
        win(1, "1", "3", 1),
        win(1, "2", "4", 5),
        win(1, "5", "6", 1),
        win(2, "1", "5", 1),
        win(2, "2", "6", 1),
        win(2, "3", "4", 1),
    ),
)


def test_bhg_bisai_fangfa_opponents_score_before_level_difference() -> None:
    """BHG 比赛方法: 积分相等，算对手分 … 如再相等，算级差分 … 仍相等，采用抽签."""
    table = compute_standings(BHG, SIX, seed=7)
    got = order(table)
    assert got[:2] == ["1", "2"]  # 对手分 4 > 0, although 2 has the larger 级差分
    assert set(got[2:4]) == {"3", "5"} and got[4:] == ["6", "4"]
    by = {r["pair"]: r for r in table.rows}
    assert by["1"]["tiebreaks"]["opponents_score"] == 4 and by["2"]["tiebreaks"]["opponents_score"] == 0
    assert by["2"]["tiebreaks"]["level_difference"] == 6
    # 3 and 5: equal 对手分 (4), 级差分 (0) and 小分 (0): the lots decide
    assert by["3"]["tiebreaks"]["small_points"] == by["5"]["tiebreaks"]["small_points"] == 0
    lot_first = min(("3", "5"), key=lambda p: lot_digest(7, p))
    assert got[2] == lot_first
    assert list(by["1"]["tiebreaks"]) == ["opponents_score", "level_difference", "small_points", "lots"]
    assert by["1"]["tiebreaks"]["lots"]["seed"] == 7
    assert [r["rank"] for r in table.rows] == [1, 2, 3, 4, 5, 6]


def test_bhg_bisai_fangfa_lots_follow_the_seed() -> None:
    """BHG 比赛方法 抽签: the seed decides, and is in the output; another seed may swap 3 and 5."""
    orders = {s: order(compute_standings(BHG, SIX, seed=s))[2:4] for s in range(20)}
    assert {tuple(v) for v in orders.values()} == {("3", "5"), ("5", "3")}
    assert order(compute_standings(BHG, SIX, seed=3)) == order(compute_standings(BHG, SIX, seed=3))


def test_gansu_6_4_level_difference_then_opponents_then_previous_round() -> None:
    """Gansu 六、四: 积分 → 总级差分 → 对手分 → 上一轮的总积分."""
    table = compute_standings(GANSU, SIX, seed=7)
    assert order(table) == ["2", "1", "5", "3", "6", "4"]
    by = {r["pair"]: r for r in table.rows}
    assert list(by["5"]["tiebreaks"]) == [
        "level_difference",
        "opponents_score",
        "previous_round_points",
        "lots",
    ]
    assert by["5"]["tiebreaks"]["previous_round_points"] == [2]
    assert by["3"]["tiebreaks"]["previous_round_points"] == [0]


def test_gansu_6_4_and_so_on_back() -> None:
    """Gansu 六、四 依此类推: equal after round R−1, the round before decides."""
    rec = EventRecord(
        pairs=("1", "2", "3", "4", "5", "6"),
        results=(
            win(1, "1", "2"),  # 1: W L L -> 2 after round 1, 2 after round 2
            win(1, "3", "5"),
            win(1, "4", "6"),
            win(2, "2", "6"),  # 2: L W L -> 0 after round 1, 2 after round 2
            win(2, "3", "5"),
            win(2, "4", "1"),
            win(3, "3", "5"),
            win(3, "6", "1"),
            win(3, "4", "2"),
        ),
    )
    by = {r["pair"]: r for r in compute_standings(GANSU, rec, seed=0).rows}
    assert by["1"]["match_points"] == by["2"]["match_points"] == 2
    assert by["1"]["tiebreaks"]["level_difference"] == by["2"]["tiebreaks"]["level_difference"] == -1
    assert by["1"]["tiebreaks"]["opponents_score"] == by["2"]["tiebreaks"]["opponents_score"] == 10
    assert by["1"]["tiebreaks"]["previous_round_points"] == [2, 2]
    assert by["2"]["tiebreaks"]["previous_round_points"] == [2, 0]
    assert by["2"]["tiebreaks"]["lots"]["draw"] < by["1"]["tiebreaks"]["lots"]["draw"]  # lots would favour 2
    assert by["1"]["rank"] < by["2"]["rank"]


def test_bhg_bisai_fangfa_small_points() -> None:
    """BHG 比赛方法 小分: points of the opponents beaten, plus half of those drawn."""
    rec = EventRecord(
        pairs=("1", "2", "3", "4", "5", "6"),
        results=(
            win(1, "1", "3", 2),
            win(1, "2", "4", 2),
            win(1, "5", "6"),
            win(2, "3", "2", 2),
            win(2, "4", "1", 2),
            win(2, "6", "5"),
            draw(3, "1", "2"),
            win(3, "3", "5"),
            win(3, "6", "4"),
        ),
    )
    table = compute_standings(BHG, rec, seed=0)
    by = {r["pair"]: r for r in table.rows}
    for key in ("opponents_score", "level_difference"):
        assert by["1"]["tiebreaks"][key] == by["2"]["tiebreaks"][key]
    assert by["1"]["tiebreaks"]["small_points"] == 5.5  # beat 3 (4 points) + half of 2 (3)
    assert by["2"]["tiebreaks"]["small_points"] == 3.5  # beat 4 (2 points) + half of 1 (3)
    assert by["1"]["rank"] < by["2"]["rank"]


def test_hbue_tongzhi_4_knockout_points_then_lots() -> None:
    """HBUE 通知四、(一) 淘汰制: no printed tie-breaks; winners by points, then lots."""
    rec = EventRecord(pairs=("1", "2", "3", "4"), results=(win(1, "1", "2"), win(1, "4", "3")))
    table = compute_standings(HBUE, rec, seed=11)
    assert set(order(table)[:2]) == {"1", "4"}
    assert order(table)[0] == min(("1", "4"), key=lambda p: lot_digest(11, p))
    assert all(list(r["tiebreaks"]) == ["lots"] for r in table.rows)


def test_progressive_score_counts_early_wins() -> None:
    """累进分: the sum of the cumulative points after each round (an early win counts more)."""
    rec = EventRecord(
        pairs=("1", "2", "3", "4"),
        results=(win(1, "1", "3"), win(1, "4", "2"), win(2, "2", "3"), win(2, "4", "1")),
    )
    by = {r["pair"]: r for r in compute_standings(custom("match_points", "progressive_score"), rec).rows}
    assert by["1"]["tiebreaks"]["progressive_score"] == 4  # 2 + 2
    assert by["2"]["tiebreaks"]["progressive_score"] == 2  # 0 + 2
    assert by["1"]["rank"] < by["2"]["rank"]


def test_head_to_head_only_among_exactly_the_tied_pairs() -> None:
    rec = EventRecord(
        pairs=("1", "2", "3", "4"),
        results=(win(1, "2", "1"), win(1, "3", "4"), win(2, "1", "3"), win(2, "4", "2")),
    )
    # everybody has 2 points; 1 and 2 met (2 won), 3 and 4 met (3 won), but not all four
    rules = custom("match_points", "head_to_head", "lots")
    rows = compute_standings(rules, rec, seed=5).rows
    assert all(r["tiebreaks"]["head_to_head"] is None for r in rows)  # the four have not all met
    rules = custom("match_points", "opponents_score", "head_to_head", "lots")
    rec2 = EventRecord(pairs=("1", "2", "3"), results=(win(1, "2", "1"), win(2, "1", "3"), win(3, "3", "2")))
    by = {r["pair"]: r for r in compute_standings(rules, rec2, seed=5).rows}
    # a full circle: each has 2 points, the same 对手分, and 2 points among the three
    assert {by[p]["tiebreaks"]["head_to_head"] for p in "123"} == {2}
    two = EventRecord(
        pairs=("1", "2", "3", "4"),
        results=(win(1, "2", "1"), win(1, "3", "4"), win(2, "1", "4"), win(2, "3", "2")),
    )
    rows = compute_standings(custom("match_points", "head_to_head", "lots"), two, seed=0).rows
    assert [r["pair"] for r in rows][1:3] == ["2", "1"]  # 2 and 1 tied on 2 points; 2 won their match
    assert rows[1]["tiebreaks"]["head_to_head"] == 2 and rows[2]["tiebreaks"]["head_to_head"] == 0


def test_bye_counts_as_a_win_with_no_level_difference_and_no_opponent() -> None:
    rec = EventRecord(pairs=("1", "2", "3"), results=(win(1, "1", "2", 3),), byes=(Bye(1, "3"),))
    by = {r["pair"]: r for r in compute_standings(BHG, rec, seed=0).rows}
    assert by["3"]["match_points"] == 2
    assert by["3"]["tiebreaks"]["level_difference"] == 0
    assert by["3"]["tiebreaks"]["opponents_score"] == 0 and by["3"]["tiebreaks"]["small_points"] == 0


def test_forfeit_uses_the_recorded_points_and_levels() -> None:
    """BHG 二 判弃权: offender 0, opponent 2, levels 2 : 3, from the engine's decision."""
    case = json.loads(
        (ROOT / "tests/cases/bhg-2011/bhg-2-1-late-arrival-10min-forfeit.json").read_text("utf-8")
    )
    result = judge(case, lang="en")["result"]
    m = MatchResult.from_result(1, "1", "2", result)
    assert m.forfeit == "NS" and m.winner == "EW"
    by = {r["pair"]: r for r in compute_standings(BHG, EventRecord(("1", "2"), (m,))).rows}
    assert by["2"]["match_points"] == 2 and by["1"]["match_points"] == 0
    assert by["2"]["tiebreaks"]["level_difference"] == 1 and by["1"]["tiebreaks"]["level_difference"] == -1
    both = MatchResult(1, "1", "2", None, 0, 0, 0, 0, "both")
    rows = compute_standings(BHG, EventRecord(("1", "2"), (both,))).rows
    assert all(r["tiebreaks"]["small_points"] == 0 for r in rows)  # a double forfeit is no draw


def test_disqualified_pair_is_ranked_last_and_its_results_stand() -> None:
    rec = EventRecord(
        pairs=("1", "2", "3", "4"),
        results=(win(1, "1", "2"), win(1, "3", "4"), win(2, "1", "3"), win(2, "4", "2")),
        disqualifications=(Disqualification("1", 2),),
    )
    table = compute_standings(BHG, rec, seed=0)
    assert table.rows[-1]["pair"] == "1" and table.rows[-1]["rank"] == 4
    assert table.rows[-1]["match_points"] == 4 and table.rows[-1]["tiebreaks"]["disqualified"] == 2
    by = {r["pair"]: r for r in table.rows}
    assert by["2"]["tiebreaks"]["opponents_score"] == 4 + 2  # met 1 (4 points) and 4 (2)
    assert "disqualified" not in by["3"]["tiebreaks"]


def test_suspended_round_scores_nothing() -> None:
    rec = EventRecord(
        pairs=("1", "2", "3"),
        results=(win(1, "1", "2"), win(2, "3", "2")),
        byes=(Bye(1, "3"),),
        suspensions=(Suspension("1", 2, 1),),
    )
    by = {r["pair"]: r for r in compute_standings(GANSU, rec, seed=0).rows}
    assert by["1"]["match_points"] == 2 and by["1"]["tiebreaks"]["previous_round_points"] == [2]
    assert rec.suspended("1", 2) and not rec.suspended("1", 3)


def test_ranks_are_shared_only_without_lots() -> None:
    rec = EventRecord(pairs=("1", "2", "3", "4"), results=(win(1, "1", "2"), win(1, "3", "4")))
    assert [r["rank"] for r in compute_standings(custom("match_points"), rec).rows] == [1, 1, 3, 3]
    assert [r["rank"] for r in compute_standings(custom("match_points", "lots"), rec).rows] == [1, 2, 3, 4]


def test_round_option_and_errors() -> None:
    by = {r["pair"]: r for r in compute_standings(BHG, SIX, through_round=1).rows}
    assert by["1"]["match_points"] == 2 and by["5"]["match_points"] == 2
    with pytest.raises(StandingsError, match="two results"):
        compute_standings(BHG, EventRecord(("1", "2", "3"), (win(1, "1", "2"), win(1, "1", "3"))))
    with pytest.raises(StandingsError, match="unknown tie-break"):
        compute_standings(custom("match_points", "coin"), SIX)


def test_docstring_examples_and_no_heavy_imports() -> None:
    """The module's example runs; standings and pairing import neither Qt, reportlab nor SQLAlchemy."""
    import doctest
    import subprocess
    import sys

    from referee_app.core import standings

    assert doctest.testmod(standings).failed == 0
    code = (
        "import sys; import referee_app.core.standings, referee_app.core.pairing\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'PySide6', 'reportlab', 'sqlalchemy'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
