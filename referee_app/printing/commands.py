"""The printing layer's command-line subcommands: ``print …``, ``key create``, ``verify-pdf``.

``register(subparsers)`` only builds argparse parsers; reportlab, pyHanko and the store are
imported inside the handlers, so ``referee-app judge`` loads none of them. A handler
returns an exit code; a problem prints one line on standard error: 2 for an invalid case
(like ``judge``), 1 for anything else.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

Handler = Callable[[argparse.Namespace], int]
PASSPHRASE_ENV = "REFEREE_APP_KEY_PASSPHRASE"
NOT_YET = "needs the event store's appeals (not yet available)"


class CommandError(Exception):
    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def _common(p: argparse.ArgumentParser) -> None:
    # Like the other commands, --lang and --db may also follow the command.
    p.add_argument("--lang", choices=("zh", "en"), default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    p.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)


def _sign_opts(p: argparse.ArgumentParser) -> None:
    p.add_argument("--sign", action="store_true", help="sign the PDF with the event key (pyHanko)")
    p.add_argument(
        "--key",
        default=None,
        help=f"the event key, a PKCS#12 file (passphrase from {PASSPHRASE_ENV} or asked)",
    )


def register(subparsers: Any) -> None:
    """Add ``print``, ``key`` and ``verify-pdf`` to ``referee-app``'s subparsers."""
    pr = subparsers.add_parser("print", help="print official forms as PDF (scoresheet, ruling slip …)")
    pr_sub = pr.add_subparsers(dest="print_command", required=True, parser_class=type(pr))

    ss = pr_sub.add_parser(
        "scoresheet",
        help="one table's scoresheet (记分表): from a case file (--case) or from the event store",
    )
    ss.add_argument("--case", default=None, help="a case file (CASE-FORMAT.md); no database needed")
    ss.add_argument(
        "--round", type=int, default=None, help="round number (shown; from the store without --case)"
    )
    ss.add_argument(
        "--table", type=int, default=None, help="table number (shown; from the store without --case)"
    )
    ss.add_argument("--event", type=int, default=None, help="event id in the store (default: the only one)")
    ss.add_argument("--date", default=None, help="the date printed in the header (YYYY-MM-DD)")
    ss.add_argument("-o", "--output", required=True, help="the PDF to write")
    _sign_opts(ss)
    _common(ss)
    ss.set_defaults(func=_guard(cmd_print_scoresheet))

    rd = pr_sub.add_parser("round", help="every table's scoresheet of a round in one PDF (event store)")
    rd.add_argument("--round", type=int, required=True)
    rd.add_argument("--event", type=int, default=None, help="event id in the store (default: the only one)")
    rd.add_argument("-o", "--output", required=True, help="the PDF to write")
    _sign_opts(rd)
    _common(rd)
    rd.set_defaults(func=_guard(cmd_print_round))

    ru = pr_sub.add_parser("ruling", help="a ruling slip (判罚单): from a case file, or --ruling ID (store)")
    ru.add_argument("--case", default=None, help="a case file")
    ru.add_argument("--hand", type=int, default=None, help="hand number, 1 … (0: a ruling before play)")
    ru.add_argument("--index", type=int, default=1, help="which ruling of that hand, 1 … (default 1)")
    ru.add_argument("--ruling", type=int, default=None, help="a ruling id in the event store")
    ru.add_argument("--round", type=int, default=None, help="round number to show")
    ru.add_argument("--table", type=int, default=None, help="table number to show")
    ru.add_argument("--date", default=None)
    ru.add_argument("-o", "--output", required=True, help="the PDF to write")
    _sign_opts(ru)
    _common(ru)
    ru.set_defaults(func=_guard(cmd_print_ruling))

    ap = pr_sub.add_parser("appeal", help="an appeal form (申诉表) from the event store")
    ap.add_argument("--appeal", type=int, required=True, help="appeal id")
    ap.add_argument("-o", "--output", default=None, help="the PDF to write")
    _sign_opts(ap)
    _common(ap)
    ap.set_defaults(func=_guard(cmd_print_appeal))

    key = subparsers.add_parser("key", help="the event's signing key")
    key_sub = key.add_subparsers(dest="key_command", required=True, parser_class=type(key))
    kc = key_sub.add_parser("create", help="make a key and self-signed certificate (PKCS#12 + PEM)")
    kc.add_argument(
        "--out",
        required=True,
        help="the PKCS#12 file to write (FILE.p12); the certificate goes beside it as FILE.pem",
    )
    kc.add_argument("--name", default="referee-app event", help="the certificate's common name (the event)")
    kc.add_argument("--organisation", default=None)
    _common(kc)
    kc.set_defaults(func=_guard(cmd_key_create))

    vp = subparsers.add_parser(
        "verify-pdf", help="is a signed PDF intact and signed by this event's certificate?"
    )
    vp.add_argument("file")
    vp.add_argument("--cert", default=None, help="the event's certificate (PEM), as written by key create")
    _common(vp)
    vp.set_defaults(func=_guard(cmd_verify_pdf))


