"""The save of a match version (:func:`_write_match`): two batches of fixed SQL through the
driver, inside the caller's write transaction (a recording, a correction, an appeal's
decision), and the rows it writes (hands, infractions, rulings).

Performance-tuned (README, "A save is now two batches of fixed SQL"): the first batch takes
the writers' lock and reads everything the save checks, the version it replaces included
(what that version recorded is carried forward inside it); the second writes the rows and
the audit entry. :mod:`.matches` records and corrects through it, :mod:`.appeals` decides
through it; it imports neither.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from sqlalchemy import Connection, select

from ..core.editing import CarriedForward, DecisionPlace, with_dealers
from ..core.text import forfeit_cause
from . import audit
from .common import Actor, Recorded
from .driver import Driver
from .errors import ConflictError, InputError, LockedError
from .models import audit_log, hands, infractions, matches, role_pins, rounds, rulings, voidings
from .models import signatures as signatures_t
from .sqlitefile import EventInfo

SIDES = ("NS", "EW")


def _side_of(seat: Any) -> str | None:
    return {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}.get(seat) if isinstance(seat, str) else None


# The save path's lookups, built once (values are bound at each save).
def _write_match(
    conn: Connection,
    *,
    ev: EventInfo,
    rnd: int,
    tbl: int,
    nums: Mapping[str, str],
    stored_case: Mapping[str, Any],
    to_judge: Mapping[str, Any],
    decision: Mapping[str, Any],
    lang: str,
    actor: Actor,
    expected_version: int | None,
    token: str | None,
    source: str,
    correction: Mapping[str, Any] | None,
    role: str | None = None,
    authorize: Callable[[Mapping[str, tuple[str, int]]], str | None] | None = None,
    missing: frozenset[str] = frozenset(),
    commit: bool = False,
    carried: CarriedForward | None = None,
    carry: Callable[[str, str], _Prepared | None] | None = None,
) -> Recorded:
    """Insert a new version of a match (rows and audit entry) inside a write transaction.

    ``correction``: ``{"reason": …}`` (and ``"appeal_id"`` for an appeal decision) lets a
    signed version be superseded; the entry's action is then ``match.correct``.
    ``authorize``: the role check, given the event's current PINs (read with the rest); it
    returns the role kept in the entry, else ``role`` is kept. ``missing``: the tables of
    PINs, signatures or voidings an older store lacks (none there: nothing to read).
    ``commit``: nothing else is written in this transaction; on PostgreSQL the COMMIT goes
    with the rows (one round trip less). ``carry``: given the case and decision of the
    version this one replaces (read in the first batch; not called when there is none, it is
    voided, or it is not the ``expected_version``), the case with what that version recorded
    carried in, judged (``_Prepared``), or None when nothing is carried; ``carried``: the
    same, found by the caller (an appeal decision).

    Two batches of fixed SQL through the driver (see ``driver``): first the writers' lock
    and everything the save checks — the token, the PINs, the two pairs, the round and the
    table's current version (and whether it is signed), the pairs seated at other tables of
    the round, the chain's head, the store's clock and the new rows' ids; then, once every
    check passed, the rows and the entry in one go.
    """
    submitted = stored_case  # as given, before what the version it replaces recorded is carried in
    drv = Driver(conn)
    counts = _row_counts(to_judge, decision)
    params = {
        "event_id": ev.id,
        "round_no": rnd,
        "table_no": tbl,
        "ns": nums["NS"],
        "ew": nums["EW"],
        "token": token,
        **counts,
    }
    batch: list[tuple[str, Mapping[str, Any]]] = []
    if drv.postgresql:
        lock_sql = (
            audit.PG_OLD_SCHEMA_LOCK_SQL if audit.PG_WRITER_LOCK_TABLE in missing else audit.PG_LOCK_SQL
        )
        batch += [(sql, {}) for sql in lock_sql]
    batch += [
        (_SQL_TOKEN if token is not None else _NOTHING, params),
        (_NOTHING if authorize is None or role_pins.name in missing else _SQL_PINS, params),
        (_SQL_PAIRS, params),
        (_round_and_current_sql(missing), params),
        (_SQL_SEATED_ELSEWHERE_NO_VOIDINGS if voidings.name in missing else _SQL_SEATED_ELSEWHERE, params),
        (_SQL_HEAD, params),
        (_SQL_PG_IDS if drv.postgresql else _SQL_SQLITE_IDS, params),
    ]
    if drv.postgresql:
        batch.append(("SELECT clock_timestamp()", params))
    found = drv.query(batch)
    if drv.postgresql:
        found = found[len(audit.PG_LOCK_SQL) :]
    prior_rows, pin_rows, pair_rows, here_rows, seated, head_rows, id_rows = found[:7]
    at = found[7][0][0].astimezone(UTC) if drv.postgresql else None

    if authorize is not None:
        # role -> (current hash, entry that set it): the latest row of each role (id order)
        pins = {str(r): (str(h), int(q)) for r, h, q in pin_rows}
        role = authorize(pins)
    if token is not None and prior_rows:
        seq, action, round_no, table_no, stored = prior_rows[0]
        payload = json.loads(audit.payload_text(stored))
        info = payload["info"]
        if "case_sha256" in info:  # the case as submitted, before what the save carried into it
            same = info["case_sha256"] == _case_digest(submitted)
        else:
            same = [r.get("case_json") for r in payload.get("rows", {}).get("matches", [])] == [
                audit.canonical(submitted)
            ]
        if not same:
            raise InputError(
                f"--token {token}: already used for a different record (entry #{seq}, "
                f"{action} round {round_no} table {table_no}); nothing "
                "saved: give each new record its own token",
                code="match.token_reused",
                field="token",
                token=token,
                seq=seq,
            )
        return Recorded(
            info["match_id"],
            info["version"],
            info["round"],
            info["table"],
            info.get("supersedes_id"),
            seq,
            True,
        )
    by_number = {str(n): int(i) for n, i in pair_rows}
    pair_ids: dict[str, int] = {}
    for side in SIDES:
        pid = by_number.get(nums[side])
        if pid is None:
            raise InputError(
                f"{source}: pairs.{side}: no pair {nums[side]} in event {ev.id} "
                f"({ev.name}); import it first (referee-app pairs import)",
                code="case.pair_unknown",
                field=f"pairs.{side}",
                source=source,
                pair=nums[side],
                event=ev.id,
                name=ev.name,
            )
        pair_ids[side] = int(pid)
    # (round id, match id, version, entry seq, signed, voided, case, decision)
    here = here_rows[0] if here_rows else None
    round_id = None if here is None else int(here[0])
    current = None if here is None or here[1] is None else _Current(int(here[1]), int(here[2]), int(here[3]))
    # A pair plays once per round: refuse a case that seats it at a second table (only
    # the current, unvoided versions of these two pairs' matches in the round were read).
    for table_no, ns_id, ew_id in seated:
        for side in SIDES:
            if pair_ids[side] in (ns_id, ew_id):
                raise InputError(
                    f"{source}: pairs.{side}: pair {nums[side]} already plays this round at table {table_no}",
                    code="case.pair_plays",
                    field=f"pairs.{side}",
                    source=source,
                    pair=nums[side],
                    table=table_no,
                )
    cur_version = 0 if current is None else current.version
    if expected_version is not None and expected_version != cur_version:
        raise ConflictError(
            _conflict_message(conn, rnd, tbl, expected_version, current),
            code="match.conflict",
            round=rnd,
            table=tbl,
            expected=expected_version,
        )
    signed = current is not None and bool(here[4])  # type: ignore[index]
    if carry is not None and current is not None and not here[5]:  # type: ignore[index]
        # a voided record is annulled: the next version starts from what is given
        prepared = carry(str(here[6]), str(here[7]))  # type: ignore[index]
        if prepared is not None:
            carried = prepared.carried
            # the ids taken above still fit: what is carried adds decisions to infractions
            # already counted (a ruling per infraction, a hand per hand)
            stored_case, to_judge, decision = prepared.case, prepared.to_judge, prepared.decision
    # who dealt each hand is a fact from now on: a later version keeps it (carry_forward)
    stored_case = with_dealers(stored_case, decision)
    to_judge = with_dealers(to_judge, decision)
    if signed and correction is None:
        raise LockedError(
            _locked_message(rnd, tbl, cur_version),
            code="match.locked",
            round=rnd,
            table=tbl,
            version=cur_version,
        )
    if (
        correction is not None
        and "appeal_id" not in correction
        and current is not None
        and not here[5]  # type: ignore[index]
        and json.loads(str(here[6])) == stored_case  # type: ignore[index]
    ):
        # a correction that changes nothing would only void the players' signatures
        raise InputError(
            f"round {rnd} table {tbl}: the correction changes nothing in version {cur_version}; "
            "nothing saved, the signatures stand",
            code="match.correction_unchanged",
            round=rnd,
            table=tbl,
            version=cur_version,
        )
    w = audit.PlannedWriter(
        conn,
        (int(head_rows[0][0]), str(head_rows[0][1])) if head_rows else (0, audit.GENESIS),
        _allocated_ids(id_rows[0], counts, postgresql=drv.postgresql),
        at,
    )
    if round_id is None:
        round_id = w.insert(rounds, {"event_id": ev.id, "number": rnd})
    mid = w.insert(
        matches,
        {
            "event_id": ev.id,
            "round_id": round_id,
            "table_no": tbl,
            "version": cur_version + 1,
            "supersedes_id": None if current is None else current.id,
            "ns_pair_id": pair_ids["NS"],
            "ew_pair_id": pair_ids["EW"],
            "lang": lang,
            "winner": ((decision.get("result") or {}).get("winner")),
            "case_json": audit.canonical(stored_case),
            "decision_json": audit.canonical(decision),
        },
    )
    written = _insert_hands(w, mid, to_judge, decision)
    info = {
        "match_id": mid,
        "round": rnd,
        "table": tbl,
        "version": cur_version + 1,
        "supersedes_id": None if current is None else current.id,
        "pairs": dict(nums),
        "winner": (decision.get("result") or {}).get("winner"),
        "forfeit": (decision.get("forfeit") or {}).get("side"),
        "forfeit_cause": forfeit_cause(decision),
        **written,
    }
    if correction is not None:
        info["correction"] = {**correction, "replaces_signed": signed}
    if token is not None:  # what a retry with the same token is compared with
        info["case_sha256"] = _case_digest(submitted)
    if carried is not None and (carried.dealers or carried.decisions or carried.touched):
        info["carried"] = {
            "dealers": list(carried.dealers),
            "decisions": [_place(p) for p in carried.decisions],
            "replaced": [_place(p) for p in carried.touched],
        }
    w.commit_entry(
        user=actor.user,
        station=actor.station,
        action="match.record" if correction is None else "match.correct",
        event_id=ev.id,
        round_no=rnd,
        table_no=tbl,
        supersedes=None if current is None else current.entry_seq,
        token=token,
        info=info,
        role=role,
    )
    drv.write(w.statements(drv.postgresql), commit=commit)
    return Recorded(mid, cur_version + 1, rnd, tbl, None if current is None else current.id, w.seq)


@dataclass(frozen=True)
class _Prepared:
    """A case with what the version it replaces recorded carried into it, judged."""

    carried: CarriedForward
    case: Mapping[str, Any]
    to_judge: Mapping[str, Any]
    decision: Mapping[str, Any]


def _case_digest(case: Mapping[str, Any]) -> str:
    return hashlib.sha256(audit.canonical(dict(case)).encode("utf-8")).hexdigest()


def _round_and_current_sql(missing: frozenset[str]) -> str:
    """The first batch's read of the round and the table's current version, for the tables
    this store has (an older store lacks signatures or voidings: nothing signed or voided)."""
    sql = _SQL_ROUND_AND_CURRENT
    if signatures_t.name in missing:
        sql = sql.replace(_SIGNED, "1 = 0")
    if voidings.name in missing:
        sql = sql.replace(_VOIDED, "1 = 0")
    return sql


@dataclass(frozen=True)
class _Current:
    """The table's current version of a match: its id, version and entry."""

    id: int
    version: int
    entry_seq: int


