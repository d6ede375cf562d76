"""Tests that kill mutmut's surviving mutants of core/engine.py (issue 16).

Each test names the rule it pins: the event's clause (BHG 2011, Gansu 2018, HBUE 2018) or the
reading of DOMAIN.md written in the engine. Equivalent mutants are listed in
tools/mutation-equivalents.md.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from referee_app.core.engine import Ruling, decide, is_language_free, judge, word, word_ruling
from referee_app.core.errors import CaseError
from referee_app.core.rulebook import load_rulebook

BHG = load_rulebook("bhg-2011")
GANSU = load_rulebook("gansu-2018")
HBUE = load_rulebook("hbue-2018")


def case(event: str, hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"event": event, "first_dealer": "E", "hands": hands, "finished": "time"}
    out.update(extra)
    return out


def hand(points: int = 60, *infractions: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"defender_points": points, "infractions": list(infractions), **extra}


def decision(event: str, hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return decide(case(event, hands, **extra)).to_json()


def overridden(*sanctions: Any, **facts: Any) -> dict[str, Any]:
    """An exposed card by N (BHG 二、4: 10 points a card) that the referee rules otherwise."""
    inf = {"kind": "exposed_card", "seat": "N", "trick": 2, **facts}
    inf["override"] = {"reason": "裁判碰落", "sanctions": list(sanctions)}
    return inf


# -- overrides (改判: the referee's ruling in place of the computed one, CASE-FORMAT.md) ----------


def test_an_override_keeps_the_facts_and_the_proposal_and_takes_only_the_referees_sanctions() -> None:
    r = decision("bhg-2011", [hand(60, overridden("warning"))])["hands"][0]["rulings"][0]
    assert {
        k: r[k] for k in ("kind", "seat", "side", "against", "occurrence", "scope", "rule", "branch")
    } == {
        "kind": "exposed_card",
        "seat": "N",
        "side": "NS",
        "against": "NS",
        "occurrence": 1,
        "scope": "hand",
        "rule": "bhg-2011/exposed_card",
        "branch": "override",
    }
    assert r["citation"] == "二、4 暴露张" and r["label"] == {"zh": "暴露张", "en": "Exposed card"}
    assert r["warning"] is True and r["points"] == 0 and r["assumed"] is False
    assert r["overridden"] is True and r["override_reason"] == "裁判碰落"
    assert r["proposed"]["points"] == 10 and r["proposed"]["branch"] == "per_card"
    assert r["instruction"] is None and r["levels"] == {"NS": 0, "EW": 0}
    assert not (r["hand_lost"] or r["ends_hand"] or r["round_forfeit"] or r["disqualified"])
    assert r["suspension_rounds"] == 0


def test_an_override_of_an_assumed_reading_is_not_assumed() -> None:
    # BHG 二、1: a late arrival under 10 minutes is an assumed reading (a warning); the
    # referee's own ruling is his, not a reading of the text
    late = {"kind": "late_arrival", "side": "EW", "minutes": 3}
    proposed = decision("bhg-2011", [hand(60)], before_play=[late])["before_play"][0]
    assert proposed["assumed"] is True
    late["override"] = {"reason": "r", "sanctions": ["warning"]}
    ruled = decision("bhg-2011", [hand(60)], before_play=[late])["before_play"][0]
    assert ruled["assumed"] is False and ruled["proposed"]["assumed"] is True
    assert ruled["seat"] is None and ruled["side"] == "EW"


def test_override_points_add_up_and_go_against_the_offender_unless_said() -> None:
    r = decision("bhg-2011", [hand(60, overridden({"points": 5}, {"points": 7}))])["hands"][0]
    assert r["rulings"][0]["points"] == 12 and r["rulings"][0]["against"] == "NS"
    # NS defend (E deals): 12 against the defenders come off their 60
    assert r["penalty_points"] == -12 and r["defender_total"] == 48
    r2 = decision("bhg-2011", [hand(60, overridden({"points": 5, "against": "EW"}, {"points": 7}))])
    ruling = r2["hands"][0]["rulings"][0]
    assert ruling["points"] == 12 and ruling["against"] == "EW"
    assert r2["hands"][0]["defender_total"] == 72


def test_override_levels_add_up_per_side() -> None:
    out = decision("bhg-2011", [hand(60, overridden({"levels": {"NS": 1}}, {"levels": {"NS": 2, "EW": -1}}))])
    h = out["hands"][0]
    assert h["rulings"][0]["levels"] == {"NS": 3, "EW": -1}
    # 60: the dealer side EW keeps the deal, +1 (BHG 一、12); then the override's levels
    assert h["levels_after"] == {"NS": "5", "EW": "2"}


def test_override_hand_loss_and_ends_hand() -> None:
    lost = decision("bhg-2011", [hand(60, overridden("hand_loss"))])["hands"][0]
    assert lost["rulings"][0]["hand_lost"] is True and lost["rulings"][0]["ends_hand"] is False
    assert lost["lost_by"] == "NS"
    ended = decision("bhg-2011", [hand(60, overridden("ends_hand"))])["hands"][0]
    assert ended["rulings"][0]["hand_lost"] is True and ended["rulings"][0]["ends_hand"] is True
    assert ended["lost_by"] == "NS"


def test_override_hand_loss_before_play_is_refused() -> None:
    for word_ in ("hand_loss", "ends_hand"):
        late = {"kind": "late_arrival", "side": "EW", "minutes": 3}
        late["override"] = {"reason": "r", "sanctions": [word_]}
        with pytest.raises(CaseError, match=r"before_play\[0\]\.override: a hand loss needs a hand"):
            decide(case("bhg-2011", [hand(60)], before_play=[late]))


def test_override_round_forfeit_disqualification_suspension_and_instruction() -> None:
    out = decision("bhg-2011", [hand(60, overridden("round_forfeit"))])
    assert out["hands"][0]["rulings"][0]["round_forfeit"] is True
    assert out["forfeit"]["side"] == "NS" and out["result"]["winner"] == "EW"
    out = decision("bhg-2011", [hand(60, overridden("disqualified"))])
    assert out["hands"][0]["rulings"][0]["disqualified"] is True
    assert out["hands"][0]["rulings"][0]["round_forfeit"] is False
    assert out["forfeit"]["side"] == "NS"  # BHG: a disqualification forfeits the round
    r = decision("bhg-2011", [hand(60, overridden({"suspension_rounds": 2}, {"instruction": "重新发牌"}))])
    ruling = r["hands"][0]["rulings"][0]
    assert ruling["suspension_rounds"] == 2
    assert ruling["instruction"] == {"zh": "重新发牌", "en": "重新发牌"}
    assert ruling["warning"] is False


def test_override_words_each_language_and_the_proposal() -> None:
    out = judge(case("bhg-2011", [hand(60, overridden({"instruction": "重新发牌"}))]), lang="en")
    r = out["hands"][0]["rulings"][0]
    assert r["instruction"] == "重新发牌"
    assert isinstance(r["text"], str) and r["text"]
    assert isinstance(r["proposed"]["text"], str) and r["proposed"]["text"]
    assert r["proposed"]["instruction"] is None


# -- language-free decisions (issue 9: one decision, worded at the edges) -------------------------


def test_a_decision_is_language_free_until_worded() -> None:
    late = {"kind": "late_arrival", "side": "EW", "minutes": 3}
    d = decision("bhg-2011", [hand(60, {"kind": "exposed_card", "seat": "N"})], before_play=[late])
    assert is_language_free(d)
    worded = word(d, "zh", BHG)
    assert not is_language_free(worded)
    # words on a ruling before play alone, or on a ruling in a hand alone, are enough
    one = word(d, "zh", BHG)
    one["hands"][0]["rulings"][0].pop("text")
    one["hands"][0].pop("text")
    assert not is_language_free(one)
    two = word(d, "zh", BHG)
    two["before_play"][0].pop("text")
    two["hands"][0].pop("text")
    assert not is_language_free(two)


def test_an_old_decision_without_scope_or_keep_deal_is_not_language_free() -> None:
    d = decision("bhg-2011", [hand(60, {"kind": "exposed_card", "seat": "N"})])
    no_scope = {
        **d,
        "hands": [
            {
                **d["hands"][0],
                "rulings": [{k: v for k, v in d["hands"][0]["rulings"][0].items() if k != "scope"}],
            }
        ],
    }
    assert not is_language_free(no_scope)
    no_keep = {**d, "hands": [{k: v for k, v in d["hands"][0].items() if k != "keep_deal"}]}
    assert not is_language_free(no_keep)
    late = {"kind": "late_arrival", "side": "EW", "minutes": 3}
    d2 = decision("bhg-2011", [hand(60)], before_play=[late])
    d2["before_play"][0].pop("scope")
    assert not is_language_free(d2)
    # a hand still in progress has no keep_deal and is still language-free
    open_ = decision("bhg-2011", [hand(0, in_progress=True)], finished="open")
    assert open_["hands"][0]["in_progress"] and "keep_deal" in open_["hands"][0]
    open_["hands"][0].pop("keep_deal")
    assert is_language_free(open_)


def test_word_keeps_the_words_of_a_ruling_stored_with_them() -> None:
    old = {"kind": "exposed_card", "text": "旧文", "instruction": "旧指示"}
    assert word_ruling(dict(old), "en", BHG) == old
    stored = {"before_play": [dict(old)], "hands": [{"in_progress": False, "rulings": [dict(old)]}]}
    out = word(stored, "en", BHG)
    assert out["before_play"][0] == old and out["hands"][0]["rulings"][0] == old
    assert "text" not in out["hands"][0]  # a hand without keep_deal keeps what it has
    assert stored["before_play"][0] == old  # a copy: the stored decision is not changed


def test_word_a_hand_in_progress_in_each_language() -> None:
    d = decision("bhg-2011", [hand(0, in_progress=True)], finished="open")
    assert word(d, "zh", BHG)["hands"][0]["text"] == "本副牌进行中。"
    assert word(d, "en", BHG)["hands"][0]["text"] == "Hand in progress."


def test_word_picks_the_instruction_in_the_language_asked() -> None:
    r = Ruling(kind="exposed_card", seat="N", side="NS", against="NS", scope="hand")
    data = r.to_json()
    data["instruction"] = {"zh": "中", "en": "EN"}
    assert word_ruling(dict(data), "en", BHG)["instruction"] == "EN"
    assert word_ruling(dict(data), "zh", BHG)["instruction"] == "中"
    data["instruction"] = None
    assert word_ruling(dict(data), "zh", BHG)["instruction"] is None


def test_judge_refuses_a_language_it_does_not_have() -> None:
    with pytest.raises(ValueError, match="lang: expected zh or en, got 'fr'"):
        judge(case("bhg-2011", [hand(60)]), lang="fr")


def test_an_unknown_event_is_a_case_error_naming_the_event() -> None:
    with pytest.raises(CaseError, match=r"^event: "):
        judge(case("no-such-event", [hand(60)]))
    with pytest.raises(CaseError, match=r"^event: "):
        decide(case("no-such-event", [hand(60)]))


def test_a_rulebook_given_is_used_instead_of_the_events() -> None:
    # the case names BHG; judged with HBUE's rulebook its hand is scored by HBUE's bands (0: +5)
    out = decide(case("bhg-2011", [hand(0)]), rulebook=HBUE).to_json()
    assert out["event"] == "hbue-2018" and out["hands"][0]["gains"]["EW"] == 5
    assert judge(case("bhg-2011", [hand(0)]), rulebook=HBUE)["hands"][0]["gains"]["EW"] == 5


# -- a ruling as data -----------------------------------------------------------------------------


def test_a_ruling_comes_back_whole_from_its_data() -> None:
    proposed = Ruling(kind="exposed_card", seat="N", side="NS", against="NS", points=10, scope="hand")
    r = Ruling(
        kind="misconduct",
        seat="S",
        side="NS",
        against="EW",
        points=30,
        warning=True,
        hand_lost=True,
        award={"dealer_offends": 1, "defenders_offend": 2},
        ends_hand=True,
        round_forfeit=True,
        suspension_rounds=3,
        disqualified=True,
        levels={"NS": -1, "EW": 2},
        instruction={"zh": "中", "en": "en"},
        occurrence=4,
        scope="round",
        escalated=True,
        assumed=True,
        rule="bhg-2011/misconduct",
        branch="warning",
        citation="二、14",
        override_reason="why",
        proposed=proposed,
        void_reason="void",
        role="defenders",
        label={"zh": "行为", "en": "Misconduct"},
        infraction="hands[0].infractions[1]",
    )
    back = Ruling.from_json(r.to_json())
    assert back.to_json() == r.to_json()
    assert back.proposed is not None and back.proposed.points == 10
    data = r.to_json()
    assert data["overridden"] is True and data["voided"] is True
    assert data["void_reason"] == "void" and data["override_reason"] == "why"


def test_a_ruling_from_sparse_data_takes_the_defaults() -> None:
    back = Ruling.from_json({"kind": "delay", "side": "EW", "against": "EW"})
    assert back.to_json() == Ruling(kind="delay", seat=None, side="EW", against="EW").to_json()
    assert back.occurrence == 1 and back.points == 0 and back.levels == {} and back.label == {}
    assert back.rule == "" and back.branch == "" and back.citation == "" and back.infraction == ""
    assert back.proposed is None
    assert "void_reason" not in back.to_json() and "override_reason" not in back.to_json()


# -- scoring a hand (BHG 一、12 / Gansu / HBUE 通知: bands below 80, +1 a 40 from 80) -------------


def outcome(event: str, points: int, *infractions: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return decision(event, [hand(points, *infractions, **extra)])["hands"][0]


@pytest.mark.parametrize(
    ("points", "keep", "gain"),
    [
        (0, True, 3),
        (5, True, 2),
        (35, True, 2),
        (40, True, 1),
        (75, True, 1),
        (80, False, 0),
        (115, False, 0),
        (120, False, 1),
        (155, False, 1),
        (160, False, 2),
        (200, False, 3),
    ],
)
def test_bhg_bands_and_steps_at_each_boundary(points: int, keep: bool, gain: int) -> None:
    h = outcome("bhg-2011", points)
    assert h["keep_deal"] is keep and h["defender_total"] == points and h["decided_by"] == "points"
    # E deals (EW): keeping the deal gains EW the band; losing it gains NS the steps
    assert h["gains"] == ({"NS": 0, "EW": gain} if keep else {"NS": gain, "EW": 0})
    assert h["next_dealer"] == ("W" if keep else "N")


@pytest.mark.parametrize(("points", "gain"), [(0, 5), (5, 3), (35, 3), (40, 1), (75, 1)])
def test_hbue_dealer_bands(points: int, gain: int) -> None:
    assert outcome("hbue-2018", points)["gains"]["EW"] == gain


def test_hbue_defenders_gain_is_capped_at_five() -> None:
    # HBUE 通知: at most 5 levels. 200 + 12 exposed cards of the dealer side (12 × 10, against
    # the dealer side: + to the defenders) = 320 → (320 − 80) // 40 = 6, capped to 5
    big = {"kind": "exposed_card", "seat": "E", "cards": 12, "trick": 3}
    assert outcome("hbue-2018", 200, big)["gains"] == {"NS": 5, "EW": 0}
    four = {"kind": "exposed_card", "seat": "E", "cards": 8, "trick": 3}  # 280 → 5 exactly
    assert outcome("hbue-2018", 200, four)["gains"] == {"NS": 5, "EW": 0}
    # BHG has no cap: 320 → 6
    assert outcome("bhg-2011", 200, big)["gains"] == {"NS": 6, "EW": 0}


def test_a_negative_total_counts_as_zero() -> None:
    # the defenders (NS) lose 10 × 3 exposed cards from 20: −10 → 0, the dealer side's +3
    exposed = {"kind": "exposed_card", "seat": "N", "cards": 3, "trick": 2}
    h = outcome("bhg-2011", 20, exposed)
    assert h["penalty_points"] == -30 and h["defender_total"] == 0 and h["gains"]["EW"] == 3


def captured(points: int, shape: str, **more: Any) -> dict[str, Any]:
    return {"points": points, "captured": True, "shape": shape, **more}


@pytest.mark.parametrize(
    ("event", "bottom", "multiplier"),
    [
        ("bhg-2011", captured(10, "single"), 2),
        ("bhg-2011", captured(10, "pair"), 4),
        ("bhg-2011", captured(10, "tractor", pairs=2), 8),  # BHG: 2^(pairs+1)
        ("bhg-2011", captured(10, "tractor", pairs=3), 16),
        ("bhg-2011", captured(10, "throw", largest="pair"), 3),  # BHG: a throw ×3
        ("gansu-2018", captured(10, "tractor", pairs=2), 6),  # Gansu: 2 × (pairs + 1)
        ("gansu-2018", captured(10, "tractor", pairs=3), 8),
        ("gansu-2018", captured(10, "throw", largest="single"), 3),  # the larger of 3 and its largest
        ("gansu-2018", captured(10, "throw", largest="pair"), 4),
        ("gansu-2018", captured(10, "throw", largest="tractor", pairs=2), 6),
        ("hbue-2018", captured(10, "throw", largest="single"), 3),  # HBUE: its largest + 1
        ("hbue-2018", captured(10, "throw", largest="pair"), 5),
        ("hbue-2018", captured(10, "throw", largest="tractor", pairs=3), 9),
        ("hbue-2018", captured(10, "single"), 2),
        ("hbue-2018", captured(10, "pair"), 4),
    ],
)
def test_bottom_multiplier_by_event_and_shape(event: str, bottom: dict[str, Any], multiplier: int) -> None:
    h = outcome(event, 20, bottom=bottom)
    assert h["bottom_multiplier"] == multiplier
    assert h["bottom_points"] == 10 * multiplier
    assert h["defender_total"] == 20 + 10 * multiplier


def test_an_uncaptured_bottom_counts_nothing() -> None:
    h = outcome("bhg-2011", 20, bottom={"points": 10, "captured": False, "shape": "pair"})
    assert h["bottom_multiplier"] == 0 and h["bottom_points"] == 0 and h["defender_total"] == 20


# -- the J rule (HBUE 滑钩: a dealer side on J whose bottom the defenders take with a J) ----------


def j_hand(points: int, j: int, **extra: Any) -> dict[str, Any]:
    # a single holds one J, a pair two (规则三、(六) 单J抠底 / 对J抠底)
    return hand(points, bottom=captured(0, "single" if j < 2 else "pair", j=j), **extra)


def test_hbue_j_rule_single_j_drops_to_6_pair_to_2() -> None:
    one = decision("hbue-2018", [j_hand(40, 1)], levels={"NS": "5", "EW": "J"})["hands"][0]
    assert one["j_drop"] == "6" and one["decided_by"] == "j_rule" and one["keep_deal"] is False
    assert one["levels_after"] == {"NS": "5", "EW": "6"} and one["gains"] == {"NS": 0, "EW": 0}
    assert one["next_dealer"] == "N"
    two = decision("hbue-2018", [j_hand(40, 2)], levels={"NS": "5", "EW": "J"})["hands"][0]
    assert two["j_drop"] == "2" and two["levels_after"]["EW"] == "2"


def test_hbue_j_rule_defenders_keep_their_gain_from_80() -> None:
    h = decision("hbue-2018", [j_hand(120, 1)], levels={"NS": "5", "EW": "J"})["hands"][0]
    assert h["gains"] == {"NS": 1, "EW": 0} and h["levels_after"] == {"NS": "6", "EW": "6"}
    h = decision("hbue-2018", [j_hand(80, 1)], levels={"NS": "5", "EW": "J"})["hands"][0]
    assert h["gains"] == {"NS": 0, "EW": 0}


def test_hbue_j_rule_only_on_j_only_captured_only_with_a_j() -> None:
    not_j = decision("hbue-2018", [j_hand(40, 1)], levels={"NS": "5", "EW": "10"})["hands"][0]
    assert not_j["j_drop"] is None and not_j["decided_by"] == "points" and not_j["keep_deal"]
    no_j = decision("hbue-2018", [j_hand(40, 0)], levels={"NS": "5", "EW": "J"})["hands"][0]
    assert no_j["j_drop"] is None
    bhg = decision("bhg-2011", [j_hand(40, 1)], levels={"NS": "5", "EW": "J"})["hands"][0]
    assert bhg["j_drop"] is None  # BHG prints no J rule


# -- the round's end -----------------------------------------------------------------------------


def test_the_round_on_time_goes_to_the_higher_level_by_rank_not_by_text() -> None:
    # "10" ranks above "9" (a text comparison would say otherwise)
    out = decision("bhg-2011", [hand(80)], levels={"NS": "10", "EW": "9"})
    assert out["result"]["winner"] == "NS" and out["result"]["decided_by"] == "levels"
    assert out["result"]["match_points"] == {"NS": 2, "EW": 0}
    assert out["result"]["level_difference"] == {"NS": 1, "EW": -1}
    out = decision("bhg-2011", [hand(80)], levels={"NS": "9", "EW": "10"})
    assert out["result"]["winner"] == "EW" and out["result"]["match_points"] == {"NS": 0, "EW": 2}


def test_bhg_a_tie_on_time_is_a_draw() -> None:
    out = decision("bhg-2011", [hand(80)])
    r = out["result"]
    assert r["winner"] is None and r["decided_by"] == "tie_draw" and r["match_points"] == {"NS": 1, "EW": 1}
    assert r["passed_a"] is False and r["level_difference"] == {"NS": 0, "EW": 0}
    assert r["assumed"] is False


def test_hbue_a_tie_goes_to_the_side_that_reached_the_level_first() -> None:
    # hand 1: E deals, EW +1 (to 3); hand 2: W deals, 80 → NS deal, +0; hand 3: S deals, NS +1 (to 3)
    out = decision("hbue-2018", [hand(40), hand(80), hand(40)])
    assert out["hands"][2]["levels_after"] == {"NS": "3", "EW": "3"}
    r = out["result"]
    assert r["winner"] == "EW" and r["decided_by"] == "tie_reached_first"
    assert r["citation"].startswith(HBUE.data["round"]["tie_clause"]["ref"])
    # the other way round: NS reach 3 first (hand 1), then EW (hand 3)
    out = decision("hbue-2018", [hand(120), hand(80), hand(40)])
    assert out["hands"][2]["levels_after"] == {"NS": "3", "EW": "3"}
    assert out["result"]["winner"] == "NS"


def test_hbue_a_tie_with_nothing_moved_is_an_assumed_draw() -> None:
    out = decision("hbue-2018", [hand(80)])
    r = out["result"]
    assert r["winner"] is None and r["decided_by"] == "tie_unresolved" and r["assumed"] is True
    assert r["match_points"] == {"NS": 1, "EW": 1}


def test_an_open_round_has_no_result() -> None:
    assert decision("bhg-2011", [hand(40)], finished="open")["result"] is None


def test_passing_a_ends_the_round_and_decides_it() -> None:
    out = decision("bhg-2011", [hand(40)], levels={"NS": "2", "EW": "A"})
    h = out["hands"][0]
    assert h["passed_a"] is True and h["passed_a_side"] == "EW"
    r = out["result"]
    assert r["winner"] == "EW" and r["decided_by"] == "passed_a" and r["passed_a"] is True
    assert r["citation"].startswith(BHG.data["levels"]["pass_a_clause"]["ref"])
    with pytest.raises(CaseError, match=r"hands\[1\]: the round ended at hand 1 \(passed A by EW\)"):
        decide(case("bhg-2011", [hand(40), hand(40)], levels={"NS": "2", "EW": "A"}))


def test_a_round_forfeit_in_play_ends_the_round() -> None:
    forfeit = {"kind": "misconduct", "seat": "N", "disqualified": True}
    with pytest.raises(CaseError, match=r"hands\[1\]: the round ended at hand 1 \(round lost by NS\)"):
        decide(case("bhg-2011", [hand(40, forfeit), hand(40)]))


def late(side: str, minutes: int = 10) -> dict[str, Any]:
    return {"kind": "late_arrival", "side": side, "minutes": minutes}


def test_bhg_late_ten_minutes_forfeits_the_round_nine_does_not() -> None:
    # BHG 二、1: 10 minutes late forfeits the round (2 : 0 and levels 2 : 3)
    out = decision("bhg-2011", [], before_play=[late("NS", 10)])
    f = out["forfeit"]
    assert f["side"] == "NS" and f["match_points"] == {"NS": 0, "EW": 2}
    assert f["levels"] == {"NS": "2", "EW": "3"} and f["assumed"] is False
    r = out["result"]
    assert r["winner"] == "EW" and r["decided_by"] == "forfeit" and r["passed_a"] is False
    assert r["level_difference"] == {"NS": -1, "EW": 1} and r["levels"] == {"NS": "2", "EW": "3"}
    assert r["match_points"] == {"NS": 0, "EW": 2} and r["citation"] == f["citation"]
    assert out["hands"] == []
    nine = decision("bhg-2011", [hand(40)], before_play=[late("NS", 9)])
    assert nine["forfeit"] is None and nine["before_play"][0]["warning"] is True


def test_both_sides_forfeiting_before_play() -> None:
    out = decision("bhg-2011", [], before_play=[late("EW"), late("NS")])
    f = out["forfeit"]
    assert f["side"] == "both" and f["match_points"] == {"NS": 0, "EW": 0}
    assert f["levels"] == {"NS": "2", "EW": "2"}
    assert out["result"]["winner"] is None and out["result"]["match_points"] == {"NS": 0, "EW": 0}


def test_a_voided_forfeit_does_not_forfeit() -> None:
    voided = {**late("NS"), "void": {"reason": "the clock was wrong"}}
    out = decision("bhg-2011", [hand(40)], before_play=[voided])
    assert out["forfeit"] is None and out["before_play"][0]["voided"] is True
    assert out["before_play"][0]["round_forfeit"] is True


def test_a_forfeit_before_play_takes_no_hands() -> None:
    with pytest.raises(CaseError, match=r"^hands: the round was forfeited before play"):
        decide(case("bhg-2011", [hand(40)], before_play=[late("NS")]))


def test_a_forfeit_during_play_keeps_a_larger_lead_on_the_board() -> None:
    # EW lead 6 : 2 when NS forfeit (5, +1 in the hand): EW keep the 4-level lead rather than
    # 3 : 2 (a reading)
    forfeit = {"kind": "misconduct", "seat": "N", "disqualified": True}
    out = decision("bhg-2011", [hand(60, forfeit)], levels={"NS": "2", "EW": "5"})
    f = out["forfeit"]
    assert f["side"] == "NS" and f["levels"] == {"NS": "2", "EW": "6"} and f["assumed"] is True
    assert out["result"]["level_difference"] == {"NS": -4, "EW": 4}
    # a lead of exactly the printed one (2, +1 in the hand: 3 : 2): the printed levels, not assumed
    out = decision("bhg-2011", [hand(60, forfeit)], levels={"NS": "2", "EW": "2"})
    assert out["forfeit"]["levels"] == {"NS": "2", "EW": "3"} and out["forfeit"]["assumed"] is False


# -- a hand still being played (in_progress) ------------------------------------------------------


def test_a_hand_in_progress_keeps_its_rulings_and_moves_nothing() -> None:
    unreasonable = {"kind": "unreasonable_play", "seat": "N", "trick": 3}  # Gansu: an assumed reading
    out = decision(
        "gansu-2018", [hand(40), {"in_progress": True, "infractions": [unreasonable]}], finished="open"
    )
    h = out["hands"][1]
    assert (h["number"], h["dealer"], h["dealer_side"], h["in_progress"], h["decided_by"]) == (
        2,
        "W",
        "EW",
        True,
        "in_progress",
    )
    assert h["levels_before"] == h["levels_after"] == {"NS": "2", "EW": "3"}
    assert h["next_dealer"] is None and h["defender_total"] is None and h["keep_deal"] is False
    assert h["rulings"][0]["points"] == 20 and h["rulings"][0]["assumed"] is True
    assert h["assumed"] is True
    assert out["result"] is None
    voided = {**unreasonable, "void": {"reason": "误记"}}
    h = decision("gansu-2018", [{"in_progress": True, "infractions": [voided]}], finished="open")["hands"][0]
    assert h["assumed"] is False and h["rulings"][0]["voided"] is True
    assert decision("gansu-2018", [{"in_progress": True}], finished="open")["hands"][0]["assumed"] is False


def test_a_hand_ending_offence_scores_a_hand_in_progress_now() -> None:
    # Gansu 二、11: an illegal signal ends the hand (立即结束); the defenders (N) offend: the
    # dealer side keeps the deal with the printed 3 levels
    signal = {"kind": "illegal_signal", "seat": "N", "trick": 3}
    h = decision("gansu-2018", [{"in_progress": True, "infractions": [signal]}], finished="open")["hands"][0]
    assert h["in_progress"] is False and h["lost_by"] == "NS" and h["decided_by"] == "hand_loss"
    assert h["gains"] == {"NS": 0, "EW": 3} and h["keep_deal"] is True and h["next_dealer"] == "W"
    # a voided one does not
    voided = {**signal, "void": {"reason": "误记"}}
    h = decision("gansu-2018", [{"in_progress": True, "infractions": [voided]}], finished="open")["hands"][0]
    assert h["in_progress"] is True


# -- a hand lost (失去本副牌) ---------------------------------------------------------------------


def signal(seat: str) -> dict[str, Any]:
    return {"kind": "illegal_signal", "seat": seat, "trick": 3}


def test_bhg_a_hand_loss_shifts_80_points_against_the_offender() -> None:
    # BHG 二、12: the defenders (N) lose the hand: 60 − 80 → 0: the dealer side +3
    h = outcome("bhg-2011", 60, signal("N"))
    assert h["lost_by"] == "NS" and h["decided_by"] == "hand_loss" and h["defender_total"] == 0
    assert h["gains"] == {"NS": 0, "EW": 3} and h["keep_deal"] is True
    # the dealer side (E) loses it: 60 + 80 = 140: the defenders +1 and the deal
    h = outcome("bhg-2011", 60, signal("E"))
    assert h["lost_by"] == "EW" and h["defender_total"] == 140
    assert h["gains"] == {"NS": 1, "EW": 0} and h["keep_deal"] is False and h["next_dealer"] == "N"


def test_bhg_the_side_not_at_fault_deals_next_without_a_gain_when_the_points_say_otherwise() -> None:
    # the dealer side (E) loses the hand, but the defenders' 3 exposed cards leave 0 − 30 + 80 = 50:
    # the total would keep E's deal; the non-offending defenders take it, without a level (assumed)
    exposed = {"kind": "exposed_card", "seat": "N", "cards": 3, "trick": 2}
    h = outcome("bhg-2011", 0, signal("E"), exposed)
    assert h["defender_total"] == 50 and h["lost_by"] == "EW"
    assert h["keep_deal"] is False and h["gains"] == {"NS": 0, "EW": 0} and h["next_dealer"] == "N"
    assert h["assumed"] is True and h["rulings"][0]["assumed"] is True and h["rulings"][1]["assumed"] is False
    out = decision("bhg-2011", [hand(0, signal("E"), exposed)])
    assert out["result"]["assumed"] is True  # the result rests on the reading


def wrong_count(seat: str) -> dict[str, Any]:
    return {"kind": "wrong_card_count", "seat": seat, "phase": "after_bury"}


def test_gansu_defenders_losing_give_the_printed_award_or_the_better_points() -> None:
    # Gansu: defenders offend → the dealer side +2; at 60 the points give +1: the award stands
    # (every Gansu hand with a next dealer is marked: its rotation is not printed, 六、一)
    h = outcome("gansu-2018", 60, wrong_count("N"))
    assert h["gains"] == {"NS": 0, "EW": 2} and h["keep_deal"] is True and h["rulings"][0]["assumed"] is False
    assert h["lost_by"] == "NS" and h["decided_by"] == "hand_loss" and h["assumed"] is True
    # at 0 the points give +3: the better outcome, a reading (assumed)
    h = outcome("gansu-2018", 0, wrong_count("N"))
    assert h["gains"] == {"NS": 0, "EW": 3} and h["assumed"] is True and h["rulings"][0]["assumed"] is True


def test_gansu_the_dealer_side_losing_gives_the_defenders_the_award_or_the_better_points() -> None:
    h = outcome("gansu-2018", 100, wrong_count("E"))
    assert (
        h["gains"] == {"NS": 1, "EW": 0} and h["keep_deal"] is False and h["rulings"][0]["assumed"] is False
    )
    assert h["next_dealer"] == "N"
    h = outcome("gansu-2018", 160, wrong_count("E"))
    assert h["gains"] == {"NS": 2, "EW": 0} and h["rulings"][0]["assumed"] is True
    # below 80 the points would keep the deal: the award alone
    assert outcome("gansu-2018", 20, wrong_count("E"))["gains"] == {"NS": 1, "EW": 0}


def test_gansu_a_hand_ended_at_once_has_no_points_to_compare() -> None:
    # the dealer side's illegal signal ends the hand: the printed 2, not the 3 its 200 would give
    h = outcome("gansu-2018", 200, signal("E"))
    assert h["gains"] == {"NS": 2, "EW": 0} and h["rulings"][0]["assumed"] is False


def test_gansu_several_hand_losses_the_largest_award_stands_whatever_the_order() -> None:
    for infs in ([wrong_count("N"), signal("S")], [signal("S"), wrong_count("N")]):
        h = outcome("gansu-2018", 60, *infs)
        assert h["gains"] == {"NS": 0, "EW": 3}  # illegal signal: 3 against the defenders
        assert not any(r["assumed"] for r in h["rulings"])


def test_gansu_the_better_points_mark_only_the_ruling_with_the_largest_award() -> None:
    hidden = {"kind": "hidden_card", "seat": "S", "trick": 2, "discovered": 4, "affects_result": True}
    h = outcome("gansu-2018", 0, wrong_count("N"), hidden)  # both award 2; the points give 3
    assert h["gains"]["EW"] == 3
    assert [r["assumed"] for r in h["rulings"]] == [True, True]


def test_hbue_the_dealer_side_losing_still_takes_the_j_rules_drop() -> None:
    # HBUE: the dealer side (E, on J) loses the hand and the defenders took the bottom with a J
    wrong = {"kind": "wrong_play", "seat": "E", "trick": 2, "discovered": 3}
    out = decision(
        "hbue-2018", [hand(40, wrong, bottom=captured(0, "single", j=1))], levels={"NS": "5", "EW": "J"}
    )
    h = out["hands"][0]
    assert h["lost_by"] == "EW" and h["j_drop"] == "6" and h["gains"] == {"NS": 2, "EW": 0}
    assert h["levels_after"] == {"NS": "7", "EW": "6"}


def test_hbue_defenders_losing_with_a_j_capture_keep_the_hand_loss_not_the_j_rule() -> None:
    wrong = {"kind": "wrong_play", "seat": "N", "trick": 2, "discovered": 3}
    out = decision(
        "hbue-2018", [hand(40, wrong, bottom=captured(0, "single", j=1))], levels={"NS": "5", "EW": "J"}
    )
    h = out["hands"][0]
    assert h["j_drop"] is None and h["gains"] == {"NS": 0, "EW": 3} and h["keep_deal"] is True
    assert h["assumed"] is True and h["rulings"][0]["assumed"] is True  # two clauses meet: a reading
    plain = decision("hbue-2018", [hand(40, wrong)], levels={"NS": "5", "EW": "J"})["hands"][0]
    assert plain["assumed"] is False


def test_both_sides_losing_bhg_scores_the_points() -> None:
    # the reading (both sides losing is not printed) marks the round's result too
    assert decision("bhg-2011", [hand(60, signal("N"), signal("E"))])["result"]["assumed"] is True
    h = outcome("bhg-2011", 60, signal("N"), signal("E"))
    assert h["lost_by"] == "both" and h["decided_by"] == "points" and h["defender_total"] == 60
    assert h["gains"] == {"NS": 0, "EW": 1} and h["keep_deal"] is True
    assert h["assumed"] is True and all(r["assumed"] for r in h["rulings"])
    h = outcome("bhg-2011", 120, signal("N"), signal("E"))
    assert h["gains"] == {"NS": 1, "EW": 0} and h["keep_deal"] is False


def test_both_sides_losing_gansu_is_an_open_grab() -> None:
    out = decision("gansu-2018", [hand(60, wrong_count("N"), wrong_count("E")), hand(40, dealer="S")])
    h = out["hands"][0]
    assert h["lost_by"] == "both" and h["decided_by"] == "hand_loss" and h["next_dealer"] is None
    assert h["gains"] == {"NS": 0, "EW": 0} and h["levels_after"] == {"NS": "2", "EW": "2"}
    assert h["defender_total"] == 60
    assert h["keep_deal"] is False  # the next deal is grabbed: no side keeps it (stored so too)
    assert out["hands"][1]["dealer"] == "S" and out["hands"][1]["levels_after"] == {"NS": "3", "EW": "2"}
    with pytest.raises(
        CaseError, match=r"hands\[1\]\.dealer: required: the previous hand left the deal open"
    ):
        decide(case("gansu-2018", [hand(60, wrong_count("N"), wrong_count("E")), hand(40)]))


def test_both_sides_losing_hbue_is_printed_for_wrong_card_counts_only() -> None:
    h = outcome("hbue-2018", 60, wrong_count("N"), wrong_count("E"))
    assert h["lost_by"] == "both" and h["assumed"] is False
    wrong = {"kind": "wrong_play", "seat": "E", "trick": 2, "discovered": 3}
    h = outcome("hbue-2018", 60, wrong_count("N"), wrong)
    assert h["lost_by"] == "both" and h["assumed"] is True and all(r["assumed"] for r in h["rulings"])


# -- redeclarations (HBUE: +1 level each from the second hand) -----------------------------------


def test_hbue_redeclaration_bonus_from_the_second_hand() -> None:
    out = decision("hbue-2018", [hand(40, redeclarations=1), hand(40, redeclarations=2)])
    first, second = out["hands"]
    assert first["redeclaration_bonus"] == 0 and first["gains"] == {"NS": 0, "EW": 1}
    assert second["redeclaration_bonus"] == 2 and second["gains"] == {"NS": 0, "EW": 3}
    # the bonus goes to the side that gains the hand: here the defenders
    out = decision("hbue-2018", [hand(40), hand(120, redeclarations=1)])
    assert out["hands"][1]["gains"] == {"NS": 2, "EW": 0} and out["hands"][1]["assumed"] is False
    # on top of a printed hand-loss award: a reading
    wrong = {"kind": "wrong_play", "seat": "N", "trick": 2, "discovered": 3}
    out = decision("hbue-2018", [hand(40), hand(40, wrong, redeclarations=1)])
    assert out["hands"][1]["gains"] == {"NS": 0, "EW": 4} and out["hands"][1]["assumed"] is True
    assert (
        decision("bhg-2011", [hand(40), hand(40, redeclarations=2)])["hands"][1]["redeclaration_bonus"] == 0
    )


def test_no_redeclaration_bonus_in_an_open_grab() -> None:
    out = decision("hbue-2018", [hand(40), hand(60, wrong_count("N"), wrong_count("E"), redeclarations=1)])
    assert out["hands"][1]["redeclaration_bonus"] == 0 and out["hands"][1]["gains"] == {"NS": 0, "EW": 0}


# -- levels -----------------------------------------------------------------------------------------


def test_bhg_a_gain_stopped_at_a_is_an_assumed_reading() -> None:
    out = decision("bhg-2011", [hand(0)], levels={"NS": "2", "EW": "K"})
    h = out["hands"][0]
    assert h["levels_after"] == {"NS": "2", "EW": "A"} and h["assumed"] is True and h["passed_a"] is False
    assert out["result"]["assumed"] is True and out["result"]["winner"] == "EW"
    # HBUE prints the stop (its level clause is not assumed)
    out = decision("hbue-2018", [hand(0)], levels={"NS": "2", "EW": "10"})
    assert out["hands"][0]["levels_after"]["EW"] == "J" and out["hands"][0]["assumed"] is False


def test_a_rulings_level_change_is_applied_after_the_hand() -> None:
    out = decision("bhg-2011", [hand(60, overridden({"levels": {"EW": -1}}))], levels={"NS": "2", "EW": "5"})
    assert out["hands"][0]["levels_after"] == {"NS": "2", "EW": "5"}  # +1 for the hand, −1


# -- the dealer ---------------------------------------------------------------------------------


def test_the_first_hands_dealer_is_first_dealer() -> None:
    assert decision("bhg-2011", [hand(40, dealer="E")])["hands"][0]["dealer"] == "E"
    with pytest.raises(
        CaseError, match=r"^hands\[0\]\.dealer: the first hand's dealer is first_dealer \(E\), got S$"
    ):
        decide(case("bhg-2011", [hand(40, dealer="S")]))


def test_dealers_after_the_first_are_derived() -> None:
    assert decision("bhg-2011", [hand(40), hand(40, dealer="W")])["hands"][1]["dealer"] == "W"
    with pytest.raises(
        CaseError,
        match=r"^hands\[1\]\.dealer: dealers after the first are derived \(W deals this hand\), got N$",
    ):
        decide(case("bhg-2011", [hand(40), hand(40, dealer="N")]))


# -- which rule holds (the rulebook's conditions) -------------------------------------------------


def ruling_of(event: str, inf: dict[str, Any], points: int = 60, **extra: Any) -> dict[str, Any]:
    return decision(event, [hand(points, inf)], **extra)["hands"][0]["rulings"][0]


@pytest.mark.parametrize(
    ("phase", "branch"),
    [
        ("drawing", "during_play"),
        ("before_bottom", "before_bottom"),  # 二、3 names only 抓牌过程中或取底牌后: a reading
        ("after_bury", "during_play"),
        ("end_of_hand", "end_of_hand"),
    ],
)
def test_bhg_wrong_card_count_by_phase(phase: str, branch: str) -> None:
    r = ruling_of("bhg-2011", {"kind": "wrong_card_count", "seat": "N", "phase": phase, "cards": 2})
    assert r["branch"] == branch and r["hand_lost"] is (branch == "end_of_hand")
    assert r["points"] == (0 if branch == "end_of_hand" else 20)
    assert r["assumed"] is (branch == "before_bottom")


@pytest.mark.parametrize(
    ("discovered", "branch", "points", "lost"),
    [(5, "same_trick", 10, False), (6, "next_trick", 20, False), (7, "later", 0, True)],
)
def test_bhg_hidden_card_by_tricks_until_found(discovered: int, branch: str, points: int, lost: bool) -> None:
    r = ruling_of("bhg-2011", {"kind": "hidden_card", "seat": "N", "trick": 5, "discovered": discovered})
    assert (r["branch"], r["points"], r["hand_lost"]) == (branch, points, lost)


def test_bhg_wrong_declaration_cites_its_clause_and_the_exposed_cards_one() -> None:
    r = ruling_of("bhg-2011", {"kind": "wrong_declaration", "seat": "N", "trick": 1})
    rules = BHG.data["infractions"]
    outer = rules["wrong_declaration"]["rules"][0]["clause"]
    inner = rules["exposed_card"]["rules"][0]["clause"]
    assert r["citation"] == f"{outer['ref']} {outer['title']}（{inner['ref']} {inner['title']}）"
    assert r["scope"] == "hand" and r["occurrence"] == 1 and r["branch"] == "as_exposed"
    assert r["points"] == 10


def test_bhg_hidden_card_in_the_same_trick_counts_as_a_wrong_play() -> None:
    wrong = {"kind": "wrong_play", "seat": "N", "trick": 1}
    h = outcome("bhg-2011", 60, wrong, wrong, {"kind": "hidden_card", "seat": "S", "trick": 5})
    assert h["rulings"][2]["occurrence"] == 3 and h["rulings"][2]["hand_lost"] is True


def test_bhg_wrong_declaration_counts_toward_the_exposed_cards() -> None:
    # BHG: a wrong declaration is treated as exposed cards (same_as) and counted with them
    exposed = {"kind": "exposed_card", "seat": "N", "trick": 1}
    declared = {"kind": "wrong_declaration", "seat": "N", "trick": 3}
    h = outcome("bhg-2011", 60, exposed, exposed, declared)
    r = h["rulings"][2]
    assert r["occurrence"] == 3 and r["escalated"] is True and r["hand_lost"] is True
    assert r["instruction"] is not None


@pytest.mark.parametrize(("severity", "points"), [("light", 10), ("heavy", 20)])
def test_gansu_exposed_card_by_severity(severity: str, points: int) -> None:
    assert (
        ruling_of("gansu-2018", {"kind": "exposed_card", "seat": "N", "severity": severity})["points"]
        == points
    )


@pytest.mark.parametrize(("affects", "points", "lost"), [(False, 40, False), (True, 0, True)])
def test_gansu_hidden_card_established_by_whether_it_affects_the_result(
    affects: bool, points: int, lost: bool
) -> None:
    r = ruling_of(
        "gansu-2018",
        {"kind": "hidden_card", "seat": "N", "trick": 2, "discovered": 3, "affects_result": affects},
    )
    assert (r["points"], r["hand_lost"]) == (points, lost)


@pytest.mark.parametrize(
    ("minutes", "at_draw", "branch"),
    [
        (4, False, "under_five"),
        (5, False, "five_minutes"),
        (5, True, "away_at_draw_short"),
        (6, True, "away_at_draw"),
    ],
)
def test_hbue_late_arrival_by_minutes_and_at_the_draw(minutes: int, at_draw: bool, branch: str) -> None:
    inf = {"kind": "late_arrival", "side": "NS", "minutes": minutes, "at_draw": at_draw}
    forfeits = branch in ("five_minutes", "away_at_draw")  # a forfeited round has no hands
    out = decision("hbue-2018", [] if forfeits else [hand(40)], before_play=[inf])
    assert out["before_play"][0]["branch"] == branch
    assert out["before_play"][0]["round_forfeit"] is forfeits


def test_bhg_misconduct_the_referees_choice_picks_the_rule() -> None:
    assert ruling_of("bhg-2011", {"kind": "misconduct", "seat": "N"})["branch"] == "warning"
    r = ruling_of("bhg-2011", {"kind": "misconduct", "seat": "N", "points": 30})
    assert r["branch"] == "discretionary_points" and r["points"] == 30
    r = ruling_of("bhg-2011", {"kind": "misconduct", "seat": "N", "suspension_rounds": 2})
    assert r["branch"] == "suspension" and r["suspension_rounds"] == 2
    out = decision("bhg-2011", [hand(60, {"kind": "misconduct", "seat": "N", "disqualified": True})])
    assert out["hands"][0]["rulings"][0]["branch"] == "disqualification"


@pytest.mark.parametrize(("points", "ok"), [(9, False), (10, True), (70, True), (71, False)])
def test_discretionary_points_within_the_events_range(points: int, ok: bool) -> None:
    inf = {"kind": "misconduct", "seat": "N", "points": points}
    if ok:
        assert ruling_of("bhg-2011", inf)["points"] == points
    else:
        with pytest.raises(
            CaseError,
            match=rf"hands\[0\]\.infractions\[0\]\.points: {points} is outside bhg-2011's range for misconduct, 10–70",
        ):
            decide(case("bhg-2011", [hand(60, inf)]))


def test_points_on_a_fixed_penalty_need_an_override() -> None:
    inf = {"kind": "unreasonable_play", "seat": "N", "points": 30}
    with pytest.raises(
        CaseError, match=r"points: unreasonable_play in bhg-2011 is not a discretionary penalty"
    ):
        decide(case("bhg-2011", [hand(60, inf)]))
    inf["override"] = {"reason": "r", "sanctions": [{"points": 30}]}
    assert ruling_of("bhg-2011", inf)["points"] == 30


def test_bhg_failed_throw_charges_blocked_and_other_cards() -> None:
    # BHG: 10 a blocked card, and the other thrown cards as exposed, 10 each
    r = ruling_of("bhg-2011", {"kind": "failed_throw", "seat": "N", "cards": 2, "thrown": 5})
    assert r["points"] == 50
    assert ruling_of("bhg-2011", {"kind": "failed_throw", "seat": "N", "cards": 2})["points"] == 20
    # HBUE: 40 a recalled card, nothing for the rest
    assert (
        ruling_of("hbue-2018", {"kind": "failed_throw", "seat": "N", "cards": 2, "thrown": 5})["points"] == 80
    )


def test_bhg_bottom_miscount_is_against_the_dealer_side_whoever_is_named() -> None:
    r = ruling_of("bhg-2011", {"kind": "bottom_miscount", "seat": "N"})
    assert r["against"] == "EW" and r["side"] == "NS" and r["points"] == 10
    assert outcome("bhg-2011", 60, {"kind": "bottom_miscount", "seat": "N"})["defender_total"] == 70
    assert (
        r["instruction"] == BHG.data["infractions"]["bottom_miscount"]["rules"][0]["sanction"]["instruction"]
    )


# -- counting occurrences (escalation) --------------------------------------------------------------


def delay(seat: str) -> dict[str, Any]:
    return {"kind": "delay", "seat": seat}


def test_bhg_delay_second_time_per_side_and_the_per_player_reading() -> None:
    # BHG 二、10: a warning, then 10 points from the second time; counted per side (the
    # per-side reading is assumed: counted per player, S's first would be a warning)
    h = outcome("bhg-2011", 60, delay("N"), delay("S"))
    first, second = h["rulings"]
    assert (first["warning"], first["points"], first["escalated"]) == (True, 0, False)
    assert (second["points"], second["escalated"], second["occurrence"]) == (10, True, 2)
    assert first["assumed"] is False and second["assumed"] is True
    h = outcome("bhg-2011", 60, delay("N"), delay("N"))
    assert h["rulings"][1]["assumed"] is False and h["rulings"][1]["points"] == 10
    # the other side's delay is its own first
    h = outcome("bhg-2011", 60, delay("N"), delay("E"))
    assert h["rulings"][1]["occurrence"] == 1 and h["rulings"][1]["warning"] is True


def test_bhg_trick_handling_counted_per_hand_the_round_reading_marked() -> None:
    th = {"kind": "trick_handling", "seat": "N"}
    out = decision("bhg-2011", [hand(60, th), hand(60, th)])
    second = out["hands"][1]["rulings"][0]
    assert second["occurrence"] == 1 and second["warning"] is True and second["assumed"] is True
    same_hand = outcome("bhg-2011", 60, th, th)["rulings"][1]
    assert same_hand["occurrence"] == 2 and same_hand["points"] == 10 and same_hand["assumed"] is False
    # delay has no scope reading: its next hand's first is not marked
    out = decision("bhg-2011", [hand(60, delay("N")), hand(60, delay("N"))])
    assert out["hands"][1]["rulings"][0]["assumed"] is False


def test_a_voided_ruling_is_shown_with_its_count_but_does_not_count() -> None:
    voided = {**delay("N"), "void": {"reason": "误记"}}
    h = outcome("bhg-2011", 60, voided, delay("N"), delay("N"))
    assert [r["occurrence"] for r in h["rulings"]] == [1, 1, 2]
    assert [r["voided"] for r in h["rulings"]] == [True, False, False]


def test_occurrences_are_counted_in_the_order_of_play() -> None:
    # typed later but played earlier (trick 1 before trick 4): counted first
    late_one = {"kind": "wrong_play", "seat": "N", "trick": 4}
    early = {"kind": "wrong_play", "seat": "N", "trick": 1}
    h = outcome("bhg-2011", 60, late_one, early)
    assert [r["occurrence"] for r in h["rulings"]] == [2, 1]
    # without a trick, by the phase: drawing (−3) before the bottom (−2) before a trick
    drawing = {"kind": "exposed_card", "seat": "N", "phase": "drawing"}
    bottom = {"kind": "exposed_card", "seat": "N", "phase": "before_bottom"}
    trick1 = {"kind": "exposed_card", "seat": "N", "trick": 1}
    h = outcome("bhg-2011", 60, trick1, bottom, drawing)
    assert [r["occurrence"] for r in h["rulings"]] == [3, 2, 1]
    end = {"kind": "exposed_card", "seat": "N", "phase": "end_of_hand"}
    h = outcome("bhg-2011", 60, end, {"kind": "exposed_card", "seat": "N", "trick": 25})
    assert [r["occurrence"] for r in h["rulings"]] == [2, 1]
    # after the bury (0) comes after a burying delay (−1) and before trick 1
    bury = {"kind": "delay", "seat": "N", "what": "bury"}
    after_bury = {"kind": "delay", "seat": "N", "phase": "after_bury"}
    h = outcome("bhg-2011", 60, after_bury, bury)
    assert [r["occurrence"] for r in h["rulings"]] == [2, 1]
    first_trick = {"kind": "delay", "seat": "N", "trick": 1}
    lead = {"kind": "delay", "seat": "N", "what": "lead"}
    h = outcome("bhg-2011", 60, first_trick, lead)
    assert [r["occurrence"] for r in h["rulings"]] == [2, 1]


def test_occurrences_before_play_are_counted_in_play_order_too() -> None:
    # two late arrivals (BHG counts none): shown in the order given
    out = decision("bhg-2011", [hand(40)], before_play=[late("NS", 3), late("EW", 4)])
    assert [r["side"] for r in out["before_play"]] == ["NS", "EW"]
    assert [r["infraction"] for r in out["before_play"]] == ["before_play[0]", "before_play[1]"]
    assert [r["role"] for r in out["before_play"]] == [None, None]


def test_a_ruling_in_a_hand_knows_its_role_and_infraction() -> None:
    h = outcome("bhg-2011", 60, delay("N"), delay("E"))
    assert [r["role"] for r in h["rulings"]] == ["defenders", "dealer_side"]
    assert [r["infraction"] for r in h["rulings"]] == ["hands[0].infractions[0]", "hands[0].infractions[1]"]
    r = outcome("bhg-2011", 60, overridden("warning"))["rulings"][0]
    assert r["proposed"]["infraction"] == "hands[0].infractions[0]"


def test_gansu_illegal_signals_count_over_the_event_with_the_history() -> None:
    # Gansu 六、六: the third illegal signal in the event disqualifies; the history holds the
    # side's earlier ones (of the kinds that feed the counter)
    sig = signal("N")
    out = decision("gansu-2018", [hand(60, sig)], history={"NS": {"illegal_signal": 2}})
    r = out["hands"][0]["rulings"][0]
    assert (
        r["occurrence"] == 3
        and r["escalated"] is True
        and r["disqualified"] is True
        and r["scope"] == "event"
    )
    assert out["forfeit"]["side"] == "NS"
    once = decision(
        "gansu-2018", [hand(60, sig)], history={"NS": {"illegal_signal": 1}, "EW": {"illegal_signal": 5}}
    )
    assert once["hands"][0]["rulings"][0]["occurrence"] == 2 and once["forfeit"] is None
    other = decision("gansu-2018", [hand(60, sig)], history={"NS": {"delay": 4}})
    assert other["hands"][0]["rulings"][0]["occurrence"] == 1
    # the round's own count adds to it: hand 1 and hand 2
    two = decision("gansu-2018", [hand(60, sig), hand(60, sig)], history={"NS": {"illegal_signal": 1}})
    assert two["hands"][1]["rulings"][0]["occurrence"] == 3


def test_bhg_a_failed_throws_other_cards_are_no_time_of_exposure_a_reading() -> None:
    # BHG: the other cards of a failed throw are charged as exposed cards; whether that is a
    # "time" of exposure (二、4 累积3次) is not printed: read as not, and marked where it matters
    throw = {"kind": "failed_throw", "seat": "N", "cards": 1, "thrown": 3, "trick": 1}
    exposed = {"kind": "exposed_card", "seat": "N", "trick": 2}
    h = outcome("bhg-2011", 60, throw, exposed, {**exposed, "trick": 3})
    assert [r["occurrence"] for r in h["rulings"][1:]] == [1, 2]
    assert [r["assumed"] for r in h["rulings"]] == [False, False, True]
    # the throw itself after two exposures: as a time it would be the third
    h = outcome("bhg-2011", 60, {**exposed, "trick": 1}, exposed, {**throw, "trick": 3})
    assert h["rulings"][2]["assumed"] is True
    h = outcome("bhg-2011", 60, {**exposed, "trick": 1}, {**throw, "trick": 3})
    assert h["rulings"][1]["assumed"] is False
    # a throw of blocked cards only charges no exposure; a voided one counts nothing
    h = outcome("bhg-2011", 60, {**throw, "thrown": 2, "cards": 2}, exposed, {**exposed, "trick": 3})
    assert h["rulings"][2]["assumed"] is False
    h = outcome("bhg-2011", 60, {**throw, "void": {"reason": "r"}}, exposed, {**exposed, "trick": 3})
    assert h["rulings"][2]["assumed"] is False
    # in the next hand the throw of this one is not counted (scope: hand)
    out = decision("bhg-2011", [hand(60, throw), hand(60, exposed, {**exposed, "trick": 3})])
    assert out["hands"][1]["rulings"][1]["assumed"] is False
    # the other side's throw does not count for this one
    h = outcome("bhg-2011", 60, {**throw, "seat": "E"}, exposed, {**exposed, "trick": 3})
    assert h["rulings"][2]["assumed"] is False


# -- the decision as data and in words --------------------------------------------------------------


def test_the_decision_names_its_event_and_rulebook() -> None:
    out = decision("gansu-2018", [hand(40)])
    assert out["event"] == "gansu-2018" and out["rulebook_sha256"] == GANSU.sha256
    assert list(out) == ["event", "rulebook_sha256", "before_play", "forfeit", "hands", "result"]


def test_a_hands_data_in_full() -> None:
    h = decision("bhg-2011", [hand(40, delay("N"), bottom=captured(5, "pair"))])["hands"][0]
    assert {k: v for k, v in h.items() if k != "rulings"} == {
        "number": 1,
        "dealer": "E",
        "dealer_side": "EW",
        "levels_before": {"NS": "2", "EW": "2"},
        "in_progress": False,
        "bottom_multiplier": 4,
        "bottom_points": 20,
        "penalty_points": 0,
        "defender_total": 60,
        "lost_by": None,
        "decided_by": "points",
        "gains": {"NS": 0, "EW": 1},
        "redeclaration_bonus": 0,
        "levels_after": {"NS": "2", "EW": "3"},
        "next_dealer": "W",
        "passed_a": False,
        "passed_a_side": None,
        "keep_deal": True,
        "j_drop": None,
        "dealer_by_rotation": None,
        "past_time_warning": False,
        "assumed": True,  # BHG's dealer bands are an assumed reading
    }


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        (
            "zh",
            [
                "防守方得40分，东西方连庄，升1级，下一副西家坐庄。",
                "防守方得120分，南北方上庄，升1级，下一副南家坐庄。",
            ],
        ),
        (
            "en",
            [
                "defenders' total 40; East-West keep the deal, +1; West deals next.",
                "defenders' total 120; North-South take the deal, +1; South deals next.",
            ],
        ),
    ],
)
def test_a_hand_in_words(lang: str, texts: list[str]) -> None:
    out = judge(case("bhg-2011", [hand(40), hand(120)]), lang=lang)
    assert [h["text"] for h in out["hands"]] == texts


def test_a_hand_in_words_with_the_j_rule_passing_a_and_a_hand_loss() -> None:
    j = judge(case("hbue-2018", [j_hand(40, 1)], levels={"NS": "2", "EW": "J"}), lang="en")
    assert j["hands"][0]["text"] == (
        "defenders' total 40; bottom captured with J: East-West drop to 6; North-South take the deal; "
        "North deals next."
    )
    a = judge(case("bhg-2011", [hand(40)], levels={"NS": "2", "EW": "A"}), lang="zh")
    assert a["hands"][0]["text"] == "防守方得40分，东西方连庄，升1级，东西方过A，本轮获胜，下一副西家坐庄。"
    lost = judge(case("bhg-2011", [hand(40, signal("N"))]), lang="en")
    assert (
        lost["hands"][0]["text"] == "North-South lose the hand; East-West keep the deal, +3; West deals next."
    )


def test_a_rulings_data_in_full_and_a_voided_one_shown_with_its_count() -> None:
    """BHG 二、10: a delay is warned, the second time costs 10 points; a voided ruling is shown
    (its count, why it was voided) and has no effect."""
    voided = {**delay("S"), "void": {"reason": "误记"}}
    rulings = outcome("bhg-2011", 40, delay("N"), voided)["rulings"]
    common = {
        "kind": "delay",
        "side": "NS",
        "against": "NS",
        "hand_lost": False,
        "award": None,
        "ends_hand": False,
        "round_forfeit": False,
        "suspension_rounds": 0,
        "disqualified": False,
        "levels": {"NS": 0, "EW": 0},
        "instruction": None,
        "scope": "hand",
        "rule": "bhg-2011/delay",
        "branch": "first_warning",
        "citation": "二、10 拖延比赛时间",
        "role": "defenders",
        "label": {"zh": "拖延比赛时间", "en": "Delay"},
        "overridden": False,
    }
    assert rulings[0] == {
        **common,
        "infraction": "hands[0].infractions[0]",
        "seat": "N",
        "points": 0,
        "warning": True,
        "occurrence": 1,
        "escalated": False,
        "assumed": False,
        "voided": False,
    }
    assert rulings[1] == {
        **common,
        "infraction": "hands[0].infractions[1]",
        "seat": "S",
        "points": 10,
        "warning": False,
        "occurrence": 2,
        "escalated": True,
        "assumed": True,
        "voided": True,
        "void_reason": "误记",
    }


def test_a_printed_award_is_kept_on_the_ruling() -> None:
    r = ruling_of("gansu-2018", wrong_count("N"))
    assert r["hand_lost"] is True and r["award"] == {"dealer_offends": 1, "defenders_offend": 2}
    r = ruling_of("bhg-2011", signal("N"))
    assert r["hand_lost"] is True and r["award"] is None and r["ends_hand"] is False
    r = ruling_of("gansu-2018", signal("N"))
    assert r["ends_hand"] is True and r["award"] == {"dealer_offends": 2, "defenders_offend": 3}


# -- readings no bundled event prints, in a rulebook written for the test --------------------------


def variant(tmp_path: Any, name: str, *edits: tuple[str, str]) -> Any:
    """BHG 2011's rulebook with ``edits`` (old text → new text), as a file of its own."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "rules" / "bhg-2011.toml").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return load_rulebook(str(path))


