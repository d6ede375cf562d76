"""The one message catalogue, Chinese and English, for every layer and both front ends.

The catalogue is the TOML files of ``resources/messages/`` (reviewed like code):

* ``errors.toml``: what an error says, by its code (``referee_app.core.errors.Reported``),
  and the words for the fields errors are about (``[field]``);
* ``cli.toml``: the command line's words (its help, its lines of output);
* ``gui.toml``: the window's words (read by ``referee_app.gui.i18n``);
* ``web.toml``: the hall web page's words (read by ``referee_app.hallweb.words``).

An entry is ``key = { zh = "…", en = "…" }`` inside a table; its code is the table's path and
the key (``[appeal]`` ``late = …`` is ``appeal.late``). Placeholders are ``{name}``; an
error's field is named in front of its text unless the text places ``{field}`` itself, opens
on a value (``{source}: …``) or its entry says ``field = false``. A text
that depends on a count gives its forms: ``en = { one = "{n} pair imported", other = "{n}
pairs imported" }`` (``n`` picks the form; Chinese has one form and may give a plain text).

Pure standard library: the command line's ``judge`` and the window both use it.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from ..locations import resources_dir

LANGS = ("zh", "en")
PLURAL_FORMS = ("one", "other")
FILES = ("errors", "cli", "gui", "web")

Entry = dict[str, Any]


def catalogue_dir() -> Path:
    return resources_dir() / "messages"


def load_file(path: Path) -> dict[str, Entry]:
    """The entries of one catalogue file, by code."""
    import tomllib  # here: a command that says nothing from the catalogue (`judge`) never parses TOML

    with path.open("rb") as handle:
        raw = tomllib.load(handle)
    found: dict[str, Entry] = {}
    _flatten(raw, "", found)
    return found


def _is_entry(node: Mapping[str, Any]) -> bool:
    return "zh" in node and set(node) <= {*LANGS, "field"}


def _flatten(node: Mapping[str, Any], prefix: str, out: dict[str, Entry]) -> None:
    for key, value in node.items():
        code = f"{prefix}{key}"
        if isinstance(value, dict) and _is_entry(value):
            out[code] = value
        elif isinstance(value, dict):
            _flatten(value, f"{code}.", out)


@cache
def catalogue(name: str) -> dict[str, Entry]:
    """One catalogue file's entries (``errors``, ``cli`` or ``gui``), read once."""
    return load_file(catalogue_dir() / f"{name}.toml")


@cache
def _all() -> dict[str, Entry]:
    merged: dict[str, Entry] = {}
    for name in ("errors", "cli"):
        merged.update(catalogue(name))
    return merged


def has(code: str) -> bool:
    return code in _all()


def plural_form(text: Any, values: Mapping[str, Any]) -> str:
    """The form of ``text`` for the count in ``values`` (``n``, else ``count``): English
    ``one`` for 1, ``other`` for any other count; a plain text is its own form."""
    if isinstance(text, str):
        return text
    n = values.get("n")
    if not isinstance(n, int):
        n = values.get("count", 0)
    form = "one" if n == 1 else "other"
    return str(text.get(form) or text["other"])


def placeholders(text: Any) -> set[str]:
    """The ``{names}`` a text (or each form of a plural text) is filled with."""
    texts = [text] if isinstance(text, str) else list(text.values())
    names: set[str] = set()
    for t in texts:
        for _, name, _, _ in string.Formatter().parse(t):
            if name:
                names.add(name.split(".")[0].split("[")[0].split("!")[0])
    return names


class _Values(dict[str, Any]):
    def __missing__(self, key: str) -> str:  # a value the raise did not give: left visible
        return "{" + key + "}"


