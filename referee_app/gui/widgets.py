"""Small widgets of the referee's screen: the table diagram, the clocks."""

from __future__ import annotations

import time

from PySide6.QtCore import QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QResizeEvent,
    QShortcut,
)
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ..core.seats import SEAT_NAMES, SIDE_NAMES
from .i18n import Language

#: Our file dialogs are Qt's own, not the system's: the system's speaks the system's language,
#: Qt's speaks the app's (Qt's Chinese comes from qtbase_zh_CN, installed by i18n.py).
FILE_DIALOG = QFileDialog.Option.DontUseNativeDialog


def available_height(widget: QWidget, fallback: int = 700) -> int:
    """The height a window may take on ``widget``'s screen (less a title bar's worth)."""
    screen = widget.screen() or QApplication.primaryScreen()
    height = screen.availableGeometry().height() if screen is not None else fallback
    return max(300, height - 40)


def fit_to_screen(widget: QWidget, width: int, height: int) -> None:
    """Resize to ``width``×``height``, or less where the screen is smaller."""
    screen = widget.screen() or QApplication.primaryScreen()
    area_width = screen.availableGeometry().width() if screen is not None else width
    widget.resize(min(width, area_width), min(height, available_height(widget, height)))


def button_shortcut(button: QPushButton, keys: str, scope: QWidget) -> QShortcut:
    """A key that presses ``button`` while ``scope`` is shown.

    Not ``button.setShortcut``: Qt replaces a button's shortcut with its mnemonic each time
    its text is set, so a retranslated button would lose the key. The shortcut presses the
    button only when it is visible and enabled, as a click would."""

    def press() -> None:
        if button.isVisible() and button.isEnabled():
            button.click()

    shortcut = QShortcut(QKeySequence(keys), scope)
    shortcut.activated.connect(press)
    button.setToolTip(QKeySequence(keys).toString(QKeySequence.SequenceFormat.NativeText))
    return shortcut


# Where each seat sits on the diagram (N at the top, as on every scoresheet).
SEAT_POS = {"N": (0.5, 0.1), "S": (0.5, 0.9), "W": (0.14, 0.5), "E": (0.86, 0.5)}


class TableDiagram(QWidget):
    """The four seats with names, the dealer (庄) and both sides' levels. Seats are clickable."""

    seatClicked = Signal(str)

    def __init__(self, language: Language, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = language
        self.names: dict[str, str] = {s: "" for s in "NESW"}
        self.dealer: str | None = None
        self.levels = {"NS": "2", "EW": "2"}
        self.selected: str | None = None
        self.selectable = False
        self.setMinimumSize(320, 260)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(True)

    def set_state(self, names: dict[str, str], dealer: str | None, levels: dict[str, str]) -> None:
        self.names, self.dealer, self.levels = names, dealer, levels
        self.update()

    def select(self, seat: str | None) -> None:
        self.selected = seat
        self.update()

    def seat_rect(self, seat: str) -> QRectF:
        fx, fy = SEAT_POS[seat]
        w, h = min(150.0, self.width() * 0.26), 58.0
        return QRectF(fx * self.width() - w / 2, fy * self.height() - h / 2, w, h)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        for seat in "NESW":
            if self.seat_rect(seat).contains(event.position()):
                if self.selectable:
                    self.select(seat)
                self.seatClicked.emit(seat)
                return
        super().mousePressEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        lang = self.language.lang
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        felt = QRectF(self.width() * 0.3, self.height() * 0.24, self.width() * 0.4, self.height() * 0.52)
        p.setBrush(QColor("#2e7d4f"))
        p.setPen(Qt.PenStyle.NoPen)
        p.drawRoundedRect(felt, 18, 18)
        p.setPen(QColor("white"))
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 1.15)
        font.setBold(True)
        p.setFont(font)
        sides = SIDE_NAMES[lang]
        p.drawText(
            felt,
            Qt.AlignmentFlag.AlignCenter,
            f"{sides['NS']}  {self.levels['NS']}\n{sides['EW']}  {self.levels['EW']}",
        )
        for seat in "NESW":
            rect = self.seat_rect(seat)
            selected = seat == self.selected
            is_dealer = seat == self.dealer
            p.setPen(QPen(QColor("#c62828") if selected else QColor("#455a64"), 3 if selected else 1.5))
            p.setBrush(QColor("#fff8e1") if is_dealer else QColor("#eceff1"))
            p.drawRoundedRect(rect, 8, 8)
            p.setPen(QColor("#212121"))
            head = QFont(self.font())
            head.setBold(True)
            p.setFont(head)
            label = SEAT_NAMES[lang][seat]
            p.drawText(rect.adjusted(4, 4, -4, -rect.height() / 2), Qt.AlignmentFlag.AlignCenter, label)
            if is_dealer:  # a badge on the seat's corner: 庄 / D
                badge = QRectF(rect.right() - 14, rect.top() - 10, 24, 24)
                p.setBrush(QColor("#c62828"))
                p.setPen(Qt.PenStyle.NoPen)
                p.drawEllipse(badge)
                p.setPen(QColor("white"))
                p.drawText(badge, Qt.AlignmentFlag.AlignCenter, self.language.tr("dealer_mark"))
                p.setPen(QColor("#212121"))
            p.setFont(self.font())
            name = self.names.get(seat) or "—"
            p.drawText(rect.adjusted(4, rect.height() / 2 - 2, -4, -4), Qt.AlignmentFlag.AlignCenter, name)
        p.end()


