"""The rulebook editor's operations (编辑规则): a rulebook file opened as a draft, changed key by
key by the window's editor, checked as it is typed, and saved back as readable TOML.

The file stays the truth: the draft is the file's own TOML document (tomlkit), so a change
touches only the value changed and the file keeps its comments, its key order and its
layout (one key a line, a clause an inline table on its line); what the editor adds is
written the same way. Every problem is found on the text the draft would save
(:func:`referee_app.core.rulebook.validate_text`), so the editor and ``rules check`` say the
same thing, each problem naming its field by the rulebook's words.

What the editor shows of each key (its kind of value, its options, its label, what it does,
an example) is read from the schema and the words here, so the window builds its form from
the schema and adds nothing of its own.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import AoT, Array, InlineTable

from ..core.errors import RulebookError
from ..core.rulebook import (
    Rulebook,
    bundled_ids,
    is_table,
    item_type,
    load_rulebook,
    models_of,
    rulebook_from_text,
    type_args,
    validate_text,
)
from .messages import describe
from .rulebook_reference import LEVELS, Key, effect, label, option_label, parts, section
from .rulebooks import write_new_file

#: A place in a rulebook: its keys and list items from the top (``("scoring", "dealer_bands", 1)``).
Place = tuple[str | int, ...]

#: The parts written as an inline table on their key's line (a clause, a text, a band): the
#: way the bundled rulebooks write them. The others are tables of their own ([scoring.j_rule]).
_INLINE = {
    "Clause",
    "Text",
    "Award",
    "LevelChange",
    "Range",
    "Band",
    "RedeclarationLimit",
    "Prize",
    "BlockerTiers",
}
_INLINE |= {"When", "Sanction"}
#: Parts whose keys may all be left out and are many: the editor shows those given and offers
#: the others to add (a rule's conditions, a sanction's parts), not a form of empty fields.
SPARSE = {"When", "Sanction"}

#: Parts that must say a thing one of several ways, each way optional keys (the J rule's
#: drops: by how many Js, or by which J): a new part starts with the first way's keys, so it
#: is whole once its values are filled.
_FIRST_WAY: dict[str, tuple[str, ...]] = {"JRule": ("single_to", "pair_to")}


def place(path: Place) -> str:
    """A place as the problems name it (``scoring.dealer_bands[1].upto``)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out


