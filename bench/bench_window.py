"""Benchmark of the first window: ``referee-app`` against an empty QMainWindow, offscreen.

    python bench/bench_window.py              # --repeat N (default 10), --json

Each sample is a fresh process, timed from its start until it exits, with its peak RSS
(``wait4``'s ``ru_maxrss``). The baseline is ``python -c`` making a QApplication and an empty
QMainWindow of the same size, showing it and quitting once the event loop is idle after the
first paint. The app quits the same way when ``REFEREE_APP_EXIT_WHEN_IDLE=painted``; with
``=ready`` it quits once the store is open, its events listed and the last table resumed
(what happens right after the first paint). The two sides of a row run alternately, so a busy
machine slows both alike; each row prints the medians, the ratio of medians and the min–max
of the per-pair ratios, for time and for peak memory.
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
    for _ in range(repeat):
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
        rows = []
        for what, when in (("first window painted, idle", "painted"), ("store open, events listed", "ready")):
            side = env | {"REFEREE_APP_EXIT_WHEN_IDLE": when}
            row = alternate(lambda s=side: run(app, s), lambda: run(bare, env), args.repeat)
            rows.append({"what": what, **row})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    head = f"{'app':>8} {'empty':>8} {'ratio':>6} {'spread':>12}"
    print(f"{'':28} {head}   {'app':>7} {'empty':>7} {'ratio':>6}")
    for r in rows:
        print(
            f"{r['what']:28} {r['time_app'] * 1000:6.0f}ms {r['time_bare'] * 1000:6.0f}ms "
            f"{r['time_ratio']:5.2f}× {r['time_min']:5.2f}–{r['time_max']:4.2f}×   "
            f"{r['rss_app']:5.0f}Mi {r['rss_bare']:5.0f}Mi {r['rss_ratio']:5.2f}× "
            f"({r['rss_min']:.2f}–{r['rss_max']:.2f}×)  runs {r['runs']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