def test_a_tie_to_the_side_that_dealt_last(tmp_path: Any) -> None:
    rb = variant(tmp_path, "last-dealer", ('tie = "draw"', 'tie = "last_dealer_side"'))
    # E deals 40: EW 3; W deals 80: NS take the deal; S deals 40: NS 3. S (NS) dealt last
    out = decide(case("bhg-2011", [hand(40), hand(80), hand(40)]), rulebook=rb).to_json()
    r = out["result"]
    assert out["hands"][2]["levels_after"] == {"NS": "3", "EW": "3"}
    assert r["winner"] == "NS" and r["decided_by"] == "tie_last_dealer_side"
    assert r["match_points"] == {"NS": 2, "EW": 0}
    assert r["citation"].startswith(rb.data["round"]["tie_clause"]["ref"])
    out = decide(case("bhg-2011", [hand(80), hand(80)]), rulebook=rb).to_json()
    assert out["result"]["winner"] == "NS"  # E deals, then N: NS dealt last
    # no hand at all: no last dealer, a draw
    out = decide(case("bhg-2011", []), rulebook=rb).to_json()
    assert out["result"]["winner"] is None and out["result"]["decided_by"] == "tie_draw"


def test_a_rule_for_one_role_in_the_hand(tmp_path: Any) -> None:
    rb = variant(
        tmp_path,
        "by-role",
        (
            '[[infractions.unreasonable_play.rules]]\nid = "fixed"',
            '[[infractions.unreasonable_play.rules]]\nid = "dealer"\nwhen = { role = "dealer_side" }\n'
            "sanction = { points = 30 }\n"
            'clause = { ref = "二、8", title = "无道理牌", zh = "庄家", en = "dealer side" }\n\n'
            '[[infractions.unreasonable_play.rules]]\nid = "fixed"',
        ),
    )
    dealer = decide(
        case("bhg-2011", [hand(60, {"kind": "unreasonable_play", "seat": "W"})]), rulebook=rb
    ).to_json()
    assert (
        dealer["hands"][0]["rulings"][0]["branch"] == "dealer"
        and dealer["hands"][0]["rulings"][0]["points"] == 30
    )
    defenders = decide(
        case("bhg-2011", [hand(60, {"kind": "unreasonable_play", "seat": "S"})]), rulebook=rb
    ).to_json()
    assert defenders["hands"][0]["rulings"][0]["branch"] == "fixed"