# -- what a key is, for the form --------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """One key of a part as the editor shows it: ``kind`` the widget it needs —
    ``int``, ``str``, ``bool``, ``choice`` (one of ``options``), ``choices`` (several of
    ``options``, in order), ``pair`` ([low, high]), ``text`` (Chinese and English), ``clause``,
    ``part`` (a part of its own, ``model``), ``parts`` (a list of ``model``), ``named`` (a
    table of ``model`` by name, ``options`` the names it may take, None: any),
    ``bool_or_part`` (true/false, or a ``model``)."""

    key: Key
    kind: str
    optional: bool
    model: str | None = None
    options: tuple[Any, ...] | None = None

    @property
    def name(self) -> str:
        return self.key.name

    def label(self, lang: str) -> str:
        return label(self.key, lang)

    def effect(self, lang: str) -> str:
        return effect(self.key, lang)

    def option_label(self, value: Any, lang: str) -> str:
        if isinstance(value, str) and value not in LEVELS:
            return option_label(self.key, value, lang)
        return str(value)


def _literal_values(shape: Any) -> tuple[Any, ...] | None:
    if typing.get_origin(shape) is typing.Literal:
        return typing.get_args(shape)
    for arg in type_args(shape):
        found = _literal_values(arg)
        if found is not None:
            return found
    return None


def _field(key: Key) -> Field:
    shape = key.shape
    members = [a for a in type_args(shape) if a is not type(None)] if _is_optional(shape) else []
    optional = not key.required or _is_optional(shape)
    inner = members[0] if len(members) == 1 else shape
    models = models_of(inner)
    if shape is bool or inner is bool:
        return Field(key, "bool", optional)
    if inner is int:
        return Field(key, "int", optional)
    if inner is str:
        return Field(key, "str", optional)
    literal = _literal_values(inner) if typing.get_origin(inner) is typing.Literal else None
    if literal is not None:
        return Field(key, "choice", optional, options=literal)
    if is_table(inner):
        value = item_type(inner)
        names = _literal_values(typing.get_args(_dict_of(inner))[0])
        return Field(key, "named", optional, model=models_of(value)[0].__name__, options=names)
    origin = typing.get_origin(inner)
    if origin is typing.Annotated:
        inner = typing.get_args(inner)[0]
        origin = typing.get_origin(inner)
    if origin is tuple:
        return Field(key, "pair", optional)
    if origin is list:
        item = item_type(inner)
        item_models = models_of(item)
        if item_models:
            return Field(key, "parts", optional, model=item_models[0].__name__)
        return Field(key, "choices", optional, options=_literal_values(item))
    if len(members) > 1 and bool in members and models:  # a sanction's hand_loss: true or an award
        return Field(key, "bool_or_part", optional, model=models[0].__name__)
    if len(type_args(shape)) > 1 and bool in type_args(shape) and models:
        return Field(key, "bool_or_part", optional, model=models[0].__name__)
    if models:
        name = models[0].__name__
        kind = {"Clause": "clause", "Text": "text"}.get(name, "part")
        return Field(key, kind, optional, model=name)
    return Field(key, "str", optional)


def _is_optional(shape: Any) -> bool:
    return type(None) in type_args(shape) and typing.get_origin(shape) is not typing.Annotated


def _dict_of(shape: Any) -> Any:
    for candidate in (shape, *type_args(shape)):
        if typing.get_origin(candidate) is dict:
            return candidate
    return shape


@cache
def fields(model: str) -> tuple[Field, ...]:
    """The keys of a part of the rulebook (``Scoring``), in the schema's order, as the form
    shows them."""
    for part in parts():
        if part.model == model:
            return tuple(_field(k) for k in part.keys)
    raise KeyError(model)


def model_of(path: Place) -> str:
    """The part of the schema at ``path`` (``("infractions", "delay", "rules", 0)`` → ``Rule``)."""
    model = "RulebookModel"
    index = 0
    while index < len(path):
        by_name = {f.name: f for f in fields(model)}
        found = by_name[str(path[index])]
        index += 1
        if found.kind in ("parts", "named"):
            index += 1  # the item's index or the entry's name
        if found.model is None:
            raise KeyError(path)
        model = found.model
    return model


def section_title(model: str, lang: str) -> str:
    return section(model, lang)


# -- the editor's sections --------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    """One page of the editor: the part at ``path`` (the top for ``()``), with only the keys
    ``only`` (None: every key but those ``skip`` names: the keys other pages show)."""

    key: str
    path: Place
    model: str
    only: tuple[str, ...] | None = None
    skip: tuple[str, ...] = ()
    #: the page's own title (else the part's words)
    title: tuple[str, str] | None = None

    def shows(self, name: str) -> bool:
        return (self.only is None or name in self.only) and name not in self.skip


#: The pages, in the order a chief referee reads an event's rules; then a page per counter
#: and per infraction kind (:func:`sections`).
FIXED: tuple[Section, ...] = (
    Section(
        "event",
        (),
        "RulebookModel",
        only=("schema_version", "id", "event", "disqualification_forfeits_round"),
        title=("赛事", "Event"),
    ),
    Section("scoring", ("scoring",), "Scoring", skip=("j_rule", "redeclaration")),
    Section("bottom", ("bottom",), "Bottom"),
    Section("levels", ("levels",), "Levels"),
    Section("j_rule", ("scoring",), "Scoring", only=("j_rule",), title=("滑钩（J 规则）", "J rule")),
    Section(
        "redeclaration",
        ("scoring",),
        "Scoring",
        only=("redeclaration",),
        title=("反牌升级", "Re-declaration bonus"),
    ),
    Section(
        "redeclarations",
        (),
        "RulebookModel",
        only=("redeclarations",),
        title=("反主次数限制", "Re-declaration limits"),
    ),
    Section("next_dealer", ("next_dealer",), "NextDealer"),
    Section("hand_loss", ("hand_loss",), "HandLoss"),
    Section("round", ("round",), "Round"),
    Section("match_points", ("match_points",), "MatchPoints"),
    Section("forfeit", ("forfeit",), "Forfeit"),
    Section("standings", ("standings",), "Standings"),
    Section("appeal", ("appeal",), "Appeal"),
    Section("time_limits", (), "RulebookModel", only=("time_limits",), title=("每步限时", "Time limits")),
)


# -- the draft --------------------------------------------------------------------------------


class Draft:
    """A rulebook file being edited: its TOML document, changed in place, and the file it is
    saved to."""

    def __init__(self, text: str, path: str | Path) -> None:
        try:
            self.doc = tomlkit.parse(text)
        except tomlkit.exceptions.ParseError:
            # a text the editor cannot show as a form: its problem in words, as rules check says it
            found, _ = validate_text(text, str(path))
            raise (
                found[0] if found else RulebookError(f"{path}: not TOML", code="rulebook.problems")
            ) from None
        self.path = Path(path)
        self.saved_text = text

    # reading

    def text(self) -> str:
        return tomlkit.dumps(self.doc)

    @property
    def changed(self) -> bool:
        return self.text() != self.saved_text

    def _node(self, path: Place) -> Any:
        node: Any = self.doc
        for part in path:
            if isinstance(part, int):
                if not isinstance(node, list | AoT | Array) or part >= len(node):
                    return None
                node = node[part]
            else:
                if not hasattr(node, "get") or part not in node:
                    return None
                node = node[part]
        return node

    def value(self, path: Place) -> Any:
        """The plain value at ``path`` (None where the file has none)."""
        node = self._node(path)
        return node.unwrap() if hasattr(node, "unwrap") else node

    def has(self, path: Place) -> bool:
        return self._node(path) is not None

    def names(self, path: Place) -> list[str]:
        """The names of a table's entries (the counters, the infraction kinds)."""
        node = self._node(path)
        return [str(k) for k in node] if hasattr(node, "keys") else []

    def length(self, path: Place) -> int:
        node = self._node(path)
        return len(node) if isinstance(node, list | AoT | Array) else 0

    # changing

    def set(self, path: Place, value: Any) -> None:
        """Set the key at ``path`` (its table made if missing); None removes it."""
        if value is None:
            self.remove(path)
            return
        parent = self._container(path[:-1])
        key = path[-1]
        if isinstance(parent, InlineTable) and key not in parent:
            # a key added to an inline table: the table written again, as the files write one
            # ({ a = 1, b = 2 }), its keys in their order and the new one last
            self.set(path[:-1], inline_table({**parent.unwrap(), str(key): _plain(value)}))
            return
        parent[key] = value

    def _container(self, path: Place) -> Any:
        node = self._node(path)
        if node is not None:
            return node
        parent = self._container(path[:-1])
        made = self.new_part(model_of(path), path)
        parent[path[-1]] = made
        return self._node(path)

    def remove(self, path: Place) -> None:
        parent = self._node(path[:-1])
        if parent is None:
            return
        key = path[-1]
        if isinstance(key, int):
            if key < len(parent):
                del parent[key]
        elif isinstance(parent, InlineTable) and key in parent:
            self.set(path[:-1], inline_table({k: v for k, v in parent.unwrap().items() if k != key}))
        elif key in parent:
            del parent[key]

    def add_item(self, path: Place, model: str) -> int:
        """A new item (with its model's required keys) at the end of the list at ``path``;
        its index."""
        node = self._node(path)
        inline = model in _INLINE
        if node is None:
            self.set(path, tomlkit.array() if inline else tomlkit.aot())
            node = self._node(path)
            if inline:
                node.multiline(True)
        node.append(self.new_part(model, (*path, len(node)), inline=not isinstance(node, AoT)))
        return len(node) - 1

    def add_entry(self, path: Place, name: str, model: str) -> None:
        """A new entry ``name`` of the table at ``path`` (a counter, an infraction kind)."""
        self.set((*path, name), self.new_part(model, (*path, name)))

    def new_part(self, model: str, path: Place, *, inline: bool | None = None) -> Any:
        """A new part: its required keys at a first value (a number 0, an empty text, the first
        option), so the checks name what is left to fill."""
        as_inline = model in _INLINE if inline is None else inline
        part: Any = tomlkit.inline_table() if as_inline else tomlkit.table()
        for field in fields(model):
            if field.optional and field.name not in _FIRST_WAY.get(model, ()):
                continue
            part[field.name] = self.first_value(field, as_inline)
        if as_inline:
            return inline_table(part.unwrap())
        return part

    def first_value(self, field: Field, inline: bool) -> Any:
        if field.kind == "int":
            return 0
        if field.kind == "bool":
            return False
        if field.kind == "choice" and field.options:
            return field.options[0]
        if field.kind in ("text", "clause") or (field.kind == "part" and inline):
            return self.new_part(field.model or "Text", (), inline=True)
        if field.kind == "part":
            return self.new_part(field.model or "Text", (), inline=False)
        if field.kind == "parts":
            if field.model in _INLINE or inline:
                array = tomlkit.array()
                array.append(self.new_part(field.model or "Text", (), inline=True))
                return array
            aot = tomlkit.aot()
            aot.append(self.new_part(field.model or "Text", (), inline=False))
            return aot
        if field.kind == "choices":
            return tomlkit.array()
        if field.kind == "named":
            return tomlkit.table()
        return ""

    # checking

    def problems(self) -> list[RulebookError]:
        """Every problem of the text this draft would save, each naming its key."""
        found, _ = validate_text(self.text(), self.path.name)
        return found

    def own_kinds(self, lang: str) -> dict[str, str]:
        """The labels of the kinds this draft defines beyond the 14 (悔牌 for take_back)."""
        from ..core.rulebook_kinds import KINDS

        out = {}
        for kind in self.names(("infractions",)):
            words = self.value(("infractions", kind, "label", lang))
            if kind not in KINDS and isinstance(words, str) and words.strip():
                out[kind] = words.strip()
        return out

    def rulebook(self) -> Rulebook:
        """The draft as a rulebook, to judge with (the trial bench); its problems if any."""
        return rulebook_from_text(self.text(), str(self.path))


