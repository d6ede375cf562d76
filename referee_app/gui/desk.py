"""The chief referee's desk (裁判长): standings (名次表) and the next round's pairing (编排)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..app.errors import StoreError
from ..app.event import load_event
from ..app.pairing import pairing_sheet
from ..app.printouts import StandingsSheet, render_pairing, render_standings, stamp_standings
from ..app.session import Session
from ..core.pairing import Pairing, PairingError, Table
from ..core.standings import (
    ASSUMED_MARK,
    StandingsError,
    assumed_footnote,
    compute_standings,
    format_tiebreak,
)
from .i18n import Language
from .preview import PdfPreview, show_pdf
from .refusal import refusal
from .widgets import button_shortcut


def _item(text: Any, align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignCenter) -> QTableWidgetItem:
    item = QTableWidgetItem("" if text is None else str(text))
    item.setTextAlignment(align | Qt.AlignmentFlag.AlignVCenter)
    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
    return item


def export_table(
    parent: QWidget, language: Language, table: QTableWidget, title: str, name: str
) -> str | None:
    """The table shown, written for the tournament office as Excel (``.xlsx``, numbers kept as
    numbers) or CSV, where the referee chooses; the path written, or None (cancelled, or
    refused in a message naming the file)."""
    from ..spreadsheet import SpreadsheetError, write_table
    from .widgets import FILE_DIALOG

    path, chosen = QFileDialog.getSaveFileName(
        parent, language.tr("export_excel"), name, "Excel (*.xlsx);;CSV (*.csv)", options=FILE_DIALOG
    )
    if not path:
        return None
    if not path.lower().endswith((".xlsx", ".csv")):
        path += ".csv" if chosen.startswith("CSV") else ".xlsx"
    head = [(table.horizontalHeaderItem(c) or QTableWidgetItem()).text() for c in range(table.columnCount())]
    rows = [
        [(table.item(r, c) or QTableWidgetItem()).text() for c in range(table.columnCount())]
        for r in range(table.rowCount())
    ]
    try:
        write_table(path, title, head, rows)
    except SpreadsheetError as exc:
        QMessageBox.warning(parent, language.tr("not_saved"), refusal(exc, language))
        return None
    return path


class StandingsView(QWidget):
    """The ranked table after a round, in the rulebook's tie-break order."""

    back = Signal()

    def __init__(self, language: Language, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = language
        self.session = session
        self.rows: list[dict[str, Any]] = []
        self.title = QLabel()
        self.after_label = QLabel()
        self.round = QSpinBox()
        self.round.setRange(1, 99)
        self.round.valueChanged.connect(self.refresh)
        self.back_button = QPushButton()
        self.back_button.clicked.connect(self.back.emit)
        button_shortcut(self.back_button, "Alt+Left", self)
        self.print_button = QPushButton()
        self.print_button.clicked.connect(self.print_sheet)
        self.export_button = QPushButton()
        self.export_button.clicked.connect(self.export)
        self.order = QLabel()
        self.order.setWordWrap(True)
        self.order.setStyleSheet("color: #455a64;")
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setStyleSheet("color: #ef6c00;")
        self.table = QTableWidget()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        top = QHBoxLayout()
        top.addWidget(self.back_button)
        top.addWidget(self.title, 1)
        top.addWidget(self.after_label)
        top.addWidget(self.round)
        top.addWidget(self.print_button)
        top.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.order)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.notes)
        language.changed.connect(self.retranslate)
        rounds = session.rounds()
        if rounds:
            self.round.setValue(rounds[-1])
        self.retranslate()

    def refresh(self) -> None:
        tr = self.language.tr
        try:
            loaded = load_event(
                self.session.store, self.session.event.id, before_round=self.round.value() + 1
            )
            standings = compute_standings(
                self.session.rulebook,
                loaded.record,
                through_round=self.round.value(),
                seed=self.session.event.id,
            )
        except (StoreError, StandingsError) as exc:
            self.notes.setText(refusal(exc, self.language))
            self.table.setRowCount(0)
            return
        names = {str(p["number"]): " · ".join(p["players"]) for p in loaded.pairs}
        order = [k for k in standings.tie_breaks if k != "match_points"]
        headers = [tr("col_rank"), tr("col_pair"), tr("col_players"), tr("col_match_points")]
        headers += [tr(f"tiebreak_{k}") + (ASSUMED_MARK if k in standings.assumed else "") for k in order]
        self.table.clear()
        self.table.setColumnCount(len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        self.rows = standings.rows
        self.table.setRowCount(len(self.rows))
        for r, row in enumerate(self.rows):
            self.table.setItem(r, 0, _item(row["rank"]))
            self.table.setItem(r, 1, _item(row["pair"]))
            self.table.setItem(r, 2, _item(names.get(row["pair"], ""), Qt.AlignmentFlag.AlignLeft))
            self.table.setItem(r, 3, _item(row["match_points"]))
            for c, key in enumerate(order, start=4):
                self.table.setItem(r, c, _item(format_tiebreak(key, row["tiebreaks"].get(key))))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        clause = self.session.rulebook.data["standings"]["clause"]
        self.order.setText(
            tr("tiebreak_order", order=" → ".join(tr(f"tiebreak_{k}") for k in standings.tie_breaks))
            + f"　{clause['ref']} {clause['title']}"
        )
        notes = loaded.worded_notes(self.language.lang)
        if standings.assumed:
            notes.append(assumed_footnote(standings.assumed, self.language.lang))
        self.notes.setText("\n".join(notes))

    def export(self) -> str | None:
        """The standings shown, to Excel (导出 Excel)."""
        title = f"{self.session.event.name} {self.language.tr('standings')} {self.round.value()}"
        return export_table(self, self.language, self.table, title, f"standings-r{self.round.value()}.xlsx")

    def print_sheet(self) -> PdfPreview | None:
        """The printed standings (名次表), previewed, printable and savable as PDF."""
        try:
            loaded = load_event(
                self.session.store, self.session.event.id, before_round=self.round.value() + 1
            )
            standings = compute_standings(
                self.session.rulebook,
                loaded.record,
                through_round=self.round.value(),
                seed=self.session.event.id,
            )
        except (StoreError, StandingsError) as exc:
            QMessageBox.warning(self, self.language.tr("standings"), refusal(exc, self.language))
            return None
        sheet = StandingsSheet.build(self.session.event, self.session.rulebook, loaded.pairs, standings)
        stamp_standings(self.session.store, self.session.event.id, sheet)
        out = io.BytesIO()
        render_standings(sheet, out)
        return show_pdf(
            self,
            self.language,
            out.getvalue(),
            self.language.tr("standings"),
            f"standings-r{self.round.value()}.pdf",
        )

    def retranslate(self, *_: object) -> None:
        tr = self.language.tr
        self.title.setText(f"<h2>{tr('standings')}</h2>")
        self.after_label.setText(tr("after_round"))
        self.back_button.setText(tr("back_to_hall"))
        self.print_button.setText(tr("print_standings"))
        self.export_button.setText(tr("export_excel"))
        self.refresh()


class PairingView(QWidget):
    """A round's pairing as the store holds it (``Session.round_pairing``, the one reader the
    command line uses too): the published pairing once published; before that the round's
    proposal, kept in the store so that every look (and every station) shows the same draw.
    Swaps warn on a rematch and are kept with the proposal; publishing publishes what is
    shown."""

    back = Signal()
    published = Signal(int)

    def __init__(self, language: Language, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = language
        self.session = session
        #: the hall web page's address while it runs (the window sets it): printed as a QR code
        self.web_url: Callable[[], str | None] = lambda: None
        self.current: Any = None  # the RoundPairing shown (app.pairing)
        self.met: set[frozenset[str]] = set()
        self.names: dict[str, str] = {}
        self.title = QLabel()
        self.round_label = QLabel()
        self.round = QSpinBox()
        self.round.setRange(1, 99)
        self.round.setValue(max(session.rounds(), default=0) + 1)
        self.round.valueChanged.connect(self.compute)
        self.back_button = QPushButton()
        self.back_button.clicked.connect(self.back.emit)
        button_shortcut(self.back_button, "Alt+Left", self)
        self.swap_button = QPushButton()
        self.swap_button.clicked.connect(self.swap_selected)
        self.redraw_button = QPushButton()
        self.redraw_button.clicked.connect(self.redraw)
        self.publish_button = QPushButton()
        self.publish_button.clicked.connect(self.publish)
        self.print_button = QPushButton()
        self.print_button.clicked.connect(self.print_list)
        self.export_button = QPushButton()
        self.export_button.clicked.connect(self.export)
        self.status = QLabel()
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.warning = QLabel()
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet("color: #c62828;")
        self.table = QTableWidget()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.verticalHeader().setVisible(False)
        top = QHBoxLayout()
        top.addWidget(self.back_button)
        top.addWidget(self.title, 1)
        top.addWidget(self.round_label)
        top.addWidget(self.round)
        top.addWidget(self.swap_button)
        top.addWidget(self.publish_button)
        top.addWidget(self.print_button)
        line = QHBoxLayout()  # what is shown (status, method and seed) and the way to a new draw
        line.addWidget(self.status)
        line.addWidget(self.info, 1)
        line.addWidget(self.redraw_button)
        line.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(line)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.warning)
        language.changed.connect(self.retranslate)
        self.retranslate()

    @property
    def pairing(self) -> Pairing | None:
        """The pairing shown (None when the round cannot be shown)."""
        return None if self.current is None else self.current.pairing

    @property
    def loaded(self) -> Any:
        return None if self.current is None else self.current.loaded

    def compute(self, *_: object, redraw: bool = False) -> None:
        """Show the round's pairing as the store holds it; a draw is made (and kept) only
        when the round has none that fits, or with ``redraw``."""
        try:
            current = self.session.round_pairing(self.round.value(), redraw=redraw)
        except (StoreError, PairingError, StandingsError) as exc:
            self.current = None
            self.status.setText("")
            self.info.setText("")
            self.warning.setText(refusal(exc, self.language))
            self.table.setRowCount(0)
            for button in (self.publish_button, self.swap_button, self.redraw_button, self.print_button):
                button.setEnabled(False)
            return
        self.show_current(current)

    def show_current(self, current: Any) -> None:
        tr = self.language.tr
        self.current = current
        pairing = current.pairing
        self.names = {str(p["number"]): " · ".join(p["players"]) for p in current.loaded.pairs}
        self.met = {frozenset((m.ns, m.ew)) for m in current.loaded.record.results}
        proposal = current.status == "proposal"
        for button in (self.publish_button, self.swap_button, self.redraw_button):
            button.setEnabled(proposal)
        self.print_button.setEnabled(True)
        if current.status == "published":
            self.status.setText(tr("pairing_state_published", version=current.version))
            self.status.setStyleSheet("color: #2e7d32; font-weight: bold;")
        else:
            self.status.setText(tr(f"pairing_state_{current.status}"))
            self.status.setStyleSheet(
                "color: #8a1c1c; font-weight: bold;" if proposal else "color: #2e7d32; font-weight: bold;"
            )
        seed = "—" if pairing.seed is None else pairing.seed
        self.info.setText(
            tr(f"pairing_method_{pairing.method}", seed=seed)
            + (("　" + tr("bye_to", pair=pairing.bye)) if pairing.bye else "")
        )
        warnings = current.worded_notes(self.language.lang)
        if current.status == "published":
            warnings.append(tr("round_published", round=pairing.round, version=current.version))
        elif current.status == "seated":
            warnings.append(tr("round_already_seated", round=pairing.round))
        rematches = self.rematches()
        if rematches:
            warnings.append(tr("rematch_warning", pairs="、".join(rematches)))
        self.warning.setText("\n".join(warnings))
        self.show_tables()

    def rematches(self, rows: Any = None) -> list[str]:
        """The tables (of ``rows``; all of them by default) whose two pairs have met before."""
        tables = self.pairing.tables if self.pairing else []
        picked = range(len(tables)) if rows is None else sorted(rows)
        met = [tables[r] for r in picked if frozenset((tables[r].ns, tables[r].ew)) in self.met]
        return [f"{t.ns}–{t.ew}" for t in met]

    def show_tables(self) -> None:
        tr = self.language.tr
        tables = self.pairing.tables if self.pairing else []
        self.table.clear()
        why = self.why_texts()
        self.table.setColumnCount(6 if why else 5)
        self.table.setHorizontalHeaderLabels(
            [tr("table_number"), tr("col_ns"), tr("col_players"), tr("col_ew"), tr("col_players")]
            + ([tr("col_why")] if why else [])
        )
        self.table.setRowCount(len(tables))
        for r, t in enumerate(tables):
            if why:
                self.table.setItem(r, 5, _item(why.get(t.table, ""), Qt.AlignmentFlag.AlignLeft))
            self.table.setItem(r, 0, _item(t.table))
            self.table.setItem(r, 1, _item(t.ns))
            self.table.setItem(r, 2, _item(self.names.get(t.ns, ""), Qt.AlignmentFlag.AlignLeft))
            self.table.setItem(r, 3, _item(t.ew))
            self.table.setItem(r, 4, _item(self.names.get(t.ew, ""), Qt.AlignmentFlag.AlignLeft))
            if frozenset((t.ns, t.ew)) in self.met:
                for c in range(self.table.columnCount()):
                    self.table.item(r, c).setBackground(Qt.GlobalColor.yellow)  # type: ignore[union-attr]  # set above
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)

    def why_texts(self) -> dict[int, str]:
        """Why each table of a score-group round is as it is (``RoundPairing.why``), worded
        as ``pair --why`` words it: the criterion that decided and who floated; empty for a
        drawn round."""
        from ..app.messages import message

        if self.current is None or self.current.pairing.method != "swiss":
            return {}
        lang = self.language.lang
        try:
            why = self.current.why()
        except (PairingError, StandingsError):
            return {}
        out: dict[int, str] = {}
        for t in why.tables:
            floats = ""
            if t.floated_down is not None:
                floats = message("desk_out.why_floats", lang, down=t.floated_down, up=t.floated_up)
            out[t.table] = message(f"desk_out.why_{t.decided_by}", lang) + floats
        return out

    def swap(self, a: tuple[int, str], b: tuple[int, str]) -> list[str]:
        """Swap two seated pairs (row, "NS"|"EW") of the proposal and keep it so; returns the
        rematches it creates."""
        if self.current is None or self.current.published:
            return []
        tables = list(self.current.pairing.tables)
        seats = {(r, s): getattr(tables[r], s.lower()) for r in (a[0], b[0]) for s in ("NS", "EW")}
        seats[a], seats[b] = seats[b], seats[a]
        for r in {a[0], b[0]}:
            tables[r] = Table(tables[r].table, seats[(r, "NS")], seats[(r, "EW")])
        try:
            changed = self.session.change_pairing(self.current, [(t.table, t.ns, t.ew) for t in tables])
        except StoreError as exc:
            QMessageBox.warning(self, self.language.tr("not_saved"), refusal(exc, self.language))
            return []
        self.show_current(changed)
        return self.rematches({a[0], b[0]})

    def swap_selected(self) -> None:
        cells = [
            (i.row(), "NS" if i.column() in (1, 2) else "EW")
            for i in self.table.selectedIndexes()
            if i.column() in (1, 2, 3, 4)
        ]
        unique = list(dict.fromkeys(cells))
        if len(unique) != 2:
            QMessageBox.information(self, self.language.tr("swap"), self.language.tr("swap_pick_two"))
            return
        self.swap(unique[0], unique[1])

    def redraw(self) -> None:
        """A new draw (a new seed) or, in a score-group round, the pairing from the results
        again without the swaps: kept as the round's proposal in place of the one shown."""
        self.compute(redraw=True)

    def export(self) -> str | None:
        """The pairing shown, to Excel (导出 Excel)."""
        title = f"{self.session.event.name} {self.language.tr('pairing')} {self.round.value()}"
        return export_table(self, self.language, self.table, title, f"pairing-r{self.round.value()}.xlsx")

    def print_list(self) -> PdfPreview | None:
        """The pairing list (对阵表) of the round as the store holds it (the view shows it
        again first), previewed, printable and savable as PDF; a proposal is marked so."""
        self.compute()
        if self.current is None:
            return None
        out = io.BytesIO()
        render_pairing(pairing_sheet(self.current, web_url=self.web_url(), store=self.session.store), out)
        return show_pdf(
            self,
            self.language,
            out.getvalue(),
            self.language.tr("pairing_list"),
            f"pairing-r{self.current.round}.pdf",
        )

    def publish(self) -> int:
        """Check the pairing as shown (every pair of the field once, tables 1, 2, …), ask
        the chief referee to confirm (naming any rematch), store it as the round's published
        pairing with its seed and seat every table (first dealer East). Returns the tables
        seated."""
        current = self.current
        if current is None or current.published:
            return 0
        tr = self.language.tr
        errors, warnings = current.check()
        if errors:
            QMessageBox.warning(self, tr("not_saved"), "\n".join(errors))
            return 0
        question = tr("publish_confirm", round=current.round, tables=len(current.pairing.tables))
        if current.pairing.bye:
            question += "\n" + tr("bye_to", pair=current.pairing.bye)
        if warnings:
            question += "\n\n" + "\n".join(warnings)
        answer = QMessageBox.question(self, tr("publish_pairing"), question)
        if answer != QMessageBox.StandardButton.Yes:
            return 0
        try:
            self.session.publish_pairing(current, warnings)
        except StoreError as exc:
            QMessageBox.warning(self, tr("not_saved"), refusal(exc, self.language))
            self.compute()  # e.g. another station drew again: show what the store now holds
            return 0
        count = len(current.pairing.tables)
        self.published.emit(current.round)
        self.compute()
        return count

    def retranslate(self, *_: object) -> None:
        tr = self.language.tr
        self.title.setText(f"<h2>{tr('pairing')}</h2>")
        self.round_label.setText(tr("round_label"))
        self.back_button.setText(tr("back_to_hall"))
        self.swap_button.setText(tr("swap"))
        self.redraw_button.setText(tr("redraw"))
        self.publish_button.setText(tr("publish_pairing"))
        self.print_button.setText(tr("print_pairing"))
        self.export_button.setText(tr("export_excel"))
        self.compute()
