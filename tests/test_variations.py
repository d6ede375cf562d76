"""Variations of real events' rules as rulebook data (issue 25, item 5 "Schema and engine").

Issue 25 lists rules seen in real events that the bundled rulebooks could not say; each test
here quotes the variation as the issue states it, writes it into a copy of a bundled rulebook
(the clause text restates it in Chinese, as a chief referee would copy it from the event's
document), and judges hands as the text says."""

from __future__ import annotations

import pytest

from referee_app.app.messages import describe
from referee_app.core.engine import judge
from referee_app.core.errors import CaseError, RulebookError
from referee_app.core.rulebook import Rulebook, rulebook_from_text
from referee_app.core.rulebook_kinds import BLOCKERS

from .conftest import RULES


def _draft(base: str, *edits: tuple[str, str]) -> Rulebook:
    """A club's rulebook: the bundled ``base`` with each (old, new) edit made once."""
    text = (RULES / f"{base}.toml").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    text = text.replace(f'id = "{base}"', 'id = "club-2026"')
    return rulebook_from_text(text, "club-2026.toml", use_cache=False)


def _round(*hands: dict, levels: dict | None = None, finished: str = "open", **extra) -> dict:
    return {
        "event": "club-2026",
        "first_dealer": "N",
        "levels": levels or {"NS": "2", "EW": "2"},
        "finished": finished,
        "hands": list(hands),
        **extra,
    }


# -- 1. a J rule by which J captures, from a defender total ----------------------------------

_J_BY_SUIT = (
    'single_to = "6"\npair_to = "2"\nclause = { ref = "规则三、(六)"',
    'trump_to = "2"\nside_to = "8"\nmin_defender_total = 80\nclause = { ref = "第六条"',
)


def _j_capture(points: int, suit: str | None, j: int = 1) -> dict:
    shape = "single" if j == 1 else "pair"
    bottom = {"points": 10, "captured": True, "shape": shape, "j": j}
    if suit is not None:
        bottom["j_suit"] = suit
    return {"defender_points": points, "bottom": bottom}


def test_the_trump_j_sends_the_dealer_side_to_2_and_a_side_suit_j_to_8_from_80_points() -> None:
    """Issue 25: "a J rule that depends on which J captures (the trump J sends the dealer side
    to 2, a side-suit J to 8) and applies only if the defenders reach 80"."""
    club = _draft("hbue-2018", _J_BY_SUIT)
    at_j = {"NS": "J", "EW": "5"}
    # 60 in tricks + a single's bottom 10 × 2 = 80: the defenders reach 80
    trump = judge(_round(_j_capture(60, "trump"), levels=at_j), rulebook=club)["hands"][0]
    assert trump["defender_total"] == 80 and trump["decided_by"] == "j_rule"
    assert trump["j_drop"] == "2" and trump["levels_after"] == {"NS": "2", "EW": "5"}
    assert trump["keep_deal"] is False and trump["next_dealer"] == "W"
    side = judge(_round(_j_capture(60, "side"), levels=at_j), rulebook=club)["hands"][0]
    assert side["j_drop"] == "8" and side["levels_after"] == {"NS": "8", "EW": "5"}
    # a pair of the trump suit's Js is the trump J too: the suit decides, not the count
    pair = judge(_round(_j_capture(60, "trump", j=2), levels=at_j), rulebook=club)["hands"][0]
    assert pair["defender_total"] == 100 and pair["j_drop"] == "2"
    # 55 + 20 = 75, short of 80: no drop; the dealer side keeps the deal and plays past J
    short = judge(_round(_j_capture(55, "trump"), levels=at_j), rulebook=club)["hands"][0]
    assert short["defender_total"] == 75 and short["j_drop"] is None
    assert short["decided_by"] == "points" and short["levels_after"] == {"NS": "Q", "EW": "5"}


