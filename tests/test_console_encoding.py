"""Output that survives a Chinese Windows console (issue 28 item 6): redirected there, Python
writes in the code page cp936, which has no 𠮷. ``pairs list`` and ``standings`` ended in
"internal error" on such a name; now the line is written with ``[U+20BB7]`` in its place,
and JSON with escapes, so it stays exact."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee_app.cli.main import main
from referee_app.cli.output import REPLACE, survivable_output

PAIRS = "number,player1,player2,unit\n1,𠮷小川,施慧敏,甘南\n2,赵明远,钱思雨,兰州\n"


def run(*args: str, encoding: str = "cp936") -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONIOENCODING=encoding, PYTHONUTF8="0")
    return subprocess.run(
        [sys.executable, "-m", "referee_app", *args], capture_output=True, env=env, check=False
    )


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("cp936")
    db = str(folder / "event.sqlite")
    (folder / "pairs.csv").write_text(PAIRS, encoding="utf-8")
    # made in this process (the set-up is not what is tested): the runs below are real consoles'
    assert main(["--db", db, "event", "create", "--rules", "gansu-2018", "--name", "省赛"]) == 0
    assert main(["--db", db, "pairs", "import", str(folder / "pairs.csv")]) == 0
    return db


@pytest.mark.parametrize("command", [("pairs", "list"), ("standings",)])
def test_a_name_the_code_page_cannot_hold_is_written_as_its_code_point(
    store: str, command: tuple[str, ...]
) -> None:
    done = run("--db", store, "--lang", "zh", *command)
    assert done.returncode == 0, done.stderr.decode("cp936", "replace")
    out = done.stdout.decode("cp936")  # every byte is the code page's: a Windows tool reads it
    assert "[U+20BB7]小川" in out and "施慧敏" in out and "赵明远" in out


def test_json_on_a_code_page_stays_exact(tmp_path: Path) -> None:
    case = {
        "event": "bhg-2011",
        "first_dealer": "E",
        "finished": "open",
        "hands": [
            {
                "defender_points": 60,
                "infractions": [
                    {
                        "kind": "exposed_card",
                        "seat": "N",
                        "cards": 1,
                        "trick": 3,
                        "override": {"sanctions": ["warning"], "reason": "𠮷先生碰落"},
                    }
                ],
            }
        ],
    }
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case, ensure_ascii=False), encoding="utf-8")
    done = run("judge", str(path))
    assert done.returncode == 0, done.stderr
    [ruling] = json.loads(done.stdout.decode("cp936"))["hands"][0]["rulings"]
    assert ruling["override_reason"] == "𠮷先生碰落"


def test_only_a_code_page_stream_gets_the_replacement_a_utf8_one_stays_strict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    code_page = io.TextIOWrapper(io.BytesIO(), encoding="cp936")
    monkeypatch.setattr(sys, "stdout", utf8)
    monkeypatch.setattr(sys, "stderr", code_page)
    survivable_output()
    assert utf8.errors == "strict" and code_page.errors == REPLACE
    utf8.write("𠮷")
    code_page.write("𠮷小川")
    for stream in (utf8, code_page):
        stream.flush()
    assert utf8.buffer.getvalue().decode("utf-8") == "𠮷"
    assert code_page.buffer.getvalue().decode("cp936") == "[U+20BB7]小川"
