"""The window asks the referee to confirm an odd fact before saving it (the same exposure
logged twice in a trick), shows it in the preview, and keeps the confirmation."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from referee_app.gui.infraction_dialog import InfractionDialog

from .conftest import open_event_with_table, when_modal
from .test_table_referee import fill, stored_decision


def log_exposure(view, answer: QMessageBox.StandardButton | None, seen: dict[str, str]) -> bool:
    def look(dialog: InfractionDialog) -> None:
        fill(dialog, "N", {"trick": 3, "severity": "light"})
        seen["preview"] = dialog.preview_label.text()
        if answer is not None:

            def reply(box) -> None:
                assert isinstance(box, QMessageBox)
                seen["question"] = box.text()
                box.button(answer).click()

            when_modal(reply)
        dialog.confirm()

    when_modal(look)
    return view.log_infraction("exposed_card")


def test_the_same_exposure_twice_in_a_trick_is_saved_only_once_confirmed(make_window, pairs_csv) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    view = window.table_view
    seen: dict[str, str] = {}
    assert log_exposure(view, None, seen)
    assert "保存时需确认" not in seen["preview"]

    assert not log_exposure(view, QMessageBox.StandardButton.No, seen)
    assert "保存时需确认" in seen["preview"] and "第 3 墩又记了一次" in seen["preview"]
    assert "确认这确实发生了吗" in seen["question"]
    case, _ = stored_decision(window)
    assert len(case["hands"][0]["infractions"]) == 1  # not confirmed: nothing saved

    assert log_exposure(view, QMessageBox.StandardButton.Yes, seen)
    case, decision = stored_decision(window)
    assert len(case["hands"][0]["infractions"]) == 2
    assert case["confirmed"] == [{"fact": "same_offence_twice", "field": "hands[0].infractions[1]"}]
    assert decision["confirmed"] == case["confirmed"]
