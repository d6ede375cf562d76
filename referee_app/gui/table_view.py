"""The table referee's screen for one table: seats, hands, infractions, rulings, clocks."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ..app.changes import OpChanges
from ..app.drafts import Drafts
from ..app.errors import ConflictError, RoleError, StoreError
from ..app.messages import describe
from ..app.session import Session, TableRecord
from ..core import editing, unusual
from ..core.catalogue import facts_required, fields_for
from ..core.errors import CaseError
from ..core.seats import SEAT_NAMES, SIDE_NAMES
from .appeals import FileAppealDialog
from .i18n import Language
from .infraction_dialog import InfractionDialog
from .models import HAND_COLUMNS, HandsModel, RulingsModel
from .preview import PdfPreview, scoresheet_pdf, show_pdf
from .refusal import refusal
from .widgets import ShotClock, TableDiagram, WrapButton, button_shortcut, seat_names
from .withdrawal import WithdrawalDialog

SHAPES = ("single", "pair", "tractor", "throw")

#: One key per infraction kind in the table view, shown on its button (the English word's
#: letter; never N, E, S, W, which choose the seat inside the dialog).
KIND_KEYS = {
    "out_of_turn": "O",
    "bottom_miscount": "B",
    "wrong_card_count": "C",
    "exposed_card": "X",
    "failed_throw": "T",
    "wrong_play": "F",
    "hidden_card": "H",
    "wrong_declaration": "R",
    "unreasonable_play": "U",
    "illegal_signal": "G",
    "delay": "D",
    "trick_handling": "K",
    "misconduct": "M",
}


#: The hands table's column of the outcome sentence (结果).
OUTCOME_COLUMN = HAND_COLUMNS.index("col_outcome")


def kind_keys(kinds: list[str]) -> dict[str, str]:
    """Each kind's key: its own, or for a kind this list does not know (a new rulebook's)
    the first free letter of its name."""
    keys = {kind: KIND_KEYS[kind] for kind in kinds if kind in KIND_KEYS}
    taken = set(keys.values()) | set("NESW")
    for kind in kinds:
        if kind in keys:
            continue
        free = next((c.upper() for c in kind if c.isalpha() and c.upper() not in taken), None)
        if free is not None:
            keys[kind] = free
            taken.add(free)
    return keys


class PointsField(QWidget):
    """Card points as typed: a multiple of 5 from 0 to 200, refused at the field."""

    changed = Signal()

    def __init__(self, language: Language, parent: QWidget | None = None, maximum: int = 200) -> None:
        super().__init__(parent)
        self.language = language
        self.maximum = maximum
        self.edit = QLineEdit()
        self.edit.setMaxLength(3)
        self.edit.setPlaceholderText(f"0–{maximum}")
        self.error = QLabel()
        self.error.setStyleSheet("color: #c62828;")
        self.error.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit)
        layout.addWidget(self.error)
        self.edit.textChanged.connect(self._check)
        self.edit.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """A letter is never a point: it stays an infraction kind's key while typing points."""
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and Qt.Key.Key_A <= event.key() <= Qt.Key.Key_Z
            and not event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier
        ):
            return True  # not accepted: the window's shortcut gets the key
        return super().eventFilter(watched, event)

    def value(self) -> int | None:
        text = self.edit.text().strip()
        if not text.isdigit():
            return None
        number = int(text)
        return number if 0 <= number <= self.maximum and number % 5 == 0 else None

    def _check(self) -> None:
        text = self.edit.text().strip()
        ok = text == "" or self.value() is not None
        message = "points_invalid" if self.maximum == 200 else "bottom_points_invalid"
        self.error.setText("" if ok else self.language.tr(message, value=text, maximum=self.maximum))
        self.error.setVisible(not ok)
        self.edit.setStyleSheet("" if ok else "border: 2px solid #c62828;")
        self.changed.emit()


#: What a ruling decides, compared between the saved decision and the one a preview gives.
_SANCTION_KEYS = (
    "points",
    "against",
    "warning",
    "hand_lost",
    "ends_hand",
    "round_forfeit",
    "suspension_rounds",
    "disqualified",
    "levels",
    "occurrence",
)


def consequences(
    saved: dict[str, Any], proposed: dict[str, Any], new_at: tuple[int | None, int]
) -> list[dict[str, Any]]:
    """What else ``proposed`` changes against ``saved`` beside the new ruling at
    ``new_at`` (hand index or None before play, ruling index): earlier rulings whose sanction
    changes, and a forfeit of the round."""
    out: list[dict[str, Any]] = []
    before = [(None, saved.get("before_play") or [], proposed.get("before_play") or [])]
    hands = [
        (i, old.get("rulings") or [], new.get("rulings") or [])
        for i, (old, new) in enumerate(
            zip(saved.get("hands") or [], proposed.get("hands") or [], strict=False)
        )
    ]
    for hand_index, old_rulings, new_rulings in before + hands:
        for i, (old, new) in enumerate(zip(old_rulings, new_rulings, strict=False)):
            if (hand_index, i) == new_at:
                continue
            if any(old.get(k) != new.get(k) for k in _SANCTION_KEYS):
                out.append({"ruling": str(new.get("text") or "")})
    forfeit = proposed.get("forfeit")
    if forfeit is not None and saved.get("forfeit") != forfeit:
        out.append({"forfeit": forfeit["side"], "match_points": forfeit["match_points"]})
    return out


