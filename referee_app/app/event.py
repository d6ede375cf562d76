"""The event as the desk and the window read it from the store: the core's record of
results, byes and sanctions, the published pairings and the round clock. One place for the
command line and the window (the application layer)."""

from __future__ import annotations

from typing import Any


class Loaded:
    """An event as the desk sees it: rulebook, pairs, the core's record, warnings, the
    tables still without a result (round -> table numbers) and the published pairings
    (round -> the latest version's record)."""

    def __init__(
        self,
        ev: Any,
        rulebook: Any,
        pairs: list[dict[str, Any]],
        record: Any,
        notes: list[tuple[str, dict[str, Any]]],
        pending: dict[int, list[int]] | None = None,
        published: dict[int, dict[str, Any]] | None = None,
        knockout: bool = False,
    ):
        self.ev = ev
        self.rulebook = rulebook
        self.pairs = pairs
        self.record = record
        self.notes = notes
        self.pending = pending or {}
        self.published = published or {}
        self.knockout = knockout

    def worded_notes(self, lang: str) -> list[str]:
        """The notes on the event's record (tables without a result, pairs without a match)
        in ``lang``: kept as catalogue codes and values, worded where they are shown."""
        from .messages import message

        return [message(code, lang, **values) for code, values in self.notes]


def is_knockout(rulebook: Any) -> bool:
    return bool(rulebook.data["standings"].get("format") == "knockout")


def load_event(
    store: Any, event_id: int | None, before_round: int | None = None, knockout: bool | None = None
) -> Loaded:
    """The event's record from the store; with ``before_round``, only the rounds before it.

    Byes: a round's published pairing names its bye. A round without one: when exactly one
    pair of the round's field (a knockout: the previous round's winners and bye) has no
    match and the field is odd, that pair had the bye; any other pair of the field without
    a match scores nothing (named in the notes). Late entries, withdrawals and knockout
    deciders come from the store's desk records."""
    from referee_app.core.pairing import expected_pairs
    from referee_app.core.standings import (
        Bye,
        Decider,
        Disqualification,
        Entry,
        EventRecord,
        MatchResult,
        Suspension,
        Withdrawal,
    )

    ev = store.pick_event(event_id)
    rb = store.pinned_rulebook(ev.id)
    ko = is_knockout(rb) if knockout is None else knockout
    pair_rows = store.list_pairs(ev.id)
    numbers = tuple(str(p["number"]) for p in pair_rows)
    notes: list[tuple[str, dict[str, Any]]] = []
    results: list[MatchResult] = []
    dqs: list[Disqualification] = []
    susp: list[Suspension] = []
    seated: dict[int, set[str]] = {}
    pending: dict[int, list[int]] = {}
    # each match's result; the whole decision only where it has rulings (sanctions)
    for m in store.current_results(ev.id, before_round):
        rnd = int(m["round_no"])
        ns, ew = str(m["ns_number"]), str(m["ew_number"])
        seated.setdefault(rnd, set()).update((ns, ew))
        decision = m["decision"] or {}
        side_pair = {"NS": ns, "EW": ew}
        rulings = list(decision.get("before_play") or [])
        for hand in decision.get("hands") or []:
            rulings += hand.get("rulings") or []
        for r in rulings:
            if r.get("voided") or r.get("side") not in side_pair:
                continue
            if r.get("disqualified"):
                dqs.append(Disqualification(side_pair[r["side"]], rnd))
            n = int(r.get("suspension_rounds") or 0)
            if n > 0:
                susp.append(Suspension(side_pair[r["side"]], rnd + 1, n))
        result = m["result"]
        if result is None:
            notes.append(("desk.no_result_yet", {"round": rnd, "table": m["table_no"], "ns": ns, "ew": ew}))
            pending.setdefault(rnd, []).append(int(m["table_no"]))
            continue
        results.append(MatchResult.from_result(rnd, ns, ew, result, int(m["table_no"])))

    entries = tuple(Entry(p, r) for p, r in sorted(store.pair_entry_rounds(ev.id).items()))
    withdrawals: list[Withdrawal] = []
    deciders: dict[tuple[int, frozenset[str]], Decider] = {}
    published: dict[int, dict[str, Any]] = {}
    for d in store.desk_records(ev.id):
        body, kind, rnd = d["body"], d["kind"], d["round_no"]
        if kind == "withdraw":
            withdrawals.append(Withdrawal(str(body["pair"]), int(rnd)))
        elif kind == "readmit":
            pair = str(body["pair"])
            for i in range(len(withdrawals) - 1, -1, -1):
                w = withdrawals[i]
                if w.pair == pair and w.back_from is None:
                    withdrawals[i] = Withdrawal(pair, w.first_round, int(rnd))
                    break
        elif kind in ("decider", "decider_correction"):  # a correction replaces the decision
            key = (int(rnd), frozenset((str(body["winner"]), str(body["loser"]))))
            deciders[key] = Decider(
                int(rnd),
                str(body["winner"]),
                str(body["loser"]),
                body["how"],
                body["reason"],
                kind == "decider_correction",
            )
        elif kind == "pairing" and (before_round is None or int(rnd) < before_round):
            published[int(rnd)] = d
        elif kind == "unpublish":  # withdrawn before play: the round has no published pairing
            published.pop(int(rnd), None)

    def make(byes: list[Bye]) -> EventRecord:
        return EventRecord(
            numbers,
            tuple(results),
            tuple(byes),
            tuple(susp),
            tuple(dqs),
            entries,
            tuple(withdrawals),
            tuple(deciders.values()),
        )

    byes: list[Bye] = []
    for rnd in sorted(set(seated) | set(published)):
        if rnd in published:
            bye = published[rnd]["body"].get("bye")
            if bye is not None:
                byes.append(Bye(rnd, str(bye)))
            continue
        should = expected_pairs(make(byes), rnd, knockout=ko)
        absent = [p for p in should if p not in seated.get(rnd, set())]
        if len(absent) == 1 and len(should) % 2 == 1:
            byes.append(Bye(rnd, absent[0]))
        elif absent:
            notes.append(("desk.absent_pairs", {"round": rnd, "pairs": ", ".join(absent), "n": len(absent)}))
    return Loaded(ev, rb, pair_rows, make(byes), notes, pending, published, ko)


