"""The big screen from the window (issue 27: it needed the command line, opened a fixed
1920×1080 window cut off on a laptop, kept full screen on Esc, and the hall overview could
not be it): 裁判长 → 赛场大屏… (Ctrl+Shift+D) picks the picture and the screen; full screen
leaves on Esc for a window that fits the screen it is on; the hall overview on the big
screen is read-only and follows the store."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from referee_app.core import editing
from referee_app.gui.hall_display import BigScreenDialog, HallDisplay, HallOverviewScreen

from .conftest import open_event_with_table, when_modal


def _press(qtbot, window) -> None:
    window.activateWindow()  # a shortcut goes to the active window, as on the referee's screen
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(
        window, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )


def _click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(8, button.height() // 2))


def test_the_hall_display_opens_full_screen_on_the_chosen_screen_and_esc_leaves_it_for_a_window_that_fits(
    make_window, pairs_csv, qtbot
) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    screen = QApplication.primaryScreen()
    seen: dict[str, object] = {}

    def choose(dialog) -> None:
        assert isinstance(dialog, BigScreenDialog)
        seen["screens"] = [dialog.screen_combo.itemText(i) for i in range(dialog.screen_combo.count())]
        if not dialog.full_screen.isChecked():  # one screen here: a window is offered first
            _click(qtbot, dialog.full_screen)
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)

    when_modal(choose)
    _press(qtbot, window)
    [big] = window.big_screens
    assert isinstance(big, HallDisplay) and big.isFullScreen() and big.screen() is screen
    assert seen["screens"] == [f"屏幕 1：{screen.name()}（1024×700）"]
    qtbot.keyClick(big, Qt.Key.Key_Escape)
    area = screen.availableGeometry()
    assert not big.isFullScreen()
    assert 0 < big.width() <= area.width() and 0 < big.height() <= area.height() - 24  # fits, framed
    assert area.contains(big.geometry())
    big.close()
    qtbot.waitUntil(lambda: window.big_screens == [])


def test_the_hall_overview_is_the_big_screen_read_only_and_follows_a_save(
    make_window, pairs_csv, qtbot
) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)

    def overview(dialog) -> None:
        _click(qtbot, dialog.overview)
        assert not dialog.full_screen.isChecked()
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)

    when_modal(overview)
    _press(qtbot, window)
    [big] = window.big_screens
    assert isinstance(big, HallOverviewScreen) and not big.isFullScreen()
    big.watcher.timer.setInterval(50)
    hall = big.hall
    for button in (hall.seat_button, hall.clock.start_button, hall.clock.extend_button):
        assert not button.isVisible()  # nothing to press on the big screen
    assert "未开始" in hall.cards[0].text()
    session = window.session
    record = session.table(1, 1)
    session.save(record, editing.complete_hand(record.case, 45))  # the table's hand, saved
    qtbot.waitUntil(lambda: "进行中" in hall.cards[0].text(), timeout=5000)
    big.close()


def _six_tables(window, tmp_path) -> None:
    """Twelve pairs at six tables of round 1, one of them playing."""
    csv = tmp_path / "twelve.csv"
    csv.write_text(
        "number,player1,player2,unit\n" + "".join(f"{i},甲{i}号,乙{i}号,{i}队\n" for i in range(1, 13)),
        encoding="utf-8",
    )
    from referee_app.app.session import Session
    from referee_app.core.rulebook import load_rulebook

    info = Session.create_event(window.store, "大屏", load_rulebook("gansu-2018"), None, window.actor)
    window.fill_events()
    window.open_event(info.id)
    assert window.import_pairs(str(csv)) == 12
    for t in range(1, 7):
        window.session.open_table(1, t, str(2 * t - 1), str(2 * t), "E")
    record = window.session.table(1, 2)
    window.session.save(record, editing.complete_hand(record.case, 45))
    window.show_hall()


def _open_big_screen(qtbot, window, overview: bool):
    def choose(dialog) -> None:
        if overview:
            _click(qtbot, dialog.overview)
        assert not dialog.full_screen.isChecked()  # one screen: a window that fits it
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)

    when_modal(choose)
    _press(qtbot, window)
    [big] = window.big_screens
    qtbot.waitExposed(big)
    return big


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_hall_overview_fits_a_1024_screen_with_its_text_scaled_and_grows_with_a_larger_one(
    make_window, qtbot, tmp_path, lang: str
) -> None:
    window = make_window(lang)
    _six_tables(window, tmp_path)
    station_size = window.hall.cards[0].font().pointSizeF()
    big = _open_big_screen(qtbot, window, overview=True)
    assert isinstance(big, HallOverviewScreen) and big.width() <= 1024
    hall = big.hall

    def fits() -> None:
        QApplication.processEvents()
        viewport = hall.cards_scroll.viewport()
        assert hall.cards_scroll.horizontalScrollBar().maximum() == 0  # nothing sideways
        for card in hall.cards:
            right = card.mapTo(viewport, QPoint(card.width(), 0)).x()
            assert 0 < right <= viewport.width(), card.record.table
            assert card.width() >= card.fontMetrics().horizontalAdvance(card.text().splitlines()[1])

    fits()
    small = hall.cards[0].font().pointSizeF()
    assert small > station_size and hall.columns < 4  # larger text, fewer cards to a row
    big.resize(1900, 1060)  # a projector's window
    fits()
    assert (
        hall.cards[0].font().pointSizeF() > small * 1.5 and hall.clock.display.font().pointSizeF() > small * 3
    )
    big.resize(1024, 700)
    fits()
    assert hall.cards[0].font().pointSizeF() == small
    big.close()


def test_the_hall_displays_tiles_fit_a_1024_window_and_a_projector(make_window, qtbot, tmp_path) -> None:
    window = make_window()
    _six_tables(window, tmp_path)
    big = _open_big_screen(qtbot, window, overview=False)
    assert isinstance(big, HallDisplay) and big.phase == "during" and big.width() <= 1024
    QApplication.processEvents()
    row = big.body.text().split("<tr>")[1]
    assert row.count("<td") == 5  # it was six, the sixth cut off
    assert big.body.sizeHint().width() <= big.body.width()  # the tiles' table fits the window
    big.resize(1920, 1080)
    QApplication.processEvents()
    assert big.zoom == 1.0 and big.body.sizeHint().width() <= big.body.width()
    big.close()
