"""The command line as a user meets it: real processes, one clear line for every bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee_app.applog import log_file

from .conftest import ROOT, RULES

CASES = ROOT / "examples" / "cases"


def referee_app(*args: str, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "referee_app", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def one_line(run: subprocess.CompletedProcess) -> str:
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr
    return lines[0]


def test_judge_reads_standard_input() -> None:
    case = {
        "event": "bhg-2011",
        "first_dealer": "E",
        "finished": "open",
        "hands": [{"defender_points": 60}],
    }
    run = referee_app("--lang", "en", "judge", "-", stdin=json.dumps(case))
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["hands"][0]["levels_after"] == {"NS": "2", "EW": "3"}
    assert out["result"] is None


def test_the_bad_seat_example_prints_the_contract_line() -> None:
    run = referee_app("--lang", "en", "judge", str(CASES / "bad-seat.json"))
    assert run.returncode == 2 and run.stdout == ""
    assert one_line(run) == 'hands[0].infractions[0].seat: expected one of E, S, W, N, got "X"'


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{", "not JSON: Expecting property name"),
        ("[]", "(case): expected an object"),
        ('{"event": "bhg-2011"}', "first_dealer: required"),
        (
            '{"event": "bhg-2011", "first_dealer": "E", "finished": "open", "hands": [{"defender_points": 62}]}',
            "hands[0].defender_points: card points come in fives, got 62",
        ),
        (
            '{"event": "bhg-2011", "first_dealer": "E", "finished": "open", "hands": [], "colour": 1}',
            "colour: unknown field",
        ),
        (
            '{"event": "x-1", "first_dealer": "E", "finished": "open", "hands": []}',
            "event: x-1: no bundled rulebook",
        ),
        (
            '{"event": "bhg-2011", "first_dealer": "E", "finished": "open", "hands": [{"defender_points": 60,'
            ' "infractions": [{"kind": "wrong_card_count", "seat": "E"}]}]}',
            "hands[0].infractions[0].phase: required for wrong_card_count",
        ),
        (
            '{"event": "bhg-2011", "first_dealer": "E", "finished": "open", "hands": [{"defender_points": 60,'
            ' "infractions": [{"kind": "hidden_card", "seat": "E", "trick": 5, "discovered": 3}]}]}',
            "hands[0].infractions[0].discovered: trick 3 is before the offence in trick 5",
        ),
    ],
)
def test_bad_cases_get_one_line_and_exit_2(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "case.json"
    path.write_text(text, encoding="utf-8")
    run = referee_app("--lang", "en", "judge", str(path))
    assert run.returncode == 2 and run.stdout == ""
    assert expected in one_line(run)


def test_a_missing_case_file_is_named(tmp_path: Path) -> None:
    run = referee_app("--lang", "en", "judge", str(tmp_path / "nope.json"))
    assert run.returncode == 2 and "nope.json: cannot read" in one_line(run)


def test_rules_list_shows_the_bundled_rulebooks() -> None:
    run = referee_app("--lang", "zh", "rules", "list")
    assert run.returncode == 0, run.stderr
    ids = [line.split("\t")[0] for line in run.stdout.splitlines()]
    assert ids == ["bhg-2011", "gansu-2018", "hbue-2018"]
    assert "甘肃省职工双升级扑克牌比赛（2018）" in run.stdout


def test_rules_check_passes_the_bundled_rulebooks() -> None:
    run = referee_app("rules", "check", *map(str, sorted(RULES.glob("*.toml"))))
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout == ""


def _broken_bhg(tmp_path: Path) -> tuple[Path, str]:
    """BHG's rulebook with two problems (a tractor rule that is no choice, a negative appeal
    window), written to a file: its path and text."""
    text = (RULES / "bhg-2011.toml").read_text(encoding="utf-8")
    broken = text.replace('tractor = "power"', 'tractor = "cubic"').replace(
        "window_minutes = 10", "window_minutes = -10"
    )
    path = tmp_path / "broken.toml"
    path.write_text(broken, encoding="utf-8")
    return path, broken


def test_rules_check_names_file_key_path_and_line(tmp_path: Path) -> None:
    path, broken = _broken_bhg(tmp_path)
    run = referee_app("--lang", "en", "rules", "check", str(path))
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 2, run.stderr
    tractor_line = broken.splitlines().index('tractor = "cubic"') + 1
    assert lines[0].startswith(f"{path}: bottom.tractor: ")
    assert lines[0].endswith(f"(line {tractor_line})")
    assert "'power' or 'linear'" in lines[0]
    assert lines[1].startswith(f"{path}: appeal.window_minutes: ") and "-10" in lines[1]


def test_rules_check_reports_toml_syntax_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "syntax.toml"
    path.write_text('schema_version = 1\nid = "x"\n[event\nname = 1\n', encoding="utf-8")
    run = referee_app("--lang", "en", "rules", "check", str(path))
    assert run.returncode == 2
    [line] = run.stderr.strip().splitlines()
    assert line.startswith(f"{path}: TOML syntax error:") and "line 3" in line


def test_rules_check_unknown_key_and_missing_kind(tmp_path: Path) -> None:
    text = (RULES / "gansu-2018.toml").read_text(encoding="utf-8")
    text = text.replace("[infractions.delay]", "[infractions.delay_x]", 1)
    text = text.replace("schema_version = 1", 'schema_version = 1\ncolour = "red"')
    path = tmp_path / "gansu.toml"
    path.write_text(text, encoding="utf-8")
    run = referee_app("--lang", "en", "rules", "check", str(path))
    assert run.returncode == 2
    out = run.stderr
    colour_line = text.splitlines().index('colour = "red"') + 1
    assert f"{path}: colour: unknown key (line {colour_line})" in out
    assert f"{path}: infractions.delay_x" in out  # the kind no rulebook has is named


def test_rules_check_in_chinese_for_a_rulebook_author(tmp_path: Path) -> None:
    """A rulebook's author is a Chinese referee: under zh each problem is worded in Chinese
    from its data (the kind of problem, the line, the value given), each key named by its
    Chinese label and each option by its value as written with its label (issue 25); the
    English lines stay as they were."""
    path, broken = _broken_bhg(tmp_path)
    text = (RULES / "bhg-2011.toml").read_text(encoding="utf-8")
    run = referee_app("--lang", "zh", "rules", "check", str(path))
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    # the checks on the whole rulebook (a counter's name) run once its keys are sound
    counter = next(line for line in text.splitlines() if line.startswith('counter = "'))
    unknown = tmp_path / "counter.toml"
    unknown.write_text(text.replace(counter, 'counter = "no_such"', 1), encoding="utf-8")
    run = referee_app("--lang", "zh", "rules", "check", str(path), str(unknown))
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 3, run.stderr
    row = broken.splitlines().index('tractor = "cubic"') + 1
    assert lines[0] == (
        f'{path}：抠底 › 拖拉机抠底倍数：应为 "power"（2 的 n+1 次方）、"linear"（2 × (n+1)） 之一，收到 "cubic"（第 {row} 行）。'
    )
    assert (
        lines[1]
        == f"{path}：申诉 › 申诉期限（分钟）：应大于 0，收到 -10（第 {broken.splitlines().index('window_minutes = -10') + 1} 行）。"
    )
    row = text.splitlines().index(counter) + 1
    assert lines[2].startswith(f"{unknown}：违规及处罚 › ") and lines[2].endswith(
        f" › 处罚规则第 1 项 › 计数器：没有名为“no_such”的计数器（第 {row} 行）。"
    ), lines[2]
    for line in lines:  # nothing English but the values as the file writes them, quoted
        rest = line.replace(str(path), "").replace(str(unknown), "")
        rest = re.sub(r"\"[a-z_]+\"|“[a-z_]+”", "", rest)
        assert not re.search(r"[A-Za-z]{3,}", rest), line
    english = referee_app("--lang", "en", "rules", "check", str(path), str(unknown)).stderr.splitlines()
    assert english[0].startswith(f"{path}: bottom.tractor: Input should be 'power' or 'linear'")
    assert "no counter named 'no_such'" in english[2]

    syntax = tmp_path / "syntax.toml"
    syntax.write_text('schema_version = 1\nid = "x"\n[event\nname = 1\n', encoding="utf-8")
    run = referee_app("--lang", "zh", "rules", "check", str(syntax))
    assert run.stderr.strip().startswith(f"{syntax}：第 3 行第 ") and run.stderr.strip().endswith(
        "TOML 语法错误：[小节] 缺少右方括号 ]。"
    )

    # a case judged on the broken rulebook: the count and the first problem, in Chinese
    case = {"event": str(path), "first_dealer": "E", "finished": "open", "hands": []}
    run = referee_app("--lang", "zh", "judge", "-", stdin=json.dumps(case))
    assert run.returncode == 2 and run.stdout == ""
    assert (
        f'规则文件 {path} 有 2 处问题，无法加载。第一处：{path}：抠底 › 拖拉机抠底倍数：应为 "power"'
        in run.stderr
    )


def test_judge_with_a_broken_rulebook_says_so_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("schema_version = 2\n", encoding="utf-8")
    case = {"event": str(path), "first_dealer": "E", "finished": "open", "hands": []}
    run = referee_app("--lang", "en", "judge", "-", stdin=json.dumps(case))
    assert run.returncode == 2
    line = one_line(run)
    assert line.startswith(f"event: {path}: schema_version")
    run = referee_app("--lang", "zh", "judge", "-", stdin=json.dumps(case))
    assert run.returncode == 2 and one_line(run) == (
        f"赛事：规则文件 {path} 有 14 处问题，无法加载。第一处：{path}：格式版本：应为 1 之一，收到 2（第 1 行）。"
    )


def test_judge_does_not_load_qt_reportlab_or_the_database(tmp_path: Path) -> None:
    case = tmp_path / "case.json"
    case.write_text(
        json.dumps(
            {
                "event": "hbue-2018",
                "first_dealer": "N",
                "finished": "time",
                "hands": [{"defender_points": 40}],
            }
        ),
        encoding="utf-8",
    )
    probe = (
        "import sys\n"
        "from referee_app.cli import main\n"
        f"code = main(['judge', {str(case)!r}])\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'PySide6', 'reportlab', 'sqlalchemy', 'shiboken6'})\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert "HEAVY []" in run.stderr


def test_core_imports_no_qt_database_or_printing() -> None:
    core = Path(__file__).resolve().parents[1] / "referee_app" / "core"
    for source in core.glob("*.py"):
        text = source.read_text(encoding="utf-8")
        for heavy in ("PySide6", "sqlalchemy", "reportlab"):
            assert f"import {heavy}" not in text and f"from {heavy}" not in text, (source, heavy)


def test_lang_may_follow_the_command() -> None:
    case = {"event": "bhg-2011", "first_dealer": "E", "finished": "open", "hands": [{"defender_points": 60}]}
    run = referee_app("judge", "-", "--lang", "en", stdin=json.dumps(case))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["hands"][0]["text"].endswith("West deals next.")


def test_an_unexpected_failure_in_any_command_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    probe = (
        "import sys\n"
        "from referee_app import cli\n"
        "from referee_app.store import service\n"
        "def boom(*a, **k):\n"
        "    raise RuntimeError('disk on fire\\nsecond line')\n"
        "service.Store.open = classmethod(boom)\n"
        f"sys.exit(cli.main(['--lang', 'en', '--db', {str(tmp_path / 'x.sqlite')!r}, 'event', 'list']))\n"
    )
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))  # the user log folder's base on Linux
    log = log_file()
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert run.returncode == 3
    assert one_line(run) == (
        f"referee-app: internal error: RuntimeError: disk on fire second line (details: {log})"
    )
    # the log keeps what the referee is spared: the traceback, naming the command
    text = log.read_text(encoding="utf-8")
    assert "unexpected failure in referee-app event" in text and "Traceback" in text and "boom" in text


def test_a_chinese_refusal_on_the_command_line_names_the_hand_in_words(tmp_path: Path) -> None:
    """BHG 一、(七) 「一副牌最多反两次主牌」: a third re-declaration refused in one line that says
    which hand in words, with the file's path beside it, exit 2."""
    case = {
        "event": "bhg-2011",
        "first_dealer": "E",
        "finished": "open",
        "hands": [{"defender_points": 40, "redeclarations": 3}],
    }
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case), encoding="utf-8")
    run = referee_app("--lang", "zh", "judge", str(path))
    assert run.returncode == 2 and run.stdout == ""
    assert one_line(run) == (
        "第 1 副的反主次数（hands[0].redeclarations）：反主 3 次，超过规则 bhg-2011 第 1 副允许的 2 次（一、(七) 亮主牌）。"
    )
