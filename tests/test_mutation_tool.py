"""tools/mutation_score.py (issue 16): how it reads the equivalent mutants, narrows mutmut to one
module, and what the CI gate runs: the mutants of the functions whose text changed since their
recorded results, a recheck sample when only the tests or the code outside functions changed, and
a deterministic sample within a budget however much changed."""

from __future__ import annotations

import importlib.util
import json
import sys
import tomllib
from collections import Counter
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


V1 = '''"""A module."""
import math

LIMIT = 3


def alpha(x):
    def inner(y):
        return y + 1

    return inner(x) * 2


@staticmethod
def beta(x):
    return x - 1  # a comment


class Box:
    size = 1

    def grow(self, n):
        return self.size + n

    @property
    def area(self):
        return self.size**2

    @area.setter
    def area(self, v):
        self.size = math.isqrt(v)


def gamma():
    return LIMIT
'''

# alpha's nested function changed, beta's comment changed, Box.grow unchanged but moved below a
# new function, gamma gone, delta new, LIMIT changed (code outside functions)
V2 = '''"""A module."""
import math

LIMIT = 4


@staticmethod
def beta(x):
    return x - 1  # pragma: no mutate


def alpha(x):
    def inner(y):
        return y + 2

    return inner(x) * 2


def delta():
    return 0


class Box:
    size = 1

    def grow(self, n):
        return self.size + n

    @property
    def area(self):
        return self.size**2

    @area.setter
    def area(self, v):
        self.size = math.isqrt(v)
'''


def test_function_digests_are_per_function_as_mutmut_names_them(tool: ModuleType) -> None:
    one, rest_one = tool.function_digests(V1, "pkg.mod")
    assert sorted(one) == [
        "pkg.mod.x_alpha",
        "pkg.mod.x_beta",
        "pkg.mod.x_gamma",
        "pkg.mod.xǁBoxǁarea",  # the property and its setter: one name to mutmut, one digest
        "pkg.mod.xǁBoxǁgrow",
    ]  # inner() is part of alpha
    two, rest_two = tool.function_digests(V2, "pkg.mod")
    same = {f for f in one.keys() & two.keys() if one[f] == two[f]}
    assert same == {"pkg.mod.xǁBoxǁgrow", "pkg.mod.xǁBoxǁarea"}  # moving a function changes nothing
    assert rest_one != rest_two  # LIMIT
    # a comment in the code outside functions changes nothing; the class's bases change its methods
    _, rest_commented = tool.function_digests(V1.replace("LIMIT = 3", "LIMIT = 3  # three"), "pkg.mod")
    assert rest_commented == rest_one
    based, _ = tool.function_digests(V1.replace("class Box:", "class Box(Enum):"), "pkg.mod")
    assert based["pkg.mod.xǁBoxǁgrow"] != one["pkg.mod.xǁBoxǁgrow"]
    assert based["pkg.mod.x_alpha"] == one["pkg.mod.x_alpha"]


def _shape(tool: ModuleType, source: str, tests: str = "t1") -> object:
    functions, rest = tool.function_digests(source, "pkg.mod")
    return tool.Shape(functions, rest, tests)


def _entry(tool: ModuleType, shape: object, letters: dict[str, str]) -> dict[str, object]:
    return {
        "tests_sha256": shape.tests,  # type: ignore[attr-defined]
        "rest_sha256": shape.rest,  # type: ignore[attr-defined]
        "functions": {f: {"sha256": d, "results": letters[f]} for f, d in shape.functions.items()},  # type: ignore[attr-defined]
    }


RECORDED = {
    "pkg.mod.x_alpha": "kkks",
    "pkg.mod.x_beta": "kk",
    "pkg.mod.x_gamma": "k",
    "pkg.mod.xǁBoxǁarea": "kkk-",  # its last mutant never measured (a sample ran)
    "pkg.mod.xǁBoxǁgrow": "kskt",
}