def _one_line(message: object) -> str:
    return " ".join(str(message).split())


def _guard(fn: Handler) -> Handler:
    def run(args: argparse.Namespace) -> int:
        try:
            return fn(args)
        except CommandError as err:
            print(_one_line(err), file=sys.stderr)
            return err.code
        except KeyboardInterrupt:
            raise
        except BrokenPipeError:
            return 0
        except Exception as err:  # noqa: BLE001 - never a traceback to a referee
            if os.environ.get("REFEREE_APP_DEBUG"):
                raise
            print(
                _one_line(f"referee-app: internal error while printing: {type(err).__name__}: {err}"),
                file=sys.stderr,
            )
            return 3

    run.__name__ = fn.__name__
    run.__doc__ = fn.__doc__
    return run


def _lang(args: argparse.Namespace) -> str:
    lang = getattr(args, "lang", None)
    return lang if lang in ("zh", "en") else "zh"


# -- inputs ---------------------------------------------------------------------------------
def _read_case(name: str) -> dict[str, Any]:
    try:
        raw = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    except OSError as exc:
        raise CommandError(f"{name}: cannot read: {exc.strerror or exc}", 2) from None
    source = "stdin" if name == "-" else name
    try:
        case = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise CommandError(f"{source}: not UTF-8 text (byte {exc.start})", 2) from None
    except json.JSONDecodeError as exc:
        raise CommandError(
            f"{source}: not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}", 2
        ) from None
    except RecursionError:
        raise CommandError(f"{source}: not JSON: nested too deeply", 2) from None
    if not isinstance(case, dict):
        raise CommandError(f"{source}: expected a JSON object (a case), got {type(case).__name__}", 2)
    return case


def _scoresheet_from_file(name: str, args: argparse.Namespace, lang: str) -> Any:
    from ..core import CaseError, RulebookError
    from .data import scoresheet_from_case

    case = _read_case(name)
    try:
        return scoresheet_from_case(
            case,
            lang,
            round_no=getattr(args, "round", None),
            table_no=getattr(args, "table", None),
            date=getattr(args, "date", None),
        )
    except (CaseError, RulebookError, ValueError) as exc:
        raise CommandError(_one_line(exc), 2) from None
    except RecursionError:
        raise CommandError(f"{name}: the case is nested too deeply", 2) from None


def _passphrase(prompt_twice: bool = False) -> str:
    value = os.environ.get(PASSPHRASE_ENV)
    if value:
        return value
    if not sys.stdin.isatty():
        raise CommandError(f"the key's passphrase: set {PASSPHRASE_ENV} (no terminal to ask on)")
    import getpass

    value = getpass.getpass("Passphrase 口令: ")
    if prompt_twice and getpass.getpass("Again 再输一次: ") != value:
        raise CommandError("the two passphrases differ; nothing written")
    return value


