"""The store suite runs on SQLite (a real file in tmp_path) and on a real PostgreSQL server.

PostgreSQL: set ``REFEREE_APP_TEST_PG_URL`` (``.ci/run`` does).  Each test gets its own
schema on that server (``search_path`` in the URL), dropped afterwards.  Without the
variable the PostgreSQL half is skipped with one line, except under ``CI=true``, where a
missing or unreachable server fails the tests.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

PG_ENV = "REFEREE_APP_TEST_PG_URL"
_pg_state: dict[str, Any] = {}

PAIRS_CSV = (
    "number,player1,player2,unit\n"
    "1,张三,李四,东城队\n"
    "2,王五,赵六,西城队\n"
    "3,钱七,孙八,\n"
    "4,周九,吴十,南城队\n"
    "5,郑一,冯二,\n"
    "6,陈三,褚四,\n"
    "7,卫五,蒋六,\n"
    "8,沈七,韩八,\n"
)


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
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but {reason}", pytrace=False)
        pytest.skip(reason)
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
def _no_ambient_db(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("REFEREE_APP_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("REFEREE_APP_USER", "张三")
    monkeypatch.setenv("REFEREE_APP_STATION", "table-1")


def cli(
    db: str | None, *args: str, lang: str = "en", stdin: str | None = None
) -> tuple[int, str, str]:
    """Run ``referee-app [--db DB] --lang LANG ARGS…`` in this process; (exit, stdout, stderr)."""
    import sys

    from referee_app.cli import main

    out, err = io.StringIO(), io.StringIO()
    argv = (["--db", db] if db else []) + ["--lang", lang, *args]
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(argv)
            except SystemExit as exc:  # argparse
                rc = int(exc.code or 0)
    finally:
        sys.stdin = old_stdin
    return rc, out.getvalue(), err.getvalue()


def make_case(
    round_: int = 1,
    table: int = 1,
    ns: str = "1",
    ew: str = "2",
    *,
    defender_points: int = 60,
    exposed: int = 1,
    override: dict[str, Any] | None = None,
) -> dict[str, Any]:
    inf: dict[str, Any] = {"kind": "exposed_card", "seat": "N", "cards": exposed, "trick": 7}
    if override is not None:
        inf["override"] = override
    return {
        "event": "bhg-2011",
        "round": round_,
        "table": table,
        "pairs": {"NS": ns, "EW": ew},
        "first_dealer": "E",
        "hands": [
            {
                "defender_points": defender_points,
                "bottom": {"points": 20, "captured": True, "shape": "pair"},
                "infractions": [inf],
            },
            {"defender_points": 40, "infractions": []},
        ],
        "finished": "time",
    }


def write_json(path: Path, obj: Any) -> str:
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    return str(path)


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


def count_entries(db: str) -> int:
    from referee_app.store.service import Store

    with Store.open(db) as s:
        return len(s.log())


def sql(db: str, statement: str, **params: Any) -> list[Any]:
    """Run SQL directly on the database, outside the store (for tampering tests)."""
    import sqlalchemy as sa

    url = db if "://" in db else f"sqlite:///{db}"
    eng = sa.create_engine(url)
    try:
        with eng.begin() as conn:
            res = conn.execute(sa.text(statement), params)
            return list(res) if res.returns_rows else []
    finally:
        eng.dispose()