def message(code: str, lang: str, /, **values: Any) -> str:
    """The catalogue's text ``code`` in ``lang`` (``zh`` or ``en``) filled with ``values``;
    a count ``n`` picks the plural form."""
    entry = _all().get(code)
    if entry is None:
        raise KeyError(f"messages: no entry {code!r}")
    text = entry.get(lang, entry["zh"])
    return plural_form(text, values).format_map(_Values(values))


def field_words(field: str, lang: str) -> str:
    """A field named in words (``reason`` → ``理由`` / ``reason``). A path into the user's
    own case file (``hands[2].seat``) is its keys in English; in Chinese it is named in words
    with the path beside it (``第 3 副的座位（hands[2].seat）``), so the file can be found."""
    entry = _all().get(f"field.{field}")
    if entry is None:
        place = case_place(field, lang) if lang == "zh" else None
        return f"{place}（{field}）" if place else field
    return str(entry.get(lang, entry["zh"]))


#: The lists of a case file whose items are named by their number (``[case_place]``).
_CASE_LISTS = {
    "hands": "hand",
    "infractions": "infraction",
    "before_play": "before_play",
    "sanctions": "sanction",
}
_CASE_STEP = re.compile(r"([A-Za-z_]+)(?:\[(\d+)\])?$")


def case_place(path: str, lang: str) -> str | None:
    """A place in a case file in words (``hands[0].infractions[1].trick`` → ``第 1 副第 2 项违规的
    墩次``), or None where the path is not one of the case format's (a key the words do not
    know, a field that is no path). A key inside another has its own words where the
    catalogue gives them (``bottom.points`` → ``bottom_points``, 底牌分数)."""
    if "[" not in path and "." not in path:
        return None
    words: list[tuple[str, bool]] = []  # (word, numbered item)
    previous: str | None = None
    for step in path.split("."):
        found = _CASE_STEP.match(step)
        if found is None:
            return None
        key, index = found.group(1), found.group(2)
        if key in _CASE_LISTS and index is not None:
            words.append((message(f"case_place.{_CASE_LISTS[key]}", lang, n=int(index) + 1), True))
        elif previous is not None and has(f"case_place.key.{previous}_{key}") and index is None:
            words[-1] = (message(f"case_place.key.{previous}_{key}", lang), False)
        elif has(f"case_place.key.{key}"):
            words.append((message(f"case_place.key.{key}", lang), False))
            if index is not None:
                words.append((message("case_place.item", lang, n=int(index) + 1), True))
        else:
            return None
        previous = key
    if lang != "zh":
        return ", ".join(w for w, _ in words)
    out = words[0][0]
    for word, numbered in words[1:]:
        out += word if numbered else message("case_place.of", lang) + word
    return out


FieldNamer = Callable[[str, str], str]

#: The separator after a field named in front of a message.
_SEP = {"zh": "：", "en": ": "}


def describe(
    error: BaseException,
    lang: str,
    *,
    field_name: FieldNamer | None = None,
    with_field: bool = True,
    labels: bool = False,
) -> str:
    """What ``error`` says to a user in ``lang``, in one line, from the catalogue.

    ``field_name(field, lang)`` names the field the error is about (the command line: its
    flag in English, its words in Chinese; default: :func:`field_words`). An error without
    a code of its own is worded by its class's general entry; in English its own line is
    kept (it is English already), with the field named the same way. ``with_field=False``:
    the text alone, for a form that shows it beside the field's own widget. ``labels``: a
    rulebook problem names its keys by their labels in English too (the window's editor;
    the command line's English names them by their path in the file)."""
    from ..core.errors import Reported, one_line

    namer = field_name or field_words
    if not isinstance(error, Reported):
        if lang == "en":
            return one_line(error)
        return message("error.unexpected", lang)
    raw = dict(error.values)
    if "role" not in raw and isinstance(getattr(error, "role", None), str):
        raw["role"] = error.role  # type: ignore[attr-defined]  # PinError's own
    if error.code.startswith("rulebook.problem.") and (lang != "en" or labels):
        raw = rulebook_problem_words(raw, lang)
    values = {k: _shown(k, v, lang) for k, v in raw.items()}
    if lang == "en" and not error.coded and str(error):
        return one_line(error)
    text = message(error.code, lang, **values)
    field = error.field if with_field else None
    template = _raw(error.code, lang)
    if field is not None and "{field}" in template:
        text = message(error.code, lang, field=namer(field, lang), **values)
    elif field is not None and not template.startswith("{") and _all()[error.code].get("field", True):
        # (a text opening on a value names its subject; field = false: the text says it whole)
        text = f"{namer(field, lang)}{_SEP.get(lang, ': ')}{text}"
    return one_line(text)


