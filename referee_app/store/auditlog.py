"""The audit log part of the store (:class:`AuditLog`): the chain read back — verified,
anchored, listed, what changed since an entry, its head. Writing an entry is every write's
own (``audit.Writer`` inside the write's transaction); the chain itself is :mod:`.audit`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, select

from . import audit
from .common import Actor
from .models import audit_log, desk_records
from .shared import Shared

#: The entries that say an anchor was kept outside the store: one noted (``note_anchor``:
#: written to an anchor file, shown to be copied on paper) or a verified backup's head.
ANCHOR_KEPT_ACTIONS = ("audit.anchor", "store.backup")
#: The desk records that end a round (the chief referee's end, the scores published).
ROUND_END_KINDS = ("round_end", "scores_published")


@dataclass(frozen=True)
class AnchorState:
    """Whether an anchor was kept since the event's last round ended (the window reminds
    the chief referee when not): the round and its entry, and the last anchor kept."""

    round_no: int | None
    round_end_seq: int | None
    anchor_seq: int | None

    @property
    def anchor_due(self) -> bool:
        return self.round_end_seq is not None and (self.anchor_seq or 0) < self.round_end_seq


class AuditLog:
    """The audit log part of the :class:`~referee_app.store.service.Store`."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared

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
        return self.shared.read(lambda conn: [tuple(r) for r in conn.execute(stmt)])  # type: ignore[no-any-return]

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
        return self.shared.read(  # type: ignore[no-any-return]
            lambda conn: audit.verify(conn, head, anchors or [], root=root, progress=progress)
        )

    def anchor(self) -> audit.Anchor:
        """The chain's head now, to keep outside the database (paper, a file, a QR code)."""
        seq, digest = self.shared.read(audit.head)
        return audit.Anchor(int(seq), str(digest))

    def note_anchor(self, *, actor: Actor, kept: str) -> audit.Anchor:
        """The chain's head, noted in the log as kept outside (``kept``: where, e.g. the
        anchor file or "paper"): an ``audit.anchor`` entry after it, so every station knows
        one was kept since a round ended. Returns the anchor of the head before the note (a
        later verify checks the chain still holds it)."""

        def run(conn: Connection) -> audit.Anchor:
            w = audit.Writer(conn)
            anchor = audit.Anchor(int(w.prev_seq), str(w.prev_hash))
            w.commit_entry(
                user=actor.user,
                station=actor.station,
                action="audit.anchor",
                info={"anchor": anchor.text(), "kept": kept[:300]},
            )
            return anchor

        return self.shared.write(run)  # type: ignore[no-any-return]

    def anchor_state(self, event_id: int) -> AnchorState:
        """The event's last round end and the store's last anchor kept (see AnchorState)."""

        def run(conn: Connection) -> AnchorState:
            end = conn.execute(
                select(desk_records.c.round_no, desk_records.c.entry_seq)
                .where(desk_records.c.event_id == event_id, desk_records.c.kind.in_(ROUND_END_KINDS))
                .order_by(desk_records.c.entry_seq.desc())
                .limit(1)
            ).first()
            kept = conn.execute(
                select(func.max(audit_log.c.seq)).where(audit_log.c.action.in_(ANCHOR_KEPT_ACTIONS))
            ).scalar()
            return AnchorState(
                None if end is None else end.round_no,
                None if end is None else int(end.entry_seq),
                None if kept is None else int(kept),
            )

        return self.shared.read(run)  # type: ignore[no-any-return]

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
        return self.shared.read(lambda conn: audit.entries(conn, conds))  # type: ignore[no-any-return]

    def audit_head(self) -> tuple[int, str]:
        """The last audit entry (seq, hash): a station polls it to see that the store
        changed, whichever station changed it."""
        return self.shared.read(audit.head)  # type: ignore[no-any-return]