def test_a_rulebook_whose_kind_has_no_rule_for_the_facts_is_an_error(tmp_path: Any) -> None:
    from referee_app.core.errors import RulebookError

    rb = variant(
        tmp_path,
        "no-rule",
        (
            'id = "fixed"\nsanction = { points = 20 }',
            'id = "fixed"\nwhen = { severity = "heavy" }\nsanction = { points = 20 }',
        ),
    )
    with pytest.raises(
        RulebookError,
        match=r"infractions\.unreasonable_play: no rule applies to hands\[0\]\.infractions\[0\]",
    ):
        decide(case("bhg-2011", [hand(60, {"kind": "unreasonable_play", "seat": "S"})]), rulebook=rb)
    heavy = {"kind": "unreasonable_play", "seat": "S", "severity": "heavy"}
    assert (
        decide(case("bhg-2011", [hand(60, heavy)]), rulebook=rb).to_json()["hands"][0]["rulings"][0]["points"]
        == 20
    )


def test_after_the_bury_comes_before_the_first_trick_and_a_burying_delay_after_the_bottom() -> None:
    after_bury = {"kind": "delay", "seat": "N", "phase": "after_bury"}
    trick1 = {"kind": "delay", "seat": "N", "trick": 1}
    assert [r["occurrence"] for r in outcome("bhg-2011", 60, trick1, after_bury)["rulings"]] == [2, 1]
    bottom = {"kind": "delay", "seat": "N", "phase": "before_bottom"}
    bury = {"kind": "delay", "seat": "N", "what": "bury"}
    assert [r["occurrence"] for r in outcome("bhg-2011", 60, bury, bottom)["rulings"]] == [2, 1]


