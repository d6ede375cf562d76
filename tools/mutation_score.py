"""Mutation testing per module (issue 16; README "Mutation testing").

Three commands::

    python tools/mutation_score.py [score] [MODULE-PREFIX ...]
        killed / survived / no tests / timeout / not checked per module, from the results
        mutmut recorded in ./mutants (after a plain ``mutmut run``), and the score
        killed ÷ (killed + survived + no tests); timeouts are listed apart, not counted as
        killed.

    python tools/mutation_score.py run MODULE [--max-children N] [--mutants NAME ...] [--again]
        mutmut on one module (``core/engine``, ``store/audit`` …, see MODULES) against the
        test files that exercise it, in a copy of the checkout under ``.mutation/MODULE``
        (ignored by git) whose ``[tool.mutmut]`` names that module and those tests only: a
        run per module keeps its own results, so one module's run never resets another's
        (mutmut 3 starts over whenever the test selection changes). A second run of the same
        module only tests the mutants of functions changed since; ``--mutants`` re-runs the
        named ones and ``--again`` every one not killed yet (after writing tests to kill
        them). Prints the score, the survivors and which of them
        tools/mutation-equivalents.md lists as equivalent.

    python tools/mutation_score.py gate [--changed BASE] [--max-children N]
        ``run`` on each gated module (GATED) whose source or tests changed between BASE and
        HEAD (every gated module without ``--changed``), from a fresh copy; exits 1 when one
        scores below its goal. The score counted against the goal is the plain one:
        equivalent mutants count as survivors.

mutmut runs niced (``nice -n 15``): the machine stays usable meanwhile.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".mutation"
EQUIVALENTS = ROOT / "tools" / "mutation-equivalents.md"


@dataclass(frozen=True)
class Module:
    files: tuple[str, ...]
    tests: tuple[str, ...]
    goal: int  # percent
    #: pytest arguments added to the selection (e.g. deselecting a test too slow to run per mutant)
    extra: tuple[str, ...] = field(default=())


#: The measured modules: the source mutated, the test files run against it, the goal (issue 16).
MODULES: dict[str, Module] = {
    "core/levels": Module(
        ("referee_app/core/levels.py",), ("tests/test_levels.py", "tests/test_mutants_levels.py"), 90
    ),
    "core/standings": Module(
        ("referee_app/core/standings.py",),
        ("tests/test_standings.py", "tests/test_mutants_standings.py"),
        90,
    ),
    "core/engine": Module(
        ("referee_app/core/engine.py",),
        (
            "tests/test_engine.py",
            "tests/test_clause_cases.py",
            "tests/test_fourth_event.py",
            "tests/test_mutants_engine.py",
        ),
        90,
    ),
    "core/pairing": Module(
        ("referee_app/core/pairing.py", "referee_app/core/knockout.py"),
        ("tests/test_pairing.py", "tests/test_mutants_pairing.py"),
        90,
        # 59 s of the file's 63, run for every surviving mutant: the large fields' blocks and
        # the criteria are pinned in test_mutants_pairing.py with small blocks and against brute
        # force; these still run in the normal suite
        (
            "--deselect=tests/test_pairing.py::test_512_pairs_9_rounds_pair_without_repeats",
            "--deselect=tests/test_pairing.py::test_4096_pairs_pair_without_repeats_in_blocks_with_progress",
            "--deselect=tests/test_pairing.py::test_gansu_6_3_no_pair_meets_twice_in_9_rounds_of_64",
            "--deselect=tests/test_pairing.py::test_pairing_is_optimal_against_exhaustive_search[14-8]",
        ),
    ),
    "store/audit": Module(
        ("referee_app/store/audit.py",),
        # the audit module's own tests, on an in-memory store; test_signing.py (through the
        # command line and key files, 25 s) would add minutes to every surviving mutant
        # and the save's planned writer (test_save_batches.py: a few real SQLite files, 4 s)
        ("tests/store/test_mutants_audit.py", "tests/store/test_save_batches.py"),
        90,
    ),
    "printing/data": Module(
        ("referee_app/printing/data.py",),
        ("tests/printing/test_forms_pdf.py", "tests/printing/test_mutants_data.py"),
        80,
    ),
}

#: The modules ``gate`` checks (the core's and the audit chain's).
GATED = ("core/levels", "core/standings", "core/engine", "core/pairing", "store/audit")


# -- reading results -----------------------------------------------------------------------------


def _module(mutant: str) -> str:
    # "referee_app.core.levels.x_advance__mutmut_1" / "…data.xǁClassǁmethod__mutmut_3"
    head = mutant.split("__mutmut_")[0]
    return head.rsplit(".", 1)[0]


def results(cwd: Path) -> dict[str, str]:
    """mutant name → status, as mutmut recorded them in ``cwd/mutants``."""
    out = subprocess.run(
        ["mutmut", "results", "--all", "true"], capture_output=True, text=True, check=True, cwd=cwd
    ).stdout
    found: dict[str, str] = {}
    for line in out.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep:
            found[name] = status
    return found


def equivalents(text: str | None = None) -> set[str]:
    """The mutants tools/mutation-equivalents.md lists, by full name: a ``## core/levels.py``
    section names the module, its table rows the mutants (``x_f__mutmut_3``, ``_4``,
    ``_5``–``_7``)."""
    if text is None:
        text = EQUIVALENTS.read_text(encoding="utf-8")
    names: set[str] = set()
    module = ""
    for line in text.splitlines():
        if line.startswith("## "):  # a module's section, or another (its rows are not equivalents)
            section = re.fullmatch(r"##\s+(\S+)\.py\s*", line)
            module = "referee_app." + section.group(1).replace("/", ".") + "." if section else ""
            continue
        if not line.startswith("| `") or not module:
            continue
        cell = line.split("|")[1]
        base = None
        for tok in re.findall(r"`([^`]+)`", cell):
            m = re.fullmatch(r"(.+__mutmut_)(\d+)", tok)
            if m:
                base = m.group(1)
                names.add(module + tok)
            elif base is not None and re.fullmatch(r"_\d+", tok):
                names.add(module + base + tok[1:])
        for lo, hi in re.findall(r"`_?(\d+)`\s*[–-]\s*`_(\d+)`", cell):
            if base is not None:
                names.update(f"{module}{base}{k}" for k in range(int(lo), int(hi) + 1))
    return names


def _is_equivalent(name: str, listed: set[str]) -> bool:
    return name in listed


HEADS = ("killed", "survived", "no tests", "timeout", "not checked")


def table(found: dict[str, str], prefixes: list[str]) -> dict[str, Counter[str]]:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for name, status in found.items():
        module = _module(name)
        if prefixes and not any(module.startswith(p) for p in prefixes):
            continue
        counts[module][status] += 1
    return counts


def score(c: Counter[str]) -> float | None:
    tried = c["killed"] + c["survived"] + c["no tests"]
    return 100 * c["killed"] / tried if tried else None


def print_table(counts: dict[str, Counter[str]], found: dict[str, str]) -> None:
    listed = equivalents()
    print(f"{'module':40} " + " ".join(f"{h:>11}" for h in HEADS) + "  score  equivalent")
    for module in sorted(counts):
        c = counts[module]
        s = score(c)
        eq = sum(
            1
            for n, st in found.items()
            if st == "survived" and _module(n) == module and _is_equivalent(n, listed)
        )
        print(
            f"{module:40} "
            + " ".join(f"{c[k]:11}" for k in HEADS)
            + (f"  {s:4.1f}%" if s is not None else "      —")
            + f"  {eq}"
        )


# -- running one module ----------------------------------------------------------------------------


def _dotted(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def _copy_checkout(dest: Path) -> None:
    """The checkout's files as they are now (tracked and new, not ignored) copied into ``dest``;
    mutmut's results already there are kept."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
        cwd=ROOT,
    ).stdout.split(b"\0")
    for raw in listed:
        if not raw:
            continue
        rel = raw.decode()
        src = ROOT / rel
        if not src.is_file():
            continue
        out = dest / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        if not out.exists() or out.read_bytes() != src.read_bytes():
            shutil.copy2(src, out)


