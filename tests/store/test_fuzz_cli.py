"""Every command's inputs, hostile (issue 24, item 7): one line and exit 0, 1 or 2, never a
traceback or an internal error, and a refused command changes nothing in the store.

Bounded and seeded: each command of the real parser (walked, so a new command is fuzzed
without being listed here) is run a few times through ``referee_app.cli.main`` in this
process, each argument and option filled from a fixed list of hostile values by a seeded
``random.Random``. A failure names the command line, so it can be run again by hand.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import hashlib
import io
import json
import random
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_helpers import PAIRS_CSV, make_case

from referee_app.cli import main
from referee_app.cli.main import build_parser

SEED = 24
RUNS_PER_COMMAND = 6
#: Commands left out: none reads hostile input the others do not (the window needs a display).
SKIP: set[tuple[str, ...]] = set()
#: The commands whose answer may be "no" (exit 1): a check that found a problem, a question
#: answered no (``pair --publish``), a window this process cannot open. Any other command
#: refusing its input exits 2 (docs/exit-codes.md).
MAY_SAY_NO = {("verify",), ("verify-pdf",), ("verify-paper",), ("pair",), ("hall-display",)}


def _leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:  # fmt: skip
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _leaves(sub, (*path, name))
            return
    if path:
        yield path, parser


def _commands() -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    seen: dict[int, tuple[tuple[str, ...], argparse.ArgumentParser]] = {}
    for path, parser in _leaves(build_parser()):
        seen.setdefault(id(parser), (path, parser))  # an alias is the same parser
    return sorted((v for v in seen.values() if v[0] not in SKIP), key=lambda v: v[0])


COMMANDS = _commands()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A store with an event, its pairs and one match, and the hostile files."""
    root = tmp_path_factory.mktemp("fuzz")
    files = {
        "store": root / "event.db",
        "pairs": root / "pairs.csv",
        "case": root / "case.json",
        "empty": root / "empty.json",
        "dup": root / "dup.json",
        "latin1": root / "latin1.json",
        "deep": root / "deep.json",
        "junk": root / "junk.bin",
        "list": root / "list.json",
        "badpairs": root / "bad-pairs.csv",
        "folder": root / "a-folder",
    }
    files["pairs"].write_text(PAIRS_CSV, encoding="utf-8")
    files["case"].write_text(json.dumps(make_case(), ensure_ascii=False), encoding="utf-8")
    files["empty"].write_bytes(b"")
    files["dup"].write_text('{"round": 1, "round": 2, "table": 1}', encoding="utf-8")
    files["latin1"].write_bytes('{"名": "é"}'.encode("gb18030"))
    files["deep"].write_text("[" * 200_000, encoding="utf-8")
    files["junk"].write_bytes(bytes(range(256)) * 64)
    files["list"].write_text('[1, "2", null, {"pairs": {"NS": -1}}]', encoding="utf-8")
    files["badpairs"].write_text("number,player1,player2\n١١,甲,乙\n-1,丙,丁\n", encoding="utf-8")
    files["folder"].mkdir()
    db = str(files["store"])
    for argv in (
        ["event", "create", "--rules", "bhg-2011", "--name", "杯"],
        ["pairs", "import", str(files["pairs"])],
        ["record", str(files["case"])],
    ):
        rc, _, err = _run(["--db", db, "--lang", "en", *argv])
        assert rc == 0, (argv, err)
    return files


def _hostile(world: dict[str, Path]) -> list[str]:
    return [
        "",
        " ",
        "-1",
        "0",
        "1",
        "2",
        "١١",  # Arabic-Indic digits: int() reads them as 11
        "9" * 40,
        "1e9",
        "NaN",
        "x" * 5000,
        "a\x00b",
        "\udcff\udcfe",  # a file name that is not UTF-8 (os.fsdecode of bytes 0xff 0xfe)
        "\u202eevil\u200b",
        "{}",
        '{"a": 1, "a": 2}',
        "[]",
        "postgresql+psycopg://u:secret@127.0.0.1:notaport/d",
        "postgresql+psycopg://u:secret@127.0.0.1:1/d",
        "mysql://h/d",
        "sqlite://",
        "RA1:0:" + "0" * 64,
        "2026-13-40T25:61",
        "--",
        *(str(p) for p in world.values()),
        str(world["folder"] / "missing.json"),
        str(world["folder"] / "out.pdf"),
    ]


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(argv)
            except SystemExit as exc:  # argparse
                rc = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    finally:
        sys.stdin = old_stdin
    return rc, out.getvalue(), err.getvalue()