def _plain(value: Any) -> Any:
    return value.unwrap() if hasattr(value, "unwrap") else value


def _toml_value(value: Any) -> str:
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list) and any(isinstance(v, dict) for v in value):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return str(tomlkit.item(value).as_string())


def _toml_key(key: str) -> str:
    return str(tomlkit.key(key).as_string())


def inline_table(mapping: dict[str, Any]) -> InlineTable:
    """An inline table as the bundled rulebooks write one: ``{ ref = "…", zh = "…" }``."""
    table = tomlkit.parse(f"x = {_toml_value(mapping)}\n")["x"]
    assert isinstance(table, InlineTable)
    return table


def open_draft(path: str | Path) -> Draft:
    """A rulebook file opened for editing."""
    target = Path(path)
    try:
        text = target.read_bytes().decode("utf-8")
    except OSError as exc:
        raise RulebookError(
            f"{target}: cannot read the rulebook: {exc.strerror or exc}",
            code="rulebook.cannot_read",
            ref=str(target),
        ) from None
    except UnicodeDecodeError:
        raise RulebookError(f"{target}: not UTF-8", code="rulebook.not_utf8", ref=str(target)) from None
    return Draft(text, target)


@dataclass
class Saved:
    """What saving a draft did: the file written, the rulebook it now is (None while it has
    problems: saved, so nothing typed is lost, but no event can use it yet), its problems."""

    path: Path
    rulebook: Rulebook | None
    problems: list[RulebookError]


