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
    Column("lost_by", String(2), nullable=True),
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
    # The engine's proposal, and the referee's decision on it.
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
)
