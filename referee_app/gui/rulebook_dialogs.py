"""A new event's rulebook from the window (issue 25): 新建规则… copies a bundled rulebook to a
file the chief referee picks (the file stays the truth, edited and reviewed like code), and
试判… judges sample hands with a draft beside the bundled rulebook it came from. Both call
the application layer the command line uses (``rules new``, ``rules try``)."""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from ..app.messages import describe
from .i18n import Language
from .widgets import FILE_DIALOG

if TYPE_CHECKING:
    from ..core.rulebook import Rulebook


class NewRulebookDialog(QDialog):
    """新建规则…: which bundled rulebook to start from, the new rulebook's id, and the file to
    write (never one that exists). ``written`` is the file once made."""

    def __init__(self, language: Language, base: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from ..core.errors import RulebookError
        from ..core.rulebook import bundled_ids, load_rulebook

        self.language = language
        tr = language.tr
        self.setWindowTitle(tr("rulebook_new_title"))
        self.setMinimumWidth(560)
        self.written: Path | None = None
        self.base = QComboBox()
        for rid in bundled_ids():
            try:
                self.base.addItem(f"{load_rulebook(rid).name(language.lang)}（{rid}）", rid)
            except RulebookError:
                continue
        if base is not None and self.base.findData(base) >= 0:
            self.base.setCurrentIndex(self.base.findData(base))
        self.rule_id = QLineEdit()
        self.rule_id.setPlaceholderText(tr("rulebook_new_id_hint"))
        self.path = QLineEdit()
        self.path.setPlaceholderText(tr("rulebook_new_file_hint"))
        browse = QPushButton(tr("browse"))
        browse.clicked.connect(self.pick_file)
        file_row = QHBoxLayout()
        file_row.addWidget(self.path, 1)
        file_row.addWidget(browse)
        note = QLabel(tr("rulebook_new_note"))
        note.setWordWrap(True)
        note.setStyleSheet("color: #455a64;")
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c62828;")
        form = QFormLayout(self)
        form.addRow(tr("rulebook_new_base"), self.base)
        form.addRow(tr("rulebook_new_id"), self.rule_id)
        form.addRow(tr("rulebook_new_file"), file_row)
        form.addRow(note)
        form.addRow(self.error)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.make)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.rule_id.textChanged.connect(self._suggest_file)
        self.rule_id.textChanged.connect(lambda: self.error.setText(""))
        self.path.textChanged.connect(lambda: self.error.setText(""))

    def _suggest_file(self, text: str) -> None:
        if not self.path.isModified() and text:
            self.path.setText(str(Path.home() / f"{text}.toml"))

    def pick_file(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self,
            self.language.tr("rulebook_new_file"),
            self.path.text(),
            "TOML (*.toml)",
            options=FILE_DIALOG,
        )
        if path:
            self.path.setText(path)
            self.path.setModified(True)

    def make(self) -> bool:
        """Write the new rulebook (a copy of the bundled one under the new id); a bad id, a
        file that exists, a folder that does not: said beside the fields, nothing written."""
        from ..app.rulebooks import new_rulebook_text, write_new_file
        from ..core.errors import RulebookError

        if not self.path.text().strip():
            self.error.setText(self.language.tr("rulebook_new_file_required"))
            self.path.setFocus()
            return False
        try:
            text = new_rulebook_text(self.rule_id.text().strip(), str(self.base.currentData()))
            self.written = write_new_file(self.path.text().strip(), text)
        except RulebookError as exc:
            self.error.setText(describe(exc, self.language.lang))
            (self.rule_id if exc.field == "id" else self.path).setFocus()
            return False
        self.accept()
        return True


class TrialDialog(QDialog):
    """试判…: the draft's rulings on the sample hands beside the bundled rulebook's, the
    differences flagged in red; the chief referee's own case files may be added."""

    def __init__(self, language: Language, draft: Rulebook, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from ..app.trial import based_on
        from ..core.rulebook import bundled_ids

        self.language = language
        self.draft = draft
        tr = language.tr
        self.setWindowTitle(tr("trial_title", id=draft.id))
        self.own: list[Path] = []
        self.against = QComboBox()
        for rid in bundled_ids():
            self.against.addItem(rid, rid)
        base = based_on(draft) or (draft.id if draft.id in bundled_ids() else None)
        if base is not None:
            self.against.setCurrentIndex(self.against.findData(base))
        self.add_cases = QPushButton(tr("trial_add_cases"))
        self.add_cases.clicked.connect(self.pick_cases)
        self.run_button = QPushButton(tr("trial_run"))
        self.run_button.clicked.connect(self.run)
        top = QHBoxLayout()
        top.addWidget(QLabel(tr("trial_against")))
        top.addWidget(self.against, 1)
        top.addWidget(self.add_cases)
        top.addWidget(self.run_button)
        self.own_label = QLabel()
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.report = QTextEdit()
        self.report.setReadOnly(True)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.own_label)
        layout.addWidget(self.summary)
        layout.addWidget(self.report, 1)
        layout.addWidget(close)
        self.against.currentIndexChanged.connect(lambda: self.run())

    def pick_cases(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self, self.language.tr("trial_add_cases"), "", "JSON (*.json)", options=FILE_DIALOG
        )
        if paths:
            self.add_case_files([Path(p) for p in paths])

    def add_case_files(self, paths: list[Path]) -> None:
        self.own += [p for p in paths if p not in self.own]
        self.own_label.setText(self.language.tr("trial_own", n=len(self.own)))
        self.run()

    def run(self) -> bool:
        """Judge the samples and show them: a differing sample in red with both rulebooks'
        rulings, an own case file that cannot be read said in the summary, nothing judged."""
        from ..app.trial import trial_report, try_rulebook
        from ..core.errors import Reported
        from ..core.rulebook import load_rulebook

        lang = self.language.lang
        base = load_rulebook(str(self.against.currentData()))
        try:
            trials = try_rulebook(self.draft, base, self.own, lang)
        except Reported as exc:
            self.summary.setText(describe(exc, lang))
            self.summary.setStyleSheet("color: #c62828;")
            return False
        lines = trial_report(trials, self.draft, base, lang)
        self.summary.setText(lines[-1])
        differing = any(t.differs for t in trials)
        self.summary.setStyleSheet("color: #c62828; font-weight: bold;" if differing else "color: #2e7d32;")
        shown: list[str] = []
        red = False
        for line in lines[1:-1]:
            if not line.startswith(" "):
                red = line.startswith("≠")
            style = "color:#c62828;" if red else ""
            style += "margin-left:2em;" if line.startswith(" ") else "font-weight:bold;margin-top:4px;"
            shown.append(f'<div style="{style}">{html.escape(line.strip())}</div>')
        self.report.setHtml("".join(shown))
        return True
