"""The command line: ``judge``, ``rules``, and the store's, printing's and desk's commands;
with no command, the window the launcher (:mod:`referee_app.launcher`) hands it. Kept light:
``judge`` must not load Qt, reportlab or the database layer."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, cast

from ..app.language import default_lang
from ..core.errors import Reported
from ..core.errors import one_line as _one_line
from .messages import (
    current_language,
    error_line,
    lang_in,
    lang_of,
    localize,
    restore_argparse,
    say_error,
    text,
    use_language,
    words_for_flags,
)
from .output import stdout_json, survivable_output
from .windows import Windows, open_window

#: The exit codes (docs/exit-codes.md, and the epilog of ``--help``).
EXIT_OK, EXIT_CHECK_FAILED, EXIT_REFUSED, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
EXIT_CODES_HELP = (
    "exit codes: 0 done; 1 a check found a problem (verify, verify-pdf, verify-paper, pair check, "
    "pair simulate), or a "
    "question was answered no; 2 bad input or a refused action (one line on standard error, "
    "nothing changed); 3 an internal error (one line, details in the log); 130 interrupted. "
    "See docs/exit-codes.md."
)


def _short(value: object, limit: int = 120) -> str:
    """A value the user gave, cut to ``limit`` characters for a line (a 5,000-character path)."""
    text_ = str(value)
    return text_ if len(text_) <= limit else f"{text_[: limit - 1]}… ({len(text_)} characters)"


def _say(args: argparse.Namespace, english: str, code: str, **values: object) -> None:
    """A line of the command line's own: English as it was written, else the catalogue's."""
    print(_one_line(english if lang_of(args) == "en" else text(code, args, **values)), file=sys.stderr)


def version_text() -> str:
    """``--version``: the version, the licences, and where the log is."""
    from .. import __version__
    from ..applog import log_file

    return (
        f"referee-app {__version__}\n"
        "License: MIT (the LICENSE file shipped with the app). Font: WenQuanYi Micro Hei "
        "(文泉驿微米黑), Apache-2.0 or GPL-3+ with the font exception.\n"
        "许可：MIT；字体：文泉驿微米黑（Apache-2.0 或 GPL-3+ 附字体例外）。\n"
        f"Log / 日志: {log_file()}"
    )


class _VersionAction(argparse.Action):
    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="the version, licence and log file; exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(version_text())
        parser.exit(0)


class _NotLocalized(Exception):
    """A parse that has to speak (an error) before the help is in the user's language."""


#: The localisation ``main`` put off (issue 23): putting every help text of the parser into
#: Chinese reads the whole catalogue (about 20 ms of TOML), which a command that parses is
#: spared; it is done when the parser speaks: its help, its usage, an error (then the
#: command line is parsed again, so the error names the Chinese words).
_deferred: list[Callable[[], None]] = []


def _localize_now() -> None:
    while _deferred:
        _deferred.pop()()


class _Parser(argparse.ArgumentParser):
    def format_help(self) -> str:
        _localize_now()
        return super().format_help()

    def format_usage(self) -> str:
        _localize_now()
        return super().format_usage()

    def error(self, message: str) -> NoReturn:  # one line, exit 2, like every other bad input
        if _deferred:
            raise _NotLocalized
        if current_language() == "zh":  # no flag in a Chinese line: the option in words
            self.exit(2, f"{self.prog}：{words_for_flags(message)}\n")
        self.exit(2, f"{self.prog}: {message}\n")


CORE_COMMANDS = ("judge", "rules")


