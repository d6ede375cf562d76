"""Plain data for the forms, filled by the command line, the event store or the GUI.

Nothing here imports reportlab. :func:`scoresheet_from_case` builds a
:class:`ScoresheetData` from a case file; the store builds the same from its records.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ..core.case import split_case
from ..core.text import sanction_summary as sanction_summary  # the one wording of a sanction
from .errors import PaperCodeError

SIDES = ("NS", "EW")
SEAT_ZH = {"E": "东", "S": "南", "W": "西", "N": "北"}
SEAT_EN = {"E": "East", "S": "South", "W": "West", "N": "North"}
SIDE_ZH = {"NS": "南北方", "EW": "东西方"}
SIDE_EN = {"NS": "North-South", "EW": "East-West"}
#: The store's signers of a match version (``Store.sign_match``) and the scoresheet's
#: signature boxes: a pair's first player sits North (NS) or East (EW), the second South or
#: West. ``{SIGNER_BOXES[k]: png for k, png in signatures.items()}`` fills
#: ``ScoresheetData.signatures``.
SIGNER_BOXES = {
    "N": "ns_player_1",
    "S": "ns_player_2",
    "E": "ew_player_1",
    "W": "ew_player_2",
    "referee": "table_referee",
}


@dataclass
class PairInfo:
    """A pair at the table: its number in the event, its two players, its unit (单位)."""

    number: str | None = None
    players: list[str] = field(default_factory=list)
    unit: str | None = None


@dataclass
class Voiding:
    """A voided result or ruling, with its reason (作废)."""

    what: str
    reason: str
    by: str | None = None
    at: str | None = None


@dataclass(frozen=True)
class SignatureStamp:
    """What the page says about its digital signature, drawn before signing (pyHanko's own
    stamp cannot draw Chinese): who signs, when, with which certificate, why and where."""

    signer: str
    fingerprint: str
    at: datetime
    reason: str
    location: str


@dataclass(frozen=True)
class RecordStamp:
    """Where a printed record sits in the event store, for a third party to check it:
    the event's own id, the record's version, and the audit chain's head (entry number and
    hash) when it was printed. A sheet printed from a case file has none."""

    event_id: int
    version: int
    chain_seq: int
    chain_hash: str
    current: bool = True
    #: The event's stable identity (``build.event_identities``): named in the digest and QR.
    identity: str = ""


@dataclass
class EventHeader:
    name_zh: str
    name_en: str = ""
    organiser_zh: str = ""
    organiser_en: str = ""
    date: str | None = None
    #: 比赛地点, as the event records it ("" when not recorded)
    venue: str = ""
    rulebook_id: str = ""
    rulebook_sha256: str = ""


@dataclass
class ScoresheetData:
    """Everything one table's scoresheet (记分表) shows.

    ``signatures`` maps a signer key of the form template (``ns_player_1`` … ``table_referee``,
    ``chief_referee``) to PNG bytes; ``signer_names`` maps the same keys to printed names
    (players default to the pairs' players). ``infraction_labels`` maps a kind to its name
    in the rulebook (zh, en).
    """

    event: EventHeader
    case: dict[str, Any]
    decision: dict[str, Any]
    round: int | None = None
    table: int | None = None
    pairs: dict[str, PairInfo] = field(default_factory=dict)
    infraction_labels: dict[str, tuple[str, str]] = field(default_factory=dict)
    signatures: dict[str, bytes] = field(default_factory=dict)
    signer_names: dict[str, str] = field(default_factory=dict)
    voidings: list[Voiding] = field(default_factory=list)
    #: Set when the PDF is to be signed: the visible signature block.
    stamp: SignatureStamp | None = None
    lang: str = "zh"
    #: None: printed from a case file, not from the event record (it cannot be signed).
    record: RecordStamp | None = None
    #: When the players and the table referee signed this version (local time).
    signed_at: datetime | None = None
    #: Hands entered ahead of play with no result: a blank sheet has ``blank_hands`` rows.
    blank_hands: int = 0
    #: When play began (the round's start on the hall clock) and ended at this table (its
    #: result first recorded), local time; None: not known, a line to fill in by hand.
    play_started: datetime | None = None
    play_ended: datetime | None = None

    #: The decision as the store keeps it, when ``decision`` was judged again only for its
    #: wording in another language: the digest is taken of what the store holds.
    stored_decision: dict[str, Any] | None = None

    @property
    def digest(self) -> str:
        decision = self.stored_decision if self.stored_decision is not None else self.decision
        identity = self.record.identity if self.record is not None and self.record.identity else None
        return record_digest(self.case, decision, self.pairs, self.round, self.table, identity)

    def signer_name(self, key: str) -> str:
        if key in self.signer_names:
            return self.signer_names[key]
        for side, prefix in (("NS", "ns_player_"), ("EW", "ew_player_")):
            if key.startswith(prefix):
                players = self.pairs.get(side, PairInfo()).players
                idx = int(key[len(prefix) :]) - 1
                return players[idx] if 0 <= idx < len(players) else ""
        return ""


@dataclass
class AppealFormData:
    """An appeal (申诉) against one ruling, as the appeal form (申诉表) shows it.

    ``window_start`` is when the window opened (end of the round, or publication of the
    score, per the rulebook's ``window_from``); ``filed_at`` when the appeal was handed in.
    ``decision`` is one of ``upheld``, ``modified``, ``rejected``, ``withdrawn`` or None
    (not yet decided: the decision section is printed blank, to be filled by hand).
    """

    event: EventHeader
    ruling: dict[str, Any]
    by_side: str
    #: None on a blank form (空白申诉表), filled in by hand with everything else.
    filed_at: datetime | None
    grounds: str
    window_minutes: int
    window_from: str = "round_end"
    window_start: datetime | None = None
    fee_yuan: int = 0
    refunded_if_upheld: bool = True
    appeal_clause: dict[str, Any] | None = None
    round: int | None = None
    table: int | None = None
    hand: int | None = None
    appeal_no: str | None = None
    by_pair: PairInfo | None = None
    infraction_label: tuple[str, str] = ("", "")
    ruled_at: datetime | None = None
    receipt_no: str | None = None
    evidence: str | None = None
    late_accepted_by: str | None = None
    decision: str | None = None
    decision_reasons: str | None = None
    new_sanction: str | None = None
    decided_at: datetime | None = None
    chief_referee: str | None = None
    committee: list[str] = field(default_factory=list)
    signatures: dict[str, bytes] = field(default_factory=dict)
    #: As the store recorded it: ``refunded``, ``kept`` or ``none``; None: by ``decision``.
    fee_outcome: str | None = None
    #: Set when the PDF is to be signed: the visible signature block.
    stamp: SignatureStamp | None = None
    lang: str = "zh"

    #: A blank form: lines to fill in by hand, nothing of a stored appeal.
    blank: bool = False
    #: The stored appeal's QR and digest (None: a blank form, nothing to check).
    paper: PaperStamp | None = None

    def timing(self) -> Timing | None:
        if self.window_start is None or self.filed_at is None:
            return None
        return appeal_timing(self.filed_at, self.window_start, self.window_minutes)

    def fee_refunded(self) -> bool | None:
        """True refunded, False kept, None while undecided (or no fee)."""
        if self.fee_outcome is not None:
            return {"refunded": True, "kept": False}.get(self.fee_outcome)
        if self.decision is None:
            return None
        if self.decision == "upheld":
            return self.refunded_if_upheld
        return False


@dataclass
class RulingSlipData:
    """One ruling (判罚单). ``hand`` is None for a ruling before play."""

    event: EventHeader
    ruling: dict[str, Any]
    round: int | None = None
    table: int | None = None
    hand: int | None = None
    trick: int | None = None
    pairs: dict[str, PairInfo] = field(default_factory=dict)
    infraction_label: tuple[str, str] = ("", "")
    clause: dict[str, Any] | None = None
    appeal: dict[str, Any] | None = None
    referee: str | None = None
    signatures: dict[str, bytes] = field(default_factory=dict)
    #: Set when the PDF is to be signed: the visible signature block.
    stamp: SignatureStamp | None = None
    lang: str = "zh"
    #: The slip's number: ``<event>-<ruling id>`` from the store; where it stands in a case file.
    serial: str | None = None
    ruled_at: datetime | None = None
    #: The clause the engine's proposal applied, when the ruling was overridden.
    proposed_clause: dict[str, Any] | None = None
    #: Set when a later version replaced this ruling (an appeal, a correction, a voiding):
    #: what replaced it, printed across the slip so it is never taken for a live ruling.
    superseded_by: str | None = None
    #: An appeal against this ruling that has been decided: no invitation to appeal again.
    appeal_outcome: str | None = None
    #: This ruling is the arbitration committee's decision on an appeal (its number).
    decided_on_appeal: str | None = None
    #: The stored record's QR and digest (None: a slip from a case file).
    paper: PaperStamp | None = None

    def offender_players(self) -> str:
        """The offender's name (or the side's two names) and the pair's number."""
        return seat_player_text(self.pairs, self.ruling.get("seat"), self.ruling.get("side"), self.lang)


@dataclass(frozen=True)
class Timing:
    deadline: datetime
    on_time: bool
    late_minutes: int


def appeal_timing(filed_at: datetime, window_start: datetime, window_minutes: int) -> Timing:
    """On time, or late by whole minutes (rounded up: 10 min 1 s late is "late by 1").

    >>> t = appeal_timing(datetime(2024, 5, 1, 10, 12), datetime(2024, 5, 1, 10, 0), 10)
    >>> t.on_time, t.late_minutes
    (False, 2)
    """
    deadline = window_start + timedelta(minutes=window_minutes)
    over = (filed_at - deadline).total_seconds()
    if over <= 0:
        return Timing(deadline, True, 0)
    return Timing(deadline, False, max(1, math.ceil(over / 60)))


def canonical_json(obj: Any) -> str:
    """Sorted keys, no spaces, UTF-8 text: the form the digests are taken of."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


#: Keys of a decision that hold wording rendered in the language it was judged in; the
#: rest (numbers, sides, rule ids, clause references) is the same in zh and en.
RENDERED_KEYS = frozenset({"text", "instruction"})


def language_free(value: Any) -> Any:
    """``value`` without its rendered wording (:data:`RENDERED_KEYS`), at any depth: what
    is hashed into the printed digest, so a sheet printed in zh and in en carry one digest."""
    kind = type(value)
    if kind in _LEAVES:  # most of a decision: asking Mapping's ABC about each was the slow part
        return value
    if kind is dict or isinstance(value, Mapping):
        return {k: language_free(v) for k, v in value.items() if k not in RENDERED_KEYS}
    if isinstance(value, list):
        return [language_free(v) for v in value]
    return value


_LEAVES = frozenset({str, int, float, bool, type(None)})


def named_digest(body: Mapping[str, Any], identity: str | None = None) -> str:
    """SHA-256 (hex) of the canonical JSON of a printed record's ``body``, naming the event by
    its stable identity when given: the one digest every form's QR and record line carry
    (the same record of another event has another digest)."""
    named = {"event": identity, **body} if identity else dict(body)
    return hashlib.sha256(canonical_json(named).encode("utf-8")).hexdigest()


def record_digest(
    case: Mapping[str, Any],
    decision: Mapping[str, Any],
    pairs: Mapping[str, PairInfo] | None = None,
    round_no: int | None = None,
    table_no: int | None = None,
    event: str | None = None,
) -> str:
    """SHA-256 (hex) of the canonical JSON of the case, the decision without its wording,
    the pairs with their players (in seat order) and units, round and table, and the event's
    stable identity when given (:func:`named_digest`)."""
    body = {
        "case": case,
        "decision": language_free(decision),
        "pairs": {
            side: {"number": p.number, "players": list(p.players), "unit": p.unit}
            for side, p in sorted((pairs or {}).items())
        },
        "round": round_no,
        "table": table_no,
    }
    return named_digest(body, event)


def pairing_digest(
    round_no: int, version: int, tables: Sequence[Sequence[Any]], bye: str | None, event: str | None
) -> str:
    """The digest of a published pairing (对阵表) as printed: its round, version, tables
    (table, North-South, East-West) and bye."""
    body = {
        "pairing": {
            "round": round_no,
            "version": version,
            "tables": [[int(t), str(ns), str(ew)] for t, ns, ew in tables],
            "bye": bye,
        }
    }
    return named_digest(body, event)


def standings_digest(round_no: int, seed: int, rows: Sequence[Mapping[str, Any]], event: str | None) -> str:
    """The digest of the standings (名次表) after ``round_no`` as printed: each pair's rank and
    match points in order, and the seed of the lots that ordered the ties."""
    body = {
        "standings": {
            "round": round_no,
            "seed": seed,
            "rows": [[str(r["pair"]), r.get("rank"), r.get("match_points")] for r in rows],
        }
    }
    return named_digest(body, event)


#: What of a stored appeal its form prints and its digest covers.
APPEAL_DIGEST_KEYS = (
    "id", "ruling_id", "round", "table", "hand", "kind", "by", "filed_at", "grounds", "evidence",
    "receipt", "fee_yuan", "late_accepted_by", "decision", "decision_reason", "decided_at",
    "committee", "fee",
)  # fmt: skip


def appeal_digest(appeal: Mapping[str, Any], event: str | None) -> str:
    """The digest of a stored appeal (申诉) as its form prints it (:data:`APPEAL_DIGEST_KEYS`):
    a decision taken after printing gives another digest."""
    body = {"appeal": {k: appeal.get(k) for k in APPEAL_DIGEST_KEYS}}
    return named_digest(body, event)


QR_PREFIX = "RA1"
#: Hex digits of the chain head's hash carried in the QR: enough to tell entries apart;
#: twice as many are printed beside it (render.CHAIN_PRINT_HEX).
QR_HEAD_HEX = 16
#: Hex digits of the event's stable identity in the QR (64 bits: no two events alike).
QR_IDENTITY_HEX = 16


#: The kind letter (``K``) of a form's code other than the scoresheet's (which has none):
#: ruling slip (判罚单), appeal form (申诉表), pairing list (对阵表), standings (名次表).
PAPER_KINDS = {"S": "ruling_slip", "A": "appeal", "P": "pairing", "L": "standings"}
#: The parts each kind's code carries: E event, I identity, R round, T table, V version,
#: N the form's number (ruling id, appeal id, the standings' seed of the lots), H the audit
#: chain's head, D the digest.
PAPER_PARTS = {"": "ERTVHD", "S": "ERTVNHD", "A": "ERTNHD", "P": "ERVHD", "L": "ERNHD"}
_PART_NAMES = {
    "E": "event", "R": "round", "T": "table", "V": "version", "N": "number", "H": "head", "D": "digest",
}  # fmt: skip


def _code_text(
    kind: str,
    event_id: int | None,
    identity: str,
    round_no: int | None,
    table: int | None,
    version: int | None,
    number: int | None,
    head: tuple[int, str] | None,
    digest: str,
) -> str:
    """The one form of every printed code (see :func:`qr_payload`, :class:`PaperStamp`)."""
    parts = [QR_PREFIX]
    if kind:
        parts.append(f"K{kind}")
    if event_id is None:
        parts.append("CASE")
    else:
        parts.append(f"E{event_id}")
        if identity:
            parts.append(f"I{identity[:QR_IDENTITY_HEX].upper()}")
    for letter, value in (("R", round_no), ("T", table), ("V", version), ("N", number)):
        if value is not None:
            parts.append(f"{letter}{value}")
    if head is not None:
        parts.append(f"H{head[0]}-{head[1][:QR_HEAD_HEX].upper()}")
    parts.append(f"D{digest.upper()}")
    return ":".join(parts)


def qr_payload(data: ScoresheetData, digest: str | None = None) -> str:
    """Upper-case letters, digits and ``:-`` only, so the QR encodes in alphanumeric mode
    (fewer, larger modules):
    ``RA1:E<event>:I<identity>:R<round>:T<table>:V<version>:H<seq>-<hash>:D<digest>``.
    A sheet from a case file says ``CASE`` instead of the event's record. ``digest``: the
    sheet's :attr:`ScoresheetData.digest` when already taken (it hashes the whole record)."""
    stamp = data.record
    return _code_text(
        "",
        None if stamp is None else stamp.event_id,
        "" if stamp is None else stamp.identity,
        data.round,
        data.table,
        None if stamp is None else stamp.version,
        None,
        None if stamp is None else (stamp.chain_seq, stamp.chain_hash),
        data.digest if digest is None else digest,
    )


@dataclass(frozen=True)
class PaperStamp:
    """A printed form's record other than a scoresheet's (ruling slip, appeal form, pairing
    list, standings): its kind (:data:`PAPER_KINDS`), where it sits in the event store, the
    audit chain's head when printed, and the digest of what it prints; its QR text is
    :meth:`payload`, read back by :func:`parse_paper_code` as the scoresheet's is."""

    kind: str
    event_id: int
    identity: str
    chain_seq: int
    chain_hash: str
    digest: str
    round: int
    table: int | None = None
    version: int | None = None
    number: int | None = None

    def payload(self) -> str:
        return _code_text(
            self.kind, self.event_id, self.identity, self.round, self.table, self.version, self.number,
            (self.chain_seq, self.chain_hash), self.digest,
        )  # fmt: skip


@dataclass(frozen=True)
class PaperCode:
    """A scoresheet's QR text, read back (see :func:`qr_payload`)."""

    event_id: int
    round: int
    #: None where the kind's code has no such part (:data:`PAPER_PARTS`).
    table: int | None
    version: int | None
    chain_seq: int
    chain_hash_prefix: str
    digest: str
    #: The event's identity (its first hex digits); "" on a sheet printed before paper named it.
    identity: str = ""
    #: "" a scoresheet; else a letter of :data:`PAPER_KINDS`.
    kind: str = ""
    number: int | None = None


def parse_paper_code(text: str) -> PaperCode:
    """The fields of a QR text from :func:`qr_payload`; :class:`PaperCodeError` names what
    is wrong (a sheet printed from a case file carries no event record to check)."""
    raw = text.strip()
    parts = raw.upper().split(":")
    if not parts or parts[0] != QR_PREFIX:
        raise PaperCodeError(
            f"not a referee-app scoresheet code (expected {QR_PREFIX}:…, got {raw[:40]!r})",
            code="paper_code.invalid",
        )
    if "CASE" in parts:
        raise PaperCodeError(
            "this sheet was printed from a case file, not from the event record: nothing to check",
            code="paper_code.from_case",
        )
    fields: dict[str, str] = {}
    for part in parts[1:]:
        if not part or part[0] not in "ERTVHDIKN" or part[0] in fields:
            raise PaperCodeError(
                f"unexpected part {part!r} in the code", code="paper_code.unexpected_part", part=part
            )
        fields[part[0]] = part[1:]
    kind = fields.get("K", "")
    if kind not in PAPER_PARTS:
        raise PaperCodeError(
            f"unexpected part {'K' + kind!r} in the code", code="paper_code.unexpected_part", part="K" + kind
        )
    required = PAPER_PARTS[kind]
    missing = [k for k in required if k not in fields]
    if missing:
        names = ", ".join(_PART_NAMES[k] for k in required)
        raise PaperCodeError(
            f"the code lacks its {missing[0]} part ({names})",
            code="paper_code.part_missing",
            part=missing[0],
        )
    extra = [k for k in "TVN" if k in fields and k not in required]
    if extra:
        raise PaperCodeError(
            f"unexpected part {extra[0] + fields[extra[0]]!r} in the code",
            code="paper_code.unexpected_part",
            part=extra[0] + fields[extra[0]],
        )

    def number(letter: str) -> int | None:
        return int(fields[letter]) if letter in fields else None

    try:
        seq_text, head = fields["H"].split("-", 1)
        code = PaperCode(
            int(fields["E"]), int(fields["R"]), number("T"), number("V"), int(seq_text),
            head.lower(), fields["D"].lower(), fields.get("I", "").lower(), kind, number("N"),
        )  # fmt: skip
    except ValueError:
        raise PaperCodeError(
            f"a number in the code is unreadable: {raw[:80]!r}", code="paper_code.number"
        ) from None
    hexits = code.digest + code.chain_hash_prefix + code.identity
    if len(code.digest) != 64 or any(c not in "0123456789abcdef" for c in hexits):
        raise PaperCodeError("the digest in the code is not 64 hexadecimal digits", code="paper_code.digest")
    return code


# -- times: every form prints the station's local time and says which zone it is ----------
def local_time(value: str | datetime | None) -> datetime | None:
    """An ISO time from the store (UTC) or a datetime, as the station's local time."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if value.tzinfo is None:  # naive: already the station's local time
        return value.astimezone()
    return value.astimezone()


def zone_name(at: datetime | None = None) -> str:
    """``UTC+08:00`` for the station's zone (at ``at``, or now)."""
    moment = (at or datetime.now()).astimezone()
    offset = moment.utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "−"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def local_text(value: str | datetime | None, zone: bool = False) -> str:
    """``2026-11-30 15:20`` in local time (``… UTC+08:00`` with ``zone``); "" for None."""
    at = local_time(value)
    if at is None:
        return ""
    text = at.strftime("%Y-%m-%d %H:%M")
    return f"{text} {zone_name(at)}" if zone else text


def blank_sheet(data: ScoresheetData, hands: int) -> ScoresheetData:
    """The table's sheet with ``hands`` empty rows to record the hands by hand: its header,
    pairs and seats, starting levels; nothing judged, no result, not a record to check."""
    import dataclasses

    case = {k: v for k, v in data.case.items() if k in ("event", "first_dealer", "levels")}
    return dataclasses.replace(
        data, case=case, decision={"hands": [], "result": None}, voidings=[], signatures={},
        signed_at=None, record=None, blank_hands=hands, stored_decision=None, play_ended=None, signer_names={
            k: v for k, v in data.signer_names.items() if k == "chief_referee"
        },
    )  # fmt: skip


def pairs_from_meta(value: Any, where: str = "pairs") -> dict[str, PairInfo]:
    """``{"NS": "12", "EW": "7"}`` or ``{"NS": {"number": …, "players": […], "unit": …}}``."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: expected an object with NS and EW, got {json.dumps(value)}")
    out: dict[str, PairInfo] = {}
    for side, item in value.items():
        if side not in SIDES:
            raise ValueError(f"{where}.{side}: unknown side (expected NS or EW)")
        if isinstance(item, (str, int)) and not isinstance(item, bool):
            out[side] = PairInfo(number=str(item))
        elif isinstance(item, Mapping):
            unknown = set(item) - {"number", "players", "unit"}
            if unknown:
                raise ValueError(f"{where}.{side}.{sorted(unknown)[0]}: unknown key")
            players = item.get("players") or []
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise ValueError(f"{where}.{side}.players: expected a list of names")
            number = item.get("number")
            unit = item.get("unit")
            out[side] = PairInfo(
                number=None if number is None else str(number),
                players=list(players),
                unit=None if unit is None else str(unit),
            )
        else:
            raise ValueError(f"{where}.{side}: expected a pair number or an object")
    return out


def event_header(
    rulebook: Any,
    date: str | None = None,
    name: str | None = None,
    organiser: str | None = None,
    venue: str | None = None,
) -> EventHeader:
    """The form's header. ``name``: the event's own name in the store (it heads the form,
    with the rulebook's event beneath it); without it, the rulebook's event name. The
    organiser line is the event's own: a stored event prints ``organiser`` (blank, to be
    filled in by hand, when the store has none: its events have no organiser field yet),
    never the organiser of the event the rulebook was written for; a case file names the
    rulebook's event, so its organiser."""
    ev = rulebook.data["event"]
    org = ev.get("organiser") or {}
    if name:
        org_zh, org_en = organiser or "", ""
    else:
        org_zh = org.get("zh", "") if isinstance(org, Mapping) else str(org)
        org_en = org.get("en", "") if isinstance(org, Mapping) else ""
    return EventHeader(
        name_zh=name or ev["name"]["zh"],
        name_en=ev["name"].get("en", "") if not name else ev["name"]["zh"] + " · " + ev["name"].get("en", ""),
        organiser_zh=org_zh,
        organiser_en=org_en,
        date=date,
        venue=venue or "",
        rulebook_id=rulebook.id,
        rulebook_sha256=rulebook.sha256,
    )


def infraction_labels(rulebook: Any) -> dict[str, tuple[str, str]]:
    return {
        kind: (spec["label"]["zh"], spec["label"]["en"])
        for kind, spec in rulebook.data["infractions"].items()
    }


#: The seat each player of a pair sits in: the first player North (NS) or East (EW).
SEAT_OF_PLAYER = {"NS": ("N", "S"), "EW": ("E", "W")}


def seat_player(pairs: Mapping[str, PairInfo], seat: str | None) -> str:
    """The player sitting at ``seat`` ("" when unknown)."""
    for side, seats in SEAT_OF_PLAYER.items():
        if seat in seats:
            players = pairs.get(side, PairInfo()).players
            i = seats.index(seat)
            return players[i] if i < len(players) else ""
    return ""


def seat_player_text(pairs: Mapping[str, PairInfo], seat: str | None, side: str | None, lang: str) -> str:
    """``赵六（7号对）`` for a seat; both names for a side; "" when the pairs are unknown."""
    side = side or next((s for s, seats in SEAT_OF_PLAYER.items() if seat in seats), None)
    pair = pairs.get(side or "")
    if pair is None:
        return ""
    names = seat_player(pairs, seat) if seat else ("、" if lang == "zh" else ", ").join(pair.players)
    number = ""
    if pair.number:
        number = f"（{pair.number}号对）" if lang == "zh" else f" (pair {pair.number})"
    return f"{names}{number}" if names or number else ""


def applied_clause(rulebook: Any, ruling: Mapping[str, Any]) -> dict[str, Any] | None:
    """The clause of the rule a ruling actually applied: the escalation step's clause for an
    escalated ruling ("累积3次"), else its branch's. An override applies no rule of the book
    but a round forfeit it imposes (判弃权, its own clause); its proposal's clause is
    ``applied_clause(rulebook, ruling["proposed"])``."""
    if ruling.get("branch") == "override" and ruling.get("round_forfeit"):
        return dict(rulebook.data["forfeit"]["clause"])  # the forfeit's own clause (判弃权)
    spec = rulebook.data["infractions"].get(ruling.get("kind"))
    if not spec:
        return None
    if ruling.get("escalated"):
        rule: dict[str, Any] = next(
            (r for r in spec.get("rules", []) if r.get("id") == ruling.get("branch")), {}
        )
        counter = rulebook.data.get("counters", {}).get(rule.get("counter") or ruling.get("kind"), {})
        occurrence = int(ruling.get("occurrence") or 0)
        steps = [st for st in counter.get("steps", []) if int(st.get("from_count", 0)) <= occurrence]
        if steps:
            step = max(steps, key=lambda st: int(st.get("from_count", 0)))
            if step.get("clause"):
                return dict(step["clause"])
    return ruling_clause(rulebook, ruling)


def ruling_clause(rulebook: Any, ruling: Mapping[str, Any]) -> dict[str, Any] | None:
    """The rulebook clause (ref, title, zh, en, assumed) a ruling applied, if it can be found."""
    spec = rulebook.data["infractions"].get(ruling.get("kind"))
    if not spec:
        return None
    branch = ruling.get("branch")
    if branch == "override" and isinstance(ruling.get("proposed"), Mapping):
        branch = ruling["proposed"].get("branch")
    rules = spec.get("rules", [])
    for rule in rules:
        if rule.get("id") == branch and rule.get("clause"):
            return dict(rule["clause"])
    for rule in rules:
        if rule.get("clause"):
            return dict(rule["clause"])
    return None


def scoresheet_from_case(
    raw_case: Mapping[str, Any],
    lang: str = "zh",
    *,
    round_no: int | None = None,
    table_no: int | None = None,
    date: str | None = None,
) -> ScoresheetData:
    """Judge a case file (with or without ``round``/``table``/``pairs``) and fill a scoresheet.

    Raises the core's ``CaseError``/``RulebookError`` for an invalid case and ``ValueError``
    for bad ``round``/``table``/``pairs`` keys.
    """
    from ..core.engine import judge
    from ..core.rulebook import load_rulebook

    case, meta = split_case(raw_case)
    pairs = pairs_from_meta(meta.get("pairs"))
    for key in ("round", "table"):
        value = meta.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise ValueError(f"{key}: expected a whole number ≥ 1, got {json.dumps(value)}")
    event_ref = case.get("event")
    rulebook = load_rulebook(event_ref) if isinstance(event_ref, str) else None
    decision = judge(case, lang=lang, rulebook=rulebook)
    if rulebook is None:  # judge raised already for a missing event; keep mypy happy
        raise ValueError("event: missing")
    return ScoresheetData(
        event=event_header(rulebook, date),
        case=case,
        decision=decision,
        round=round_no if round_no is not None else meta.get("round"),
        table=table_no if table_no is not None else meta.get("table"),
        pairs=pairs,
        infraction_labels=infraction_labels(rulebook),
        lang=lang,
    )


def offender_text(ruling: Mapping[str, Any], lang: str) -> str:
    seat = ruling.get("seat")
    side = ruling.get("side")
    if lang == "zh":
        if seat:
            return f"{SEAT_ZH.get(seat, seat)}家（{SIDE_ZH.get(side or '', '')}）"
        return SIDE_ZH.get(side or "", "")
    if seat:
        return f"{SEAT_EN.get(seat, seat)} ({SIDE_EN.get(side or '', '')})"
    return SIDE_EN.get(side or "", "")


def all_rulings(decision: Mapping[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
    """(hand number or None before play, ruling) in order."""
    out: list[tuple[int | None, dict[str, Any]]] = [(None, r) for r in decision.get("before_play") or []]
    for hand in decision.get("hands") or []:
        out.extend((hand["number"], r) for r in hand.get("rulings") or [])
    return out
