"""Appeals (申诉) against one ruling: filing against the event's window, review, decision,
withdrawal.

Nothing is changed in place: the appeal is one row ("filed"), each later state one more row
(``appeal_steps``), each with its audit entry; the current state is the last step's. A
decision that upholds or modifies the appeal writes a new version of the match (a chief
referee's correction, allowed on a signed version) whose case voids or overrides the
infraction, judged again with the event's pinned rulebook, in the same transaction as the
decision.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, and_, select

from ..core.editing import carry_forward, lighter_but_worse, same_infraction
from ..core.errors import field_of
from ..core.inputs import read_limited
from ..core.text import attachment_line
from . import audit, roles
from .common import _current_at, _voided, from_iso, strip_case
from .errors import ConflictError, InputError, NotFoundError, RoleError
from .models import (
    appeal_steps,
    appeals,
    audit_log,
    events,
    hands,
    infractions,
    matches,
    pairs,
    rounds,
    rulings,
)
from .save import _write_match
from .shared import Shared
from .sqlitefile import EventInfo

if TYPE_CHECKING:
    from .common import Actor

DECISIONS = ("upheld", "modified", "rejected")
OPEN_STATES = ("filed", "under_review")
FINAL_STATES = (*DECISIONS, "withdrawn")


def _with_attachment(evidence: str | None, attachment: str | Path | None) -> str | None:
    """The evidence statement, with the attachment's name and SHA-256 on a line of its own."""
    if attachment is None:
        return evidence
    path = Path(attachment)
    try:
        digest = hashlib.sha256(read_limited(path, error=InputError, field="attachment")).hexdigest()
    except OSError as exc:
        raise InputError(
            f"--attachment: cannot read {path}: {exc.strerror or exc}",
            code="appeal.attachment_unreadable",
            field="attachment",
            path=str(path),
        ) from None
    line = attachment_line(path.name, digest)
    return f"{evidence.strip()}\n{line}" if evidence and evidence.strip() else line


def parse_when(text: str, field: str) -> datetime:
    """An ISO 8601 date and time; without a zone it is the station's local time. In UTC."""
    try:
        when = datetime.fromisoformat(text.strip())
    except (ValueError, AttributeError):
        raise InputError(
            f"{field}: expected a date and time such as 2026-05-01T15:40 (ISO 8601), got {text!r}",
            code="input.datetime",
            field=field_of(field),
            got=text,
        ) from None
    if when.tzinfo is None:
        when = when.astimezone()  # the station's local time
    return when.astimezone(UTC)


def iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def late_minutes(filed_at: datetime, window_start: datetime | None, window_minutes: int) -> int:
    """0 when on time; else whole minutes after the deadline, rounded up."""
    if window_start is None:
        return 0
    over = (filed_at - (window_start + timedelta(minutes=window_minutes))).total_seconds()
    return 0 if over <= 0 else max(1, math.ceil(over / 60))


def fee_outcome(decision: str, fee_yuan: int, refunded_if_upheld: bool) -> str:
    """``refunded``, ``kept`` or ``none`` (no fee). Upheld and modified count as the
    appellant's success; a rejection or a withdrawal keeps the fee."""
    if fee_yuan <= 0:
        return "none"
    if decision in ("upheld", "modified"):
        return "refunded" if refunded_if_upheld else "kept"
    return "kept"


