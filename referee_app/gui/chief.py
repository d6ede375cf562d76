"""The chief referee's acts that needed the command line: setting the roles' PINs (设置 PIN),
extending or adjusting the round clock (延长/调整计时) and reading the audit trail (审计日志).
Ending a round and publishing its scores are the main window's actions (they ask nothing but
a confirmation).

Each act goes through the same ``Session`` operations the command line's commands reach
(``Store.set_pin``, ``Store.log``); the store checks the role.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..app.errors import PinError, StoreError
from ..app.session import Session
from ..app.store import PIN_MAX, PIN_MIN, ROLES
from .i18n import Language
from .refusal import refusal
from .widgets import RoleCombo, button_shortcut, error_line, ok_cancel, pin_edit

CHIEF = "chief_referee"


class SetPinDialog(QDialog):
    """Set or change a role's PIN. On an event with PINs a station not logged in as chief
    referee gives the chief referee's PIN first (as ``referee-app role set-pin`` asks it);
    on an event without PINs the chief referee's comes first, and the station is then
    logged in as chief referee. The new PIN is typed twice. Accepted once the store has it."""

    def __init__(
        self, language: Language, session: Session, parent: QWidget | None = None, role: str | None = None
    ) -> None:
        super().__init__(parent)
        self.language = language
        self.session = session
        enforced = session.roles_enforced()
        # the first PIN of an event is the chief referee's (the store refuses any other first)
        self.role_combo = RoleCombo(language, role if role in ROLES and enforced else CHIEF)
        self.chief_pin = pin_edit()
        self.new_pin = pin_edit()
        self.again = pin_edit()
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.error_label = error_line()
        self.buttons, self.ok_button = ok_cancel(self)
        self.labels = {key: QLabel() for key in ("role", "chief", "new", "again")}
        form = QFormLayout()
        form.addRow(self.labels["role"], self.role_combo)
        form.addRow(self.labels["chief"], self.chief_pin)
        form.addRow(self.labels["new"], self.new_pin)
        form.addRow(self.labels["again"], self.again)
        form.addRow("", self.error_label)
        self.needs_chief = enforced and session.role != CHIEF
        self.chief_pin.setVisible(self.needs_chief)
        self.labels["chief"].setVisible(self.needs_chief)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        for edit in (self.chief_pin, self.new_pin, self.again):
            edit.textEdited.connect(lambda _t: self.error_label.setVisible(False))
        self.retranslate()
        (self.chief_pin if self.needs_chief else self.new_pin).setFocus()

    @property
    def role(self) -> str:
        return self.role_combo.role

    def retranslate(self) -> None:
        tr = self.language.tr
        self.setWindowTitle(tr("set_pin_title"))
        self.role_combo.retranslate()
        self.labels["role"].setText(tr("login_role"))
        self.labels["chief"].setText(tr("set_pin_chief"))
        self.labels["new"].setText(tr("set_pin_new"))
        self.labels["again"].setText(tr("set_pin_again"))
        for edit in (self.chief_pin, self.new_pin, self.again):
            edit.setPlaceholderText(tr("login_pin_hint"))
        first = not self.session.roles_enforced()
        self.note.setText(tr("set_pin_first") if first else tr("set_pin_note"))
        self.role_combo.setEnabled(not first)

    def show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.setVisible(True)

    def accept(self) -> None:
        tr = self.language.tr
        new = self.new_pin.text()
        if not (PIN_MIN <= len(new) <= PIN_MAX and new.isdigit()):
            self.new_pin.setFocus()
            self.show_error(tr("login_pin_format"))
            return
        if self.again.text() != new:
            self.again.clear()
            self.again.setFocus()
            self.show_error(tr("set_pin_differ"))
            return
        try:
            if self.needs_chief:
                self.session.login(CHIEF, self.chief_pin.text())
            self.session.set_pin(self.role, new)
        except PinError as err:
            self.chief_pin.clear()
            self.chief_pin.setFocus()
            self.show_error(refusal(err, self.language))
            return
        except StoreError as err:
            self.show_error(refusal(err, self.language))
            return
        super().accept()


class ClockChangeDialog(QDialog):
    """Extend the round clock (延长: the round gets more minutes) or adjust it (调整: the time
    left moves by +N or −N minutes, the clock having been started late …), with the chief
    referee's reason; kept in the store, so every station's clock shows it."""

    def __init__(self, language: Language, action: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = language
        self.action = action
        tr = language.tr
        self.setWindowTitle(tr(f"clock_{action}_title"))
        self.minutes = QSpinBox()
        if action == "extend":
            self.minutes.setRange(1, 180)
            self.minutes.setValue(5)
        else:
            self.minutes.setRange(-180, 180)
            self.minutes.setValue(0)
            self.minutes.setPrefix("")
        self.minutes.setSuffix(tr("minutes_suffix"))
        self.reason = QLineEdit()
        self.reason.setPlaceholderText(tr("clock_reason_hint"))
        self.note = QLabel(tr(f"clock_{action}_note"))
        self.note.setWordWrap(True)
        self.error_label = error_line()
        self.buttons, self.ok_button = ok_cancel(self)
        form = QFormLayout()
        form.addRow(tr("clock_minutes"), self.minutes)
        form.addRow(tr("reason"), self.reason)
        form.addRow("", self.error_label)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        #: Records the act (the window's, through the role's login); a refusal keeps the dialog.
        self.act: Callable[[int, str], object] | None = None
        self.reason.setFocus()

    def accept(self) -> None:
        if self.act is not None:
            try:
                self.act(self.minutes.value(), self.reason.text().strip())
            except StoreError as err:  # no reason, 0 minutes, not the chief referee …
                self.error_label.setText(refusal(err, self.language))
                self.error_label.setVisible(True)
                (self.reason if getattr(err, "field", "") == "reason" else self.minutes).setFocus()
                return
        super().accept()


class AuditLogView(QWidget):
    """The event's audit trail, readable (as ``referee-app log`` prints it), newest last;
    narrowed to a round and a table when they are chosen (0: all)."""

    back = Signal()

    def __init__(self, language: Language, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = language
        self.session = session
        self.title = QLabel()
        self.back_button = QPushButton()
        self.back_button.clicked.connect(self.back.emit)
        button_shortcut(self.back_button, "Alt+Left", self)
        self.round_label = QLabel()
        self.table_label = QLabel()
        self.round = QSpinBox()
        self.table = QSpinBox()
        for spin in (self.round, self.table):
            spin.setRange(0, 999)
            spin.valueChanged.connect(self.refresh)
        self.refresh_button = QPushButton()
        self.refresh_button.clicked.connect(self.refresh)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.text.setFont(QFont(self.font().family(), self.font().pointSize()))
        top = QHBoxLayout()
        top.addWidget(self.back_button)
        top.addWidget(self.title, 1)
        top.addWidget(self.round_label)
        top.addWidget(self.round)
        top.addWidget(self.table_label)
        top.addWidget(self.table)
        top.addWidget(self.refresh_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.text, 1)
        language.changed.connect(self.retranslate)
        self.retranslate()

    def refresh(self, *_: object) -> None:
        try:
            lines = self.session.audit_lines(self.round.value() or None, self.table.value() or None)
        except StoreError as exc:
            lines = [refusal(exc, self.language)]
        self.text.setPlainText("\n".join(lines) if lines else self.language.tr("audit_empty"))
        bar = self.text.verticalScrollBar()
        bar.setValue(bar.maximum())  # the newest entry in view

    def retranslate(self, *_: object) -> None:
        tr = self.language.tr
        self.title.setText(f"<h2>{tr('audit_log')}</h2>")
        self.back_button.setText(tr("back_to_hall"))
        self.round_label.setText(tr("round_label"))
        self.table_label.setText(tr("table_label"))
        self.round.setSpecialValueText(tr("all"))
        self.table.setSpecialValueText(tr("all"))
        self.refresh_button.setText(tr("refresh"))
        self.refresh()
