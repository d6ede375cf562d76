"""The layers stay apart (issue 9): the window and the command line reach the store and the
printing only through the application layer, the core imports no Qt, database or PDF code
(import-linter's contracts in pyproject.toml), and the core and the application layer type-check
clean (mypy, settings in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    assert found, f"{name} is not installed: pip install -e '.[test]'"
    return found


def test_the_layer_contracts_hold() -> None:
    run = subprocess.run(
        [_tool("lint-imports"), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout and "BROKEN" not in run.stdout


def test_the_core_and_the_application_layer_type_check() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "Success: no issues found" in run.stdout