def test_what_counts_as_changed_and_what_runs(tool: ModuleType) -> None:
    then = _shape(tool, V1)
    entry = _entry(tool, then, RECORDED)
    # nothing changed: nothing to run but the one mutant never measured
    plan = tool.compare("core/levels", entry, then)
    assert (plan.changed, plan.deleted, plan.tests_changed, plan.rest_changed) == ([], [], False, False)
    assert tool.needs_run(plan, entry) and not tool.needs_run(plan, entry, pending_kept=False)
    tool.fill(plan, entry, {})
    assert plan.pending == ["pkg.mod.xǁBoxǁarea__mutmut_4"] and plan.recheck == []
    # the second version: alpha, beta changed, delta new, gamma gone; mutmut's counts of the changed
    now = _shape(tool, V2)
    plan = tool.compare("core/levels", entry, now)
    assert plan.changed == ["pkg.mod.x_alpha", "pkg.mod.x_beta", "pkg.mod.x_delta"]
    assert plan.deleted == ["pkg.mod.x_gamma"] and plan.rest_changed and not plan.tests_changed
    assert tool.needs_counts(plan, entry)
    tool.fill(plan, entry, {"pkg.mod.x_alpha": 5, "pkg.mod.x_beta": 2, "pkg.mod.x_delta": 1}, recheck=3)
    assert plan.base == {
        "pkg.mod.x_alpha": "-----",
        "pkg.mod.x_beta": "--",
        "pkg.mod.x_delta": "-",
        "pkg.mod.xǁBoxǁarea": "kkk-",
        "pkg.mod.xǁBoxǁgrow": "kskt",
    }
    assert len(plan.pending) == 5 + 2 + 1 + 1
    # LIMIT changed: a recheck of the unchanged functions, the ones killed before
    assert len(plan.recheck) == 3
    assert all(plan.base[tool.split_name(m)[0]][tool.split_name(m)[1] - 1] == "k" for m in plan.recheck)
    assert not set(plan.recheck) & set(plan.pending)
    # a record of the whole module alone (before per-function results): every function is new
    old = tool.compare("core/levels", {"sha256": "ab", "score": 98.0}, now)
    assert old.changed == sorted(now.functions) and old.tests_changed


def test_only_the_tests_changed_reruns_a_deterministic_sample_preferring_killed_mutants(
    tool: ModuleType,
) -> None:
    then = _shape(tool, V1)
    entry = _entry(tool, then, RECORDED)
    now = _shape(tool, V1, tests="t2")
    plan = tool.fill(tool.compare("core/levels", entry, now), entry, {}, recheck=5)
    assert plan.changed == [] and plan.tests_changed
    again = tool.fill(tool.compare("core/levels", entry, now), entry, {}, recheck=5)
    assert plan.recheck == again.recheck and len(plan.recheck) == 5
    letters = [plan.base[tool.split_name(m)[0]][tool.split_name(m)[1] - 1] for m in plan.recheck]
    assert letters == ["k"] * 5
    # larger than the killed ones (11): the measured survivors next, then the rest; never a pending one
    plan = tool.fill(tool.compare("core/levels", entry, now), entry, {}, recheck=13)
    letters = sorted(plan.base[tool.split_name(m)[0]][tool.split_name(m)[1] - 1] for m in plan.recheck)
    assert letters == ["k"] * 11 + ["s"] * 2
    plan = tool.fill(tool.compare("core/levels", entry, now), entry, {}, recheck=100)
    assert len(plan.recheck) == 15 - 1 and "pkg.mod.xǁBoxǁarea__mutmut_4" not in plan.recheck


