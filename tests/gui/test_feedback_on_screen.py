"""Feedback on screen (issue 27 item 1): the window with its title bar fits the laptop's screen
(the status bar stays in view), the outcome of a hand reads without scrolling sideways at
1024×700, and what was saved or imported is said over the view, where the referee looks."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog, QStyle

from referee_app.gui.i18n import Language
from referee_app.gui.main_window import MainWindow

from .conftest import open_event_with_table, type_path, when_modal

CLICK = Qt.MouseButton.LeftButton


def test_the_window_leaves_room_for_its_title_bar_and_shows_its_status_bar(qtbot) -> None:
    window = MainWindow(Language("zh"))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window._painted)
    QApplication.processEvents()
    area = window.screen().availableGeometry()
    title_bar = window.style().pixelMetric(QStyle.PixelMetric.PM_TitleBarHeight)
    # resize() sizes the inside: the frame a window manager adds must still fit the screen
    assert window.frameGeometry().height() + title_bar <= area.height()
    assert area.contains(window.frameGeometry())
    bar = window.statusBar()
    bottom_left = bar.mapToGlobal(QPoint(0, bar.height() - 1))
    assert bar.isVisible() and area.contains(bottom_left)


def test_a_hands_outcome_reads_without_scrolling_sideways_at_1024_by_700(
    make_window, pairs_csv, qtbot
) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    window.fit_to_screen()
    view = window.table_view
    qtbot.keyClicks(view.defender_points.edit, "45")
    qtbot.mouseClick(view.confirm_hand_button, Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    table = view.hands_view
    header = table.horizontalHeader()
    outcome = view.hands_model.columnCount() - 2  # 结果, before the levels after the hand
    assert view.hands_model.headerData(outcome, Qt.Orientation.Horizontal) == "结果"
    left = header.sectionViewportPosition(outcome)
    assert table.horizontalScrollBar().value() == 0
    assert left >= 0 and left + header.sectionSize(outcome) <= table.viewport().width()
    assert "防守方得45分" in view.hands_model.index(0, outcome).data()


def test_a_saved_hand_is_said_in_a_banner_over_the_view(make_window, pairs_csv, qtbot) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    view = window.table_view
    qtbot.keyClicks(view.defender_points.edit, "85")
    qtbot.mouseClick(view.confirm_hand_button, Qt.MouseButton.LeftButton)
    banner = window.banner
    assert banner is not None and banner.isVisible()
    assert banner.text() == f"已保存（第 {view.record.version} 版）。"
    shown = QRect(banner.mapTo(window, QPoint(0, 0)), banner.size())
    assert window.rect().contains(shown) and shown.top() < window.height() // 3  # at the top, in view
    assert window.statusBar().currentMessage() == banner.text()


def test_importing_pairs_from_the_menu_says_how_many_over_the_view(make_window, pairs_csv, qtbot) -> None:
    from referee_app.app.session import Session
    from referee_app.core.rulebook import load_rulebook

    window = make_window()
    info = Session.create_event(window.store, "导入", load_rulebook("gansu-2018"), None, window.actor)
    window.fill_events()
    window.open_event(info.id)

    def choose(dialog) -> None:
        assert isinstance(dialog, QFileDialog)
        type_path(dialog, pairs_csv)  # the file named; the referee's click opens it
        buttons = dialog.findChild(QDialogButtonBox, "buttonBox")
        qtbot.mouseClick(buttons.button(QDialogButtonBox.StandardButton.Open), Qt.MouseButton.LeftButton)

    when_modal(choose)
    window.activateWindow()  # a shortcut goes to the active window, as on the referee's screen
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.banner is not None and window.banner.isVisible())
    assert window.banner.text() == "已导入 4 对。"
    assert len(window.session.pairs()) == 4


@pytest.mark.parametrize(("lang", "width"), [("zh", 1024), ("en", 1024), ("zh", 1366), ("en", 1366)])
def test_the_banner_over_the_hall_never_hides_its_round_clock(
    make_window, pairs_csv, qtbot, lang: str, width: int
) -> None:
    """It was centred over the top row, where the clock is: a seated table's 已安排 hid the
    clock for its seconds (at 1024 px the clock sits right of the centre, under the banner)."""
    window = make_window(lang)
    open_event_with_table(window, "gansu-2018", pairs_csv)
    window.resize(width, 700)
    window.show_hall()
    hall = window.hall
    window.activateWindow()  # a shortcut goes to the active window, as on the referee's screen
    qtbot.waitUntil(window.isActiveWindow)

    def seat(dialog) -> None:
        dialog.ns.setCurrentIndex(2)
        dialog.ew.setCurrentIndex(3)
        qtbot.mouseClick(dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok), CLICK)

    when_modal(seat)
    qtbot.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)  # 安排桌次
    banner = window.banner
    assert banner is not None and banner.isVisible()
    assert banner.text() == ("第 2 桌已安排。" if lang == "zh" else "Table 2 seated.")
    shown = QRect(banner.mapTo(window, QPoint(0, 0)), banner.size())
    for widget in (hall.clock.display, hall.clock.start_button, hall.round, hall.seat_button):
        assert widget.isVisible()
        kept = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
        assert not shown.intersects(kept), widget
    assert window.rect().contains(shown) and shown.top() < window.height() // 4  # still where one looks
    # a table opened while it is shown: back at the top of the view (the table has no clock)
    qtbot.mouseClick(hall.cards[0], CLICK)
    assert window.stack.currentWidget() is window.table_view and banner.isVisible()
    assert banner.mapTo(window, QPoint(0, 0)).y() < shown.top()
