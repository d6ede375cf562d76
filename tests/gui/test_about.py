"""帮助 → 关于 (issue 28): the version, the app's MIT licence and the third-party list with Qt's
LGPL notice, opened from the Help menu by a click, in Chinese and in English."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from referee_app import __version__
from referee_app.gui.about import AboutDialog


def _click_about(window, qtbot, label: str) -> AboutDialog:  # type: ignore[no-untyped-def]
    menu = window.menu_help
    [item] = [a for a in menu.actions() if a.text() == label]
    menu.popup(window.mapToGlobal(window.rect().center()))
    qtbot.waitUntil(menu.isVisible)
    qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(item).center())
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), AboutDialog))
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, AboutDialog)
    return dialog


def test_the_help_menus_about_shows_the_version_the_licence_and_every_third_party_licence(
    make_window, qtbot
) -> None:
    window = make_window()
    dialog = _click_about(window, qtbot, "关于…")
    assert dialog.windowTitle() == "关于双升裁判助手"
    assert __version__ in dialog.heading.text()
    assert "MIT" in dialog.licence.text() and "文泉驿微米黑" in dialog.licence.text()
    text = dialog.list.toPlainText()
    assert "宽通用公共许可证" in text and "LGPL-3.0" in text  # Qt's notice, in the window's language
    for component in dialog.components:
        assert f"{component.name}\n{component.version}\n{component.licence}" in text
    names = {c.name.lower().replace("_", "-") for c in dialog.components}
    assert {"pyside6-essentials", "reportlab", "sqlalchemy", "certifi", "python"} <= names
    dialog.reject()
    qtbot.waitUntil(lambda: not dialog.isVisible())


def test_about_speaks_english_in_an_english_window(make_window, qtbot) -> None:
    window = make_window("en")
    dialog = _click_about(window, qtbot, "About…")
    assert dialog.windowTitle() == "About the Shengji Referee Assistant"
    assert "GNU Lesser General Public License" in dialog.list.toPlainText()
    dialog.reject()
