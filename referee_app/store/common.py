"""What the store's parts share: who acts (:class:`Actor`), a saved version
(:class:`Recorded`), the case as ``judge`` reads it, a match's current version and whether
it is voided, and the times kept as ISO text (an event as the store lists it,
:class:`.sqlitefile.EventInfo`, is read without SQLAlchemy too).

Below :mod:`.service` (the :class:`~.service.Store`), the object its parts share
(:mod:`.shared`), the save path (:mod:`.save`) and the parts (:mod:`.events`,
:mod:`.matches`, :mod:`.appeals`, :mod:`.desk`, :mod:`.registry`, :mod:`.pins`,
:mod:`.auditlog`): each imports these from here, and the store's modules import one another
in one direction only (no part holds another; the appeals read a round's end through
:func:`.desk.appeal_window_start`)."""

from __future__ import annotations

import getpass
import json
import os
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, select

from ..core.case import split_case
from .models import audit_log, matches, voidings


@dataclass(frozen=True)
class Actor:
    """Who writes, from which station, and in which role.

    ``role`` alone is a claim; an actor returned by :meth:`Store.login` also carries a
    ticket that the same store issued for that event and PIN (``authenticated``). On an
    event whose roles are enforced, the store accepts only its own tickets."""

    user: str
    station: str
    role: str | None = None
    ticket: str | None = field(default=None, repr=False, compare=False)

    @property
    def authenticated(self) -> bool:
        return self.ticket is not None

    @classmethod
    def default(cls, user: str | None = None, station: str | None = None) -> Actor:
        u = user or os.environ.get("REFEREE_APP_USER") or _login()
        s = station or os.environ.get("REFEREE_APP_STATION") or socket.gethostname() or "local"
        return cls(u[:100], s[:100])


def _login() -> str:
    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no user name in the environment
        return "unknown"


@dataclass(frozen=True)
class Recorded:
    match_id: int
    version: int
    round: int
    table: int
    supersedes_id: int | None
    entry_seq: int
    replayed: bool = False  # the same token was already saved: nothing new written


def strip_case(case: Mapping[str, Any]) -> dict[str, Any]:
    """The case as ``judge`` reads it: without the store's ``round``, ``table``, ``pairs``."""
    return split_case(case)[0]


def _current_at(conn: Connection, round_id: int, table_no: int) -> Any:
    return conn.execute(
        select(matches)
        .where(and_(matches.c.round_id == round_id, matches.c.table_no == table_no))
        .order_by(matches.c.version.desc())
        .limit(1)
    ).first()


def _voided(conn: Connection, match_id: int) -> bool:
    found = conn.execute(select(voidings.c.id).where(voidings.c.match_id == match_id)).first()
    return found is not None


def from_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _result_time(conn: Connection, round_id: int, table_no: int) -> datetime | None:
    """When the match's result was first recorded: the entry of the first version with one."""
    rows = conn.execute(
        select(matches.c.decision_json, matches.c.entry_seq)
        .where(and_(matches.c.round_id == round_id, matches.c.table_no == table_no))
        .order_by(matches.c.version)
    )
    for dj, seq in rows:
        if json.loads(dj).get("result") is not None:
            at = conn.execute(select(audit_log.c.at).where(audit_log.c.seq == seq)).scalar()
            return from_iso(str(at))
    return None
