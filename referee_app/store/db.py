"""Opening the database: where it lives, connection settings, schema versions.

``open_engine(target)`` accepts a path or a SQLAlchemy URL.  SQLite connections get WAL,
``synchronous=FULL``, foreign keys and a busy timeout in a connect event (they are per
connection), and every transaction begins with ``BEGIN IMMEDIATE`` so writers are
serialized by SQLite itself.  A database written by a newer schema is refused before
anything is written to it.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, inspect, select, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.pool import NullPool

from .audit import PG_LOCK_SQL, PG_LOCK_TIMEOUT_S, PG_WRITE_LOCK, PG_WRITER_LOCK_TABLE, Writer
from .errors import DatabaseError, SchemaTooNewError
from .models import V4_TABLES, V5_TABLES, V6_TABLES, V8_TABLES, metadata, store_meta, voidings
from .sqlitefile import SCHEMA_VERSION, resolve_target, sqlite_uri

#: Execution options of a connection that only reads (SQLite: BEGIN DEFERRED).
READ_ONLY = {"sqlite_begin": "DEFERRED"}
SQLITE_BUSY_TIMEOUT_MS = 30_000


def display_url(url: str | URL) -> str:
    try:
        u = make_url(url) if isinstance(url, str) else url
    except ArgumentError:
        return str(url)
    if u.get_backend_name() == "sqlite":
        return u.database or ":memory:"
    return u.render_as_string(hide_password=True)


def _first_line(err: BaseException) -> str:
    orig = getattr(err, "orig", None) or err
    lines = [ln.strip() for ln in str(orig).splitlines() if ln.strip()]
    return lines[0] if lines else type(orig).__name__


#: Below this much free space, SQLite's "disk I/O error" means the disk is full (a write
#: of the WAL or its index failed for want of room).
LOW_SPACE_BYTES = 1 << 20


def explain_error(err: BaseException, url: str | URL) -> str:
    """One line for a database error: a full disk is said to be full, whatever SQLite called it."""
    first = _first_line(err)
    u = make_url(url) if isinstance(url, str) else url
    where = display_url(u)
    if u.get_backend_name() == "sqlite" and u.database:
        folder = Path(u.database).parent
        try:
            free = shutil.disk_usage(folder).free
        except OSError:
            free = None
        if "is full" in first or ("I/O error" in first and free is not None and free < LOW_SPACE_BYTES):
            shown = "" if free is None else f" ({free // 1024} KB free in {folder})"
            return f"{where}: the disk is full{shown}; nothing was saved: free some space and try again"
    elif "No space left" in first or "could not extend file" in first:
        return f"{where}: the database server's disk is full; nothing was saved ({first})"
    return f"{where}: {first}"


#: PostgreSQL's SQLSTATEs of a wait that timed out: ``lock_timeout`` (lock_not_available)
#: and ``statement_timeout`` (query_canceled), both set around the writers' lock.
PG_LOCK_WAIT_STATES = frozenset({"55P03", "57014"})


def database_error(err: BaseException, url: str | URL) -> DatabaseError:
    """:func:`explain_error` as a coded error: a full disk, a lock, or the driver's line."""
    text = explain_error(err, url)
    u = make_url(url) if isinstance(url, str) else url
    where = display_url(u)
    first = _first_line(err)
    if "disk is full" in text:
        return DatabaseError(text, code="db.disk_full", where=where)
    if "database is locked" in first:
        return DatabaseError(text, code="db.busy", where=where)
    if getattr(getattr(err, "orig", None), "sqlstate", None) in PG_LOCK_WAIT_STATES:
        return DatabaseError(
            f"{where}: another connection has held the writers' lock for more than "
            f"{PG_LOCK_TIMEOUT_S} s; nothing was saved: try again (if it keeps happening, end "
            "the session holding it, see the manual)",
            code="db.write_lock_timeout",
            where=where,
            seconds=PG_LOCK_TIMEOUT_S,
        )
    return DatabaseError(text, code="db.error", where=where, detail=first)


