"""Every button works when clicked and every documented shortcut when its keys are pressed
(issue 15, items 1 and 2), also after the interface language was switched."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QInputDialog

from .conftest import open_event_with_table, table_with_one_ruling_selected, when_modal
from .test_table_referee import stored_decision


def press(widget, keys: str) -> None:
    """Press a key sequence such as ``Ctrl+T`` on ``widget`` (the window must be active)."""
    from PySide6.QtGui import QKeySequence

    combo = QKeySequence(keys)[0]
    QTest.keyClick(widget, combo.key(), combo.keyboardModifiers())


def test_the_void_button_voids_the_selected_ruling_when_clicked(make_window, pairs_csv, qtbot) -> None:
    window = make_window()
    table_with_one_ruling_selected(window, pairs_csv)
    view = window.table_view

    def give_reason(dialog) -> None:
        assert isinstance(dialog, QInputDialog)
        dialog.setTextValue("记录错了桌")
        dialog.accept()

    when_modal(give_reason)
    qtbot.mouseClick(view.void_button, Qt.MouseButton.LeftButton)
    case, decision = stored_decision(window)
    infraction = case["before_play"] + [i for h in case["hands"] for i in h["infractions"]]
    assert infraction[0]["void"] == {"reason": "记录错了桌"}
    assert view.rulings_model.index(0, 1).data().startswith("【已撤销：记录错了桌】")


def test_documented_shortcuts_work_by_key_press_in_both_languages(make_window, pairs_csv, qtbot) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)

    def activate() -> None:  # a closed modal leaves no active window offscreen
        window.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window)

    seen: dict[str, str] = {}
    for lang in ("zh", "en"):  # once in Chinese, once after the switch to English (retranslated)
        assert window.language.lang == lang
        view = window.table_view
        assert window.stack.currentWidget() is view
        activate()

        seen.clear()
        when_modal(lambda d: (seen.setdefault("preview", type(d).__name__), d.reject()))
        press(view, "Ctrl+P")
        qtbot.waitUntil(lambda: "preview" in seen)  # noqa: B023 (seen is one dict for both rounds)
        assert seen["preview"] == "PdfPreview"

        activate()
        press(view, "Alt+Left")
        assert window.stack.currentWidget() is window.hall

        when_modal(lambda d: (seen.setdefault("seat", type(d).__name__), d.reject()))
        press(window.hall, "Ctrl+T")
        qtbot.waitUntil(lambda: "seat" in seen)  # noqa: B023
        assert seen["seat"] == "SeatTableDialog"

        window.open_table(1, 1)
        window.toggle_language()
    assert window.language.lang == "zh"


def test_each_infraction_kind_has_its_own_key_shown_on_its_button(make_window, pairs_csv, qtbot) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    keys = view.kind_keys
    assert len(set(keys.values())) == len(keys) == len(view.kind_buttons)  # one key each, all different
    assert view.kind_buttons["hidden_card"].text() == "藏张 (H)"
    for kind, key in keys.items():
        assert f"({key})" in view.kind_buttons[kind].text()
        opened = {}

        def note(dialog, opened=opened) -> None:
            opened["kind"] = dialog.kind
            dialog.reject()

        when_modal(note)
        window.activateWindow()  # back from the previous dialog
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
        view.defender_points.edit.setFocus()  # typing points does not swallow the keys
        press(view.defender_points.edit, key)
        qtbot.waitUntil(lambda opened=opened: "kind" in opened, timeout=1000)
        assert opened["kind"] == kind, kind
    assert view.defender_points.edit.text() == ""
