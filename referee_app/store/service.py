"""The store's operations: create an event, import pairs, record and void matches,
export, verify and read the log.

Every write runs in one transaction that (1) takes the writers' lock, (2) checks what it
relies on (optimistic versioning: the version the caller last saw), (3) inserts rows and
(4) appends the audit entry that covers them.  It is reported saved only once committed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from typing import Any, Concatenate, Generic, ParamSpec, Self, TypeVar, overload

from sqlalchemy import (
    Connection,
    Engine,
    select,
)

from . import audit, keys
from .appeals import Appeals
from .common import Actor, EventInfo
from .db import open_engine
from .desk import Desk
from .errors import (
    InputError,
)
from .matches import Matches
from .models import (
    audit_log,
    events,
    pairs,
    players,
)
from .pairs_csv import PairRow
from .pins import Pins
from .registry import Registry
from .shared import Shared
from .walholder import WalHolder

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
    """An open event store. ``Store.open(None)`` opens the default SQLite file."""

    def __init__(self, engine: Engine) -> None:
        self._shared = Shared(engine)
        self._pins = Pins(self._shared)
        self._matches = Matches(self._shared)
        self._registry = Registry(self._shared)
        self._desk = Desk(self._shared)
        self._appeals = Appeals(self._shared)
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

    # -- opening -----------------------------------------------------------------
    @classmethod
    def open(
        cls, target: str | None, *, create: bool = False, actor: Actor | None = None, hold: bool = False
    ) -> Store:
        """``hold``: on SQLite, a helper process keeps the file open while the store is, so
        that a save costs its commit and not a checkpoint (``walholder``); for the window
        and other long-lived processes, not worth its start for one command."""
        a = actor or Actor.default()
        store = cls(open_engine(target, create=create, user=a.user, station=a.station))
        if hold and store.engine.dialect.name == "sqlite" and store.engine.url.database:
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

    # -- what every part shares (store/shared.py) ------------------------------------
    #: a write or a read of the caller's own (the printing reads the chain's head with one)
    _write = _Via(lambda s: s._shared, Shared.write)
    _read = _Via(lambda s: s._shared, Shared.read)
    list_events = _Via(lambda s: s._shared, Shared.list_events)
    pick_event = _Via(lambda s: s._shared, Shared.pick_event)
    rulebook_text = _Via(lambda s: s._shared, Shared.rulebook_text)
    pinned_rulebook = _Via(lambda s: s._shared, Shared.pinned_rulebook)
    _authorize = _Via(lambda s: s._shared, Shared.authorize)
    _authorize_with = _Via(lambda s: s._shared, Shared.authorize_with)
    _missing_tables = _Via(lambda s: s._shared, Shared.missing_tables)

    # -- roles and PINs (store/pins.py) ------------------------------------------------------
    roles_enforced = _Via(lambda s: s._pins, Pins.roles_enforced)
    role_states = _Via(lambda s: s._pins, Pins.role_states)
    login = _Via(lambda s: s._pins, Pins.login)
    set_pin = _Via(lambda s: s._pins, Pins.set_pin)

    # -- matches (store/matches.py) ----------------------------------------------------------
    record = _Via(lambda s: s._matches, Matches.record)
    void = _Via(lambda s: s._matches, Matches.void)
    current_matches = _Via(lambda s: s._matches, Matches.current_matches)
    seated_tables = _Via(lambda s: s._matches, Matches.seated_tables)
    current_results = _Via(lambda s: s._matches, Matches.current_results)
    export = _Via(lambda s: s._matches, Matches.export)
    history = _Via(lambda s: s._matches, Matches.history)
    rulings_of = _Via(lambda s: s._matches, Matches.rulings_of)
    sign_match = _Via(lambda s: s._matches, Matches.sign_match)
    signatures_of = _Via(lambda s: s._matches, Matches.signatures_of)
    signing_of = _Via(lambda s: s._matches, Matches.signing_of)
    signed_match_ids = _Via(lambda s: s._matches, Matches.signed_match_ids)

    # -- station keys and event keys (store/registry.py) -------------------------------------
    setup_station_login = _Via(lambda s: s._registry, Registry.setup_station_login)
    station_keys = _Via(lambda s: s._registry, Registry.station_keys)
    register_key = _Via(lambda s: s._registry, Registry.register_key)
    revoke_key = _Via(lambda s: s._registry, Registry.revoke_key)
    store_event_key = _Via(lambda s: s._registry, Registry.store_event_key)
    event_key = _Via(lambda s: s._registry, Registry.event_key)

    # -- desk records (store/desk.py) --------------------------------------------------------
    desk_records = _Via(lambda s: s._desk, Desk.desk_records)
    add_desk_record = _Via(lambda s: s._desk, Desk.add_desk_record)
    pair_entry_rounds = _Via(lambda s: s._desk, Desk.pair_entry_rounds)
    audit_head = _Via(lambda s: s._desk, Desk.audit_head)

    # -- appeals (store/appeals.py) ----------------------------------------------------------
    ruling = _Via(lambda s: s._appeals, Appeals.ruling)
    appeals = _Via(lambda s: s._appeals, Appeals.appeals)
    appeal = _Via(lambda s: s._appeals, Appeals.appeal)
    file_appeal = _Via(lambda s: s._appeals, Appeals.file_appeal)
    review_appeal = _Via(lambda s: s._appeals, Appeals.review_appeal)
    withdraw_appeal = _Via(lambda s: s._appeals, Appeals.withdraw_appeal)
    decide_appeal = _Via(lambda s: s._appeals, Appeals.decide_appeal)

    # -- events ------------------------------------------------------------------
    def create_event(self, *, name: str, rulebook: Any, date: str | None, actor: Actor) -> EventInfo:
        """Create an event pinned to ``rulebook`` (an object with id, sha256, source_text)."""
        if not name.strip():
            raise InputError("--name: the event needs a name", code="event.name_missing", field="name")

        def run(conn: Connection) -> EventInfo:
            w = audit.Writer(conn)
            eid = w.insert(
                events,
                {
                    "name": name.strip(),
                    "date": date,
                    "rulebook_id": rulebook.id,
                    "rulebook_sha256": rulebook.sha256,
                    "rulebook_text": rulebook.source_text,
                },
            )
            w.commit_entry(
                user=actor.user,
                station=actor.station,
                action="event.create",
                event_id=eid,
                info={
                    "name": name.strip(),
                    "date": date,
                    "rulebook": rulebook.id,
                    "sha256": rulebook.sha256,
                    # said once: every action is allowed until the chief referee sets a PIN
                    "roles_enforced": False,
                },
            )
            return EventInfo(eid, name.strip(), date, rulebook.id, rulebook.sha256)

        return self._write(run)  # type: ignore[no-any-return]

    # -- pairs -------------------------------------------------------------------
    def import_pairs(self, event_id: int, rows: list[PairRow], *, actor: Actor, source: str) -> int:
        def run(conn: Connection) -> int:
            existing = set(conn.execute(select(pairs.c.number).where(pairs.c.event_id == event_id)).scalars())
            for r in rows:
                if r.number in existing:
                    raise InputError(
                        f"{source}: line {r.line}: pair number {r.number} is already in event "
                        f"{event_id}; nothing imported",
                        code="pairs.duplicate_in_event",
                        source=source,
                        line=r.line,
                        pair=r.number,
                        event=event_id,
                    )
            as_role = self._authorize(conn, event_id, "pairs.import", actor)
            w = audit.Writer(conn)
            for r in rows:
                pid = w.insert(pairs, {"event_id": event_id, "number": r.number, "unit": r.unit})
                w.insert(players, {"pair_id": pid, "position": 1, "name": r.player1})
                w.insert(players, {"pair_id": pid, "position": 2, "name": r.player2})
            w.commit_entry(
                user=actor.user,
                station=actor.station,
                action="pairs.import",
                event_id=event_id,
                role=as_role,
                info={
                    "source": os.path.basename(source),
                    "count": len(rows),
                    "numbers": [r.number for r in rows],
                },
            )
            return len(rows)

        return self._write(run)  # type: ignore[no-any-return]

    def list_pairs(self, event_id: int, numbers: Collection[str] | None = None) -> list[dict[str, Any]]:
        """The event's pairs (only those numbered ``numbers`` when given), with their players."""

        def run(conn: Connection) -> list[dict[str, Any]]:
            # one query for the whole field (the desk reads it for every command)
            stmt = (
                select(pairs.c.id, pairs.c.number, pairs.c.unit, players.c.name)
                .outerjoin(players, players.c.pair_id == pairs.c.id)
                .where(pairs.c.event_id == event_id)
                .order_by(pairs.c.id, players.c.position)
            )
            if numbers is not None:
                stmt = stmt.where(pairs.c.number.in_(sorted(set(numbers))))
            out: dict[int, dict[str, Any]] = {}
            for r in conn.execute(stmt):
                p = out.get(r.id)
                if p is None:
                    p = out[r.id] = {"id": r.id, "number": r.number, "unit": r.unit, "players": []}
                if r.name is not None:
                    p["players"].append(r.name)
            return list(out.values())

        return self._read(run)  # type: ignore[no-any-return]

    def entries_since(
        self, seq: int, limit: int = 1000
    ) -> list[tuple[int, str, int | None, int | None, int | None]]:
        """What each audit entry after ``seq`` touched: (seq, action, event, round, table), at
        most ``limit`` (in seq order) — how a station learns what another one changed."""
        stmt = (
            select(
                audit_log.c.seq,
                audit_log.c.action,
                audit_log.c.event_id,
                audit_log.c.round_no,
                audit_log.c.table_no,
            )
            .where(audit_log.c.seq > seq)
            .order_by(audit_log.c.seq)
            .limit(limit)
        )
        return self._read(lambda conn: [tuple(r) for r in conn.execute(stmt)])  # type: ignore[no-any-return]

    # -- audit ---------------------------------------------------------------------
    def verify(
        self,
        head: str | None = None,
        anchors: list[audit.Anchor] | None = None,
        *,
        root: str | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> audit.VerifyResult:
        """Recompute the chain and check every entry's signature; with ``head`` (a hash
        noted earlier, e.g. on a signed scoresheet) also check that the chain still passes
        through that entry; with ``anchors`` (entry number and hash, from an anchor file or
        a QR code) report a log truncated before one of them or rewritten at one of them;
        with ``root`` (the trust root's fingerprint, kept by the chief referee) report a
        store whose key registrations start elsewhere. Reads in batches."""
        return self._read(  # type: ignore[no-any-return]
            lambda conn: audit.verify(conn, head, anchors or [], root=root, progress=progress)
        )

    def anchor(self) -> audit.Anchor:
        """The chain's head now, to keep outside the database (paper, a file, a QR code)."""
        seq, digest = self._read(audit.head)
        return audit.Anchor(int(seq), str(digest))

    def log(
        self, event_id: int | None = None, round_no: int | None = None, table_no: int | None = None
    ) -> list[dict[str, Any]]:
        conds = []
        if event_id is not None:
            conds.append(audit_log.c.event_id == event_id)
        if round_no is not None:
            conds.append(audit_log.c.round_no == round_no)
        if table_no is not None:
            conds.append(audit_log.c.table_no == table_no)
        return self._read(lambda conn: audit.entries(conn, conds))  # type: ignore[no-any-return]
