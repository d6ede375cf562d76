"""Issue 16: no test that asserts nothing. Every test function checks something itself: an
``assert``, ``pytest.raises`` / ``pytest.fail`` / ``pytest.warns``, a call to a helper of its
own file that asserts (``_one_clear_line``), or a subprocess run with ``check=True`` whose
program asserts. A test that only runs code would pass whatever the code did."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _checks(node: ast.AST, helpers: set[str]) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Assert):
            return True
        if isinstance(sub, ast.Attribute) and sub.attr in ("raises", "fail", "warns"):
            return True
        if isinstance(sub, ast.Call):
            name = getattr(sub.func, "id", None) or getattr(sub.func, "attr", "")
            if name.startswith(("assert", "check", "expect")) or name in helpers:
                return True
            if any(k.arg == "check" and getattr(k.value, "value", None) is True for k in sub.keywords):
                return True
    return False


def test_every_test_checks_something() -> None:
    idle = []
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
        helpers = {f.name for f in functions if not f.name.startswith("test") and _checks(f, set())}
        for f in functions:
            if f.name.startswith("test") and not _checks(f, helpers):
                idle.append(f"{path.relative_to(TESTS)}:{f.lineno} {f.name}")
    assert not idle, "tests that check nothing:\n" + "\n".join(idle)


def test_the_search_finds_a_test_that_checks_nothing() -> None:
    """The search itself bites: a test that only calls code is found."""
    tree = ast.parse("def test_idle():\n    print(1)\n\ndef test_real():\n    assert 1\n")
    found = [f.name for f in tree.body if isinstance(f, ast.FunctionDef) and not _checks(f, set())]
    assert found == ["test_idle"]
