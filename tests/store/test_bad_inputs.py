"""Inputs to refuse, and how (issue 24, items 7 and 8): pair numbers are positive ASCII whole
numbers, a JSON key given twice is refused by name, hidden characters in an error line are
shown escaped, and every bad input is one line and exit 2."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from store_helpers import cli, cli_within, count_entries, make_case, write_json

from referee_app.core.errors import one_line
from referee_app.core.inputs import BadInput, is_pair_number, loads_strict, parse_json

ROOT = Path(__file__).resolve().parents[2]
HOSTILE_NUMBERS = ("-1", "١١", "0", "00", "1.5", "+3", "²", "1_0", "７", " 1 2 ")


@pytest.mark.parametrize("number", HOSTILE_NUMBERS)
def test_a_pairs_file_with_a_pair_number_that_is_not_one(db: str, tmp_path: Path, number: str) -> None:
    assert cli(db, "event", "create", "--rules", "bhg-2011", "--name", "杯")[0] == 0
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(f"number,player1,player2\n1,甲,乙\n{number},丙,丁\n", encoding="utf-8")
    entries = count_entries(db)
    rc, out, err = cli(db, "pairs", "import", str(pairs))
    assert rc == 2 and out == "" and err.count("\n") == 1, err
    assert f"{pairs}: line 3: pair number" in err and "digits 0-9" in err and "nothing imported" in err
    rc, _, err = cli(db, "pairs", "import", str(pairs), lang="zh")
    assert rc == 2 and "第 3 行" in err and "参赛对编号" in err
    assert count_entries(db) == entries
    assert cli(db, "pairs", "list")[1] == ""


@pytest.mark.parametrize("number", [*HOSTILE_NUMBERS, -1, 0, 1.0, True, None])
def test_a_case_with_a_pair_number_that_is_not_one(event_db: str, tmp_path: Path, number: object) -> None:
    case = make_case()
    case["pairs"]["EW"] = number
    entries = count_entries(event_db)
    rc, out, err = cli(event_db, "record", write_json(tmp_path / "c.json", case))
    assert rc == 2 and out == "" and err.count("\n") == 1, err
    assert "pairs.EW: expected a pair number (a whole number ≥ 1 in digits 0-9)" in err, err
    assert count_entries(event_db) == entries


def test_pair_numbers_in_the_core() -> None:
    assert is_pair_number("12") and is_pair_number("007") and is_pair_number("1" * 9)
    for bad in (*HOSTILE_NUMBERS, "", "1" * 10):
        assert not is_pair_number(bad), bad
    assert int("١١") == 11 and int("1_0") == 10  # what the check is for: Python's int() reads them


def test_a_key_given_twice_is_refused_with_its_name() -> None:
    with pytest.raises(BadInput, match="the key 'cards' appears twice") as err:
        parse_json('{"hands": [{"infractions": [{"cards": 1, "cards": 9}]}]}', "c.json")
    assert err.value.code == "file.duplicate_key" and err.value.values["key"] == "cards"
    for text in ("NaN", '{"x": Infinity}', "-Infinity"):
        with pytest.raises(BadInput, match="not a case"):
            parse_json(text, "c.json")
    assert loads_strict('{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}') == {
        "a": {"a": 1},
        "b": [{"a": 2}, {"a": 3}],
    }


@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
def test_every_json_input_refuses_a_key_given_twice(event_db: str, tmp_path: Path) -> None:
    case = json.dumps(make_case(), ensure_ascii=False)
    twice = case.replace('"round": 1', '"round": 1, "round": 2', 1)
    assert twice != case
    dup = tmp_path / "dup.json"
    dup.write_text(twice, encoding="utf-8")
    entries = count_entries(event_db)
    runs = {
        "judge": cli(None, "judge", str(dup)),
        "judge stdin": cli(None, "judge", "-", stdin=twice),
        "record": cli(event_db, "record", str(dup)),
        "correct": cli(event_db, "correct", str(dup), "--reason", "r"),
        "print": cli(None, "print", "scoresheet", "--case", str(dup), "-o", str(tmp_path / "x.pdf")),
        "pairing enter": cli(
            event_db, "pairing", "enter", str(_pairing_twice(tmp_path)), "--round", "1", "--yes"
        ),
        "sanctions": cli(
            event_db,
            "appeal",
            "decide",
            "1",
            "--decision",
            "upheld",
            "--reason",
            "r",
            "--committee",
            "甲",
            "--sanctions",
            '[{"kind": "warning", "kind": "ban"}]',
        ),  # fmt: skip
    }
    for name, (rc, out, err) in runs.items():
        assert rc == 2 and out == "" and err.count("\n") == 1, (name, err)
        assert "appears twice in one object" in err, (name, err)
    assert "'round'" in runs["record"][2] and "'kind'" in runs["sanctions"][2]
    rc, _, err = cli(event_db, "record", str(dup), lang="zh")
    assert rc == 2 and "“round”出现了两次" in err, err
    assert count_entries(event_db) == entries
    assert not (tmp_path / "x.pdf").exists()


def _pairing_twice(tmp_path: Path) -> Path:
    path = tmp_path / "pairing.json"
    path.write_text('{"round": 1, "tables": [], "tables": []}', encoding="utf-8")
    return path


def test_hidden_characters_are_shown_escaped() -> None:
    line = one_line("x\u202eabc\u200bd\u2066e\ufeff\x00f\x1bg\u2028h 中文 é")
    assert line == "x\\u202eabc\\u200bd\\u2066e\\ufeff\\x00f\\x1bg h 中文 é"


def test_error_lines_escape_what_the_user_typed(tmp_path: Path) -> None:
    evil = str(tmp_path / "case\u202enosj.exe\u200b.json")
    for lang in ("en", "zh"):
        rc, out, err = cli(None, "judge", evil, lang=lang)
        assert rc == 2 and err.count("\n") == 1, err
        assert "\u202e" not in err and "\u200b" not in err
        assert "\\u202enosj.exe\\u200b.json" in err
    rc, _, err = cli(str(tmp_path / "x\u202e.db"), "verify")
    assert rc == 2 and "\u202e" not in err and "x\\u202e.db" in err


def test_bad_database_values_are_one_line_and_exit_2(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    for value, says in (
        ("postgresql+psycopg://referee:secret@127.0.0.1:notaport/x", "--db: not a database path or URL"),
        (str(tmp_path / ("a" * 5000)), "--db: not a usable database path (File name too long)"),
        ("mysql://h/x", "unsupported database"),
        ("sqlite://", "in-memory"),
        (str(folder), "is a folder"),
    ):
        for lang in ("en", "zh"):
            rc, out, err = cli(value, "verify", lang=lang)
            assert rc == 2 and out == "" and err.count("\n") == 1, (value[:80], err)
            assert "internal error" not in err and "内部错误" not in err and "secret" not in err, err
            assert len(err) < 400, err
            if lang == "en":
                assert says in err, err


def test_bad_rulebooks_are_said_on_standard_error_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("x = [\n", encoding="utf-8")
    rc, out, err = cli(None, "rules", "check", str(bad))
    assert rc == 2 and out == "" and f"{bad}: TOML syntax error" in err
    rc, out, err = cli(str(tmp_path / "e.db"), "event", "create", "--rules", str(bad), "--name", "x")
    assert rc == 2 and out == "" and err.count("\n") == 1 and "--rules" in err
    assert not (tmp_path / "e.db").exists()


def test_the_exit_codes_are_in_the_help_and_the_docs() -> None:
    for lang, words in (("en", "exit codes: 0 done; 1 a check found a problem"), ("zh", "退出码：0 完成")):
        rc, out, _ = cli(None, "--help", lang=lang)
        assert rc == 0 and words in " ".join(out.split()), out[-600:]
    doc = (ROOT / "docs" / "exit-codes.md").read_text(encoding="utf-8")
    for code in ("`0`", "`1`", "`2`", "`3`", "`130`"):
        assert code in doc
    assert "docs/exit-codes.md" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
def test_a_device_a_pipe_or_a_folder_given_as_a_file_is_refused_unread(event_db: str, tmp_path: Path) -> None:
    fifo = tmp_path / "case.json"
    os.mkfifo(fifo)  # opened for reading, it waits for a writer that never comes
    folder = tmp_path / "folder.json"
    folder.mkdir()
    entries = count_entries(event_db)
    for given in ("/dev/zero", str(fifo), str(folder)):  # /dev/zero: read forever, memory filling
        for args in (
            ("judge", given),
            ("record", given),
            ("pairs", "import", given),
            ("rules", "check", given),
            ("verify", "--anchors", given),
            ("print", "scoresheet", "--case", given, "-o", str(tmp_path / "x.pdf")),
        ):
            rc, out, err = cli_within(10, None if args[0] in ("judge", "print") else event_db, *args)
            assert rc == 2 and err.count("\n") == 1 and "Traceback" not in err, (args, rc, err)
            assert err.startswith(given) and "not a file" in err, (args, err)
    rc, _, err = cli(event_db, "record", "/dev/zero", lang="zh")
    assert rc == 2 and "/dev/zero：无法读取：这不是文件" in err, err
    assert count_entries(event_db) == entries


def test_standard_input_is_read_only_up_to_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee_app.core import inputs

    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", 1000)
    rc, out, err = cli(None, "judge", "-", stdin=" " * 990 + json.dumps(make_case()))
    assert rc == 2 and out == "" and err == "stdin: more than 1000 bytes, too large to be read\n", err


def test_an_output_that_is_a_pipe_a_device_or_a_link_is_not_replaced(tmp_path: Path) -> None:
    """print writes beside the output and renames onto it: as root, ``-o /dev/full`` replaced
    the device with a PDF, ``-o /dev/stdout`` the link (found by the issue 24 audit)."""
    case = write_json(tmp_path / "c.json", make_case())
    fifo, kept, link = tmp_path / "pipe.pdf", tmp_path / "kept.pdf", tmp_path / "link.pdf"
    os.mkfifo(fifo)
    kept.write_bytes(b"keep me")
    link.symlink_to(kept)
    for out in (fifo, link):
        rc, _, err = cli(None, "print", "scoresheet", "--case", case, "-o", str(out))
        assert (
            rc == 2 and err == f"{out}: cannot write: not a file (a device, a pipe or a link), not replaced\n"
        ), err
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and link.is_symlink() and kept.read_bytes() == b"keep me"
    rc, _, err = cli(None, "print", "scoresheet", "--case", case, "-o", str(fifo), lang="zh")
    assert rc == 2 and "无法写入：这不是文件" in err, err


@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
def test_numbers_on_the_command_line_are_ascii_digits_a_store_can_hold(event_db: str) -> None:
    """Every numeric option read with int(): ١١ and 1_0 taken as 11 and 10, a 20-digit round
    an internal error (exit 3) or a standings that never ended (the issue 24 audit)."""
    entries = count_entries(event_db)
    for value in ("١١", "1_0", " 1", "99999999999999999999", "1" * 10):
        for args in (
            ("void", "--round", value, "--table", "1", "--reason", "r"),
            ("pairing", "show", "--round", value),
            ("standings", "--round", value),
            ("clock", "show", "--round", value),
            ("appeal", "decide", value, "--decision", "upheld", "--reason", "r", "--committee", "甲"),
        ):
            rc, out, err = cli_within(20, event_db, *args)
            assert rc == 2 and out == "" and err.count("\n") == 1, (args, rc, err)
            assert f"invalid number value: {value!r}" in err, (args, err)
    for value in ("-1", "0", "1000"):  # a clock of round -1 was kept in the store
        rc, _, err = cli(event_db, "clock", "start", "--round", value)
        assert rc == 2 and err == f"--round: expected a round number from 1 to 999, got {int(value)}\n", err
    rc, _, err = cli(event_db, "clock", "show", "--round", "0", lang="zh")
    assert rc == 2 and "应为 1 至 999 的轮次，收到 0" in err, err
    assert count_entries(event_db) == entries
