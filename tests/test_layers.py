"""The layers stay apart (issue 9): the window and the command line reach the store and the
printing only through the application layer and do not import each other, the core imports no
Qt, database or PDF code, no imports form a cycle (import-linter's contracts in pyproject.toml,
and tools/import_graph.py, which also refuses imports resolved from strings), and the whole
package type-checks clean (mypy, settings in pyproject.toml)."""

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


def test_the_package_type_checks() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "Success: no issues found" in run.stdout


GRAPH = ROOT / "tools" / "import_graph.py"
CLEAN = "0 cycles, 0 front-end imports past app/, 0 gui<->cli imports, 0 files resolving imports from strings"


def _graph(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(GRAPH), str(root)], capture_output=True, text=True, timeout=120, check=False
    )


def test_the_import_graph_has_no_cycle_and_no_import_hidden_in_a_string() -> None:
    run = _graph(ROOT)
    assert (run.returncode, run.stdout.strip()) == (0, CLEAN), run.stdout + run.stderr


def test_the_import_graph_check_sees_what_it_refuses(tmp_path: Path) -> None:
    """A cycle through an import inside a function or under TYPE_CHECKING, the window
    importing the command line, a front end importing the store, a name from a string."""
    files = {
        "__init__.py": "",
        "core/__init__.py": "",
        "core/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n",
        "core/b.py": "def f():\n    from . import a\n",
        "gui/__init__.py": "",
        "gui/app.py": "def run():\n    from ..cli.main import main\n",
        "cli/__init__.py": "",
        "cli/main.py": "from ..store import service\n",
        "store/__init__.py": "",
        "store/service.py": "import importlib\nX = importlib.import_module('json')\n",
    }
    for name, text in files.items():
        path = tmp_path / "referee_app" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    run = _graph(tmp_path)
    assert run.returncode == 1
    assert run.stdout.splitlines() == [
        "cycle: core.a <-> core.b",
        "front end reaches past app/: cli.main -> store.service",
        "gui and cli import each other: gui.app -> cli.main",
        "resolves imports from strings: store.service",
        "1 cycles, 1 front-end imports past app/, 1 gui<->cli imports, 1 files resolving imports from strings",
    ]