def test_the_sample_is_deterministic_bounded_and_spread_over_the_functions(tool: ModuleType) -> None:
    names = [f"pkg.mod.x_f{k}__mutmut_{i}" for k, n in enumerate((400, 100, 7, 1)) for i in range(1, n + 1)]
    picked = tool.sample(names, 51, "seed")
    assert len(picked) == 51 and set(picked) <= set(names)
    assert picked == tool.sample(list(reversed(names)), 51, "seed")  # the order given does not matter
    assert picked != tool.sample(names, 51, "another seed")
    per = Counter(tool.split_name(m)[0] for m in picked)
    assert per["pkg.mod.x_f0"] == 40 and per["pkg.mod.x_f1"] == 10  # shares by size
    assert tool.sample(names, 10_000, "seed") == sorted(names) and tool.sample(names, 0, "seed") == []


def test_the_budget_bounds_what_runs_however_much_changed(tool: ModuleType) -> None:
    shape = _shape(tool, V1)

    def plan(name: str, n: int) -> object:
        p = tool.Plan(name, shape, ["pkg.mod.x_alpha"], [], False, False)
        p.pending = [f"pkg.mod.x_alpha__mutmut_{i}" for i in range(1, n + 1)]
        p.seed = name
        return p

    small = [plan("core/levels", 30)]
    tool.budget(small, seconds=600, children=2)
    assert small[0].chosen == small[0].pending  # within the budget: all of them
    big = [plan("core/engine", 2500), plan("store/audit", 1200), plan("core/levels", 37)]
    tool.budget(big, seconds=300, children=2)
    cost = sum(len(p.chosen) * tool.MODULES[p.name].cost for p in big)
    assert cost <= 300 * 2 + tool.MIN_SAMPLE * 3  # the bound (each module at least MIN_SAMPLE)
    assert all(len(p.chosen) >= min(tool.MIN_SAMPLE, len(p.pending)) for p in big)
    again = [plan("core/engine", 2500), plan("store/audit", 1200), plan("core/levels", 37)]
    tool.budget(again, seconds=300, children=2)
    assert [p.chosen for p in again] == [p.chosen for p in big]


def test_the_score_merges_recorded_and_new_results_and_estimates_what_was_not_run(tool: ModuleType) -> None:
    then = _shape(tool, V1)
    entry = _entry(tool, then, RECORDED)
    now = _shape(tool, V2)
    plan = tool.fill(
        tool.compare("core/levels", entry, now),
        entry,
        {"pkg.mod.x_alpha": 5, "pkg.mod.x_beta": 2, "pkg.mod.x_delta": 1},
        recheck=0,
    )
    # everything pending ran: the measured score, gamma's result gone
    found = {m: "killed" for m in plan.pending}
    found["pkg.mod.x_alpha__mutmut_5"] = "survived"
    out = tool.assess(plan, found)
    assert out.letters["pkg.mod.x_alpha"] == "kkkks" and out.letters["pkg.mod.xǁBoxǁarea"] == "kkkk"
    assert "pkg.mod.x_gamma" not in out.letters
    assert out.counts["killed"] == 4 + 2 + 1 + 4 + 2 and out.counts["survived"] == 1 + 1
    assert out.score == out.measured == pytest.approx(100 * 13 / 15) and out.estimate == ""
    # a sample of alpha ran (2 of 5, one killed): its 3 others count at 50%
    plan.chosen = ["pkg.mod.x_alpha__mutmut_1", "pkg.mod.x_alpha__mutmut_2"] + [
        m for m in plan.pending if "alpha" not in m
    ]
    found = {m: "killed" for m in plan.chosen}
    found["pkg.mod.x_alpha__mutmut_2"] = "survived"
    out = tool.assess(plan, found)
    assert out.letters["pkg.mod.x_alpha"] == "ks---"
    assert out.measured == pytest.approx(100 * 10 / 12)
    assert out.score == pytest.approx(100 * (10 + 1.5) / (12 + 3)) and "sampled 6 of 9" in out.estimate
    # a kept function's mutant never measured and not sampled: counted at that function's recorded ratio
    plan = tool.fill(tool.compare("core/levels", entry, then), entry, {})
    assert plan.pending == ["pkg.mod.xǁBoxǁarea__mutmut_4"]
    out = tool.assess(plan, {})
    killed, tried = 11, 13  # recorded: 11 killed, 2 survived, a timeout, one not measured
    assert out.score == pytest.approx(100 * (killed + 1.0) / (tried + 1))  # area: "kkk", so 1.0


