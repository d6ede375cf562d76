"""The hash-chained audit log: appending entries and verifying the chain.

An entry's hash is ``sha256(prev_hash "\\n" header "\\n" payload)`` where ``header`` is the
canonical JSON of the entry's own fields and ``payload`` the canonical JSON of every row
the write inserted (``{"rows": {table: [row, …]}, "info": {…}}``).  ``verify`` recomputes
every hash, checks the links, and compares each domain row with the row its entry recorded,
so a value changed in SQL after the fact names the entry that wrote it.

Each entry is also signed by the station that wrote it (``keys``: Ed25519 over the entry's
hash, kept in ``entry_signatures``), and ``verify`` checks every signature against the keys
registered in the log itself, from the trust root on. It reads the log and the tables in
batches, in entry order, so its memory does not grow with the event.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Table, func, inspect, select, text

from .models import DOMAIN_TABLES, audit_log, entry_signatures

GENESIS = "0" * 64
#: Key of the PostgreSQL advisory lock that serializes the creation of a store's tables (an
#: empty schema has no table to lock yet; see ``db.migrate``). Writers do not use it: any
#: login may take an advisory lock, and one held forever stalled every save (issue 24).
PG_WRITE_LOCK = 0x5245_4631  # "REF1"
#: The table whose EXCLUSIVE lock serializes writers on PostgreSQL (the chain has one head).
#: It holds no rows. Taking the lock needs UPDATE on it (PostgreSQL's rule for LOCK TABLE in
#: that mode), which ``pgroles`` grants to station logins only: a plain login, with no rights
#: on the store, cannot take it, and station logins are the writers anyway.
PG_WRITER_LOCK_TABLE = "writer_lock"
#: How long a writer waits for the writers' lock (PostgreSQL ``lock_timeout``) before it
#: gives up with ``db.write_lock_timeout``: a save takes milliseconds, so seconds of waiting
#: mean a connection holds the lock and does not let it go.
PG_LOCK_TIMEOUT_S = 5
#: ``statement_timeout`` of the lock's statement (a bound on the wait whatever else it
#: waits on); the session's own setting is restored once the lock is held.
PG_LOCK_STATEMENT_TIMEOUT_S = 8
#: The statements that take the writers' lock, in order, inside the write transaction. The
#: timeouts are ``set_config(…, true)``: this transaction's only.
PG_LOCK_SQL: tuple[str, ...] = (
    "SELECT set_config('referee_app.statement_timeout', current_setting('statement_timeout'), true), "
    f"set_config('lock_timeout', '{PG_LOCK_TIMEOUT_S}s', true), "
    f"set_config('statement_timeout', '{PG_LOCK_STATEMENT_TIMEOUT_S}s', true)",
    f"LOCK TABLE {PG_WRITER_LOCK_TABLE} IN EXCLUSIVE MODE",
    "SELECT set_config('statement_timeout', current_setting('referee_app.statement_timeout'), true)",
)
#: The same on a store older than schema 12, which has no ``writer_lock`` table: only tests
#: write to one (a real store is upgraded as it is opened, see ``db.open_engine``).
PG_OLD_SCHEMA_LOCK_SQL: tuple[str, ...] = (
    PG_LOCK_SQL[0],
    f"SELECT pg_advisory_xact_lock({PG_WRITE_LOCK})",
    PG_LOCK_SQL[2],
)

#: ``Connection.info`` key: the hashes of the entries appended in the current transaction.
WRITTEN_KEY = "referee_app.written"
#: ``Connection.info`` key: the ``keys.KeyRing`` that signs the entries written on it.
KEYRING_KEY = "referee_app.keyring"

HEADER_FIELDS = (
    "seq",
    "at",
    "user_name",
    "station",
    "action",
    "event_id",
    "round_no",
    "table_no",
    "supersedes",
    "token",
)


def canonical(obj: Any) -> str:
    """The one JSON text of ``obj`` that is hashed and stored."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


#: A payload at least this long is kept compressed (:func:`stored_payload`).
COMPRESS_FROM = 1024
#: The mark of a compressed payload; canonical JSON never starts with it.
ZLIB_MARK = "z:"
#: What a compressed payload may expand to: a forged one cannot exhaust ``verify``'s memory.
PAYLOAD_MAX = 64 * 1024 * 1024