def test_a_j_rule_by_suit_asks_which_j_captured() -> None:
    """A J rule that goes by 主J / 副J cannot be applied to a capture that does not say which:
    the field is named, with the rulebook and its clause."""
    club = _draft("hbue-2018", _J_BY_SUIT)
    with pytest.raises(CaseError) as caught:
        judge(_round(_j_capture(60, None), levels={"NS": "J", "EW": "5"}), rulebook=club)
    assert caught.value.field == "hands[0].bottom.j_suit" and caught.value.code == "case.j_suit_required"
    assert caught.value.values == {"rulebook": "club-2026", "clause": "第六条 特别滑钩（J）牌"}
    assert describe(caught.value, "zh") == (
        "第 1 副的抠底的 J（hands[0].bottom.j_suit）：必填：规则 club-2026 的滑钩按抠底的是主 J 还是副 J 降级（第六条 特别滑钩（J）牌）："
        "trump 为主 J，side 为副 J。"
    )
    assert str(caught.value) == (
        "hands[0].bottom.j_suit: required: club-2026's J rule drops the dealer side by which J "
        "captured (第六条 特别滑钩（J）牌): trump (the trump suit's J) or side (a side suit's J)"
    )
    # below the rule's 80, or off level J, the J rule does not apply and nothing is asked
    out = judge(_round(_j_capture(50, None), levels={"NS": "J", "EW": "5"}), rulebook=club)
    assert out["hands"][0]["j_drop"] is None
    out = judge(_round(_j_capture(60, None), levels={"NS": "9", "EW": "5"}), rulebook=club)
    assert out["hands"][0]["j_drop"] is None


def test_which_j_is_a_fact_only_of_a_capture_with_a_j() -> None:
    club = _draft("hbue-2018", _J_BY_SUIT)
    hand = {
        "defender_points": 60,
        "bottom": {"points": 10, "captured": True, "shape": "single", "j_suit": "side"},
    }
    with pytest.raises(CaseError) as caught:
        judge(_round(hand), rulebook=club)
    assert caught.value.field == "hands[0].bottom.j_suit" and caught.value.code == "case.j_suit_without_j"
    with pytest.raises(CaseError, match=r"bottom\.j_suit: expected one of trump, side"):
        judge(_round(_j_capture(60, "main")), rulebook=club)


def test_hbues_j_rule_by_the_number_of_js_still_ignores_the_points() -> None:
    """HBUE 规则三、(六): "若拣分方用J抠底，则无论得分多少……单J抠底降至6；对J抠底降至2": without a
    least total the rule applies at 0 points, and which J it was does not matter."""
    hbue = _draft("hbue-2018")
    hand = _j_capture(0, "side")
    out = judge(_round(hand, levels={"NS": "J", "EW": "5"}), rulebook=hbue)["hands"][0]
    assert out["defender_total"] == 20 and out["j_drop"] == "6"


@pytest.mark.parametrize(
    "drops",
    [
        'single_to = "6"',
        'trump_to = "2"',
        'single_to = "6"\npair_to = "2"\ntrump_to = "2"\nside_to = "8"',
        "",
    ],
)
def test_a_j_rule_says_where_the_dealer_side_drops_one_whole_way(drops: str) -> None:
    with pytest.raises(RulebookError) as caught:
        _draft("hbue-2018", ('single_to = "6"\npair_to = "2"', drops))
    assert "give the J rule's drops one way: single_to and pair_to, or trump_to and side_to" in str(
        caught.value
    )


# -- 2. a tie won by the side holding the deal when the round ends ---------------------------

_HOLDS_DEAL = (
    'tie = "reached_first"\ntie_clause = { ref = "规则五、(二)", title = "胜负", zh = "所达级别相同则以此轮最先到达该级者为胜方（不算被“J”之前的记录）。"',
    'tie = "holds_deal_at_end"\ntie_clause = { ref = "第十条", title = "平局", zh = "时间到时双方级数相同，以终局时坐庄的一方为胜。"',
)


def _miscount_by(seat: str) -> dict:
    # 多或少牌 found when the cards are counted: HBUE 规则四、(一), the offending side loses
    return {"kind": "wrong_card_count", "seat": seat, "phase": "end_of_hand"}


