"""Benchmark of the first window: ``referee-app`` against an empty QMainWindow, offscreen.

    python bench/bench_window.py              # --repeat N (default 10), --tables N (512), --json
    python bench/bench_window.py --repeat 2 --tables 16   # a quick check

Each sample is a fresh process, timed from its start until it exits, with its peak RSS
(``wait4``'s ``ru_maxrss``). The baseline is ``python -c`` making a QApplication and an empty
QMainWindow of the same size, showing it and quitting once the event loop is idle after the
first paint. The app quits the same way when ``REFEREE_APP_EXIT_WHEN_IDLE=painted``; with
``=ready`` it quits once the store is open, its events listed, the station taken back where
it was, and what it then shows painted (what happens right after the first paint); with
``=listed`` once the events read at a glance (``app/glance.py``, no SQLAlchemy) are painted,
the store's code still loading behind them. Rows:

* the first window painted (the store not yet opened);
* the events listed at a glance on a store without events: the window usable (the list read
  and chosen from; the first choice waits for the store if it is still loading);
* ready on a store without events (the store open, the events list painted);
* ready on an event of ``--tables`` tables (512) seated in its current round, the station
  last in its hall: the window opens the event and quits once the hall has painted its
  tables — what a chief referee waits for when the window is started during a round. The
  store (pairs imported, each table seated as the desk seats a published round) and the
  station's settings are made once, before anything is timed.

The two sides of a row run alternately (the side going first swapping at each pair), so a
busy machine slows both alike; each row prints the medians, the ratio of medians and the
min–max of the per-pair ratios, for time and for peak memory. The goal: the first window
within 1.5× the empty QMainWindow.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The baseline: an empty main window, shown, quitting when idle after its first paint.
EMPTY_WINDOW = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

class Window(QMainWindow):
    painted = False

    def paintEvent(self, event):
        super().paintEvent(event)
        if not self.painted:
            self.painted = True
            QTimer.singleShot(0, app.quit)

app = QApplication(sys.argv[:1])
window = Window()
window.resize(1280, 800)
window.show()
app.exec()
"""

#: Run in a child with the bench's environment: an event of N tables seated in round 1 at
#: the store DB, and the station's settings saying its window was last in that event's hall
#: (so a start opens it, as after a restart during a round).
BUILD_HALL = """
import sys
from PySide6.QtCore import QSettings
from referee_app.app.drafts import Drafts
from referee_app.core.rulebook import load_rulebook
from referee_app.core.editing import new_case
from referee_app.store.pairs_csv import PairRow
from referee_app.store.service import Actor, Store

db, tables = sys.argv[1], int(sys.argv[2])
chief = Actor("裁判长", "desk")
with Store.open(db, create=True, actor=chief) as s:
    ev = s.create_event(name="大厅", rulebook=load_rulebook("gansu-2018"), date=None, actor=chief)
    rows = [PairRow(i, str(i), f"甲{i}", f"乙{i}", None) for i in range(1, 2 * tables + 1)]
    s.import_pairs(ev.id, rows, actor=chief, source="bench")
    for t in range(1, tables + 1):  # seated as Session.open_table seats a published round's table
        pairs = {"NS": str(2 * t - 1), "EW": str(2 * t)}
        case = dict(new_case(ev.rulebook_id, "E"), round=1, table=t, pairs=pairs)
        s.record(ev.id, case, actor=chief, lang="zh", expected_version=0)
    where = s.where
settings = QSettings("referee-app", "referee-app")
key = "place/" + Drafts(where).prefix  # MainWindow.remember_place: in the event's hall
settings.setValue(key + "/event", ev.id)
settings.setValue(key + "/table", "")
settings.sync()
"""

Sample = tuple[float, float]  # seconds, peak RSS in MiB


def run(cmd: list[str], env: dict[str, str]) -> Sample:
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{cmd[:3]} exited with {proc.returncode}: {err.decode(errors='replace')}")
    return elapsed, usage.ru_maxrss / 1024


def alternate(project: Callable[[], Sample], baseline: Callable[[], Sample], repeat: int) -> dict[str, float]:
    project()  # warm the disk cache (and the rulebook cache) for both sides
    baseline()
    ps: list[Sample] = []
    bs: list[Sample] = []
    for i in range(repeat):
        if i % 2:
            bs.append(baseline())
            ps.append(project())
        else:
            ps.append(project())
            bs.append(baseline())
    row: dict[str, float] = {"runs": repeat}
    for k, name in ((0, "time"), (1, "rss")):
        p = [s[k] for s in ps]
        b = [s[k] for s in bs]
        ratios = [x / y for x, y in zip(p, b, strict=True)]
        row |= {
            f"{name}_app": statistics.median(p),
            f"{name}_bare": statistics.median(b),
            f"{name}_ratio": statistics.median(p) / statistics.median(b),
            f"{name}_min": min(ratios),
            f"{name}_max": max(ratios),
        }
    return row


def program() -> str:
    here = Path(sys.executable).parent / "referee-app"
    return str(here) if here.exists() else shutil.which("referee-app") or "referee-app"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--tables", type=int, default=512, help="the seated event's tables (0: no such row)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", LANG="C.UTF-8", HOME=str(home))
        for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
            env[name] = str(home / name.lower())
        for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
            env.pop(name, None)
        # as installed: pip compiles a wheel's modules, so an app never recompiles at start
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        db = home / "event.sqlite"
        app = [program(), "--db", str(db)]
        bare = [sys.executable, "-c", EMPTY_WINDOW]
        # the station's store exists already (made once here: migrations are not start-up)
        ready = env | {"REFEREE_APP_EXIT_WHEN_IDLE": "ready"}
        subprocess.run(app, env=ready, check=True, capture_output=True)
        rows_to_run = [
            ("first window painted, idle", app, "painted"),
            ("events listed at a glance", app, "listed"),
            ("store open, events listed", app, "ready"),
        ]
        if args.tables:
            hall_db = home / "hall.sqlite"
            t0 = time.perf_counter()
            subprocess.run(
                [sys.executable, "-c", BUILD_HALL, str(hall_db), str(args.tables)], env=env, check=True
            )
            print(f"{args.tables}-table event built in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
            hall = [program(), "--db", str(hall_db)]
            rows_to_run.append((f"{args.tables}-table event, hall shown", hall, "ready"))
        rows = []
        for what, cmd, when in rows_to_run:
            side = env | {"REFEREE_APP_EXIT_WHEN_IDLE": when}
            row = alternate(lambda c=cmd, s=side: run(c, s), lambda: run(bare, env), args.repeat)
            rows.append({"what": what, **row})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    head = f"{'app':>8} {'empty':>8} {'ratio':>6} {'spread':>12}"
    print(f"{'':32} {head}   {'app':>7} {'empty':>7} {'ratio':>6}")
    for r in rows:
        print(
            f"{r['what']:32} {r['time_app'] * 1000:6.0f}ms {r['time_bare'] * 1000:6.0f}ms "
            f"{r['time_ratio']:5.2f}× {r['time_min']:5.2f}–{r['time_max']:4.2f}×   "
            f"{r['rss_app']:5.0f}Mi {r['rss_bare']:5.0f}Mi {r['rss_ratio']:5.2f}× "
            f"({r['rss_min']:.2f}–{r['rss_max']:.2f}×)  runs {r['runs']}"
        )
    print("goal: the first window within 1.5× the empty QMainWindow's time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
