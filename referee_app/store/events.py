"""The events part of the store (:class:`Events`): create an event pinned to its rulebook,
import its pairs and read them back. Which events there are, and picking one, is the shared
object's (:meth:`.shared.Shared.pick_event`): every part names its event through it."""

from __future__ import annotations

import os
from collections.abc import Collection
from typing import Any

from sqlalchemy import Connection, select

from . import audit
from .common import Actor
from .errors import InputError
from .models import events, pairs, players
from .pairs_csv import PairRow
from .shared import Shared
from .sqlitefile import EventInfo


class Events:
    """The events and pairs part of the :class:`~referee_app.store.service.Store`."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared

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

        return self.shared.write(run)  # type: ignore[no-any-return]

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
            as_role = self.shared.authorize(conn, event_id, "pairs.import", actor)
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

        return self.shared.write(run)  # type: ignore[no-any-return]

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

        return self.shared.read(run)  # type: ignore[no-any-return]
