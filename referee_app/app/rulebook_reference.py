"""The rulebook's reference, made from the schema and its words (规则文件参考): the JSON Schema
a text editor checks a rulebook with (``rules schema``, ``docs/rulebook.schema.json``), and
the Chinese and English reference of every key and option with what it does
(``docs/rulebook-reference.md``, written by ``tools/rulebook_reference.py``).

The schema (``core/rulebook_schema.py``) says what a rulebook may hold; the words
(``resources/messages/rulebook.toml``) say what each key is called and does. Both committed
files are made here from the two, and tests check they are current, so the file a chief
referee edits, the editor's hints and the documentation say one thing.
"""

from __future__ import annotations

import json
import typing
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..core.rulebook import is_table, item_type, models_of, type_args
from ..core.rulebook_kinds import KINDS
from .messages import rulebook_word

LANGS = ("zh", "en")
#: The rulebook's levels (2 … A): a value that names itself, with no words of its own.
LEVELS = _LEVELS = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}


@dataclass
class Key:
    """One key of a part of the rulebook: its name, its type in words, whether it must be
    given (else its default), the options it takes (None: not an option)."""

    model: str
    name: str
    required: bool
    default: Any
    shape: Any = field(repr=False)
    options: list[str] | None = None
    #: the options are infraction kinds (named by the kinds' words)
    kinds: bool = False


@dataclass
class Part:
    model: str
    keys: list[Key]


def _literals(shape: Any) -> list[Any]:
    if typing.get_origin(shape) is typing.Literal:
        return list(typing.get_args(shape))
    if is_table(shape):  # a table's options are its keys' (standings.readings)
        for arg in (shape, *type_args(shape)):
            if typing.get_origin(arg) is dict:
                return _literals(typing.get_args(arg)[0])
    return [v for a in type_args(shape) for v in _literals(a)]


@cache
def parts() -> list[Part]:
    """Every part of the rulebook schema, in the order a rulebook is read (from the top,
    each part where it is first met), with its keys."""
    from ..core.rulebook_schema import RulebookModel

    seen: list[type[Any]] = []
    queue: list[type[Any]] = [RulebookModel]
    while queue:
        model = queue.pop(0)
        if model in seen:
            continue
        seen.append(model)
        for info in model.model_fields.values():
            shape = info.annotation
            found = models_of(shape) + models_of(item_type(shape))
            queue.extend(m for m in found if m not in seen)
    out: list[Part] = []
    for model in seen:
        keys: list[Key] = []
        for name, info in model.model_fields.items():
            values = [v for v in _literals(info.annotation) if isinstance(v, str)]
            key = Key(
                model.__name__,
                name,
                info.is_required(),
                None if info.is_required() else info.get_default(call_default_factory=True),
                info.annotation,
            )
            if values and set(values) <= set(KINDS):
                key.options, key.kinds = values, True
            elif values and not set(values) <= _LEVELS:
                key.options = values
            keys.append(key)
        out.append(Part(model.__name__, keys))
    return out


def label(key: Key, lang: str) -> str:
    return rulebook_word(lang, "key", key.model, key.name) or key.name


def effect(key: Key, lang: str) -> str:
    return rulebook_word(lang, "effect", key.model, key.name) or ""


def option_label(key: Key, value: str, lang: str) -> str:
    if key.kinds:
        return rulebook_word(lang, "kind", value) or value
    return rulebook_word(lang, "option", key.model, key.name, value) or value


def option_effect(key: Key, value: str, lang: str) -> str:
    if key.kinds:
        return ""
    return rulebook_word(lang, "option_effect", key.model, key.name, value) or ""


def section(model: str, lang: str) -> str:
    return rulebook_word(lang, "section", model) or model


# -- the JSON Schema ---------------------------------------------------------------------


def json_schema() -> dict[str, Any]:
    """The rulebook's JSON Schema (draft 2020-12, as pydantic writes it), each key titled by
    its Chinese label and described by what it does in both languages, each option's
    meaning listed: a text editor with a TOML schema (Taplo, Even Better TOML) checks and
    explains the file as it is typed."""
    from ..core.rulebook_schema import RulebookModel

    schema = RulebookModel.model_json_schema(mode="validation")
    by_model = {p.model: p for p in parts()}
    schema["title"] = "规则文件 / rulebook (referee-app)"
    schema["description"] = "双升比赛规则文件：docs/rulebook-reference.md / A Shengji event's rulebook"

    def annotate(node: dict[str, Any], model: str) -> None:
        part = by_model.get(model)
        if part is None:
            return
        node["title"] = section(model, "zh")
        for key in part.keys:
            prop = node.get("properties", {}).get(key.name)
            if prop is None:
                continue
            prop["title"] = label(key, "zh")
            text = f"{effect(key, 'zh')}\n{effect(key, 'en')}"
            if key.options and not key.kinds:
                text += "".join(
                    f"\n- {v}: {option_label(key, v, 'zh')}，{option_effect(key, v, 'zh')} / "
                    f"{option_effect(key, v, 'en')}"
                    for v in key.options
                )
            prop["description"] = text

    annotate(schema, "RulebookModel")
    for name, node in schema.get("$defs", {}).items():
        annotate(node, name)
    return schema


