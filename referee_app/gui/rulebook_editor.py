"""The rulebook editor (编辑规则, issue 25): a new event's rulebook changed in the window, page by
page (scoring, bottom, levels, J rule, … each infraction kind), without knowing TOML or the
schema's keys.

The form is made from the schema (``app.rulebook_editor.fields``): every key shows its
Chinese label, what it does and the bundled rulebooks' values as examples; each clause (the
event's own text) sits beside the values it decides, with ``assumed`` and the note. Every
change goes into the file's own TOML document and is checked a moment after the typing
stops: every problem listed at once, each naming its field by its label, the fields marked.
Saving and trying go through the application layer (``save_draft``, the trial bench)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ..app.messages import describe, rulebook_word
from ..app.rulebook_editor import (
    FIXED,
    SPARSE,
    Draft,
    Field,
    Place,
    Section,
    examples,
    fields,
    kinds_to_add,
    open_draft,
    place,
    problem_lines,
    save_draft,
    section_title,
)
from ..app.trial import BASED_ON
from .i18n import Language

#: how long after the last key the draft is checked (ms): typing is not held up by checks
CHECK_DELAY = 300
#: the lists of options whose order is their meaning (the first tie-break decides first)
_ORDERED = {"tie_breaks", "split_by"}
#: the lists whose items are shown on one line each (and the bundled lists as examples)
_ROWS = {"Band", "RedeclarationLimit"}
_MARK = "border: 2px solid #c62828;"
_HELP = "color: #546e7a; font-size: 10pt;"
_CLAUSE = (
    "QGroupBox { background: #f3f6f9; border: 1px solid #cfd8dc; border-radius: 4px; margin-top: 14px; }"
)
_CLAUSE += " QGroupBox::title { subcontrol-origin: margin; left: 6px; color: #37474f; }"


class RulebookEditor(QDialog):
    """The editor of one rulebook file. ``saved`` is what the last save did (None: not saved)."""

    def __init__(self, language: Language, path: str | Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = language
        self.lang = language.lang
        tr = language.tr
        self.draft: Draft = open_draft(path)
        self.saved: Any = None
        self.trial: QDialog | None = None
        found = BASED_ON.search(self.draft.saved_text)
        self.base = found.group(1) if found else None
        self.setWindowTitle(tr("editor_title", id=self.draft.value(("id",)) or "", file=self.draft.path.name))
        #: the field widgets of the page shown, by place (to mark those with problems)
        self.at: dict[str, QWidget] = {}
        self.problems_by_place: dict[str, str] = {}
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(CHECK_DELAY)
        self.timer.timeout.connect(self.check)

        self.sections = QListWidget()
        self.sections.setMinimumWidth(190)
        self.sections.setMaximumWidth(260)
        self.sections.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.sections.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.sections.currentRowChanged.connect(lambda _row: self.show_section())
        self.page_area = QScrollArea()
        self.page_area.setWidgetResizable(True)
        self.page_area.setFrameShape(QFrame.Shape.NoFrame)
        split = QSplitter()
        left = QWidget()
        left_box = QVBoxLayout(left)
        left_box.setContentsMargins(0, 0, 0, 0)
        left_box.addWidget(self.sections, 1)
        self.add_kind_button = QPushButton(tr("editor_add_kind"))
        self.add_kind_button.clicked.connect(self.ask_kind)
        self.add_counter_button = QPushButton(tr("editor_add_counter"))
        self.add_counter_button.clicked.connect(self.ask_counter)
        self.remove_entry_button = QPushButton(tr("editor_remove_entry"))
        self.remove_entry_button.clicked.connect(self.remove_entry)
        for button in (self.add_kind_button, self.add_counter_button, self.remove_entry_button):
            left_box.addWidget(button)
        split.addWidget(left)
        split.addWidget(self.page_area)
        split.setStretchFactor(1, 1)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.problem_list = QListWidget()
        self.problem_list.setStyleSheet("color: #c62828;")
        self.problem_list.setWordWrap(True)
        self.problem_list.itemClicked.connect(self.go_to_problem)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.save_button = QPushButton(tr("editor_save"))
        self.save_button.clicked.connect(self.save)
        self.trial_button = QPushButton(tr("editor_trial"))
        self.trial_button.clicked.connect(self.trial_bench)
        buttons = QDialogButtonBox()
        buttons.addButton(self.trial_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.close_button = buttons.addButton(tr("editor_close"), QDialogButtonBox.ButtonRole.RejectRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        self.based: QLabel | None = None
        if self.base is not None:
            self.based = QLabel(tr("editor_based_on", base=self.base))
            self.based.setStyleSheet(_HELP)
            layout.addWidget(self.based)
        layout.addWidget(split, 1)
        layout.addWidget(self.summary)
        layout.addWidget(self.problem_list)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(buttons)
        layout.addLayout(bottom)
        self.fill_sections()
        self.check()
        language.changed.connect(self.retranslate)
        # the window's language outlives the editor: closed, it no longer follows it
        self.finished.connect(lambda _result: language.changed.disconnect(self.retranslate))

    def retranslate(self, lang: str) -> None:
        """The window's language switched while the editor is open: its words, the page's
        labels and help, and the problems, in the new language (what is typed stays)."""
        self.lang = lang
        tr = self.language.tr
        self.setWindowTitle(tr("editor_title", id=self.draft.value(("id",)) or "", file=self.draft.path.name))
        if self.based is not None:
            self.based.setText(tr("editor_based_on", base=self.base))
        for button, name in (
            (self.add_kind_button, "editor_add_kind"),
            (self.add_counter_button, "editor_add_counter"),
            (self.remove_entry_button, "editor_remove_entry"),
            (self.save_button, "editor_save"),
            (self.trial_button, "editor_trial"),
            (self.close_button, "editor_close"),
        ):
            button.setText(tr(name))
        self.status.setText("")
        self.fill_sections()
        self.check()

    # -- the sections -----------------------------------------------------------------------

    def all_sections(self) -> list[Section]:
        out = list(FIXED)
        for name in self.draft.names(("counters",)):
            out.append(Section(f"counter:{name}", ("counters", name), "Counter"))
        for name in self.draft.names(("infractions",)):
            out.append(Section(f"kind:{name}", ("infractions", name), "Infraction"))
        return out

    def section_name(self, section: Section) -> str:
        tr = self.language.tr
        if section.key.startswith("counter:"):
            # a counter named after a kind (exposed_card) is named by that kind's label
            return tr("editor_counter", name=self.kind_label(str(section.path[-1])))
        if section.key.startswith("kind:"):
            return tr("editor_kind", label=self.kind_label(str(section.path[-1])))
        if section.title is not None:
            return section.title[0 if self.lang == "zh" else 1]
        words = section_title(section.model, self.lang)
        return words[:1].upper() + words[1:]  # a heading (the words are written for inside a line)

    def kind_label(self, kind: str) -> str:
        """The words of an infraction kind in the window's language: the event's own label,
        else the built-in kind's, else its id (a counter of the event's own naming)."""
        own = self.draft.value(("infractions", kind, "label", self.lang))
        return str(own or rulebook_word(self.lang, "kind", kind) or kind)

    def fill_sections(self, select: str | None = None) -> None:
        current = select or self.current_key()
        self.sections.blockSignals(True)
        self.sections.clear()
        self.section_list = self.all_sections()
        row = 0
        for i, section in enumerate(self.section_list):
            item = QListWidgetItem(self.section_name(section))
            item.setData(Qt.ItemDataRole.UserRole, section.key)
            self.sections.addItem(item)
            if section.key == current:
                row = i
        self.sections.blockSignals(False)
        self.sections.setCurrentRow(row)
        self.show_section()

    def current_key(self) -> str | None:
        item = self.sections.currentItem()
        return str(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None

    def current_section(self) -> Section:
        row = max(0, self.sections.currentRow())
        return self.section_list[row]

    def select(self, key: str) -> None:
        for i, section in enumerate(self.section_list):
            if section.key == key:
                self.sections.setCurrentRow(i)
                return
        raise KeyError(key)

    def show_section(self) -> None:
        """Build the page of the section chosen from the draft as it is now."""
        if not getattr(self, "section_list", None):
            return
        section = self.current_section()
        kept = self.page_area.verticalScrollBar().value()
        self.at = {}
        page = QWidget()
        box = QVBoxLayout(page)
        heading = QLabel(f"<b>{self.section_name(section)}</b>")
        heading.setStyleSheet("font-size: 13pt;")
        box.addWidget(heading)
        shown = [f for f in fields(section.model) if section.shows(f.name)]
        if len(shown) == 1 and shown[0].kind == "part":  # a page of one part (the J rule)
            box.addWidget(self.optional_part(shown[0], (*section.path, shown[0].name), top=True))
        else:
            box.addWidget(self.part_form(section.model, section.path, section.shows, top=True))
        box.addStretch(1)
        self.remove_entry_button.setEnabled(section.key.startswith(("kind:", "counter:")))
        # the old page goes once its signals are done (the check or button that rebuilt it
        # is on it): deleted now, Qt would return into a widget that is gone
        old = self.page_area.takeWidget()
        if old is not None:
            old.hide()
            old.deleteLater()
        self.page_area.setWidget(page)
        QTimer.singleShot(0, lambda: self.page_area.verticalScrollBar().setValue(kept))
        self.mark_problems()

    def drop(self, where: Place) -> None:
        """A key, an item or an entry taken out of the draft (its remove button)."""
        self.draft.remove(where)
        self.rebuild()

    def add_item(self, where: Place, model: str) -> None:
        self.draft.add_item(where, model)
        self.rebuild()

    def rebuild(self) -> None:
        """After a change of shape (an item added or removed): the page again, checked now."""
        self.show_section()
        self.changed()

    # -- a part's form ----------------------------------------------------------------------

    def part_form(
        self, model: str, path: Place, shows: Callable[[str], bool] = lambda _n: True, *, top: bool = False
    ) -> QWidget:
        """The keys of the part at ``path``: its values on the left, its clauses (the event's
        text) on their right at the top of a page, under them inside a part."""
        holder = QWidget()
        values = QFormLayout()
        values.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        values.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        clauses = QVBoxLayout()
        addable: list[Field] = []
        for field in fields(model):
            if not shows(field.name):
                continue
            where = (*path, field.name)
            if model in SPARSE and not self.draft.has(where):
                addable.append(field)
                continue
            if field.kind == "clause":
                clauses.addWidget(self.clause_box(field, where))
                continue
            self.field_row(values, field, where, removable=model in SPARSE)
        if addable:  # a condition or a sanction's part to add: chosen, then 添加一项
            line = QHBoxLayout()
            add = QComboBox()
            add.setObjectName(f"add-key:{place(path)}")
            for field in addable:
                add.addItem(field.label(self.lang), field.name)
            line.addWidget(add, 1)
            button = QPushButton(self.language.tr("editor_add_item"))
            button.setObjectName(f"add-key-button:{place(path)}")
            button.clicked.connect(lambda _c=False, c=add: self._add_key(path, model, c.currentData()))
            line.addWidget(button)
            values.addRow(self.language.tr("editor_add_key"), line)
        if top and clauses.count():  # a page with the event's clauses: they go on the right
            row = QHBoxLayout(holder)
            row.setContentsMargins(0, 0, 0, 0)
            left = QWidget()
            column = QVBoxLayout(left)
            column.setContentsMargins(0, 0, 0, 0)
            column.addLayout(values)
            column.addStretch(1)  # the rows keep their height beside a taller clause column
            row.addWidget(left, 3)
            right = QWidget()
            right.setLayout(clauses)
            clauses.addStretch(1)
            row.addWidget(right, 2)
        else:
            column = QVBoxLayout(holder)
            column.setContentsMargins(0, 0, 0, 0)
            column.addLayout(values)
            column.addLayout(clauses)
        return holder

    def _add_key(self, path: Place, model: str, name: str | None) -> None:
        if name is None:
            return
        field = next(f for f in fields(model) if f.name == name)
        # a check added is one that holds (true): false is what leaving it out says
        first = True if field.kind == "bool" else self.draft.first_value(field, inline=True)
        self.draft.set((*path, name), first)
        self.rebuild()

    def help_label(self, field: Field, where: Place) -> QLabel:
        """What a key does and the bundled rulebooks' values, under its field."""
        text = field.effect(self.lang)
        plain = field.kind not in ("clause", "named", "part", "bool_or_part", "parts")
        shown = examples(where, field, self.lang) if plain or field.model in _ROWS else []
        said = "；".join(f"{rid} {value}" for rid, value in shown[:3] if value)
        if said:
            text += ("\n" if text else "") + self.language.tr("editor_example", examples=said)
        label = QLabel(text)
        label.setWordWrap(True)
        label.setStyleSheet(_HELP)
        return label

    def field_row(self, form: QFormLayout, field: Field, where: Place, *, removable: bool = False) -> None:
        title = QLabel(field.label(self.lang))
        title.setToolTip(place(where))
        title.setStyleSheet("font-weight: bold;")
        title.setWordWrap(True)
        cell = QWidget()
        column = QVBoxLayout(cell)
        column.setContentsMargins(0, 0, 0, 4)
        widget = self.field_widget(field, where)
        boxed = field.kind in ("part", "parts", "named")
        if boxed:  # what a part is for, above its box (its box may be long)
            column.addWidget(self.help_label(field, where))
        if removable:
            line = QHBoxLayout()
            line.addWidget(widget, 1)
            drop = QPushButton(self.language.tr("editor_remove"))
            drop.clicked.connect(lambda: self.drop(where))
            line.addWidget(drop)
            column.addLayout(line)
        else:
            column.addWidget(widget)
        if not boxed:
            column.addWidget(self.help_label(field, where))
        if boxed:
            form.addRow(cell)
            cell.layout().setContentsMargins(0, 6, 0, 6)  # type: ignore[union-attr]
        else:
            form.addRow(title, cell)

    def field_widget(self, field: Field, where: Place) -> QWidget:
        value = self.draft.value(where)
        tr = self.language.tr
        kind = field.kind
        widget: QWidget
        if kind == "str" and field.name in ("counter", "rest_counter"):
            # a rule's counter: one of the counters the draft defines (a new name is typed)
            combo = QComboBox()
            combo.setEditable(True)
            combo.addItem("", None)
            for name in self.draft.names(("counters",)):
                combo.addItem(name, name)
            combo.setCurrentText("" if value is None else str(value))
            combo.currentTextChanged.connect(lambda text: self.put(where, _typed(text, "str")))
            widget = combo
        elif kind == "int" or kind == "str":
            edit = QLineEdit("" if value is None else str(value))
            edit.setCursorPosition(0)  # a long text shown from its start
            if kind == "int" and field.key.default is not None:
                edit.setPlaceholderText(str(field.key.default))
            # a key that must be given, emptied: kept in its place, its problem named
            edit.textChanged.connect(
                lambda text: self.put(where, _typed(text, kind) if field.optional or text.strip() else "")
            )
            widget = edit
        elif kind == "bool" and field.optional and field.key.default is None:
            combo = QComboBox()
            for text, data in ((tr("editor_any"), None), (tr("editor_yes"), True), (tr("editor_no"), False)):
                combo.addItem(text, data)
            combo.setCurrentIndex(combo.findData(value) if value is not None else 0)
            combo.currentIndexChanged.connect(lambda _i, c=combo: self.put(where, c.currentData()))
            widget = combo
        elif kind == "bool":
            check = QCheckBox(tr("editor_yes"))
            check.setChecked(bool(value if value is not None else field.key.default))
            check.toggled.connect(lambda on: self.put(where, _or_default(on, field)))
            widget = check
        elif kind == "choice":
            combo = QComboBox()
            if field.optional:
                combo.addItem(tr("editor_unset"), None)
            for option in field.options or ():
                words = field.option_label(option, self.lang)
                combo.addItem(words if words == str(option) else f"{words}（{option}）", option)
            found = combo.findData(value) if value is not None else 0
            combo.setCurrentIndex(max(found, 0))
            combo.currentIndexChanged.connect(lambda _i, c=combo: self.put(where, c.currentData()))
            widget = combo
        elif kind == "choices":
            widget = self.choices_widget(field, where, value)
        elif kind == "pair":
            widget = QWidget()
            line = QHBoxLayout(widget)
            line.setContentsMargins(0, 0, 0, 0)
            low, high = (value or [None, None])[:2] if isinstance(value, list) else (None, None)
            edits = [QLineEdit("" if v is None else str(v)) for v in (low, high)]
            for edit in edits:
                line.addWidget(edit)
                edit.textChanged.connect(
                    lambda _t: self.put(
                        where,
                        None
                        if not any(e.text().strip() for e in edits)
                        else [_typed(e.text(), "int") for e in edits],
                    )
                )
        elif kind == "text":
            widget = self.text_widget(where, value)
        elif kind == "part":
            widget = self.optional_part(field, where)
        elif kind == "parts":
            widget = self.parts_widget(field, where)
        elif kind == "named":
            widget = self.named_widget(field, where)
        elif kind == "bool_or_part":
            widget = self.bool_or_part(field, where, value)
        else:  # pragma: no cover - every kind the schema has is above
            widget = QLabel(str(value))
        self.at[place(where)] = widget
        return widget

    def text_widget(self, where: Place, value: Any) -> QWidget:
        widget = QWidget()
        line = QFormLayout(widget)
        line.setContentsMargins(0, 0, 0, 0)
        for lang in ("zh", "en"):
            edit = QLineEdit(str((value or {}).get(lang, "")) if isinstance(value, dict) else "")
            edit.setCursorPosition(0)
            edit.setPlaceholderText(self.language.tr(f"editor_{lang}"))
            edit.setObjectName(f"{place(where)}.{lang}")
            edit.textChanged.connect(lambda text, lang=lang: self.put((*where, lang), text))
            self.at[place((*where, lang))] = edit
            line.addRow(self.language.tr(f"editor_{lang}"), edit)
        return widget

    def choices_widget(self, field: Field, where: Place, value: Any) -> QWidget:
        """Several of the options: where their order is the meaning (tie-breaks) a list, the
        checked ones given in the order dragged; else a check for each, in the options' order."""
        chosen = [v for v in (value or []) if v in (field.options or ())]
        if field.name not in _ORDERED:
            return self.checks_widget(field, where, chosen)
        box = QListWidget()
        box.setDragDropMode(QListWidget.DragDropMode.InternalMove)
        ordered = chosen + [o for o in field.options or () if o not in chosen]
        for option in ordered:
            words = field.option_label(option, self.lang)
            item = QListWidgetItem(words if words == str(option) else f"{words}（{option}）")
            item.setData(Qt.ItemDataRole.UserRole, option)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsDragEnabled)
            item.setCheckState(Qt.CheckState.Checked if option in chosen else Qt.CheckState.Unchecked)
            box.addItem(item)
        # every option in view (up to 8; more, as the 14 kinds, scroll): the order is the meaning
        row = box.sizeHintForRow(0) if ordered else 20
        box.setFixedHeight(row * min(len(ordered), 8) + 2 * box.frameWidth() + 4)

        def write() -> None:
            picked = [
                box.item(i).data(Qt.ItemDataRole.UserRole)
                for i in range(box.count())
                if box.item(i).checkState() == Qt.CheckState.Checked
            ]
            self.put(where, picked if picked or not field.optional else None)

        box.itemChanged.connect(lambda _item: write())
        box.model().rowsMoved.connect(lambda *_a: write())
        return box

    def checks_widget(self, field: Field, where: Place, chosen: list[Any]) -> QWidget:
        from PySide6.QtWidgets import QGridLayout

        widget = QWidget()
        grid = QGridLayout(widget)
        grid.setContentsMargins(0, 0, 0, 0)
        options = list(field.options or ())
        # levels seven a row; words (the 14 kinds) two a row, so the page never outgrows the
        # window (the clauses beside it stay in view at 1024 wide)
        columns = 7 if all(len(str(o)) <= 2 for o in options) else 2
        checks: list[tuple[Any, QCheckBox]] = []
        for i, option in enumerate(options):
            check = QCheckBox(field.option_label(option, self.lang))
            check.setToolTip(str(option))
            check.setChecked(option in chosen)
            checks.append((option, check))
            grid.addWidget(check, i // columns, i % columns)

        def write() -> None:
            picked = [o for o, c in checks if c.isChecked()]
            self.put(where, picked if picked or not field.optional else None)

        for _option, check in checks:
            check.toggled.connect(lambda _on: write())
        return widget

    def optional_part(self, field: Field, where: Place, *, top: bool = False) -> QWidget:
        """A part of its own (the J rule, an award): a box, which an optional part's check
        adds to the file or takes out of it."""
        box = QGroupBox(field.label(self.lang))
        box.setObjectName(f"part:{place(where)}")
        inner = QVBoxLayout(box)
        if field.optional:
            box.setCheckable(True)
            box.setChecked(self.draft.has(where))
            box.toggled.connect(lambda on: self._toggle_part(where, field, on))
        if top:  # what the part does, also while the event has none (tick it to write one)
            inner.addWidget(self.help_label(field, where))
        if self.draft.has(where) and field.model is not None:
            inner.addWidget(self.part_form(field.model, where, top=top))
        return box

    def _toggle_part(self, where: Place, field: Field, on: bool) -> None:
        if on and not self.draft.has(where):
            self.draft.set(where, self.draft.new_part(field.model or "Text", where))
        elif not on:
            self.draft.remove(where)
        self.rebuild()

    def parts_widget(self, field: Field, where: Place) -> QWidget:
        """A list of parts (bands, rules, steps): each with its remove button, one to add."""
        box = QGroupBox(field.label(self.lang))
        column = QVBoxLayout(box)
        model = field.model or "Text"
        small = (
            all(f.kind in ("int", "str", "choice", "bool") for f in fields(model)) and len(fields(model)) <= 3
        )
        for index in range(self.draft.length(where)):
            item_place = (*where, index)
            if small:  # a band: its keys on one line
                line = QHBoxLayout()
                line.addWidget(QLabel(self.language.tr("editor_item", n=index + 1)))
                for sub in fields(model):
                    line.addWidget(QLabel(sub.label(self.lang)))
                    line.addWidget(self.field_widget(sub, (*item_place, sub.name)), 1)
                line.addWidget(self._remove_button(item_place))
                column.addLayout(line)
                continue
            item = QGroupBox(self.language.tr("editor_item", n=index + 1))
            item.setObjectName(place(item_place))
            inner = QVBoxLayout(item)
            head = QHBoxLayout()
            head.addStretch(1)
            head.addWidget(self._remove_button(item_place))
            inner.addLayout(head)
            inner.addWidget(self.part_form(model, item_place))
            self.at[place(item_place)] = item
            column.addWidget(item)
        add = QPushButton(self.language.tr("editor_add_item"))
        add.setObjectName(f"add:{place(where)}")
        add.clicked.connect(lambda: self.add_item(where, model))
        column.addWidget(add, 0, Qt.AlignmentFlag.AlignLeft)
        return box

    def _remove_button(self, item_place: Place) -> QPushButton:
        drop = QPushButton(self.language.tr("editor_remove"))
        drop.setObjectName(f"remove:{place(item_place)}")
        drop.clicked.connect(lambda: self.drop(item_place))
        return drop

    def named_widget(self, field: Field, where: Place) -> QWidget:
        """A table of parts by name (the standings' readings): each with its remove button,
        a name to add."""
        box = QGroupBox(field.label(self.lang))
        column = QVBoxLayout(box)
        have = self.draft.names(where)
        for name in have:
            entry = (*where, name)
            words = field.option_label(name, self.lang)
            sub = Field(field.key, "clause", True, "Clause")
            clause = self.clause_box(sub, entry, title=words, removable=True)
            column.addWidget(clause)
        missing = [o for o in field.options or () if o not in have]
        if missing:
            add = QComboBox()
            add.addItem(self.language.tr("editor_add_key"), None)
            for option in missing:
                add.addItem(field.option_label(option, self.lang), option)

            def added(index: int) -> None:
                name = add.itemData(index)
                if name is not None:
                    self.draft.set(
                        (*where, name), self.draft.new_part(field.model or "Clause", (*where, name))
                    )
                    self.rebuild()

            add.activated.connect(added)
            column.addWidget(add)
        return box

    def bool_or_part(self, field: Field, where: Place, value: Any) -> QWidget:
        """A sanction's hand loss: no, the event's award, or an award of its own."""
        widget = QWidget()
        column = QVBoxLayout(widget)
        column.setContentsMargins(0, 0, 0, 0)
        combo = QComboBox()
        tr = self.language.tr
        combo.addItem(tr("editor_no"), "no")
        combo.addItem(tr("editor_hand_loss_default"), "yes")
        combo.addItem(tr("editor_award"), "part")
        combo.setCurrentIndex(2 if isinstance(value, dict) else 1 if value else 0)

        def chose(_index: int) -> None:
            data = combo.currentData()
            if data == "part":
                self.draft.set(where, self.draft.new_part(field.model or "Award", where, inline=True))
            else:
                self.draft.set(where, True if data == "yes" else None)
            self.rebuild()

        combo.currentIndexChanged.connect(chose)
        column.addWidget(combo)
        if isinstance(value, dict) and field.model is not None:
            column.addWidget(self.part_form(field.model, where))
        return widget

    def clause_box(
        self, field: Field, where: Place, *, title: str | None = None, removable: bool = False
    ) -> QGroupBox:
        """A clause: the event's reference, title and text (Chinese, English), whether the text
        is silent here (``assumed``) and the reading's note."""
        tr = self.language.tr
        words = title or field.label(self.lang)
        box = QGroupBox(words if "条款" in words or "lause" in words else tr("editor_clause", label=words))
        box.setStyleSheet(_CLAUSE)
        box.setObjectName(place(where))
        self.at[place(where)] = box
        if field.optional and not removable:
            box.setCheckable(True)
            box.setChecked(self.draft.has(where))
            box.toggled.connect(lambda on: self._toggle_part(where, field, on))
        column = QVBoxLayout(box)
        said = field.effect(self.lang)
        if said and title is None:
            help_text = QLabel(said)
            help_text.setWordWrap(True)
            help_text.setStyleSheet(_HELP)
            column.addWidget(help_text)
        if removable:
            drop = QPushButton(tr("editor_remove"))
            drop.clicked.connect(lambda: self.drop(where))
            column.addWidget(drop, 0, Qt.AlignmentFlag.AlignRight)
        if not self.draft.has(where):
            return box
        form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        column.addLayout(form)
        value = self.draft.value(where) or {}
        for sub in fields("Clause"):
            sub_place = (*where, sub.name)
            words = sub.label(self.lang)
            current = value.get(sub.name) if isinstance(value, dict) else None
            widget: QWidget
            if sub.kind == "bool":
                check = QCheckBox(words)
                check.setToolTip(sub.effect(self.lang))
                check.setChecked(bool(current))
                check.toggled.connect(lambda on, p=sub_place, s=sub: self.put(p, _or_default(on, s)))
                form.addRow(check)
                self.at[place(sub_place)] = check
                continue
            if sub.name in ("zh", "en", "note"):
                text = QPlainTextEdit(str(current or ""))
                text.setTabChangesFocus(True)
                text.setFixedHeight(64 if sub.name == "zh" else 48)
                text.textChanged.connect(
                    lambda t=text, p=sub_place, s=sub: self.put(
                        p, t.toPlainText() if t.toPlainText() or not s.optional else None
                    )
                )
                widget = text
            else:
                edit = QLineEdit(str(current or ""))
                edit.setCursorPosition(0)
                edit.textChanged.connect(lambda t, p=sub_place: self.put(p, t))
                widget = edit
            widget.setToolTip(sub.effect(self.lang))
            label = QLabel(words)
            label.setToolTip(sub.effect(self.lang))
            form.addRow(label, widget)
            self.at[place(sub_place)] = widget
        return box

    # -- changes and checks -----------------------------------------------------------------

    def put(self, where: Place, value: Any) -> None:
        """A value typed or chosen: into the draft, checked a moment later."""
        self.draft.set(where, value)
        if len(where) == 4 and where[0] == "infractions" and where[2:] == ("label", self.lang):
            self.mark_sections(list(self.problems_by_place))  # the kind's page named anew
        self.changed()

    def changed(self) -> None:
        self.status.setText("")
        self.timer.start()

    def check(self) -> list[str]:
        """Every problem of the draft as it is now, listed, the fields marked; those fixed gone."""
        self.timer.stop()
        found = problem_lines(self.draft.problems(), self.lang, self.draft.own_kinds(self.lang))
        self.problem_list.clear()
        self.problems_by_place = {}
        for text, where in found:
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, where)
            self.problem_list.addItem(item)
            self.problems_by_place.setdefault(where, text)
        tr = self.language.tr
        self.summary.setText(tr("editor_problems", n=len(found)) if found else tr("editor_ok"))
        self.summary.setStyleSheet("color: #c62828; font-weight: bold;" if found else "color: #2e7d32;")
        self.problem_list.setVisible(bool(found))
        self.mark_sections([where for _text, where in found])
        if found:  # as tall as its lines, four at most (the page above keeps the room)
            row = self.problem_list.sizeHintForRow(0)
            self.problem_list.setFixedHeight(
                row * min(len(found), 4) + 2 * self.problem_list.frameWidth() + 4
            )
        self.mark_problems()
        return [text for text, _ in found]

    def mark_sections(self, places: list[str]) -> None:
        """Each page with problems in red in the list, with how many: found without paging."""
        from PySide6.QtGui import QBrush, QColor

        counts: dict[str, int] = {}
        for where in places:
            section = self.section_of(where)
            if section is not None:
                counts[section.key] = counts.get(section.key, 0) + 1
        for row, section in enumerate(self.section_list):
            item = self.sections.item(row)
            if item is None:
                continue
            n = counts.get(section.key, 0)
            name = self.section_name(section)
            item.setText(f"{name}（{n}）" if n else name)
            item.setForeground(QBrush(QColor("#c62828")) if n else QBrush())

    def mark_problems(self) -> None:
        """A red frame on each field shown that a problem names (or on the nearest part of it)."""
        for widget in self.at.values():
            if widget.property("marked"):
                widget.setStyleSheet(widget.property("own_style") or "")
                widget.setProperty("marked", False)
        for where, text in self.problems_by_place.items():
            found = self._widget_for(where)
            if found is None:
                continue
            if not found.property("marked"):
                found.setProperty("own_style", found.styleSheet())
            found.setProperty("marked", True)
            # the frame on this widget only: a property selector, which its children (a part's
            # fields and buttons) do not match
            kind = type(found).__name__
            room = " margin-top: 14px;" if isinstance(found, QGroupBox) else ""  # its title's place
            found.setStyleSheet(
                f'{found.property("own_style") or ""} {kind}[marked="true"] {{ {_MARK}{room} }}'
            )
            found.setToolTip(text)

    def _widget_for(self, where: str) -> QWidget | None:
        probe = where
        while probe:
            if probe in self.at:
                return self.at[probe]
            cut = max(probe.rfind("."), probe.rfind("["))
            probe = probe[:cut] if cut > 0 else ""
        return None

    def section_of(self, where: str) -> Section | None:
        parts = _parts(where)
        best: Section | None = None
        for section in self.section_list:
            n = len(section.path)
            if tuple(parts[:n]) != section.path or (len(parts) <= n and section.only is not None):
                continue
            if len(parts) > n and not section.shows(str(parts[n])):
                continue
            if best is None or n > len(best.path):
                best = section
        return best

    def go_to_problem(self, item: QListWidgetItem) -> None:
        where = str(item.data(Qt.ItemDataRole.UserRole) or "")
        section = self.section_of(where)
        if section is not None:
            self.select(section.key)
        widget = self._widget_for(where)
        if widget is not None:
            self.page_area.ensureWidgetVisible(widget)
            widget.setFocus()

    # -- entries: infraction kinds and counters ------------------------------------------------

    def add_kind(self, kind: str, label_zh: str = "", label_en: str = "", *, own: bool = False) -> bool:
        """A new infraction kind (one of the 14 the draft lacks, or the event's own): its page
        with one rule to fill."""
        if not re.fullmatch(r"[a-z][a-z0-9_]*", kind) or kind in self.draft.names(("infractions",)):
            return False
        where = ("infractions", kind)
        self.draft.add_entry(("infractions",), kind, "Infraction")
        words = rulebook_word("zh", "kind", kind), rulebook_word("en", "kind", kind)
        self.draft.set((*where, "label", "zh"), label_zh or words[0] or "")
        self.draft.set((*where, "label", "en"), label_en or words[1] or "")
        if own:
            self.draft.set((*where, "event_kind"), True)
        self.draft.set((*where, "rules", 0, "id"), "main")
        self.fill_sections(select=f"kind:{kind}")
        self.changed()
        return True

    def ask_kind(self) -> None:
        dialog = AddKindDialog(self.language, kinds_to_add(self.draft), self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.add_kind(*dialog.chosen(), own=dialog.own.isChecked())

    def add_counter(self, name: str) -> bool:
        if not re.fullmatch(r"[a-z0-9_]+", name) or name in self.draft.names(("counters",)):
            return False
        self.draft.add_entry(("counters",), name, "Counter")
        self.fill_sections(select=f"counter:{name}")
        self.changed()
        return True

    def ask_counter(self) -> None:
        name, ok = QInputDialog.getText(
            self, self.language.tr("editor_add_counter"), self.language.tr("editor_counter_name")
        )
        if ok and name.strip():
            self.add_counter(name.strip())

    def remove_entry(self) -> None:
        section = self.current_section()
        if not section.key.startswith(("kind:", "counter:")):
            return
        self.draft.remove(section.path)
        self.fill_sections(select="event")
        self.changed()

    # -- saving and trying --------------------------------------------------------------------

    def save(self) -> bool:
        """Write the draft to its file (through the application layer); True when it is a
        rulebook an event can use."""
        from ..core.errors import Reported

        try:
            self.saved = save_draft(self.draft)
        except Reported as exc:
            self.status.setText(describe(exc, self.lang))
            self.status.setStyleSheet("color: #c62828;")
            return False
        tr = self.language.tr
        n = len(self.saved.problems)
        file = str(self.saved.path)
        self.status.setText(
            tr("editor_saved_problems", file=file, n=n) if n else tr("editor_saved", file=file)
        )
        self.status.setStyleSheet("color: #c62828;" if n else "color: #2e7d32;")
        self.check()
        return n == 0

    def trial_bench(self) -> QDialog | None:
        """试判: the draft as it is now judged on the bundled examples of its kinds, beside the
        bundled rulebook it was copied from (the dialog stays open beside the editor)."""
        from ..core.errors import Reported
        from .rulebook_dialogs import TrialDialog

        problems = self.check()
        if problems:
            self.status.setText(self.language.tr("editor_fix_first", n=len(problems)))
            self.status.setStyleSheet("color: #c62828;")
            return None
        try:
            rulebook = self.draft.rulebook()
        except Reported as exc:
            self.status.setText(describe(exc, self.lang))
            return None
        trial = self.trial = TrialDialog(self.language, rulebook, self)
        trial.resize(min(1000, self.width()), min(600, self.height()))
        trial.run()
        trial.show()
        return trial

    def reject(self) -> None:
        if self.draft.changed:
            answer = QMessageBox.question(
                self,
                self.windowTitle(),
                self.language.tr("editor_unsaved"),
                QMessageBox.StandardButton.Save
                | QMessageBox.StandardButton.Discard
                | QMessageBox.StandardButton.Cancel,
            )
            if answer == QMessageBox.StandardButton.Cancel:
                return
            if answer == QMessageBox.StandardButton.Save:
                self.save()
        super().reject()


class AddKindDialog(QDialog):
    """添加违规: one of the 14 kinds the draft lacks, or a kind of the event's own (its id and
    its Chinese and English names)."""

    def __init__(self, language: Language, missing: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        tr = language.tr
        self.setWindowTitle(tr("editor_kind_title"))
        self.builtin = QRadioButton(tr("editor_kind_builtin"))
        self.own = QRadioButton(tr("editor_kind_own"))
        self.kinds = QComboBox()
        for kind in missing:
            self.kinds.addItem(rulebook_word(language.lang, "kind", kind) or kind, kind)
        self.builtin.setEnabled(bool(missing))
        (self.builtin if missing else self.own).setChecked(True)
        self.kind_id = QLineEdit()
        self.label_zh = QLineEdit()
        self.label_en = QLineEdit()
        form = QFormLayout(self)
        form.addRow(self.builtin)
        form.addRow("", self.kinds)
        form.addRow(self.own)
        form.addRow(tr("editor_kind_id"), self.kind_id)
        form.addRow(tr("editor_kind_label_zh"), self.label_zh)
        form.addRow(tr("editor_kind_label_en"), self.label_en)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def chosen(self) -> tuple[str, str, str]:
        if self.builtin.isChecked():
            return str(self.kinds.currentData()), "", ""
        return self.kind_id.text().strip(), self.label_zh.text().strip(), self.label_en.text().strip()


def _typed(text: str, kind: str) -> Any:
    """What a typed field holds: nothing (the key left out), a whole number, or the text as
    typed (a number that is not one is kept, and its problem named)."""
    text = text.strip()
    if not text:
        return None
    if kind == "int":
        try:
            return int(text)
        except ValueError:
            return text
    return text


def _or_default(on: bool, field: Field) -> bool | None:
    """A check's value, left out of the file where it is the key's default."""
    if field.optional and field.key.default is not None and on == field.key.default:
        return None
    return on


def _parts(where: str) -> list[str | int]:
    return [int(i) if i else k for k, i in re.findall(r"([^.\[\]]+)|\[(\d+)\]", where)]
