"""The chief referee's desk records (schema 6): published pairings and the proposal kept
for a round until it is published, withdrawals and re-admissions, knockout deciders,
overrides, the round clock, the round's end and the publication of its scores.

Each is one append-only row of ``desk_records`` written with its own audit entry
(``desk.<kind>``), only by the chief referee on an event with PINs. The current state is
derived by reading them in order (``referee_app.desk`` does that); nothing is changed in
place: a corrected pairing is a new version that names its reason.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, func, select

from . import audit
from .errors import ConflictError, InputError
from .models import audit_log, desk_records, matches, pairs, rounds
from .shared import Shared

#: The kinds of desk record, and whether one needs a reason.
KINDS: dict[str, bool] = {
    "pairing": False,  # the first version needs none; a correction does (checked below)
    # a round's draw (or pairing changed by hand) as shown before it is published: every look
    # shows it and publishing publishes it (referee_app.app.pairing); the latest is the one
    "proposal": False,
    # a published pairing withdrawn before any result of its round (referee_app.app.pairing)
    "unpublish": True,
    "withdraw": True,
    "readmit": False,
    "decider": True,
    # a knockout decider corrected, naming the decision it replaces (referee_app.app.pairing)
    "decider_correction": True,
    "override": True,
    "clock": False,
    "round_end": False,
    "scores_published": False,
    # the event's own particulars for its paper (organiser 主办单位, venue 比赛地点, chief
    # referee 裁判长), no round: the latest record holds them all (EVENT_DETAILS)
    "details": False,
}

#: The fields of a ``details`` desk record, each a short text ("" when not given).
EVENT_DETAILS = ("organiser", "venue", "chief_referee")


class Desk:
    """The desk records part of the :class:`~referee_app.store.service.Store`: the chief
    referee's records of the rounds (pairings and proposals, withdrawals, the clock, the
    round's end, …) and the round each late pair enters at."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared

    def desk_records(
        self, event_id: int, kind: str | None = None, round_no: int | None = None
    ) -> list[dict[str, Any]]:
        """The event's desk records in the order written, each with its body decoded and
        who wrote it (user, station) from its audit entry."""

        def run(conn: Connection) -> list[dict[str, Any]]:
            stmt = (
                select(desk_records, audit_log.c.user_name, audit_log.c.station)
                .join(audit_log, audit_log.c.seq == desk_records.c.entry_seq)
                .where(desk_records.c.event_id == event_id)
            )
            if kind is not None:
                stmt = stmt.where(desk_records.c.kind == kind)
            if round_no is not None:
                stmt = stmt.where(desk_records.c.round_no == round_no)
            out = []
            for r in conn.execute(stmt.order_by(desk_records.c.id)):
                d = dict(r._mapping)
                d["body"] = json.loads(d["body"])
                out.append(d)
            return out

        return self.shared.read(run)  # type: ignore[no-any-return]

    def add_desk_record(
        self,
        event_id: int,
        kind: str,
        round_no: int | None,
        body: Mapping[str, Any],
        *,
        actor: Any,
        version: int | None = None,
        at: str | None = None,
    ) -> dict[str, Any]:
        """Append one desk record with its audit entry; returns it as :meth:`desk_records`
        does. ``version``: for a pairing, the version this one must be (1 for the first, the
        current one + 1 for a correction); another station publishing first is a conflict."""
        if kind not in KINDS:
            raise InputError(f"desk record: unknown kind {kind!r}", code="desk.unknown_kind", kind=kind)
        reason = str(body.get("reason") or "").strip()
        if KINDS[kind] and not reason:
            raise InputError(
                f"--reason: a {kind} needs the chief referee's reason",
                code="desk.reason_missing",
                field="reason",
            )
        if kind == "pairing" and (version or 1) > 1 and not reason:
            raise InputError(
                "--reason: a correction to a published pairing needs its reason",
                code="desk.pairing_reason_missing",
                field="reason",
            )
        self.shared.pick_event(event_id)
        stamp = at or audit.now_iso()

        def run(conn: Connection) -> dict[str, Any]:
            as_role = self.shared.authorize(conn, event_id, "desk.run", actor)
            same_round = (
                desk_records.c.round_no.is_(None) if round_no is None else desk_records.c.round_no == round_no
            )
            current = conn.execute(
                select(func.max(desk_records.c.version)).where(
                    desk_records.c.event_id == event_id, desk_records.c.kind == kind, same_round
                )
            ).scalar()
            nxt = int(current or 0) + 1
            if version is not None and version != nxt:
                raise ConflictError(
                    f"{self.shared.where}: round {round_no} {kind}: version {nxt - 1} is already there "
                    f"(another station published first); reload and try again",
                    code="desk.race",
                    where=self.shared.where,
                    round=round_no,
                )
            w = audit.Writer(conn)
            values = {
                "event_id": event_id,
                "round_no": round_no,
                "kind": kind,
                "version": nxt,
                "body": audit.canonical(dict(body)),
                "at": stamp,
            }
            rid = w.insert(desk_records, values)
            w.commit_entry(
                user=actor.user,
                station=actor.station,
                action=f"desk.{kind}",
                event_id=event_id,
                round_no=round_no,
                role=as_role,
                info={
                    "kind": kind,
                    "version": nxt,
                    **({"reason": reason} if reason else {}),
                    # the log says what the clock did (延长 5 分钟), not only that it was touched
                    **(
                        {"clock": body.get("action"), "minutes": int(body.get("minutes") or 0)}
                        if kind == "clock"
                        else {}
                    ),
                },
            )
            return {
                **values,
                "id": rid,
                "body": dict(body),
                "entry_seq": w.seq,
                "user_name": actor.user,
                "station": actor.station,
            }

        return self.shared.write(run)  # type: ignore[no-any-return]

    def event_details(self, event_id: int) -> dict[str, str]:
        """The event's organiser, venue and chief referee as last recorded (``details``
        desk records), each "" when never given. They head its paper; the rulebook's own
        organiser is the organiser of the event it was written for, never assumed here."""
        recs = self.desk_records(event_id, "details")
        body = recs[-1]["body"] if recs else {}
        return {k: str(body.get(k) or "") for k in EVENT_DETAILS}

    def play_times(self, event_id: int, round_no: int) -> tuple[Any, dict[int, Any]]:
        """When round ``round_no`` was started on the hall clock (its first ``start``; None
        if the clock was not used) and, for each table with a result, when that result was
        first recorded (the end of play at that table), as datetimes in UTC."""
        from .common import _result_time, from_iso

        def run(conn: Connection) -> tuple[Any, dict[int, Any]]:
            start = None
            for body, at in conn.execute(
                select(desk_records.c.body, desk_records.c.at)
                .where(
                    desk_records.c.event_id == event_id,
                    desk_records.c.kind == "clock",
                    desk_records.c.round_no == round_no,
                )
                .order_by(desk_records.c.id)
            ):
                if json.loads(body).get("action") == "start":
                    start = from_iso(str(at))
                    break
            rid = conn.execute(
                select(rounds.c.id).where(rounds.c.event_id == event_id, rounds.c.number == round_no)
            ).scalar()
            ends: dict[int, Any] = {}
            if rid is not None:
                tables = set(
                    conn.execute(select(matches.c.table_no).where(matches.c.round_id == rid)).scalars()
                )
                for t in sorted(tables):
                    at = _result_time(conn, int(rid), int(t))
                    if at is not None:
                        ends[int(t)] = at
            return start, ends

        return self.shared.read(run)  # type: ignore[no-any-return]

    def pair_entry_rounds(self, event_id: int) -> dict[str, int]:
        """For each pair imported after the event began, the first round it can play: the
        round after the last one that had a match recorded or a pairing published before
        its import (no retroactive bye for the rounds it was not there for)."""

        def run(conn: Connection) -> dict[str, int]:
            started: dict[int, int] = {}  # round -> first entry seq that put it under way
            q = (
                select(rounds.c.number, func.min(matches.c.entry_seq))
                .join(matches, matches.c.round_id == rounds.c.id)
                .where(rounds.c.event_id == event_id)
                .group_by(rounds.c.number)
            )
            for rnd, seq in conn.execute(q):
                started[int(rnd)] = int(seq)
            q2 = (
                select(desk_records.c.round_no, func.min(desk_records.c.entry_seq))
                .where(desk_records.c.event_id == event_id, desk_records.c.kind == "pairing")
                .group_by(desk_records.c.round_no)
            )
            for rnd, seq in conn.execute(q2):
                if rnd is not None:
                    started[int(rnd)] = min(int(seq), started.get(int(rnd), int(seq)))
            out: dict[str, int] = {}
            for number, seq in conn.execute(
                select(pairs.c.number, pairs.c.entry_seq).where(pairs.c.event_id == event_id)
            ):
                before = [r for r, s in started.items() if s < seq]
                if before:
                    out[str(number)] = max(before) + 1
            return out

        return self.shared.read(run)  # type: ignore[no-any-return]


