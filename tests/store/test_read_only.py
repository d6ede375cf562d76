"""Commands that only read (issue 24, items 5 and 6): they open the store read-only, work on
read-only media, and never create, upgrade or change a file, whatever the file is."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from store_helpers import cli, sql

from referee_app.store.db import SCHEMA_VERSION
from referee_app.store.service import Store

ROOT = Path(__file__).resolve().parents[2]
READERS = (
    ("event", "list"),
    ("verify",),
    ("log",),
    ("export",),
    ("pairs", "list"),
    ("anchor",),
    ("standings",),
    ("clock", "show", "--round", "1"),  # opened the store to write (issue 24 audit)
    ("appeal", "list"),
    ("role", "status"),
)


def _state(folder: Path) -> dict[str, tuple[str, int]]:
    """Every file of ``folder``: its digest and mtime (a reader changes neither, adds none)."""
    return {
        p.name: (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
        for p in sorted(folder.iterdir())
    }


def _closed_copy(event_db: str, folder: Path) -> Path:
    """The store copied as a hall would carry it: checkpointed, one file, no -wal/-shm."""
    folder.mkdir()
    con = sqlite3.connect(event_db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    target = folder / "event.db"
    shutil.copyfile(event_db, target)
    return target


def _set_version(path: Path, version: int) -> None:
    """The stored schema version changed behind the app's back (its guard dropped first)."""
    con = sqlite3.connect(path)
    for trigger in ("store_meta_only_upgrades", "store_meta_valid_version"):
        con.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    con.execute("UPDATE store_meta SET value = ? WHERE key = 'schema_version'", (str(version),))
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)


@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
def test_a_reader_connection_refuses_writes(event_db: str) -> None:
    with Store.open(event_db, read_only=True) as store, store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA query_only").scalar() == 1
        with pytest.raises(Exception, match="readonly|read-only|query_only"):
            conn.exec_driver_sql("CREATE TABLE intruder (x)")
    assert sql(event_db, "SELECT count(*) FROM sqlite_master WHERE name = 'intruder'")[0][0] == 0


def test_a_reader_on_postgresql_refuses_writes(pg_db: str) -> None:
    assert cli(pg_db, "event", "create", "--rules", "bhg-2011", "--name", "只读")[0] == 0
    with Store.open(pg_db, read_only=True) as store, store.engine.connect() as conn:
        with pytest.raises(Exception, match="read-only transaction"):
            conn.exec_driver_sql("CREATE TABLE intruder (x int)")
    rc, out, err = cli(pg_db, "verify")
    assert rc == 0, err


@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
def test_readers_on_a_read_only_mount(event_db: str, tmp_path: Path) -> None:
    """A store on read-only media (a USB stick mounted read-only, a CD): every reader works
    and no -wal/-shm appears. Run in a user and mount namespace with a read-only bind mount,
    which refuses writes to root too."""
    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1) here")
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"no user namespaces here: {probe.stderr.decode(errors='replace').strip()}")
    stick = tmp_path / "stick"
    store = _closed_copy(event_db, stick)
    before = _state(stick)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for args in READERS:
        command = [sys.executable, "-m", "referee_app", "--lang", "en", "--db", str(store), *args]
        script = f'mount --bind -o ro "{stick}" "{stick}" && exec "$@"'
        run = subprocess.run(
            ["unshare", "-rm", "sh", "-c", script, "sh", *command], capture_output=True, text=True, env=env
        )
        assert run.returncode == 0, (args, run.stderr)
        assert "Traceback" not in run.stderr
    assert _state(stick) == before  # the same files, bytes and times: nothing was written


@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
def test_readers_with_a_read_only_file_and_folder(event_db: str, tmp_path: Path) -> None:
    stick = tmp_path / "stick"
    store = _closed_copy(event_db, stick)
    store.chmod(0o444)
    stick.chmod(0o555)
    try:
        before = _state(stick)
        for args in READERS:
            rc, out, err = cli(str(store), *args)
            assert rc == 0, (args, err)
        after = _state(stick)
        assert after["event.db"] == before["event.db"]  # the store's bytes and time
        if os.geteuid() != 0:  # root may write the folder anyway: the mount test covers it
            assert after == before
    finally:
        stick.chmod(0o755)
        store.chmod(0o644)


