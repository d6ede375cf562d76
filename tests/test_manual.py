"""The manual (issue 28 item 3): Chinese first, English second, built by mkdocs with every
broken link or anchor failing the build, and written from what the app really does: every
command it shows is one the command line has."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from referee_app.cli.main import build_parser
from tests.needs import missing

ROOT = Path(__file__).resolve().parents[1]
MANUAL = ROOT / "docs" / "manual"
TOPICS = {
    "quickstart.md": "快速上手",
    "table-referee.md": "裁判员",
    "chief-referee.md": "裁判长",
    "committee.md": "仲裁委员会",
    "hall-postgresql.md": "PostgreSQL",
    "rulebooks.md": "竞赛规则",
    "backups.md": "备份",
    "problems.md": "常见问题",
}


def _mkdocs() -> list[str]:
    try:
        import mkdocs  # noqa: F401
    except ImportError:
        missing("mkdocs is not installed (pip install -e '.[docs]')")
    return [sys.executable, "-m", "mkdocs"]


def test_the_manual_builds_with_no_broken_link(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run(
        [*_mkdocs(), "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for page in TOPICS:
        html = (site / "manual" / page.replace(".md", ".html")).read_text(encoding="utf-8")
        assert TOPICS[page] in html
    assert "Getting started" in (site / "manual" / "en" / "index.html").read_text(encoding="utf-8")


def test_every_topic_has_its_page_in_chinese_and_the_english_page_covers_them() -> None:
    index = (MANUAL / "index.md").read_text(encoding="utf-8")
    for page, words in TOPICS.items():
        text = (MANUAL / page).read_text(encoding="utf-8")
        assert f"]({page})" in index and words in text
    english = (MANUAL / "en" / "index.md").read_text(encoding="utf-8")
    for heading in (
        "The table referee",
        "The chief referee",
        "arbitration committee",
        "PostgreSQL",
        "Backups",
    ):
        assert heading in english


def test_every_command_the_manual_shows_is_one_the_command_line_has() -> None:
    parser = build_parser()
    [commands] = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    known = set(commands.choices)
    shown = set()
    for page in [*MANUAL.glob("*.md"), *MANUAL.glob("en/*.md")]:
        shown |= set(
            re.findall(
                r"(?:^|`)referee-app(?: --db \S+| --lang \w+)* ([a-z][a-z-]+)",
                page.read_text(encoding="utf-8"),
                re.M,
            )
        )
    assert {"demo", "verify", "pair", "print", "role", "db"} <= shown, "the manual shows commands"
    assert shown - {"gui"} <= known, sorted(shown - known)


def test_the_manual_ships_inside_the_package_build() -> None:
    """What F1 opens in a wheel or bundle: docs/manual is mapped into the package."""
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"docs/manual" = "referee_app/manual"' in config
    spec = (ROOT / "packaging" / "referee-app.spec").read_text(encoding="utf-8")
    assert '"docs" / "manual"), "referee_app/manual"' in spec


def test_the_manuals_pictures_are_the_ones_the_screenshot_tool_makes() -> None:
    """So they follow the window: ``python tools/screenshots.py --manual`` writes every one."""
    source = (ROOT / "tools" / "screenshots.py").read_text(encoding="utf-8")
    made = set(re.findall(r'"[\w-]+\.png": "([\w-]+\.png)"', source))
    pictures = {p.name for p in (MANUAL / "img").glob("*.png")}
    used = {
        name
        for page in MANUAL.glob("*.md")
        for name in re.findall(r"\]\(img/([\w-]+\.png)\)", page.read_text("utf-8"))
    }
    assert made == pictures == used, (made, pictures, used)