#: What a refused command may still write: a wrong PIN is counted (and logged), so that five
#: in a row lock the role (``store.pins``); nothing else.
_COUNTED = ("auth.fail", "auth.ok")


def _content(db: Path) -> str:
    """What the store holds, whatever the WAL holds: every table's rows, less the PIN
    attempts a refused login writes by design (their rows, entries and entry signatures)."""
    con = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        counted = {r[0] for r in con.execute("SELECT seq FROM audit_log WHERE action IN (?, ?)", _COUNTED)}
        tables = [
            r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        digest = hashlib.sha256()
        for table in tables:
            if table == "auth_attempts":
                continue
            for row in con.execute(f'SELECT * FROM "{table}" ORDER BY rowid'):
                if table in ("audit_log", "entry_signatures") and row[0] in counted:
                    continue
                digest.update(repr((table, row)).encode())
        return digest.hexdigest()
    finally:
        con.close()


def _argv(path: tuple[str, ...], parser: argparse.ArgumentParser, rng: random.Random, values: list[str]) -> list[str]:  # fmt: skip
    argv = list(path)
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction) or action.dest in ("lang", "db"):
            continue
        if not action.option_strings:  # a positional: always given
            n = 1 if action.nargs in (None, "?") else rng.randint(1, 2)
            argv += [_value(action, rng, values) for _ in range(n)]
        elif action.nargs == 0:
            if rng.random() < 0.3:
                argv.append(action.option_strings[0])
        elif action.required or rng.random() < 0.5:
            argv += [action.option_strings[-1], _value(action, rng, values)]
    return argv


def _value(action: argparse.Action, rng: random.Random, values: list[str]) -> str:
    if action.choices is not None and rng.random() < 0.5:
        return str(rng.choice(list(action.choices)))
    return rng.choice(values)


@pytest.fixture
def no_terminal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """As in a hall's script: no terminal to ask a PIN or a passphrase on, secrets in the
    environment, and files written by a command land in this test's folder."""

    def no_tty(prompt: str = "", stream: object = None) -> str:
        raise EOFError

    monkeypatch.setattr(getpass, "getpass", no_tty)
    monkeypatch.chdir(tmp_path)
    for name, value in {
        "REFEREE_APP_PIN": "2468013",  # the PIN a set-pin sets is the one given to log in
        "REFEREE_APP_NEW_PIN": "2468013",
        "REFEREE_APP_KEY_PASSPHRASE": "fuzz-passphrase",
        "REFEREE_APP_STATION_KEY_PASSPHRASE": "fuzz-passphrase",
        "REFEREE_APP_STATION_DB_PASSWORD": "fuzz-password",
    }.items():
        monkeypatch.setenv(name, value)


@pytest.mark.parametrize("path,parser", COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
@pytest.mark.usefixtures("no_terminal")
def test_hostile_inputs(path: tuple[str, ...], parser: argparse.ArgumentParser, world: dict[str, Path]) -> None:  # fmt: skip
    rng = random.Random(f"{SEED}:{' '.join(path)}")
    values = _hostile(world)
    store = world["store"]
    for run in range(RUNS_PER_COMMAND):
        db = str(store) if run % 3 else rng.choice([str(store), *values])
        lang = rng.choice(["en", "zh"])
        argv = ["--db", db, "--lang", lang, *_argv(path, parser, rng, values)]
        before = _content(store)
        rc, out, err = _run(argv)
        shown = " ".join(map(repr, argv))
        assert rc in (0, 1, 2), (shown, rc, err[-2000:])
        assert rc != 1 or path in MAY_SAY_NO, (shown, "bad input must exit 2", err[-2000:])
        assert "Traceback" not in out + err and "internal error" not in err and "内部错误" not in err, (
            shown,
            err[-2000:],
        )
        if rc == 2 and path != ("rules", "check"):  # (rules check: a line per problem of each file)
            assert len(err.strip().splitlines()) == 1, (shown, err[-2000:])  # one line
        if rc != 0:
            assert err.strip(), (shown, "refused without a word")
            if "secret" in db:  # a database URL's password is never echoed
                assert "secret" not in err, (shown, err)
            assert _content(store) == before, (shown, "a refused command changed the store")
