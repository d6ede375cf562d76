"""Benchmarks of the event store: recording one ruling, exporting and verifying an event.

    python bench/bench_store.py                 # SQLite; PostgreSQL too when a URL is known
    python bench/bench_store.py --pg postgresql+psycopg://referee:referee@127.0.0.1/referee_test
    python bench/bench_store.py --json

Recording: ``Store.record`` of a one-hand case with one infraction (judge under the pinned
rulebook, then one transaction: round, match, hand, infraction, ruling, audit entry,
committed) — the latency a referee waits after confirming a ruling. SQLite runs as the app
does (WAL, ``synchronous=FULL``) on a file in a temporary folder; PostgreSQL over TCP in its
own schema, dropped afterwards.  Export: an event of 100 tables × 9 rounds (900 matches,
each a 10-hand round with 3 infractions), ``referee-app export`` in process, and ``verify``
of the whole chain.  Each figure is the median (and p95) of repeated runs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee_app.core import load_rulebook  # noqa: E402
from referee_app.store.pairs_csv import PairRow  # noqa: E402
from referee_app.store.service import Actor, Store  # noqa: E402

ACTOR = Actor("bench", "bench-station")


def one_ruling_case(round_no: int, table: int, i: int) -> dict[str, Any]:
    return {
        "event": "bhg-2011",
        "round": round_no,
        "table": table,
        "pairs": {"NS": str(2 * table - 1), "EW": str(2 * table)},
        "first_dealer": "E",
        "finished": "open",
        "hands": [
            {
                "defender_points": 5 * (i % 30),
                "infractions": [{"kind": "exposed_card", "seat": "N", "cards": 1, "trick": 3}],
            }
        ],
    }


def round_case(round_no: int, table: int) -> dict[str, Any]:
    hands: list[dict[str, Any]] = []
    for h in range(10):
        hand: dict[str, Any] = {
            "defender_points": [60, 100, 60, 100, 80][h % 5],
            "bottom": {"points": 10, "captured": h % 3 == 0, "shape": "pair"},
        }
        if h in (2, 5, 8):
            hand["infractions"] = [{"kind": "exposed_card", "seat": "NESW"[h % 4], "cards": 1, "trick": 4}]
        hands.append(hand)
    return {
        "event": "bhg-2011",
        "round": round_no,
        "table": table,
        "pairs": {"NS": str(2 * table - 1), "EW": str(2 * table)},
        "first_dealer": "E",
        "finished": "time",
        "hands": hands,
    }


@contextlib.contextmanager
def sqlite_target() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as d:
        yield str(Path(d) / "bench.db")


@contextlib.contextmanager
def pg_target(base: str) -> Iterator[str]:
    import sqlalchemy as sa

    schema = "bench_" + uuid.uuid4().hex[:10]
    eng = sa.create_engine(base)
    with eng.begin() as conn:
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    try:
        sep = "&" if "?" in base else "?"
        yield f"{base}{sep}options={quote(f'-csearch_path={schema}')}"
    finally:
        with eng.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
        eng.dispose()


def new_event(target: str, tables: int) -> Store:
    store = Store.open(target, create=True, actor=ACTOR)
    ev = store.create_event(name="bench", rulebook=load_rulebook("bhg-2011"), date=None, actor=ACTOR)
    rows = [PairRow(n + 1, str(n), f"选手{n}甲", f"选手{n}乙", None) for n in range(1, 2 * tables + 1)]
    store.import_pairs(ev.id, rows, actor=ACTOR, source="bench.csv")
    return store


def summary(samples: list[float]) -> dict[str, float]:
    s = sorted(samples)
    return {
        "median_ms": statistics.median(s) * 1000,
        "p95_ms": s[int(0.95 * (len(s) - 1))] * 1000,
        "max_ms": s[-1] * 1000,
        "n": len(s),
    }


def bench_record(target: str, n: int) -> dict[str, float]:
    store = new_event(target, tables=n)
    store.record(1, one_ruling_case(1, 1, 0), actor=ACTOR)  # warm: rulebook cache, pool
    samples = []
    for i in range(1, n):
        case = one_ruling_case(1 + i // 50, 1 + i % 50 + 1, i)
        t0 = time.perf_counter()
        store.record(1, case, actor=ACTOR, lang="zh")
        samples.append(time.perf_counter() - t0)
    store.close()
    return summary(samples)


def bench_export(target: str, tables: int, rounds: int, repeat: int) -> dict[str, Any]:
    store = new_event(target, tables=tables)
    t0 = time.perf_counter()
    for r in range(1, rounds + 1):
        for t in range(1, tables + 1):
            store.record(1, round_case(r, t), actor=ACTOR, lang="zh")
    fill = time.perf_counter() - t0
    from referee_app.cli import main

    export_times, verify_times = [], []
    size = 0
    for _ in range(repeat):
        out = io.StringIO()
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(out):
            rc = main(["--db", target, "--lang", "zh", "export"])
        export_times.append(time.perf_counter() - t0)
        assert rc == 0
        size = len(out.getvalue().encode())
        lines = out.getvalue().count("\n")
        assert lines == tables * rounds, lines
        t0 = time.perf_counter()
        result = store.verify()
        verify_times.append(time.perf_counter() - t0)
        assert result.ok, result.problem
    store.close()
    return {
        "matches": tables * rounds,
        "fill_s": fill,
        "export": summary(export_times),
        "export_bytes": size,
        "verify": summary(verify_times),
        "entries": result.entries,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--pg",
        default=os.environ.get("REFEREE_APP_TEST_PG_URL"),
        help="a PostgreSQL URL (default: REFEREE_APP_TEST_PG_URL)",
    )
    ap.add_argument("--records", type=int, default=200)
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    os.environ.setdefault("REFEREE_APP_USER", "bench")
    targets: list[tuple[str, Any]] = [("sqlite (WAL, synchronous=FULL)", sqlite_target)]
    if args.pg:
        targets.append(("postgresql", lambda: pg_target(args.pg)))
    results: dict[str, Any] = {}
    for name, make in targets:
        with make() as t:
            rec = bench_record(t, args.records)
        with make() as t:
            exp = bench_export(t, args.tables, args.rounds, args.repeat)
        results[name] = {"record_one_ruling": rec, "event": exp}
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for name, r in results.items():
        rec, exp = r["record_one_ruling"], r["event"]
        print(f"{name}")
        print(
            f"  record one ruling: median {rec['median_ms']:.1f} ms, p95 {rec['p95_ms']:.1f} ms, "
            f"max {rec['max_ms']:.1f} ms (n={rec['n']})"
        )
        print(f"  fill {exp['matches']} matches (10 hands each): {exp['fill_s']:.1f} s")
        print(
            f"  export {exp['matches']} matches ({exp['export_bytes'] / 1e6:.1f} MB JSON lines): "
            f"median {exp['export']['median_ms']:.0f} ms"
        )
        print(f"  verify {exp['entries']} entries: median {exp['verify']['median_ms']:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
