"""A round's pairing as everything shows and prints it: one truth over the event's life.

The window's pairing view, ``referee-app pair``, ``referee-app pairing show`` and
``referee-app print pairing`` read a round's pairing through :func:`round_pairing`; none of
them pairs a round on its own. It gives, the first that applies:

1. **published** — the round's published pairing (a ``pairing`` desk record), its latest
   version: a correction is a new version with its reason, and the latest is what is read.
   Tables, bye, method, seed and version exactly as stored.
2. **seated** — the round's tables as seated in the store, for a round that was seated
   without a published pairing (tables opened at the tables, an event run without the desk).
3. **proposal** (编排建议，未公布) — the round's kept proposal while it still fits the round;
   else the pairing the rules give now.

A draw (round 1, a knockout round) is made once, with a seed no one can foresee, and kept in
the store as the round's proposal (a ``proposal`` desk record, in the audit log like every
act of the desk) with its seed and tables: every look at the round shows that draw, from any
station, until it is published, and publishing publishes it (the published record names the
proposal's version). So are a draw the chief referee asked for (a seed, the draw made in the
hall, a new draw) and tables changed by hand. A score-group round's pairing follows from the
results and the event's seed: it is the same at every look and is not kept.

A kept proposal *fits* while pairing the round again with its seed (its hall draw) on the
current record gives the tables it was made from: a late entry, a withdrawal or a corrected
result in between changes the field, and then the proposal is no longer shown. The desk
(a ``keeper`` given) draws again and says so; a reader (printing) refuses a drawn round with
no draw that fits, in one line saying how to draw it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.pairing import (
    Pairing,
    PairingError,
    PairingWhy,
    Progress,
    Table,
    check_pairing,
    explain_pairing,
    pair_round,
    pairing_cost,
    swiss_field,
)
from ..store.errors import ConflictError, InputError, NotFoundError
from .event import Loaded, live_pairing_records, load_event, published_pairing, round_unfinished

#: The statuses of a round's pairing: what players read (published, seated) or a proposal.
STATUSES = ("published", "seated", "proposal")

Keeper = Callable[[], Any]
"""Who keeps a new draw in the store: called (once) only when one is kept; returns the actor."""


@dataclass
class RoundPairing:
    """Round ``pairing.round``'s pairing as it is shown and printed.

    ``status``: ``published``, ``seated`` or ``proposal`` (:data:`STATUSES`); ``version`` the
    published version; ``record`` the desk record read (the published pairing, or the kept
    proposal; None for seated tables and a score-group proposal computed now); ``loaded`` the
    event before the round (its record, pairs and rulebook); ``notes`` what the reader should
    be told (catalogue code and values, e.g. a draw made again because the field changed)."""

    pairing: Pairing
    status: str
    loaded: Loaded
    version: int | None = None
    record: dict[str, Any] | None = None
    notes: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    @property
    def round(self) -> int:
        return self.pairing.round

    @property
    def published(self) -> bool:
        """What the players read (published or seated), not a proposal."""
        return self.status != "proposal"

    @property
    def proposal_version(self) -> int | None:
        """The kept proposal's version (None: published, seated, or computed now, not kept)."""
        if self.status == "proposal" and self.record is not None:
            return int(self.record["version"])
        return None

    def tables(self) -> list[tuple[int, str, str]]:
        return [(t.table, t.ns, t.ew) for t in self.pairing.tables]

    def check(self) -> tuple[list[str], list[str]]:
        """Before publishing: (errors, warnings), one line each (``core.pairing.check_pairing``)."""
        return check_pairing(self.loaded.record, self.pairing, knockout=self.loaded.knockout)

    def why(self) -> PairingWhy:
        """Why each table is as it is (:func:`~referee_app.core.pairing.explain_pairing`),
        against the criteria and the results before the round."""
        return explain_pairing(self.loaded.rulebook, self.loaded.record, self.pairing)

    def players(self) -> dict[str, list[str]]:
        return {str(p["number"]): list(p["players"]) for p in self.loaded.pairs}

    def worded_notes(self, lang: str) -> list[str]:
        from .messages import message

        return [message(code, lang, **values) for code, values in self.notes]


def _tables_of(rows: Sequence[Sequence[Any]]) -> list[Table]:
    return [Table(int(t), str(ns), str(ew)) for t, ns, ew in rows]


