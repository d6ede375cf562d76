"""The event store (:class:`Store`): the one object app/ opens, a facade over its parts.

The work is in the parts, each a class in its own module, given the store's shared object
(:class:`~.shared.Shared`: the engine, the write and read transactions, the events and their
pinned rulebooks, the role check) in its constructor; none inherits from another, none
reaches into another:

* :mod:`.events` — create an event, import and list its pairs;
* :mod:`.matches` — record, correct and void a match, sign it, read the current versions,
  a table's history, the rulings and signatures (a save goes through :mod:`.save`);
* :mod:`.appeals` — file, review, decide and withdraw an appeal (a decision saves a new
  version of the match through :mod:`.save` as well);
* :mod:`.desk` — the chief referee's desk records: pairings and proposals, withdrawals, the
  clock, the round's end, the publication of scores;
* :mod:`.registry` — station keys and each event's signing key;
* :mod:`.pins` — the roles' PINs and the login;
* :mod:`.auditlog` — the chain read back: verify, anchor, the log, what changed since;
* :mod:`.backup` — the store copied to a file, and replaced by one.

Every write runs in one transaction that (1) takes the writers' lock, (2) checks what it
relies on (optimistic versioning: the version the caller last saw), (3) inserts rows and
(4) appends the audit entry that covers them.  It is reported saved only once committed.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Concatenate, Generic, ParamSpec, Self, TypeVar, overload

from sqlalchemy import Engine

from . import keys, roles
from .appeals import Appeals
from .auditlog import AuditLog
from .backup import Backups, Copied, check_backup, record, restore_new, target_exists
from .common import Actor, Recorded
from .db import display_url, open_engine, resolve_target
from .desk import Desk
from .errors import BackupError
from .events import Events
from .matches import Matches
from .pins import Pins
from .registry import Registry
from .shared import Shared
from .sqlitefile import EventInfo
from .walholder import WalHolder

#: What app/ and the tests take from here: the Store, who acts, and what it returns.
__all__ = ["Actor", "Copied", "EventInfo", "Recorded", "Store"]

_Part = TypeVar("_Part")
_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")


class _Via(Generic[_Part, _Params, _Result]):
    """A method of the :class:`Store` that is a method of one of its parts:
    ``record = _Via(lambda s: s._matches, Matches.record)`` makes ``store.record`` the bound
    ``store._matches.record``, typed as that method, its docstring the part's. Looked up by
    name on the part at each call: a method replaced on the part's class is the one called."""

    def __init__(
        self, part: Callable[[Store], _Part], method: Callable[Concatenate[_Part, _Params], _Result]
    ) -> None:
        self._part = part
        self._name = method.__name__
        self.__doc__ = method.__doc__

    @overload
    def __get__(self, store: None, owner: type) -> Self: ...
    @overload
    def __get__(self, store: Store, owner: type) -> Callable[_Params, _Result]: ...
    def __get__(self, store: Store | None, owner: type) -> Self | Callable[_Params, _Result]:
        if store is None:
            return self
        return getattr(self._part(store), self._name)  # type: ignore[no-any-return]


