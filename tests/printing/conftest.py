"""Every form is rendered once per session into a temporary folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .helpers import CASE, appeal, run_cli, scoresheet

POPPLER = all(shutil.which(t) for t in ("pdftotext", "pdffonts", "pdftoppm"))
requires_poppler = pytest.mark.skipif(
    not POPPLER, reason="poppler-utils (pdftotext, pdffonts, pdftoppm) not installed"
)


@pytest.fixture(scope="session")
def out_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("forms")


@pytest.fixture(scope="session")
def scoresheet_pdf(out_dir: Path) -> Path:
    path = out_dir / "scoresheet.pdf"
    proc = run_cli(
        "--lang", "zh", "print", "scoresheet", "--case", str(CASE), "--date", "2024-05-18", "-o", str(path)
    )
    assert proc.returncode == 0, proc.stderr
    return path


@pytest.fixture(scope="session")
def scoresheet_api_pdf(out_dir: Path) -> Path:
    from referee_app.printing.render import render_scoresheet

    path = out_dir / "scoresheet-api.pdf"
    render_scoresheet(scoresheet(), path)
    return path


@pytest.fixture(scope="session")
def appeal_pdf(out_dir: Path) -> Path:
    from referee_app.printing.render import render_appeal

    path = out_dir / "appeal.pdf"
    render_appeal(appeal(), path)
    return path


@pytest.fixture(scope="session")
def ruling_pdf(out_dir: Path) -> Path:
    path = out_dir / "ruling.pdf"
    proc = run_cli(
        "--lang", "zh", "print", "ruling", "--case", str(CASE), "--hand", "3", "--index", "1", "-o", str(path)
    )
    assert proc.returncode == 0, proc.stderr
    return path
