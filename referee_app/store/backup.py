"""Backups of an event store (备份) and restoring one (恢复) — issue 24, item 9.

A backup is always one file: a referee-app SQLite store holding every row of the store it was
taken from, its audit chain included, so ``verify`` checks it like any store (and ``--db
FILE`` reads it like any store). Taken from:

* SQLite, through SQLite's online backup API (``sqlite3.Connection.backup``) in one step: the
  copy is the database as one read transaction saw it, whatever the window (or any other
  process) writes meanwhile — never a file copied while its WAL is half applied;
* PostgreSQL, by reading every table in one ``REPEATABLE READ`` read-only transaction (one
  snapshot of the server's data) into a new SQLite store of the same schema version. ``pg_dump``
  works too (docs/backup.md), but needs the server's tools on the station; this file needs
  nothing but referee-app, and restores into SQLite or PostgreSQL alike.

The copy is written beside its destination as ``FILE.part``, checked with ``verify`` and only
then renamed to ``FILE``: a backup reported done is one that verifies. The store it came from
then gets an audit entry (``store.backup``) naming the file, its number of entries and its
head hash — the copy's anchor, kept in the chain of the store that goes on.

A restore refuses, changing nothing, a file that is not a referee-app store or does not pass
``verify``, a target that exists (unless ``force``) and a target in use by another process
(SQLite: another connection has the file open, e.g. a window, seen because SQLite cannot leave
WAL mode then; PostgreSQL: another referee-app session on the target's schema, which every
connection names in its ``application_name``, see ``db.make_engine``). An SQLite target is
written through the backup API under an exclusive lock; a PostgreSQL target in one transaction
(its tables dropped and made again when it is replaced). The restored store gets an entry
(``store.restore``) naming the file, and the entries and head it replaced.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, Integer, inspect, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from ..core.inputs import refuse_replacing_a_non_file
from . import audit
from .common import Actor
from .db import (
    MIGRATIONS,
    PG_APP_NAME,
    PG_LOCK_WAIT_STATES,
    SCHEMA_VERSION,
    database_error,
    display_url,
    make_engine,
    open_engine,
    resolve_target,
    sqlite_uri,
)
from .errors import BackupError, DatabaseError
from .models import metadata
from .shared import Shared

#: Rows copied per statement between two databases.
COPY_BATCH = 500
#: The extra tables and functions a PostgreSQL store has beyond the model's (``db``'s
#: migrations): dropped with the tables when a store is replaced by a restore.
PG_EXTRA_TABLES = (audit.PG_WRITER_LOCK_TABLE,)
PG_FUNCTIONS = ("referee_append_only()", "referee_store_meta_guard()")


@dataclass(frozen=True)
class Copied:
    """A copy made and checked: where, its entries and the hash of its last entry (an anchor
    of the copy), and — for a restore over a store — the entries and head it replaced."""

    where: str
    entries: int
    head: str
    replaced_entries: int | None = None
    replaced_head: str | None = None

    @property
    def anchor(self) -> str:
        """The copy's anchor (``RA1:<entries>:<head>``): to keep outside, and for ``verify
        --head``/``--anchors`` on the copy or on the store it was taken from."""
        return audit.Anchor(self.entries, self.head).text()


# -- reading a backup file ------------------------------------------------------------


def check_backup(source: str) -> Copied:
    """The backup file ``source`` as a store that verifies, or a ``BackupError`` naming it
    (not a file, not a referee-app store, another schema, or a chain that does not verify)."""
    path = Path(source)
    if "://" in source or not path.is_file():
        raise BackupError(
            f"{source}: no backup file here (a backup is a file written by referee-app backup)",
            code="backup.no_file",
            source=source,
        )
    try:
        engine = open_engine(str(path), read_only=True)
    except DatabaseError as err:
        raise BackupError(
            f"{source}: not a referee-app store ({err}); nothing was changed",
            code="backup.not_a_store",
            source=source,
            detail=str(err),
        ) from None
    try:
        return _verified(engine, source, "backup.fails_verify")
    finally:
        engine.dispose()


def _verified(engine: Engine, where: str, code: str) -> Copied:
    try:
        with engine.connect().execution_options(sqlite_begin="DEFERRED") as conn:
            result = audit.verify(conn)
            conn.rollback()
    except DBAPIError as err:
        raise database_error(err, engine.url) from None
    if not result.ok:
        raise BackupError(
            f"{where}: does not pass verify ({result.problem}); nothing was changed",
            code=code,
            source=where,
            problem=str(result.problem),
        )
    return Copied(where, result.entries, result.head_hash)


# -- taking a backup --------------------------------------------------------------------


def take_backup(engine: Engine, out: str, *, force: bool = False) -> Copied:
    """Copy the store of ``engine`` to the file ``out`` (see the module), verified before it
    is renamed into place; ``force``: replace a file already there."""
    dest = Path(out).expanduser().absolute()
    if "://" in out:
        raise BackupError(
            f"--out {out}: a backup is a file, not a database URL", code="backup.out_not_file", out=out
        )
    if dest.is_dir():
        raise BackupError(f"--out {dest}: is a folder, not a file", code="backup.out_not_file", out=str(dest))
    refuse_replacing_a_non_file(dest, error=BackupError, field="out")
    if not dest.parent.is_dir():
        raise BackupError(
            f"--out {dest}: folder {dest.parent} does not exist",
            code="backup.no_folder",
            out=str(dest),
            folder=str(dest.parent),
        )
    if engine.dialect.name == "sqlite" and dest.exists() and _same_file(dest, str(engine.url.database)):
        raise BackupError(f"--out {dest}: is the store itself", code="backup.same_file", out=str(dest))
    if dest.exists() and not force:
        raise BackupError(
            f"--out {dest}: a file is already there (give another name, or --force to replace it)",
            code="backup.out_exists",
            out=str(dest),
        )
    part = dest.with_name(dest.name + ".part")
    _remove(part)
    try:
        if engine.dialect.name == "sqlite":
            _sqlite_copy(str(engine.url.database), part)
        else:
            _pg_to_sqlite(engine, part)
        _single_file(part)
        checked = make_engine(f"sqlite:///{part}", read_only=True)
        try:
            copied = _verified(checked, str(dest), "backup.copy_fails_verify")
        finally:
            checked.dispose()
        os.replace(part, dest)
    except (OSError, sqlite3.Error) as err:
        raise _cannot_write("--out", dest, err, "cannot write the backup", "nothing was kept") from None
    finally:
        _remove(part)
    return copied


def _cannot_write(
    flag: str, dest: Path | str, err: OSError | sqlite3.Error, what: str, kept: str
) -> BackupError:
    """The one line for a copy that could not be written (``backup.cannot_write``): the
    option and path, the system's reason, and what was (not) kept."""
    detail = str((err.strerror if isinstance(err, OSError) else None) or err)
    return BackupError(
        f"{flag} {dest}: {what} ({detail}); {kept}",
        code="backup.cannot_write",
        out=str(dest),
        detail=detail,
    )


