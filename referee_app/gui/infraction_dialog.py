"""Logging one infraction: the offender, only the fields its kind needs, and a live preview
of the ruling the rulebook gives — confirmed, overridden with a reason, or cancelled."""

from __future__ import annotations

import copy
from collections.abc import Callable
from html import escape
from typing import Any

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..core.catalogue import CHOICES, FIELD_LABELS
from ..core.errors import CaseError
from ..core.seats import SEAT_NAMES, SIDE_NAMES, side_of
from .i18n import Language
from .refusal import refusal
from .widgets import available_height

# Seats laid out as on the table: N above, W left, E right, S below.
SEAT_GRID = {"N": (0, 1), "W": (1, 0), "E": (1, 2), "S": (2, 1)}


class InfractionDialog(QDialog):
    """Ask for one infraction of ``kind``; ``preview(infraction)`` judges it in context and
    returns the proposed ruling (a dict of the decision) or raises CaseError."""

    #: Anything typed or chosen changed (the table keeps the dialog's draft on disk).
    edited = Signal()

    def __init__(
        self,
        language: Language,
        kind: str,
        label: dict[str, str],
        preview: Callable[[dict[str, Any]], dict[str, Any]],
        fields: tuple[str, ...],
        seat: str | None = None,
        values: dict[str, Any] | None = None,
        parent: QWidget | None = None,
        required: tuple[str, ...] = (),
    ) -> None:
        super().__init__(parent)
        self.language = language
        self.kind = kind
        self.label = label
        self.preview_fn = preview
        self.required = required  # facts that choose the rule: never guessed, always entered
        self.result_infraction: dict[str, Any] | None = None
        self.proposed: dict[str, Any] | None = None
        self.ready = False  # no preview until every widget exists
        self.setModal(True)
        self.setMinimumWidth(560)
        lang = language.lang
        tr = language.tr
        self.setWindowTitle(tr("log_infraction_title", kind=label[lang]))

        # everything but the buttons scrolls: Confirm stays in view on a 1024×700 screen
        self.body = QWidget()
        outer = QVBoxLayout(self.body)
        # the kind in the window's language; in English its Chinese name under it (the word of
        # the printed rulebook), never English under Chinese
        subtitle = f"<span style='color:#607d8b'>{label['zh']}</span>" if lang == "en" else ""
        heading = QLabel(f"<h2>{label[lang]}</h2>{subtitle}")
        outer.addWidget(heading)

        # -- who ---------------------------------------------------------------------------
        self.who_box = QGroupBox(tr("offender_side") if kind == "late_arrival" else tr("offender_seat"))
        grid = QGridLayout(self.who_box)
        self.who_group = QButtonGroup(self)
        self.who_group.setExclusive(True)
        self.who_buttons: dict[str, QPushButton] = {}
        if kind == "late_arrival":
            for col, side in enumerate(("NS", "EW")):
                button = QPushButton(SIDE_NAMES[lang][side])
                button.setCheckable(True)
                button.setMinimumHeight(44)
                self.who_group.addButton(button)
                self.who_buttons[side] = button
                grid.addWidget(button, 0, col)
            if seat is not None:
                self.who_buttons[side_of(seat)].setChecked(True)
        else:
            for s, (r, c) in SEAT_GRID.items():
                button = QPushButton(SEAT_NAMES[lang][s])
                button.setCheckable(True)
                button.setMinimumSize(96, 44)
                button.setShortcut(QKeySequence(s))
                button.setToolTip(tr("seat_shortcut", key=s))
                self.who_group.addButton(button)
                self.who_buttons[s] = button
                grid.addWidget(button, r, c)
            if seat is not None:
                self.who_buttons[seat].setChecked(True)
        self.who_group.buttonToggled.connect(lambda *_: self.refresh())
        outer.addWidget(self.who_box)

        # -- the fields this kind needs ----------------------------------------------------------
        self.form = QFormLayout()
        self.inputs: dict[str, QWidget] = {}
        self.errors: dict[str, QLabel] = {}
        for name in fields:
            widget = self._input_for(name)
            self.inputs[name] = widget
            error = QLabel()
            error.setStyleSheet("color: #c62828;")
            error.setVisible(False)
            self.errors[name] = error
            holder = QWidget()
            box = QVBoxLayout(holder)
            box.setContentsMargins(0, 0, 0, 0)
            box.addWidget(widget)
            box.addWidget(error)
            self.form.addRow(FIELD_LABELS[name][lang], holder)
        for name, value in (values or {}).items():
            self._set_value(name, value)
        if self.inputs:
            facts = QGroupBox(tr("facts"))
            facts.setLayout(self.form)
            outer.addWidget(facts)

        # -- the live preview ------------------------------------------------------------------
        preview_box = QGroupBox(tr("proposed_ruling"))
        pv = QVBoxLayout(preview_box)
        self.preview_label = QLabel()
        self.preview_label.setObjectName("rulingPreview")
        self.preview_label.setWordWrap(True)
        self.preview_label.setTextFormat(Qt.TextFormat.RichText)
        self.preview_label.setMinimumHeight(90)
        pv.addWidget(self.preview_label)
        outer.addWidget(preview_box)

        # -- override ------------------------------------------------------------------------
        self.override_box = QGroupBox(tr("override_title"))
        self.override_box.setCheckable(True)
        self.override_box.setChecked(False)
        override_fields = QWidget()
        QVBoxLayout(self.override_box).addWidget(override_fields)
        override_fields.setVisible(False)  # unfolds only when the referee overrides
        self.override_box.toggled.connect(override_fields.setVisible)
        self.override_box.toggled.connect(self._show_override)
        ov = QFormLayout(override_fields)
        self.ov_warning = QCheckBox(tr("sanction_warning"))
        self.ov_points = QSpinBox()
        self.ov_points.setRange(0, 200)
        self.ov_points.setSingleStep(5)
        self.ov_hand_loss = QCheckBox(tr("sanction_hand_loss"))
        self.ov_forfeit = QCheckBox(tr("sanction_round_forfeit"))
        self.ov_suspension = QSpinBox()
        self.ov_suspension.setRange(0, 20)
        self.ov_disqualified = QCheckBox(tr("sanction_disqualified"))
        self.ov_reason = QPlainTextEdit()
        self.ov_reason.setPlaceholderText(tr("override_reason_hint"))
        self.ov_reason.setMaximumHeight(70)
        self.ov_reason_error = QLabel()
        self.ov_reason_error.setStyleSheet("color: #c62828;")
        self.ov_reason_error.setVisible(False)
        ov.addRow(self.ov_warning)
        ov.addRow(tr("sanction_points"), self.ov_points)
        ov.addRow(self.ov_hand_loss)
        ov.addRow(self.ov_forfeit)
        ov.addRow(tr("sanction_suspension"), self.ov_suspension)
        ov.addRow(self.ov_disqualified)
        ov.addRow(tr("override_reason"), self.ov_reason)
        ov.addRow(self.ov_reason_error)
        for w in (self.ov_warning, self.ov_hand_loss, self.ov_forfeit, self.ov_disqualified):
            w.toggled.connect(lambda *_: self.refresh())
        self.ov_points.valueChanged.connect(lambda *_: self.refresh())
        self.ov_suspension.valueChanged.connect(lambda *_: self.refresh())
        self.ov_reason.textChanged.connect(lambda: self.ov_reason_error.setVisible(False))
        self.ov_reason.textChanged.connect(self.refresh)  # the preview shows the reason typed
        self.override_box.toggled.connect(lambda *_: self.refresh())
        outer.addWidget(self.override_box)

        # -- buttons -------------------------------------------------------------------------
        row = QHBoxLayout()
        row.addStretch(1)
        self.cancel_button = QPushButton(tr("cancel"))
        self.cancel_button.clicked.connect(self.cancel)
        self.confirm_button = QPushButton(tr("confirm_ruling"))
        self.confirm_button.setDefault(True)
        self.confirm_button.setMinimumHeight(40)
        self.confirm_button.clicked.connect(self.confirm)
        QShortcut(QKeySequence("Ctrl+Return"), self).activated.connect(self.confirm)
        row.addWidget(self.cancel_button)
        row.addWidget(self.confirm_button)
        self.scroller = QScrollArea()  # not .scroll: QWidget.scroll is a method
        self.scroller.setWidgetResizable(True)
        self.scroller.setFrameShape(QFrame.Shape.NoFrame)
        self.scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroller.setWidget(self.body)
        dialog_layout = QVBoxLayout(self)
        dialog_layout.addWidget(self.scroller, 1)
        dialog_layout.addLayout(row)
        self.ready = True
        self.refresh()
        self.resize(self.sizeHint())  # as tall as its content where the screen allows
        #: What the dialog opened with (the seat chosen, the clock's minutes): Esc or Cancel
        #: after the referee has changed it asks before dropping what was entered.
        self.opened_with = self.draft()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """As tall as the content, but never taller than the screen (the content scrolls)."""
        hint = super().sizeHint()
        # the margins and spacing around the scroll area and the buttons
        wanted = self.body.sizeHint().height() + self.confirm_button.sizeHint().height() + 64
        return QSize(hint.width(), min(wanted, available_height(self)))

    def _show_override(self, on: bool) -> None:
        if on and self.proposed is not None and not self.override_sanctions():
            self._start_from(self.proposed)
        self.resize(self.width(), self.sizeHint().height())
        if on:  # unfolded below the preview: bring the reason into view, Confirm stays put
            self.body.adjustSize()
            self.scroller.ensureWidgetVisible(self.ov_reason)

    def _start_from(self, ruling: dict[str, Any]) -> None:
        """An override starts from the proposed sanction: the referee changes what differs."""
        self.ov_warning.setChecked(bool(ruling.get("warning")))
        self.ov_points.setValue(int(ruling.get("points") or 0))
        self.ov_hand_loss.setChecked(bool(ruling.get("hand_lost")))
        self.ov_forfeit.setChecked(bool(ruling.get("round_forfeit")))
        self.ov_suspension.setValue(int(ruling.get("suspension_rounds") or 0))
        self.ov_disqualified.setChecked(bool(ruling.get("disqualified")))

    # -- inputs ------------------------------------------------------------------------------

    def _input_for(self, name: str) -> QWidget:
        lang = self.language.lang
        if name in CHOICES:
            combo = QComboBox()
            if name in self.required:  # no preselected (lightest) choice
                combo.addItem(self.language.tr("choose_fact"), None)
            for value, words in CHOICES[name].items():
                combo.addItem(words[lang], value)
            combo.currentIndexChanged.connect(lambda *_: self.refresh())
            return combo
        if name in ("affects_result", "disqualified", "at_draw"):
            yes = "affects_result_yes"
            box = QCheckBox(self.language.tr(yes) if name == "affects_result" else FIELD_LABELS[name][lang])
            box.toggled.connect(lambda *_: self.refresh())
            return box
        spin = QSpinBox()
        limits = {
            "cards": (1, 33, 1, 1),
            "thrown": (0, 33, 1, 0),
            "trick": (0, 25, 1, 0),
            "discovered": (0, 25, 1, 0),
            "minutes": (0, 600, 1, 0),
            "points": (0, 200, 5, 0),
            "suspension_rounds": (0, 99, 1, 0),
        }
        low, high, step, default = limits[name]
        spin.setRange(low, high)
        spin.setSingleStep(step)
        spin.setValue(default)
        if low == 0 and name != "minutes":
            spin.setSpecialValueText(self.language.tr("not_given"))
        spin.valueChanged.connect(lambda *_: self.refresh())
        return spin

    def _set_value(self, name: str, value: Any) -> None:
        widget = self.inputs.get(name)
        if isinstance(widget, QComboBox):
            widget.setCurrentIndex(max(0, widget.findData(value)))
        elif isinstance(widget, QCheckBox):
            widget.setChecked(bool(value))
        elif isinstance(widget, QSpinBox):
            widget.setValue(int(value))

    def draft(self) -> dict[str, Any]:
        """Everything typed or chosen, to be given back by ``restore_draft`` after a crash."""
        facts: dict[str, Any] = {}
        for name, widget in self.inputs.items():
            if isinstance(widget, QComboBox):
                facts[name] = widget.currentData()
            elif isinstance(widget, QCheckBox):
                facts[name] = widget.isChecked()
            elif isinstance(widget, QSpinBox):
                facts[name] = widget.value()
        return {
            "kind": self.kind,
            "offender": self.offender(),
            "facts": facts,
            "override": self.override_box.isChecked(),
            "override_fields": {
                "warning": self.ov_warning.isChecked(),
                "points": self.ov_points.value(),
                "hand_loss": self.ov_hand_loss.isChecked(),
                "forfeit": self.ov_forfeit.isChecked(),
                "suspension": self.ov_suspension.value(),
                "disqualified": self.ov_disqualified.isChecked(),
                "reason": self.ov_reason.toPlainText(),
            },
        }

    def restore_draft(self, draft: dict[str, Any]) -> None:
        who = draft.get("offender")
        if who in self.who_buttons:
            self.who_buttons[who].setChecked(True)
        for name, value in (draft.get("facts") or {}).items():
            if name in self.inputs and value is not None:
                self._set_value(name, value)
        ov = draft.get("override_fields") or {}
        self.override_box.setChecked(bool(draft.get("override")))
        self.ov_warning.setChecked(bool(ov.get("warning")))
        self.ov_points.setValue(int(ov.get("points") or 0))
        self.ov_hand_loss.setChecked(bool(ov.get("hand_loss")))
        self.ov_forfeit.setChecked(bool(ov.get("forfeit")))
        self.ov_suspension.setValue(int(ov.get("suspension") or 0))
        self.ov_disqualified.setChecked(bool(ov.get("disqualified")))
        self.ov_reason.setPlainText(str(ov.get("reason") or ""))
        self.refresh()

    def offender(self) -> str | None:
        for key, button in self.who_buttons.items():
            if button.isChecked():
                return key
        return None

    def infraction(self) -> dict[str, Any] | None:
        who = self.offender()
        if who is None:
            return None
        out: dict[str, Any] = {"kind": self.kind}
        out["side" if self.kind == "late_arrival" else "seat"] = who
        for name, widget in self.inputs.items():
            if isinstance(widget, QComboBox):
                if widget.currentData() is not None:
                    out[name] = widget.currentData()
            elif isinstance(widget, QCheckBox) and widget.isChecked():
                out[name] = True  # an unticked box is the case format's default (false)
            elif isinstance(widget, QSpinBox):
                value = widget.value()
                if value or name == "minutes":
                    out[name] = value
        if "discovered" in out and "trick" not in out and "trick" not in self.required:
            out["trick"] = out["discovered"]  # found in the trick it happened
        if self.override_box.isChecked():
            out["override"] = {"sanctions": self.override_sanctions(), "reason": self.override_reason()}
        return out

    def override_sanctions(self) -> list[Any]:
        sanctions: list[Any] = []
        if self.ov_warning.isChecked():
            sanctions.append("warning")
        if self.ov_points.value():
            sanctions.append({"points": self.ov_points.value()})
        if self.ov_hand_loss.isChecked():
            sanctions.append("hand_loss")
        if self.ov_forfeit.isChecked():
            sanctions.append("round_forfeit")
        if self.ov_suspension.value():
            sanctions.append({"suspension_rounds": self.ov_suspension.value()})
        if self.ov_disqualified.isChecked():
            sanctions.append("disqualified")
        return sanctions

    def override_reason(self) -> str:
        return self.ov_reason.toPlainText().strip() or "-"

    # -- preview ------------------------------------------------------------------------

    def refresh(self) -> None:
        if not self.ready:
            return
        self.edited.emit()
        tr = self.language.tr
        for error in self.errors.values():
            error.setVisible(False)
        infraction = self.infraction()
        if infraction is None:
            self.proposed = None
            self.preview_label.setText(f"<i>{tr('pick_offender')}</i>")
            self.confirm_button.setEnabled(False)
            return
        missing = self.missing_facts(infraction)
        if missing:
            self.proposed = None
            for name in missing:
                self.errors[name].setText(tr("fact_required"))
                self.errors[name].setVisible(True)
            sep = "、" if self.language.lang == "zh" else ", "
            names = sep.join(FIELD_LABELS[name][self.language.lang] for name in missing)
            message = tr("facts_missing", names=names)
            self.preview_label.setText(f"<span style='color:#ef6c00'>{message}</span>")
            self.confirm_button.setEnabled(False)
            return
        try:
            ruling = self.preview_fn(copy.deepcopy(infraction))
        except CaseError as exc:
            self.proposed = None
            self.show_refusal(exc)
            self.confirm_button.setEnabled(False)
            return
        self.proposed = ruling
        self.confirm_button.setEnabled(True)
        self.preview_label.setText(ruling_html(self.language, ruling))
        # a word-wrapped label in the scroll area keeps its first height: grow it to the text
        # (a long preview, with what else saving decides, was cut off at the bottom)
        wanted = self.preview_label.heightForWidth(max(self.preview_label.width(), 300))
        self.preview_label.setMinimumHeight(max(90, wanted))

    def missing_facts(self, infraction: dict[str, Any]) -> list[str]:
        return [name for name in self.required if name in self.inputs and name not in infraction]

    def show_refusal(self, error: BaseException) -> None:
        """The engine's refusal next to the field it names (its path into the case, such as
        ``hands[0].infractions[0].discovered``), else under the preview."""
        from ..app.messages import describe

        name = str(getattr(error, "field", None) or "").rsplit(".", 1)[-1]
        if name in self.errors:
            self.errors[name].setText(describe(error, self.language.lang, with_field=False))
            self.errors[name].setVisible(True)
            self.preview_label.setText(f"<span style='color:#c62828'>{self.language.tr('fix_field')}</span>")
        else:
            self.preview_label.setText(f"<span style='color:#c62828'>{refusal(error, self.language)}</span>")

    def show_error(self, message: str) -> None:
        """Put the engine's message next to the field it names, or under the preview."""
        field_part = message.split(":", 1)[0]
        name = field_part.rsplit(".", 1)[-1]
        if name in self.errors:
            self.errors[name].setText(message.split(": ", 1)[-1])
            self.errors[name].setVisible(True)
            self.preview_label.setText(f"<span style='color:#c62828'>{self.language.tr('fix_field')}</span>")
        else:
            self.preview_label.setText(f"<span style='color:#c62828'>{message}</span>")

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        if event.key() == Qt.Key.Key_Escape and not event.modifiers():
            self.cancel()  # QDialog's own Esc would reject without asking
            return
        super().keyPressEvent(event)

    def cancel(self) -> bool:
        """Close without saving (Esc, 取消): asked first when something was entered since
        the dialog opened; True once closed."""
        if self.draft() != self.opened_with:
            buttons = QMessageBox.StandardButton
            answer = QMessageBox.question(
                self,
                self.language.tr("discard_ruling_title"),
                self.language.tr("discard_ruling"),
                buttons.Discard | buttons.No,
                buttons.No,
            )
            if answer != buttons.Discard:
                return False
        self.reject()
        return True

    def confirm(self) -> None:
        if not self.confirm_button.isEnabled():
            return
        if self.override_box.isChecked() and not self.ov_reason.toPlainText().strip():
            self.ov_reason_error.setText(self.language.tr("override_reason_required"))
            self.ov_reason_error.setVisible(True)
            self.ov_reason.setFocus()
            return
        if self.override_box.isChecked() and not self.override_sanctions():
            self.ov_reason_error.setText(self.language.tr("override_sanction_required"))
            self.ov_reason_error.setVisible(True)
            return
        self.result_infraction = self.infraction()
        self.accept()


