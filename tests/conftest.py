"""Shared test set-up: Qt runs offscreen, the rulebook cache lives in the test's own folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "rules"
SHARED = ROOT.parent / "shared"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "cache"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The combination cases in ``cases/combos/`` are judged by ``test_combo_cases.py`` (through
    the command, with its list of cases the engine still gets wrong); the clause-case runner,
    which walks every folder under ``cases/``, leaves them to it rather than judge them twice."""
    combos = Path(__file__).resolve().parent / "cases" / "combos"
    kept, dropped = [], []
    for item in items:
        path = getattr(item, "callspec", None) and item.callspec.params.get("case_path")
        in_clause_runner = item.path.name == "test_clause_cases.py" and item.name.startswith("test_case[")
        if in_clause_runner and isinstance(path, Path) and path.parent == combos:
            dropped.append(item)
        else:
            kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