def test_a_tie_on_time_goes_to_the_side_holding_the_deal_after_the_last_hands_change() -> None:
    """Issue 25: "a tie at time won by the side holding the deal when the round ends — after
    the last hand's change of deal, including a dealer side that stepped down for a miscount"."""
    club = _draft("hbue-2018", _HOLDS_DEAL)
    # NS deal at 4 and lose the hand for a miscount: EW take the deal with +2, 2 → 4
    stepped_down = _round(
        {"defender_points": 20, "infractions": [_miscount_by("N")]},
        levels={"NS": "4", "EW": "2"},
        finished="time",
    )
    out = judge(stepped_down, rulebook=club)
    assert out["hands"][0]["levels_after"] == {"NS": "4", "EW": "4"}
    assert out["hands"][0]["next_dealer"] == "W"
    result = out["result"]
    assert result["winner"] == "EW" and result["decided_by"] == "tie_holds_deal_at_end"
    assert result["citation"] == "第十条 平局" and result["match_points"] == {"NS": 0, "EW": 2}
    # the side that dealt that last hand (NS) is what the other option names
    dealt = _draft("hbue-2018", (_HOLDS_DEAL[0], _HOLDS_DEAL[0].replace("reached_first", "dealt_last_hand")))
    assert judge(stepped_down, rulebook=dealt)["result"]["winner"] == "NS"
    # the deal changed on points: the defenders reach 80 at 2 and take it (+0), levels equal
    on_points = _round({"defender_points": 80}, levels={"NS": "3", "EW": "3"}, finished="time")
    result = judge(on_points, rulebook=club)["result"]
    assert result["winner"] == "EW" and result["decided_by"] == "tie_holds_deal_at_end"


def test_the_deal_held_at_the_end_is_nobodys_after_an_open_grab_and_the_first_dealers_before_play() -> None:
    club = _draft("hbue-2018", _HOLDS_DEAL)
    # both sides miscount: both lose, the next deal is grabbed (规则四、(一)); nobody holds it
    both = _round(
        {"defender_points": 20, "infractions": [_miscount_by("N"), _miscount_by("E")]},
        levels={"NS": "5", "EW": "5"},
        finished="time",
    )
    out = judge(both, rulebook=club)
    assert out["hands"][0]["next_dealer"] is None
    result = out["result"]
    assert result["winner"] is None and result["decided_by"] == "tie_unresolved" and result["assumed"]
    # no hand played: the first dealer's side holds the deal
    result = judge(_round(levels={"NS": "5", "EW": "5"}, finished="time"), rulebook=club)["result"]
    assert result["winner"] == "NS" and result["decided_by"] == "tie_holds_deal_at_end"


def test_the_old_names_of_tie_options_are_read_as_the_options_named_for_what_they_mean() -> None:
    old = _draft("hbue-2018", (_HOLDS_DEAL[0], _HOLDS_DEAL[0].replace("reached_first", "last_dealer_side")))
    assert old.data["round"]["tie"] == "dealt_last_hand"
    assert _draft("hbue-2018").data["round"]["tie"] == "reached_level_first"
    tied = _round({"defender_points": 80}, levels={"NS": "3", "EW": "3"}, finished="time")
    result = judge(tied, rulebook=old)["result"]
    assert result["winner"] == "NS" and result["decided_by"] == "tie_last_dealer_side"


# -- 3. 20-point level units, the bands said as 「每低于20分」/「每超过20分」 -----------------------

_BHG_BANDS = """dealer_bands = [
  { upto = 0, gain = 3 },
  { upto = 35, gain = 2 },
  { upto = 75, gain = 1 },
]"""


def _gains(rulebook: Rulebook, totals: range) -> dict[int, tuple[bool, dict]]:
    """(the dealer side keeps the deal, the levels after) for each defender total, dealer N."""
    out = {}
    for total in totals:
        hand = judge(_round({"defender_points": total}), rulebook=rulebook)["hands"][0]
        out[total] = (hand["keep_deal"], hand["levels_after"])
    return out


def test_20_point_units_below_and_above_80_give_a_level_for_each_20() -> None:
    """Issue 25: "20-point level units with bands written as "每低于20分"" — the dealer side
    goes up a level for each 20 points (每低于20分) the defenders fall short of 80, the
    defenders a level for each 20 over it (每超过20分); no band is written by hand."""
    club = _draft("bhg-2011", ("step = 40\n" + _BHG_BANDS, "step = 20\ndealer_step = 20"))
    assert club.data["scoring"]["dealer_bands"] == [
        {"upto": 19, "gain": 4},
        {"upto": 39, "gain": 3},
        {"upto": 59, "gain": 2},
        {"upto": 79, "gain": 1},
    ]
    judged = _gains(club, range(0, 145, 5))
    dealer = {total: levels["NS"] for total, (keep, levels) in judged.items() if keep}
    assert dealer == {
        **dict.fromkeys((0, 5, 10, 15), "6"),  # 61–80 short: +4
        **dict.fromkeys((20, 25, 30, 35), "5"),
        **dict.fromkeys((40, 45, 50, 55), "4"),
        **dict.fromkeys((60, 65, 70, 75), "3"),  # 5–20 short: +1
    }
    defenders = {total: levels["EW"] for total, (keep, levels) in judged.items() if not keep}
    assert defenders == {
        **dict.fromkeys((80, 85, 90, 95), "2"),  # the deal changes, nothing over
        **dict.fromkeys((100, 105, 110, 115), "3"),  # 20 over: +1
        **dict.fromkeys((120, 125, 130, 135), "4"),
        140: "5",
    }


