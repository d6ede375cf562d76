"""The engine's mechanisms on the bundled rulebooks: dealers, counters, overrides, the round."""

from __future__ import annotations

from typing import Any

import pytest

from referee_app.core.engine import judge
from referee_app.core.errors import CaseError


def case(event: str, hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"event": event, "first_dealer": "E", "hands": hands, "finished": "open"}
    out.update(extra)
    return out


def hand(points: int = 60, *infractions: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"defender_points": points, "infractions": list(infractions), **extra}


def test_dealer_rotation_follows_the_deal() -> None:
    # E deals and keeps (40 → +1): partner W deals; W loses the deal: next seat S deals.
    out = judge(case("bhg-2011", [hand(40), hand(100), hand(0)]))
    dealers = [h["dealer"] for h in out["hands"]]
    assert dealers == ["E", "W", "S"]
    assert out["hands"][0]["levels_after"] == {"NS": "2", "EW": "3"}
    assert out["hands"][1]["levels_after"] == {"NS": "2", "EW": "3"}  # 100: deal changes, +0
    assert out["hands"][2]["levels_after"] == {"NS": "5", "EW": "3"}  # 0: dealer side +3
    assert out["hands"][2]["next_dealer"] == "N"


def test_bhg_exposed_card_escalates_on_the_third_time_in_a_hand() -> None:
    exposed = {"kind": "exposed_card", "seat": "N", "cards": 1, "trick": 2}
    out = judge(case("bhg-2011", [hand(60, exposed, exposed, dict(exposed, seat="S", cards=2))]))
    rulings = out["hands"][0]["rulings"]
    assert [r["points"] for r in rulings] == [10, 10, 0]
    assert [r["hand_lost"] for r in rulings] == [False, False, True]
    assert rulings[2]["occurrence"] == 3 and rulings[2]["escalated"]
    assert rulings[2]["citation"] == "二、4 暴露张累积3次"
    # Defenders (NS) lose: 60 − 20 − 80 → 0, dealer side EW +3, EW's partner deals next.
    assert out["hands"][0]["lost_by"] == "NS"
    assert out["hands"][0]["defender_total"] == 0
    assert out["hands"][0]["levels_after"] == {"NS": "2", "EW": "5"}
    assert out["hands"][0]["next_dealer"] == "W"


def test_bhg_counter_is_per_hand_and_per_side() -> None:
    exposed = {"kind": "exposed_card", "seat": "N"}
    out = judge(case("bhg-2011", [hand(60, exposed, exposed), hand(60, exposed, dict(exposed, seat="E"))]))
    assert [r["occurrence"] for r in out["hands"][0]["rulings"]] == [1, 2]
    assert [r["occurrence"] for r in out["hands"][1]["rulings"]] == [1, 1]
    assert not any(r["hand_lost"] for h in out["hands"] for r in h["rulings"])


def test_bhg_hidden_card_in_the_same_trick_counts_as_a_wrong_follow() -> None:
    wrong = {"kind": "wrong_play", "seat": "E", "trick": 3}
    hidden = {"kind": "hidden_card", "seat": "W", "trick": 5}
    out = judge(case("bhg-2011", [hand(60, wrong, wrong, hidden)]))
    rulings = out["hands"][0]["rulings"]
    assert rulings[2]["hand_lost"] and rulings[2]["occurrence"] == 3
    assert out["hands"][0]["lost_by"] == "EW"


def test_bhg_hand_loss_by_defenders_with_a_big_total_keeps_the_deal_without_gain() -> None:
    signal = {"kind": "illegal_signal", "seat": "N"}
    out = judge(case("bhg-2011", [hand(200, signal)]))
    h = out["hands"][0]
    assert h["defender_total"] == 120  # 200 − 80 would still take the deal …
    assert h["next_dealer"] == "W"  # … but the non-offending dealer side deals next
    assert h["levels_after"] == {"NS": "2", "EW": "2"}


def test_delay_warning_then_points() -> None:
    delay = {"kind": "delay", "seat": "S", "what": "follow"}
    out = judge(case("bhg-2011", [hand(60, delay, delay, delay), hand(60, delay)]))
    first, second = out["hands"]
    assert [(r["warning"], r["points"]) for r in first["rulings"]] == [
        (True, 0),
        (False, 10),
        (False, 10),
    ]
    assert [(r["warning"], r["points"]) for r in second["rulings"]] == [(True, 0)]


