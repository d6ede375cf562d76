"""The print-outs the window and the command line share: the scoresheet data built from the
store (one builder), the appeal form and ruling slip data, the standings, pairing and
bracket sheets' data, the rendered PDFs, and signing.

Importing this module loads no reportlab: the data and the builders are plain Python, the
signing module imports pyHanko and cryptography inside its functions, and each ``render_*``
here imports the renderer when it is called (the window opens and ``judge`` runs without
the PDF code; the first print-out pays for it)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..printing.build import (
    appeal_form_data,
    blank_appeal_form,
    blank_table_sheets,
    chain_entry_hash,
    chief_referee_name,
    event_identities,
    store_scoresheets,
    stored_digest,
    stored_ruling_slip,
)
from ..printing.data import (
    AppealFormData,
    RulingSlipData,
    ScoresheetData,
    SignatureStamp,
    applied_clause,
    blank_sheet,
    parse_paper_code,
    scoresheet_from_case,
)
from ..printing.forms import FormTemplate
from ..printing.qr import qr_modules
from ..printing.sheets import BracketSheet, PairingSheet, PrizeList, ResultsGrid, StandingsSheet, Target
from ..printing.signing import make_event_identity, sign_pdf, verify_pdf

__all__ = [
    "AppealFormData",
    "BracketSheet",
    "PairingSheet",
    "PrizeList",
    "ResultsGrid",
    "RulingSlipData",
    "ScoresheetData",
    "SignatureStamp",
    "StandingsSheet",
    "Target",
    "appeal_form_data",
    "blank_appeal_form",
    "applied_clause",
    "blank_sheet",
    "bracket_sheet",
    "published_blank_sheets",
    "chain_entry_hash",
    "chief_referee_name",
    "event_identities",
    "make_event_identity",
    "parse_paper_code",
    "qr_modules",
    "render_appeal",
    "render_bracket",
    "render_pairing_by_name",
    "render_results_grid",
    "render_table_cards",
    "results_grid",
    "render_pairing",
    "render_prize_list",
    "prize_list",
    "render_round",
    "render_ruling",
    "render_scoresheet",
    "render_standings",
    "scoresheet_from_case",
    "sign_pdf",
    "store_scoresheets",
    "stored_digest",
    "stamp_bracket",
    "stamp_standings",
    "stored_ruling_slip",
    "verify_pdf",
]


def published_blank_sheets(
    store: Any, event_id: int | None, round_no: int, table_no: int | None, hands: int, lang: str
) -> tuple[Any, list[ScoresheetData]]:
    """Blank scoresheets for every table of round ``round_no``'s published pairing (or
    table ``table_no``), to record its hands by hand before any result is in. NotFoundError
    when the round has no published pairing; an empty list when it has no such table."""
    from .event import published_pairing

    ev = store.pick_event(event_id)
    pairing, _record = published_pairing(store, ev.id, round_no)
    tables = [(t.table, t.ns, t.ew) for t in pairing.tables if table_no is None or t.table == table_no]
    return blank_table_sheets(store, ev.id, round_no, tables, hands, lang)


def stamp_standings(store: Any, event_id: int, sheet: StandingsSheet) -> StandingsSheet:
    """``sheet`` with its QR and digest (名次表的二维码与摘要): the standings after its round,
    each pair's rank and match points, the seed of its lots, naming the event by its stable
    identity as a scoresheet does (``verify-paper`` recomputes and compares them)."""
    from ..printing.build import paper_stamp
    from ..printing.data import standings_digest

    sheet.paper = paper_stamp(
        store,
        event_id,
        "L",
        lambda identity: standings_digest(sheet.round, sheet.seed, sheet.rows, identity),
        sheet.round,
        number=sheet.seed,
    )
    return sheet


def stamp_bracket(store: Any, loaded: Any, sheet: BracketSheet, seed: int | None = None) -> BracketSheet:
    """A knockout's printed ranking (its standings: the bracket) with its QR and digest,
    the standings' kind (``L``): the places after the last round, the seed of the lots,
    naming the event by its stable identity (``verify-paper`` ranks again and compares)."""
    from ..printing.build import paper_stamp
    from ..printing.data import standings_digest

    seed = loaded.ev.id if seed is None else seed
    last = loaded.record.last_round()
    rows = list(sheet.placings)
    sheet.paper = paper_stamp(
        store,
        loaded.ev.id,
        "L",
        lambda identity: standings_digest(last, seed, rows, identity),
        last,
        number=seed,
    )
    return sheet


def prize_list(
    loaded: Any, through_round: int | None = None, seed: int | None = None, lang: str = "zh"
) -> PrizeList:
    """The prize list (获奖名单) of an event as ``app.event.load_event`` read it, from its
    rulebook's prize counts: a Swiss event's ``standings.prizes`` down the standings after
    ``through_round`` (default: the last), a knockout's ``standings.placings.prizes`` down its
    one official ranking; with a warning (in ``lang``; the sheet's is Chinese) wherever shared
    places exceed a prize's count or the lots alone decided a prize's last place.
    InputError (``desk.no_prizes``) when the rulebook states no prizes."""
    from ..core.prizes import decided_by_lots, overflow, prize_of, tied_groups
    from ..core.standings import compute_standings
    from .errors import InputError
    from .event import KnockoutRanking
    from .messages import message

    standings = loaded.rulebook.data["standings"]
    rule = standings.get("placings") if loaded.knockout else None
    prizes = (
        list((rule or {}).get("prizes") or []) if loaded.knockout else list(standings.get("prizes") or [])
    )
    clause = ((rule or {}).get("clause") if loaded.knockout else standings.get("prizes_clause")) or {}
    if not prizes:
        raise InputError(
            f"rulebook {loaded.rulebook.id}: it states no prizes (standings.prizes)",
            code="desk.no_prizes",
            rulebook=loaded.rulebook.id,
        )
    names = [str(p["name"].get(lang) or p["name"].get("zh", "")) for p in prizes]
    seed = loaded.ev.id if seed is None else seed
    lots: list[dict[str, Any]] = []
    if loaded.knockout:
        ranking = KnockoutRanking(loaded, seed)
        rows = [{"rank": r["rank"], "pair": r["pair"], "prize": r["prize"]} for r in ranking.rows]
        warnings = ranking.warnings(lang)
        last = loaded.record.last_round()
    else:
        table = compute_standings(loaded.rulebook, loaded.record, through_round=through_round, seed=seed)
        rows = [
            {"rank": r.get("rank"), "pair": str(r["pair"]), "prize": prize_of(r.get("rank"), prizes)}
            for r in table.rows
        ]
        lots = decided_by_lots(table.rows, tied_groups(table.rows, table.tie_breaks), prizes)
        warnings = [
            message("desk.prize_overflow", lang, prize=names[o["prize"]], count=o["count"], pairs=o["pairs"])
            for o in overflow(rows, prizes)
        ]
        sep = "、" if lang == "zh" else ", "
        warnings += [
            message(
                "desk.prize_by_lots", lang, prize=names[g["prize"]], pairs=sep.join(g["pairs"]),
                first=g["first"], last=g["last"], seed=seed,
            )
            for g in lots
        ]  # fmt: skip
        last = table.round
    return PrizeList(
        event_name=loaded.ev.name,
        rulebook_id=loaded.rulebook.id,
        round=last,
        seed=seed,
        prizes=names,
        prizes_en=[str(p["name"].get("en", "")) for p in prizes],
        rows=[r for r in rows if r["prize"] is not None],
        warnings=warnings,
        players={str(p["number"]): list(p["players"]) for p in loaded.pairs},
        units={str(p["number"]): p["unit"] for p in loaded.pairs if p.get("unit")},
        clause_ref=" ".join(x for x in (clause.get("ref", ""), clause.get("title", "")) if x),
        clause_zh=str(clause.get("zh", "")),
        assumed_note=str(clause.get("note", "")) if clause.get("assumed") else "",
        by_lots=[p for g in lots for p in g["pairs"]],
    )


def render_prize_list(sheet: PrizeList, target: Target) -> None:
    """The prize list (获奖名单)."""
    from ..printing.standings import render_prize_list as render

    render(sheet, target)


def results_grid(loaded: Any, through_round: int | None = None) -> ResultsGrid:
    """The results grid (成绩册) of an event as ``app.event.load_event`` read it: every
    pair's opponent and result in each round through ``through_round`` (default: the last
    with a result), its match points and rank as the standings give them."""
    from ..core.standings import compute_standings, natural_key

    record = loaded.record
    table = compute_standings(loaded.rulebook, record, through_round=through_round, seed=loaded.ev.id)
    last = table.round
    cells: dict[str, dict[int, dict[str, Any]]] = {str(p): {} for p in record.pairs}
    for m in record.results:
        if m.round > last:
            continue
        for side, pair, opponent, points in (
            ("NS", m.ns, m.ew, m.ns_points),
            ("EW", m.ew, m.ns, m.ew_points),
        ):
            if m.forfeit in (side, "both"):
                outcome = "forfeit_lost"
            elif m.forfeit is not None:
                outcome = "forfeit_won"
            elif m.winner is None:
                outcome = "draw"
            else:
                outcome = "win" if m.winner == side else "loss"
            cells.setdefault(pair, {})[m.round] = {
                "opponent": opponent, "side": side, "points": points, "outcome": outcome,
            }  # fmt: skip
    win = int(loaded.rulebook.data["match_points"]["win"])  # a bye counts as a win (core.standings)
    for b in record.byes:
        if b.round <= last:
            cells.setdefault(b.pair, {})[b.round] = {
                "opponent": None,
                "side": "bye",
                "points": win,
                "outcome": "bye",
            }
    withdrawn = {w.pair: w.first_round for w in record.withdrawals if w.back_from is None}
    return ResultsGrid(
        event_name=loaded.ev.name,
        rulebook_id=loaded.rulebook.id,
        rounds=last,
        pairs=sorted(cells, key=natural_key),
        cells=cells,
        totals={str(r["pair"]): int(r["match_points"]) for r in table.rows},
        ranks={str(r["pair"]): int(r["rank"]) for r in table.rows if r.get("rank") is not None},
        players={str(p["number"]): list(p["players"]) for p in loaded.pairs},
        units={str(p["number"]): p["unit"] for p in loaded.pairs if p.get("unit")},
        withdrawn=withdrawn,
    )


def bracket_sheet(loaded: Any, seed: int | None = None) -> BracketSheet:
    """A knockout's bracket sheet: its rounds' matches by table (a tie says how
    it was decided: lots or the chief referee), its byes, and its one official ranking
    (``app.event.KnockoutRanking``) with prizes and the prize-count warnings (in Chinese,
    the sheet's language)."""
    from ..core.knockout import decided_how, winner_of
    from ..core.standings import natural_key
    from .event import KnockoutRanking

    rec = loaded.record
    ranking = KnockoutRanking(loaded, seed)
    rounds: dict[int, list[dict[str, Any]]] = {}

    def by_table(m: Any) -> tuple[Any, ...]:  # by table as the hall seats them; else by pair
        return (m.round, m.table is None, m.table or 0, natural_key(m.ns))

    for m in sorted(rec.results, key=by_table):
        match: dict[str, Any] = {"NS": m.ns, "EW": m.ew, "winner": winner_of(rec, m), "table": m.table}
        how = decided_how(rec, m)
        if how is not None:
            match["decided"] = how
            match["corrected"] = any(
                d.corrected
                for d in rec.deciders
                if d.round == m.round and {d.winner, d.loser} == {m.ns, m.ew}
            )
        rounds.setdefault(m.round, []).append(match)
    for b in rec.byes:
        rounds.setdefault(b.round, []).append({"bye": b.pair})
    return BracketSheet(
        event_name=loaded.ev.name,
        rulebook_id=loaded.rulebook.id,
        rounds=rounds,
        placings=ranking.rows,
        players={str(p["number"]): list(p["players"]) for p in loaded.pairs},
        prizes=[ranking.prize_name(r, "zh") for r in ranking.rows],
        warnings=ranking.warnings("zh"),
        withdrawn=[w.pair for w in rec.withdrawals if w.back_from is None],
    )


def render_scoresheet(data: ScoresheetData, target: Target, form: FormTemplate | None = None) -> None:
    """One table's scoresheet as a PDF written to ``target`` (a path or a binary file)."""
    from ..printing.render import render_scoresheet as render

    render(data, target, form)


def render_round(
    sheets: Sequence[ScoresheetData],
    target: Target,
    form: FormTemplate | None = None,
    progress: Callable[[int], None] | None = None,
) -> None:
    """A round's scoresheets in one PDF; ``progress(n)`` as the n-th is laid out."""
    from ..printing.render import render_round as render

    render(sheets, target, form, progress)


def render_ruling(data: RulingSlipData, target: Target, form: FormTemplate | None = None) -> None:
    """One ruling slip (判罚单), A5."""
    from ..printing.render import render_ruling as render

    render(data, target, form)


def render_appeal(data: AppealFormData, target: Target, form: FormTemplate | None = None) -> None:
    """The appeal form (申诉表), pre-filled from the ruling."""
    from ..printing.render import render_appeal as render

    render(data, target, form)


def render_standings(sheet: StandingsSheet, target: Target) -> None:
    """The standings sheet (名次表)."""
    from ..printing.standings import render_standings as render

    render(sheet, target)


def render_pairing(sheet: PairingSheet, target: Target) -> None:
    """A round's pairing list (对阵表)."""
    from ..printing.standings import render_pairing as render

    render(sheet, target)


def render_pairing_by_name(sheet: PairingSheet, target: Target) -> None:
    from ..printing.standings import render_pairing_by_name as render

    render(sheet, target)


def render_table_cards(sheet: PairingSheet, target: Target) -> None:
    from ..printing.standings import render_table_cards as render

    render(sheet, target)


def render_results_grid(sheet: ResultsGrid, target: Target) -> None:
    from ..printing.standings import render_results_grid as render

    render(sheet, target)


def render_bracket(sheet: BracketSheet, target: Target) -> None:
    """The knockout bracket (淘汰赛对阵与名次)."""
    from ..printing.standings import render_bracket as render

    render(sheet, target)
