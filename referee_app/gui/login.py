"""Logging in to a role (裁判员, 裁判长, 仲裁委员会) with its PIN.

The dialog only asks: ``Session.login`` checks the PIN in the store (wrong PINs are counted
there, shared by every station) and the store checks every write against the role. A wrong
PIN, a role without a PIN, or a locked role is said at the PIN field; the dialog stays open.
"""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from ..app.errors import PinError, StoreError
from ..app.session import Session
from ..app.store import PIN_MAX, PIN_MIN, ROLES, local_hms, roles
from .i18n import Language
from .refusal import refusal
from .widgets import RoleCombo, error_line, ok_cancel, pin_edit


class LoginDialog(QDialog):
    """Choose a role, type its PIN; accepted once ``session`` is logged in."""

    def __init__(
        self, language: Language, session: Session, parent: QWidget | None = None, role: str | None = None
    ) -> None:
        """``role``: the role the refused act needs (preselected), else the station's own."""
        super().__init__(parent)
        self.language = language
        self.session = session
        self.role_combo = RoleCombo(language, role if role in ROLES else session.role)
        #: Who logs in: the log names this person beside the role.
        self.name_edit = QLineEdit(session.actor.user)
        self.name_edit.setMaxLength(100)
        self.pin_edit = pin_edit()
        self.error_label = error_line()
        self.note_label = QLabel()
        self.note_label.setWordWrap(True)
        self.buttons, self.ok_button = ok_cancel(self)
        # the note and "no PIN yet" tell the chief referee to set one: here is the way
        self.set_pin_button = self.buttons.addButton("", QDialogButtonBox.ButtonRole.ActionRole)
        self.set_pin_button.clicked.connect(self.set_pin)
        #: Re-enables logging in when a lock ends.
        self.unlock_timer = QTimer(self)
        self.unlock_timer.setSingleShot(True)
        self.unlock_timer.timeout.connect(self.refresh_lock)

        form = QFormLayout()
        self.role_label = QLabel()
        self.pin_label = QLabel()
        self.name_label = QLabel()
        form.addRow(self.role_label, self.role_combo)
        form.addRow(self.name_label, self.name_edit)
        form.addRow(self.pin_label, self.pin_edit)
        form.addRow("", self.error_label)  # the error sits under the PIN field
        layout = QVBoxLayout(self)
        layout.addWidget(self.note_label)
        layout.addLayout(form)
        layout.addWidget(self.buttons)

        self.role_combo.currentIndexChanged.connect(self.refresh_lock)
        self.pin_edit.textEdited.connect(lambda _text: self._show_error(None))
        language.changed.connect(self.retranslate)
        self.retranslate()
        self.refresh_lock()
        self.pin_edit.setFocus()

    # -- state ---------------------------------------------------------------------------------

    @property
    def role(self) -> str:
        return self.role_combo.role

    def retranslate(self, *_: object) -> None:
        tr = self.language.tr
        self.setWindowTitle(tr("login_title"))
        self.role_label.setText(tr("login_role"))
        self.pin_label.setText(tr("login_pin"))
        self.name_label.setText(tr("login_name"))
        self.pin_edit.setPlaceholderText(tr("login_pin_hint"))
        self.role_combo.retranslate()
        self.ok_button.setText(tr("login_button"))
        self.set_pin_button.setText(tr("set_pin_menu"))
        enforced = self.session.roles_enforced()
        self.note_label.setText("" if enforced else tr("login_not_enforced"))
        self.note_label.setVisible(not enforced)
        if self.error_label.isVisible() and self._error is not None:
            self._show_error(self._error)

    def refresh_lock(self, *_: object) -> None:
        """Show the chosen role's lock (from the store: another station may have caused it)."""
        state = self.session.role_states().get(self.role)
        until = None if state is None else state.locked_until
        self._set_locked(until)
        if until is None and self._error is not None and self._error[0] == "login_locked":
            self._show_error(None)

    # -- logging in ----------------------------------------------------------------------------

    _error: tuple[str, dict[str, object]] | None = None

    def accept(self) -> None:
        pin = self.pin_edit.text()
        if not (PIN_MIN <= len(pin) <= PIN_MAX and pin.isdigit()):
            self._show_error(("login_pin_format", {}))
            return
        try:
            self.session.login(self.role, pin, self.name_edit.text())
        except PinError as err:
            self.pin_edit.clear()
            self.pin_edit.setFocus()
            if err.locked_until is not None:
                self._set_locked(err.locked_until)  # type: ignore[arg-type]
            elif err.tries_left is not None:
                self._show_error(("login_wrong_pin", {"left": err.tries_left}))
            else:
                self._show_error(("login_no_pin", {"role": self.language.tr(f"role_{self.role}")}))
            return
        except StoreError as err:
            self._show_error(("", {"text": refusal(err, self.language)}))
            return
        self.unlock_timer.stop()
        super().accept()

    def set_pin(self) -> bool:
        """Set a PIN from here (设置角色 PIN). The event's first PIN logs this station in as
        chief referee: the login is then done."""
        from .chief import SetPinDialog

        dialog = SetPinDialog(self.language, self.session, self, self.role)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return False
        self._show_error(None)
        self.retranslate()
        if self.session.role is not None:
            self.unlock_timer.stop()
            super().accept()
        return True

    def _set_locked(self, until: datetime | None) -> None:
        self.ok_button.setEnabled(until is None)
        self.unlock_timer.stop()
        if until is None:
            return
        role = self.language.tr(f"role_{self.role}")
        self._show_error(("login_locked", {"role": role, "until": local_hms(until)}))
        ms = int((until - roles.utcnow()).total_seconds() * 1000) + 200
        self.unlock_timer.start(max(ms, 200))

    def _show_error(self, error: tuple[str, dict[str, object]] | None) -> None:
        self._error = error
        if error is None:
            self.error_label.clear()
            self.error_label.setVisible(False)
            return
        key, values = error
        self.error_label.setText(self.language.tr(key, **values) if key else str(values["text"]))
        self.error_label.setVisible(True)
