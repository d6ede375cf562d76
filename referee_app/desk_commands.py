"""The chief referee's desk on the command line: ``standings`` and ``pair``.

``register(subparsers)`` only builds the parsers; the store, the core and reportlab are
imported inside the handlers. A user error prints one line on standard error and exits 1.

Both commands read the event's current matches from the store and turn them into the
core's :class:`~referee_app.core.standings.EventRecord`:

* a match's result is its decision's ``result`` (winner, match points, level difference);
  a match without a result yet (a round in progress) is not counted and is named on
  standard error;
* a ruling (not voided) with ``disqualified`` disqualifies the offending pair in that
  round; one with ``suspension_rounds = n`` suspends it for the next n rounds;
* byes are not stored yet: in a round with results, when exactly one pair that should have
  played (not suspended, not disqualified before) has no match and the field is odd, that
  pair had the bye. Any other pair without a match scores nothing that round (named on
  standard error).

The seed of the lots is ``--seed`` or, by default, the event's id, so the same command
gives the same answer; it is printed with the result. Pairings go to standard output only:
publishing them into the store is a later step.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from referee_app.core.errors import one_line as _one_line

Handler = Callable[[argparse.Namespace], int]


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", choices=("zh", "en"), default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    p.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    p.add_argument(
        "--event", type=int, default=None, help="event id (default: the only event in the database)"
    )
    p.add_argument("--seed", type=int, default=None, help="seed of the lots (抽签); default: the event id")
    p.add_argument("--json", action="store_true", help="JSON on standard output")


def register(subparsers: Any) -> None:
    """Add ``standings`` and ``pair`` to ``referee-app``'s subparsers."""
    st = subparsers.add_parser("standings", help="the standings (名次) by the rulebook's tie-break order")
    st.add_argument("--round", type=int, default=None, help="after round R (default: the last round)")
    st.add_argument("--pdf", default=None, metavar="FILE", help="also write the printed standings sheet")
    _common(st)
    st.set_defaults(func=_guard(cmd_standings))

    pa = subparsers.add_parser(
        "pair", help="pair round R (积分编排, or a knockout draw) from the results before it"
    )
    pa.add_argument("--round", type=int, required=True, help="the round to pair")
    pa.add_argument(
        "--knockout",
        action="store_true",
        help="force a knockout draw (otherwise the rulebook's [standings] format decides)",
    )
    _common(pa)
    pa.set_defaults(func=_guard(cmd_pair))


def _guard(fn: Handler) -> Handler:
    """This layer's errors as one line and an exit code; anything unexpected is left to
    ``referee_app.cli.main``, which says it in one line too."""

    def run(args: argparse.Namespace) -> int:
        from referee_app.core.pairing import PairingError
        from referee_app.core.standings import StandingsError
        from referee_app.store.errors import StoreError

        try:
            return fn(args)
        except (StoreError, StandingsError, PairingError) as err:
            print(_one_line(str(err)), file=sys.stderr)
            return 1
        except BrokenPipeError:
            raise  # the reader went away: cli.main ends quietly
        except OSError as err:
            print(_one_line(f"{err.filename or 'referee-app'}: {err.strerror or err}"), file=sys.stderr)
            return 1

    run.__name__ = fn.__name__
    run.__doc__ = fn.__doc__
    return run


# -- reading the store ----------------------------------------------------------------------
class Loaded:
    """An event as the desk sees it: rulebook, pairs, the core's record, warnings."""

    def __init__(self, ev: Any, rulebook: Any, pairs: list[dict[str, Any]], record: Any, notes: list[str]):
        self.ev = ev
        self.rulebook = rulebook
        self.pairs = pairs
        self.record = record
        self.notes = notes


def load_event(store: Any, event_id: int | None, before_round: int | None = None) -> Loaded:
    """The event's record from the store; with ``before_round``, only the rounds before it."""
    from referee_app.core.standings import (
        Bye,
        Disqualification,
        EventRecord,
        MatchResult,
        Suspension,
    )

    ev = store.pick_event(event_id)
    rb = store.pinned_rulebook(ev.id)
    pair_rows = store.list_pairs(ev.id)
    numbers = tuple(str(p["number"]) for p in pair_rows)
    notes: list[str] = []
    results: list[MatchResult] = []
    dqs: list[Disqualification] = []
    susp: list[Suspension] = []
    seated: dict[int, set[str]] = {}
    for m in store.current_matches(ev.id):
        rnd = int(m["round_no"])
        if before_round is not None and rnd >= before_round:
            continue
        ns, ew = str(m["ns_number"]), str(m["ew_number"])
        seated.setdefault(rnd, set()).update((ns, ew))
        decision = json.loads(m["decision_json"])
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
        result = decision.get("result")
        if result is None:
            notes.append(f"round {rnd} table {m['table_no']} ({ns}–{ew}): no result yet, not counted")
            continue
        results.append(MatchResult.from_result(rnd, ns, ew, result))
    record = EventRecord(numbers, tuple(results), (), tuple(susp), tuple(dqs))
    byes: list[Bye] = []
    for rnd in sorted(seated):
        should = [
            p
            for p in numbers
            if not record.suspended(p, rnd) and not ((d := record.disqualified_in(p)) is not None and d < rnd)
        ]
        absent = [p for p in should if p not in seated[rnd]]
        if len(absent) == 1 and len(should) % 2 == 1:
            byes.append(Bye(rnd, absent[0]))
        elif absent:
            notes.append(f"round {rnd}: no match recorded for pair(s) {', '.join(absent)} (0 points)")
    record = EventRecord(numbers, tuple(results), tuple(byes), tuple(susp), tuple(dqs))
    return Loaded(ev, rb, pair_rows, record, notes)