def test_bhgs_written_bands_are_the_40_point_unit_with_a_shut_out_of_3() -> None:
    """BHG 一、(十二) "庄家与防家以80分为标准决定升级或换庄，每40分为一个升级单位", with the
    bands it reads (0 → +3, 5–35 → +2, 40–75 → +1): the same hands as a 40-point dealer step
    with 大光 3."""
    bhg = _draft("bhg-2011")
    derived = _draft("bhg-2011", (_BHG_BANDS, "dealer_step = 40\ndealer_zero_gain = 3"))
    assert derived.data["scoring"]["dealer_bands"][0] == {"upto": 0, "gain": 3}
    assert _gains(derived, range(0, 200, 5)) == _gains(bhg, range(0, 200, 5))


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        ((_BHG_BANDS, _BHG_BANDS + "\ndealer_step = 20"), "give dealer_bands or dealer_step, not both"),
        ((_BHG_BANDS, _BHG_BANDS + "\ndealer_zero_gain = 3"), "dealer_zero_gain: only with dealer_step"),
        (
            (_BHG_BANDS, "dealer_step = 0"),
            "scoring.dealer_step: Input should be greater than 0, got 0 (line 25)",
        ),
    ],
)
def test_the_dealer_bands_are_said_one_way(edit: tuple[str, str], problem: str) -> None:
    with pytest.raises(RulebookError) as caught:
        _draft("bhg-2011", edit)
    assert problem in str(caught.value)


# -- 4. a level taken from the offending side after the hand, the third time the round -------

_LEVEL_A_TIME = (
    (
        'id = "hand_loss"\nsanction = { hand_loss = true }\nclause = { ref = "规则四、(二)(2)"',
        'id = "a_level"\ncounter = "wrong_play"\nsanction = { levels = { offender = -1 } }\n'
        'clause = { ref = "第十四条"',
    ),
    (
        "[counters.delay]",
        '[counters.wrong_play]\nscope = "round"\n[[counters.wrong_play.steps]]\nfrom_count = 3\n'
        "sanction = { round_forfeit = true }\n"
        'clause = { ref = "第十四条", title = "跟牌出错", zh = "一轮中第三次跟牌出错，判该轮负。", '
        'en = "The third wrong follow in a round forfeits it." }\n\n[counters.delay]',
    ),
)


def _wrong_follow(seat: str, trick: int = 3) -> dict:
    return {"kind": "wrong_play", "seat": seat, "trick": trick, "discovered": trick + 1}


def test_a_wrong_follow_takes_a_level_from_the_offender_after_the_hand_and_the_third_the_round() -> None:
    """Issue 25: "a sanction that takes a level from the offending side after the hand, three
    times → the round"."""
    club = _draft("hbue-2018", *_LEVEL_A_TIME)
    # NS deal at 10 and hold the defenders to 0 (+5, stopped on the mandatory J): the level is
    # taken after that, 10; taken before, 9 + 5 would still have stopped on J
    hand = judge(
        _round({"defender_points": 0, "infractions": [_wrong_follow("S")]}, levels={"NS": "10", "EW": "4"}),
        rulebook=club,
    )["hands"][0]
    assert hand["rulings"][0]["levels"] == {"NS": -1, "EW": 0} and hand["rulings"][0]["hand_lost"] is False
    assert hand["gains"] == {"NS": 5, "EW": 0} and hand["levels_after"] == {"NS": "10", "EW": "4"}
    # the defenders offend: they lose the level, the dealer side's hand is scored as played
    hand = judge(
        _round({"defender_points": 40, "infractions": [_wrong_follow("E")]}, levels={"NS": "5", "EW": "4"}),
        rulebook=club,
    )["hands"][0]
    assert hand["levels_after"] == {"NS": "6", "EW": "3"} and hand["next_dealer"] == "S"
    # below 2 there is nothing to take
    hand = judge(_round({"defender_points": 40, "infractions": [_wrong_follow("W")]}), rulebook=club)[
        "hands"
    ][0]
    assert hand["levels_after"] == {"NS": "3", "EW": "2"}
    # the third time in the round, over three hands, the offending side forfeits it
    three = [{"defender_points": 40, "infractions": [_wrong_follow(seat)]} for seat in ("N", "S", "N")]
    out = judge(_round(*three, levels={"NS": "5", "EW": "5"}, finished="time"), rulebook=club)
    assert [h["rulings"][0]["occurrence"] for h in out["hands"]] == [1, 2, 3]
    assert [h["rulings"][0]["round_forfeit"] for h in out["hands"]] == [False, False, True]
    assert out["hands"][2]["rulings"][0]["citation"] == "第十四条 跟牌出错"
    assert out["forfeit"]["side"] == "NS" and out["result"]["winner"] == "EW"


