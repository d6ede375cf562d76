"""The application layer: what a referee's station does, through the core and the store.

The desktop app calls only this (and the core's pure helpers); it holds no rule logic and no
SQL. Every change is judged by the core first (a preview), then saved as a new version of
the table's record with the version the station last saw, so a concurrent change by another
station is refused rather than overwritten.

Roles: ``login(role, pin)`` puts the station in a role (裁判员, 裁判长, 仲裁委员会); the
session's actor then carries it to every store write, and the store refuses what the role
may not do (``RoleError``), whatever the window shows or hides.
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..core import editing
from ..core.case import parse_case, split_case
from ..core.engine import is_language_free, judge, word, word_ruling
from ..core.errors import CaseError
from ..core.rulebook import Rulebook
from ..core.unusual import refuse_unconfirmed
from ..store.errors import ConflictError, LockedError
from ..store.service import Actor, EventInfo, Store
from .backups import RoundEnded, record_round_end
from .changes import OpChanges, changes_of


@dataclass
class TableRecord:
    """One table of one round: its pairs, the case as recorded, and its decision."""

    round: int
    table: int
    pairs: dict[str, str]
    case: dict[str, Any]
    decision: dict[str, Any]
    version: int
    players: dict[str, list[str]] = field(default_factory=dict)
    match_id: int | None = None
    #: This version carries the players' and the table referee's signatures (it is locked).
    signed: bool = False
    #: Appeals on this table that are filed or under review.
    open_appeals: int = 0

    @property
    def status(self) -> str:
        """appeal (an open appeal on this table), signed (this version is signed and locked),
        finished, playing or not_started. An open appeal is shown first: it is what the
        chief referee must act on; ``signed`` still tells whether the version is locked."""
        if self.open_appeals:
            return "appeal"
        if self.signed:
            return "signed"
        if self.decision.get("result") is not None:
            return "finished"
        if self.case.get("hands") or self.case.get("before_play"):
            return "playing"
        return "not_started"

    @property
    def levels(self) -> dict[str, str]:
        hands = self.decision.get("hands") or []
        if hands:
            return dict(hands[-1]["levels_after"])
        return dict(self.case.get("levels") or {"NS": "2", "EW": "2"})

    @property
    def next_dealer(self) -> str | None:
        hands = self.decision.get("hands") or []
        if not hands:
            return self.case["first_dealer"]
        last = hands[-1]
        return last["dealer"] if last.get("in_progress") else last["next_dealer"]


class Session:
    """An open event at one station."""

    def __init__(self, store: Store, event: EventInfo, actor: Actor, lang: str = "zh") -> None:
        self.store = store
        self.event = event
        self.actor = actor
        self.lang = lang
        self.rulebook: Rulebook = store.pinned_rulebook(event.id)

    # -- events ------------------------------------------------------------------------------

    @staticmethod
    def create_event(
        store: Store, name: str, rulebook: Rulebook, date: str | None, actor: Actor
    ) -> EventInfo:
        return store.create_event(name=name, rulebook=rulebook, date=date, actor=actor)

    def pairs(self) -> list[dict[str, Any]]:
        return self.store.list_pairs(self.event.id)

    def import_pairs(self, path: str) -> int:
        from ..store.pairs_csv import read_pairs

        return self.store.import_pairs(self.event.id, read_pairs(path), actor=self.actor, source=path)

    # -- roles ---------------------------------------------------------------------------

    @property
    def role(self) -> str | None:
        """The role this station acts in (``table_referee``, ``chief_referee``,
        ``arbitration``), or None before a login."""
        return self.actor.role

    def roles_enforced(self) -> bool:
        """Whether the event has PINs: then every write is checked against the role."""
        return self.store.roles_enforced(self.event.id)

    def role_states(self) -> dict[str, Any]:
        """Each role's :class:`~referee_app.store.roles.RoleState` (PIN set, lock) now."""
        return self.store.role_states(self.event.id, self.actor.station)

    def login(self, role: str, pin: str, name: str | None = None) -> None:
        """Act as ``role`` from now on. A wrong PIN raises ``PinError`` (a StoreError: one
        line saying how many tries are left, or that the role is locked until HH:MM:SS;
        ``tries_left`` and ``locked_until`` on the error). On an event without PINs the role
        is taken as given: nothing is enforced there yet."""
        self.actor = self.store.login(self.event.id, role, pin, actor=self.actor, name=name)

    def logout(self) -> None:
        self.actor = Actor(self.actor.user, self.actor.station)

    def set_pin(self, role: str, pin: str) -> None:
        """Set or change ``role``'s PIN (the chief referee's act; on an event without PINs,
        the chief referee's PIN comes first and this station is then logged in as chief
        referee). Changing the PIN of the role this station is in logs in again with it."""
        first = not self.roles_enforced()
        self.store.set_pin(self.event.id, role, pin, actor=self.actor)
        if (first and role == "chief_referee") or role == self.actor.role:
            self.login(role, pin)

    # -- tables --------------------------------------------------------------------------

    def tables(
        self, round_no: int, table_no: int | None = None, *, only: Collection[int] | None = None
    ) -> list[TableRecord]:
        """The round's tables (only ``table_no``, or the tables in ``only``, when given: after
        a save, only the tables that changed are read and worded again)."""
        if table_no is not None:
            only = (table_no,)
        found = self.store.current_matches(self.event.id, round_no, only)
        seated = None if only is None else [m[k] for m in found for k in ("ns_number", "ew_number")]
        names = {p["number"]: p["players"] for p in self.store.list_pairs(self.event.id, seated)}
        signed = self.store.signed_match_ids(self.event.id)
        open_at: dict[int, int] = {}
        for a in self.store.appeals(self.event.id, round_no):
            if a["open"]:
                open_at[a["table"]] = open_at.get(a["table"], 0) + 1
        out = []
        for m in found:
            record = self._record_of(m, names)
            record.signed = m["id"] in signed
            record.open_appeals = open_at.get(record.table, 0)
            out.append(record)
        return sorted(out, key=lambda t: t.table)

    def rounds(self) -> list[int]:
        """The rounds with a current match recorded."""
        return self.store.round_numbers(self.event.id)

    def table(self, round_no: int, table_no: int) -> TableRecord | None:
        found = self.tables(round_no, table_no)
        return found[0] if found else None

    def open_table(
        self, round_no: int, table_no: int, ns: str, ew: str, first_dealer: str = "E"
    ) -> TableRecord:
        """Seat two pairs at a table for a round (记录 version 1, no hand yet)."""
        case = editing.new_case(self.rulebook.id, first_dealer)
        return self.save_new(round_no, table_no, {"NS": ns, "EW": ew}, case, expected_version=0)

    # -- changes -------------------------------------------------------------------------

    def preview(self, case: dict[str, Any]) -> dict[str, Any]:
        """Judge a proposed case without saving it. Raises CaseError on invalid input."""
        return judge(copy.deepcopy(case), lang=self.lang, rulebook=self.rulebook)

    def check_confirmed(self, case: dict[str, Any]) -> None:
        """Refuse (:class:`CaseError` naming the field) a case holding an odd fact the referee
        has not confirmed (:mod:`..core.unusual`); a case that is not valid at all is left to
        the store to refuse."""
        try:
            parsed = parse_case(case)
        except CaseError:
            return
        refuse_unconfirmed(parsed, self.rulebook.data)

    def save(self, record: TableRecord, case: dict[str, Any]) -> TableRecord:
        """Save a new version of the table's case; refused if another station saved first,
        if it logs into a hand that had already ended at once, or holds an odd fact not
        confirmed."""
        editing.refuse_after_end(record.case, record.decision, case)
        self.check_confirmed(case)
        return self.save_new(record.round, record.table, record.pairs, case, expected_version=record.version)

    def save_new(
        self,
        round_no: int,
        table_no: int,
        pairs: dict[str, str],
        case: dict[str, Any],
        expected_version: int,
    ) -> TableRecord:
        # judged once, by the store, in the write's transaction (an invalid case: InputError)
        full = dict(case, round=round_no, table=table_no, pairs=dict(pairs))
        self.store.record(
            self.event.id, full, actor=self.actor, lang=self.lang, expected_version=expected_version
        )
        record = self.table(round_no, table_no)
        assert record is not None
        return record

    # -- signing and corrections -----------------------------------------------------------

    def sign(self, record: TableRecord, signatures: dict[str, bytes]) -> TableRecord:
        """Store the signatures (PNG bytes) of N, E, S, W and ``referee`` on the version the
        signers saw; that version is then locked. Refused (StoreError) if it changed."""
        self.store.sign_match(
            self.event.id, record.round, record.table, record.version, signatures, self.actor
        )
        return self._reloaded(record)

    def signatures(self, record: TableRecord) -> dict[str, bytes]:
        """The signatures of this version of the table ({} when it is not signed)."""
        return self.store.signatures_of(self.event.id, record.round, record.table, record.version)

    def is_signed(self, record: TableRecord) -> bool:
        return bool(self.signatures(record))

    def correct(self, record: TableRecord, case: dict[str, Any], reason: str) -> TableRecord:
        """A chief referee's correction of a (signed) table: a new, unsigned version, with the
        reason kept; the signed version stays as it was. The correction is the chief
        referee's own word: it is not asked to confirm odd facts again."""
        full = dict(case, round=record.round, table=record.table, pairs=dict(record.pairs))
        self.store.record(
            self.event.id,
            full,
            actor=self.actor,
            lang=self.lang,
            expected_version=record.version,
            correction_reason=reason,
        )
        return self._reloaded(record)

    # -- appeals -------------------------------------------------------------------------

    def give_time_warning(self, round_no: int, table_no: int | None = None) -> list[int]:
        """Record the time warning (限时提醒) at every table of the round still playing (or at
        ``table_no``): the hand each was playing when it was given, kept in the table's case
        so the hands that may follow are counted against it. A table that already has it,
        has ended, is signed, or was saved meanwhile by another station is left as it is;
        returns the tables recorded."""
        done = []
        for record in self.tables(round_no, table_no):
            case = editing.give_time_warning(record.case)
            if case is None or record.signed or record.decision.get("result") is not None:
                continue
            try:
                self.save(record, case)
            except (ConflictError, LockedError):
                continue  # saved or signed meanwhile elsewhere: read again, it is told there
            done.append(record.table)
        return done

    def rulings(self, record: TableRecord) -> list[dict[str, Any]]:
        """The stored rulings of this version, with the ids an appeal names:
        ``{"id", "hand" (1-based; None before play), "position" (in that hand), "kind", "seat",
        "points", "decision"}``."""
        if record.match_id is None:
            return []
        out = []
        for r in self.store.rulings_of(record.match_id):
            full = self.store.ruling(r["id"])
            out.append(
                {
                    "id": r["id"],
                    "hand": full["hand"],
                    "position": full["position"],
                    "kind": r["kind"],
                    "seat": r["seat"],
                    "points": r["points"],
                    "decision": r["decision"],
                }
            )
        return out

    def appeals(self, round_no: int | None = None) -> list[dict[str, Any]]:
        """The event's appeals (of one round), oldest first; each a dict with ``id``, ``round``,
        ``table``, ``ruling_id``, ``kind``, ``by``, ``state``, ``open``, ``filed_at``,
        ``deadline``, ``late_minutes``, ``grounds``, ``decision``, ``fee`` …; the ruling
        appealed against worded in the station's language."""
        found = self.store.appeals(self.event.id, round_no)
        for a in found:
            a["ruling"] = word_ruling(copy.deepcopy(a["ruling"]), self.lang, self.rulebook)
        return found

    def file_appeal(
        self,
        ruling_id: int,
        by: str,
        grounds: str,
        *,
        evidence: str | None = None,
        receipt: str | None = None,
        filed_at: datetime | None = None,
        accept_late_reason: str | None = None,
        backdate_reason: str | None = None,
        attachment: str | None = None,
    ) -> dict[str, Any]:
        """File an appeal of pair ``by`` (NS or EW) against a ruling; a late one is refused
        (StoreError saying by how much) unless the chief referee's reason is given, and so is
        one without the fee's receipt or the evidence the rulebook asks for."""
        aid = self.store.file_appeal(
            self.event.id,
            ruling_id=ruling_id,
            by=by,
            grounds=grounds,
            evidence=evidence,
            receipt=receipt,
            filed_at=filed_at,
            accept_late_reason=accept_late_reason,
            backdate_reason=backdate_reason,
            attachment=attachment,
            actor=self.actor,
        )
        return self.store.appeal(aid)

    def review_appeal(self, appeal_id: int) -> dict[str, Any]:
        self.store.review_appeal(appeal_id, actor=self.actor, event_id=self.event.id)
        return self.store.appeal(appeal_id)

    def withdraw_appeal(self, appeal_id: int, reason: str) -> dict[str, Any]:
        self.store.withdraw_appeal(appeal_id, reason=reason, actor=self.actor, event_id=self.event.id)
        return self.store.appeal(appeal_id)

    def decide_appeal(
        self,
        appeal_id: int,
        decision: str,
        reason: str,
        committee: list[str],
        sanctions: list[Any] | None = None,
    ) -> dict[str, Any]:
        """upheld (the ruling is overturned), modified (``sanctions`` replace it) or rejected.
        Upheld and modified write a new, unsigned version of the table, judged again."""
        self.store.decide_appeal(
            appeal_id,
            decision=decision,
            reason=reason,
            committee=committee,
            sanctions=sanctions,
            actor=self.actor,
            event_id=self.event.id,
        )
        return self.store.appeal(appeal_id)

    def _reloaded(self, record: TableRecord) -> TableRecord:
        fresh = self.table(record.round, record.table)
        assert fresh is not None
        return fresh

    def _record_of(self, m: dict[str, Any], names: dict[str, list[str]]) -> TableRecord:
        import json

        case, _meta = split_case(json.loads(m["case_json"]))
        stored = json.loads(m["decision_json"])
        if is_language_free(stored):
            decision = word(stored, self.lang, self.rulebook)  # worded here, not judged again
        elif m["lang"] != self.lang:
            decision = self.preview(case)  # stored with words in another language: judge again
        else:
            decision = stored
        pairs = {"NS": m["ns_number"], "EW": m["ew_number"]}
        return TableRecord(
            round=m["round_no"],
            table=m["table_no"],
            pairs=pairs,
            case=case,
            decision=decision,
            version=m["version"],
            players={side: names.get(number, []) for side, number in pairs.items()},
            match_id=m["id"],
        )

    # -- the hall's round clock and the store's head (issue 13) -------------------------------

    def clock(self, round_no: int, at: str | None = None) -> Any:
        """The round's clock as every station sees it (:class:`~.core.clock.ClockState`),
        now or at ``at`` (ISO: the round's end, where a finished round's clock stopped)."""
        from datetime import UTC
        from datetime import datetime as _dt

        from ..core.clock import clock_state
        from .event import clock_acts

        minutes = int(self.rulebook.data["round"]["minutes"])
        when = _dt.now(UTC) if at is None else _dt.fromisoformat(at.replace("Z", "+00:00"))
        return clock_state(minutes, clock_acts(self.store, self.event.id, round_no), when)

    def clock_act(self, round_no: int, action: str, minutes: int = 0, reason: str = "") -> Any:
        """Start, pause, resume, extend or adjust the round's clock for the whole hall (the
        chief referee's act, kept in the store; an extension or adjustment with its reason);
        returns the clock's new state."""
        from .event import record_clock_act

        record_clock_act(self.store, self.event.id, round_no, action, self.actor, minutes, reason)
        return self.clock(round_no)

    def clock_changes(self, round_no: int) -> list[Any]:
        """The round clock's extensions and adjustments, in order (each a ``ClockAct`` with
        its minutes and reason): every station shows them beside the clock."""
        from ..core.clock import TIME_CHANGES
        from .event import clock_acts

        return [a for a in clock_acts(self.store, self.event.id, round_no) if a.action in TIME_CHANGES]

    def trust_notices(self) -> list[tuple[str, dict[str, Any]]]:
        """What the chief referee should be told about the store's trust now (``trust``):
        station keys not registered, no anchor kept since the last round ended."""
        from .trust import notices

        return notices(self.store, self.event.id)

    # -- the round's end, the publication of its scores, the audit log (as the command line) ---

    def end_round(self, round_no: int) -> RoundEnded:
        """Record the round's end (本轮结束; the chief referee's act) and keep a verified copy
        of the store, as ``referee-app round end`` does."""
        return record_round_end(self.store, self.actor, self.event.id, round_no)

    def publish_scores(self, round_no: int) -> dict[str, Any]:
        """Record the publication of the round's scores (公布成绩; the appeal window may run
        from it), as ``referee-app round scores`` writes it."""
        return self.store.add_desk_record(self.event.id, "scores_published", round_no, {}, actor=self.actor)

    def round_marks(self, round_no: int) -> dict[str, str]:
        """When the round's end and its scores' publication were recorded (ISO, UTC), by
        kind (``round_end``, ``scores_published``); a kind not yet recorded is absent."""
        marks: dict[str, str] = {}
        for kind in ("round_end", "scores_published"):
            records = self.store.desk_records(self.event.id, kind, round_no)
            if records:
                marks[kind] = str(records[-1]["at"])
        return marks

    def audit_lines(self, round_no: int | None = None, table_no: int | None = None) -> list[str]:
        """The event's audit trail worded as ``referee-app log`` words it, newest last, its
        times in the station's local time."""
        from ..store.logtext import describe

        kinds = self.rulebook.kind_labels(self.lang)
        lines: list[str] = []
        for entry in self.store.log(self.event.id, round_no, table_no):
            lines.extend(describe(entry, self.lang, local=True, kinds=kinds))
        return lines

    def store_head(self) -> int:
        """The store's last audit entry: it changes whenever any station writes."""
        return int(self.store.audit_head()[0])

    def changes_since(self, seq: int) -> OpChanges:
        """What any station changed in this event after the store's entry ``seq``."""
        limit = 1000
        entries = self.store.entries_since(seq, limit)
        head = entries[-1][0] if entries else seq
        return changes_of(self.event.id, head, entries, complete=len(entries) < limit)

    # -- a round's pairing (one truth: referee_app.app.pairing) ------------------------------

    def round_pairing(self, round_no: int, *, redraw: bool = False) -> Any:
        """Round ``round_no``'s pairing as the desk shows it
        (:class:`~referee_app.app.pairing.RoundPairing`): the published record, the seated
        tables, or the proposal kept for the round; a draw that is needed is made and kept
        as this station's actor. An unfinished previous round is refused (PairingError)."""
        from .pairing import refuse_unfinished, round_pairing

        return round_pairing(
            self.store,
            self.event.id,
            round_no,
            keeper=lambda: self.actor,
            redraw=redraw,
            check=lambda loaded: refuse_unfinished(loaded, round_no),
        )

    def change_pairing(self, current: Any, tables: list[tuple[int, str, str]]) -> Any:
        """Keep the round's proposal with its tables changed by hand (a swap at the desk)."""
        from .pairing import change_proposal

        return change_proposal(self.store, current, tables, actor=self.actor)

    def publish_pairing(self, current: Any, warnings: list[str], reason: str | None = None) -> int:
        """Publish ``current`` (a :class:`~referee_app.app.pairing.RoundPairing`, the pairing
        as shown) as the round's published pairing (the next version; a correction needs
        ``reason``), then seat its tables (first dealer East). Returns the version."""
        from .pairing import publish_round

        rec = publish_round(self.store, current, actor=self.actor, warnings=warnings, reason=reason)
        seated = {t.table for t in self.tables(current.round)}
        for t in current.pairing.tables:
            if t.table not in seated:
                self.open_table(current.round, t.table, t.ns, t.ew, "E")
        return int(rec["version"])


__all__ = ["CaseError", "Session", "TableRecord"]