@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
def test_readers_change_no_file_whatever_it_is(event_db: str, tmp_path: Path) -> None:
    """A 0-byte file, a file that is not a database, a store one version older, one newer:
    each reader says which in one line, exit 2, and leaves the folder exactly as it was."""
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "event.db").write_bytes(b"")
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "event.db").write_bytes(b"SQLite format 2\0" + bytes(range(256)) * 20)
    older = tmp_path / "older"
    _set_version(_closed_copy(event_db, older), SCHEMA_VERSION - 2)
    newer = tmp_path / "newer"
    _set_version(_closed_copy(event_db, newer), SCHEMA_VERSION + 1)
    said = {
        empty: "an empty file, not a referee-app database",
        junk: "not a referee-app database",
        older: f"schema version {SCHEMA_VERSION - 2} and this referee-app uses version {SCHEMA_VERSION}",
        newer: f"schema version {SCHEMA_VERSION + 1} was written by a newer referee-app",
    }
    for folder, words in said.items():
        before = _state(folder)
        for args in READERS:
            rc, out, err = cli(str(folder / "event.db"), *args)
            assert rc == 2 and out == "" and err.count("\n") == 1, (folder.name, args, err)
            assert words in err and "Traceback" not in err, (folder.name, args, err)
        assert _state(folder) == before, folder.name
    # the older store is named with the command that upgrades it, and that command does
    rc, _, err = cli(str(older / "event.db"), "verify")
    assert "db upgrade" in err and str(older / "event.db") in err
    assert cli(str(older / "event.db"), "db", "upgrade")[0] == 0
    assert cli(str(older / "event.db"), "verify")[0] == 0
    rc, _, err = cli(str(older / "event.db"), "verify", lang="zh")
    assert rc == 0, err


# -- the window's glance at the events (store/sqlitefile.py, no SQLAlchemy) ------------------------


@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
def test_a_glance_lists_the_events_the_store_lists_and_changes_nothing(event_db: str, tmp_path: Path) -> None:
    from referee_app.app.glance import glance_store

    assert cli(event_db, "event", "create", "--rules", "gansu-2018", "--name", "第二站")[0] == 0
    closed = _closed_copy(event_db, tmp_path / "hall")
    before = _state(closed.parent)
    glance = glance_store(str(closed))
    assert _state(closed.parent) == before  # no -wal or -shm left, nothing rewritten
    assert glance is not None and glance.where == str(closed)
    with Store.open(str(closed), read_only=True) as store:
        assert glance.events == store.list_events()  # one reading of the events, both ways
    assert [e.name for e in glance.events] == ["测试杯", "第二站"]
    # while another connection has the store open (its -wal there), the glance reads it too
    assert glance_store(event_db) is not None and len(glance_store(event_db).events) == 2  # type: ignore[union-attr]


@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
def test_a_glance_leaves_every_other_store_to_the_full_open(event_db: str, tmp_path: Path) -> None:
    """Whatever the full open would upgrade, refuse or create is not glanced at: the glance
    is None and the file is as it was (the window then opens it the full way, which says why)."""
    from referee_app.app.glance import glance_store

    older = _closed_copy(event_db, tmp_path / "older")
    _set_version(older, SCHEMA_VERSION - 1)
    newer = _closed_copy(event_db, tmp_path / "newer")
    _set_version(newer, SCHEMA_VERSION + 1)
    loose = tmp_path / "loose"
    loose.mkdir()
    empty = loose / "empty.db"
    empty.write_bytes(b"")
    text = loose / "pairs.csv"
    text.write_text("number,player1\n1,张三\n", encoding="utf-8")
    other = loose / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE events (id INTEGER)")
    con.commit()
    con.close()
    folders = {p: _state(p.parent) for p in (older, newer, empty, text, other)}
    for target in (older, newer, empty, text, other, loose / "missing.db", loose):
        assert glance_store(str(target)) is None, target
    assert glance_store("postgresql+psycopg://referee@127.0.0.1:1/none") is None
    assert {p: _state(p.parent) for p in folders} == folders
    assert not (loose / "missing.db").exists()
