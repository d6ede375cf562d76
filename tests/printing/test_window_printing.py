"""Issue 12, item 7: printing from the window goes through Qt at no more than 300 dpi in a
worker thread with a progress dialog, and the window prints a whole round (real widgets,
a real SQLite store, the printer writing a real PDF that is read back)."""

from __future__ import annotations

import re
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import requires_poppler

PAIRS = (
    "number,player1,player2,unit\n1,张三,李四,一队\n2,王五,赵六,二队\n3,孙七,周八,三队\n4,吴九,郑十,四队\n"
)


@pytest.fixture()
def window(qtbot, tmp_path: Path) -> Iterator[object]:
    from referee_app.app.session import Session
    from referee_app.core import editing
    from referee_app.core.rulebook import load_rulebook
    from referee_app.gui.i18n import Language
    from referee_app.gui.main_window import MainWindow
    from referee_app.store.service import Actor, Store

    actor = Actor("裁判一", "station-1")
    store = Store.open(str(tmp_path / "event.sqlite"), create=True, actor=actor)
    win = MainWindow(Language("zh"))
    win.use_store(store, actor)
    qtbot.addWidget(win)
    info = Session.create_event(store, "窗口杯", load_rulebook("bhg-2011"), "2026-11-30", actor)
    win.fill_events()
    win.open_event(info.id)
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(PAIRS, encoding="utf-8")
    assert win.import_pairs(str(pairs)) == 4
    session = win.session
    for table, ns, ew in ((1, "1", "2"), (2, "3", "4")):
        record = session.open_table(1, table, ns, ew, "E")
        case = editing.add_infraction(
            record.case, {"kind": "exposed_card", "seat": "N", "cards": 1, "trick": 2}
        )
        session.save(record, editing.complete_hand(case, 60 + table * 10))
    yield win
    store.close()


def _printer(path: Path, dpi: int = 1200):  # noqa: ANN202 - a QPrinter
    from PySide6.QtPrintSupport import QPrinter

    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(path))
    printer.setResolution(dpi)
    return printer


@requires_poppler
def test_printing_renders_at_300_dpi_in_a_worker(window, qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    from referee_app.gui.preview import PdfPreview, scoresheet_pdf

    session = window.session
    record = session.table(1, 1)
    pdf = scoresheet_pdf(session, record)
    preview = PdfPreview(window.language, pdf, "记分表", "sheet.pdf", window)
    qtbot.addWidget(preview)
    out = tmp_path / "printed.pdf"
    seen: list[int] = []
    job = preview.print_to(_printer(out, 1200))
    seen.append(job.pages_done)
    assert job.error is None and job.pages_done == preview.page_count() >= 1
    assert job.dpi == 300 and job.thread_id not in (None, threading.get_ident())
    # an A4 page at 300 dpi, not at the printer's 1200
    assert 2400 <= job.largest.width() <= 2600 and job.largest.height() <= 3600
    listing = subprocess.run(["pdfimages", "-list", str(out)], capture_output=True, text=True, check=True)
    ppi = [int(float(line.split()[12])) for line in listing.stdout.splitlines()[2:] if line.strip()]
    assert ppi and max(ppi) <= 301, listing.stdout
    assert preview.progress_dialog is None  # closed once the job ended


@requires_poppler
def test_the_window_prints_a_whole_round(window, qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from referee_app.gui.preview import print_round

    saved: dict[str, object] = {}

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None or not hasattr(dialog, "save_pdf"):
            QTimer.singleShot(20, look)
            return
        saved["pages"] = dialog.page_count()
        saved["path"] = dialog.save_pdf(str(tmp_path / "round.pdf"))
        dialog.accept()

    QTimer.singleShot(0, look)
    preview = print_round(window, 1)
    assert preview is not None and saved["pages"] == 2  # two tables, a page each
    text = subprocess.run(["pdftotext", str(saved["path"]), "-"], capture_output=True, text=True).stdout
    flat = re.sub(r"\s+", "", text)
    assert "窗口杯" in flat and flat.count("第1页共1页") == 2  # each table numbered on its own
    # the window's round is the command line's round: the same sheets, the same digests
    from referee_app.printing.build import store_scoresheets

    _ev, sheets = store_scoresheets(window.store, window.session.event.id, 1, None, "zh")
    for sheet in sheets:
        assert sheet.digest in flat
    assert window.act_print_round.shortcut().toString() == "Ctrl+Shift+P"
    assert window.act_print_round.text() == "打印整轮记分表…"


def test_cancel_stops_building_a_round(window, qtbot, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    """Cancel in the progress dialog stops the worker at its next sheet: no preview, no
    error message, the window answers again."""
    import time

    from PySide6.QtCore import QTimer

    import referee_app.app.printouts as printouts
    from referee_app.gui import preview

    sheets_laid_out: list[int] = []

    def slow_round(sheets, out, progress) -> None:  # noqa: ANN001 - a 1000-table round
        for n in range(1, 1001):
            time.sleep(0.01)
            sheets_laid_out.append(n)
            progress(n)
        out.write(b"%PDF-")

    monkeypatch.setattr(printouts, "render_round", slow_round, raising=False)
    warned: list[str] = []
    monkeypatch.setattr(preview.QMessageBox, "warning", lambda *a: warned.append(str(a)))

    def cancel() -> None:
        dialog = getattr(window, "progress_dialog", None)
        if dialog is None or not sheets_laid_out:
            QTimer.singleShot(20, cancel)
            return
        dialog.canceled.emit()  # what the Cancel button sends

    QTimer.singleShot(0, cancel)
    assert window.print_round(1) is None
    assert 0 < len(sheets_laid_out) < 1000 and warned == []
    assert window.progress_dialog is None


@requires_poppler
def test_the_desk_menu_prints_the_prize_list(window, qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    """The window's one entry for the prize list (获奖名单) previews what print prizes prints."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    saved: dict[str, object] = {}

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None or not hasattr(dialog, "save_pdf"):
            QTimer.singleShot(20, look)
            return
        saved["path"] = dialog.save_pdf(str(tmp_path / "prizes.pdf"))
        dialog.accept()

    assert window.act_print_prizes in window.menu_desk.actions()
    assert window.act_print_prizes.text() == "打印获奖名单"
    QTimer.singleShot(0, look)
    window.act_print_prizes.trigger()
    text = subprocess.run(["pdftotext", str(saved["path"]), "-"], capture_output=True, text=True).stdout
    flat = re.sub(r"\s+", "", text)
    assert "窗口杯" in flat and "获奖名单" in flat and "第1名" in flat and "第3名" in flat
