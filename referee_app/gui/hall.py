"""The hall: the current round's tables at a glance, and the round clock."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..app.changes import OpChanges
from ..app.errors import StoreError
from ..app.session import Session, TableRecord
from ..core.seats import SEAT_NAMES, SIDE_NAMES
from .i18n import Language
from .refusal import refusal
from .widgets import RoundClock, button_shortcut

STATUS_COLOURS = {
    "not_started": "#eceff1",
    "playing": "#bbdefb",
    "finished": "#c8e6c9",
    "signed": "#81c784",
    "appeal": "#f8bbd0",
}


class TableCard(QPushButton):
    """One table: its pairs, levels and status colour. Click to open it."""

    def __init__(self, language: Language, record: TableRecord, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = language
        self.record = record
        self.setMinimumSize(230, 120)
        self.setSizePolicy(self.sizePolicy().horizontalPolicy(), self.sizePolicy().verticalPolicy())
        self.refresh()

    def fit_text(self) -> None:
        """At least 230×120, and as large as its text in its font (the big screen's is larger)."""
        metrics = self.fontMetrics()
        lines = self.text().splitlines() or [""]
        width = max(metrics.horizontalAdvance(line) for line in lines) + 28
        self.setMinimumSize(max(230, width), max(120, metrics.lineSpacing() * len(lines) + 28))

    def refresh(self) -> None:
        tr = self.language.tr
        lang = self.language.lang
        r = self.record
        levels = r.levels
        status = r.status
        ns = " · ".join(r.players.get("NS", [])) or "—"
        ew = " · ".join(r.players.get("EW", [])) or "—"
        self.setText(
            f"{tr('table_n', table=r.table)}   [{tr('status_' + status)}]\n"
            f"{SIDE_NAMES[lang]['NS']} {r.pairs['NS']}  {ns}\n"
            f"{SIDE_NAMES[lang]['EW']} {r.pairs['EW']}  {ew}\n"
            f"{tr('levels_short')} {levels['NS']} : {levels['EW']}"
        )
        self.fit_text()
        self.setStyleSheet(
            f"QPushButton {{ background: {STATUS_COLOURS[status]}; text-align: left; padding: 8px;"
            " border: 1px solid #90a4ae; border-radius: 6px; }"
            " QPushButton:focus { border: 2px solid #1565c0; }"
        )


class SeatTableDialog(QDialog):
    """Put two pairs at a table for this round."""

    def __init__(self, language: Language, pairs: list[dict], next_table: int, parent: QWidget | None = None):
        super().__init__(parent)
        tr = language.tr
        self.setWindowTitle(tr("seat_table"))
        form = QFormLayout(self)
        self.table = QSpinBox()
        self.table.setRange(1, 999)
        self.table.setValue(next_table)
        self.ns = QComboBox()
        self.ew = QComboBox()
        for p in pairs:
            text = f"{p['number']}  {' · '.join(p['players'])}" + (
                f"  ({p['unit']})" if p.get("unit") else ""
            )
            self.ns.addItem(text, p["number"])
            self.ew.addItem(text, p["number"])
        if self.ew.count() > 1:
            self.ew.setCurrentIndex(1)
        self.dealer = QComboBox()
        for seat in "ESWN":
            self.dealer.addItem(SEAT_NAMES[language.lang][seat], seat)
        self.error = QLabel()
        self.error.setStyleSheet("color: #c62828;")
        form.addRow(tr("table_number"), self.table)
        form.addRow(SIDE_NAMES[language.lang]["NS"], self.ns)
        form.addRow(SIDE_NAMES[language.lang]["EW"], self.ew)
        form.addRow(tr("first_dealer"), self.dealer)
        form.addRow(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.language = language

    def _accept(self) -> None:
        if self.ns.currentData() is None:
            self.error.setText(self.language.tr("no_pairs"))
            return
        if self.ns.currentData() == self.ew.currentData():
            self.error.setText(self.language.tr("same_pair"))
            return
        self.accept()


class HallView(QWidget):
    """The round's tables as a grid, with the round clock above them."""

    openTable = Signal(int, int)  # round, table
    saved = Signal(str)

    def __init__(self, language: Language, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = language
        self.session = session
        rnd = session.rulebook.data["round"]
        self.round_label = QLabel()
        self.round = QSpinBox()
        self.round.setRange(1, 99)
        self.round.valueChanged.connect(self.refresh)
        self.seat_button = QPushButton()
        button_shortcut(self.seat_button, "Ctrl+T", self)
        self.seat_button.clicked.connect(self.seat_table)
        self.clock = RoundClock(language, rnd["minutes"], rnd["warning_minutes_left"])
        self.clock.warned.connect(self.show_warning)
        self.warning = QLabel()
        self.warning.setObjectName("roundWarning")
        self.warning.setStyleSheet(
            "QLabel#roundWarning { background: #c62828; color: white; font-weight: bold; padding: 8px; }"
        )
        self.warning.setVisible(False)
        self.warning.setWordWrap(True)
        # the chief referee's notices about the store's trust (issue 24 item 10; app.trust)
        self.trust_notice = QLabel()
        self.trust_notice.setObjectName("trustNotice")
        self.trust_notice.setStyleSheet(
            "QLabel#trustNotice { background: #fff8e1; color: #5d4037;"
            " border: 1px solid #ffb300; padding: 6px; }"
        )
        self.trust_notice.setWordWrap(True)
        self.trust_notice.setVisible(False)
        top = QHBoxLayout()
        top.addWidget(self.round_label)
        top.addWidget(self.round)
        top.addWidget(self.seat_button)
        top.addStretch(1)
        top.addWidget(self.clock)
        self.grid_host = QWidget()
        self.grid = QGridLayout(self.grid_host)
        self.grid.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.grid_host)
        self.cards_scroll = scroll
        # as many cards to a row as the width holds (never sideways scrolling), at most this
        self.max_columns: int | None = 4
        #: The cards' font (None: the window's); the big screen's grows with its screen.
        self.card_font: QFont | None = None
        self.columns = 0
        scroll.viewport().installEventFilter(self)
        self.empty = QLabel()
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.legend = QLabel()
        self.legend.setWordWrap(True)  # the big screen's larger words never widen the window
        self.dashboard = QLabel()
        self.dashboard.setObjectName("dashboard")
        self.dashboard.setWordWrap(True)
        self.dashboard.setStyleSheet(
            "QLabel#dashboard { background: #fafafa; border: 1px solid #cfd8dc; padding: 6px; }"
        )
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.warning)
        layout.addWidget(self.trust_notice)
        layout.addWidget(self.dashboard)
        layout.addWidget(self.empty)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.legend)
        self.cards: list[TableCard] = []
        language.changed.connect(self.retranslate)
        rounds = session.rounds()
        if rounds:
            # drawn once, by retranslate below (at 512 tables each drawing costs a second)
            self.round.blockSignals(True)
            self.round.setValue(rounds[-1])
            self.round.blockSignals(False)
        self.retranslate()

    def banner_top(self) -> int:
        """Where the window's passing messages may start: under the round and its clock."""
        return max(self.clock.geometry().bottom(), self.round.geometry().bottom())

    def refresh(self) -> None:
        """Read the round's tables again and draw every card (a new round, a language)."""
        for card in self.cards:
            card.deleteLater()
        self.cards = []
        records = self.session.tables(self.round.value())
        for record in records:
            self.cards.append(self._card(record))
        self._lay_out()
        self.update_dashboard(records)

    def apply(self, changes: OpChanges) -> None:
        """Show what another station (or this one) changed: only the cards of the tables whose
        record changed are read and drawn again; the rest of the hall stays as it is."""
        rnd = self.round.value()
        if changes.everything or changes.pairs:
            self.refresh()
            return
        tables = changes.tables_of(rnd)
        if tables:
            fresh = {r.table: r for r in self.session.tables(rnd, only=tables)}
            kept = []
            for card in self.cards:
                if card.record.table not in tables:
                    kept.append(card)
                elif card.record.table in fresh:
                    card.record = fresh.pop(card.record.table)
                    card.refresh()
                    kept.append(card)
                else:  # voided: no current record at this table any more
                    card.deleteLater()
            added = [self._card(r) for r in fresh.values()]
            self.cards = sorted(kept + added, key=lambda c: c.record.table)
            if added or len(kept) + len(added) != len(self.cards) or any(t not in fresh for t in tables):
                self._lay_out()
        if tables or rnd in changes.appeals:
            self.update_dashboard([c.record for c in self.cards])

    def _card(self, record: TableRecord) -> TableCard:
        card = TableCard(self.language, record)
        if self.card_font is not None:
            card.setFont(self.card_font)
            card.fit_text()
        card.clicked.connect(lambda _=False, c=card: self.openTable.emit(c.record.round, c.record.table))
        return card

    def set_card_font(self, font: QFont) -> None:
        """Draw the cards in ``font`` (the big screen's, scaled to its screen)."""
        self.card_font = font
        for card in self.cards:
            card.setFont(font)
            card.fit_text()
        self._lay_out()

    def fitting_columns(self) -> int:
        """How many cards a row holds at the scroll area's width (at least one)."""
        if not self.cards:
            return 1
        margins = self.grid.contentsMargins()
        spacing = max(0, self.grid.horizontalSpacing())
        room = self.cards_scroll.viewport().width() - margins.left() - margins.right()
        card = max(c.minimumWidth() for c in self.cards)  # fit_text: at least its text's
        columns = max(1, (room + spacing) // (card + spacing))
        return columns if self.max_columns is None else min(columns, self.max_columns)

    def _lay_out(self) -> None:
        """The cards in table order, as many to a row as fit (four at most on a station)."""
        self.columns = columns = self.fitting_columns()
        for card in self.cards:
            self.grid.removeWidget(card)
        for i, card in enumerate(self.cards):
            self.grid.addWidget(card, i // columns, i % columns)
        self.empty.setVisible(not self.cards)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Resize and watched is self.cards_scroll.viewport():
            if self.cards and self.fitting_columns() != self.columns:
                self._lay_out()
        return super().eventFilter(watched, event)

    def update_dashboard(self, records: list[TableRecord]) -> None:
        """The chief referee's overview: tables by status, late pairs, open appeals."""
        tr = self.language.tr
        counts = {status: 0 for status in STATUS_COLOURS}
        for record in records:
            counts[record.status] += 1
        lines = [
            tr("dashboard_tables", count=len(records))
            + "　".join(f"{tr('status_' + s)} {n}" for s, n in counts.items() if n)
        ]
        minutes = self.clock.minutes_since_start()
        if minutes is not None and minutes > 0:
            waiting = [str(r.table) for r in records if r.status == "not_started"]
            if waiting:
                lines.append(tr("dashboard_late", tables="、".join(waiting), minutes=minutes))
        try:
            appeals = [a for a in self.session.appeals(self.round.value()) if a["open"]]
        except StoreError:
            appeals = []
        if appeals:
            lines.append(
                tr("dashboard_appeals", count=len(appeals))
                + "　".join(
                    tr("round_table", round=a["round"], table=a["table"]) + f" #{a['id']}" for a in appeals
                )
            )
        self.dashboard.setText("<br>".join(lines))

    def seat_table(self) -> None:
        pairs = self.session.pairs()
        taken = [c.record.table for c in self.cards]
        dialog = SeatTableDialog(self.language, pairs, max(taken, default=0) + 1, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        try:
            self.session.open_table(
                self.round.value(),
                dialog.table.value(),
                dialog.ns.currentData(),
                dialog.ew.currentData(),
                dialog.dealer.currentData(),
            )
        except StoreError as exc:
            QMessageBox.warning(self, self.language.tr("not_saved"), refusal(exc, self.language))
            return
        self.saved.emit(self.language.tr("table_seated", table=dialog.table.value()))
        self.refresh()

    def show_warning(self, record: bool = True) -> None:
        """Show the time warning, and (``record``) record it at every table still playing;
        recording again leaves the tables that have it as they are."""
        rnd = self.session.rulebook.data["round"]
        text = rnd["warning_text"][self.language.lang]
        if (rnd.get("warning_clause") or rnd["clause"])["assumed"]:
            text += self.language.tr("warning_assumed")
        self.warning.setText(self.language.tr("warning_prefix") + text)
        self.warning.setVisible(True)
        if not record:
            return  # worded again (a language switch): the warning was given already
        QApplication.beep()
        # each table playing records the hand it is in: the hands that may follow count from it
        try:
            tables = self.session.give_time_warning(self.round.value())
        except StoreError as exc:
            self.saved.emit(f"{text} {refusal(exc, self.language)}")
            return
        self.saved.emit(f"{text} {self.language.tr('time_warning_recorded', n=len(tables))}")
        self.refresh()

    def retranslate(self, *_: object) -> None:
        tr = self.language.tr
        self.round_label.setText(tr("round_label"))
        self.seat_button.setText(tr("seat_table"))
        self.empty.setText(tr("no_tables"))
        self.legend.setText(
            "  ".join(
                f"<span style='background:{colour}; border:1px solid #90a4ae'>{'&nbsp;' * 5}</span>"
                f"&nbsp;{tr('status_' + status)}&nbsp;&nbsp;"
                for status, colour in STATUS_COLOURS.items()
            )
        )
        if self.warning.isVisible():
            self.show_warning(record=False)
        self.refresh()
