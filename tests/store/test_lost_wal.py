"""Issue 10, item 1: a save the window reports must be readable by a fresh process.

SQLite's POSIX locks belong to the process: when anything in it opens and closes the
database file through another descriptor (a Qt file dialog sniffing the folder), they drop.
Another process that then connects and disconnects believes it was the last, checkpoints
and deletes ``-wal``/``-shm``; a connection still holding the old WAL writes into a deleted
file. These tests run that sequence with the app's own store and a second and third
process, and require the window's next save to be seen by the third.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from store_helpers import PAIRS_CSV, make_case

from referee_app.app.session import Session
from referee_app.core.rulebook import load_rulebook
from referee_app.store.db import wal_identity
from referee_app.store.pairs_csv import parse_pairs
from referee_app.store.service import Actor, Store

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def _other_process(db: str, code: str) -> str:
    """Run ``code`` (with ``store`` open on ``db``) in a fresh Python process; its stdout."""
    prog = (
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from referee_app.store.service import Store\n"
        f"with Store.open({db!r}) as store:\n" + "".join(f"    {line}\n" for line in code.splitlines())
    )
    done = subprocess.run(
        [sys.executable, "-c", prog], capture_output=True, text=True, timeout=120, env=os.environ.copy()
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _sniff(db: str) -> None:
    """What a file dialog showing the folder does: open, read and close every file there."""
    for f in sorted(Path(db).parent.iterdir()):
        if f.is_file():
            with open(f, "rb") as fh:
                fh.read(512)


def _window(db: str, hold: bool = False) -> Session:
    actor = Actor("张三", "table-1")
    store = Store.open(db, create=True, actor=actor, hold=hold)
    assert store.held == hold
    ev = store.create_event(name="测试杯", rulebook=load_rulebook("bhg-2011"), date=None, actor=actor)
    store.import_pairs(ev.id, parse_pairs(PAIRS_CSV), actor=actor, source="pairs.csv")
    return Session(store, ev, actor, lang="en")


def _current_version_elsewhere(db: str) -> int:
    out = _other_process(db, "h = store.history(1, 1, 1)\nprint(h[-1]['version'] if h else 0)")
    return int(out.strip())


@pytest.mark.parametrize("hold", [False, True], ids=["per-transaction", "held"])
@pytest.mark.parametrize("writes_before", [1, 3])
def test_a_save_after_another_process_closed_is_read_by_a_fresh_process(
    tmp_path: Path, writes_before: int, hold: bool
) -> None:
    db = str(tmp_path / "event.db")
    window = _window(db, hold)
    try:
        store = window.store
        for i in range(writes_before):
            store.record(1, make_case(defender_points=60 + 5 * i), actor=window.actor, lang="en")
        assert _current_version_elsewhere(db) == writes_before
        _sniff(db)  # the process's POSIX locks on the database drop here
        # another station's command connects and disconnects (it may think it was last)
        assert "测试杯" in _other_process(db, "print(store.list_events()[0].name)")
        rec = store.record(1, make_case(defender_points=85), actor=window.actor, lang="en")
        assert rec.version == writes_before + 1
        # a fresh process reads what the window reported saved
        assert _current_version_elsewhere(db) == writes_before + 1
        _sniff(db)
        rec = store.record(1, make_case(defender_points=90), actor=window.actor, lang="en")
        assert _current_version_elsewhere(db) == rec.version == writes_before + 2
    finally:
        window.store.close()
    # and after the window closed and reopened, nothing is missing and the chain holds
    with Store.open(db) as again:
        assert [h["version"] for h in again.history(1, 1, 1)] == list(range(1, writes_before + 3))
        assert again.verify().ok


def _note(store: Store, on_write: Any) -> Any:
    """A write through the store's own write path that runs ``on_write`` mid-transaction."""
    from referee_app.store import audit

    def run(conn: Any) -> int:
        on_write()
        w = audit.Writer(conn)
        w.commit_entry(user="张三", station="table-1", action="test.note", info={"n": w.seq})
        return w.seq

    return store._write(run)


def test_a_wal_removed_during_a_write_is_detected_and_the_write_redone(tmp_path: Path) -> None:
    db = str(tmp_path / "event.db")
    window = _window(db)
    calls: list[int] = []

    def lose_the_wal_once() -> None:
        calls.append(1)
        if len(calls) == 1:
            _sniff(db)
            _other_process(db, "print(len(store.list_events()))")

    try:
        before = len(window.store.log())
        seq = _note(window.store, lose_the_wal_once)
        assert len(calls) == 2  # refused on the lost WAL, run again on a fresh connection
        assert seq == before + 1
        seen = _other_process(db, "print([e['seq'] for e in store.log()][-1], store.verify().ok)")
        assert seen.split() == [str(seq), "True"]
    finally:
        window.store.close()


