"""Issue 23: `judge` as a whole process stays close to a bare interpreter start.

Pinned by what a start imports, not by timing it (bench/bench_judge.py measures): on a warm
rulebook cache `judge` imports neither pydantic (the schema is only built for a text not
validated yet) nor the window's, the store's or the printing's libraries, parses no TOML
(the message catalogue is read only when the command line has something to say from it)
and does not load importlib.resources (its import pulls in zipfile, tempfile, shutil …).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .judge_process import judge_process, user_env

#: What a warm `judge` must not import, and why it would be there.
NOT_ON_A_WARM_START = {
    "pydantic": "the rulebook schema, built only to validate a text the cache does not hold",
    "pydantic_core": "the same",
    "referee_app.core.rulebook_schema": "the same",
    "PySide6": "the window",
    "shiboken6": "the window",
    "sqlalchemy": "the store",
    "reportlab": "printing",
    "tomllib": "the catalogue's and the rulebook's TOML: neither is parsed on a warm start",
    "importlib.resources": "the shipped files are found as the package's folder",
}

CASE = {
    "event": "hbue-2018",
    "first_dealer": "E",
    "finished": "time",
    "hands": [
        {"defender_points": 60, "infractions": [{"kind": "exposed_card", "seat": "N", "cards": 1}]},
        {"defender_points": 100},
    ],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_warm_judge_imports_no_schema_no_toml_and_no_heavy_library(tmp_path: Path, lang: str) -> None:
    case = tmp_path / "case.json"
    case.write_text(json.dumps(CASE), encoding="utf-8")
    env = user_env(tmp_path / "home")
    cold = judge_process(case, env, "--lang", lang)
    assert "pydantic" in cold.modules  # the first sight of the text validates it
    warm = judge_process(case, env, "--lang", lang)
    assert warm.decision == cold.decision
    loaded = {name: why for name, why in NOT_ON_A_WARM_START.items() if name in warm.modules}
    assert loaded == {}, "imported on a warm `judge`: " + "; ".join(f"{n} ({w})" for n, w in loaded.items())


def test_a_bad_command_line_still_speaks_chinese(tmp_path: Path) -> None:
    """The help is put into Chinese only when the parser speaks: an error names the Chinese
    words all the same, and the help is Chinese."""
    env = user_env(tmp_path / "home")
    case = tmp_path / "case.json"
    case.write_text(json.dumps(CASE), encoding="utf-8")
    missing = judge_process(case, env, "--lang", "zh", "--bogus")
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr.strip() == "referee-app：无法识别的参数：--bogus", missing.stderr
    assert "tomllib" in missing.modules  # to speak, the catalogue was read
    helped = judge_process(case, env, "--lang", "zh", "--help")
    assert helped.returncode == 0 and "用法：" in helped.stdout and "显示本帮助并退出" in helped.stdout
    assert "a case file, or - for standard input" not in helped.stdout