def test_a_level_given_to_the_opponent_stops_at_a_mandatory_level_and_never_leaves_one() -> None:
    """A sanction's levels "never counted as playing a mandatory level" (HBUE 规则三、(六)
    「J为必打级牌，不得因升级跳过」): a level given to the non-offending side stops on J, and a
    side already at J stays there; elsewhere it moves a whole level."""
    given = (
        _LEVEL_A_TIME[0][0],
        'id = "a_level"\nsanction = { levels = { opponent = 1 } }\nclause = { ref = "第十四条"',
    )
    club = _draft("hbue-2018", given)
    for ew, after in (("4", "5"), ("10", "J"), ("J", "J"), ("Q", "K")):
        # NS deal at 5 and hold the defenders to 60 (+1); South's wrong follow gives EW a level
        hand = judge(
            _round(
                {"defender_points": 60, "infractions": [_wrong_follow("S")]}, levels={"NS": "5", "EW": ew}
            ),
            rulebook=club,
        )["hands"][0]
        assert hand["rulings"][0]["levels"] == {"NS": 0, "EW": 1}
        assert hand["levels_after"] == {"NS": "6", "EW": after}, ew


def test_the_times_are_the_offending_sides_and_a_hand_in_play_loses_its_level_when_scored() -> None:
    club = _draft("hbue-2018", *_LEVEL_A_TIME)
    # NS twice, EW once: nobody's third time
    three = [{"defender_points": 40, "infractions": [_wrong_follow(seat)]} for seat in ("N", "E", "S")]
    out = judge(_round(*three, levels={"NS": "5", "EW": "5"}), rulebook=club)
    assert out["forfeit"] is None
    assert [h["rulings"][0]["occurrence"] for h in out["hands"]] == [1, 1, 2]
    in_play = judge(_round({"in_progress": True, "infractions": [_wrong_follow("N")]}), rulebook=club)
    hand = in_play["hands"][0]
    assert hand["in_progress"] and hand["rulings"][0]["levels"] == {"NS": -1, "EW": 0}
    assert hand["levels_after"] == {"NS": "2", "EW": "2"}  # nothing moves until the hand is scored


def test_a_level_taken_before_play_moves_the_levels_the_first_hand_starts_from() -> None:
    """A level change ruled before the first hand (a club's 迟到扣一级) was worded to the
    referee ("南北方降1级") and then moved nothing: it now moves the round's starting levels."""
    club = _draft(
        "bhg-2011",
        (
            'id = "under_ten"\nsanction = { warning = true }',
            'id = "under_ten"\nsanction = { levels = { offender = -1 } }',
        ),
    )
    late = {"kind": "late_arrival", "seat": "N", "minutes": 5}
    out = judge(
        _round({"defender_points": 40}, levels={"NS": "5", "EW": "5"}, finished="time", before_play=[late]),
        rulebook=club,
    )
    assert out["before_play"][0]["levels"] == {"NS": -1, "EW": 0}
    assert out["hands"][0]["levels_before"] == {"NS": "4", "EW": "5"}
    # North-South deal from 4 and keep the deal with 40 (+1): 5, level with East-West
    assert out["hands"][0]["levels_after"] == {"NS": "5", "EW": "5"}
    # the round ended before a hand: the result stands on the moved levels
    out = judge(_round(levels={"NS": "5", "EW": "5"}, finished="time", before_play=[late]), rulebook=club)
    assert out["result"]["levels"] == {"NS": "4", "EW": "5"} and out["result"]["winner"] == "EW"
    # a voided ruling moves nothing
    voided = {**late, "void": {"reason": "到场时间记错"}}
    out = judge(_round(levels={"NS": "5", "EW": "5"}, finished="time", before_play=[voided]), rulebook=club)
    assert out["result"]["levels"] == {"NS": "5", "EW": "5"}