def test_the_result_cites_the_clause_that_decided_it() -> None:
    by_levels = decision("bhg-2011", [hand(40)])["result"]
    mp = BHG.data["match_points"]["clause"]
    won = BHG.data["round"]["result_clause"]  # 先过A者或级数高者为胜: the winner's clause
    assert by_levels["decided_by"] == "levels" and by_levels["citation"] == f"{won['ref']} {won['title']}"
    assert by_levels["match_points_citation"] == f"{mp['ref']} {mp['title']}"
    tie = decision("bhg-2011", [hand(80)])["result"]
    tc = BHG.data["round"]["tie_clause"]
    assert tie["citation"] == f"{tc['ref']} {tc['title']}"
    # HBUE's match points clause is an assumed reading: a result decided by it is assumed
    assert decision("hbue-2018", [hand(40)])["result"]["assumed"] is True


def test_a_forfeit_cites_the_events_clause_and_its_reading() -> None:
    cfg = GANSU.data["forfeit"]
    out = decision("gansu-2018", [], before_play=[late("EW", 10)])
    assert out["forfeit"]["citation"] == f"{cfg['clause']['ref']} {cfg['clause']['title']}"
    assert out["forfeit"]["assumed"] is True and out["result"]["assumed"] is True  # Gansu: assumed
    both = decision("gansu-2018", [], before_play=[late("EW", 10), late("NS", 12)])
    assert both["forfeit"]["assumed"] is True and both["forfeit"]["citation"] == out["forfeit"]["citation"]
    assert (
        decision("bhg-2011", [], before_play=[late("EW", 10), late("NS", 12)])["forfeit"]["assumed"] is False
    )