def command_of(argv: Sequence[str]) -> str | None:
    """The command word in ``argv`` (skipping the global options and their values)."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("--lang", "--db"):
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


class _Unbuilt:
    """A command's parser left unbuilt (see :class:`_OneCommand`): whatever its ``register``
    adds to it, arguments, groups, nested commands, goes nowhere."""

    def __getattr__(self, _name: str) -> Any:
        return self._nothing

    def _nothing(self, *_args: Any, **_kwargs: Any) -> _Unbuilt:
        return self


class _OneCommand:
    """The subcommands as ``main`` needs them to parse one command line: every command is
    named with its help (the list in ``--help`` and in an unknown command's error stays
    whole), only ``wanted`` gets its arguments. Building all of them cost every command
    about 40 ms of a desk command's wait (issue 11)."""

    def __init__(self, sub: Any, wanted: str) -> None:
        self._sub = sub
        self._wanted = wanted

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        parser = self._sub.add_parser(name, **kwargs)
        return parser if self._wanted in (name, *kwargs.get("aliases", ())) else _Unbuilt()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sub, name)


def build_parser(core_only: bool = False, only: str | None = None) -> argparse.ArgumentParser:
    """The command line; ``core_only`` leaves out the store's, printing's and the desk's
    commands, so ``judge`` does not even import their modules; ``only``: the arguments of
    that command alone (the others only named)."""
    parser = _Parser(
        prog="referee-app",
        description="Referee assistant for 双升 tournaments. With no command, opens the desktop app.",
        epilog=EXIT_CODES_HELP,
    )
    parser.add_argument("--version", action=_VersionAction)
    parser.add_argument(
        "--lang",
        choices=("zh", "en"),
        default=None,
        help="language of messages and texts (default: from the locale, Chinese when unsure)",
    )
    parser.add_argument(
        "--db",
        default=None,
        help="event store: SQLite file or PostgreSQL URL (default: REFEREE_APP_DB or the data folder)",
    )
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    # --lang may also follow the command (referee-app judge case.json --lang en)
    lang_after = _Parser(add_help=False)
    lang_after.add_argument("--lang", choices=("zh", "en"), default=argparse.SUPPRESS)

    judge = sub.add_parser(
        "judge",
        parents=[lang_after],
        help="judge a case file (CASE-FORMAT.md) and print the decision as JSON",
    )
    judge.add_argument("case", help="a case file, or - for standard input")
    judge.set_defaults(func=cmd_judge)

    rules = sub.add_parser("rules", parents=[lang_after], help="rulebooks: list, check, new, export, try")
    rules_sub = rules.add_subparsers(dest="rules_command", required=True, parser_class=_Parser)
    rules_list = rules_sub.add_parser("list", help="the bundled rulebooks")
    rules_list.set_defaults(func=cmd_rules_list)
    rules_check = rules_sub.add_parser("check", help="validate rulebook files; one line per problem")
    rules_check.add_argument("files", nargs="+")
    rules_check.set_defaults(func=cmd_rules_check)
    rules_new = rules_sub.add_parser("new", help="a new event's rulebook, copied from a bundled one")
    rules_new.add_argument("id", help="the new rulebook's id (lowercase letters, digits, - and _)")
    rules_new.add_argument(
        "--from", dest="base", required=True, help="copy this bundled rulebook (or rulebook file)"
    )
    rules_new.add_argument("--out", help="write this file (default: ID.toml in the current folder)")
    rules_new.add_argument("--force", action="store_true", help="replace a file that exists")
    rules_new.set_defaults(func=cmd_rules_new)
    rules_export = rules_sub.add_parser("export", help="a rulebook's text as it is (a bundled one or a file)")
    rules_export.add_argument("ref", help="a bundled rulebook id or a .toml path")
    rules_export.add_argument("--out", help="write this file (default: standard output)")
    rules_export.add_argument("--force", action="store_true", help="replace a file that exists")
    rules_export.set_defaults(func=cmd_rules_export)
    rules_try = rules_sub.add_parser(
        "try",
        help="judge sample hands with a draft rulebook beside the bundled one it came from",
    )
    rules_try.add_argument("file", help="the draft rulebook file")
    rules_try.add_argument("cases", nargs="*", help="your own case files or folders")
    rules_try.add_argument(
        "--against", help="the bundled rulebook to judge beside (default: the one the draft was copied from)"
    )
    rules_try.set_defaults(func=cmd_rules_try)
    rules_schema = rules_sub.add_parser("schema", help="the rulebook's JSON Schema, for a text editor")
    rules_schema.add_argument("--out", help="write this file (default: standard output)")
    rules_schema.add_argument("--force", action="store_true", help="replace a file that exists")
    rules_schema.set_defaults(func=cmd_rules_schema)

    if core_only:
        return parser
    # Each layer registers its own commands; registering imports nothing heavy.
    from . import store_commands

    if only is not None:
        sub = cast("argparse._SubParsersAction[_Parser]", _OneCommand(sub, only))  # as registering uses it

    store_commands.register(sub)
    from . import print_commands as printing_commands

    printing_commands.register(sub)
    try:
        from . import desk_commands  # standings and pairing (the chief referee's desk)
    except ImportError:  # not built yet
        desk_commands = None  # type: ignore[assignment]
    if desk_commands is not None:
        desk_commands.register(sub)
    return parser


