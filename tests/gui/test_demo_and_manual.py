"""The window's way in for a new user (issue 28): 赛事 → 打开示例赛事 builds the demo event in
a file of its own and opens it, leaving the station's store untouched; F1 opens the manual
installed with the app, offline."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from referee_app.store.service import Store


def test_the_demo_menu_item_opens_a_played_gansu_event_in_a_new_file(
    make_window, db_path: Path, qtbot
) -> None:
    window = make_window()
    menu = window.menu_event
    [item] = [a for a in menu.actions() if a.text() == "打开示例赛事"]
    assert item.isEnabled()
    menu.popup(window.mapToGlobal(window.rect().center()))
    qtbot.waitUntil(menu.isVisible)
    qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(item).center())

    qtbot.waitUntil(lambda: window.session is not None, timeout=60_000)
    session = window.session
    assert session.rulebook.id == "gansu-2018" and "示例" in session.event.name
    assert Path(session.store.where) != db_path  # a new file of its own
    assert len(session.pairs()) == 12
    assert window.stack.currentWidget() is window.hall
    tables = session.tables(1)
    assert len(tables) == 6 and all(t.signed for t in tables)
    assert [a["state"] for a in session.appeals()] == ["modified", "filed"]
    assert f"示例赛事已建在新文件 {Path(session.store.where).name} 中" in window.statusBar().currentMessage()
    with Store.open(str(db_path), read_only=True) as own:
        assert own.list_events() == []  # the station's own store got nothing


def test_f1_opens_the_manual_shipped_with_the_app(make_window, qtbot) -> None:
    window = make_window()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    QTest.keyClick(window, Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: window.manual is not None and window.manual.isVisible())
    browser = window.manual.browser
    assert browser.source().toLocalFile().endswith("manual/index.md")
    text = browser.toPlainText()
    assert "快速上手" in text and "裁判长" in text
    assert "#" not in text.splitlines()[0]  # rendered Markdown, not its source
    [help_item] = [a for a in window.menu_help.actions() if a.text() == "使用手册"]
    assert help_item.shortcuts()[0].toString() == "F1"
