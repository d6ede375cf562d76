"""Checking paper against the event store (核对纸面记录, ``verify-paper``): a printed form's
QR text — a scoresheet's, a ruling slip's, an appeal form's, a pairing list's or the
standings' (``printing.data.PAPER_KINDS``) — read back and compared with what the store
gives now, naming the event by its stable identity as the form did.

One check for every form: the form names this event (else 不是本赛事的单据), the store holds
the record it names, that record still gives the printed digest, the audit chain still holds
the entry printed as its head, and (a versioned record) whether it is the current version
and was signed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..printing.data import PaperCode

#: Kinds whose record is a stored version that never changes (a later change is a new
#: version): a differing digest there means the paper was altered. An appeal and the
#: standings are read as they are now: a difference may be a later decision or correction.
VERSIONED = frozenset({"", "S", "P"})


@dataclass(frozen=True)
class PaperCheck:
    """What :func:`check_paper` found for one code."""

    code: PaperCode
    #: The event's name; None: the store holds no event with the identity the code names.
    event_name: str | None = None
    #: The store holds the record the code names (the version, appeal, pairing, round).
    found: bool = False
    #: Its digest, taken now, is the printed one.
    intact: bool = False
    #: The audit chain still holds the entry printed as its head.
    chain: bool = False
    #: The current version of a versioned record (0: none live); None for other kinds.
    current: int | None = None
    #: Whether that version was signed by the players and the table referee (scoresheet,
    #: ruling slip); None where the form has no such signature.
    signed: bool | None = None

    @property
    def versioned(self) -> bool:
        return self.code.kind in VERSIONED

    @property
    def confirmed(self) -> bool:
        """Exit 0: the store holds exactly what was printed, and (versioned) it is current."""
        ok = self.event_name is not None and self.found and self.intact and self.chain
        return ok and (not self.versioned or self.current == self.code.version)


def check_paper(store: Any, code: PaperCode) -> PaperCheck:
    """Compare the form ``code`` names with the store (read only)."""
    from ..printing.build import chain_entry_hash, event_identities
    from ..store.errors import NotFoundError

    try:
        ev = store.pick_event(code.event_id)
    except NotFoundError:
        return PaperCheck(code)
    identity = None
    if code.identity:
        identity = next((i for i in event_identities(store, ev.id) if i.startswith(code.identity)), None)
        if identity is None:
            return PaperCheck(code)
    head = chain_entry_hash(store, code.chain_seq)
    chain = head is not None and head.startswith(code.chain_hash_prefix)
    digest, current, signed = _record(store, ev.id, code, identity)
    return PaperCheck(code, ev.name, digest is not None, digest == code.digest, chain, current, signed)


def _record(
    store: Any, event_id: int, code: PaperCode, identity: str | None
) -> tuple[str | None, int | None, bool | None]:
    """(the digest the store gives now for what ``code`` names, None if it holds no such
    record; the current version of a versioned record; whether the version was signed)."""
    from ..printing.build import stored_digest
    from ..store.errors import NotFoundError

    if code.kind in ("", "S"):
        assert code.table is not None and code.version is not None  # the parser requires them
        if code.kind == "S" and not _ruling_of(store, event_id, code):
            return None, None, None
        history = store.history(event_id, code.round, code.table)
        live = [int(h["version"]) for h in history if not h.get("void_reason")]
        row = next((h for h in history if int(h["version"]) == code.version), None)
        signed = None if row is None else store.signing_of(int(row["id"])) is not None
        digest = stored_digest(store, event_id, code.round, code.table, code.version, identity)
        return digest, max(live) if live else 0, signed
    if code.kind == "A":
        from ..printing.data import appeal_digest

        try:
            appeal = store.appeal(int(code.number or 0))
        except NotFoundError:
            return None, None, None
        if int(appeal["event_id"]) != event_id:
            return None, None, None
        return appeal_digest(appeal, identity), None, None
    if code.kind == "P":
        from ..printing.data import pairing_digest
        from .event import live_pairing_records, published_pairing

        assert code.version is not None
        try:
            pairing, _rec = published_pairing(store, event_id, code.round, code.version)
        except NotFoundError:
            return None, None, None
        records = live_pairing_records(store, event_id, code.round)
        tables = [(t.table, t.ns, t.ew) for t in pairing.tables]
        digest = pairing_digest(code.round, code.version, tables, pairing.bye, identity)
        return digest, int(records[-1]["version"]) if records else 0, None
    # "L": the standings after the round, computed now with the printed seed of the lots
    from ..core.standings import StandingsError, compute_standings
    from ..printing.data import standings_digest
    from .event import load_event

    loaded = load_event(store, event_id)
    seed = int(code.number or 0)
    if code.round > loaded.record.last_round():
        return None, None, None
    if loaded.knockout:  # its standings are the bracket's one ranking, after the last round
        from .event import KnockoutRanking

        rows = KnockoutRanking(loaded, seed).rows
        return standings_digest(loaded.record.last_round(), seed, rows, identity), None, None
    try:
        table = compute_standings(loaded.rulebook, loaded.record, through_round=code.round, seed=seed)
    except StandingsError:
        return None, None, None
    return standings_digest(table.round, seed, table.rows, identity), None, None


def _ruling_of(store: Any, event_id: int, code: PaperCode) -> bool:
    """The ruling a slip's code numbers is of that event, round, table and version."""
    from ..store.errors import NotFoundError

    try:
        r = store.ruling(int(code.number or 0))
    except (NotFoundError, LookupError):
        return False
    return (int(r["event_id"]), int(r["round"]), int(r["table"]), int(r["version"])) == (
        event_id,
        code.round,
        code.table,
        code.version,
    )


__all__ = ["PaperCheck", "check_paper"]