def cmd_judge(args: argparse.Namespace) -> int:
    from ..core.engine import judge
    from ..core.errors import CaseError, RulebookError
    from ..core.inputs import BadInput, read_json

    source = "stdin" if args.case == "-" else args.case
    try:
        case = read_json(args.case)
    except BadInput as exc:
        say_error(exc, args)
        return 2
    try:
        decision = judge(case, lang=args.lang)
    except (CaseError, RulebookError) as exc:
        say_error(exc, args)
        return 2
    except RecursionError:
        _say(args, f"{source}: the case is nested too deeply", "file.too_deep", source=source)
        return 2
    sys.stdout.write(stdout_json(decision, indent=2) + "\n")
    return 0


def cmd_rules_list(args: argparse.Namespace) -> int:
    from ..core.errors import RulebookError
    from ..core.rulebook import bundled_ids, load_rulebook

    status = 0
    for rulebook_id in bundled_ids():
        try:
            rb = load_rulebook(rulebook_id)
        except RulebookError as exc:
            say_error(exc, args)
            status = 1
            continue
        source = rb.data["event"]["source"]
        print(f"{rb.id}\t{rb.name(args.lang)}\t{source}")
    return status


def cmd_rules_check(args: argparse.Namespace) -> int:
    from ..core.rulebook import check_files

    problems = check_files(args.files)
    for problem in problems:  # the files given are the input: their problems are bad input
        print(error_line(problem, lang_of(args)), file=sys.stderr)
    if not problems:
        print(text("cli.rules_ok", args, n=len(args.files)), file=sys.stderr)
    return EXIT_REFUSED if problems else EXIT_OK


def cmd_rules_new(args: argparse.Namespace) -> int:
    """``rules new ID --from BUNDLED``: the bundled rulebook's text under the new id, in a
    file (``ID.toml`` here unless ``--out``) that is never overwritten without ``--force``."""
    from ..app.rulebooks import new_rulebook_text, write_new_file

    content = new_rulebook_text(args.id, args.base)
    target = write_new_file(args.out or f"{args.id}.toml", content, force=args.force)
    print(text("cli.rules_written", args, target=target, id=args.id), file=sys.stderr)
    return EXIT_OK


def cmd_rules_export(args: argparse.Namespace) -> int:
    """``rules export ID``: a rulebook's text as it is, to standard output or ``--out``."""
    from ..app.rulebooks import export_text, write_new_file

    content = export_text(args.ref)
    if args.out is None:
        sys.stdout.write(content)
        return EXIT_OK
    target = write_new_file(args.out, content, force=args.force)
    print(text("cli.rules_written", args, target=target, id=args.ref), file=sys.stderr)
    return EXIT_OK