def test_gansu_third_illegal_signal_in_the_event_disqualifies_and_ends_the_round() -> None:
    signal = {"kind": "illegal_signal", "seat": "E"}
    out = judge(
        case("gansu-2018", [hand(30, signal)], history={"EW": {"illegal_signal": 2}}, finished="time")
    )
    ruling = out["hands"][0]["rulings"][0]
    assert ruling["disqualified"] and ruling["hand_lost"] and ruling["ends_hand"]
    assert ruling["occurrence"] == 3
    assert out["result"]["winner"] == "NS"
    assert out["forfeit"]["side"] == "EW"
    with pytest.raises(CaseError, match=r"hands\[1\]: the round ended at hand 1"):
        judge(case("gansu-2018", [hand(30, signal), hand(40)], history={"EW": {"illegal_signal": 2}}))


def test_gansu_illegal_signal_ends_the_hand_with_the_award_whatever_the_points() -> None:
    signal = {"kind": "illegal_signal", "seat": "N"}  # defenders offend: dealer side +3
    out = judge(
        case(
            "gansu-2018",
            [hand(150, signal, bottom={"points": 20, "captured": True, "shape": "pair"})],
        )
    )
    h = out["hands"][0]
    assert h["lost_by"] == "NS" and h["rulings"][0]["ends_hand"]
    assert h["levels_after"] == {"NS": "2", "EW": "5"}
    assert h["next_dealer"] == "W"


def test_level_award_never_leaves_the_non_offender_worse_than_its_points() -> None:
    # Gansu: dealer side (EW) hides a card that affects the result while the defenders
    # already hold 170: the award (+1) is less than the points give them (+2).
    hidden = {
        "kind": "hidden_card",
        "seat": "E",
        "trick": 3,
        "discovered": 5,
        "affects_result": True,
    }
    out = judge(case("gansu-2018", [hand(170, hidden)]))
    assert out["hands"][0]["levels_after"] == {"NS": "4", "EW": "2"}
    out = judge(case("gansu-2018", [hand(60, hidden)]))
    assert out["hands"][0]["levels_after"] == {"NS": "3", "EW": "2"}


def test_hbue_both_sides_losing_leaves_the_deal_open() -> None:
    count_e = {"kind": "wrong_card_count", "seat": "E", "phase": "after_bury", "cards": 1}
    count_n = dict(count_e, seat="N")
    out = judge(case("hbue-2018", [hand(60, count_e, count_n)]))
    h = out["hands"][0]
    assert h["lost_by"] == "both" and h["next_dealer"] is None
    assert h["levels_after"] == {"NS": "2", "EW": "2"}
    with pytest.raises(CaseError, match=r"hands\[1\]\.dealer: required"):
        judge(case("hbue-2018", [hand(60, count_e, count_n), hand(40)]))
    out = judge(case("hbue-2018", [hand(60, count_e, count_n), hand(40, dealer="S")]))
    assert out["hands"][1]["dealer"] == "S"


def test_given_dealer_must_match_the_derived_one() -> None:
    with pytest.raises(CaseError, match=r"hands\[1\]\.dealer: dealers after the first are derived"):
        judge(case("bhg-2011", [hand(40), hand(40, dealer="S")]))


def test_hbue_j_rule_and_redeclaration_bonus() -> None:
    out = judge(
        case(
            "hbue-2018",
            [
                hand(
                    70,
                    redeclarations=1,
                    bottom={"points": 10, "captured": True, "shape": "pair", "j": 2},
                ),
            ],
            levels={"NS": "5", "EW": "J"},
        )
    )
    h = out["hands"][0]
    # EW deal at J; NS capture with a pair of J: EW drop to 2, NS take the deal with their
    # points (70 + 40 = 110: +0); the first hand earns no re-declaration bonus.
    assert h["decided_by"] == "j_rule"
    assert h["levels_after"] == {"NS": "5", "EW": "2"}
    assert h["next_dealer"] == "N"


def test_passing_a_wins_the_round_and_nothing_may_follow() -> None:
    out = judge(case("bhg-2011", [hand(40)], levels={"NS": "5", "EW": "A"}))
    assert out["result"]["winner"] == "EW" and out["result"]["passed_a"]
    assert out["result"]["match_points"] == {"NS": 0, "EW": 2}
    with pytest.raises(CaseError, match="passed A|过A"):
        judge(case("bhg-2011", [hand(40), hand(40)], levels={"NS": "5", "EW": "A"}))