def appeal_window_start(
    conn: Connection, event_id: int, round_no: int, round_minutes: int, window_from: str
) -> tuple[Any, str | None]:
    """When a round's appeal window opens, as the rulebook's ``appeal.window_from`` says,
    and from what (``window_source``, at most 12 characters):

    * ``score_published`` (Gansu "该轮比赛正式分数公布后"): the publication of the round's
      scores (``published``); before it the window has not opened (None).
    * ``round_end`` (BHG "每轮比赛结束后"): the round's end as the chief referee recorded it
      (``round_end``); else the hall clock's end (``clock``); else, once every table of the
      round has a result, the last of them (``last_result``); else not yet (None).
    """
    from datetime import datetime

    from ..core.clock import ClockAct, clock_state
    from .common import from_iso

    def latest(kind: str) -> Any:
        return conn.execute(
            select(desk_records.c.at)
            .where(
                desk_records.c.event_id == event_id,
                desk_records.c.kind == kind,
                desk_records.c.round_no == round_no,
            )
            .order_by(desk_records.c.id.desc())
            .limit(1)
        ).scalar()

    if window_from == "score_published":
        at = latest("scores_published")
        return (from_iso(str(at)), "published") if at else (None, None)
    at = latest("round_end")
    if at:
        return from_iso(str(at)), "round_end"
    acts = [
        ClockAct(json.loads(b)["action"], from_iso(str(a)), int(json.loads(b).get("minutes") or 0))
        for b, a in conn.execute(
            select(desk_records.c.body, desk_records.c.at)
            .where(
                desk_records.c.event_id == event_id,
                desk_records.c.kind == "clock",
                desk_records.c.round_no == round_no,
            )
            .order_by(desk_records.c.id)
        )
    ]
    if acts:
        from datetime import UTC

        st = clock_state(round_minutes, acts, datetime.now(UTC))
        if st.phase == "ended" and st.ends_at is not None:
            return st.ends_at, "clock"
    from .common import _result_time

    rid = conn.execute(
        select(rounds.c.id).where(rounds.c.event_id == event_id, rounds.c.number == round_no)
    ).scalar()
    if rid is None:
        return None, None
    tables = sorted(set(conn.execute(select(matches.c.table_no).where(matches.c.round_id == rid)).scalars()))
    times = [_result_time(conn, int(rid), int(t)) for t in tables]
    if not times or any(t is None for t in times):
        return None, None
    return max(t for t in times if t is not None), "last_result"