def test_a_disqualification_before_play_forfeits_the_round() -> None:
    dq = {**late("NS", 3), "override": {"reason": "r", "sanctions": ["disqualified"]}}
    out = decision("bhg-2011", [], before_play=[dq])
    assert out["forfeit"]["side"] == "NS" and out["result"]["winner"] == "EW"


def test_bhg_wrong_declaration_carries_its_own_instruction() -> None:
    r = ruling_of("bhg-2011", {"kind": "wrong_declaration", "seat": "N", "trick": 1})
    own = BHG.data["infractions"]["wrong_declaration"]["rules"][0]["sanction"]["instruction"]
    assert own and r["instruction"] == own


def test_a_hand_in_progress_dealt_by_north_south() -> None:
    out = decision("bhg-2011", [{"in_progress": True}], finished="open", first_dealer="S")
    h = out["hands"][0]
    assert h["dealer"] == "S" and h["dealer_side"] == "NS" and h["in_progress"] is True


def test_an_override_keeps_the_count_and_the_clause_of_the_computed_ruling() -> None:
    exposed = {"kind": "exposed_card", "seat": "N", "trick": 1}
    out = decide(case("bhg-2011", [hand(60, exposed, overridden("warning", trick=2))]))
    r = out.hands[0].rulings[1]
    assert r.occurrence == 2 and r.proposed is not None and r.proposed.occurrence == 2
    assert r.clause == r.proposed.clause == BHG.data["infractions"]["exposed_card"]["rules"][0]["clause"]
    assert r.to_json()["occurrence"] == 2


