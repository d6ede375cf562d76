"""An infraction kind the event defines beyond the 14 (issue 25, "infractions the 14 kinds do
not name"), with its own Chinese and English label: checked by the schema, logged in a case,
judged with its own rules and escalation, and refused when a case names a kind the rulebook
does not have.

Written from BHG's text (seed 000, 一、比赛纪律 4): "赛场内不得使用手机、寻呼机及其它电子
设备", which the 14 kinds cannot say except by relabelling misconduct; the sanction read from
二's forms (判罚形式有：警告……): a warning, then 10 points from the 2nd time in a round."""

from __future__ import annotations

import pytest

from referee_app.app.messages import describe
from referee_app.core.catalogue import fields_for
from referee_app.core.engine import judge
from referee_app.core.errors import CaseError, RulebookError
from referee_app.core.rulebook import check_files, rulebook_from_text

from .conftest import RULES

PHONE = """
[counters.phone_use]
scope = "round"
[[counters.phone_use.steps]]
from_count = 2
sanction = { points = 10 }
clause = { ref = "一、比赛纪律 4；二", title = "电子设备", zh = "赛场内不得使用手机、寻呼机及其它电子设备。", en = "From the 2nd time in a round: 10 points.", assumed = true, note = "The text gives no sanction; read from 二's forms: a warning, then points." }

[infractions.phone_use]
label = { zh = "使用手机", en = "Using a phone" }
event_kind = true
[[infractions.phone_use.rules]]
id = "warning"
sanction = { warning = true }
counter = "phone_use"
clause = { ref = "一、比赛纪律 4", title = "电子设备", zh = "赛场内不得使用手机、寻呼机及其它电子设备。", en = "No phones, pagers or other electronic devices in the hall.", assumed = true, note = "The text gives no sanction; the mildest of 二's forms (警告) first." }
"""


def _rulebook(extra: str = PHONE):
    text = (
        (RULES / "bhg-2011.toml").read_text(encoding="utf-8").replace('id = "bhg-2011"', 'id = "club-2026"')
    )
    return rulebook_from_text(text + extra, "club.toml", use_cache=False)


def _case(*kinds: str) -> dict:
    return {
        "event": "club-2026",
        "first_dealer": "E",
        "finished": "open",
        "hands": [
            {"defender_points": 40, "infractions": [{"kind": kind, "seat": seat, "trick": 3}]}
            for kind, seat in zip(kinds, ("S", "N"), strict=False)
        ],
    }


def test_an_event_kind_is_judged_by_its_own_rules_label_and_escalation() -> None:
    rulebook = _rulebook()
    assert "phone_use" in rulebook.kinds
    decision = judge(_case("phone_use", "phone_use"), lang="zh", rulebook=rulebook)
    first, second = (hand["rulings"][0] for hand in decision["hands"])
    assert first["warning"] and first["points"] == 0 and first["label"]["zh"] == "使用手机"
    assert first["text"].startswith("使用手机（南）：警告") and first["assumed"]
    # the 2nd time in the round (the other player of the side): 10 points from NS, defenders
    assert second["escalated"] and second["points"] == 10 and second["against"] == "NS"
    assert decision["hands"][1]["defender_total"] == 30
    english = judge(_case("phone_use"), lang="en", rulebook=rulebook)
    assert english["hands"][0]["rulings"][0]["text"].startswith("Using a phone (South): warning.")
    # the table asks for the facts an offence at the table has (its trick, its cards)
    assert set(fields_for(rulebook.data, "phone_use")) <= {
        "cards",
        "trick",
        "discovered",
        "phase",
        "severity",
        "affects_result",
    }


def test_a_case_naming_a_kind_the_rulebook_does_not_have_is_refused_as_a_choice() -> None:
    with pytest.raises(CaseError) as caught:
        judge(_case("phone"), rulebook=_rulebook())
    assert str(caught.value) == (
        "hands[0].infractions[0].kind: expected one of late_arrival, out_of_turn, wrong_card_count, "
        "bottom_miscount, exposed_card, failed_throw, wrong_play, hidden_card, wrong_declaration, "
        'unreasonable_play, illegal_signal, delay, trick_handling, misconduct, phone_use, got "phone"'
    )
    with pytest.raises(CaseError):  # the bundled rulebook has no such kind
        judge({**_case("phone_use"), "event": "bhg-2011"})


def test_a_kind_outside_the_14_must_say_it_is_the_events_own(tmp_path) -> None:
    with pytest.raises(RulebookError):
        _rulebook(PHONE.replace("event_kind = true\n", ""))
    path = tmp_path / "club.toml"
    text = (RULES / "bhg-2011.toml").read_text(encoding="utf-8")
    path.write_text(text + PHONE.replace("event_kind = true\n", ""), encoding="utf-8")
    [problem] = check_files([str(path)])
    row = (text + PHONE).splitlines().index("[infractions.phone_use]") + 1
    assert describe(problem, "zh") == (
        f"{path}：违规及处罚 › “phone_use”：不是 14 种违规之一；本赛事自定的违规须写 event_kind = true"
        f"（并给出中英文名称 label）（第 {row} 行）。"
    )
    path.write_text(
        text.replace("[infractions.delay]\n", "[infractions.delay]\nevent_kind = true\n"), encoding="utf-8"
    )
    [problem] = check_files([str(path)])
    assert "违规及处罚 › 拖延比赛时间 › 本赛事自定的违规：“拖延比赛时间”是 14 种违规之一" in describe(
        problem, "zh"
    )
