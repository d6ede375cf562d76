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


def ratio_summary(project: list[float], bare: list[float]) -> dict[str, float]:
    """Medians of each side, the ratio of the medians and the spread (p10–p90) of the
    per-sample ratios (each project sample against the bare one taken right after it)."""
    ratios = sorted(p / b for p, b in zip(project, bare, strict=True))
    return {
        **{k: v for k, v in summary(project).items()},
        "bare_median_ms": statistics.median(bare) * 1000,
        "ratio": statistics.median(project) / statistics.median(bare),
        "ratio_p10": ratios[int(0.1 * (len(ratios) - 1))],
        "ratio_p90": ratios[int(0.9 * (len(ratios) - 1))],
    }


class BareSqlite:
    """The baseline: one INSERT and COMMIT through plain ``sqlite3`` (WAL, synchronous FULL,
    as the store runs), on a file beside the store's, one connection kept open."""

    def __init__(self, folder: str) -> None:
        import sqlite3

        self.con = sqlite3.connect(str(Path(folder) / "bare.db"), isolation_level=None)
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.execute("PRAGMA synchronous=FULL")
        self.con.execute("CREATE TABLE IF NOT EXISTS rulings (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")

    def save(self, i: int) -> None:
        self.con.execute("BEGIN IMMEDIATE")
        self.con.execute("INSERT INTO rulings (body) VALUES (?)", (f"exposed card {i}",))
        self.con.execute("COMMIT")

    def close(self) -> None:
        self.con.close()


class BarePostgres:
    """The baseline on PostgreSQL: one INSERT and COMMIT through bare ``psycopg``, one
    connection kept open, in the bench's schema."""

    def __init__(self, url: str) -> None:
        import psycopg
        from sqlalchemy.engine import make_url

        u = make_url(url)
        self.con = psycopg.connect(
            host=u.host or "localhost",
            port=u.port or 5432,
            user=u.username,
            password=u.password,
            dbname=u.database,
            options=u.query.get("options") or "",
        )
        self.con.execute(
            "CREATE TABLE IF NOT EXISTS bare_rulings (id SERIAL PRIMARY KEY, body TEXT NOT NULL)"
        )
        self.con.commit()

    def save(self, i: int) -> None:
        self.con.execute("INSERT INTO bare_rulings (body) VALUES (%s)", (f"exposed card {i}",))
        self.con.commit()

    def close(self) -> None:
        self.con.close()


def bench_record(target: str, n: int) -> dict[str, float]:
    """Store.record of one ruling and the bare baseline, alternated one by one."""
    store = new_event(target, tables=n)
    store.record(1, one_ruling_case(1, 1, 0), actor=ACTOR)  # warm: rulebook cache, pool
    bare = BarePostgres(target) if target.startswith("postgresql") else BareSqlite(str(Path(target).parent))
    bare.save(0)
    samples, bare_samples = [], []
    for i in range(1, n):
        case = one_ruling_case(1 + i // 50, 1 + i % 50 + 1, i)
        t0 = time.perf_counter()
        store.record(1, case, actor=ACTOR, lang="zh")
        samples.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        bare.save(i)
        bare_samples.append(time.perf_counter() - t0)
    bare.close()
    store.close()
    return ratio_summary(samples, bare_samples)


def bench_fill_round(target: str, tables: int) -> dict[str, float]:
    """Seconds to record one ruling at each table of a ``tables``-table round (the check
    that a pair is not seated twice in the round runs on every save)."""
    store = new_event(target, tables=tables)
    t0 = time.perf_counter()
    for t in range(1, tables + 1):
        store.record(1, one_ruling_case(1, t, t), actor=ACTOR, lang="zh")
    spent = time.perf_counter() - t0
    store.close()
    return {"tables": tables, "fill_s": spent, "per_save_ms": spent / tables * 1000}


def bench_size(target: str, tables: int = 100, rounds: int = 10) -> dict[str, float]:
    """The SQLite file's bytes per match after ``tables`` × ``rounds`` matches (10-hand
    rounds with 3 rulings each), the WAL checkpointed into the file."""
    store = new_event(target, tables=tables)
    for r in range(1, rounds + 1):
        for t in range(1, tables + 1):
            store.record(1, round_case(r, t), actor=ACTOR, lang="zh")
    store.close()
    size = os.path.getsize(target)
    return {"matches": tables * rounds, "bytes": size, "bytes_per_match": size / (tables * rounds)}


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
    ap.add_argument("--fill-tables", type=int, default=1000, help="one round of this many tables")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--record-only", action="store_true", help="only the one-ruling save")
    args = ap.parse_args()
    os.environ.setdefault("REFEREE_APP_USER", "bench")
    targets: list[tuple[str, Any]] = [("sqlite (WAL, synchronous=FULL)", sqlite_target)]
    if args.pg:
        targets.append(("postgresql", lambda: pg_target(args.pg)))
    results: dict[str, Any] = {}
    for name, make in targets:
        with make() as t:
            rec = bench_record(t, args.records)
        results[name] = {"record_one_ruling": rec}
        if args.record_only:
            continue
        with make() as t:
            results[name]["fill_round"] = bench_fill_round(t, args.fill_tables)
        if not name.startswith("postgresql"):
            with make() as t:
                results[name]["size"] = bench_size(t)
        with make() as t:
            results[name]["event"] = bench_export(t, args.tables, args.rounds, args.repeat)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for name, r in results.items():
        rec = r["record_one_ruling"]
        print(f"{name}")
        print(
            f"  record one ruling: median {rec['median_ms']:.2f} ms (p95 {rec['p95_ms']:.1f} ms), "
            f"bare INSERT+COMMIT {rec['bare_median_ms']:.2f} ms: ratio {rec['ratio']:.2f}x "
            f"(per-sample p10-p90 {rec['ratio_p10']:.2f}-{rec['ratio_p90']:.2f}x, n={rec['n']})"
        )
        if "event" not in r:
            continue
        fill, exp = r["fill_round"], r["event"]
        if "size" in r:
            sz = r["size"]
            print(
                f"  store size: {sz['bytes_per_match'] / 1000:.1f} KB a match "
                f"({sz['bytes'] / 1e6:.1f} MB for {sz['matches']} matches of 10 hands)"
            )
        print(
            f"  fill a {fill['tables']}-table round: {fill['fill_s']:.1f} s "
            f"({fill['per_save_ms']:.1f} ms a save)"
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
