"""The store suite runs on SQLite (a real file in tmp_path) and on a real PostgreSQL server.

PostgreSQL: set ``REFEREE_APP_TEST_PG_URL`` (``.ci/run`` does).  Each test gets its own
schema on that server (``search_path`` in the URL), dropped afterwards.  Without the
variable the PostgreSQL half is skipped with one line, except under ``CI=true``, where a
missing or unreachable server fails the tests.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from store_helpers import PAIRS_CSV, cli

from tests.needs import missing

PG_ENV = "REFEREE_APP_TEST_PG_URL"
_pg_state: dict[str, Any] = {}


def _pg_url_or_reason() -> tuple[str | None, str]:
    if "url" in _pg_state:
        return _pg_state["url"], _pg_state["reason"]
    url = os.environ.get(PG_ENV)
    reason = ""
    if not url:
        reason = f"{PG_ENV} is not set: PostgreSQL store tests not run"
    else:
        import sqlalchemy as sa

        try:
            eng = sa.create_engine(url)
            with eng.connect() as conn:
                conn.execute(sa.text("select 1"))
            eng.dispose()
        except Exception as err:  # noqa: BLE001
            reason = f"PostgreSQL at {PG_ENV} unreachable: {str(err).splitlines()[0]}"
            url = None
    _pg_state.update(url=url, reason=reason)
    return url, reason


@contextlib.contextmanager
def pg_schema_url(base: str) -> Iterator[str]:
    """A fresh schema on the server; the URL selects it through ``search_path``."""
    import sqlalchemy as sa

    schema = "t_" + uuid.uuid4().hex[:12]
    eng = sa.create_engine(base)
    with eng.begin() as conn:
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options={quote(f'-csearch_path={schema}')}"
    finally:
        with eng.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
        eng.dispose()


def _need_pg() -> str:
    url, reason = _pg_url_or_reason()
    if url is None:
        missing(reason)
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database target (a path or a URL) with nothing in it yet."""
    if request.param == "sqlite":
        yield str(tmp_path / "event.db")
    else:
        with pg_schema_url(_need_pg()) as url:
            yield url


@pytest.fixture
def pg_db() -> Iterator[str]:
    with pg_schema_url(_need_pg()) as url:
        yield url


@pytest.fixture(autouse=True)
def _cheap_pin_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """New PIN hashes in these tests cost 2^14 (each hash names its own cost, so every
    check still runs the real code); the suite sets and checks dozens of PINs."""
    from referee_app.store import roles

    monkeypatch.setattr(roles, "SCRYPT_N", 2**14)


@pytest.fixture(autouse=True)
def _no_ambient_db(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("REFEREE_APP_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("REFEREE_APP_USER", "张三")
    monkeypatch.setenv("REFEREE_APP_STATION", "table-1")


@pytest.fixture
def event_db(db: str, tmp_path: Path) -> str:
    """A database with one event (bhg-2011) and pairs 1–8."""
    rc, out, err = cli(
        db, "event", "create", "--rules", "bhg-2011", "--name", "测试杯", "--date", "2026-04-01"
    )
    assert rc == 0, err
    assert out.strip() == "1"
    csv = tmp_path / "pairs.csv"
    csv.write_text(PAIRS_CSV, encoding="utf-8")
    rc, out, err = cli(db, "pairs", "import", str(csv))
    assert rc == 0, err
    return db