def live_pairing_records(store: Any, event_id: int, round_no: int) -> list[dict[str, Any]]:
    """Round ``round_no``'s published pairing records (every version, in order) while the
    latest is published: empty when there is none, or when it was withdrawn before play
    (an ``unpublish`` desk record after the latest version)."""
    recs = store.desk_records(event_id, "pairing", round_no)
    withdrawn = store.desk_records(event_id, "unpublish", round_no)
    if recs and withdrawn and int(withdrawn[-1]["id"]) > int(recs[-1]["id"]):
        return []
    return list(recs)


def published_rounds(store: Any, event_id: int) -> set[int]:
    """The rounds that have a published pairing now (not withdrawn)."""
    latest: dict[int, str] = {}
    for d in store.desk_records(event_id):
        if d["kind"] in ("pairing", "unpublish") and d["round_no"] is not None:
            latest[int(d["round_no"])] = d["kind"]
    return {rnd for rnd, kind in latest.items() if kind == "pairing"}


def published_pairing(store: Any, event_id: int, round_no: int, version: int | None = None) -> Any:
    """The round's published pairing (the latest version, or ``version``) as a core
    :class:`~referee_app.core.pairing.Pairing` and its record; NotFoundError if none (or
    the latest was withdrawn before play: ``desk.pairing_withdrawn``)."""
    from referee_app.core.pairing import Pairing, Table
    from referee_app.store.errors import NotFoundError

    recs = store.desk_records(event_id, "pairing", round_no)
    if version is not None:
        recs = [r for r in recs if r["version"] == version]
    elif recs and not live_pairing_records(store, event_id, round_no):
        raise NotFoundError(
            f"round {round_no}: the published pairing (version {recs[-1]['version']}) was withdrawn",
            code="desk.pairing_withdrawn",
            round=round_no,
            version=int(recs[-1]["version"]),
        )
    if not recs:
        raise NotFoundError(
            f"round {round_no}: no published pairing" + (f" version {version}" if version else ""),
            code="desk.no_pairing",
            round=round_no,
        )
    rec = recs[-1]
    b = rec["body"]
    tables = [Table(int(t), str(ns), str(ew)) for t, ns, ew in b["tables"]]
    return Pairing(round_no, b["method"], b.get("seed"), tables, b.get("bye")), rec


def clock_acts(store: Any, event_id: int, round_no: int) -> list[Any]:
    from datetime import datetime

    from referee_app.core.clock import ClockAct

    return [
        ClockAct(
            r["body"]["action"],
            datetime.fromisoformat(r["at"]),
            int(r["body"].get("minutes") or 0),
            str(r["body"].get("reason") or ""),
        )
        for r in store.desk_records(event_id, "clock", round_no)
    ]


def record_clock_act(
    store: Any, event_id: int, round_no: int, action: str, actor: Any, minutes: int = 0, reason: str = ""
) -> Any:
    """One act on the hall's round clock (start, pause, resume, extend, adjust), checked
    against the clock's state (``core.clock.check_act``: an extension or adjustment needs its
    reason) and kept as a desk record, the chief referee's (``desk.run``), with its audit
    entry; returns the clock's state after it. The window and ``referee-app clock`` both act
    here, so both refuse the same."""
    from referee_app.core.clock import ClockAct, ClockError, check_act, clock_state

    from ..core.inputs import check_round
    from .errors import InputError

    check_round(round_no, error=InputError)  # a clock of round -1 was kept
    round_minutes = int(store.pinned_rulebook(event_id).data["round"]["minutes"])
    acts = clock_acts(store, event_id, round_no)
    now = store.clock_now()  # the server's on PostgreSQL: a station's wrong clock moves no round
    act = ClockAct(action, now, minutes, reason.strip())
    try:
        check_act(round_minutes, acts, act)
    except ClockError as err:
        raise InputError(str(err), code=err.code, field=err.field, **err.values) from None
    body: dict[str, Any] = {"action": action}
    if minutes:
        body["minutes"] = minutes
    if act.reason:
        body["reason"] = act.reason
    store.add_desk_record(event_id, "clock", round_no, body, actor=actor, at=now.isoformat())
    return clock_state(round_minutes, [*acts, act], now)


