"""The application layer's signing, correction and appeal calls (what the GUI uses)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_appeals import SIGS, flip_case

from referee_app.app.session import Session, TableRecord
from referee_app.store.errors import LockedError, StoreError
from referee_app.store.service import Actor, Store


@pytest.fixture
def session(event_db: str) -> Iterator[Session]:
    store = Store.open(event_db)
    s = Session(store, store.pick_event(None), Actor("赵裁判", "table-1"), "zh")
    yield s
    store.close()


def _open(session: Session) -> TableRecord:
    case = {k: v for k, v in flip_case().items() if k not in ("round", "table", "pairs")}
    return session.save_new(1, 1, {"NS": "1", "EW": "2"}, case, expected_version=0)


def test_sign_locks_and_correct_makes_a_new_unsigned_version(session: Session) -> None:
    record = _open(session)
    assert record.status == "finished" and not session.is_signed(record) and session.signatures(record) == {}
    signed = session.sign(record, SIGS)
    assert signed.status == "signed" and signed.signed and session.is_signed(signed)
    assert session.signatures(signed) == SIGS
    changed = dict(
        signed.case, hands=[dict(signed.case["hands"][0], defender_points=60), signed.case["hands"][1]]
    )
    with pytest.raises(LockedError, match=r"round 1 table 1 is signed \(version 1\)"):
        session.save(signed, changed)
    with pytest.raises(StoreError, match="needs a written reason"):
        session.correct(signed, changed, "  ")
    corrected = session.correct(signed, changed, "第1副得分抄错")
    assert corrected.version == 2 and corrected.status == "finished" and not session.is_signed(corrected)
    assert session.signatures(signed) == SIGS  # the signed version is kept, signed
    assert session.store.verify().ok


def test_appeal_status_and_decision(session: Session) -> None:
    record = _open(session)
    session.sign(record, SIGS)
    [ruling] = session.rulings(session.table(1, 1))
    assert ruling["hand"] == 1 and ruling["kind"] == "exposed_card" and ruling["decision"] == "confirmed"
    a = session.file_appeal(ruling["id"], "NS", "北家没有亮牌", receipt="No. 1")
    assert a["state"] == "filed" and a["open"]
    assert session.table(1, 1).status == "appeal"  # an open appeal shows first
    assert session.table(1, 1).signed  # …and the version is still locked
    assert [x["id"] for x in session.appeals(1)] == [a["id"]] and session.appeals(2) == []
    assert session.review_appeal(a["id"])["state"] == "under_review"
    done = session.decide_appeal(a["id"], "upheld", "录像显示牌未亮出", ["周委员", "吴委员"])
    assert done["state"] == "upheld" and done["fee"] == "refunded"
    after = session.table(1, 1)
    assert after.version == 2 and after.status == "finished" and after.decision["result"]["winner"] == "NS"
    assert after.players == {"NS": ["张三", "李四"], "EW": ["王五", "赵六"]}


def test_a_table_saved_in_english_is_read_in_chinese_without_judging_again(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    english = Session(session.store, session.event, Actor("Referee Li", "table-2"), "en")
    saved = _open(english)
    assert "North" in saved.decision["hands"][0]["rulings"][0]["text"]

    def no_judging(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the stored decision is worded, not judged again")

    monkeypatch.setattr("referee_app.app.session.judge", no_judging)
    read = session.table(1, 1)
    ruling = read.decision["hands"][0]["rulings"][0]
    assert (
        "北" in ruling["text"] and ruling["citation"] == saved.decision["hands"][0]["rulings"][0]["citation"]
    )
    assert read.decision["hands"][0]["text"].endswith("。")
    # the same numbers in both languages
    assert read.decision["hands"][0]["levels_after"] == saved.decision["hands"][0]["levels_after"]
