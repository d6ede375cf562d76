"""Judged exactly: facts that cannot have happened are refused, readings the texts leave open
are marked, and the hands after the time warning are counted.

Each test cites the seed text it is written from.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee_app.core.engine import judge
from referee_app.core.errors import CaseError

from .test_one_decision import case, hand


def refused(raw: dict[str, Any]) -> CaseError:
    with pytest.raises(CaseError) as caught:
        judge(raw)
    return caught.value


# -- facts that cannot have happened -----------------------------------------------------------


@pytest.mark.parametrize("event", ["bhg-2011", "gansu-2018", "hbue-2018"])
@pytest.mark.parametrize("points", [85, 90, 100])
def test_a_bottom_worth_more_than_its_eight_cards_is_refused(event: str, points: int) -> None:
    """BHG 一、(一): 余8张为底牌 — eight cards hold at most 80 card points."""
    bottom = {"points": points, "captured": True, "shape": "single"}
    error = refused(case(event, [hand(20, bottom=bottom)]))
    assert error.field == "hands[0].bottom.points"
    assert "80" in str(error) and "抠底" in str(error)  # the limit and the clause it breaks


def test_a_bottom_of_eighty_is_judged() -> None:
    bottom = {"points": 80, "captured": True, "shape": "single"}
    out = judge(case("bhg-2011", [hand(20, bottom=bottom)]))
    assert out["hands"][0]["bottom_points"] == 160


@pytest.mark.parametrize(
    ("shape", "j", "extra"),
    [("single", 2, {}), ("pair", 1, {}), ("tractor", 1, {"pairs": 2})],
)
def test_j_cards_that_do_not_fit_the_capturing_combination_are_refused(
    shape: str, j: int, extra: dict[str, Any]
) -> None:
    """HBUE 规则三、(六): 单J抠底 / 对J抠底 — a single holds one J, a pair two."""
    bottom = {"points": 10, "captured": True, "shape": shape, "j": j, **extra}
    error = refused(case("hbue-2018", [hand(60, bottom=bottom)], levels={"NS": "J", "EW": "J"}))
    assert error.field == "hands[0].bottom.j" and error.code == "case.j_not_in_shape"


@pytest.mark.parametrize(("shape", "j", "to"), [("single", 1, "6"), ("pair", 2, "2")])
def test_j_cards_that_fit_drive_the_j_drop(shape: str, j: int, to: str) -> None:
    bottom = {"points": 10, "captured": True, "shape": shape, "j": j}
    out = judge(case("hbue-2018", [hand(60, bottom=bottom)], levels={"NS": "2", "EW": "J"}))
    assert out["hands"][0]["j_drop"] == to


def test_a_throw_may_hold_one_or_two_j() -> None:
    for j, to in ((1, "6"), (2, "2")):
        bottom = {"points": 10, "captured": True, "shape": "throw", "largest": "pair", "j": j}
        out = judge(case("hbue-2018", [hand(60, bottom=bottom)], levels={"NS": "2", "EW": "J"}))
        assert out["hands"][0]["j_drop"] == to


def test_an_offence_after_a_gansu_hand_ended_at_once_is_refused() -> None:
    """Gansu 六、六、E: 若一经发现，该副牌立即结束 — a second signal twelve tricks later
    cannot have happened."""
    offences = [
        {"kind": "illegal_signal", "seat": "E", "trick": 3},
        {"kind": "illegal_signal", "seat": "N", "trick": 15},
    ]
    error = refused(case("gansu-2018", [hand(60, offences)], finished="open"))
    assert error.field == "hands[0].infractions[1].trick"
    assert error.code == "case.after_hand_ended" and "六、六、E" in str(error)
    # typed in the other order, the same facts are refused at the same offence
    error = refused(case("gansu-2018", [hand(60, offences[::-1])], finished="open"))
    assert error.field == "hands[0].infractions[0].trick"


def test_a_bottom_captured_after_a_gansu_hand_ended_is_refused() -> None:
    """Gansu 六、六、E: the hand ends before its last trick, which alone captures the bottom."""
    signal = {"kind": "illegal_signal", "seat": "E", "trick": 3}
    bottom = {"points": 20, "captured": True, "shape": "pair"}
    error = refused(case("gansu-2018", [hand(60, [signal], bottom=bottom)]))
    assert error.field == "hands[0].bottom.captured" and error.code == "case.captured_after_end"


def test_offences_in_the_trick_that_ended_the_hand_and_a_voided_end_are_judged() -> None:
    same_trick = [
        {"kind": "illegal_signal", "seat": "E", "trick": 3},
        {"kind": "exposed_card", "seat": "N", "trick": 3},
    ]
    out = judge(case("gansu-2018", [hand(60, same_trick)], finished="open"))
    assert [r["kind"] for r in out["hands"][0]["rulings"]] == ["illegal_signal", "exposed_card"]
    voided = [
        {"kind": "illegal_signal", "seat": "E", "trick": 3, "void": {"reason": "no signal: the committee"}},
        {"kind": "exposed_card", "seat": "N", "trick": 9},
    ]
    out = judge(case("gansu-2018", [hand(60, voided)], finished="open"))  # a voided ruling ends nothing
    assert out["hands"][0]["rulings"][1]["points"] == 10


def test_a_signal_in_the_last_trick_leaves_the_capture_standing() -> None:
    signal = {"kind": "illegal_signal", "seat": "N", "trick": 25}
    bottom = {"points": 20, "captured": True, "shape": "pair"}
    out = judge(case("gansu-2018", [hand(60, [signal], bottom=bottom)]))
    assert out["hands"][0]["bottom_multiplier"] == 4 and out["hands"][0]["lost_by"] == "NS"


@pytest.mark.parametrize("phase", ["drawing", "before_bottom"])
def test_a_count_error_found_before_play_cannot_be_in_a_trick(phase: str) -> None:
    """BHG 二、3 抓牌过程中 / Gansu 六、六、A1 未拿底牌之前: found before any trick is led."""
    error = refused(
        case("bhg-2011", [hand(60, [{"kind": "wrong_card_count", "seat": "E", "phase": phase, "trick": 10}])])
    )
    assert error.field == "hands[0].infractions[0].trick" and error.code == "case.phase_with_trick"


def test_more_re_declarations_than_bhg_allows_are_refused() -> None:
    """BHG 一、(七): 一副牌最多反两次主牌."""
    judge(case("bhg-2011", [hand(60, redeclarations=2)]))
    error = refused(case("bhg-2011", [hand(60, redeclarations=3)]))
    assert error.field == "hands[0].redeclarations" and "一、(七)" in str(error)


def test_gansu_allows_one_re_declaration_from_the_second_hand() -> None:
    """Gansu 六、五、4: 从第二副牌开始，不论大小王只能反无主一次; the first hand's grab has no
    printed limit."""
    judge(case("gansu-2018", [hand(60, redeclarations=3), hand(60, redeclarations=1)]))
    error = refused(case("gansu-2018", [hand(60), hand(60, redeclarations=2)]))
    assert error.field == "hands[1].redeclarations" and "六、五、4" in str(error)


def test_hbue_prints_no_limit_on_re_declarations() -> None:
    out = judge(case("hbue-2018", [hand(60), hand(60, redeclarations=4)]))
    assert out["hands"][1]["redeclaration_bonus"] == 4


# -- readings marked -----------------------------------------------------------------------


def test_gansu_light_exposure_of_several_cards_is_marked() -> None:
    """Gansu 六、六、C1 扣10分 (for an exposure) against B 每个错误牌张: several cards at once
    are read as one exposure, and the ruling says it is a reading."""
    one = judge(case("gansu-2018", [hand(60, [{"kind": "exposed_card", "seat": "N", "trick": 2}])]))
    several = judge(
        case("gansu-2018", [hand(60, [{"kind": "exposed_card", "seat": "N", "trick": 2, "cards": 3}])])
    )
    assert one["hands"][0]["rulings"][0]["assumed"] is False
    ruling = several["hands"][0]["rulings"][0]
    assert ruling["points"] == 10 and ruling["assumed"] is True


def test_bhg_count_error_between_the_draw_and_the_bottom_is_marked() -> None:
    """BHG 二、3 names only 抓牌过程中或取底牌后 and the end of the hand."""

    def ruling(phase: str) -> dict[str, Any]:
        inf = {"kind": "wrong_card_count", "seat": "E", "phase": phase}
        return judge(case("bhg-2011", [hand(60, [inf])]))["hands"][0]["rulings"][0]

    assert ruling("drawing")["assumed"] is False
    before = ruling("before_bottom")
    assert before["assumed"] is True and before["points"] == 10


def test_hbue_re_declaration_bonus_in_a_hand_both_sides_lose_is_marked() -> None:
    """HBUE 规则三、(五) gives the bonus to 上庄方; after both sides lose (规则四、(一)) the next
    deal is grabbed, so the bonus lapses — a reading, marked."""
    both = [
        {"kind": "wrong_card_count", "seat": "E", "phase": "after_bury"},
        {"kind": "wrong_card_count", "seat": "N", "phase": "after_bury"},
    ]
    plain = judge(case("hbue-2018", [hand(60), hand(60, both)], finished="open"))["hands"][1]
    assert plain["lost_by"] == "both" and plain["assumed"] is False
    out = judge(case("hbue-2018", [hand(60), hand(60, both, redeclarations=2)], finished="open"))
    second = out["hands"][1]
    assert second["redeclaration_bonus"] == 0 and second["assumed"] is True


def test_gansu_hand_decided_by_a_hand_loss_marks_its_assumed_rotation() -> None:
    """Gansu prints no rotation (六、一 执行国家规则): the next dealer after a hand loss is a
    reading of the rulebook's own, marked on the hand."""
    hidden = {"kind": "hidden_card", "seat": "N", "trick": 3, "discovered": 5, "affects_result": True}
    gansu = judge(case("gansu-2018", [hand(60, [hidden])]))["hands"][0]
    assert gansu["decided_by"] == "hand_loss" and gansu["next_dealer"] is not None
    assert gansu["assumed"] is True
    # HBUE prints its rotation (规则一、(二)): the same hand loss is not marked
    foul = {"kind": "wrong_play", "seat": "N", "trick": 3, "discovered": 5}
    hbue = judge(case("hbue-2018", [hand(60, [foul])]))["hands"][0]
    assert hbue["decided_by"] == "hand_loss" and hbue["assumed"] is False


