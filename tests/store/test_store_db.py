"""Opening databases: location, settings, schema versions, refusals that change nothing."""

from __future__ import annotations

import errno
import hashlib
import json
import os
from pathlib import Path

import pytest
from store_helpers import cli, count_entries, make_case, refused, sql, write_json

from referee_app.core.rulebook import load_rulebook
from referee_app.store.db import SCHEMA_VERSION, make_engine, migrate, resolve_target
from referee_app.store.pairs_csv import parse_pairs
from referee_app.store.service import Actor, Store


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("old_version", range(1, SCHEMA_VERSION))
def test_older_schema_is_upgraded_on_open(db: str, tmp_path: Path, old_version: int) -> None:
    url, _ = resolve_target(db)
    engine = make_engine(url)
    assert migrate(engine, create=True, user="old", station="s0", where=db, target=old_version) == old_version
    old = Store(engine)
    actor = Actor("老版本", "s0")
    ev = old.create_event(name="旧赛事", rulebook=load_rulebook("bhg-2011"), date=None, actor=actor)
    old.import_pairs(
        ev.id,
        parse_pairs("number,player1,player2\n1,张三,李四\n2,王五,赵六\n"),
        actor=actor,
        source="p.csv",
    )
    rec = old.record(ev.id, make_case(), actor=actor, lang="en")
    old.close()
    assert sql(db, "SELECT value FROM store_meta")[0][0] == str(old_version)

    # a command that only reads refuses it, named, and changes nothing (issue 24, item 6)
    rc, out, err = cli(db, "log")
    assert rc == 2 and f"schema version {old_version} and this referee-app uses" in err
    assert sql(db, "SELECT value FROM store_meta")[0][0] == str(old_version)
    assert cli(db, "db", "upgrade")[0] == 0
    rc, out, err = cli(db, "log")
    assert rc == 0, err
    assert f"upgraded the database schema from version {old_version} to {SCHEMA_VERSION}" in out
    assert sql(db, "SELECT value FROM store_meta")[0][0] == str(SCHEMA_VERSION)
    assert cli(db, "verify")[0] == 0
    # version 10: the desk reads the old match's result (on PostgreSQL, the column the
    # upgrade took out of its decision)
    decision = json.loads(sql(db, "SELECT decision_json FROM matches WHERE id = 1")[0][0])
    with Store.open(db) as again:
        assert again.current_results(ev.id)[0]["result"] == decision["result"]
    # the upgraded database works: voidings (added in version 2) and the old match
    rc, _, err = cli(db, "void", "--round", "1", "--table", "1", "--reason", "重赛")
    assert rc == 0, err
    rc, out, _ = cli(db, "log", "--round", "1", lang="zh")
    assert "记录 第 1 轮 第 1 桌 第 1 版" in out and "作废" in out
    assert rec.match_id == 1
    # version 3 guards: the upgraded database refuses a change in place
    assert "matches is append-only" in refused(db, "UPDATE matches SET table_no = 5")


def test_newer_schema_is_refused_and_left_unchanged(event_db: str, tmp_path: Path) -> None:
    sql(event_db, "UPDATE store_meta SET value = '99' WHERE key = 'schema_version'")
    entries = len(sql(event_db, "SELECT seq FROM audit_log"))
    is_file = "://" not in event_db
    before = _digest(Path(event_db)) if is_file else None
    f = write_json(tmp_path / "a.json", make_case())
    for args in (
        ("verify",),
        ("record", f),
        ("event", "create", "--rules", "bhg-2011", "--name", "x"),
        ("log",),
    ):
        rc, out, err = cli(event_db, *args)
        assert rc == 2 and out == "" and err.count("\n") == 1, (args, err)
        assert "schema version 99 was written by a newer referee-app" in err
        assert f"reads up to version {SCHEMA_VERSION}" in err and "not changed" in err
    assert sql(event_db, "SELECT value FROM store_meta")[0][0] == "99"
    assert len(sql(event_db, "SELECT seq FROM audit_log")) == entries
    if is_file:
        assert _digest(Path(event_db)) == before