def save_draft(draft: Draft) -> Saved:
    """Write the draft to its file (the file it was opened from)."""
    text = draft.text()
    path = write_new_file(draft.path, text, force=True)
    draft.saved_text = text
    problems = draft.problems()
    return Saved(path, None if problems else rulebook_from_text(text, str(path)), problems)


def problem_lines(
    problems: list[RulebookError], lang: str, own_kinds: dict[str, str] | None = None
) -> list[tuple[str, str]]:
    """Each problem in words with the place it is about (for the form to mark the field);
    a kind of the event's own named by its label in ``own_kinds`` (the catalogue has no
    words for it: otherwise its id, quoted)."""
    from .messages import message

    out = []
    for problem in problems:
        text = describe(problem, lang, labels=True)
        for kind, words in (own_kinds or {}).items():
            text = text.replace(message("rulebook_place.quoted", lang, name=kind), words)
        values = problem.values
        where = str(values.get("path") or "")
        if "where" in values:
            where = str(values["where"]) + (f".{values['key']}" if "key" in values else "")
        out.append((text, "" if where == "(top)" else where))
    return out


# -- examples: what the bundled rulebooks say -------------------------------------------------


@cache
def _bundled_data() -> tuple[tuple[str, dict[str, Any]], ...]:
    found = []
    for rid in bundled_ids():
        try:
            found.append((rid, load_rulebook(rid).data))
        except RulebookError:
            continue
    return tuple(found)


