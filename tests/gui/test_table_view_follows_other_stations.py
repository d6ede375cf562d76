"""A table open at one station follows another station's save on the same table (issue 27:
the hall overview did, the table view did not), through the hall's change-following: two
windows on one SQLite file, the hand confirmed at one by its keys shows at the other by
itself, said where its referee looks; points typed there stay, unpreviewed."""

from __future__ import annotations

from PySide6.QtCore import Qt

from .conftest import open_event_with_table
from .test_station import hand_points


def test_a_hand_confirmed_at_one_station_shows_in_the_other_stations_table_view(
    make_window, pairs_csv, qtbot
) -> None:
    first = make_window()
    open_event_with_table(first, "gansu-2018", pairs_csv)  # table 1 open at the first station
    second = make_window()
    second.fill_events()
    second.open_event(first.session.event.id)
    second.watcher.timer.setInterval(50)
    qtbot.mouseClick(second.hall.cards[0], Qt.MouseButton.LeftButton)
    view = second.table_view
    assert second.stack.currentWidget() is view and hand_points(view) == []
    qtbot.keyClicks(view.defender_points.edit, "85")  # typed here for the first hand

    there = first.table_view
    first.activateWindow()  # a shortcut goes to the active window, as on the referee's screen
    qtbot.waitUntil(first.isActiveWindow)
    qtbot.keyClicks(there.defender_points.edit, "45")
    qtbot.keyClick(there.defender_points.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert hand_points(there) == [45]

    qtbot.waitUntil(lambda: hand_points(view) == [45], timeout=5000)
    assert view.record.version == there.record.version
    assert (
        second.banner.text() == f"第 1 轮第 1 桌已由另一工作站保存（第 {view.record.version} 版），已显示。"
    )
    assert view.defender_points.edit.text() == "85"  # what was typed stays…
    assert not view.confirm_hand_button.isEnabled()  # …not previewed as the second hand
    assert "另一工作站已先保存本桌" in view.outcome.text()
    first.table_view.clear_hand_form()
