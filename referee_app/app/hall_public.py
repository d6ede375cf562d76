"""What the hall may read (赛场公开信息): the event as players see it on their phones.

One read-only operation, :func:`public_view`, gives everything the hall web page
(:mod:`referee_app.hallweb`) shows, and nothing else: the page never sees the store.
Only what is published goes in:

* the **pairing** is the latest round with a published pairing (a ``pairing`` desk record),
  its latest version: never a proposal (编排建议) nor tables seated without one;
* each table's **status** is the word the hall display shows (not started, playing,
  finished, signed, appeal): no ruling, no level, no hand;
* the **standings** are after the last *complete* published round (every table of its
  published pairing has its result, or the chief referee recorded its scores as published),
  with the rulebook's tie-break columns: a round in progress adds nothing to them;
* the **clock** is the current round's clock, as every station sees it;
* a knockout's **bracket**: the matches of the complete rounds with their winners, and the
  places they give; the current round's published pairing shows who plays whom.

Nothing about PINs, keys, stations or the store. Values are language-free (tie-break keys,
status codes); the page words them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

#: The table statuses the hall may see (the hall display's words for them).
STATUSES = ("not_started", "playing", "finished", "signed", "appeal")


@dataclass(frozen=True)
class PublicPair:
    """A pair as the hall sees it: its number and its players' names."""

    number: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class PublicTable:
    """One table of the published pairing: North-South, East-West, its status."""

    table: int
    ns: str
    ew: str
    status: str


@dataclass(frozen=True)
class PublicPairing:
    """A round's published pairing (its latest version)."""

    round: int
    version: int
    tables: tuple[PublicTable, ...]
    bye: str | None


@dataclass(frozen=True)
class PublicStandingRow:
    rank: int
    pair: str
    match_points: int
    tiebreaks: tuple[str, ...]
    """One shown value per :attr:`PublicStandings.columns`, formatted as the desk prints it."""
    disqualified: int | None = None


@dataclass(frozen=True)
class PublicStandings:
    """The standings after round ``round`` (the last complete published round)."""

    round: int
    columns: tuple[str, ...]
    """The tie-break keys after the match points, in the rulebook's order (the lots left out)."""
    assumed: tuple[str, ...]
    rows: tuple[PublicStandingRow, ...]


@dataclass(frozen=True)
class PublicClock:
    """The current round's clock: ``phase`` as :class:`~referee_app.core.clock.ClockState`
    names it; ``remaining_s`` when read at ``read_at``; ``ends_at`` when running."""

    round: int
    phase: str
    total_s: int
    remaining_s: int
    warning_s: int
    read_at: str
    ends_at: str | None

    def remaining_at(self, now: datetime) -> int:
        """The seconds left at ``now``: a running clock keeps counting after it was read."""
        if self.phase != "running" or self.ends_at is None:
            return self.remaining_s
        return max(0, int((datetime.fromisoformat(self.ends_at) - now).total_seconds() + 0.999))


@dataclass(frozen=True)
class PublicMatch:
    round: int
    ns: str
    ew: str
    winner: str | None


@dataclass(frozen=True)
class PublicPlacing:
    rank: int | None
    pair: str


@dataclass(frozen=True)
class PublicBracket:
    """A knockout's complete rounds (matches and byes) and the places they give."""

    matches: tuple[PublicMatch, ...]
    byes: tuple[tuple[int, str], ...]
    placings: tuple[PublicPlacing, ...]


@dataclass(frozen=True)
class PublicView:
    """Everything the hall may read about one event."""

    event_id: int
    event_name: str
    pairs: tuple[PublicPair, ...]
    pairing: PublicPairing | None
    standings: PublicStandings | None
    clock: PublicClock | None
    bracket: PublicBracket | None
    knockout: bool

    @property
    def fingerprint(self) -> str:
        """A digest of what the hall sees, but the clock's reading (it changes every second):
        the page's "last changed" moves when this does."""
        data = asdict(self)
        if data["clock"] is not None:
            data["clock"] = {k: data["clock"][k] for k in ("round", "phase", "total_s", "ends_at")}
            if self.clock is not None and self.clock.phase != "running":
                data["clock"]["remaining_s"] = self.clock.remaining_s
        raw = json.dumps(data, ensure_ascii=False, sort_keys=True, default=str)
        return hashlib.sha256(raw.encode()).hexdigest()

    def pair(self, number: str) -> PublicPair | None:
        return next((p for p in self.pairs if p.number == number), None)

    def table_of(self, number: str) -> tuple[PublicTable, str] | None:
        """The pair's table in the published pairing and its side (``NS`` / ``EW``)."""
        if self.pairing is None:
            return None
        for t in self.pairing.tables:
            if t.ns == number:
                return t, "NS"
            if t.ew == number:
                return t, "EW"
        return None

    def standing_of(self, number: str) -> PublicStandingRow | None:
        if self.standings is None:
            return None
        return next((r for r in self.standings.rows if r.pair == number), None)

    def find_pairs(self, query: str, limit: int = 20) -> list[PublicPair]:
        """The pairs a player typed (我的桌号): a pair number exactly, else every pair with a
        player whose name contains the text (spaces ignored), at most ``limit``."""
        q = "".join(query.split())
        if not q:
            return []
        exact = self.pair(q.lstrip("0") or q)
        if exact is not None:
            return [exact]
        folded = q.casefold()
        found = [p for p in self.pairs if any(folded in "".join(n.split()).casefold() for n in p.players)]
        return found[:limit]


#: The longest hall web page address a QR code is made of (a printed code stays small).
MAX_WEB_URL = 200