def test_a_wal_that_keeps_disappearing_is_refused_with_nothing_saved(tmp_path: Path) -> None:
    from referee_app.store.errors import DatabaseError

    db = str(tmp_path / "event.db")
    window = _window(db)

    def lose_the_wal() -> None:
        _sniff(db)
        _other_process(db, "print(len(store.list_events()))")

    try:
        before = len(window.store.log())
        with pytest.raises(DatabaseError, match="not saved") as err:
            _note(window.store, lose_the_wal)
        assert str(err.value).count("\n") == 0
        assert _other_process(db, "print(len(store.log()), store.verify().ok)").split() == [
            str(before),
            "True",
        ]
    finally:
        window.store.close()


# -- the window's holder process (issue 11: a save costs its commit, not a checkpoint) ------


def test_the_holder_keeps_the_wal_another_process_would_remove(tmp_path: Path) -> None:
    """The window's process loses its locks; another process connects and disconnects: with
    the holder alive it is not the last, so the WAL stays and the write runs once."""
    db = str(tmp_path / "event.db")
    window = _window(db, hold=True)
    calls: list[int] = []

    def lose_the_locks() -> None:
        calls.append(1)
        _sniff(db)
        _other_process(db, "print(len(store.list_events()))")

    try:
        wal = wal_identity(db)
        assert wal[0] is not None
        seq = _note(window.store, lose_the_locks)
        assert calls == [1]
        assert wal_identity(db) == wal
        assert _other_process(db, "print([e['seq'] for e in store.log()][-1])").strip() == str(seq)
    finally:
        window.store.close()


def test_saves_share_one_wal_while_held_and_close_checkpoints_it(tmp_path: Path) -> None:
    db = str(tmp_path / "event.db")
    window = _window(db, hold=True)
    holder = window.store._holder
    assert holder is not None
    try:
        window.store.record(1, make_case(defender_points=60), actor=window.actor, lang="en")
        wal = wal_identity(db)
        assert wal[0] is not None and wal[1] is not None
        window.store.record(1, make_case(defender_points=65), actor=window.actor, lang="en")
        assert wal_identity(db) == wal  # not removed and made again by the save
    finally:
        window.store.close()
    assert holder.process.returncode == 0
    assert not window.store.held
    assert wal_identity(db) == (None, None)  # the holder, last, checkpointed and removed it
    with Store.open(db) as again:
        assert [h["version"] for h in again.history(1, 1, 1)] == [1, 2]


def test_without_the_holder_each_save_removes_the_wal(tmp_path: Path) -> None:
    """What the holder saves a window: per command, the close of the only connection is the
    last one's, so the WAL goes (and the next save makes it again)."""
    db = str(tmp_path / "event.db")
    window = _window(db)
    try:
        window.store.record(1, make_case(defender_points=60), actor=window.actor, lang="en")
        assert wal_identity(db) == (None, None)
    finally:
        window.store.close()


def test_the_holder_ends_when_the_window_process_is_killed(tmp_path: Path) -> None:
    db = str(tmp_path / "event.db")
    _window(db).store.close()
    prog = (
        f"import os, signal, sys\nsys.path.insert(0, {str(ROOT)!r})\n"
        "from referee_app.store.service import Store\n"
        f"store = Store.open({db!r}, hold=True)\n"
        "print(store.held, flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    done = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, timeout=60)
    assert done.returncode == -9 and done.stdout.strip() == "True", done.stderr
    # the holder saw its input end and closed: the last connection removes the WAL
    deadline = time.monotonic() + 30
    while wal_identity(db) != (None, None) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert wal_identity(db) == (None, None)


def test_a_holder_that_cannot_open_the_file_is_no_holder(tmp_path: Path) -> None:
    from referee_app.store.walholder import WalHolder

    assert WalHolder.start(tmp_path / "missing.db", wait=True) is None
    assert not (tmp_path / "missing.db").exists()  # it never creates a store


def test_the_bundle_executable_runs_as_the_holder(tmp_path: Path) -> None:
    """A frozen bundle starts itself with ``HOLD_ARGUMENT``: its entry point must hold, not
    open a window."""
    from referee_app.store.walholder import HOLD_ARGUMENT, READY

    db = str(tmp_path / "event.db")
    _window(db).store.close()
    prog = (
        f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n"
        f"sys.argv = ['referee-app', {HOLD_ARGUMENT!r}, {db!r}]\n"
        "from referee_app.launcher import gui_script\nsys.exit(gui_script())\n"
    )
    child = subprocess.Popen([sys.executable, "-c", prog], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdout is not None and child.stdin is not None
    assert child.stdout.readline() == READY
    assert wal_identity(db)[1] is not None  # it has the WAL index open
    child.stdin.close()
    assert child.wait(30) == 0