def ruling_html(language: Language, ruling: dict[str, Any]) -> str:
    """The proposed ruling as the referee reads it: sanction, clause, assumed, escalation."""
    tr = language.tr
    parts = [f"<b style='font-size:115%'>{ruling['text']}</b>"]
    if ruling.get("escalated"):
        parts.append(f"<span style='color:#c62828'>{tr('escalation', n=ruling['occurrence'])}</span>")
    parts.append(f"{tr('clause')}: <b>{ruling['citation']}</b>")
    if ruling.get("assumed"):
        parts.append(f"<span style='color:#ef6c00'>⚠ {tr('assumed_note')}</span>")
    if ruling.get("instruction"):
        parts.append(f"{tr('instruction')}: {ruling['instruction']}")
    for note in ruling.get("unusual") or []:
        parts.append(f"<span style='color:#ef6c00'>⚠ {escape(tr('unusual_note', text=note))}</span>")
    # what else saving it decides: the preview is the whole decision that will be saved
    for also in ruling.get("also") or []:
        if "forfeit" in also:
            points = also["match_points"]
            both = {"zh": "双方", "en": "both sides"}[language.lang]
            side = both if also["forfeit"] == "both" else SIDE_NAMES[language.lang][also["forfeit"]]
            line = tr("also_forfeit", side=side, ns=points["NS"], ew=points["EW"])
        else:
            line = tr("also_ruling", text=escape(also["ruling"]))
        parts.append(f"<span style='color:#c62828'>{line}</span>")
    return "<br>".join(parts)