def check_web_url(url: str, field: str = "web_url") -> str:
    """``url`` if it is a hall web page's address to print or show as a QR code (http:// or
    https://, printable ASCII, at most :data:`MAX_WEB_URL` characters); else InputError."""
    from .errors import InputError

    ok = (
        url.startswith(("http://", "https://"))
        and len(url) <= MAX_WEB_URL
        and all(33 <= ord(ch) < 127 for ch in url)
        and len(url) > len("https://")
    )
    if not ok:
        shown = url if len(url) <= 80 else url[:79] + "…"
        raise InputError(
            f"--web-url: expected the page's address (http://…, at most {MAX_WEB_URL} characters), "
            f"got {shown!r}",
            code="input.web_url",
            field=field,
            got=shown,
            most=MAX_WEB_URL,
            scheme="http://",
        )
    return url


def store_head(store: Any) -> int:
    """The store's last audit entry: the hall page reads the event again when it moves."""
    return int(store.audit_head()[0])


def public_view(store: Any, event_id: int, now: datetime | None = None) -> PublicView:
    """The event ``event_id`` as the hall may read it (see the module's text). Reads only."""
    from ..core.clock import clock_state
    from ..core.knockout import placings, winner_of
    from ..core.standings import compute_standings, format_tiebreak
    from .event import clock_acts, load_event, published_pairing, round_unfinished

    now = now or datetime.now(UTC)
    loaded = load_event(store, event_id)
    ev = loaded.ev
    pairs = tuple(PublicPair(str(p["number"]), tuple(str(n) for n in p["players"])) for p in loaded.pairs)
    published_rounds = sorted(loaded.published)
    pairing: PublicPairing | None = None
    if published_rounds:
        rnd = published_rounds[-1]
        core, rec = published_pairing(store, ev.id, rnd)
        status = _statuses(store, ev.id, rnd)
        pairing = PublicPairing(
            rnd,
            int(rec["version"]),
            tuple(PublicTable(t.table, t.ns, t.ew, status.get(t.table, "not_started")) for t in core.tables),
            None if core.bye is None else str(core.bye),
        )
    scores = {int(d["round_no"]) for d in store.desk_records(ev.id, "scores_published")}
    complete = [r for r in published_rounds if r in scores or not round_unfinished(loaded, r)]
    last = complete[-1] if complete else 0

    standings: PublicStandings | None = None
    bracket: PublicBracket | None = None
    if last and not loaded.knockout:
        table = compute_standings(loaded.rulebook, loaded.record, through_round=last, seed=ev.id)
        keys = tuple(k for k in table.tie_breaks if k not in ("match_points", "lots"))
        rows = []
        for r in table.rows:
            dq = r["tiebreaks"].get("disqualified")
            rows.append(
                PublicStandingRow(
                    int(r["rank"]),
                    str(r["pair"]),
                    int(r["match_points"]),
                    tuple(format_tiebreak(k, r["tiebreaks"].get(k)) for k in keys),
                    None if dq is None else int(dq),
                )
            )
        standings = PublicStandings(last, keys, tuple(k for k in table.assumed if k in keys), tuple(rows))
    if loaded.knockout:
        # only the complete rounds' results: a match decided in the current round is not yet
        # the hall's (the projector shows the round's status, not its winners)
        done = load_event(store, ev.id, before_round=last + 1, knockout=True) if last else None
        if done is not None:
            rec_ = done.record
            rule = done.rulebook.data["standings"].get("placings")
            matches = tuple(
                PublicMatch(m.round, m.ns, m.ew, winner_of(rec_, m))
                for m in sorted(rec_.results, key=lambda m: (m.round, m.ns))
            )
            byes = tuple((b.round, b.pair) for b in rec_.byes)
            places = tuple(
                PublicPlacing(None if p["rank"] is None else int(p["rank"]), str(p["pair"]))
                for p in placings(rec_, rule, seed=ev.id)
            )
            bracket = PublicBracket(matches, byes, places)
        else:
            bracket = PublicBracket((), (), ())

    clock: PublicClock | None = None
    if pairing is not None:
        minutes = int(loaded.rulebook.data["round"]["minutes"])
        st = clock_state(minutes, clock_acts(store, ev.id, pairing.round), now)
        warn = int(loaded.rulebook.data["round"].get("warning_minutes_left", 0)) * 60
        clock = PublicClock(
            pairing.round,
            st.phase,
            st.total_s,
            st.remaining_s,
            warn,
            now.isoformat(),
            st.ends_at.isoformat() if st.ends_at is not None else None,
        )
    return PublicView(ev.id, str(ev.name), pairs, pairing, standings, clock, bracket, loaded.knockout)


def _statuses(store: Any, event_id: int, round_no: int) -> dict[int, str]:
    """Each seated table's status, as the hall display shows it (``TableRecord.status``:
    one rule for the window, the display and the page), read without wording the record."""
    from ..core.case import split_case
    from .session import TableRecord

    signed = store.signed_match_ids(event_id)
    open_at: dict[int, int] = {}
    for a in store.appeals(event_id, round_no):
        if a["open"]:
            open_at[a["table"]] = open_at.get(a["table"], 0) + 1
    out: dict[int, str] = {}
    for m in store.current_matches(event_id, round_no):
        case, _meta = split_case(json.loads(m["case_json"]))
        decision = json.loads(m["decision_json"]) or {}
        rec = TableRecord(
            round=int(m["round_no"]),
            table=int(m["table_no"]),
            pairs={"NS": str(m["ns_number"]), "EW": str(m["ew_number"])},
            case=case,
            decision=decision,
            version=int(m["version"]),
            signed=m["id"] in signed,
            open_appeals=open_at.get(int(m["table_no"]), 0),
        )
        out[rec.table] = rec.status
    return out