def test_override_replaces_the_ruling_and_keeps_the_proposal() -> None:
    exposed = {
        "kind": "exposed_card",
        "seat": "N",
        "cards": 2,
        "override": {"sanctions": ["warning"], "reason": "牌掉落系裁判碰撞所致"},
    }
    out = judge(case("bhg-2011", [hand(60, exposed)]))
    ruling = out["hands"][0]["rulings"][0]
    assert ruling["overridden"] and ruling["warning"] and ruling["points"] == 0
    assert ruling["override_reason"] == "牌掉落系裁判碰撞所致"
    assert ruling["proposed"]["points"] == 20
    assert "裁判改判" in ruling["text"]


def test_override_without_reason_is_refused() -> None:
    exposed = {
        "kind": "exposed_card",
        "seat": "N",
        "override": {"sanctions": ["warning"], "reason": " "},
    }
    with pytest.raises(CaseError, match=r"hands\[0\]\.infractions\[0\]\.override\.reason"):
        judge(case("bhg-2011", [hand(60, exposed)]))


def test_discretionary_points_need_the_referees_choice_within_range() -> None:
    misconduct = {"kind": "misconduct", "seat": "W", "points": 30}
    out = judge(case("bhg-2011", [hand(60, misconduct)]))
    assert out["hands"][0]["rulings"][0]["points"] == 30
    with pytest.raises(CaseError, match="outside bhg-2011's range for misconduct, 10–70"):
        judge(case("bhg-2011", [hand(60, dict(misconduct, points=80))]))
    with pytest.raises(CaseError, match="not a discretionary penalty"):
        judge(case("bhg-2011", [hand(60, {"kind": "exposed_card", "seat": "W", "points": 30})]))


def test_forfeit_before_play() -> None:
    out = judge(
        case(
            "bhg-2011",
            [],
            before_play=[{"kind": "late_arrival", "side": "NS", "minutes": 10}],
            finished="time",
        )
    )
    assert out["forfeit"]["side"] == "NS"
    assert out["result"]["match_points"] == {"NS": 0, "EW": 2}
    assert out["result"]["levels"] == {"NS": "2", "EW": "3"}
    assert out["before_play"][0]["round_forfeit"]
    out = judge(
        case(
            "bhg-2011",
            [hand(60)],
            before_play=[{"kind": "late_arrival", "side": "NS", "minutes": 9}],
        )
    )
    assert out["forfeit"] is None and out["before_play"][0]["warning"]
    assert out["before_play"][0]["assumed"]


def test_result_on_time_ties_follow_each_event() -> None:
    bhg = judge(case("bhg-2011", [hand(100), hand(40)], finished="time"))
    # E deals, NS take the deal (+0); N deals and keeps (+1): NS 3, EW 2.
    assert bhg["result"]["winner"] == "NS" and bhg["result"]["level_difference"] == {
        "NS": 1,
        "EW": -1,
    }
    draw = judge(case("gansu-2018", [], finished="time"))
    assert draw["result"]["winner"] is None and draw["result"]["match_points"] == {"NS": 1, "EW": 1}
    # HBUE: both reach 3; EW got there first (hand 1), NS in hand 2.
    hbue = judge(case("hbue-2018", [hand(40), hand(120)], finished="time"))
    assert hbue["result"]["levels"] == {"NS": "3", "EW": "3"}
    assert hbue["result"]["winner"] == "EW" and hbue["result"]["decided_by"] == "tie_reached_first"


def test_english_texts() -> None:
    out = judge(case("bhg-2011", [hand(60, {"kind": "exposed_card", "seat": "N"})]), lang="en")
    text = out["hands"][0]["rulings"][0]["text"]
    assert text.startswith(
        "Exposed card (North): 10 penalty points taken off North-South's total (the defenders)"
    )
    assert "二、4" in text


def test_unknown_event_names_the_field() -> None:
    with pytest.raises(CaseError, match=r"^event: nosuch-2099: no bundled rulebook"):
        judge(case("nosuch-2099", []))


