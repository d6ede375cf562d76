"""The audit log in the window words an infraction kind and a seat as the event's rulebook
and the referee do (issue 27: a zh line read "hidden_card W"), and an appeal's filing time
in the station's local time like the rest of the line."""

from __future__ import annotations

from PySide6.QtCore import Qt

from referee_app.core import editing

from .conftest import open_event_with_table


def test_an_appeal_in_the_audit_log_names_the_kind_and_seat_in_chinese(make_window, pairs_csv, qtbot) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    session = window.session
    record = session.table(1, 1)
    hidden = {"kind": "hidden_card", "seat": "W", "trick": 3, "discovered": 5, "affects_result": True}
    record = session.save(
        record, editing.end_on_time(editing.complete_hand(editing.add_infraction(record.case, hidden), 120))
    )
    [ruling] = session.rulings(record)
    session.file_appeal(ruling["id"], "EW", "藏牌未影响结果", evidence="记分表", receipt="R-1")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F8)
    log = window.audit_view.text.toPlainText()
    [line] = [line for line in log.splitlines() if "提出申诉" in line]
    label = session.rulebook.kind_labels("zh")["hidden_card"]
    assert f"第 1 副 {label}（西）的判罚 {ruling['id']} 提出申诉" in line, line
    assert "hidden_card" not in log and " W " not in line and "UTC" not in line
