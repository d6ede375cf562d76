"""The audit log part of the store (:class:`AuditLog`): the chain read back — verified,
anchored, listed, what changed since an entry, its head. Writing an entry is every write's
own (``audit.Writer`` inside the write's transaction); the chain itself is :mod:`.audit`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import select

from . import audit
from .models import audit_log
from .shared import Shared


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