# -- standings -------------------------------------------------------------------------------
def cmd_standings(args: argparse.Namespace) -> int:
    """``referee-app standings [--round R] [--json] [--event ID] [--pdf FILE] [--seed N]``."""
    from referee_app.core.standings import TIE_BREAK_LABELS, compute_standings, format_tiebreak
    from referee_app.store.errors import InputError
    from referee_app.store.service import Store

    if args.round is not None and args.round < 0:
        raise InputError(f"--round: expected 0 or more, got {args.round}")
    with Store.open(args.db) as store:
        loaded = load_event(store, args.event)
    seed = loaded.ev.id if args.seed is None else args.seed
    table = compute_standings(loaded.rulebook, loaded.record, through_round=args.round, seed=seed)
    for note in loaded.notes:
        print(note, file=sys.stderr)
    if args.pdf:
        from referee_app.printing.standings import StandingsSheet, render_standings

        sheet = StandingsSheet.build(loaded.ev, loaded.rulebook, loaded.pairs, table)
        render_standings(sheet, args.pdf)
    if args.json:
        sys.stdout.write(json.dumps(table.to_json(), ensure_ascii=False, indent=2) + "\n")
        return 0
    zh = args.lang == "zh"
    from referee_app.store.pairs_csv import spreadsheet_cell

    names = {  # the table is tab-separated: pasted into a spreadsheet, a name is never a formula
        str(p["number"]): spreadsheet_cell("、".join(p["players"]) if zh else " / ".join(p["players"]))
        for p in loaded.pairs
    }
    keys = [k for k in table.tie_breaks if k != "match_points"]

    def label(k: str) -> str:
        return TIE_BREAK_LABELS[k][0 if zh else 1]

    title = (
        f"{loaded.ev.name} 第{table.round}轮后名次（抽签种子 {seed}）"
        if zh
        else f"{loaded.ev.name}: standings after round {table.round} (seed of the lots {seed})"
    )
    print(title)
    head = ["名次" if zh else "Rank", "对" if zh else "Pair", label("match_points"), *map(label, keys)]
    print("\t".join(head + ["选手" if zh else "Players"]))
    for row in table.rows:
        cells = [str(row["rank"]), row["pair"], str(row["match_points"])]
        cells += [format_tiebreak(k, row["tiebreaks"].get(k)) for k in keys]
        extra = names.get(row["pair"], "")
        if "disqualified" in row["tiebreaks"]:
            dq = row["tiebreaks"]["disqualified"]
            extra += f"（第{dq}轮取消比赛资格）" if zh else f" (disqualified in round {dq})"
        print("\t".join([*cells, extra]))
    return 0


# -- pairing ---------------------------------------------------------------------------------
def cmd_pair(args: argparse.Namespace) -> int:
    """``referee-app pair --round R [--json] [--seed N] [--knockout]``: to standard output only."""
    from referee_app.core.pairing import pair_round
    from referee_app.store.errors import InputError
    from referee_app.store.service import Store

    if args.round < 1:
        raise InputError(f"--round: expected a round number ≥ 1, got {args.round}")
    with Store.open(args.db) as store:
        loaded = load_event(store, args.event, before_round=args.round)
    seed = loaded.ev.id if args.seed is None else args.seed
    # the rulebook says whether the event is a knockout; --knockout forces one
    knockout = args.knockout or loaded.rulebook.data["standings"]["format"] == "knockout"
    pairing = pair_round(loaded.rulebook, loaded.record, args.round, seed=seed, knockout=knockout)
    for note in loaded.notes:
        print(note, file=sys.stderr)
    if args.json:
        # the JSON is the list of tables (and the bye); the seed goes with it on stderr
        print(f"round {pairing.round}: {pairing.method}, seed {seed}", file=sys.stderr)
        sys.stdout.write(json.dumps(pairing.to_json(), ensure_ascii=False, indent=2) + "\n")
        return 0
    zh = args.lang == "zh"
    method = {
        "lot": ("抽签", "by lot"),
        "swiss": ("积分编排", "by score groups"),
        "knockout": ("淘汰制抽签", "knockout draw"),
    }[pairing.method]
    if zh:
        print(f"{loaded.ev.name} 第{pairing.round}轮对阵（{method[0]}，抽签种子 {seed}）")
        print("桌号\t南北\t东西")
    else:
        print(f"{loaded.ev.name}: round {pairing.round} pairing ({method[1]}, seed {seed})")
        print("Table\tNS\tEW")
    for t in pairing.tables:
        print(f"{t.table}\t{t.ns}\t{t.ew}")
    if pairing.bye is not None:
        print(f"轮空\t{pairing.bye}" if zh else f"Bye\t{pairing.bye}")
    return 0
