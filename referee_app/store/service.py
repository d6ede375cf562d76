"""The store's operations: create an event, import pairs, record and void matches,
export, verify and read the log.

Every write runs in one transaction that (1) takes the writers' lock, (2) checks what it
relies on (optimistic versioning: the version the caller last saw), (3) inserts rows and
(4) appends the audit entry that covers them.  It is reported saved only once committed.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import os
import secrets
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from datetime import timedelta
from typing import Any, Concatenate, Generic, ParamSpec, Self, TypeVar, overload

from sqlalchemy import (
    Connection,
    Engine,
    Text,
    and_,
    case,
    exists,
    func,
    literal_column,
    select,
)
from sqlalchemy.exc import DBAPIError

from ..core.editing import DecisionPlace, carry_forward
from ..core.errors import field_of
from . import audit, keys, roles
from .appeals import Appeals
from .common import Actor, EventInfo, Recorded, _current_at, _voided, strip_case
from .db import READ_ONLY, database_error, open_engine
from .desk import Desk
from .errors import (
    ConflictError,
    InputError,
    LockedError,
    NotFoundError,
    PinError,
)
from .models import (
    audit_log,
    auth_attempts,
    events,
    matches,
    pairs,
    players,
    role_pins,
    rounds,
    rulings,
    voidings,
)
from .models import signatures as signatures_t
from .pairs_csv import PairRow
from .registry import Registry
from .save import SIDES, _conflict_message, _locked_message, _Prepared, _write_match
from .shared import Shared
from .walholder import WalHolder

#: Who signs a match version: the four players (by seat) and the table referee.
SIGNERS = ("N", "E", "S", "W", "referee")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
MAX_SIGNATURE_BYTES = 2_000_000
#: The longest idempotency token (the column's width on every backend).
MAX_TOKEN = 100


def _whole(value: Any, field: str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(
            f"{where}: {field}: expected a whole number ≥ 1, got {json.dumps(value)}",
            code="input.whole_number",
            field=field_of(field),
            where=where,
            got=json.dumps(value),
        )
    return value


def _pair_number(value: Any, field: str, where: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)) or str(value).strip() == "":
        raise InputError(
            f"{where}: {field}: expected a pair number, got {json.dumps(value)}",
            code="input.pair_number",
            field=field_of(field),
            where=where,
            got=json.dumps(value),
        )
    return str(value).strip()


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

    # -- matches -----------------------------------------------------------------
    def record(
        self,
        event_id: int,
        case: Any,
        *,
        actor: Actor,
        lang: str = "zh",
        expected_version: int | None = None,
        token: str | None = None,
        source: str = "case",
        correction_reason: str | None = None,
        replace_decisions: bool = False,
    ) -> Recorded:
        """Judge ``case`` under the event's pinned rulebook and record it.

        A new version keeps what the version it replaces recorded (``carry_forward``): the
        seat that dealt each later hand as played, and every decision on a ruling (an
        override, a voiding, the committee's) that ``case`` does not address. A ``case`` that
        changes, drops or decides otherwise a ruling that carries a decision is refused with
        ``match.decisions_touched`` unless ``replace_decisions`` confirms it, with a
        ``correction_reason``; the entry lists what was carried and what was replaced.

        ``expected_version``: the version of this round and table the caller last saw
        (0 = none yet); a different current version is refused with ``ConflictError``.
        ``None`` supersedes whatever is current.  ``token``: an idempotency key; the same
        token recorded again returns the first result and writes nothing.

        A signed version is locked: a new version of it is refused with ``LockedError``
        unless ``correction_reason`` is given (a chief referee's correction: the reason is
        kept in the audit entry, the old signed version stays, the new one is unsigned).
        """
        if correction_reason is not None and not correction_reason.strip():
            raise InputError(
                "--reason: a correction needs a written reason",
                code="match.correct_reason_missing",
                field="reason",
            )
        if not isinstance(case, dict):
            raise InputError(
                f"{source}: expected a JSON object (a case), got {type(case).__name__}",
                code="case.not_object",
                source=source,
                got=type(case).__name__,
            )
        rnd = _whole(case.get("round"), "round", source)
        tbl = _whole(case.get("table"), "table", source)
        pv = case.get("pairs")
        if not isinstance(pv, dict):
            raise InputError(
                f'{source}: pairs: expected {{"NS": "<pair number>", '
                f'"EW": "<pair number>"}}, got {json.dumps(pv, ensure_ascii=False)}',
                code="case.pairs_shape",
                source=source,
            )
        nums = {s: _pair_number(pv.get(s), f"pairs.{s}", source) for s in SIDES}
        extra = set(pv) - set(SIDES)
        if extra:
            raise InputError(
                f"{source}: pairs: unknown key {sorted(extra)[0]!r} (use NS and EW)",
                code="case.pairs_key",
                source=source,
                key=sorted(extra)[0],
            )
        if nums["NS"] == nums["EW"]:
            raise InputError(
                f"{source}: pairs: NS and EW are the same pair {nums['NS']}",
                code="case.pairs_same",
                source=source,
                pair=nums["NS"],
            )
        if expected_version is not None and expected_version < 0:
            raise InputError(
                f"--expect-version: expected 0 or more, got {expected_version}",
                code="match.expect_version",
                field="expect_version",
                got=expected_version,
            )
        if token is not None and not (0 < len(token) <= MAX_TOKEN and token.isprintable()):
            raise InputError(
                f"--token: expected 1 to {MAX_TOKEN} printable characters, got {len(token)} characters",
                code="match.token_invalid",
                field="token",
                max=MAX_TOKEN,
                n=len(token),
            )

        ev = self.pick_event(event_id)
        rb = self.pinned_rulebook(ev.id)
        stored_case = copy.deepcopy(case)
        given_event = case.get("event")
        if given_event is None:
            stored_case["event"] = rb.id
        elif given_event != rb.id:
            raise InputError(
                f"{source}: event: this event runs under rulebook {rb.id!r} "
                f"(sha256 {ev.rulebook_sha256[:12]}), the case names {given_event!r}",
                code="case.rulebook_differs",
                field="event",
                source=source,
                rulebook=rb.id,
                given=given_event,
            )
        if replace_decisions and correction_reason is None:
            raise InputError(
                "--reason: replacing a decision on a ruling needs a written reason",
                code="match.replace_reason_missing",
                field="reason",
            )
        correction = None if correction_reason is None else {"reason": correction_reason.strip()}
        action = "match.record" if correction is None else "match.correct"
        from referee_app.core.engine import decide
        from referee_app.core.errors import CaseError

        def judged(case_: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
            to_judge_ = strip_case(case_)
            try:
                # stored, chained and printed as a digest in no language: words are added on reading
                return to_judge_, decide(copy.deepcopy(to_judge_), rulebook=rb).to_json()
            except CaseError as err:
                raise InputError(
                    f"{source}: {err}",
                    code=getattr(err, "code", "case.invalid"),
                    field=getattr(err, "field", None),
                    **getattr(err, "values", {}),
                ) from None

        def carry(earlier_case: str, earlier_decision: str) -> _Prepared | None:
            # what the version this one replaces recorded stays (read in the save's first batch)
            carried = carry_forward(json.loads(earlier_case), json.loads(earlier_decision), stored_case)
            if carried.touched and not replace_decisions:
                raise _touched_error(source, carried.touched)
            if not (carried.dealers or carried.decisions or carried.touched):
                return None
            if carried.case == stored_case:
                return _Prepared(carried, stored_case, to_judge, decision)
            return _Prepared(carried, carried.case, *judged(carried.case))

        to_judge, decision = judged(stored_case)

        def run(conn: Connection) -> Recorded:
            return _write_match(
                conn,
                authorize=lambda pins: self._authorize_with(pins, ev.id, action, actor),
                missing=self._missing_tables(conn),
                commit=True,
                ev=ev,
                rnd=rnd,
                tbl=tbl,
                nums=nums,
                stored_case=stored_case,
                to_judge=to_judge,
                decision=decision,
                lang=lang,
                actor=actor,
                expected_version=expected_version,
                token=token,
                source=source,
                correction=correction,
                carry=carry,
            )

        # the writers' lock is the first statement of the save's first batch (see save.py)
        return self._write(run, lock=False)  # type: ignore[no-any-return]

    def void(
        self,
        event_id: int,
        *,
        round_no: int,
        table_no: int,
        reason: str,
        actor: Actor,
        expected_version: int | None = None,
        correction: bool = False,
    ) -> int:
        """Void the current version of a match (with a reason). Returns the voiding id.

        A signed version is voided only as a chief referee's ``correction``."""
        if not reason.strip():
            raise InputError(
                "--reason: a voiding needs a written reason", code="match.void_reason_missing", field="reason"
            )
        ev = self.pick_event(event_id)

        def run(conn: Connection) -> int:
            round_id = conn.execute(
                select(rounds.c.id).where(and_(rounds.c.event_id == ev.id, rounds.c.number == round_no))
            ).scalar()
            current = None if round_id is None else _current_at(conn, int(round_id), table_no)
            if current is None:
                raise NotFoundError(
                    f"round {round_no} table {table_no}: nothing recorded",
                    code="match.nothing_recorded",
                    round=round_no,
                    table=table_no,
                )
            if expected_version is not None and expected_version != current.version:
                raise ConflictError(
                    _conflict_message(conn, round_no, table_no, expected_version, current),
                    code="match.conflict",
                    round=round_no,
                    table=table_no,
                    expected=expected_version,
                )
            if _voided(conn, int(current.id)):
                raise ConflictError(
                    f"round {round_no} table {table_no} version {current.version} is already void",
                    code="match.already_void",
                    round=round_no,
                    table=table_no,
                    version=current.version,
                )
            if _signed(conn, int(current.id)) and not correction:
                raise LockedError(
                    _locked_message(round_no, table_no, int(current.version)),
                    code="match.locked",
                    round=round_no,
                    table=table_no,
                    version=int(current.version),
                )
            as_role = self._authorize(conn, ev.id, "match.correct" if correction else "match.void", actor)
            w = audit.Writer(conn)
            vid = w.insert(voidings, {"match_id": current.id, "reason": reason.strip()})
            w.commit_entry(
                user=actor.user,
                station=actor.station,
                action="match.void",
                event_id=ev.id,
                role=as_role,
                round_no=round_no,
                table_no=table_no,
                supersedes=int(current.entry_seq),
                info={
                    "match_id": int(current.id),
                    "version": int(current.version),
                    "reason": reason.strip(),
                    "round": round_no,
                    "table": table_no,
                    **({"correction": True} if correction else {}),
                },
            )
            return vid

        return self._write(run)  # type: ignore[no-any-return]

    def current_matches(
        self, event_id: int, round_no: int | None = None, tables: Collection[int] | None = None
    ) -> list[dict[str, Any]]:
        """The current version of every match of the event (voided ones excluded); with
        ``round_no`` of that round only, with ``tables`` of those tables only."""
        stmt = _current_matches_stmt(event_id)
        if round_no is not None:
            stmt = stmt.where(rounds.c.number == round_no)
        if tables is not None:
            stmt = stmt.where(matches.c.table_no.in_(sorted(set(tables))))
        return self._read(lambda conn: [dict(r._mapping) for r in conn.execute(stmt)])  # type: ignore[no-any-return]

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

    def seated_tables(self, event_id: int, round_no: int) -> list[tuple[int, str, str]]:
        """Round ``round_no``'s tables as seated (each current match's table, NS and EW
        pair), in table order; nothing else of the matches is read."""
        stmt = _current_matches_stmt(event_id, matches.c.table_no).where(rounds.c.number == round_no)
        return self._read(  # type: ignore[no-any-return]
            lambda conn: [(int(r.table_no), str(r.ns_number), str(r.ew_number)) for r in conn.execute(stmt)]
        )

    def current_results(self, event_id: int, before_round: int | None = None) -> list[dict[str, Any]]:
        """What the desk reads of every current match (voided ones excluded; with
        ``before_round``, the rounds before it), in round and table order: ``round_no``,
        ``table_no``, ``ns_number``, ``ew_number``, ``result`` (the decision's result; None
        while the match has none) and ``decision`` — the whole decision, only for a match
        with rulings (its sanctions are read from them), else None.

        The database takes the result out of the decision's JSON: parsing every decision
        in Python cost most of reading a large event (2048 decisions: 190 of 350 ms)."""
        with_rulings = exists().where(rulings.c.match_id == matches.c.id)
        stmt = _current_matches_stmt(
            event_id,
            matches.c.table_no,
            _match_result(self.engine.dialect.name).label("result"),
            case((with_rulings, matches.c.decision_json), else_=None).label("decision"),
        )
        if before_round is not None:
            stmt = stmt.where(rounds.c.number < before_round)

        def read(conn: Connection) -> list[dict[str, Any]]:
            return [
                {
                    "round_no": r.round_no,
                    "table_no": r.table_no,
                    "ns_number": r.ns_number,
                    "ew_number": r.ew_number,
                    "result": None if r.result is None else json.loads(r.result),
                    "decision": None if r.decision is None else json.loads(r.decision),
                }
                for r in conn.execute(stmt)
            ]

        return self._read(read)  # type: ignore[no-any-return]

    def export(
        self, event_id: int, progress: Callable[[int, int], None] | None = None
    ) -> Iterator[dict[str, Any]]:
        """Each current match as one JSON-ready dict, read in batches (the connection stays
        open until the last one is taken): memory does not grow with the event."""
        ev = self.pick_event(event_id)
        stmt = _current_matches_stmt(ev.id)
        try:
            with self.engine.connect().execution_options(**READ_ONLY) as conn:
                try:
                    total = 0
                    if progress is not None:
                        counted = select(func.count()).select_from(stmt.subquery())
                        total = int(conn.execute(counted).scalar() or 0)
                    rows = conn.execution_options(yield_per=audit.BATCH, stream_results=True).execute(stmt)
                    for n, r in enumerate(rows, 1):
                        m = r._mapping
                        yield {
                            "match_id": m["id"],
                            "round": m["round_no"],
                            "table": m["table_no"],
                            "version": m["version"],
                            "pairs": {"NS": m["ns_number"], "EW": m["ew_number"]},
                            "lang": m["lang"],
                            "rulebook": {"id": ev.rulebook_id, "sha256": ev.rulebook_sha256},
                            "case": json.loads(m["case_json"]),
                            "decision": json.loads(m["decision_json"]),
                        }
                        if progress is not None:
                            progress(n, total)
                finally:
                    conn.rollback()
        except DBAPIError as err:
            raise database_error(err, self.engine.url) from None

    def history(self, event_id: int, round_no: int, table_no: int) -> list[dict[str, Any]]:
        """Every version of a match, oldest first, with its voiding if any."""

        def run(conn: Connection) -> list[dict[str, Any]]:
            stmt = (
                select(matches, voidings.c.reason.label("void_reason"))
                .join(rounds, rounds.c.id == matches.c.round_id)
                .outerjoin(voidings, voidings.c.match_id == matches.c.id)
                .where(
                    and_(
                        rounds.c.event_id == event_id,
                        rounds.c.number == round_no,
                        matches.c.table_no == table_no,
                    )
                )
                .order_by(matches.c.version)
            )
            return [dict(r._mapping) for r in conn.execute(stmt)]

        return self._read(run)  # type: ignore[no-any-return]

    def rulings_of(self, match_id: int) -> list[dict[str, Any]]:
        def run(conn: Connection) -> list[dict[str, Any]]:
            stmt = select(rulings).where(rulings.c.match_id == match_id).order_by(rulings.c.id)
            return [dict(r._mapping) for r in conn.execute(stmt)]

        return self._read(run)  # type: ignore[no-any-return]

    # -- signatures ------------------------------------------------------------------
    def sign_match(
        self,
        event_id: int,
        round_no: int,
        table_no: int,
        expected_version: int,
        signatures: Mapping[str, bytes],
        actor: Actor,
    ) -> int:
        """Store the signatures (PNG) of the four players and the table referee on a match
        version; the version is then locked. Returns the version signed.

        ``expected_version`` must be the current version (what the signers saw)."""
        given = dict(signatures) if isinstance(signatures, Mapping) else {}
        unknown = sorted(set(given) - set(SIGNERS))
        if unknown:
            raise InputError(
                f"signatures.{unknown[0]}: unknown signer (expected {', '.join(SIGNERS)})",
                code="signature.unknown_signer",
                field=f"signatures.{unknown[0]}",
                allowed=list(SIGNERS),
            )
        missing = [k for k in SIGNERS if k not in given]
        if missing:
            raise InputError(
                f"signatures.{missing[0]}: missing (all of {', '.join(SIGNERS)} must sign)",
                code="signature.missing",
                field=f"signatures.{missing[0]}",
                allowed=list(SIGNERS),
            )
        for k in SIGNERS:
            _check_png(given[k], f"signatures.{k}")
        ev = self.pick_event(event_id)

        def run(conn: Connection) -> int:
            current = self._current(conn, ev.id, round_no, table_no)
            if current is None:
                raise NotFoundError(
                    f"round {round_no} table {table_no}: nothing recorded",
                    code="match.nothing_recorded",
                    round=round_no,
                    table=table_no,
                )
            if expected_version != current.version:
                raise ConflictError(
                    _conflict_message(conn, round_no, table_no, expected_version, current),
                    code="match.conflict",
                    round=round_no,
                    table=table_no,
                    expected=expected_version,
                )
            if _voided(conn, int(current.id)):
                raise InputError(
                    f"round {round_no} table {table_no} version {current.version} is void",
                    code="match.version_void",
                    round=round_no,
                    table=table_no,
                    version=current.version,
                )
            if _signed(conn, int(current.id)):
                raise ConflictError(
                    f"round {round_no} table {table_no} version {current.version} is already signed",
                    code="match.already_signed",
                    round=round_no,
                    table=table_no,
                    version=current.version,
                )
            if json.loads(current.decision_json).get("result") is None:
                raise InputError(
                    f"round {round_no} table {table_no} has no result yet (version {current.version}); "
                    "sign it when the round is finished",
                    code="match.no_result",
                    round=round_no,
                    table=table_no,
                    version=current.version,
                )
            as_role = self._authorize(conn, ev.id, "match.sign", actor)
            w = audit.Writer(conn)
            digests = {}
            for k in SIGNERS:
                digest = hashlib.sha256(given[k]).hexdigest()
                digests[k] = digest
                w.insert(
                    signatures_t,
                    {
                        "match_id": int(current.id),
                        "signer": k,
                        "png_b64": base64.b64encode(given[k]).decode("ascii"),
                        "sha256": digest,
                    },
                )
            w.commit_entry(
                user=actor.user,
                station=actor.station,
                action="match.sign",
                event_id=ev.id,
                role=as_role,
                round_no=round_no,
                table_no=table_no,
                info={
                    "match_id": int(current.id),
                    "version": int(current.version),
                    "round": round_no,
                    "table": table_no,
                    "signers": list(SIGNERS),
                },
            )
            return int(current.version)

        return self._write(run)  # type: ignore[no-any-return]

    def signatures_of(
        self, event_id: int, round_no: int, table_no: int, version: int | None = None
    ) -> dict[str, bytes]:
        """The signatures of a match version (default: the current one); {} when unsigned."""

        def run(conn: Connection) -> dict[str, bytes]:
            m = self._match_at(conn, event_id, round_no, table_no, version)
            if m is None:
                return {}
            return _signatures_of(conn, int(m.id))

        return self._read(run)  # type: ignore[no-any-return]

    def signing_of(self, match_id: int) -> dict[str, Any] | None:
        """Who stored the signatures of a match version, and when (or None)."""

        def run(conn: Connection) -> dict[str, Any] | None:
            row = conn.execute(
                select(signatures_t.c.entry_seq).where(signatures_t.c.match_id == match_id).limit(1)
            ).first()
            if row is None:
                return None
            e = conn.execute(select(audit_log).where(audit_log.c.seq == row.entry_seq)).one()
            return {"user": e.user_name, "station": e.station, "at": e.at, "seq": int(e.seq)}

        return self._read(run)  # type: ignore[no-any-return]

    def signed_match_ids(self, event_id: int) -> set[int]:
        def run(conn: Connection) -> set[int]:
            stmt = (
                select(signatures_t.c.match_id)
                .join(matches, matches.c.id == signatures_t.c.match_id)
                .where(matches.c.event_id == event_id)
                .distinct()
            )
            return {int(x) for x in conn.execute(stmt).scalars()}

        return self._read(run)  # type: ignore[no-any-return]

    def _current(self, conn: Connection, event_id: int, round_no: int, table_no: int) -> Any:
        round_id = conn.execute(
            select(rounds.c.id).where(and_(rounds.c.event_id == event_id, rounds.c.number == round_no))
        ).scalar()
        return None if round_id is None else _current_at(conn, int(round_id), table_no)

    def _match_at(
        self, conn: Connection, event_id: int, round_no: int, table_no: int, version: int | None
    ) -> Any:
        if version is None:
            return self._current(conn, event_id, round_no, table_no)
        return conn.execute(
            select(matches)
            .join(rounds, rounds.c.id == matches.c.round_id)
            .where(
                and_(
                    rounds.c.event_id == event_id,
                    rounds.c.number == round_no,
                    matches.c.table_no == table_no,
                    matches.c.version == version,
                )
            )
        ).first()

    def roles_enforced(self, event_id: int) -> bool:
        """Whether the event has PINs (then every write is checked against its role)."""
        return self._read(lambda conn: bool(roles.current_pins(conn, event_id)))  # type: ignore[no-any-return]

    def role_states(self, event_id: int) -> dict[str, roles.RoleState]:
        """Each role's PIN (set or not, when, by whom) and lock, now."""
        now = roles.utcnow()

        def run(conn: Connection) -> dict[str, roles.RoleState]:
            return {r: roles.role_state(conn, event_id, r, now) for r in roles.ROLES}

        return self._read(run)  # type: ignore[no-any-return]

    def login(self, event_id: int, role: str, pin: str, *, actor: Actor, name: str | None = None) -> Actor:
        """Check ``role``'s PIN on the event; returns ``actor`` in that role, authenticated.

        ``name``: who logs in (default ``actor.user``); every entry written with the returned
        actor names them, beside the role.

        A wrong PIN is recorded (every station counts it) and raises ``PinError`` saying how
        many tries are left; the 5th in a run locks the role for a minute. On an event
        without PINs there is nothing to log in to: the actor is returned with the role
        claimed, not authenticated (everything is allowed there anyway)."""
        roles.check_role(role)
        if not isinstance(pin, str):
            raise InputError("PIN: expected digits", code="pin.not_digits", field="pin")
        given = (actor.user if name is None else name).strip()
        if not (0 < len(given) <= 100 and given.isprintable()):
            raise InputError(
                "name: who logs in, 1 to 100 printable characters", code="login.name_invalid", field="user"
            )
        ev = self.pick_event(event_id)
        now = roles.utcnow()
        who = roles.role_name(role)

        def run(conn: Connection) -> tuple[bool, roles.RoleState | None]:
            pins = roles.current_pins(conn, ev.id)
            if not pins:
                return True, None
            st = roles.role_state(conn, ev.id, role, now)
            if st.pin_hash is None:
                raise PinError(
                    f"the {who} has no PIN on event {ev.id} yet; the chief referee sets one "
                    f"(referee-app role set-pin --role {role})",
                    role=role,
                    code="pin.none",
                    event=ev.id,
                )
            if st.locked_until is not None:
                raise _locked(who, st)
            ok = roles.pin_matches(pin, st.pin_hash)
            if ok and not st.failures:
                return True, st  # nothing to reset: nothing written
            w = audit.Writer(conn)
            w.insert(auth_attempts, {"event_id": ev.id, "role": role, "ok": ok, "at": roles.iso(now)})
            w.commit_entry(
                user=given,
                station=actor.station,
                action="auth.ok" if ok else "auth.fail",
                event_id=ev.id,
                info={"for_role": role, "failures": 0 if ok else st.failures + 1},
            )
            return ok, st

        ok, st = self._write(run)
        if st is None:
            return Actor(given, actor.station, role)
        if not ok:
            after = st.failures + 1
            if after % roles.MAX_TRIES == 0:
                until = now + timedelta(seconds=roles.LOCK_SECONDS)
                raise _locked(who, roles.RoleState(role, st.pin_hash, st.pin_seq, None, None, after, until))
            left = roles.MAX_TRIES - after % roles.MAX_TRIES
            raise PinError(
                f"wrong PIN for the {who}; {left} {'try' if left == 1 else 'tries'} left before "
                f"a {roles.LOCK_SECONDS}-second lock",
                role=role,
                tries_left=left,
                code="pin.wrong",
                field="pin",
                n=left,
                lock=roles.LOCK_SECONDS,
            )
        assert st.pin_hash is not None
        ticket = secrets.token_hex(16)
        self._shared.logins[ticket] = (ev.id, role, st.pin_hash, given)
        return Actor(given, actor.station, role, ticket)

    def set_pin(self, event_id: int, role: str, pin: str, *, actor: Actor) -> None:
        """Set (or change) ``role``'s PIN on the event: the chief referee's act, or anyone's
        on an event without PINs, where the chief referee's PIN must come first. Only the
        salted hash is stored; the audit entry says "PIN set for …" and holds a digest of
        the hash. Setting a PIN ends that role's run of wrong PINs (and its lock)."""
        roles.check_role(role)
        roles.check_pin(pin)
        ev = self.pick_event(event_id)
        pin_hash = roles.hash_pin(pin)

        def run(conn: Connection) -> None:
            pins = roles.current_pins(conn, ev.id)
            as_role = self._authorize(conn, ev.id, "pin.set", actor)
            if not pins and role != roles.CHIEF_REFEREE:
                raise InputError(
                    f"--role {role}: set the chief referee's PIN first (roles are enforced on "
                    f"event {ev.id} from then on)",
                    code="pin.chief_first",
                    field="role",
                    event=ev.id,
                )
            w = audit.Writer(conn)
            w.insert(role_pins, {"event_id": ev.id, "role": role, "pin_hash": pin_hash})
            w.commit_entry(
                user=actor.user,
                station=actor.station,
                action="pin.set",
                event_id=ev.id,
                info={"for_role": role, "changed": role in pins, "roles_enforced": True},
                role=as_role,
            )

        self._write(run)

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


def _match_result(dialect: str) -> Any:
    """A match's result as JSON text (NULL while it has none): on PostgreSQL the column taken
    out of the decision as it was written (schema 10), on SQLite out of the decision."""
    if dialect == "postgresql":
        return literal_column("matches.result_json", Text)
    return func.json_extract(matches.c.decision_json, "$.result")


def _current_matches_stmt(event_id: int, *columns: Any) -> Any:
    """The current version of every match of the event (voided ones excluded), in round and
    table order: ``columns`` (every column of ``matches`` without them), the round, and the
    two pairs' numbers."""
    # the latest version as "no later version of the same table": one probe of the version
    # index a match, whatever the planner believes (a GROUP BY joined back was planned as a
    # nested loop over the whole round on a PostgreSQL table not yet ANALYZEd: 270 ms for
    # 2048 matches instead of 30)
    later = matches.alias("later")
    superseded = exists().where(
        later.c.round_id == matches.c.round_id,
        later.c.table_no == matches.c.table_no,
        later.c.version > matches.c.version,
    )
    ns = pairs.alias("ns")
    ew = pairs.alias("ew")
    return (
        select(
            *(columns or (matches,)),
            rounds.c.number.label("round_no"),
            ns.c.number.label("ns_number"),
            ew.c.number.label("ew_number"),
        )
        .join(rounds, rounds.c.id == matches.c.round_id)
        .join(ns, ns.c.id == matches.c.ns_pair_id)
        .join(ew, ew.c.id == matches.c.ew_pair_id)
        .outerjoin(voidings, voidings.c.match_id == matches.c.id)
        .where(matches.c.event_id == event_id, ~superseded, voidings.c.id.is_(None))
        .order_by(rounds.c.number, matches.c.table_no)
    )


def _locked(who: str, st: roles.RoleState) -> PinError:
    assert st.locked_until is not None
    return PinError(
        f"the {who} is locked until {roles.local_hms(st.locked_until)} after {roles.MAX_TRIES} wrong PINs",
        role=st.role,
        locked_until=st.locked_until,
        code="pin.locked",
        until=roles.local_hms(st.locked_until),
        tries=roles.MAX_TRIES,
    )


def _check_png(value: Any, field: str) -> None:
    if not isinstance(value, (bytes, bytearray)):
        raise InputError(
            f"{field}: expected PNG bytes, got {type(value).__name__}",
            code="signature.not_png",
            field=field_of(field),
        )
    if len(value) < 33 or not value.startswith(PNG_MAGIC) or value[12:16] != b"IHDR":
        raise InputError(
            f"{field}: not a PNG image ({len(value)} bytes, starts {bytes(value[:8])!r})",
            code="signature.not_png",
            field=field_of(field),
        )
    if len(value) > MAX_SIGNATURE_BYTES:
        raise InputError(
            f"{field}: {len(value)} bytes, more than {MAX_SIGNATURE_BYTES} for a signature",
            code="signature.too_big",
            field=field_of(field),
            size=len(value),
            limit=MAX_SIGNATURE_BYTES,
        )


def _signatures_of(conn: Connection, match_id: int) -> dict[str, bytes]:
    rows = conn.execute(
        select(signatures_t.c.signer, signatures_t.c.png_b64).where(signatures_t.c.match_id == match_id)
    )
    return {r.signer: base64.b64decode(r.png_b64) for r in rows}


def _signed(conn: Connection, match_id: int) -> bool:
    found = conn.execute(
        select(signatures_t.c.id).where(signatures_t.c.match_id == match_id).limit(1)
    ).first()
    return found is not None


def _touched_error(source: str, touched: Sequence[DecisionPlace]) -> InputError:
    """The refusal of a case that would drop or change decisions on rulings (改判、撤销)."""
    first = touched[0]
    where = "before play" if first.hand == 0 else f"hand {first.hand}"
    return InputError(
        f"{source}: {where}: the {first.kind} ruling carries a decision ({first.decision}) that "
        f"this case changes or drops ({len(touched)} in all); nothing saved: keep the ruling as it "
        "is, or confirm with --replace-decisions and a --reason",
        code="match.decisions_touched",
        field="case",
        source=source,
        hand=first.hand,
        kind=first.kind,
        decision=first.decision,
        n=len(touched),
    )
