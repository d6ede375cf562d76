"""Combination cases: several clauses in one hand or one round, judged by the real command.

Every ``NAME.json`` in ``tests/cases/combos/`` is run through ``referee-app --lang zh judge`` and
the decision compared with ``NAME.expected.json`` by the subset rule of the clause cases. The
expected values were computed by hand from the seeds (``combos/README.md`` quotes the clauses);
they were not taken from the engine.

``combos/pending.txt`` names the cases the engine gets wrong today, one per line with a reason
(``DISAGREEMENTS.md`` argues each). Those, and only those, are expected to fail, strictly: when
the engine is fixed the test fails until the name is taken off the list, so the list never goes
stale.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from referee_app.core.engine import judge

from .test_clause_cases import CASES, _cases_in, _expected_of, _load, diff, judge_command

COMBOS = CASES / "combos"
PENDING = COMBOS / "pending.txt"


def pending_cases() -> dict[str, str]:
    """``name: reason`` from pending.txt; blank lines and ``#`` comments are skipped."""
    if not PENDING.is_file():
        return {}
    pending: dict[str, str] = {}
    for line in PENDING.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, reason = line.partition(" ")
        pending[name.removesuffix(".json")] = reason.strip(" -—:") or "no reason given"
    return pending


def _params() -> list:
    pending = pending_cases()
    params = []
    for case in _cases_in(COMBOS):
        marks = []
        if case.stem in pending:
            marks.append(pytest.mark.xfail(strict=True, reason=f"pending.txt: {pending[case.stem]}"))
        params.append(pytest.param(case, id=case.stem, marks=marks))
    return params


@pytest.mark.parametrize("case_path", _params())
def test_combo_case(case_path: Path) -> None:
    expected = _load(_expected_of(case_path))
    run = judge_command(case_path)
    if expected == {"error": True}:
        assert run.returncode == 2, run.stderr
        assert len(run.stderr.strip().splitlines()) == 1, run.stderr
        return
    # a combination case is a valid case: a refusal is a bug of the case or of the parser
    assert run.returncode == 0, f"{case_path.name}: exit {run.returncode}: {run.stderr.strip()}"
    problems = diff(expected, json.loads(run.stdout))
    assert not problems, f"{case_path.name}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("case_path", [pytest.param(c, id=c.stem) for c in _cases_in(COMBOS)])
def test_combo_case_typed_in_reverse_gives_the_same_decision(case_path: Path) -> None:
    """Issue 9: the same facts in any order give the same decision. Each hand's infractions are
    typed backwards; the decision must be the same, its rulings listed in the new typing order."""
    case = _load(case_path)
    if _load(_expected_of(case_path)) == {"error": True}:
        pytest.skip("an invalid case has no decision")
    backwards = copy.deepcopy(case)
    for hand in backwards["hands"]:
        hand.get("infractions", []).reverse()
    straight, reversed_ = judge(case, lang="zh"), judge(backwards, lang="zh")
    for hand in reversed_["hands"]:
        hand["rulings"].reverse()
    for decision in (straight, reversed_):  # where an infraction was typed is not the decision
        for hand in decision["hands"]:
            for ruling in hand["rulings"]:
                ruling.pop("infraction")
    assert reversed_ == straight


def test_every_combo_case_has_its_expected_file_and_reasoning() -> None:
    cases = _cases_in(COMBOS)
    assert len(cases) >= 45, f"only {len(cases)} combination cases"
    readme = (COMBOS / "README.md").read_text(encoding="utf-8")
    for case in cases:
        assert _expected_of(case).is_file(), f"no expected file beside {case.name}"
        assert f"`{case.stem}`" in readme, f"README.md does not explain {case.stem}"


def test_pending_names_existing_cases_each_argued() -> None:
    """A pending name must be a real case, with its disagreement written down for the engine."""
    stems = {c.stem for c in _cases_in(COMBOS)}
    disagreements = (COMBOS / "DISAGREEMENTS.md").read_text(encoding="utf-8")
    for name, reason in pending_cases().items():
        assert name in stems, f"pending.txt names {name}, which is not a case"
        assert reason != "no reason given", f"pending.txt: {name} has no reason"
        assert f"`{name}`" in disagreements, f"DISAGREEMENTS.md does not argue {name}"