def test_a_total_below_zero_is_marked_where_its_reading_is_assumed() -> None:
    """BHG prints no rule for a total below 0 (negative_clause assumed): a hand whose penalties
    take the defenders below 0 says so."""
    foul = {"kind": "exposed_card", "seat": "N", "trick": 2, "cards": 3}  # 30 off the defenders
    below = judge(case("bhg-2011", [hand(20, [foul])]))["hands"][0]
    assert below["defender_total"] == 0 and below["assumed"] is True
    above = judge(case("bhg-2011", [hand(140, [foul])]))["hands"][0]  # 110: printed 一、(十二)
    assert above["defender_total"] == 110 and above["assumed"] is False


def test_hbue_result_on_time_cites_the_winner_clause_and_marks_its_match_points() -> None:
    """HBUE 规则五、(二): 在打完最后一副牌时所达级别领先的一方为胜方 — the result cites it; its
    match points (a knockout prints none, 通知四、(一)) are a reading, marked."""
    out = judge(case("hbue-2018", [hand(40)]))
    result = out["result"]
    assert result["decided_by"] == "levels" and result["citation"].startswith("规则五、(二)")
    assert result["match_points_citation"].startswith("通知四、(一)") and result["assumed"] is True
    tie = judge(case("hbue-2018", [hand(40), hand(80)]))["result"]  # EW up 1, then NS up 0…
    assert tie["assumed"] is True


