"""帮助 → 关于 (About): the app's version and licence, and every third-party component it
ships with its licence (the bundle's ``licences/`` folder holds their texts), with the notice
Qt's LGPL asks for."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTextBrowser, QVBoxLayout, QWidget

from .. import __version__
from ..app.licences import QT_NOTICE, licences_dir, third_party
from .i18n import Language


class AboutDialog(QDialog):
    """The version, the app's MIT licence, the font's, and the third-party list."""

    def __init__(self, language: Language, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        tr = language.tr
        self.setWindowTitle(tr("about_title"))
        self.heading = QLabel(f"<b>{escape(tr('app_title'))}</b> {escape(__version__)}")
        self.licence = QLabel(tr("about_licence"))
        self.licence.setWordWrap(True)
        self.components = third_party()
        folder = licences_dir()
        where = tr("about_texts_in", folder=str(folder)) if folder else tr("about_texts_installed")
        rows = "".join(
            f"<tr><td>{escape(c.name)}</td><td>{escape(c.version)}</td><td>{escape(c.licence)}</td></tr>"
            for c in self.components
        )
        self.list = QTextBrowser()
        self.list.setOpenExternalLinks(True)
        self.list.setHtml(
            f"<p>{escape(tr('about_third_party'))} {escape(where)}</p>"
            f"<p>{escape(QT_NOTICE[language.lang])}</p>"
            f"<table cellpadding='2'><tr><th align='left'>{escape(tr('about_component'))}</th>"
            f"<th align='left'>{escape(tr('about_version'))}</th>"
            f"<th align='left'>{escape(tr('about_licence_column'))}</th></tr>{rows}</table>"
        )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.licence)
        layout.addWidget(self.list, 1)
        layout.addWidget(buttons)
        self.resize(640, 520)