def _row_counts(case: Mapping[str, Any], decision: Mapping[str, Any]) -> dict[str, int]:
    """How many hands, infractions and rulings ``_insert_hands`` writes for this match
    version (their ids are taken before the rows are built): a hand per decided hand, the
    infractions given before play and in those hands, a ruling per ruling found."""
    case_hands = case.get("hands") or []
    dec_hands = decision.get("hands") or []
    given = [
        case_hands[i] if i < len(case_hands) and isinstance(case_hands[i], dict) else {}
        for i in range(len(dec_hands))
    ]
    return {
        "n_hands": len(dec_hands),
        "n_infractions": len(list(case.get("before_play") or []))
        + sum(len(list(ch.get("infractions") or [])) for ch in given),
        "n_rulings": len(list(decision.get("before_play") or []))
        + sum(len(list(dh.get("rulings") or [])) for dh in dec_hands),
    }


def _allocated_ids(
    row: tuple[Any, ...], counts: Mapping[str, int], *, postgresql: bool
) -> dict[str, Iterator[int]]:
    """The new rows' ids per table, from the first batch's last query: on PostgreSQL values
    drawn from each table's sequence (the round's only when the round is new), on SQLite the
    next ids after the largest (the transaction holds the write lock since BEGIN)."""
    if postgresql:
        round_id, match_id, hand_ids, inf_ids, ruling_ids = row
        return {
            "rounds": iter([] if round_id is None else [int(round_id)]),
            "matches": iter([int(match_id)]),
            "hands": iter(int(i) for i in hand_ids),
            "infractions": iter(int(i) for i in inf_ids),
            "rulings": iter(int(i) for i in ruling_ids),
        }
    tops = dict(zip(("rounds", "matches", "hands", "infractions", "rulings"), row, strict=True))
    return {t: iter(range(int(top) + 1, int(top) + 1 + counts.get(f"n_{t}", 1))) for t, top in tops.items()}


