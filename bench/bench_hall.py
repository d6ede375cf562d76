"""The hall view at 512 tables while eight other stations save (issue 22, item 3).

    python bench/bench_hall.py               # 512 tables, 8 saves between two looks
    python bench/bench_hall.py --tables 128 --repeat 10 --json

A station's window looks at the store every 1.5 s (``gui/watch.py``). Between two looks,
eight other stations each save a table of the round. What the window then spends — reading
what changed since its last look (``Session.changes_since``) and redrawing the hall
(``HallView.apply``) — is the time the chief referee's window is frozen. It is alternated,
look by look, with an idle window's look (the store's head unchanged: the bare baseline any
station pays), and reported with the ratio; the whole hall read and drawn again
(``HallView.refresh``, what every change cost before) is measured beside it. The goal: a
change elsewhere costs the window under 50 ms.

Offscreen Qt, one SQLite file held as the window holds it; the saves are made by a second
``Store`` on the same file (another station), outside the measured time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication  # noqa: E402

from referee_app.app.session import Session  # noqa: E402
from referee_app.core.rulebook import load_rulebook  # noqa: E402
from referee_app.gui.hall import HallView  # noqa: E402
from referee_app.gui.i18n import Language  # noqa: E402
from referee_app.gui.watch import StoreWatcher  # noqa: E402
from referee_app.store.pairs_csv import PairRow  # noqa: E402
from referee_app.store.service import Actor, Store  # noqa: E402

CHIEF = Actor("裁判长", "desk")
STATIONS = [Actor(f"裁判{i}", f"table-{i}") for i in range(1, 9)]


def case(table: int, hands: int) -> dict[str, Any]:
    return {
        "event": "gansu-2018",
        "round": 1,
        "table": table,
        "pairs": {"NS": str(2 * table - 1), "EW": str(2 * table)},
        "first_dealer": "N",
        "hands": [{"defender_points": 40 + 5 * (i % 8)} for i in range(hands)],
        "finished": "open",
    }


def build(db: str, tables: int) -> int:
    with Store.open(db, create=True, actor=CHIEF) as s:
        ev = s.create_event(name="大厅", rulebook=load_rulebook("gansu-2018"), date=None, actor=CHIEF)
        rows = [PairRow(i, str(i), f"甲{i}", f"乙{i}", None) for i in range(1, 2 * tables + 1)]
        s.import_pairs(ev.id, rows, actor=CHIEF, source="bench")
        for t in range(1, tables + 1):
            s.record(ev.id, case(t, 1 + t % 3), actor=CHIEF, lang="zh", expected_version=0)
        return int(ev.id)


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=512)
    ap.add_argument("--saves", type=int, default=8, help="saves by other stations between two looks")
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "hall.db")
        eid = build(db, args.tables)
        window_store = Store.open(db, actor=CHIEF, hold=True)
        others = Store.open(db, actor=CHIEF)
        try:
            session = Session(window_store, window_store.pick_event(eid), CHIEF, "zh")
            hall = HallView(Language("zh"), session)
            hall.resize(1366, 700)
            hall.show()
            app.processEvents()
            watcher = StoreWatcher(session.store_head, 10**6, since=session.changes_since)
            watcher.changes.connect(hall.apply)
            version = dict.fromkeys(range(1, args.tables + 1), 1)
            changed: list[float] = []
            idle: list[float] = []
            full: list[float] = []
            table = 0
            for i in range(args.repeat + 1):
                for k in range(args.saves):  # eight stations save, outside the window's time
                    table = table % args.tables + 1
                    others.record(
                        eid, case(table, 2 + (i + k) % 4), actor=STATIONS[k % 8], lang="zh",
                        expected_version=version[table],
                    )  # fmt: skip
                    version[table] += 1
                t0 = time.perf_counter()
                watcher.poll()
                app.processEvents()
                t1 = time.perf_counter()
                watcher.poll()  # nothing new: what an idle window pays at each look
                app.processEvents()
                t2 = time.perf_counter()
                if i:  # the first look warms the caches
                    changed.append(t1 - t0)
                    idle.append(t2 - t1)
                if i % 5 == 1:
                    t3 = time.perf_counter()
                    hall.refresh()
                    app.processEvents()
                    full.append(time.perf_counter() - t3)
            assert all(c.record.version == version[c.record.table] for c in hall.cards), "hall out of date"
        finally:
            others.close()
            window_store.close()
    row = {
        "tables": args.tables,
        "saves_between_looks": args.saves,
        "looks": args.repeat,
        "changed_ms": ms(statistics.median(changed)),
        "changed_p95_ms": ms(sorted(changed)[int(0.95 * (len(changed) - 1))]),
        "idle_ms": ms(statistics.median(idle)),
        "ratio": round(statistics.median(changed) / statistics.median(idle), 1),
        "whole_hall_again_ms": ms(statistics.median(full)),
        "goal_ms": 50,
    }
    if args.json:
        print(json.dumps(row))
    else:
        print(
            f"{args.tables} tables, {args.saves} saves elsewhere between two looks, {args.repeat} looks:\n"
            f"  a look after the saves   {row['changed_ms']:8.1f} ms  (p95 {row['changed_p95_ms']:.1f})\n"
            f"  an idle look (baseline)  {row['idle_ms']:8.1f} ms  ratio {row['ratio']}x\n"
            f"  the whole hall again     {row['whole_hall_again_ms']:8.1f} ms  (each change, before)\n"
            f"  goal: under {row['goal_ms']} ms of the window's time"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
