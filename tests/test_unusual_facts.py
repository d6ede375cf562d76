"""Odd but possible facts (不常见但可能的事实): saving a record asks the referee to confirm
them, the confirmation is kept with the record, and judging a case file does not ask."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee_app.app.session import Session
from referee_app.core import editing
from referee_app.core.engine import judge
from referee_app.core.errors import CaseError
from referee_app.core.rulebook import load_rulebook, resolve, rulebook_from_text
from referee_app.store.pairs_csv import PairRow
from referee_app.store.service import Actor, Store

CHIEF = Actor("裁判长", "desk-1")
EXPOSED = {"kind": "exposed_card", "seat": "N", "trick": 3, "cards": 1, "severity": "light"}


def gansu_case(*infractions: dict) -> dict:
    return {
        "event": "gansu-2018",
        "first_dealer": "E",
        "finished": "open",
        "hands": [{"defender_points": 60, "infractions": [dict(i) for i in infractions]}],
    }


def open_table(tmp_path: Path, rulebook_text: str | None = None, rulebook_id: str = "gansu-2018"):
    store = Store.open(str(tmp_path / "event.db"), create=True, actor=CHIEF)
    rb = (
        load_rulebook(rulebook_id)
        if rulebook_text is None
        else rulebook_from_text(rulebook_text, "draft.toml")
    )
    ev = Session.create_event(store, "测试赛", rb, "2026-12-04", CHIEF)
    store.import_pairs(
        ev.id, [PairRow(i, str(i), f"甲{i}", f"乙{i}", None) for i in (1, 2)], actor=CHIEF, source="pairs.csv"
    )
    return store, Session(store, ev, CHIEF, "zh")


def test_a_case_file_with_the_same_offence_twice_in_a_trick_is_judged_as_written() -> None:
    out = judge(gansu_case(EXPOSED, EXPOSED))
    assert len(out["hands"][0]["rulings"]) == 2
    assert "confirmed" not in out


def test_saving_the_same_offence_twice_in_a_trick_asks_for_a_confirmation(tmp_path: Path) -> None:
    store, session = open_table(tmp_path)
    with store:
        record = session.open_table(1, 1, "1", "2", "E")
        once = editing.add_infraction(record.case, EXPOSED)
        record = session.save(record, once)
        twice = editing.add_infraction(record.case, EXPOSED)
        head = session.store_head()
        with pytest.raises(CaseError) as refused:
            session.save(record, twice)
        assert refused.value.code == "case.unusual_same_offence_twice"
        assert refused.value.field == "hands[0].infractions[1]"
        assert session.store_head() == head  # nothing written
        confirmed = editing.confirm_fact(twice, "same_offence_twice", "hands[0].infractions[1]")
        record = session.save(record, confirmed)
        assert record.case["confirmed"] == [
            {"fact": "same_offence_twice", "field": "hands[0].infractions[1]"}
        ]
        assert record.decision["confirmed"] == record.case["confirmed"]
        assert len(record.decision["hands"][0]["rulings"]) == 2


def test_a_confirmation_of_a_fact_no_longer_in_the_case_is_not_carried_by_the_decision() -> None:
    voided = dict(EXPOSED, void={"reason": "记重了"})
    case = gansu_case(EXPOSED, voided)
    case["confirmed"] = [{"fact": "same_offence_twice", "field": "hands[0].infractions[1]"}]
    assert "confirmed" not in judge(case)
    case = gansu_case(EXPOSED, EXPOSED)
    case["confirmed"] = [{"fact": "same_offence_twice", "field": "hands[0].infractions[1]"}]
    assert judge(case)["confirmed"] == case["confirmed"]


def test_different_tricks_or_seats_are_not_unusual(tmp_path: Path) -> None:
    store, session = open_table(tmp_path)
    with store:
        record = session.open_table(1, 1, "1", "2", "E")
        case = editing.add_infraction(record.case, EXPOSED)
        case = editing.add_infraction(case, dict(EXPOSED, trick=4))
        case = editing.add_infraction(case, dict(EXPOSED, seat="S"))
        record = session.save(record, case)
        assert "confirmed" not in record.decision


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"fact": "nothing_odd", "field": "hands[0]"}, "confirmed[0].fact"),
        ({"fact": "same_offence_twice"}, "confirmed[0].field"),
        ({"fact": "same_offence_twice", "field": "hands[0]", "by": "me"}, "confirmed[0].by"),
        ("same_offence_twice", "confirmed[0]"),
    ],
)
def test_a_malformed_confirmation_is_refused_naming_its_field(entry: object, field: str) -> None:
    case = gansu_case(EXPOSED)
    case["confirmed"] = [entry]
    with pytest.raises(CaseError) as refused:
        judge(case)
    assert refused.value.field == field


def assumed_limit_rulebook() -> str:
    """Gansu's rulebook as a new event might write it: the re-declaration limit not printed
    by the event, so the rulebook only assumes it."""
    text = resolve("gansu-2018").read_text(encoding="utf-8")
    start = text.index("[redeclarations]")
    end = text.index("[standings]")
    block = (
        "[redeclarations]\n"
        "limits = [{ from_hand = 1, max = 1 }]\n"
        'clause = { ref = "六、五、4", title = "抢庄", zh = "反主次数规程未载明。", '
        'en = "The event prints no limit.", assumed = true, note = "assumed: one re-declaration" }\n\n'
    )
    return text[:start] + block + text[end:]


def test_more_redeclarations_than_an_assumed_limit_are_confirmed_and_marked(tmp_path: Path) -> None:
    store, session = open_table(tmp_path, assumed_limit_rulebook())
    with store:
        record = session.open_table(1, 1, "1", "2", "E")
        case = editing.complete_hand(record.case, defender_points=60, redeclarations=2, bottom={"points": 0})
        with pytest.raises(CaseError) as refused:
            session.save(record, case)
        assert refused.value.code == "case.unusual_redeclarations_over_assumed"
        assert refused.value.field == "hands[0].redeclarations"
        record = session.save(
            record, editing.confirm_fact(case, "redeclarations_over_assumed", "hands[0].redeclarations")
        )
        hand = record.decision["hands"][0]
        assert hand["assumed"]  # the reading stays marked: the limit is the rulebook's own
        assert record.decision["confirmed"] == [
            {"fact": "redeclarations_over_assumed", "field": "hands[0].redeclarations"}
        ]


def test_more_redeclarations_than_a_printed_limit_are_refused_outright(tmp_path: Path) -> None:
    case = {
        "event": "gansu-2018",
        "first_dealer": "E",
        "finished": "open",
        "hands": [{"defender_points": 60}, {"defender_points": 60, "redeclarations": 2}],
    }
    with pytest.raises(CaseError) as refused:
        judge(case)
    assert refused.value.code == "case.redeclarations_over"