def _at(data: Any, path: Place) -> Any:
    for part in path:
        if isinstance(part, int):
            if not isinstance(data, list) or part >= len(data):
                return None
            data = data[part]
        else:
            if not isinstance(data, dict) or part not in data:
                return None
            data = data[part]
    return data


def examples(path: Place, field: Field, lang: str) -> list[tuple[str, str]]:
    """What each bundled rulebook gives at ``path`` (the same key of the same part: the same
    infraction kind, the rule of that number), in words, for an example beside the field."""
    out = []
    for rid, data in _bundled_data():
        value = _at(data, path)
        if value is None:
            continue
        out.append((rid, shown_value(field, value, lang)))
    return out


def shown_value(field: Field, value: Any, lang: str) -> str:
    if isinstance(value, bool):
        return {"zh": "是" if value else "否"}.get(lang, "yes" if value else "no")
    if field.kind == "choice":
        words = field.option_label(value, lang)
        return f"{words}（{value}）" if lang == "zh" and words != str(value) else str(value)
    if field.kind == "choices" and isinstance(value, list):
        return "、".join(field.option_label(v, lang) for v in value)
    if field.kind == "parts" and isinstance(value, list) and value and isinstance(value[0], dict):
        # a band per item, its values in the keys' order (止于/升级数: 0/3、35/2、75/1)
        items = ["/".join(str(v) for v in item.values() if v is not None) for item in value[:6]]
        return "、".join(items) + (" …" if len(value) > 6 else "")
    if isinstance(value, dict) and set(value) >= {"zh", "en"}:
        return str(value[lang if lang in value else "zh"])
    if isinstance(value, dict):
        return ", ".join(f"{k} = {v}" for k, v in value.items())
    if isinstance(value, list):
        return f"[{', '.join(str(v) for v in value)}]"
    return str(value)


def kinds_to_add(draft: Draft) -> list[str]:
    """The 14 kinds this draft has no rules for (a draft that lost one must have it back)."""
    from ..core.rulebook_kinds import KINDS

    have = set(draft.names(("infractions",)))
    return [k for k in KINDS if k not in have]