def cmd_rules_try(args: argparse.Namespace) -> int:
    """``rules try DRAFT [CASES…]``: the trial bench, the rulings of the draft beside those of
    the bundled rulebook it came from, in the command's language."""
    from ..app.trial import open_trial, own_cases, trial_report, try_rulebook

    draft, base = open_trial(args.file, args.against)
    lang = lang_of(args)
    trials = try_rulebook(draft, base, own_cases(args.cases), lang)
    for line in trial_report(trials, draft, base, lang):
        print(line)
    return EXIT_OK


def cmd_rules_schema(args: argparse.Namespace) -> int:
    """``rules schema``: the JSON Schema of a rulebook, each key titled in Chinese and
    described in both languages (docs/rulebook.schema.json is this output)."""
    from ..app.rulebook_reference import json_schema_text
    from ..app.rulebooks import write_new_file

    content = json_schema_text()
    if args.out is None:
        sys.stdout.write(content)
        return EXIT_OK
    target = write_new_file(args.out, content, force=args.force)
    print(text("cli.schema_written", args, target=target), file=sys.stderr)
    return EXIT_OK


def cmd_gui(args: argparse.Namespace) -> int:
    return open_window("window", args)


def main(argv: Sequence[str] | None = None, windows: Windows | None = None) -> int:
    """Run the command line ``argv``; with no command it opens the window that ``windows``
    (the launcher's) loads. Without ``windows`` the command line opens no window."""
    survivable_output()  # a name with 𠮷 on a cp936 console must not end the command
    given = list(sys.argv[1:] if argv is None else argv)
    command = command_of(given)
    # no command opens the window: its parser needs only the global options (unless --help)
    window = command is None and not {"-h", "--help"} & set(given)
    lang = lang_in(given, default_lang())
    use_language(lang)  # argparse's own words, from building the parser on
    parser = build_parser(core_only=command in CORE_COMMANDS or window, only=command)
    _deferred[:] = [lambda: localize(parser, lang)]
    try:
        try:
            args = parser.parse_args(given)
        except _NotLocalized:
            _localize_now()
            args = parser.parse_args(given)
    finally:
        _deferred.clear()
        restore_argparse()
    if args.lang is None:
        args.lang = default_lang()
    args.windows = windows  # for the commands that open one (cli.windows.open_window)
    func = getattr(args, "func", None)
    if func is None:
        return cmd_gui(args)
    if not os.environ.get("REFEREE_APP_DEBUG"):
        import warnings

        # a library's warning is no line for a referee: verify-pdf printed pyHanko's import
        # of DSA (CryptographyDeprecationWarning) as two lines before its one
        warnings.simplefilter("ignore")
    try:
        return int(func(args))
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
    except Reported as err:  # any layer's refusal its command did not word: one line, exit 2
        say_error(err, args)
        return EXIT_REFUSED
    except Exception as err:  # noqa: BLE001 - a referee never sees a traceback
        if os.environ.get("REFEREE_APP_DEBUG"):
            raise
        if isinstance(err, OSError) and err.errno == errno.ENOSPC:
            where = f"{err.filename}: " if err.filename else ""
            print(_one_line(f"referee-app: {where}{text('error.disk_full', args)}"), file=sys.stderr)
            return EXIT_REFUSED
        if isinstance(err, OSError) and err.filename is not None:  # a path given that the system refuses
            if lang_of(args) == "en":
                line = f"{_short(err.filename)}: {err.strerror or err}"
            else:
                line = text("cli.os_error", args, target=_short(err.filename))
            print(_one_line(line), file=sys.stderr)
            return EXIT_REFUSED
        from ..applog import log_unexpected

        log = log_unexpected(err, f"referee-app {getattr(args, 'command', '')}")
        if lang_of(args) == "en":
            details = f" (details: {log})" if log else ""
            message = f"referee-app: internal error: {type(err).__name__}: {err}{details}"
        else:
            message = f"referee-app: {text('error.internal', args, log=log or '')}"
        print(_one_line(message), file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