def _pairing_of(round_no: int, body: dict[str, Any]) -> Pairing:
    bye = body.get("bye")
    return Pairing(round_no, str(body["method"]), body.get("seed"), _tables_of(body["tables"]), bye)


def _body(pairing: Pairing) -> dict[str, Any]:
    return {
        "method": pairing.method,
        "seed": pairing.seed,
        "tables": [[t.table, t.ns, t.ew] for t in pairing.tables],
        "bye": pairing.bye,
    }


def published_round(
    store: Any, event_id: int, round_no: int, version: int | None = None, loaded: Loaded | None = None
) -> RoundPairing:
    """Round ``round_no``'s published pairing, the latest version (or ``version``), as
    :func:`~referee_app.app.event.published_pairing` reads it; NotFoundError
    (``desk.no_pairing``) when there is none."""
    pairing, rec = published_pairing(store, event_id, round_no, version)
    if loaded is None:
        loaded = load_event(store, event_id, before_round=round_no)
    return RoundPairing(pairing, "published", loaded, int(rec["version"]), rec)


def is_drawn(loaded: Loaded, round_no: int) -> bool:
    """Whether round ``round_no`` is paired by lot (round 1, a knockout round)."""
    return round_no == 1 or loaded.knockout


def round_pairing(
    store: Any,
    event_id: int | None,
    round_no: int,
    *,
    keeper: Keeper | None = None,
    seed: int | None = None,
    drawn: Sequence[str] | None = None,
    redraw: bool = False,
    knockout: bool | None = None,
    check: Callable[[Loaded], None] | None = None,
    progress: Progress | None = None,
) -> RoundPairing:
    """Round ``round_no``'s pairing, for showing, printing and publishing (the module's doc).

    ``keeper``: the desk's; with it a draw that is needed (none kept, or the kept one no
    longer fits) is made and kept. Without it nothing is written: a drawn round with no draw
    that fits is refused (InputError ``desk.not_drawn`` / ``desk.draw_stale``).

    ``seed``, ``drawn`` (the draw made in the hall, the pairs in the order drawn) and
    ``redraw`` (a new draw; a score-group round paired again from the results) ask for a new
    pairing: it is made even when the round is published (the candidate for a correction)
    and kept as the round's proposal; they need a ``keeper``.

    ``check(loaded)`` runs before a proposal is made or shown (not for a published or
    seated round): the caller refuses a round whose previous round is unfinished, or
    records the chief referee's override."""
    asked = seed is not None or drawn is not None or redraw
    if asked and keeper is None:
        raise ValueError("round_pairing: a new draw (seed, drawn, redraw) is kept: give a keeper")
    ev = store.pick_event(event_id)
    loaded = load_event(store, ev.id, before_round=round_no, knockout=knockout)
    if not asked:
        if live_pairing_records(store, ev.id, round_no):
            return published_round(store, ev.id, round_no, loaded=loaded)
        seated = store.seated_tables(ev.id, round_no)
        if seated:
            playing = {p for _t, ns, ew in seated for p in (ns, ew)}
            absent = [str(p["number"]) for p in loaded.pairs if str(p["number"]) not in playing]
            bye = absent[0] if len(absent) == 1 else None
            return RoundPairing(Pairing(round_no, "seated", None, _tables_of(seated), bye), "seated", loaded)
    if check is not None:
        check(loaded)
    drawn_round = is_drawn(loaded, round_no)
    kept = store.desk_records(ev.id, "proposal", round_no)
    last = kept[-1] if kept else None
    notes: list[tuple[str, dict[str, Any]]] = []
    if not asked and last is not None:
        if _fits(loaded, round_no, last["body"]):
            return RoundPairing(_pairing_of(round_no, last["body"]), "proposal", loaded, record=last)
        was = last["body"].get("seed")
        values: dict[str, Any] = {"round": round_no, "seed": "—" if was is None else was}
        if keeper is None and drawn_round:
            raise InputError(
                f"round {round_no}: the field changed since the draw kept (seed {values['seed']}); "
                f"draw again: referee-app pair --round {round_no}",
                code="desk.draw_stale",
                **values,
            )
        notes.append(("desk.drawn_again" if drawn_round else "desk.paired_again", values))
    if not asked and keeper is None and drawn_round:
        raise InputError(
            f"round {round_no} has not been drawn yet: the chief referee draws it "
            f"(referee-app pair --round {round_no}, or the window's pairing view); "
            f"the draw is kept until it is published",
            code="desk.not_drawn",
            round=round_no,
        )
    if seed is None:
        # a draw no one can foresee, shown, kept and stored when published; a score-group
        # round uses the event's seed for the standings' lots (the same answer every time)
        seed = secrets.randbelow(10**9) if drawn_round and drawn is None else ev.id
    pairing = pair_round(
        loaded.rulebook,
        loaded.record,
        round_no,
        seed=seed,
        knockout=loaded.knockout,
        drawn=list(drawn) if drawn is not None else None,
        progress=progress,
    )
    body = _body(pairing)
    if drawn is not None:
        body["drawn"] = list(drawn)
    same = last is not None and {k: last["body"].get(k) for k in body} == body
    if same and last is not None and not last["body"].get("computed"):
        return RoundPairing(pairing, "proposal", loaded, record=last, notes=notes)
    if keeper is None or not (asked or drawn_round or last is not None):
        return RoundPairing(pairing, "proposal", loaded, notes=notes)  # the same at every look
    rec = store.add_desk_record(ev.id, "proposal", round_no, body, actor=keeper())
    return RoundPairing(pairing, "proposal", loaded, record=rec, notes=notes)


