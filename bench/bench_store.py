"""Benchmarks of the event store: recording one ruling, exporting and verifying an event.

    python bench/bench_store.py                 # SQLite; PostgreSQL too when a URL is known
    python bench/bench_store.py --pg postgresql+psycopg://referee:referee@127.0.0.1/referee_test
    python bench/bench_store.py --json

Recording: ``Store.record`` of a one-hand case with one infraction (judge under the pinned
rulebook, then one transaction: round, match, hand, infraction, ruling, audit entry and its
Ed25519 signature by the station's key, committed) — the latency a referee waits after
confirming a ruling. SQLite runs as the window does (WAL, ``synchronous=FULL``, the file
held open by its helper process, ``store/walholder.py``) on a file in a temporary folder;
PostgreSQL over TCP in its own schema, dropped afterwards. Each save is alternated with two
bare baselines through the plain driver: one INSERT and COMMIT on a connection kept open,
and the same rows a save writes (same tables, triggers and indexes, the same lookups and
inserts one statement each, on SQLite a connection per transaction as the store opens, its
file held the same way) without judging, hashing or signing. Export: an event of 100
tables × 9 rounds (900 matches, each a 10-hand round with 3 infractions), ``referee-app
export`` in process, and ``verify`` of the whole chain. Each figure is the median (and p95)
of repeated runs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
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

from referee_app.core.rulebook import load_rulebook  # noqa: E402
from referee_app.store.pairs_csv import PairRow  # noqa: E402
from referee_app.store.service import Actor, Store  # noqa: E402

ACTOR = Actor("bench", "bench-station")
#: The bench station signs its entries, as a table referee's station does.
BENCH_ROLE = "table_referee"


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


def new_event(target: str, tables: int, keys_folder: Path | None = None, hold: bool = False) -> Store:
    store = Store.open(target, create=True, actor=ACTOR, hold=hold)
    if keys_folder is not None:
        from referee_app.store import keys

        if not keys.key_file(ACTOR.station, BENCH_ROLE, keys_folder).exists():
            keys.create_key(
                ACTOR.station, BENCH_ROLE, None, out=keys.key_file(ACTOR.station, BENCH_ROLE, keys_folder)
            )
        store.keyring = keys.KeyRing(keys_folder, default_role=BENCH_ROLE)
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


class BareSqlitePerTransaction:
    """The bare INSERT and COMMIT on a connection opened and closed around it, as the store
    must since issue 10 (lost-WAL safety): what that rule alone costs. Its own file; the
    close is the last connection's, so it checkpoints the WAL into the file and removes it.
    ``hold``: the file held open by the window's helper process, so no close is the last."""

    def __init__(self, folder: str, hold: bool = False) -> None:
        import sqlite3

        from referee_app.store.walholder import WalHolder

        self.path = str(Path(folder) / f"bare-per-transaction{'-held' if hold else ''}.db")
        con = sqlite3.connect(self.path, isolation_level=None)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("CREATE TABLE IF NOT EXISTS rulings (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        con.close()
        self.holder = WalHolder.start(self.path, wait=True) if hold else None

    def save(self, i: int) -> None:
        import sqlite3

        con = sqlite3.connect(self.path, isolation_level=None)
        con.execute("PRAGMA synchronous=FULL")
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO rulings (body) VALUES (?)", (f"exposed card {i}",))
        con.execute("COMMIT")
        con.close()

    def close(self) -> None:
        if self.holder is not None:
            self.holder.stop()


def psycopg_connect(url: str) -> Any:
    """A bare ``psycopg`` connection to the bench's SQLAlchemy URL (its schema option too)."""
    import psycopg
    from sqlalchemy.engine import make_url

    u = make_url(url)
    return psycopg.connect(
        host=u.host or "localhost",
        port=u.port or 5432,
        user=u.username,
        password=u.password,
        dbname=u.database,
        options=u.query.get("options") or "",
    )


class BarePostgres:
    """The baseline on PostgreSQL: one INSERT and COMMIT through bare ``psycopg``, one
    connection kept open, in the bench's schema."""

    def __init__(self, url: str) -> None:
        self.con = psycopg_connect(url)
        self.con.execute(
            "CREATE TABLE IF NOT EXISTS bare_rulings (id SERIAL PRIMARY KEY, body TEXT NOT NULL)"
        )
        self.con.commit()

    def save(self, i: int) -> None:
        self.con.execute("INSERT INTO bare_rulings (body) VALUES (%s)", (f"exposed card {i}",))
        self.con.commit()

    def close(self) -> None:
        self.con.close()


class BareSave:
    """The second baseline: the rows one save writes, through the plain driver.

    A store made by the project (same tables, triggers and indexes) in its own file or
    schema; each save runs the statements ``Store.record`` needs, one at a time with fixed
    SQL: on PostgreSQL the writers' advisory lock and the server clock; the PINs, the two
    pairs, the round with the table's current version, the pairs seated elsewhere in the
    round, the chain's head; then the round (when new), match, hand, infraction, ruling,
    audit entry and signature rows, copied from an entry the project wrote (same sizes),
    and COMMIT. On SQLite a connection is opened and closed around each transaction with
    the store's per-connection settings, as the store does. No judging, hashing or signing:
    what is left between this and ``Store.record`` is the project's own work."""

    TABLES = ("rounds", "matches", "hands", "infractions", "rulings")

    def __init__(self, target: str, template: Store) -> None:
        from referee_app.store.audit import payload_text
        from referee_app.store.models import audit_log, metadata

        self.pg = target.startswith("postgresql")
        self.path = target
        self.columns = {
            t: [c.name for c in metadata.tables[t].columns if c.name != "id"] for t in self.TABLES
        }
        self.entry_columns = [c.name for c in audit_log.columns]
        with template.engine.connect() as conn:  # the rows and entry of a save the project made
            e = conn.execute(audit_log.select().order_by(audit_log.c.seq.desc()).limit(1)).one()
        self.entry = e._asdict()
        self.rows = json.loads(payload_text(e.payload))["rows"]
        if self.pg:
            self.con: Any = psycopg_connect(target)
        else:
            self.path = str(make_url_db(target))

    def _sql(self, text: str) -> str:
        return text.replace("?", "%s") if self.pg else text

    def _insert(self, cur: Any, table: str, values: dict[str, Any], returning: bool = True) -> int:
        cols = list(values)
        sql = f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
        if self.pg and returning:
            cur.execute(self._sql(sql + " RETURNING id"), [values[c] for c in cols])
            return int(cur.fetchone()[0])
        cur.execute(self._sql(sql), [values[c] for c in cols])
        return 0 if self.pg else int(cur.lastrowid)

    def save(self, i: int, round_no: int, table_no: int) -> None:
        import sqlite3

        if self.pg:
            con = self.con
        else:
            con = sqlite3.connect(self.path, isolation_level=None)
            con.execute("PRAGMA busy_timeout=30000")
            con.execute("PRAGMA synchronous=FULL")
            con.execute("PRAGMA foreign_keys=ON")
        cur = con.cursor()
        q = self._sql
        try:
            if self.pg:
                cur.execute("SELECT pg_advisory_xact_lock(%s)", (0x5245_4631,))
                cur.execute("SELECT clock_timestamp()")
            else:
                cur.execute("BEGIN IMMEDIATE")
            cur.execute(
                q("SELECT role, pin_hash, entry_seq FROM role_pins WHERE event_id = ? ORDER BY id"), (1,)
            )
            cur.fetchall()
            cur.execute(
                q("SELECT number, id FROM pairs WHERE event_id = ? AND number IN (?, ?)"),
                (1, str(2 * table_no - 1), str(2 * table_no)),
            )
            pair_ids = [r[1] for r in cur.fetchall()]
            cur.execute(
                q(
                    "SELECT rounds.id, matches.id, matches.version FROM rounds LEFT OUTER JOIN matches "
                    "ON matches.round_id = rounds.id AND matches.table_no = ? "
                    "WHERE rounds.event_id = ? AND rounds.number = ? ORDER BY matches.version DESC LIMIT 1"
                ),
                (table_no, 1, round_no),
            )
            here = cur.fetchone()
            if here is not None:
                cur.execute(
                    q(
                        "SELECT m.table_no, m.ns_pair_id, m.ew_pair_id FROM matches m "
                        "LEFT OUTER JOIN voidings v ON v.match_id = m.id WHERE m.round_id = ? "
                        "AND m.table_no != ? AND (m.ns_pair_id IN (?, ?) OR m.ew_pair_id IN (?, ?)) "
                        "AND v.id IS NULL AND NOT EXISTS (SELECT 1 FROM matches later WHERE "
                        "later.round_id = m.round_id AND later.table_no = m.table_no "
                        "AND later.version > m.version) ORDER BY m.table_no"
                    ),
                    (here[0], table_no, *pair_ids, *pair_ids),
                )
                cur.fetchall()
            cur.execute("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1")
            seq = int(cur.fetchone()[0]) + 1
            if here is None:
                round_id = self._insert(cur, "rounds", {"event_id": 1, "number": round_no, "entry_seq": seq})
            else:
                round_id = here[0]
            match = {**self.rows["matches"][0], "round_id": round_id, "table_no": table_no}
            match.update(ns_pair_id=pair_ids[0], ew_pair_id=pair_ids[-1], entry_seq=seq)
            mid = self._insert(cur, "matches", {c: match[c] for c in self.columns["matches"]})
            ids: dict[str, int] = {}
            for table, link in (("hands", "hand_id"), ("infractions", "infraction_id"), ("rulings", None)):
                for row in self.rows.get(table, []):
                    values = {c: row[c] for c in self.columns[table]}
                    values.update(match_id=mid, entry_seq=seq)
                    for fk in ("hand_id", "infraction_id"):
                        if values.get(fk) is not None:
                            values[fk] = ids[fk]
                    new_id = self._insert(cur, table, values, returning=link is not None)
                    if link is not None:
                        ids[link] = new_id
            entry = {**self.entry, "seq": seq, "hash": f"{seq:064x}", "token": None}
            self._insert(cur, "audit_log", {c: entry[c] for c in self.entry_columns}, returning=False)
            sig = {"seq": seq, "fingerprint": "f" * 64, "signature": "5" * 128}
            self._insert(cur, "entry_signatures", sig, returning=False)
            if self.pg:
                con.commit()
            else:
                cur.execute("COMMIT")
        finally:
            cur.close()
            if not self.pg:
                con.close()

    def close(self) -> None:
        if self.pg:
            self.con.close()


def make_url_db(target: str) -> str:
    from sqlalchemy.engine import make_url

    return str(make_url(target).database) if "://" in target else target


def bench_record(target: str, n: int, bare_save_target: str) -> dict[str, Any]:
    """Store.record of one ruling, alternated one by one with the two bare baselines."""
    keys_folder = Path(tempfile.mkdtemp(prefix="bench-keys-"))
    # as the window saves: on SQLite its helper process holds the file (store/walholder.py)
    # the saves go to tables 2-51 of rounds 1, 2, …: pairs for at least 51 tables
    tables = max(n, 51)
    store = new_event(target, tables=tables, keys_folder=keys_folder, hold=True)
    store.record(1, one_ruling_case(1, 1, 0), actor=ACTOR)  # warm: rulebook cache, pool, key
    from referee_app.store.models import entry_signatures

    with store.engine.connect() as conn:
        signed = conn.execute(entry_signatures.select().limit(1)).first() is not None
    bare = BarePostgres(target) if target.startswith("postgresql") else BareSqlite(str(Path(target).parent))
    bare.save(0)
    # the second baseline writes into a store of its own, with the rows the project just wrote
    template = new_event(bare_save_target, tables=tables, hold=True)  # held as the store is
    template.record(1, one_ruling_case(1, 1, 0), actor=ACTOR)
    rows = BareSave(bare_save_target, store)
    per_tx = per_tx_held = None
    if not target.startswith("postgresql"):
        per_tx = BareSqlitePerTransaction(str(Path(target).parent))
        per_tx_held = BareSqlitePerTransaction(str(Path(target).parent), hold=True)
    samples, bare_samples, rows_samples, per_tx_samples, per_tx_held_samples = [], [], [], [], []
    # this process's CPU time per save (not the server's): steadier than wall time on a
    # loaded machine, and what the project's own work costs
    cpu, rows_cpu = [], []
    for i in range(1, n):
        round_no, table_no = 1 + i // 50, 1 + i % 50 + 1
        case = one_ruling_case(round_no, table_no, i)
        c0, t0 = time.process_time(), time.perf_counter()
        store.record(1, case, actor=ACTOR, lang="zh")
        samples.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        t0 = time.perf_counter()
        bare.save(i)
        bare_samples.append(time.perf_counter() - t0)
        c0, t0 = time.process_time(), time.perf_counter()
        rows.save(i, round_no, table_no)
        rows_samples.append(time.perf_counter() - t0)
        rows_cpu.append(time.process_time() - c0)
        if per_tx is not None and per_tx_held is not None:
            t0 = time.perf_counter()
            per_tx.save(i)
            per_tx_samples.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            per_tx_held.save(i)
            per_tx_held_samples.append(time.perf_counter() - t0)
    bare.close()
    rows.close()
    template.close()
    if per_tx_held is not None:
        per_tx_held.close()
    assert store.verify().ok
    store.close()
    shutil.rmtree(keys_folder, ignore_errors=True)
    out: dict[str, Any] = ratio_summary(samples, bare_samples)
    same_rows = ratio_summary(samples, rows_samples)
    out["rows_median_ms"] = same_rows["bare_median_ms"]
    out["rows_ratio"] = same_rows["ratio"]
    out["rows_ratio_p10"] = same_rows["ratio_p10"]
    out["rows_ratio_p90"] = same_rows["ratio_p90"]
    out["rows_vs_bare"] = same_rows["bare_median_ms"] / out["bare_median_ms"]
    out["signed"] = signed
    if per_tx_samples:
        out["per_tx_median_ms"] = statistics.median(per_tx_samples) * 1000
        out["per_tx_vs_bare"] = out["per_tx_median_ms"] / out["bare_median_ms"]
        out["per_tx_held_median_ms"] = statistics.median(per_tx_held_samples) * 1000
        out["per_tx_held_vs_bare"] = out["per_tx_held_median_ms"] / out["bare_median_ms"]
    out["cpu_ms"] = statistics.mean(cpu) * 1000
    out["rows_cpu_ms"] = statistics.mean(rows_cpu) * 1000
    return out


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
        with make() as t, make() as t2:
            rec = bench_record(t, args.records, t2)
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
        print(
            f"  the same rows through the plain driver: median {rec['rows_median_ms']:.2f} ms "
            f"({rec['rows_vs_bare']:.2f}x the bare INSERT+COMMIT); record is {rec['rows_ratio']:.2f}x it "
            f"(p10-p90 {rec['rows_ratio_p10']:.2f}-{rec['rows_ratio_p90']:.2f}x)"
            + ("" if rec["signed"] else " [entries unsigned]")
        )
        if "per_tx_median_ms" in rec:
            print(
                f"  the bare INSERT+COMMIT on a connection per transaction (issue 10): median "
                f"{rec['per_tx_median_ms']:.2f} ms ({rec['per_tx_vs_bare']:.2f}x the bare one); with the "
                f"file held as the window holds it: {rec['per_tx_held_median_ms']:.2f} ms "
                f"({rec['per_tx_held_vs_bare']:.2f}x)"
            )
        print(
            f"  CPU of this process a save (mean): record {rec['cpu_ms']:.2f} ms, "
            f"the same rows {rec['rows_cpu_ms']:.2f} ms"
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
