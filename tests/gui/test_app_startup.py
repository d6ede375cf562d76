"""App start-up: one language rule with the command line, and unexpected exceptions in the
window logged in full and shown as one message naming the log."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from referee_app.app.language import default_lang
from referee_app.gui.app import UnexpectedErrorReporter, icon_path
from referee_app.gui.i18n import system_lang


@pytest.mark.parametrize("value", ["C.UTF-8", "zh_CN.UTF-8", "en_US.UTF-8"])
def test_window_and_command_line_pick_the_same_language(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", value)
    assert system_lang() == default_lang() == ("en" if value.startswith("en") else "zh")


@pytest.mark.qt_no_exception_capture
def test_an_exception_in_a_slot_is_logged_and_shown_once(
    qtbot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    reporter = UnexpectedErrorReporter("zh")
    monkeypatch.setattr(sys, "excepthook", reporter)

    def broken_slot() -> None:
        raise ZeroDivisionError("table 7 has no pairs")

    QTimer.singleShot(0, broken_slot)
    qtbot.waitUntil(lambda: len(reporter.boxes) == 1 and reporter.boxes[0].isVisible())
    box: QMessageBox = reporter.boxes[0]
    log = tmp_path / "state" / "referee-app" / "log" / "referee-app.log"
    assert box.text().startswith("程序出现意外错误") and str(log) in box.text()
    assert "\n" not in box.text()
    text = log.read_text(encoding="utf-8")
    assert "Traceback" in text and "broken_slot" in text and "table 7 has no pairs" in text
    # the app keeps running: the message closes and the event loop goes on
    box.accept()
    qtbot.waitUntil(lambda: reporter.boxes == [])
    assert QApplication.instance() is not None


def test_the_window_icon_is_shipped() -> None:
    from PySide6.QtGui import QIcon

    assert not QIcon(str(icon_path())).isNull()


#: Loaded after the first paint, never before it (issue 11: the window shows at once).
HEAVY = (
    "sqlalchemy",
    "reportlab",
    "pydantic",
    "referee_app.store",
    "referee_app.printing.render",
    "referee_app.core.engine",
)

PAINT_SCRIPT = """
import sys
from referee_app.launcher import main
from referee_app.gui.main_window import MainWindow

made = MainWindow.__init__

def init(self, *args):
    made(self, *args)
    loaded = lambda: print("LOADED", *sorted(m for m in {heavy!r} if m in sys.modules), flush=True)
    self.first_painted.connect(loaded)  # before the app's own slot

MainWindow.__init__ = init
sys.exit(main(["--db", sys.argv[1]]))
"""


def test_the_window_paints_before_the_store_and_printing_load_then_opens_the_store(tmp_path: Path) -> None:
    import os
    import subprocess

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_STATE_HOME=str(tmp_path / "state"))
    env |= {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    db = tmp_path / "event.sqlite"
    done = subprocess.run(
        [sys.executable, "-c", PAINT_SCRIPT.format(heavy=HEAVY), str(db)],
        env=env | {"REFEREE_APP_EXIT_WHEN_IDLE": "painted"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["LOADED"], done.stdout  # none of them at the first paint
    assert not db.exists()  # the store is opened after the first paint only
    ready = subprocess.run(
        [sys.executable, "-m", "referee_app", "--db", str(db)],
        env=env | {"REFEREE_APP_EXIT_WHEN_IDLE": "ready"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ready.returncode == 0, ready.stderr
    assert db.is_file()
    log = (tmp_path / "state" / "referee-app" / "log" / "referee-app.log").read_text(encoding="utf-8")
    assert f"window shown (store {db}, language" in log


#: A station last in the hall of an event with two seated tables (the store and the settings
#: the window reads at start), made in a child with the test's folders.
HALL_STATION = """
import sys
from PySide6.QtCore import QSettings
from referee_app.app.drafts import Drafts
from referee_app.core.rulebook import load_rulebook
from referee_app.core.editing import new_case
from referee_app.store.pairs_csv import PairRow
from referee_app.store.service import Actor, Store

chief = Actor("裁判长", "desk")
with Store.open(sys.argv[1], create=True, actor=chief) as s:
    ev = s.create_event(name="大厅", rulebook=load_rulebook("gansu-2018"), date=None, actor=chief)
    s.import_pairs(ev.id, [PairRow(i, str(i), f"甲{i}", f"乙{i}", None) for i in range(1, 5)], actor=chief, source="t")
    for t in (1, 2):
        case = dict(new_case(ev.rulebook_id, "E"), round=1, table=t, pairs={"NS": str(2 * t - 1), "EW": str(2 * t)})
        s.record(ev.id, case, actor=chief, lang="zh", expected_version=0)
    where = s.where
settings = QSettings("referee-app", "referee-app")
settings.setValue("place/" + Drafts(where).prefix + "/event", ev.id)
settings.sync()
"""

#: The app with the hall's cards' paints counted, printed when it ends.
COUNT_CARD_PAINTS = """
import sys
from referee_app.launcher import main
from referee_app.gui import hall

painted = []
paint = hall.TableCard.paintEvent

def counted(self, event):
    paint(self, event)
    painted.append(self.record.table)