def round_unfinished(loaded: Loaded, round_no: int) -> list[str]:
    """What keeps round ``round_no`` from being complete, one language-free gap each (kept
    as data in the audit log; :func:`referee_app.app.messages.word_gap` words one):
    ``missing <pair>``, ``undecided <ns> <ew>`` (a knockout's tie, or any round's tie on
    time the rulebook leaves to lots or to the chief referee, ``round.tie``, while no decision
    is recorded: pairing the next round on its 0:0 would seat pairs by points the decision
    then changes) and ``no_result <table>`` (a table recorded without a result).

    A pair whose opponent in the round's published pairing withdrew from that round (退赛
    after the pairing was published) is not missing: its table has no opponent to play, and
    the next round can be paired (the withdrawal warned of it)."""
    from ..core.pairing import round_gaps

    if round_no < 1:
        return []
    gaps = round_gaps(loaded.record, round_no, knockout=loaded.knockout)
    opponents = seated_opponents(loaded, round_no)
    gaps = [
        g
        for g in gaps
        if not (
            g.startswith("missing ")
            and loaded.record.withdrawn(opponents.get(g.removeprefix("missing "), ""), round_no)
        )
    ]
    record = loaded.record
    decided = {frozenset((d.winner, d.loser)) for d in record.deciders if d.round == round_no}
    for m in record.results:
        if m.round == round_no and m.awaits and frozenset((m.ns, m.ew)) not in decided:
            gap = f"undecided {m.ns} {m.ew}"
            if gap not in gaps:
                gaps.append(gap)
    gaps += [f"no_result {t}" for t in loaded.pending.get(round_no, [])]
    return gaps


def seated_opponents(loaded: Loaded, round_no: int) -> dict[str, str]:
    """Each pair's opponent in round ``round_no``'s published pairing (empty if none)."""
    rec = loaded.published.get(round_no)
    out: dict[str, str] = {}
    for _t, ns, ew in (rec or {}).get("body", {}).get("tables", []):
        out[str(ns)], out[str(ew)] = str(ew), str(ns)
    return out


def set_event_details(
    store: Any,
    event_id: int | None,
    actor: Any,
    *,
    organiser: str | None = None,
    venue: str | None = None,
    chief_referee: str | None = None,
) -> dict[str, str]:
    """Record the event's organiser (主办单位), venue (比赛地点) and chief referee (裁判长)
    for its paper: the fields given replace the recorded ones ("" clears one), the others
    are kept. One desk record and its audit entry, the chief referee's (``desk.run``);
    returns the event's details as they now are."""
    from ..store.errors import InputError

    ev = store.pick_event(event_id)
    details = store.event_details(ev.id)
    given = {"organiser": organiser, "venue": venue, "chief_referee": chief_referee}
    for key, value in given.items():
        if value is None:
            continue
        value = " ".join(value.split())
        if len(value) > 100:
            raise InputError(
                f"--{key.replace('_', '-')}: at most 100 characters, got {len(value)}",
                code="event.detail_too_long",
                field=key,
                n=len(value),
            )
        details[key] = value
    store.add_desk_record(ev.id, "details", None, details, actor=actor)
    return details


class KnockoutRanking:
    """A knockout's one official ranking (名次), the bracket's and the standings' alike:
    ``rows`` best first (``core.knockout.placings``), the rulebook's placing rule, the
    prizes' names by language, and the prizes more pairs earn than the rulebook gives."""

    def __init__(self, loaded: Loaded, seed: int | None = None) -> None:
        from ..core.knockout import placings, prize_overflow

        self.rule = loaded.rulebook.data["standings"].get("placings")
        self.rows = placings(loaded.record, self.rule, seed=loaded.ev.id if seed is None else seed)
        self.prizes = [dict(p["name"]) for p in (self.rule or {}).get("prizes", [])]
        self.overflow = prize_overflow(self.rows, self.rule)

    def prize_name(self, row: dict[str, Any], lang: str) -> str:
        n = row.get("prize")
        return "" if n is None else str(self.prizes[n].get(lang) or self.prizes[n].get("zh", ""))

    def warnings(self, lang: str) -> list[str]:
        """One line for each prize more pairs earn than the rulebook's count (shared places)."""
        from .messages import message

        return [
            message(
                "desk.prize_overflow",
                lang,
                prize=str(self.prizes[o["prize"]].get(lang) or self.prizes[o["prize"]].get("zh", "")),
                count=o["count"],
                pairs=o["pairs"],
            )
            for o in self.overflow
        ]