def stored_payload(text: str) -> str:
    """A payload as ``audit_log.payload`` keeps it: its canonical JSON, or from
    ``COMPRESS_FROM`` characters on, ``ZLIB_MARK`` and the base64 of its zlib compression.

    A match's entry repeats every row it covers (the rows' own columns and the entry are
    what ``verify`` compares): uncompressed it was 17 of the 30 KB the store kept a match
    (issue 11). The hash and the signature are always over the JSON text, whatever the
    form it is kept in, so the chain does not depend on it."""
    if len(text) < COMPRESS_FROM:
        return text
    return ZLIB_MARK + base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")


def payload_text(stored: str) -> str:
    """The canonical JSON of a payload as kept (either form); ValueError if a compressed
    one cannot be read or would expand past ``PAYLOAD_MAX``."""
    if not stored.startswith(ZLIB_MARK):
        return stored
    try:
        packed = base64.b64decode(stored[len(ZLIB_MARK) :], validate=True)
        unpack = zlib.decompressobj()
        raw = unpack.decompress(packed, PAYLOAD_MAX)
    except (binascii.Error, zlib.error) as err:
        raise ValueError(f"compressed payload not readable: {err}") from None
    if unpack.unconsumed_tail or not unpack.eof:
        raise ValueError("compressed payload incomplete or too large")
    return raw.decode("utf-8")


def _readable(stored: str) -> str | None:
    try:
        return payload_text(stored)
    except ValueError:
        return None


def entry_hash(prev_hash: str, header: Mapping[str, Any], payload_text: str) -> str:
    h = hashlib.sha256()
    h.update(prev_hash.encode("ascii"))
    h.update(b"\n")
    h.update(canonical({k: header[k] for k in HEADER_FIELDS}).encode("utf-8"))
    h.update(b"\n")
    h.update(payload_text.encode("utf-8"))
    return h.hexdigest()


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def store_clock(conn: Connection) -> datetime:
    """The store's clock, which dates entries and decides appeal windows: the database
    server's on PostgreSQL (one clock for every station, out of a station's reach), this
    computer's on SQLite (the store is a file on it)."""
    if conn.dialect.name == "postgresql":
        now = conn.execute(text("SELECT clock_timestamp()")).scalar_one()
        return now.astimezone(UTC)  # type: ignore[no-any-return]
    return datetime.now(UTC)


