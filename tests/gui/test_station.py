"""The table referee's station (issue 15, items 3–8): corrections, blank facts, mis-taps,
checks, drafts and small screens, driven through the real widgets."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from .conftest import open_event_with_table, table_with_one_ruling_selected, when_modal
from .test_signing import sign_everyone


def type_points(view, defender: str, bottom: str = "") -> None:
    view.defender_points.edit.setText(defender)
    view.bottom_points.edit.setText(bottom)


def double_click_hand(qtbot, view, row: int) -> None:
    index = view.hands_model.index(row, 0)
    rect = view.hands_view.visualRect(index)
    viewport = view.hands_view.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())


def hand_points(view) -> list[int]:
    return [h["defender_points"] for h in view.record.case["hands"] if "defender_points" in h]


def test_a_mistyped_hand_is_corrected_before_signing_by_double_click(make_window, pairs_csv, qtbot) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    for points in ("60", "85"):
        type_points(view, points)
        qtbot.mouseClick(view.confirm_hand_button, Qt.MouseButton.LeftButton)
    assert hand_points(view) == [60, 85]
    levels_after_first = view.record.decision["hands"][0]["levels_after"]

    double_click_hand(qtbot, view, 0)
    assert view.editing_hand == 0
    assert view.defender_points.edit.text() == "60"
    assert view.hand_box.title() == "更正第1副的分数"
    assert view.cancel_edit_button.isVisible()
    view.defender_points.edit.setText("120")
    qtbot.mouseClick(view.confirm_hand_button, Qt.MouseButton.LeftButton)
    assert hand_points(view) == [120, 85]  # the second hand stays; no third hand was added
    assert view.record.decision["hands"][0]["levels_after"] != levels_after_first
    assert view.editing_hand is None and view.hand_box.title() == "录入本副结果"


def test_after_signing_a_hand_is_corrected_only_within_the_chief_referees_correction(
    make_window, pairs_csv, qtbot
) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    type_points(view, "60")
    qtbot.mouseClick(view.confirm_hand_button, Qt.MouseButton.LeftButton)
    when_modal(lambda box: box.button(box.StandardButton.Yes).click())
    qtbot.mouseClick(view.end_button, Qt.MouseButton.LeftButton)
    when_modal(sign_everyone)
    qtbot.mouseClick(view.sign_button, Qt.MouseButton.LeftButton)
    assert view.record.signed
    signed_version = view.record.version

    told = {}
    when_modal(lambda box: (told.setdefault("text", box.text()), box.close()))
    double_click_hand(qtbot, view, 0)
    assert "签字锁定" in told["text"] and view.editing_hand is None

    def reason(dialog) -> None:
        dialog.setTextValue("第1副防守方得分应为65分")
        dialog.accept()

    when_modal(reason)
    qtbot.mouseClick(view.correct_button, Qt.MouseButton.LeftButton)
    assert view.correction_banner.isVisible()
    assert "第1副防守方得分应为65分" in view.correction_banner.text()
    window.say("something else")  # the status bar moves on; the banner stays
    QTest.qWait(10)
    assert view.correction_banner.isVisible()

    double_click_hand(qtbot, view, 0)
    assert view.editing_hand == 0 and view.hand_box.isEnabled()
    view.defender_points.edit.setText("65")
    qtbot.mouseClick(view.confirm_hand_button, Qt.MouseButton.LeftButton)
    assert hand_points(view) == [65]
    assert view.record.version == signed_version + 1 and not view.record.signed
    assert view.record.case.get("finished") == "time"
    assert not view.correction_banner.isVisible() and view.sign_button.isEnabled()
    log = window.session.store.log(window.session.event.id, 1, 1)
    assert any("第1副防守方得分应为65分" in str(entry) for entry in log)


def test_a_fact_that_decides_the_rule_must_be_entered_before_confirming(
    make_window, pairs_csv, qtbot
) -> None:
    from referee_app.gui.infraction_dialog import InfractionDialog

    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    view = window.table_view
    seen: dict[str, object] = {}

    def hidden_found_in_trick_4(dialog: InfractionDialog) -> None:
        dialog.who_buttons["W"].click()
        dialog.inputs["discovered"].setValue(4)  # the offence's own trick left blank
        seen["enabled"] = dialog.confirm_button.isEnabled()
        seen["preview"] = dialog.preview_label.text()
        seen["trick_error"] = dialog.errors["trick"].isVisible()
        qtbot.mouseClick(dialog.confirm_button, Qt.MouseButton.LeftButton)
        seen["still_open"] = dialog.isVisible()
        dialog.inputs["trick"].setValue(2)
        seen["enabled_after"] = dialog.confirm_button.isEnabled()
        qtbot.mouseClick(dialog.confirm_button, Qt.MouseButton.LeftButton)

    when_modal(hidden_found_in_trick_4)
    assert view.log_infraction("hidden_card")
    assert seen["enabled"] is False and seen["still_open"] is True and seen["trick_error"] is True
    assert "发生于第几圈" in str(seen["preview"])
    assert seen["enabled_after"] is True
    logged = view.record.case["hands"][-1]["infractions"][-1]
    assert logged["trick"] == 2 and logged["discovered"] == 4
    assert "当圈" not in view.record.decision["hands"][-1]["rulings"][-1]["text"]

    def card_count(dialog: InfractionDialog) -> None:
        dialog.who_buttons["N"].click()
        phase = dialog.inputs["phase"]
        seen["phase_blank"] = phase.currentData() is None
        seen["count_enabled"] = dialog.confirm_button.isEnabled()
        dialog.reject()

    when_modal(card_count)
    assert not view.log_infraction("wrong_card_count")
    assert seen["phase_blank"] is True and seen["count_enabled"] is False


def test_bhg_hidden_card_with_blank_tricks_is_not_ruled_same_trick(make_window, pairs_csv) -> None:
    from referee_app.gui.infraction_dialog import InfractionDialog

    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    seen = {}

    def blank(dialog: InfractionDialog) -> None:
        dialog.who_buttons["S"].click()
        seen["enabled"] = dialog.confirm_button.isEnabled()
        seen["preview"] = dialog.preview_label.text()
        dialog.reject()

    when_modal(blank)
    assert not window.table_view.log_infraction("hidden_card")
    assert seen["enabled"] is False and "发现于第几圈" in seen["preview"]


def test_a_bottom_above_the_rulebooks_maximum_is_refused(make_window, pairs_csv, qtbot) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    assert window.session.rulebook.data["bottom"]["max_points"] == 80
    type_points(view, "60", "90")
    assert not view.confirm_hand_button.isEnabled()
    assert view.bottom_points.error.isVisible() and "0–80" in view.bottom_points.error.text()
    qtbot.mouseClick(view.confirm_hand_button, Qt.MouseButton.LeftButton)
    assert hand_points(view) == []
    view.bottom_points.edit.setText("80")
    assert view.confirm_hand_button.isEnabled()


def test_ending_the_round_with_time_left_says_how_much_and_defaults_to_no(
    make_window, pairs_csv, qtbot
) -> None:
    import time

    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    type_points(view, "60")
    qtbot.mouseClick(view.confirm_hand_button, Qt.MouseButton.LeftButton)
    clock = window.hall.clock
    clock.restore(time.time() - (clock.total - 47 * 60 - 30), 0.0)  # 47½ minutes left
    seen = {}

    def answer(box) -> None:
        seen["text"] = box.text()
        seen["default"] = box.defaultButton() is box.button(box.StandardButton.No)
        box.button(box.StandardButton.No).click()

    when_modal(answer)
    qtbot.mouseClick(view.end_button, Qt.MouseButton.LeftButton)
    assert "还剩47分钟" in seen["text"] and seen["default"]
    assert view.record.case.get("finished") != "time" and view.record.decision.get("result") is None


def test_a_late_arrival_forfeit_is_voided_with_a_reason_and_arrival_is_pressed_once(
    make_window, pairs_csv, qtbot
) -> None:
    import time

    from PySide6.QtWidgets import QInputDialog

    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    window.hall.clock.restore(time.time() - 11 * 60, 0.0)  # started 11 minutes ago
    when_modal(lambda dialog: qtbot.mouseClick(dialog.confirm_button, Qt.MouseButton.LeftButton))
    qtbot.mouseClick(view.arrive["NS"], Qt.MouseButton.LeftButton)
    assert view.record.case["before_play"][0]["minutes"] == 11
    assert view.record.decision.get("result") is not None  # the round is forfeited at once
    assert not view.arrive["NS"].isEnabled()  # arrival cannot be pressed a second time
    assert view.void_button.isEnabled()

    view.rulings_view.selectRow(0)

    def reason(dialog) -> None:
        assert isinstance(dialog, QInputDialog)
        dialog.setTextValue("到场时钟未按时开始，按错")
        dialog.accept()

    when_modal(reason)
    qtbot.mouseClick(view.void_button, Qt.MouseButton.LeftButton)
    assert view.record.case["before_play"][0]["void"] == {"reason": "到场时钟未按时开始，按错"}
    assert view.record.decision.get("result") is None
    assert view.arrive["NS"].isEnabled() and view.hand_box.isEnabled()


def test_a_single_tap_on_the_signature_pad_is_not_a_signature(make_window, qtbot) -> None:
    from referee_app.gui.signature import SignDialog

    window = make_window()
    dialog = SignDialog(window.language, {"N": "张三"}, "第1轮 第1桌", window)
    qtbot.addWidget(dialog)
    dialog.show()
    pad = dialog.pads["N"]
    qtbot.mouseClick(pad, Qt.MouseButton.LeftButton, pos=pad.rect().center())
    assert pad.strokes and pad.is_empty()
    assert "北" in dialog.missing.text() or "N" in dialog.missing.text()
    for other in ("E", "S", "W", "referee"):
        dialog.pads[other].add_stroke([(10, 40), (40, 20), (70, 50), (110, 25)])
    assert not dialog.confirm_button.isEnabled()
    start = pad.rect().center()
    qtbot.mousePress(pad, Qt.MouseButton.LeftButton, pos=start)
    for dx in range(5, 100, 5):
        QTest.mouseMove(pad, start + QPoint(dx - 50, (dx % 20) - 10))
    qtbot.mouseRelease(pad, Qt.MouseButton.LeftButton, pos=start + QPoint(50, 0))
    assert not pad.is_empty() and dialog.confirm_button.isEnabled()


def test_quitting_with_typed_points_asks_and_no_keeps_the_window(make_window, pairs_csv, qtbot) -> None:
    from PySide6.QtWidgets import QApplication

    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    type_points(view, "65")
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    seen = {}

    def refuse(box) -> None:
        seen["text"] = box.text()
        box.button(box.StandardButton.No).click()

    when_modal(refuse)
    try:
        QTest.keyClick(view.defender_points.edit, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: "text" in seen)
        assert "未确认" in seen["text"]
        assert window.isVisible() and view.defender_points.edit.text() == "65"
    finally:
        view.defender_points.edit.clear()  # the test's own teardown closes the window unasked


def test_a_void_with_an_empty_reason_asks_again(make_window, pairs_csv, qtbot) -> None:
    from PySide6.QtWidgets import QInputDialog

    window = make_window()
    table_with_one_ruling_selected(window, pairs_csv)
    view = window.table_view
    asked = []

    def second(dialog) -> None:
        assert isinstance(dialog, QInputDialog)
        asked.append("again")
        dialog.setTextValue("录错桌")
        dialog.accept()

    def warned(box) -> None:
        asked.append(box.text())
        when_modal(second)
        box.close()

    def empty(dialog) -> None:
        assert isinstance(dialog, QInputDialog)
        asked.append("first")
        when_modal(warned)
        dialog.setTextValue("  ")
        dialog.accept()

    when_modal(empty)
    qtbot.mouseClick(view.void_button, Qt.MouseButton.LeftButton)
    assert asked == ["first", "撤销判罚须填写理由。", "again"]
    assert view.record.case["hands"][0]["infractions"][0]["void"] == {"reason": "录错桌"}


def test_the_window_fits_the_available_screen(make_window) -> None:
    window = make_window()
    window.fit_to_screen()
    area = window.screen().availableGeometry()
    assert window.width() <= area.width() and window.height() <= area.height()


def test_a_preview_with_an_instruction_has_one_full_stop_not_two(make_window, pairs_csv, qtbot) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    seen = {}

    def look(dialog) -> None:
        qtbot.mouseClick(dialog.who_buttons["N"], Qt.MouseButton.LeftButton)
        seen["preview"] = dialog.preview_label.text()
        dialog.reject()

    when_modal(look)
    window.table_view.log_infraction("bottom_miscount")
    assert "通过抽牌退牌调整底牌张数。依据" in seen["preview"] and "。。" not in seen["preview"]


def test_the_file_dialog_speaks_chinese_in_chinese_mode(make_window, pairs_csv) -> None:
    from PySide6.QtWidgets import QFileDialog, QLabel

    window = make_window()
    window.language.install_qt_translator()  # as the app does at start
    open_event_with_table(window, "bhg-2011", pairs_csv)
    seen = {}

    def look(dialog) -> None:
        seen["type"] = type(dialog)
        seen["labels"] = [label.text() for label in dialog.findChildren(QLabel)]
        dialog.reject()

    when_modal(look)
    assert window.import_pairs() == 0  # cancelled
    assert seen["type"] is QFileDialog
    assert seen["labels"] == ["查找范围(&L)：", "文件名称(&N)：", "文件类型(&T)："]