def _sqlite_settings(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event below issue BEGIN, not the sqlite3 module.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # Writers take SQLite's write lock at BEGIN, so reading the chain's head and
        # appending to it cannot interleave; readers (``READ_ONLY``) stay deferred.
        mode = conn.get_execution_options().get("sqlite_begin", "IMMEDIATE")
        conn.exec_driver_sql(f"BEGIN {mode}")


def _sqlite_reader_settings(engine: Engine) -> None:
    """A read-only connection's settings: no journal mode or synchronous setting (they are a
    writer's, and ``journal_mode`` would write the header), ``query_only``, BEGIN DEFERRED."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA query_only=1")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN DEFERRED")


def check_version(engine: Engine, where: str, target: str) -> int:
    """The store's schema version, read only: this referee-app's, else a ``DatabaseError``
    naming the store's version and this one's, and the command that upgrades it."""
    with engine.connect() as conn:
        current = schema_version(conn)
        if 0 < current < SCHEMA_VERSION:  # a PostgreSQL station is told who may upgrade
            _check_may_upgrade(conn, current, SCHEMA_VERSION, where)
        conn.rollback()
    if current == 0:
        raise DatabaseError(
            f"{where}: no referee-app database here (create an event first: referee-app event create)",
            code="db.missing",
            where=where,
        )
    _refuse_too_new(where, current)
    if current < SCHEMA_VERSION:
        raise _too_old(where, current, target)
    return current


WalIdentity = tuple[tuple[int, int] | None, tuple[int, int] | None]


def wal_identity(db_path: str) -> WalIdentity:
    """(device, inode) of the database's ``-wal`` and ``-shm`` files (None: missing).

    While a connection is open no other process may delete them (SQLite's rule), so a
    different identity at commit means this process's locks were lost and its WAL is no
    longer the one other processes read."""

    def ident(suffix: str) -> tuple[int, int] | None:
        try:
            st = os.stat(db_path + suffix)
        except OSError:
            return None
        return (st.st_dev, st.st_ino)

    return ident("-wal"), ident("-shm")


def _cut(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else f"{text[: limit - 1]}… ({len(text)} characters)"


def _sqlite_precheck(path: str, create: bool, read_only: bool = False) -> bool:
    """Check an SQLite file before SQLAlchemy touches it. Returns True if it exists.

    Refuses (changing nothing) a missing folder, a read-only folder, a file that is not a
    database, another program's database, and a database from a newer schema; with
    ``read_only``, also an empty file and a database from an older schema (named, with the
    command that upgrades it), and a read-only file or folder is no reason to refuse.
    """
    p = Path(path)
    try:
        exists = p.exists()
    except (OSError, ValueError) as err:  # a name too long, a NUL in it
        detail = getattr(err, "strerror", None) or str(err)
        raise DatabaseError(
            f"--db: not a usable database path ({detail}): {_cut(path)}",
            code="db.bad_path",
            field="db",
            got=_cut(path),
            detail=detail,
        ) from None
    if exists:
        if p.is_dir():
            raise DatabaseError(f"{path}: is a folder, not a database file", code="db.is_folder", where=path)
        if read_only and p.stat().st_size == 0:
            raise DatabaseError(
                f"{path}: an empty file, not a referee-app database (it was not changed)",
                code="db.not_ours",
                where=path,
            )
        try:
            con = sqlite3.connect(sqlite_uri(path, read_only=True, look=True), uri=True)
            try:
                tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                version = None
                if "store_meta" in tables:
                    row = con.execute("SELECT value FROM store_meta WHERE key='schema_version'").fetchone()
                    version = _version_number(row[0], path) if row else None
            finally:
                con.close()
        except sqlite3.DatabaseError as err:
            if "not a database" in str(err) or "malformed" in str(err):
                raise DatabaseError(
                    f"{path}: not a referee-app database ({err})", code="db.not_ours", where=path
                ) from None
            # e.g. a WAL file left by a crash that a read-only look cannot replay: the
            # normal open below recovers it and checks the version again.
            if read_only:
                raise DatabaseError(
                    f"{path}: cannot be read ({err})", code="db.error", where=path, detail=str(err)
                ) from None
            return True
        if tables and version is None:
            raise DatabaseError(
                f"{path}: an SQLite database, but not a referee-app one", code="db.not_ours", where=path
            )
        if version is not None and version > SCHEMA_VERSION:
            raise SchemaTooNewError(
                _too_new(path, version),
                code="db.too_new",
                where=path,
                version=version,
                supported=SCHEMA_VERSION,
            )
        if read_only:
            if version is None:
                raise DatabaseError(
                    f"{path}: no referee-app database here (create an event first: referee-app event create)",
                    code="db.missing",
                    where=path,
                )
            if version < SCHEMA_VERSION:
                raise _too_old(path, version, path)
            return True
        if not os.access(p.parent, os.W_OK) or not os.access(p, os.W_OK):
            raise DatabaseError(
                f"{path}: the file or its folder is read-only", code="db.read_only", where=path
            )
        return True
    if not create or read_only:
        raise DatabaseError(
            f"{path}: no database here (create an event first: referee-app event create)",
            code="db.missing",
            where=path,
        )
    if not p.parent.is_dir():
        raise DatabaseError(
            f"{path}: folder {p.parent} does not exist", code="db.no_folder", where=path, folder=p.parent
        )
    if not os.access(p.parent, os.W_OK):
        raise DatabaseError(
            f"{path}: cannot create the database, folder {p.parent} is read-only",
            code="db.folder_read_only",
            where=path,
            folder=p.parent,
        )
    return False


def _too_old(where: str, version: int, target: str) -> DatabaseError:
    """A store at an older schema, met by a command that only reads (it never upgrades)."""
    return DatabaseError(
        f"{where}: the store is at schema version {version} and this referee-app uses version "
        f"{SCHEMA_VERSION}; a command that only reads does not upgrade it: upgrade it first "
        f"(referee-app --db {target} db upgrade); the database was not changed",
        code="db.too_old",
        where=where,
        version=version,
        supported=SCHEMA_VERSION,
        target=target,
    )


def _refuse_too_new(where: str, current: int) -> None:
    """A store written by a newer referee-app is not opened (nor upgraded) by this one."""
    if current > SCHEMA_VERSION:
        raise SchemaTooNewError(
            _too_new(where, current),
            code="db.too_new",
            where=where,
            version=current,
            supported=SCHEMA_VERSION,
        )


def _too_new(where: str, version: int) -> str:
    return (
        f"{where}: database schema version {version} was written by a newer referee-app "
        f"(this one reads up to version {SCHEMA_VERSION}); upgrade referee-app, "
        "the database was not changed"
    )


def open_engine(
    target: str | None,
    *,
    create: bool = False,
    user: str = "system",
    station: str = "local",
    read_only: bool = False,
) -> Engine:
    """Open (and, with ``create``, create) the database, upgrading an older schema.

    ``read_only``: for a command that only reads: the store is opened read-only (SQLite
    ``mode=ro``, and ``immutable=1`` on read-only media; PostgreSQL read-only transactions),
    never created nor upgraded; a store at another schema version is refused, named.

    Raises ``DatabaseError`` (one line, nothing changed) when it cannot.
    """
    url_text, is_default = resolve_target(target)
    try:
        url = make_url(url_text)
        url.get_backend_name()
        _ = url.port  # a port that is not a number is refused here, not on connecting
    except (ArgumentError, ValueError):
        shown = _cut(re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url_text))  # no password in a line
        raise DatabaseError(
            f"--db: not a database path or URL: {shown}", code="db.bad_url", field="db", got=shown
        ) from None
    backend = url.get_backend_name()
    created_file: Path | None = None
    if backend == "sqlite":
        if not url.database or url.database == ":memory:":
            raise DatabaseError(
                "--db: an in-memory database cannot keep an event", code="db.memory", field="db"
            )
        if is_default and not read_only:
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        existed = _sqlite_precheck(url.database, create and not read_only, read_only)
        if not existed:
            created_file = Path(url.database)
    elif backend != "postgresql":
        raise DatabaseError(
            f"--db: unsupported database {backend!r} (use a path or postgresql+psycopg://…)",
            code="db.unsupported",
            field="db",
            got=backend,
        )
    if read_only:
        engine = make_engine(url, read_only=True)
        try:
            check_version(engine, display_url(url), display_url(url))
        except DatabaseError:
            engine.dispose()
            raise
        except DBAPIError as err:
            engine.dispose()
            raise database_error(err, url) from None
        return engine
    engine = make_engine(url)
    try:
        migrate(engine, create=create, user=user, station=station, where=display_url(url))
    except DatabaseError:
        engine.dispose()
        _remove_new_file(created_file)
        raise
    except DBAPIError as err:
        engine.dispose()
        _remove_new_file(created_file)
        if created_file is not None:
            raise DatabaseError(
                f"{created_file}: cannot create the database, folder {created_file.parent} "
                f"is read-only or not permitted ({_first_line(err)})",
                code="db.folder_read_only",
                where=created_file,
                folder=created_file.parent,
            ) from None
        raise database_error(err, url) from None
    return engine


def make_engine(url: str | URL, *, read_only: bool = False) -> Engine:
    """An engine with the store's connection settings; no schema check (see open_engine).
    ``read_only``: every connection refuses writes (see :func:`open_engine`)."""
    u = make_url(url) if isinstance(url, str) else url
    try:
        if read_only and u.get_backend_name() == "sqlite":
            path = str(u.database)
            uri = sqlite_uri(path, read_only=True)
            engine = create_engine(
                "sqlite://",
                poolclass=NullPool,
                creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False),
            )
            engine.url = u  # where the store is, as every message names it
            _sqlite_reader_settings(engine)
            return engine
        if read_only:
            # added to the URL's own options (a schema's search_path), which connect_args'
            # "options" would otherwise replace: a reader would read another schema
            given = u.query.get("options", "")
            given = " ".join(given) if isinstance(given, tuple) else given
            options = f"{given} -c default_transaction_read_only=on".strip()
            engine = create_engine(
                u.difference_update_query(["options"]),
                connect_args={"options": options, **_pg_connect_timeout(u)},
            )
        elif u.get_backend_name() == "sqlite":
            # No connection outlives its transaction: SQLite's POSIX locks belong to the
            # process, and anything in it (a Qt file dialog sniffing the folder) that opens
            # and closes the file drops them silently. An idle pooled connection then keeps
            # a WAL that another process may checkpoint and delete as "the last one"; a
            # connection opened per transaction always opens the WAL everyone else uses.
            engine = create_engine(u, poolclass=NullPool)
        else:
            engine = create_engine(u, connect_args=_pg_connect_timeout(u))
    except (NoSuchModuleError, ImportError) as err:
        raise DatabaseError(f"--db {display_url(u)}: {err}") from None
    if u.get_backend_name() == "sqlite":
        _sqlite_settings(engine)
    else:
        _pg_settings(engine)
    return engine


@dataclass(frozen=True)
class PgDriver:
    """The PostgreSQL driver an installation has: psycopg's version, its implementation
    (``binary``: psycopg-binary with its own libpq, as the desktop bundles carry it; ``c`` or
    ``python``: a libpq of the system's) and libpq's version (``18.1``)."""

    psycopg: str
    implementation: str
    libpq: str


def postgresql_driver() -> PgDriver | None:
    """The PostgreSQL driver, loaded as a connection to a ``postgresql+psycopg://`` store loads
    it (SQLAlchemy's psycopg dialect, psycopg, its libpq), without connecting: a station can
    tell before the hall whether it opens a PostgreSQL store. None when it is not installed."""
    from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg

    try:
        psycopg = PGDialect_psycopg.import_dbapi()
    except ImportError:
        return None
    version = int(psycopg.pq.version())  # libpq's own number: major * 10000 + minor
    return PgDriver(psycopg.__version__, psycopg.pq.__impl__, f"{version // 10000}.{version % 10000}")


#: Seconds a PostgreSQL connection may take to be made (libpq's ``connect_timeout``) unless
#: the URL says otherwise: a server or a port that accepts and never answers is a clear
#: "connection failed" line, not a station that hangs (issue 24: never a hang).
PG_CONNECT_TIMEOUT_S = 10


def _pg_connect_timeout(u: URL) -> dict[str, Any]:
    if u.get_backend_name() != "postgresql" or "connect_timeout" in u.query:
        return {}
    return {"connect_timeout": PG_CONNECT_TIMEOUT_S}


#: How a PostgreSQL connection of referee-app names itself: this and its schema (see below).
PG_APP_NAME = "referee-app"


def _pg_settings(engine: Engine) -> None:
    """Each PostgreSQL connection names itself and its schema in ``application_name``
    (``referee-app <schema>``): a restore sees in ``pg_stat_activity`` whether another
    window or station has the store open (``backup``), which the server shows any login."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        cur.execute(
            "SELECT set_config('application_name', "
            f"left('{PG_APP_NAME} ' || coalesce(current_schema(), ''), 63), false)"
        )
        cur.close()
        dbapi_conn.commit()


def _remove_new_file(path: Path | None) -> None:
    """Remove a database file this call created, unless it holds anything (another
    process may have created the same new file at the same moment and written to it)."""
    if path is None or not path.exists():
        return
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            if con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                return
        finally:
            con.close()
    except sqlite3.Error:
        return
    for suffix in ("", "-wal", "-shm", "-journal"):
        f = Path(str(path) + suffix)
        try:
            if f.exists():
                f.unlink()
        except OSError:
            pass


# ---------------------------------------------------------------------------
# Migrations: MIGRATIONS[n] brings a database from version n-1 to version n.
# A fresh database runs them all, so the upgrade path is the creation path.


def _v1(conn: Connection) -> None:
    later = {voidings, *V4_TABLES, *V5_TABLES, *V6_TABLES, *V8_TABLES}
    metadata.create_all(conn, tables=[t for t in metadata.sorted_tables if t not in later])


def _v2(conn: Connection) -> None:
    voidings.create(conn)


#: Tables the database itself keeps append-only from schema version 3 (version 4 adds
#: its own tables, see ``_v4``).
APPEND_ONLY = (
    "audit_log",
    "events",
    "pairs",
    "players",
    "rounds",
    "matches",
    "hands",
    "infractions",
    "rulings",
    "voidings",
)


def _append_only(conn: Connection, tables: tuple[str, ...]) -> None:
    if conn.dialect.name == "sqlite":
        for t in tables:
            for op in ("UPDATE", "DELETE"):
                conn.exec_driver_sql(
                    f"CREATE TRIGGER {t}_no_{op.lower()} BEFORE {op} ON {t} "
                    f"BEGIN SELECT RAISE(ABORT, 'referee-app: {t} is append-only'); END"
                )
    else:
        conn.exec_driver_sql(
            "CREATE OR REPLACE FUNCTION referee_append_only() RETURNS trigger "
            "LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION "
            "'referee-app: %% is append-only', TG_TABLE_NAME; END $$"  # %% for psycopg
        )
        for t in tables:
            conn.exec_driver_sql(
                f"CREATE TRIGGER {t}_no_change BEFORE UPDATE OR DELETE ON {t} "
                "FOR EACH ROW EXECUTE FUNCTION referee_append_only()"
            )
            conn.exec_driver_sql(
                f"CREATE TRIGGER {t}_no_truncate BEFORE TRUNCATE ON {t} "
                "FOR EACH STATEMENT EXECUTE FUNCTION referee_append_only()"
            )


def _v3(conn: Connection) -> None:
    """Append-only enforced by the database: UPDATE and DELETE on the record are refused.

    The application never issues them; this stops a buggy or careless client (or a hand
    typing SQL) from changing the record in place. Someone who drops the triggers first can
    still change rows: ``verify`` catches that.
    """
    _append_only(conn, APPEND_ONLY)


def _v4(conn: Connection) -> None:
    """Appeals and their steps, signatures of a match version, the event's signing key:
    new tables, append-only like the rest."""
    for t in V4_TABLES:
        t.create(conn)
    _append_only(conn, tuple(t.name for t in V4_TABLES))


def _v5(conn: Connection) -> None:
    """Roles: each role's PIN on an event (a salted scrypt hash) and the PIN attempts that
    count towards a lock; append-only like the rest. Existing events have no PINs, so
    every action stays allowed on them until the chief referee sets one."""
    for t in V5_TABLES:
        t.create(conn)
    _append_only(conn, tuple(t.name for t in V5_TABLES))


def _v6_desk_records(conn: Connection) -> None:
    """The chief referee's desk: published pairings (versioned), withdrawals and
    re-admissions, knockout deciders, overrides, the round clock, the round's end and the
    publication of its scores — one append-only table of audited records."""
    for t in V6_TABLES:
        t.create(conn)
    _append_only(conn, tuple(t.name for t in V6_TABLES))


def _v6_store_meta_guard(conn: Connection) -> None:
    """``store_meta`` is append-only too, except that a schema upgrade raises its version:
    an UPDATE may only replace ``schema_version`` by a larger whole number, nothing may be
    deleted, and a version written must be digits (a bad value used to make the store
    unusable)."""
    bad_value = "NEW.value NOT GLOB '[1-9]*' OR NEW.value GLOB '*[^0-9]*' OR length(NEW.value) > 6"
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql(
            "CREATE TRIGGER store_meta_no_delete BEFORE DELETE ON store_meta "
            "BEGIN SELECT RAISE(ABORT, 'referee-app: store_meta is append-only'); END"
        )
        conn.exec_driver_sql(
            "CREATE TRIGGER store_meta_only_upgrades BEFORE UPDATE ON store_meta "
            f"WHEN NEW.key IS NOT OLD.key OR OLD.key <> 'schema_version' OR {bad_value} "
            "OR CAST(NEW.value AS INTEGER) <= CAST(OLD.value AS INTEGER) "
            "BEGIN SELECT RAISE(ABORT, 'referee-app: store_meta changes only by a schema upgrade'); END"
        )
        conn.exec_driver_sql(
            "CREATE TRIGGER store_meta_valid_version BEFORE INSERT ON store_meta "
            f"WHEN NEW.key = 'schema_version' AND ({bad_value}) "
            "BEGIN SELECT RAISE(ABORT, 'referee-app: schema_version must be a whole number'); END"
        )
        return
    conn.exec_driver_sql(
        "CREATE OR REPLACE FUNCTION referee_store_meta_guard() RETURNS trigger LANGUAGE plpgsql AS $$ "
        "BEGIN "
        "IF TG_OP = 'DELETE' THEN RAISE EXCEPTION 'referee-app: store_meta is append-only'; END IF; "
        "IF NEW.key = 'schema_version' AND NEW.value !~ '^[1-9][0-9]{0,5}$' THEN "
        "RAISE EXCEPTION 'referee-app: schema_version must be a whole number'; END IF; "
        "IF TG_OP = 'UPDATE' AND (NEW.key <> OLD.key OR OLD.key <> 'schema_version' "
        "OR NEW.value::int <= OLD.value::int) THEN "
        "RAISE EXCEPTION 'referee-app: store_meta changes only by a schema upgrade'; END IF; "
        "RETURN NEW; END $$"
    )
    conn.exec_driver_sql(
        "CREATE TRIGGER store_meta_guard BEFORE INSERT OR UPDATE OR DELETE ON store_meta "
        "FOR EACH ROW EXECUTE FUNCTION referee_store_meta_guard()"
    )
    conn.exec_driver_sql(
        "CREATE TRIGGER store_meta_no_truncate BEFORE TRUNCATE ON store_meta "
        "FOR EACH STATEMENT EXECUTE FUNCTION referee_append_only()"
    )


def _v8_station_keys(conn: Connection) -> None:
    """Signed entries: the stations' registered public keys and each entry's signature,
    append-only like the rest. Entries written before are left as they are (unsigned):
    ``verify`` reports them as written before station keys existed."""
    for t in V8_TABLES:
        t.create(conn)
    _append_only(conn, tuple(t.name for t in V8_TABLES))


def _v9_match_pair_index(conn: Connection) -> None:
    """Indexes of a match by each of its pairs and its round: saving a ruling checks that
    neither pair is already seated at another table of the round by looking up those two
    pairs, not every table of the round."""
    for side in ("ns", "ew"):
        conn.exec_driver_sql(
            f"CREATE INDEX IF NOT EXISTS ix_matches_{side}_pair_round ON matches ({side}_pair_id, round_id)"
        )


def _v10_match_result(conn: Connection) -> None:
    """On PostgreSQL each match keeps its result beside its decision, taken out once as the
    match is written (a stored generated column): the desk read it out of every decision's
    JSON on every look, the server parsing 2 KB a match (100 ms of 270 for 512 pairs after 8
    rounds of 4 hands, and growing with the hands). Derived, so not one of the model's
    columns that entries hash. SQLite reads the decision's pages and its JSON in one pass,
    without the parse's cost standing out; it is left as it is."""
    if conn.dialect.name != "postgresql":
        return
    conn.exec_driver_sql(
        "ALTER TABLE matches ADD COLUMN IF NOT EXISTS result_json TEXT "
        "GENERATED ALWAYS AS (CAST(CAST(decision_json AS json) -> 'result' AS text)) STORED"
    )


def _v11_hand_lost_by_both(conn: Connection) -> None:
    """A hand both sides lose is kept as lost by ``both``: the column held two letters (a side),
    and PostgreSQL refused such a hand's save (SQLite does not check a length)."""
    if conn.dialect.name != "postgresql":
        return
    conn.exec_driver_sql("ALTER TABLE hands ALTER COLUMN lost_by TYPE VARCHAR(4)")


def _v12_writer_lock(conn: Connection) -> None:
    """On PostgreSQL writers serialize on the EXCLUSIVE lock of an empty table, which only a
    login with UPDATE on it may take (the station logins, see ``pgroles``), instead of an
    advisory lock, which any login could take and hold (issue 24). The station logins set up
    before get that right here (the ones that may append to the log)."""
    if conn.dialect.name != "postgresql":
        return
    table = PG_WRITER_LOCK_TABLE
    conn.exec_driver_sql(f"CREATE TABLE IF NOT EXISTS {table} (id integer PRIMARY KEY)")
    conn.exec_driver_sql(
        f"CREATE TRIGGER {table}_no_rows BEFORE INSERT OR UPDATE OR DELETE ON {table} "
        "FOR EACH ROW EXECUTE FUNCTION referee_append_only()"
    )
    stations = conn.execute(
        text(
            "SELECT DISTINCT quote_ident(grantee) FROM information_schema.role_table_grants "
            "WHERE table_schema = current_schema() AND table_name = 'audit_log' "
            "AND privilege_type = 'INSERT' AND grantee <> current_user"
        )
    ).scalars()
    for role in stations:
        conn.exec_driver_sql(f"GRANT UPDATE ON {table} TO {role}")
        conn.exec_driver_sql(f"REVOKE INSERT ON {table} FROM {role}")


MIGRATIONS: dict[int, Callable[[Connection], None]] = {
    1: _v1,
    2: _v2,
    3: _v3,
    4: _v4,
    5: _v5,
    6: _v6_desk_records,
    7: _v6_store_meta_guard,  # written as 6 on the store branch, merged after the desk's
    8: _v8_station_keys,
    9: _v9_match_pair_index,
    10: _v10_match_result,
    11: _v11_hand_lost_by_both,
    12: _v12_writer_lock,
}
assert max(MIGRATIONS) == SCHEMA_VERSION


def schema_version(conn: Connection) -> int:
    if not inspect(conn).has_table("store_meta"):
        return 0
    row = conn.execute(select(store_meta.c.value).where(store_meta.c.key == "schema_version")).first()
    return 0 if row is None else _version_number(row[0], "the database")


def _version_number(value: Any, where: str) -> int:
    text = str(value)
    if not (text.isascii() and text.isdigit() and 0 < len(text) <= 6):
        raise DatabaseError(
            f"{where}: store_meta says schema version {text[:40]!r}, not a version number; "
            "the database was not changed (restore it from a copy)",
            code="db.bad_version",
            where=where,
        )
    return int(text)


def _check_may_upgrade(conn: Connection, current: int, target: int, where: str) -> None:
    """On PostgreSQL only the tables' owner upgrades the schema; a station login (which may
    only read and append, see ``pgroles``) is told so instead of a permission error."""
    if conn.dialect.name != "postgresql":
        return
    row = conn.execute(
        text(
            "SELECT tableowner, current_user FROM pg_tables "
            "WHERE schemaname = current_schema() AND tablename = 'audit_log'"
        )
    ).first()
    if row is not None and row[0] != row[1]:
        raise DatabaseError(
            f"{where}: the store is at schema version {current} and this referee-app needs "
            f"{target}; only the owner's login ({row[0]}) may upgrade it, not the station login "
            f"{row[1]}: run any command once with the owner's URL (referee-app --db OWNER_URL db upgrade)",
            code="db.upgrade_owner",
            where=where,
            current=current,
            target=target,
        )


def _lock_for_migration(conn: Connection, where: str, target: int) -> None:
    """Serialize schema changes, and them with writers. SQLite: BEGIN IMMEDIATE did. On
    PostgreSQL, with the writers' timeouts (a stuck lock is an error, not a hang): an
    existing store locks its ``store_meta`` (the owner's table: no other login may take a
    lock that conflicts), and its writers' table from version 12; an empty schema has
    nothing to lock yet, and its creators serialize on an advisory lock."""
    if conn.dialect.name != "postgresql":
        return
    conn.exec_driver_sql(PG_LOCK_SQL[0])
    if not inspect(conn).has_table("store_meta"):
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": PG_WRITE_LOCK})
    else:
        current = schema_version(conn)
        if current < target:
            _check_may_upgrade(conn, current, target, where)
        conn.exec_driver_sql("LOCK TABLE store_meta IN SHARE ROW EXCLUSIVE MODE")
        if inspect(conn).has_table(PG_WRITER_LOCK_TABLE):
            conn.exec_driver_sql(PG_LOCK_SQL[1])
    conn.exec_driver_sql(PG_LOCK_SQL[2])


def migrate(
    engine: Engine,
    *,
    create: bool,
    user: str,
    station: str,
    where: str,
    target: int = SCHEMA_VERSION,
) -> int:
    """Bring the schema to ``target`` in one transaction, with an audit entry. Returns it."""
    with engine.connect().execution_options(**READ_ONLY) as conn:
        current = schema_version(conn)
        conn.rollback()
    _refuse_too_new(where, current)
    if current >= target:
        return current
    if current == 0 and not create:
        raise DatabaseError(
            f"{where}: no referee-app database here (create an event first: referee-app event create)",
            code="db.missing",
            where=where,
        )
    with engine.begin() as conn:
        _lock_for_migration(conn, where, target)
        current = schema_version(conn)  # another process may have done it meanwhile
        _refuse_too_new(where, current)
        if current >= target:
            return current
        if current > 0:
            _check_may_upgrade(conn, current, target, where)
        for v in range(current + 1, target + 1):
            MIGRATIONS[v](conn)
        if current == 0:
            conn.execute(store_meta.insert().values(key="schema_version", value=str(target)))
        else:
            conn.execute(
                store_meta.update().where(store_meta.c.key == "schema_version").values(value=str(target))
            )
        w = Writer(conn)
        w.commit_entry(
            user=user,
            station=station,
            action="db.create" if current == 0 else "db.upgrade",
            info={"from": current, "to": target},
        )
    return target
