"""Combinations of clauses read off the seeds: several offences in one trick, in one hand,
across the hands of a round. Each test names the clause it pins; the property runs over the
three bundled rulebooks and the fourth event written by ``test_fourth_event``.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee_app.core.engine import judge

from .test_one_decision import assert_one_decision_in_any_order, case, hand, outcome
from .test_properties import infractions, single_hands


@pytest.fixture(scope="module")
def fourth_event(tmp_path_factory: pytest.TempPathFactory) -> str:
    from .test_fourth_event import FOURTH

    path = tmp_path_factory.mktemp("fourth-combinations") / "city-open-2026.toml"
    path.write_text(FOURTH, encoding="utf-8")
    return str(path)


@st.composite
def crowded(draw: st.DrawFn) -> dict[str, Any]:
    """An offence in one of the first three tricks, so that several share a trick."""
    offence = draw(infractions())
    trick = draw(st.integers(1, 3))
    offence["trick"] = trick
    offence["discovered"] = draw(st.integers(trick, trick + 3))
    if draw(st.integers(0, 5)) == 0:
        offence["void"] = {"reason": "logged twice"}
    return offence


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    single_hands(),
    st.lists(crowded(), min_size=2, max_size=7),
    st.randoms(use_true_random=False),
    st.booleans(),
)
def test_offences_sharing_a_trick_give_one_decision_in_any_order(
    fourth_event: str, setup, offences, rng, use_fourth: bool
) -> None:
    """Same trick, same discovery: which one is the 3rd must not depend on the typing."""
    assert_one_decision_in_any_order(fourth_event if use_fourth else None, setup, offences, rng)


@pytest.mark.parametrize("reverse", [False, True])
def test_bhg_two_exposures_in_one_trick_reaching_three(reverse: bool) -> None:
    """BHG 二、4: 每张罚10分，在一副牌中累积3次，判过错方负 — two exposures by the dealer side
    in trick 5 after one in trick 2: one of them is the 3rd, the same one however typed."""
    shared = [
        {"kind": "exposed_card", "seat": "E", "trick": 5, "cards": 2},
        {"kind": "exposed_card", "seat": "W", "trick": 5, "cards": 1},
    ]
    if reverse:
        shared.reverse()
    first = [{"kind": "exposed_card", "seat": "E", "trick": 2}]
    decision = judge(case("bhg-2011", [hand(60, first + shared)], first_dealer="N"))
    played = decision["hands"][0]
    assert played["lost_by"] == "EW"
    assert sorted(r["occurrence"] for r in played["rulings"]) == [1, 2, 3]
    again = judge(case("bhg-2011", [hand(60, first + shared[::-1])], first_dealer="N"))
    assert outcome(decision) == outcome(again)


def test_bhg_non_offender_dealing_without_a_gain_is_assumed() -> None:
    """BHG 二、判负: 过错方减80分……下一副牌由非过错方坐庄，分数有效 — defenders with 180 lose the
    hand: 100 would give them the deal, the dealer side deals next and no level moves; the
    text does not say which levels move, so the hand and the ruling are marked assumed."""
    signal = {"kind": "illegal_signal", "seat": "N", "trick": 2}
    played = judge(case("bhg-2011", [hand(180, [signal])]))["hands"][0]
    assert played["defender_total"] == 100
    assert played["next_dealer"] == "W" and played["levels_after"] == {"NS": "2", "EW": "2"}
    assert played["assumed"] is True and played["rulings"][0]["assumed"] is True
    # where the shifted total already gives the non-offender the deal, nothing is read into it
    plain = judge(case("bhg-2011", [hand(100, [signal])]))["hands"][0]
    assert plain["defender_total"] == 20 and plain["next_dealer"] == "W"
    assert plain["rulings"][0]["assumed"] is False


def test_hbue_defenders_capturing_with_a_j_but_losing_the_hand() -> None:
    """HBUE 规则三、(六) (用J抠底……一律由拣分方上庄) meets 规则四、(二)(2) (非庄方违规则庄方续庄并
    升3级): the sanction prevails — the dealer side keeps the deal +3 from J, no drop — and,
    the text not saying so, the hand is marked assumed. Without the offence the J rule holds."""
    j_capture = {"points": 10, "captured": True, "shape": "single", "j": 1}
    wrong_follow = {"kind": "wrong_play", "seat": "N", "trick": 4, "discovered": 5}
    levels = {"NS": "5", "EW": "J"}
    lost = judge(case("hbue-2018", [hand(40, [wrong_follow], bottom=j_capture)], levels=levels))
    played = lost["hands"][0]
    assert played["lost_by"] == "NS" and played["next_dealer"] == "W"
    assert played["levels_after"] == {"NS": "5", "EW": "A"}
    assert played["assumed"] is True and played["rulings"][0]["assumed"] is True
    clean = judge(case("hbue-2018", [hand(40, [], bottom=j_capture)], levels=levels))["hands"][0]
    assert clean["decided_by"] == "j_rule" and clean["levels_after"] == {"NS": "5", "EW": "6"}


@pytest.mark.parametrize("kind", ["exposed_card", "wrong_play"])
def test_bhg_third_time_dropping_its_own_points_is_marked_assumed(kind: str) -> None:
    """BHG 二、4 / 二、5: 每张罚10分（每出错一张罚10分），在一副牌中累积3次，判过错方负 — the hand
    loss is printed, dropping the 3rd occurrence's own 10 points is the rulebook's reading:
    the 1st and 2nd pay 10 each and are not assumed, the 3rd is a hand loss marked assumed."""
    offences = [{"kind": kind, "seat": "N", "trick": t} for t in (3, 7, 11)]
    played = judge(case("bhg-2011", [hand(150, offences)]))["hands"][0]
    first, second, third = played["rulings"]
    assert (first["points"], second["points"], third["points"]) == (10, 10, 0)
    assert first["assumed"] is second["assumed"] is False
    assert third["hand_lost"] is True and third["assumed"] is True
    # 150 − 20 − 80 = 50: the dealer side keeps the deal, +1
    assert played["defender_total"] == 50 and played["gains"] == {"NS": 0, "EW": 1}
    assert played["assumed"] is True


def test_a_result_reached_through_a_reading_is_marked_assumed() -> None:
    """Issue 9: a reading stays marked in the ruling, the hand and the result. BHG prints its
    result rule (比赛方法): a round decided on plain hands is not assumed; one whose levels
    came through a hand both sides lost (二、判负 prints nothing for it) is."""
    plain = judge(case("bhg-2011", [hand(60)]))["result"]
    assert plain["winner"] == "EW" and plain["assumed"] is False
    both = [
        {"kind": "illegal_signal", "seat": "E", "trick": 3},
        {"kind": "illegal_signal", "seat": "S", "trick": 5},
    ]
    read = judge(case("bhg-2011", [hand(60, both)]))["result"]
    assert read["winner"] == "EW" and read["assumed"] is True


def test_bhg_offences_without_a_trick_are_counted_where_they_happen() -> None:
    """BHG 二、4 (在抓牌或行牌过程中……累积3次) and 二、10 (庄家扣底牌的时间为60秒……一次给予警告，
    两次以上每次罚10分): an exposure while drawing is the 1st of the hand, so the one in trick
    7 is the 3rd; a delay in burying is the 1st delay, so it is the warning."""
    exposures = [
        {"kind": "exposed_card", "seat": "N", "trick": 7},
        {"kind": "exposed_card", "seat": "S", "trick": 3},
        {"kind": "exposed_card", "seat": "N", "phase": "drawing"},
    ]
    played = judge(case("bhg-2011", [hand(60, exposures)]))["hands"][0]
    assert [r["occurrence"] for r in played["rulings"]] == [3, 2, 1]
    assert [r["hand_lost"] for r in played["rulings"]] == [True, False, False]
    delays = [
        {"kind": "delay", "seat": "E", "trick": 8, "what": "lead"},
        {"kind": "delay", "seat": "W", "what": "bury"},
        {"kind": "delay", "seat": "E", "trick": 5, "what": "follow"},
    ]
    played = judge(case("bhg-2011", [hand(60, delays)]))["hands"][0]
    assert [r["warning"] for r in played["rulings"]] == [False, True, False]
    assert [r["points"] for r in played["rulings"]] == [10, 0, 10]


def test_bhg_trick_handling_counted_per_hand_is_a_reading_where_it_decides() -> None:
    """BHG 二、11 一次给予警告，两次以上每次罚10分 names no scope (二、10 opens with 在一副牌中):
    a second time in another hand is again a warning, marked assumed because a count over the
    round would fine it; the first time ever, and delays (二、10, per hand in print), are not."""
    hands = [
        hand(
            40,
            [{"kind": "trick_handling", "seat": "E", "trick": 3}, {"kind": "delay", "seat": "E", "trick": 5}],
        ),
        hand(
            40,
            [{"kind": "trick_handling", "seat": "E", "trick": 4}, {"kind": "delay", "seat": "E", "trick": 6}],
        ),
    ]
    first, second = judge(case("bhg-2011", hands, finished="open"))["hands"]
    assert [r["warning"] for r in first["rulings"] + second["rulings"]] == [True] * 4
    assert [r["assumed"] for r in first["rulings"]] == [False, False]
    assert [r["assumed"] for r in second["rulings"]] == [True, False]


def test_hbue_both_sides_open_grab_is_printed_for_count_errors_only() -> None:
    """HBUE 规则四、(一) 双方违规则下副牌实行一次性抢庄 is printed under 多或少牌; 四、(二)(2) 跟牌出错
    prints no 双方违规: the same open grab for two wrong follows is a reading, marked assumed."""
    follows = [
        {"kind": "wrong_play", "seat": "E", "trick": 2, "discovered": 4},
        {"kind": "wrong_play", "seat": "N", "trick": 5, "discovered": 6},
    ]
    read = judge(case("hbue-2018", [hand(60, follows)], finished="open"))["hands"][0]
    assert read["lost_by"] == "both" and read["next_dealer"] is None
    assert read["assumed"] is True and all(r["assumed"] for r in read["rulings"])
    counts = [
        {"kind": "wrong_card_count", "seat": "E", "phase": "after_bury"},
        {"kind": "wrong_card_count", "seat": "N", "phase": "after_bury"},
    ]
    printed = judge(case("hbue-2018", [hand(60, counts)], finished="open"))["hands"][0]
    assert printed["lost_by"] == "both" and printed["assumed"] is False


def test_hbue_redeclaration_bonus_on_a_lost_hand_is_a_reading() -> None:
    """HBUE 规则三、(五) 每反牌一次则由上庄方在原有基础上加升一级 with 规则四 庄方违规，由对方上庄并升2级:
    +2 printed, +3 given with one re-declaration — marked assumed; the bonus on a hand scored on
    its points is printed and not assumed."""
    count_error = {"kind": "wrong_card_count", "seat": "W", "phase": "after_bury"}
    lost = judge(case("hbue-2018", [hand(40), hand(50, [count_error], redeclarations=1)], finished="open"))
    second = lost["hands"][1]
    assert second["gains"] == {"NS": 3, "EW": 0} and second["redeclaration_bonus"] == 1
    assert second["assumed"] is True
    scored = judge(case("hbue-2018", [hand(40), hand(50, redeclarations=1)], finished="open"))
    assert scored["hands"][1]["gains"] == {"NS": 0, "EW": 2} and scored["hands"][1]["assumed"] is False


def test_bhg_counting_the_pairs_times_together_is_a_reading_where_it_decides() -> None:
    """BHG 二、4 (累积3次，判过错方负) and 二、10 (一次给予警告，两次以上每次罚10分) do not say whose
    times: the pair's (过错方) is the rulebook's reading. N then S: S's delay is the pair's 2nd
    (10 points) but S's own 1st, so it is marked assumed; N then N is the 2nd either way."""
    mixed = [{"kind": "exposed_card", "seat": seat, "trick": t} for seat, t in (("N", 2), ("N", 5), ("S", 9))]
    third = judge(case("bhg-2011", [hand(150, mixed)]))["hands"][0]["rulings"][2]
    assert third["hand_lost"] is True and third["assumed"] is True
    partners = [{"kind": "delay", "seat": seat, "trick": t} for seat, t in (("N", 2), ("S", 5))]
    second = judge(case("bhg-2011", [hand(60, partners)]))["hands"][0]["rulings"][1]
    assert second["points"] == 10 and second["assumed"] is True
    alone = [{"kind": "delay", "seat": "N", "trick": t} for t in (2, 5)]
    second = judge(case("bhg-2011", [hand(60, alone)]))["hands"][0]["rulings"][1]
    assert second["points"] == 10 and second["assumed"] is False