def _narrow(pyproject: Path, mod: Module) -> None:
    """``[tool.mutmut]`` of the copy: this module's files and tests only."""
    text = pyproject.read_text(encoding="utf-8")
    start = text.index("[tool.mutmut]")
    end = text.index("\n[", start + 1)

    def arr(items: tuple[str, ...]) -> str:
        return "[\n" + "".join(f'    "{i}",\n' for i in items) + "]"

    section = (
        "[tool.mutmut]\n"
        'source_paths = ["referee_app"]\n'
        f"only_mutate = {arr(mod.files)}\n"
        'also_copy = ["rules", "forms", "resources"]\n'
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-q"]\n'
        f"pytest_add_cli_args_test_selection = {arr(mod.tests + mod.extra)}\n"
    )
    pyproject.write_text(text[:start] + section + text[end:], encoding="utf-8")


def module_results(dest: Path, mod: Module) -> tuple[dict[str, str], dict[str, Counter[str]], Counter[str]]:
    """The results mutmut recorded in the copy ``dest`` for ``mod``'s files: by mutant, by
    source module, and in all."""
    found = {n: st for n, st in results(dest).items() if any(_module(n) == _dotted(f) for f in mod.files)}
    counts = table(found, [])
    total: Counter[str] = Counter()
    for c in counts.values():
        total.update(c)
    return found, counts, total


