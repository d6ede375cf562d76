"""English in the Chinese window (issue 27 item 6): Qt's own file dialog says 文件夹, an
infraction dialog has no English subtitle, and the audit log's times are the station's local
times, not ISO."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QLabel, QTreeView

from .conftest import open_event_with_table, when_modal


def _press(qtbot, window, key: Qt.Key, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    window.activateWindow()  # a shortcut goes to the active window, as on the referee's screen
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, key, modifiers)


def test_the_file_dialog_calls_a_folder_a_folder_in_chinese(make_window, pairs_csv, qtbot, tmp_path) -> None:
    window = make_window()
    window.language.install_qt_translator()  # as the app does at start
    open_event_with_table(window, "gansu-2018", pairs_csv)
    (tmp_path / "报名表").mkdir()
    seen = {}

    def look(dialog) -> None:
        assert isinstance(dialog, QFileDialog)
        dialog.setDirectory(str(tmp_path))
        dialog.setViewMode(QFileDialog.ViewMode.Detail)
        tree = dialog.findChild(QTreeView)
        model = tree.model()
        qtbot.waitUntil(lambda: model.rowCount(tree.rootIndex()) > 0)
        root = tree.rootIndex()
        rows = {
            model.index(r, 0, root).data(): model.index(r, 2, root).data()
            for r in range(model.rowCount(root))
        }
        seen["rows"] = rows
        dialog.reject()

    when_modal(look)
    _press(qtbot, window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: "rows" in seen)
    assert seen["rows"]["报名表"] == "文件夹"


def test_an_infraction_dialog_has_no_english_subtitle_in_chinese(make_window, pairs_csv, qtbot) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    seen = {}

    def look(dialog) -> None:
        seen["text"] = " ".join(label.text() for label in dialog.findChildren(QLabel))
        dialog.reject()

    when_modal(look)
    qtbot.mouseClick(view.kind_buttons["exposed_card"], Qt.MouseButton.LeftButton)
    label = window.session.rulebook.data["infractions"]["exposed_card"]["label"]
    assert label["zh"] in seen["text"] and label["en"] not in seen["text"]


def test_the_audit_log_shows_local_readable_times(make_window, pairs_csv, qtbot) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    _press(qtbot, window, Qt.Key.Key_F8)
    text = window.audit_view.text.toPlainText()
    first = text.splitlines()[0]
    assert re.match(r"#\d+  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d  裁判一@station-1  ", first), first
    assert "UTC" not in text and not re.search(r"\d{4}-\d\d-\d\dT\d", text)
