"""Clause cases: one case per penalty and scoring clause of the three source documents.

Every ``NAME.json`` under ``tests/cases/<event>/`` and the examples of the case format in
``examples/cases/`` (the team's shared sample, kept in the repository) is judged in-process and compared with
``NAME.expected.json`` by the same subset rule as ``shared/tools/check_cases.py``: every key
the expected file names must be in the decision with an equal value, and a list must have the
decision's length. ``{"error": true}`` means the case must be rejected (``CaseError``, exit 2).

The expected values were written from the seeds, not from the engine; ``tests/cases/CLAUSES.md``
says which clause each case checks.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee_app.core.engine import judge
from referee_app.core.errors import CaseError

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
EXAMPLES = HERE.parent / "examples" / "cases"
MANIFEST = CASES / "CLAUSES.md"


def diff(expected, actual, path="$"):
    """The comparison of check_cases.py: subset match on objects, equal length on lists."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {json.dumps(actual, ensure_ascii=False)[:80]}"]
        out = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{path}.{key}: missing")
            else:
                out.extend(diff(value, actual[key], f"{path}.{key}"))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            got = len(actual) if isinstance(actual, list) else type(actual).__name__
            return [f"{path}: expected a list of {len(expected)}, got {got}"]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out.extend(diff(e, a, f"{path}[{i}]"))
        return out
    if expected != actual:
        return [
            f"{path}: expected {json.dumps(expected, ensure_ascii=False)}, "
            f"got {json.dumps(actual, ensure_ascii=False)}"
        ]
    return []


def _cases_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.json") if not p.name.endswith(".expected.json"))


def _expected_of(case: Path) -> Path:
    return case.with_name(case.stem + ".expected.json")


def _load(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def _own_cases() -> list[Path]:
    return [c for d in sorted(p for p in CASES.iterdir() if p.is_dir()) for c in _cases_in(d)]


def _params():
    params = [pytest.param(c, id=c.name) for c in _own_cases()]
    params += [pytest.param(c, id=f"examples/{c.name}") for c in _cases_in(EXAMPLES)]
    return params


@pytest.mark.parametrize("case_path", _params())
def test_case(case_path: Path):
    case = _load(case_path)
    expected = _load(_expected_of(case_path))
    if expected == {"error": True}:
        with pytest.raises(CaseError) as exc:
            judge(case, lang="zh")
        assert "\n" not in str(exc.value).strip(), "an error is one line"
        return
    decision = judge(case, lang="zh")
    problems = diff(expected, decision)
    assert not problems, f"{case_path.name}:\n  " + "\n  ".join(problems)


# --- the real command ----------------------------------------------------------------------


def _command() -> list[str]:
    exe = shutil.which("referee-app") or str(Path(sys.executable).with_name("referee-app"))
    if not Path(exe).exists():
        pytest.skip("referee-app is not installed next to this Python")
    return [exe]


CLI_SAMPLES = [
    "bhg-2011/bhg-2-4-exposed-card-3rd-time-hand-loss.json",
    "bhg-2011/bhg-2-1-late-arrival-10min-forfeit.json",
    "gansu-2018/gansu-6-E-illegal-signal-defenders.json",
    "hbue-2018/hbue-3-6-j-rule-pair-j.json",
    "hbue-2018/hbue-invalid-discovered-before-trick.json",
    "gansu-2018/gansu-invalid-missing-phase.json",
]


def judge_command(case_path: Path) -> subprocess.CompletedProcess[str]:
    """``referee-app --lang zh judge CASE.json`` as a separate process."""
    return subprocess.run(
        _command() + ["--lang", "zh", "judge", str(case_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("rel", CLI_SAMPLES, ids=[Path(r).name for r in CLI_SAMPLES])
def test_command(rel: str):
    """`referee-app judge CASE.json`: exit 0 with the same decision as in-process, or exit 2
    with one line on standard error and nothing on standard output."""
    case_path = CASES / rel
    expected = _load(_expected_of(case_path))
    run = judge_command(case_path)
    if expected == {"error": True}:
        assert run.returncode == 2, run.stderr
        assert run.stdout.strip() == ""
        assert len(run.stderr.strip().splitlines()) == 1, run.stderr
        return
    assert run.returncode == 0, run.stderr
    decision = json.loads(run.stdout)
    assert not diff(expected, decision), diff(expected, decision)
    # the command and the in-process engine (what the GUI runs) must never disagree
    assert decision == judge(_load(case_path), lang="zh")


def test_command_reads_standard_input():
    case_path = CASES / "hbue-2018" / "hbue-3-3-band-0-da-guang.json"
    run = subprocess.run(
        _command() + ["--lang", "zh", "judge", "-"],
        input=case_path.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert not diff(_load(_expected_of(case_path)), json.loads(run.stdout))


# --- the manifest --------------------------------------------------------------------------


def _manifest_files() -> list[str]:
    listed = []
    for line in MANIFEST.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4:
            continue
        m = re.fullmatch(r"`?([^`]+\.json)`?", cells[2])
        if m:
            listed.append(m.group(1))
    return listed


def test_manifest_lists_every_case_and_only_existing_ones():
    listed = _manifest_files()
    assert listed, "CLAUSES.md lists no case"
    dupes = sorted({f for f in listed if listed.count(f) > 1})
    assert not dupes, f"listed more than once: {dupes}"
    missing = [f for f in listed if not (CASES / f).is_file()]
    assert not missing, f"listed in CLAUSES.md but not found: {missing}"
    no_expected = [f for f in listed if not _expected_of(CASES / f).is_file()]
    assert not no_expected, f"no .expected.json beside: {no_expected}"
    on_disk = {c.relative_to(CASES).as_posix() for c in _own_cases()}
    unlisted = sorted(on_disk - set(listed))
    assert not unlisted, f"case files not listed in CLAUSES.md: {unlisted}"


def test_manifest_rows_name_their_event():
    for line in MANIFEST.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 4 and cells[2].endswith(".json`"):
            assert cells[2].strip("`").startswith(cells[0] + "/"), line
