"""Tests that kill mutmut's surviving mutants of core/engine.py (issue 16).

Each test names the rule it pins: the event's clause (BHG 2011, Gansu 2018, HBUE 2018) or the
reading of DOMAIN.md written in the engine. Equivalent mutants are listed in
tools/mutation-equivalents.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee_app.core import CaseError, load_rulebook
from referee_app.core.engine import Ruling, decide, is_language_free, judge, word, word_ruling

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
    return hand(points, bottom=captured(0, "single", j=j), **extra)


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
    with pytest.raises(CaseError, match=r"hands\[1\]: the round ended at hand 1 \(passed A\)"):
        decide(case("bhg-2011", [hand(40), hand(40)], levels={"NS": "2", "EW": "A"}))


def test_a_round_forfeit_in_play_ends_the_round() -> None:
    forfeit = {"kind": "misconduct", "seat": "N", "disqualified": True}
    with pytest.raises(CaseError, match=r"hands\[1\]: the round ended at hand 1 \(round forfeit\)"):
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
    h = outcome("gansu-2018", 60, wrong_count("N"))
    assert h["gains"] == {"NS": 0, "EW": 2} and h["keep_deal"] is True and h["assumed"] is False
    assert h["lost_by"] == "NS" and h["decided_by"] == "hand_loss"
    # at 0 the points give +3: the better outcome, a reading (assumed)
    h = outcome("gansu-2018", 0, wrong_count("N"))
    assert h["gains"] == {"NS": 0, "EW": 3} and h["assumed"] is True and h["rulings"][0]["assumed"] is True


def test_gansu_the_dealer_side_losing_gives_the_defenders_the_award_or_the_better_points() -> None:
    h = outcome("gansu-2018", 100, wrong_count("E"))
    assert h["gains"] == {"NS": 1, "EW": 0} and h["keep_deal"] is False and h["assumed"] is False
    assert h["next_dealer"] == "N"
    h = outcome("gansu-2018", 160, wrong_count("E"))
    assert h["gains"] == {"NS": 2, "EW": 0} and h["assumed"] is True
    # below 80 the points would keep the deal: the award alone
    assert outcome("gansu-2018", 20, wrong_count("E"))["gains"] == {"NS": 1, "EW": 0}


def test_gansu_a_hand_ended_at_once_has_no_points_to_compare() -> None:
    # the dealer side's illegal signal ends the hand: the printed 2, not the 3 its 200 would give
    h = outcome("gansu-2018", 200, signal("E"))
    assert h["gains"] == {"NS": 2, "EW": 0} and h["assumed"] is False


def test_gansu_several_hand_losses_the_largest_award_stands_whatever_the_order() -> None:
    for infs in ([wrong_count("N"), signal("S")], [signal("S"), wrong_count("N")]):
        h = outcome("gansu-2018", 60, *infs)
        assert h["gains"] == {"NS": 0, "EW": 3}  # illegal signal: 3 against the defenders
        assert h["assumed"] is False


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