def _fits(loaded: Loaded, round_no: int, body: dict[str, Any]) -> bool:
    """Whether a kept proposal still fits the round: paired again with its seed (its hall
    draw) on the current record, the round gives the tables it was made from, and tables
    changed by hand still seat the round's field once each."""
    drawn = body.get("drawn")
    try:
        again = pair_round(
            loaded.rulebook,
            loaded.record,
            round_no,
            seed=int(body.get("seed") or 0),
            knockout=loaded.knockout,
            drawn=list(drawn) if drawn is not None else None,
        )
    except PairingError:
        return False
    made_from = body.get("computed") or body["tables"]
    if again.method != body["method"] or again.bye != body.get("bye"):
        return False
    if [[t.table, t.ns, t.ew] for t in again.tables] != [list(t) for t in made_from]:
        return False
    if body.get("computed"):
        errors, _ = check_pairing(loaded.record, _pairing_of(round_no, body), knockout=loaded.knockout)
        return not errors
    return True


def change_proposal(
    store: Any, rp: RoundPairing, tables: Sequence[tuple[int, str, str]], *, actor: Any
) -> RoundPairing:
    """Keep round ``rp.round``'s proposal with its tables changed by hand (pairs swapped at
    the desk): the new proposal names the tables it was made from, so it fits as long as the
    pairing it changed does. Refused for a published or seated round."""
    if rp.published:
        raise InputError(
            f"round {rp.round}: the pairing is published; a correction is a new version with its reason",
            code="desk.publish_reason_missing",
            field="reason",
            round=rp.round,
            version=rp.version or 1,
        )
    before = rp.record["body"] if rp.record is not None else _body(rp.pairing)
    pairing = Pairing(rp.round, rp.pairing.method, rp.pairing.seed, _tables_of(tables), rp.pairing.bye)
    body = _body(pairing)
    if before.get("drawn") is not None:
        body["drawn"] = list(before["drawn"])
    body["computed"] = before.get("computed") or before["tables"]
    rec = store.add_desk_record(rp.loaded.ev.id, "proposal", rp.round, body, actor=actor)
    return RoundPairing(pairing, "proposal", rp.loaded, record=rec)


