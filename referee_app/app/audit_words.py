"""``verify``'s problem lines in the referee's language (issue 28 item 6).

The audit check (``store/audit.py``) reports each problem as one English line; the catalogue's
``[verify.problem]`` gives each kind of line twice: ``en`` exactly as the store writes it,
with ``{placeholders}`` where its values go, and ``zh``. A line is worded by matching it
against the ``en`` texts and filling the ``zh`` text with the values found, so the store's
check stays as it is (its mutation-tested wording included) and there is one list of what
verify can say. An entry's own problems start with the entry's description, worded apart;
the changed values of a row (``row_diff``) and table names (``[value.table]``) too.
"""

from __future__ import annotations

import re
from functools import cache

from .messages import catalogue, field_words, has, message

_PREFIX = "verify.problem."
_ENTRY = re.compile(
    r"^entry #(?P<seq>\d+) \((?P<action>[^ ,]+)(?P<where>(?: round \d+)?(?: table \d+)?), "
    r"(?P<at>[^,]+), (?P<who>[^)]*)\): (?P<rest>.+)$"
)
_WHERE = re.compile(r"(?: round (?P<round>\d+))?(?: table (?P<table>\d+))?")


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    out = []
    for i, part in enumerate(parts):
        out.append(re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)")
    return re.compile("^" + "".join(out) + "$")


@cache
def _templates() -> list[tuple[str, re.Pattern[str]]]:
    """The kinds of line (not the entry's description, a row's diff, the fallback)."""
    skip = {"entry", "row_diff", "unworded"}
    return [
        (code, _pattern(str(entry["en"])))
        for code, entry in catalogue("errors").items()
        if code.startswith(_PREFIX) and code[len(_PREFIX) :] not in skip
    ]


def _table(name: str, lang: str) -> str:
    code = f"value.table.{name}"
    return message(code, lang) if has(code) else name


def _action(action: str, lang: str) -> str:
    code = f"value.action.{action}"
    return message(code, lang) if has(code) else action


def _values(values: dict[str, str], lang: str) -> dict[str, str]:
    out = dict(values)
    if "table" in out:
        out["table"] = _table(out["table"], lang)
    if "diffs" in out:
        diff = _pattern(str(catalogue("errors")[_PREFIX + "row_diff"]["en"]))
        worded = []
        for part in out["diffs"].split("; "):
            found = diff.match(part)
            if found is None:
                worded.append(part)
                continue
            values = dict(found.groupdict(), column=field_words(found["column"], lang))
            worded.append(message(_PREFIX + "row_diff", lang, **values))
        out["diffs"] = "；".join(worded) if lang == "zh" else "; ".join(worded)
    for key in ("role", "key_role"):
        if key in out and has(f"value.role.{out[key]}"):
            out[key] = message(f"value.role.{out[key]}", lang)
    return out


def _line(text: str, lang: str) -> str | None:
    for code, pattern in _templates():
        found = pattern.match(text)
        if found:
            return message(code, lang, **_values(found.groupdict(), lang))
    return None


def problem_words(line: str, lang: str) -> str:
    """One of ``verify``'s problem lines in ``lang``: English as the store wrote it; Chinese
    from the catalogue (a line of no known kind is shown as it is, marked so)."""
    if lang == "en":
        return line
    entry = _ENTRY.match(line)
    if entry is not None:
        rest = _line(entry["rest"], lang)
        if rest is not None:
            where = _WHERE.fullmatch(entry["where"])
            place = ""
            if where is not None and where["round"]:
                place += f"，第 {where['round']} 轮"
            if where is not None and where["table"]:
                place += f"第 {where['table']} 桌"
            head = message(
                _PREFIX + "entry",
                lang,
                seq=entry["seq"],
                action=_action(entry["action"], lang),
                where=place,
                at=entry["at"],
                who=entry["who"],
            )
            return f"{head}：{rest}"
    whole = _line(line, lang)
    return whole if whole is not None else message(_PREFIX + "unworded", lang, line=line)
