"""Upper bounds on the dependencies whose internals the app reads (issue 28): a new major
release may change what no release promises to keep, so pyproject.toml bounds each of them,
with a comment above the requirement saying why."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"

#: reportlab: printing/flow.py, grid.py, render.py, fonts.py and qr.py read its internals;
#: the others' APIs are bound at their next major (SQLAlchemy's Row._mapping, Qt's major).
BOUNDED = ("reportlab", "pyside6-essentials", "pyside6-pdf", "sqlalchemy", "pyhanko")


def _requirements() -> dict[str, Requirement]:
    deps = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["dependencies"]
    return {Requirement(d).name.lower(): Requirement(d) for d in deps}


def test_each_dependency_whose_internals_are_read_has_an_upper_bound() -> None:
    reqs = _requirements()
    for name in BOUNDED:
        assert any(s.operator in ("<", "<=") for s in reqs[name].specifier), f"{name}: no upper bound"


def test_each_upper_bound_says_why_in_a_comment_above_it() -> None:
    lines = PYPROJECT.read_text(encoding="utf-8").splitlines()
    for name in BOUNDED:
        at = next(i for i, ln in enumerate(lines) if ln.strip().lower().startswith(f'"{name}>='))
        while lines[at - 1].strip().startswith('"PySide6-'):  # one comment for Qt's two packages
            at -= 1
        assert lines[at - 1].strip().startswith("#"), f"{name}: the bound has no comment saying why"


def test_the_printing_still_reads_the_reportlab_internals_the_bound_names() -> None:
    # the comment names these files; if none of them reads reportlab's own parts any more,
    # the bound (and its comment) should go
    printing = ROOT / "referee_app" / "printing"
    marked = [p.name for p in printing.glob("*.py") if "reportlab's own" in p.read_text(encoding="utf-8")]
    assert {"flow.py", "grid.py", "fonts.py"} <= set(marked)
    comment = PYPROJECT.read_text(encoding="utf-8")
    assert all(f"printing/{name}" in comment for name in ("flow.py", "grid.py", "fonts.py", "qr.py"))
