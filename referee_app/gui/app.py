"""Starting the desktop app: a display, the bundled font, the language, the store."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
FONT_FILE = RESOURCES / "fonts" / "wqy-microhei.ttc"


def display_problem() -> str | None:
    """Why no window can open here, in one line, or None."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return None
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return (
            "referee-app: no display here (DISPLAY and WAYLAND_DISPLAY are unset), so the desktop app "
            "cannot open; the command-line tools work: referee-app judge CASE.json, referee-app rules list, "
            "referee-app --help"
        )
    return None


def register_font() -> str | None:
    """Register the bundled CJK font so Chinese renders on any machine; return its family."""
    from PySide6.QtGui import QFontDatabase

    if not FONT_FILE.is_file():
        return None
    font_id = QFontDatabase.addApplicationFont(str(FONT_FILE))
    families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    return families[0] if families else None


def run(args: argparse.Namespace) -> int:
    problem = display_problem()
    if problem:
        print(problem, file=sys.stderr)
        return 1
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QApplication, QMessageBox

    from ..store.errors import StoreError
    from ..store.service import Actor, Store
    from .i18n import Language, system_lang
    from .main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("referee-app")
    family = register_font()
    if family:
        font = QFont(family)
        font.setPointSize(11)
        app.setFont(font)
    explicit = "--lang" in sys.argv
    language = Language(args.lang if explicit else system_lang())
    language.install_qt_translator()
    actor = Actor.default()
    try:
        store = Store.open(args.db, create=True, actor=actor)
    except StoreError as exc:
        print(f"referee-app: {exc}", file=sys.stderr)
        QMessageBox.critical(None, "referee-app", str(exc))
        return 1
    window = MainWindow(store, actor, language)
    window.show()
    return int(app.exec())
