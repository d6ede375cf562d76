"""A pair leaving during the round (中途退出), from the table view: which side, why, and the
result it gives, previewed before it is saved.

The dialog only asks and previews: the table view saves the case with its ``withdrawal``
through the same ``Session.save`` (``Store.record``) as ``referee-app record`` takes it, and
the engine applies the rulebook's forfeit after the hands played, citing the event's clause
on leaving (``forfeit.withdrawal_clause``), marked assumed where the event is silent."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from ..app.session import TableRecord
from ..core.errors import CaseError
from ..core.seats import SIDE_NAMES
from ..core.text import forfeit_text
from .i18n import Language
from .refusal import refusal
from .widgets import error_line, ok_cancel


class WithdrawalDialog(QDialog):
    """Which pair left and why; the result previewed with its clause and ``assumed`` mark.
    Accepted with :attr:`side` and :attr:`reason` once both are given and the preview is a
    result (a round that had already ended is refused in the preview, OK disabled)."""

    def __init__(
        self,
        language: Language,
        record: TableRecord,
        preview: Callable[[str, str], dict[str, Any]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.language = language
        self.preview = preview
        tr = language.tr
        lang = language.lang
        self.setWindowTitle(tr("withdrawal_title", round=record.round, table=record.table))
        self.note = QLabel(tr("withdrawal_note"))
        self.note.setWordWrap(True)
        self.sides = QButtonGroup(self)
        self.side_buttons: dict[str, QRadioButton] = {}
        side_row = QHBoxLayout()
        for side in ("NS", "EW"):
            players = " · ".join(record.players.get(side, [])) or "—"
            button = QRadioButton(f"{SIDE_NAMES[lang][side]} {record.pairs[side]}  {players}")
            self.sides.addButton(button)
            self.side_buttons[side] = button
            side_row.addWidget(button)
            button.toggled.connect(self.refresh)
        self.reason_edit = QLineEdit()
        self.reason_edit.setMaxLength(200)
        self.reason_edit.setPlaceholderText(tr("withdrawal_reason_hint"))
        self.reason_edit.textChanged.connect(self.refresh)
        self.outcome = QLabel()
        self.outcome.setObjectName("withdrawalOutcome")
        self.outcome.setWordWrap(True)
        self.outcome.setMinimumHeight(60)
        self.error_label = error_line()
        self.buttons, self.ok_button = ok_cancel(self)
        form = QFormLayout()
        form.addRow(tr("withdrawal_side"), side_row)
        form.addRow(tr("withdrawal_reason"), self.reason_edit)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addLayout(form)
        layout.addWidget(self.outcome)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(480)
        self.decision: dict[str, Any] | None = None
        self.refresh()

    @property
    def side(self) -> str | None:
        return next((s for s, b in self.side_buttons.items() if b.isChecked()), None)

    @property
    def reason(self) -> str:
        return self.reason_edit.text().strip()

    def refresh(self, *_: object) -> None:
        """Preview the result of the chosen side leaving (the reason is part of the record)."""
        tr = self.language.tr
        self.decision = None
        self.error_label.setVisible(False)
        side = self.side
        if side is None:
            self.outcome.setText(f"<i>{escape(tr('withdrawal_choose_side'))}</i>")
            self.ok_button.setEnabled(False)
            return
        try:
            decision = self.preview(side, self.reason)
        except (CaseError, ValueError) as exc:
            self.outcome.setText(f"<span style='color:#c62828'>{escape(refusal(exc, self.language))}</span>")
            self.ok_button.setEnabled(False)
            return
        self.decision = decision
        self.outcome.setText(outcome_html(self.language, decision))
        self.ok_button.setEnabled(True)
        self._fit()

    def _fit(self) -> None:
        """Tall enough for the whole preview (a wrapped label does not grow its dialog)."""
        width = max(self.width(), self.minimumWidth())
        self.outcome.setMinimumHeight(self.outcome.heightForWidth(width - 24))
        if self.isVisible():
            self.adjustSize()

    def accept(self) -> None:
        if self.decision is None:
            return
        if not self.reason:  # written down, as a void's or an override's reason
            self.error_label.setText(self.language.tr("withdrawal_reason_required"))
            self.error_label.setVisible(True)
            self.reason_edit.setFocus()
            return
        super().accept()


def outcome_html(language: Language, decision: dict[str, Any]) -> str:
    """What the withdrawal decides, as the referee reads it before saving: who loses the
    round, the match points and levels, the clause, and the assumed mark."""
    tr = language.tr
    result = decision["result"]
    mp, levels = result["match_points"], result["levels"]
    parts = [
        f"<b>{tr('withdrawal_outcome')}</b> {escape(forfeit_text(decision, language.lang))}",
        escape(
            tr("withdrawal_result", ns=mp["NS"], ew=mp["EW"], ns_level=levels["NS"], ew_level=levels["EW"])
        ),
        f"{tr('clause')}: <b>{escape(result['citation'])}</b>",
    ]
    if result.get("assumed"):
        parts.append(f"<span style='color:#ef6c00'>⚠ {escape(tr('withdrawal_assumed'))}</span>")
    return "<br>".join(parts)
