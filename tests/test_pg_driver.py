"""``referee-app db driver``: whether this program can open a hall's PostgreSQL store, told
without a server (the desktop bundle's smoke check runs it, packaging/smoke_bundle.py): the
driver is loaded as a ``postgresql+psycopg://`` store loads it, SQLAlchemy's dialect and
psycopg with its libpq; without the driver, one line that says what to install, exit 1."""

from __future__ import annotations

import contextlib
import io
import sys
from importlib import metadata

import pytest


def _db_driver(lang: str) -> tuple[int, str, str]:
    from referee_app.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["--lang", lang, "db", "driver"])
    return rc, out.getvalue(), err.getvalue()


def test_db_driver_names_psycopg_and_the_libpq_it_loaded() -> None:
    import psycopg

    rc, out, err = _db_driver("zh")
    libpq = psycopg.pq.version()
    assert rc == 0, err
    assert out.startswith(f"PostgreSQL 驱动版本 {metadata.version('psycopg')}（{psycopg.pq.__impl__}），")
    assert f"客户端库版本 {libpq // 10000}.{libpq % 10000}；" in out
    rc, out, _ = _db_driver("en")
    assert rc == 0 and out.startswith("PostgreSQL driver: psycopg ") and "can open" in out


def test_without_the_driver_db_driver_says_what_to_install_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # `import psycopg` fails as when not installed
    rc, out, err = _db_driver("zh")
    assert (rc, out) == (1, "")
    assert err.count("\n") == 1 and "没有 PostgreSQL 驱动" in err and "桌面程序包" in err
    rc, _, err = _db_driver("en")
    assert rc == 1 and err.startswith("this program has no PostgreSQL driver")
    assert "pip install 'referee-app[postgresql]'" in err
