"""Processes that write into one event at once (concurrency) or until killed (crash).

``python store_workers.py crash DB START`` records forever, printing ``saved MATCH TOKEN``
after each write is committed; the crash test kills it with SIGKILL.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from store_helpers import make_case  # noqa: E402

from referee_app.store.errors import ConflictError  # noqa: E402
from referee_app.store.service import Actor, Store  # noqa: E402

CONTESTED_TABLE = 9


def current_version(store: Store, round_no: int, table: int) -> int:
    hist = store.history(1, round_no, table)
    return int(hist[-1]["version"]) if hist else 0


def concurrent_worker(db: str, w: int, n: int, contested_every: int, barrier: Any, results: Any) -> None:
    """Worker ``w`` (0–3) writes ``n`` times into event 1.

    Its own table (``w + 1``, pairs ``2w+1`` v ``2w+2``) across rounds 1–9, superseding
    without a version check; every ``contested_every``-th write, all workers read the
    version of round 1 table 9 together, then all record on it expecting that version:
    exactly one wins, the others must be refused.
    """
    try:
        store = Store.open(db)
        actor = Actor(f"referee-{w}", f"station-{w}")
        ok: list[tuple[str, int, int, int]] = []  # token, match id, round, table
        conflicts: list[str] = []
        for i in range(n):
            token = f"w{w}-{i}"
            if i % contested_every == 0:
                barrier.wait(timeout=300)
                seen = current_version(store, 1, CONTESTED_TABLE)
                barrier.wait(timeout=300)
                case = make_case(1, CONTESTED_TABLE, "9", "10", defender_points=5 * (i % 30))
                try:
                    rec = store.record(1, case, actor=actor, lang="en", expected_version=seen, token=token)
                    ok.append((token, rec.match_id, 1, CONTESTED_TABLE))
                except ConflictError as err:
                    conflicts.append(str(err))
            else:
                rnd = i % 9 + 1
                case = make_case(rnd, w + 1, str(2 * w + 1), str(2 * w + 2), defender_points=5 * (i % 30))
                rec = store.record(1, case, actor=actor, lang="en", token=token)
                ok.append((token, rec.match_id, rnd, w + 1))
        store.close()
        results.put((w, ok, conflicts, None))
    except BaseException as err:  # report, do not hang the parent
        results.put((w, [], [], f"{type(err).__name__}: {err}"))
        barrier.abort()
        raise


def crash_loop(db: str, start: int) -> None:
    store = Store.open(db)
    actor = Actor("crash", "station-crash")
    i = start
    while True:
        rnd, table = i // 4 + 1, i % 4 + 1
        case = make_case(rnd, table, str(2 * table - 1), str(2 * table), defender_points=5 * (i % 30))
        token = f"crash-{i}"
        rec = store.record(1, case, actor=actor, lang="zh", token=token)
        # reported saved only now, after the commit returned
        print(f"saved {rec.match_id} {token}", flush=True)
        i += 1


if __name__ == "__main__":
    if sys.argv[1] == "crash":
        crash_loop(sys.argv[2], int(sys.argv[3]))
