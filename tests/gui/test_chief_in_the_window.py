"""What needed the command line, in the window (issue 27 item 3): the roles' PINs (from the
login dialog that asks for one, and from the menu), the round's end and the publication of
its scores (the role asked, the same refusal as everywhere), and the audit trail readable."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from referee_app.app.session import Session
from referee_app.core.rulebook import load_rulebook
from referee_app.gui.chief import SetPinDialog
from referee_app.gui.login import LoginDialog

from .conftest import when_modal

CHIEF_PIN, TABLE_PIN = "246810", "135790"


@pytest.fixture(autouse=True)
def _cheap_pin_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """New PIN hashes cost 2^14 here, as in tests/store (each hash names its own cost, so
    every check still runs the real code)."""
    from referee_app.store import roles

    monkeypatch.setattr(roles, "SCRYPT_N", 2**14)


def _press(qtbot, window, key: Qt.Key, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    window.activateWindow()  # a shortcut goes to the active window, as on the referee's screen
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, key, modifiers)


def _click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def _event(window, pairs_csv):
    info = Session.create_event(window.store, "PIN 赛", load_rulebook("gansu-2018"), None, window.actor)
    window.fill_events()
    window.open_event(info.id)  # no PINs yet: no login asked
    window.import_pairs(str(pairs_csv))
    return window.session


def _type_new_pin(qtbot, dialog: SetPinDialog, pin: str, again: str | None = None) -> None:
    qtbot.keyClicks(dialog.new_pin, pin)
    qtbot.keyClicks(dialog.again, again or pin)
    _click(qtbot, dialog.ok_button)


def test_the_login_dialog_gives_the_chief_referee_the_way_to_set_the_first_pin(
    make_window, pairs_csv, qtbot
) -> None:
    window = make_window()
    session = _event(window, pairs_csv)
    seen = {}

    def new_pin(dialog) -> None:
        assert isinstance(dialog, SetPinDialog)
        seen["role"] = dialog.role_combo.currentText()
        _type_new_pin(qtbot, dialog, CHIEF_PIN, "246811")  # mistyped the second time
        seen["differ"] = dialog.error_label.text()
        dialog.again.clear()
        qtbot.keyClicks(dialog.again, CHIEF_PIN)
        _click(qtbot, dialog.ok_button)

    def login(dialog) -> None:
        assert isinstance(dialog, LoginDialog) and "尚未设置 PIN" in dialog.note_label.text()
        when_modal(new_pin)
        _click(qtbot, dialog.set_pin_button)

    when_modal(login)
    _press(qtbot, window, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert seen == {"role": "裁判长", "differ": "两次输入的 PIN 不一致，未作更改。"}
    assert session.roles_enforced() and session.role == "chief_referee"
    assert "裁判长" in window.status_label.text()

    def table_pin(dialog) -> None:  # the chief referee, logged in, sets another role's PIN
        assert not dialog.chief_pin.isVisible()
        dialog.role_combo.setCurrentIndex(dialog.role_combo.findText("裁判员"))
        _type_new_pin(qtbot, dialog, TABLE_PIN)

    when_modal(table_pin)
    _press(
        qtbot, window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert window.banner.text() == "已设置裁判员的 PIN。"
    assert session.role_states()["table_referee"].has_pin


def test_the_round_ends_and_its_scores_are_published_by_the_chief_referee_asked_for(
    make_window, pairs_csv, qtbot
) -> None:
    window = make_window()
    session = _event(window, pairs_csv)
    session.set_pin("chief_referee", CHIEF_PIN)
    session.set_pin("table_referee", TABLE_PIN)
    session.login("table_referee", TABLE_PIN)  # a table referee's station
    shift_ctrl = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier

    def yes(box) -> None:
        _click(qtbot, box.button(QMessageBox.StandardButton.Yes))

    def chief_login(dialog) -> None:
        dialog.role_combo.setCurrentIndex(dialog.role_combo.findText("裁判长"))
        qtbot.keyClicks(dialog.pin_edit, CHIEF_PIN)
        _click(qtbot, dialog.ok_button)

    when_modal(lambda box: (when_modal(chief_login), yes(box)))
    _press(qtbot, window, Qt.Key.Key_E, shift_ctrl)
    assert list(session.round_marks(1)) == ["round_end"]
    assert window.banner.text().startswith("第 1 轮已结束（") and "T" not in window.banner.text()
    assert "已在数据文件夹中保留副本（已核对）" in window.banner.text()  # as `round end` keeps one
    assert session.role == "chief_referee"

    session.login("table_referee", TABLE_PIN)
    refusal = {}

    def cancel_login(dialog) -> None:
        when_modal(lambda box: (refusal.update(title=box.windowTitle(), text=box.text()), box.accept()))
        _click(qtbot, dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel))

    when_modal(lambda box: (when_modal(cancel_login), yes(box)))
    _press(qtbot, window, Qt.Key.Key_S, shift_ctrl)
    assert refusal["title"] == "未保存" and "裁判员" in refusal["text"]
    assert list(session.round_marks(1)) == ["round_end"]  # nothing published

    _press(qtbot, window, Qt.Key.Key_F8)
    log = window.audit_view.text.toPlainText()
    assert window.stack.currentWidget() is window.audit_view
    assert "设置 裁判员 的 PIN" in log and "［裁判长］第 1 轮比赛结束" in log, log
