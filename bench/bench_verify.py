"""Peak memory of ``verify`` and ``export`` on a large event, against a bare baseline.

    python bench/bench_verify.py            # 2000 matches
    python bench/bench_verify.py 10000      # issue 11: 10,000 matches under 100 MB

Builds an SQLite event of N matches (100 tables a round, each a 10-hand round with 3
infractions, every entry signed by a station key), then runs, alternately and each in a
fresh process: ``referee-app verify``, ``referee-app export`` (to /dev/null), and the bare
baseline, plain ``sqlite3`` reading the same rows (every audit entry hashed with SHA-256 and
its payload parsed, every domain row fetched; the current matches' JSON parsed and written
out). Each process reports its peak resident memory (``ru_maxrss``) and the peak of
Python's own allocations after its imports (``tracemalloc``): the first includes the
interpreter and libraries, the second is what grows with the event.
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

#: Run in a child: the measured work, after ``tracemalloc`` starts (imports come first).
CHILD = r"""
import json, resource, sys, time, tracemalloc
what, db = sys.argv[1], sys.argv[2]
if what == "bare-verify" or what == "bare-export":
    import base64, hashlib, sqlite3, zlib
else:
    from referee_app.cli import main
    from referee_app.store import service  # noqa: F401  (imports paid before measuring)
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
_cur, peak = tracemalloc.get_traced_memory()
rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"what": what, "s": elapsed, "tracemalloc_mb": peak / 2**20, "rss_mb": rss_kb / 1024}))
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


def run(what: str, db: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", CHILD, what, db], capture_output=True, text=True, env=env, check=False
    )
    if out.returncode != 0:
        raise SystemExit(f"{what}: failed\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("matches", type=int, nargs="?", default=2000)
    ap.add_argument("--repeat", type=int, default=3)
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
        print(f"{args.matches} matches, {size / 2**20:.1f} MB on disk, built in {built:.0f} s")
        results: dict[str, list[dict[str, float]]] = {}
        for _ in range(args.repeat):  # alternate project and baseline
            for what in ("verify", "bare-verify", "export", "bare-export"):
                results.setdefault(what, []).append(run(what, db))
    print(f"{'what':<12}{'peak RSS MB':>12}{'tracemalloc MB':>16}{'time s':>9}")
    med: dict[str, dict[str, float]] = {}
    for what, rs in results.items():
        med[what] = {k: statistics.median(r[k] for r in rs) for k in ("rss_mb", "tracemalloc_mb", "s")}
        m = med[what]
        print(f"{what:<12}{m['rss_mb']:>12.1f}{m['tracemalloc_mb']:>16.2f}{m['s']:>9.2f}")
    for w in ("verify", "export"):
        b = med["bare-" + w]
        print(
            f"{w}: RSS {med[w]['rss_mb'] / b['rss_mb']:.1f}× the bare baseline, "
            f"time {med[w]['s'] / b['s']:.1f}×"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