def test_passing_a_cites_the_pass_a_clause_or_else_the_match_points_one(tmp_path: Any) -> None:
    pa = BHG.data["levels"]["pass_a_clause"]
    r = decision("bhg-2011", [hand(40)], levels={"NS": "2", "EW": "A"})["result"]
    assert r["citation"] == f"{pa['ref']} {pa['title']}" == "比赛方法 先过A者为胜"
    # Gansu's pass-A clause is an assumed reading; its match points clause is printed
    assert decision("gansu-2018", [hand(40)], levels={"NS": "2", "EW": "A"})["result"]["assumed"] is True
    assert decision("gansu-2018", [hand(40)])["result"]["assumed"] is False
    # a rulebook that gives no pass-A clause: the match points clause
    rb = variant(tmp_path, "no-pass-a", ("pass_a_clause = ", "# pass_a_clause = "))
    assert rb.data["levels"].get("pass_a_clause") is None
    out = decide(case("bhg-2011", [hand(40)], levels={"NS": "2", "EW": "A"}), rulebook=rb).to_json()
    mp = rb.data["match_points"]["clause"]
    assert out["result"]["decided_by"] == "passed_a"
    assert out["result"]["citation"] == f"{mp['ref']} {mp['title']}" == "比赛方法 积分"


def test_the_proposal_under_an_override_is_worded_with_the_events_rules() -> None:
    # BHG 二、9: the computed ruling (the hand lost, an 80-point shift) is shown under the override
    plain = judge(case("bhg-2011", [hand(60, signal("N"))]), lang="en")["hands"][0]["rulings"][0]
    sig = {**signal("N"), "override": {"reason": "r", "sanctions": ["warning"]}}
    ruled = judge(case("bhg-2011", [hand(60, sig)]), lang="en")["hands"][0]["rulings"][0]
    assert ruled["proposed"]["text"] == plain["text"] and "80" in plain["text"]


