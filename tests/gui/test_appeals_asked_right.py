"""The appeals desk asks the right things (issue 27 item 7): the decision dialog suggests no
decision (it defaulted to 驳回), its login offers 仲裁委员会 (it offered 裁判长), Ctrl+Enter
records it, and the 申诉时限 column says from when the window runs before it has started."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from referee_app.gui.appeals import DecideDialog
from referee_app.gui.login import LoginDialog

from .conftest import table_with_one_ruling_selected, when_modal

CHIEF_PIN, COMMITTEE_PIN = "246810", "975310"


@pytest.fixture(autouse=True)
def _cheap_pin_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """New PIN hashes cost 2^14 here, as in tests/store (the real checks still run)."""
    from referee_app.store import roles

    monkeypatch.setattr(roles, "SCRYPT_N", 2**14)


def test_the_decision_is_the_committees_choice_asked_for_and_recorded_by_ctrl_enter(
    make_window, pairs_csv, qtbot
) -> None:
    window = make_window()
    table_with_one_ruling_selected(window, pairs_csv)
    view, session = window.table_view, window.session

    def file(dialog) -> None:
        dialog.grounds.setPlainText("牌是正常打出的。")
        dialog.receipt.setText("R-7")
        dialog._accept()

    when_modal(file)
    assert view.file_appeal() is not None
    session.set_pin("chief_referee", CHIEF_PIN)  # the chief referee's station from here on
    session.set_pin("arbitration", COMMITTEE_PIN)
    window.act_appeals.trigger()
    desk = window.appeals_view
    deadline = desk.list.item(0, 6).text()
    assert deadline, "申诉时限 is empty"
    assert "分钟" in deadline
    seen = {}

    def committee_login(dialog) -> None:
        assert isinstance(dialog, LoginDialog)
        seen["role"] = dialog.role_combo.currentText()
        qtbot.keyClicks(dialog.pin_edit, COMMITTEE_PIN)
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)

    def decide(dialog) -> None:
        assert isinstance(dialog, DecideDialog)
        assert not any(button.isChecked() for button in dialog.choice.values())  # none suggested
        dialog.reason.setPlainText("经查，判罚无误。")  # QTest types Latin-1 only
        dialog.committee.setText("委员甲")
        qtbot.keyClick(dialog.reason, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        seen["asked"] = dialog.error.text()  # no decision chosen: asked, not recorded
        rejected = dialog.choice["rejected"]  # a click on its round button
        qtbot.mouseClick(rejected, Qt.MouseButton.LeftButton, pos=QPoint(8, rejected.height() // 2))
        assert dialog.decision() == "rejected"
        when_modal(committee_login)
        qtbot.keyClick(dialog.reason, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    when_modal(decide)
    assert desk.decide()
    assert seen == {"asked": "请选择裁决：申诉成立、改判或驳回。", "role": "仲裁委员会"}
    assert session.appeals()[0]["state"] == "rejected"
