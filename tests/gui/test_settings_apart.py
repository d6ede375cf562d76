"""Each test's station settings are its own (issue 27): the window's QSettings were the
user's own file (``QSettings("referee-app", "referee-app")`` ignores Qt's default format and
path), so every window of a test run listed the earlier tests' stores under 最近打开 and
reopened their last event. tests/conftest.py points them at a folder of each test."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMenu

from .test_open_another_store import _press


@pytest.mark.parametrize("run", ["first", "second"])
def test_the_recent_stores_menu_lists_only_this_tests_store(
    make_window, db_path: Path, qtbot, tmp_path: Path, run: str
) -> None:
    window = make_window()
    settings_file = Path(window.settings.fileName()).resolve()
    assert Path.home().resolve() not in settings_file.parents  # never the user's (nor the run's home)
    assert tmp_path.parent.resolve() in settings_file.parents  # the test run's own folder
    _press(qtbot, window, Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
    file_menu = QApplication.activePopupWidget()
    qtbot.keyClick(file_menu, Qt.Key.Key_Down)  # 打开数据库… → 最近打开
    qtbot.keyClick(file_menu, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is window.menu_recent)
    # the second run does not see the first's store (each has its own tmp_path)
    assert [a.text() for a in window.menu_recent.actions()] == [str(db_path.resolve())]
    window.menu_recent.close()
    file_menu.close()
