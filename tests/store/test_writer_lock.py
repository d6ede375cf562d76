"""Issue 24 item 1: on PostgreSQL the writers' lock is one only a writer can take, and a
stuck lock is a clear one-line error within seconds, never a hang."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from conftest import _need_pg
from store_helpers import PAIRS_CSV, cli, cli_within, count_entries, make_case, write_json

from referee_app.store import audit, pgroles


@pytest.fixture
def logins() -> Iterator[list[str]]:
    """Login names the test creates, dropped afterwards (list it before ``pg_db``)."""
    base = _need_pg()
    made: list[str] = []
    yield made
    eng = sa.create_engine(base)
    with eng.begin() as conn:
        for name in made:
            if conn.execute(sa.text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": name}).first():
                conn.execute(sa.text(f"DROP ROLE {name}"))
    eng.dispose()


def _event(pg_db: str, tmp_path: Path) -> None:
    assert cli(pg_db, "event", "create", "--rules", "bhg-2011", "--name", "杯")[0] == 0
    (tmp_path / "p.csv").write_text(PAIRS_CSV, encoding="utf-8")
    assert cli(pg_db, "pairs", "import", str(tmp_path / "p.csv"))[0] == 0


def test_an_advisory_lock_held_by_any_login_no_longer_stalls_a_save(
    logins: list[str], pg_db: str, tmp_path: Path
) -> None:
    _event(pg_db, tmp_path)
    # a login with no rights on the store at all (the attack of issue 24)
    name = "nobody_" + uuid.uuid4().hex[:8]
    logins.append(name)
    owner = sa.create_engine(pg_db)
    with owner.begin() as conn:
        conn.execute(sa.text(f"CREATE ROLE {name} LOGIN PASSWORD 'pw'"))
    other = sa.create_engine(pgroles.station_url(pg_db, name, "pw"))
    with other.connect() as holder:
        got = holder.execute(sa.text("SELECT pg_try_advisory_lock(:k)"), {"k": audit.PG_WRITE_LOCK})
        assert got.scalar() is True
        before = count_entries(pg_db)
        done: list[tuple[int, str, str]] = []
        save = threading.Thread(
            target=lambda: done.append(cli(pg_db, "record", write_json(tmp_path / "a.json", make_case())))
        )
        save.start()
        save.join(30)
        stalled = save.is_alive()
        holder.execute(sa.text("SELECT pg_advisory_unlock_all()"))  # let a stalled save end
        save.join()
        assert not stalled, "the save waited on a lock any login can take"
        assert done[0][0] == 0, done
        assert count_entries(pg_db) == before + 1
    other.dispose()
    owner.dispose()


def test_a_held_writer_lock_fails_the_save_with_one_clear_line(pg_db: str, tmp_path: Path) -> None:
    _event(pg_db, tmp_path)
    eng = sa.create_engine(pg_db)
    before = count_entries(pg_db)
    with eng.connect() as holder:
        holder.execute(sa.text(f"LOCK TABLE {audit.PG_WRITER_LOCK_TABLE} IN EXCLUSIVE MODE"))
        for lang, words in (("en", "another connection has held the writers' lock"), ("zh", "写入锁")):
            rc, out, err = cli(pg_db, "record", write_json(tmp_path / "a.json", make_case()), lang=lang)
            assert rc == 2, (rc, out, err)  # refused, nothing changed (docs/exit-codes.md)
            assert words in err and err.count("\n") == 1, err
            assert "Traceback" not in err and "internal error" not in err
        # a write through the SQLAlchemy path (not the save's pipeline) is refused the same way
        rc, out, err = cli(pg_db, "event", "create", "--rules", "bhg-2011", "--name", "第二")
        assert rc == 2 and "writers' lock" in err and err.count("\n") == 1, err
        holder.rollback()
    eng.dispose()
    assert count_entries(pg_db) == before
    # the lock let go, the same save goes through
    assert cli(pg_db, "record", write_json(tmp_path / "a.json", make_case()))[0] == 0


def test_only_a_station_login_may_take_the_writer_lock(
    logins: list[str], pg_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _event(pg_db, tmp_path)
    station, plain = "station_" + uuid.uuid4().hex[:8], "plain_" + uuid.uuid4().hex[:8]
    logins += [station, plain]
    monkeypatch.setenv("REFEREE_APP_STATION_DB_PASSWORD", "pw")
    rc, out, err = cli(pg_db, "db", "setup-roles", "--station-login", station)
    assert rc == 0 and "GRANT UPDATE ON" in out and audit.PG_WRITER_LOCK_TABLE in out, err
    owner = sa.create_engine(pg_db)
    with owner.begin() as conn:
        schema = conn.execute(sa.text("SELECT current_schema()")).scalar_one()
        conn.execute(sa.text(f"CREATE ROLE {plain} LOGIN PASSWORD 'pw'"))
        # even one that may read the store (and use its schema) cannot take the lock
        conn.execute(sa.text(f"GRANT USAGE ON SCHEMA {schema} TO {plain}"))
        conn.execute(sa.text(f"GRANT SELECT ON ALL TABLES IN SCHEMA {schema} TO {plain}"))
    owner.dispose()

    def take(login: str, statement: str) -> str:
        eng = sa.create_engine(pgroles.station_url(pg_db, login, "pw"))
        try:
            with eng.begin() as conn:
                conn.execute(sa.text(statement))
            return "taken"
        except sa.exc.DBAPIError as err:
            return str(err.orig).splitlines()[0]
        finally:
            eng.dispose()

    lock = f"LOCK TABLE {audit.PG_WRITER_LOCK_TABLE} IN EXCLUSIVE MODE"
    for statement in (
        lock,
        f"LOCK TABLE {audit.PG_WRITER_LOCK_TABLE} IN ROW EXCLUSIVE MODE",
        f"SELECT * FROM {audit.PG_WRITER_LOCK_TABLE} FOR UPDATE",
    ):
        assert "permission denied" in take(plain, statement), statement
    assert take(station, lock) == "taken"
    # the table stays empty: a station may lock it, not fill it
    assert "permission denied" in take(station, f"INSERT INTO {audit.PG_WRITER_LOCK_TABLE} VALUES (1)")
    # and the station records through it
    url = pgroles.station_url(pg_db, station, "pw")
    assert cli(url, "record", write_json(tmp_path / "a.json", make_case()))[0] == 0


def test_an_upgraded_store_gives_its_existing_stations_the_lock(
    logins: list[str], pg_db: str, tmp_path: Path
) -> None:
    from referee_app.store.db import make_engine, migrate

    station = "station_" + uuid.uuid4().hex[:8]
    logins.append(station)
    eng = make_engine(pg_db)
    migrate(eng, create=True, user="owner", station="desk", where="test", target=11)
    with eng.begin() as conn:
        pgroles.setup_station_login(conn, station, "pw", lambda _line: None)
    eng.dispose()
    assert cli(pg_db, "db", "upgrade")[0] == 0
    _event(pg_db, tmp_path)
    url = pgroles.station_url(pg_db, station, "pw")
    rc, out, err = cli(url, "record", write_json(tmp_path / "a.json", make_case()))
    assert rc == 0, err


def test_a_server_that_accepts_and_never_answers_is_one_line_within_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A port that takes the connection and says nothing (a hung server, a hostile host)
    held ``record`` and ``verify`` for ever: libpq has no connect timeout unless given one."""
    import socket

    from referee_app.store import db

    monkeypatch.setattr(db, "PG_CONNECT_TIMEOUT_S", 1)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # accepted by the kernel, never answered
        url = f"postgresql+psycopg://station:pw@127.0.0.1:{silent.getsockname()[1]}/hall"
        case = write_json(tmp_path / "a.json", make_case())
        for args in (("record", case), ("verify",)):
            started = time.monotonic()
            rc, out, err = cli_within(20, url, *args)
            assert rc == 2 and out == "" and err.count("\n") == 1, (args, rc, err)
            assert "timeout expired" in err and "station:***@" in err, err
            assert time.monotonic() - started < 10
