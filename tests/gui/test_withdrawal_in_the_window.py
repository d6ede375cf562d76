"""A pair leaving mid-round (中途退出) from the table view (issue 27: only ``record`` with a
case file could say it): 中途退出… asks which side and why, previews the round's result with
the clause on leaving and its assumed mark, and saves the case's ``withdrawal`` through the
same operation as the command line; a change like any other, refused when another station
saved first, and out of reach once the table is signed."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from referee_app.core import editing
from referee_app.gui.withdrawal import WithdrawalDialog
from referee_app.store.service import Actor, Store

from .conftest import open_event_with_table, when_modal, when_shown
from .test_station import type_points

CLICK = Qt.MouseButton.LeftButton


def _sign(dialog) -> None:  # the four players and the referee (tests/gui/test_signing.py)
    for pad in dialog.pads.values():
        pad.add_stroke([(10, 40), (40, 20), (70, 50), (110, 25)])
    dialog.confirm_button.click()


def _play(qtbot, view, *points: str) -> None:
    for p in points:
        type_points(view, p)
        qtbot.mouseClick(view.confirm_hand_button, CLICK)


def test_a_pair_leaving_is_previewed_with_its_clause_and_saved_as_the_command_line_records_it(
    make_window, pairs_csv, qtbot, tmp_path: Path
) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    _play(qtbot, view, "0", "0")
    assert len(view.record.case["hands"]) == 2 and view.withdraw_button.text() == "中途退出…"
    seen: dict[str, object] = {}

    def leave(dialog) -> None:
        assert isinstance(dialog, WithdrawalDialog)
        seen["title"] = dialog.windowTitle()
        seen["before"] = (dialog.ok_button.isEnabled(), dialog.outcome.text())
        qtbot.mouseClick(dialog.side_buttons["NS"], CLICK)
        seen["outcome"] = dialog.outcome.text()
        qtbot.mouseClick(dialog.ok_button, CLICK)  # no reason yet: asked for, not saved
        seen["no_reason"] = (dialog.isVisible(), dialog.error_label.text())
        dialog.reason_edit.setText("队员身体不适")  # QTest cannot type Chinese
        qtbot.mouseClick(dialog.ok_button, CLICK)

    when_shown(WithdrawalDialog, leave)
    qtbot.mouseClick(view.withdraw_button, CLICK)
    assert seen["title"] == "中途退出（第 1 轮第 1 桌）"
    assert seen["before"] == (False, "<i>请选择退出的一方。</i>")
    outcome = str(seen["outcome"])
    assert "南北方中途退出，本轮判负（已打各副有效）" in outcome
    assert "积分 南北0 : 东西2　级数 南北2 : 东西8" in outcome  # the board's lead, kept
    assert "依据条款: <b>参赛须知 8 退出比赛</b>" in outcome and "⚠ 规程未载明中途退出如何计分" in outcome
    assert seen["no_reason"] == (True, "请写明退出的原因。")
    assert window.banner.isVisible() and window.banner.text() == "已保存：南北方中途退出（第 4 版）。"

    saved = window.session.table(1, 1)
    assert saved.case["withdrawal"] == {"side": "NS", "reason": "队员身体不适"}
    assert len(saved.decision["hands"]) == 2  # the hands played stand
    forfeit, result = saved.decision["forfeit"], saved.decision["result"]
    assert (forfeit["cause"], forfeit["reason"], forfeit["assumed"]) == ("withdrawal", "队员身体不适", True)
    assert (result["winner"], result["citation"], result["assumed"]) == ("EW", "参赛须知 8 退出比赛", True)
    assert "东西方胜" in view.status.text()
    assert not view.withdraw_button.isEnabled() and not view.hand_box.isEnabled()  # the round is over
    assert view.sign_button.isEnabled()

    # the command line's record of the same case decides the same
    from ..test_desk_cli import cli, make_event

    (tmp_path / "cli").mkdir()
    db, store, _ = make_event(tmp_path / "cli", 4)
    store.close()
    case_file = tmp_path / "case.json"
    case_file.write_text(
        json.dumps(dict(saved.case, round=1, table=1, pairs=saved.pairs), ensure_ascii=False),
        encoding="utf-8",
    )
    assert cli(db, "record", str(case_file))[0] == 0
    rc, out, _ = cli(db, "export")
    assert rc == 0
    [exported] = [json.loads(line) for line in out.splitlines()]
    assert exported["decision"]["result"] == result and exported["decision"]["forfeit"] == forfeit


def test_a_withdrawal_is_refused_when_another_station_saved_first_and_not_offered_once_signed(
    make_window, pairs_csv, qtbot, db_path: Path
) -> None:
    window = make_window("en")
    open_event_with_table(window, "gansu-2018", pairs_csv)
    view = window.table_view
    _play(qtbot, view, "40")
    other = Store.open(str(db_path), actor=Actor("裁判二", "station-2"))
    try:
        shown = view.record
        other.record(
            window.session.event.id,
            dict(editing.complete_hand(shown.case, 85), round=1, table=1, pairs=shown.pairs),
            actor=Actor("裁判二", "station-2"),
            lang="en",
            expected_version=shown.version,
        )
    finally:
        other.close()
    refused: dict[str, str] = {}

    def leave(dialog) -> None:
        assert dialog.windowTitle() == "A pair leaves (round 1, table 1)"
        qtbot.mouseClick(dialog.side_buttons["EW"], CLICK)
        assert "East-West: left during the round: the round is lost" in dialog.outcome.text()
        dialog.reason_edit.setText("left the hall")

        def refusal(box) -> None:
            assert isinstance(box, QMessageBox)
            refused["title"], refused["text"] = box.windowTitle(), box.text()
            box.accept()

        when_modal(refusal)
        qtbot.mouseClick(dialog.ok_button, CLICK)

    when_shown(WithdrawalDialog, leave)
    qtbot.mouseClick(view.withdraw_button, CLICK)
    assert (
        refused["title"] == "Not saved"
        and "changed by someone else (you edited version 2)" in refused["text"]
    )
    fresh = window.session.table(1, 1)
    assert "withdrawal" not in fresh.case and view.record.version == fresh.version  # shown again

    # ended on time and signed: the table is locked, the withdrawal no longer offered
    when_modal(lambda box: box.button(QMessageBox.StandardButton.Yes).click())
    qtbot.mouseClick(view.end_button, CLICK)
    when_modal(_sign)
    qtbot.mouseClick(view.sign_button, CLICK)
    assert view.record.signed and not view.withdraw_button.isEnabled()
    qtbot.mouseClick(view.withdraw_button, CLICK)
    qtbot.wait(50)
    assert QApplication.activeModalWidget() is None and "withdrawal" not in window.session.table(1, 1).case
