"""Typed input at risk (issue 27 item 5): points refused because another station saved first
are not previewed as the next hand; Esc on a half-filled ruling asks before dropping it;
底牌分 is typed only with 抠底 ticked; a correction that changes nothing is refused and the
signatures stand."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from referee_app.core import editing
from referee_app.gui.infraction_dialog import InfractionDialog

from .conftest import open_event_with_table, when_modal
from .test_signing import sign_everyone
from .test_station import double_click_hand, hand_points
from .test_table_referee import fill


def _click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_points_refused_by_another_stations_save_are_not_previewed_as_the_next_hand(
    make_window, pairs_csv, qtbot
) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    view = window.table_view
    session = window.session
    other = session.table(1, 1)  # another station, same table, saves the hand first
    session.save(other, editing.complete_hand(other.case, 45))
    qtbot.keyClicks(view.defender_points.edit, "45")
    refused = {}
    when_modal(lambda box: (refused.setdefault("text", box.text()), box.accept()))
    _click(qtbot, view.confirm_hand_button)
    assert "已被他人修改" in refused["text"]
    assert hand_points(view) == [45]  # the other station's hand, shown
    assert view.defender_points.edit.text() == "45"  # what was typed stays…
    assert not view.confirm_hand_button.isEnabled()  # …but is not one Ctrl+Enter from saving
    assert "另一工作站已先保存本桌" in view.outcome.text() and "预览" not in view.outcome.text()[:4]
    qtbot.keyClick(view.defender_points.edit, Qt.Key.Key_Backspace)
    qtbot.keyClicks(view.defender_points.edit, "0")  # the referee looked and typed 40
    assert view.confirm_hand_button.isEnabled() and "防守方得40分" in view.outcome.text()


def test_esc_on_a_half_filled_ruling_asks_before_dropping_it(make_window, pairs_csv, qtbot) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    asked = []

    def half_fill(dialog: InfractionDialog) -> None:
        fill(dialog, "W", {"cards": 2})

        def keep(box) -> None:
            asked.append(box.text())
            _click(qtbot, box.button(QMessageBox.StandardButton.No))

        when_modal(keep)
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        assert asked and dialog.isVisible()  # kept open: nothing lost

        def drop(box) -> None:
            asked.append(box.text())
            _click(qtbot, box.button(QMessageBox.StandardButton.Discard))

        when_modal(drop)
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)

    when_modal(half_fill)
    assert not view.log_infraction("exposed_card")
    assert len(asked) == 2 and "已填写的内容将丢失" in asked[0]

    def untouched(dialog: InfractionDialog) -> None:
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)  # nothing entered: closes at once

    when_modal(untouched)
    assert not view.log_infraction("exposed_card") and len(asked) == 2


def test_bottom_points_are_typed_only_with_the_bottom_captured(make_window, pairs_csv, qtbot) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    assert not view.bottom_points.edit.isEnabled()
    qtbot.keyClick(view.captured, Qt.Key.Key_Space)
    assert view.captured.isChecked() and view.bottom_points.edit.isEnabled()
    qtbot.keyClicks(view.bottom_points.edit, "20")
    qtbot.keyClick(view.captured, Qt.Key.Key_Space)
    assert not view.bottom_points.edit.isEnabled() and view.bottom_points.edit.text() == ""


def test_a_correction_that_changes_nothing_is_refused_and_the_signatures_stand(
    make_window, pairs_csv, qtbot
) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    qtbot.keyClicks(view.defender_points.edit, "60")
    _click(qtbot, view.confirm_hand_button)
    when_modal(lambda box: box.button(box.StandardButton.Yes).click())
    _click(qtbot, view.end_button)
    when_modal(sign_everyone)
    _click(qtbot, view.sign_button)
    signed_version = view.record.version
    assert view.record.signed

    def reason(dialog) -> None:
        dialog.setTextValue("核对第1副")
        dialog.accept()

    when_modal(reason)
    _click(qtbot, view.correct_button)
    double_click_hand(qtbot, view, 0)
    assert view.defender_points.edit.text() == "60"
    refused = {}
    when_modal(lambda box: (refused.setdefault("text", box.text()), box.accept()))
    _click(qtbot, view.confirm_hand_button)  # the same 60 points
    assert "与第" in refused["text"] and "签字仍然有效" in refused["text"]
    fresh = window.session.table(1, 1)
    assert fresh.version == signed_version and fresh.signed