def test_gansu_the_event_count_is_per_side() -> None:
    # NS's illegal signal in hand 1 is not EW's: EW's in hand 2 is its first
    out = decision("gansu-2018", [hand(60, signal("N")), hand(60, signal("E"))])
    assert [h["rulings"][0]["occurrence"] for h in out["hands"]] == [1, 1]


def test_the_highest_step_reached_holds(tmp_path: Any) -> None:
    """A counter with two steps: from the 2nd time 10 points, from the 3rd the hand lost."""
    rb = variant(
        tmp_path,
        "two-steps",
        (
            "[counters.trick_handling]",
            "[[counters.delay.steps]]\nfrom_count = 3\nsanction = { hand_loss = true }\n"
            'clause = { ref = "二、10", title = "拖延三次", zh = "三次", en = "third" }\n\n'
            "[counters.trick_handling]",
        ),
    )
    assert [s["from_count"] for s in rb.data["counters"]["delay"]["steps"]] == [2, 3]
    out = decide(
        case("bhg-2011", [hand(60, delay("N"), delay("N"), delay("N"), delay("N"))]), rulebook=rb
    ).to_json()
    rulings = out["hands"][0]["rulings"]
    assert [(r["points"], r["hand_lost"]) for r in rulings] == [(0, False), (10, False), (0, True), (0, True)]
    assert rulings[2]["citation"] == "二、10 拖延三次" and rulings[1]["citation"] == "二、10 拖延比赛时间"


# -- a total below 0 counts as 0 in every way a hand is scored ------------------------------------


def wrong_play(seat: str, cards: int) -> dict[str, Any]:
    return {"kind": "wrong_play", "seat": seat, "cards": cards, "trick": 1}


def test_a_negative_total_is_0_in_an_open_grab() -> None:
    # Gansu: both sides lose the hand; the defenders' 3 wrong cards (30) take 20 below 0
    h = outcome("gansu-2018", 10, wrong_count("N"), wrong_count("E"), wrong_play("N", 3))
    assert h["lost_by"] == "both" and h["defender_total"] == 0


def test_a_negative_total_is_0_when_both_sides_lose_and_the_points_decide() -> None:
    # BHG: scored on the points: 10 − 30 → 0: the dealer side's +3
    h = outcome(
        "bhg-2011",
        10,
        signal("N"),
        signal("E"),
        {"kind": "exposed_card", "seat": "N", "cards": 3, "trick": 2},
    )
    assert h["defender_total"] == 0 and h["gains"] == {"NS": 0, "EW": 3}


def test_a_negative_total_is_0_against_a_printed_award() -> None:
    # Gansu: the defenders lose the hand (award 2) and their wrong cards take the total below
    # 0: at 0 the points give 3, the better outcome
    h = outcome("gansu-2018", 10, wrong_count("N"), wrong_play("N", 3))
    assert h["defender_total"] == 0 and h["gains"] == {"NS": 0, "EW": 3}


def test_the_defenders_taking_the_deal_stop_at_a_without_passing_it() -> None:
    # BHG: NS (defending) on K take the deal with +2 (160): they stop at A (must be played);
    # only the dealer side can pass A
    out = decision("bhg-2011", [hand(160)], levels={"NS": "K", "EW": "2"})
    h = out["hands"][0]
    assert h["levels_after"] == {"NS": "A", "EW": "2"} and h["passed_a"] is False
    assert out["result"]["decided_by"] == "levels"


def test_wording_a_decision_leaves_the_stored_one_in_no_language() -> None:
    late_ = {"kind": "late_arrival", "side": "EW", "minutes": 3}
    d = decision("bhg-2011", [hand(60, delay("N"))], before_play=[late_])
    stored = copy.deepcopy(d)
    word(d, "zh", BHG)
    assert d == stored and is_language_free(d)


# -- a kind handled as another (same_as: BHG 二、6 亮主错误 按暴露张处理) ---------------------------

EXPOSED_RULE = 'id = "per_card"\ncounter = "exposed_card"\nsanction = { points_per_card = 10 }'
DECLARATION_SANCTION = 'same_as = "exposed_card"\nsanction = { instruction = {'


def test_a_kind_handled_as_another_takes_that_kinds_rule_for_the_same_hand_role(tmp_path: Any) -> None:
    rb = variant(
        tmp_path,
        "exposed-by-role",
        (
            EXPOSED_RULE,
            'id = "dealer"\nwhen = { role = "dealer_side" }\ncounter = "exposed_card"\nsanction = { points_per_card = 20 }\n'
            'clause = { ref = "二、4", title = "暴露张（庄家）", zh = "庄", en = "dealer" }\n\n'
            "[[infractions.exposed_card.rules]]\n" + EXPOSED_RULE,
        ),
    )
    declared = {"kind": "wrong_declaration", "seat": "E", "trick": 1}  # E deals
    r = decide(case("bhg-2011", [hand(60, declared)]), rulebook=rb).to_json()["hands"][0]["rulings"][0]
    assert r["points"] == 20 and r["citation"].endswith("（二、4 暴露张（庄家））")


def test_a_kind_handled_as_another_is_assumed_when_that_kinds_rule_is(tmp_path: Any) -> None:
    en = 'en = "A card shown when it should not be: 10 points per card." }'
    rb = variant(tmp_path, "exposed-assumed", (en, en[:-2] + ", assumed = true }"))
    declared = {"kind": "wrong_declaration", "seat": "N", "trick": 1}
    r = decide(case("bhg-2011", [hand(60, declared)]), rulebook=rb).to_json()["hands"][0]["rulings"][0]
    assert r["assumed"] is True
    assert ruling_of("bhg-2011", declared)["assumed"] is False  # as printed: neither is assumed


def test_a_kind_handled_as_another_without_an_instruction_takes_that_kinds(tmp_path: Any) -> None:
    rb = variant(
        tmp_path,
        "exposed-instruction",
        (EXPOSED_RULE, EXPOSED_RULE[:-2] + ', instruction = { zh = "亮出", en = "shown" } }'),
        (DECLARATION_SANCTION, 'same_as = "exposed_card"\nsanction = {}\n# { instruction = {'),
    )
    declared = {"kind": "wrong_declaration", "seat": "N", "trick": 1}
    r = decide(case("bhg-2011", [hand(60, declared)]), rulebook=rb).to_json()["hands"][0]["rulings"][0]
    assert r["instruction"] == {"zh": "亮出", "en": "shown"}


def test_bhg_trick_handling_a_first_time_is_not_marked_and_the_other_sides_do_not_count() -> None:
    th = {"kind": "trick_handling", "seat": "N"}
    out = decision("bhg-2011", [hand(60, th), hand(60, th)])
    assert out["hands"][0]["rulings"][0]["assumed"] is False
    # EW's in hand 1 is not NS's: N's in hand 2 is its side's first in the round
    out = decision("bhg-2011", [hand(60, {**th, "seat": "E"}), hand(60, th)])
    assert out["hands"][1]["rulings"][0]["assumed"] is False


def test_a_disqualification_in_a_hand_still_being_played_forfeits_the_round() -> None:
    dq = {"kind": "misconduct", "seat": "N", "disqualified": True}
    out = decision("bhg-2011", [{"in_progress": True, "infractions": [dq]}], finished="open")
    assert out["hands"][0]["in_progress"] is True
    assert out["forfeit"]["side"] == "NS" and out["result"]["winner"] == "EW"


def test_gansu_the_better_points_reading_is_for_the_non_offending_side_only() -> None:
    # the defenders (N) lose the hand at 200: the dealer side gets the printed 2; the points
    # (the defenders' +3) are not the dealer side's to take
    h = outcome("gansu-2018", 200, wrong_count("N"))
    assert h["gains"] == {"NS": 0, "EW": 2} and h["keep_deal"] is True


