"""Buttons that meant something else (issue 27 item 4): a side arriving on time records no
late-arrival ruling (0 minutes gave 警告), a late side's arrival opens the ruling with its
minutes; a paused round clock says 已暂停 and offers 继续计时; once the round is ended and its
scores published the clock stops and cannot be started again."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from referee_app.gui.infraction_dialog import InfractionDialog

from .conftest import open_event_with_table, when_modal


def _click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_a_side_arriving_on_time_records_nothing_and_a_late_one_gets_its_minutes(
    make_window, pairs_csv, qtbot
) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    view = window.table_view
    version = view.record.version
    _click(qtbot, view.arrive["NS"])  # the clock not started yet: on time
    assert view.record.case.get("before_play") in (None, [])
    assert view.record.version == version and view.rulings_model.rowCount() == 0
    assert not view.arrive["NS"].isEnabled() and view.arrive["NS"].text() == "南北方已准时到场"
    assert window.banner.text() == "南北方准时到场（不记录违规）。"
    window.hall.clock.restore(time.time() - 4 * 60 - 5, 0.0)  # started 4 minutes ago
    seen = {}

    def late(dialog) -> None:
        assert isinstance(dialog, InfractionDialog)
        seen["preview"] = dialog.preview_label.text()
        _click(qtbot, dialog.confirm_button)

    when_modal(late)
    _click(qtbot, view.arrive["EW"])
    assert view.record.case["before_play"] == [{"kind": "late_arrival", "side": "EW", "minutes": 4}]
    assert "警告" in seen["preview"]


def test_the_clock_says_paused_offers_to_resume_and_stops_once_the_round_is_over(
    make_window, pairs_csv, qtbot
) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    window.show_hall()
    clock = window.hall.clock
    assert clock.start_button.text() == "开始计时" and not clock.state.isVisible()
    _click(qtbot, clock.start_button)
    assert window.session.clock(1).phase == "running"
    _click(qtbot, clock.start_button)  # 暂停
    assert window.session.clock(1).phase == "paused"
    assert clock.state.isVisible() and clock.state.text() == "已暂停"
    assert clock.start_button.text() == "继续计时"
    _click(qtbot, clock.start_button)
    assert window.session.clock(1).phase == "running" and not clock.state.isVisible()

    def yes(box) -> None:
        _click(qtbot, box.button(QMessageBox.StandardButton.Yes))

    for action in (window.act_end_round, window.act_publish_scores):
        when_modal(yes)
        action.trigger()
    assert not clock.running and not clock.timer.isActive()
    assert clock.state.text() == "本轮已结束，成绩已公布" and not clock.start_button.isEnabled()
    shown = clock.display.text()
    qtbot.wait(1100)
    assert clock.display.text() == shown  # stopped where it was
