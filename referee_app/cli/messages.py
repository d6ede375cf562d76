"""The command line's side of the message catalogue (``referee_app.app.messages``).

An error names the field it is about (``reason``); the command line names that field by its
flag in English (``--reason``) and in words in Chinese (``理由``): a Chinese referee never
reads a flag or an English word. Its own lines of output are catalogue entries too
(``resources/messages/cli.toml``).
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any

from ..app.messages import describe, field_words, message
from ..core.errors import Reported, one_line

#: A field whose flag is not ``--`` and the field with ``_`` as ``-``.
FLAGS: dict[str, str] = {
    "pin": "PIN",
    "new_pin": "new PIN",
    "accept_late": "--accept-late",
    "appeal": "--appeal",
}


def flag(field: str) -> str:
    """The flag of a logical field (``filed_at`` → ``--filed-at``); a path into the user's
    file (``hands[2].seat``) is shown as it is."""
    if field in FLAGS:
        return FLAGS[field]
    if "[" in field or "." in field:
        return field
    return "--" + field.replace("_", "-")


def _name(field: str, lang: str) -> str:
    return flag(field) if lang == "en" else field_words(field, lang)


def lang_of(args: argparse.Namespace | None) -> str:
    lang = getattr(args, "lang", None)
    return lang if lang in ("zh", "en") else "zh"


def error_line(err: BaseException, lang: str) -> str:
    """The one line the command line prints for ``err`` in ``lang``.

    English keeps the error's own line (it names the flag); Chinese is the catalogue's,
    the field named in words."""
    if lang == "en" and (not isinstance(err, Reported) or str(err)):
        return one_line(err)
    return describe(err, lang, field_name=_name)


def say_error(err: BaseException, args: argparse.Namespace | None) -> None:
    print(error_line(err, lang_of(args)), file=sys.stderr)


def text(code: str, args: argparse.Namespace | str | None, /, **values: Any) -> str:
    """A catalogue text in the command's language."""
    lang = args if isinstance(args, str) else lang_of(args)
    return message(code, lang, **values)


# -- the command line's help and argparse's own words ------------------------------------

#: argparse's own words in Chinese (Python's argparse asks ``gettext`` for them).
ARGPARSE_ZH: dict[str, str] = {
    "usage: ": "用法：",
    "positional arguments": "位置参数",
    "options": "选项",
    "optional arguments": "选项",
    "show this help message and exit": "显示本帮助并退出",
    "argument %(argument_name)s: %(message)s": "%(argument_name)s：%(message)s",
    "the following arguments are required: %s": "缺少必需的参数：%s",
    "unrecognized arguments: %s": "无法识别的参数：%s",
    "invalid choice: %(value)r (choose from %(choices)s)": "无效的值 %(value)r（可选：%(choices)s）",
    "expected one argument": "需要一个值",
    "expected at most one argument": "最多一个值",
    "expected at least one argument": "至少需要一个值",
    "invalid %(type)s value: %(value)r": "无效的值：%(value)r",
    "ambiguous option: %(option)s could match %(matches)s": "选项 %(option)s 有歧义，可能是 %(matches)s",
    "not allowed with argument %s": "不能与 %s 同时使用",
    "one of the arguments %s is required": "须给出 %s 之一",
    "ignored explicit argument %r": "多余的值 %r",
    "unexpected option string: %s": "意外的选项：%s",
    "%(prog)s: error: %(message)s\n": "%(prog)s：错误：%(message)s\n",
    "can't open '%(filename)s': %(error)s": "无法打开“%(filename)s”：%(error)s",
    "unknown parser %(parser_name)r (choices: %(choices)s)": (
        "未知的命令 %(parser_name)r（可选：%(choices)s）"
    ),
}
_ARGPARSE_NZH = {"expected %s argument": "需要 %s 个值", "expected %s arguments": "需要 %s 个值"}

_ORIGINAL = (argparse._, argparse.ngettext)  # type: ignore[attr-defined]


_current = ["en"]


def current_language() -> str:
    """The language :func:`use_language` set last (argparse's words are in it)."""
    return _current[0]


def use_language(lang: str) -> None:
    """argparse's own words (usage, errors, the help of ``-h``) in ``lang`` from now on."""
    _current[0] = lang
    if lang == "zh":
        argparse._ = lambda text: ARGPARSE_ZH.get(text, text)  # type: ignore[attr-defined]
        argparse.ngettext = lambda one, many, n: _ARGPARSE_NZH.get(one if n == 1 else many, many)  # type: ignore[attr-defined]
    else:
        argparse._, argparse.ngettext = _ORIGINAL  # type: ignore[attr-defined]


def restore_argparse() -> None:
    """argparse's own words back to its own (English) once the command line is parsed: the
    process may build other parsers (tests do); :func:`current_language` stays."""
    argparse._, argparse.ngettext = _ORIGINAL  # type: ignore[attr-defined]


