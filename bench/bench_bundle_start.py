"""The desktop bundle's start against the venv's (issue 28: `judge` within 1.5x the venv's).

    pyinstaller --noconfirm packaging/referee-app.spec
    python bench/bench_bundle_start.py dist/referee-app [--runs 15]

Runs ``--version`` and ``judge`` on an example case from the bundle and from this Python's
``referee-app`` (the venv), alternated run by run (which goes first swaps each pair), each
with a rulebook cache of its own, warm; prints the medians and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASE = ROOT / "tests" / "cases" / "bhg-2011" / "bhg-2-5-failed-throw.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle", type=Path)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    exe = ".exe" if os.name == "nt" else ""
    bundle = args.bundle / f"referee-app{exe}"
    venv = Path(sys.executable).parent / f"referee-app{exe}"
    work = Path(tempfile.mkdtemp(prefix="bench-bundle-"))
    shutil.copy(CASE, work / "case.json")
    sides = {
        "bundle": (bundle, dict(os.environ, XDG_CACHE_HOME=str(work / "cache-bundle"))),
        "venv": (venv, dict(os.environ, XDG_CACHE_HOME=str(work / "cache-venv"))),
    }
    for command in (["--version"], ["judge", "case.json"]):
        times: dict[str, list[float]] = {"bundle": [], "venv": []}
        for program, env in sides.values():  # warm the caches
            subprocess.run([str(program), *command], cwd=work, env=env, capture_output=True, check=True)
        for i in range(args.runs):
            order = ["bundle", "venv"] if i % 2 == 0 else ["venv", "bundle"]
            for side in order:
                program, env = sides[side]
                start = time.perf_counter()
                subprocess.run([str(program), *command], cwd=work, env=env, capture_output=True, check=True)
                times[side].append(time.perf_counter() - start)
        b, v = (statistics.median(times[s]) * 1000 for s in ("bundle", "venv"))
        print(f"{' '.join(command):<16} bundle {b:6.0f} ms   venv {v:6.0f} ms   ratio {b / v:.2f}")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
