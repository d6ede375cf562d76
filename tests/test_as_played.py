"""Hands as played (实际坐庄) and decisions that stay with their rulings, in the core: the engine
judges a hand dealt by another seat than the rotation now gives as dealt, marked assumed, and
``carry_forward`` keeps an earlier version's dealers and decisions in a submitted case."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from referee_app.core.editing import DecisionPlace, carry_forward, with_dealers
from referee_app.core.engine import judge
from referee_app.core.errors import CaseError


def round_of_three() -> dict[str, Any]:
    return {
        "event": "bhg-2011",
        "first_dealer": "N",
        "hands": [
            {"defender_points": 85},
            {
                "defender_points": 40,
                "infractions": [{"kind": "hidden_card", "seat": "W", "trick": 3, "discovered": 6}],
            },
            {"defender_points": 120, "bottom": {"points": 20, "captured": True, "shape": "single"}},
        ],
        "finished": "time",
    }


def test_a_hand_dealt_as_the_rotation_gives_is_not_marked() -> None:
    case = round_of_three()
    case["hands"][1]["dealt_by"] = "W"
    case["hands"][2]["dealt_by"] = "S"
    d = judge(case, lang="en")
    assert [h["dealer"] for h in d["hands"]] == ["N", "W", "S"]
    assert [h["dealer_by_rotation"] for h in d["hands"]] == [None, None, None]
    assert d == judge(round_of_three(), lang="en")


def test_a_hand_dealt_by_another_seat_stands_as_dealt_marked_assumed_with_its_clause() -> None:
    case = round_of_three()
    case["hands"][1]["infractions"][0]["override"] = {"sanctions": ["warning"], "reason": "改判"}
    case["hands"][2]["dealt_by"] = "S"
    d = judge(case, lang="zh")
    h3 = d["hands"][2]
    assert h3["dealer"] == "S" and h3["dealer_side"] == "NS" and h3["dealer_by_rotation"] == "E"
    assert h3["assumed"] and d["result"]["assumed"]
    assert h3["gains"] == {"NS": 0, "EW": 2} and h3["next_dealer"] == "E"
    assert "本副按实际发牌计：南家坐庄（按轮庄现应为东家；一、(五)，按假定）。" in h3["text"]
    en = judge(case, lang="en")["hands"][2]["text"]
    assert "Counted as dealt: South dealt (the rotation now gives East; 一、(五), assumed)." in en
    # without the record of who dealt, the rotation deals hand 3 and NS take its points
    case["hands"][2].pop("dealt_by")
    assert judge(case, lang="en")["hands"][2]["gains"] == {"NS": 2, "EW": 0}


def test_the_first_hands_dealer_is_first_dealer_whatever_dealt_by_says() -> None:
    case = round_of_three()
    case["hands"][0]["dealt_by"] = "E"
    with pytest.raises(CaseError) as err:
        judge(case)
    assert err.value.code == "case.first_dealer" and err.value.field == "hands[0].dealt_by"


def test_a_seat_outside_the_table_is_refused_as_dealt_by() -> None:
    case = round_of_three()
    case["hands"][1]["dealt_by"] = "X"
    with pytest.raises(CaseError) as err:
        judge(case)
    assert err.value.field == "hands[1].dealt_by"


def test_every_rulebook_states_the_as_played_reading_as_assumed() -> None:
    from referee_app.core.rulebook import load_rulebook

    for rb in ("bhg-2011", "gansu-2018", "hbue-2018"):
        clause = load_rulebook(rb).data["next_dealer"]["as_played_clause"]
        assert clause["assumed"] and clause["note"]


def test_with_dealers_records_who_dealt_each_hand_after_the_first() -> None:
    case = round_of_three()
    decision = judge(case, lang="en")
    kept = with_dealers(case, decision)
    assert [h.get("dealt_by") for h in kept["hands"]] == [None, "W", "S"]
    assert "dealt_by" not in case["hands"][1]  # the argument is left as it was


def test_carry_forward_keeps_the_earlier_dealers_and_decisions_a_case_file_does_not_name() -> None:
    earlier = with_dealers(round_of_three(), judge(round_of_three(), lang="en"))
    earlier["hands"][1]["infractions"][0]["override"] = {"sanctions": ["warning"], "reason": "申诉 #1 改判"}
    earlier_decision = judge(copy.deepcopy(earlier), lang="en")
    submitted = round_of_three()
    submitted["hands"][0]["defender_points"] = 90
    carried = carry_forward(earlier, earlier_decision, submitted)
    assert carried.dealers == (2, 3)
    assert carried.decisions == (DecisionPlace(2, 0, "hidden_card", "override"),)
    assert carried.touched == ()
    assert carried.case["hands"][1]["infractions"][0]["override"]["reason"] == "申诉 #1 改判"
    assert [h.get("dealt_by") for h in carried.case["hands"]] == [None, "W", "S"]
    assert "override" not in submitted["hands"][1]["infractions"][0]


def test_carry_forward_finds_a_decided_ruling_that_moved_within_its_hand() -> None:
    earlier = round_of_three()
    earlier["hands"][1]["infractions"][0]["void"] = {"reason": "申诉 #2 成立"}
    submitted = round_of_three()
    submitted["hands"][1]["infractions"].insert(0, {"kind": "delay", "seat": "N", "what": "lead", "trick": 1})
    carried = carry_forward(earlier, judge(copy.deepcopy(earlier), lang="en"), submitted)
    assert carried.touched == ()
    assert carried.case["hands"][1]["infractions"][1]["void"] == {"reason": "申诉 #2 成立"}
    assert "void" not in carried.case["hands"][1]["infractions"][0]


@pytest.mark.parametrize(
    "change",
    ["dropped", "facts", "other decision"],
)
def test_carry_forward_reports_a_decision_the_case_changes_or_drops(change: str) -> None:
    earlier = round_of_three()
    earlier["hands"][1]["infractions"][0]["override"] = {"sanctions": ["warning"], "reason": "改判"}
    submitted = round_of_three()
    inf = submitted["hands"][1]["infractions"][0]
    if change == "dropped":
        submitted["hands"][1]["infractions"] = []
    elif change == "facts":
        inf["discovered"] = 4
    else:
        inf["override"] = {"sanctions": [{"points": 20}], "reason": "另判"}
    carried = carry_forward(earlier, judge(copy.deepcopy(earlier), lang="en"), submitted)
    assert carried.touched == (DecisionPlace(2, 0, "hidden_card", "override"),)
    assert carried.decisions == ()


def test_carry_forward_keeps_no_dealer_when_the_first_dealer_was_corrected() -> None:
    earlier = with_dealers(round_of_three(), judge(round_of_three(), lang="en"))
    submitted = round_of_three()
    submitted["first_dealer"] = "E"
    carried = carry_forward(earlier, judge(copy.deepcopy(earlier), lang="en"), submitted)
    assert carried.dealers == () and all("dealt_by" not in h for h in carried.case["hands"])


def test_carry_forward_keeps_a_decision_before_play() -> None:
    earlier = round_of_three()
    earlier["before_play"] = [
        {"kind": "late_arrival", "side": "EW", "minutes": 12, "void": {"reason": "交通管制"}}
    ]
    submitted = round_of_three()
    submitted["before_play"] = [{"kind": "late_arrival", "side": "EW", "minutes": 12}]
    carried = carry_forward(earlier, judge(copy.deepcopy(earlier), lang="en"), submitted)
    assert carried.decisions == (DecisionPlace(0, 0, "late_arrival", "void"),)
    assert carried.case["before_play"][0]["void"] == {"reason": "交通管制"}


def j_rule_round(sanction: str, dealt: list[str | None] | None = None) -> dict[str, Any]:
    case: dict[str, Any] = {
        "event": "hbue-2018",
        "first_dealer": "E",
        "levels": {"NS": "2", "EW": "10"},
        "hands": [
            {
                "defender_points": 40,
                "infractions": [
                    {
                        "kind": "delay",
                        "seat": "W",
                        "what": "lead",
                        "override": {"sanctions": [sanction], "reason": "r"},
                    }
                ],
            },
            {"defender_points": 85},
            {"defender_points": 30, "bottom": {"points": 10, "captured": True, "shape": "single", "j": 1}},
        ],
        "finished": "time",
    }
    for i, seat in enumerate(dealt or []):
        if seat:
            case["hands"][i]["dealt_by"] = seat
    return case


def test_a_lighter_ruling_that_leaves_its_side_worse_is_found() -> None:
    from referee_app.core.editing import lighter_but_worse

    heavy = judge(j_rule_round("hand_loss"), lang="en")
    as_played = [None] + [h["dealer"] for h in heavy["hands"][1:]]
    light = judge(j_rule_round("warning", as_played), lang="en")
    assert light["hands"][2]["j_drop"] == "6"
    assert lighter_but_worse("EW", 1, heavy, light) == ("2/+7", "2/+4")
    # the other way round the ruling is heavier for EW: a heavier ruling may worsen its side
    assert lighter_but_worse("EW", 1, light, heavy) is None
    # and a lighter ruling that leaves the side better off is what an appeal is for
    plain = judge(round_of_three(), lang="en")
    relieved = round_of_three()
    relieved["hands"][1]["infractions"][0]["override"] = {"sanctions": ["warning"], "reason": "r"}
    relieved["hands"][2]["dealt_by"] = "S"
    assert lighter_but_worse("EW", 2, plain, judge(relieved, lang="en")) is None
