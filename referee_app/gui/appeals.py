"""Appeals (申诉): filed from a table, decided at the appeals desk by the committee."""

from __future__ import annotations

import html
import io
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..app.errors import RoleError, StoreError
from ..app.session import Session
from ..core.seats import SIDE_NAMES
from ..core.text import evidence_parts
from .i18n import Language, local_time
from .preview import PdfPreview, show_pdf
from .refusal import focus_field, refusal
from .widgets import button_shortcut


def _when(value: Any) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _local(value: Any) -> str:
    when = _when(value)
    return local_time(when) if when else ""


def _error_box(label: QLabel, message: str) -> None:
    label.setText(message)
    label.setVisible(bool(message))


def _ok_cancel(dialog: QDialog, ok_text: str, cancel_text: str, on_ok: Any) -> QHBoxLayout:
    """Cancel and a default action button, right-aligned; the action checks before accepting."""
    ok = QPushButton(ok_text)
    ok.setDefault(True)
    ok.clicked.connect(on_ok)
    cancel = QPushButton(cancel_text)
    cancel.clicked.connect(dialog.reject)
    row = QHBoxLayout()
    row.addStretch(1)
    row.addWidget(cancel)
    row.addWidget(ok)
    return row


class FileAppealDialog(QDialog):
    """A pair appeals one ruling in writing: grounds, evidence, fee receipt — the evidence and
    the receipt asked for as the rulebook's ``[appeal]`` does (the store refuses without them)."""

    def __init__(
        self,
        language: Language,
        ruling: dict[str, Any],
        appeal: dict[str, Any],
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.language = language
        tr = language.tr
        self.setWindowTitle(tr("file_appeal"))
        self.setMinimumWidth(560)
        lang = language.lang
        fee = int(appeal.get("fee_yuan", 0))
        self.by_group = QButtonGroup(self)
        self.by_buttons = {}
        row = QHBoxLayout()
        for side in ("NS", "EW"):
            button = QRadioButton(SIDE_NAMES[lang][side])
            self.by_group.addButton(button)
            self.by_buttons[side] = button
            row.addWidget(button)
        other = "EW" if ruling.get("side") == "NS" else "NS"
        self.by_buttons[ruling.get("side") or other].setChecked(True)  # usually the sanctioned pair
        self.grounds = QPlainTextEdit()
        self.grounds.setPlaceholderText(tr("grounds_hint"))
        self.evidence = QLineEdit()
        self.evidence.setPlaceholderText(
            tr("evidence_hint_required") if appeal.get("evidence_required") else tr("evidence_hint")
        )
        #: The attachment's path (a photo, a scan), else None.
        self.attachment: str | None = None
        self.attach_button = QPushButton(tr("attach_file"))
        self.attach_button.clicked.connect(self.choose_attachment)
        self.attach_label = QLabel()
        attach = QHBoxLayout()
        attach.addWidget(self.attach_button)
        attach.addWidget(self.attach_label, 1)
        self.receipt = QLineEdit()
        self.receipt.setPlaceholderText(tr("fee_receipt_hint", fee=fee) if fee else tr("no_fee"))
        self.receipt.setEnabled(fee > 0)
        self.accept_late = QCheckBox(tr("accept_late"))
        self.accept_late.setVisible(False)
        self.late_reason = QLineEdit()
        self.late_reason.setPlaceholderText(tr("accept_late_reason"))
        self.late_reason.setVisible(False)
        self.accept_late.toggled.connect(self.late_reason.setVisible)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c62828;")
        self.error.setVisible(False)
        buttons = _ok_cancel(self, tr("file_appeal"), tr("cancel"), self._accept)
        form = QFormLayout(self)
        form.addRow(QLabel(f"<b>{ruling.get('text', '')}</b>"))
        form.addRow(tr("appeal_by"), row)
        form.addRow(tr("grounds"), self.grounds)
        form.addRow(tr("evidence"), self.evidence)
        form.addRow(tr("attachment"), attach)
        form.addRow(tr("fee_receipt"), self.receipt)
        form.addRow(self.accept_late)
        form.addRow(self.late_reason)
        form.addRow(self.error)
        form.addRow(buttons)

    def choose_attachment(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.language.tr("attachment"))
        if path:
            self.set_attachment(path)

    def set_attachment(self, path: str) -> None:
        self.attachment = path
        self.attach_label.setText(Path(path).name)

    def by(self) -> str:
        return next(side for side, button in self.by_buttons.items() if button.isChecked())

    def show_late(self, message: str) -> None:
        """The window has closed: say by how much; the chief referee may still accept it."""
        _error_box(self.error, message)
        self.accept_late.setVisible(True)

    def fields(self) -> dict[str, QWidget]:
        """The widget of each field a refusal may name (``referee_app.core.errors.Reported``)."""
        return {
            "by": self.by_buttons[self.by()],
            "grounds": self.grounds,
            "evidence": self.evidence,
            "attachment": self.attach_button,
            "receipt": self.receipt,
            "filed_at": self.accept_late,  # a late appeal: the chief referee may accept it
            "accept_late": self.accept_late,
            "reason": self.late_reason,
        }

    def show_refusal(self, error: BaseException) -> None:
        """The store refused the appeal: say why in the window's language, and focus the
        field to correct (a late one: the chief referee's acceptance)."""
        field = getattr(error, "field", None)
        if field == "filed_at" or getattr(error, "code", "") == "appeal.late":
            self.accept_late.setVisible(True)
        _error_box(self.error, refusal(error, self.language))
        focus_field(error, self.fields())

    def _accept(self) -> None:
        if not self.grounds.toPlainText().strip():
            _error_box(self.error, self.language.tr("grounds_required"))
            self.grounds.setFocus()
            return
        if self.accept_late.isChecked() and not self.late_reason.text().strip():
            _error_box(self.error, self.language.tr("accept_late_reason_required"))
            return
        self.accept()


class DecideDialog(QDialog):
    """The committee's decision: upheld, modified (with the new sanction) or rejected."""

    def __init__(self, language: Language, appeal: dict[str, Any], parent: QWidget | None = None):
        super().__init__(parent)
        self.language = language
        tr = language.tr
        self.setWindowTitle(tr("decide_appeal", id=appeal["id"]))
        self.setMinimumWidth(520)
        self.choice = {}
        group = QButtonGroup(self)
        row = QHBoxLayout()
        for decision in ("upheld", "modified", "rejected"):
            button = QRadioButton(tr(f"decision_{decision}"))
            group.addButton(button)
            self.choice[decision] = button
            row.addWidget(button)
        # nothing chosen: the committee picks its decision, none is suggested (was 驳回)
        self.reason = QPlainTextEdit()
        self.reason.setPlaceholderText(tr("decision_reason_hint"))
        self.committee = QLineEdit()
        self.committee.setPlaceholderText(tr("committee_hint"))
        self.warning = QCheckBox(tr("sanction_warning"))
        self.points = QSpinBox()
        self.points.setRange(0, 200)
        self.points.setSingleStep(5)
        self.hand_loss = QCheckBox(tr("sanction_hand_loss"))
        self.new_sanction = QWidget()
        ns = QFormLayout(self.new_sanction)
        ns.addRow(self.warning)
        ns.addRow(tr("sanction_points"), self.points)
        ns.addRow(self.hand_loss)
        self.new_sanction.setVisible(False)
        self.choice["modified"].toggled.connect(self.new_sanction.setVisible)
        self.error = QLabel()
        self.error.setStyleSheet("color: #c62828;")
        self.error.setVisible(False)
        #: Records the decision; a refusal (wrong role, store error) keeps the dialog open.
        self.act: Callable[[], None] | None = None
        buttons = _ok_cancel(self, tr("record_decision"), tr("cancel"), self._accept)
        # Ctrl+Enter records it, as in every other dialog (Enter in the reason is a new line;
        # the reason's box takes Ctrl+Enter itself, so it is watched too)
        QShortcut(QKeySequence("Ctrl+Return"), self).activated.connect(self._accept)
        QShortcut(QKeySequence("Ctrl+Enter"), self).activated.connect(self._accept)
        self.reason.installEventFilter(self)
        form = QFormLayout(self)
        form.addRow(QLabel(f"<b>{appeal['ruling'].get('text', '')}</b>"))
        form.addRow(tr("decision"), row)
        form.addRow(self.new_sanction)
        form.addRow(tr("decision_reason"), self.reason)
        form.addRow(tr("committee"), self.committee)
        form.addRow(self.error)
        form.addRow(buttons)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if (
            watched is self.reason
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self._accept()
            return True
        return super().eventFilter(watched, event)

    def decision(self) -> str | None:
        return next((d for d, button in self.choice.items() if button.isChecked()), None)

    def fields(self) -> dict[str, QWidget]:
        """The widget of each field a refusal may name (``referee_app.core.errors.Reported``)."""
        return {
            "decision": self.choice[self.decision() or "upheld"],
            "reason": self.reason,
            "committee": self.committee,
            "sanctions": self.new_sanction,
        }

    def members(self) -> list[str]:
        text = self.committee.text().replace("，", ",").replace("、", ",")
        return [name.strip() for name in text.split(",") if name.strip()]

    def sanctions(self) -> list[Any] | None:
        if self.decision() != "modified":
            return None
        out: list[Any] = []
        if self.warning.isChecked():
            out.append("warning")
        if self.points.value():
            out.append({"points": self.points.value()})
        if self.hand_loss.isChecked():
            out.append("hand_loss")
        return out

    def _accept(self) -> None:
        tr = self.language.tr
        if self.decision() is None:
            _error_box(self.error, tr("decision_required"))
            self.choice["upheld"].setFocus()
            return
        if not self.reason.toPlainText().strip():
            _error_box(self.error, tr("decision_reason_required"))
            return
        if not self.members():
            _error_box(self.error, tr("committee_required"))
            return
        if self.decision() == "modified" and not self.sanctions():
            _error_box(self.error, tr("override_sanction_required"))
            return
        if self.act is not None:
            try:
                self.act()
            except StoreError as exc:  # e.g. the committee's PIN refused: what was typed stays
                _error_box(self.error, refusal(exc, self.language))
                focus_field(exc, self.fields())
                return
        self.accept()


class AppealsView(QWidget):
    """The appeals desk: open appeals with their deadlines, one opened beside its ruling."""

    #: The modal dialog open now, else None.
    active_dialog: QDialog | None = None

    back = Signal()
    changed = Signal(str)

    COLUMNS = (
        "col_appeal",
        "col_round_table",
        "col_ruling",
        "col_by",
        "col_state",
        "col_filed",
        "col_deadline",
    )

    def __init__(self, language: Language, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = language
        self.session = session
        self.appeals: list[dict[str, Any]] = []
        #: Logs this station in to another role (the window's PIN dialog); True once done.
        self.login: Callable[..., bool] | None = None
        self.title = QLabel()
        self.back_button = QPushButton()
        self.back_button.clicked.connect(self.back.emit)
        button_shortcut(self.back_button, "Alt+Left", self)
        self.open_only = QCheckBox()
        self.open_only.setChecked(True)
        self.open_only.toggled.connect(self.refresh)
        self.list = QTableWidget()
        self.list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.verticalHeader().setVisible(False)
        self.list.itemSelectionChanged.connect(self.show_selected)
        self.detail = QTextBrowser()
        self.review_button = QPushButton()
        self.review_button.clicked.connect(self.review)
        self.decide_button = QPushButton()
        self.decide_button.clicked.connect(self.decide)
        self.withdraw_button = QPushButton()
        self.withdraw_button.clicked.connect(self.withdraw)
        self.form_button = QPushButton()
        self.form_button.clicked.connect(self.preview_form)
        actions = QHBoxLayout()
        for button in (self.review_button, self.decide_button, self.withdraw_button, self.form_button):
            actions.addWidget(button)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.addWidget(self.detail, 1)
        rl.addLayout(actions)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.list)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        top = QHBoxLayout()
        top.addWidget(self.back_button)
        top.addWidget(self.title, 1)
        top.addWidget(self.open_only)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        self.timer = QTimer(self)
        self.timer.setInterval(1000)
        self.timer.timeout.connect(self.tick)
        self.timer.start()
        language.changed.connect(self.retranslate)
        self.retranslate()

    def refresh(self) -> None:
        tr = self.language.tr
        try:
            every = self.session.appeals()
        except StoreError as exc:
            self.detail.setPlainText(refusal(exc, self.language))
            return
        self.appeals = [a for a in every if a["open"] or not self.open_only.isChecked()]
        self.list.clear()
        self.list.setColumnCount(len(self.COLUMNS))
        self.list.setHorizontalHeaderLabels([tr(c) for c in self.COLUMNS])
        self.list.setRowCount(len(self.appeals))
        labels = self.session.rulebook.data["infractions"]
        lang = self.language.lang
        for r, a in enumerate(self.appeals):
            kind = labels.get(a["kind"], {}).get("label", {}).get(lang, a["kind"])
            values = [
                f"#{a['id']}",
                tr("round_table", round=a["round"], table=a["table"]),
                kind,
                f"{SIDE_NAMES[lang][a['by']]} {a.get('pair') or ''}",
                tr(f"appeal_state_{a['state']}"),
                _local(a["filed_at"]),
                "",
            ]
            for c, value in enumerate(values):
                self.list.setItem(r, c, QTableWidgetItem(str(value)))
        header = self.list.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.tick()
        if self.appeals:
            self.list.selectRow(0)
        else:
            self.detail.setHtml(f"<i>{tr('no_appeals')}</i>")
        self.show_selected()

    def tick(self) -> None:
        """Each open appeal's deadline (the filing window's close), counting down."""
        now = datetime.now(UTC)
        for r, a in enumerate(self.appeals):
            deadline = _when(a.get("deadline"))
            item = self.list.item(r, 6)
            if item is None:
                continue
            if deadline is None:  # its window has not started: say from when it will run
                start = "score_published" if a.get("window_from") == "score_published" else "round_end"
                item.setText(self.language.tr(f"deadline_after_{start}", minutes=a.get("window_minutes", 0)))
                continue
            left = int((deadline - now).total_seconds())
            if left > 0:
                item.setText(f"{_local(deadline)}（{left // 60:02d}:{left % 60:02d}）")
                item.setForeground(Qt.GlobalColor.darkRed if left < 120 else Qt.GlobalColor.black)
            else:
                item.setText(f"{_local(deadline)}（{self.language.tr('window_closed')}）")

    def selected(self) -> dict[str, Any] | None:
        rows = self.list.selectionModel().selectedRows() if self.list.selectionModel() else []
        return self.appeals[rows[0].row()] if rows else None

    def show_selected(self) -> None:
        tr = self.language.tr
        a = self.selected()
        for button in (self.review_button, self.decide_button, self.withdraw_button):
            button.setEnabled(bool(a and a["open"]))
        self.review_button.setEnabled(bool(a and a["state"] == "filed"))
        self.form_button.setEnabled(a is not None)
        if a is None:
            return
        record = self.session.table(a["round"], a["table"])
        hand_text = ""
        if record is not None and a["hand"]:
            hands = record.decision.get("hands") or []
            if 0 < a["hand"] <= len(hands):
                hand_text = hands[a["hand"] - 1]["text"]
        late = tr("late_by", minutes=a["late_minutes"]) if a["late_minutes"] else tr("on_time")
        parts = [f"<h3>{tr('appeal_no', id=a['id'])} · {tr('appeal_state_' + a['state'])}</h3>"]
        parts.append(f"<b>{tr('col_ruling')}:</b> {a['ruling'].get('text', '')}")
        parts.append(f"<b>{tr('clause')}:</b> {a['ruling'].get('citation', '')}")
        if hand_text:
            parts.append(f"<b>{tr('the_hand', hand=a['hand'])}:</b> {hand_text}")
        parts.append(f"<b>{tr('grounds')}:</b> {a['grounds']}")
        if a.get("evidence"):  # the attachment's line (its name and SHA-256) worded here
            statement, attached = evidence_parts(a["evidence"])
            evidence = html.escape(statement).replace("\n", "<br>")
            for name, digest in attached:
                evidence += f"<br><b>{tr('attachment')}:</b> {html.escape(name)} sha256:{digest}"
            parts.append(f"<b>{tr('evidence')}:</b> {evidence}")
        parts.append(f"<b>{tr('filed')}:</b> {_local(a['filed_at'])} · {late}")
        if a.get("late_reason"):
            parts.append(f"<b>{tr('accept_late')}:</b> {a['late_reason']}")
        parts.append(f"<b>{tr('fee_receipt')}:</b> {a.get('receipt') or '—'} ({a['fee_yuan']} 元)")
        if a.get("decision"):
            parts.append(
                f"<b>{tr('decision')}:</b> {tr('decision_' + a['decision'])} — {a['decision_reason']}"
                f"（{'、'.join(a['committee'])}）"
            )
            parts.append(f"<b>{tr('fee')}:</b> {a.get('fee') or '—'}")
        self.detail.setHtml("<br>".join(parts))

    def review(self) -> None:
        a = self.selected()
        if a is None:
            return
        self._act(
            lambda: self.session.review_appeal(a["id"]), self.language.tr("appeal_under_review", id=a["id"])
        )

    def decide(self, dialog: DecideDialog | None = None) -> bool:
        a = self.selected()
        if a is None:
            return False
        dialog = dialog or DecideDialog(self.language, a, self)
        before = self.session.table(a["round"], a["table"])
        winner_before = ((before.decision.get("result") or {}).get("winner")) if before else None

        def run() -> None:
            decision = dialog.decision()
            assert decision is not None  # the dialog records only a chosen decision
            self.session.decide_appeal(
                a["id"],
                decision,
                dialog.reason.toPlainText().strip(),
                dialog.members(),
                dialog.sanctions(),
            )

        dialog.act = lambda: self.as_role(run)
        self.active_dialog = dialog
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        self.active_dialog = None
        self.refresh()
        if not accepted:
            return False
        self.changed.emit(self.language.tr("appeal_decided", id=a["id"]))
        after = self.session.table(a["round"], a["table"])
        winner_after = ((after.decision.get("result") or {}).get("winner")) if after else None
        if winner_after != winner_before:
            lang = self.language.lang
            name: dict[str | None, str] = {None: self.language.tr("draw")}
            name.update(SIDE_NAMES[lang])
            self.changed.emit(
                self.language.tr("result_changed", before=name[winner_before], after=name[winner_after])
            )
        return True

    def as_role(self, action: Callable[[], None]) -> None:
        """Run ``action``; refused for this station's role, offer the login (the PIN dialog)
        and run it once more after a login. A cancelled or failed login raises the refusal."""
        try:
            action()
        except RoleError as exc:  # the login offered for the role the act needs (仲裁委员会)
            if self.login is None or not self.login(refused=exc):
                raise
            action()

    def withdraw(self, reason: str | None = None) -> bool:
        a = self.selected()
        if a is None:
            return False
        if reason is None:
            reason, ok = QInputDialog.getText(
                self, self.language.tr("withdraw_appeal"), self.language.tr("reason")
            )
            if not ok:
                return False
        if not reason.strip():
            return False
        return self._act(
            lambda: self.session.withdraw_appeal(a["id"], reason.strip()),
            self.language.tr("appeal_withdrawn", id=a["id"]),
        )

    def preview_form(self) -> PdfPreview | None:
        a = self.selected()
        if a is None:
            return None
        from ..app.printouts import appeal_form_data, render_appeal

        _, data = appeal_form_data(self.session.store, a["id"], self.language.lang)
        out = io.BytesIO()
        render_appeal(data, out)
        return show_pdf(
            self, self.language, out.getvalue(), self.language.tr("appeal_form"), f"appeal-{a['id']}.pdf"
        )

    def _act(self, action: Callable[[], object], message: str) -> bool:
        try:
            action()
        except StoreError as exc:
            QMessageBox.warning(self, self.language.tr("not_saved"), refusal(exc, self.language))
            self.refresh()
            return False
        self.refresh()
        self.changed.emit(message)
        return True

    def retranslate(self, *_: object) -> None:
        tr = self.language.tr
        self.title.setText(f"<h2>{tr('appeals_desk')}</h2>")
        self.back_button.setText(tr("back_to_hall"))
        self.open_only.setText(tr("open_only"))
        self.review_button.setText(tr("start_review"))
        self.decide_button.setText(tr("decide"))
        self.withdraw_button.setText(tr("withdraw_appeal"))
        self.form_button.setText(tr("appeal_form"))
        self.refresh()
