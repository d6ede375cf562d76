"""Issue 9, item 4: under ``--lang zh`` the command line says nothing in English and names no
flag: the common refusals (a bad case file, a late appeal, a wrong PIN, a missing reason, an
unknown pair), argparse's own errors, and ``--help`` of the program and its commands.

What a Chinese line may still carry is what the user typed or must type as it is: file
names, paths and the store's URL, rulebook ids, the case format's keys and values, the tokens of ALLOWED;
in ``--help`` also the program's command words, option strings and choices (the words a
referee types), which are removed before the check.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from datetime import UTC, timedelta
from pathlib import Path

import pytest
from store_helpers import cli, write_json
from test_appeals import flip_case, record, recorded_at, ruling_ids

from referee_app.store.service import Actor, Store

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_messages import ALLOWED, CASE_WORDS  # noqa: E402

RULEBOOK_IDS = {"bhg", "gansu", "hbue"}


def english(text: str, *, also_allowed: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """The English words of a line of output (see the module's doc)."""
    text = re.sub(r"[\w+]+://\S+", "", text)  # the store's URL (PostgreSQL)
    text = re.sub(r"(?:[\w.-]*/)+[\w.\-]*", "", text)  # paths
    text = re.sub(r"[\w-]*\.(json|toml|csv|pdf|p12|pem|db|xlsx|xls)\b", "", text)  # file names, suffixes
    text = re.sub(r"\b[a-z0-9]+(?:\[?,[a-z0-9]+\]?)+", "", text)  # a header line as typed: number,player1
    text = re.sub(r"\b[a-z]+-\d{4}\b", "", text)  # rulebook ids: bhg-2011
    text = re.sub(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b", "", text)  # environment variables
    text = re.sub(r"\bhands\[\d+\][\w.\[\]]*|\b[a-z_]+(?:\.[a-z_\[\]0-9]+)+", "", text)  # paths in a case
    words = re.findall(r"[A-Za-z_]{3,}", text)
    return [w for w in words if w not in ALLOWED | CASE_WORDS | RULEBOOK_IDS | also_allowed]


def assert_chinese(text: str, *, flags: bool = False, **kw: set[str]) -> None:
    """``text`` is Chinese; with ``flags``, an option as it is typed may stand beside its
    words (an error about the command line itself: what to type)."""
    assert text.strip(), "nothing said"
    if flags:
        text = re.sub(r"--[a-z][a-z0-9-]*", "", text)
    assert not re.search(r"--[a-z]", text), text
    assert not english(text, **kw), (english(text, **kw), text)
    assert re.search(r"[\u4e00-\u9fff]", text), text


def test_a_bad_case_file(tmp_path: Path) -> None:
    case = {"event": "bhg-2011", "first_dealer": "E", "finished": "open"}
    case["hands"] = [{"defender_points": 60, "infractions": [{"kind": "exposed_card", "seat": "X"}]}]
    for text in (json.dumps(case), "{", "[]", json.dumps({**case, "event": "x-1"})):
        path = tmp_path / "case.json"
        path.write_text(text, encoding="utf-8")
        rc, out, err = cli(None, "judge", str(path), lang="zh")
        assert rc == 2 and out == "" and err.count("\n") == 1, err
        assert_chinese(err)
    rc, _, err = cli(None, "judge", str(tmp_path / "nope.json"), lang="zh")
    assert rc == 2
    assert_chinese(err)


def test_a_late_appeal_and_a_missing_reason(
    event_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mid = record(event_db, tmp_path, flip_case())
    rid = ruling_ids(event_db, mid)[0]
    filed = recorded_at(event_db, mid) + timedelta(minutes=17)
    late = filed.isoformat()
    appeal = (
        "appeal",
        "file",
        "--ruling",
        str(rid),
        "--by",
        "NS",
        "--grounds",
        "牌是掉出来的",
        "--receipt",
        "R-1",
    )
    # the times are the hall's clock (a Beijing station), not the store's UTC
    monkeypatch.setenv("TZ", "Asia/Shanghai")
    time.tzset()
    try:
        rc, out, err = cli(event_db, *appeal, "--filed-at", late, "--backdate-reason", "补录", lang="zh")
    finally:
        monkeypatch.undo()
        time.tzset()
    assert rc == 2 and out == "", err
    assert "7 分钟" in err and "10 分钟申诉期" in err
    beijing = (filed.astimezone(UTC) + timedelta(hours=8)).strftime("%Y-%m-%d %H:%M:%S")
    assert f"提出：{beijing}" in err, err
    assert not re.search(r"\d{2}:\d{2}:\d{2}Z|T\d{2}:", err), err
    assert_chinese(err)
    # the English line names the flags, as it always did
    rc, _, err = cli(event_db, *appeal, "--filed-at", late, "--backdate-reason", "补录", lang="en")
    assert rc == 2 and "--accept-late" in err
    for extra in (
        ["--accept-late"],  # a late appeal accepted without its reason
        ["--filed-at", late],  # back-dated without a reason
        ["--reason", "x"],  # a reason with nothing to give it for
    ):
        rc, out, err = cli(event_db, *appeal, *extra, lang="zh")
        assert rc == 2 and out == "", err
        assert_chinese(err)
    rc, _, err = cli(event_db, *appeal, "--accept-late", lang="zh")
    assert err == "理由：接受逾期申诉须写明理由。\n"
    rc, _, err = cli(event_db, "void", "--round", "1", "--table", "1", "--reason", " ", lang="zh")
    assert rc == 2 and err == "理由：作废记录需要书面理由。\n"


def test_an_unknown_pair_and_an_unknown_event(event_db: str, tmp_path: Path) -> None:
    case = flip_case()
    case["pairs"] = {"NS": "1", "EW": "99"}
    rc, out, err = cli(event_db, "record", write_json(tmp_path / "c.json", case), lang="zh")
    assert rc == 2 and out == "" and "参赛对 99" in err, err
    assert_chinese(err)
    rc, _, err = cli(event_db, "pairs", "list", "--event", "7", lang="zh")
    assert rc == 2
    assert_chinese(err)
    rc, _, err = cli(event_db, "withdraw", "--pair", "99", "--from-round", "2", "--reason", "弃权", lang="zh")
    assert rc == 2
    assert_chinese(err)


def test_a_wrong_pin(event_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record(event_db, tmp_path, flip_case())
    with Store.open(event_db) as store:
        store.set_pin(1, "chief_referee", "246813", actor=Actor("孙裁判长", "desk-1"))
    monkeypatch.setenv("REFEREE_APP_USER", "孙裁判长")
    monkeypatch.setenv("REFEREE_APP_PIN", "000000")
    void = ("void", "--round", "1", "--table", "1", "--reason", "抄错")
    rc, out, err = cli(event_db, *void, "--role", "chief_referee", lang="zh")
    assert (rc, out) == (2, "")
    assert err == "PIN 不正确；再错 4 次将锁定 60 秒。\n"
    rc, _, err = cli(event_db, *void, "--role", "chief_referee", lang="en")
    assert err == "wrong PIN for the chief referee; 3 tries left before a 60-second lock\n"
    monkeypatch.delenv("REFEREE_APP_PIN")
    rc, _, err = cli(event_db, *void, lang="zh")  # no role: refused, and told to give one
    assert rc == 2 and err.startswith("作废记录需要裁判员、裁判长的 PIN（当前角色：未登录）；请指定角色")
    assert_chinese(err)


def test_argparse_errors_in_chinese() -> None:
    from referee_app.cli.main import build_parser

    for argv in (
        ["judge"],  # a required argument missing
        ["appeal", "file", "--by", "NS"],
        ["--lang", "zh", "record", "c.json", "--frobnicate"],
        ["appeal", "file", "--ruling", "x", "--by", "NS", "--grounds", "g"],  # not a number
        ["bogus"],
    ):
        rc, out, err = cli(None, *argv, lang="zh")
        assert rc == 2 and out == "" and err.count("\n") == 1, err
        # the command the user typed is quoted back as typed, with the commands to choose from
        assert_chinese(err, flags=True, also_allowed=_vocabulary(build_parser()) | {"bogus"})


def test_argparse_names_an_option_in_words_and_as_typed() -> None:
    # a missing option: what it is, in words, and the flag to type
    rc, _, err = cli(None, "appeal", "file", "--by", "NS", lang="zh")
    assert rc == 2 and "缺少必需的参数：“判罚”（--ruling）" in err, err
    # an argument argparse does not know is quoted as typed: a word in its place would not
    # say which of the typed ones is wrong
    rc, _, err = cli(None, "judge", "c.json", "--round", "1", "--bogus", lang="zh")
    assert rc == 2 and err.endswith("无法识别的参数：--round 1 --bogus\n"), err
    assert "选项" not in err and "轮次" not in err


def _vocabulary(parser: argparse.ArgumentParser) -> set[str]:
    """The words a referee types: command words, option strings' words, choices."""
    words: set[str] = set(re.findall(r"[A-Za-z_]+", parser.prog))
    for action in parser._actions:
        for option in action.option_strings:
            words |= set(re.findall(r"[A-Za-z_]+", option))
        for choice in action.choices or ():
            words |= set(re.findall(r"[A-Za-z_]+", str(choice)))
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                words |= _vocabulary(sub)
    return words


def _command_paths(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[list[str]]:
    """Every command the parser has, as typed (``[]`` is the program itself)."""
    paths = [list(path)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                paths += _command_paths(sub, (*path, name))
    return paths


def _all_command_paths() -> list[list[str]]:
    from referee_app.cli.main import build_parser

    return _command_paths(build_parser())


@pytest.mark.parametrize("argv", _all_command_paths(), ids=lambda argv: " ".join(argv) or "referee-app")
def test_help_in_chinese(argv: list[str]) -> None:
    from referee_app.cli.main import build_parser

    rc, out, err = cli(None, *argv, "--help", lang="zh")
    assert rc == 0 and err == ""
    assert out.startswith("用法：referee-app")
    for word in ("usage", "options", "positional", "show this help"):
        assert word not in out
    # the option strings are what a referee types; everything else must be Chinese
    text = re.sub(r"(?<![\w-])--?[a-zA-Z][\w-]*", "", out)
    assert_chinese(text, also_allowed=_vocabulary(build_parser()))


def test_help_in_chinese_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """No --lang: the locale's language (C.UTF-8 names none: Chinese)."""
    import contextlib
    import io

    from referee_app.cli import main

    monkeypatch.setenv("LANG", "C.UTF-8")
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(["judge", "--help"])
    assert out.getvalue().startswith("用法：") and "案例文件，或用 - 表示标准输入" in out.getvalue()
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(["judge", "--help"])
    assert out.getvalue().startswith("usage: ") and "a case file, or - for standard input" in out.getvalue()


def test_the_desks_notes_on_the_record(event_db: str, tmp_path: Path) -> None:
    """standings and pair note a table without a result and pairs without a match: in the
    station's language (they were English lines in either)."""
    case = {**flip_case(), "finished": "open"}
    record(event_db, tmp_path, case)
    rc, _, err = cli(event_db, "standings", lang="zh")
    assert rc == 0 and "第 1 轮第 1 桌（1–2）尚无结果，不计入。" in err, err
    assert "参赛对 3, 4, 5, 6, 7, 8 没有对局记录" in err, err
    for line in err.splitlines():
        assert_chinese(line)
    rc, _, err = cli(event_db, "standings", lang="en")
    assert rc == 0 and "round 1 table 1 (1–2): no result yet, not counted" in err, err
    assert "no match recorded for pairs 3, 4, 5, 6, 7, 8 (0 points)" in err, err
    # pairing over the unfinished round: its gaps in words (they were "missing 3; table 1 has
    # no result" in either language)
    rc, out, err = cli(event_db, "pair", "--round", "2", lang="zh")
    assert rc == 2 and out == "" and "参赛对 3 无结果" in err and "第 1 桌尚无结果" in err, err
    assert_chinese(err)