def test_bhg_failed_throw_exposed_cards_not_a_time_is_a_reading_where_it_decides() -> None:
    """BHG 二、5 甩错牌……其余按暴露张处理 with 二、4 在一副牌中累积3次: the rulebook charges the
    other thrown cards as exposed but does not count the throw as an exposure time. Where
    counting it would give 二、4's hand loss — the throw after two exposures, or the 2nd
    exposure after the throw — that ruling is marked assumed; a throw alone is not."""
    throw = {"kind": "failed_throw", "seat": "N", "trick": 6, "cards": 1, "thrown": 4}
    exposures = [{"kind": "exposed_card", "seat": "S", "trick": t} for t in (2, 4)]
    played = judge(case("bhg-2011", [hand(150, [*exposures, throw])]))["hands"][0]
    assert played["lost_by"] is None and played["rulings"][2]["points"] == 40
    assert [r["assumed"] for r in played["rulings"]] == [False, False, True]
    later = [{"kind": "exposed_card", "seat": "S", "trick": t} for t in (8, 10)]
    played = judge(case("bhg-2011", [hand(150, [throw, *later])]))["hands"][0]
    assert [r["assumed"] for r in played["rulings"]] == [False, False, True]
    alone = judge(case("bhg-2011", [hand(150, [throw])]))["hands"][0]
    assert alone["rulings"][0]["points"] == 40 and alone["rulings"][0]["assumed"] is False