def _raw(code: str, lang: str) -> str:
    entry = _all()[code]
    text = entry[lang] if lang in entry else entry["zh"]
    return text if isinstance(text, str) else str(text["other"])


#: Values named so are words of the catalogue's ``[value.*]`` tables (``needs``: roles).
_VALUE_TABLE = {
    "needs": "role",
    "role": "role",
    "side": "side",
    "state": "state",
    "wanted": "wanted",
    "action": "action",
    "window_from": "window_from",
    "round_end": "round_end",
    "shape": "case_shape",
    "phase": "case_phase",
}


def word_gap(gap: str, lang: str) -> str:
    """One gap of an unfinished round (``missing 7``, ``undecided 3 4``, ``no_result 2``:
    :func:`referee_app.app.event.round_unfinished`) in ``lang``; a gap of another shape is
    shown as it is."""
    kind, _, rest = gap.partition(" ")
    args = rest.split()
    if kind == "missing" and len(args) == 1:
        return message("value.gap.missing", lang, pair=args[0])
    if kind == "undecided" and len(args) == 2:
        return message("value.gap.undecided", lang, ns=args[0], ew=args[1])
    if kind == "no_result" and len(args) == 1:
        return message("value.gap.no_result", lang, table=args[0])
    return gap


def _shown(key: str, value: Any, lang: str) -> Any:
    """A value as a message shows it: a word of the ``[value]`` tables in ``lang``, a list
    joined with the language's comma, a moment in the station's local time (what the clock
    on the hall's wall says: the store keeps UTC)."""
    from ..core.errors import Reported

    table = _VALUE_TABLE.get(key)
    if key in ("at_line", "given"):  # a rulebook problem's optional parts (empty when unknown)
        if value is None:
            return ""
        return message(f"value.rulebook.{key}", lang, n=value, got=value)
    if isinstance(value, Reported):  # an error that stands for others (a rulebook's first problem)
        return describe(value, lang)
    if key == "ended_by" and lang == "zh" and isinstance(value, str):  # a place in the case file
        return case_place(value, lang) or value
    if isinstance(value, datetime):
        return value.astimezone().strftime("%Y-%m-%d %H:%M:%S")
    if key == "gaps" and isinstance(value, list | tuple):
        return ("；" if lang == "zh" else "; ").join(word_gap(str(g), lang) for g in value)
    if isinstance(value, list | tuple | set | frozenset):
        sep = "、" if lang == "zh" else ", "
        return sep.join(str(_shown(key, v, lang)) for v in value)
    if table is not None and isinstance(value, str) and has(f"value.{table}.{value}"):
        return message(f"value.{table}.{value}", lang)
    return value


# -- a rulebook's keys and values in words (resources/messages/rulebook.toml) ---------------


@cache
def rulebook_words() -> dict[str, Any]:
    """The rulebook's words: the label of every key and option of the rulebook schema, what
    each does, the infraction kinds, the TOML parser's problems (``rulebook.toml``; its
    tables are described at its top). Read as it is: its keys are the schema's."""
    import tomllib

    with (catalogue_dir() / "rulebook.toml").open("rb") as handle:
        return tomllib.load(handle)


