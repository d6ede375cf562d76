"""Another event store is opened from the window (issue 27: it needed a restart or the
command line): 文件 → 打开数据库… (Ctrl+Shift+O) and 最近打开; a file that is not a store is
refused in one line and the store in use stays."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog, QLineEdit, QMenu, QMessageBox

from referee_app.app.session import Session
from referee_app.core.rulebook import load_rulebook
from referee_app.store.service import Actor, Store

from .conftest import when_modal


def _pick(qtbot, path: Path, then=None) -> None:
    def choose(dialog) -> None:
        assert isinstance(dialog, QFileDialog)
        dialog.selectNameFilter(dialog.nameFilters()[-1])  # 所有文件 (*)
        # the name typed in (set: QTest cannot type Chinese)
        dialog.findChild(QLineEdit, "fileNameEdit").setText(str(path))
        if then is not None:
            when_modal(then)
        buttons = dialog.findChild(QDialogButtonBox, "buttonBox")
        qtbot.mouseClick(buttons.button(QDialogButtonBox.StandardButton.Open), Qt.MouseButton.LeftButton)

    when_modal(choose)


def _press(qtbot, window, key: Qt.Key, modifiers: Qt.KeyboardModifier) -> None:
    window.activateWindow()  # a shortcut goes to the active window, as on the referee's screen
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, key, modifiers)


def test_another_store_opens_from_the_file_menu_and_the_recent_list_and_a_text_file_is_refused(
    make_window, db_path: Path, qtbot, tmp_path: Path
) -> None:
    window = make_window()
    Session.create_event(window.store, "本站赛事", load_rulebook("bhg-2011"), None, window.actor)
    window.fill_events()
    other = tmp_path / "省赛.sqlite"
    elsewhere = Actor("裁判二", "station-2")
    store = Store.open(str(other), create=True, actor=elsewhere)
    Session.create_event(store, "省赛", load_rulebook("gansu-2018"), None, elsewhere)
    store.close()
    text = tmp_path / "名单.txt"
    text.write_text("not a store\n", encoding="utf-8")
    ctrl_shift = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    refused: dict[str, str] = {}

    def say_no(box) -> None:
        assert isinstance(box, QMessageBox)
        refused["text"] = box.text()
        box.accept()

    _pick(qtbot, text, then=say_no)
    _press(qtbot, window, Qt.Key.Key_O, ctrl_shift)
    assert refused["text"] == f"{text}：不是本软件的数据库。"  # one line, naming the file
    assert "本站赛事" in window.welcome.events.item(0).text()  # the store in use stays

    _pick(qtbot, other)
    _press(qtbot, window, Qt.Key.Key_O, ctrl_shift)
    events = [window.welcome.events.item(i).text() for i in range(window.welcome.events.count())]
    assert len(events) == 1 and "省赛" in events[0]
    assert window.banner.text() == "已打开数据库 省赛.sqlite。"
    # newest first, and only this test's: each test has its own settings (tests/conftest.py)
    assert window.recent_stores() == [str(other.resolve()), str(db_path.resolve())]

    # 最近打开: the station's own store again, by keys through the File menu
    _press(qtbot, window, Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
    file_menu = QApplication.activePopupWidget()
    assert file_menu is window.menu_file
    qtbot.keyClick(file_menu, Qt.Key.Key_Down)  # 打开数据库… → 最近打开
    qtbot.keyClick(file_menu, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is window.menu_recent)
    entries = [a.text() for a in window.menu_recent.actions()]
    assert entries == [str(other.resolve()), str(db_path.resolve())]
    qtbot.keyClick(window.menu_recent, Qt.Key.Key_Down)
    qtbot.keyClick(window.menu_recent, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.store is not None and window.store.where.endswith(db_path.name))
    events = [window.welcome.events.item(i).text() for i in range(window.welcome.events.count())]
    assert len(events) == 1 and "本站赛事" in events[0]
