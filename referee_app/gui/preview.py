"""Previewing and printing a PDF in the app (QtPdf), e.g. a table's scoresheet (记分表), or a
whole round's scoresheets.

Printing renders each page at no more than :data:`MAX_PRINT_DPI` (a page at a printer's
1200 dpi is hundreds of MB and seconds of work) in a worker thread, with a progress dialog
the referee can cancel; the window keeps answering meanwhile. QPainter may paint on a
QPrinter outside the GUI thread; the worker loads its own QPdfDocument."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QEventLoop, QIODevice, QSize, Qt, QThread, Signal
from PySide6.QtGui import QPainter
from PySide6.QtPdf import QPdfDocument
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..app.session import Session, TableRecord
from .i18n import Language
from .widgets import FILE_DIALOG, fit_to_screen


def scoresheet_data(session: Session, record: TableRecord) -> Any:
    """The table's scoresheet data, from the builder the command line uses too."""
    from ..app.printouts import store_scoresheets

    _ev, sheets = store_scoresheets(session.store, session.event.id, record.round, record.table, session.lang)
    if not sheets:
        raise LookupError(f"round {record.round} table {record.table}: nothing recorded")
    return sheets[0]


def scoresheet_pdf(
    session: Session, record: TableRecord, signatures: dict[str, bytes] | None = None
) -> bytes:
    """The table's scoresheet as the referee desk prints it. The signatures come from the
    store with the record (``signatures`` is accepted for older callers and not needed)."""
    from ..app.printouts import render_scoresheet

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
        fit_to_screen(self, 900, 1000)
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
                self, self.language.tr("save_pdf"), self.suggested_name, "PDF (*.pdf)", options=FILE_DIALOG
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

    def print_to(self, printer: QPrinter) -> PrintJob:
        """Print every page through ``printer`` in a worker, with a progress dialog; returns
        the finished job (``pages_done``, ``dpi``, ``thread_id`` say what it did)."""
        job = PrintJob(self.pdf, printer)
        run_with_progress(self, self.language, job, self.language.tr("printing_pages"))
        return job


#: Pages are drawn for the printer at no more than this resolution.
MAX_PRINT_DPI = 300


class PrintJob(QThread):
    """Render the PDF's pages at ≤ :data:`MAX_PRINT_DPI` and paint them on the printer."""

    progressed = Signal(int, int)

    def __init__(self, pdf: bytes, printer: QPrinter, dpi: int = MAX_PRINT_DPI) -> None:
        super().__init__()
        self.pdf = pdf
        self.printer = printer
        self.dpi = min(dpi, printer.resolution())
        self.pages_done = 0
        self.largest: QSize = QSize()
        self.thread_id: int | None = None
        self.error: str | None = None

    def run(self) -> None:
        import threading

        self.thread_id = threading.get_ident()
        data = QByteArray(self.pdf)
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        document = QPdfDocument()
        document.load(buffer)
        pages = document.pageCount()
        # the PDF's pages carry their own margins: paint them on the whole sheet of paper
        self.printer.setFullPage(True)
        painter = QPainter()
        if not painter.begin(self.printer):
            self.error = "the printer cannot be opened"
            return
        try:
            for page in range(pages):
                if self.isInterruptionRequested():
                    break
                if page:
                    self.printer.newPage()
                points = document.pagePointSize(page)
                size = QSize(round(points.width() / 72 * self.dpi), round(points.height() / 72 * self.dpi))
                image = document.render(page, size)
                if image.width() > self.largest.width():
                    self.largest = image.size()
                painter.drawImage(painter.viewport(), image)
                self.pages_done = page + 1
                self.progressed.emit(page + 1, pages)
        finally:
            painter.end()


class Cancelled(Exception):
    """The referee pressed Cancel while a PDF was being made."""


class BuildJob(QThread):
    """Make a PDF in a worker (``build(progress)`` returns its bytes), reporting progress;
    Cancel stops it at the next progress step (``cancelled``, no result, no error)."""

    progressed = Signal(int, int)

    def __init__(self, build: Callable[[Callable[[int], None]], bytes], total: int) -> None:
        super().__init__()
        self.build = build
        self.total = total
        self.result: bytes | None = None
        self.error: str | None = None
        self.failure: BaseException | None = None
        self.cancelled = False

    def step(self, done: int) -> None:
        if self.isInterruptionRequested():
            raise Cancelled
        self.progressed.emit(done, self.total)

    def run(self) -> None:
        try:
            self.result = self.build(self.step)
        except Cancelled:
            self.cancelled = True
        except Exception as exc:  # noqa: BLE001 - said in one line in the window
            from ..core.errors import one_line

            self.error = one_line(exc)
            self.failure = exc


