"""The install tests: the app as a new user gets it, never the checkout.

1. The wheel is built, installed into a fresh virtual environment, and run from a folder
   outside the checkout: ``rules list``, ``judge``, ``print scoresheet`` (font embedded),
   ``--version``, and the window offscreen.
2. The desktop bundle is built with PyInstaller from ``packaging/referee-app.spec`` in that
   environment and smoke-tested the same way.

They need the package registry (pip's configured index) and take a few minutes; under
``CI=true`` they always run, elsewhere they skip with one line when the registry cannot be
reached. ``-m "not install"`` leaves them out while working on something else.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from openpyxl import load_workbook

from .conftest import ROOT
from .smoke import clean_env, log_file_under, start_window
from .test_clause_cases import diff

# building the wheel and the bundle takes minutes on a loaded machine
pytestmark = [pytest.mark.install, pytest.mark.timeout(1800)]

CASE = ROOT / "tests" / "cases" / "bhg-2011" / "bhg-2-5-failed-throw.json"
BUNDLED = ["bhg-2011", "gansu-2018", "hbue-2018"]
# Issue 14's goal for a fresh environment with the app was 450 MB (412 MB then). Issue 11's
# pairing speed brought rustworkx (8 MB), which depends on numpy (73 MB) that the app never
# imports, in place of networkx (19 MB): 468 MB.
ENVIRONMENT_LIMIT_MB = 480
#: pip's words when the registry is out of reach (a laptop offline), not a broken package
OFFLINE_SIGNS = (
    "NewConnectionError",
    "Temporary failure in name resolution",
    "Network is unreachable",
    "No matching distribution found",
    "Could not find a version that satisfies",
)


def _pip(python: Path | str, *args: str, cwd: Path) -> None:
    run = subprocess.run(
        [str(python), "-m", "pip", *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    if run.returncode == 0:
        return
    offline = any(sign in run.stderr for sign in OFFLINE_SIGNS)
    if offline and os.environ.get("CI") != "true":
        pytest.skip(f"install tests not run: the package registry is not reachable (pip {args[0]})")
    raise AssertionError(f"pip {' '.join(args)} failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}")


def _program(folder: Path, name: str) -> Path:
    return folder / (f"{name}.exe" if os.name == "nt" else name)


@dataclass
class Installed:
    work: Path
    venv: Path
    wheel: Path
    outside: Path  # the folder commands run in: outside the checkout
    env: dict[str, str]

    @property
    def bin(self) -> Path:
        return self.venv / ("Scripts" if os.name == "nt" else "bin")

    def run(self, program: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(program), *args], cwd=self.outside, env=self.env, capture_output=True, text=True, check=False
        )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    work = tmp_path_factory.mktemp("install")
    assert ROOT not in work.parents, "the install test must run outside the checkout"
    _pip(sys.executable, "wheel", "--no-deps", "-q", "-w", str(work / "dist"), str(ROOT), cwd=work)
    (wheel,) = (work / "dist").glob("referee_app-*.whl")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    _pip(python, "install", "-q", str(wheel), cwd=work)
    outside = work / "outside"
    outside.mkdir()
    shutil.copy(CASE, outside / "case.json")
    return Installed(work, venv, wheel, outside, clean_env(work / "home"))


def check_commands(app: Installed, program: Path, store: str) -> None:
    """What a referee does first with a new install, from a folder outside the checkout."""
    listed = app.run(program, "rules", "list")
    assert listed.returncode == 0, listed.stderr
    assert [line.split("\t")[0] for line in listed.stdout.splitlines()] == BUNDLED

    judged = app.run(program, "judge", "case.json")
    assert judged.returncode == 0, judged.stderr
    expected = json.loads(CASE.with_suffix("").with_suffix(".expected.json").read_text("utf-8"))
    assert diff(expected, json.loads(judged.stdout)) == []

    printed = app.run(program, "print", "scoresheet", "--case", "case.json", "-o", "sheet.pdf")
    assert printed.returncode == 0, printed.stderr
    fonts = subprocess.run(
        ["pdffonts", str(app.outside / "sheet.pdf")], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    embedded = [line.split()[-5] for line in fonts if "WenQuanYiMicroHei" in line]
    assert embedded and set(embedded) == {"yes"}, fonts  # the "emb" column
    text = subprocess.run(
        ["pdftotext", str(app.outside / "sheet.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "记分表" in text and "BHG Mall 双升王牌赛" in text

    version = app.run(program, "--version")
    assert version.returncode == 0 and "MIT" in version.stdout, version.stderr

    # the event store (SQLite) and the office's Excel file
    (app.outside / "pairs.txt").write_text(
        "编号\t选手1\t选手2\t单位\n1\t甲一\t乙一\t东队\n2\t丙二\t丁二\t西队\n"
        "3\t戊三\t己三\t\n4\t庚四\t辛四\t\n",
        "utf-8",
    )
    for command in (
        ["event", "create", "--rules", "gansu-2018", "--name", "测试赛"],
        ["pairs", "import", "pairs.txt"],
        ["pair", "--round", "1", "--xlsx", f"{store}.xlsx"],
    ):
        done = app.run(program, "--db", f"{store}.db", *command)
        assert done.returncode == 0, (command, done.stderr)
    sheet = load_workbook(app.outside / f"{store}.xlsx").active
    assert sheet["A2"].value == "桌号" and sheet["A3"].value == 1

    # round 1 played, then round 2 paired by score: the maximum-weight matching (rustworkx)
    # runs in the installed program, not only in the checkout
    def pair_json(round_no: int) -> list[dict[str, object]]:
        done = app.run(
            program, "--db", f"{store}.db", "pair", "--round", str(round_no), "--json", "--seed", "1"
        )
        assert done.returncode == 0, done.stderr
        return list(json.loads(done.stdout))

    first = pair_json(1)
    for t in first:
        played = {
            "event": "gansu-2018",
            "round": 1,
            "table": t["table"],
            "pairs": {"NS": t["NS"], "EW": t["EW"]},
            "first_dealer": "E",
            "finished": "time",
            "hands": [{"defender_points": 20 if t["table"] == 1 else 100}],
        }
        (app.outside / f"r1t{t['table']}.json").write_text(json.dumps(played, ensure_ascii=False), "utf-8")
        done = app.run(program, "--db", f"{store}.db", "record", f"r1t{t['table']}.json")
        assert done.returncode == 0, done.stderr
    second = pair_json(2)
    met = {frozenset((t["NS"], t["EW"])) for t in first}
    assert sorted(str(p) for t in second for p in (t["NS"], t["EW"])) == ["1", "2", "3", "4"]
    assert not met & {frozenset((t["NS"], t["EW"])) for t in second}, (first, second)


def test_the_wheel_carries_its_data_and_licences(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    for shipped in (
        "rules/bhg-2011.toml",
        "forms/scoresheet.toml",
        "resources/fonts/wqy-microhei.ttc",
        "resources/fonts/LICENSE-wqy-microhei.txt",
        "resources/messages/gui.toml",
        "resources/messages/errors.toml",
        "resources/messages/cli.toml",
        "resources/messages/web.toml",
        "resources/icons/referee-app.png",
        "manual/index.md",  # the manual F1 opens offline
        "manual/en/index.md",
    ):
        assert f"referee_app/{shipped}" in names, shipped
    licences = {n.split("/licenses/", 1)[1] for n in names if "/licenses/" in n}
    assert licences == {"LICENSE", "resources/fonts/LICENSE-wqy-microhei.txt"}


def test_the_fresh_environment_stays_under_its_limit(installed: Installed) -> None:
    """Only Qt's Essentials and Pdf: the full PySide6 made it 838 MB (docs/install.md states the size)."""
    size = sum(f.stat().st_size for f in installed.venv.rglob("*") if f.is_file() and not f.is_symlink())
    assert size < ENVIRONMENT_LIMIT_MB * 1024 * 1024, f"{size / 2**20:.0f} MB"


