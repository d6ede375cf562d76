"""Roles in the window: with PINs set, opening an event asks for one; the store enforces it."""

from __future__ import annotations

from referee_app.app.session import Session
from referee_app.core import editing, load_rulebook

from .conftest import when_modal


def test_opening_an_event_with_pins_asks_for_a_role(make_window, pairs_csv) -> None:
    window = make_window()
    info = Session.create_event(
        window.store, "角色测试", load_rulebook("bhg-2011"), "2026-11-30", window.actor
    )
    window.fill_events()
    window.open_event(info.id)  # no PINs yet: no login asked
    assert "未设置角色PIN" in window.status_label.text()
    window.import_pairs(str(pairs_csv))
    window.session.set_pin("chief_referee", "135790")
    window.session.set_pin("table_referee", "246879")
    window.session.set_pin("arbitration", "864213")

    def log_in(dialog) -> None:
        dialog.role_combo.setCurrentIndex(dialog.role_combo.findData("table_referee"))
        dialog.pin_edit.setText("111179")
        dialog.accept()  # wrong PIN: stays open, says so at the field
        assert dialog.error_label.isVisible() and dialog.result() == 0
        dialog.pin_edit.setText("246879")
        dialog.accept()

    when_modal(log_in)
    window.open_event(info.id)
    assert window.session.role == "table_referee"
    assert "当前角色：裁判员" in window.status_label.text()
    record = window.session.open_table(1, 1, "1", "2", "E")
    window.session.save(record, editing.complete_hand(record.case, 60))  # a table referee records
    window.act_pairing.trigger()  # seating a whole round is fine for them too
    assert window.stack.currentWidget() is window.pairing_view
    record = window.session.table(1, 1)
    record = window.session.save(
        record, editing.add_infraction(record.case, {"kind": "exposed_card", "seat": "N", "cards": 1})
    )
    ruling = window.session.rulings(record)[0]
    window.session.file_appeal(ruling["id"], "NS", "牌系对方碰落")
    window.act_appeals.trigger()
    desk = window.appeals_view

    seen: dict[str, object] = {}

    def refuse_login(login) -> None:  # the PIN dialog offered: a wrong PIN, then cancelled
        seen["offered"] = True
        login.role_combo.setCurrentIndex(login.role_combo.findData("arbitration"))
        login.pin_edit.setText("000000")
        login.accept()
        assert login.error_label.isVisible()
        login.reject()

    def log_in_as_committee(login) -> None:
        login.role_combo.setCurrentIndex(login.role_combo.findData("arbitration"))
        login.pin_edit.setText("864213")
        login.accept()

    def decide(dialog) -> None:
        dialog.choice["upheld"].setChecked(True)
        dialog.reason.setPlainText("经查录像，该牌系被对方碰落。")
        dialog.committee.setText("委员甲，委员乙")
        when_modal(refuse_login)
        dialog._accept()
        # refused: the dialog stays open with everything typed, and says why
        seen["open"] = dialog.isVisible()
        seen["error"] = dialog.error.text()
        seen["kept"] = (dialog.reason.toPlainText(), dialog.members(), dialog.decision())
        when_modal(log_in_as_committee)
        dialog._accept()

    when_modal(decide)
    assert desk.decide()
    assert seen["offered"] and seen["open"]
    assert seen["error"] == "appeal.decide needs the arbitration committee's PIN (you are: table referee)"
    assert seen["kept"] == ("经查录像，该牌系被对方碰落。", ["委员甲", "委员乙"], "upheld")
    assert window.session.role == "arbitration"
    appeal = window.session.appeals()[0]
    assert appeal["state"] != "filed" and appeal["decision"] == "upheld"