def _write_pdf(args: argparse.Namespace, render: Callable[[Any], None]) -> int:
    """Render into a temporary file beside the output, sign it if asked, then move it in place."""
    from .fonts import ResourceError
    from .forms import FormError

    out = Path(args.output)
    if args.sign and not args.key:
        raise CommandError("--sign needs --key FILE.p12 (the event key)")
    if out.parent and not out.parent.exists():
        raise CommandError(f"{out}: the folder {out.parent} does not exist")
    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    try:
        try:
            with open(tmp, "wb") as handle:
                render(handle)
        except OSError as exc:
            raise CommandError(f"{out}: cannot write: {exc.strerror or exc}") from None
        except (FormError, ResourceError) as exc:
            raise CommandError(_one_line(exc)) from None
        if args.sign:
            from .signing import SigningError, sign_pdf

            try:
                sign_pdf(tmp, tmp, args.key, _passphrase())
            except SigningError as exc:
                raise CommandError(_one_line(exc)) from None
        try:
            os.replace(tmp, out)
        except OSError as exc:
            raise CommandError(f"{out}: cannot write: {exc.strerror or exc}") from None
    finally:
        if tmp.exists():
            tmp.unlink()
    print(f"{out}", file=sys.stderr)
    return 0


# -- handlers -------------------------------------------------------------------------------
def cmd_print_scoresheet(args: argparse.Namespace) -> int:
    lang = _lang(args)
    if args.case is not None:
        data = _scoresheet_from_file(args.case, args, lang)
    else:
        if args.round is None or args.table is None:
            raise CommandError(
                "print scoresheet: give --case CASE.json, or --round R --table T (event store)"
            )
        sheets = _store_sheets(args, lang, args.round, args.table)
        data = sheets[0]
    from .render import render_scoresheet

    return _write_pdf(args, lambda handle: render_scoresheet(data, handle))


def cmd_print_round(args: argparse.Namespace) -> int:
    lang = _lang(args)
    sheets = _store_sheets(args, lang, args.round, None)
    from .render import render_round

    return _write_pdf(args, lambda handle: render_round(sheets, handle))


def _store_sheets(args: argparse.Namespace, lang: str, round_no: int, table_no: int | None) -> list[Any]:
    """Scoresheet data for a round (or one table) from the event store's current matches."""
    try:
        from ..store.errors import StoreError
        from ..store.service import Store
    except ImportError as exc:  # the store is another layer; say so in one line
        raise CommandError(f"the event store is not available ({exc})") from None
    from .data import PairInfo, ScoresheetData, event_header, infraction_labels, split_case

    try:
        with Store.open(getattr(args, "db", None)) as store:
            ev = store.pick_event(getattr(args, "event", None))
            rulebook = store.pinned_rulebook(ev.id)
            pairs = {str(p["number"]): p for p in store.list_pairs(ev.id)}
            records = [
                m
                for m in store.export(ev.id)
                if m["round"] == round_no and (table_no is None or m["table"] == table_no)
            ]
    except StoreError as exc:
        raise CommandError(_one_line(exc), getattr(exc, "exit_code", 1)) from None
    if not records:
        where = f"round {round_no}" + (f", table {table_no}" if table_no is not None else "")
        raise CommandError(f"{where}: no result recorded in event {ev.id} ({ev.name})")
    header = event_header(rulebook, ev.date)
    labels = infraction_labels(rulebook)
    sheets = []
    for m in sorted(records, key=lambda r: r["table"]):
        side_pairs = {}
        for side, number in (m.get("pairs") or {}).items():
            p = pairs.get(str(number))
            side_pairs[side] = PairInfo(
                str(number), list(p["players"]) if p else [], p["unit"] if p else None
            )
        case, _meta = split_case(m["case"])  # the store keeps round/table/pairs in the case
        decision = m["decision"]
        if m.get("lang") != lang:  # re-judge for the texts in the wanted language; same engine
            from ..core import judge

            decision = judge(case, lang=lang, rulebook=rulebook)
        sheets.append(
            ScoresheetData(
                event=header,
                case=case,
                decision=decision,
                round=m["round"],
                table=m["table"],
                pairs=side_pairs,
                infraction_labels=labels,
                lang=lang,
            )
        )
    return sheets