class Store:
    """An open event store. ``Store.open(None)`` opens the default SQLite file.

    The Store opens and closes the database and holds its parts (see the module): each
    public method below is one line naming the part's method that does the work, with its
    signature and docstring."""

    def __init__(self, engine: Engine) -> None:
        self._shared = Shared(engine)
        self._events = Events(self._shared)
        self._matches = Matches(self._shared)
        self._appeals = Appeals(self._shared)
        self._desk = Desk(self._shared)
        self._registry = Registry(self._shared)
        self._pins = Pins(self._shared)
        self._log = AuditLog(self._shared)
        self._backups = Backups(self._shared)
        self._holder: WalHolder | None = None

    @property
    def engine(self) -> Engine:
        return self._shared.engine

    @property
    def keyring(self) -> keys.KeyRing:
        """The station keys that sign this store's entries (see ``keys``); may be replaced,
        e.g. by a command that unlocked an encrypted key first."""
        return self._shared.keyring

    @keyring.setter
    def keyring(self, ring: keys.KeyRing) -> None:
        self._shared.keyring = ring

    @property
    def where(self) -> str:
        return self._shared.where

    def clock_now(self) -> datetime:
        """The time the store dates what a station does by when its own clock must not decide
        (PIN locks, the round clock's acts): the database server's on PostgreSQL, out of any
        station's reach; this computer's on SQLite, where every station shares it."""
        return self._shared.read(roles.store_now)  # type: ignore[no-any-return]

    # -- opening -----------------------------------------------------------------
    @classmethod
    def open(
        cls,
        target: str | None,
        *,
        create: bool = False,
        actor: Actor | None = None,
        hold: bool = False,
        read_only: bool = False,
    ) -> Store:
        """``hold``: on SQLite, a helper process keeps the file open while the store is, so
        that a save costs its commit and not a checkpoint (``walholder``); for the window
        and other long-lived processes, not worth its start for one command.
        ``read_only``: for a command that only reads: opened read-only, never created nor
        upgraded (``db.open_engine``); a write through it is refused by the database."""
        a = actor or Actor.default()
        store = cls(open_engine(target, create=create, user=a.user, station=a.station, read_only=read_only))
        if hold and not read_only and store.engine.dialect.name == "sqlite" and store.engine.url.database:
            store._holder = WalHolder.start(store.engine.url.database, wait=True)
        return store

    @property
    def held(self) -> bool:
        """Whether a helper process holds this SQLite store open (``open(hold=True)``)."""
        return self._holder is not None and self._holder.running

    def close(self) -> None:
        self.engine.dispose()
        if self._holder is not None:
            self._holder.stop()
            self._holder = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what every part shares (shared.py) ----------------------------------------
    #: a write or a read of the caller's own (the printing reads the chain's head with one)
    _write = _Via(lambda s: s._shared, Shared.write)
    _read = _Via(lambda s: s._shared, Shared.read)
    list_events = _Via(lambda s: s._shared, Shared.list_events)
    pick_event = _Via(lambda s: s._shared, Shared.pick_event)
    rulebook_text = _Via(lambda s: s._shared, Shared.rulebook_text)
    pinned_rulebook = _Via(lambda s: s._shared, Shared.pinned_rulebook)

    # -- events and pairs (events.py) ----------------------------------------------
    create_event = _Via(lambda s: s._events, Events.create_event)
    import_pairs = _Via(lambda s: s._events, Events.import_pairs)
    list_pairs = _Via(lambda s: s._events, Events.list_pairs)

    # -- matches (matches.py) ------------------------------------------------------
    record = _Via(lambda s: s._matches, Matches.record)
    void = _Via(lambda s: s._matches, Matches.void)
    current_matches = _Via(lambda s: s._matches, Matches.current_matches)
    round_numbers = _Via(lambda s: s._matches, Matches.round_numbers)
    seated_tables = _Via(lambda s: s._matches, Matches.seated_tables)
    current_results = _Via(lambda s: s._matches, Matches.current_results)
    export = _Via(lambda s: s._matches, Matches.export)
    history = _Via(lambda s: s._matches, Matches.history)
    rulings_of = _Via(lambda s: s._matches, Matches.rulings_of)
    sign_match = _Via(lambda s: s._matches, Matches.sign_match)
    signatures_of = _Via(lambda s: s._matches, Matches.signatures_of)
    signing_of = _Via(lambda s: s._matches, Matches.signing_of)
    signed_match_ids = _Via(lambda s: s._matches, Matches.signed_match_ids)

    # -- appeals (appeals.py) ------------------------------------------------------
    ruling = _Via(lambda s: s._appeals, Appeals.ruling)
    appeals = _Via(lambda s: s._appeals, Appeals.appeals)
    appeal = _Via(lambda s: s._appeals, Appeals.appeal)
    file_appeal = _Via(lambda s: s._appeals, Appeals.file_appeal)
    review_appeal = _Via(lambda s: s._appeals, Appeals.review_appeal)
    withdraw_appeal = _Via(lambda s: s._appeals, Appeals.withdraw_appeal)
    decide_appeal = _Via(lambda s: s._appeals, Appeals.decide_appeal)

    # -- desk records (desk.py) ----------------------------------------------------
    desk_records = _Via(lambda s: s._desk, Desk.desk_records)
    add_desk_record = _Via(lambda s: s._desk, Desk.add_desk_record)
    event_details = _Via(lambda s: s._desk, Desk.event_details)
    play_times = _Via(lambda s: s._desk, Desk.play_times)
    pair_entry_rounds = _Via(lambda s: s._desk, Desk.pair_entry_rounds)

    # -- station keys and event keys (registry.py) ---------------------------------
    setup_station_login = _Via(lambda s: s._registry, Registry.setup_station_login)
    station_keys = _Via(lambda s: s._registry, Registry.station_keys)
    register_key = _Via(lambda s: s._registry, Registry.register_key)
    revoke_key = _Via(lambda s: s._registry, Registry.revoke_key)
    store_event_key = _Via(lambda s: s._registry, Registry.store_event_key)
    event_key = _Via(lambda s: s._registry, Registry.event_key)

    # -- roles and PINs (pins.py) --------------------------------------------------
    roles_enforced = _Via(lambda s: s._pins, Pins.roles_enforced)
    role_states = _Via(lambda s: s._pins, Pins.role_states)
    login = _Via(lambda s: s._pins, Pins.login)
    set_pin = _Via(lambda s: s._pins, Pins.set_pin)

    # -- the audit log (auditlog.py) -----------------------------------------------
    entries_since = _Via(lambda s: s._log, AuditLog.entries_since)
    verify = _Via(lambda s: s._log, AuditLog.verify)
    anchor = _Via(lambda s: s._log, AuditLog.anchor)
    note_anchor = _Via(lambda s: s._log, AuditLog.note_anchor)
    anchor_state = _Via(lambda s: s._log, AuditLog.anchor_state)
    log = _Via(lambda s: s._log, AuditLog.log)
    audit_head = _Via(lambda s: s._log, AuditLog.audit_head)

    # -- backups (backup.py) -------------------------------------------------------
    backup = _Via(lambda s: s._backups, Backups.backup)

    def restore(self, source: str, *, actor: Actor, event_id: int | None = None) -> Copied:
        """``Backups.restore``: this store replaced by the backup file ``source``. Its own
        holder (a window's, ``hold``) lets go of the file meanwhile: only another process
        that has it open makes it "in use"."""
        path = self.engine.url.database
        holding = self._holder is not None
        if self._holder is not None:
            self._holder.stop()
            self._holder = None
        try:
            return self._backups.restore(source, actor=actor, event_id=event_id)
        finally:
            if holding and path:
                self._holder = WalHolder.start(path, wait=True)

    @staticmethod
    def restore_new(source: str, target: str | None, *, actor: Actor) -> Copied:
        """Restore the backup file ``source`` where no store is yet (``target``: a path
        or a URL, as ``open``): checked first (a referee-app store that verifies); the new
        store's log then says where it came from (``store.restore``). ``BackupError`` when a
        store is already there (``Store.restore`` replaces one)."""
        checked = check_backup(source)
        where, _default = resolve_target(target)
        if target_exists(where):
            raise BackupError(
                f"--store {display_url(where)}: a store is already there (--force replaces it)",
                code="backup.target_exists",
                where=display_url(where),
            )
        copied = restore_new(source, where, checked)
        with Store.open(where, actor=actor) as store:
            record(store._shared, "store.restore", copied, actor=actor, role=None, info={"file": source})
        return copied

    @staticmethod
    def store_exists(target: str | None) -> bool:
        """Whether a store (or any file) is at ``target`` already."""
        return target_exists(resolve_target(target)[0])