def test_a_tie_nothing_decides_is_marked_even_where_every_clause_is_printed() -> None:
    """The result of a tie no rule decides (an open grab after the last hand; nobody's level
    moved) is marked on its own, not only through an assumed match points clause."""
    printed = (
        'en = "Knockout: the winner goes on; 2/1/0 match points are recorded.", assumed = true,',
        'en = "Knockout: the winner goes on; 2/1/0 match points are recorded.",',
    )
    club = _draft("hbue-2018", _HOLDS_DEAL, printed)
    both = _round(
        {"defender_points": 20, "infractions": [_miscount_by("N"), _miscount_by("E")]},
        levels={"NS": "5", "EW": "5"},
        finished="time",
    )
    out = judge(both, rulebook=club)
    assert out["hands"][0]["assumed"] is False
    assert out["result"]["decided_by"] == "tie_unresolved" and out["result"]["assumed"] is True
    held = judge(
        _round({"defender_points": 80}, levels={"NS": "3", "EW": "3"}, finished="time"), rulebook=club
    )
    assert held["result"]["decided_by"] == "tie_holds_deal_at_end" and held["result"]["assumed"] is False
    first = _draft("hbue-2018", printed)
    out = judge(both, rulebook=first)  # reached_level_first, and neither level moved
    assert out["result"]["decided_by"] == "tie_unresolved" and out["result"]["assumed"] is True


_LOTS_CLAUSE = (
    'tie_clause = { ref = "比赛方法", title = "平局", zh = "先过A者或级数高者为胜，胜者得积分2分，平得1分。", '
    'en = "Equal levels at the end of the round: a draw, 1 match point each." }',
    'tie_clause = { ref = "第九条", title = "同级", zh = "比赛时间到双方级数相同时，抽签决定胜负。", '
    'en = "Equal levels when time is called: lots decide." }',
)


@pytest.mark.parametrize(
    ("tie", "how", "decided_by"), [("lots", "lots", "tie_lots"), ("referee", "decision", "tie_referee")]
)
def test_a_tie_left_to_lots_or_the_referee_awaits_the_decision_with_no_points(
    tie: str, how: str, decided_by: str
) -> None:
    """第九条 "比赛时间到双方级数相同时，抽签决定胜负" (and its 裁判长裁定 variant, DOMAIN §5
    "Level tie on time: the dealer side wins, a draw, lots, or the referee decides"): the judged
    round names no winner and gives no match points; it says what it awaits and cites the
    clause. Unequal levels are still decided by the levels, not by the tie's rule."""
    club = _draft("bhg-2011", ('tie = "draw"', f'tie = "{tie}"'), _LOTS_CLAUSE)
    tied = judge(_round(levels={"NS": "5", "EW": "5"}, finished="time"), rulebook=club)["result"]
    assert tied["winner"] is None and tied["decided_by"] == decided_by
    assert tied["awaits"] == how and tied["match_points"] == {"NS": 0, "EW": 0}
    assert tied["citation"] == "第九条 同级" and tied["assumed"] is False
    ahead = judge(_round(levels={"NS": "5", "EW": "6"}, finished="time"), rulebook=club)["result"]
    assert ahead["winner"] == "EW" and ahead["decided_by"] == "levels" and "awaits" not in ahead
    assert ahead["match_points"] == {"NS": 0, "EW": 2}


# -- 5. a negative total that keeps adding levels (DOMAIN §5) --------------------------------

_NEGATIVE_MORE = (
    'negative_clause = { ref = "一、(十二)", title = "升级", zh = "（未载明）", en = "A total below 0 counts as 0.", '
    'assumed = true, note = "Reading: a penalty cannot push the defenders\' total below zero." }',
    'negative_total = "more_levels"\nnegative_step = 40\n'
    'negative_clause = { ref = "第七条", title = "负分", zh = "防守方得分为负分时，每再低40分，庄家方多升一级。", '
    'en = "A negative defender total: each further 40 points below zero, the dealer side one more level." }',
)


