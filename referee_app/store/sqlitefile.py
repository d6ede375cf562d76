"""The station's SQLite store as the standard library sees it, without SQLAlchemy: where the
store is (``--db``, ``$REFEREE_APP_DB``, the default file), the ``file:`` URI SQLite opens it
by, the schema version it must carry, and its events at a glance.

The window lists the events through :func:`glance_events` while the store's code (SQLAlchemy,
about two thirds of the window's start) loads behind it; :mod:`.db` opens the store the full
way and takes its constants from here, so the two cannot disagree on where the file is or
which version it must be."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

#: The schema this version of referee-app writes. See :data:`.db.MIGRATIONS`.
SCHEMA_VERSION = 12
ENV_DB = "REFEREE_APP_DB"
SQLITE_PREFIX = "sqlite:///"


@dataclass(frozen=True)
class EventInfo:
    """An event as the store lists it (赛事): its number, name, date and pinned rulebook."""

    id: int
    name: str
    date: str | None
    rulebook_id: str
    rulebook_sha256: str


def default_db_path() -> Path:
    from ..locations import user_data_dir

    return user_data_dir() / "referee.db"


def resolve_target(db: str | None) -> tuple[str, bool]:
    """The database URL from ``--db``, then ``$REFEREE_APP_DB``, then the default file.

    Returns ``(url, is_default)``.
    """
    raw = db or os.environ.get(ENV_DB) or None
    if raw is None:
        return f"{SQLITE_PREFIX}{default_db_path()}", True
    if "://" in raw:
        return raw, False
    return f"{SQLITE_PREFIX}{Path(raw).expanduser().absolute()}", False


def sqlite_uri(path: str, *, read_only: bool, look: bool = False) -> str:
    """The ``file:`` URI SQLite opens ``path`` by: ``mode=ro`` for a reader, and
    ``immutable=1`` besides when the file or its folder cannot be written (read-only media:
    SQLite could not make the ``-shm`` file a WAL database needs, so it is told that nothing
    changes the file and takes no locks).

    ``look``: a glance at the file before it is opened (its tables, its schema version):
    immutable too when no ``-wal`` file is there (no connection has it open, the file holds
    every commit), so that the glance leaves no ``-wal``/``-shm`` beside a file it refuses."""
    uri = Path(path).resolve().as_uri()
    if not read_only:
        return uri
    folder = Path(path).resolve().parent
    writable = os.access(path, os.W_OK) and os.access(folder, os.W_OK) and not read_only_mount(folder)
    closed = look and not os.path.exists(path + "-wal")
    return f"{uri}?mode=ro" + ("" if writable and not closed else "&immutable=1")


def read_only_mount(folder: Path) -> bool:
    """Whether ``folder`` is on a file system mounted read-only (root passes ``os.access``
    on a file it cannot write there only when the mount is read-only: statvfs says)."""
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


def sqlite_path(url: str) -> str | None:
    """The file of an SQLite URL made by :func:`resolve_target`; None for any other store."""
    return url[len(SQLITE_PREFIX) :] if url.startswith(SQLITE_PREFIX) else None


def glance_events(path: str) -> list[EventInfo] | None:
    """The events of the store file at ``path`` in the order the store lists them, read
    read-only through sqlite3 (nothing is created, changed or upgraded). None whenever the
    file is anything but a store of this very schema version that reads cleanly (missing,
    empty, another database, older or newer, locked, damaged): the caller then opens it the
    full way, which says what is wrong or upgrades it."""
    p = Path(path)
    try:
        if not p.is_file() or p.stat().st_size == 0:
            return None
        con = sqlite3.connect(sqlite_uri(path, read_only=True, look=True), uri=True, timeout=1.0)
        try:
            row = con.execute("SELECT value FROM store_meta WHERE key = 'schema_version'").fetchone()
            if row is None or str(row[0]) != str(SCHEMA_VERSION):
                return None
            rows = con.execute(
                "SELECT id, name, date, rulebook_id, rulebook_sha256 FROM events ORDER BY id"
            ).fetchall()
        finally:
            con.close()
    except (sqlite3.Error, OSError, ValueError):
        return None
    return [
        EventInfo(int(r[0]), str(r[1]), None if r[2] is None else str(r[2]), str(r[3]), str(r[4]))
        for r in rows
    ]
