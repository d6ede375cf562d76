"""Several processes at once, and a process killed mid-write: nothing lost or duplicated."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from store_helpers import PAIRS_CSV, cli, sql
from store_workers import CONTESTED_TABLE, concurrent_worker

from referee_app.store.service import Store

HERE = Path(__file__).resolve().parent
WORKERS, WRITES, CONTESTED_EVERY = 4, 200, 10


def _event(db: str, tmp_path: Path, pairs: int = 8) -> None:
    assert cli(db, "event", "create", "--rules", "bhg-2011", "--name", "并发测试")[0] == 0
    rows = PAIRS_CSV + "".join(f"{n},选手{n}甲,选手{n}乙,\n" for n in range(9, pairs + 1))
    f = tmp_path / "pairs.csv"
    f.write_text(rows, encoding="utf-8")
    assert cli(db, "pairs", "import", str(f))[0] == 0


def test_four_processes_200_writes_each(db: str, tmp_path: Path) -> None:
    _event(db, tmp_path, pairs=10)
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(WORKERS)
    results = ctx.Queue()
    procs = [
        ctx.Process(target=concurrent_worker, args=(db, w, WRITES, CONTESTED_EVERY, barrier, results))
        for w in range(WORKERS)
    ]
    for p in procs:
        p.start()
    got = [results.get(timeout=900) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    errors = [e for (_, _, _, e) in got if e]
    assert not errors, errors

    contested_rounds = WRITES // CONTESTED_EVERY
    all_ok: list[tuple[str, int, int, int]] = []
    conflicts: list[str] = []
    for _w, ok, conf, _ in got:
        assert len(ok) + len(conf) == WRITES  # every write either saved or refused
        all_ok += ok
        conflicts += conf
    # each contested round: one winner, the other three refused and told why
    assert len(conflicts) == contested_rounds * (WORKERS - 1)
    for msg in conflicts:
        assert f"round 1 table {CONTESTED_TABLE} was changed by referee-" in msg
        assert "Nothing saved" in msg

    # none lost, none duplicated
    match_ids = [m for (_, m, _, _) in all_ok]
    assert len(set(match_ids)) == len(match_ids) == WORKERS * WRITES - len(conflicts)
    rows = sql(db, "SELECT id, table_no, version FROM matches")
    assert sorted(r.id for r in rows) == sorted(match_ids)
    tokens = [r.token for r in sql(db, "SELECT token FROM audit_log WHERE action = 'match.record'")]
    assert sorted(tokens) == sorted(t for (t, _, _, _) in all_ok)

    # versions of every round and table are 1..n with no gap
    versions: dict[tuple[int, int], list[int]] = defaultdict(list)
    for r in sql(
        db,
        "SELECT r.number AS rnd, m.table_no, m.version FROM matches m JOIN rounds r ON r.id = m.round_id",
    ):
        versions[(r.rnd, r.table_no)].append(r.version)
    for key, vs in versions.items():
        assert sorted(vs) == list(range(1, len(vs) + 1)), key
    assert len(versions[(1, CONTESTED_TABLE)]) == contested_rounds

    rc, out, err = cli(db, "verify")
    assert rc == 0, err
    assert f"{3 + len(match_ids)} entries" in out
    exported = cli(db, "export")[1].splitlines()
    assert len(exported) == WORKERS * 9 + 1


def test_killed_while_recording_loses_no_saved_write(db: str, tmp_path: Path) -> None:
    _event(db, tmp_path)
    saved: dict[str, int] = {}
    start = 0
    for _kill in range(3):
        proc = subprocess.Popen(
            [sys.executable, str(HERE / "store_workers.py"), "crash", db, str(start)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=os.environ.copy(),
        )
        assert proc.stdout is not None
        lines = 0
        for line in proc.stdout:
            _, mid, token = line.split()
            saved[token] = int(mid)
            lines += 1
            if lines == 25:
                proc.send_signal(signal.SIGKILL)  # the loop is already writing the next one
                break
        proc.wait(timeout=60)
        assert proc.returncode == -signal.SIGKILL, proc.stderr.read() if proc.stderr else ""
        start += 40  # leave room: the killed write may or may not have committed

    if "://" not in db:
        assert sql(db, "PRAGMA integrity_check")[0][0] == "ok"
    with Store.open(db) as store:
        entries = store.log()
    stored = {e["token"]: json.loads(e["payload"])["info"]["match_id"] for e in entries if e["token"]}
    for token, mid in saved.items():
        assert stored.get(token) == mid, token  # every write reported saved is there
    assert len(stored) - len(saved) <= 3  # at most the write in flight at each kill
    rc, out, err = cli(db, "verify")
    assert rc == 0, err
