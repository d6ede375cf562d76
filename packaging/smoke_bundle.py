"""Smoke-test a desktop bundle on the system it was built for (the release workflow's step,
and the install test's, tests/test_install.py).

    python packaging/smoke_bundle.py dist/referee-app

Runs, from a new empty folder and as a new user (own home, no REFEREE_APP_* settings), what a
referee does first: ``--version`` (and the licences' listing is there), ``db driver`` (the
PostgreSQL driver a hall's store needs loads, without a server), ``rules list``, ``judge`` on
an example case (compared with its expected decision), ``print scoresheet`` of that case,
``demo`` into a new store and ``verify`` on it, and the window offscreen until it has
painted. One line per check; exit 1 at the first that fails. Standard library only: it runs
beside the bundle, not inside it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CASE = ROOT / "tests" / "cases" / "bhg-2011" / "bhg-2-5-failed-throw.json"
BUNDLED = ["bhg-2011", "gansu-2018", "hbue-2018"]


def program(bundle: Path, name: str) -> Path:
    return bundle / (f"{name}.exe" if os.name == "nt" else name)


def subset_problems(expected: Any, actual: Any, path: str = "$") -> list[str]:
    """The case format's comparison: every key expected is there with an equal value."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: not an object"]
        return [p for k, v in expected.items() for p in subset_problems(v, actual.get(k), f"{path}.{k}")]
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected a list of {len(expected)}"]
        return [
            p
            for i, (e, a) in enumerate(zip(expected, actual, strict=True))
            for p in subset_problems(e, a, f"{path}[{i}]")
        ]
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]


def new_user(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REFEREE_APP_", "PYTHON", "XDG_"))}
    env.update(
        HOME=str(home),
        USERPROFILE=str(home),
        LOCALAPPDATA=str(home / "AppData" / "Local"),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_STATE_HOME=str(home / "state"),
        XDG_CONFIG_HOME=str(home / "config"),
        PYTHONIOENCODING="utf-8",
    )
    return env


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: smoke_bundle.py BUNDLE_FOLDER", file=sys.stderr)
        return 2
    bundle = Path(argv[0]).resolve()
    cli = program(bundle, "referee-app")
    work = Path(tempfile.mkdtemp(prefix="referee-app-smoke-"))
    env = new_user(work / "home")
    shutil.copy(CASE, work / "case.json")

    def run(
        *args: str, extra: dict[str, str] | None = None, exe: Path = cli
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(exe), *args],
            cwd=work,
            env=dict(env, **(extra or {})),
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=300,
            check=False,
        )

    def check(what: str, ok: bool, done: subprocess.CompletedProcess[str]) -> None:
        if not ok:
            print(f"FAIL {what} (exit {done.returncode}): {done.stderr.strip()[-2000:]}", file=sys.stderr)
            raise SystemExit(1)
        print(f"ok   {what}")

    done = run("--version")
    check("--version names the licence", done.returncode == 0 and "MIT" in done.stdout, done)
    # the third-party licences (inside a macOS .app they sit beside MacOS/, under Contents/)
    root = bundle.parent if bundle.name == "MacOS" else bundle
    listing = next(root.rglob("referee_app/licences/LICENCES.txt"), None)
    listed = listing.read_text(encoding="utf-8") if listing else ""
    check("the third-party licences ship", "PySide6" in listed and "LGPL-3.0" in listed, done)
    # the PostgreSQL driver, loaded as a hall's store loads it (import only, no server): the
    # dialect, psycopg and its own libpq (psycopg-binary's; "binary", not the system's)
    done = run("db", "driver")
    check(
        "the PostgreSQL driver loads, its libraries' licences listed",
        done.returncode == 0 and "binary" in done.stdout and "libpq (PostgreSQL) in psycopg-binary" in listed,
        done,
    )
    done = run("rules", "list")
    check("rules list", [ln.split("\t")[0] for ln in done.stdout.splitlines()] == BUNDLED, done)
    done = run("judge", "case.json")
    expected = json.loads(CASE.with_name(CASE.stem + ".expected.json").read_text(encoding="utf-8"))
    judged = json.loads(done.stdout) if done.returncode == 0 else None
    check("judge an example case", judged is not None and not subset_problems(expected, judged), done)
    done = run("print", "scoresheet", "--case", "case.json", "-o", "sheet.pdf")
    pdf = work / "sheet.pdf"
    check("print scoresheet", done.returncode == 0 and pdf.read_bytes()[:5] == b"%PDF-", done)
    done = run("demo", "--store", str(work / "demo.sqlite"))
    check("demo", done.returncode == 0, done)
    done = run("--db", str(work / "demo.sqlite"), "verify")
    check("verify the demo event", done.returncode == 0, done)
    done = run(
        "--db",
        str(work / "window.sqlite"),
        extra={"QT_QPA_PLATFORM": "offscreen", "REFEREE_APP_EXIT_WHEN_IDLE": "painted"},
        exe=program(bundle, "referee-app-gui"),
    )
    check("the window paints offscreen", done.returncode == 0 and "Traceback" not in done.stderr, done)
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