def rulebook_word(lang: str, table: str, *names: str) -> str | None:
    """One word of :func:`rulebook_words` (``rulebook_word("zh", "key", "Round", "tie")``),
    or None when the file has none."""
    node: Any = rulebook_words().get(table)
    for name in names:
        node = node.get(name) if isinstance(node, dict) else None
    if not isinstance(node, dict) or not isinstance(node.get(lang), str):
        return None
    return str(node[lang]).format()  # {{ and }} are the file's braces


#: How a rulebook's place is written in words: between its parts, an item's number.
_PART_SEP = {"zh": " › ", "en": " › "}


def rulebook_place(parts: list[str], lang: str) -> str:
    """The place of a rulebook problem (``core.rulebook.key_parts``) in words: each key by its
    label, an infraction kind by its name, a list's item by its number, a key the schema does
    not have quoted as written (``违规及处罚 › 暴露张 › 处罚规则第 1 项 › 处罚 › 罚分``)."""
    words: list[str] = []
    for part in parts:
        tag, _, name = part.partition(":")
        if tag == "i" and name.isdigit():
            item = message("rulebook_place.item", lang, n=int(name) + 1)
            words[-1:] = [f"{words[-1]}{item}" if words else item]
        elif tag == "f":
            model, _, key = name.partition(".")
            words.append(rulebook_word(lang, "key", model, key) or name)
        elif tag == "k":
            quoted = message("rulebook_place.quoted", lang, name=name)
            words.append(rulebook_word(lang, "kind", name) or quoted)
        else:  # a name the rulebook gives, a key the schema does not have: as written
            words.append(message("rulebook_place.quoted", lang, name=name))
    return _PART_SEP.get(lang, " › ").join(words) or message("rulebook_place.top", lang)


def rulebook_option(options_of: str, value: str, lang: str) -> str:
    """A value an option takes, as written and in words: ``"draw"（平局）``; a value without
    words (a level, a number) as it is."""
    model, _, key = options_of.partition(".")
    if options_of == "kind":
        label = rulebook_word(lang, "kind", value)
    else:
        label = rulebook_word(lang, "option", model, key, value)
    return message("rulebook_place.option", lang, value=value, label=label) if label else value


def toml_words(detail: str, lang: str) -> str:
    """The TOML parser's English problem (``Unclosed array``) in ``lang``; one the file has
    no words for is kept as the parser wrote it."""
    table = rulebook_words().get("toml", {})
    for start in sorted(table, key=len, reverse=True):
        if detail.startswith(start):
            return rulebook_word(lang, "toml", start) or detail
    return detail


def rulebook_problem_words(values: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """A rulebook problem's values with the file's keys and values named in words: its place
    (``path``, ``where``, ``key``), the options it expected, the kinds it misses, the way of
    counting points it was given, the TOML parser's detail."""
    out = dict(values)
    for key, parts in (("path", "path_parts"), ("where", "where_parts"), ("key", "key_parts")):
        if isinstance(values.get(parts), list):
            out[key] = rulebook_place(list(values[parts]), lang)
    if isinstance(values.get("expected"), list) and isinstance(values.get("options_of"), str):
        out["expected"] = [rulebook_option(values["options_of"], str(v), lang) for v in values["expected"]]
    for key in ("kinds", "kind"):
        value = values.get(key)
        names = value if isinstance(value, list) else [value] if isinstance(value, str) else []
        worded = [rulebook_word(lang, "kind", str(n)) or str(n) for n in names]
        if names:
            out[key] = worded if isinstance(value, list) else worded[0]
    if isinstance(values.get("forms"), list):
        out["forms"] = [rulebook_word(lang, "key", "Sanction", str(f)) or str(f) for f in values["forms"]]
    if isinstance(values.get("mode"), str):
        out["mode"] = rulebook_option("HandLoss.mode", values["mode"], lang)
    if isinstance(values.get("reason"), str):
        out["reason"] = toml_words(values["reason"], lang)
    return out
