"""The suite keeps itself honest: every test can fail.

A test function that neither asserts, nor expects an exception, nor runs a command that fails
on a non-zero exit, passes whatever the code does. This scan reads every test module's syntax
tree (nothing is imported or run) and names such functions with their file and line.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent

#: Calls that fail a test by themselves: pytest.raises / pytest.fail, pytest-qt's waits (they
#: raise on time-out), and the suite's own ``assert_*`` / ``check_*`` / ``expect_*`` helpers.
FAILING_CALLS = {"raises", "fail", "waitUntil", "waitSignal", "waitSignals", "warns"}
FAILING_PREFIXES = ("assert", "check_", "expect")


def _call_can_fail(call: ast.Call, failing_helpers: set[str]) -> bool:
    fn = call.func
    name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
    if name in FAILING_CALLS or name in failing_helpers or name.startswith(FAILING_PREFIXES):
        return True
    # subprocess.run(..., check=True) raises CalledProcessError on a non-zero exit
    return any(
        kw.arg == "check" and isinstance(kw.value, ast.Constant) and kw.value.value is True
        for kw in call.keywords
    )


def _can_fail(function: ast.FunctionDef | ast.AsyncFunctionDef, failing_helpers: set[str]) -> bool:
    for node in ast.walk(function):
        if isinstance(node, ast.Assert | ast.Raise):
            return True
        if isinstance(node, ast.Call) and _call_can_fail(node, failing_helpers):
            return True
    return False


def silent_test_functions(root: Path) -> list[str]:
    found = []
    for module in sorted(root.rglob("test_*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"), filename=str(module))
        functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
        # the module's own helpers that assert (``_one_clear_line``) fail a test that calls them
        helpers: set[str] = set()
        for _ in range(3):  # helpers calling helpers
            helpers |= {f.name for f in functions if not f.name.startswith("test_") and _can_fail(f, helpers)}
        for node in functions:
            if node.name.startswith("test_") and not _can_fail(node, helpers):
                found.append(f"{module.relative_to(root)}:{node.lineno} {node.name}")
    return found


def test_every_test_function_can_fail() -> None:
    assert silent_test_functions(TESTS) == []


def test_the_scan_finds_a_test_without_an_assert(tmp_path: Path) -> None:
    (tmp_path / "test_sample.py").write_text(
        "import subprocess, pytest\n"
        "def test_silent():\n    x = 1 + 1\n"
        "def test_asserts():\n    assert 1\n"
        "def test_raises():\n    with pytest.raises(ValueError):\n        int('x')\n"
        "def test_command():\n    subprocess.run(['true'], check=True)\n"
        "def test_unchecked_command():\n    subprocess.run(['false'], check=False)\n"
        "def _must_be_two(x):\n    assert x == 2\n"
        "def test_through_a_helper():\n    _must_be_two(1 + 1)\n",
        encoding="utf-8",
    )
    assert silent_test_functions(tmp_path) == [
        "test_sample.py:2 test_silent",
        "test_sample.py:11 test_unchecked_command",
    ]
