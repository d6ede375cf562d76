"""tools/mutation_score.py (issue 16): how it reads the equivalent mutants, narrows mutmut to one
module, and picks the modules a commit range changed (the CI gate's selection)."""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_score", ROOT / "tools" / "mutation_score.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["mutation_score"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_equivalents_are_read_per_module_section(tool: ModuleType) -> None:
    text = """# Equivalent mutants

## core/levels.py

| mutant | change | why |
|---|---|---|
| `x_advance__mutmut_1` | a | b |

## printing/data.py

| `x_f__mutmut_31`, `_36`, `_41`–`_43` | a | b |
| `xǁCǁm__mutmut_2` | a | b |

## Not observable in a test here

| `x_g__mutmut_1` | a |
"""
    assert tool.equivalents(text) == {
        "referee_app.core.levels.x_advance__mutmut_1",
        "referee_app.printing.data.x_f__mutmut_31",
        "referee_app.printing.data.x_f__mutmut_36",
        "referee_app.printing.data.x_f__mutmut_41",
        "referee_app.printing.data.x_f__mutmut_42",
        "referee_app.printing.data.x_f__mutmut_43",
        "referee_app.printing.data.xǁCǁm__mutmut_2",
    }


def test_every_listed_equivalent_is_a_mutant_of_a_measured_module(tool: ModuleType) -> None:
    measured = {f.removesuffix(".py").replace("/", ".") for m in tool.MODULES.values() for f in m.files}
    for name in tool.equivalents():
        assert tool._module(name) in measured, name


def test_the_score_counts_no_tests_as_not_killed_and_leaves_timeouts_out(tool: ModuleType) -> None:
    from collections import Counter

    assert tool.score(Counter({"killed": 9, "survived": 0, "no tests": 1, "timeout": 5})) == 90.0
    assert tool.score(Counter({"timeout": 3})) is None


def test_a_module_run_narrows_mutmut_to_its_files_and_tests(tool: ModuleType, tmp_path: Path) -> None:
    py = tmp_path / "pyproject.toml"
    py.write_text((ROOT / "pyproject.toml").read_text(encoding="utf-8"), encoding="utf-8")
    tool._narrow(py, tool.MODULES["core/pairing"])
    data = tomllib.loads(py.read_text(encoding="utf-8"))
    cfg = data["tool"]["mutmut"]
    assert cfg["only_mutate"] == ["referee_app/core/pairing.py", "referee_app/core/knockout.py"]
    assert "tests/test_mutants_pairing.py" in cfg["pytest_add_cli_args_test_selection"]
    assert "tests/test_engine.py" not in cfg["pytest_add_cli_args_test_selection"]
    assert data["tool"]["mypy"]  # the rest of the file is kept


def test_every_measured_module_and_test_file_exists_and_is_in_pyproject(tool: ModuleType) -> None:
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    for name, mod in tool.MODULES.items():
        for f in mod.files + mod.tests:
            assert (ROOT / f).is_file(), (name, f)
        assert set(mod.files) <= set(cfg["only_mutate"]), name
        assert set(mod.tests) <= set(cfg["pytest_add_cli_args_test_selection"]), name
    assert set(tool.GATED) <= set(tool.MODULES)


def test_the_gate_runs_only_modules_changed_since_their_passing_measurement(
    tool: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CI's selection (``gate --measured .ci/mutation-measured.json``): a module whose source
    or tests differ from the digest recorded with its last passing score is run; no git
    history is needed, so a shallow clone selects the same."""
    checkout = tmp_path / "checkout"
    for name in tool.GATED:
        mod = tool.MODULES[name]
        for rel in (*mod.files, *mod.tests):
            (checkout / rel).parent.mkdir(parents=True, exist_ok=True)
            (checkout / rel).write_text(f"# {rel}\n", encoding="utf-8")
    monkeypatch.setattr(tool, "ROOT", checkout)
    monkeypatch.setattr(tool, "WORK", checkout / ".mutation")
    measured = tmp_path / "measured.json"
    assert tool.unmeasured(measured) == list(tool.GATED)  # nothing recorded yet
    # a passing run is recorded with the digest of the copy it ran in (here: the same files)
    for name in tool.GATED:
        copy = checkout / ".mutation" / name.replace("/", "-")
        for rel in (*tool.MODULES[name].files, *tool.MODULES[name].tests):
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            (copy / rel).write_bytes((checkout / rel).read_bytes())
        tool.record(measured, name, 93.25)
    assert tool.unmeasured(measured) == []
    entry = tool.read_measured(measured)["core/engine"]
    assert entry["score"] == 93.2 and entry["goal"] == 90
    # a test of the engine changes: the engine is measured again, nothing else
    (checkout / "tests/test_mutants_engine.py").write_text("# a new test\n", encoding="utf-8")
    assert tool.unmeasured(measured) == ["core/engine"]
    # and a change to the pairing's source
    (checkout / "referee_app/core/knockout.py").write_text("# changed\n", encoding="utf-8")
    assert tool.unmeasured(measured) == ["core/engine", "core/pairing"]
