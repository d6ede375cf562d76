"""Tests that kill mutmut's surviving mutants of store/audit.py (issue 16): the hash chain,
its anchors, the signatures and every check ``verify`` makes. Equivalent mutants are listed
in tools/mutation-equivalents.md.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import Connection, create_engine, delete, insert, text, update

from referee_app.store import audit, keys
from referee_app.store.audit import GENESIS, Anchor, Writer, canonical, entry_hash, parse_anchor, verify
from referee_app.store.models import audit_log, entry_signatures, events, metadata, role_pins, station_keys

CHIEF = "chief_referee"


@pytest.fixture
def conn() -> Iterator[Connection]:
    """An in-memory store with the schema's tables (no triggers: the tests forge rows in SQL)."""
    engine = create_engine("sqlite://")
    metadata.create_all(engine)
    with engine.connect() as c:
        yield c
    engine.dispose()


class Ring:
    """Station keys held in memory, signing as ``keys.KeyRing.sign`` does."""

    def __init__(self) -> None:
        self.keys: dict[tuple[str, str], Ed25519PrivateKey] = {}

    def add(self, station: str, role: str) -> tuple[str, str]:
        key = self.keys[(station, role)] = Ed25519PrivateKey.generate()
        raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        return raw.hex(), keys.fingerprint(raw.hex())

    def sign(self, station: str, role: str | None, digest: str) -> tuple[str, str] | None:
        key = self.keys.get((station, role or CHIEF))
        if key is None:
            return None
        raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        return keys.fingerprint(raw.hex()), key.sign(keys.signed_bytes(digest)).hex()


def write(
    conn: Connection,
    action: str = "event.create",
    rows: dict[Any, list[dict[str, Any]]] | None = None,
    *,
    station: str = "desk",
    role: str | None = None,
    info: dict[str, Any] | None = None,
    **header: Any,
) -> dict[str, Any]:
    w = Writer(conn)
    for table, values in (rows or {}).items():
        for v in values:
            w.insert(table, v)
    return w.commit_entry(
        user="孙裁判长", station=station, action=action, info=info or {}, role=role, **header
    )


def event_row(name: str = "测试杯") -> dict[str, Any]:
    return {
        "name": name,
        "date": None,
        "rulebook_id": "bhg-2011",
        "rulebook_sha256": "0" * 64,
        "rulebook_text": "t",
    }


def register(conn: Connection, ring: Ring, station: str, role: str, *, by: str = "desk") -> str:
    public, fpr = ring.add(station, role)
    row = {"station": station, "role": role, "public_key": public, "fingerprint": fpr}
    write(conn, keys.REGISTER_ACTION, {station_keys: [row]}, station=by, role=CHIEF)
    return fpr


def signed_store(conn: Connection) -> tuple[Ring, str]:
    """Two entries before keys, then the chief referee's own key (the trust root)."""
    write(conn, "db.create")
    write(conn, "event.create", {events: [event_row()]}, event_id=1)
    ring = Ring()
    conn.info[audit.KEYRING_KEY] = ring
    root = register(conn, ring, "desk", CHIEF)
    return ring, root


# -- the entry's text and hash ------------------------------------------------------------------


def test_canonical_json_is_sorted_compact_and_keeps_unicode() -> None:
    assert canonical({"b": 1, "a": [1, "裁判"]}) == '{"a":[1,"裁判"],"b":1}'


