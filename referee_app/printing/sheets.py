"""What the standings, pairing and bracket sheets show (plain data, no reportlab): the
desk fills these and :mod:`.standings` renders them, so a front end builds a sheet without
loading the PDF code."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from .data import PaperStamp

Target = str | Path | IO[bytes]


@dataclass
class StandingsSheet:
    """What the sheet shows; :meth:`build` makes it from the store's event and the core."""

    event_name: str
    rulebook_id: str
    round: int
    seed: int
    tie_breaks: list[str]
    rows: list[dict[str, Any]]
    players: Mapping[str, Sequence[str]] = field(default_factory=dict)
    units: Mapping[str, str] = field(default_factory=dict)
    clause_ref: str = ""
    clause_zh: str = ""
    printed_at: datetime | None = None
    #: Tie-breaks whose definition is the rulebook's reading (printed with a mark).
    assumed: list[str] = field(default_factory=list)
    #: Final once the chief referee says so (the last round, every table signed); until
    #: then the sheet says provisional across its head.
    final: bool = False
    chief_referee: str = ""
    stamp: Any = None  # a SignatureStamp when the PDF is to be signed
    #: Pairs withdrawn (退赛) and the round they left from: marked beside their names.
    withdrawn: Mapping[str, int] = field(default_factory=dict)
    #: The sheet's QR and digest (``app.printouts.stamp_standings``); None: none printed.
    paper: PaperStamp | None = None

    @classmethod
    def build(cls, ev: Any, rulebook: Any, pairs: Sequence[Mapping[str, Any]], table: Any) -> StandingsSheet:
        clause = rulebook.data["standings"]["clause"]
        return cls(
            event_name=ev.name,
            rulebook_id=rulebook.id,
            round=table.round,
            seed=table.seed,
            tie_breaks=list(table.tie_breaks),
            rows=list(table.rows),
            players={str(p["number"]): list(p["players"]) for p in pairs},
            units={str(p["number"]): p["unit"] for p in pairs if p.get("unit")},
            clause_ref=str(clause.get("ref", "")),
            clause_zh=str(clause.get("zh", "")),
            assumed=list(table.assumed),
        )


@dataclass
class PairingSheet:
    """A round's published pairing (对阵表): table, North-South pair, East-West pair, the bye."""

    event_name: str
    rulebook_id: str
    round: int
    method: str  # lot, swiss, knockout or entered (the draw made in the hall)
    seed: int | None
    tables: list[tuple[int, str, str]]
    bye: str | None = None
    players: Mapping[str, Sequence[str]] = field(default_factory=dict)
    printed_at: datetime | None = None
    stamp: Any = None  # a SignatureStamp when the PDF is to be signed
    #: False: a proposal computed now, not the pairing the desk published.
    published: bool = True
    #: The published version (a correction is a new version); None for a draft.
    version: int | None = None
    #: The hall web page's address (赛场信息网页): printed as a QR code under a published
    #: pairing, for players to scan for their table; None: no code.
    web_url: str | None = None
    #: Each pair's unit (单位) and match points before the round (积分), when known.
    units: Mapping[str, str] = field(default_factory=dict)
    scores: Mapping[str, int] = field(default_factory=dict)
    #: Pairs withdrawn (退赛) by this round: listed by name as such, never seated.
    withdrawn: Sequence[str] = ()
    #: A published pairing's QR and digest; None: a proposal or a seated round (no record).
    paper: PaperStamp | None = None
    #: Each seated pair's own hall web page (/pair/N), printed as its QR on its table card.
    pair_urls: Mapping[str, str] = field(default_factory=dict)

    def seat_of(self) -> dict[str, tuple[int | None, str, str | None]]:
        """Each pair's (table, side, opponent): ``NS``/``EW`` at a table, ``bye`` (轮空)."""
        out: dict[str, tuple[int | None, str, str | None]] = {}
        for table, ns, ew in self.tables:
            out[ns] = (table, "NS", ew)
            out[ew] = (table, "EW", ns)
        if self.bye:
            out[self.bye] = (None, "bye", None)
        return out


@dataclass
class ResultsGrid:
    """The results grid (成绩册): each pair's opponent and result in every round so far,
    its match points and rank. ``cells[pair][round]``: ``{"opponent", "side", "points",
    "outcome"}`` with outcome ``win``, ``loss``, ``draw``, ``bye``, ``forfeit_won``,
    ``forfeit_lost`` or ``absent``."""

    event_name: str
    rulebook_id: str
    rounds: int
    pairs: Sequence[str]
    cells: Mapping[str, Mapping[int, Mapping[str, Any]]]
    totals: Mapping[str, int]
    ranks: Mapping[str, int]
    players: Mapping[str, Sequence[str]] = field(default_factory=dict)
    units: Mapping[str, str] = field(default_factory=dict)
    withdrawn: Mapping[str, int] = field(default_factory=dict)
    printed_at: datetime | None = None
    stamp: Any = None


@dataclass
class BracketSheet:
    """A knockout's rounds (each match and its winner, the byes) and its placings."""

    event_name: str
    rulebook_id: str
    rounds: Mapping[int, Sequence[Mapping[str, Any]]]
    placings: Sequence[Mapping[str, Any]]
    players: Mapping[str, Sequence[str]] = field(default_factory=dict)
    printed_at: datetime | None = None
    #: Each placing's prize name ("" none), the prize-count warnings, the withdrawn pairs.
    prizes: Sequence[str] = ()
    warnings: Sequence[str] = ()
    withdrawn: Sequence[str] = ()
    #: The ranking's QR and digest, as the standings' (``app.printouts.stamp_bracket``).
    paper: PaperStamp | None = None


@dataclass
class PrizeList:
    """The prize list (获奖名单): each prize's pairs down the places (``rows``: ``{"rank",
    "pair", "prize"}`` in place order, the prize's index in ``prizes``), and what the
    chief referee must settle (``warnings``, worded): shared places past a prize's count, or
    a prize's last place decided by the lots alone."""

    event_name: str
    rulebook_id: str
    round: int
    seed: int
    prizes: Sequence[str]
    rows: Sequence[Mapping[str, Any]]
    warnings: Sequence[str] = ()
    #: The prizes' English names, printed under the Chinese.
    prizes_en: Sequence[str] = ()
    players: Mapping[str, Sequence[str]] = field(default_factory=dict)
    units: Mapping[str, str] = field(default_factory=dict)
    #: The clause the prizes come from (ref, Chinese text), and its note where assumed.
    clause_ref: str = ""
    clause_zh: str = ""
    assumed_note: str = ""
    final: bool = False
    chief_referee: str = ""
    printed_at: datetime | None = None
    stamp: Any = None
    #: Pairs in a tied group at a prize's last place (marked on the list).
    by_lots: Sequence[str] = ()
