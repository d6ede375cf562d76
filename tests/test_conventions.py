"""What users expect of any desktop program: where its files are, --version, one language
rule, a log, and tests that keep away from the user's own folders."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee_app import __version__, locations
from referee_app.app.language import default_lang

from .conftest import ROOT, SESSION_HOME
from .smoke import clean_env, log_file_under, start_window


def test_a_checkout_finds_its_shipped_folders_at_the_top(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert locations.rules_dir() == ROOT / "rules"
    assert locations.forms_dir() == ROOT / "forms"
    assert (locations.resources_dir() / "fonts" / "wqy-microhei.ttc").is_file()
    assert (locations.resources_dir() / "icons" / "referee-app.png").is_file()
    monkeypatch.setenv("REFEREE_APP_RULES", str(tmp_path))
    assert locations.rules_dir() == tmp_path


def test_tests_never_touch_the_users_folders() -> None:
    for folder in (locations.user_data_dir(), locations.user_cache_dir(), locations.user_log_dir()):
        assert SESSION_HOME in folder.parents or Path(os.environ["XDG_CACHE_HOME"]) in folder.parents, folder
    assert Path(os.environ["REFEREE_APP_DB"]).parent == SESSION_HOME
    assert Path.home() == SESSION_HOME / "home"


def test_version_names_the_licences() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "referee_app", "--version"], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"referee-app {__version__}\n")
    assert "MIT" in run.stdout and "Apache-2.0" in run.stdout and "referee-app.log" in run.stdout


@pytest.mark.parametrize(
    ("variables", "lang"),
    [
        ({"LANG": "C.UTF-8"}, "zh"),  # names no language: Chinese, the users' language
        ({"LANG": "POSIX"}, "zh"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_TW.Big5"}, "zh"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),  # LC_ALL first
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
        ({"LANG": "Chinese (Simplified)_China.936"}, "zh"),  # Windows' locale names
        ({"LANG": "English_United States.1252"}, "en"),
    ],
)
def test_one_language_rule(monkeypatch: pytest.MonkeyPatch, variables: dict[str, str], lang: str) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert default_lang() == lang


def test_the_window_starts_from_the_checkout_and_logs(tmp_path: Path) -> None:
    env = clean_env(tmp_path / "home")
    env["PYTHONPATH"] = str(ROOT)
    log = log_file_under(tmp_path / "home" / "state")
    text = start_window(
        [sys.executable, "-m", "referee_app", "--db", str(tmp_path / "event.db")],
        env=env,
        cwd=tmp_path,
        log=log,
    )
    assert f"referee-app {__version__}" in text and "language zh" in text  # C.UTF-8: Chinese
    assert (tmp_path / "event.db").is_file()


def test_the_linux_desktop_file_names_the_program_and_icon() -> None:
    import configparser
    import tomllib

    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign] - keys are case-sensitive
    entry.read(ROOT / "packaging" / "referee-app.desktop", encoding="utf-8")
    desktop = entry["Desktop Entry"]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    assert desktop["Type"] == "Application" and desktop["Terminal"] == "false"
    assert desktop["Exec"].split()[0] in scripts
    assert (locations.resources_dir() / "icons" / f"{desktop['Icon']}.png").is_file()
    assert desktop["StartupWMClass"] == "referee-app" and desktop["Name[zh_CN]"]