def test_sqlite_connection_settings(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    assert cli(db, "event", "create", "--rules", "bhg-2011", "--name", "E")[0] == 0
    with Store.open(db) as store, store.engine.connect() as conn:

        def pragma(name: str) -> object:
            return conn.exec_driver_sql(f"PRAGMA {name}").scalar()

        assert pragma("journal_mode") == "wal"
        assert pragma("synchronous") == 2  # FULL
        assert pragma("foreign_keys") == 1
        assert pragma("busy_timeout") == 30000


def test_default_location_and_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rc, out, err = cli(None, "event", "create", "--rules", "bhg-2011", "--name", "默认")
    assert rc == 0, err
    assert (tmp_path / "xdg-data" / "referee-app" / "referee.db").is_file()
    monkeypatch.setenv("REFEREE_APP_DB", str(tmp_path / "env.db"))
    assert cli(None, "event", "create", "--rules", "bhg-2011", "--name", "环境")[0] == 0
    assert (tmp_path / "env.db").is_file()
    rc, out, _ = cli(None, "event", "list")
    assert "环境" in out and "默认" not in out
    rc, out, _ = cli(str(tmp_path / "xdg-data" / "referee-app" / "referee.db"), "event", "list")
    assert "默认" in out  # --db wins over the environment


def _unwritable_folder(tmp_path: Path) -> Path:
    """A folder in which this process cannot create a file."""
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    candidates = [folder, Path("/sys"), Path("/proc/sys")]
    for c in candidates:
        try:
            fd = os.open(c / "probe.db", os.O_CREAT | os.O_WRONLY, 0o644)
        except OSError as err:
            if err.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                return c
            continue
        os.close(fd)
        os.unlink(c / "probe.db")
    pytest.skip("no folder here refuses file creation to this user (root without a read-only mount)")


def test_database_in_a_read_only_folder(tmp_path: Path) -> None:
    folder = _unwritable_folder(tmp_path)
    db = str(folder / "event.db")
    try:
        rc, out, err = cli(db, "event", "create", "--rules", "bhg-2011", "--name", "x")
    finally:
        (tmp_path / "ro").chmod(0o755)
    assert rc == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert db in err and "cannot create the database" in err
    assert not Path(db).exists()


def test_refusals_that_change_nothing(tmp_path: Path) -> None:
    junk = tmp_path / "notes.db"
    junk.write_text("not a database", encoding="utf-8")
    rc, _, err = cli(str(junk), "verify")
    assert rc == 2 and "not a referee-app database" in err and err.count("\n") == 1
    assert junk.read_text(encoding="utf-8") == "not a database"

    missing = tmp_path / "missing.db"
    case = write_json(tmp_path / "c.json", make_case())
    for args in (("verify",), ("export",), ("log",), ("record", case)):
        rc, _, err = cli(str(missing), *args)
        assert rc == 2 and "no database here" in err, (args, err)
    assert not missing.exists()
    rc, _, err = cli(
        str(tmp_path / "nofolder" / "x.db"), "event", "create", "--rules", "bhg-2011", "--name", "x"
    )
    assert rc == 2 and "does not exist" in err

    rc, _, err = cli(str(tmp_path / "e.db"), "event", "create", "--rules", "no-such-book", "--name", "x")
    assert rc == 2 and "--rules: no-such-book" in err
    assert not (tmp_path / "e.db").exists()
    rc, _, err = cli(
        str(tmp_path / "e.db"),
        "event",
        "create",
        "--rules",
        "bhg-2011",
        "--name",
        "x",
        "--date",
        "2026-13-01",
    )
    assert rc == 2 and "--date: expected YYYY-MM-DD" in err


def test_unreachable_server_is_one_line() -> None:
    url = "postgresql+psycopg://referee:secret@127.0.0.1:1/referee_test"
    rc, out, err = cli(url, "verify")
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert "127.0.0.1" in err and "secret" not in err


def test_several_events_need_event_option(tmp_path: Path) -> None:
    db = str(tmp_path / "two.db")
    assert cli(db, "event", "create", "--rules", "bhg-2011", "--name", "甲")[0] == 0
    assert cli(db, "event", "create", "--rules", "gansu-2018", "--name", "乙")[0] == 0
    rc, _, err = cli(db, "export")
    assert rc == 2 and "several events (1: 甲, 2: 乙); name one with --event" in err
    assert cli(db, "export", "--event", "2") == (0, "", "")
    rc, _, err = cli(db, "export", "--event", "7")
    assert rc == 2 and "no event 7" in err
    assert count_entries(db) == 3