def _same_file(a: Path, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            Path(str(path) + suffix).unlink()
        except FileNotFoundError:
            pass


def _sqlite_copy(source: str, dest: Path) -> None:
    """The online backup API in one step: one read transaction, so one consistent state."""
    src = sqlite3.connect(sqlite_uri(source, read_only=True), uri=True)
    try:
        src.execute(f"PRAGMA busy_timeout={30_000}")
        dst = sqlite3.connect(str(dest))
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()


def _single_file(path: Path) -> None:
    """A backup is one file: out of WAL mode (a copy taken of a WAL store says WAL in its
    header), so that nothing beside it is needed and a read-only glance leaves nothing."""
    con = sqlite3.connect(str(path), isolation_level=None)
    try:
        con.execute("PRAGMA journal_mode=DELETE").fetchall()
    finally:
        con.close()


def _tables() -> list[Any]:
    return list(metadata.sorted_tables)


def _rows(conn: Connection, table: Any) -> Iterator[list[dict[str, Any]]]:
    """A table's rows in key order, in batches (a server-side cursor on PostgreSQL)."""
    key = list(table.primary_key.columns)
    result = conn.execution_options(yield_per=COPY_BATCH, stream_results=True).execute(
        select(table).order_by(*key)
    )
    for batch in result.mappings().partitions(COPY_BATCH):
        yield [dict(r) for r in batch]


def _copy_rows(src: Connection, dst: Connection) -> None:
    for table in _tables():
        if not inspect(src).has_table(table.name):
            continue
        for batch in _rows(src, table):
            dst.execute(table.insert(), batch)


def _create_schema(conn: Connection) -> None:
    """The schema of this version, made as a new store's is (``db.MIGRATIONS``), without the
    new store's first entry: the rows, ``store_meta`` and the chain come from the copy."""
    for v in range(1, SCHEMA_VERSION + 1):
        MIGRATIONS[v](conn)


def _pg_to_sqlite(engine: Engine, dest: Path) -> None:
    """Every table of a PostgreSQL store, read in one snapshot, into a new SQLite store."""
    target = make_engine(f"sqlite:///{dest}")
    try:
        with engine.connect() as src:
            src = src.execution_options(isolation_level="REPEATABLE READ")
            with src.begin():
                src.exec_driver_sql("SET TRANSACTION READ ONLY")
                _check_version(src, display_url(engine.url))
                with target.begin() as dst:
                    _create_schema(dst)
                    _copy_rows(src, dst)
    except DBAPIError as err:
        raise database_error(err, engine.url) from None
    finally:
        target.dispose()


def _check_version(conn: Connection, where: str) -> None:
    from .db import schema_version

    version = schema_version(conn)
    if version != SCHEMA_VERSION:
        raise BackupError(
            f"{where}: the store is at schema version {version}, this referee-app at "
            f"{SCHEMA_VERSION}: upgrade it first (referee-app db upgrade)",
            code="backup.other_version",
            where=where,
            version=version,
            supported=SCHEMA_VERSION,
        )


# -- restoring ---------------------------------------------------------------------------


def target_exists(target: str) -> bool:
    """Whether a store (or any file) is at ``target``: an SQLite path that exists, a
    PostgreSQL schema holding referee-app's tables."""
    url, _default = resolve_target(target)
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        return Path(str(u.database)).exists()
    engine = make_engine(u)
    try:
        with engine.connect() as conn:
            found = inspect(conn).has_table("store_meta") or inspect(conn).has_table("audit_log")
            conn.rollback()
        return found
    except DBAPIError as err:
        raise database_error(err, u) from None
    finally:
        engine.dispose()


def restore_new(source: str, target: str, checked: Copied) -> Copied:
    """Restore the checked backup ``source`` where no store is (``target``)."""
    url, _default = resolve_target(target)
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        dest = Path(str(u.database))
        if not dest.parent.is_dir():
            raise BackupError(
                f"--store {dest}: folder {dest.parent} does not exist",
                code="backup.no_folder",
                out=str(dest),
                folder=str(dest.parent),
            )
        refuse_replacing_a_non_file(dest, error=BackupError, field="store")
        part = dest.with_name(dest.name + ".part")
        _remove(part)
        try:
            _sqlite_copy(source, part)
            os.replace(part, dest)
        except (OSError, sqlite3.Error) as err:
            raise _cannot_write("--store", dest, err, "cannot write", "nothing was changed") from None
        finally:
            _remove(part)
        return checked
    engine = make_engine(u)
    try:
        _sqlite_to_pg(source, engine, replace=False)
    finally:
        engine.dispose()
    return checked


def restore_over(shared: Shared, source: str, checked: Copied) -> Copied:
    """Replace the store of ``shared`` (open, not in use by any other process) by the
    checked backup ``source``; returns the copy with what it replaced."""
    engine = shared.engine
    was = shared.read(audit.head)
    if engine.dialect.name == "sqlite":
        path = str(engine.url.database)
        engine.dispose()
        try:
            dst = sqlite3.connect(path, isolation_level=None, timeout=0)
        except sqlite3.Error as err:
            raise _cannot_write("--store", path, err, "cannot be opened", "nothing was changed") from None
        try:
            try:
                # SQLite leaves WAL mode only when no other connection has the file open:
                # the one sure sign, on every system, that no window or command uses it
                dst.execute("PRAGMA journal_mode=DELETE").fetchall()
            except sqlite3.OperationalError:
                raise _in_use(path) from None
            # from the first write until this connection closes, no one else may read it
            dst.execute("PRAGMA locking_mode=EXCLUSIVE").fetchall()
            src = sqlite3.connect(sqlite_uri(source, read_only=True), uri=True)
            try:
                src.backup(dst)
            finally:
                src.close()
            dst.execute("PRAGMA journal_mode=WAL").fetchall()
        finally:
            dst.close()
    else:
        engine.dispose()
        _sqlite_to_pg(source, engine, replace=True)
    shared.forget()
    return Copied(checked.where, checked.entries, checked.head, int(was[0]), str(was[1]))


def _in_use(where: str) -> BackupError:
    return BackupError(
        f"--store {where}: the store is in use (a window or another station has it open): "
        "close it there first; nothing was changed",
        code="backup.in_use",
        where=where,
    )


def _sqlite_to_pg(source: str, engine: Engine, *, replace: bool) -> None:
    """The backup's rows into a PostgreSQL schema, in one transaction: the schema made as a
    new store's, the rows copied, each table's id sequence set past its last row. With
    ``replace`` the store's tables are dropped first (in the same transaction: a failure
    leaves the old store as it was)."""
    reader = make_engine(f"sqlite:///{source}", read_only=True)
    where = display_url(engine.url)
    try:
        with engine.begin() as dst, reader.connect() as src:
            dst.exec_driver_sql(f"SET LOCAL lock_timeout = '{audit.PG_LOCK_TIMEOUT_S}s'")
            others = dst.execute(
                text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid() AND application_name = :name"
                ),
                {"name": pg_app_name(dst)},
            ).scalar()
            if others:
                raise _in_use(where)
            if replace:
                names = [t.name for t in reversed(_tables())] + list(PG_EXTRA_TABLES)
                dst.exec_driver_sql("DROP TABLE IF EXISTS " + ", ".join(names) + " CASCADE")
                for fn in PG_FUNCTIONS:
                    dst.exec_driver_sql(f"DROP FUNCTION IF EXISTS {fn} CASCADE")
            elif inspect(dst).get_table_names():
                raise BackupError(
                    f"--store {where}: the schema holds other tables; restore into an empty one",
                    code="backup.target_not_empty",
                    where=where,
                )
            _create_schema(dst)
            _copy_rows(src, dst)
            for table in _tables():
                key = list(table.primary_key.columns)
                if len(key) == 1 and isinstance(key[0].type, Integer) and key[0].autoincrement is not False:
                    dst.execute(
                        text(
                            f"SELECT setval(pg_get_serial_sequence('{table.name}', '{key[0].name}'), "
                            f"COALESCE((SELECT max({key[0].name}) FROM {table.name}), 0) + 1, false)"
                        )
                    )
            src.rollback()
    except DBAPIError as err:
        if getattr(getattr(err, "orig", None), "sqlstate", None) in PG_LOCK_WAIT_STATES:
            raise _in_use(where) from None
        raise database_error(err, engine.url) from None
    finally:
        reader.dispose()