def test_gansu_the_better_points_reading_marks_the_rounds_result() -> None:
    out = decision("gansu-2018", [hand(0, wrong_count("N"))])
    assert out["hands"][0]["gains"]["EW"] == 3 and out["result"]["assumed"] is True
    assert decision("gansu-2018", [hand(60, wrong_count("N"))])["result"]["assumed"] is False


def test_the_deal_without_a_gain_is_marked_only_where_the_event_does_not_print_it(tmp_path: Any) -> None:
    rb = variant(
        tmp_path,
        "no-gain-printed",
        (', assumed = true, note = "The text gives the deal', ', note = "The text gives the deal'),
    )
    exposed = {"kind": "exposed_card", "seat": "N", "cards": 3, "trick": 2}
    h = decide(case("bhg-2011", [hand(0, signal("E"), exposed)]), rulebook=rb).to_json()["hands"][0]
    assert h["gains"] == {"NS": 0, "EW": 0} and h["rulings"][0]["assumed"] is False


# -- refusals: the clause's range enforced, and each refusal's code, field and values (issue 9:
#    the desk words them in Chinese from these, and the window focuses the field) ------------


def refusal(event: str, hands: list[dict[str, Any]], rulebook: Any = None, **extra: Any) -> CaseError:
    with pytest.raises(CaseError) as caught:
        decide(case(event, hands, **extra), rulebook=rulebook)
    return caught.value


def said(err: CaseError) -> tuple[str, str, str | None, dict[str, Any]]:
    return str(err), err.code, err.field, err.values


def test_bhg_discretionary_points_are_10_to_70_both_ends_included() -> None:
    # BHG 二 罚分: 根据情况罚10—70分不等
    for points in (10, 70):
        misconduct = {"kind": "misconduct", "seat": "N", "trick": 3, "points": points}
        ruling = decision("bhg-2011", [hand(60, misconduct)])["hands"][0]["rulings"][0]
        assert (ruling["points"], ruling["branch"]) == (points, "discretionary_points")
    for points in (5, 75):
        misconduct = {"kind": "misconduct", "seat": "N", "trick": 3, "points": points}
        assert said(refusal("bhg-2011", [hand(60, misconduct)])) == (
            f"hands[0].infractions[0].points: {points} is outside bhg-2011's range for misconduct, 10–70",
            "case.points_range",
            "hands[0].infractions[0].points",
            {"got": points, "low": 10, "high": 70, "kind": "misconduct", "rulebook": "bhg-2011"},
        )


def test_points_on_a_fixed_penalty_are_refused_on_their_field() -> None:
    exposed = {"kind": "exposed_card", "seat": "N", "trick": 3, "points": 20}
    assert said(refusal("bhg-2011", [hand(60, exposed)])) == (
        "hands[0].infractions[0].points: exposed_card in bhg-2011 is not a discretionary penalty; "
        "to rule otherwise, give an override with a reason",
        "case.points_not_discretionary",
        "hands[0].infractions[0].points",
        {"kind": "exposed_card", "rulebook": "bhg-2011"},
    )


def test_discretionary_points_the_referee_did_not_choose(tmp_path: Any) -> None:
    # a rulebook whose discretionary rule has no condition: the referee must give the points
    rb = variant(
        tmp_path,
        "points-unchosen",
        (
            "when = { referee_points = true }\nsanction = { points_range = [10, 70] }",
            "sanction = { points_range = [10, 70] }",
        ),
    )
    misconduct = {"kind": "misconduct", "seat": "N", "trick": 3}
    assert said(refusal("bhg-2011", [hand(60, misconduct)], rulebook=rb)) == (
        "hands[0].infractions[0].points: required: the referee chooses the points for misconduct "
        "in bhg-2011 (10–70)",
        "case.points_choose",
        "hands[0].infractions[0].points",
        {"low": 10, "high": 70, "kind": "misconduct", "rulebook": "bhg-2011"},
    )


def test_a_suspension_inside_the_rulebooks_range_both_ends_included(tmp_path: Any) -> None:
    # BHG 二 停赛 "一轮至N轮", here a rulebook whose range is 2–5 rounds
    rb = variant(tmp_path, "suspension-2-5", ("suspension_range = [1, 99]", "suspension_range = [2, 5]"))
    for rounds in (2, 5):
        misconduct = {"kind": "misconduct", "seat": "N", "trick": 3, "suspension_rounds": rounds}
        out = decide(case("bhg-2011", [hand(60, misconduct)]), rulebook=rb).to_json()
        assert out["hands"][0]["rulings"][0]["suspension_rounds"] == rounds
    for rounds in (1, 6):
        misconduct = {"kind": "misconduct", "seat": "N", "trick": 3, "suspension_rounds": rounds}
        assert said(refusal("bhg-2011", [hand(60, misconduct)], rulebook=rb)) == (
            "hands[0].infractions[0].suspension_rounds: the referee chooses 2–5 rounds for "
            f"misconduct in bhg-2011, got {rounds}",
            "case.suspension_range",
            "hands[0].infractions[0].suspension_rounds",
            {"low": 2, "high": 5, "kind": "misconduct", "rulebook": "bhg-2011"},
        )


def test_a_suspension_the_referee_did_not_choose(tmp_path: Any) -> None:
    rb = variant(
        tmp_path,
        "suspension-unchosen",
        (
            "when = { referee_suspension = true }\nsanction = { suspension_range",
            "sanction = { suspension_range",
        ),
    )
    misconduct = {"kind": "misconduct", "seat": "N", "trick": 3}
    err = refusal("bhg-2011", [hand(60, misconduct)], rulebook=rb)
    assert str(err).endswith("the referee chooses 1–99 rounds for misconduct in bhg-2011, got none")
    assert err.code == "case.suspension_range"


def test_the_dealers_of_a_round_refused_with_what_was_expected() -> None:
    assert said(refusal("bhg-2011", [hand(60, dealer="S")])) == (
        "hands[0].dealer: the first hand's dealer is first_dealer (E), got S",
        "case.first_dealer",
        "hands[0].dealer",
        {"first": "E", "got": "S"},
    )
    assert said(refusal("bhg-2011", [hand(60), hand(60, dealer="E")])) == (
        "hands[1].dealer: dealers after the first are derived (W deals this hand), got E",
        "case.dealer_derived",
        "hands[1].dealer",
        {"derived": "W", "got": "E"},
    )
    # the same dealer given as derived is accepted
    assert decision("bhg-2011", [hand(60), hand(60, dealer="W")])["hands"][1]["dealer"] == "W"


def test_a_deal_left_open_needs_the_grab_winner_as_dealer() -> None:
    # HBUE 四、(一): both sides miscounted after the bury: 下副牌实行一次性抢庄
    both = [
        {"kind": "wrong_card_count", "seat": "N", "phase": "after_bury"},
        {"kind": "wrong_card_count", "seat": "E", "phase": "after_bury"},
    ]
    err = refusal("hbue-2018", [hand(60, *both), hand(60)])
    assert said(err) == (
        "hands[1].dealer: required: the previous hand left the deal open (一次性抢庄); give the "
        "seat that won the grab",
        "case.dealer_grab",
        "hands[1].dealer",
        {},
    )
    assert decision("hbue-2018", [hand(60, *both), hand(60, dealer="S")])["hands"][1]["dealer"] == "S"


def test_a_bad_event_is_refused_on_the_event_field_with_the_rulebooks_own_code() -> None:
    from referee_app.core.engine import judge as judge_case

    for run in (lambda c: decide(c), lambda c: judge_case(c)):
        with pytest.raises(CaseError) as caught:
            run(case("x-1", [hand(60)]))
        assert said(caught.value) == (
            "event: x-1: no bundled rulebook with this id (bundled: bhg-2011, gansu-2018, hbue-2018)",
            "rulebook.unknown",
            "event",
            {"ref": "x-1", "known": "bhg-2011, gansu-2018, hbue-2018"},
        )


def test_refusals_of_a_rounds_shape_carry_their_code_and_field() -> None:
    err = refusal("bhg-2011", [hand(40)], before_play=[late("NS")])
    assert (err.code, err.field) == ("case.forfeit_no_hands", "hands")
    err = refusal("bhg-2011", [hand(40), hand(40)], levels={"NS": "2", "EW": "A"})
    assert (err.code, err.field, err.values) == (
        "case.hand_after_end",
        "hands[1]",
        {"n": 1, "round_end": "passed_a", "side": "EW"},
    )
    late_ = {**late("EW", 3), "override": {"reason": "r", "sanctions": ["hand_loss"]}}
    err = refusal("bhg-2011", [hand(60)], before_play=[late_])
    assert (err.code, err.field) == ("case.hand_loss_needs_hand", "before_play[0].override")


def test_a_failed_throw_counted_by_the_cards_thrown_needs_them(tmp_path: Any) -> None:
    rb = variant(
        tmp_path,
        "thrown-less-one",
        (
            "sanction = { points_per_card = 10, rest_points_per_card = 10, ",
            "sanction = { points_thrown_less_one = 10, ",
        ),
    )
    failed = {"kind": "failed_throw", "seat": "N", "trick": 3, "cards": 1}
    assert said(refusal("bhg-2011", [hand(60, failed)], rulebook=rb)) == (
        "hands[0].infractions[0].thrown: required: bhg-2011 counts a failed throw by the cards "
        "thrown, (thrown − 1) × 10",
        "case.thrown_required",
        "hands[0].infractions[0].thrown",
        {"rulebook": "bhg-2011"},
    )
    out = decide(case("bhg-2011", [hand(60, {**failed, "thrown": 4})]), rulebook=rb).to_json()
    assert out["hands"][0]["rulings"][0]["points"] == 30


def test_two_offences_are_counted_in_the_order_of_play_however_they_are_listed() -> None:
    """CASE-FORMAT.md: escalation counts occurrences by the trick of the offence, then of its
    discovery, then the facts; the same facts in any order give the same decision (BHG 二、4:
    the 3rd exposure in a hand loses it)."""
    # (S's offence found at once comes before N's in the same trick found two tricks later,
    # although N sorts first by its facts)
    first = {"kind": "exposed_card", "seat": "S", "trick": 2, "discovered": 2}
    found_later = {"kind": "exposed_card", "seat": "N", "trick": 2, "discovered": 4}
    third = {"kind": "exposed_card", "seat": "N", "trick": 5}
    for listed in ([first, found_later, third], [found_later, third, first], [third, found_later, first]):
        rulings = decision("bhg-2011", [hand(60, *listed)])["hands"][0]["rulings"]
        assert {(r["seat"], r["occurrence"]) for r in rulings} == {("S", 1), ("N", 2), ("N", 3)}, listed
        assert next(r for r in rulings if r["seat"] == "S")["occurrence"] == 1
        assert rulings[listed.index(third)]["occurrence"] == 3 and rulings[listed.index(third)]["hand_lost"]
    # the same trick and discovery: the facts themselves decide (here the seat), not the listing
    north = {"kind": "exposed_card", "seat": "N", "trick": 2, "cards": 1}
    south = {"kind": "exposed_card", "seat": "S", "trick": 2, "cards": 1}
    orders = [
        {(r["seat"], r["occurrence"]) for r in decision("bhg-2011", [hand(60, *pair)])["hands"][0]["rulings"]}
        for pair in ([north, south], [south, north])
    ]
    assert orders[0] == orders[1]
