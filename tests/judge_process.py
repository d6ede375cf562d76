"""`referee-app judge` as a real process that also reports which modules it imported.

The process runs the app's own ``python -m referee_app`` through :mod:`runpy`; at exit it
writes its sorted ``sys.modules`` to a file, so a test reads what a start loaded without
timing anything. Each test gives it a cache and a data folder of its own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

_WRAPPER = """\
import atexit, runpy, sys
report = sys.argv.pop(1)
def _dump():
    with open(report, "w", encoding="utf-8") as handle:
        handle.write("\\n".join(sorted(sys.modules)))
atexit.register(_dump)
runpy.run_module("referee_app", run_name="__main__", alter_sys=True)
"""


@dataclass
class Judged:
    returncode: int
    stdout: str
    stderr: str
    modules: set[str]

    @property
    def decision(self) -> dict[str, Any]:
        assert self.returncode == 0, self.stderr
        return json.loads(self.stdout)


def user_env(home: Path, *, install: Path = ROOT) -> dict[str, str]:
    """The environment of a user whose cache and data folders are under ``home``, running
    the app installed at ``install`` (a folder holding ``referee_app/``)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_APP_")}
    env |= {
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_DATA_HOME": str(home / "data"),
        "PYTHONPATH": str(install),
    }
    return env


def judge_process(case: Path, env: dict[str, str], *args: str) -> Judged:
    report = case.with_name(f".modules-{os.getpid()}.txt")
    run = subprocess.run(
        [sys.executable, "-c", _WRAPPER, str(report), "judge", str(case), *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=case.parent,  # `python -c` imports from its folder first: not the checkout's package
    )
    modules = set(report.read_text(encoding="utf-8").split("\n"))
    report.unlink()
    return Judged(run.returncode, run.stdout, run.stderr, modules)


def cache_entries(home: Path) -> list[Path]:
    """The rulebook cache's entries, one folder per installation and code."""
    return sorted((home / "cache" / "referee-app" / "rulebooks").rglob("*.json"))