class TableView(QWidget):
    """One table of one round. Everything it shows comes from the core's decision."""

    #: The modal dialog open now, else None.
    active_dialog: QDialog | None = None

    back = Signal()
    saved = Signal(str)

    def __init__(
        self,
        language: Language,
        session: Session,
        minutes_since_start: Callable[[], int | None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.language = language
        self.session = session
        self.minutes_since_start = minutes_since_start
        # The round clock's time left in seconds, None while it has not been started.
        self.seconds_left: Callable[[], float | None] = lambda: None
        self.record: TableRecord | None = None
        #: Where typed, unconfirmed input is kept while typed (set by the window).
        self.drafts: Drafts | None = None
        self.hand_draft_kept = False
        #: The sides seen arriving on time at this station (round, table, side): nothing is
        #: recorded for them, the button shows it.
        self.on_time: set[tuple[int, int, str]] = set()
        #: The typed points were refused because another station saved first: they are not
        #: previewed (nor confirmable) until the referee edits the form.
        self.entry_stale = False
        #: Logs this station in to another role (the window's PIN dialog); True once done.
        self.login: Callable[..., bool] | None = None
        rulebook = session.rulebook.data

        self.title = QLabel()
        self.title.setObjectName("tableTitle")
        self.back_button = QPushButton()
        self.back_button.clicked.connect(self.back.emit)
        button_shortcut(self.back_button, "Alt+Left", self)
        header = QHBoxLayout()
        header.addWidget(self.back_button)
        # the title with the round's state beside it, the pairs' names under them, wrapping:
        # on one line with the buttons the names made the view wider than a 1024 px screen in
        # English (long names or units wider still), and an <h2>'s margins cost the height the
        # time warning's banner needs on a 700 px screen
        self.status = QLabel()
        self.players_line = QLabel()
        self.players_line.setTextFormat(Qt.TextFormat.PlainText)  # names as typed, never markup
        self.players_line.setWordWrap(True)
        title_line = QHBoxLayout()
        title_line.setSpacing(16)
        title_line.addWidget(self.title)
        title_line.addWidget(self.status)
        title_line.addStretch(1)
        heading = QVBoxLayout()
        heading.setSpacing(0)
        heading.addLayout(title_line)
        heading.addWidget(self.players_line)
        header.addLayout(heading, 1)
        # Correcting a signed record is a state, not a passing message: it stays on screen.
        self.correction_banner = QLabel()
        self.correction_banner.setObjectName("correctionBanner")
        self.correction_banner.setWordWrap(True)
        self.correction_banner.setStyleSheet(
            "background: #fff3e0; color: #bf360c; border: 2px solid #ef6c00; padding: 4px; font-weight: bold;"
        )
        self.correction_banner.setVisible(False)
        # After the time warning the hands left are counted at the table (限时提醒后…副)
        self.time_banner = QLabel()
        self.time_banner.setObjectName("timeWarningBanner")
        self.time_banner.setWordWrap(True)
        self.time_banner.setStyleSheet(
            "background: #ffebee; color: #b71c1c; border: 2px solid #c62828; padding: 4px; font-weight: bold;"
        )
        self.time_banner.setVisible(False)
        self.warning_button = QPushButton()
        self.warning_button.clicked.connect(self.give_time_warning)
        self.preview_button = QPushButton()
        button_shortcut(self.preview_button, "Ctrl+P", self)
        self.preview_button.clicked.connect(self.preview_scoresheet)
        self.sign_button = QPushButton()
        self.sign_button.clicked.connect(self.sign_round)
        self.correct_button = QPushButton()
        self.correct_button.clicked.connect(lambda: self.start_correction())
        self.correction_reason: str | None = None
        self.editing_hand: int | None = None  # the scored hand being corrected in the form
        header.addWidget(self.warning_button)
        header.addWidget(self.preview_button)
        header.addWidget(self.sign_button)
        header.addWidget(self.correct_button)

        # -- left: diagram, arrivals, shot clock ----------------------------------------------------
        self.diagram = TableDiagram(language)
        self.diagram.seatClicked.connect(self._seat_clicked)
        self.arrive = {side: QPushButton() for side in ("NS", "EW")}
        for side, button in self.arrive.items():
            button.clicked.connect(lambda _=False, s=side: self.mark_arrived(s))
        arrivals = QHBoxLayout()
        arrivals.addWidget(self.arrive["NS"])
        arrivals.addWidget(self.arrive["EW"])
        # a pair leaving during the round (中途退出): the hands played stand, then the forfeit
        self.withdraw_button = QPushButton()
        self.withdraw_button.clicked.connect(lambda: self.withdraw_pair())
        limits = rulebook.get("time_limits") or {}
        self.shot_clock = ShotClock(language, limits)
        self.shot_clock.expired.connect(lambda seat, what: self.log_infraction("delay", seat, {"what": what}))
        self.shot_box = QGroupBox()
        QVBoxLayout(self.shot_box).addWidget(self.shot_clock)
        self.shot_box.setVisible(bool(self.shot_clock.limits))
        left = QVBoxLayout()
        left.addWidget(self.diagram, 1)
        left.addLayout(arrivals)
        left.addWidget(self.withdraw_button)
        left.addWidget(self.shot_box)
        left_widget = QWidget()
        left_widget.setLayout(left)

        # -- centre: hands and the hand entry ----------------------------------------------------
        self.hands_model = HandsModel(language)
        self.hands_view = QTableView()
        self.hands_view.setModel(self.hands_model)
        self.hands_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.hands_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.hands_view.verticalHeader().setVisible(False)
        self.hands_view.setWordWrap(True)
        self.hands_view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # the outcome is a sentence: a readable width of its own rather than what the numbers
        # leave, which cut it to a word a line (on a small screen it comes second: _fit_outcome)
        hands_header = self.hands_view.horizontalHeader()
        hands_header.setSectionResizeMode(OUTCOME_COLUMN, QHeaderView.ResizeMode.Interactive)
        hands_header.resizeSection(OUTCOME_COLUMN, 260)
        self.hands_view.viewport().installEventFilter(self)  # a wider table widens the outcome
        self.hands_view.doubleClicked.connect(lambda index: self.edit_hand(index.row()))
        self.hand_box = QGroupBox()
        form = QFormLayout(self.hand_box)
        self.defender_points = PointsField(language)
        self.bottom_points = PointsField(language, maximum=rulebook["bottom"].get("max_points") or 200)
        self.redeclarations = QSpinBox()
        self.redeclarations.setRange(0, 10)
        self.captured = QCheckBox()
        self.shape = QComboBox()
        self.pairs = QSpinBox()
        self.pairs.setRange(2, 12)
        self.largest = QComboBox()
        self.j_cards = QSpinBox()
        self.j_cards.setRange(0, 2)
        self.has_j_rule = rulebook["scoring"].get("j_rule") is not None
        # which J captured (主J / 副J), asked where the event's J rule drops by it
        self.j_suit = QComboBox()
        self.j_rule_by_suit = (rulebook["scoring"].get("j_rule") or {}).get("trump_to") is not None
        self.form_labels: dict[str, QLabel] = {}
        for key, widget in (
            ("defender_points", self.defender_points),
            ("redeclarations", self.redeclarations),
            # 抠底 first: the bottom's points count only when the defenders capture it, so
            # 底牌分 is typed after ticking it (and cannot be typed, then ignored, before)
            ("captured", self.captured),
            ("bottom_points", self.bottom_points),
            ("shape", self.shape),
            ("pairs", self.pairs),
            ("largest", self.largest),
            ("j_cards", self.j_cards),
            ("j_suit", self.j_suit),
        ):
            label = QLabel()
            self.form_labels[key] = label
            form.addRow(label, widget)
        self.outcome = QLabel()
        self.outcome.setObjectName("handOutcome")
        self.outcome.setWordWrap(True)
        self.outcome.setMinimumHeight(40)
        form.addRow(self.outcome)
        self.confirm_hand_button = QPushButton()
        self.confirm_hand_button.setMinimumHeight(36)
        self.confirm_hand_button.clicked.connect(self.confirm_hand)
        self.end_button = QPushButton()
        self.end_button.clicked.connect(self.end_on_time)
        self.cancel_edit_button = QPushButton()
        self.cancel_edit_button.clicked.connect(self.cancel_hand_edit)
        self.cancel_edit_button.setVisible(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.confirm_hand_button, 2)
        buttons.addWidget(self.cancel_edit_button, 1)
        buttons.addWidget(self.end_button, 1)
        form.addRow(buttons)
        for widget in (self.defender_points, self.bottom_points):
            widget.changed.connect(self.preview_hand)
            widget.edit.textEdited.connect(self._entry_looked_at)
        self.redeclarations.valueChanged.connect(self.preview_hand)
        self.captured.toggled.connect(self._captured_toggled)
        self.shape.currentIndexChanged.connect(self.preview_hand)
        self.pairs.valueChanged.connect(self.preview_hand)
        self.largest.currentIndexChanged.connect(self.preview_hand)
        self.j_cards.valueChanged.connect(self.preview_hand)
        self.j_suit.currentIndexChanged.connect(self.preview_hand)
        centre = QSplitter(Qt.Orientation.Vertical)
        # the time warning's count over the hands: where the referee enters the next one, and
        # in the column with room to spare (above the whole view it made the view taller than
        # a 700 px screen in English)
        hands_column = QWidget()
        hands_layout = QVBoxLayout(hands_column)
        hands_layout.setContentsMargins(0, 0, 0, 0)
        hands_layout.addWidget(self.time_banner)
        hands_layout.addWidget(self.hands_view, 1)
        centre.addWidget(hands_column)
        centre.addWidget(self.hand_box)
        centre.setStretchFactor(0, 3)
        centre.setStretchFactor(1, 2)

        # -- right: one button per infraction kind, the rulings ---------------------------------
        self.kind_box = QGroupBox()
        grid = QGridLayout(self.kind_box)
        # seven rows of kinds: tight rows keep the window within 1024×700 when an English label
        # wraps to a third line (it was some 10 px taller than the screen)
        grid.setVerticalSpacing(2)
        self.kind_buttons: dict[str, WrapButton] = {}
        in_hand = [k for k in session.rulebook.kinds if k != "late_arrival"]  # late: "arrived"
        self.kind_keys = kind_keys(in_hand)
        for n, kind in enumerate(in_hand):
            button = WrapButton()
            button.floor = 40  # every kind in view at 1024×700
            button.clicked.connect(lambda _=False, k=kind: self.log_infraction(k))
            if kind in self.kind_keys:
                button_shortcut(button, self.kind_keys[kind], self)
            self.kind_buttons[kind] = button
            grid.addWidget(button, n // 2, n % 2)
        self.rulings_model = RulingsModel(language)
        self.rulings_view = QTableView()
        self.rulings_view.setModel(self.rulings_model)
        self.rulings_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.rulings_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.rulings_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.rulings_view.setWordWrap(True)
        self.rulings_view.verticalHeader().setVisible(False)
        self.rulings_view.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.rulings_view.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        # the ruling's own text says everything and takes the room; the clause column is a
        # narrow, wrapped reference (the whole ruling is also each row's tooltip)
        self.rulings_view.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Interactive)
        self.rulings_view.horizontalHeader().resizeSection(2, 96)
        for table in (self.rulings_view, self.hands_view):  # wrapped rows follow the widths
            table.horizontalHeader().sectionResized.connect(lambda *_, t=table: t.resizeRowsToContents())
        self.void_button = QPushButton()
        # clicked(bool) would pass its checked state as the reason
        self.void_button.clicked.connect(lambda: self.void_selected())
        self.appeal_button = QPushButton()
        self.appeal_button.clicked.connect(self.file_appeal)
        self.rulings_box = QGroupBox()
        rl = QVBoxLayout(self.rulings_box)
        rl.addWidget(self.rulings_view)
        ruling_actions = QHBoxLayout()
        ruling_actions.addWidget(self.void_button)
        ruling_actions.addWidget(self.appeal_button)
        rl.addLayout(ruling_actions)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.kind_box)
        right.addWidget(self.rulings_box)
        # every kind in view, never scrolled or squeezed (it fits 1024×700); the rulings take
        # what is left
        right.setStretchFactor(0, 0)
        right.setStretchFactor(1, 1)
        right.setCollapsible(0, False)

        body = QSplitter(Qt.Orientation.Horizontal)
        body.addWidget(left_widget)
        body.addWidget(centre)
        body.addWidget(right)
        body.setStretchFactor(0, 2)
        body.setStretchFactor(1, 4)
        body.setStretchFactor(2, 3)
        layout = QVBoxLayout(self)
        layout.addLayout(header)
        layout.addWidget(self.correction_banner)
        layout.addWidget(body, 1)

        QShortcut(QKeySequence("Ctrl+Return"), self.hand_box).activated.connect(self.confirm_hand)
        QShortcut(QKeySequence("Ctrl+Shift+V"), self).activated.connect(lambda: self.void_selected())
        self.setTabOrder(self.defender_points.edit, self.redeclarations)
        self.setTabOrder(self.redeclarations, self.captured)
        self.setTabOrder(self.captured, self.bottom_points.edit)
        self.setTabOrder(self.bottom_points.edit, self.shape)
        self.setTabOrder(self.shape, self.pairs)
        self.setTabOrder(self.pairs, self.largest)
        self.setTabOrder(self.largest, self.j_cards)
        self.setTabOrder(self.j_cards, self.confirm_hand_button)
        language.changed.connect(self.retranslate)
        self.retranslate()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Resize and watched is self.hands_view.viewport():
            self._fit_outcome()
        return super().eventFilter(watched, event)

    def _fit_outcome(self) -> None:
        """The outcome column takes the room the numbers leave, and never less than 260 px.
        Where the numbers leave less (a 1024-wide laptop), the outcome is shown right after
        the hand's number and fills the width: the sentence the referee reads is never
        scrolled away, the numbers after it are."""
        header = self.hands_view.horizontalHeader()
        width = self.hands_view.viewport().width()
        others = sum(header.sectionSize(c) for c in range(header.count()) if c != OUTCOME_COLUMN)
        narrow = width - others < 260
        header.moveSection(header.visualIndex(OUTCOME_COLUMN), 1 if narrow else OUTCOME_COLUMN)
        if narrow:
            header.resizeSection(OUTCOME_COLUMN, max(160, width - header.sectionSize(0)))
        else:
            header.resizeSection(OUTCOME_COLUMN, width - others)

    # -- showing a record ---------------------------------------------------------------------

    def load(self, record: TableRecord) -> None:
        self.record = record
        self.diagram.set_state(seat_names(record.players), record.next_dealer, record.levels)
        self.hands_model.set_decision(record.case, record.decision)
        self._fit_outcome()
        self.rulings_model.set_decision(record.decision)
        self.rulings_view.resizeRowsToContents()
        self.hands_view.resizeRowsToContents()
        self.hands_view.scrollToBottom()
        self.rulings_view.scrollToBottom()
        finished = record.decision.get("result") is not None
        locked = record.signed and self.correction_reason is None
        changes = (self.hand_box, self.kind_box, self.shot_box, self.withdraw_button, *self.arrive.values())
        for widget in changes:
            widget.setEnabled((not finished or self.correction_reason is not None) and not locked)
        # a ruling that ended the round (a forfeit for late arrival) can still be voided
        self.void_button.setEnabled(not locked)
        for side, button in self.arrive.items():  # a side arrives once
            if self.has_arrived(side) or (record.round, record.table, side) in self.on_time:
                button.setEnabled(False)
        if self.editing_hand is not None and not locked:
            self.hand_box.setEnabled(True)  # a finished, unsigned round's hand can still be corrected
        self.sign_button.setEnabled(finished and not record.signed)
        self.correct_button.setVisible(record.signed)
        self.retranslate()
        self.preview_hand()

    def where(self) -> dict[str, Any]:
        assert self.record is not None
        return {"event": self.session.event.id, "round": self.record.round, "table": self.record.table}

    def keep_hand_draft(self) -> None:
        """The hand form as typed, on disk until it is confirmed or cleared."""
        if self.drafts is None or self.record is None:
            return
        if not self.unconfirmed_input():
            if self.hand_draft_kept:  # typed here and cleared or confirmed; an older one waits for resume
                self.drafts.discard("hand")
                self.hand_draft_kept = False
            return
        self.hand_draft_kept = True
        self.drafts.save(
            "hand",
            {
                **self.where(),
                "editing_hand": self.editing_hand,
                "defender_points": self.defender_points.edit.text(),
                "bottom_points": self.bottom_points.edit.text(),
                "redeclarations": self.redeclarations.value(),
                "captured": self.captured.isChecked(),
                "shape": self.shape.currentData(),
                "largest": self.largest.currentData(),
                "pairs": self.pairs.value(),
                "j_cards": self.j_cards.value(),
                "j_suit": self.j_suit.currentData(),
            },
        )

    def restore_hand_draft(self, draft: dict[str, Any]) -> None:
        if self.record is None:
            return
        row = draft.get("editing_hand")
        if isinstance(row, int):
            self.edit_hand(row)  # the corrected hand's own values first, then what was typed
        self.redeclarations.setValue(int(draft.get("redeclarations") or 0))
        self.captured.setChecked(bool(draft.get("captured")))
        for combo, name in ((self.shape, "shape"), (self.largest, "largest")):
            if draft.get(name):
                combo.setCurrentIndex(max(0, combo.findData(draft[name])))
        self.pairs.setValue(int(draft.get("pairs") or 2))
        self.j_cards.setValue(int(draft.get("j_cards") or 0))
        if draft.get("j_suit"):
            self.j_suit.setCurrentIndex(max(0, self.j_suit.findData(draft["j_suit"])))
        self.bottom_points.edit.setText(str(draft.get("bottom_points") or ""))
        self.defender_points.edit.setText(str(draft.get("defender_points") or ""))

    def unconfirmed_input(self) -> bool:
        """Hand points typed but not confirmed (quitting would lose them)."""
        return bool(self.defender_points.edit.text().strip() or self.bottom_points.edit.text().strip())

    def has_arrived(self, side: str) -> bool:
        assert self.record is not None
        return any(
            i.get("kind") == "late_arrival" and i.get("side") == side and not i.get("void")
            for i in self.record.case.get("before_play") or []
        )

    def reload(self) -> None:
        if self.record is None:
            return
        fresh = self.session.table(self.record.round, self.record.table)
        if fresh is not None:
            self.load(fresh)

    def apply(self, changes: OpChanges) -> bool:
        """Another station saved, signed, voided or appealed this table (what the hall's cards
        follow, ``OpChanges``): show its current record. Points typed here were meant for the
        hand this view showed, so they stay unpreviewed (as after a refused save) until the
        referee has looked; the referee is told where they are looking. True if it changed."""
        if self.record is None:
            return False
        key = (self.record.round, self.record.table)
        if not (changes.everything or key in changes.tables):
            return False
        fresh = self.session.table(*key)
        if fresh is None:
            return False
        shown = (self.record.version, self.record.signed, self.record.open_appeals)
        if (fresh.version, fresh.signed, fresh.open_appeals) == shown:
            return False  # this station's own save, already shown
        if fresh.version != self.record.version:
            self.entry_stale = self.entry_stale or self.unconfirmed_input()
            self.saved.emit(
                self.language.tr("table_saved_elsewhere", round=key[0], table=key[1], version=fresh.version)
            )
        self.load(fresh)
        return True

    # -- changes -----------------------------------------------------------------------------

    def save(self, case: dict[str, Any], said: Callable[[int], str] | None = None) -> bool:
        """Save a new version; the window says saved (``said``: in these words, given the
        version) only after the store has committed. A write refused for this station's role
        offers the PIN dialog and is tried once more; refused again, what was typed (the
        hand, the correction's reason) stays."""
        assert self.record is not None
        confirmed = self.confirm_unusual(case)
        if confirmed is None:
            return False
        case = confirmed
        for attempt in (1, 2):
            try:
                if self.correction_reason is not None:  # the chief referee's correction of a signed record
                    self.record = self.session.correct(self.record, case, self.correction_reason)
                    self.correction_reason = None
                else:
                    self.record = self.session.save(self.record, case)
                break
            except RoleError as exc:
                if attempt == 1 and self.login is not None and self.login(refused=exc):
                    continue
                QMessageBox.warning(self, self.language.tr("not_saved"), refusal(exc, self.language))
                return False
            except (StoreError, CaseError) as exc:
                QMessageBox.warning(self, self.language.tr("not_saved"), refusal(exc, self.language))
                # another station saved this table first: what was typed was meant for the hand
                # it showed, not for the next one of the fresh record; it stays, unpreviewed,
                # until the referee has looked and changed it
                self.entry_stale = isinstance(exc, ConflictError) and self.unconfirmed_input()
                self.reload()
                return False
        self.load(self.record)
        version = self.record.version
        self.saved.emit(said(version) if said else self.language.tr("saved_version", version=version))
        return True

    def confirm_unusual(self, case: dict[str, Any]) -> dict[str, Any] | None:
        """The case with the referee's confirmation of each odd fact it holds (the same
        offence logged twice in a trick …), asked one by one; None: the referee did not
        confirm one, nothing is saved. Other problems are left to the save to refuse."""
        for _ in range(len(unusual.FACTS) * 50):
            try:
                self.session.check_confirmed(case)
            except CaseError as exc:
                fact = exc.values.get("fact") if exc.code.startswith("case.unusual_") else None
                if not isinstance(fact, str) or not isinstance(exc.field, str):
                    return case
                answer = QMessageBox.question(
                    self,
                    self.language.tr("unusual_title"),
                    self.language.tr(
                        "unusual_question", text=describe(exc, self.language.lang, with_field=False)
                    ),
                    QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                    QMessageBox.StandardButton.No,
                )
                if answer != QMessageBox.StandardButton.Yes:
                    return None
                case = editing.confirm_fact(case, fact, exc.field)
                continue
            return case
        return case

    def preview_with_unusual(self, case: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """The decision on ``case`` with what the referee will be asked to confirm on saving
        (its odd facts, in words)."""
        decision = self.session.preview(case)
        notes: list[str] = []
        for _ in range(len(unusual.FACTS) * 50):
            try:
                self.session.check_confirmed(case)
                break
            except CaseError as exc:
                fact = exc.values.get("fact")
                if not isinstance(fact, str) or not isinstance(exc.field, str):
                    break
                notes.append(describe(exc, self.language.lang, with_field=False))  # says where itself
                case = editing.confirm_fact(case, fact, exc.field)
        return decision, notes

    def preview_infraction(self, infraction: dict[str, Any]) -> dict[str, Any]:
        """The ruling the engine proposes for ``infraction`` logged now at this table, with
        ``also``: what else saving it changes (another ruling's sanction, the round's
        forfeit) — the preview is the whole decision that will be saved."""
        assert self.record is not None
        case = editing.add_infraction(self.record.case, infraction)
        editing.refuse_after_end(self.record.case, self.record.decision, case)
        decision, notes = self.preview_with_unusual(case)
        if infraction["kind"] == "late_arrival":
            ruling = dict(decision["before_play"][-1])
            new_at: tuple[int | None, int] = (None, len(decision["before_play"]) - 1)
        else:
            ruling = dict(decision["hands"][-1]["rulings"][-1])
            new_at = (len(decision["hands"]) - 1, len(decision["hands"][-1]["rulings"]) - 1)
        ruling["also"] = consequences(self.record.decision, decision, new_at)
        ruling["unusual"] = notes
        return ruling

    def log_infraction(
        self,
        kind: str,
        seat: str | None = None,
        values: dict[str, Any] | None = None,
        draft: dict[str, Any] | None = None,
    ) -> bool:
        if self.record is None:
            return False
        label = self.session.rulebook.data["infractions"][kind]["label"]
        seat = seat or self.diagram.selected
        fields = fields_for(self.session.rulebook.data, kind)
        ended = editing.ended_at_once(self.record.case, self.record.decision)
        if ended is not None and kind != "late_arrival":
            QMessageBox.information(
                self, self.language.tr("not_saved"), self.language.tr("hand_ended", n=ended + 1)
            )
            return False
        required = facts_required(self.session.rulebook.data, kind)
        current = editing.hand_in_progress(self.record.case) or {}
        if (
            "trick" in fields
            and "trick" not in required
            and any("trick" in i for i in current.get("infractions") or [])
        ):
            # the hand's other offences are placed by their tricks: without its own this one
            # would be counted before them (and an earlier ruling would take its step)
            required = (*required, "trick")
        dialog = InfractionDialog(
            self.language,
            kind,
            label,
            self.preview_infraction,
            fields,
            seat,
            values,
            self,
            required=required,
        )
        if draft is not None:
            dialog.restore_draft(draft)
        drafts = self.drafts
        if drafts is not None:
            where = self.where()
            dialog.edited.connect(lambda: drafts.save("ruling", {**where, "dialog": dialog.draft()}))
            drafts.save("ruling", {**where, "dialog": dialog.draft()})
        self.active_dialog = dialog
        accepted = dialog.exec() == InfractionDialog.DialogCode.Accepted
        self.active_dialog = None
        if drafts is not None:
            drafts.discard("ruling")  # confirmed (saved just below) or cancelled
        if not accepted or dialog.result_infraction is None:
            return False
        return self.save(editing.add_infraction(self.record.case, dialog.result_infraction))

    def mark_arrived(self, side: str) -> None:
        """A side arrives at the table (到场). Before the round clock starts, or within its
        first minute, that is on time: nothing is recorded (a late-arrival ruling of 0
        minutes would give a warning), the button says so. Later, the late-arrival ruling
        opens with the minutes since the start, for the referee to check and confirm."""
        minutes = self.minutes_since_start()
        if not minutes:
            if self.record is not None:
                self.on_time.add((self.record.round, self.record.table, side))
            self.arrive[side].setEnabled(False)
            self.retranslate()
            name = SIDE_NAMES[self.language.lang][side]
            self.saved.emit(self.language.tr("arrived_on_time", side=name))
            return
        self.log_infraction("late_arrival", "N" if side == "NS" else "E", {"minutes": minutes})

    def preview_withdrawal(self, side: str, reason: str) -> dict[str, Any]:
        """The decision if ``side`` leaves now (中途退出), as it will be saved."""
        assert self.record is not None
        return self.session.preview(editing.withdraw(self.record.case, side, reason))

    def withdraw_pair(self, dialog: WithdrawalDialog | None = None) -> bool:
        """A pair leaves during the round: which side and why, the result previewed with
        its clause, then saved as any change of the table (refused when another station
        saved first, or the table is signed and no correction is open)."""
        if self.record is None:
            return False
        record = self.record
        dialog = dialog or WithdrawalDialog(self.language, record, self.preview_withdrawal, self)
        self.active_dialog = dialog
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        self.active_dialog = None
        side = dialog.side
        if not accepted or side is None or self.record is not record:
            return False
        name = SIDE_NAMES[self.language.lang][side]
        case = editing.withdraw(record.case, side, dialog.reason)
        saved = self.save(case, said=lambda v: self.language.tr("withdrawal_saved", side=name, version=v))
        if saved:
            self.clear_hand_form()  # the round is over: points typed for a next hand are moot
        return saved

    def _seat_clicked(self, seat: str) -> None:
        self.diagram.select(seat)
        self.shot_clock.set_seat(seat)

    def hand_fields(self) -> dict[str, Any] | None:
        points = self.defender_points.value()
        bottom_points = self.bottom_points.value() if self.bottom_points.edit.text().strip() else 0
        if points is None or bottom_points is None:
            return None
        bottom: dict[str, Any] = {"points": bottom_points, "captured": self.captured.isChecked()}
        if self.captured.isChecked():
            shape = self.shape.currentData()
            bottom["shape"] = shape
            if shape == "throw":
                bottom["largest"] = self.largest.currentData()
            if shape == "tractor" or (shape == "throw" and self.largest.currentData() == "tractor"):
                bottom["pairs"] = self.pairs.value()
            if self.has_j_rule and self.j_cards.value():
                bottom["j"] = self.j_cards.value()
                if self.j_rule_by_suit:
                    bottom["j_suit"] = self.j_suit.currentData()
        return {"defender_points": points, "redeclarations": self.redeclarations.value(), "bottom": bottom}

    def _update_bottom_fields(self) -> None:
        captured = self.captured.isChecked()
        self.bottom_points.edit.setEnabled(captured)
        self.form_labels["bottom_points"].setEnabled(captured)
        shape = self.shape.currentData()
        show = {
            "shape": captured,
            "largest": captured and shape == "throw",
            "pairs": captured
            and (shape == "tractor" or (shape == "throw" and self.largest.currentData() == "tractor")),
            "j_cards": captured and self.has_j_rule,
            "j_suit": captured and self.j_rule_by_suit and self.j_cards.value() > 0,
        }
        widgets = {
            "shape": self.shape,
            "largest": self.largest,
            "pairs": self.pairs,
            "j_cards": self.j_cards,
            "j_suit": self.j_suit,
        }
        for key, visible in show.items():
            widgets[key].setVisible(visible)
            self.form_labels[key].setVisible(visible)

    def preview_hand(self) -> None:
        self._update_bottom_fields()
        if self.record is None:
            return
        if self.entry_stale:
            self.outcome.setText(
                f"<span style='color:#c62828'>{escape(self.language.tr('entry_stale'))}</span>"
            )
            self.confirm_hand_button.setEnabled(False)
            return
        self.keep_hand_draft()
        fields = self.hand_fields()
        if fields is None:
            self.outcome.setText(f"<i>{self.language.tr('enter_points')}</i>")
            self.confirm_hand_button.setEnabled(False)
            return
        try:
            decision, notes = self.preview_with_unusual(self.case_with_hand(fields))
        except (CaseError, ValueError) as exc:
            self.outcome.setText(f"<span style='color:#c62828'>{escape(refusal(exc, self.language))}</span>")
            self.confirm_hand_button.setEnabled(False)
            return
        hand = decision["hands"][-1 if self.editing_hand is None else self.editing_hand]
        shown = f"<b>{self.language.tr('outcome_preview')}</b> {hand['text']}"
        for note in notes:
            words = escape(self.language.tr("unusual_note", text=note))
            shown += f"<br><span style='color:#ef6c00'>⚠ {words}</span>"
        self.outcome.setText(shown)
        self.confirm_hand_button.setEnabled(True)

    def _captured_toggled(self, captured: bool) -> None:
        """抠底 unticked: the bottom's points no longer count, so what was typed there goes
        (it would otherwise be kept and silently ignored)."""
        if not captured and self.bottom_points.edit.text():
            self.bottom_points.edit.clear()  # its change previews the hand again
        self.preview_hand()

    def _entry_looked_at(self, *_: object) -> None:
        """The referee typed in the form again: the entry is theirs for the record shown."""
        if self.entry_stale:
            self.entry_stale = False
            self.preview_hand()

    def case_with_hand(self, fields: dict[str, Any]) -> dict[str, Any]:
        """The case with the form's points: a new hand, or the corrected one."""
        assert self.record is not None
        if self.editing_hand is not None:
            return editing.correct_hand(self.record.case, self.editing_hand, **fields)
        return editing.complete_hand(self.record.case, **fields)

    def confirm_hand(self) -> None:
        fields = self.hand_fields()
        if self.record is None or fields is None or not self.confirm_hand_button.isEnabled():
            return
        case = self.case_with_hand(fields)
        editing_hand, self.editing_hand = self.editing_hand, None
        if self.save(case):
            self.clear_hand_form()
        else:
            self.editing_hand = editing_hand  # not saved: still correcting that hand
            if self.record is not None:
                self.load(self.record)
            self.defender_points.edit.setFocus()

    def clear_hand_form(self) -> None:
        self.entry_stale = False
        for field in (self.defender_points, self.bottom_points):
            field.edit.clear()
        self.redeclarations.setValue(0)
        self.captured.setChecked(False)
        self.j_cards.setValue(0)

    def edit_hand(self, row: int) -> bool:
        """Load a scored hand into the form to correct a mistyped score. Before signing the
        table referee may; after signing only within the chief referee's correction."""
        if self.record is None:
            return False
        hands = self.record.case.get("hands") or []
        if not 0 <= row < len(hands) or hands[row].get("in_progress") or "defender_points" not in hands[row]:
            return False
        if self.record.signed and self.correction_reason is None:
            tr = self.language.tr
            QMessageBox.information(self, tr("edit_hand_title"), tr("edit_hand_signed"))
            return False
        hand = hands[row]
        bottom = hand.get("bottom") or {}
        self.editing_hand = row
        self.defender_points.edit.setText(str(hand["defender_points"]))
        self.redeclarations.setValue(int(hand.get("redeclarations") or 0))
        self.bottom_points.edit.setText(str(bottom.get("points", 0)))
        self.captured.setChecked(bool(bottom.get("captured")))
        if bottom.get("shape"):
            self.shape.setCurrentIndex(max(0, self.shape.findData(bottom["shape"])))
        if bottom.get("largest"):
            self.largest.setCurrentIndex(max(0, self.largest.findData(bottom["largest"])))
        if bottom.get("pairs"):
            self.pairs.setValue(int(bottom["pairs"]))
        self.j_cards.setValue(int(bottom.get("j") or 0))
        if bottom.get("j_suit"):
            self.j_suit.setCurrentIndex(max(0, self.j_suit.findData(bottom["j_suit"])))
        self.load(self.record)
        self.defender_points.edit.setFocus()
        self.defender_points.edit.selectAll()
        return True

    def cancel_hand_edit(self) -> None:
        self.editing_hand = None
        self.clear_hand_form()
        if self.record is not None:
            self.load(self.record)

    def end_on_time(self) -> None:
        if self.record is None:
            return
        try:
            case = editing.end_on_time(self.record.case)
        except ValueError:
            QMessageBox.warning(self, self.language.tr("not_saved"), self.language.tr("end_needs_points"))
            return
        left = self.seconds_left()
        tr = self.language.tr
        if left is not None and left >= 60:  # a mis-tap long before time: say how long is left
            text = tr("end_round_early", minutes=int(left // 60))
            default = QMessageBox.StandardButton.No
        else:
            text, default = tr("end_round_confirm"), QMessageBox.StandardButton.Yes
        buttons = QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
        answer = QMessageBox.question(self, tr("end_round"), text, buttons, default)
        if answer == QMessageBox.StandardButton.Yes:
            self.save(case)

    def selected_ruling(self) -> tuple[int | None, int, dict[str, Any]] | None:
        rows = self.rulings_view.selectionModel().selectedRows()
        return self.rulings_model.position(rows[0].row()) if rows else None

    def void_selected(self, reason: str | None = None) -> bool:
        chosen = self.selected_ruling()
        if self.record is None or chosen is None:
            return False
        hand_index, index, ruling = chosen
        if ruling.get("voided"):
            return False
        while reason is None:  # an empty reason asks again instead of dropping the void
            text, ok = QInputDialog.getMultiLineText(
                self, self.language.tr("void_title"), self.language.tr("void_prompt", ruling=ruling["text"])
            )
            if not ok:
                return False
            if text.strip():
                reason = text
                break
            tr = self.language.tr
            QMessageBox.warning(self, tr("void_title"), tr("void_reason_required"))
        if not reason.strip():
            QMessageBox.warning(
                self, self.language.tr("void_title"), self.language.tr("void_reason_required")
            )
            return False
        return self.save(editing.void_infraction(self.record.case, hand_index, index, reason.strip()))

    def file_appeal(self, dialog: FileAppealDialog | None = None) -> dict[str, Any] | None:
        """A pair appeals the selected ruling in writing; a late one needs the chief referee."""
        chosen = self.selected_ruling()
        if self.record is None or chosen is None:
            QMessageBox.information(self, self.language.tr("file_appeal"), self.language.tr("select_ruling"))
            return None
        hand_index, index, ruling = chosen
        hand_no = None if hand_index is None else hand_index + 1
        stored = [
            r for r in self.session.rulings(self.record) if r["hand"] == hand_no and r["position"] == index
        ]
        if not stored:
            return None
        dialog = dialog or FileAppealDialog(self.language, ruling, self.session.rulebook.data["appeal"], self)
        while True:
            self.active_dialog = dialog
            accepted = dialog.exec() == FileAppealDialog.DialogCode.Accepted
            self.active_dialog = None
            if not accepted:
                return None
            try:
                appeal = self.session.file_appeal(
                    stored[0]["id"],
                    dialog.by(),
                    dialog.grounds.toPlainText().strip(),
                    evidence=dialog.evidence.text().strip() or None,
                    receipt=dialog.receipt.text().strip() or None,
                    attachment=dialog.attachment,
                    accept_late_reason=dialog.late_reason.text().strip()
                    if dialog.accept_late.isChecked()
                    else None,
                )
            except StoreError as exc:
                dialog.show_refusal(exc)  # e.g. filed 7 min after the window closed
                continue
            self.reload()
            self.saved.emit(self.language.tr("appeal_filed", id=appeal["id"]))
            return appeal

    def preview_scoresheet(self) -> PdfPreview | None:
        if self.record is None:
            return None
        signatures = self.session.signatures(self.record) if self.record.signed else {}
        pdf = scoresheet_pdf(self.session, self.record, signatures)
        r = self.record
        return show_pdf(
            self,
            self.language,
            pdf,
            self.language.tr("scoresheet_title", round=r.round, table=r.table),
            f"scoresheet-r{r.round}-t{r.table}.pdf",
        )

    def start_correction(self, reason: str | None = None) -> bool:
        """The chief referee unlocks a signed record for one correction, with a reason; the
        signed version is kept and the corrected one must be signed again."""
        if self.record is None or not self.record.signed:
            return False
        if reason is None:
            reason, ok = QInputDialog.getMultiLineText(
                self, self.language.tr("correct_title"), self.language.tr("correct_prompt")
            )
            if not ok:
                return False
        if not reason.strip():
            QMessageBox.warning(
                self, self.language.tr("correct_title"), self.language.tr("correct_reason_required")
            )
            return False
        self.correction_reason = reason.strip()
        self.load(self.record)
        self.saved.emit(self.language.tr("correction_started"))
        return True

    def sign_round(self) -> bool:
        """The four players and the table referee sign; the signed record is then locked."""
        if self.record is None or self.record.decision.get("result") is None:
            return False
        from .signature import SignDialog

        r = self.record
        dialog = SignDialog(
            self.language,
            seat_names(r.players),
            self.language.tr("table_title", round=r.round, table=r.table),
            self,
        )
        self.active_dialog = dialog
        accepted = dialog.exec() == SignDialog.DialogCode.Accepted
        self.active_dialog = None
        if not accepted:
            return False
        try:
            self.record = self.session.sign(r, dialog.signatures())
        except StoreError as exc:
            QMessageBox.warning(self, self.language.tr("not_saved"), refusal(exc, self.language))
            self.reload()
            return False
        self.load(self.record)
        self.saved.emit(self.language.tr("signed_saved"))
        return True

    # -- words -------------------------------------------------------------------------------

    def retranslate(self, *_: object) -> None:
        tr = self.language.tr
        lang = self.language.lang
        kinds = self.session.rulebook.data["infractions"]
        for kind, button in self.kind_buttons.items():
            label = kinds[kind]["label"]
            key = self.kind_keys.get(kind)
            button.setText(f"{label[lang]} ({key})" if key else label[lang])
            button.setToolTip(label["en"] if lang == "zh" else label["zh"])
        self.back_button.setText(tr("back_to_hall"))
        for side, arrived in self.arrive.items():
            here = None if self.record is None else (self.record.round, self.record.table, side)
            key = "arrived_on_time_button" if here in self.on_time else "mark_arrived"
            arrived.setText(tr(key, side=SIDE_NAMES[lang][side]))
        self.withdraw_button.setText(tr("withdrawal_button"))
        self.shot_box.setTitle(tr("shot_clock"))
        editing_hand = self.editing_hand
        self.hand_box.setTitle(
            tr("enter_hand") if editing_hand is None else tr("edit_hand", n=editing_hand + 1)
        )
        self.cancel_edit_button.setVisible(editing_hand is not None)
        self.cancel_edit_button.setText(tr("cancel_edit_hand"))
        if self.correction_reason is not None:
            self.correction_banner.setText(tr("correction_banner", reason=self.correction_reason))
        self.correction_banner.setVisible(self.correction_reason is not None)
        self.kind_box.setTitle(tr("log_infraction"))
        self.rulings_box.setTitle(tr("rulings"))
        self.void_button.setText(tr("void_ruling"))
        self.appeal_button.setText(tr("file_appeal"))
        self.confirm_hand_button.setText(tr("confirm_hand") if editing_hand is None else tr("save_hand_edit"))
        self.end_button.setText(tr("end_round"))
        self.warning_button.setText(tr("give_time_warning"))
        self.warning_button.setToolTip(tr("give_time_warning_tip"))
        self.preview_button.setText(tr("preview_scoresheet"))
        self.sign_button.setText(tr("sign_round"))
        self.correct_button.setText(tr("correct_round"))
        for key, label in self.form_labels.items():
            label.setText(tr(f"field_{key}"))
        self.captured.setText(tr("captured_yes"))
        for combo, names, words in (
            (self.shape, SHAPES, "shape"),
            (self.largest, SHAPES[:3], "shape"),
            (self.j_suit, ("trump", "side"), "j_suit"),
        ):
            current = combo.currentData()
            combo.blockSignals(True)
            combo.clear()
            for name in names:
                combo.addItem(tr(f"{words}_{name}"), name)
            combo.setCurrentIndex(max(0, combo.findData(current)))
            combo.blockSignals(False)
        if self.record is not None:
            r = self.record
            ns, ew = (" · ".join(r.players.get(side, [])) for side in ("NS", "EW"))
            self.title.setText(
                f"<span style='font-size:x-large; font-weight:600'>"
                f"{escape(tr('table_title', round=r.round, table=r.table))}</span>"
            )
            sides = SIDE_NAMES[lang]
            self.players_line.setText(
                f"{sides['NS']} {r.pairs['NS']} {ns}  vs  {sides['EW']} {r.pairs['EW']} {ew}"
            )
            result = r.decision.get("result")
            if result is not None:
                winner = result["winner"]
                # a draw is worded alone (平局), a win with its side (南北方胜)
                who = tr("round_won", winner=SIDE_NAMES[lang][winner]) if winner else tr("draw")
                if result.get("awaits"):  # a tie the rulebook leaves to lots or the referee
                    who = tr(f"awaits_{result['awaits']}")
                mp = result["match_points"]
                self.status.setText(
                    tr(
                        "round_result",
                        outcome=who,
                        ns=mp["NS"],
                        ew=mp["EW"],
                        diff=result["level_difference"]["NS"],
                    )
                )
            else:
                dealer = r.next_dealer
                self.status.setText(
                    tr("next_dealer", seat=SEAT_NAMES[lang][dealer]) if dealer else tr("open_grab")
                )
        self.show_time_warning()
        self.diagram.update()

    def show_time_warning(self) -> None:
        """The time warning at this table: the hand it fell in and the hands still allowed."""
        record = self.record
        warning = record.decision.get("time_warning") if record is not None else None
        finished = record is not None and record.decision.get("result") is not None
        self.warning_button.setVisible(record is not None and warning is None and not finished)
        if record is None or warning is None:
            self.time_banner.setVisible(False)
            return
        tr = self.language.tr
        scored = sum(1 for h in record.decision.get("hands") or [] if not h.get("in_progress"))
        left = warning["last_hand"] - scored
        text = tr(
            "time_warning_at", hand=warning["hand"], last=warning["last_hand"], clause=warning["citation"]
        )
        if finished:
            text += tr("time_warning_round_over")
        elif left > 0:
            text += tr("time_warning_left", n=left)
        elif left == 0:
            text += tr("time_warning_none_left")
        else:
            text += tr("time_warning_past", n=-left)
        if warning.get("assumed"):
            text += tr("warning_assumed")
        self.time_banner.setText(text)
        self.time_banner.setVisible(True)

    def give_time_warning(self) -> None:
        """Record at this table that the time warning was given now (the chief referee's
        announcement heard at the table, or a station that missed the hall's)."""
        if self.record is None:
            return
        try:
            self.session.give_time_warning(self.record.round, self.record.table)
        except (StoreError, CaseError) as exc:
            QMessageBox.warning(self, self.language.tr("not_saved"), refusal(exc, self.language))
        self.reload()
