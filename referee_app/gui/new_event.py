"""Creating an event: its name, date, and the rulebook it runs under."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QDate
from PySide6.QtWidgets import (
    QComboBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QWidget,
)

from ..app.messages import describe
from .i18n import Language

if TYPE_CHECKING:
    from ..core.rulebook import Rulebook


def open_editor(editor: QWidget, over: QWidget | None) -> None:
    """The editor at the size of the screen it opens on (its pages are wide: values and the
    event's clauses side by side), never larger."""
    from PySide6.QtWidgets import QApplication

    screen = (over.screen() if over is not None else None) or QApplication.primaryScreen()
    area = screen.availableGeometry()
    editor.resize(min(1340, area.width() - 20), min(860, area.height() - 40))


class NewEventDialog(QDialog):
    """Create an event: name, date, and the rulebook it runs under (bundled or a file)."""

    def __init__(self, language: Language, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = language
        tr = language.tr
        self.setWindowTitle(tr("new_event"))
        self.setMinimumWidth(520)
        self.rulebook: Rulebook | None = None
        self.name = QLineEdit()
        self.name.setPlaceholderText(tr("event_name_hint"))
        self.date = QDateEdit(QDate.currentDate())
        self.date.setCalendarPopup(True)
        self.date.setDisplayFormat("yyyy-MM-dd")
        self.rules = QComboBox()
        from ..core.errors import RulebookError
        from ..core.rulebook import bundled_ids, load_rulebook

        for rid in bundled_ids():
            try:
                rb = load_rulebook(rid)
            except RulebookError:
                continue
            self.rules.addItem(rb.name(language.lang), rb)
        self.from_file = QPushButton(tr("rulebook_from_file"))
        self.from_file.clicked.connect(self.pick_file)
        # a new event's own rulebook: copied from a bundled one, tried before the event
        self.new_rules = QPushButton(tr("rulebook_new"))
        self.new_rules.clicked.connect(self.new_rulebook)
        self.try_rules = QPushButton(tr("rulebook_try"))
        self.try_rules.clicked.connect(self.try_rulebook)
        # the chosen rulebook file changed in the window's editor, page by page
        self.edit_rules = QPushButton(tr("rulebook_edit"))
        self.edit_rules.clicked.connect(lambda: self.edit_rulebook())
        rules_row = QHBoxLayout()
        rules_row.addWidget(self.rules, 1)
        rules_row.addWidget(self.from_file)
        rules_row.addWidget(self.new_rules)
        rules_row.addWidget(self.edit_rules)
        rules_row.addWidget(self.try_rules)
        self.rule_info = QLabel()
        self.rule_info.setWordWrap(True)
        self.rule_info.setStyleSheet("color: #455a64;")
        self.error = QLabel()
        self.error.setStyleSheet("color: #c62828;")
        self.error.setWordWrap(True)
        # every problem of a rulebook file at once, one a line (its author fixes them in one go)
        self.problems = QPlainTextEdit()
        self.problems.setReadOnly(True)
        self.problems.setStyleSheet("color: #c62828;")
        self.problems.setMaximumHeight(180)
        self.problems.setVisible(False)
        form = QFormLayout(self)
        form.addRow(tr("event_name"), self.name)
        form.addRow(tr("event_date"), self.date)
        form.addRow(tr("rulebook"), rules_row)
        form.addRow("", self.rule_info)
        form.addRow(self.error)
        form.addRow(self.problems)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.rules.currentIndexChanged.connect(self.show_rulebook)
        self.name.textChanged.connect(lambda: self.error.setText(""))
        self.show_rulebook()

    def show_rulebook(self) -> None:
        rb = self.rules.currentData()
        self.rulebook = rb
        if rb is None:
            self.rule_info.setText("")
            return
        event = rb.data["event"]
        self.rule_info.setText(
            f"{event['organiser'][self.language.lang]}<br>{self.language.tr('rulebook_source')}: "
            f"{event['source']}<br>{rb.id} · sha256 {rb.sha256[:12]}"
        )

    def pick_file(self) -> None:
        from .widgets import FILE_DIALOG

        path, _ = QFileDialog.getOpenFileName(
            self, self.language.tr("rulebook_from_file"), "", "TOML (*.toml)", options=FILE_DIALOG
        )
        if path:
            self.load_file(path)

    def load_file(self, path: str) -> bool:
        """Load a rulebook file: on success any earlier file's problems are cleared; else
        every problem of this one is listed, each with its field in words and its line."""
        from ..app.rulebooks import open_rulebook_file

        rb, problems = open_rulebook_file(path)
        if rb is None:
            lines = [describe(p, self.language.lang) for p in problems]
            several = self.language.tr("rulebook_problems", n=len(lines))
            self.error.setText(several if len(lines) > 1 else lines[0])
            self.problems.setPlainText("\n".join(lines))
            self.problems.setVisible(len(lines) > 1)
            return False
        self.error.setText("")
        self.problems.clear()
        self.problems.setVisible(False)
        for index in reversed(range(self.rules.count())):  # the file loaded before (edited since)
            if getattr(self.rules.itemData(index), "origin", None) == rb.origin:
                self.rules.removeItem(index)
        self.rules.addItem(f"{rb.name(self.language.lang)} ({path})", rb)
        self.rules.setCurrentIndex(self.rules.count() - 1)
        return True

    def new_rulebook(self) -> Path | None:
        """新建规则…: a bundled rulebook (the one chosen, if bundled) copied to a file the
        user picks, opened in the rulebook editor, then loaded here as the event's rulebook."""
        from .rulebook_dialogs import NewRulebookDialog

        current = self.rules.currentData()
        dialog = NewRulebookDialog(self.language, current.id if current is not None else None, self)
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.written is None:
            return None
        self.load_file(str(dialog.written))
        self.edit_rulebook(dialog.written)
        return dialog.written

    def edit_rulebook(self, path: Path | None = None) -> bool:
        """编辑规则…: the chosen rulebook's file in the editor (a bundled one is copied first:
        新建规则…), loaded again here once the editor closes, with what it now says."""
        from ..locations import rules_dir
        from .rulebook_editor import RulebookEditor

        if path is None:
            current = self.rules.currentData()
            origin = Path(current.origin) if current is not None else None
            if origin is None or origin.parent == rules_dir():
                self.error.setText(self.language.tr("rulebook_edit_bundled"))
                return False
            path = origin
        from ..core.errors import Reported

        try:
            editor = RulebookEditor(self.language, path, self)
        except Reported as exc:  # a file no longer TOML (edited elsewhere): said beside the list
            self.error.setText(describe(exc, self.language.lang))
            return False
        open_editor(editor, self.window())
        editor.exec()
        if editor.saved is not None:
            self.load_file(str(path))
        return editor.saved is not None

    def try_rulebook(self) -> None:
        """试判…: the chosen rulebook judged on the sample hands beside its bundled one."""
        from .rulebook_dialogs import TrialDialog

        if self.rulebook is None:
            return
        dialog = TrialDialog(self.language, self.rulebook, self)
        dialog.resize(min(1100, self.window().width() or 1100), 640)
        dialog.run()
        dialog.exec()

    def _accept(self) -> None:
        if not self.name.text().strip():
            self.error.setText(self.language.tr("event_name_required"))
            self.name.setFocus()
            return
        if self.rulebook is None:
            self.error.setText(self.language.tr("rulebook_required"))
            return
        self.accept()
