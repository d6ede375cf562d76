"""The release workflow (issue 28 item 1) as GitHub would run it: actionlint finds no problem
in it (expressions, inputs of each action and their versions, runner labels, shell), and it
builds, smoke-tests and attaches what docs/releasing.md says, from the spec the install test
builds."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.needs import missing

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


def test_actionlint_finds_nothing_in_the_release_workflow() -> None:
    # the test extra's program, beside this Python (a venv not activated), else on PATH
    beside = Path(sys.executable).parent / ("actionlint.exe" if os.name == "nt" else "actionlint")
    actionlint = str(beside) if beside.is_file() else shutil.which("actionlint")
    if actionlint is None:
        missing("actionlint is not installed: it comes with the test extra (pip install -e '.[test]')")
    done = subprocess.run(
        [actionlint, "-no-color", str(WORKFLOW)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_workflow_builds_smoke_tests_and_attaches_every_systems_bundle() -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    assert 'tags: ["v*"]' in text
    for runner in ("ubuntu-", "windows-", "macos-14", "macos-15-intel"):
        assert f"os: {runner}" in text
    assert "pyinstaller --noconfirm packaging/referee-app.spec" in text
    assert "python packaging/smoke_bundle.py dist/referee-app" in text
    assert (ROOT / "packaging" / "smoke_bundle.py").is_file()
    for archive in (
        "referee-app-linux.tar.gz",
        "make_archive('out/referee-app-windows', 'zip'",
        "out\\referee-app-windows-setup.exe",
        "out/referee-app-${{ matrix.platform }}.dmg",
    ):
        assert archive in text
    assert ".sha256" in text and "SHA256SUMS" in text and "gh release" in text