class Appeals:
    """The appeals part of the :class:`~referee_app.store.service.Store`: filing, review,
    decision, withdrawal, and reading them with the ruling they are against."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared

    # -- reading ---------------------------------------------------------------------
    def ruling(self, ruling_id: int) -> dict[str, Any]:
        """A stored ruling with where it is: event, round, table, version, hand, infraction."""
        return self.shared.read(lambda conn: _ruling(conn, ruling_id))  # type: ignore[no-any-return]

    def appeals(self, event_id: int, round_no: int | None = None) -> list[dict[str, Any]]:
        def run(conn: Connection) -> list[dict[str, Any]]:
            stmt = select(appeals.c.id).where(appeals.c.event_id == event_id)
            if round_no is not None:
                stmt = stmt.where(appeals.c.round_no == round_no)
            ids = list(conn.execute(stmt.order_by(appeals.c.id)).scalars())
            return [_appeal(conn, int(i)) for i in ids]

        return self.shared.read(run)  # type: ignore[no-any-return]

    def appeal(self, appeal_id: int) -> dict[str, Any]:
        return self.shared.read(lambda conn: _appeal(conn, appeal_id))  # type: ignore[no-any-return]

    # -- writing ---------------------------------------------------------------------
    def file_appeal(
        self,
        event_id: int,
        *,
        ruling_id: int,
        by: str,
        grounds: str,
        actor: Actor,
        evidence: str | None = None,
        receipt: str | None = None,
        filed_at: datetime | None = None,
        ended_at: datetime | None = None,
        accept_late_reason: str | None = None,
        backdate_reason: str | None = None,
        attachment: str | Path | None = None,
    ) -> int:
        """File an appeal by pair ``by`` (NS or EW of that match) against ruling ``ruling_id``.

        The window comes from the pinned rulebook; it opens at the round's end or at the
        publication of its scores, as the rulebook says (``desk.appeal_window_start``), and the
        appeal is filed now, both by the store's clock (the server's on PostgreSQL).
        ``filed_at``/``ended_at`` back-date them (a paper appeal typed in later): only the
        chief referee may, with ``backdate_reason``, which the audit entry keeps beside the
        store's time. A late appeal is refused with ``InputError`` saying by
        how much, unless ``accept_late_reason`` (the chief referee's) is given.

        What the rulebook's ``[appeal]`` asks for comes with it: the receipt of its fee
        (``fee_yuan`` above 0; 申诉费/押金), the evidence (``evidence_required``; 证据) as a
        written statement. ``attachment`` (a photo, a scan) is optional: its name and SHA-256
        are kept with the evidence, so the file shown to the committee can be matched later."""
        if by not in ("NS", "EW"):
            raise InputError(
                f"--by: expected NS or EW, got {by!r}", code="appeal.by_invalid", field="by", got=by
            )
        if not grounds or not grounds.strip():
            raise InputError(
                "--grounds: an appeal needs its grounds in writing",
                code="appeal.grounds_missing",
                field="grounds",
            )
        if accept_late_reason is not None and not accept_late_reason.strip():
            raise InputError(
                "--reason: accepting a late appeal needs a written reason",
                code="appeal.late_reason_missing",
                field="reason",
            )
        backdated = filed_at is not None or ended_at is not None
        if backdated and not (backdate_reason and backdate_reason.strip()):
            given = "--filed-at" if filed_at is not None else "--ended-at"
            raise InputError(
                f"{given}: an appeal's times come from the store's clock; giving them is the "
                "chief referee's back-dating and needs --backdate-reason TEXT",
                code="appeal.backdate_reason_missing",
                field=field_of(given),
            )
        if backdate_reason is not None and not backdated:
            raise InputError(
                "--backdate-reason: only with --filed-at or --ended-at",
                code="appeal.backdate_reason_alone",
                field="backdate_reason",
            )
        ev = self.shared.pick_event(event_id)
        rb = self.shared.pinned_rulebook(ev.id)
        cfg = rb.data.get("appeal") or {}
        window_minutes = int(cfg.get("window_minutes", 0))
        window_from = str(cfg.get("window_from", "round_end"))
        fee_yuan = int(cfg.get("fee_yuan", 0))
        if fee_yuan > 0 and not (receipt and receipt.strip()):
            raise InputError(
                f"--receipt: the rulebook fixes a {fee_yuan} yuan appeal fee; give its receipt number",
                code="appeal.receipt_missing",
                field="receipt",
                fee=fee_yuan,
            )
        if cfg.get("evidence_required") and not (evidence and evidence.strip()):
            raise InputError(
                "--evidence: the rulebook asks for evidence with an appeal; state it in writing "
                "(an attachment is optional)",
                code="appeal.evidence_missing",
                field="evidence",
            )
        evidence = _with_attachment(evidence, attachment)

        def run(conn: Connection) -> int:
            store_now = audit.store_clock(conn)
            filed = store_now if filed_at is None else filed_at.astimezone(UTC)
            r = _ruling(conn, ruling_id)
            if r["event_id"] != ev.id:
                raise NotFoundError(
                    f"--ruling: no ruling {ruling_id} in event {ev.id} ({ev.name})",
                    code="appeal.no_ruling",
                    field="ruling",
                    ruling=ruling_id,
                    event=ev.id,
                )
            current = _current(conn, r["round_id"], r["table_no"])
            where = f"round {r['round']} table {r['table']}"
            if current is None or int(current.id) != r["match_id"]:
                now = [x["id"] for x in _rulings_of(conn, int(current.id))] if current is not None else []
                raise InputError(
                    f"--ruling {ruling_id}: it belongs to version {r['version']} of {where}, since "
                    f"replaced by version {current.version if current is not None else '?'}; appeal a "
                    f"current ruling ({', '.join(str(i) for i in now) or 'none'})",
                    code="appeal.ruling_replaced",
                    field="ruling",
                    ruling=ruling_id,
                    round=r["round"],
                    table=r["table"],
                    version=r["version"],
                    current=current.version if current is not None else "?",
                    now=[str(i) for i in now],
                )
            if _is_void(conn, r["match_id"]):
                raise InputError(
                    f"--ruling {ruling_id}: {where} version {r['version']} is void",
                    code="appeal.ruling_version_void",
                    field="ruling",
                    ruling=ruling_id,
                    round=r["round"],
                    table=r["table"],
                    version=r["version"],
                )
            if r["decision"] == "voided":
                raise InputError(
                    f"--ruling {ruling_id}: this ruling is voided; there is nothing to appeal",
                    code="appeal.ruling_voided",
                    field="ruling",
                    ruling=ruling_id,
                )
            if r["infraction_id"] is None:
                raise InputError(
                    f"--ruling {ruling_id}: not tied to a logged infraction; it cannot be appealed",
                    code="appeal.ruling_not_infraction",
                    field="ruling",
                    ruling=ruling_id,
                )
            for other in conn.execute(
                select(appeals.c.id).where(and_(appeals.c.ruling_id == ruling_id, appeals.c.by_side == by))
            ).scalars():
                if _state(conn, int(other))[0] in OPEN_STATES:
                    raise ConflictError(
                        f"--ruling {ruling_id}: {by} already has appeal {other} open against it",
                        code="appeal.already_open",
                        field="ruling",
                        ruling=ruling_id,
                        side=by,
                        appeal=other,
                    )
            if ended_at is not None:
                start: datetime | None = ended_at.astimezone(UTC)
                source: str | None = "given"
            else:
                # the round's end or the publication of its scores, as the rulebook says
                # (issue 13, 10); they are the chief referee's desk records
                from .desk import appeal_window_start

                start, source = appeal_window_start(
                    conn, ev.id, int(r["round"]), int(rb.data["round"]["minutes"]), window_from
                )
            late = late_minutes(filed, start, window_minutes)
            if late and accept_late_reason is None:
                assert start is not None
                closed = start + timedelta(minutes=window_minutes)
                what = "the score was published" if window_from == "score_published" else "the round ended"
                raise InputError(
                    f"appeal against ruling {ruling_id} ({where}): filed {late} min after the "
                    f"{window_minutes}-min window closed ({what} {iso(start)}, window closed "
                    f"{iso(closed)}, filed {iso(filed)}); refused — the chief referee may accept it "
                    "with --accept-late --reason TEXT",
                    code="appeal.late",
                    field="filed_at",
                    ruling=ruling_id,
                    round=r["round"],
                    table=r["table"],
                    n=late,
                    window=window_minutes,
                    start=start,
                    closed=closed,
                    filed=filed,
                    window_from=window_from,
                )
            as_role = self.shared.authorize(conn, ev.id, "appeal.file", actor)
            if late and accept_late_reason is not None:
                self.shared.authorize(conn, ev.id, "appeal.accept_late", actor)
            if backdated:
                self.shared.authorize(conn, ev.id, "appeal.backdate", actor)
            pair_id = r["ns_pair_id"] if by == "NS" else r["ew_pair_id"]
            w = audit.Writer(conn)
            aid = w.insert(
                appeals,
                {
                    "event_id": ev.id,
                    "match_id": r["match_id"],
                    "ruling_id": ruling_id,
                    "round_no": r["round"],
                    "table_no": r["table"],
                    "by_side": by,
                    "by_pair_id": pair_id,
                    "grounds": grounds.strip(),
                    "evidence": (evidence or "").strip() or None,
                    "receipt_no": (receipt or "").strip() or None,
                    "filed_at": iso(filed),
                    "window_start": None if start is None else iso(start),
                    "window_source": source,
                    "window_minutes": window_minutes,
                    "window_from": window_from,
                    "fee_yuan": fee_yuan,
                    "late_minutes": late,
                    "late_reason": accept_late_reason.strip() if late and accept_late_reason else None,
                },
            )
            w.commit_entry(
                user=actor.user,
                station=actor.station,
                action="appeal.file",
                event_id=ev.id,
                role=as_role,
                round_no=r["round"],
                table_no=r["table"],
                info={
                    "appeal_id": aid,
                    "ruling_id": ruling_id,
                    "kind": r["kind"],
                    "hand": r["hand"],
                    "seat": r["seat"],
                    "by": by,
                    "pair": r["ns_number"] if by == "NS" else r["ew_number"],
                    "filed_at": iso(filed),
                    "late_minutes": late,
                    "late_accepted": bool(late),
                    "late_reason": accept_late_reason.strip() if late and accept_late_reason else None,
                    "window_minutes": window_minutes,
                    "fee_yuan": fee_yuan,
                    "receipt": (receipt or "").strip() or None,
                    **(
                        {
                            "backdated": {
                                "reason": str(backdate_reason).strip(),
                                "store_time": iso(store_now),
                                "filed_at": None if filed_at is None else iso(filed),
                                "ended_at": None if ended_at is None else iso(ended_at),
                            }
                        }
                        if backdated
                        else {}
                    ),
                },
            )
            return aid

        return self.shared.write(run)  # type: ignore[no-any-return]

    def review_appeal(self, appeal_id: int, *, actor: Actor, event_id: int | None = None) -> None:
        """filed → under_review."""
        self._step(appeal_id, "under_review", actor=actor, event_id=event_id, allowed=("filed",))

    def withdraw_appeal(
        self, appeal_id: int, *, reason: str, actor: Actor, event_id: int | None = None
    ) -> None:
        if not reason or not reason.strip():
            raise InputError(
                "--reason: a withdrawal needs a written reason",
                code="appeal.withdraw_reason_missing",
                field="reason",
            )
        self._step(
            appeal_id, "withdrawn", actor=actor, event_id=event_id, allowed=OPEN_STATES, reason=reason.strip()
        )

    def _step(
        self,
        appeal_id: int,
        state: str,
        *,
        actor: Actor,
        event_id: int | None,
        allowed: Sequence[str],
        reason: str | None = None,
    ) -> None:
        def run(conn: Connection) -> None:
            a = _appeal_row(conn, appeal_id, event_id)
            action = "appeal.review" if state == "under_review" else "appeal.withdraw"
            as_role = self.shared.authorize(conn, int(a.event_id), action, actor)
            if state == "withdrawn" and as_role == roles.TABLE_REFEREE:
                _check_filed_by(conn, a, actor.user)
            _check_state(conn, appeal_id, allowed, state)
            w = audit.Writer(conn)
            fee = None
            if state == "withdrawn":
                fee = fee_outcome("withdrawn", int(a.fee_yuan), True)
            w.insert(
                appeal_steps,
                {"appeal_id": appeal_id, "state": state, "reason": reason, "fee_outcome": fee},
            )
            w.commit_entry(
                user=actor.user,
                station=actor.station,
                action=action,
                event_id=int(a.event_id),
                role=as_role,
                round_no=int(a.round_no),
                table_no=int(a.table_no),
                info={"appeal_id": appeal_id, "state": state, "reason": reason, "fee": fee},
            )

        self.shared.write(run)

    def decide_appeal(
        self,
        appeal_id: int,
        *,
        decision: str,
        reason: str,
        committee: Sequence[str],
        actor: Actor,
        sanctions: list[Any] | None = None,
        event_id: int | None = None,
    ) -> dict[str, Any]:
        """Decide an open appeal. ``upheld``: the ruling is overturned (voided in a new
        version of the match, with the decision's reason); ``modified``: it is replaced by
        ``sanctions`` (the case format's override vocabulary); ``rejected``: it stands. The
        fee outcome is recorded. Returns ``{"state", "fee", "match_id", "version", …}``."""
        if decision not in DECISIONS:
            raise InputError(
                f"--decision: expected one of {', '.join(DECISIONS)}, got {decision!r}",
                code="appeal.decision_invalid",
                field="decision",
                got=decision,
                allowed=list(DECISIONS),
            )
        if not reason or not reason.strip():
            raise InputError(
                "--reason: a decision needs its reasons in writing",
                code="appeal.decision_reason_missing",
                field="reason",
            )
        names = [n.strip() for n in committee if n and n.strip()]
        if not names:
            raise InputError(
                "--committee: the decision needs the committee's names",
                code="appeal.committee_missing",
                field="committee",
            )
        if decision == "modified":
            if not isinstance(sanctions, list) or not sanctions:
                raise InputError(
                    '--sanctions: a modified ruling needs its sanctions, e.g. ["warning"]',
                    code="appeal.sanctions_missing",
                    field="sanctions",
                )
        elif sanctions is not None:
            raise InputError(
                "--sanctions: only with --decision modified",
                code="appeal.sanctions_unmodified",
                field="sanctions",
            )
        reason = reason.strip()

        def run(conn: Connection) -> dict[str, Any]:
            a = _appeal_row(conn, appeal_id, event_id)
            as_role = self.shared.authorize(conn, int(a.event_id), "appeal.decide", actor)
            _check_state(conn, appeal_id, OPEN_STATES, decision)
            ev_id = int(a.event_id)
            rb = self.shared.pinned_rulebook(ev_id)
            refunded_if_upheld = bool((rb.data.get("appeal") or {}).get("refunded_if_upheld", True))
            fee = fee_outcome(decision, int(a.fee_yuan), refunded_if_upheld)
            r = _ruling(conn, int(a.ruling_id))
            before = _current(conn, r["round_id"], r["table_no"])
            out: dict[str, Any] = {
                "appeal_id": appeal_id,
                "state": decision,
                "fee": fee,
                "match_id": None,
                "version": None,
                "winner_before": None if before is None else before.winner,
                "winner_after": None if before is None else before.winner,
                # hands that stand as dealt although the rotation would now give another seat
                "dealt_as_played": [],
            }
            if decision in ("upheld", "modified"):
                if before is None or _is_void(conn, int(before.id)):
                    raise ConflictError(
                        f"appeal {appeal_id}: round {r['round']} table {r['table']} has no current "
                        "record to change",
                        code="appeal.no_current_record",
                        appeal=appeal_id,
                        round=r["round"],
                        table=r["table"],
                    )
                stored_case = json.loads(before.case_json)
                appealed_case = conn.execute(
                    select(matches.c.case_json).where(matches.c.id == r["match_id"])
                ).scalar()
                inf = (
                    None
                    if r.get("position") is None or appealed_case is None
                    else same_infraction(
                        json.loads(appealed_case), r["hand"] or 0, int(r["position"]), stored_case
                    )
                )
                if inf is None:
                    raise ConflictError(
                        f"appeal {appeal_id}: the appealed {r['kind']} ruling is no longer at "
                        f"{'hand ' + str(r['hand']) if r['hand'] else 'before play'} in version "
                        f"{before.version} of round {r['round']} table {r['table']}; correct it by hand "
                        "(referee-app correct)",
                        code="appeal.ruling_moved",
                        appeal=appeal_id,
                        kind=r["kind"],
                        hand=r["hand"] or 0,
                        version=before.version,
                        round=r["round"],
                        table=r["table"],
                    )
                tag = f"申诉 #{appeal_id} " + ("成立" if decision == "upheld" else "改判")
                # the committee's decision names its appeal: no later record replaces it unconfirmed
                if decision == "upheld":
                    inf["void"] = {"reason": f"{tag}：{reason}", "appeal": appeal_id}
                else:
                    inf.pop("void", None)
                    inf["override"] = {
                        "sanctions": copy.deepcopy(sanctions),
                        "reason": f"{tag}：{reason}",
                        "appeal": appeal_id,
                    }
                from referee_app.core.engine import decide
                from referee_app.core.errors import CaseError

                # the later hands stand as they were dealt (their dealers are facts); the
                # appealed ruling's earlier decision, if any, is the one this replaces
                carried = carry_forward(
                    json.loads(before.case_json), json.loads(before.decision_json), stored_case
                )
                stored_case = carried.case
                to_judge = strip_case(stored_case)
                try:
                    new_decision = decide(copy.deepcopy(to_judge), rulebook=rb).to_json()
                except CaseError as err:
                    field = "--sanctions" if decision == "modified" else f"appeal {appeal_id}"
                    raise InputError(
                        f"{field}: {err}",
                        code="appeal.sanction_invalid",
                        field=field_of(field),
                        detail=str(err),
                    ) from None
                side = r["against"] if r["against"] in ("NS", "EW") else r["side"]
                if r["hand"] and side in ("NS", "EW"):
                    worse = lighter_but_worse(
                        side, int(r["hand"]), json.loads(before.decision_json), new_decision
                    )
                    if worse is not None:
                        raise ConflictError(
                            f"appeal {appeal_id}: this decision relieves {side} in hand {r['hand']} but "
                            f"leaves its match worse (match points/level difference {worse[0]} → "
                            f"{worse[1]}): an appeal must not worsen the side it relieves; reject the "
                            "appeal or decide otherwise",
                            code="appeal.worsens_side",
                            appeal=appeal_id,
                            side=side,
                            hand=int(r["hand"]),
                            before=worse[0],
                            after=worse[1],
                        )
                evrow = conn.execute(select(events).where(events.c.id == ev_id)).one()
                ev = EventInfo(ev_id, evrow.name, evrow.date, evrow.rulebook_id, evrow.rulebook_sha256)
                rec = _write_match(
                    conn,
                    ev=ev,
                    rnd=r["round"],
                    tbl=r["table"],
                    nums={"NS": r["ns_number"], "EW": r["ew_number"]},
                    stored_case=stored_case,
                    to_judge=to_judge,
                    decision=new_decision,
                    lang=before.lang,
                    actor=actor,
                    expected_version=int(before.version),
                    token=None,
                    source=f"appeal {appeal_id}",
                    correction={"reason": f"{tag}：{reason}", "appeal_id": appeal_id},
                    role=as_role,
                    carried=carried,
                )
                out.update(
                    match_id=rec.match_id,
                    version=rec.version,
                    winner_after=(new_decision.get("result") or {}).get("winner"),
                    dealt_as_played=[
                        {"hand": h["number"], "dealer": h["dealer"], "by_rotation": h["dealer_by_rotation"]}
                        for h in new_decision.get("hands") or []
                        if h.get("dealer_by_rotation")
                    ],
                )
            w = audit.Writer(conn)
            w.insert(
                appeal_steps,
                {
                    "appeal_id": appeal_id,
                    "state": decision,
                    "reason": reason,
                    "committee_json": audit.canonical(names),
                    "sanctions_json": None if sanctions is None else audit.canonical(sanctions),
                    "fee_outcome": fee,
                    "new_match_id": out["match_id"],
                },
            )
            w.commit_entry(
                user=actor.user,
                station=actor.station,
                action="appeal.decide",
                event_id=ev_id,
                role=as_role,
                round_no=r["round"],
                table_no=r["table"],
                info={
                    "appeal_id": appeal_id,
                    "ruling_id": int(a.ruling_id),
                    "state": decision,
                    "reason": reason,
                    "committee": names,
                    "sanctions": sanctions,
                    "fee": fee,
                    "fee_yuan": int(a.fee_yuan),
                    "new_match_id": out["match_id"],
                    "new_version": out["version"],
                    "winner_before": out["winner_before"],
                    "winner_after": out["winner_after"],
                },
            )
            return out

        return self.shared.write(run)  # type: ignore[no-any-return]


# -- helpers ---------------------------------------------------------------------------------
def _current(conn: Connection, round_id: int, table_no: int) -> Any:
    return _current_at(conn, round_id, table_no)


def _is_void(conn: Connection, match_id: int) -> bool:
    return _voided(conn, match_id)


def _rulings_of(conn: Connection, match_id: int) -> list[dict[str, Any]]:
    stmt = select(rulings.c.id).where(rulings.c.match_id == match_id).order_by(rulings.c.id)
    return [{"id": int(i)} for i in conn.execute(stmt).scalars()]


def _ruling(conn: Connection, ruling_id: int) -> dict[str, Any]:
    ns = pairs.alias("ns")
    ew = pairs.alias("ew")
    stmt = (
        select(
            rulings,
            matches.c.event_id,
            matches.c.round_id,
            matches.c.table_no,
            matches.c.version,
            matches.c.ns_pair_id,
            matches.c.ew_pair_id,
            matches.c.entry_seq.label("match_seq"),
            rounds.c.number.label("round_no"),
            hands.c.number.label("hand_no"),
            infractions.c.position.label("inf_position"),
            infractions.c.input_json.label("inf_json"),
            ns.c.number.label("ns_number"),
            ew.c.number.label("ew_number"),
        )
        .join(matches, matches.c.id == rulings.c.match_id)
        .join(rounds, rounds.c.id == matches.c.round_id)
        .join(ns, ns.c.id == matches.c.ns_pair_id)
        .join(ew, ew.c.id == matches.c.ew_pair_id)
        .outerjoin(hands, hands.c.id == rulings.c.hand_id)
        .outerjoin(infractions, infractions.c.id == rulings.c.infraction_id)
        .where(rulings.c.id == ruling_id)
    )
    row = conn.execute(stmt).first()
    if row is None:
        raise NotFoundError(
            f"--ruling: no ruling {ruling_id}",
            code="appeal.no_ruling",
            field="ruling",
            ruling=ruling_id,
            event="",
        )
    m = row._mapping
    entry = conn.execute(
        select(audit_log.c.at, audit_log.c.user_name).where(audit_log.c.seq == m["match_seq"])
    ).one()
    return {
        "id": int(m["id"]),
        "event_id": int(m["event_id"]),
        "match_id": int(m["match_id"]),
        "round_id": int(m["round_id"]),
        "round": int(m["round_no"]),
        "table": int(m["table_no"]),
        "table_no": int(m["table_no"]),
        "version": int(m["version"]),
        "hand": None if m["hand_no"] is None else int(m["hand_no"]),
        "infraction_id": m["infraction_id"],
        "position": m["inf_position"],
        "infraction": json.loads(m["inf_json"]) if m["inf_json"] else None,
        "kind": m["kind"],
        "seat": m["seat"],
        "side": m["side"],
        "against": m["against"],
        "points": int(m["points"]),
        "decision": m["decision"],
        "reason": m["reason"],
        "citation": m["citation"],
        "rule": m["rule"],
        "ruling": json.loads(m["ruling_json"]),
        "ns_pair_id": int(m["ns_pair_id"]),
        "ew_pair_id": int(m["ew_pair_id"]),
        "ns_number": m["ns_number"],
        "ew_number": m["ew_number"],
        "ruled_at": entry.at,
        "ruled_by": entry.user_name,
        "ruling_position": int(m["position"]),
    }


def _check_filed_by(conn: Connection, a: Any, name: str) -> None:
    """A table referee withdraws only an appeal they filed as table referee (the filing
    side's referee); anyone else's needs the chief referee."""
    entry = conn.execute(select(audit_log).where(audit_log.c.seq == a.entry_seq)).one()
    filed_role = json.loads(audit.payload_text(entry.payload)).get("info", {}).get("role")
    if entry.user_name != name or filed_role != roles.TABLE_REFEREE:
        by = f"{entry.user_name} ({roles.role_name(filed_role) if filed_role else 'no role'})"
        raise RoleError(
            f"appeal.withdraw: appeal {a.id} was filed by {by}; only that table referee or the "
            "chief referee may withdraw it",
            code="appeal.withdraw_not_filer",
            appeal=a.id,
            side=by,
        )


def _appeal_row(conn: Connection, appeal_id: int, event_id: int | None) -> Any:
    a = conn.execute(select(appeals).where(appeals.c.id == appeal_id)).first()
    if a is None or (event_id is not None and int(a.event_id) != event_id):
        raise NotFoundError(
            f"no appeal {appeal_id}" + (f" in event {event_id}" if event_id else ""),
            code="appeal.not_found",
            field="appeal",
            appeal=appeal_id,
        )
    return a


def _state(conn: Connection, appeal_id: int) -> tuple[str, Any]:
    last = conn.execute(
        select(appeal_steps).where(appeal_steps.c.appeal_id == appeal_id).order_by(appeal_steps.c.id.desc())
    ).first()
    return ("filed", None) if last is None else (str(last.state), last)


def _check_state(conn: Connection, appeal_id: int, allowed: Sequence[str], wanted: str) -> None:
    state, step = _state(conn, appeal_id)
    if state in allowed:
        return
    if state in FINAL_STATES:
        at = conn.execute(select(audit_log.c.at).where(audit_log.c.seq == step.entry_seq)).scalar()
        raise ConflictError(
            f"appeal {appeal_id} is already {state} ({at}); it cannot become {wanted}",
            code="appeal.state_already",
            appeal=appeal_id,
            state=state,
            at=at,
            wanted=wanted,
        )
    raise ConflictError(
        f"appeal {appeal_id} is {state}; it cannot become {wanted}",
        code="appeal.state_wrong",
        appeal=appeal_id,
        state=state,
        wanted=wanted,
    )


def _appeal(conn: Connection, appeal_id: int) -> dict[str, Any]:
    a = _appeal_row(conn, appeal_id, None)
    r = _ruling(conn, int(a.ruling_id))
    filed_entry = conn.execute(select(audit_log).where(audit_log.c.seq == a.entry_seq)).one()
    steps = []
    for s in conn.execute(
        select(appeal_steps).where(appeal_steps.c.appeal_id == appeal_id).order_by(appeal_steps.c.id)
    ):
        e = conn.execute(select(audit_log).where(audit_log.c.seq == s.entry_seq)).one()
        steps.append(
            {
                "state": s.state,
                "reason": s.reason,
                "committee": json.loads(s.committee_json) if s.committee_json else [],
                "sanctions": json.loads(s.sanctions_json) if s.sanctions_json else None,
                "fee": s.fee_outcome,
                "new_match_id": s.new_match_id,
                "at": e.at,
                "by": e.user_name,
            }
        )
    state = steps[-1]["state"] if steps else "filed"
    final = steps[-1] if steps and steps[-1]["state"] in FINAL_STATES else None
    start = from_iso(a.window_start) if a.window_start else None
    deadline = None if start is None else iso(start + timedelta(minutes=int(a.window_minutes)))
    pair_no = r["ns_number"] if a.by_side == "NS" else r["ew_number"]
    return {
        "id": int(a.id),
        "event_id": int(a.event_id),
        "round": int(a.round_no),
        "table": int(a.table_no),
        "match_id": int(a.match_id),
        "version": r["version"],
        "ruling_id": int(a.ruling_id),
        "kind": r["kind"],
        "hand": r["hand"],
        "seat": r["seat"],
        "ruling": r["ruling"],
        "ruled_at": r["ruled_at"],
        "by": a.by_side,
        "pair": pair_no,
        "grounds": a.grounds,
        "evidence": a.evidence,
        "receipt": a.receipt_no,
        "filed_at": a.filed_at,
        "filed_by": filed_entry.user_name,
        "window_start": a.window_start,
        "window_source": a.window_source,
        "window_minutes": int(a.window_minutes),
        "window_from": a.window_from,
        "deadline": deadline,
        "late_minutes": int(a.late_minutes),
        "late_reason": a.late_reason,
        "late_accepted_by": filed_entry.user_name if a.late_reason else None,
        "fee_yuan": int(a.fee_yuan),
        "state": state,
        "open": state in OPEN_STATES,
        "decision": None if final is None else final["state"],
        "decision_reason": None if final is None else final["reason"],
        "committee": [] if final is None else final["committee"],
        "sanctions": None if final is None else final["sanctions"],
        "fee": None if final is None else final["fee"],
        "decided_at": None if final is None else final["at"],
        "decided_by": None if final is None else final["by"],
        "new_match_id": None if final is None else final["new_match_id"],
        "steps": steps,
    }