def test_a_recheck_that_finds_killed_mutants_surviving_lowers_the_estimate(tool: ModuleType) -> None:
    then = _shape(tool, V1)
    entry = _entry(tool, then, {**RECORDED, "pkg.mod.xǁBoxǁarea": "kkkk"})
    now = _shape(tool, V1, tests="weaker")
    plan = tool.fill(tool.compare("core/levels", entry, now), entry, {}, recheck=4)
    assert plan.pending == [] and len(plan.recheck) == 4
    found = {m: "killed" for m in plan.recheck}
    found[plan.recheck[0]] = "survived"  # 1 of 4 killed before survives the weaker tests
    out = tool.assess(plan, found)
    killed_now, tried = 12 - 1, 14  # 12 killed, 2 survived and a timeout recorded
    not_rechecked_killed = 12 - 4
    assert out.measured == pytest.approx(100 * killed_now / tried)
    assert out.score == pytest.approx(100 * (killed_now - 0.25 * not_rechecked_killed) / tried)
    assert "1 of 4" in out.estimate


def _fake_checkout(tool: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str) -> Path:
    checkout = tmp_path / "checkout"
    mod = tool.MODULES["core/levels"]
    for rel in (*mod.files, *mod.tests):
        (checkout / rel).parent.mkdir(parents=True, exist_ok=True)
        (checkout / rel).write_text(f"# {rel}\n", encoding="utf-8")
    (checkout / mod.files[0]).write_text(source, encoding="utf-8")
    monkeypatch.setattr(tool, "ROOT", checkout)
    monkeypatch.setattr(tool, "WORK", checkout / ".mutation")
    monkeypatch.setattr(tool, "GATED", ("core/levels",))
    return checkout