def run_module(
    name: str, max_children: int, mutants: list[str], fresh: bool = False, again: bool = False
) -> float | None:
    mod = MODULES[name]
    dest = WORK / name.replace("/", "-")
    if fresh and dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True, exist_ok=True)
    _copy_checkout(dest)
    _narrow(dest / "pyproject.toml", mod)
    if again and (dest / "mutants").is_dir():
        # every mutant not killed yet, run again against the tests as they are now
        mutants = mutants + sorted(n for n, st in results(dest).items() if st in ("survived", "no tests"))
    cmd = ["nice", "-n", "15", "mutmut", "run", "--max-children", str(max_children)]
    # the copy mutates this module only; named mutants are run again even with a result
    cmd += mutants
    started = time.monotonic()
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"== {name}: {' '.join(cmd)} (in {dest})", flush=True)
    # The store tests' PostgreSQL half skips: mutants run in parallel would share one
    # database, and under CI=true a missing server fails a test (every mutant "killed").
    env = {k: v for k, v in os.environ.items() if k not in ("REFEREE_APP_TEST_PG_URL", "CI")}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    with open(dest / "mutmut.log", "w", encoding="utf-8") as log:  # progress: tail it
        done = subprocess.run(cmd, cwd=dest, stdout=log, stderr=subprocess.STDOUT, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{name}: mutmut failed ({done.returncode}); see {dest / 'mutmut.log'}")
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime + cpu_after.ru_stime) - (cpu_before.ru_utime + cpu_before.ru_stime)
    found, counts, total = module_results(dest, mod)
    print_table(counts, found)
    s = score(total)
    listed = equivalents()
    survivors = sorted(n for n, st in found.items() if st in ("survived", "no tests"))
    other = [n for n in survivors if not _is_equivalent(n, listed)]
    print(
        f"{name}: {s:.1f}% (goal {mod.goal}%) in {time.monotonic() - started:.0f} s "
        f"({cpu:.0f} s of CPU); "
        f"{len(survivors) - len(other)} survivor(s) listed as equivalent"
        if s is not None
        else f"{name}: no mutants"
    )
    for n in other:
        print(f"   survived: {n}")
    return s


