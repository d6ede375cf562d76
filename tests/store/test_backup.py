"""Backups and restores (issue 24 item 9): ``referee-app backup`` copies a store while another
process writes to it, and the copy verifies; ``restore`` makes a store again from one, and
refuses — one line, exit 2, nothing changed — a file that is not a store or does not verify,
a target already there without ``--force``, and a store another process has open."""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from store_helpers import PAIRS_CSV, cli, count_entries, make_case, sql

from tests.needs import missing

WORKERS = Path(__file__).resolve().parent / "store_workers.py"


@pytest.fixture
def sqlite_event(tmp_path: Path) -> str:
    """An SQLite store with one event and its pairs: for what does not depend on the kind of
    database (the backup file's checks, the role check, the output file)."""
    db = str(tmp_path / "event.db")
    assert cli(db, "event", "create", "--rules", "bhg-2011", "--name", "测试杯")[0] == 0
    (tmp_path / "pairs.csv").write_text(PAIRS_CSV, encoding="utf-8")
    assert cli(db, "pairs", "import", str(tmp_path / "pairs.csv"))[0] == 0
    return db


def _record(db: str, n: int, start: int = 1) -> None:
    for i in range(start, start + n):
        rc, _out, err = cli(db, "record", "-", stdin=_case_text(i))
        assert rc == 0, err