def publish_round(
    store: Any,
    rp: RoundPairing,
    *,
    actor: Any,
    warnings: Sequence[str] = (),
    reason: str | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Store ``rp``'s pairing as the round's published pairing: the next version (a
    correction needs ``reason``; another station publishing first is a conflict), with its
    seed and the kept proposal it publishes. A kept proposal replaced since it was read (a
    new draw at another station) is a conflict: the station reloads and publishes what it
    then shows. Returns the desk record."""
    ev_id = rp.loaded.ev.id
    if rp.proposal_version is not None:  # what was shown must still be the round's proposal
        kept = store.desk_records(ev_id, "proposal", rp.round)
        if kept and int(kept[-1]["version"]) != rp.proposal_version:
            raise ConflictError(
                f"round {rp.round}: the proposal shown (draft {rp.proposal_version}) was replaced "
                f"by draft {kept[-1]['version']} at another station; reload and publish what is shown",
                code="desk.proposal_changed",
                round=rp.round,
                shown=rp.proposal_version,
                version=int(kept[-1]["version"]),
            )
    current = store.desk_records(ev_id, "pairing", rp.round)
    body: dict[str, Any] = {**_body(rp.pairing), "warnings": list(warnings), **(extra or {})}
    if rp.proposal_version is not None:
        body["proposal"] = rp.proposal_version
        drawn = (rp.record or {}).get("body", {}).get("drawn")
        if drawn is not None:
            body.setdefault("drawn", drawn)
    if reason:
        body["reason"] = reason
    return store.add_desk_record(ev_id, "pairing", rp.round, body, actor=actor, version=len(current) + 1)


def refuse_unfinished(loaded: Loaded, round_no: int) -> None:
    """A ``check`` for :func:`round_pairing`: refuse to pair over an unfinished previous round
    (the command line's ``pair --override REASON`` is the chief referee's way past it)."""
    from .messages import word_gap

    gaps = round_unfinished(loaded, round_no - 1)
    if gaps:
        raise PairingError(
            f"round {round_no - 1} is not finished ({'; '.join(word_gap(g, 'en') for g in gaps)})",
            code="pairing.previous_unfinished",
            round=round_no - 1,
            gaps=gaps,
        )


def pairing_sheet(rp: RoundPairing, web_url: str | None = None, store: Any = None) -> Any:
    """The printed pairing list (对阵表) of ``rp``: published, seated (as seated), or the
    proposal marked 编排建议，未公布. With ``store``, a published pairing carries its QR and
    digest naming the event by its stable identity (``verify-paper`` checks it)."""
    from ..core.standings import compute_standings
    from .printouts import PairingSheet

    loaded = rp.loaded
    before = compute_standings(loaded.rulebook, loaded.record, through_round=rp.round - 1, seed=loaded.ev.id)
    numbers = [str(p["number"]) for p in loaded.pairs]
    return PairingSheet(
        event_name=rp.loaded.ev.name,
        rulebook_id=rp.loaded.rulebook.id,
        round=rp.round,
        method=rp.pairing.method,
        seed=rp.pairing.seed,
        tables=rp.tables(),
        bye=rp.pairing.bye,
        players=rp.players(),
        published=rp.published,
        version=rp.version,
        web_url=web_url,
        units={str(p["number"]): p["unit"] for p in loaded.pairs if p.get("unit")},
        scores={str(r["pair"]): int(r["match_points"]) for r in before.rows},
        withdrawn=[n for n in numbers if loaded.record.withdrawn(n, rp.round)],
        paper=_pairing_paper(store, rp) if store is not None else None,
        pair_urls=_pair_urls(rp, web_url),
    )


def _pair_urls(rp: RoundPairing, web_url: str | None) -> dict[str, str]:
    """Each seated pair's own hall web page (for the QR on its table card), when the hall web
    page has an address and the pairing is what the players read; else none."""
    if not web_url or not rp.published:
        return {}
    from .hall_address import pair_page_url

    return {pair: pair_page_url(web_url, pair) for _t, ns, ew in rp.tables() for pair in (ns, ew)}


def _pairing_paper(store: Any, rp: RoundPairing) -> Any:
    """A published pairing's QR stamp (``printing.build.paper_stamp``); None otherwise."""
    if rp.status != "published" or rp.version is None:
        return None
    from ..printing.build import paper_stamp
    from ..printing.data import pairing_digest

    tables, bye, version = rp.tables(), rp.pairing.bye, rp.version
    return paper_stamp(
        store,
        rp.loaded.ev.id,
        "P",
        lambda identity: pairing_digest(rp.round, version, tables, bye, identity),
        rp.round,
        version=version,
    )


# -- undo: a published pairing withdrawn before play; a pair withdrawing ---------------------------
def unpublish_round(
    store: Any, event_id: int | None, round_no: int, *, reason: str, actor: Any
) -> dict[str, Any]:
    """Withdraw round ``round_no``'s published pairing (撤回已公布的对阵) before any result
    of the round is entered: an ``unpublish`` desk record with the chief referee's reason
    (the audit log's ``desk.unpublish``; only the chief referee on an event with PINs, checked
    in the write's transaction). The round then shows its proposal again, to be published
    anew (a new version, with its reason) or paired again. Refused, in one line, when the
    round has no published pairing or a table of it has a result. Returns the record."""
    ev = store.pick_event(event_id)
    if not reason.strip():
        raise InputError(
            "--reason: withdrawing a published pairing needs the chief referee's reason",
            code="desk.reason_missing",
            field="reason",
        )
    recs = live_pairing_records(store, ev.id, round_no)
    if not recs:
        raise NotFoundError(f"round {round_no}: no published pairing", code="desk.no_pairing", round=round_no)
    played = [m for m in store.current_results(ev.id, round_no + 1) if int(m["round_no"]) == round_no]
    scored = [m for m in played if m["result"] is not None]
    if scored:
        m = scored[0]
        raise InputError(
            f"round {round_no}: table {m['table_no']} has a result already; a pairing played cannot be "
            f"withdrawn (a correction is a new version with its reason)",
            code="desk.unpublish_played",
            round=round_no,
            table=int(m["table_no"]),
        )
    version = int(recs[-1]["version"])
    body = {"version": version, "reason": reason.strip()}
    return store.add_desk_record(ev.id, "unpublish", round_no, body, actor=actor)


def decide_tie(
    store: Any,
    event_id: int | None,
    round_no: int,
    winner: str,
    how: str,
    reason: str,
    *,
    actor: Any,
    correct: bool = False,
) -> dict[str, Any]:
    """The chief referee's deciding result of a tied knockout match (判定平局胜方): ``winner``
    goes on, by lots (``how`` ``lots``) or a decision, for ``reason`` (a ``decider`` desk
    record); the same for a Swiss round tied on time whose rulebook leaves the tie to lots
    or the referee (``round.tie``; the result awaits it): ``winner`` then takes the win.
    With ``correct``, a decision already taken is corrected (更正): a ``decider_correction``
    desk record naming the decision it replaces, with its reason in the audit log; the
    bracket and the standings then read the correction. Refused in one line when the match
    is not tied (or not decided, to correct), when the correction changes nothing, or when a
    later round is published or played (its pairing was drawn from the old winner: withdraw
    it first). Only the chief referee, on an event with PINs (the store's ``desk.run``,
    checked in the write's transaction).
    """
    from ..core.knockout import undecided

    loaded = load_event(store, event_id)
    ev_id = loaded.ev.id
    if how not in ("lots", "decision"):
        raise InputError(
            f"--how: expected lots or decision, got {how!r}", code="desk.how", field="how", got=how
        )
    if not reason.strip():
        raise InputError(
            "--reason: a deciding result needs the chief referee's reason",
            code="desk.reason_missing",
            field="reason",
        )
    if not correct:
        # a Swiss round's tie awaits a decision only where the rulebook leaves it to lots or
        # the referee (round.tie); its other ties are draws
        awaiting = {
            frozenset((m.ns, m.ew)) for m in loaded.record.results if m.round == round_no and m.awaits
        }
        ties = [
            u
            for u in undecided(loaded.record, round_no)
            if winner in (u.ns, u.ew) and (loaded.knockout or frozenset((u.ns, u.ew)) in awaiting)
        ]
        if not ties:
            raise InputError(
                f"--winner: pair {winner} has no undecided tied match in round {round_no}",
                code="desk.no_tie",
                field="winner",
                pair=winner,
                round=round_no,
            )
        t = ties[0]
        loser = t.ew if winner == t.ns else t.ns
        body = {"winner": winner, "loser": loser, "how": how, "reason": reason.strip()}
        return store.add_desk_record(ev_id, "decider", round_no, body, actor=actor)
    old = next(
        (d for d in loaded.record.deciders if d.round == round_no and winner in (d.winner, d.loser)), None
    )
    tied = [
        m
        for m in loaded.record.results
        if m.round == round_no and winner in (m.ns, m.ew) and m.winner is None
    ]
    if old is None or not tied:
        raise InputError(
            f"--winner: pair {winner} has no decided tied match in round {round_no} to correct",
            code="desk.no_decider",
            field="winner",
            pair=winner,
            round=round_no,
        )
    if (old.winner, old.how) == (winner, how):
        raise InputError(
            f"--winner: round {round_no}'s tie was decided for pair {winner} that way already: "
            "nothing to correct",
            code="desk.decider_same",
            field="winner",
            pair=winner,
            round=round_no,
        )
    later = sorted(
        {m.round for m in loaded.record.results if m.round > round_no}
        | {r for r in loaded.published if r > round_no}
    )
    if later:
        raise InputError(
            f"round {later[0]} is published or played already, drawn from pair {old.winner} going on: "
            f"withdraw its pairing first (pairing unpublish), then correct the decision",
            code="desk.decider_later_round",
            round=later[0],
            pair=old.winner,
        )
    loser = old.loser if winner == old.winner else old.winner
    fixed: dict[str, Any] = {
        "winner": winner,
        "loser": loser,
        "how": how,
        "reason": reason.strip(),
        "corrects": {"winner": old.winner, "how": old.how, "reason": old.reason},
    }
    return store.add_desk_record(ev_id, "decider_correction", round_no, fixed, actor=actor)


@dataclass(frozen=True)
class Withdrawal:
    """A pair's withdrawal (退赛) as stored, and where the pair was seated in the round's
    published pairing (``table`` and ``opponent``, or ``bye``): the desk warns of it."""

    pair: str
    from_round: int
    record: dict[str, Any]
    table: int | None = None
    opponent: str | None = None
    bye: bool = False

    @property
    def seated(self) -> bool:
        return self.table is not None or self.bye

    def warning(self) -> tuple[str, dict[str, Any]] | None:
        """The catalogue code and values of the warning, or None when the pair was not seated."""
        if self.table is not None:
            values = {
                "pair": self.pair,
                "round": self.from_round,
                "table": self.table,
                "opponent": self.opponent,
            }
            return "desk.withdrawn_seated", values
        if self.bye:
            return "desk.withdrawn_bye", {"pair": self.pair, "round": self.from_round}
        return None


def withdraw_pair(
    store: Any, event_id: int | None, pair: str, from_round: int, *, reason: str, actor: Any
) -> Withdrawal:
    """A pair withdraws from round ``from_round`` on (a ``withdraw`` desk record with its
    reason; the chief referee's on an event with PINs). Its earlier matches stand. When
    round ``from_round`` is published with the pair seated, the result says where: the
    opponent's table then has no one to play and does not keep the round unfinished."""
    loaded = load_event(store, event_id)
    if pair not in loaded.record.pairs:
        raise InputError(
            f"--pair: no pair {pair} in event {loaded.ev.id} ({loaded.ev.name})",
            code="desk.no_pair",
            field="pair",
            pair=pair,
            event=loaded.ev.id,
            name=loaded.ev.name,
        )
    if loaded.record.withdrawn(pair, from_round):
        raise InputError(
            f"--pair: pair {pair} is already withdrawn in round {from_round}",
            code="desk.already_withdrawn",
            field="pair",
            pair=pair,
            round=from_round,
        )
    rec = store.add_desk_record(
        loaded.ev.id, "withdraw", from_round, {"pair": pair, "reason": reason}, actor=actor
    )
    published = loaded.published.get(from_round)
    if published is None:
        return Withdrawal(pair, from_round, rec)
    body = published["body"]
    for t, ns, ew in body.get("tables", []):
        if pair in (str(ns), str(ew)):
            return Withdrawal(pair, from_round, rec, int(t), str(ew) if str(ns) == pair else str(ns))
    return Withdrawal(pair, from_round, rec, bye=str(body.get("bye")) == pair)


# -- pair check: every published round against the criteria ----------------------------------------
@dataclass(frozen=True)
class RoundCheck:
    """One published round checked: ``problems`` as catalogue codes and values (empty: the
    published pairing is what the criteria give and breaks no hard rule)."""

    round: int
    version: int
    method: str
    problems: tuple[tuple[str, dict[str, Any]], ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


def check_published(store: Any, event_id: int | None) -> list[RoundCheck]:
    """Re-derive every published round (its latest version, not withdrawn) from the stored
    results before it and compare: a hard rule broken (a pair twice, a pair outside the
    field or left out, a rematch, a second bye) or tables other than the criteria give (a
    drawn round: the draw its seed or hall draw gives; a pairing entered by hand for a drawn
    round without either is checked against the hard rules only). Read only."""
    ev = store.pick_event(event_id)
    out: list[RoundCheck] = []
    everything = load_event(store, ev.id)
    for rnd in sorted(everything.published):
        loaded = load_event(store, ev.id, before_round=rnd)
        rec = everything.published[rnd]
        body = rec["body"]
        pairing = _pairing_of(rnd, body)
        problems: list[tuple[str, dict[str, Any]]] = []
        errors, warnings = check_pairing(loaded.record, pairing, knockout=loaded.knockout)
        for line in errors + warnings:
            problems.append(("desk.check_rule", {"round": rnd, "problem": line}))
        drawn_round = is_drawn(loaded, rnd)
        drawn = body.get("drawn")
        if drawn_round and drawn is None and body.get("seed") is None:
            out.append(RoundCheck(rnd, int(rec["version"]), pairing.method, tuple(problems)))
            continue
        seed = int(body.get("seed") if body.get("seed") is not None else ev.id)
        try:
            again = pair_round(
                loaded.rulebook,
                loaded.record,
                rnd,
                seed=seed,
                knockout=loaded.knockout,
                drawn=list(drawn) if drawn_round and drawn is not None else None,
            )
        except PairingError as err:
            problems.append(("desk.check_unpairable", {"round": rnd, "problem": str(err)}))
            out.append(RoundCheck(rnd, int(rec["version"]), pairing.method, tuple(problems)))
            continue
        if _same_tables(pairing, again):
            out.append(RoundCheck(rnd, int(rec["version"]), pairing.method, tuple(problems)))
            continue
        values: dict[str, Any] = {"round": rnd, **_first_difference(pairing, again)}
        if not drawn_round:
            f = swiss_field(
                loaded.rulebook,
                loaded.record,
                rnd,
                [p for t in again.tables for p in (t.ns, t.ew)] + ([again.bye] if again.bye else []),
                seed,
            )
            rest_p = [p for p in f.order if p != pairing.bye]
            rest_a = [p for p in f.order if p != again.bye]
            mine = [(t.ns, t.ew) for t in pairing.tables]
            ok_pairs = set(rest_p) >= {p for t in mine for p in t}
            values["gap"] = pairing_cost(mine, rest_p, f.points, f.due)[0] if ok_pairs else "—"
            values["best"] = pairing_cost([(t.ns, t.ew) for t in again.tables], rest_a, f.points, f.due)[0]
            problems.append(("desk.check_differs_gap", values))
        else:
            problems.append(("desk.check_differs", values))
        out.append(RoundCheck(rnd, int(rec["version"]), pairing.method, tuple(problems)))
    return out


def _same_tables(a: Pairing, b: Pairing) -> bool:
    return a.bye == b.bye and [(t.table, t.ns, t.ew) for t in a.tables] == [
        (t.table, t.ns, t.ew) for t in b.tables
    ]


def _first_difference(published: Pairing, derived: Pairing) -> dict[str, Any]:
    """The first table where the two differ: its number and each one's pairs there
    (``"5–8"``); when only the bye differs, table ``"—"`` and the byes."""
    theirs = {t.table: t for t in derived.tables}
    for t in published.tables:
        d = theirs.get(t.table)
        if d is None or (d.ns, d.ew) != (t.ns, t.ew):
            return {"table": t.table, "pub": f"{t.ns}–{t.ew}", "der": "—" if d is None else f"{d.ns}–{d.ew}"}
    if len(derived.tables) > len(published.tables):
        d = derived.tables[len(published.tables)]
        return {"table": d.table, "pub": "—", "der": f"{d.ns}–{d.ew}"}
    return {"table": "—", "pub": published.bye or "—", "der": derived.bye or "—"}


__all__ = [
    "STATUSES",
    "RoundCheck",
    "RoundPairing",
    "Withdrawal",
    "check_published",
    "decide_tie",
    "unpublish_round",
    "withdraw_pair",
    "change_proposal",
    "is_drawn",
    "pairing_sheet",
    "publish_round",
    "published_round",
    "refuse_unfinished",
    "round_pairing",
]