def iso_z(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def lock_for_write(conn: Connection, *, old_schema: bool = False) -> None:
    """Serialize writers for the rest of this transaction.

    SQLite: the transaction already began with ``BEGIN IMMEDIATE`` (see ``db``).
    PostgreSQL: the EXCLUSIVE lock of ``writer_lock`` (:data:`PG_LOCK_SQL`), released at
    commit or rollback; a wait longer than :data:`PG_LOCK_TIMEOUT_S` is an error
    (``db.write_lock_timeout``), not a hang. ``old_schema``: the store has no such table
    (:data:`PG_OLD_SCHEMA_LOCK_SQL`).
    """
    if conn.dialect.name == "postgresql":
        for sql in PG_OLD_SCHEMA_LOCK_SQL if old_schema else PG_LOCK_SQL:
            conn.execute(text(sql))


def head(conn: Connection) -> tuple[int, str]:
    row = conn.execute(
        select(audit_log.c.seq, audit_log.c.hash).order_by(audit_log.c.seq.desc()).limit(1)
    ).first()
    return (0, GENESIS) if row is None else (int(row.seq), str(row.hash))


#: Columns whose value the audit entry holds only as ``sha256:<hex>`` of it: a PIN's hash
#: stays out of the log (and its exports), while a change to it is still detected.
REDACTED: dict[str, tuple[str, ...]] = {"role_pins": ("pin_hash",)}


def row_dict(table: Table, values: Mapping[str, Any]) -> dict[str, Any]:
    """A row as hashed: every column, in the table's types (int, str, bool, None)."""
    out: dict[str, Any] = {}
    hidden = REDACTED.get(table.name, ())
    for col in table.columns:
        v = values.get(col.name)
        if col.name in hidden and isinstance(v, str):
            v = "sha256:" + hashlib.sha256(v.encode("utf-8")).hexdigest()
        if isinstance(v, bool) or v is None:
            out[col.name] = v
        elif isinstance(v, int):
            out[col.name] = int(v)
        else:
            out[col.name] = v
    return out


_INSERTS: dict[str, Any] = {}


def _insert_of(table: Table) -> Any:
    stmt = _INSERTS.get(table.name)
    if stmt is None:
        stmt = _INSERTS[table.name] = table.insert()
    return stmt


def _insert_many_of(table: Table) -> Any:
    key = table.name + "*"
    stmt = _INSERTS.get(key)
    if stmt is None:
        # ids back in the order of the rows given (SQLAlchemy's "insertmanyvalues")
        stmt = _INSERTS[key] = table.insert().returning(table.c.id, sort_by_parameter_order=True)
    return stmt


class Writer:
    """Collects the rows of one write and appends the entry that covers them.

    Use inside a transaction after ``lock_for_write``::

        w = Writer(conn)
        event_id = w.insert(events, {...})
        w.commit_entry(actor, "event.create", event_id=event_id, info={...})
    """

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.prev_seq, self.prev_hash = head(conn)
        self.seq = self.prev_seq + 1
        self.rows: dict[str, list[dict[str, Any]]] = {}

    def insert(self, table: Table, values: Mapping[str, Any]) -> int:
        vals = dict(values)
        vals["entry_seq"] = self.seq
        # one fixed statement per table, values as parameters: SQLAlchemy compiles it once
        result = self.conn.execute(_insert_of(table), vals)
        pk = result.inserted_primary_key
        assert pk is not None
        new_id = int(pk[0])
        vals["id"] = new_id
        self.rows.setdefault(table.name, []).append(row_dict(table, vals))
        return new_id

    def insert_many(self, table: Table, values: Sequence[Mapping[str, Any]]) -> list[int]:
        """Rows of one table (each with the same columns) in one statement; their ids in order."""
        if len(values) < 2:
            return [self.insert(table, v) for v in values]
        rows = [{**v, "entry_seq": self.seq} for v in values]
        stmt = _insert_many_of(table)
        ids = [int(r[0]) for r in self.conn.execute(stmt, rows)]
        assert len(ids) == len(rows)
        out = self.rows.setdefault(table.name, [])
        for vals, new_id in zip(rows, ids, strict=True):
            vals["id"] = new_id
            out.append(row_dict(table, vals))
        return ids

    def commit_entry(
        self,
        *,
        user: str,
        station: str,
        action: str,
        info: Mapping[str, Any],
        event_id: int | None = None,
        round_no: int | None = None,
        table_no: int | None = None,
        supersedes: int | None = None,
        token: str | None = None,
        role: str | None = None,
    ) -> dict[str, Any]:
        """``role``: the role the writer logged in as (kept in the entry's info)."""
        entry, signature = self._entry(
            at=self._clock(),
            user=user,
            station=station,
            action=action,
            info=info,
            event_id=event_id,
            round_no=round_no,
            table_no=table_no,
            supersedes=supersedes,
            token=token,
            role=role,
        )
        self._keep(entry, signature)
        return entry

    def _clock(self) -> datetime:
        """The entry's time: the store's clock."""
        return store_clock(self.conn)

    def _keep(self, entry: dict[str, Any], signature: dict[str, Any] | None) -> None:
        """Write the entry and its signature row (None: unsigned)."""
        self.conn.execute(_insert_of(audit_log), {k: entry[k] for k in entry if k != "signed_by"})
        if signature is not None:
            self.conn.execute(entry_signatures.insert().values(**signature))

    def _entry(
        self,
        *,
        at: datetime,
        user: str,
        station: str,
        action: str,
        info: Mapping[str, Any],
        event_id: int | None,
        round_no: int | None,
        table_no: int | None,
        supersedes: int | None,
        token: str | None,
        role: str | None,
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The entry covering this write's rows (hashed, chained) and its signature row
        (None: this station has no key for the role)."""
        full = dict(info)
        if role is not None:
            full["role"] = role
        payload_text = canonical({"rows": self.rows, "info": full})
        header: dict[str, Any] = {
            "seq": self.seq,
            "at": iso_z(at),
            "user_name": user,
            "station": station,
            "action": action,
            "event_id": event_id,
            "round_no": round_no,
            "table_no": table_no,
            "supersedes": supersedes,
            "token": token,
        }
        digest = entry_hash(self.prev_hash, header, payload_text)
        entry = {
            **header,
            "payload": stored_payload(payload_text),
            "prev_hash": self.prev_hash,
            "hash": digest,
        }
        ring = self.conn.info.get(KEYRING_KEY)
        signed = None if ring is None else ring.sign(station, role, digest)
        signature = None
        if signed is not None:
            fpr, sig = signed
            signature = {"seq": self.seq, "fingerprint": fpr, "signature": sig}
            entry["signed_by"] = fpr
        # The store re-reads these after commit when it must check that a save landed.
        self.conn.info.setdefault(WRITTEN_KEY, []).append(digest)
        return entry, signature


def insert_sql(table: Table, postgresql: bool) -> tuple[str, tuple[str, ...]]:
    """A fixed INSERT of every column of ``table`` for the driver itself, and its columns."""
    key = (table.name, postgresql)
    found = _DRIVER_INSERTS.get(key)
    if found is None:
        cols = tuple(c.name for c in table.columns)
        marks = ", ".join(f"%({c})s" if postgresql else f":{c}" for c in cols)
        names = ", ".join(f'"{c}"' for c in cols)
        found = _DRIVER_INSERTS[key] = (f'INSERT INTO "{table.name}" ({names}) VALUES ({marks})', cols)
    return found


_DRIVER_INSERTS: dict[tuple[str, bool], tuple[str, tuple[str, ...]]] = {}


class PlannedWriter(Writer):
    """A write whose head, clock and ids were read beforehand: the rows and the entry are
    built here and sent by ``flush`` in one batch through the driver, with no statement
    compiled per save and, on PostgreSQL, no wait between statements.

    ``ids``: for each table written, the ids its new rows take in order (allocated under
    the writers' lock, see ``save._allocated_ids``)."""

    def __init__(
        self,
        conn: Connection,
        head: tuple[int, str],
        ids: Mapping[str, Iterator[int]],
        at: datetime | None,
    ) -> None:
        self.conn = conn
        self.prev_seq, self.prev_hash = head
        self.seq = self.prev_seq + 1
        self.rows = {}
        self._ids = ids
        self._at = at
        self._queued: list[tuple[Table, list[dict[str, Any]]]] = []

    def insert(self, table: Table, values: Mapping[str, Any]) -> int:
        return self.insert_many(table, [values])[0]

    def insert_many(self, table: Table, values: Sequence[Mapping[str, Any]]) -> list[int]:
        ids = self._ids[table.name]
        try:
            rows = [{**v, "entry_seq": self.seq, "id": next(ids)} for v in values]
        except StopIteration:
            raise RuntimeError(f"{table.name}: more rows than ids taken for them") from None
        self._queued.append((table, rows))
        out = self.rows.setdefault(table.name, [])
        out += [row_dict(table, r) for r in rows]
        return [int(r["id"]) for r in rows]

    def _clock(self) -> datetime:
        """The time read with the lookups (the store's clock when it was not read)."""
        return self._at or store_clock(self.conn)

    def _keep(self, entry: dict[str, Any], signature: dict[str, Any] | None) -> None:
        """Queue the entry and its signature row for :meth:`statements`."""
        self._queued.append((audit_log, [entry]))
        if signature is not None:
            self._queued.append((entry_signatures, [signature]))

    def statements(self, postgresql: bool) -> list[tuple[str, list[dict[str, Any]]]]:
        """The inserts to run, in order: (SQL, one parameter set per row)."""
        out = []
        for table, rows in self._queued:
            sql, cols = insert_sql(table, postgresql)
            out.append((sql, [{c: r.get(c) for c in cols} for r in rows]))
        return out


@dataclass(frozen=True)
class VerifyResult:
    ok: bool
    entries: int
    head_hash: str
    problem: str | None = None  # the first entry that does not match, as one line
    bad_seq: int | None = None
    #: every problem found, in entry order (at most MAX_PROBLEMS; ``more_problems`` beyond)
    problems: tuple[str, ...] = ()
    more_problems: int = 0
    #: entries signed by a registered station key and checked
    signed: int = 0
    #: entries written before the trust root (before station keys existed): unsigned, and
    #: protected by the hash chain and the anchors only
    before_keys: int = 0
    #: unsigned schema entries (db.create, db.upgrade) after the trust root: they write no rows
    unsigned_schema: int = 0
    #: the trust root: the first registered key (the chief referee's), its fingerprint and entry
    root: str | None = None
    root_seq: int | None = None


#: Problems kept in a VerifyResult (a forged store could have millions).
MAX_PROBLEMS = 1000
#: Rows read per batch when verifying and exporting: memory stays flat with the event's size
#: (an entry of a 10-hand round is about 20 KB, so a batch holds about 2 MB of them).
BATCH = 100
#: Schema entries may be unsigned after the trust root (``open_engine`` upgrades before any
#: station key is loaded); they are accepted only when they write no rows.
SCHEMA_ACTIONS = ("db.create", "db.upgrade")
#: Entries written before a role is known (a login attempt) state no role even on an event
#: whose roles are enforced.
ROLELESS_ACTIONS = ("auth.ok", "auth.fail")


def _describe(entry: Mapping[str, Any]) -> str:
    where = []
    if entry.get("round_no") is not None:
        where.append(f"round {entry['round_no']}")
    if entry.get("table_no") is not None:
        where.append(f"table {entry['table_no']}")
    w = (" " + " ".join(where)) if where else ""
    return (
        f"entry #{entry['seq']} ({entry['action']}{w}, {entry['at']}, "
        f"{entry['user_name']}@{entry['station']})"
    )


#: An anchor as text (a line of an anchor file, the text of a QR code): the chain's entry
#: number and its hash, noted outside the database.
ANCHOR_PREFIX = "RA1"


@dataclass(frozen=True)
class Anchor:
    seq: int
    hash: str

    def text(self) -> str:
        return f"{ANCHOR_PREFIX}:{self.seq}:{self.hash}"


def parse_anchor(text: str, where: str) -> Anchor:
    """``RA1:<entry number>:<64 hex digits>`` (what ``anchor`` writes and QR codes carry)."""
    parts = text.strip().split(":")
    if (
        len(parts) != 3
        or parts[0].upper() != ANCHOR_PREFIX
        or not parts[1].isdigit()
        or len(parts[1]) > 12
        or len(parts[2]) != 64
        or any(c not in "0123456789abcdef" for c in parts[2].lower())
    ):
        shown = text.strip()[:40]
        raise ValueError(f"{where}: not an anchor ({shown!r}; expected {ANCHOR_PREFIX}:<entry>:<sha256 hex>)")
    return Anchor(int(parts[1]), parts[2].lower())


def _stream(conn: Connection, stmt: Any) -> Any:
    """Rows of ``stmt`` read in batches (a server-side cursor on PostgreSQL)."""
    return conn.execution_options(yield_per=BATCH, stream_results=True).execute(stmt)


class _TableRows:
    """One domain table's rows in entry order, read in batches, with one row of look-ahead."""

    def __init__(self, conn: Connection, table: Table) -> None:
        self.table = table
        self._it = iter(_stream(conn, select(table).order_by(table.c.entry_seq, table.c.id)))
        self.peek: dict[str, Any] | None = None
        self._advance()

    def _advance(self) -> None:
        r = next(self._it, None)
        self.peek = None if r is None else row_dict(self.table, r._asdict())

    def take_below(self, seq: int) -> Iterator[dict[str, Any]]:
        """The rows naming an entry before ``seq`` (none, unless that entry did not list them)."""
        while self.peek is not None and int(self.peek["entry_seq"]) < seq:
            row = self.peek
            self._advance()
            yield row

    def take(self, seq: int) -> Iterator[dict[str, Any]]:
        while self.peek is not None and int(self.peek["entry_seq"]) == seq:
            row = self.peek
            self._advance()
            yield row

    def rest(self) -> Iterator[dict[str, Any]]:
        while self.peek is not None:
            row = self.peek
            self._advance()
            yield row


@dataclass
class _Key:
    station: str
    role: str
    public_hex: str
    seq: int
    revoked: int | None = None  # the entry that revoked it


class _Signatures:
    """The station keys registered so far (read from the entries themselves, in order) and
    the check of each entry's signature against them."""

    def __init__(self, root: str | None) -> None:
        self.kept_root = root.strip().lower() if root else None
        self.keys: dict[str, _Key] = {}
        self.root: str | None = None
        self.root_seq: int | None = None
        self.signed = 0
        self.before_keys = 0
        self.unsigned_schema = 0
        self.enforced_events: set[int] = set()

    def check(self, e: Mapping[str, Any], payload: Mapping[str, Any]) -> list[str]:
        from . import keys as station_keys_mod

        seq = int(e["seq"])
        rows = payload.get("rows") or {}
        given = payload.get("info")
        info: dict[str, Any] = given if isinstance(given, dict) else {}
        role = info.get("role") if isinstance(info.get("role"), str) else None
        fpr, sig = e.get("sig_fpr"), e.get("sig")
        action = str(e["action"])
        trouble: list[str] = []
        registered = rows.get("station_keys") or [] if action == station_keys_mod.REGISTER_ACTION else []

        if self.root is None:
            if action != station_keys_mod.REGISTER_ACTION:
                self.before_keys += 1
                self._note_pins(rows)
                return []
            # The trust root: the chief referee's own key, registered by an entry it signs.
            mine = [r for r in registered if isinstance(r, dict) and fpr and _fpr_of(r) == fpr]
            if (
                len(registered) != 1
                or not mine
                or mine[0].get("role") != station_keys_mod.REGISTRAR_ROLE
                or mine[0].get("station") != e["station"]
                or not station_keys_mod.verify_signature(str(mine[0]["public_key"]), str(e["hash"]), str(sig))
            ):
                return [
                    f"{_describe(e)}: a key registration before any trust root that is not the "
                    "chief referee's own key signed by itself"
                ]
            self._add(mine[0], seq)
            self.root, self.root_seq = str(fpr), seq
            self.signed += 1
            return []

        if fpr is None:
            if action in SCHEMA_ACTIONS and not any(rows.values()):
                self.unsigned_schema += 1
                return []
            trouble.append(f"{_describe(e)}: unsigned (written without a registered station key)")
        else:
            key = self.keys.get(str(fpr))
            if key is None:
                trouble.append(f"{_describe(e)}: signed by an unregistered key {str(fpr)[:16]}…")
            elif not station_keys_mod.verify_signature(key.public_hex, str(e["hash"]), str(sig)):
                trouble.append(
                    f"{_describe(e)}: wrongly signed (the signature of key {str(fpr)[:16]}… does not "
                    "match the entry)"
                )
            else:
                if key.revoked is not None:
                    trouble.append(
                        f"{_describe(e)}: signed with key {str(fpr)[:16]}… of {key.station}, which "
                        f"the chief referee revoked at entry #{key.revoked}"
                    )
                if key.station != e["station"]:
                    trouble.append(
                        f"{_describe(e)}: signed with station {key.station}'s key but says station "
                        f"{e['station']}"
                    )
                if role is not None and role != key.role:
                    trouble.append(
                        f"{_describe(e)}: written as {role} but signed with the {key.role} key of "
                        f"{key.station} (a key used outside its registered role)"
                    )
                if action in station_keys_mod.KEY_ACTIONS and key.role != station_keys_mod.REGISTRAR_ROLE:
                    trouble.append(
                        f"{_describe(e)}: a key registration or revocation signed with a {key.role} "
                        "key (only the chief referee registers and revokes keys)"
                    )
                if (
                    role is None
                    and e.get("event_id") in self.enforced_events
                    and action not in ROLELESS_ACTIONS
                ):
                    trouble.append(
                        f"{_describe(e)}: states no role on event {e['event_id']}, whose roles are "
                        "enforced (the store never writes that)"
                    )
                if not trouble:
                    self.signed += 1
        if not trouble:
            for r in registered:
                if isinstance(r, dict):
                    self._add(r, seq)
            revoked = (
                self.keys.get(str(info.get("fingerprint")))
                if action == station_keys_mod.REVOKE_ACTION
                else None
            )
            if revoked is not None and revoked.revoked is None:
                revoked.revoked = seq
        self._note_pins(rows)
        return trouble

    def _note_pins(self, rows: Mapping[str, Any]) -> None:
        for r in rows.get("role_pins") or []:
            if isinstance(r, dict) and isinstance(r.get("event_id"), int):
                self.enforced_events.add(int(r["event_id"]))

    def _add(self, r: Mapping[str, Any], seq: int) -> None:
        fpr = _fpr_of(r)
        if fpr is not None:
            self.keys[fpr] = _Key(str(r.get("station")), str(r.get("role")), str(r["public_key"]), seq)

    def finish(self) -> str | None:
        if self.kept_root is None:
            return None
        if self.root is None:
            return (
                f"no trust root in the store, but {self.kept_root[:16]}… was kept outside it: the "
                "key registrations were removed or the store was replaced"
            )
        if len(self.kept_root) < 16 or not self.root.startswith(self.kept_root):
            return (
                f"the trust root is key {self.root[:16]}… (entry #{self.root_seq}), not the "
                f"{self.kept_root[:16]}… kept outside the store"
            )
        return None


def _fpr_of(r: Mapping[str, Any]) -> str | None:
    """The fingerprint of a registered key, computed from the key (never read from the row)."""
    from . import keys as station_keys_mod

    pub = r.get("public_key")
    try:
        return station_keys_mod.fingerprint(str(pub))
    except ValueError:
        return None


def verify(
    conn: Connection,
    anchor: str | None = None,
    anchors: Iterable[Anchor] = (),
    *,
    root: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> VerifyResult:
    """Recompute the chain, check each entry's signature, then compare every domain row
    with the entry that wrote it — reading everything in batches, in entry order.

    ``anchor``: a hash noted outside the database earlier (``verify`` prints the head).
    Someone able to rewrite the whole table could recompute every hash after a change;
    the anchor catches that, since the entry that had this hash is then gone.
    ``anchors``: entry numbers and hashes noted outside (truncation, rewriting).
    ``root``: the trust root's fingerprint kept by the chief referee.
    """
    sig_t = entry_signatures

    total = int(conn.execute(select(func.count()).select_from(audit_log)).scalar() or 0) if progress else 0
    has_sigs = inspect(conn).has_table(sig_t.name)
    if has_sigs:
        stmt: Any = (
            select(audit_log, sig_t.c.fingerprint.label("sig_fpr"), sig_t.c.signature.label("sig"))
            .outerjoin(sig_t, sig_t.c.seq == audit_log.c.seq)
            .order_by(audit_log.c.seq)
        )
    else:
        stmt = select(audit_log).order_by(audit_log.c.seq)
    tables = [_TableRows(conn, t) for t in DOMAIN_TABLES if has_sigs or t.name != "station_keys"]
    wanted: dict[int, list[Anchor]] = {}
    for a in anchors:
        wanted.setdefault(a.seq, []).append(a)
    head_prefix = anchor.strip().lower() if anchor is not None else None
    head_matches = 0
    problems: list[tuple[int, str]] = []
    more = 0

    def fail(seq: int, msg: str) -> None:
        nonlocal more
        if len(problems) < MAX_PROBLEMS:
            problems.append((seq, msg))
        else:
            more += 1

    sigs = _Signatures(root)
    prev = GENESIS
    expected_seq = 1
    broken = False
    n = 0
    seen_seqs: set[int] = set()  # only after a break: which entries exist
    for r in _stream(conn, stmt):
        e = r._mapping
        n += 1
        seq = int(e["seq"])
        if progress is not None:
            progress(n, total)
        for a in wanted.get(seq, ()):
            if str(e["hash"]) != a.hash:
                fail(
                    seq,
                    f"the log was rewritten: entry #{a.seq} has hash {str(e['hash'])[:16]}…, but "
                    f"{a.hash[:16]}… was noted outside the database",
                )
        wanted.pop(seq, None)
        if head_prefix and len(head_prefix) >= 12 and str(e["hash"]).startswith(head_prefix):
            head_matches += 1
        if broken:
            seen_seqs.add(seq)
            continue
        trouble: str | None = None
        payload: Any = None
        if seq != expected_seq:
            trouble = f"entry #{expected_seq} is missing (next entry is #{seq})"
            fail(expected_seq, trouble)
        elif e["prev_hash"] != prev:
            trouble = f"{_describe(e)}: does not link to entry #{seq - 1} (previous hash differs)"
        elif (text_ := _readable(e["payload"])) is None:
            trouble = f"{_describe(e)}: its payload is not readable"
        elif entry_hash(prev, e, text_) != e["hash"]:
            trouble = f"{_describe(e)}: its hash does not match its contents"
        else:
            try:
                payload = json.loads(text_)
                rows = payload["rows"]
                entry_rows = {tname: {int(x["id"]): x for x in trows} for tname, trows in rows.items()}
            except (ValueError, KeyError, TypeError, AttributeError):
                trouble = f"{_describe(e)}: its payload is not readable"
        if trouble is not None:
            if seq == expected_seq:
                fail(seq, trouble)
            broken = True
            seen_seqs.add(seq)
            continue
        for msg in sigs.check(e, payload):
            fail(seq, msg)
        for t in tables:
            name = t.table.name
            for row in t.take_below(seq):
                below = int(row["entry_seq"])
                fail(below, f"{name} id {row['id']} names entry #{below}, which does not list it")
            recorded_rows = entry_rows.get(name, {})
            seen: set[int] = set()
            for row in t.take(seq):
                rid = int(row["id"])
                recorded = recorded_rows.get(rid)
                if recorded is None:
                    fail(seq, f"{_describe(e)}: {name} id {rid} is not in the entry")
                    continue
                seen.add(rid)
                if recorded != row:
                    diffs = [
                        f"{k} is {row.get(k)!r}, the entry says {recorded.get(k)!r}"
                        for k in sorted(set(row) | set(recorded))
                        if row.get(k) != recorded.get(k)
                    ]
                    fail(seq, f"{_describe(e)}: {name} id {rid} changed: " + "; ".join(diffs))
            for rid in recorded_rows:
                if rid not in seen:
                    fail(seq, f"{_describe(e)}: {name} id {rid} is missing")
        prev = str(e["hash"])
        expected_seq += 1

    for t in tables:
        for row in t.rest():
            seq = int(row["entry_seq"])
            if seq not in seen_seqs:
                fail(seq, f"{t.table.name} id {row['id']} names entry #{seq}, which does not exist")
    for group in wanted.values():
        for a in group:
            if a.seq < 1:
                fail(0, f"anchor {a.text()}: entry numbers start at 1")
            else:
                fail(
                    min(a.seq, n + 1),
                    f"the log was truncated: it has {n} entries, but entry #{a.seq} "
                    f"(hash {a.hash[:16]}…) was noted outside the database",
                )
    trouble = sigs.finish()
    if trouble is not None:
        fail(sigs.root_seq or 1, trouble)
    if head_prefix is not None and not problems:
        if len(head_prefix) < 12:
            fail(n + 1, "--head: give at least 12 hex digits of a hash printed by verify")
        elif head_matches != 1:
            fail(
                n + 1,
                f"no entry has the noted hash {head_prefix[:16]}…: the log was rewritten or "
                "truncated after it was noted",
            )
    found = sorted(problems, key=lambda p: p[0])
    return VerifyResult(
        ok=not found,
        entries=n,
        head_hash=prev,
        problem=found[0][1] if found else None,
        bad_seq=found[0][0] if found else None,
        problems=tuple(m for _s, m in found),
        more_problems=more,
        signed=sigs.signed,
        before_keys=sigs.before_keys,
        unsigned_schema=sigs.unsigned_schema,
        root=sigs.root,
        root_seq=sigs.root_seq,
    )


def entries(conn: Connection, where: Iterable[Any] = ()) -> list[dict[str, Any]]:
    stmt = select(audit_log).order_by(audit_log.c.seq)
    for w in where:
        stmt = stmt.where(w)
    out = []
    for r in conn.execute(stmt):
        e = dict(r._mapping)
        # one that cannot be read is shown as kept (``verify`` names it)
        e["payload"] = _readable(e["payload"]) or e["payload"]
        out.append(e)
    return out
