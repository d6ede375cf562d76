"""帮助 → 使用手册 (F1): the manual installed with the app, read offline.

The manual is Markdown (``docs/manual/``, shipped inside the package); Qt's text browser
renders Markdown and follows its relative links between pages, so no web engine and no
network are needed. The same pages build the manual's web site (mkdocs)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..locations import manual_dir
from .i18n import Language


def manual_home(lang: str) -> Path:
    """The manual's first page in ``lang`` (Chinese first; English second)."""
    folder = manual_dir()
    return folder / "en" / "index.md" if lang == "en" else folder / "index.md"


class ManualWindow(QMainWindow):
    """The manual in a window of its own, beside the main window (it stays open while the
    referee works)."""

    def __init__(self, language: Language, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = language
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(True)
        self.browser.setOpenExternalLinks(True)  # a web address goes to the system's browser
        self.home_button = QPushButton()
        self.home_button.clicked.connect(self.show_home)
        self.back_button = QPushButton()
        self.back_button.clicked.connect(self.browser.backward)
        self.browser.backwardAvailable.connect(self.back_button.setEnabled)
        self.back_button.setEnabled(False)
        self.missing = QLabel()
        self.missing.setWordWrap(True)
        self.missing.hide()
        buttons = QHBoxLayout()
        buttons.addWidget(self.back_button)
        buttons.addWidget(self.home_button)
        buttons.addStretch(1)
        column = QVBoxLayout()
        column.addLayout(buttons)
        column.addWidget(self.missing)
        column.addWidget(self.browser, 1)
        body = QWidget()
        body.setLayout(column)
        self.setCentralWidget(body)
        self.resize(900, 680)  # the pictures are at most 820 wide (tools/screenshots.py)
        language.changed.connect(self.retranslate)
        self.retranslate()

    def show_home(self) -> None:
        home = manual_home(self.language.lang)
        if not home.is_file():
            self.missing.setText(self.language.tr("manual_missing", where=str(home)))
            self.missing.show()
            return
        self.missing.hide()
        self.browser.setSource(QUrl.fromLocalFile(str(home)))

    def retranslate(self, *_: object) -> None:
        tr = self.language.tr
        self.setWindowTitle(f"{tr('manual')} — {tr('app_title')}")
        self.home_button.setText(tr("manual_home"))
        self.back_button.setText(tr("manual_back"))
