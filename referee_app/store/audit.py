"""The hash-chained audit log: appending entries and verifying the chain.

An entry's hash is ``sha256(prev_hash "\\n" header "\\n" payload)`` where ``header`` is the
canonical JSON of the entry's own fields and ``payload`` the canonical JSON of every row
the write inserted (``{"rows": {table: [row, …]}, "info": {…}}``).  ``verify`` recomputes
every hash, checks the links, and compares each domain row with the row its entry recorded,
so a value changed in SQL after the fact names the entry that wrote it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Table, select, text

from .models import DOMAIN_TABLES, audit_log

GENESIS = "0" * 64
#: Key of the PostgreSQL advisory lock that serializes writers (the chain has one head).
PG_WRITE_LOCK = 0x5245_4631  # "REF1"

#: ``Connection.info`` key: the hashes of the entries appended in the current transaction.
WRITTEN_KEY = "referee_app.written"

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


def lock_for_write(conn: Connection) -> None:
    """Serialize writers for the rest of this transaction.

    SQLite: the transaction already began with ``BEGIN IMMEDIATE`` (see ``db``).
    PostgreSQL: a transaction-scoped advisory lock, released at commit or rollback.
    """
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": PG_WRITE_LOCK})


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

    def insert_many(self, table: Table, values: list[Mapping[str, Any]]) -> list[int]:
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
        full = dict(info)
        if role is not None:
            full["role"] = role
        payload_text = canonical({"rows": self.rows, "info": full})
        header: dict[str, Any] = {
            "seq": self.seq,
            "at": iso_z(store_clock(self.conn)),
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
        entry = {**header, "payload": payload_text, "prev_hash": self.prev_hash, "hash": digest}
        self.conn.execute(_insert_of(audit_log), entry)
        # The store re-reads these after commit when it must check that a save landed.
        self.conn.info.setdefault(WRITTEN_KEY, []).append(digest)
        return entry


@dataclass(frozen=True)
class VerifyResult:
    ok: bool
    entries: int
    head_hash: str
    problem: str | None = None  # the first entry that does not match, as one line
    bad_seq: int | None = None


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


def check_anchor(entries: list[Mapping[str, Any]], anchor: Anchor) -> str | None:
    """What is wrong with the log against an anchor noted earlier, or None."""
    if anchor.seq < 1:
        return f"anchor {anchor.text()}: entry numbers start at 1"
    if anchor.seq > len(entries):
        return (
            f"the log was truncated: it has {len(entries)} entries, but entry #{anchor.seq} "
            f"(hash {anchor.hash[:16]}…) was noted outside the database"
        )
    have = str(entries[anchor.seq - 1]["hash"])
    if have != anchor.hash:
        return (
            f"the log was rewritten: entry #{anchor.seq} has hash {have[:16]}…, but "
            f"{anchor.hash[:16]}… was noted outside the database"
        )
    return None


def verify(conn: Connection, anchor: str | None = None, anchors: Iterable[Anchor] = ()) -> VerifyResult:
    """Recompute the chain, then compare every domain row with the entry that wrote it.

    ``anchor``: a hash noted outside the database earlier (``verify`` prints the head).
    Someone able to rewrite the whole table could recompute every hash after a change;
    the anchor catches that, since the entry that had this hash is then gone.
    """
    entries: list[dict[str, Any]] = [
        dict(r._mapping) for r in conn.execute(select(audit_log).order_by(audit_log.c.seq))
    ]
    by_seq: dict[int, dict[str, Any]] = {}
    prev = GENESIS
    expected_seq = 1
    problems: list[tuple[int, str]] = []

    def fail(seq: int, msg: str) -> None:
        problems.append((seq, msg))

    payload_rows: dict[int, dict[str, dict[int, dict[str, Any]]]] = {}
    for e in entries:
        seq = int(e["seq"])
        by_seq[seq] = e
        if seq != expected_seq:
            fail(expected_seq, f"entry #{expected_seq} is missing (next entry is #{seq})")
            break
        if e["prev_hash"] != prev:
            fail(seq, f"{_describe(e)}: does not link to entry #{seq - 1} (previous hash differs)")
            break
        if entry_hash(prev, e, e["payload"]) != e["hash"]:
            fail(seq, f"{_describe(e)}: its hash does not match its contents")
            break
        try:
            payload = json.loads(e["payload"])
            rows = payload["rows"]
            payload_rows[seq] = {tname: {int(r["id"]): r for r in trows} for tname, trows in rows.items()}
        except (ValueError, KeyError, TypeError):
            fail(seq, f"{_describe(e)}: its payload is not readable")
            break
        prev = e["hash"]
        expected_seq += 1

    last_good = expected_seq - 1
    # Compare domain rows with their entries (up to the last entry whose chain is intact).
    for table in DOMAIN_TABLES:
        seen: set[tuple[int, int]] = set()
        for r in conn.execute(select(table).order_by(table.c.id)):
            row = row_dict(table, r._mapping)
            rid = int(row["id"])
            seq = int(row["entry_seq"])
            if seq > last_good:
                if seq not in by_seq:
                    fail(seq, f"{table.name} id {rid} names entry #{seq}, which does not exist")
                continue
            recorded = payload_rows.get(seq, {}).get(table.name, {}).get(rid)
            if recorded is None:
                fail(seq, f"{_describe(by_seq[seq])}: {table.name} id {rid} is not in the entry")
                continue
            seen.add((seq, rid))
            if recorded != row:
                diffs = [
                    f"{k} is {row.get(k)!r}, the entry says {recorded.get(k)!r}"
                    for k in sorted(set(row) | set(recorded))
                    if row.get(k) != recorded.get(k)
                ]
                fail(
                    seq,
                    f"{_describe(by_seq[seq])}: {table.name} id {rid} changed: " + "; ".join(diffs),
                )
        for seq, tables in payload_rows.items():
            for rid in tables.get(table.name, {}):
                if (seq, rid) not in seen and seq <= last_good:
                    fail(seq, f"{_describe(by_seq[seq])}: {table.name} id {rid} is missing")

    head_hash = prev
    for a in anchors:
        trouble = check_anchor(entries, a)
        if trouble is not None:
            problems.append((min(a.seq, len(entries) + 1), trouble))
    if anchor is not None and not problems:
        anchor = anchor.strip().lower()
        matching = [e for e in entries if str(e["hash"]).startswith(anchor)] if anchor else []
        if len(anchor) < 12 or len(matching) != 1:
            problems.append(
                (
                    len(entries) + 1,
                    f"no entry has the noted hash {anchor[:16]}…: the log was rewritten or "
                    "truncated after it was noted"
                    if len(anchor) >= 12
                    else "--head: give at least 12 hex digits of a hash printed by verify",
                )
            )
    if problems:
        seq, msg = min(problems, key=lambda p: p[0])
        return VerifyResult(False, len(entries), head_hash, msg, seq)
    return VerifyResult(True, len(entries), head_hash)


def entries(conn: Connection, where: Iterable[Any] = ()) -> list[dict[str, Any]]:
    stmt = select(audit_log).order_by(audit_log.c.seq)
    for w in where:
        stmt = stmt.where(w)
    return [dict(r._mapping) for r in conn.execute(stmt)]