def json_schema_text() -> str:
    return json.dumps(json_schema(), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


# -- the reference -----------------------------------------------------------------------

_WORDS = {
    "zh": {
        "key": "键",
        "label": "名称",
        "type": "取值",
        "given": "必填 / 默认",
        "effect": "作用",
        "required": "必填",
        "absent": "可不写",
        "options": "可选值",
        "int": "整数",
        "bool": "true 或 false",
        "str": "文字",
        "list": "列表，每项为{}",
        "table": "表，每个名称对应{}",
        "part": "{}（表）",
        "level": "级（2 … A）",
        "kind": "违规种类",
        "or": " 或 ",
    },
    "en": {
        "key": "key",
        "label": "name",
        "type": "value",
        "given": "required / default",
        "effect": "what it does",
        "required": "required",
        "absent": "may be left out",
        "options": "options",
        "int": "whole number",
        "bool": "true or false",
        "str": "text",
        "list": "list of {}",
        "table": "table of names, each {}",
        "part": "{} (table)",
        "level": "level (2 … A)",
        "kind": "infraction kind",
        "or": " or ",
    },
}


def type_words(key: Key, lang: str) -> str:
    """What a key's value is, in words (``整数``, ``列表：处罚规则``, ``表：条款``)."""
    words = _WORDS[lang]

    def of(shape: Any) -> str:
        if shape is type(None):
            return ""
        if shape is bool:
            return words["bool"]
        if shape is int:
            return words["int"]
        if shape is str:
            return words["str"]
        if isinstance(shape, type) and shape.__name__ in {p.model for p in parts()}:
            return words["part"].format(section(shape.__name__, lang))
        origin = typing.get_origin(shape)
        if origin is typing.Literal:
            values = [str(v) for v in typing.get_args(shape)]
            if set(values) <= _LEVELS:
                return words["level"]
            if set(values) <= set(KINDS):
                return words["kind"]
            texts = all(isinstance(v, str) for v in typing.get_args(shape))
            return words["options"] if texts else "/".join(values)
        if origin in (list, tuple):
            inner = [of(a) for a in typing.get_args(shape) if a is not Ellipsis]
            return words["list"].format(inner[0]) if len(set(inner)) == 1 else f"[{', '.join(inner)}]"
        if origin is dict:
            return words["table"].format(of(typing.get_args(shape)[1]))
        args = type_args(shape)
        if args:
            return words["or"].join(w for w in (of(a) for a in args) if w)
        return str(shape)

    return of(key.shape)


def _given(key: Key, lang: str) -> str:
    words = _WORDS[lang]
    if key.required:
        return words["required"]
    if key.default is None:
        return words["absent"]
    if hasattr(key.default, "model_dump"):  # a part left out: every key of it at its default
        return "`{}`"
    return f"`{json.dumps(key.default, ensure_ascii=False)}`"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def reference_markdown() -> str:
    """docs/rulebook-reference.md: every part of the rulebook, every key with its Chinese and
    English name, its value, whether it must be given, what it does; every option's value
    with its name and effect."""
    lines = [
        "# 规则文件参考 / Rulebook reference",
        "",
        "<!-- Generated by tools/rulebook_reference.py from referee_app/core/rulebook_schema.py and",
        "resources/messages/rulebook.toml: edit those and run the tool; tests/test_rulebook_words.py",
        "checks this file is current. -->",
        "",
        "每个赛事的规则是一个 TOML 文件（`rules/<编号>.toml`），由本参考所列的键组成。新赛事从内置规则复制："
        "`referee-app rules new 编号 --from bhg-2011`；检查：`referee-app rules check 文件`；"
        "文本编辑器可用 `docs/rulebook.schema.json`（`referee-app rules schema`）逐键提示和检查。",
        "",
        "An event's rules are one TOML file made of the keys below. Start from a bundled one "
        "(`referee-app rules new ID --from bhg-2011`), check it (`referee-app rules check FILE`); a "
        "text editor checks and explains it with `docs/rulebook.schema.json` (`referee-app rules schema`).",
        "",
        "每条规则都带条款（clause）：规程原文、英文译文，"
        "规程未载明之处 `assumed = true` 并在 `note` 中说明解读；"
        "用到这样一条的判罚、牌局和结果都标注“依解读”。",
        "Every rule carries its clause; where the event is silent, `assumed = true` and the reading "
        "in `note` mark every ruling, hand and result it decides.",
        "",
    ]
    for part in parts():
        lines += [f"## {section(part.model, 'zh')} / {section(part.model, 'en')} (`{part.model}`)", ""]
        lines += [
            "| 键 key | 名称 | name | 取值 / value | 必填 / 默认 | 作用 | what it does |",
            "|---|---|---|---|---|---|---|",
        ]
        absent = _WORDS["en"]["absent"]
        for key in part.keys:
            lines.append(
                "| "
                + " | ".join(
                    _cell(c)
                    for c in (
                        f"`{key.name}`",
                        label(key, "zh"),
                        label(key, "en"),
                        f"{type_words(key, 'zh')} / {type_words(key, 'en')}",
                        _given(key, "zh")
                        + ("" if key.default is not None or key.required else f" / {absent}"),
                        effect(key, "zh"),
                        effect(key, "en"),
                    )
                )
                + " |"
            )
        for key in part.keys:
            if not key.options:
                continue
            lines += ["", f"`{key.name}`（{label(key, 'zh')} / {label(key, 'en')}）：", ""]
            for value in key.options:
                zh, en = option_effect(key, value, "zh"), option_effect(key, value, "en")
                said = f" — {zh} {en}" if zh or en else ""
                lines.append(
                    f'- `"{value}"` {option_label(key, value, "zh")} / {option_label(key, value, "en")}{said}'
                )
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
