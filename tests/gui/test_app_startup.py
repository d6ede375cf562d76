"""App start-up: one language rule with the command line, and unexpected exceptions in the
window logged in full and shown as one message naming the log."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from referee_app.app.language import default_lang
from referee_app.gui.app import UnexpectedErrorReporter, icon_path
from referee_app.gui.i18n import system_lang


@pytest.mark.parametrize("value", ["C.UTF-8", "zh_CN.UTF-8", "en_US.UTF-8"])
def test_window_and_command_line_pick_the_same_language(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", value)
    assert system_lang() == default_lang() == ("en" if value.startswith("en") else "zh")


@pytest.mark.qt_no_exception_capture
def test_an_exception_in_a_slot_is_logged_and_shown_once(
    qtbot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    reporter = UnexpectedErrorReporter("zh")
    monkeypatch.setattr(sys, "excepthook", reporter)

    def broken_slot() -> None:
        raise ZeroDivisionError("table 7 has no pairs")

    QTimer.singleShot(0, broken_slot)
    qtbot.waitUntil(lambda: len(reporter.boxes) == 1 and reporter.boxes[0].isVisible())
    box: QMessageBox = reporter.boxes[0]
    log = tmp_path / "state" / "referee-app" / "log" / "referee-app.log"
    assert box.text().startswith("程序出现意外错误") and str(log) in box.text()
    assert "\n" not in box.text()
    text = log.read_text(encoding="utf-8")
    assert "Traceback" in text and "broken_slot" in text and "table 7 has no pairs" in text
    # the app keeps running: the message closes and the event loop goes on
    box.accept()
    qtbot.waitUntil(lambda: reporter.boxes == [])
    assert QApplication.instance() is not None


def test_the_window_icon_is_shipped() -> None:
    from PySide6.QtGui import QIcon

    assert not QIcon(str(icon_path())).isNull()
