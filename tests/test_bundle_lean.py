"""What the desktop bundle leaves out (issue 28): packaging/referee-app.spec excludes modules
the app never imports — numpy (rustworkx's dependency: its matching takes Python lists),
setuptools and pkg_resources (whose PyInstaller start-up hooks cost about 125 ms a start).

Proved on a real process: it imports every module of the package, builds the demo event,
pairs its second round by the Swiss system (rustworkx's matching), prints the standings
signed with the event's key (pyHanko) and the round's scoresheets, and reports what it loaded
beyond what the interpreter had at its start (a venv's ``.pth`` files load ``_distutils_hack``
before any app code; a bundle has none)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

from .judge_process import user_env

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "packaging" / "referee-app.spec"

_SCRIPT = """\
import json, os, pkgutil, sys, importlib
before = set(sys.modules)
work = sys.argv[1]
import referee_app
from referee_app.launcher import main
db = os.path.join(work, "demo.sqlite")
key = os.path.join(work, "event-key.p12")
runs = [
    ["demo", "--store", db],
    ["--db", db, "pair", "--round", "2"],
    ["--db", db, "key", "create", "--out", key],
    ["--db", db, "print", "standings", "--key", key, "--sign", "-o", os.path.join(work, "standings.pdf")],
    ["--db", db, "print", "round", "--round", "1", "-o", os.path.join(work, "round.pdf")],
]
codes = [main(args) for args in runs]
for info in pkgutil.walk_packages(referee_app.__path__, "referee_app."):
    if not info.name.endswith("__main__"):  # it would run the command line
        importlib.import_module(info.name)
loaded = sorted(set(sys.modules) - before)
print(json.dumps({"codes": codes, "loaded": loaded}))
"""


def never_imported() -> list[str]:
    """The spec's NEVER_IMPORTED list (the spec is run by PyInstaller, so it is read here)."""
    tree = ast.parse(SPEC.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "NEVER_IMPORTED":
            return list(ast.literal_eval(node.value))
    raise AssertionError("packaging/referee-app.spec has no NEVER_IMPORTED list")


def test_the_bundle_excludes_numpy_setuptools_and_pkg_resources() -> None:
    assert {"numpy", "setuptools", "pkg_resources"} <= set(never_imported())
    assert "excludes=[*NEVER_IMPORTED" in SPEC.read_text(encoding="utf-8")


def test_what_the_bundle_excludes_is_never_imported_by_a_whole_event(tmp_path: Path) -> None:
    env = user_env(tmp_path / "home") | {
        "QT_QPA_PLATFORM": "offscreen",
        "REFEREE_APP_KEY_PASSPHRASE": "demo-passphrase",
        "REFEREE_APP_LANG": "en",
    }
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["codes"] == [0, 0, 0, 0, 0], done.stderr[-3000:]
    loaded = set(report["loaded"])
    # the run did reach the libraries that could pull them in
    assert {"rustworkx", "pyhanko", "reportlab", "PySide6", "aiohttp"} <= {m.split(".")[0] for m in loaded}
    assert (tmp_path / "standings.pdf").read_bytes()[:5] == b"%PDF-"
    wrong = sorted(m for m in loaded if m.split(".")[0] in never_imported())
    assert wrong == [], f"imported although packaging/referee-app.spec excludes it: {wrong}"
    assert os.path.getsize(tmp_path / "round.pdf") > 1000


def test_the_bundles_qt_hook_points_qt_at_its_plugins_without_importing_qt(tmp_path: Path) -> None:
    """packaging/pyi_rth_qt_paths.py, which the spec runs instead of PyInstaller's Qt hook
    (that one imports QtCore at every start, ~100 ms before `judge` does anything)."""
    text = SPEC.read_text(encoding="utf-8")
    assert 'REPLACED_HOOKS = ["pyi_rth_pyside6"]' in text
    assert 'runtime_hooks=[str(ROOT / "packaging" / "pyi_rth_qt_paths.py")]' in text
    hook = ROOT / "packaging" / "pyi_rth_qt_paths.py"
    script = (
        "import os, runpy, sys\n"
        "sys._MEIPASS = sys.argv[1]\n"
        "sys.frozen = True\n"
        "runpy.run_path(sys.argv[2])\n"
        "print(os.environ['QT_PLUGIN_PATH'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path), str(hook)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    plugins, qt_modules = done.stdout.splitlines()
    folder = tmp_path / "PySide6" if sys.platform == "win32" else tmp_path / "PySide6" / "Qt"
    assert Path(plugins) == folder / "plugins"
    assert qt_modules == "[]"
