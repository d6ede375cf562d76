"""An appeal filed at the table, decided at the appeals desk: the round and the standings move."""

from __future__ import annotations

from referee_app.app.event import load_event
from referee_app.core import editing
from referee_app.core.standings import compute_standings

from .conftest import open_event_with_table, when_modal


def test_an_upheld_appeal_changes_the_result_and_the_standings(make_window, pairs_csv) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    session = window.session
    view = window.table_view
    # NS (defending, E deals) are ruled to have hidden a card that affected the result:
    # Gansu 六、六、D2 gives the dealer side EW +2, and EW win the round. Without that ruling
    # NS's 120 points take the deal with +1 and NS win.
    hidden = {"kind": "hidden_card", "seat": "N", "trick": 3, "discovered": 5, "affects_result": True}
    case = editing.complete_hand(editing.add_infraction(view.record.case, hidden), 120)
    record = session.save(view.record, editing.end_on_time(case))
    view.load(record)
    assert record.decision["result"]["winner"] == "EW"

    def before_standings():
        loaded = load_event(session.store, session.event.id)
        return compute_standings(session.rulebook, loaded.record, seed=1).rows

    assert before_standings()[0]["pair"] == "2"  # EW's pair leads

    view.rulings_view.selectRow(0)

    def fill(dialog) -> None:
        assert dialog.by_buttons["NS"].isChecked()  # the sanctioned pair appeals by default
        dialog._accept()  # refused: no grounds yet
        assert dialog.error.isVisible() and dialog.result() == 0
        dialog.grounds.setPlainText("该牌已于第3圈正常打出，不构成藏牌。")
        dialog.evidence.setText("本桌记分表")
        dialog.receipt.setText("R-0001")
        dialog._accept()

    when_modal(fill)
    appeal = view.file_appeal()
    assert appeal is not None and appeal["state"] == "filed" and appeal["late_minutes"] == 0
    window.show_hall()
    assert "申诉待决" in window.hall.cards[0].text()

    window.act_appeals.trigger()
    desk = window.appeals_view
    assert desk.list.rowCount() == 1
    assert "该牌已于第3圈正常打出" in desk.detail.toPlainText()
    assert "六、六、D2" in desk.detail.toPlainText()
    desk.review()
    assert desk.appeals[0]["state"] == "under_review"

    def decide(dialog) -> None:
        dialog.choice["upheld"].setChecked(True)
        dialog.reason.setPlainText("经查录像，该牌系正常出牌。")
        dialog.committee.setText("委员甲，委员乙")
        dialog._accept()

    messages = []
    desk.changed.connect(messages.append)
    when_modal(decide)
    assert desk.decide()
    assert any("本轮结果已改变" in m for m in messages)
    after = session.table(1, 1)
    assert after.decision["result"]["winner"] == "NS"
    ruling = after.decision["hands"][0]["rulings"][0]
    assert ruling["voided"] and "申诉" in ruling["void_reason"]
    assert before_standings()[0]["pair"] == "1"  # the standings follow the decision

    desk.open_only.setChecked(False)
    desk.list.selectRow(0)
    seen = {}
    when_modal(lambda dialog: (seen.setdefault("pages", dialog.page_count()), dialog.accept()))
    desk.preview_form()
    assert seen["pages"] >= 1
