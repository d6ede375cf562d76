"""The round clock is extended and adjusted from the window (issue 27: it needed the command
line): each with the chief referee's reason (refused without one, the dialog kept), the
chief referee's role asked for at a table referee's station, the act in the audit log, and
the new time shown at every station — here a second window on the same SQLite file."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from referee_app.gui.chief import ClockChangeDialog
from referee_app.gui.login import LoginDialog

from .conftest import open_event_with_table, when_modal

CHIEF_PIN = "246810"


@pytest.fixture(autouse=True)
def _cheap_pin_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """New PIN hashes cost 2^14 here, as in tests/store (the real checks still run)."""
    from referee_app.store import roles

    monkeypatch.setattr(roles, "SCRYPT_N", 2**14)


def test_the_clock_is_extended_and_adjusted_with_a_reason_by_the_chief_referee_and_every_station_shows_it(
    make_window, pairs_csv, qtbot
) -> None:
    desk = make_window()
    open_event_with_table(desk, "bhg-2011", pairs_csv)
    desk.session.set_pin("chief_referee", CHIEF_PIN)  # the desk is the chief referee's from here
    desk.show_hall()
    qtbot.mouseClick(desk.hall.clock.start_button, Qt.MouseButton.LeftButton)
    minutes = desk.session.rulebook.data["round"]["minutes"]

    table = make_window()  # a table referee's station: its login is cancelled
    table.fill_events()
    when_modal(lambda login: login.reject())
    table.open_event(desk.session.event.id)
    table.show_hall()
    table.watcher.timer.setInterval(50)
    assert table.session.role != "chief_referee"
    seen: dict[str, object] = {}

    def extend(dialog) -> None:
        assert isinstance(dialog, ClockChangeDialog)
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)  # no reason yet
        seen["no_reason"] = dialog.error_label.text()
        seen["focus"] = dialog.focusWidget() is dialog.reason
        dialog.reason.setText("赛场停电")  # QTest cannot type Chinese
        when_modal(chief_login)
        qtbot.keyClick(dialog.reason, Qt.Key.Key_Return)

    def chief_login(dialog) -> None:
        assert isinstance(dialog, LoginDialog)
        seen["role"] = dialog.role_combo.currentText()
        qtbot.keyClicks(dialog.pin_edit, CHIEF_PIN)
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)

    when_modal(extend)
    qtbot.mouseClick(table.hall.clock.extend_button, Qt.MouseButton.LeftButton)
    assert seen == {"no_reason": "理由：延长计时须写明裁判长的理由。", "focus": True, "role": "裁判长"}
    assert table.hall.clock.total == (minutes + 5) * 60
    assert table.hall.clock.changes.text() == "已延长 5 分钟"

    def adjust(dialog) -> None:
        assert isinstance(dialog, ClockChangeDialog) and dialog.action == "adjust"
        dialog.minutes.selectAll()
        qtbot.keyClicks(dialog.minutes, "-2")
        dialog.reason.setText("计时晚开始两分钟")
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)

    left_before = desk.session.clock(1).remaining_s
    when_modal(adjust)
    qtbot.mouseClick(desk.hall.clock.adjust_button, Qt.MouseButton.LeftButton)
    # the desk's clock: 5 more minutes from the table's extension, 2 fewer from its adjustment
    qtbot.waitUntil(lambda: desk.hall.clock.changes.text() == "已延长 5 分钟 · 已调整 −2 分钟", timeout=5000)
    assert desk.hall.clock.total == (minutes + 5) * 60
    assert 0 <= (left_before - 2 * 60) - desk.session.clock(1).remaining_s < 30  # 2 minutes fewer
    assert desk.hall.clock.remaining() <= left_before - 2 * 60 + 1
    # the other station follows by itself, the reasons in the tooltip
    qtbot.waitUntil(lambda: "调整 −2 分钟" in table.hall.clock.changes.text(), timeout=5000)
    assert table.hall.clock.changes.toolTip() == "延长 5 分钟：赛场停电\n调整 −2 分钟：计时晚开始两分钟"
    desk.act_audit.trigger()
    log = desk.audit_view.text.toPlainText()
    assert "第 1 轮计时：延长 5 分钟，原因：赛场停电" in log
    assert "第 1 轮计时：剩余时间调整 −2 分钟，原因：计时晚开始两分钟" in log