#: The first batch of a save (``_write_match``): fixed SQL, ``%(name)s`` placeholders.
_NOTHING = "SELECT 1 WHERE 1 = 0"
_SQL_TOKEN = "SELECT seq, action, round_no, table_no, payload FROM audit_log WHERE token = %(token)s"
_SQL_PINS = "SELECT role, pin_hash, entry_seq FROM role_pins WHERE event_id = %(event_id)s ORDER BY id"
_SQL_PAIRS = "SELECT number, id FROM pairs WHERE event_id = %(event_id)s AND number IN (%(ns)s, %(ew)s)"
#: the round's id and the table's current version (null columns when none yet), one row
_SIGNED = "EXISTS (SELECT 1 FROM signatures s WHERE s.match_id = m.id)"
_VOIDED = "EXISTS (SELECT 1 FROM voidings v WHERE v.match_id = m.id)"
_SQL_ROUND_AND_CURRENT = (
    f"SELECT r.id, m.id, m.version, m.entry_seq, {_SIGNED}, {_VOIDED}, m.case_json, m.decision_json "
    "FROM rounds r LEFT OUTER JOIN matches m ON m.round_id = r.id AND m.table_no = %(table_no)s "
    "WHERE r.event_id = %(event_id)s AND r.number = %(round_no)s "
    "ORDER BY m.version DESC LIMIT 1"
)
#: the current, unvoided matches of the round at other tables that seat one of the pairs,
#: found through the indexes of a match by pair and round (schema 9), one lookup per side
#: (an OR of the two lets SQLite scan every match of the round instead)
_SQL_SEATED_ELSEWHERE = (
    "SELECT m.table_no, m.ns_pair_id, m.ew_pair_id FROM matches m "
    "LEFT OUTER JOIN voidings v ON v.match_id = m.id "
    "WHERE m.id IN ("
    "SELECT id FROM matches WHERE ns_pair_id IN "
    "(SELECT id FROM pairs WHERE event_id = %(event_id)s AND number IN (%(ns)s, %(ew)s)) "
    "AND round_id = (SELECT id FROM rounds WHERE event_id = %(event_id)s AND number = %(round_no)s) "
    "UNION ALL "
    "SELECT id FROM matches WHERE ew_pair_id IN "
    "(SELECT id FROM pairs WHERE event_id = %(event_id)s AND number IN (%(ns)s, %(ew)s)) "
    "AND round_id = (SELECT id FROM rounds WHERE event_id = %(event_id)s AND number = %(round_no)s)) "
    "AND m.table_no != %(table_no)s AND v.id IS NULL "
    "AND NOT EXISTS (SELECT 1 FROM matches later WHERE later.round_id = m.round_id "
    "AND later.table_no = m.table_no AND later.version > m.version) "
    "ORDER BY m.table_no"
)
#: the same before schema 2 (no voidings table: nothing is void)
_SQL_SEATED_ELSEWHERE_NO_VOIDINGS = _SQL_SEATED_ELSEWHERE.replace(
    "LEFT OUTER JOIN voidings v ON v.match_id = m.id ", ""
).replace("AND v.id IS NULL ", "")
_SQL_HEAD = "SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1"
_SQL_SQLITE_IDS = (
    "SELECT (SELECT coalesce(max(id), 0) FROM rounds), (SELECT coalesce(max(id), 0) FROM matches), "
    "(SELECT coalesce(max(id), 0) FROM hands), (SELECT coalesce(max(id), 0) FROM infractions), "
    "(SELECT coalesce(max(id), 0) FROM rulings)"
)
_SQL_PG_IDS = (
    "SELECT CASE WHEN EXISTS (SELECT 1 FROM rounds WHERE event_id = %(event_id)s AND number = %(round_no)s) "
    "THEN NULL ELSE nextval(pg_get_serial_sequence('rounds', 'id')) END, "
    "nextval(pg_get_serial_sequence('matches', 'id')), "
    "ARRAY(SELECT nextval(pg_get_serial_sequence('hands', 'id')) FROM generate_series(1, %(n_hands)s)), "
    "ARRAY(SELECT nextval(pg_get_serial_sequence('infractions', 'id')) "
    "FROM generate_series(1, %(n_infractions)s)), "
    "ARRAY(SELECT nextval(pg_get_serial_sequence('rulings', 'id')) FROM generate_series(1, %(n_rulings)s))"
)


