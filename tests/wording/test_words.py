"""The words say what the rule does (issue 23, item 5), each pinned from the seed's text:
000 = BHG 2011, 001 = Gansu 2018, 004 = HBUE 2018."""

from __future__ import annotations

from typing import Any

from referee_app.core.engine import judge
from referee_app.core.text import forfeit_text, sanctions_text


def case(event: str, hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"event": event, "first_dealer": "E", "hands": hands, "finished": "open", **extra}


def hand(points: int, *infractions: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"defender_points": points, "infractions": list(infractions), **extra}


def test_penalty_points_say_who_loses_them_and_who_gains_them() -> None:
    # 004 规则四、(二)(1)「庄家出错，罚分计入拣分方的得分；拣分方出错，则从其拣分中扣减」; BHG
    # 二、4 暴露张 每张罚10分 moves the defenders' total the same way. E deals: EW the dealer side.
    by_defender = judge(case("bhg-2011", [hand(60, {"kind": "exposed_card", "seat": "N"})]))["hands"][0]
    assert by_defender["defender_total"] == 50
    assert "罚10分，从南北方（防守方）得分中扣除" in by_defender["rulings"][0]["text"]
    by_dealer = judge(case("bhg-2011", [hand(60, {"kind": "exposed_card", "seat": "E"})]))["hands"][0]
    assert by_dealer["defender_total"] == 70
    assert "罚10分，计入南北方（防守方）得分" in by_dealer["rulings"][0]["text"]
    assert "计入东西方" not in by_dealer["rulings"][0]["text"]
    en = judge(case("bhg-2011", [hand(60, {"kind": "exposed_card", "seat": "E"})]), lang="en")
    assert (
        "10 penalty points on East-West, added to North-South's total (the defenders)"
        in (en["hands"][0]["rulings"][0]["text"])
    )


def test_a_gain_stopped_by_a_level_that_must_be_played_says_where_it_stopped() -> None:
    # 004 规则三、(六)「每场牌局J为必打级牌，不得因升级跳过」: EW at 9 keep the deal with 0 points
    # (the engine's gain, more than 2) and stop at J, 2 up.
    out = judge(case("hbue-2018", [hand(0)], levels={"NS": "2", "EW": "9"}))["hands"][0]
    gain = out["gains"]["EW"]
    assert gain > 2 and out["levels_after"]["EW"] == "J"
    assert f"东西方连庄，应升{gain}级，止于J（必打级），实升2级" in out["text"]
    # 000 BHG: A must be played; from Q +3 stops at A
    out = judge(case("bhg-2011", [hand(0)], levels={"NS": "2", "EW": "Q"}))["hands"][0]
    assert out["levels_after"]["EW"] == "A" and "止于A（必打级），实升2级" in out["text"]
    en = judge(case("bhg-2011", [hand(0)], levels={"NS": "2", "EW": "Q"}), lang="en")["hands"][0]
    assert "+3, stopped at A (a level that must be played): up 2" in en["text"]
    plain = judge(case("bhg-2011", [hand(0)]))["hands"][0]  # nothing stopped it: no such words
    assert "止于" not in plain["text"] and "应升" not in plain["text"]


def test_a_round_lost_by_a_sanction_is_worded_by_its_cause() -> None:
    # 000 二、1「迟到10分钟以上判本轮弃权」
    late = judge(case("bhg-2011", [], before_play=[{"kind": "late_arrival", "side": "EW", "minutes": 12}]))
    assert forfeit_text(late, "zh") == "东西方判本轮弃权"
    # 001 六、六、E「累计三次传递非法信息的，取消违规方比赛资格」
    signal = {"kind": "illegal_signal", "seat": "E"}
    dq = judge(case("gansu-2018", [hand(30, signal)], history={"EW": {"illegal_signal": 2}}))
    assert forfeit_text(dq, "zh") == "东西方取消资格，本轮判负"
    assert forfeit_text(dq, "en") == "East-West: disqualified: the round is lost"
    assert forfeit_text(judge(case("bhg-2011", [hand(60)])), "zh") == ""


def test_both_sides_miscounting_word_no_award_that_does_not_happen() -> None:
    # 004 规则四、(一)「庄方违规，由对方上庄并升2级，非庄方违规则庄方续庄并升3级，双方违规则下副牌
    # 实行一次性抢庄」
    count_e = {"kind": "wrong_card_count", "seat": "E", "phase": "after_bury", "cards": 1}
    count_n = dict(count_e, seat="N")
    for lang in ("zh", "en"):
        h = judge(case("hbue-2018", [hand(60, count_e, count_n)]), lang=lang)["hands"][0]
        assert h["lost_by"] == "both"
        for r in h["rulings"]:
            assert "升" not in r["text"] and "+" not in r["text"], r["text"]
            assert ("结果见本副牌" if lang == "zh" else "see the hand's outcome") in r["text"]
        assert h["text"] == (
            "双方均判负，下一副一次性抢庄。"
            if lang == "zh"
            else ("both sides lose the hand; the next deal is an open grab.")
        )
    one = judge(case("hbue-2018", [hand(60, count_n)]))["hands"][0]  # one side: its award stands
    assert "东西方续庄并升3级" in one["rulings"][0]["text"]


def test_a_modified_appeal_s_sanctions_are_worded_like_a_ruling() -> None:
    assert sanctions_text(["warning"], "zh") == "警告"
    assert sanctions_text([{"points": 20, "against": "EW"}], "zh") == "罚20分（东西方）"
    assert sanctions_text(["warning", {"points": 10}], "en") == "warning; 10 points"
    assert sanctions_text([{"hand_loss": True, "against": "NS"}], "zh") == "判负（南北方）"
