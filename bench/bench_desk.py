"""Benchmarks of the chief referee's desk: standings and pairing, 512 pairs over 9 rounds.

    python bench/bench_desk.py            # a table
    python bench/bench_desk.py --json

An event of 512 pairs (and of 511, for the bye) is played out round by round with seeded
random results (10 % draws, wins by 1–5 levels) and the Gansu rulebook (tie-breaks 积分 →
级差分 → 对手分 → 上一轮总积分 → 抽签). Timed, each the median (and max) of repeated runs:

* standings after round 9 (``compute_standings``: 2 304 matches);
* pairing round 9 (``pair_round``: the standings after round 8, then the maximum-weight
  matching over every table it allows, in blocks of 256 ranks over 256 pairs);
* the whole event's pairing, rounds 1 … 9;
* standings under BHG's order (对手分 first, then 级差分, 小分, lots).

Aim (issue 6): standings and pairing each under 0.5 s.

``--store``: the desk commands as the chief referee runs them, on a store of 512 pairs with
8 rounds recorded (each match a 4-hand round), SQLite and (``--pg``) PostgreSQL:
``referee-app standings`` and ``referee-app pair --round 9 --json`` in process, as the
window's desk runs them (the command's work: reading the event, computing, printing), the
number of SQL statements each runs; and ``referee-app standings`` as a whole process,
alternated run by run with the bare baseline ``python -c "import pydantic, sqlalchemy,
sqlalchemy.dialects.sqlite, sqlite3"`` (``…postgresql, psycopg`` on PostgreSQL) — the
libraries any desk command must import before its work, the store's and the pinned
rulebook's — and with ``python -c "import referee_app.cli"``; the ratio to the libraries
says what the project's own start and work cost.
Aim (issue 11): the command's work under 0.3 s, a constant number of queries.

``--large``: 4096 pairs (and 4095) paired for 9 rounds with random results; the seconds
each round's pairing takes, and a check that no two pairs met twice.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee_app.core.pairing import Pairing, pair_round  # noqa: E402
from referee_app.core.rulebook import load_rulebook  # noqa: E402
from referee_app.core.standings import Bye, EventRecord, MatchResult, compute_standings  # noqa: E402


def play(rec: EventRecord, pg: Pairing, rng: random.Random) -> EventRecord:
    results = list(rec.results)
    for t in pg.tables:
        x = rng.random()
        if x < 0.1:
            results.append(MatchResult(pg.round, t.ns, t.ew, None, 1, 1, 0, 0))
            continue
        ns_wins = x < 0.55
        d = rng.randint(1, 5) * (1 if ns_wins else -1)
        a, b = (2, 0) if ns_wins else (0, 2)
        results.append(MatchResult(pg.round, t.ns, t.ew, "NS" if ns_wins else "EW", a, b, d, -d))
    byes = rec.byes + ((Bye(pg.round, pg.bye),) if pg.bye else ())
    return EventRecord(rec.pairs, tuple(results), byes)


def event(rulebook: Any, n: int, rounds: int, seed: int) -> tuple[EventRecord, EventRecord, float]:
    """(record after ``rounds - 1`` rounds, after ``rounds``, seconds spent pairing all rounds)."""
    rng = random.Random(seed)
    rec = EventRecord(tuple(str(i) for i in range(1, n + 1)))
    before = rec
    spent = 0.0
    for r in range(1, rounds + 1):
        t0 = time.perf_counter()
        pg = pair_round(rulebook, rec, r, seed=seed)
        spent += time.perf_counter() - t0
        before = rec
        rec = play(rec, pg, rng)
    return before, rec, spent


def timed(fn: Callable[[], object], repeat: int) -> dict[str, float]:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t0)
    return {"median_ms": statistics.median(runs) * 1000, "max_ms": max(runs) * 1000}


def store_case(pg: Pairing, t: Any, rng: random.Random) -> dict[str, Any]:
    """A finished 4-hand round at table ``t`` of ``pg`` with random hand points."""
    hands = [{"defender_points": 5 * rng.randint(0, 40)} for _ in range(4)]
    return {
        "round": pg.round,
        "table": t.table,
        "pairs": {"NS": t.ns, "EW": t.ew},
        "first_dealer": "E",
        "finished": "time",
        "hands": hands,
    }


@contextlib.contextmanager
def sqlite_file() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as d:
        yield str(Path(d) / "desk.db")


@contextlib.contextmanager
def desk_store(n: int, rounds: int, seed: int, target: str | None = None) -> Iterator[str]:
    """A store of ``n`` pairs with ``rounds`` rounds recorded, paired as the desk does: a new
    SQLite file, or ``target`` (an empty PostgreSQL schema's URL)."""
    from referee_app.app.event import load_event
    from referee_app.store.pairs_csv import PairRow
    from referee_app.store.service import Actor, Store

    actor = Actor("bench", "bench-station")
    rng = random.Random(seed)
    with contextlib.ExitStack() as stack:
        path = target if target is not None else stack.enter_context(sqlite_file())
        with Store.open(path, create=True, actor=actor) as store:
            gansu = load_rulebook("gansu-2018")
            ev = store.create_event(name="bench", rulebook=gansu, date=None, actor=actor)
            rows = [PairRow(i + 1, str(i), f"选手{i}甲", f"选手{i}乙", None) for i in range(1, n + 1)]
            store.import_pairs(ev.id, rows, actor=actor, source="bench.csv")
            for r in range(1, rounds + 1):
                loaded = load_event(store, ev.id, before_round=r)
                pg = pair_round(loaded.rulebook, loaded.record, r, seed=seed)
                for t in pg.tables:
                    store.record(ev.id, store_case(pg, t, rng), actor=actor)
        yield path


class QueryCount:
    """Counts the SQL statements every engine runs (SQLAlchemy's cursor event)."""

    def __init__(self) -> None:
        self.n = 0

    def __enter__(self) -> QueryCount:
        from sqlalchemy import event
        from sqlalchemy.engine import Engine

        event.listen(Engine, "before_cursor_execute", self._count)
        return self

    def _count(self, *_args: Any) -> None:
        self.n += 1

    def __exit__(self, *exc: object) -> None:
        from sqlalchemy import event
        from sqlalchemy.engine import Engine

        event.remove(Engine, "before_cursor_execute", self._count)


def bench_commands(n: int, rounds: int, repeat: int, target: str | None = None) -> dict[str, Any]:
    from referee_app.cli import main as cli_main

    out: dict[str, Any] = {}
    t0 = time.perf_counter()
    with desk_store(n, rounds, seed=1, target=target) as path:
        out["fill_s"] = time.perf_counter() - t0
        commands = {
            "standings": ["--db", path, "--lang", "zh", "standings"],
            f"pair_round{rounds + 1}": ["--db", path, "pair", "--round", str(rounds + 1), "--json"],
        }
        for name, argv in commands.items():
            runs = []
            for _ in range(repeat):
                with QueryCount() as qc, contextlib.redirect_stdout(io.StringIO()):
                    with contextlib.redirect_stderr(io.StringIO()):
                        t0 = time.perf_counter()
                        rc = cli_main(argv)
                        runs.append(time.perf_counter() - t0)
                assert rc == 0, (name, rc)
            out[f"{name}_in_process"] = {
                "median_ms": statistics.median(runs) * 1000,
                "max_ms": max(runs) * 1000,
                "queries": qc.n,
            }
        # The whole command beside the libraries any desk command must import (the store's
        # SQLAlchemy and its driver, pydantic for the pinned rulebook) and beside the bare
        # import of the command line; the three alternate run by run, each run's order
        # rotating, so the ratio to the libraries is the project's own start and work.
        env = {k: v for k, v in os.environ.items() if k != "REFEREE_APP_NO_CACHE"}  # caches as a user's
        driver = "psycopg" if path.startswith("postgresql") else "sqlite3"
        dialect = "postgresql" if driver == "psycopg" else "sqlite"
        libs = f"import pydantic, sqlalchemy, sqlalchemy.dialects.{dialect}, {driver}"
        cmds = {
            "import_libraries": [sys.executable, "-c", libs],
            "import_referee_app_cli": [sys.executable, "-c", "import referee_app.cli"],
            "standings_whole_process": [sys.executable, "-m", "referee_app", *commands["standings"]],
        }
        times: dict[str, list[float]] = {name: [] for name in cmds}
        for cmd in cmds.values():  # warm the disk cache and the user cache for every side
            subprocess.run(cmd, env=env, check=True, capture_output=True)
        names = list(cmds)
        for i in range(max(3, repeat // 3)):
            for name in names[i % 3 :] + names[: i % 3]:
                t0 = time.perf_counter()
                subprocess.run(cmds[name], env=env, check=True, capture_output=True)
                times[name].append(time.perf_counter() - t0)
        for name, ts in times.items():
            out[name] = {"median_ms": statistics.median(ts) * 1000, "max_ms": max(ts) * 1000}
        whole, bare = times["standings_whole_process"], times["import_libraries"]
        ratios = [w / b for w, b in zip(whole, bare, strict=True)]
        out["standings_whole_process"] |= {
            "ratio": statistics.median(whole) / statistics.median(bare),
            "ratio_min": min(ratios),
            "ratio_max": max(ratios),
        }
        out["import_libraries"]["command"] = libs
    return out


def bench_large(as_json: bool) -> int:
    gansu = load_rulebook("gansu-2018")
    out: dict[str, Any] = {}
    for n in (4096, 4095):
        rng = random.Random(3)
        rec = EventRecord(tuple(str(i) for i in range(1, n + 1)))
        per_round = []
        for r in range(1, 10):
            t0 = time.perf_counter()
            pg = pair_round(gansu, rec, r, seed=3)
            per_round.append(time.perf_counter() - t0)
            rec = play(rec, pg, rng)
        meetings = [frozenset((m.ns, m.ew)) for m in rec.results]
        assert len(set(meetings)) == len(meetings) == 9 * (n // 2), "a rematch"
        out[f"pair_{n}x9"] = {"rounds_s": per_round, "total_s": sum(per_round)}
    if as_json:
        print(json.dumps(out, indent=2))
        return 0
    for key, v in out.items():
        rounds = " ".join(f"{x:.1f}" for x in v["rounds_s"])
        print(f"{key}: {v['total_s']:.1f} s in all, no rematch; rounds 1-9: {rounds} s")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--store", action="store_true", help="the desk commands on a store (see above)")
    ap.add_argument("--pairs", type=int, default=512)
    ap.add_argument(
        "--pg",
        default=os.environ.get("REFEREE_APP_TEST_PG_URL"),
        help="with --store: PostgreSQL too, in a schema of its own (default: REFEREE_APP_TEST_PG_URL)",
    )
    ap.add_argument("--large", action="store_true", help="4096 pairs for 9 rounds (see above)")
    args = ap.parse_args()
    if args.large:
        return bench_large(args.json)
    if args.store:
        results = {"sqlite": bench_commands(args.pairs, 8, args.repeat)}
        if args.pg:
            from bench_store import pg_target

            with pg_target(args.pg) as url:
                results["postgresql"] = bench_commands(args.pairs, 8, args.repeat, target=url)
        if args.json:
            print(json.dumps(results, indent=2))
            return 0
        for backend, res in results.items():
            print(f"{backend}: {args.pairs} pairs, 8 rounds recorded (fill {res.pop('fill_s'):.0f} s)")
            print(f"{'what':<32}{'median':>12}{'max':>12}{'queries':>9}")
            for key, v in res.items():
                print(f"{key:<32}{v['median_ms']:>10.1f}ms{v['max_ms']:>10.1f}ms{v.get('queries', ''):>9}")
            whole = res["standings_whole_process"]
            print(
                f'  whole process ÷ `python -c "{res["import_libraries"]["command"]}"`: '
                f"{whole['ratio']:.2f}× ({whole['ratio_min']:.2f}–{whole['ratio_max']:.2f}×)"
            )
        return 0
    gansu = load_rulebook("gansu-2018")
    bhg = load_rulebook("bhg-2011")
    out: dict[str, Any] = {}
    for n in (512, 511):
        before9, after9, _ = event(gansu, n, 9, seed=1)
        out[f"standings_{n}x9_gansu"] = timed(
            lambda r=after9: compute_standings(gansu, r, seed=1), args.repeat
        )
        out[f"standings_{n}x9_bhg"] = timed(lambda r=after9: compute_standings(bhg, r, seed=1), args.repeat)
        out[f"pair_round9_{n}"] = timed(lambda r=before9: pair_round(gansu, r, 9, seed=1), args.repeat)
        whole = [event(gansu, n, 9, seed=s)[2] for s in range(1, 4)]
        out[f"pair_rounds1to9_{n}"] = {
            "median_ms": statistics.median(whole) * 1000,
            "max_ms": max(whole) * 1000,
        }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{'what':<28}{'median':>12}{'max':>12}")
    for key, v in out.items():
        print(f"{key:<28}{v['median_ms']:>10.1f}ms{v['max_ms']:>10.1f}ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