def pg_app_name(conn: Connection) -> str:
    """This connection's schema as named in ``application_name`` (``db.make_engine``)."""
    schema = conn.execute(text("SELECT current_schema()")).scalar()
    return f"{PG_APP_NAME} {schema}"[:63]


def record(
    shared: Shared, action: str, copied: Copied, *, actor: Actor, role: str | None, info: dict[str, Any]
) -> None:
    """The audit entry of a backup or a restore, in the store that goes on."""

    def run(conn: Connection) -> None:
        w = audit.Writer(conn)
        w.commit_entry(
            user=actor.user,
            station=actor.station,
            action=action,
            role=role,
            info={**info, "entries": copied.entries, "head": copied.head}
            | (
                {"replaced_entries": copied.replaced_entries, "replaced_head": copied.replaced_head}
                if copied.replaced_head is not None
                else {}
            ),
        )

    shared.write(run)


class Backups:
    """The backup part of the :class:`~referee_app.store.service.Store`: a copy of the store
    to a file, and the store replaced by one — the chief referee's (``store.backup``,
    ``store.restore`` in ``roles.PERMISSIONS``), each audited."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared

    def _authorize(self, action: str, actor: Actor, event_id: int | None) -> str | None:
        """The role allowed to do ``action`` on the store's event (``event_id``, or the only
        one); a store without events has no roles to check."""
        if event_id is None and not self.shared.list_events():
            return None
        ev = self.shared.pick_event(event_id)
        return self.shared.read(  # type: ignore[no-any-return]
            lambda conn: self.shared.authorize(conn, ev.id, action, actor)
        )

    def backup(
        self,
        out: str,
        *,
        actor: Actor,
        event_id: int | None = None,
        force: bool = False,
        round_no: int | None = None,
    ) -> Copied:
        """Copy the whole store to the file ``out``, safely while other processes write (see
        the module), verified before it is reported; the store's log then names the copy
        (``store.backup``: the file, its entries and head hash). ``force``: replace a file.
        ``round_no``: the automatic copy at that round's end, kept on this computer
        (``store.round_copy``: not an anchor kept outside, see ``auditlog``)."""
        role = self._authorize("store.backup", actor, event_id)
        copied = take_backup(self.shared.engine, out, force=force)
        if round_no is None:
            record(self.shared, "store.backup", copied, actor=actor, role=role, info={"file": copied.where})
        else:
            info = {"file": copied.where, "round": round_no}
            record(self.shared, "store.round_copy", copied, actor=actor, role=role, info=info)
        return copied

    def restore(self, source: str, *, actor: Actor, event_id: int | None = None) -> Copied:
        """Replace this whole store by the backup file ``source`` (checked first: a
        referee-app store that verifies), if no other process has it open; the restored
        store's log then says so (``store.restore``: the file, the entries and head it
        replaced). Refusals change nothing."""
        checked = check_backup(source)
        role = self._authorize("store.restore", actor, event_id)
        copied = restore_over(self.shared, source, checked)
        record(self.shared, "store.restore", copied, actor=actor, role=role, info={"file": source})
        return copied
