"""Issue 10 item 2: on PostgreSQL an owner login migrates, a station login only reads and
appends — it cannot update, delete, truncate or switch the append-only triggers off."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from conftest import _need_pg
from store_helpers import cli, make_case, write_json

from referee_app.store import pgroles
from referee_app.store.db import SCHEMA_VERSION, make_engine, migrate


@pytest.fixture
def station_login() -> Iterator[str]:
    """A login name, dropped afterwards. Tests list it before ``pg_db``: the schema (and with
    it every grant to the login) is dropped first, then the login."""
    base = _need_pg()
    name = "station_" + uuid.uuid4().hex[:10]
    yield name
    eng = sa.create_engine(base)
    with eng.begin() as conn:
        if conn.execute(sa.text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": name}).first():
            conn.execute(sa.text(f"DROP ROLE {name}"))
    eng.dispose()


def _refused(url: str, statement: str) -> str:
    eng = sa.create_engine(url)
    try:
        with eng.begin() as conn:
            conn.execute(sa.text(statement))
    except sa.exc.DBAPIError as err:
        return str(err.orig).splitlines()[0]
    finally:
        eng.dispose()
    raise AssertionError(f"the station login could: {statement}")


def test_a_station_login_records_but_cannot_change_the_record(
    station_login: str, pg_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli(pg_db, "event", "create", "--rules", "bhg-2011", "--name", "杯")[0] == 0
    (tmp_path / "p.csv").write_text("number,player1,player2\n1,甲,乙\n2,丙,丁\n", encoding="utf-8")
    assert cli(pg_db, "pairs", "import", str(tmp_path / "p.csv"))[0] == 0
    monkeypatch.setenv("REFEREE_APP_STATION_DB_PASSWORD", "pw-" + station_login)
    rc, out, err = cli(pg_db, "db", "setup-roles", "--station-login", station_login)
    assert rc == 0, err
    assert "GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA" in out and "PASSWORD ***" in out, out
    assert "pw-" not in out  # the password is never printed
    station = pgroles.station_url(pg_db, station_login, "pw-" + station_login)

    # the station records a table, and verify (as the station) is clean
    assert cli(station, "record", write_json(tmp_path / "a.json", make_case()))[0] == 0
    rc, out, err = cli(station, "verify")
    assert rc == 0 and "audit chain intact" in out, err

    for statement in (
        "UPDATE matches SET version = 9",
        "DELETE FROM audit_log",
        "TRUNCATE audit_log",
        "ALTER TABLE audit_log DISABLE TRIGGER ALL",
        "ALTER TABLE matches DISABLE TRIGGER matches_no_change",
        "DROP TRIGGER audit_log_no_change ON audit_log",
        "UPDATE store_meta SET value = '99'",
        "INSERT INTO store_meta VALUES ('x', '1')",
        "CREATE TABLE shadow (x int)",
    ):
        msg = _refused(station, statement)
        assert "permission denied" in msg or "must be owner" in msg, (statement, msg)
    # running it again updates the same login (idempotent)
    rc, out, err = cli(pg_db, "db", "setup-roles", "--station-login", station_login)
    assert rc == 0 and f"ALTER ROLE {station_login}" in out, err


def test_only_the_owner_upgrades_and_a_station_is_told_so(station_login: str, pg_db: str) -> None:
    eng = make_engine(pg_db)
    migrate(eng, create=True, user="owner", station="desk", where="test", target=7)
    with eng.begin() as conn:
        pgroles.setup_station_login(conn, station_login, "pw", lambda _line: None)
    eng.dispose()
    station = pgroles.station_url(pg_db, station_login, "pw")
    rc, _, err = cli(station, "event", "list")
    assert rc == 2 and "only the owner's login" in err and "schema version 7" in err, err
    assert err.count("\n") == 1
    rc, out, err = cli(pg_db, "db", "upgrade")
    assert rc == 0 and f"schema version {SCHEMA_VERSION}" in out, err
    assert cli(station, "event", "list")[0] == 0


def test_setup_roles_refuses_what_it_cannot_do(tmp_path: Path, pg_db: str) -> None:
    rc, _, err = cli(str(tmp_path / "e.db"), "db", "setup-roles", "--station-login", "s1", "--no-password")
    assert rc == 2 and "only for a PostgreSQL store" in err
    assert cli(pg_db, "event", "create", "--rules", "bhg-2011", "--name", "杯")[0] == 0
    rc, _, err = cli(pg_db, "db", "setup-roles", "--station-login", "Robert'); DROP", "--no-password")
    assert rc == 2 and "not a plain PostgreSQL role name" in err
    rc, _, err = cli(pg_db, "db", "setup-roles", "--station-login", "referee", "--no-password")
    assert rc == 2 and "the owner's own login" in err