def _case_text(i: int) -> str:
    import json

    table = (i - 1) % 4 + 1
    return json.dumps(make_case((i - 1) // 4 + 1, table, str(2 * table - 1), str(2 * table)))


def _digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _head(db: str) -> tuple[int, str]:
    rc, out, err = cli(db, "verify")
    assert rc == 0, err
    last = out.strip().splitlines()[-1]
    return int(last.split(":")[1].split()[0]), last.rsplit(" ", 1)[-1]


def test_a_backup_taken_while_another_process_writes_in_a_loop_verifies(
    event_db: str, tmp_path: Path
) -> None:
    from referee_app.store.service import Store

    before = count_entries(event_db)
    if "://" not in event_db:
        # the window's way of holding the file open, as while it runs
        from referee_app.store.walholder import WalHolder

        holder = WalHolder.start(event_db, wait=True)
        assert holder is not None
    else:
        holder = None
    writer = subprocess.Popen(
        [sys.executable, str(WORKERS), "crash", event_db, "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out = tmp_path / "copy.db"
    try:
        assert writer.stdout is not None
        for _ in range(2):  # the writer is writing
            assert writer.stdout.readline().startswith("saved "), writer.stderr
        rc, said, err = cli(event_db, "backup", "--out", str(out))
        assert rc == 0, err
        assert "verified" in said
        for _ in range(2):  # and goes on writing after the copy
            assert writer.poll() is None and writer.stdout.readline().startswith("saved ")
    finally:
        writer.kill()
        writer.wait()
        if holder is not None:
            holder.stop()
    rc, said, err = cli(str(out), "verify")
    assert rc == 0, err
    copied = int(said.strip().splitlines()[-1].split(":")[1].split()[0])
    assert not Path(str(out) + "-wal").exists()  # one file
    # taken in the middle of the writes: after some, before others
    assert before + 2 <= copied < count_entries(event_db) - 1
    # the backup is named in the store's log with the copy's head (its anchor)
    with Store.open(event_db) as store:
        noted = [e for e in store.log() if e["action"] == "store.backup"]
    assert len(noted) == 1 and f'"entries":{copied}' in noted[0]["payload"].replace(" ", "")


def test_restore_round_trip_gives_the_same_record_and_says_so_in_the_log(
    event_db: str, tmp_path: Path
) -> None:
    _record(event_db, 2)
    out = tmp_path / "event.bak"
    rc, said, err = cli(event_db, "backup", "--out", str(out))
    assert rc == 0, err
    backed_n, backed_head = _head(str(out))
    rc, before, err = cli(event_db, "export")
    assert rc == 0, err
    _record(event_db, 1, start=3)  # after the backup: lost by restoring it
    rc, _o, err = cli(event_db, "restore", "--from", str(out), "--force")
    assert rc == 0, err
    rc, after, err = cli(event_db, "export")
    assert rc == 0, err
    assert after == before
    n, _h = _head(event_db)
    assert n == backed_n + 1  # the restore's own entry, after the copy's chain
    from referee_app.store.service import Store

    with Store.open(event_db) as store:
        last = store.log()[-1]
    assert last["action"] == "store.restore"
    assert backed_head in last["payload"]
    rc, log, err = cli(event_db, "log", lang="zh")
    assert rc == 0 and f"从备份 {out} 恢复" in log and "替换了原有的" in log, err
    # the store goes on: a new record after the restore
    _record(event_db, 1, start=3)
    assert _head(event_db)[0] == n + 1


def test_a_backup_of_sqlite_restores_into_a_new_postgresql_store(
    sqlite_event: str, tmp_path: Path, pg_db: str
) -> None:
    """One backup format: an SQLite store's copy made again on the server (the other way,
    PostgreSQL to a file, is every PostgreSQL backup above)."""
    _record(sqlite_event, 1)
    out = tmp_path / "event.bak"
    assert cli(sqlite_event, "backup", "--out", str(out))[0] == 0
    rc, before, err = cli(sqlite_event, "export")
    rc, said, err = cli(None, "restore", "--from", str(out), "--store", pg_db)
    assert rc == 0, err
    assert "verified" in said
    assert cli(pg_db, "export")[1] == before
    _record(pg_db, 1, start=2)  # ids and sequences go on after the copied rows
    assert cli(pg_db, "verify")[0] == 0


def test_restore_refuses_what_it_must_with_one_line_and_nothing_changed(
    sqlite_event: str, tmp_path: Path
) -> None:
    event_db = sqlite_event
    good = tmp_path / "good.bak"
    assert cli(event_db, "backup", "--out", str(good))[0] == 0
    target = tmp_path / "target.db"
    assert cli(None, "restore", "--from", str(good), "--store", str(target))[0] == 0
    target_digest = _digest(str(target))

    not_ours = tmp_path / "notes.txt"
    not_ours.write_text("我的笔记\n", encoding="utf-8")
    other_db = tmp_path / "other.sqlite"
    import sqlite3

    con = sqlite3.connect(other_db)
    con.execute("create table t(a)")
    con.commit()
    con.close()
    tampered = tmp_path / "tampered.bak"
    shutil.copy(good, tampered)
    sql(str(tampered), "DROP TRIGGER events_no_update")
    sql(str(tampered), "UPDATE events SET name = '另一个杯'")
    cases = {
        "no file": (str(tmp_path / "missing.bak"), str(tmp_path / "new1.db"), [], "no backup file"),
        "text": (str(not_ours), str(tmp_path / "new2.db"), [], "not a referee-app store"),
        "other program": (str(other_db), str(tmp_path / "new3.db"), [], "not a referee-app store"),
        "tampered": (str(tampered), str(tmp_path / "new4.db"), [], "does not pass verify"),
        "exists": (str(good), str(target), [], "already there"),
    }
    for name, (source, dest, extra, says) in cases.items():
        rc, out, err = cli(None, "restore", "--from", source, "--store", dest, *extra)
        assert rc == 2, (name, err)
        assert len(err.strip().splitlines()) == 1 and says in err, (name, err)
        assert "Traceback" not in err and out == ""
        if dest != str(target):
            assert not Path(dest).exists(), name
    assert _digest(str(target)) == target_digest
    # Chinese, from the catalogue
    rc, _o, err = cli(None, "restore", "--from", str(good), "--store", str(target), lang="zh")
    assert rc == 2 and "已有赛事数据库" in err


def test_restore_refuses_a_store_another_process_has_open(event_db: str, tmp_path: Path) -> None:
    good = tmp_path / "good.bak"
    assert cli(event_db, "backup", "--out", str(good))[0] == 0
    _record(event_db, 1)
    before = _head(event_db)
    if "://" in event_db:
        from referee_app.store.service import Store

        window = Store.open(event_db)  # a window's store: its connection stays in the pool
        window.list_events()
        stop = window.close
    else:
        from referee_app.store.walholder import WalHolder

        held = WalHolder.start(event_db, wait=True)
        assert held is not None
        stop = held.stop
    try:
        rc, _out, err = cli(event_db, "restore", "--from", str(good), "--force")
    finally:
        stop()
    assert rc == 2 and "in use" in err and len(err.strip().splitlines()) == 1, err
    assert _head(event_db) == before


def test_backup_refuses_an_existing_file_and_a_missing_folder(sqlite_event: str, tmp_path: Path) -> None:
    event_db = sqlite_event
    there = tmp_path / "there.bak"
    there.write_text("keep me", encoding="utf-8")
    entries = count_entries(event_db)
    for out, says in ((there, "already there"), (tmp_path / "no" / "x.bak", "does not exist")):
        rc, _o, err = cli(event_db, "backup", "--out", str(out))
        assert rc == 2 and says in err and len(err.strip().splitlines()) == 1, err
    assert there.read_text(encoding="utf-8") == "keep me"
    # not even --force replaces what is not a file (as root, the rename replaced a device)
    pipe = tmp_path / "pipe.bak"
    os.mkfifo(pipe)
    rc, _o, err = cli(event_db, "backup", "--out", str(pipe), "--force")
    assert rc == 2 and "not a file" in err and len(err.strip().splitlines()) == 1, err
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
    assert count_entries(event_db) == entries
    assert cli(event_db, "backup", "--out", str(there), "--force")[0] == 0
    assert cli(str(there), "verify")[0] == 0


def test_backup_and_restore_are_the_chief_referees_on_an_event_with_pins(
    sqlite_event: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    event_db = sqlite_event
    monkeypatch.setenv("REFEREE_APP_NEW_PIN", "246810")
    assert cli(event_db, "role", "set-pin", "--role", "chief_referee")[0] == 0
    monkeypatch.setenv("REFEREE_APP_NEW_PIN", "135791")
    monkeypatch.setenv("REFEREE_APP_PIN", "246810")
    assert cli(event_db, "role", "set-pin", "--role", "table_referee")[0] == 0
    out = tmp_path / "x.bak"
    monkeypatch.setenv("REFEREE_APP_PIN", "135791")
    rc, _o, err = cli(event_db, "backup", "--out", str(out), "--role", "table_referee")
    assert rc == 2 and "chief referee" in err, err
    assert not out.exists()
    monkeypatch.setenv("REFEREE_APP_PIN", "246810")
    rc, _o, err = cli(event_db, "backup", "--out", str(out))  # the chief referee by default
    assert rc == 0, err
    monkeypatch.setenv("REFEREE_APP_PIN", "135791")
    rc, _o, err = cli(event_db, "restore", "--from", str(out), "--force", "--role", "table_referee")
    assert rc == 2 and "chief referee" in err, err


def test_the_manuals_pg_dump_drill_restores_a_store_that_verifies(pg_db: str, tmp_path: Path) -> None:
    """docs/backup.md, "PostgreSQL with the server's own tools": dump, lose the schema,
    restore, verify."""
    from urllib.parse import unquote, urlsplit

    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        missing("pg_dump or pg_restore not installed: the manual's pg_dump drill not run")
    assert cli(pg_db, "event", "create", "--rules", "bhg-2011", "--name", "演练杯")[0] == 0
    rc, before, err = cli(pg_db, "export")
    assert rc == 0, err
    parts = urlsplit(pg_db)
    schema = unquote(parts.query).split("search_path=")[1]
    server = f"postgresql://{parts.netloc}{parts.path}"
    dump = tmp_path / "hall.dump"
    subprocess.run(
        ["pg_dump", "--format=custom", f"--schema={schema}", f"--file={dump}", server],
        check=True,
        capture_output=True,
    )
    sql(pg_db, f"DROP SCHEMA {schema} CASCADE")  # the server's data lost (pg_restore makes it again)
    subprocess.run(
        ["pg_restore", "--exit-on-error", f"--dbname={server}", str(dump)], check=True, capture_output=True
    )
    rc, out, err = cli(pg_db, "verify")
    assert rc == 0 and "audit chain intact" in out, err
    assert cli(pg_db, "export")[1] == before


def test_a_rounds_end_keeps_a_verified_copy_in_the_data_folder(sqlite_event: str, tmp_path: Path) -> None:
    from referee_app.app.backups import round_copies_folder
    from referee_app.store.service import Store

    rc, _out, err = cli(sqlite_event, "round", "end", "--round", "1")
    assert rc == 0 and "verified copy" in err, err
    copies = list(round_copies_folder().glob("event-event1-round1-*.db"))
    assert len(copies) == 1 and cli(str(copies[0]), "verify")[0] == 0
    with Store.open(sqlite_event, read_only=True) as store:
        assert store.log()[-1]["action"] == "store.round_copy"
        # a copy on this computer is no anchor kept outside: the hall still reminds
        assert store.anchor_state(1).anchor_due


def test_the_windows_round_end_keeps_the_same_verified_copy(sqlite_event: str) -> None:
    """Session.end_round (the window's 记录本轮结束) ends the round as `round end` does: the
    desk record, then the copy in the data folder, logged as store.round_copy."""
    from referee_app.app.backups import round_copies_folder
    from referee_app.app.session import Session
    from referee_app.store.service import Actor, Store

    chief = Actor("裁判长", "desk-1")
    with Store.open(sqlite_event, actor=chief) as store:
        [ev] = store.list_events()
        ended = Session(store, ev, chief, "zh").end_round(1)
        assert ended.copy_error is None and ended.record["kind"] == "round_end"
        assert [e["action"] for e in store.log()[-2:]] == ["desk.round_end", "store.round_copy"]
    copies = list(round_copies_folder().glob("event-event1-round1-*.db"))
    assert [str(c) for c in copies] == [ended.copy.where]
    assert cli(ended.copy.where, "verify")[0] == 0
