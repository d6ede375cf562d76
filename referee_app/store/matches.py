"""The matches part of the store (:class:`Matches`): record a match version (judged under
the event's pinned rulebook and saved by :mod:`.save`), void it, sign it, and read the
current versions, a table's history, the rulings and the signatures."""

from __future__ import annotations

import base64
import copy
import hashlib
import json
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, Text, and_, case, exists, func, literal_column, select
from sqlalchemy.exc import DBAPIError

from ..core.editing import DecisionPlace, carry_forward
from ..core.errors import field_of
from ..core.inputs import is_pair_number
from ..core.signature_image import signature_problem
from . import audit
from .common import Actor, Recorded, _current_at, _voided, strip_case
from .db import READ_ONLY, database_error
from .errors import ConflictError, InputError, LockedError, NotFoundError, SignatureImageError
from .models import audit_log, matches, pairs, rounds, rulings, voidings
from .models import signatures as signatures_t
from .save import SIDES, _conflict_message, _locked_message, _Prepared, _write_match
from .shared import Shared

#: Who signs a match version: the four players (by seat) and the table referee.
SIGNERS = ("N", "E", "S", "W", "referee")
#: The longest idempotency token (the column's width on every backend).
MAX_TOKEN = 100


def _whole(value: Any, field: str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(
            f"{where}: {field}: expected a whole number ≥ 1, got {json.dumps(value)}",
            code="input.whole_number",
            field=field_of(field),
            where=where,
            got=json.dumps(value),
        )
    return value


def _pair_number(value: Any, field: str, where: str) -> str:
    """A case's pair number: a whole number ≥ 1 in ASCII digits (``core.inputs``)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)) or not is_pair_number(str(value).strip()):
        raise InputError(
            f"{where}: {field}: expected a pair number (a whole number ≥ 1 in digits 0-9), "
            f"got {json.dumps(value)}",
            code="input.pair_number",
            field=field_of(field),
            where=where,
            got=json.dumps(value),
        )
    return str(value).strip()


class Matches:
    """The matches part of the :class:`~referee_app.store.service.Store` (see the module)."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared

    def record(
        self,
        event_id: int,
        case: Any,
        *,
        actor: Actor,
        lang: str = "zh",
        expected_version: int | None = None,
        token: str | None = None,
        source: str = "case",
        correction_reason: str | None = None,
        replace_decisions: bool = False,
    ) -> Recorded:
        """Judge ``case`` under the event's pinned rulebook and record it.

        A new version keeps what the version it replaces recorded (``carry_forward``): the
        seat that dealt each later hand as played, and every decision on a ruling (an
        override, a voiding, the committee's) that ``case`` does not address. A ``case`` that
        changes, drops or decides otherwise a ruling that carries a decision is refused with
        ``match.decisions_touched`` unless ``replace_decisions`` confirms it, with a
        ``correction_reason``; the entry lists what was carried and what was replaced.

        ``expected_version``: the version of this round and table the caller last saw
        (0 = none yet); a different current version is refused with ``ConflictError``.
        ``None`` supersedes whatever is current.  ``token``: an idempotency key; the same
        token recorded again returns the first result and writes nothing.

        A signed version is locked: a new version of it is refused with ``LockedError``
        unless ``correction_reason`` is given (a chief referee's correction: the reason is
        kept in the audit entry, the old signed version stays, the new one is unsigned).
        """
        if correction_reason is not None and not correction_reason.strip():
            raise InputError(
                "--reason: a correction needs a written reason",
                code="match.correct_reason_missing",
                field="reason",
            )
        if not isinstance(case, dict):
            raise InputError(
                f"{source}: expected a JSON object (a case), got {type(case).__name__}",
                code="case.not_object",
                source=source,
                got=type(case).__name__,
            )
        rnd = _whole(case.get("round"), "round", source)
        tbl = _whole(case.get("table"), "table", source)
        pv = case.get("pairs")
        if not isinstance(pv, dict):
            raise InputError(
                f'{source}: pairs: expected {{"NS": "<pair number>", '
                f'"EW": "<pair number>"}}, got {json.dumps(pv, ensure_ascii=False)}',
                code="case.pairs_shape",
                source=source,
            )
        nums = {s: _pair_number(pv.get(s), f"pairs.{s}", source) for s in SIDES}
        extra = set(pv) - set(SIDES)
        if extra:
            raise InputError(
                f"{source}: pairs: unknown key {sorted(extra)[0]!r} (use NS and EW)",
                code="case.pairs_key",
                source=source,
                key=sorted(extra)[0],
            )
        if nums["NS"] == nums["EW"]:
            raise InputError(
                f"{source}: pairs: NS and EW are the same pair {nums['NS']}",
                code="case.pairs_same",
                source=source,
                pair=nums["NS"],
            )
        if expected_version is not None and expected_version < 0:
            raise InputError(
                f"--expect-version: expected 0 or more, got {expected_version}",
                code="match.expect_version",
                field="expect_version",
                got=expected_version,
            )
        if token is not None and not (0 < len(token) <= MAX_TOKEN and token.isprintable()):
            raise InputError(
                f"--token: expected 1 to {MAX_TOKEN} printable characters, got {len(token)} characters",
                code="match.token_invalid",
                field="token",
                max=MAX_TOKEN,
                n=len(token),
            )

        ev = self.shared.pick_event(event_id)
        rb = self.shared.pinned_rulebook(ev.id)
        stored_case = copy.deepcopy(case)
        given_event = case.get("event")
        if given_event is None:
            stored_case["event"] = rb.id
        elif given_event != rb.id:
            raise InputError(
                f"{source}: event: this event runs under rulebook {rb.id!r} "
                f"(sha256 {ev.rulebook_sha256[:12]}), the case names {given_event!r}",
                code="case.rulebook_differs",
                field="event",
                source=source,
                rulebook=rb.id,
                named=given_event,  # not "given": a message shows that as ", got …"
            )
        if replace_decisions and correction_reason is None:
            raise InputError(
                "--reason: replacing a decision on a ruling needs a written reason",
                code="match.replace_reason_missing",
                field="reason",
            )
        correction = None if correction_reason is None else {"reason": correction_reason.strip()}
        action = "match.record" if correction is None else "match.correct"
        from referee_app.core.engine import decide
        from referee_app.core.errors import CaseError

        def judged(case_: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
            to_judge_ = strip_case(case_)
            try:
                # stored, chained and printed as a digest in no language: words are added on reading
                return to_judge_, decide(copy.deepcopy(to_judge_), rulebook=rb).to_json()
            except CaseError as err:
                raise InputError(
                    f"{source}: {err}",
                    code=getattr(err, "code", "case.invalid"),
                    field=getattr(err, "field", None),
                    **getattr(err, "values", {}),
                ) from None

        def carry(earlier_case: str, earlier_decision: str) -> _Prepared | None:
            # what the version this one replaces recorded stays (read in the save's first batch)
            carried = carry_forward(json.loads(earlier_case), json.loads(earlier_decision), stored_case)
            if carried.touched and not replace_decisions:
                raise _touched_error(source, carried.touched)
            if not (carried.dealers or carried.decisions or carried.touched):
                return None
            if carried.case == stored_case:
                return _Prepared(carried, stored_case, to_judge, decision)
            return _Prepared(carried, carried.case, *judged(carried.case))

        to_judge, decision = judged(stored_case)

        def run(conn: Connection) -> Recorded:
            return _write_match(
                conn,
                authorize=lambda pins: self.shared.authorize_with(pins, ev.id, action, actor),
                missing=self.shared.missing_tables(conn),
                commit=True,
                ev=ev,
                rnd=rnd,
                tbl=tbl,
                nums=nums,
                stored_case=stored_case,
                to_judge=to_judge,
                decision=decision,
                lang=lang,
                actor=actor,
                expected_version=expected_version,
                token=token,
                source=source,
                correction=correction,
                carry=carry,
            )

        # the writers' lock is the first statement of the save's first batch (see _write_match)
        return self.shared.write(run, lock=False)  # type: ignore[no-any-return]

    def void(
        self,
        event_id: int,
        *,
        round_no: int,
        table_no: int,
        reason: str,
        actor: Actor,
        expected_version: int | None = None,
        correction: bool = False,
    ) -> int:
        """Void the current version of a match (with a reason). Returns the voiding id.

        A signed version is voided only as a chief referee's ``correction``."""
        if not reason.strip():
            raise InputError(
                "--reason: a voiding needs a written reason", code="match.void_reason_missing", field="reason"
            )
        ev = self.shared.pick_event(event_id)

        def run(conn: Connection) -> int:
            round_id = conn.execute(
                select(rounds.c.id).where(and_(rounds.c.event_id == ev.id, rounds.c.number == round_no))
            ).scalar()
            current = None if round_id is None else _current_at(conn, int(round_id), table_no)
            if current is None:
                raise NotFoundError(
                    f"round {round_no} table {table_no}: nothing recorded",
                    code="match.nothing_recorded",
                    round=round_no,
                    table=table_no,
                )
            if expected_version is not None and expected_version != current.version:
                raise ConflictError(
                    _conflict_message(conn, round_no, table_no, expected_version, current),
                    code="match.conflict",
                    round=round_no,
                    table=table_no,
                    expected=expected_version,
                )
            if _voided(conn, int(current.id)):
                raise ConflictError(
                    f"round {round_no} table {table_no} version {current.version} is already void",
                    code="match.already_void",
                    round=round_no,
                    table=table_no,
                    version=current.version,
                )
            if _signed(conn, int(current.id)) and not correction:
                raise LockedError(
                    _locked_message(round_no, table_no, int(current.version)),
                    code="match.locked",
                    round=round_no,
                    table=table_no,
                    version=int(current.version),
                )
            as_role = self.shared.authorize(
                conn, ev.id, "match.correct" if correction else "match.void", actor
            )
            w = audit.Writer(conn)
            vid = w.insert(voidings, {"match_id": current.id, "reason": reason.strip()})
            w.commit_entry(
                user=actor.user,
                station=actor.station,
                action="match.void",
                event_id=ev.id,
                role=as_role,
                round_no=round_no,
                table_no=table_no,
                supersedes=int(current.entry_seq),
                info={
                    "match_id": int(current.id),
                    "version": int(current.version),
                    "reason": reason.strip(),
                    "round": round_no,
                    "table": table_no,
                    **({"correction": True} if correction else {}),
                },
            )
            return vid

        return self.shared.write(run)  # type: ignore[no-any-return]

    def current_matches(
        self, event_id: int, round_no: int | None = None, tables: Collection[int] | None = None
    ) -> list[dict[str, Any]]:
        """The current version of every match of the event (voided ones excluded); with
        ``round_no`` of that round only, with ``tables`` of those tables only."""
        stmt = _current_matches_stmt(event_id)
        if round_no is not None:
            stmt = stmt.where(rounds.c.number == round_no)
        if tables is not None:
            stmt = stmt.where(matches.c.table_no.in_(sorted(set(tables))))
        return self.shared.read(lambda conn: [dict(r._mapping) for r in conn.execute(stmt)])  # type: ignore[no-any-return]

    def round_numbers(self, event_id: int) -> list[int]:
        """The rounds that have a current match (voided ones excluded), in order: read
        without the matches' cases and decisions."""
        stmt = _current_matches_stmt(event_id, matches.c.id)
        return sorted({int(r.round_no) for r in self.shared.read(lambda conn: list(conn.execute(stmt)))})

    def seated_tables(self, event_id: int, round_no: int) -> list[tuple[int, str, str]]:
        """Round ``round_no``'s tables as seated (each current match's table, NS and EW
        pair), in table order; nothing else of the matches is read."""
        stmt = _current_matches_stmt(event_id, matches.c.table_no).where(rounds.c.number == round_no)
        return self.shared.read(  # type: ignore[no-any-return]
            lambda conn: [(int(r.table_no), str(r.ns_number), str(r.ew_number)) for r in conn.execute(stmt)]
        )

    def current_results(self, event_id: int, before_round: int | None = None) -> list[dict[str, Any]]:
        """What the desk reads of every current match (voided ones excluded; with
        ``before_round``, the rounds before it), in round and table order: ``round_no``,
        ``table_no``, ``ns_number``, ``ew_number``, ``result`` (the decision's result; None
        while the match has none) and ``decision`` — the whole decision, only for a match
        with rulings (its sanctions are read from them), else None.

        The database takes the result out of the decision's JSON: parsing every decision
        in Python cost most of reading a large event (2048 decisions: 190 of 350 ms)."""
        with_rulings = exists().where(rulings.c.match_id == matches.c.id)
        stmt = _current_matches_stmt(
            event_id,
            matches.c.table_no,
            _match_result(self.shared.engine.dialect.name).label("result"),
            case((with_rulings, matches.c.decision_json), else_=None).label("decision"),
        )
        if before_round is not None:
            stmt = stmt.where(rounds.c.number < before_round)

        def read(conn: Connection) -> list[dict[str, Any]]:
            return [
                {
                    "round_no": r.round_no,
                    "table_no": r.table_no,
                    "ns_number": r.ns_number,
                    "ew_number": r.ew_number,
                    "result": None if r.result is None else json.loads(r.result),
                    "decision": None if r.decision is None else json.loads(r.decision),
                }
                for r in conn.execute(stmt)
            ]

        return self.shared.read(read)  # type: ignore[no-any-return]

    def export(
        self, event_id: int, progress: Callable[[int, int], None] | None = None
    ) -> Iterator[dict[str, Any]]:
        """Each current match as one JSON-ready dict, read in batches (the connection stays
        open until the last one is taken): memory does not grow with the event."""
        ev = self.shared.pick_event(event_id)
        stmt = _current_matches_stmt(ev.id)
        try:
            with self.shared.engine.connect().execution_options(**READ_ONLY) as conn:
                try:
                    total = 0
                    if progress is not None:
                        counted = select(func.count()).select_from(stmt.subquery())
                        total = int(conn.execute(counted).scalar() or 0)
                    rows = conn.execution_options(yield_per=audit.BATCH, stream_results=True).execute(stmt)
                    for n, r in enumerate(rows, 1):
                        m = r._mapping
                        yield {
                            "match_id": m["id"],
                            "round": m["round_no"],
                            "table": m["table_no"],
                            "version": m["version"],
                            "pairs": {"NS": m["ns_number"], "EW": m["ew_number"]},
                            "lang": m["lang"],
                            "rulebook": {"id": ev.rulebook_id, "sha256": ev.rulebook_sha256},
                            "case": json.loads(m["case_json"]),
                            "decision": json.loads(m["decision_json"]),
                        }
                        if progress is not None:
                            progress(n, total)
                finally:
                    conn.rollback()
        except DBAPIError as err:
            raise database_error(err, self.shared.engine.url) from None

    def history(self, event_id: int, round_no: int, table_no: int) -> list[dict[str, Any]]:
        """Every version of a match, oldest first, with its voiding if any."""

        def run(conn: Connection) -> list[dict[str, Any]]:
            stmt = (
                select(matches, voidings.c.reason.label("void_reason"))
                .join(rounds, rounds.c.id == matches.c.round_id)
                .outerjoin(voidings, voidings.c.match_id == matches.c.id)
                .where(
                    and_(
                        rounds.c.event_id == event_id,
                        rounds.c.number == round_no,
                        matches.c.table_no == table_no,
                    )
                )
                .order_by(matches.c.version)
            )
            return [dict(r._mapping) for r in conn.execute(stmt)]

        return self.shared.read(run)  # type: ignore[no-any-return]

    def rulings_of(self, match_id: int) -> list[dict[str, Any]]:
        def run(conn: Connection) -> list[dict[str, Any]]:
            stmt = select(rulings).where(rulings.c.match_id == match_id).order_by(rulings.c.id)
            return [dict(r._mapping) for r in conn.execute(stmt)]

        return self.shared.read(run)  # type: ignore[no-any-return]

    # -- signatures ------------------------------------------------------------------
    def sign_match(
        self,
        event_id: int,
        round_no: int,
        table_no: int,
        expected_version: int,
        signatures: Mapping[str, bytes],
        actor: Actor,
        sources: Mapping[str, str] | None = None,
    ) -> int:
        """Store the signatures (PNG) of the four players and the table referee on a match
        version; the version is then locked. Returns the version signed.

        ``expected_version`` must be the current version (what the signers saw). Each image
        must be a signature (``core.signature_image``), else nothing is locked and the error
        (``SignatureImageError``, exit 2) names ``sources[signer]`` (e.g. its file) or the
        field."""
        given = dict(signatures) if isinstance(signatures, Mapping) else {}
        unknown = sorted(set(given) - set(SIGNERS))
        if unknown:
            raise InputError(
                f"signatures.{unknown[0]}: unknown signer (expected {', '.join(SIGNERS)})",
                code="signature.unknown_signer",
                field=f"signatures.{unknown[0]}",
                allowed=list(SIGNERS),
            )
        missing = [k for k in SIGNERS if k not in given]
        if missing:
            raise InputError(
                f"signatures.{missing[0]}: missing (all of {', '.join(SIGNERS)} must sign)",
                code="signature.missing",
                field=f"signatures.{missing[0]}",
                allowed=list(SIGNERS),
            )
        for k in SIGNERS:
            _check_png(given[k], f"signatures.{k}", (sources or {}).get(k))
        ev = self.shared.pick_event(event_id)

        def run(conn: Connection) -> int:
            current = self._current(conn, ev.id, round_no, table_no)
            if current is None:
                raise NotFoundError(
                    f"round {round_no} table {table_no}: nothing recorded",
                    code="match.nothing_recorded",
                    round=round_no,
                    table=table_no,
                )
            if expected_version != current.version:
                raise ConflictError(
                    _conflict_message(conn, round_no, table_no, expected_version, current),
                    code="match.conflict",
                    round=round_no,
                    table=table_no,
                    expected=expected_version,
                )
            if _voided(conn, int(current.id)):
                raise InputError(
                    f"round {round_no} table {table_no} version {current.version} is void",
                    code="match.version_void",
                    round=round_no,
                    table=table_no,
                    version=current.version,
                )
            if _signed(conn, int(current.id)):
                raise ConflictError(
                    f"round {round_no} table {table_no} version {current.version} is already signed",
                    code="match.already_signed",
                    round=round_no,
                    table=table_no,
                    version=current.version,
                )
            if json.loads(current.decision_json).get("result") is None:
                raise InputError(
                    f"round {round_no} table {table_no} has no result yet (version {current.version}); "
                    "sign it when the round is finished",
                    code="match.no_result",
                    round=round_no,
                    table=table_no,
                    version=current.version,
                )
            as_role = self.shared.authorize(conn, ev.id, "match.sign", actor)
            w = audit.Writer(conn)
            digests = {}
            for k in SIGNERS:
                digest = hashlib.sha256(given[k]).hexdigest()
                digests[k] = digest
                w.insert(
                    signatures_t,
                    {
                        "match_id": int(current.id),
                        "signer": k,
                        "png_b64": base64.b64encode(given[k]).decode("ascii"),
                        "sha256": digest,
                    },
                )
            w.commit_entry(
                user=actor.user,
                station=actor.station,
                action="match.sign",
                event_id=ev.id,
                role=as_role,
                round_no=round_no,
                table_no=table_no,
                info={
                    "match_id": int(current.id),
                    "version": int(current.version),
                    "round": round_no,
                    "table": table_no,
                    "signers": list(SIGNERS),
                },
            )
            return int(current.version)

        return self.shared.write(run)  # type: ignore[no-any-return]

    def signatures_of(
        self, event_id: int, round_no: int, table_no: int, version: int | None = None
    ) -> dict[str, bytes]:
        """The signatures of a match version (default: the current one); {} when unsigned."""

        def run(conn: Connection) -> dict[str, bytes]:
            m = self._match_at(conn, event_id, round_no, table_no, version)
            if m is None:
                return {}
            return _signatures_of(conn, int(m.id))

        return self.shared.read(run)  # type: ignore[no-any-return]

    def signing_of(self, match_id: int) -> dict[str, Any] | None:
        """Who stored the signatures of a match version, and when (or None)."""

        def run(conn: Connection) -> dict[str, Any] | None:
            row = conn.execute(
                select(signatures_t.c.entry_seq).where(signatures_t.c.match_id == match_id).limit(1)
            ).first()
            if row is None:
                return None
            e = conn.execute(select(audit_log).where(audit_log.c.seq == row.entry_seq)).one()
            return {"user": e.user_name, "station": e.station, "at": e.at, "seq": int(e.seq)}

        return self.shared.read(run)  # type: ignore[no-any-return]

    def signed_match_ids(self, event_id: int) -> set[int]:
        def run(conn: Connection) -> set[int]:
            stmt = (
                select(signatures_t.c.match_id)
                .join(matches, matches.c.id == signatures_t.c.match_id)
                .where(matches.c.event_id == event_id)
                .distinct()
            )
            return {int(x) for x in conn.execute(stmt).scalars()}

        return self.shared.read(run)  # type: ignore[no-any-return]

    def _current(self, conn: Connection, event_id: int, round_no: int, table_no: int) -> Any:
        round_id = conn.execute(
            select(rounds.c.id).where(and_(rounds.c.event_id == event_id, rounds.c.number == round_no))
        ).scalar()
        return None if round_id is None else _current_at(conn, int(round_id), table_no)

    def _match_at(
        self, conn: Connection, event_id: int, round_no: int, table_no: int, version: int | None
    ) -> Any:
        if version is None:
            return self._current(conn, event_id, round_no, table_no)
        return conn.execute(
            select(matches)
            .join(rounds, rounds.c.id == matches.c.round_id)
            .where(
                and_(
                    rounds.c.event_id == event_id,
                    rounds.c.number == round_no,
                    matches.c.table_no == table_no,
                    matches.c.version == version,
                )
            )
        ).first()


def _match_result(dialect: str) -> Any:
    """A match's result as JSON text (NULL while it has none): on PostgreSQL the column taken
    out of the decision as it was written (schema 10), on SQLite out of the decision."""
    if dialect == "postgresql":
        return literal_column("matches.result_json", Text)
    return func.json_extract(matches.c.decision_json, "$.result")


def _current_matches_stmt(event_id: int, *columns: Any) -> Any:
    """The current version of every match of the event (voided ones excluded), in round and
    table order: ``columns`` (every column of ``matches`` without them), the round, and the
    two pairs' numbers."""
    # the latest version as "no later version of the same table": one probe of the version
    # index a match, whatever the planner believes (a GROUP BY joined back was planned as a
    # nested loop over the whole round on a PostgreSQL table not yet ANALYZEd: 270 ms for
    # 2048 matches instead of 30)
    later = matches.alias("later")
    superseded = exists().where(
        later.c.round_id == matches.c.round_id,
        later.c.table_no == matches.c.table_no,
        later.c.version > matches.c.version,
    )
    ns = pairs.alias("ns")
    ew = pairs.alias("ew")
    return (
        select(
            *(columns or (matches,)),
            rounds.c.number.label("round_no"),
            ns.c.number.label("ns_number"),
            ew.c.number.label("ew_number"),
        )
        .join(rounds, rounds.c.id == matches.c.round_id)
        .join(ns, ns.c.id == matches.c.ns_pair_id)
        .join(ew, ew.c.id == matches.c.ew_pair_id)
        .outerjoin(voidings, voidings.c.match_id == matches.c.id)
        .where(matches.c.event_id == event_id, ~superseded, voidings.c.id.is_(None))
        .order_by(rounds.c.number, matches.c.table_no)
    )


def _check_png(value: Any, field: str, source: str | None) -> None:
    """Refuse an image that is not a signature (``core.signature_image``), naming
    ``source`` (the file it came from) or else the field."""
    problem = signature_problem(value)
    if problem is not None:
        shown = source or field
        raise SignatureImageError(
            f"{shown}: {problem.reason}",
            code=problem.code,
            field=field_of(field),
            source=shown,
            **problem.values,
        )


def _signatures_of(conn: Connection, match_id: int) -> dict[str, bytes]:
    rows = conn.execute(
        select(signatures_t.c.signer, signatures_t.c.png_b64).where(signatures_t.c.match_id == match_id)
    )
    return {r.signer: base64.b64decode(r.png_b64) for r in rows}


def _signed(conn: Connection, match_id: int) -> bool:
    found = conn.execute(
        select(signatures_t.c.id).where(signatures_t.c.match_id == match_id).limit(1)
    ).first()
    return found is not None


def _touched_error(source: str, touched: Sequence[DecisionPlace]) -> InputError:
    """The refusal of a case that would drop or change decisions on rulings (改判、撤销)."""
    first = touched[0]
    where = "before play" if first.hand == 0 else f"hand {first.hand}"
    return InputError(
        f"{source}: {where}: the {first.kind} ruling carries a decision ({first.decision}) that "
        f"this case changes or drops ({len(touched)} in all); nothing saved: keep the ruling as it "
        "is, or confirm with --replace-decisions and a --reason",
        code="match.decisions_touched",
        field="case",
        source=source,
        hand=first.hand,
        kind=first.kind,
        decision=first.decision,
        n=len(touched),
    )