def lang_in(argv: list[str], default: str) -> str:
    """The ``--lang`` given anywhere in ``argv`` (argparse has not run yet), else ``default``."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv) and argv[i + 1] in ("zh", "en"):
            return argv[i + 1]
        if arg.startswith("--lang=") and arg[7:] in ("zh", "en"):
            return arg[7:]
    return default


def _help_by_english() -> dict[str, dict[str, Any]]:
    from ..app.messages import catalogue

    return {entry["en"]: entry for code, entry in catalogue("cli").items() if code.startswith("help.")}


def helps(parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    """Every help text of ``parser`` and its commands: (where, English text)."""
    found: list[tuple[str, str]] = []

    def walk(p: argparse.ArgumentParser, path: str) -> None:
        if p.description:
            found.append((f"{path} (description)", p.description))
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    if choice.help:
                        found.append((f"{path} {choice.dest}", choice.help))
                for name, sub in action.choices.items():
                    walk(sub, f"{path} {name}")
            elif action.help and action.help is not argparse.SUPPRESS and action.dest != "help":
                found.append((f"{path} {action.dest}", action.help))

    walk(parser, parser.prog)
    return found


def _wide(text: str) -> int:
    """How many more columns than characters ``text`` takes (a Chinese character takes two)."""
    from unicodedata import east_asian_width

    return sum(1 for ch in text if east_asian_width(ch) in "WF")


class ChineseHelpFormatter(argparse.HelpFormatter):
    """argparse's help with Chinese option values: it pads by characters, a terminal by
    columns, so the help column is realigned by the Chinese characters' extra width."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:  # fmt: skip
        super().__init__(prog, indent_increment, max_help_position, width)
        self._width = self._width * 3 // 4  # the help's Chinese lines: two columns a character

    def _format_action(self, action: argparse.Action) -> str:
        text = super()._format_action(action)
        header = self._format_action_invocation(action)
        extra = _wide(header)
        first, newline, rest = text.partition("\n")
        at = first.find(header)
        if extra and at >= 0:
            end = at + len(header)
            gap = len(first) - end - len(first[end:].lstrip(" "))
            if first[end:].strip() and gap - extra >= 2:
                first = first[:end] + " " * (gap - extra) + first[end + gap :]
            elif first[end:].strip():  # no room left: the help on the next line, in its column
                first = first[:end] + "\n" + " " * (end + gap) + first[end + gap :]
        return first + newline + rest


def localize(parser: argparse.ArgumentParser, lang: str) -> None:
    """The help of ``parser`` and its commands from the catalogue in ``lang``; in Chinese the
    values an option takes are named in Chinese words (``--reason 理由``), not ``REASON``."""
    if lang != "zh":
        return
    table = _help_by_english()

    def word(text: str | None) -> str | None:
        entry = table.get(text or "")
        return None if entry is None else str(entry["zh"])

    def walk(p: argparse.ArgumentParser) -> None:
        p.formatter_class = ChineseHelpFormatter
        p.description = word(p.description) or p.description
        p.epilog = word(p.epilog) or p.epilog
        p._positionals.title = ARGPARSE_ZH["positional arguments"]
        p._optionals.title = ARGPARSE_ZH["options"]
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                action.metavar = "命令"  # named so in usage and in errors, not by its dest
                for choice in action._choices_actions:
                    choice.help = word(choice.help) or choice.help
                for sub in action.choices.values():
                    walk(sub)
                continue
            if action.dest == "help":
                action.help = ARGPARSE_ZH["show this help message and exit"]
            elif action.help is not argparse.SUPPRESS:
                action.help = word(action.help) or action.help
            english_metavar = isinstance(action.metavar, str) and re.fullmatch(r"[A-Z0-9_.]+", action.metavar)
            # an English metavar stands in for the choices too (ROLE for the three roles)
            if action.nargs != 0 and (english_metavar or (action.choices is None and action.metavar is None)):
                named = [f for f in (action.dest, str(action.metavar or "").lower()) if has_field(f)]
                if named:
                    action.metavar = field_words(named[0], "zh")
                else:
                    action.metavar = "值" if action.option_strings else "参数"

    walk(parser)


def has_field(field: str) -> bool:
    from ..app.messages import has

    return has(f"field.{field}")


_FLAG = re.compile(r"--[a-z][a-z0-9-]*")


def words_for_flags(text: str) -> str:
    """``text`` with each ``--flag`` named in Chinese words, the flag beside them (an argparse
    error under zh): the referee reads what it is and sees what to type. Arguments argparse
    did not recognise are quoted as the user typed them: a word put in their place would not
    say which of the typed ones is wrong."""
    prefix = ARGPARSE_ZH["unrecognized arguments: %s"].removesuffix("%s")
    if text.startswith(prefix):
        return text

    def one(m: re.Match[str]) -> str:
        field = m.group(0)[2:].replace("-", "_")
        return f"“{field_words(field, 'zh')}”（{m.group(0)}）" if has_field(field) else m.group(0)

    return _FLAG.sub(one, text)