def test_a_tie_decided_by_reached_first_carries_the_assumed_match_points() -> None:
    """HBUE 规则五、(二): 所达级别相同则以此轮最先到达该级者为胜方 — printed; the 2/0 are not."""
    hands = [hand(40), hand(120)]  # E deals: EW +1 (3:2); then W deals, NS take the deal +1 → 3:3
    out = judge(case("hbue-2018", hands))
    result = out["result"]
    assert result["decided_by"] == "tie_reached_first" and result["winner"] == "EW"
    assert result["citation"].startswith("规则五、(二)") and result["assumed"] is True


def test_a_round_scoped_counter_with_an_assumed_scope_marks_what_the_scope_decides(tmp_path) -> None:
    """A counter counted over the round by a reading (scope_clause assumed): a ruling that
    counting within the hand would change is marked, as a hand-scoped counter's already is."""
    from referee_app.core.rulebook import rulebook_from_text

    from .conftest import RULES

    text = (RULES / "bhg-2011.toml").read_text(encoding="utf-8")
    start = text.index("[counters.trick_handling]")
    end = text.index("\n[", start + 1)
    block = text[start:end]
    assert 'scope = "hand"' in block
    text = text[:start] + block.replace('scope = "hand"', 'scope = "round"', 1) + text[end:]
    rulebook = rulebook_from_text(text, "round-scope.toml", use_cache=False)
    turned = {"kind": "trick_handling", "seat": "N", "trick": 4}
    out = judge(case("bhg-2011", [hand(60, [turned]), hand(60, [turned])]), rulebook=rulebook)
    first, second = (h["rulings"][0] for h in out["hands"])
    assert first["assumed"] is False
    assert second["occurrence"] == 2 and second["assumed"] is True  # per hand: a first time