def test_the_installed_app_works_outside_the_checkout(installed: Installed) -> None:
    where = installed.run(installed.bin / "python", "-c", "import referee_app; print(referee_app.__file__)")
    assert installed.venv in Path(where.stdout.strip()).parents, where  # not the checkout
    check_commands(installed, _program(installed.bin, "referee-app"), store="wheel")


def test_the_installed_window_starts_offscreen(installed: Installed) -> None:
    home = installed.work / "home"
    text = start_window(
        [str(_program(installed.bin, "referee-app-gui")), "--db", str(installed.outside / "event.db")],
        env=installed.env,
        cwd=installed.outside,
        log=log_file_under(home / "state"),
    )
    assert "language zh" in text  # LANG=C.UTF-8 in clean_env: the one rule says Chinese


@pytest.fixture(scope="module")
def bundle(installed: Installed) -> Path:
    # as the release workflow's lock: PyInstaller and the PostgreSQL driver (the postgresql extra)
    _pip(installed.bin / "python", "install", "-q", "pyinstaller", "psycopg[binary]", cwd=installed.work)
    build = subprocess.run(
        [
            str(_program(installed.bin, "pyinstaller")),
            "--noconfirm",
            "--log-level",
            "ERROR",
            "--distpath",
            str(installed.work / "bundle"),
            "--workpath",
            str(installed.work / "build"),
            str(ROOT / "packaging" / "referee-app.spec"),
        ],
        cwd=installed.work,
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stderr[-4000:]
    return installed.work / "bundle" / "referee-app"


def test_the_bundle_works_and_carries_its_files(installed: Installed, bundle: Path) -> None:
    check_commands(installed, _program(bundle, "referee-app"), store="bundle")
    internal = bundle / "_internal"
    assert (internal / "LICENSE").is_file() and (internal / "referee-app.desktop").is_file()
    assert (internal / "referee_app" / "resources" / "fonts" / "LICENSE-wqy-microhei.txt").is_file()
    assert (internal / "referee_app" / "resources" / "icons" / "referee-app.png").is_file()
    assert (internal / "referee_app" / "manual" / "index.md").is_file()  # what F1 opens
    # the script each release job runs on its runner (.github/workflows/release.yml)
    done = subprocess.run(
        [sys.executable, str(ROOT / "packaging" / "smoke_bundle.py"), str(bundle)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [
        f"ok   {what}"
        for what in (
            "--version names the licence",
            "the third-party licences ship",
            "the PostgreSQL driver loads, its libraries' licences listed",
            "rules list",
            "judge an example case",
            "print scoresheet",
            "demo",
            "verify the demo event",
            "the window paints offscreen",
        )
    ], done.stdout


def test_the_bundle_window_starts_offscreen(installed: Installed, bundle: Path) -> None:
    home = installed.work / "bundle-home"
    env = clean_env(home)
    text = start_window(
        [str(_program(bundle, "referee-app-gui")), "--db", str(installed.outside / "bundle.db")],
        env=env,
        cwd=installed.outside,
        log=log_file_under(home / "state"),
    )
    assert "window shown" in text