def test_a_voided_ruling_is_shown_but_has_no_effect_and_does_not_count() -> None:
    exposed = {"kind": "exposed_card", "seat": "N"}
    voided = dict(exposed, void={"reason": "误记：该牌为合法出牌"})
    out = judge(case("bhg-2011", [hand(60, exposed, voided, exposed)]))
    rulings = out["hands"][0]["rulings"]
    assert [r["voided"] for r in rulings] == [False, True, False]
    assert rulings[1]["void_reason"] == "误记：该牌为合法出牌"
    assert rulings[1]["text"].startswith("【已撤销：误记：该牌为合法出牌】")
    assert rulings[2]["occurrence"] == 2 and not rulings[2]["hand_lost"]  # not the 3rd
    assert out["hands"][0]["penalty_points"] == -20


def test_void_needs_a_reason() -> None:
    with pytest.raises(
        CaseError, match=r"infractions\[0\]\.void\.reason: voiding a ruling needs a written reason"
    ):
        judge(case("bhg-2011", [hand(60, {"kind": "exposed_card", "seat": "N", "void": {"reason": ""}})]))


def test_a_hand_in_progress_carries_rulings_and_counts_but_is_not_scored() -> None:
    exposed = {"kind": "exposed_card", "seat": "N"}
    out = judge(
        case("bhg-2011", [hand(60, exposed, exposed), {"in_progress": True, "infractions": [exposed]}])
    )
    current = out["hands"][1]
    assert current["in_progress"] and current["defender_total"] is None
    assert current["levels_after"] == current["levels_before"] == {"NS": "2", "EW": "3"}
    assert current["rulings"][0]["occurrence"] == 1  # a new hand: the count starts again
    out = judge(case("bhg-2011", [{"in_progress": True, "infractions": [exposed, exposed, exposed]}]))
    assert out["hands"][0]["rulings"][2]["hand_lost"]
    assert out["result"] is None
    with pytest.raises(CaseError, match=r"hands\[0\]\.in_progress: only the last hand"):
        judge(case("bhg-2011", [{"in_progress": True}, hand(60)]))


def test_a_forfeit_during_play_keeps_the_opponents_lead_on_the_board() -> None:
    signal = {"kind": "illegal_signal", "seat": "N"}  # NS defend; 3rd signal in the event
    out = judge(
        case("gansu-2018", [hand(30, signal)], history={"NS": {"illegal_signal": 2}}, finished="time")
    )
    # EW dealt at 2 and get +3 for the defenders' signal: 5 against 2 on the board, more
    # than the 3:2 a forfeit records, so the board's levels stand.
    assert out["result"]["winner"] == "EW"
    assert out["result"]["levels"] == {"NS": "2", "EW": "5"}
    assert out["result"]["level_difference"] == {"NS": -3, "EW": 3}
    assert "东西方续庄并升3级" in out["hands"][0]["rulings"][0]["text"]


def test_an_unknown_field_with_a_line_break_is_quoted_on_one_line() -> None:
    with pytest.raises(CaseError) as caught:
        judge({"event": "bhg-2011", "first_dealer": "E", "finished": "open", "hands": [], "a\nb": 1})
    assert str(caught.value).startswith('"a\\nb": unknown field')


def test_the_fields_asked_for_follow_the_rulebook() -> None:
    from referee_app.core.catalogue import fields_for
    from referee_app.core.rulebook import load_rulebook

    bhg, gansu, hbue = (load_rulebook(r).data for r in ("bhg-2011", "gansu-2018", "hbue-2018"))
    assert fields_for(bhg, "exposed_card") == ("cards", "trick")  # BHG: 10 a card, light or heavy
    assert fields_for(gansu, "exposed_card") == ("cards", "trick", "severity")
    assert fields_for(gansu, "hidden_card") == ("cards", "trick", "discovered", "affects_result")
    assert fields_for(gansu, "hidden_card") != fields_for(bhg, "hidden_card")
    assert "discovered" in fields_for(hbue, "wrong_play") and "discovered" not in fields_for(
        bhg, "wrong_play"
    )
    # BHG 二: 停赛 and 取消比赛资格 are the referee's to choose for misconduct; Gansu 七 leaves
    # discipline beyond points to the organisers
    assert fields_for(bhg, "misconduct") == ("points", "suspension_rounds", "disqualified")
    assert fields_for(gansu, "misconduct") == ("points",)
    # BHG 二、5: the unblocked cards of a failed throw are charged as exposed, so it asks how many were thrown
    assert "thrown" in fields_for(bhg, "failed_throw") and "thrown" not in fields_for(gansu, "failed_throw")
    assert fields_for(bhg, "wrong_card_count") == ("phase", "cards")