def test_entry_hash_is_sha256_of_prev_header_and_payload() -> None:
    header = {k: None for k in audit.HEADER_FIELDS} | {"seq": 1, "at": "t", "user_name": "裁", "extra": 9}
    expected = hashlib.sha256(
        (
            "a" * 64 + "\n" + canonical({k: header[k] for k in audit.HEADER_FIELDS}) + "\n" + '{"rows":{}}'
        ).encode("utf-8")
    ).hexdigest()
    assert entry_hash("a" * 64, header, '{"rows":{}}') == expected
    # a field outside the header is not hashed; each header field is
    assert entry_hash("a" * 64, {**header, "extra": 10}, '{"rows":{}}') == expected
    for k in audit.HEADER_FIELDS:
        assert entry_hash("a" * 64, {**header, k: "x"}, '{"rows":{}}') != expected
    assert audit.HEADER_FIELDS == (
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


def test_times_are_utc_with_microseconds_and_z() -> None:
    when = datetime(2026, 5, 1, 10, 0, 0, 5, tzinfo=timezone(timedelta(hours=8)))
    assert audit.iso_z(when) == "2026-05-01T02:00:00.000005Z"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", audit.now_iso())


def test_the_store_clock_on_sqlite_is_this_computers_in_utc(conn: Connection) -> None:
    before = datetime.now(UTC)
    now = audit.store_clock(conn)
    assert now.tzinfo is not None and now.utcoffset() == timedelta(0)
    assert before <= now <= datetime.now(UTC)


class FakePg:
    """A PostgreSQL connection as far as the clock and the write lock look at it."""

    class dialect:  # noqa: N801
        name = "postgresql"

    def __init__(self, value: Any = None) -> None:
        self.value = value
        self.executed: list[tuple[str, Any]] = []

    def execute(self, stmt: Any, params: Any = None) -> Any:
        self.executed.append((str(stmt), params))
        value = self.value

        class Result:
            def scalar_one(self) -> Any:
                return value

        return Result()


def test_the_store_clock_on_postgresql_is_the_servers() -> None:
    server = datetime(2026, 5, 1, 10, 0, tzinfo=timezone(timedelta(hours=8)))
    pg = FakePg(server)
    now = audit.store_clock(pg)  # type: ignore[arg-type]
    assert now == server and now.utcoffset() == timedelta(0)
    assert pg.executed == [("SELECT clock_timestamp()", None)]


def test_writers_are_serialized_on_postgresql_by_the_writer_lock_table(conn: Connection) -> None:
    pg = FakePg()
    audit.lock_for_write(pg)  # type: ignore[arg-type]
    assert [s for s, _ in pg.executed] == list(audit.PG_LOCK_SQL)
    assert pg.executed[1][0] == "LOCK TABLE writer_lock IN EXCLUSIVE MODE"
    assert "set_config('lock_timeout', '5s', true)" in pg.executed[0][0]
    assert "set_config('statement_timeout', '8s', true)" in pg.executed[0][0]
    assert "current_setting('referee_app.statement_timeout')" in pg.executed[2][0]
    assert "pg_advisory" not in " ".join(s for s, _ in pg.executed)  # any login could take one
    audit.lock_for_write(conn)  # SQLite: BEGIN IMMEDIATE already did it; nothing to run


# -- rows as hashed -------------------------------------------------------------------------------


def test_row_dict_every_column_in_its_type_and_a_pin_hash_redacted() -> None:
    row = audit.row_dict(events, {"id": 3, "name": "杯", "extra": 1})
    assert row == {
        "id": 3,
        "name": "杯",
        "date": None,
        "rulebook_id": None,
        "rulebook_sha256": None,
        "rulebook_text": None,
        "entry_seq": None,
    }
    pin = audit.row_dict(
        role_pins, {"id": 1, "event_id": 2, "role": CHIEF, "pin_hash": "scrypt$x", "entry_seq": 5}
    )
    assert pin["pin_hash"] == "sha256:" + hashlib.sha256(b"scrypt$x").hexdigest()
    assert pin["event_id"] == 2 and pin["entry_seq"] == 5
    assert audit.row_dict(role_pins, {"pin_hash": None})["pin_hash"] is None
    # a pin_hash column elsewhere is not redacted; bools stay bools, ints become ints
    assert audit.row_dict(events, {"name": "scrypt$x"})["name"] == "scrypt$x"

    class Num(int):
        pass

    out = audit.row_dict(events, {"id": Num(4), "name": True})
    assert type(out["id"]) is int and out["name"] is True


# -- the writer -----------------------------------------------------------------------------------


def test_the_first_entry_links_to_genesis_and_numbers_from_1(conn: Connection) -> None:
    assert audit.head(conn) == (0, GENESIS)
    e = write(
        conn,
        "event.create",
        {events: [event_row()]},
        event_id=1,
        round_no=2,
        table_no=3,
        supersedes=None,
        token="tok",
    )
    assert e["seq"] == 1 and e["prev_hash"] == GENESIS and GENESIS == "0" * 64
    assert audit.head(conn) == (1, e["hash"])
    assert json.loads(e["payload"]) == {
        "rows": {"events": [dict(audit.row_dict(events, event_row()), id=1, entry_seq=1)]},
        "info": {},
    }
    assert e["hash"] == entry_hash(GENESIS, e, e["payload"])
    assert (
        e["user_name"],
        e["station"],
        e["action"],
        e["event_id"],
        e["round_no"],
        e["table_no"],
        e["token"],
    ) == (
        "孙裁判长",
        "desk",
        "event.create",
        1,
        2,
        3,
        "tok",
    )
    assert "signed_by" not in e
    e2 = write(conn, "pairs.import", info={"n": 1}, role="table_referee", supersedes=1)
    assert e2["seq"] == 2 and e2["prev_hash"] == e["hash"] and e2["supersedes"] == 1
    assert json.loads(e2["payload"]) == {"rows": {}, "info": {"n": 1, "role": "table_referee"}}
    assert conn.info[audit.WRITTEN_KEY] == [e["hash"], e2["hash"]]
    assert audit.entries(conn) == [dict(r) for r in audit.entries(conn)]
    assert [x["seq"] for x in audit.entries(conn, [audit_log.c.seq > 1])] == [2]
    assert [x["seq"] for x in audit.entries(conn)] == [1, 2]


def test_insert_returns_the_new_id_and_records_the_row_under_its_entry(conn: Connection) -> None:
    w = Writer(conn)
    assert (w.prev_seq, w.prev_hash, w.seq) == (0, GENESIS, 1)
    first = w.insert(events, event_row("a"))
    second = w.insert(events, event_row("b"))
    assert (first, second) == (1, 2)
    assert [r["name"] for r in w.rows["events"]] == ["a", "b"]
    assert [r["id"] for r in w.rows["events"]] == [1, 2] and {r["entry_seq"] for r in w.rows["events"]} == {1}


def test_insert_many_returns_ids_in_order_and_one_row_goes_through_insert(
    conn: Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a cold statement cache, as in a new process: each table has its own statement
    monkeypatch.setattr(audit, "_INSERTS", {})
    w = Writer(conn)
    assert w.insert_many(events, []) == []
    ids = w.insert_many(events, [event_row("x"), event_row("y"), event_row("z")])
    assert ids == [1, 2, 3]
    pins = [{"event_id": 1, "role": r, "pin_hash": "scrypt$" + r} for r in ("a", "b")]
    assert w.insert_many(role_pins, pins) == [1, 2]
    assert w.insert_many(events, [event_row("solo")]) == [4]
    assert [(r["id"], r["name"], r["entry_seq"]) for r in w.rows["events"]] == [
        (1, "x", 1),
        (2, "y", 1),
        (3, "z", 1),
        (4, "solo", 1),
    ]
    assert [r["role"] for r in w.rows["role_pins"]] == ["a", "b"]
    w.commit_entry(user="u", station="s", action="pairs.import", info={})
    assert verify(conn).ok
    stored = conn.execute(role_pins.select().order_by(role_pins.c.id)).all()
    assert [(r.id, r.role, r.entry_seq) for r in stored] == [(1, "a", 1), (2, "b", 1)]


def test_insert_uses_each_tables_own_statement(conn: Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(audit, "_INSERTS", {})
    w = Writer(conn)
    assert w.insert(events, event_row()) == 1
    assert w.insert(role_pins, {"event_id": 1, "role": "a", "pin_hash": "h"}) == 1
    assert w.insert(events, event_row("二")) == 2
    w.commit_entry(user="u", station="s", action="x", info={})
    assert verify(conn).ok


def test_a_signed_entry_names_its_key_and_stores_the_signature(conn: Connection) -> None:
    ring, root = signed_store(conn)
    e = write(conn, "event.update", station="desk", role=CHIEF)
    assert e["signed_by"] == root
    sig = conn.execute(entry_signatures.select().where(entry_signatures.c.seq == e["seq"])).one()
    assert sig.fingerprint == root
    assert keys.verify_signature(
        ring.keys[("desk", CHIEF)]
        .public_key()
        .public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        .hex(),
        e["hash"],
        sig.signature,
    )
    unsigned = write(conn, "event.update", station="elsewhere")
    assert "signed_by" not in unsigned


# -- verify: the chain ------------------------------------------------------------------------------


def test_an_empty_log_verifies(conn: Connection) -> None:
    r = verify(conn)
    assert r.ok and r.entries == 0 and r.head_hash == GENESIS and r.problem is None and r.bad_seq is None
    assert r.problems == () and r.more_problems == 0 and r.root is None


def test_a_clean_unsigned_chain_verifies_and_reports_its_head(conn: Connection) -> None:
    write(conn, "db.create")
    write(conn, "event.create", {events: [event_row()]})
    last = write(conn, "event.update", {events: [event_row("二")]})
    seen: list[tuple[int, int]] = []
    r = verify(conn, progress=lambda n, t: seen.append((n, t)))
    assert r.ok and r.entries == 3 and r.head_hash == last["hash"]
    assert (r.signed, r.before_keys, r.unsigned_schema, r.root, r.root_seq) == (0, 3, 0, None, None)
    assert seen == [(1, 3), (2, 3), (3, 3)]


# -- the payload as kept: compressed when long (issue 11) ---------------------------------------


def big_event(n: int = 40) -> dict[Any, list[dict[str, Any]]]:
    return {events: [event_row(f"第{i}届测试杯") for i in range(n)]}


def test_a_short_payload_is_kept_as_its_json_and_a_long_one_compressed(conn: Connection) -> None:
    short = canonical({"rows": {}, "info": {"n": 1}})
    assert audit.stored_payload(short) == short
    just_short = "x" * (audit.COMPRESS_FROM - 1)
    assert audit.stored_payload(just_short) == just_short
    at_the_line = "x" * audit.COMPRESS_FROM
    assert audit.stored_payload(at_the_line).startswith(audit.ZLIB_MARK)
    e = write(conn, "event.create", big_event())
    kept = conn.execute(text("SELECT payload FROM audit_log WHERE seq = 1")).scalar_one()
    assert kept == e["payload"] and kept.startswith(audit.ZLIB_MARK)
    plain = audit.payload_text(kept)
    assert len(plain) >= audit.COMPRESS_FROM and len(kept) < len(plain) / 3
    # hashed and signed over the JSON text, whatever form it is kept in
    assert e["hash"] == entry_hash(GENESIS, e, plain)
    assert json.loads(plain)["rows"]["events"][39]["name"] == "第39届测试杯"
    assert audit.entries(conn)[0]["payload"] == plain
    assert verify(conn).ok


def test_either_form_of_a_payload_reads_back_as_its_json() -> None:
    text_ = canonical({"rows": {"events": [{"name": "测试" * 900}]}, "info": {}})
    assert audit.payload_text(audit.stored_payload(text_)) == text_
    assert audit.payload_text(text_) == text_  # written before compression, or short


@pytest.mark.parametrize(
    "kept",
    [
        audit.ZLIB_MARK + "not base64!",
        audit.ZLIB_MARK + "bm90IHpsaWI=",  # base64 of text that is not zlib
        # a zlib stream cut short
        audit.ZLIB_MARK + audit.stored_payload("x" * 5000)[len(audit.ZLIB_MARK) :][:12],
    ],
)
def test_a_compressed_payload_that_cannot_be_read_is_refused(kept: str) -> None:
    with pytest.raises(ValueError):
        audit.payload_text(kept)


def test_a_payload_that_would_expand_past_the_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = audit.stored_payload("x" * 100_000)
    assert len(audit.payload_text(kept)) == 100_000
    monkeypatch.setattr(audit, "PAYLOAD_MAX", 99_999)
    with pytest.raises(ValueError, match="too large"):
        audit.payload_text(kept)
    monkeypatch.setattr(audit, "PAYLOAD_MAX", 100_000)
    assert len(audit.payload_text(kept)) == 100_000


def test_verify_names_a_compressed_payload_it_cannot_read_and_log_shows_it_as_kept(conn: Connection) -> None:
    e = three(conn)
    bad = audit.ZLIB_MARK + "AAAA"
    forge(conn, 2, payload=bad, hash=e[1]["hash"])
    r = verify(conn)
    assert r.bad_seq == 2 and r.problem is not None and r.problem.endswith(": its payload is not readable")
    assert audit.entries(conn)[1]["payload"] == bad


def test_a_compressed_payload_changed_in_sql_no_longer_matches_its_hash(conn: Connection) -> None:
    e = write(conn, "event.create", big_event())
    plain = json.loads(audit.payload_text(e["payload"]))
    plain["rows"]["events"][0]["name"] = "改过的"
    forge(conn, 1, payload=audit.stored_payload(canonical(plain)))
    r = verify(conn)
    assert (
        r.bad_seq == 1
        and r.problem is not None
        and r.problem.endswith(": its hash does not match its contents")
    )


def forge(conn: Connection, seq: int, **values: Any) -> None:
    conn.execute(update(audit_log).where(audit_log.c.seq == seq).values(**values))


def three(conn: Connection) -> list[dict[str, Any]]:
    return [
        write(conn, "event.create", {events: [event_row("一")]}, round_no=1, table_no=2),
        write(conn, "event.update", {events: [event_row("二")]}),
        write(conn, "event.update", {events: [event_row("三")]}),
    ]


def test_a_missing_entry_is_named_and_what_follows_is_not_checked(conn: Connection) -> None:
    three(conn)
    conn.execute(delete(audit_log).where(audit_log.c.seq == 2))
    r = verify(conn)
    assert not r.ok and r.bad_seq == 2 and r.entries == 2
    # the rows of entry 2 name an entry that is gone; those of 3 name one that exists
    assert r.problems == (
        "entry #2 is missing (next entry is #3)",
        "events id 2 names entry #2, which does not exist",
    )
    assert r.problem == "entry #2 is missing (next entry is #3)"


def test_an_entry_that_does_not_link_is_named(conn: Connection) -> None:
    e = three(conn)
    forge(conn, 2, prev_hash="f" * 64)
    r = verify(conn)
    assert r.bad_seq == 2 and r.head_hash == e[0]["hash"]
    assert re.fullmatch(
        r"entry #2 \(event\.update, .+Z, 孙裁判长@desk\): does not link to entry #1 \(previous hash differs\)",
        r.problem or "",
    )
    assert len(r.problems) == 1


def test_an_entry_changed_in_sql_no_longer_matches_its_hash(conn: Connection) -> None:
    three(conn)
    forge(conn, 1, user_name="别人")
    r = verify(conn)
    assert r.bad_seq == 1 and r.problems == (
        f"entry #1 (event.create round 1 table 2, {audit.entries(conn)[0]['at']}, 别人@desk): its hash does not match its contents",
    )
    assert r.head_hash == GENESIS


@pytest.mark.parametrize(
    "payload",
    ["not json", "[]", '{"info": {}}', '{"rows": {"events": [{"x": 1}]}}', '{"rows": {"events": 5}}'],
)
def test_an_unreadable_payload_is_named(conn: Connection, payload: str) -> None:
    e = three(conn)
    header = dict(e[1])
    forge(conn, 2, payload=payload, hash=entry_hash(e[0]["hash"], header, payload))
    r = verify(conn)
    assert r.bad_seq == 2 and r.problem is not None and r.problem.endswith(": its payload is not readable")


def test_a_domain_row_changed_missing_or_added_in_sql_names_its_entry(conn: Connection) -> None:
    three(conn)
    conn.execute(update(events).where(events.c.id == 2).values(name="改", date="2026-05-01"))
    r = verify(conn)
    assert r.bad_seq == 2 and r.problem is not None
    assert r.problem.endswith(
        ": events id 2 changed: date is '2026-05-01', the entry says None; name is '改', the entry says '二'"
    )
    conn.execute(delete(events).where(events.c.id == 2))
    assert verify(conn).problem.endswith(": events id 2 is missing")  # type: ignore[union-attr]
    conn.execute(insert(events).values(id=7, entry_seq=3, **event_row("塞")))
    r = verify(conn)
    assert r.problems[-1].endswith(": events id 7 is not in the entry") and r.bad_seq == 2
    assert len(r.problems) == 2


def test_a_row_naming_an_entry_before_or_after_the_log(conn: Connection) -> None:
    three(conn)
    conn.execute(insert(events).values(id=50, entry_seq=0, **event_row()))
    conn.execute(insert(events).values(id=51, entry_seq=9, **event_row()))
    r = verify(conn)
    assert r.problems == (
        "events id 50 names entry #0, which does not list it",
        "events id 51 names entry #9, which does not exist",
    )
    assert r.bad_seq == 0


def test_problems_come_in_entry_order_up_to_the_limit(
    conn: Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    three(conn)
    for i in range(3):
        conn.execute(update(events).where(events.c.id == i + 1).values(name=f"x{i}"))
    r = verify(conn)
    assert [p.split(":")[0][:8] for p in r.problems] == ["entry #1", "entry #2", "entry #3"]
    assert r.more_problems == 0
    monkeypatch.setattr(audit, "MAX_PROBLEMS", 2)
    r = verify(conn)
    assert len(r.problems) == 2 and r.more_problems == 1


# -- verify: anchors and the noted head ------------------------------------------------------------


def test_anchor_text_and_parsing() -> None:
    h = "ab" * 32
    assert Anchor(3, h).text() == f"RA1:3:{h}"
    assert parse_anchor(f"  ra1:12:{h.upper()}\n", "f") == Anchor(12, h)
    assert parse_anchor(f"RA1:{'9' * 12}:{h}", "f").seq == 999999999999


@pytest.mark.parametrize(
    "bad",
    [
        "RA1:3",
        "RA1:3:" + "ab" * 32 + ":x",
        "RA2:3:" + "ab" * 32,
        "RA1:x:" + "ab" * 32,
        "RA1:-3:" + "ab" * 32,
        "RA1:" + "1" * 13 + ":" + "ab" * 32,
        "RA1:3:" + "ab" * 31,
        "RA1:3:" + "ab" * 32 + "a",
        "RA1:3:" + "g" * 64,
    ],
)
def test_a_malformed_anchor_is_refused_naming_where(bad: str) -> None:
    with pytest.raises(
        ValueError, match=r"^anchors\.txt:2: not an anchor \('.*'; expected RA1:<entry>:<sha256 hex>\)$"
    ):
        parse_anchor(bad, "anchors.txt:2")


def test_a_long_bad_anchor_is_shown_cut_to_40_characters() -> None:
    with pytest.raises(ValueError) as err:
        parse_anchor("x" * 100, "w")
    assert f"({'x' * 40!r};" in str(err.value)


def test_anchors_catch_a_rewritten_and_a_truncated_log(conn: Connection) -> None:
    e = three(conn)
    assert verify(conn, anchors=[Anchor(2, e[1]["hash"]), Anchor(3, e[2]["hash"])]).ok
    r = verify(conn, anchors=[Anchor(2, "c" * 64)])
    assert r.bad_seq == 2 and r.problems == (
        f"the log was rewritten: entry #2 has hash {e[1]['hash'][:16]}…, but {'c' * 16}… was noted outside the database",
    )
    r = verify(conn, anchors=[Anchor(5, "d" * 64), Anchor(5, "e" * 64)])
    assert r.bad_seq == 4 and r.problems == (
        f"the log was truncated: it has 3 entries, but entry #5 (hash {'d' * 16}…) was noted outside the database",
        f"the log was truncated: it has 3 entries, but entry #5 (hash {'e' * 16}…) was noted outside the database",
    )
    r = verify(conn, anchors=[Anchor(4, "d" * 64)])
    assert r.bad_seq == 4
    r = verify(conn, anchors=[Anchor(0, "d" * 64)])
    assert r.bad_seq == 0 and r.problems == (f"anchor RA1:0:{'d' * 64}: entry numbers start at 1",)


def test_an_anchor_is_checked_even_past_a_break(conn: Connection) -> None:
    e = three(conn)
    forge(conn, 2, prev_hash="f" * 64)
    r = verify(conn, anchors=[Anchor(3, "c" * 64)])
    assert len(r.problems) == 2 and r.problems[1].startswith("the log was rewritten: entry #3")
    assert verify(conn, anchors=[Anchor(3, e[2]["hash"])]).problems == r.problems[:1]


def test_the_noted_head(conn: Connection) -> None:
    e = three(conn)
    assert verify(conn, anchor=e[1]["hash"][:12].upper()).ok  # any entry's hash, 12 digits or more
    assert verify(conn, anchor=" " + e[2]["hash"] + " ").ok
    r = verify(conn, anchor=e[1]["hash"][:11])
    assert r.bad_seq == 4 and r.problems == (
        "--head: give at least 12 hex digits of a hash printed by verify",
    )
    r = verify(conn, anchor="0123456789abcdef")
    assert r.bad_seq == 4 and r.problems == (
        "no entry has the noted hash 0123456789abcdef…: the log was rewritten or truncated after it was noted",
    )
    # other problems first: the head is not judged then
    forge(conn, 2, prev_hash="f" * 64)
    assert len(verify(conn, anchor="0123456789abcdef").problems) == 1
    assert len(verify(conn, anchor="01").problems) == 1


def test_a_noted_head_matching_two_entries_is_not_taken(conn: Connection) -> None:
    e = three(conn)
    common = e[0]["hash"][:12]
    forge(conn, 2, hash=common + e[1]["hash"][12:])  # breaks the chain, and two entries match
    r = verify(conn, anchor=common)
    assert not r.ok


# -- verify: signatures -------------------------------------------------------------------------------


def test_a_signed_chain_verifies_from_its_trust_root(conn: Connection) -> None:
    ring, root = signed_store(conn)
    register(conn, ring, "table-1", "table_referee")
    write(conn, "match.record", station="table-1", role="table_referee")
    write(conn, "db.upgrade", station="nokey")  # a schema entry may be unsigned when it writes no rows
    r = verify(conn, root=root[:16].upper())
    assert r.ok, r.problems
    assert (r.before_keys, r.signed, r.unsigned_schema, r.root, r.root_seq) == (2, 3, 1, root, 3)


def test_the_kept_root_must_be_the_stores(conn: Connection) -> None:
    _ring, root = signed_store(conn)
    assert verify(conn, root=root).ok
    r = verify(conn, root="ab" * 32)
    assert r.bad_seq == 3 and r.problems == (
        f"the trust root is key {root[:16]}… (entry #3), not the {'ab' * 8}… kept outside the store",
    )
    r = verify(conn, root=root[:15])
    assert r.problems[0].startswith("the trust root is key")
    assert verify(conn, root="").ok  # nothing kept


def test_a_kept_root_with_no_root_in_the_store(conn: Connection) -> None:
    three(conn)
    r = verify(conn, root="AB" * 32)
    assert r.bad_seq == 1 and r.problems == (
        f"no trust root in the store, but {'ab' * 8}… was kept outside it: the key registrations were "
        "removed or the store was replaced",
    )


def test_a_first_registration_that_is_not_the_chief_referees_own_signed_key(conn: Connection) -> None:
    msg = "a key registration before any trust root that is not the chief referee's own key signed by itself"
    # a table referee's key first
    ring = Ring()
    conn.info[audit.KEYRING_KEY] = ring
    public, fpr = ring.add("desk", "table_referee")
    ring.keys[("desk", CHIEF)] = ring.keys[("desk", "table_referee")]
    write(
        conn,
        keys.REGISTER_ACTION,
        {
            station_keys: [
                {"station": "desk", "role": "table_referee", "public_key": public, "fingerprint": fpr}
            ]
        },
        role=CHIEF,
    )
    r = verify(conn)
    assert r.problem is not None and r.problem.endswith(msg) and r.root is None


def test_a_first_registration_of_another_stations_key(conn: Connection) -> None:
    ring = Ring()
    conn.info[audit.KEYRING_KEY] = ring
    public, fpr = ring.add("desk", CHIEF)
    row = {"station": "table-9", "role": CHIEF, "public_key": public, "fingerprint": fpr}
    write(conn, keys.REGISTER_ACTION, {station_keys: [row]}, role=CHIEF)
    assert verify(conn).problem.endswith("signed by itself")  # type: ignore[union-attr]


def test_a_first_registration_of_two_keys_or_signed_by_another(conn: Connection) -> None:
    ring = Ring()
    conn.info[audit.KEYRING_KEY] = ring
    p1, f1 = ring.add("desk", CHIEF)
    other = Ring()
    p2, f2 = other.add("desk", CHIEF)
    rows = [
        {"station": "desk", "role": CHIEF, "public_key": p1, "fingerprint": f1},
        {"station": "desk", "role": CHIEF, "public_key": p2, "fingerprint": f2},
    ]
    write(conn, keys.REGISTER_ACTION, {station_keys: rows}, role=CHIEF)
    assert not verify(conn).ok
    conn2_engine = create_engine("sqlite://")
    metadata.create_all(conn2_engine)
    with conn2_engine.connect() as c2:
        c2.info[audit.KEYRING_KEY] = ring  # signs with p1, registers p2
        write(c2, keys.REGISTER_ACTION, {station_keys: rows[1:]}, role=CHIEF)
        assert not verify(c2).ok
    conn2_engine.dispose()


def test_a_first_registration_whose_signature_is_forged(conn: Connection) -> None:
    ring = Ring()
    conn.info[audit.KEYRING_KEY] = ring
    register(conn, ring, "desk", CHIEF)
    conn.execute(update(entry_signatures).values(signature="00" * 64))
    r = verify(conn)
    assert r.problem is not None and r.problem.endswith("signed by itself") and r.signed == 0


def test_after_the_root_every_entry_is_signed_by_a_registered_matching_key(conn: Connection) -> None:
    ring, root = signed_store(conn)
    e = write(conn, "event.update", station="nokey")
    assert verify(conn).problems == (
        f"entry #{e['seq']} (event.update, {e['at']}, 孙裁判长@nokey): unsigned (written without a registered station key)",
    )


def test_an_unsigned_schema_entry_that_writes_rows_is_refused(conn: Connection) -> None:
    signed_store(conn)
    write(conn, "db.upgrade", {events: [event_row()]}, station="nokey")
    assert verify(conn).problem.endswith(": unsigned (written without a registered station key)")  # type: ignore[union-attr]
    assert verify(conn).unsigned_schema == 0


def test_an_entry_signed_by_an_unregistered_key(conn: Connection) -> None:
    ring, _root = signed_store(conn)
    _public, fpr = ring.add("table-1", "table_referee")  # never registered
    write(conn, "match.record", station="table-1", role="table_referee")
    assert verify(conn).problem.endswith(f": signed by an unregistered key {fpr[:16]}…")  # type: ignore[union-attr]


def test_a_wrong_signature(conn: Connection) -> None:
    ring, root = signed_store(conn)
    e = write(conn, "event.update", role=CHIEF)
    conn.execute(
        update(entry_signatures).where(entry_signatures.c.seq == e["seq"]).values(signature="00" * 64)
    )
    r = verify(conn)
    assert r.problem.endswith(  # type: ignore[union-attr]
        f": wrongly signed (the signature of key {root[:16]}… does not match the entry)"
    )
    assert r.signed == 1  # the root only


def test_a_key_used_after_its_revocation(conn: Connection) -> None:
    ring, _root = signed_store(conn)
    fpr = register(conn, ring, "table-1", "table_referee")
    write(conn, "match.record", station="table-1", role="table_referee")
    rev = write(conn, keys.REVOKE_ACTION, info={"fingerprint": fpr}, role=CHIEF)
    e = write(conn, "match.record", station="table-1", role="table_referee")
    r = verify(conn)
    assert r.problems == (
        f"entry #{e['seq']} (match.record, {e['at']}, 孙裁判长@table-1): signed with key {fpr[:16]}… of table-1, "
        f"which the chief referee revoked at entry #{rev['seq']}",
    )
    # revoking again does not move the revocation
    write(conn, keys.REVOKE_ACTION, info={"fingerprint": fpr}, role=CHIEF)
    assert f"revoked at entry #{rev['seq']}" in verify(conn).problems[0]


def test_a_revocation_signed_by_a_non_registrar_revokes_nothing(conn: Connection) -> None:
    ring, _root = signed_store(conn)
    fpr = register(conn, ring, "table-1", "table_referee")
    e = write(conn, keys.REVOKE_ACTION, info={"fingerprint": fpr}, station="table-1", role="table_referee")
    write(conn, "match.record", station="table-1", role="table_referee")
    r = verify(conn)
    assert r.problems == (
        f"entry #{e['seq']} (key.revoke, {e['at']}, 孙裁判长@table-1): a key registration or revocation signed "
        "with a table_referee key (only the chief referee registers and revokes keys)",
    )


def test_a_registration_signed_by_a_non_registrar_registers_nothing(conn: Connection) -> None:
    ring, _root = signed_store(conn)
    register(conn, ring, "table-1", "table_referee")
    fpr = register(conn, ring, "table-2", "table_referee", by="table-1")
    ring.keys[("table-1", CHIEF)] = ring.keys[("table-1", "table_referee")]
    e = write(conn, "match.record", station="table-2", role="table_referee")
    r = verify(conn)
    assert len(r.problems) == 2
    assert (
        r.problems[1].endswith(f": signed by an unregistered key {fpr[:16]}…")
        and str(e["seq"]) in r.problems[1]
    )


def test_an_entry_signed_with_another_stations_key(conn: Connection) -> None:
    ring, _root = signed_store(conn)
    register(conn, ring, "table-1", "table_referee")
    ring.keys[("table-2", "table_referee")] = ring.keys[("table-1", "table_referee")]
    e = write(conn, "match.record", station="table-2", role="table_referee")
    assert verify(conn).problems == (
        f"entry #{e['seq']} (match.record, {e['at']}, 孙裁判长@table-2): signed with station table-1's key "
        "but says station table-2",
    )


def test_an_entry_written_in_another_role_than_its_key(conn: Connection) -> None:
    ring, _root = signed_store(conn)
    register(conn, ring, "table-1", "table_referee")
    ring.keys[("table-1", "arbitration")] = ring.keys[("table-1", "table_referee")]
    e = write(conn, "appeal.decide", station="table-1", role="arbitration")
    assert verify(conn).problems == (
        f"entry #{e['seq']} (appeal.decide, {e['at']}, 孙裁判长@table-1): written as arbitration but signed with "
        "the table_referee key of table-1 (a key used outside its registered role)",
    )
    assert verify(conn).signed == 2


def test_an_entry_without_a_role_on_an_event_whose_roles_are_enforced(conn: Connection) -> None:
    ring, _root = signed_store(conn)
    write(
        conn,
        "pin.set",
        {role_pins: [{"event_id": 1, "role": CHIEF, "pin_hash": "scrypt$h"}]},
        role=CHIEF,
        event_id=1,
    )
    ok = write(conn, "auth.ok", event_id=1)  # a login states no role
    write(conn, "auth.fail", event_id=1)
    write(conn, "event.update", event_id=2)  # another event: no roles enforced there
    bad = write(conn, "event.update", event_id=1)
    r = verify(conn)
    assert ok["seq"] < bad["seq"] and r.problems == (
        f"entry #{bad['seq']} (event.update, {bad['at']}, 孙裁判长@desk): states no role on event 1, whose roles "
        "are enforced (the store never writes that)",
    )


def test_pins_set_before_the_root_enforce_roles_too(conn: Connection) -> None:
    write(conn, "pin.set", {role_pins: [{"event_id": 4, "role": CHIEF, "pin_hash": "scrypt$h"}]}, event_id=4)
    ring = Ring()
    conn.info[audit.KEYRING_KEY] = ring
    register(conn, ring, "desk", CHIEF)
    write(conn, "event.update", event_id=4)
    assert verify(conn).problem.endswith(
        "states no role on event 4, whose roles are enforced (the store never writes that)"
    )  # type: ignore[union-attr]


def test_without_the_signatures_table_the_chain_and_rows_are_still_verified(conn: Connection) -> None:
    three(conn)
    conn.execute(text("DROP TABLE entry_signatures"))
    conn.execute(text("DROP TABLE station_keys"))
    r = verify(conn)
    assert r.ok and r.entries == 3
    conn.execute(update(events).where(events.c.id == 1).values(name="改"))
    assert verify(conn).bad_seq == 1


def test_an_entry_is_described_by_its_round_and_table_when_it_has_them() -> None:
    base = {"seq": 4, "action": "match.record", "at": "T", "user_name": "李", "station": "t1"}
    assert audit._describe(base) == "entry #4 (match.record, T, 李@t1)"
    assert audit._describe({**base, "table_no": 5}) == "entry #4 (match.record table 5, T, 李@t1)"
    assert audit._describe({**base, "round_no": 2}) == "entry #4 (match.record round 2, T, 李@t1)"
    assert (
        audit._describe({**base, "round_no": 2, "table_no": 5})
        == "entry #4 (match.record round 2 table 5, T, 李@t1)"
    )
    assert (
        audit._describe({**base, "round_no": 0, "table_no": 0})
        == "entry #4 (match.record round 0 table 0, T, 李@t1)"
    )


def test_a_registered_row_whose_key_is_not_a_key_registers_nothing(conn: Connection) -> None:
    ring, _root = signed_store(conn)
    row = {"station": "table-1", "role": "table_referee", "public_key": "zz" * 32, "fingerprint": "f" * 64}
    write(conn, keys.REGISTER_ACTION, {station_keys: [row]}, role=CHIEF)
    assert verify(conn).ok
    # the fingerprint is computed from the key, never read from the row
    public, fpr = ring.add("table-2", "table_referee")
    row = {"station": "table-2", "role": "table_referee", "public_key": public, "fingerprint": "e" * 64}
    write(conn, keys.REGISTER_ACTION, {station_keys: [row]}, role=CHIEF)
    write(conn, "match.record", station="table-2", role="table_referee")
    r = verify(conn)
    assert r.ok and r.signed == 4  # the root, both registrations and the record


def test_a_pin_row_whose_event_is_not_a_number_enforces_nothing_and_is_reported(conn: Connection) -> None:
    """A payload forged to say a PIN row's event is not a number: verify names the row
    (it differs from the table's) and reads no enforced event from it."""
    write(conn, "db.create")
    e = write(
        conn, "pin.set", {role_pins: [{"event_id": 1, "role": CHIEF, "pin_hash": "scrypt$h"}]}, event_id=1
    )
    payload = json.loads(e["payload"])
    payload["rows"]["role_pins"][0]["event_id"] = "x"
    text_ = canonical(payload)
    forge(conn, e["seq"], payload=text_, hash=entry_hash(e["prev_hash"], e, text_))
    r = verify(conn)
    assert r.problems == (f"{audit._describe(e)}: role_pins id 1 changed: event_id is 1, the entry says 'x'",)


def forge_payload(conn: Connection, e: dict[str, Any], payload: dict[str, Any]) -> None:
    """Rewrite entry ``e``'s payload and its hash (the last entry: nothing links to it yet)."""
    text_ = canonical(payload)
    forge(conn, e["seq"], payload=text_, hash=entry_hash(e["prev_hash"], e, text_))


def test_an_entrys_info_that_is_not_an_object_states_no_role(conn: Connection) -> None:
    e = write(conn, "event.create")
    forge_payload(conn, e, {"rows": {}, "info": ["role", CHIEF]})
    assert verify(conn).ok


def test_a_role_that_is_not_text_is_no_role(conn: Connection) -> None:
    ring, _root = signed_store(conn)
    ring.keys[("desk", 5)] = ring.keys[("desk", CHIEF)]  # type: ignore[index]
    write(conn, "event.update", role=5)  # type: ignore[arg-type]
    r = verify(conn)
    assert r.ok and r.signed == 2


def test_station_key_rows_register_a_key_only_in_a_registration(conn: Connection) -> None:
    ring, _root = signed_store(conn)
    public, fpr = ring.add("table-1", "table_referee")
    row = {"station": "table-1", "role": "table_referee", "public_key": public, "fingerprint": fpr}
    write(conn, "event.update", {station_keys: [row]}, role=CHIEF)  # not a key.register entry
    e = write(conn, "match.record", station="table-1", role="table_referee")
    assert verify(conn).problems == (f"{audit._describe(e)}: signed by an unregistered key {fpr[:16]}…",)


def test_the_trust_root_must_be_signed_by_the_key_it_registers_by_fingerprint(conn: Connection) -> None:
    ring = Ring()
    conn.info[audit.KEYRING_KEY] = ring
    register(conn, ring, "desk", CHIEF)
    # the signature is the registered key's, but the entry names another key as its signer
    conn.execute(update(entry_signatures).values(fingerprint="ab" * 32))
    r = verify(conn)
    assert r.problem is not None and r.problem.endswith("signed by itself") and r.root is None


def test_each_unsigned_schema_entry_is_counted(conn: Connection) -> None:
    signed_store(conn)
    write(conn, "db.upgrade", station="nokey")
    write(conn, "db.upgrade", station="nokey")
    r = verify(conn)
    assert r.ok and r.unsigned_schema == 2 and r.signed == 1


def test_only_a_revocation_revokes_a_key(conn: Connection) -> None:
    ring, _root = signed_store(conn)
    fpr = register(conn, ring, "table-1", "table_referee")
    write(conn, "event.update", info={"fingerprint": fpr}, role=CHIEF)  # names the key, revokes nothing
    write(conn, "match.record", station="table-1", role="table_referee")
    assert verify(conn).ok


def test_problems_past_the_limit_are_all_counted(conn: Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(5):
        write(conn, "event.create", {events: [event_row(f"e{i}")]})
    conn.execute(update(events).values(name="改"))
    monkeypatch.setattr(audit, "MAX_PROBLEMS", 2)
    r = verify(conn)
    assert len(r.problems) == 2 and r.more_problems == 3 and r.bad_seq == 1


def test_every_row_an_entry_does_not_list_is_named(conn: Connection) -> None:
    three(conn)
    conn.execute(insert(events).values(id=7, entry_seq=3, **event_row("塞")))
    conn.execute(insert(events).values(id=8, entry_seq=3, **event_row("又")))
    r = verify(conn)
    assert [p.split(": ", 1)[1] for p in r.problems] == [
        "events id 7 is not in the entry",
        "events id 8 is not in the entry",
    ]


def test_a_column_the_entry_does_not_have_is_named_as_changed(conn: Connection) -> None:
    e = write(conn, "event.create", {events: [event_row()]})
    payload = json.loads(e["payload"])
    del payload["rows"]["events"][0]["date"]
    forge_payload(conn, e, payload)
    conn.execute(update(events).values(date="2026-05-01"))
    assert verify(conn).problems == (
        f"{audit._describe(e)}: events id 1 changed: date is '2026-05-01', the entry says None",
    )


def test_an_anchor_for_entry_1_of_an_empty_log_is_a_truncation(conn: Connection) -> None:
    r = verify(conn, anchors=[Anchor(1, "d" * 64)])
    assert r.problems == (
        f"the log was truncated: it has 0 entries, but entry #1 (hash {'d' * 16}…) was noted outside the database",
    )


def test_a_long_noted_head_is_shown_by_its_first_16_digits(conn: Connection) -> None:
    three(conn)
    r = verify(conn, anchor="0123456789abcdef0123")
    assert r.problems == (
        "no entry has the noted hash 0123456789abcdef…: the log was rewritten or truncated after it was noted",
    )


def test_problems_are_ordered_by_entry_number_then_as_found(conn: Connection) -> None:
    for i in range(10):
        write(conn, "event.create", {events: [event_row(f"e{i}")]})
    conn.execute(update(events).where(events.c.id.in_([2, 10])).values(name="改"))
    r = verify(conn)
    assert [p.split(" ", 2)[1] for p in r.problems] == ["#2", "#10"]
    # two problems of one entry stay in the order found: its signature, then its rows
    ring, _root = signed_store(conn)
    _public, fpr = ring.add("table-1", "table_referee")
    e = write(conn, "match.record", {events: [event_row("x")]}, station="table-1", role="table_referee")
    conn.execute(update(events).where(events.c.entry_seq == e["seq"]).values(name="改"))
    r = verify(conn)
    mine = [p for p in r.problems if p.startswith(f"entry #{e['seq']} ")]
    assert [m.split(": ", 1)[1][:9] for m in mine] == ["signed by", "events id"]


@pytest.fixture
def beijing_time(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This computer's clock set to Beijing time (UTC+8), as at the event."""
    import time

    monkeypatch.setenv("TZ", "Asia/Shanghai")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_times_are_utc_whatever_this_computers_zone(beijing_time: None) -> None:
    when = datetime(2026, 5, 1, 10, 0, 0, 5, tzinfo=timezone(timedelta(hours=8)))
    assert audit.iso_z(when) == "2026-05-01T02:00:00.000005Z"
    server = datetime(2026, 5, 1, 10, 0, tzinfo=timezone(timedelta(hours=8)))
    now = audit.store_clock(FakePg(server))  # type: ignore[arg-type]
    assert now.utcoffset() == timedelta(0) and now.tzinfo == UTC


# -- the save's planned writer (issue 11): the same entry as a direct write, sent as fixed SQL ----


def test_the_planned_inserts_name_every_column_for_each_driver() -> None:
    from sqlalchemy import Column, Integer, MetaData, String, Table

    t = Table("t", MetaData(), Column("id", Integer), Column("name", String))
    sql, cols = audit.insert_sql(t, False)
    assert (sql, cols) == ('INSERT INTO "t" ("id", "name") VALUES (:id, :name)', ("id", "name"))
    sql, cols = audit.insert_sql(t, True)
    assert (sql, cols) == ('INSERT INTO "t" ("id", "name") VALUES (%(id)s, %(name)s)', ("id", "name"))
    assert audit.insert_sql(t, True) is audit.insert_sql(t, True)  # built once per table and driver


def test_a_planned_write_chains_and_signs_the_entry_a_direct_write_makes(
    conn: Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = datetime(2026, 12, 2, 8, 0, tzinfo=UTC)
    monkeypatch.setattr(audit, "store_clock", lambda c: at)
    ring = Ring()
    ring.add("desk", CHIEF)
    conn.info[audit.KEYRING_KEY] = ring
    header = {"event_id": 1, "round_no": 2, "table_no": 3, "supersedes": 5, "token": "t-1", "role": CHIEF}
    direct = write(conn, "match.record", {events: [event_row()]}, info={"n": 1}, **header)
    engine = create_engine("sqlite://")
    metadata.create_all(engine)
    with engine.connect() as planned_conn:
        planned_conn.info[audit.KEYRING_KEY] = ring
        w = audit.PlannedWriter(planned_conn, (0, GENESIS), {"events": iter([1])}, at)
        assert w.insert(events, event_row()) == 1
        planned = w.commit_entry(
            user="孙裁判长", station="desk", action="match.record", info={"n": 1}, **header
        )
        assert planned == direct and planned["signed_by"]
        for sql, params in w.statements(False):
            planned_conn.exec_driver_sql(sql, params)
        for table in (events, audit_log, entry_signatures):
            mine = [tuple(r) for r in planned_conn.execute(table.select()).all()]
            assert mine == [tuple(r) for r in conn.execute(table.select()).all()], table.name
    engine.dispose()
