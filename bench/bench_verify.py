"""Time and peak memory of ``verify`` and ``export`` on a large event, against a bare baseline.

    python bench/bench_verify.py            # 2000 matches
    python bench/bench_verify.py 10000      # issue 11: 10,000 matches under 100 MB
    python bench/bench_verify.py 200 --repeat 1 --json   # a quick check

Builds an SQLite event of N matches (100 tables a round, each a 10-hand round with 3
infractions, every entry signed by a station key), then runs, alternately and each in a
fresh process: ``referee-app verify``, ``referee-app export`` (to /dev/null), and the bare
baseline, plain ``sqlite3`` reading the same rows (every audit entry hashed with SHA-256 and
its payload parsed, every domain row fetched; the current matches' JSON parsed and written
out). Each project run is followed by its baseline's (the first of the two swapping at each
repeat).

Two kinds of run, never mixed: the **timed** runs (``--repeat`` of each) measure the wall
time of the work and the process's peak resident memory (``ru_maxrss``, the interpreter and
libraries included) with nothing else running in the process; the **memory** runs
(``--memory-repeat`` of each, in their own child processes) start ``tracemalloc`` after the
imports and report the peak of Python's own allocations, what grows with the event.
``tracemalloc`` records every allocation, which slows allocation-heavy code several times
(and its traces add to the RSS), so the time and RSS reported are the timed runs'; the
memory runs' time is printed beside them only to show that slowdown.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

#: Run in a child: the measured work, after the imports. ``mode`` is ``time`` (nothing else
#: runs: the wall time and the peak RSS) or ``memory`` (``tracemalloc`` from here on: the peak
#: of Python's allocations; its time is inflated by the tracing).
CHILD = r"""
import json, resource, sys, time
what, db, mode = sys.argv[1], sys.argv[2], sys.argv[3]
if what == "bare-verify" or what == "bare-export":
    import base64, hashlib, sqlite3, zlib
else:
    from referee_app.cli import main
    from referee_app.store import service  # noqa: F401  (imports paid before measuring)
if mode == "memory":
    import tracemalloc
    tracemalloc.start()
t0 = time.perf_counter()
if what == "verify":
    rc = main(["--db", db, "--lang", "en", "verify"])
    assert rc == 0
elif what == "export":
    rc = main(["--db", db, "--lang", "en", "export", "-o", "/dev/null"])
    assert rc == 0
elif what == "bare-verify":
    con = sqlite3.connect(db)
    prev = "0" * 64
    for seq, payload, h in con.execute("SELECT seq, payload, hash FROM audit_log ORDER BY seq"):
        # a long payload is kept compressed (store/audit.py's stored_payload)
        text = payload
        if payload.startswith("z:"):
            text = zlib.decompress(base64.b64decode(payload[2:])).decode()
        d = hashlib.sha256(prev.encode() + text.encode()).hexdigest()
        json.loads(text)
        prev = h
    for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall():
        for _row in con.execute(f"SELECT * FROM {t}"):
            pass
else:
    con = sqlite3.connect(db)
    with open("/dev/null", "w") as out:
        for case, decision in con.execute("SELECT case_json, decision_json FROM matches ORDER BY id"):
            out.write(json.dumps({"case": json.loads(case), "decision": json.loads(decision)}) + "\n")
