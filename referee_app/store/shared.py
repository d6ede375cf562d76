"""What every part of the store is given (:class:`Shared`): the engine, the write and read
transactions, the events and their pinned rulebooks, the role check and which tables an
older store lacks.

The :class:`~.service.Store` makes one and hands it to each of its parts (:mod:`.events`,
:mod:`.matches`, :mod:`.appeals`, :mod:`.desk`, :mod:`.registry`, :mod:`.pins`,
:mod:`.auditlog`) in their constructors: a part holds it, none inherits from it, and no
part holds another.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Connection, Engine, func, select
from sqlalchemy.exc import DBAPIError, IntegrityError

from . import audit, keys, roles
from .common import Actor
from .db import READ_ONLY, database_error, display_url, wal_identity
from .errors import ConflictError, DatabaseError, InputError, NotFoundError, RoleError
from .models import audit_log, events, role_pins, voidings
from .models import signatures as signatures_t
from .sqlitefile import EventInfo

log = logging.getLogger("referee_app.store")


class Shared:
    """The store's engine and what its parts share through it (see the module's docstring)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._rulebooks: dict[int, Any] = {}  # event id -> pinned Rulebook (events never change)
        # ticket -> (event id, role, the PIN hash it was checked against, the name given);
        # :class:`~.pins.Pins` issues them at login, :meth:`authorize` checks them
        self.logins: dict[str, tuple[int, str, str, str]] = {}
        self._open_noted: set[int] = set()
        # table name -> whether this store has it (tests write as older schemas, on engines
        # open_engine did not upgrade; a real store is always at SCHEMA_VERSION)
        self._has: dict[str, bool] = {}
        # event id -> EventInfo: events are append-only (the database refuses UPDATE and
        # DELETE), so one read per store serves every save
        self._events: dict[int, EventInfo] = {}
        #: The station keys that sign this store's entries (see ``keys``; ``Store.keyring``
        #: may be replaced, e.g. by a command that unlocked an encrypted key first).
        self.keyring = keys.KeyRing()

    def forget(self) -> None:
        """Drop what was read from the store (events, rulebooks, tables): its whole content
        was replaced (a restore, ``backup.restore_over``). Logins stay: each is checked
        against the PIN hash it was made with, so one the restored store's PINs do not
        match is no login any more (``_login_role``)."""
        self._rulebooks.clear()
        self._open_noted.clear()
        self._has.clear()
        self._events.clear()

    @property
    def where(self) -> str:
        return display_url(self.engine.url)

    def write(self, fn: Callable[[Connection], Any], *, lock: bool = True) -> Any:
        """Run ``fn`` in one write transaction. ``lock=False``: ``fn`` takes the writers'
        lock itself before it reads anything (on SQLite, BEGIN IMMEDIATE has taken it)."""
        try:
            if self.engine.dialect.name == "sqlite":
                return self._write_sqlite(fn)
            with self.engine.begin() as conn:
                conn.info[audit.KEYRING_KEY] = self.keyring
                if lock:
                    audit.lock_for_write(
                        conn, old_schema=not self.has_table(conn, audit.PG_WRITER_LOCK_TABLE)
                    )
                return fn(conn)
        except IntegrityError as err:
            raise ConflictError(
                f"{self.where}: another station wrote the same record first; reload and try "
                f"again ({audit_first_line(err)})",
                code="store.race",
                where=self.where,
            ) from None
        except DBAPIError as err:
            raise database_error(err, self.engine.url) from None

    def _write_sqlite(self, fn: Callable[[Connection], Any]) -> Any:
        """One write on SQLite, reported saved only if other processes can read it.

        The connection is opened for this write alone (see ``db.make_engine``). The
        identity of ``-wal``/``-shm`` is taken when the write lock is held and compared
        before COMMIT: a change means this process lost its locks and another process
        deleted the WAL it holds, so the write is rolled back and run once more on a
        fresh connection. A change after COMMIT (a race of microseconds) is settled by
        re-reading the entries from a new connection; missing ones mean "not saved".
        """
        path = str(self.engine.url.database)
        for _attempt in range(2):
            with self.engine.connect() as conn:
                conn.info.pop(audit.WRITTEN_KEY, None)
                conn.info[audit.KEYRING_KEY] = self.keyring
                with conn.begin() as trans:
                    before = wal_identity(path)
                    result = fn(conn)
                    if wal_identity(path) != before:
                        trans.rollback()
                        continue
                # compared right after COMMIT, before this connection closes: its close
                # (the last connection's checkpoint) removes the WAL itself, as it should
                after = wal_identity(path)
                written = list(conn.info.pop(audit.WRITTEN_KEY, []))
            if after != before and written and not self._entries_readable(written):
                raise DatabaseError(
                    f"{self.where}: NOT saved: another program removed the database's "
                    "write-ahead log while this station was writing; reopen the event and "
                    "record again",
                    code="store.wal_lost",
                    where=self.where,
                )
            return result
        raise DatabaseError(
            f"{self.where}: not saved: another program keeps removing the database's "
            "write-ahead log under this station (nothing was written); close other programs "
            "that open the database file and try again",
            code="store.wal_removed",
            where=self.where,
        )

    def _entries_readable(self, hashes: list[str]) -> bool:
        with self.engine.connect().execution_options(**READ_ONLY) as conn:
            found = conn.execute(
                select(func.count()).select_from(audit_log).where(audit_log.c.hash.in_(hashes))
            ).scalar()
            conn.rollback()
        return int(found or 0) == len(hashes)

    def read(self, fn: Callable[[Connection], Any]) -> Any:
        try:
            with self.engine.connect().execution_options(**READ_ONLY) as conn:
                try:
                    return fn(conn)
                finally:
                    conn.rollback()
        except DBAPIError as err:
            raise database_error(err, self.engine.url) from None

    def list_events(self) -> list[EventInfo]:
        def run(conn: Connection) -> list[EventInfo]:
            cols = select(
                events.c.id, events.c.name, events.c.date, events.c.rulebook_id, events.c.rulebook_sha256
            )
            return [
                EventInfo(r.id, r.name, r.date, r.rulebook_id, r.rulebook_sha256)
                for r in conn.execute(cols.order_by(events.c.id))
            ]

        return self.read(run)  # type: ignore[no-any-return]

    def pick_event(self, event_id: int | None) -> EventInfo:
        if event_id is not None and event_id in self._events:
            return self._events[event_id]
        evs = self.list_events()
        self._events.update((e.id, e) for e in evs)
        if event_id is not None:
            for e in evs:
                if e.id == event_id:
                    return e
            raise NotFoundError(
                f"--event: no event {event_id} in {self.where}",
                code="event.not_found",
                field="event",
                event=event_id,
                where=self.where,
            )
        if not evs:
            raise NotFoundError(
                f"{self.where}: no event yet (create one: referee-app event create)",
                code="event.none",
                where=self.where,
            )
        if len(evs) > 1:
            names = ", ".join(f"{e.id}: {e.name}" for e in evs)
            raise InputError(
                f"{self.where} holds several events ({names}); name one with --event",
                code="event.several",
                field="event",
                where=self.where,
                names=names,
            )
        return evs[0]

    def rulebook_text(self, event_id: int) -> tuple[str, str, str]:
        """(id, sha256, TOML text) of the rulebook the event is pinned to."""

        def run(conn: Connection) -> tuple[str, str, str]:
            r = conn.execute(select(events).where(events.c.id == event_id)).one()
            return r.rulebook_id, r.rulebook_sha256, r.rulebook_text

        return self.read(run)  # type: ignore[no-any-return]

    def pinned_rulebook(self, event_id: int) -> Any:
        from referee_app.core.errors import RulebookError
        from referee_app.core.rulebook import rulebook_from_text

        if event_id in self._rulebooks:
            return self._rulebooks[event_id]
        rid, sha, text = self.rulebook_text(event_id)
        try:
            rb = rulebook_from_text(text, origin=f"db:event {event_id}", use_cache=False)
        except RulebookError as err:
            raise DatabaseError(
                f"event {event_id}: its pinned rulebook {rid} (sha256 {sha[:12]}) does not load "
                f"in this version of referee-app: {err}",
                code="event.rulebook_load",
                event=event_id,
                rulebook=rid,
                sha=sha[:12],
                detail=str(err),
            ) from None
        if getattr(rb, "sha256", sha) != sha:
            raise DatabaseError(
                f"event {event_id}: the stored rulebook text does not match its hash {sha[:12]}",
                code="event.rulebook_hash",
                event=event_id,
                sha=sha[:12],
            )
        self._rulebooks[event_id] = rb
        return rb

    # -- the role check ----------------------------------------------------------------
    def authorize(self, conn: Connection, event_id: int, action: str, actor: Actor) -> str | None:
        """Refuse ``action`` (``RoleError``) unless the event's roles allow ``actor`` to do it.

        Inside the write's transaction. Returns the role the actor logged in as (kept in the
        audit entry), or None on an event without PINs, where everything is allowed."""
        return self.authorize_with(self._pins(conn, event_id), event_id, action, actor)

    def authorize_with(
        self, pins: Mapping[str, tuple[str, int]], event_id: int, action: str, actor: Actor
    ) -> str | None:
        """:meth:`authorize` with the event's current PINs already read."""
        role = self._login_role(actor, event_id, pins)
        if not pins:
            if event_id not in self._open_noted:
                self._open_noted.add(event_id)
                log.info("event %s has no PINs: roles are not enforced (%s allowed)", event_id, action)
            return None
        if role is not None and role in roles.PERMISSIONS[action]:
            return role
        raise RoleError(
            roles.refusal(action, role),
            code="role.refused",
            action=action,
            needs=roles.allowed(action),
            role=role or "none",
        )

    def _pins(self, conn: Connection, event_id: int) -> dict[str, tuple[str, int]]:
        return roles.current_pins(conn, event_id) if self.has_table(conn, role_pins.name) else {}

    def missing_tables(self, conn: Connection) -> frozenset[str]:
        """The tables a save reads that this store lacks (see :meth:`has_table`)."""
        names = [t.name for t in (role_pins, signatures_t, voidings)]
        if conn.dialect.name == "postgresql":
            names.append(audit.PG_WRITER_LOCK_TABLE)
        return frozenset(name for name in names if not self.has_table(conn, name))

    def has_table(self, conn: Connection, name: str) -> bool:
        """Whether the store has the table. Only a store made on an engine that open_engine
        did not upgrade (tests that write as an older version did) lacks one: no PINs or
        signatures there."""
        found = self._has.get(name)
        if found is None:
            from sqlalchemy import inspect

            found = self._has[name] = inspect(conn).has_table(name)
        return found

    def _login_role(self, actor: Actor, event_id: int, pins: Mapping[str, tuple[str, int]]) -> str | None:
        """The role ``actor`` logged in as on this event through this store, if the PIN it
        gave is still the role's PIN (a PIN changed since ends every login with the old one)."""
        if actor.ticket is None:
            return None
        found = self.logins.get(actor.ticket)
        if found is None:
            return None
        ev_id, role, pin_hash, name = found
        if ev_id != event_id or role != actor.role or pins.get(role, ("",))[0] != pin_hash:
            return None
        if actor.user != name:  # the log's "who" is the name given at login, nobody else's
            return None
        return role


def audit_first_line(err: BaseException) -> str:
    orig = getattr(err, "orig", None) or err
    lines = [ln.strip() for ln in str(orig).splitlines() if ln.strip()]
    return lines[0] if lines else type(orig).__name__
