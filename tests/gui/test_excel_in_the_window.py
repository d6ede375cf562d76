"""Excel in the window (issue 27 item 2): the entry list an office sends as ``.xlsx`` imports
through the import dialog, and the standings and pairing shown export to an Excel workbook
that reads back as shown."""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook, load_workbook
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QMessageBox

from referee_app.app.session import Session
from referee_app.core.rulebook import load_rulebook

from .conftest import type_path, when_modal


def _pick(qtbot, path: Path, button: QDialogButtonBox.StandardButton, then=None) -> None:
    """On the next file dialog: ``path`` picked, then the referee's click on ``button``;
    ``then`` runs on the modal dialog that follows (a refusal)."""

    def choose(dialog) -> None:
        assert isinstance(dialog, QFileDialog)
        type_path(dialog, path)
        if then is not None:
            when_modal(then)
        buttons = dialog.findChild(QDialogButtonBox, "buttonBox")
        qtbot.mouseClick(buttons.button(button), Qt.MouseButton.LeftButton)

    when_modal(choose)


def _press(qtbot, window, key: Qt.Key) -> None:
    window.activateWindow()  # a shortcut goes to the active window, as on the referee's screen
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, key, Qt.KeyboardModifier.ControlModifier)


def test_an_xlsx_entry_list_imports_from_the_window_and_a_bad_row_is_named(
    make_window, qtbot, tmp_path
) -> None:
    window = make_window()
    info = Session.create_event(window.store, "Excel", load_rulebook("gansu-2018"), None, window.actor)
    window.fill_events()
    window.open_event(info.id)
    book = Workbook()
    sheet = book.active
    for row in (
        ["报名表"],
        ["编号", "选手1", "选手2", "单位"],
        [1, "甲一", "乙一", "北城队"],
        [2, "丙二", "丁二"],
    ):
        sheet.append(row)
    sheet.append([2, "戊三", "己三"])
    bad = tmp_path / "bad.xlsx"
    book.save(bad)
    seen = {}

    def refused(box) -> None:
        seen["text"] = box.text()
        box.accept()

    _pick(qtbot, bad, QDialogButtonBox.StandardButton.Open, then=refused)
    _press(qtbot, window, Qt.Key.Key_I)
    qtbot.waitUntil(lambda: "text" in seen)
    assert seen["text"] == f"{bad}：第 5 行：参赛对编号 2 已在第 4 行出现。"
    assert window.session.pairs() == []
    sheet.delete_rows(5)
    good = tmp_path / "good.xlsx"
    book.save(good)
    _pick(qtbot, good, QDialogButtonBox.StandardButton.Open)
    _press(qtbot, window, Qt.Key.Key_I)
    qtbot.waitUntil(lambda: len(window.session.pairs()) == 2)
    assert [(p["number"], p["unit"]) for p in window.session.pairs()] == [("1", "北城队"), ("2", None)]
    assert window.banner is not None and window.banner.text() == "已导入 2 对。"


def test_the_standings_and_the_pairing_shown_export_to_excel(make_window, pairs_csv, qtbot, tmp_path) -> None:
    window = make_window()
    info = Session.create_event(window.store, "导出", load_rulebook("gansu-2018"), None, window.actor)
    window.fill_events()
    window.open_event(info.id)
    window.import_pairs(str(pairs_csv))
    window.act_pairing.trigger()
    view = window.pairing_view
    target = tmp_path / "pairing.xlsx"
    _pick(qtbot, target, QDialogButtonBox.StandardButton.Save)
    qtbot.mouseClick(view.export_button, Qt.MouseButton.LeftButton)
    sheet = load_workbook(target).active
    table = view.table
    shown = [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]
    header = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    rows = [
        [("" if v is None else str(v)) for v in row] for row in sheet.iter_rows(min_row=2, values_only=True)
    ]
    assert rows[0] == header and rows[1:] == shown and len(shown) == 2
    assert isinstance(sheet["A3"].value, int)  # the table's number stays a number the office can sort
    when_modal(
        lambda box: qtbot.mouseClick(box.button(QMessageBox.StandardButton.Yes), Qt.MouseButton.LeftButton)
    )
    qtbot.mouseClick(view.publish_button, Qt.MouseButton.LeftButton)
    window.act_standings.trigger()
    standings = window.standings_view
    target = tmp_path / "standings.xlsx"
    _pick(qtbot, target, QDialogButtonBox.StandardButton.Save)
    qtbot.mouseClick(standings.export_button, Qt.MouseButton.LeftButton)
    sheet = load_workbook(target).active
    assert sheet["A1"].value == "导出 名次表 1"
    assert [c.value for c in sheet[2]][:4] == [
        standings.table.horizontalHeaderItem(c).text() for c in range(4)
    ]
    assert sheet.max_row == 2 + standings.table.rowCount() == 6
