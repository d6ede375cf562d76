"""The rulebook's words (resources/messages/rulebook.toml) cover the schema exactly, and the
reference and the JSON Schema made from them (docs/) are current (issue 25)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from referee_app.app.messages import catalogue_dir, rulebook_words
from referee_app.app.rulebook_reference import json_schema, json_schema_text, parts, reference_markdown
from referee_app.core.rulebook_kinds import KINDS

from .test_messages import english_words

ROOT = Path(__file__).resolve().parents[1]


def _entries(node: dict, prefix: str = "") -> dict[str, dict]:
    out: dict[str, dict] = {}
    for key, value in node.items():
        if (
            isinstance(value, dict)
            and set(value) == {"zh", "en"}
            and all(isinstance(v, str) for v in value.values())
        ):
            out[f"{prefix}{key}"] = value
        elif isinstance(value, dict):
            out.update(_entries(value, f"{prefix}{key}."))
    return out


def test_every_key_and_option_of_the_schema_has_its_label_and_effect_and_nothing_else_is_there() -> None:
    words = rulebook_words()
    wanted = {f"section.{p.model}" for p in parts()}
    for part in parts():
        for key in part.keys:
            wanted |= {f"key.{key.model}.{key.name}", f"effect.{key.model}.{key.name}"}
            for value in (key.options or []) if not key.kinds else []:
                wanted |= {
                    f"option.{key.model}.{key.name}.{value}",
                    f"option_effect.{key.model}.{key.name}.{value}",
                }
    wanted |= {f"kind.{k}" for k in KINDS}
    have = {k for k in _entries(words) if not k.startswith("toml.")}
    assert not wanted - have, f"no words for: {sorted(wanted - have)}"
    assert not have - wanted, f"words for nothing in the schema: {sorted(have - wanted)}"


def test_the_words_are_chinese_under_zh_and_fill_without_placeholders() -> None:
    raw = tomllib.loads((catalogue_dir() / "rulebook.toml").read_text(encoding="utf-8"))
    for code, entry in _entries(raw).items():
        for lang in ("zh", "en"):
            assert entry[lang].format() and "{" not in entry[lang].format().replace("{ ", ""), (code, lang)
        if not code.startswith("toml."):
            assert not english_words(entry["zh"]), (code, entry["zh"])


def test_the_reference_states_what_the_options_readers_asked_about_do() -> None:
    text = reference_markdown()
    for needle in (
        '`"dealt_last_hand"` 最后一副的庄家方胜',
        '`"holds_deal_at_end"` 终局时坐庄的一方胜',
        "按其结果换庄之后该坐庄的一方",
        "那一副的庄家，不是那副之后换庄的结果",
        "`keep_better_outcome`",
        "过错永不使过错方得利",
        '`"fixed_or_largest"`',
        '`"power"` 2 的 n+1 次方',
        "滑钩不看得分",
        "The J rule ignores the points",
        "在这副牌按得分升级（及滑钩）之后再加上",
        "a step without an instruction of its own keeps its base rule's instruction",
    ):
        assert needle in text, needle


def test_the_committed_reference_and_json_schema_are_current() -> None:
    """Run `python tools/rulebook_reference.py` after changing the schema or its words."""
    assert (ROOT / "docs" / "rulebook-reference.md").read_text(encoding="utf-8") == reference_markdown()
    assert (ROOT / "docs" / "rulebook.schema.json").read_text(encoding="utf-8") == json_schema_text()


def test_the_json_schema_titles_each_key_in_chinese_and_lists_its_options() -> None:
    schema = json_schema()
    tie = schema["$defs"]["Round"]["properties"]["tie"]
    assert tie["title"] == "同级时胜负" and tie["enum"][:4] == [
        "draw",
        "reached_level_first",
        "dealt_last_hand",
        "holds_deal_at_end",
    ]
    assert "- dealt_last_hand: 最后一副的庄家方胜" in tie["description"]
    # the old names are still read, and say so
    assert "- last_dealer_side: 最后一副的庄家方胜（旧名）" in tie["description"]
    assert schema["properties"]["scoring"]["title"] == "计分与升级"
    assert json.loads(json_schema_text()) == schema
    assert re.search(r'"additionalProperties": false', json_schema_text())
