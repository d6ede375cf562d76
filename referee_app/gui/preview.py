"""Previewing and printing a PDF in the app (QtPdf), e.g. a table's scoresheet (记分表)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSize
from PySide6.QtGui import QPainter
from PySide6.QtPdf import QPdfDocument
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import QDialog, QFileDialog, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from ..session import Session, TableRecord
from .i18n import Language


def scoresheet_data(session: Session, record: TableRecord) -> Any:
    """The table's scoresheet data, from the builder the command line uses too."""
    from ..printing.build import store_scoresheets

    _ev, sheets = store_scoresheets(session.store, session.event.id, record.round, record.table, session.lang)
    if not sheets:
        raise LookupError(f"round {record.round} table {record.table}: nothing recorded")
    return sheets[0]


def scoresheet_pdf(
    session: Session, record: TableRecord, signatures: dict[str, bytes] | None = None
) -> bytes:
    """The table's scoresheet as the referee desk prints it. The signatures come from the
    store with the record (``signatures`` is accepted for older callers and not needed)."""
    from ..printing.render import render_scoresheet

    out = io.BytesIO()
    render_scoresheet(scoresheet_data(session, record), out)
    return out.getvalue()


class PdfPreview(QDialog):
    """A PDF shown page by page, with Print and Save as PDF."""

    def __init__(
        self, language: Language, pdf: bytes, title: str, suggested_name: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.language = language
        self.pdf = pdf
        self.suggested_name = suggested_name
        self.setWindowTitle(title)
        self.resize(900, 1000)
        self.data = QByteArray(pdf)
        self.buffer = QBuffer(self.data, self)
        self.buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        self.document = QPdfDocument(self)
        self.document.load(self.buffer)
        self.view = QPdfView(self)
        self.view.setDocument(self.document)
        self.view.setPageMode(QPdfView.PageMode.MultiPage)
        self.view.setZoomMode(QPdfView.ZoomMode.FitToWidth)
        tr = language.tr
        print_button = QPushButton(tr("print"))
        print_button.clicked.connect(self.print_pdf)
        save_button = QPushButton(tr("save_pdf"))
        save_button.clicked.connect(self.save_pdf)
        close = QPushButton(tr("close"))
        close.clicked.connect(self.accept)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(save_button)
        row.addWidget(print_button)
        row.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.view, 1)
        layout.addLayout(row)

    def page_count(self) -> int:
        return self.document.pageCount()

    def save_pdf(self, path: str | None = None) -> str | None:
        if not path:
            path, _ = QFileDialog.getSaveFileName(
                self, self.language.tr("save_pdf"), self.suggested_name, "PDF (*.pdf)"
            )
        if not path:
            return None
        Path(path).write_bytes(self.pdf)
        return path

    def print_pdf(self) -> None:
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        dialog = QPrintDialog(printer, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        self.print_to(printer)

    def print_to(self, printer: QPrinter) -> None:
        painter = QPainter(printer)
        for page in range(self.document.pageCount()):
            if page:
                printer.newPage()
            target = painter.viewport()
            size = QSize(target.width(), target.height())
            image = self.document.render(page, size)
            painter.drawImage(target, image)
        painter.end()


def show_pdf(parent: QWidget, language: Language, pdf: bytes, title: str, suggested_name: str) -> PdfPreview:
    """Show ``pdf`` in a modal preview over ``parent`` (kept as ``parent.active_dialog`` while
    open, so tests and the window can reach it) and return the dialog once closed."""
    dialog = PdfPreview(language, pdf, title, suggested_name, parent)
    parent.active_dialog = dialog  # type: ignore[attr-defined]
    dialog.exec()
    parent.active_dialog = None  # type: ignore[attr-defined]
    return dialog