def _out_of_turn_cards(seat: str, cards: int) -> dict:
    return {"kind": "out_of_turn", "seat": seat, "cards": cards, "trick": 2, "discovered": 2}


def test_each_further_40_below_zero_gives_the_dealer_side_one_more_level() -> None:
    """DOMAIN §5: some events "let negative totals keep adding levels" — the club's text
    "防守方得分为负分时，每再低40分，庄家方多升一级": a total of 0 gives BHG's shut-out +3, each
    whole 40 below it one more (−40 +4, −80 +5); −35 is not yet a further 40. The club's
    clause is printed; BHG's reading of 0 as +3 (大光) still marks every such hand."""
    club = _draft("bhg-2011", _NEGATIVE_MORE)
    judged = {}
    for cards in (0, 3, 4, 8, 11):
        # E (a defender) plays out of turn: 10 points a card against the defenders' 0
        infractions = [_out_of_turn_cards("E", cards)] if cards else []
        hand = {"defender_points": 0, "infractions": infractions}
        out = judge(_round(hand), rulebook=club)["hands"][0]
        judged[out["defender_total"]] = (out["keep_deal"], out["levels_after"]["NS"], out["assumed"])
    assert judged == {
        0: (True, "5", True),  # 大光 +3
        -30: (True, "5", True),
        -40: (True, "6", True),  # one further 40: +4
        -80: (True, "7", True),  # two: +5
        -110: (True, "7", True),
    }
    # BHG itself counts the same hand as 0 (+3, its reading marked): unchanged
    bhg = judge(
        _round({"defender_points": 0, "infractions": [_out_of_turn_cards("E", 8)]}),
        rulebook=_draft("bhg-2011"),
    )
    assert bhg["hands"][0]["defender_total"] == 0 and bhg["hands"][0]["levels_after"]["NS"] == "5"
    assert bhg["hands"][0]["assumed"] is True


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (
            ("negative_clause = {", 'negative_total = "more_levels"\nnegative_clause = {'),
            'negative_step: required when negative_total = "more_levels"',
        ),
        (
            ("negative_clause = {", "negative_step = 40\nnegative_clause = {"),
            'negative_step: only with negative_total = "more_levels"',
        ),
    ],
)
def test_more_levels_below_zero_needs_its_step_and_the_step_its_option(
    edit: tuple[str, str], problem: str
) -> None:
    with pytest.raises(RulebookError) as caught:
        _draft("bhg-2011", edit)
    assert problem in str(caught.value)


# -- 6. a failed throw charged by the shape that blocked it (DOMAIN §5) ----------------------

_TIERS = (
    "sanction = { points_per_card = 10, rest_points_per_card = 10, instruction",
    "sanction = { points_by_blocker = { single = 10, pair = 20, tractor = 40, long_tractor = 60 }, instruction",
)


def _failed_throw(cards: int, blocked_by: str | None) -> dict:
    inf = {"kind": "failed_throw", "seat": "E", "cards": cards, "trick": 3}
    if blocked_by is not None:
        inf["blocked_by"] = blocked_by
    return inf


def test_a_failed_throw_costs_10_20_40_or_60_a_card_by_the_shape_that_blocked_it() -> None:
    """DOMAIN §5: a failed throw penalised by "tiers by the shape that beat it (10/20/40/60
    per card)" — 甩牌失败，被单张挡每张罚10分，被对子挡每张罚20分，被拖拉机挡每张罚40分，
    被三连对以上挡每张罚60分."""
    club = _draft("bhg-2011", _TIERS)
    points = {}
    for shape, cards in (("single", 1), ("pair", 2), ("tractor", 4), ("long_tractor", 6)):
        hand = {"defender_points": 40, "infractions": [_failed_throw(cards, shape)]}
        [ruling] = judge(_round(hand), rulebook=club)["hands"][0]["rulings"]
        points[shape] = ruling["points"]
    assert points == {"single": 10, "pair": 40, "tractor": 160, "long_tractor": 360}
    # without a tier of its own, a longer tractor is charged as a tractor
    short = _draft(
        "bhg-2011",
        (_TIERS[0], "sanction = { points_by_blocker = { single = 10, pair = 20, tractor = 40 }, instruction"),
    )
    hand = {"defender_points": 40, "infractions": [_failed_throw(6, "long_tractor")]}
    assert judge(_round(hand), rulebook=short)["hands"][0]["rulings"][0]["points"] == 240