elapsed = time.perf_counter() - t0
out = {"what": what, "mode": mode, "s": elapsed}
if mode == "memory":
    out["tracemalloc_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
else:
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def build(db: str, matches: int, tables: int = 100) -> None:
    from bench_store import ACTOR, new_event, round_case

    from referee_app.store import keys

    os.environ[keys.ENV_KEYS] = str(Path(db).parent / "keys")
    key = keys.create_key(ACTOR.station, "chief_referee", None)
    store = new_event(db, tables=tables)
    store.register_key(station=ACTOR.station, role="chief_referee", public_key=key.public_hex, actor=ACTOR)
    n = 0
    r = 0
    while n < matches:
        r += 1
        for t in range(1, tables + 1):
            if n == matches:
                break
            store.record(1, round_case(r, t), actor=ACTOR, lang="zh")
            n += 1
            if n % 500 == 0:
                print(f"  built {n}/{matches} matches", file=sys.stderr, flush=True)
    store.close()


#: Each command's and baseline's runs, by name, in the order they ran.
Runs = dict[str, list[dict[str, float]]]


def run(what: str, db: str, mode: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", CHILD, what, db, mode], capture_output=True, text=True, env=env, check=False
    )
    if out.returncode != 0:
        raise SystemExit(f"{what} ({mode}): failed\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def alternated(db: str, mode: str, repeat: int) -> Runs:
    """``repeat`` runs of each command and its baseline in ``mode``, each project run next to
    its baseline's, the one going first swapping at each repeat."""
    results: Runs = {}
    for i in range(repeat):
        for w in ("verify", "export"):
            pair = (w, "bare-" + w) if i % 2 == 0 else ("bare-" + w, w)
            for what in pair:
                results.setdefault(what, []).append(run(what, db, mode))
    return results


def summarise(timed: Runs, traced: Runs) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for what, rs in timed.items():
        out[what] = {
            "s": statistics.median(r["s"] for r in rs),
            "rss_mb": statistics.median(r["rss_mb"] for r in rs),
            "runs": len(rs),
        }
        if what in traced:
            out[what]["tracemalloc_mb"] = statistics.median(r["tracemalloc_mb"] for r in traced[what])
            out[what]["traced_s"] = statistics.median(r["s"] for r in traced[what])
    for w in ("verify", "export"):
        ratios = [p["s"] / b["s"] for p, b in zip(timed[w], timed["bare-" + w], strict=True)]
        bare = out["bare-" + w]
        out[w] |= {
            "time_ratio": out[w]["s"] / bare["s"],
            "time_ratio_min": min(ratios),
            "time_ratio_max": max(ratios),
            "rss_ratio": out[w]["rss_mb"] / bare["rss_mb"],
        }
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("matches", type=int, nargs="?", default=2000)
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of each command and baseline")
    ap.add_argument("--memory-repeat", type=int, default=1, help="tracemalloc runs of each (0: none)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--build", metavar="DB", help=argparse.SUPPRESS)  # the child that fills DB
    args = ap.parse_args()
    if args.build:
        build(args.build, args.matches)
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-verify-") as folder:
        db = str(Path(folder) / "event.db")
        # Built in a child: on Linux a process forked from a large parent starts with the
        # parent's peak RSS (ru_maxrss survives exec), so this process stays small.
        t0 = time.perf_counter()
        subprocess.run([sys.executable, __file__, str(args.matches), "--build", db], check=True)
        built = time.perf_counter() - t0
        size = os.path.getsize(db) + (os.path.getsize(db + "-wal") if os.path.exists(db + "-wal") else 0)
        timed = alternated(db, "time", args.repeat)
        traced = alternated(db, "memory", args.memory_repeat)
    med = summarise(timed, traced)
    if args.json:
        head = {"matches": args.matches, "mb_on_disk": size / 2**20, "build_s": built}
        print(json.dumps(head | med, indent=2))
        return 0
    print(f"{args.matches} matches, {size / 2**20:.1f} MB on disk, built in {built:.0f} s")
    print(f"timed runs: {args.repeat} of each, alternated; tracemalloc runs apart: {args.memory_repeat} each")
    print(f"{'what':<12}{'time s':>9}{'peak RSS MB':>13}{'tracemalloc MB':>16}{'time traced s':>15}")
    for what, m in med.items():
        traced_mb = f"{m['tracemalloc_mb']:>16.2f}{m['traced_s']:>15.2f}" if "tracemalloc_mb" in m else ""
        print(f"{what:<12}{m['s']:>9.2f}{m['rss_mb']:>13.1f}{traced_mb}")
    for w in ("verify", "export"):
        m = med[w]
        print(
            f"{w}: time {m['time_ratio']:.2f}× the bare baseline "
            f"({m['time_ratio_min']:.2f}–{m['time_ratio_max']:.2f}×), peak RSS {m['rss_ratio']:.1f}×"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