def cmd_print_ruling(args: argparse.Namespace) -> int:
    if args.case is None:
        if args.ruling is not None:
            raise CommandError(f"print ruling --ruling: {NOT_YET}")
        raise CommandError("print ruling: give --case CASE.json --hand N [--index I], or --ruling ID")
    if args.hand is None:
        raise CommandError("print ruling: --hand N is needed with --case (0 for a ruling before play)")
    lang = _lang(args)
    sheet = _scoresheet_from_file(args.case, args, lang)
    from ..core import load_rulebook
    from .data import RulingSlipData, ruling_clause

    dec = sheet.decision
    if args.hand == 0:
        rulings = dec.get("before_play") or []
        where = "before_play"
    else:
        hands = dec.get("hands") or []
        if not 1 <= args.hand <= len(hands):
            raise CommandError(f"{args.case}: --hand {args.hand}: no such hand (the case has {len(hands)})")
        rulings = hands[args.hand - 1].get("rulings") or []
        where = f"hands[{args.hand - 1}]"
    if not 1 <= args.index <= len(rulings):
        raise CommandError(
            f"{args.case}: {where}: --index {args.index}: no such ruling (there are {len(rulings)})"
        )
    ruling = rulings[args.index - 1]
    trick = None
    if args.hand:
        infs = (sheet.case.get("hands") or [])[args.hand - 1].get("infractions") or []
        if args.index - 1 < len(infs) and isinstance(infs[args.index - 1], dict):
            trick = infs[args.index - 1].get("trick")
    rulebook = load_rulebook(sheet.event.rulebook_id)
    data = RulingSlipData(
        event=sheet.event,
        ruling=ruling,
        round=sheet.round,
        table=sheet.table,
        hand=args.hand or None,
        trick=trick,
        pairs=sheet.pairs,
        infraction_label=sheet.infraction_labels.get(ruling.get("kind", ""), ("", "")),
        clause=ruling_clause(rulebook, ruling),
        appeal=rulebook.data.get("appeal"),
        lang=lang,
    )
    from .render import render_ruling

    return _write_pdf(args, lambda handle: render_ruling(data, handle))


def cmd_print_appeal(args: argparse.Namespace) -> int:
    raise CommandError(f"print appeal: {NOT_YET}")


def cmd_key_create(args: argparse.Namespace) -> int:
    from .signing import SigningError, make_event_identity

    out = Path(args.out)
    cert = out.with_suffix(".pem")
    passphrase = _passphrase(prompt_twice=True)
    try:
        ident = make_event_identity(
            out.parent,
            passphrase,
            common_name=args.name,
            organisation=args.organisation,
            p12_name=out.name,
            cert_name=cert.name,
        )
    except SigningError as exc:
        raise CommandError(_one_line(exc)) from None
    except OSError as exc:
        raise CommandError(f"{out}: cannot write: {exc.strerror or exc}") from None
    print(f"key {ident.p12_path}")
    print(f"certificate {ident.cert_path}")
    print(f"subject {ident.subject}")
    print(f"sha256 {ident.sha256_fingerprint}")
    return 0


def cmd_verify_pdf(args: argparse.Namespace) -> int:
    from .signing import SigningError, verify_pdf

    if not args.cert:
        raise CommandError("verify-pdf: give --cert CERT.pem (the event's certificate, from key create)")
    try:
        result = verify_pdf(args.file, args.cert)
    except SigningError as exc:
        raise CommandError(_one_line(exc)) from None
    zh = _lang(args) == "zh"
    if result.ok:
        when = (
            f"，签署于 {result.signed_at}"
            if zh and result.signed_at
            else (f", signed at {result.signed_at}" if result.signed_at else "")
        )
        msg = (
            f"{args.file}: 完好，由本赛事证书签署（{result.signer}）{when}"
            if zh
            else (f"{args.file}: {result.message} ({result.signer}){when}")
        )
        print(msg)
        return 0
    if zh:
        zh_msg = {
            "not signed": "未签名",
            "modified: the signed bytes have changed": "已被修改：签名后的内容有改动",
            "modified: content was added after signing": "已被修改：签名后有追加内容",
            "intact, but not signed by this event's certificate": "内容完好，但不是由本赛事证书签署",
        }.get(result.message, "已被修改或损坏")
        print(f"{args.file}: {zh_msg}（{result.message}）")
    else:
        print(f"{args.file}: {result.message}")
    return 1
