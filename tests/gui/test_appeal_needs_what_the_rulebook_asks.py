"""An appeal is filed with what the event's rulebook asks for (issue 27, appeals): Gansu
六、八、2 asks for a 200 yuan deposit and evidence, so the window's appeal is refused — in one
line naming the field, which gets the focus — until the receipt and the evidence are given;
an attachment (a photo) is optional and kept by its name and SHA-256. The refusal is the
store operation's, so the command line refuses the same (tests/store/test_appeals.py)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog

from referee_app.core import editing
from referee_app.gui.appeals import FileAppealDialog

from .conftest import open_event_with_table, type_path, when_modal


def test_a_gansu_appeal_needs_the_deposit_receipt_and_evidence_and_keeps_the_photo(
    make_window, pairs_csv, qtbot, tmp_path: Path
) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    view, session = window.table_view, window.session
    hidden = {"kind": "hidden_card", "seat": "N", "trick": 3, "discovered": 5, "affects_result": True}
    case = editing.complete_hand(editing.add_infraction(view.record.case, hidden), 120)
    view.load(session.save(view.record, editing.end_on_time(case)))
    view.rulings_view.selectRow(0)
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"\xff\xd8 a photo of the cards \xff\xd9")
    seen: dict[str, object] = {}

    def ok(dialog: FileAppealDialog) -> None:
        [button] = [b for b in dialog.findChildren(type(dialog.attach_button)) if b.isDefault()]
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    def grounds_only(dialog) -> None:
        assert isinstance(dialog, FileAppealDialog)
        assert "200" in dialog.receipt.placeholderText() and "证据" in dialog.evidence.placeholderText()
        dialog.grounds.setPlainText("藏牌已被及时发现，未影响结果。")  # QTest cannot type Chinese
        when_modal(no_receipt)
        ok(dialog)

    def no_receipt(dialog) -> None:
        seen["receipt"] = dialog.error.text()
        seen["receipt_focus"] = dialog.focusWidget() is dialog.receipt
        qtbot.keyClicks(dialog.receipt, "R-0007")
        when_modal(no_evidence)
        ok(dialog)

    def no_evidence(dialog) -> None:
        seen["evidence"] = dialog.error.text()
        seen["evidence_focus"] = dialog.focusWidget() is dialog.evidence
        seen["kept"] = (dialog.grounds.toPlainText(), dialog.receipt.text())
        dialog.evidence.setText("邻桌裁判员目睹")
        when_modal(choose_photo)
        qtbot.mouseClick(dialog.attach_button, Qt.MouseButton.LeftButton)
        assert dialog.attach_label.text() == "photo.jpg"
        ok(dialog)

    def choose_photo(files) -> None:
        assert isinstance(files, QFileDialog)
        type_path(files, photo)
        buttons = files.findChild(QDialogButtonBox, "buttonBox")
        qtbot.mouseClick(buttons.button(QDialogButtonBox.StandardButton.Open), Qt.MouseButton.LeftButton)

    when_modal(grounds_only)
    qtbot.mouseClick(view.appeal_button, Qt.MouseButton.LeftButton)
    assert seen == {
        "receipt": "收据编号：本赛事规程规定申诉须缴纳 200 元申诉费（押金），请填写其收据编号。",
        "receipt_focus": True,
        "evidence": "证据：本赛事规程规定申诉须提供证据：请以文字写明证据（附件可选）。",
        "evidence_focus": True,
        "kept": ("藏牌已被及时发现，未影响结果。", "R-0007"),
    }
    [appeal] = session.appeals()
    digest = hashlib.sha256(photo.read_bytes()).hexdigest()
    assert appeal["receipt"] == "R-0007"
    assert appeal["evidence"] == f"邻桌裁判员目睹\nattachment: photo.jpg sha256:{digest}"
    window.act_appeals.trigger()
    shown = window.appeals_view.detail.toPlainText()
    assert "证据: 邻桌裁判员目睹" in shown and f"附件: photo.jpg sha256:{digest}" in shown, shown