def seat_names(players: dict[str, list[str]]) -> dict[str, str]:
    """Player 1 of each pair sits N or E, player 2 S or W (as the pairs file lists them)."""
    ns = players.get("NS") or []
    ew = players.get("EW") or []
    return {
        "N": ns[0] if len(ns) > 0 else "",
        "S": ns[1] if len(ns) > 1 else "",
        "E": ew[0] if len(ew) > 0 else "",
        "W": ew[1] if len(ew) > 1 else "",
    }


def fmt_clock(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


class RoundClock(QWidget):
    """The round's clock: start, pause, and the rulebook's warning before the end."""

    warned = Signal()
    ended = Signal()

    def __init__(
        self, language: Language, minutes: int, warning_minutes_left: int, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.language = language
        self.total = minutes * 60
        self.warning_at = warning_minutes_left * 60
        self.started_at: float | None = None  # wall-clock seconds when (re)started
        self.elapsed_before = 0.0
        self.has_warned = False
        #: The round ended and its scores published: the clock shows it and stays stopped.
        self.finished = False
        #: Started at least once this round (a pause in its first second is still a pause).
        self.started_once = False
        self.display = QLabel()
        self.display.setObjectName("roundClock")
        big = QFont(self.font())
        big.setPointSizeF(big.pointSizeF() * 2.0)
        big.setBold(True)
        self.display.setFont(big)
        self.start_button = QPushButton()
        self.start_button.clicked.connect(self.toggle)
        #: 已暂停 while paused, the round's end once finished: what the display alone cannot say
        self.state = QLabel()
        self.state.setObjectName("roundClockState")
        self.state.setStyleSheet("color: #ef6c00; font-weight: bold;")
        # the chief referee's extensions and adjustments (延长/调整), kept in the store: every
        # station shows them beside the clock, the reasons in the tooltip
        self.extend_button = QPushButton()
        self.adjust_button = QPushButton()
        self.changes = QLabel()
        self.changes.setObjectName("roundClockChanges")
        self.changes.setVisible(False)
        self.changed_by: list[tuple[str, int, str]] = []
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.display)
        layout.addWidget(self.state)
        layout.addWidget(self.changes)
        layout.addWidget(self.start_button)
        layout.addWidget(self.extend_button)
        layout.addWidget(self.adjust_button)
        self.timer = QTimer(self)
        self.timer.setInterval(500)
        self.timer.timeout.connect(self.tick)
        language.changed.connect(self.retranslate)
        self.retranslate()

    @property
    def running(self) -> bool:
        return self.started_at is not None

    def elapsed(self) -> float:
        extra = time.time() - self.started_at if self.started_at is not None else 0.0
        return self.elapsed_before + extra

    def remaining(self) -> float:
        return self.total - self.elapsed()

    def minutes_since_start(self) -> int | None:
        """Whole minutes since the chief referee started the round (for late arrival)."""
        if self.started_at is None and self.elapsed_before == 0:
            return None
        return int(self.elapsed() // 60)

    @property
    def paused(self) -> bool:
        return not self.running and self.started_once and not self.finished

    def restore(
        self,
        started_at: float | None,
        elapsed_before: float,
        *,
        finished: bool = False,
        started: bool | None = None,
    ) -> None:
        """The clock as the store holds it; ``finished``: the round has ended and its scores
        are published, so it stops where it is and cannot be started again; ``started``:
        the clock has been started this round (by default: it runs or has run)."""
        self.started_once = (started_at is not None or elapsed_before > 0) if started is None else started
        if finished and started_at is not None:
            elapsed_before, started_at = elapsed_before + time.time() - started_at, None
        self.started_at, self.elapsed_before = started_at, elapsed_before
        self.finished = finished
        self.has_warned = False  # the next tick announces the warning again if it is due
        if self.running:
            self.timer.start()
        else:
            self.timer.stop()
        self.retranslate()

    def show_changes(self, changes: list[tuple[str, int, str]]) -> None:
        """The round's extensions and adjustments (action, minutes, reason), as the store has them."""
        self.changed_by = list(changes)
        self.retranslate()

    def toggle(self) -> None:
        if self.finished:
            return
        if self.running:
            self.elapsed_before = self.elapsed()
            self.started_at = None
            self.timer.stop()
        else:
            self.started_at = time.time()
            self.started_once = True
            self.timer.start()
        self.retranslate()

    def tick(self) -> None:
        left = self.remaining()
        if not self.has_warned and left <= self.warning_at:
            self.has_warned = True
            self.warned.emit()
        if left <= 0 and self.running:
            self.elapsed_before, self.started_at = float(self.total), None
            self.timer.stop()
            self.ended.emit()
        self.display.setText(fmt_clock(self.remaining()))
        self.display.setStyleSheet("color: #c62828;" if self.has_warned else "")

    def retranslate(self, *_: object) -> None:
        tr = self.language.tr
        if self.running:
            self.start_button.setText(tr("clock_pause"))
        else:
            self.start_button.setText(tr("clock_resume") if self.started_once else tr("clock_start"))
        self.start_button.setToolTip(tr("clock_tip"))
        self.start_button.setEnabled(not self.finished)
        self.state.setText(
            tr("clock_finished") if self.finished else tr("clock_paused") if self.paused else ""
        )
        self.state.setVisible(self.finished or self.paused)
        self.extend_button.setText(tr("clock_extend"))
        self.adjust_button.setText(tr("clock_adjust"))
        for button in (self.extend_button, self.adjust_button):
            button.setEnabled(not self.finished)
        extended = sum(m for a, m, _ in self.changed_by if a == "extend")
        adjusted = sum(m for a, m, _ in self.changed_by if a == "adjust")
        parts = []
        if extended:
            parts.append(tr("clock_extended_by", minutes=extended))
        if adjusted:
            parts.append(tr("clock_adjusted_by", minutes=f"{adjusted:+d}".replace("-", "−")))
        self.changes.setText(" · ".join(parts))
        self.changes.setToolTip(
            "\n".join(
                tr(f"clock_{a}_line", minutes=f"{m:+d}".replace("-", "−") if a == "adjust" else m, reason=r)
                for a, m, r in self.changed_by
            )
        )
        self.changes.setVisible(bool(parts))
        self.tick()


class ShotClock(QWidget):
    """Time per action (bury, lead, follow) from the rulebook; offers a delay when it runs out."""

    expired = Signal(str, str)  # seat, what

    def __init__(
        self, language: Language, limits: dict[str, int | None], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.language = language
        self.limits = {k: v for k, v in limits.items() if k in ("bury", "lead", "follow") and v}
        self.seat: str = "E"
        self.what: str | None = None
        self.deadline: float | None = None
        self.display = QLabel("--")
        mono = QFont(self.font())
        mono.setPointSizeF(mono.pointSizeF() * 1.6)
        mono.setBold(True)
        self.display.setFont(mono)
        self.buttons: dict[str, QPushButton] = {}
        row = QHBoxLayout()
        for what in self.limits:
            button = QPushButton()
            button.clicked.connect(lambda _=False, w=what: self.start(w))
            self.buttons[what] = button
            row.addWidget(button)
        self.log_button = QPushButton()
        self.log_button.setEnabled(False)
        self.log_button.clicked.connect(lambda: self.expired.emit(self.seat, self.what or "follow"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel()
        top = QHBoxLayout()
        top.addWidget(self.title)
        top.addStretch(1)
        top.addWidget(self.display)
        layout.addLayout(top)
        layout.addLayout(row)
        layout.addWidget(self.log_button)
        self.timer = QTimer(self)
        self.timer.setInterval(200)
        self.timer.timeout.connect(self.tick)
        language.changed.connect(self.retranslate)
        self.retranslate()

    def set_seat(self, seat: str) -> None:
        self.seat = seat
        self.retranslate()

    def start(self, what: str) -> None:
        self.what = what
        self.deadline = time.monotonic() + float(self.limits[what])
        self.log_button.setEnabled(False)
        self.timer.start()
        self.tick()

    def tick(self) -> None:
        if self.deadline is None:
            self.display.setText("--")
            return
        left = self.deadline - time.monotonic()
        if left <= 0:
            self.timer.stop()
            self.deadline = None
            self.display.setText("0")
            self.display.setStyleSheet("color: #c62828;")
            self.log_button.setEnabled(True)
            self.retranslate()
            return
        self.display.setStyleSheet("")
        self.display.setText(f"{left:.0f}")

    def retranslate(self, *_: object) -> None:
        tr = self.language.tr
        lang = self.language.lang
        self.title.setText(tr("shot_clock_for", seat=SEAT_NAMES[lang][self.seat]))
        for what, button in self.buttons.items():
            button.setText(tr(f"shot_{what}", seconds=self.limits[what]))
        self.log_button.setText(tr("shot_log_delay", seat=SEAT_NAMES[lang][self.seat]))


def side_label(language: Language, side: str) -> str:
    return SIDE_NAMES[language.lang][side]


class WrapButton(QPushButton):
    """A large button whose label wraps onto two lines instead of being cut off."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.label)
        self.floor = 48  # the least height; a label wrapping to a third line gets more
        self.setMinimumHeight(self.floor)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit_label()

    def _fit_label(self) -> None:
        if self.width() < 40:
            return
        needed = max(self.floor, self.label.heightForWidth(self.width() - 12) + 8)
        if needed != self.minimumHeight():
            self.setMinimumHeight(needed)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        self.label.setText(text)
        self._fit_label()

    def text(self) -> str:
        return self.label.text()


def error_line() -> QLabel:
    """A dialog's refusal line: red, wrapped, hidden until there is something to say."""
    label = QLabel()
    label.setStyleSheet("color: #c62828;")
    label.setWordWrap(True)
    label.setVisible(False)
    return label


def ok_cancel(dialog: QDialog) -> tuple[QDialogButtonBox, QPushButton]:
    """A dialog's OK and Cancel (accept, reject), and its OK button to enable or disable."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons, buttons.button(QDialogButtonBox.StandardButton.Ok)


class RoleCombo(QComboBox):
    """The roles to log in to or set a PIN for (裁判员, 裁判长, 仲裁委员会), each item's data its
    role; :meth:`retranslate` words them in the window's language."""

    def __init__(self, language: Language, chosen: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from ..app.store import ROLES  # not at module level: the window paints first

        self.language = language
        self.roles = ROLES
        for role in ROLES:
            self.addItem("", role)
        if chosen in ROLES:
            self.setCurrentIndex(ROLES.index(chosen))
        self.retranslate()

    @property
    def role(self) -> str:
        return str(self.currentData())

    def retranslate(self) -> None:
        for i, role in enumerate(self.roles):
            self.setItemText(i, self.language.tr(f"role_{role}"))


def pin_edit(parent: QWidget | None = None) -> QLineEdit:
    """A PIN field: hidden as typed, digits only, at most the store's longest PIN."""
    from PySide6.QtCore import QRegularExpression
    from PySide6.QtGui import QRegularExpressionValidator

    from ..app.store import PIN_MAX

    edit = QLineEdit(parent)
    edit.setEchoMode(QLineEdit.EchoMode.Password)
    edit.setMaxLength(PIN_MAX)
    edit.setValidator(QRegularExpressionValidator(QRegularExpression(r"\d{0,12}"), edit))
    return edit