def test_the_gate_exits_1_below_the_goal_and_records_only_a_pass(
    tool: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CI command end to end, with mutmut replaced: which mutants it asks for, the exit status,
    what ``--record`` writes, and that an unchanged module then runs nothing."""
    checkout = _fake_checkout(tool, tmp_path, monkeypatch, V1)
    counts = {"alpha": 10, "beta": 4, "gamma": 3, "xǁBoxǁarea": 2, "xǁBoxǁgrow": 1}
    asked: list[list[str]] = []
    verdict = {"status": "survived", "beta": ""}

    def fake_counts(dest: Path, files: tuple[str, ...]) -> dict[str, int]:
        return {("referee_app.core.levels." + (f if "ǁ" in f else "x_" + f)): n for f, n in counts.items()}

    def fake_run(
        name: str, dest: Path, mutants: list[str], max_children: int, deadline: float | None = None
    ) -> dict[str, str]:
        asked.append(mutants)
        return {
            m: verdict["beta"] if verdict["beta"] and "x_beta" in m else verdict["status"] for m in mutants
        }

    monkeypatch.setattr(tool, "mutant_counts", fake_counts)
    monkeypatch.setattr(tool, "run_mutants", fake_run)
    monkeypatch.setattr(tool, "_fresh_copy", lambda name: tmp_path)
    measured = checkout / ".ci" / "mutation-measured.json"
    measured.parent.mkdir()
    # nothing recorded: every mutant runs; all survive: exit 1 and nothing recorded
    assert tool.main(["gate", "--measured", str(measured), "--record"]) == 1
    assert len(asked[-1]) == 20 and not measured.exists()
    assert "BELOW THE GOAL" in capsys.readouterr().out
    # all killed: a pass, recorded per function
    verdict["status"] = "killed"
    assert tool.main(["gate", "--measured", str(measured), "--record"]) == 0
    entry = json.loads(measured.read_text(encoding="utf-8"))["core/levels"]
    assert entry["score"] == 100.0 and entry["killed"] == 20
    assert entry["functions"]["referee_app.core.levels.x_alpha"]["results"] == "k" * 10
    # unchanged: nothing runs at all
    asked.clear()
    assert tool.main(["gate", "--measured", str(measured)]) == 0
    assert asked == [] and "unchanged since measured: core/levels" in capsys.readouterr().out
    # one function changed: its mutants alone run, and the rest keep their results
    (checkout / "referee_app/core/levels.py").write_text(V1.replace("x - 1", "x - 2"), encoding="utf-8")
    assert tool.main(["gate", "--measured", str(measured), "--recheck", "0"]) == 0
    beta = [f"referee_app.core.levels.x_beta__mutmut_{i}" for i in range(1, 5)]
    assert asked == [beta]
    # (by default with a recheck of the kept functions' mutants: here all 16 of them)
    assert tool.main(["gate", "--measured", str(measured)]) == 0
    assert set(beta) < set(asked[-1]) and len(asked[-1]) == 20
    # its mutants survive now (the kept ones rechecked are still killed): 16 of 20, below 90%
    verdict["beta"] = "survived"
    assert tool.main(["gate", "--measured", str(measured), "--record"]) == 1
    assert "measured 80.0%" in capsys.readouterr().out
    assert json.loads(measured.read_text(encoding="utf-8"))["core/levels"]["score"] == 100.0


def test_the_recorded_scores_are_those_of_the_recorded_results(tool: ModuleType) -> None:
    """.ci/mutation-measured.json: every gated module is recorded, and where it has per-function
    results the score written is the one they give (nothing recorded that was not measured). A
    record of the whole module alone (the file before per-function results, say from a branch
    merged later) is allowed: the gate counts all its functions as new."""
    measured = tool.read_measured(ROOT / ".ci" / "mutation-measured.json")
    assert set(measured) == set(tool.GATED)
    for name, entry in measured.items():
        if "functions" not in entry:
            continue
        letters = [f["results"] for f in entry["functions"].values()]
        assert all(set(t) <= set("ksnt-?") for t in letters), name
        c = tool.tally(letters)
        assert entry["goal"] == tool.MODULES[name].goal
        assert entry["score"] == round(tool.score(c), 1) >= entry["goal"], name
        assert (entry["killed"], entry["survived"], entry["not measured"]) == (
            c["killed"],
            c["survived"],
            c["not checked"],
        ), name


def test_changed_since_a_commit_runs_the_functions_changed_since_it(
    tool: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``gate --changed BASE`` without recorded results: the functions whose text differs from
    BASE's (committed or not) are run and scored alone."""
    import subprocess

    checkout = _fake_checkout(tool, tmp_path, monkeypatch, V1)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(checkout)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "base"], check=True)
    assert tool.main(["gate", "--changed", "HEAD"]) == 0
    assert "no gated module changed" in capsys.readouterr().out
    (checkout / "referee_app/core/levels.py").write_text(V1.replace("x - 1", "x - 2"), encoding="utf-8")
    asked: list[list[str]] = []

    def fake_run(
        name: str, dest: Path, mutants: list[str], max_children: int, deadline: float | None = None
    ) -> dict[str, str]:
        asked.append(mutants)
        return {m: "killed" for m in mutants}

    monkeypatch.setattr(tool, "mutant_counts", lambda dest, files: {"referee_app.core.levels.x_beta": 4})
    monkeypatch.setattr(tool, "run_mutants", fake_run)
    monkeypatch.setattr(tool, "_fresh_copy", lambda name: tmp_path)
    assert tool.main(["gate", "--changed", "HEAD"]) == 0
    assert asked == [[f"referee_app.core.levels.x_beta__mutmut_{i}" for i in range(1, 5)]]
    assert "measured 100.0%" in capsys.readouterr().out
