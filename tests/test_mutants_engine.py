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