# -- the time warning --------------------------------------------------------------------------


def test_gansu_allows_one_hand_after_the_one_in_play_at_the_warning() -> None:
    """Gansu 六、二、2: 还有最后1副牌(不包括正在打的该副牌)."""
    hands = [hand(60), hand(60), hand(60)]
    out = judge(case("gansu-2018", hands, time_warning={"hand": 2}))
    assert out["time_warning"]["last_hand"] == 3
    assert not any(h["past_time_warning"] for h in out["hands"])
    error = refused(case("gansu-2018", [*hands, hand(60)], time_warning={"hand": 2}))
    assert error.field == "hands[3]" and "六、二、2" in str(error)


def test_hbue_counts_the_hand_in_play_among_the_two_after_the_warning() -> None:
    """HBUE 规则五、(一): 限时提醒后每桌只能再打二副牌，包括正在抓牌或打的这副牌."""
    hands = [hand(60), hand(60), hand(60)]
    out = judge(case("hbue-2018", hands, time_warning={"hand": 2}))
    assert out["time_warning"]["last_hand"] == 3
    error = refused(case("hbue-2018", [*hands, hand(60)], time_warning={"hand": 2}))
    assert error.field == "hands[3]" and "规则五、(一)" in str(error)


def test_bhg_prints_no_warning_so_a_hand_past_it_is_marked_not_refused() -> None:
    """BHG prints only 每轮1小时: the one-last-hand practice is the rulebook's reading."""
    out = judge(case("bhg-2011", [hand(60), hand(60), hand(60)], time_warning={"hand": 1}))
    assert [h["past_time_warning"] for h in out["hands"]] == [False, False, True]
    assert out["hands"][2]["assumed"] is True and out["result"]["assumed"] is True


def test_a_warning_in_a_hand_the_round_never_reached_is_refused() -> None:
    error = refused(case("gansu-2018", [hand(60)], time_warning={"hand": 5}))
    assert error.field == "time_warning.hand"