def _locked_message(rnd: int, tbl: int, version: int) -> str:
    return (
        f"round {rnd} table {tbl} is signed (version {version}); a change needs a chief "
        "referee's correction with a reason"
    )


def _conflict_message(conn: Connection, rnd: int, tbl: int, expected: int, current: Any) -> str:
    if current is None:
        return (
            f"round {rnd} table {tbl}: you edited version {expected}, but nothing is recorded there; reload"
        )
    e = conn.execute(select(audit_log).where(audit_log.c.seq == current.entry_seq)).one()
    info = json.loads(audit.payload_text(e.payload))["info"]
    what = (
        f"NS {info.get('pairs', {}).get('NS')} v EW {info.get('pairs', {}).get('EW')}, "
        f"{info.get('hands', 0)} hands, {info.get('rulings', 0)} rulings, "
        f"winner {info.get('winner') or '-'}"
    )
    return (
        f"round {rnd} table {tbl} was changed by {e.user_name}@{e.station} at {e.at} "
        f"(now version {current.version}: {what}); you edited version {expected}. "
        "Nothing saved: reload and record again"
    )


def _insert_hands(
    w: audit.Writer,
    match_id: int,
    case: Mapping[str, Any],
    decision: Mapping[str, Any],
) -> dict[str, int]:
    """Hands, infractions and rulings of one match version, one statement per table.

    A ruling's proposal is the engine's computation; when the referee overrode it (an
    ``override`` in the case), the engine reports ``overridden``, ``override_reason`` and
    the ``proposed`` ruling, and the row keeps both. A ruling voided in the case (``void``
    with a reason) is kept with the decision ``voided``.
    """
    counts = {"hands": 0, "infractions": 0, "rulings": 0, "overridden": 0, "voided": 0}
    case_hands = case.get("hands") or []
    dec_hands = decision.get("hands") or []
    hand_inputs = []
    hand_rows = []
    for i, dh in enumerate(dec_hands):
        ch = case_hands[i] if i < len(case_hands) and isinstance(case_hands[i], dict) else {}
        hand_inputs.append(ch)
        hand_rows.append(
            {
                "match_id": match_id,
                "number": dh.get("number", i + 1),
                "dealer": dh.get("dealer"),
                "dealer_side": dh.get("dealer_side"),
                "defender_points": ch.get("defender_points"),
                "defender_total": dh.get("defender_total"),
                "lost_by": dh.get("lost_by"),
                "levels_before": _j(dh.get("levels_before")),
                "levels_after": _j(dh.get("levels_after")),
                "next_dealer": dh.get("next_dealer"),
                "input_json": audit.canonical(ch),
            }
        )
    hand_ids = w.insert_many(hands, hand_rows)
    counts["hands"] = len(hand_ids)
    # (hand id or None before play, the infractions given, the rulings found), in order
    groups: list[tuple[int | None, list[Any], list[dict[str, Any]]]] = [
        (None, list(case.get("before_play") or []), list(decision.get("before_play") or []))
    ]
    for hand_id, ch, dh in zip(hand_ids, hand_inputs, dec_hands, strict=True):
        groups.append((hand_id, list(ch.get("infractions") or []), list(dh.get("rulings") or [])))
    inf_rows = [
        _infraction_row(match_id, hid, pos, inf) for hid, infs, _ in groups for pos, inf in enumerate(infs)
    ]
    inf_ids = iter(w.insert_many(infractions, inf_rows))
    counts["infractions"] = len(inf_rows)
    ruling_rows: list[dict[str, Any]] = []
    for hid, infs, found in groups:
        ids = [(next(inf_ids), inf) for inf in infs]
        ruling_rows += _ruling_rows(match_id, hid, found, ids, counts)
    w.insert_many(rulings, ruling_rows)
    return counts