def run_with_progress(parent: QWidget, language: Language, job: PrintJob | BuildJob, label: str) -> None:
    """Start ``job`` and wait for it with a progress dialog (Cancel asks it to stop); the
    event loop keeps running, so the window still repaints and answers."""
    dialog = QProgressDialog(label, language.tr("cancel"), 0, 0, parent)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(300)
    parent.progress_dialog = dialog  # type: ignore[attr-defined]

    def step(done: int, total: int) -> None:
        dialog.setMaximum(total)
        dialog.setValue(done)
        dialog.setLabelText(f"{label} {done}/{total}")

    job.progressed.connect(step)
    dialog.canceled.connect(job.requestInterruption)
    loop = QEventLoop()
    job.finished.connect(loop.quit)
    job.start()
    if not job.isFinished():
        loop.exec()
    job.wait()
    dialog.close()
    parent.progress_dialog = None  # type: ignore[attr-defined]


def round_pdf(session: Session, round_no: int, progress: Callable[[int], None] | None = None) -> bytes:
    """Every table's scoresheet of a round in one PDF, from the builder the command line uses."""
    from ..app.printouts import render_round, store_scoresheets

    _ev, sheets = store_scoresheets(session.store, session.event.id, round_no, None, session.lang)
    if not sheets:
        raise LookupError(f"round {round_no}: nothing recorded")
    out = io.BytesIO()
    render_round(sheets, out, progress=progress)
    return out.getvalue()


def print_round(window: Any, round_no: int | None = None) -> PdfPreview | None:
    """The window's "print a round": ask which round, lay out every table's scoresheet in a
    worker with progress (a 100-table round takes seconds), then preview it to print or save."""
    session = getattr(window, "session", None)
    if session is None:
        return None
    language = window.language
    rounds = session.rounds()
    if not rounds:
        QMessageBox.information(window, language.tr("print_round"), language.tr("no_rounds_yet"))
        return None
    if round_no is None:
        round_no, ok = QInputDialog.getInt(
            window,
            language.tr("print_round"),
            language.tr("which_round"),
            rounds[-1],
            min(rounds),
            max(rounds),
        )
        if not ok:
            return None
    from ..app.printouts import store_scoresheets

    _ev, sheets = store_scoresheets(session.store, session.event.id, round_no, None, session.lang)
    if not sheets:
        QMessageBox.information(window, language.tr("print_round"), language.tr("no_rounds_yet"))
        return None

    def build(progress: Callable[[int], None]) -> bytes:
        from ..app.printouts import render_round

        out = io.BytesIO()
        render_round(sheets, out, progress=progress)
        return out.getvalue()

    job = BuildJob(build, len(sheets))
    run_with_progress(window, language, job, language.tr("building_round"))
    if job.cancelled:
        return None
    if job.result is None:
        from ..app.messages import describe

        said = describe(job.failure, language.lang) if job.failure is not None else job.error
        QMessageBox.warning(window, language.tr("print_round"), said or "")
        return None
    return show_pdf(
        window,
        language,
        job.result,
        language.tr("round_sheets_title", round=round_no),
        f"scoresheets-r{round_no}.pdf",
    )


def show_pdf(parent: QWidget, language: Language, pdf: bytes, title: str, suggested_name: str) -> PdfPreview:
    """Show ``pdf`` in a modal preview over ``parent`` (kept as ``parent.active_dialog`` while
    open, so tests and the window can reach it) and return the dialog once closed."""
    dialog = PdfPreview(language, pdf, title, suggested_name, parent)
    parent.active_dialog = dialog  # type: ignore[attr-defined]
    dialog.exec()
    parent.active_dialog = None  # type: ignore[attr-defined]
    return dialog


def print_prizes(window: Any) -> PdfPreview | None:
    """The window's "print the prize list" (获奖名单, ``app.printouts.prize_list``): after the
    last recorded round, previewed to print or save; a rulebook stating no prizes, or an
    event not ready to rank, is said in one line."""
    session = getattr(window, "session", None)
    if session is None:
        return None
    from ..app.errors import StoreError
    from ..app.event import load_event
    from ..app.printouts import prize_list, render_prize_list
    from ..core.standings import StandingsError
    from .refusal import refusal

    language = window.language
    try:
        sheet = prize_list(load_event(session.store, session.event.id))
    except (StoreError, StandingsError) as exc:
        QMessageBox.warning(window, language.tr("print_prizes"), refusal(exc, language))
        return None
    out = io.BytesIO()
    render_prize_list(sheet, out)
    return show_pdf(window, language, out.getvalue(), language.tr("print_prizes"), "prizes.pdf")