hall.TableCard.paintEvent = counted
code = main(["--db", sys.argv[1]])
print("PAINTED", *sorted(set(painted)), flush=True)
sys.exit(code)
"""


def test_ready_quits_once_the_hall_it_reopened_has_painted_its_tables(tmp_path: Path) -> None:
    """REFEREE_APP_EXIT_WHEN_IDLE=ready (bench_window.py's ready rows) ends the window only
    after what the station shows is painted: the hall of the event it was in, with its tables."""
    import os
    import subprocess

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_STATE_HOME=str(tmp_path / "state"))
    env |= {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    db = str(tmp_path / "hall.sqlite")
    made = subprocess.run(
        [sys.executable, "-c", HALL_STATION, db], env=env, capture_output=True, text=True, timeout=120
    )
    assert made.returncode == 0, made.stderr
    done = subprocess.run(
        [sys.executable, "-c", COUNT_CARD_PAINTS, db],
        env=env | {"REFEREE_APP_EXIT_WHEN_IDLE": "ready"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["PAINTED", "1", "2"], done.stdout


# -- the events at a glance while the store's code loads (app/glance.py, gui/app.StoreLoader) -----


def _two_events(db: Path) -> list[int]:
    from referee_app.app.session import Session
    from referee_app.core.rulebook import load_rulebook
    from referee_app.store.service import Actor, Store

    chief = Actor("裁判长", "desk")
    with Store.open(str(db), create=True, actor=chief) as store:
        return [
            Session.create_event(store, name, load_rulebook(rules), "2026-12-07", chief).id
            for name, rules in (("春季赛", "gansu-2018"), ("秋季赛", "bhg-2011"))
        ]


@pytest.mark.parametrize("loading", [False, True], ids=["chosen before the store loaded", "while it loads"])
def test_events_at_a_glance_are_chosen_from_and_the_choice_opens_the_store(
    qtbot, tmp_path: Path, loading: bool
) -> None:
    """The window lists the events read at a glance before the store's code has loaded; a
    referee's choice made meanwhile stands, and 打开赛事 opens that event (waiting for the store
    if it is still loading)."""
    from PySide6.QtCore import Qt

    from referee_app.app.glance import glance_store
    from referee_app.app.store import Actor, Store, open_store
    from referee_app.gui.app import StoreLoader
    from referee_app.gui.i18n import Language
    from referee_app.gui.main_window import MainWindow

    db = tmp_path / "event.sqlite"
    spring, autumn = _two_events(db)
    window = MainWindow(Language("zh"))
    qtbot.addWidget(window)
    window.show()
    stores: list[Store] = []
    actor = Actor("裁判一", "station-1")

    def opened() -> None:
        stores.append(open_store(str(db), actor=actor))
        window.use_store(stores[-1], actor)

    loader = StoreLoader(opened, QApplication.instance())
    window.settings.setValue("last_event", autumn)  # the station's last event: the other one
    glance = glance_store(str(db))
    assert glance is not None
    window.show_glance(glance.where, glance.events, loader.finish)
    events = window.welcome.events
    assert window.store is None and events.count() == 2 and window.welcome.open_button.isEnabled()
    assert "秋季赛" in events.currentItem().text()  # the station's last, as the store would choose
    first = events.item(0)
    qtbot.mouseClick(events.viewport(), Qt.MouseButton.LeftButton, pos=events.visualItemRect(first).center())
    assert events.currentItem() is first
    if loading:
        loader.start()
        qtbot.waitUntil(lambda: window.store is not None, timeout=30_000)
        assert "春季赛" in events.currentItem().text()  # the choice survived the store's own listing
    try:
        qtbot.mouseClick(window.welcome.open_button, Qt.MouseButton.LeftButton)
        assert window.store is not None and window.session is not None
        assert window.session.event.id == spring
    finally:
        window._close_event()
        for store in stores:
            store.close()


LISTED_SCRIPT = """
import sys
from referee_app.launcher import main
code = main(["--db", sys.argv[1]])
print("LOADED", *sorted(m for m in ("sqlalchemy", "referee_app.store.service") if m in sys.modules))
sys.exit(code)
"""


def test_listed_at_a_glance_the_window_has_not_loaded_sqlalchemy_nor_touched_the_store(
    tmp_path: Path,
) -> None:
    """REFEREE_APP_EXIT_WHEN_IDLE=listed (bench_window.py's glance row) quits once the events
    read at a glance are painted: by then no SQLAlchemy is loaded and the store's folder is as
    it was (the glance opened the file read-only, immutable with no -wal there)."""
    import hashlib
    import os
    import sqlite3
    import subprocess

    db = tmp_path / "store" / "event.sqlite"
    db.parent.mkdir()
    _two_events(db)
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in db.parent.iterdir()}
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_STATE_HOME=str(tmp_path / "state"))
    env |= {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    done = subprocess.run(
        [sys.executable, "-c", LISTED_SCRIPT, str(db)],
        env=env | {"REFEREE_APP_EXIT_WHEN_IDLE": "listed"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["LOADED"], done.stdout
    assert {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in db.parent.iterdir()} == before
    log = (tmp_path / "state" / "referee-app" / "log" / "referee-app.log").read_text(encoding="utf-8")
    assert "events listed at a glance (2)" in log