def _ruling_rows(
    match_id: int,
    hand_id: int | None,
    found: list[dict[str, Any]],
    inf_ids: list[tuple[int, Any]],
    counts: dict[str, int],
) -> list[dict[str, Any]]:
    out = []
    for pos, r in enumerate(found):
        # each ruling names the infraction it answers (``hands[1].infractions[2]``)
        inf_id, inf = None, None
        answers = str(r.get("infraction") or "")
        if answers.endswith("]"):
            index = int(answers[answers.rindex("[") + 1 : -1])
            if 0 <= index < len(inf_ids):
                inf_id, inf = inf_ids[index]
        override = inf.get("override") if isinstance(inf, dict) else None
        void = inf.get("void") if isinstance(inf, dict) else None
        if r.get("voided") or isinstance(void, dict):
            decision = "voided"
            reason = r.get("void_reason") or (void.get("reason") if isinstance(void, dict) else None)
        elif r.get("overridden") or isinstance(override, dict):
            decision = "overridden"
            reason = r.get("override_reason") or (
                override.get("reason") if isinstance(override, dict) else None
            )
        else:
            decision, reason = "confirmed", None
        # the proposal differs from the ruling only when overridden: otherwise it is
        # ruling_json itself and not stored twice (in the row and in its audit entry)
        prop = r.get("proposed") if decision == "overridden" else None
        out.append(
            {
                "match_id": match_id,
                "hand_id": hand_id,
                "infraction_id": inf_id,
                "position": pos,
                "kind": str(r.get("kind")),
                "seat": r.get("seat"),
                "side": r.get("side"),
                "against": r.get("against"),
                "points": int(r.get("points") or 0),
                "hand_lost": bool(r.get("hand_lost")),
                "disqualified": bool(r.get("disqualified")),
                "assumed": bool(r.get("assumed")),
                "rule": r.get("rule"),
                "citation": r.get("citation"),
                "proposal_json": None if prop is None else audit.canonical(prop),
                "decision": decision,
                "reason": None if reason is None else str(reason),
                "ruling_json": audit.canonical(r),
            }
        )
        counts["rulings"] += 1
        if decision != "confirmed":
            counts[decision] += 1
    return out


def _infraction_row(match_id: int, hand_id: int | None, pos: int, inf: Any) -> dict[str, Any]:
    d = inf if isinstance(inf, dict) else {}
    seat = d.get("seat") if isinstance(d.get("seat"), str) else None
    side = d.get("side") if isinstance(d.get("side"), str) else _side_of(seat)
    return {
        "match_id": match_id,
        "hand_id": hand_id,
        "position": pos,
        "kind": str(d.get("kind")),
        "seat": seat,
        "side": side,
        "input_json": audit.canonical(inf),
    }


def _j(v: Any) -> str | None:
    return None if v is None else audit.canonical(v)


def _place(p: DecisionPlace) -> dict[str, Any]:
    return {"hand": p.hand, "position": p.position, "kind": p.kind, "decision": p.decision}