def test_a_throw_charged_by_its_blocker_asks_which_shape_blocked_it() -> None:
    club = _draft("bhg-2011", _TIERS)
    hand = {"defender_points": 40, "infractions": [_failed_throw(2, None)]}
    with pytest.raises(CaseError) as caught:
        judge(_round(hand), rulebook=club)
    assert caught.value.field == "hands[0].infractions[0].blocked_by"
    assert caught.value.code == "case.blocked_by_required"
    assert caught.value.values == {"allowed": list(BLOCKERS), "rulebook": "club-2026"}
    assert str(caught.value) == (
        "hands[0].infractions[0].blocked_by: required: club-2026 charges a failed throw by the shape "
        "that blocked it (one of single, pair, tractor, long_tractor)"
    )
    assert "必填：规则 club-2026 按挡住甩牌的牌型" in describe(caught.value, "zh")
    # tiers for some shapes only: a longer tractor is still one where a tractor has a tier
    # (offered, and charged as a tractor), and a shape without a tier is refused naming the rest
    for tiers, blocked, allowed in (
        ("single = 10, pair = 20, tractor = 40", None, ["single", "pair", "tractor", "long_tractor"]),
        ("single = 10, pair = 20", "tractor", ["single", "pair"]),
        ("single = 10, pair = 20", "long_tractor", ["single", "pair"]),
        ("pair = 20, long_tractor = 60", "single", ["pair", "long_tractor"]),
    ):
        some = _draft(
            "bhg-2011", (_TIERS[0], f"sanction = {{ points_by_blocker = {{ {tiers} }}, instruction")
        )
        hand = {"defender_points": 40, "infractions": [_failed_throw(2, blocked)]}
        with pytest.raises(CaseError) as caught:
            judge(_round(hand), rulebook=some)
        assert caught.value.values["allowed"] == allowed, (tiers, blocked)
    pairs_only = _draft(
        "bhg-2011", (_TIERS[0], "sanction = { points_by_blocker = { pair = 20 }, instruction")
    )
    hand = {"defender_points": 40, "infractions": [_failed_throw(2, "pair")]}
    assert judge(_round(hand), rulebook=pairs_only)["hands"][0]["rulings"][0]["points"] == 40
    # the fact belongs to a failed throw only; and a tier table gives at least one tier
    with pytest.raises(CaseError, match="only for failed_throw"):
        judge(
            _round(
                {
                    "defender_points": 40,
                    "infractions": [{"kind": "wrong_play", "seat": "E", "blocked_by": "pair"}],
                }
            ),
            rulebook=club,
        )
    with pytest.raises(RulebookError, match="give the points of at least one blocking shape"):
        _draft("bhg-2011", (_TIERS[0], "sanction = { points_by_blocker = {}, instruction"))


def test_the_table_asks_what_blocked_a_throw_where_the_rule_or_a_step_of_its_counter_has_tiers() -> None:
    """The failed throw's dialog asks for the blocking shape, never guessed, where its rule
    is charged by tiers, or only its counter's later times are; BHG's does not ask."""
    from referee_app.core.catalogue import facts_required, fields_for

    club = _draft("bhg-2011", _TIERS).data
    assert "blocked_by" in fields_for(club, "failed_throw") and "blocked_by" in facts_required(
        club, "failed_throw"
    )
    bhg = _draft("bhg-2011").data
    assert "blocked_by" not in fields_for(bhg, "failed_throw")
    stepped = _draft(
        "bhg-2011",
        ('rest_counter = "exposed_card"', 'counter = "throws"\nrest_counter = "exposed_card"'),
        (
            "[counters.delay]",
            '[counters.throws]\nscope = "hand"\n[[counters.throws.steps]]\nfrom_count = 2\n'
            "sanction = { points_by_blocker = { single = 20, pair = 40 } }\n"
            'clause = { ref = "第八条", title = "甩牌失败", zh = "第二次起按挡牌牌型加倍罚分。", en = "From the 2nd time: by the blocking shape, doubled." }\n\n[counters.delay]',
        ),
    ).data
    assert "blocked_by" in facts_required(stepped, "failed_throw")
