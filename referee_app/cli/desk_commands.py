"""The chief referee's desk on the command line: ``standings`` and ``pair``.

``register(subparsers)`` only builds the parsers; the store, the core and reportlab are
imported inside the handlers. A user error prints one line on standard error and exits 2.

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

The standings' seed of the lots is ``--seed`` or, by default, the event's id, so the same
command gives the same answer; it is printed with the result.

A round's pairing is read through ``referee_app.app.pairing.round_pairing``, as the window
and ``print pairing`` read it: the published pairing once published, else the round's
proposal. A draw (round 1, a knockout round) is made once, with a seed no one can foresee,
and kept in the store as the round's proposal: ``pair`` shows it again at every call, and
``pair --publish`` publishes it (the seed goes with the published record).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from referee_app.app.event import Loaded, clock_acts, load_event, round_unfinished
from referee_app.core.errors import one_line as _one_line

from ..app.messages import has, word_gap
from ..core.inputs import check_round, number
from .messages import error_line, lang_of, say_error, text
from .output import stdout_json

Handler = Callable[[argparse.Namespace], int]


SEED_HELP = "seed of the lots (抽签); default: the event id"
PAIR_SEED_HELP = (
    "draw with this seed (kept as the round's proposal; with --publish, publish that draw); "
    "default: the draw kept for the round"
)
PAIR_DESCRIPTION = (
    "A draw (round 1, a knockout round) is made once, with a seed no one can foresee, and "
    "kept in the event store as the round's proposal (编排建议，未公布): pair shows the same "
    "draw at every call, from any station, and print pairing prints it, until it is "
    "published. --publish publishes exactly the draw shown, its seed stored with it; "
    "--seed N, --drawn LIST or --redraw make a new one (kept in place of the old, in the "
    "audit log). A round paired by score groups follows from the results and the event's "
    "seed. Once published, the published pairing is what every command shows; a correction "
    "is a new pairing (--seed, --drawn, --redraw or pairing enter) published with --reason. "
    "On an event with PINs only the chief referee draws (--role chief_referee); a draw kept "
    "is shown to anyone."
)


def _common(p: argparse.ArgumentParser, seed_help: str = SEED_HELP) -> None:
    p.add_argument("--lang", choices=("zh", "en"), default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    p.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    p.add_argument(
        "--event", type=number, default=None, help="event id (default: the only event in the database)"
    )
    p.add_argument("--seed", type=number, default=None, help=seed_help)
    p.add_argument("--json", action="store_true", help="JSON on standard output")
    p.add_argument("--csv", default=None, metavar="FILE", help="also write the table as CSV (for Excel)")
    p.add_argument("--xlsx", default=None, metavar="FILE", help="also write the table as an Excel workbook")


def _export(args: argparse.Namespace, title: str, head: list[str], rows: list[list[Any]]) -> None:
    """``--csv`` / ``--xlsx``: the table the command prints, for the tournament office."""
    from referee_app.spreadsheet import write_table

    for target in (args.csv, args.xlsx):
        if target:
            write_table(target, title, head, rows)


def register(subparsers: Any) -> None:
    """Add ``standings`` and ``pair`` to ``referee-app``'s subparsers."""
    st = subparsers.add_parser("standings", help="the standings (名次) by the rulebook's tie-break order")
    st.add_argument("--round", type=number, default=None, help="after round R (default: the last round)")
    st.add_argument("--pdf", default=None, metavar="FILE", help="also write the printed standings sheet")
    _common(st)
    st.set_defaults(func=_guard(cmd_standings))

    pa = subparsers.add_parser(
        "pair",
        help="pair round R (积分编排, or a knockout draw) from the results before it",
        description=PAIR_DESCRIPTION,
    )
    pa.add_argument(
        "action",
        nargs="?",
        choices=("check", "simulate"),
        default=None,
        help="check: re-derive every published round and report any that differs or breaks a rule "
        "(exit 2); simulate: random events paired and checked (no event store)",
    )
    pa.add_argument("--round", type=number, default=None, help="the round to pair")
    pa.add_argument(
        "--why", action="store_true", help="say per table why it is paired so (floats, the criterion)"
    )
    pa.add_argument("--pairs", type=number, default=16, help="simulate: pairs in each event")
    pa.add_argument(
        "--rounds", type=number, default=None, help="simulate: rounds (default: the rulebook's, else 5)"
    )
    pa.add_argument("--rules", default="gansu-2018", help="simulate: the rulebook")
    pa.add_argument("--events", type=number, default=1, help="simulate: how many events")
    pa.add_argument(
        "--knockout",
        action="store_true",
        help="force a knockout draw (otherwise the rulebook's [standings] format decides)",
    )
    pa.add_argument(
        "--drawn",
        default=None,
        metavar="LIST",
        help="the draw as made in the hall: pair numbers in the order drawn, comma-separated",
    )
    pa.add_argument(
        "--redraw",
        action="store_true",
        help="a new draw with a new seed (a score-group round: paired again from the results), "
        "kept in place of the round's proposal",
    )
    _overriding(pa)
    _publishing(pa, "publish the pairing shown (the round's kept draw, or the new one asked for)")
    _common(pa, PAIR_SEED_HELP)
    pa.set_defaults(func=_guard(cmd_pair))

    pg = subparsers.add_parser("pairing", help="published pairings: enter one by hand, show one")
    pg_sub = pg.add_subparsers(dest="pairing_command", required=True, parser_class=type(pg))
    en = pg_sub.add_parser("enter", help="publish a pairing made or changed by hand (JSON as pair --json)")
    en.add_argument("file", help="the pairing as JSON, or - for standard input")
    en.add_argument("--round", type=number, required=True)
    _overriding(en)
    _publishing(en)
    _common(en)
    en.set_defaults(func=_guard(cmd_pairing_enter))
    sh = pg_sub.add_parser("show", help="a round's published pairing (the latest version)")
    sh.add_argument("--round", type=number, required=True)
    sh.add_argument("--version", type=number, default=None, help="an earlier version")
    sh.add_argument("--pdf", default=None, metavar="FILE", help="also write the printed pairing list")
    _common(sh)
    sh.set_defaults(func=_guard(cmd_pairing_show))
    un = pg_sub.add_parser(
        "unpublish", help="withdraw a round's published pairing before any of its results (with a reason)"
    )
    un.add_argument("--round", type=number, required=True)
    un.add_argument("--reason", required=True)
    _writer(un)
    un.set_defaults(func=_guard(cmd_pairing_unpublish))

    wd = subparsers.add_parser("withdraw", help="a pair withdraws (退赛) from round R on")
    wd.add_argument("--pair", required=True)
    wd.add_argument("--from-round", type=number, required=True, dest="from_round")
    wd.add_argument("--reason", required=True)
    _writer(wd)
    wd.set_defaults(func=_guard(cmd_withdraw))
    ra = subparsers.add_parser("readmit", help="re-admit a withdrawn pair from round R on")
    ra.add_argument("--pair", required=True)
    ra.add_argument("--from-round", type=number, required=True, dest="from_round")
    ra.add_argument("--reason", default=None)
    _writer(ra)
    ra.set_defaults(func=_guard(cmd_readmit))

    de = subparsers.add_parser(
        "decide",
        help="the chief referee's deciding result of a tied knockout match, or of a round tied on time "
        "that the rulebook leaves to lots or the referee",
    )
    de.add_argument("--round", type=number, required=True)
    de.add_argument("--winner", required=True, help="the pair that goes on")
    de.add_argument("--how", choices=("lots", "decision"), required=True, help="by lots (抽签) or a decision")
    de.add_argument("--reason", required=True)
    de.add_argument(
        "--correct",
        action="store_true",
        help="correct the round's decision already taken (the bracket and standings follow)",
    )
    _writer(de)
    de.set_defaults(func=_guard(cmd_decide))

    br = subparsers.add_parser("bracket", help="a knockout's rounds and placings")
    br.add_argument("--pdf", default=None, metavar="FILE", help="also write the printed bracket")
    _common(br)
    br.set_defaults(func=_guard(cmd_bracket))

    rd = subparsers.add_parser("round", help="record a round's end or the publication of its scores")
    rd_sub = rd.add_subparsers(dest="round_command", required=True, parser_class=type(rd))
    for name, help_text in (
        ("end", "the round has ended"),
        ("scores", "the round's official scores are published"),
    ):
        x = rd_sub.add_parser(name, help=help_text)
        x.add_argument("--round", type=number, required=True)
        x.add_argument("--at", default=None, help="when (ISO 8601; default: now)")
        _writer(x)
        x.set_defaults(func=_guard(cmd_round))

    ck = subparsers.add_parser("clock", help="the hall's round clock (kept in the store)")
    ck_sub = ck.add_subparsers(dest="clock_command", required=True, parser_class=type(ck))
    for name in ("start", "pause", "resume", "extend", "adjust", "show"):
        x = ck_sub.add_parser(
            name, help=f"{name} the round clock" if name != "show" else "where the clock stands"
        )
        x.add_argument("--round", type=number, required=True)
        if name in ("extend", "adjust"):
            x.add_argument("--minutes", type=number, required=True)
            x.add_argument("--reason", default=None, help="why the clock's time changes")
        _writer(x)
        x.set_defaults(func=_guard(cmd_clock))

    hd = subparsers.add_parser(
        "hall-display", help="the hall display (赛场大屏): full screen, read-only, follows the store"
    )
    hd.add_argument("--windowed", action="store_true", help="a window instead of full screen")
    hd.add_argument("--screen", type=number, default=None, metavar="N", help="on screen N (1: the first)")
    hd.add_argument(
        "--web-url",
        default=None,
        metavar="URL",
        help="the hall web page's address (referee-app hall-web): shown as a QR code in a corner",
    )
    _common(hd)
    hd.set_defaults(func=_guard(cmd_hall_display))

    hw = subparsers.add_parser(
        "hall-web",
        help="the hall web page (赛场信息网页): players read the published pairing, standings and "
        "clock on their phones; read-only, served until Ctrl+C",
    )
    hw.add_argument(
        "--host",
        default="127.0.0.1",
        help="the interface to serve on (default 127.0.0.1, this computer only; for the hall's "
        "network, this laptop's address on it)",
    )
    hw.add_argument("--port", type=number, default=8080, help="the port (default 8080)")
    hw.add_argument(
        "--refresh", type=number, default=5, help="seconds between two refreshes of a page (default 5)"
    )
    hw.add_argument("--lang", choices=("zh", "en"), default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    hw.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    hw.add_argument(
        "--event", type=number, default=None, help="event id (default: the only event in the database)"
    )
    hw.set_defaults(func=_guard(cmd_hall_web))


def _writer(p: argparse.ArgumentParser) -> None:
    """A command that writes a desk record: --event, --role (its PIN from the environment
    or a prompt), --user, --station."""
    from referee_app.cli.store_commands import add_role_option

    p.add_argument("--lang", choices=("zh", "en"), default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    p.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    p.add_argument(
        "--event", type=number, default=None, help="event id (default: the only event in the database)"
    )
    p.add_argument("--user", default=None, help="who writes (default: REFEREE_APP_USER or the login name)")
    p.add_argument("--station", default=None, help="which station writes (default: the host name)")
    add_role_option(p)


def _overriding(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--override",
        default=None,
        metavar="REASON",
        help="pair over an unfinished previous round (the chief referee's reason, audited)",
    )


def _publishing(p: argparse.ArgumentParser, what: str = "store it as the round's published pairing") -> None:
    from referee_app.cli.store_commands import add_role_option

    p.add_argument("--publish", action="store_true", help=what)
    p.add_argument("--yes", action="store_true", help="publish without asking for confirmation")
    p.add_argument("--reason", default=None, help="why a published pairing is corrected (a new version)")
    p.add_argument("--user", default=None, help=argparse.SUPPRESS)
    p.add_argument("--station", default=None, help=argparse.SUPPRESS)
    add_role_option(p)


def _guard(fn: Handler) -> Handler:
    """This layer's errors as one line and an exit code; anything unexpected is left to
    ``referee_app.cli.main``, which says it in one line too."""

    def run(args: argparse.Namespace) -> int:
        from referee_app.app.errors import StoreError
        from referee_app.core.pairing import PairingError
        from referee_app.core.standings import StandingsError
        from referee_app.spreadsheet import SpreadsheetError

        try:
            return fn(args)
        except (StoreError, StandingsError, PairingError, SpreadsheetError) as err:
            say_error(err, args)
            return 2
        except BrokenPipeError:
            raise  # the reader went away: cli.main ends quietly
        except OSError as err:
            if lang_of(args) == "en":
                print(_one_line(f"{err.filename or 'referee-app'}: {err.strerror or err}"), file=sys.stderr)
            else:
                print(text("cli.os_error", args, target=err.filename or "referee-app"), file=sys.stderr)
            return 2

    run.__name__ = fn.__name__
    run.__doc__ = fn.__doc__
    return run


# -- reading the store ----------------------------------------------------------------------


# -- standings -------------------------------------------------------------------------------
def cmd_standings(args: argparse.Namespace) -> int:
    """``referee-app standings [--round R] [--json] [--event ID] [--pdf FILE] [--seed N]``."""
    from referee_app.app.errors import InputError
    from referee_app.app.store import Store
    from referee_app.core.standings import (
        assumed_footnote,
        compute_standings,
        format_tiebreak,
        tiebreak_label,
    )

    if args.round is not None and args.round < 0:
        raise InputError(
            f"--round: expected 0 or more, got {args.round}",
            code="input.round_or_zero",
            field="round",
            got=args.round,
        )
    with Store.open(args.db, read_only=True) as store:
        loaded = load_event(store, args.event)
    seed = loaded.ev.id if args.seed is None else args.seed
    if loaded.knockout and args.pdf is None and not args.json:
        # one official ranking: a knockout's places are the bracket's, not match points'
        from referee_app.app.event import KnockoutRanking

        print(
            text(
                "desk_out.standings_title",
                lang_of(args),
                event=loaded.ev.name,
                round=loaded.record.last_round(),
                seed=seed,
            )
        )
        _print_placings(KnockoutRanking(loaded, seed), lang_of(args))
        return 0
    table = compute_standings(loaded.rulebook, loaded.record, through_round=args.round, seed=seed)
    for note in loaded.worded_notes(args.lang):
        print(note, file=sys.stderr)
    if args.pdf:
        from referee_app.app.printouts import StandingsSheet, render_standings, stamp_standings

        sheet = StandingsSheet.build(loaded.ev, loaded.rulebook, loaded.pairs, table)
        sheet.withdrawn = {w.pair: w.first_round for w in loaded.record.withdrawals if w.back_from is None}
        with Store.open(args.db, read_only=True) as store:
            stamp_standings(store, loaded.ev.id, sheet)
        render_standings(sheet, args.pdf)
    lang = lang_of(args)
    from referee_app.app.store import spreadsheet_cell

    names = {  # the table is tab-separated: pasted into a spreadsheet, a name is never a formula
        str(p["number"]): spreadsheet_cell(text("desk_out.names_sep", lang).join(p["players"]))
        for p in loaded.pairs
    }
    keys = [k for k in table.tie_breaks if k != "match_points"]

    def label(k: str) -> str:
        return tiebreak_label(k, lang, table.assumed)

    title = text("desk_out.standings_title", lang, event=loaded.ev.name, round=table.round, seed=seed)
    head = [text("desk_out.col_rank", lang), text("desk_out.col_pair", lang), label("match_points")]
    head += [*map(label, keys), text("desk_out.col_players", lang)]
    lines: list[list[Any]] = []
    for row in table.rows:
        cells = [str(row["rank"]), row["pair"], str(row["match_points"])]
        cells += [format_tiebreak(k, row["tiebreaks"].get(k)) for k in keys]
        extra = names.get(row["pair"], "")
        if "disqualified" in row["tiebreaks"]:
            dq = row["tiebreaks"]["disqualified"]
            extra += text("desk_out.disqualified", lang, round=dq)
        lines.append([*cells, extra])
    if table.assumed:  # the readings' footnote goes with the table, printed or exported
        lines.append([assumed_footnote(table.assumed, lang)])
    _export(args, title, head, lines)
    if args.json:
        sys.stdout.write(stdout_json(table.to_json(), indent=2) + "\n")
        return 0
    print(title)
    for line in [head, *lines]:
        print("\t".join(line))
    return 0


# -- pairing ---------------------------------------------------------------------------------
def _check_round(args: argparse.Namespace, store: Any, loaded: Loaded, round_no: int, what: str) -> None:
    """Refuse to pair (or draw) round R over an unfinished round R−1, unless the chief
    referee overrides with a reason (kept in the audit log); warn past the rulebook's
    number of rounds."""
    from referee_app.app.errors import InputError

    st = loaded.rulebook.data["standings"]
    rounds = st.get("rounds")
    if rounds is not None and round_no > int(rounds):
        ref = (st.get("rounds_clause") or st["clause"]).get("ref", "")
        print(text("desk_out.too_many_rounds", args, ref=ref, rounds=rounds, round=round_no), file=sys.stderr)
    gaps = round_unfinished(loaded, round_no - 1)
    if not gaps:
        return
    reason = (getattr(args, "override", None) or "").strip()
    if not reason:
        raise InputError(
            f"round {round_no - 1} is not finished ({'; '.join(word_gap(g, 'en') for g in gaps)}); "
            f"{what} round {round_no} "
            f"only with --override REASON (the chief referee's, kept in the audit log)",
            code="desk.round_not_finished",
            field="override",
            round=round_no - 1,
            next=round_no,
            gaps=gaps,
        )
    from referee_app.cli.store_commands import acting_as

    actor = acting_as(args, store, loaded.ev.id)
    store.add_desk_record(
        loaded.ev.id, "override", round_no, {"reason": reason, "what": what, "gaps": gaps}, actor=actor
    )
    print(text("desk_out.overridden", args, round=round_no - 1, reason=reason), file=sys.stderr)


def _confirm(args: argparse.Namespace, question: str, **values: Any) -> bool:
    if getattr(args, "yes", False):
        return True
    q = text(question, args, **values)
    print(f"{q} [y/N] ", end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline().strip().lower()
    return answer in ("y", "yes", "是")


def _print_pairing(args: argparse.Namespace, loaded: Loaded, pairing: Any, status: str = "") -> None:
    """The pairing as a tab-separated table under its title; ``status`` goes in the title
    (the published version, or the mark of a proposal)."""
    lang = lang_of(args)
    code = f"desk_out.method_{pairing.method}"
    method = text(code, lang) if has(code) else pairing.method
    seed = "—" if pairing.seed is None else str(pairing.seed)
    values = {"event": loaded.ev.name, "round": pairing.round, "method": method, "seed": seed}
    title = text("desk_out.pairing_title", lang, **values, version=status)
    head = [text("desk_out.col_table", lang), text("desk_out.col_ns", lang), text("desk_out.col_ew", lang)]
    lines: list[list[Any]] = [[str(t.table), t.ns, t.ew] for t in pairing.tables]
    if pairing.bye is not None:
        lines.append([text("desk_out.bye", lang), pairing.bye, ""])
    if hasattr(args, "csv"):
        _export(args, title, head, lines)
    print(title)
    for line in [head, *lines]:
        print("\t".join(str(c) for c in line).rstrip("\t"))


def _status(args: argparse.Namespace, rp: Any) -> str:
    """A round's pairing's status in the title: ", version 2" or ", proposal, not published"."""
    if rp.status == "published":
        return text("desk_out.version", args, version=rp.version)
    if rp.status == "seated":
        return text("desk_out.seated_mark", args)
    return text("desk_out.proposal_mark", args)


def _publish(args: argparse.Namespace, store: Any, rp: Any, extra: dict[str, Any]) -> int:
    """Check, confirm and store ``rp`` (a :class:`~referee_app.app.pairing.RoundPairing`,
    the pairing just shown) as the round's published pairing (a new version with a reason
    when one is published already)."""
    from referee_app.app.errors import InputError
    from referee_app.app.pairing import publish_round
    from referee_app.cli.store_commands import acting_as

    pairing = rp.pairing
    errors, warnings = rp.check()
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    if errors:
        raise InputError(f"not published: {'; '.join(errors)}", code="desk.not_published", problems=errors)
    current = store.desk_records(rp.loaded.ev.id, "pairing", pairing.round)
    version = len(current) + 1
    reason = (getattr(args, "reason", None) or "").strip()
    if version > 1 and not reason:
        raise InputError(
            f"round {pairing.round}: version {version - 1} is published; a correction needs --reason",
            code="desk.publish_reason_missing",
            field="reason",
            round=pairing.round,
            version=version - 1,
        )
    if not _confirm(args, "desk_out.publish_question", round=pairing.round, version=version):
        print(text("desk_out.not_published", args), file=sys.stderr)
        return 1
    actor = acting_as(args, store, rp.loaded.ev.id)
    rec = publish_round(store, rp, actor=actor, warnings=warnings, reason=reason or None, extra=extra)
    print(text("desk_out.published", args, round=pairing.round, version=rec["version"]), file=sys.stderr)
    return 0


def cmd_pair(args: argparse.Namespace) -> int:
    """``referee-app pair --round R [--json] [--seed N | --drawn LIST | --redraw] [--knockout]
    [--override REASON] [--publish [--yes] [--reason R]]``: round R's pairing as
    ``app.pairing.round_pairing`` gives it (PAIR_DESCRIPTION); ``--publish`` publishes what
    was shown."""
    from referee_app.app.errors import InputError
    from referee_app.app.pairing import round_pairing
    from referee_app.app.store import Store
    from referee_app.cli.store_commands import acting_as

    if args.action == "check":
        return cmd_pair_check(args)
    if args.action == "simulate":
        return cmd_pair_simulate(args)
    if args.round is None:
        raise InputError("--round: required (the round to pair)", code="input.round_required", field="round")
    if args.round < 1:
        raise InputError(
            f"--round: expected a round number ≥ 1, got {args.round}",
            code="input.round",
            field="round",
            got=args.round,
        )
    drawn = None
    if args.drawn is not None:
        drawn = [x.strip() for x in args.drawn.replace("，", ",").split(",") if x.strip()]
    with Store.open(args.db) as store:
        ev = store.pick_event(args.event)
        actors: list[Any] = []

        def keeper() -> Any:  # asked for a role (and PIN) only when a draw is kept
            if not actors:
                actors.append(acting_as(args, store, ev.id))
            return actors[0]

        def check(loaded: Loaded) -> None:
            _check_round(args, store, loaded, args.round, "drawing" if loaded.knockout else "pairing")

        def progress(done: int, total: int) -> None:  # only a large field reports (in blocks)
            print(text("desk_out.pairing_progress", args, done=done, n=total), file=sys.stderr)

        rp = round_pairing(
            store,
            ev.id,
            args.round,
            keeper=keeper,
            seed=args.seed,
            drawn=drawn,
            redraw=args.redraw,
            knockout=args.knockout or None,
            check=check,
            progress=progress,
        )
        loaded, pairing = rp.loaded, rp.pairing
        for note in loaded.worded_notes(args.lang) + rp.worded_notes(args.lang):
            print(note, file=sys.stderr)
        if args.json:
            # the JSON is the list of tables (and the bye); the seed goes with it on stderr
            seed = "—" if pairing.seed is None else pairing.seed
            state = _status(args, rp).removeprefix(", ").removeprefix("，")
            code = f"desk_out.method_{pairing.method}"
            method = pairing.method if lang_of(args) == "en" or not has(code) else text(code, args)
            line = text("desk_out.pairing_line", args, round=rp.round, method=method, seed=seed, state=state)
            print(line, file=sys.stderr)
            sys.stdout.write(stdout_json(pairing.to_json(), indent=2) + "\n")
        else:
            _print_pairing(args, loaded, pairing, _status(args, rp))
        if args.why:
            _print_why(args, rp.why())
        if args.publish:
            if rp.status == "seated":
                raise InputError(
                    f"round {rp.round} is already seated at the tables (no pairing was published); "
                    f"it cannot be published again",
                    code="desk.already_seated",
                    round=rp.round,
                )
            if rp.published:
                raise InputError(
                    f"round {rp.round}: version {rp.version or 1} is published; a correction is a new "
                    f"pairing (--seed N, --drawn LIST or --redraw, or pairing enter FILE) with --reason",
                    code="desk.already_published",
                    round=rp.round,
                    version=rp.version or 1,
                )
            return _publish(args, store, rp, {})
    return 0


def cmd_pairing_enter(args: argparse.Namespace) -> int:
    """``referee-app pairing enter FILE --round R``: a pairing made or changed by hand."""
    from referee_app.app.pairing import RoundPairing
    from referee_app.app.store import Store
    from referee_app.cli.store_commands import _read_json
    from referee_app.core.pairing import pairing_from_json

    data = _read_json(args.file)
    with Store.open(args.db) as store:
        loaded = load_event(store, args.event, before_round=args.round)
        _check_round(args, store, loaded, args.round, "pairing")
        rp = RoundPairing(pairing_from_json(args.round, data), "proposal", loaded)
        _print_pairing(args, loaded, rp.pairing)
        if not args.publish:  # shown and checked only: publishing is asked for with --publish
            errors, warnings = rp.check()
            for line in errors + warnings:
                print(f"warning: {line}", file=sys.stderr)
            print(text("desk_out.entered_not_published", args), file=sys.stderr)
            return 0
        return _publish(args, store, rp, {"entered_from": args.file})


def cmd_pairing_show(args: argparse.Namespace) -> int:
    """``referee-app pairing show --round R [--version V] [--json] [--pdf FILE]``."""
    from referee_app.app.pairing import published_round
    from referee_app.app.store import Store

    with Store.open(args.db, read_only=True) as store:
        ev = store.pick_event(args.event)
        rp = published_round(store, ev.id, args.round, args.version)
        if args.pdf:
            from referee_app.app.pairing import pairing_sheet

            sheet = pairing_sheet(rp, store=store)
    rec = rp.record
    assert rec is not None
    if args.pdf:
        from referee_app.app.printouts import render_pairing

        render_pairing(sheet, args.pdf)
    if args.json:
        out = {"round": rp.round, "version": rec["version"], "at": rec["at"], "by": rec["user_name"]}
        out.update(rec["body"])
        sys.stdout.write(stdout_json(out, indent=2) + "\n")
        return 0
    _print_pairing(args, rp.loaded, rp.pairing, _status(args, rp))
    return 0


def cmd_pairing_unpublish(args: argparse.Namespace) -> int:
    """``referee-app pairing unpublish --round R --reason TEXT``: withdraw round R's published
    pairing before any of its results (``app.pairing.unpublish_round``)."""
    from referee_app.app.pairing import unpublish_round
    from referee_app.app.store import Store
    from referee_app.cli.store_commands import acting_as

    with Store.open(args.db) as store:
        ev = store.pick_event(args.event)
        actor = acting_as(args, store, ev.id)
        rec = unpublish_round(store, ev.id, args.round, reason=args.reason, actor=actor)
    print(text("desk_out.unpublished", args, round=args.round, version=rec["body"]["version"]))
    return 0


def _print_why(args: argparse.Namespace, why: Any) -> None:
    """One line per table: the points, who floated, the criterion that decided."""
    for t in why.tables:
        floats = ""
        if t.floated_down is not None:
            floats = text("desk_out.why_floats", args, down=t.floated_down, up=t.floated_up)
        decided = text(f"desk_out.why_{t.decided_by}", args)
        values = {"table": t.table, "ns": t.ns, "ew": t.ew, "nsp": t.ns_points, "ewp": t.ew_points}
        print(text("desk_out.why_line", args, **values, floats=floats, decided=decided))
    if why.bye is not None and why.bye_reason is not None:
        print(text(f"desk_out.why_bye_{why.bye_reason}", args, pair=why.bye))
    if why.cost is not None:
        print(text("desk_out.why_cost", args, gap=why.cost[0], seats=why.cost[1], rank=why.cost[2]))


def cmd_pair_check(args: argparse.Namespace) -> int:
    """``referee-app pair check``: every published round re-derived from the stored results
    (``app.pairing.check_published``); one line per round, exit 1 when one is wrong (as
    ``verify``: a check found a problem; 2 is bad input)."""
    from referee_app.app.pairing import check_published
    from referee_app.app.store import Store

    with Store.open(args.db, read_only=True) as store:
        checks = check_published(store, args.event)
    wrong = 0
    for c in checks:
        if c.ok:
            print(text("desk_out.check_ok", args, round=c.round, version=c.version))
        for code, values in c.problems:
            print(text(code, args, **values))
        wrong += not c.ok
    print(text("desk_out.check_summary", args, n=len(checks), wrong=wrong), file=sys.stderr)
    return 1 if wrong else 0  # a check found a problem: 1, as verify (2: bad input)


def cmd_pair_simulate(args: argparse.Namespace) -> int:
    """``referee-app pair simulate [--pairs N] [--rounds R] [--rules ID] [--events K]
    [--seed S]``: random events (``core.simulation``) paired round by round; each round is
    checked as ``pair check`` checks a published one (re-derived, no rematch, each pair once).
    One line per event; exit 1 when a round is wrong (2: bad input). Nothing is stored."""
    from collections import Counter

    from referee_app.app.errors import InputError
    from referee_app.core.pairing import check_pairing, pair_round, swiss_field
    from referee_app.core.rulebook import load_rulebook
    from referee_app.core.simulation import random_event
    from referee_app.core.standings import EventRecord

    if args.pairs < 2 or args.events < 1:
        raise InputError(
            f"--pairs: expected 2 or more (and --events 1 or more), got {args.pairs}",
            code="input.simulate",
            field="pairs",
            got=args.pairs,
        )
    try:
        rb = load_rulebook(args.rules)
    except Exception:  # noqa: BLE001 - an unknown rulebook id is one line, exit 2
        raise InputError(
            f"--rules: no rulebook {args.rules!r}", code="input.rulebook", field="rules", got=args.rules
        ) from None
    knockout = rb.data["standings"].get("format") == "knockout"
    rounds = args.rounds or int(rb.data["standings"].get("rounds") or 5)
    seed0 = 0 if args.seed is None else args.seed
    wrong = 0
    for k in range(args.events):
        seed = seed0 + k
        ev = random_event(rb, args.pairs, rounds, seed, knockout=knockout)
        problems: list[str] = []
        largest = 0
        for pg in ev.pairings:
            before = EventRecord(
                ev.record.pairs,
                tuple(m for m in ev.record.results if m.round < pg.round),
                tuple(b for b in ev.record.byes if b.round < pg.round),
            )
            errors, warnings = check_pairing(before, pg, knockout=knockout)
            problems += errors + warnings
            again = pair_round(rb, before, pg.round, seed=seed, knockout=knockout)
            if [(t.ns, t.ew) for t in again.tables] != [
                (t.ns, t.ew) for t in pg.tables
            ] or again.bye != pg.bye:
                problems.append(f"round {pg.round}: paired again, it differs")
            if pg.method == "swiss":
                f = swiss_field(rb, before, pg.round, [p for t in pg.tables for p in (t.ns, t.ew)], seed)
                largest = max([largest, *(abs(f.points[t.ns] - f.points[t.ew]) for t in pg.tables)])
        meetings = Counter(frozenset((m.ns, m.ew)) for m in ev.record.results)
        rematches = sum(c - 1 for c in meetings.values())
        values = {"event": k + 1, "seed": seed, "pairs": args.pairs, "rounds": len(ev.pairings)}
        print(
            text(
                "desk_out.simulated", args, **values, gap=largest, rematches=rematches, problems=len(problems)
            )
        )
        for line in problems:
            print(f"  {line}")
        wrong += bool(problems) or rematches > 0
    return 1 if wrong else 0  # a check found a problem: 1, as verify (2: bad input)


# -- entries, withdrawals, knockout deciders ---------------------------------------------------
def _pair_no(loaded: Loaded, pair: str) -> str:
    from referee_app.app.errors import InputError

    if pair not in loaded.record.pairs:
        raise InputError(
            f"--pair: no pair {pair} in event {loaded.ev.id} ({loaded.ev.name})",
            code="desk.no_pair",
            field="pair",
            pair=pair,
            event=loaded.ev.id,
            name=loaded.ev.name,
        )
    return pair


def cmd_withdraw(args: argparse.Namespace) -> int:
    """``referee-app withdraw --pair N --from-round R --reason TEXT``: 退赛 from round R on;
    the pair's earlier matches stand. A pair seated in round R's published pairing is
    withdrawn with a warning naming its table (``app.pairing.withdraw_pair``)."""
    from referee_app.app.errors import InputError
    from referee_app.app.pairing import withdraw_pair
    from referee_app.app.store import Store
    from referee_app.cli.store_commands import acting_as

    if args.from_round < 1:
        raise InputError(
            f"--from-round: expected a round number ≥ 1, got {args.from_round}",
            code="input.round",
            field="from_round",
            got=args.from_round,
        )
    with Store.open(args.db) as store:
        ev = store.pick_event(args.event)
        actor = acting_as(args, store, ev.id)
        done = withdraw_pair(store, ev.id, args.pair, args.from_round, reason=args.reason, actor=actor)
    print(text("desk_out.withdrawn", args, pair=done.pair, round=args.from_round))
    warning = done.warning()
    if warning is not None:
        print(text(warning[0], args, **warning[1]), file=sys.stderr)
    return 0


def cmd_readmit(args: argparse.Namespace) -> int:
    """``referee-app readmit --pair N --from-round R [--reason TEXT]``."""
    from referee_app.app.errors import InputError
    from referee_app.app.store import Store
    from referee_app.cli.store_commands import acting_as

    with Store.open(args.db) as store:
        loaded = load_event(store, args.event)
        pair = _pair_no(loaded, args.pair)
        open_w = [w for w in loaded.record.withdrawals if w.pair == pair and w.back_from is None]
        if not open_w:
            raise InputError(
                f"--pair: pair {pair} is not withdrawn", code="desk.not_withdrawn", field="pair", pair=pair
            )
        if args.from_round <= open_w[-1].first_round:
            raise InputError(
                f"--from-round: pair {pair} withdrew from round {open_w[-1].first_round}; "
                f"re-admission must be later, got {args.from_round}",
                code="desk.readmit_early",
                field="from_round",
                pair=pair,
                round=open_w[-1].first_round,
                got=args.from_round,
            )
        actor = acting_as(args, store, loaded.ev.id)
        store.add_desk_record(
            loaded.ev.id, "readmit", args.from_round, {"pair": pair, "reason": args.reason or ""}, actor=actor
        )
    print(text("desk_out.readmitted", args, pair=pair, round=args.from_round))
    return 0


def cmd_decide(args: argparse.Namespace) -> int:
    """``referee-app decide --round R --winner N --how lots|decision --reason TEXT [--correct]``:
    the chief referee's deciding result of a tied knockout match, or its correction
    (``app.pairing.decide_tie``)."""
    from referee_app.app.pairing import decide_tie
    from referee_app.app.store import Store
    from referee_app.cli.store_commands import acting_as

    with Store.open(args.db) as store:
        ev = store.pick_event(args.event)
        actor = acting_as(args, store, ev.id)
        rec = decide_tie(
            store, ev.id, args.round, args.winner, args.how, args.reason, actor=actor, correct=args.correct
        )
    body = rec["body"]
    how = text(f"desk_out.by_{args.how}", args)
    values = {
        "round": args.round,
        "winner": body["winner"],
        "loser": body["loser"],
        "how": how,
        "reason": args.reason,
    }
    if args.correct:
        was = body["corrects"]
        values.update(was=was["winner"], was_how=text(f"desk_out.by_{was['how']}", args))
        print(text("desk_out.decided_corrected", args, **values))
    else:
        print(text("desk_out.decided", args, **values))
    return 0


def cmd_bracket(args: argparse.Namespace) -> int:
    """``referee-app bracket [--json] [--pdf FILE]``: a knockout's rounds and placings."""
    from referee_app.app.event import KnockoutRanking
    from referee_app.app.printouts import bracket_sheet
    from referee_app.app.store import Store

    with Store.open(args.db, read_only=True) as store:
        loaded = load_event(store, args.event, knockout=True)
    ranking = KnockoutRanking(loaded, args.seed)
    sheet = bracket_sheet(loaded, args.seed)
    rows, rounds = ranking.rows, sheet.rounds
    if args.pdf:
        from referee_app.app.printouts import render_bracket

        render_bracket(sheet, args.pdf)
    if args.json:
        out = {"rounds": {str(k): v for k, v in sorted(rounds.items())}, "placings": rows}
        sys.stdout.write(stdout_json(out, indent=2) + "\n")
        return 0
    lang = lang_of(args)
    for rnd, ms in sorted(rounds.items()):
        print(text("desk_out.round_heading", lang, round=rnd))
        for m in ms:
            if "bye" in m:
                print(f"  {text('desk_out.bye_line', lang)} {m['bye']}")
            else:
                w = m["winner"] or text("desk_out.undecided", lang)
                how = f" ({text('desk_out.decided_' + m['decided'], lang)})" if m.get("decided") else ""
                if m.get("corrected"):
                    how += f" ({text('desk_out.corrected_mark', lang)})"
                where = (
                    "" if m.get("table") is None else text("desk_out.table_no", lang, table=m["table"]) + "  "
                )
                print(f"  {where}{m['NS']} – {m['EW']}  → {w}{how}")
    _print_placings(ranking, lang)
    return 0


def _print_placings(ranking: Any, lang: str) -> None:
    """The knockout's official ranking, as ``bracket`` and ``standings`` print it."""
    print(text("desk_out.placings", lang))
    for r in ranking.rows:
        prize = ranking.prize_name(r, lang)
        print(f"  {r['rank'] if r['rank'] is not None else '—'}\t{r['pair']}\t{prize}".rstrip())
    rule = ranking.rule
    if rule and rule["clause"].get("assumed"):
        print(text("desk_out.placings_assumed", lang, ref=rule["clause"]["ref"]))
    for line in ranking.warnings(lang):
        print(line, file=sys.stderr)


# -- the round: clock, end, publication of its scores ------------------------------------------
def cmd_round(args: argparse.Namespace) -> int:
    """``referee-app round end|scores --round R [--at ISO]``: the round's end, the
    publication of its scores (the appeal window runs from one of them, as the rulebook
    says)."""
    from referee_app.app.store import Store
    from referee_app.cli.store_commands import acting_as

    kind = {"end": "round_end", "scores": "scores_published"}[args.round_command]
    with Store.open(args.db) as store:
        ev = store.pick_event(args.event)
        actor = acting_as(args, store, ev.id)
        if kind != "round_end":
            rec = store.add_desk_record(ev.id, kind, args.round, {}, actor=actor, at=_iso_arg(args.at))
            print(text(f"desk_out.{kind}", args, round=args.round, at=rec["at"]))
            return 0
        # the end, then a verified copy in the data folder (docs/backup.md)
        from referee_app.app.backups import record_round_end

        ended = record_round_end(store, actor, ev.id, args.round, at=_iso_arg(args.at))
        print(text(f"desk_out.{kind}", args, round=args.round, at=ended.record["at"]))
        if ended.copy_error is not None:  # the round's end is recorded all the same
            reason = error_line(ended.copy_error, lang_of(args))
            print(text("desk_out.round_copy_failed", args, reason=reason), file=sys.stderr)
        else:
            print(text("desk_out.round_copy", args, file=ended.copy.where), file=sys.stderr)
    return 0


def _iso_arg(value: str | None) -> str | None:
    if value is None:
        return None
    from datetime import UTC, datetime

    from referee_app.app.errors import InputError

    try:
        t = datetime.fromisoformat(value)
    except ValueError:
        raise InputError(
            f"--at: expected an ISO 8601 time, got {value!r}", code="input.datetime", field="at", got=value
        ) from None
    if t.tzinfo is None:
        t = t.astimezone()
    return t.astimezone(UTC).isoformat()


def cmd_clock(args: argparse.Namespace) -> int:
    """``referee-app clock start|pause|resume|extend|show --round R [--minutes N]``: the
    round clock of the whole hall, kept in the store."""
    from datetime import UTC, datetime

    from referee_app.app.errors import InputError
    from referee_app.app.event import record_clock_act
    from referee_app.app.store import Store
    from referee_app.cli.store_commands import acting_as
    from referee_app.core.clock import clock_state

    check_round(args.round, error=InputError)
    with Store.open(args.db, read_only=args.clock_command == "show") as store:  # show only reads
        ev = store.pick_event(args.event)
        if args.clock_command != "show":
            st = record_clock_act(
                store,
                ev.id,
                args.round,
                args.clock_command,
                acting_as(args, store, ev.id),
                int(getattr(args, "minutes", 0) or 0),
                str(getattr(args, "reason", "") or ""),
            )
        else:
            minutes = int(store.pinned_rulebook(ev.id).data["round"]["minutes"])
            st = clock_state(minutes, clock_acts(store, ev.id, args.round), datetime.now(UTC))
    left = st.remaining_s
    phase = text(f"desk_out.clock_{st.phase}", args)
    print(text("desk_out.clock", args, round=args.round, phase=phase, left=f"{left // 60}:{left % 60:02d}"))
    return 0


# -- the hall display ------------------------------------------------------------------------
def cmd_hall_display(args: argparse.Namespace) -> int:
    """``referee-app hall-display [--event ID] [--windowed]``: for a projector or a second
    screen; it writes nothing and follows the store on its own (the window's code is the
    launcher's to load: ``gui.hall_display.run``)."""
    from referee_app.app.display import display_problem
    from referee_app.cli.windows import open_window

    if args.web_url is not None:
        from referee_app.app.hall_public import check_web_url

        check_web_url(args.web_url)
    problem = display_problem(args.lang)
    if problem:
        print(problem, file=sys.stderr)
        return 1
    return open_window("hall-display", args)


# -- the hall web page -----------------------------------------------------------------------
def cmd_hall_web(args: argparse.Namespace) -> int:
    """``referee-app hall-web [--host H] [--port P] [--refresh S] [--event ID]``: the hall web
    page (players' phones) served from this computer until Ctrl+C; it reads the store
    read-only and shows only what is published (docs/hall-web.md)."""
    import threading

    from referee_app.app.errors import InputError
    from referee_app.app.store import Store
    from referee_app.hallweb.server import HallWeb

    if not 0 <= args.port <= 65535:
        raise InputError(
            f"--port: expected 0 to 65535, got {args.port}", code="input.port", field="port", got=args.port
        )
    if not 1 <= args.refresh <= 600:
        raise InputError(
            f"--refresh: expected 1 to 600 seconds, got {args.refresh}",
            code="input.refresh",
            field="refresh",
            got=args.refresh,
        )
    with Store.open(args.db, read_only=True) as store:
        ev = store.pick_event(args.event)
        server = HallWeb(
            store, ev.id, host=args.host, port=args.port, lang=lang_of(args), refresh_s=args.refresh
        )
        try:
            server.start()
        except OSError as err:
            where = f"{args.host}:{args.port}"
            reason = _one_line(err.strerror or err)
            raise InputError(
                f"{where}: cannot serve the hall web page here ({reason})",
                code="web.cannot_serve",
                where=where,
                detail=reason,
            ) from None
        try:
            print(text("desk_out.hall_web_serving", args, url=server.url(), key="Ctrl+C"), flush=True)
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
        finally:
            server.close()
    print(text("desk_out.hall_web_stopped", args), flush=True)
    return 0