def changed_modules(base: str) -> list[str]:
    diff = subprocess.run(
        ["git", "diff", "--name-only", f"{base}...HEAD"], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    hit = []
    for name in GATED:
        mod = MODULES[name]
        watched = mod.files + mod.tests + ("tools/mutation_score.py",)
        if any(fnmatch.fnmatch(p, w) for p in diff for w in watched):
            hit.append(name)
    return hit


def digest(name: str, root: Path | None = None) -> str:
    """What a module's score depends on: its source and its tests (in the checkout at
    ``root``), as one SHA-256."""
    mod = MODULES[name]
    root = ROOT if root is None else root
    h = hashlib.sha256()
    for rel in (*mod.files, *mod.tests, *mod.extra):
        h.update(rel.encode("utf-8") + b"\0")
        path = root / rel
        h.update(path.read_bytes() if path.is_file() else b"(none)")
        h.update(b"\0")
    return h.hexdigest()


def read_measured(path: Path) -> dict[str, dict[str, object]]:
    """The modules measured at or above their goal, by the digest they were measured at."""
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def unmeasured(path: Path) -> list[str]:
    """The gated modules whose source or tests changed since their last passing measurement
    (or that have none): what the gate has to run."""
    measured = read_measured(path)
    return [n for n in GATED if measured.get(n, {}).get("sha256") != digest(n)]


def record(path: Path, name: str, score_: float) -> None:
    """Keep ``name``'s passing score with the digest of the copy it was measured in."""
    measured = read_measured(path)
    measured[name] = {
        "sha256": digest(name, WORK / name.replace("/", "-")),
        "score": round(score_, 1),
        "goal": MODULES[name].goal,
        "measured": time.strftime("%Y-%m-%d", time.gmtime()),
    }
    path.write_text(json.dumps(dict(sorted(measured.items())), indent=2) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("run", "gate", "score", "record"):
        argv = ["score", *argv]
    ap = argparse.ArgumentParser(prog="mutation_score.py")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p_score = sub.add_parser("score")
    p_score.add_argument("prefixes", nargs="*")
    p_run = sub.add_parser("run")
    p_run.add_argument("module", choices=sorted(MODULES))
    p_run.add_argument("--max-children", type=int, default=1)
    p_run.add_argument("--mutants", nargs="*", default=[])
    p_run.add_argument("--fresh", action="store_true", help="start over (drop earlier results)")
    p_run.add_argument(
        "--again", action="store_true", help="run every mutant not killed again (after new tests)"
    )
    p_record = sub.add_parser("record")
    p_record.add_argument("module", choices=sorted(GATED))
    p_record.add_argument("--measured", metavar="FILE", type=Path, required=True)
    p_gate = sub.add_parser("gate")
    p_gate.add_argument("--changed", metavar="BASE")
    p_gate.add_argument(
        "--measured",
        metavar="FILE",
        type=Path,
        help="run only the modules whose source or tests differ from their last passing "
        "measurement recorded in FILE (no git history needed: a shallow clone will do)",
    )
    p_gate.add_argument("--record", action="store_true", help="write each module that passes into --measured")
    p_gate.add_argument("--max-children", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)

    if args.cmd == "score":
        found = results(Path.cwd())
        print_table(table(found, args.prefixes), found)
        return 0
    if args.cmd == "record":  # a finished `run` of the module, kept if at or above its goal
        mod = MODULES[args.module]
        _, _, total = module_results(WORK / args.module.replace("/", "-"), mod)
        s = score(total)
        if s is None or s < mod.goal or total["not checked"]:
            print(f"{args.module}: {s}% with {total['not checked']} not checked: not recorded")
            return 1
        record(args.measured, args.module, s)
        print(f"{args.module}: {s:.1f}% recorded in {args.measured}")
        return 0
    if args.cmd == "run":
        run_module(args.module, args.max_children, args.mutants, args.fresh, args.again)
        return 0
    if args.record and args.measured is None:
        ap.error("--record needs --measured FILE")
    if args.measured is not None:
        names = unmeasured(args.measured)
        kept = [n for n in GATED if n not in names]
        if kept:
            print(f"mutation gate: unchanged since measured at or above the goal: {', '.join(kept)}")
    elif args.changed:
        names = changed_modules(args.changed)
    else:
        names = list(GATED)
    if not names:
        print("mutation gate: no gated module changed")
        return 0
    below = []
    for name in names:
        s = run_module(name, args.max_children, [], fresh=True)
        if s is None or s < MODULES[name].goal:
            below.append(f"{name} {s if s is None else round(s, 1)}% < {MODULES[name].goal}%")
        elif args.record:
            record(args.measured, name, s)
    if below:
        print("mutation gate: below the goal: " + "; ".join(below))
        return 1
    print("mutation gate: every module checked is at or above its goal")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
