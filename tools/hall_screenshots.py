"""Screenshots of the hall display (赛场大屏) at 1920×1080, one per phase of a round.

    xvfb-run -a -s "-screen 0 1920x1080x24" python tools/hall_screenshots.py OUT_DIR

Builds a 12-pair Gansu event in a temporary SQLite store (made-up players), publishes
round 1's pairing (before), starts the hall clock and records some tables (during), then
the rest (after), and saves ``hall-before.png``, ``hall-during.png``, ``hall-after.png``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

from referee_app.app.session import Session
from referee_app.core.rulebook import load_rulebook
from referee_app.gui.app import register_font
from referee_app.gui.hall_display import HallDisplay
from referee_app.store.pairs_csv import parse_pairs
from referee_app.store.service import Actor, Store

CHIEF = Actor("裁判长", "desk")
SURNAMES = "张王李赵钱孙周吴郑冯陈褚卫蒋沈韩杨朱秦尤许何吕施"
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华"


def settle(app: QApplication, seconds: float = 0.4) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.02)


def result(table: int, ns: str, ew: str, ns_wins: bool, finished: str = "time") -> dict:
    return {
        "event": "gansu-2018",
        "round": 1,
        "table": table,
        "pairs": {"NS": ns, "EW": ew},
        "first_dealer": "N" if ns_wins else "E",
        "hands": [{"defender_points": 0}, {"defender_points": 20 + 5 * table}],
        "finished": finished,
    }


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    family = register_font()
    if family:
        app.setFont(QFont(family))
    db = str(Path(tempfile.mkdtemp()) / "hall.db")
    store = Store.open(db, create=True, actor=CHIEF)
    ev = store.create_event(
        name="2018年职工双升赛", rulebook=load_rulebook("gansu-2018"), date=None, actor=CHIEF
    )
    rows = "number,player1,player2\n" + "".join(
        f"{i},{SURNAMES[2 * i % 24]}{GIVEN[i % 24]},{SURNAMES[(2 * i + 1) % 24]}{GIVEN[(i + 7) % 24]}\n"
        for i in range(1, 13)
    )
    store.import_pairs(ev.id, parse_pairs(rows), actor=CHIEF, source="pairs.csv")
    tables = [[t, str(2 * t - 1), str(2 * t)] for t in range(1, 7)]
    body = {"method": "lot", "seed": 731942, "tables": tables, "bye": None, "warnings": []}
    store.add_desk_record(ev.id, "pairing", 1, body, actor=CHIEF, version=1)
    view = HallDisplay(Session(store, ev, CHIEF), poll_ms=100)
    view.resize(1920, 1080)
    view.show()
    settle(app)
    view.grab().save(str(out / "hall-before.png"))
    chief = Session(store, ev, CHIEF)
    chief.clock_act(1, "start")
    for t, ns, ew in tables[:3]:
        store.record(ev.id, result(t, ns, ew, t % 2 == 1), actor=CHIEF, lang="zh")
    store.record(ev.id, result(4, "7", "8", True, "open"), actor=CHIEF, lang="zh")
    settle(app, 1.0)
    view.grab().save(str(out / "hall-during.png"))
    store.record(ev.id, result(4, "7", "8", True), actor=CHIEF, lang="zh", expected_version=1)
    for t, ns, ew in tables[4:]:
        store.record(ev.id, result(t, ns, ew, t % 2 == 0), actor=CHIEF, lang="zh")
    chief.clock_act(1, "pause")
    settle(app, 1.0)
    view.grab().save(str(out / "hall-after.png"))
    print(f"phases: saved to {out}")
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "hall-shots")))
