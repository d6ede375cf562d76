"""The tables of the event store (SQLAlchemy 2 Core).

Every domain row carries ``entry_seq``: the audit-log entry that wrote it. Rows are only
ever inserted; a change is a new row that names what it supersedes, and the current
state is derived (the highest version of a match at a round and table, unless voided).

The audit log (``audit_log``) holds one entry per write, chained by hash: each entry's
``hash`` covers its own fields, the canonical JSON of every row the write inserted
(``payload``) and the previous entry's hash.  ``referee-app verify`` recomputes the
chain and compares every domain row with the entry that wrote it.

JSON held in a column is stored as canonical text (``Text``), never as a JSON/JSONB
column type, so that the bytes hashed are the bytes read back on SQLite and PostgreSQL.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()


def _entry_fk() -> Column[int]:
    # Deferred: the rows of a write are inserted first, the entry that covers them
    # (with their ids in its payload) last, in the same transaction.
    return Column(
        "entry_seq",
        Integer,
        ForeignKey("audit_log.seq", deferrable=True, initially="DEFERRED"),
        nullable=False,
        index=True,
    )


store_meta = Table(
    "store_meta",
    metadata,
    Column("key", String(40), primary_key=True),
    Column("value", String(200), nullable=False),
)

audit_log = Table(
    "audit_log",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("at", String(40), nullable=False),  # ISO 8601, UTC
    Column("user_name", String(100), nullable=False),
    Column("station", String(100), nullable=False),
    Column("action", String(40), nullable=False),
    Column("event_id", Integer, nullable=True, index=True),
    Column("round_no", Integer, nullable=True),
    Column("table_no", Integer, nullable=True),
    Column("supersedes", Integer, nullable=True),  # seq of the entry whose write this replaces
    Column("token", String(100), nullable=True, unique=True),  # idempotency key of a client
    Column("payload", Text, nullable=False),  # canonical JSON
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False, unique=True),
)

events = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(200), nullable=False),
    Column("date", String(10), nullable=True),
    Column("rulebook_id", String(100), nullable=False),
    Column("rulebook_sha256", String(64), nullable=False),
    Column("rulebook_text", Text, nullable=False),
    _entry_fk(),
)

pairs = Table(
    "pairs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("event_id", Integer, ForeignKey("events.id"), nullable=False),
    Column("number", String(20), nullable=False),
    Column("unit", String(200), nullable=True),
    _entry_fk(),
    UniqueConstraint("event_id", "number", name="uq_pairs_event_number"),
)

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("pair_id", Integer, ForeignKey("pairs.id"), nullable=False, index=True),
    Column("position", Integer, nullable=False),  # 1 or 2
    Column("name", String(100), nullable=False),
    _entry_fk(),
    UniqueConstraint("pair_id", "position", name="uq_players_pair_position"),
)

rounds = Table(
    "rounds",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("event_id", Integer, ForeignKey("events.id"), nullable=False),
    Column("number", Integer, nullable=False),
    _entry_fk(),
    UniqueConstraint("event_id", "number", name="uq_rounds_event_number"),
)

matches = Table(
    "matches",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("event_id", Integer, ForeignKey("events.id"), nullable=False),
    Column("round_id", Integer, ForeignKey("rounds.id"), nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("supersedes_id", Integer, ForeignKey("matches.id"), nullable=True, unique=True),
    Column("ns_pair_id", Integer, ForeignKey("pairs.id"), nullable=False),
    Column("ew_pair_id", Integer, ForeignKey("pairs.id"), nullable=False),
    Column("lang", String(5), nullable=False),
    Column("winner", String(4), nullable=True),
    Column("case_json", Text, nullable=False),  # the case as recorded (canonical JSON)
    Column("decision_json", Text, nullable=False),  # the decision judged from it
    _entry_fk(),
    # Two stations writing the same next version of a match: the second insert fails.
    UniqueConstraint("round_id", "table_no", "version", name="uq_matches_version"),
)

hands = Table(
    "hands",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False, index=True),
    Column("number", Integer, nullable=False),
    Column("dealer", String(1), nullable=True),
    Column("dealer_side", String(2), nullable=True),
    Column("defender_points", Integer, nullable=True),
    Column("defender_total", Integer, nullable=True),
    Column("lost_by", String(4), nullable=True),  # NS, EW or both (schema 11)
    Column("levels_before", String(40), nullable=True),  # canonical JSON
    Column("levels_after", String(40), nullable=True),
    Column("next_dealer", String(1), nullable=True),
    Column("input_json", Text, nullable=False),  # the hand as given in the case
    _entry_fk(),
)

infractions = Table(
    "infractions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False, index=True),
    Column("hand_id", Integer, ForeignKey("hands.id"), nullable=True),  # null: before play
    Column("position", Integer, nullable=False),
    Column("kind", String(40), nullable=False),
    Column("seat", String(1), nullable=True),
    Column("side", String(2), nullable=True),
    Column("input_json", Text, nullable=False),
    _entry_fk(),
)

rulings = Table(
    "rulings",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False, index=True),
    Column("hand_id", Integer, ForeignKey("hands.id"), nullable=True),
    Column("infraction_id", Integer, ForeignKey("infractions.id"), nullable=True),
    Column("position", Integer, nullable=False),
    Column("kind", String(40), nullable=False),
    Column("seat", String(1), nullable=True),
    Column("side", String(2), nullable=True),
    Column("against", String(2), nullable=True),
    Column("points", Integer, nullable=False),
    Column("hand_lost", Boolean, nullable=False),
    Column("disqualified", Boolean, nullable=False),
    Column("assumed", Boolean, nullable=False),
    Column("rule", String(200), nullable=True),
    Column("citation", String(200), nullable=True),
    # The engine's proposal, and the referee's decision on it. The proposal is kept when
    # the referee overrode it; otherwise it is the ruling itself (ruling_json) and is null
    # (rows written before issue 11 repeat it).
    Column("proposal_json", Text, nullable=True),
    Column("decision", String(12), nullable=False),  # "confirmed" | "overridden"
    Column("reason", Text, nullable=True),
    Column("ruling_json", Text, nullable=False),  # the ruling as applied
    _entry_fk(),
)

# Added in schema version 2.
voidings = Table(
    "voidings",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False, unique=True),
    Column("reason", Text, nullable=False),
    _entry_fk(),
)

# Added in schema version 4: appeals, their steps, signatures of a match version, event keys.
appeals = Table(
    "appeals",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("event_id", Integer, ForeignKey("events.id"), nullable=False, index=True),
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False),  # the version appealed
    Column("ruling_id", Integer, ForeignKey("rulings.id"), nullable=False),
    Column("round_no", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("by_side", String(2), nullable=False),  # NS | EW
    Column("by_pair_id", Integer, ForeignKey("pairs.id"), nullable=False),
    Column("grounds", Text, nullable=False),
    Column("evidence", Text, nullable=True),
    Column("receipt_no", String(100), nullable=True),
    Column("filed_at", String(40), nullable=False),  # ISO 8601, UTC
    # When the window opened (the round's result recorded, or given with --ended-at).
    Column("window_start", String(40), nullable=True),
    Column("window_source", String(12), nullable=True),  # "recorded" | "given"
    Column("window_minutes", Integer, nullable=False),
    Column("window_from", String(20), nullable=False),
    Column("fee_yuan", Integer, nullable=False),
    Column("late_minutes", Integer, nullable=False),  # 0: on time
    Column("late_reason", Text, nullable=True),  # the chief referee accepted it late, and why
    _entry_fk(),
)

#: An appeal's state changes: under_review, upheld, modified, rejected, withdrawn. The
#: appeal row itself is "filed"; the current state is the last step's.
appeal_steps = Table(
    "appeal_steps",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("appeal_id", Integer, ForeignKey("appeals.id"), nullable=False, index=True),
    Column("state", String(16), nullable=False),
    Column("reason", Text, nullable=True),
    Column("committee_json", Text, nullable=True),  # canonical JSON list of names
    Column("sanctions_json", Text, nullable=True),  # the new sanctions (modified)
    Column("fee_outcome", String(10), nullable=True),  # refunded | kept | none
    Column("new_match_id", Integer, ForeignKey("matches.id"), nullable=True),
    _entry_fk(),
    UniqueConstraint("appeal_id", "state", name="uq_appeal_steps_state"),
)

#: A signature (PNG, base64) of one signer of one match version. A signed version is locked.
signatures = Table(
    "signatures",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False, index=True),
    Column("signer", String(8), nullable=False),  # N, E, S, W, referee
    Column("png_b64", Text, nullable=False),
    Column("sha256", String(64), nullable=False),
    _entry_fk(),
    UniqueConstraint("match_id", "signer", name="uq_signatures_signer"),
)

#: The event's signing key: PKCS#12 (encrypted under a passphrase kept outside) and its
#: certificate. One per event, never replaced.
event_keys = Table(
    "event_keys",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("event_id", Integer, ForeignKey("events.id"), nullable=False, unique=True),
    Column("p12_b64", Text, nullable=False),
    Column("cert_pem", Text, nullable=False),
    Column("subject", String(400), nullable=False),
    Column("sha256", String(64), nullable=False),  # certificate fingerprint
    _entry_fk(),
)

V4_TABLES: tuple[Table, ...] = (appeals, appeal_steps, signatures, event_keys)

# Added in schema version 5: roles (裁判员, 裁判长, 仲裁委员会) and their PINs.
#: A role's PIN on an event, as a salted scrypt hash (``scrypt$n$r$p$salt_b64$hash_b64``,
#: see ``roles.hash_pin``); the current PIN of a role is its latest row. The audit entry
#: that wrote a row carries ``sha256:`` of the hash, not the hash (``audit.REDACTED``).
role_pins = Table(
    "role_pins",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("event_id", Integer, ForeignKey("events.id"), nullable=False, index=True),
    Column("role", String(20), nullable=False),
    Column("pin_hash", String(200), nullable=False),
    _entry_fk(),
)

#: PIN attempts that count: every wrong PIN, and a right one that ends a run of wrong ones
#: (it resets the count). ``at`` is the store's clock (the server's on PostgreSQL), ISO
#: 8601 UTC; the station is its audit entry's. A role is locked at a station after each 5th
#: wrong PIN in a run there, longer each time (see ``roles``).
auth_attempts = Table(
    "auth_attempts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("event_id", Integer, ForeignKey("events.id"), nullable=False, index=True),
    Column("role", String(20), nullable=False),
    Column("ok", Boolean, nullable=False),
    Column("at", String(40), nullable=False),
    _entry_fk(),
)

V5_TABLES: tuple[Table, ...] = (role_pins, auth_attempts)

# Added in schema version 6: the chief referee's running of the event.
#: One row per act of the chief referee's desk, ``kind`` naming it and ``body`` holding
#: its canonical JSON: a published pairing (``pairing``, numbered ``version`` per round, a
#: correction naming its reason), the round's proposal until then (``proposal``: the draw
#: shown, its seed and tables, so that publishing publishes it), a withdrawal or
#: re-admission (``withdraw``, ``readmit``), a tied knockout match's deciding result
#: (``decider``), pairing over an unfinished round (``override``), the round clock
#: (``clock``), the round's end (``round_end``) and the publication of its scores
#: (``scores_published``). ``at`` is the station's clock, ISO 8601 UTC. The current state
#: of each is derived by reading them in order.
desk_records = Table(
    "desk_records",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("event_id", Integer, ForeignKey("events.id"), nullable=False, index=True),
    Column("round_no", Integer, nullable=True),
    Column("kind", String(30), nullable=False),
    Column("version", Integer, nullable=False),
    Column("body", Text, nullable=False),
    Column("at", String(40), nullable=False),
    _entry_fk(),
    # two stations publishing the same version of a round's pairing: the second fails
    UniqueConstraint("event_id", "kind", "round_no", "version", name="uq_desk_records_version"),
)

V6_TABLES: tuple[Table, ...] = (desk_records,)

# Added in schema version 8: station keys and the signatures of audit entries.
#: A station's public key for one role, registered by the chief referee (``key.register``);
#: the first registration (the chief referee's own key) is the trust root. See ``keys``.
station_keys = Table(
    "station_keys",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("station", String(100), nullable=False),
    Column("role", String(40), nullable=False),
    Column("public_key", String(64), nullable=False),  # raw Ed25519 key, hex
    Column("fingerprint", String(64), nullable=False, unique=True),  # sha256 of the raw key
    _entry_fk(),
)

#: The signature of an audit entry by the station that wrote it: Ed25519 over the entry's
#: hash (``keys.signed_bytes``). Outside the chain on purpose: the hash it signs is final
#: only once the entry is; the signature needs no chain to be checked.
entry_signatures = Table(
    "entry_signatures",
    metadata,
    Column("seq", Integer, ForeignKey("audit_log.seq"), primary_key=True),
    Column("fingerprint", String(64), nullable=False),
    Column("signature", String(128), nullable=False),
)

V8_TABLES: tuple[Table, ...] = (station_keys, entry_signatures)

#: The domain tables whose rows verify compares with the audit log, in insert order.
DOMAIN_TABLES: tuple[Table, ...] = (
    events,
    pairs,
    players,
    rounds,
    matches,
    hands,
    infractions,
    rulings,
    voidings,
    *V4_TABLES,
    *V5_TABLES,
    *V6_TABLES,
    station_keys,
)
