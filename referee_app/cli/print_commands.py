"""The printing layer's command-line subcommands: ``print …``, ``key create``, ``verify-pdf``.

``register(subparsers)`` only builds argparse parsers; reportlab, pyHanko and the store are
imported inside the handlers, so ``referee-app judge`` loads none of them. A handler
returns an exit code; a problem prints one line on standard error and exits 2 (bad input or
a refused action); ``verify-pdf`` and ``verify-paper`` exit 1 when the check fails
(docs/exit-codes.md).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..core.errors import Reported, cannot_write
from ..core.errors import one_line as _one_line
from ..core.inputs import check_round, number, read_limited, refuse_replacing_a_non_file
from .messages import current_language, lang_of, say_error, text

Handler = Callable[[argparse.Namespace], int]
PASSPHRASE_ENV = "REFEREE_APP_KEY_PASSPHRASE"


class CommandError(Reported):
    """A printing command's error: its English line, its catalogue code and values (see
    ``referee_app.core.errors.Reported``) and the exit code."""

    default_code = "print.command"

    def __init__(
        self,
        message: str,
        exit_code: int = 2,
        *,
        code: str | None = None,
        field: str | None = None,
        **values: Any,
    ) -> None:
        super().__init__(message, code=code, field=field, **values)
        self.exit_code = exit_code


def _wrap(exc: BaseException, exit_code: int = 2, *, prefix: str = "") -> CommandError:
    """Another layer's error as this command's, keeping its code, field and values."""
    text = prefix + _one_line(exc)
    if isinstance(exc, Reported):
        return CommandError(
            text, getattr(exc, "exit_code", exit_code), code=exc.code, field=exc.field, **exc.values
        )
    return CommandError(text, exit_code)


def _common(p: argparse.ArgumentParser) -> None:
    # Like the other commands, --lang and --db may also follow the command.
    p.add_argument("--lang", choices=("zh", "en"), default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    p.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)


def _sign_opts(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--sign",
        action="store_true",
        help="sign the PDF with the event key (PAdES, pyHanko), with a visible signature block",
    )
    p.add_argument("--location", default=None, help="where it is signed (default: the event's name)")
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
        "--round", type=number, default=None, help="round number (shown; from the store without --case)"
    )
    ss.add_argument(
        "--table", type=number, default=None, help="table number (shown; from the store without --case)"
    )
    ss.add_argument(
        "--event", type=number, default=None, help="event id in the store (default: the only one)"
    )
    ss.add_argument("--date", default=None, help="the date printed in the header (YYYY-MM-DD)")
    ss.add_argument(
        "--blank",
        type=number,
        default=None,
        metavar="N",
        help="a blank sheet with N empty hand rows, to record the hands by hand",
    )
    ss.add_argument("-o", "--output", required=True, help="the PDF to write")
    _sign_opts(ss)
    _common(ss)
    ss.set_defaults(func=_guard(cmd_print_scoresheet))

    rd = pr_sub.add_parser("round", help="every table's scoresheet of a round in one PDF (event store)")
    rd.add_argument("--round", type=number, required=True)
    rd.add_argument(
        "--event", type=number, default=None, help="event id in the store (default: the only one)"
    )
    rd.add_argument("-o", "--output", required=True, help="the PDF to write")
    rd.add_argument("--quiet", action="store_true", help="no progress on standard error")
    rd.add_argument(
        "--blank",
        type=number,
        default=None,
        metavar="N",
        help="blank sheets with N empty hand rows for every table of the published pairing (before play)",
    )
    _sign_opts(rd)
    _common(rd)
    rd.set_defaults(func=_guard(cmd_print_round))

    ru = pr_sub.add_parser("ruling", help="a ruling slip (判罚单): from a case file, or --ruling ID (store)")
    ru.add_argument("--case", default=None, help="a case file")
    ru.add_argument("--hand", type=number, default=None, help="hand number, 1 … (0: a ruling before play)")
    ru.add_argument("--index", type=number, default=1, help="which ruling of that hand, 1 … (default 1)")
    ru.add_argument("--ruling", type=number, default=None, help="a ruling id in the event store")
    ru.add_argument("--round", type=number, default=None, help="round number to show")
    ru.add_argument("--table", type=number, default=None, help="table number to show")
    ru.add_argument("--date", default=None)
    ru.add_argument(
        "--event", type=number, default=None, help="event id in the store (default: the only one)"
    )
    ru.add_argument("-o", "--output", required=True, help="the PDF to write")
    _sign_opts(ru)
    _common(ru)
    ru.set_defaults(func=_guard(cmd_print_ruling))

    ap = pr_sub.add_parser("appeal", help="an appeal form (申诉表) from the event store")
    ap.add_argument("--appeal", type=number, default=None, help="appeal id")
    ap.add_argument(
        "--blank", action="store_true", help="a blank appeal form of the event, to fill in by hand"
    )
    ap.add_argument("--event", type=number, default=None, help="event id in the store (for a blank form)")
    ap.add_argument("-o", "--output", required=True, help="the PDF to write")
    _sign_opts(ap)
    _common(ap)
    ap.set_defaults(func=_guard(cmd_print_appeal))

    sd = pr_sub.add_parser(
        "standings",
        help="the standings sheet (名次表): provisional or final, with the chief referee's sign-off",
    )
    sd.add_argument(
        "--round", type=number, default=None, help="after this round (default: the last recorded)"
    )
    sd.add_argument(
        "--event", type=number, default=None, help="event id in the store (default: the only one)"
    )
    sd.add_argument(
        "--final", action="store_true", help="print as the final standings (default: provisional)"
    )
    sd.add_argument("--seed", type=number, default=None, help="seed of the lots (default: the event's id)")
    sd.add_argument("-o", "--output", required=True, help="the PDF to write")
    _sign_opts(sd)
    _common(sd)
    sd.set_defaults(func=_guard(cmd_print_standings))

    pz = pr_sub.add_parser(
        "prizes", help="the prize list (获奖名单) from the rulebook's prize counts, with its warnings"
    )
    pz.add_argument(
        "--round", type=number, default=None, help="after this round (default: the last recorded)"
    )
    pz.add_argument(
        "--event", type=number, default=None, help="event id in the store (default: the only one)"
    )
    pz.add_argument("--final", action="store_true", help="print as the final list (default: provisional)")
    pz.add_argument("--seed", type=number, default=None, help="seed of the lots (default: the event's id)")
    pz.add_argument("-o", "--output", required=True, help="the PDF to write")
    _sign_opts(pz)
    _common(pz)
    pz.set_defaults(func=_guard(cmd_print_prizes))

    pg = pr_sub.add_parser(
        "pairing",
        help="a round's pairing list (对阵表): the published pairing, else the round's proposal, marked",
    )
    pg.add_argument("--round", type=number, required=True)
    pg.add_argument(
        "--event", type=number, default=None, help="event id in the store (default: the only one)"
    )
    pg.add_argument(
        "--by",
        choices=("table", "name"),
        default="table",
        help="table: by table, with units and points (default); name: every player in pinyin order",
    )
    pg.add_argument("-o", "--output", required=True, help="the PDF to write")
    pg.add_argument(
        "--web-url",
        default=None,
        metavar="URL",
        help="the hall web page's address (referee-app hall-web): printed as a QR code under the pairing",
    )
    _sign_opts(pg)
    _common(pg)
    pg.set_defaults(func=_guard(cmd_print_pairing))

    tc = pr_sub.add_parser("table-cards", help="table cards (桌号牌) of a round's pairing: two tables a page")
    tc.add_argument("--round", type=number, required=True)
    tc.add_argument(
        "--event", type=number, default=None, help="event id in the store (default: the only one)"
    )
    tc.add_argument("-o", "--output", required=True, help="the PDF to write")
    tc.add_argument(
        "--web-url",
        default=None,
        metavar="URL",
        help="the hall web page's address (referee-app hall-web): each pair's own page as a QR on its card",
    )
    _common(tc)
    tc.set_defaults(func=_guard(cmd_print_table_cards))

    rg = pr_sub.add_parser(
        "results", help="the results grid (成绩册): each pair's opponent and result in every round"
    )
    rg.add_argument(
        "--round", type=number, default=None, help="through this round (default: the last recorded)"
    )
    rg.add_argument(
        "--event", type=number, default=None, help="event id in the store (default: the only one)"
    )
    rg.add_argument("-o", "--output", required=True, help="the PDF to write")
    _sign_opts(rg)
    _common(rg)
    rg.set_defaults(func=_guard(cmd_print_results))

    key = subparsers.add_parser("key", help="the event's signing key; the stations' keys")
    key_sub = key.add_subparsers(dest="key_command", required=True, parser_class=type(key))
    kc = key_sub.add_parser("create", help="make a key and self-signed certificate (PKCS#12 + PEM)")
    kc.add_argument(
        "--out",
        default=None,
        help="the PKCS#12 file to write (FILE.p12); the certificate goes beside it as FILE.pem",
    )
    kc.add_argument(
        "--event",
        type=number,
        default=None,
        help="keep the key (encrypted) and certificate in the event store for this event",
    )
    kc.add_argument("--name", default=None, help="the certificate's common name (default: the event's name)")
    kc.add_argument("--organisation", default=None)
    from .store_commands import add_role_option

    add_role_option(kc)  # keeping a key in the store is the chief referee's, once PINs are set
    _common(kc)
    kc.set_defaults(func=_guard(cmd_key_create))

    ke = key_sub.add_parser(
        "export", help="write the event's certificate (PEM) for a third party to check signed PDFs"
    )
    ke.add_argument(
        "--event", type=number, default=None, help="event id in the store (default: the only one)"
    )
    ke.add_argument("-o", "--output", required=True, help="the certificate file to write (CERT.pem)")
    _common(ke)
    ke.set_defaults(func=_guard(cmd_key_export))
    from .store_commands import register_station_key_commands

    register_station_key_commands(key_sub)  # the stations' keys that sign the audit log

    vq = subparsers.add_parser(
        "verify-paper",
        help="does the event store hold exactly the record a printed scoresheet's QR names?",
    )
    vq.add_argument("code", help="the text of the scoresheet's QR code (RA1:E…:R…:T…:V…:H…:D…)")
    _common(vq)
    vq.set_defaults(func=_guard(cmd_verify_paper))

    vp = subparsers.add_parser(
        "verify-pdf", help="is a signed PDF intact and signed by this event's certificate?"
    )
    vp.add_argument("file")
    vp.add_argument(
        "--cert",
        default=None,
        help="the event's certificate (PEM), as written by key create (default: the event store's)",
    )
    vp.add_argument(
        "--event", type=number, default=None, help="event id in the store (default: the only one)"
    )
    _common(vp)
    vp.set_defaults(func=_guard(cmd_verify_pdf))


def _guard(fn: Handler) -> Handler:
    """This layer's errors as one line and an exit code; anything unexpected is left to
    ``referee_app.cli.main``, which says it in one line too."""

    def run(args: argparse.Namespace) -> int:
        try:
            return fn(args)
        except CommandError as err:
            say_error(err, args)
            return err.exit_code

    run.__name__ = fn.__name__
    run.__doc__ = fn.__doc__
    return run


def _lang(args: argparse.Namespace) -> str:
    lang = getattr(args, "lang", None)
    return lang if lang in ("zh", "en") else "zh"


# -- inputs ---------------------------------------------------------------------------------
def _read_case(name: str) -> dict[str, Any]:
    from ..core.inputs import BadInput, read_json

    source = "stdin" if name == "-" else name
    try:
        case = read_json(name)
    except BadInput as exc:
        raise _wrap(exc, 2) from None
    if not isinstance(case, dict):
        raise CommandError(
            f"{source}: expected a JSON object (a case), got {type(case).__name__}",
            2,
            code="case.not_object",
            source=source,
        )
    return case


def _scoresheet_from_file(name: str, args: argparse.Namespace, lang: str) -> Any:
    from ..app.printouts import scoresheet_from_case
    from ..core.errors import CaseError, RulebookError

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
        raise _wrap(exc, 2) from None
    except RecursionError:
        raise CommandError(
            f"{name}: the case is nested too deeply", 2, code="file.too_deep", source=name
        ) from None


def _passphrase(prompt_twice: bool = False) -> str:
    value = os.environ.get(PASSPHRASE_ENV)
    if value:
        return value
    if not sys.stdin.isatty():
        raise CommandError(
            f"the key's passphrase: set {PASSPHRASE_ENV} (no terminal to ask on)",
            code="key.passphrase_env",
            env=PASSPHRASE_ENV,
        )
    import getpass

    lang = current_language()
    value = getpass.getpass(text("out.ask_passphrase", lang))
    if prompt_twice and getpass.getpass(text("out.ask_again", lang)) != value:
        raise CommandError("the two passphrases differ; nothing written", code="key.passphrases_differ")
    return value


def _write_pdf(
    args: argparse.Namespace,
    render: Callable[[Any], None],
    forms: Sequence[Any] = (),
    reason: str = "",
) -> int:
    """Render into a temporary file beside the output, sign it if asked, then move it in place.

    With ``--sign`` each of ``forms`` gets the visible signature block (signer, time,
    certificate fingerprint, ``reason``, location) before it is drawn; then pyHanko signs the
    file (PAdES) with the same reason and location."""
    from ..app.errors import FormError, ResourceError

    out = Path(args.output)
    if out.parent and not out.parent.exists():
        raise CommandError(
            f"{out}: the folder {out.parent} does not exist",
            code="file.no_folder",
            field="out",
            target=out,
            folder=out.parent,
        )
    stored_key: bytes | None = None
    passphrase = ""
    location = getattr(args, "location", None) or ""
    if args.sign:
        from datetime import datetime

        from ..app.printouts import SignatureStamp

        if args.key:
            passphrase = _passphrase()
            subject, fingerprint = _key_file_identity(args.key, passphrase)
        else:
            stored_key, subject, fingerprint = _stored_key(args)
        location = location or getattr(args, "_event_name", "")
        stamp = SignatureStamp(subject, fingerprint, datetime.now().astimezone(), reason, location)
        for form in forms:
            form.stamp = stamp
    refuse_replacing_a_non_file(out, error=CommandError, field="out")
    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    try:
        try:
            with open(tmp, "wb") as handle:
                render(handle)
        except OSError as exc:
            line, data = cannot_write(out, exc, "out")
            raise CommandError(line, **data) from None
        except (FormError, ResourceError) as exc:
            raise _wrap(exc) from None
        if args.sign:
            from ..app.errors import SigningError
            from ..app.printouts import sign_pdf

            try:
                if stored_key is not None:
                    _sign_with_stored_key(tmp, stored_key, _passphrase(), reason, location)
                else:
                    sign_pdf(tmp, tmp, args.key, passphrase, reason=reason, location=location)
            except SigningError as exc:
                raise _wrap(exc) from None
        try:
            os.replace(tmp, out)
        except OSError as exc:
            line, data = cannot_write(out, exc, "out")
            raise CommandError(line, **data) from None
    finally:
        if tmp.exists():
            tmp.unlink()
    print(f"{out}", file=sys.stderr)
    return 0


def _key_file_identity(p12: str, passphrase: str) -> tuple[str, str]:
    """(subject, SHA-256 fingerprint) of the certificate in a PKCS#12 key file."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.serialization import pkcs12

    try:
        _key, cert, _more = pkcs12.load_key_and_certificates(
            read_limited(p12, error=CommandError, field="key"), passphrase.encode("utf-8")
        )
    except OSError as exc:
        raise CommandError(
            f"{p12}: cannot read the key: {exc.strerror or exc}",
            code="file.cannot_read",
            field="key",
            source=p12,
            detail=exc.strerror or str(exc),
        ) from None
    except ValueError:
        raise CommandError(
            f"{p12}: cannot open the key (wrong passphrase, or not a PKCS#12 file)",
            code="key.cannot_open",
            field="key",
            source=p12,
        ) from None
    if cert is None:
        raise CommandError(
            f"{p12}: the key file holds no certificate", code="key.no_certificate", field="key", source=p12
        )
    return cert.subject.rfc4514_string(), cert.fingerprint(hashes.SHA256()).hex()


def _no_sign_from_case(args: argparse.Namespace) -> None:
    """A sheet printed from a case file is not the event's record: it is never signed with
    the event's key (it says "not from the event record" instead)."""
    if getattr(args, "sign", False) and getattr(args, "case", None) is not None:
        raise CommandError(
            "--sign: a sheet printed from a case file is not the event's record and is not signed; "
            "print it from the event store (--round R --table T, or --ruling ID) to sign it",
            code="print.case_not_signed",
            field="sign",
        )


# -- the event store --------------------------------------------------------------------------
def _store_call(args: argparse.Namespace, fn: Callable[[Any], Any], *, read_only: bool = False) -> Any:
    """Run ``fn(store)`` on the event store named by ``--db``; store errors become one line.
    ``read_only``: ``fn`` only reads (the store is opened read-only, never created nor
    upgraded: ``Store.open``)."""
    try:
        from ..app.errors import StoreError
        from ..app.store import Store
    except ImportError as exc:  # the store is another layer; say so in one line
        raise CommandError(
            f"the event store is not available ({exc})", code="print.no_store", detail=str(exc)
        ) from None
    try:
        with Store.open(getattr(args, "db", None), read_only=read_only) as store:
            return fn(store)
    except StoreError as exc:
        raise _wrap(exc) from None


def _stored_key(args: argparse.Namespace) -> tuple[bytes, str, str]:
    """(PKCS#12, certificate subject, fingerprint) of the event's key kept in the event store
    (``--event``, or the event of what is printed)."""
    try:
        from ..app.errors import StoreError
        from ..app.store import Store
    except ImportError:  # pragma: no cover - the store ships with referee-app
        raise CommandError(
            "--sign needs --key FILE.p12 (the event key)", code="print.sign_needs_key", field="key"
        ) from None
    try:
        with Store.open(getattr(args, "db", None)) as store:
            event_id = getattr(args, "_event_id", None) or store.pick_event(getattr(args, "event", None)).id
            key = store.event_key(event_id)
    except StoreError as exc:
        raise CommandError(
            f"--sign needs --key FILE.p12, or an event key in the event store ({_one_line(exc)})",
            code="print.sign_needs_key",
            field="key",
        ) from None
    if key is None:
        raise CommandError(
            f"--sign needs --key FILE.p12: event {event_id} has no key in the event store "
            f"(make one: referee-app key create --event {event_id})",
            code="print.sign_no_key",
            field="key",
            event=event_id,
        )
    return bytes(key["p12"]), str(key["subject"]), str(key["sha256"])


def _sign_with_stored_key(pdf: Path, p12: bytes, passphrase: str, reason: str, location: str) -> None:
    import tempfile

    from ..app.errors import SigningError
    from ..app.printouts import sign_pdf

    with tempfile.TemporaryDirectory(prefix="referee-key-") as folder:
        path = Path(folder) / "event-key.p12"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(p12)
        try:
            sign_pdf(pdf, pdf, path, passphrase, reason=reason, location=location)
        except SigningError as exc:
            # name the store's key, never the temporary file
            stored = exc.code in ("key.cannot_open", "signing.cannot_sign")  # worded without the file
            values = {k: v for k, v in exc.values.items() if not (stored and k == "source")}
            raise SigningError(
                str(exc).replace(str(path), "the event's stored key"),
                code=f"{exc.code}_stored" if stored else exc.code,
                **values,
            ) from None


# -- handlers -------------------------------------------------------------------------------
def cmd_print_scoresheet(args: argparse.Namespace) -> int:
    lang = _lang(args)
    _no_sign_from_case(args)
    if args.blank is not None:
        _check_blank_rows(args.blank)
    if args.case is not None:
        data = _scoresheet_from_file(args.case, args, lang)
    else:
        if args.round is None or args.table is None:
            raise CommandError(
                "print scoresheet: give --case CASE.json, or --round R --table T (event store)",
                code="print.scoresheet_source",
            )
        if args.blank is not None:  # before play: the table as its published pairing seats it
            data = _blank_sheets(args, lang, args.round, args.table, args.blank)[0]
        else:
            data = _store_sheets(args, lang, args.round, args.table)[0]
    if args.blank is not None and data.blank_hands != args.blank:
        from ..app.printouts import blank_sheet  # rows to record the hands by hand

        data = blank_sheet(data, args.blank)
    from ..app.printouts import render_scoresheet

    reason = _record_reason(data, lang)
    return _write_pdf(args, lambda handle: render_scoresheet(data, handle), [data], reason)


def _check_blank_rows(rows: int) -> None:
    if not 1 <= rows <= 60:
        raise CommandError(
            f"--blank: expected a number of hand rows from 1 to 60, got {rows}",
            code="print.blank_rows",
            field="blank",
            got=rows,
        )


def _blank_sheets(
    args: argparse.Namespace, lang: str, round_no: int, table_no: int | None, hands: int
) -> list[Any]:
    """Blank sheets for the tables of a round's published pairing (or one table), to record
    the hands by hand; a table not in it but recorded (entered without a pairing) gets its
    record's blank sheet."""
    from ..app.errors import NotFoundError
    from ..app.printouts import blank_sheet, published_blank_sheets, store_scoresheets

    def read(store: Any) -> tuple[Any, list[Any]]:
        event = getattr(args, "event", None)
        try:
            ev, sheets = published_blank_sheets(store, event, round_no, table_no, hands, lang)
        except NotFoundError:
            ev, sheets = store.pick_event(event), []
        if not sheets:
            ev, recorded = store_scoresheets(store, ev.id, round_no, table_no, lang)
            sheets = [blank_sheet(s, hands) for s in recorded]
        return ev, sheets

    ev, sheets = _store_call(args, read, read_only=True)
    args._event_id = ev.id
    args._event_name = ev.name
    if not sheets:
        if table_no is None:
            raise CommandError(
                f"round {round_no}: no published pairing in event {ev.id} ({ev.name}), nor a record; "
                "publish the round's pairing first",
                code="print.no_round_to_blank",
                round=round_no,
                event=ev.id,
                name=ev.name,
            )
        raise CommandError(
            f"round {round_no}, table {table_no}: no such table in the published pairing of event "
            f"{ev.id} ({ev.name}), nor a record; publish the round's pairing first",
            code="print.no_table_to_blank",
            round=round_no,
            table=table_no,
            event=ev.id,
            name=ev.name,
        )
    return sheets


def _record_reason(data: Any, lang: str) -> str:
    """The signature's reason: which record of the event this PDF is."""
    stamp = data.record
    version = f" v{stamp.version}" if stamp is not None else ""
    return text("print_out.reason_scoresheet", lang, round=data.round, table=data.table, version=version)


def cmd_print_round(args: argparse.Namespace) -> int:
    lang = _lang(args)
    if args.blank is not None:
        _check_blank_rows(args.blank)
        sheets = _blank_sheets(args, lang, args.round, None, args.blank)
    else:
        sheets = _store_sheets(args, lang, args.round, None)
    from ..app.printouts import render_round

    total = len(sheets)
    quiet = getattr(args, "quiet", False)

    def progress(done: int) -> None:
        # one line per table on a log, one updated line on a terminal
        if quiet:
            return
        line = text("print_out.round_progress", lang, round=args.round, done=done, n=total)
        if sys.stderr.isatty():
            print(f"\r{line}", end="" if done < total else "\n", file=sys.stderr, flush=True)
        else:
            print(line, file=sys.stderr, flush=True)

    reason = text("print_out.reason_round", lang, round=args.round, n=total)
    return _write_pdf(args, lambda handle: render_round(sheets, handle, progress=progress), sheets, reason)


def _store_sheets(args: argparse.Namespace, lang: str, round_no: int, table_no: int | None) -> list[Any]:
    """Scoresheet data for a round (or one table) from the event store (the builder the
    window uses too: :func:`.build.store_scoresheets`)."""
    from ..app.printouts import store_scoresheets

    ev, sheets = _store_call(
        args,
        lambda store: store_scoresheets(store, getattr(args, "event", None), round_no, table_no, lang),
        read_only=True,
    )
    args._event_id = ev.id
    args._event_name = ev.name
    if not sheets:
        where = f"round {round_no}" + (f", table {table_no}" if table_no is not None else "")
        raise CommandError(
            f"{where}: no result recorded in event {ev.id} ({ev.name})",
            code="print.no_result" if table_no is None else "print.no_table_result",
            round=round_no,
            table=table_no,
            event=ev.id,
            name=ev.name,
        )
    return sheets


def cmd_print_ruling(args: argparse.Namespace) -> int:
    if args.case is None:
        if args.ruling is not None:
            return _print_stored_ruling(args)
        raise CommandError(
            "print ruling: give --case CASE.json --hand N [--index I], or --ruling ID",
            code="print.ruling_source",
        )
    if args.hand is None:
        raise CommandError(
            "print ruling: --hand N is needed with --case (0 for a ruling before play)",
            code="print.hand_needed",
            field="hand",
        )
    _no_sign_from_case(args)
    lang = _lang(args)
    sheet = _scoresheet_from_file(args.case, args, lang)
    from ..app.printouts import RulingSlipData, applied_clause
    from ..core.rulebook import load_rulebook

    dec = sheet.decision
    if args.hand == 0:
        rulings = dec.get("before_play") or []
        where = "before_play"
    else:
        hands = dec.get("hands") or []
        if not 1 <= args.hand <= len(hands):
            raise CommandError(
                f"{args.case}: --hand {args.hand}: no such hand (the case has {len(hands)})",
                code="print.no_such_hand",
                field="hand",
                source=args.case,
                hand=args.hand,
                n=len(hands),
            )
        rulings = hands[args.hand - 1].get("rulings") or []
        where = f"hands[{args.hand - 1}]"
    if not 1 <= args.index <= len(rulings):
        raise CommandError(
            f"{args.case}: {where}: --index {args.index}: no such ruling (there are {len(rulings)})",
            code="print.no_such_ruling",
            field="index",
            source=args.case,
            index=args.index,
            n=len(rulings),
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
        clause=applied_clause(rulebook, ruling),
        proposed_clause=(
            applied_clause(rulebook, ruling["proposed"]) if isinstance(ruling.get("proposed"), dict) else None
        ),
        appeal=rulebook.data.get("appeal"),
        lang=lang,
        serial="-".join(
            x
            for x in (
                f"R{sheet.round}" if sheet.round else "",
                f"T{sheet.table}" if sheet.table else "",
                f"H{args.hand}-{args.index}" if args.hand else f"B-{args.index}",
            )
            if x
        ),
    )
    from ..app.printouts import render_ruling

    return _write_pdf(args, lambda handle: render_ruling(data, handle), [data])


def _print_stored_ruling(args: argparse.Namespace) -> int:
    from ..app.printouts import stored_ruling_slip

    lang = _lang(args)

    def read(store: Any) -> tuple[Any, Any]:
        try:
            return stored_ruling_slip(store, getattr(args, "event", None), args.ruling, lang)
        except LookupError as exc:
            raise CommandError(str(exc).strip("'\"")) from None

    ev, data = _store_call(args, read, read_only=True)
    args._event_id = ev.id
    args._event_name = ev.name
    if args.date:
        data.event.date = args.date
    from ..app.printouts import render_ruling

    reason = text("print_out.reason_ruling", lang, serial=data.serial)
    return _write_pdf(args, lambda handle: render_ruling(data, handle), [data], reason)


def cmd_print_appeal(args: argparse.Namespace) -> int:
    """The appeal form of a stored appeal (see :func:`appeal_form_data`)."""
    from ..app.printouts import appeal_form_data, blank_appeal_form, render_appeal

    lang = _lang(args)
    if args.blank or args.appeal is None:
        if not args.blank:
            raise CommandError(
                "print appeal: give --appeal ID (a stored appeal) or --blank (a blank form)",
                code="print.appeal_source",
            )
        ev, blank = _store_call(
            args, lambda store: blank_appeal_form(store, args.event, lang), read_only=True
        )
        args._event_id = ev.id
        args._event_name = ev.name
        args.sign = False  # a blank form is no record to sign
        return _write_pdf(args, lambda handle: render_appeal(blank, handle), [blank])
    try:
        ev, data = _store_call(args, lambda store: appeal_form_data(store, args.appeal, lang), read_only=True)
    except CommandError as exc:
        if str(exc).startswith("no appeal"):
            raise CommandError(
                f"--appeal: {exc}",
                code=getattr(exc, "code", None),
                field="appeal",
                **getattr(exc, "values", {}),
            ) from None
        raise
    args._event_id = ev.id
    args._event_name = ev.name

    reason = text("print_out.reason_appeal", lang, appeal=data.appeal_no)
    return _write_pdf(args, lambda handle: render_appeal(data, handle), [data], reason)


def cmd_key_create(args: argparse.Namespace) -> int:
    """Make the event's key: into files (``--out``), into the event store (``--event``), or both."""
    import tempfile

    from ..app.errors import SigningError
    from ..app.printouts import make_event_identity

    if args.out is None and args.event is None:
        raise CommandError(
            "key create: give --event ID (keep it in the event store) or --out FILE.p12",
            code="key.create_target",
        )
    ev = None
    if args.event is not None:

        def check(store: Any) -> Any:
            e = store.pick_event(args.event)
            if store.event_key(e.id) is not None:
                raise CommandError(
                    f"event {e.id} already has a signing key (an event key is never replaced)",
                    code="event.key_exists",
                    event=e.id,
                )
            return e

        ev = _store_call(args, check)
    name = args.name or (ev.name if ev is not None else "referee-app event")
    out = Path(args.out) if args.out else None
    if out is not None:
        for path in (out, out.with_suffix(".pem")):
            if path.exists():
                raise CommandError(
                    f"{path}: already exists (an event key is never overwritten)",
                    code="file.exists",
                    field="out",
                    target=path,
                )
    passphrase = _passphrase(prompt_twice=True)
    with tempfile.TemporaryDirectory(prefix="referee-key-") as folder:
        target = out.parent if out is not None else Path(folder)
        try:
            ident = make_event_identity(
                target,
                passphrase,
                common_name=name,
                organisation=args.organisation,
                p12_name=out.name if out is not None else "event-key.p12",
                cert_name=out.with_suffix(".pem").name if out is not None else "event-cert.pem",
            )
        except SigningError as exc:
            raise _wrap(exc) from None
        except OSError as exc:
            line, data = cannot_write(out or target, exc, "out")
            raise CommandError(line, **data) from None
        if ev is not None:
            from .store_commands import acting_as

            p12, pem = ident.p12_path.read_bytes(), ident.cert_path.read_bytes()
            _store_call(
                args,
                lambda store: store.store_event_key(
                    ev.id,
                    p12=p12,
                    cert_pem=pem,
                    subject=ident.subject,
                    fingerprint=ident.sha256_fingerprint,
                    actor=acting_as(args, store, ev.id),
                ),
            )
            print(f"event {ev.id}")
    if out is None:
        print(f"subject {ident.subject}")
        print(f"sha256 {ident.sha256_fingerprint}")
        return 0
    print(f"key {ident.p12_path}")
    print(f"certificate {ident.cert_path}")
    print(f"subject {ident.subject}")
    print(f"sha256 {ident.sha256_fingerprint}")
    return 0


def cmd_verify_pdf(args: argparse.Namespace) -> int:
    from ..app.errors import SigningError
    from ..app.printouts import verify_pdf

    cert: Any = args.cert
    if not cert:

        def read(store: Any) -> tuple[Any, Any]:
            ev = store.pick_event(args.event)
            return ev, store.event_key(ev.id)

        try:
            ev, key = _store_call(args, read, read_only=True)
        except CommandError as exc:
            raise CommandError(
                f"verify-pdf: give --cert CERT.pem, or keep the event's key in the event store ({exc})",
                code="verify.no_cert",
                field="cert",
            ) from None
        if key is None:
            raise CommandError(
                f"verify-pdf: event {ev.id} has no key in the event store; give --cert CERT.pem "
                f"(or make one: referee-app key create --event {ev.id})",
                code="verify.no_key",
                field="cert",
                event=ev.id,
            )
        from cryptography import x509

        cert = x509.load_pem_x509_certificate(key["cert_pem"])
    try:
        result = verify_pdf(args.file, cert)
    except SigningError as exc:
        raise _wrap(exc) from None
    if lang_of(args) == "en":  # the signing layer's own English line
        when = f", signed at {result.signed_at}" if result.signed_at else ""
        tail = f" ({result.signer}){when}" if result.ok else ""
        print(f"{args.file}: {result.message}{tail}")
        return 0 if result.ok else 1
    if result.ok:
        when = text("print_out.signed_at", args, at=result.signed_at) if result.signed_at else ""
        print(text("print_out.pdf_ok", args, file=args.file, signer=result.signer, when=when))
        return 0
    verdict = {
        "not signed": "print_out.pdf_not_signed",
        "modified: the signed bytes have changed": "print_out.pdf_changed",
        "modified: content was added after signing": "print_out.pdf_appended",
        "not signed by this event's certificate: its content is not vouched for": "print_out.pdf_other_cert",
        (
            "modified: changed after this event's certificate signed it, "
            "and signed again by another certificate"
        ): "print_out.pdf_resigned",
    }.get(result.message, "print_out.pdf_damaged")
    print(text(verdict, args, file=args.file))
    return 1


def cmd_verify_paper(args: argparse.Namespace) -> int:
    """Check a printed form's QR text against the event store (``app.paper_check``): a
    scoresheet, ruling slip, appeal form, pairing list or standings. The form names this
    event (its stable identity, not only its local number: else 不是本赛事的单据), the store
    holds what it names and still gives the printed digest, the audit chain still holds the
    entry printed as its head; a versioned record is the current version, and a scoresheet or
    slip says whether that version was signed by the players and the table referee.
    Exit 0: confirmed; 1: another event, not held, altered, changed, or superseded; 2: not a code."""
    from ..app.errors import PaperCodeError
    from ..app.paper_check import check_paper
    from ..app.printouts import parse_paper_code

    try:
        code = parse_paper_code(args.code)
    except PaperCodeError as exc:
        raise CommandError(f"verify-paper: {exc}", 2, code=exc.code, **exc.values) from None
    parts = [text(f"print_out.paper_kind_{code.kind}", args)] if code.kind else []
    parts.append(f"E{code.event_id} R{code.round}")
    if code.table is not None:
        parts.append(f"T{code.table}")
    if code.version is not None:
        parts.append(f"v{code.version}")
    if code.number is not None and code.kind in ("S", "A"):
        parts.append(f"#{code.number}")
    where = " ".join(parts)
    check = _store_call(args, lambda store: check_paper(store, code), read_only=True)
    if check.event_name is None:  # another event's sheet (or another store's): nothing to compare
        print(f"{where}: " + text("print_out.paper_other_event", args))
        return 1
    sep = text("print_out.separator", args)
    problems: list[str] = []
    if not check.found:
        if code.version is not None:
            problems.append(text("print_out.paper_no_version", args, version=code.version))
        else:
            problems.append(text("print_out.paper_no_record", args))
    elif not check.intact:
        altered = "print_out.paper_altered" if check.versioned else "print_out.paper_differs"
        problems.append(text(altered, args))
    if not check.chain:
        problems.append(text("print_out.paper_chain", args, seq=code.chain_seq))
    if problems:
        print(f"{where}: " + sep.join(problems))
        return 1
    tail = ""
    if check.signed is not None:
        tail = sep + text("print_out.paper_signed" if check.signed else "print_out.paper_unsigned", args)
    if not check.versioned:
        print(text("print_out.paper_ok_now", args, where=where, name=check.event_name) + tail)
        return 0
    if code.version != check.current:
        line = text(
            "print_out.paper_replaced", args, where=where, version=code.version, current=check.current,
            name=check.event_name,
        )  # fmt: skip
        print(line + tail)
        return 1
    print(text("print_out.paper_ok", args, where=where, name=check.event_name) + tail)
    return 0


def cmd_key_export(args: argparse.Namespace) -> int:
    """The event's certificate, as kept in the store, for a third party (``verify-pdf --cert``)."""

    def read(store: Any) -> tuple[Any, Any]:
        ev = store.pick_event(args.event)
        return ev, store.event_key(ev.id)

    ev, key = _store_call(args, read, read_only=True)
    if key is None:
        raise CommandError(
            f"event {ev.id} has no signing key in the event store "
            f"(make one: referee-app key create --event {ev.id})",
            code="key.none",
            event=ev.id,
        )
    out = Path(args.output)
    if out.exists():
        raise CommandError(f"{out}: already exists", code="file.exists", field="out", target=out)
    try:
        out.write_bytes(bytes(key["cert_pem"]))
    except OSError as exc:
        line, data = cannot_write(out, exc, "out")
        raise CommandError(line, **data) from None
    print(f"certificate {out}")
    print(f"subject {key['subject']}")
    print(f"sha256 {key['sha256']}")
    return 0


def cmd_print_standings(args: argparse.Namespace) -> int:
    """The standings sheet from the store: provisional unless ``--final``; tied ranks marked."""
    from ..app.printouts import StandingsSheet, chief_referee_name, render_standings, stamp_standings
    from ..core.standings import compute_standings
    from .desk_commands import load_event

    if args.round is not None and args.round < 0:
        raise CommandError(
            f"--round: expected 0 or more, got {args.round}",
            code="input.round_or_zero",
            field="round",
            got=args.round,
        )

    def read(store: Any) -> tuple[Any, str]:
        loaded = load_event(store, args.event)
        return loaded, chief_referee_name(store.log(loaded.ev.id))

    loaded, chief = _store_call(args, read, read_only=True)
    args._event_id = loaded.ev.id
    args._event_name = loaded.ev.name
    seed = loaded.ev.id if args.seed is None else args.seed
    if loaded.knockout:  # one official ranking: the bracket's places, not match points
        from ..app.printouts import bracket_sheet, render_bracket, stamp_bracket

        bracket = bracket_sheet(loaded, seed)
        _store_call(args, lambda store: stamp_bracket(store, loaded, bracket, seed), read_only=True)
        reason = text(
            "print_out.reason_standings_final" if args.final else "print_out.reason_standings_provisional",
            args,
            round=loaded.record.last_round(),
        )
        return _write_pdf(args, lambda handle: render_bracket(bracket, handle), [bracket], reason)
    table = compute_standings(loaded.rulebook, loaded.record, through_round=args.round, seed=seed)
    sheet = StandingsSheet.build(loaded.ev, loaded.rulebook, loaded.pairs, table)
    sheet.withdrawn = {w.pair: w.first_round for w in loaded.record.withdrawals if w.back_from is None}
    sheet.final = bool(args.final)
    sheet.chief_referee = chief
    _store_call(args, lambda store: stamp_standings(store, loaded.ev.id, sheet), read_only=True)
    kind = "final" if args.final else "provisional"
    reason = text(f"print_out.reason_standings_{kind}", args, round=table.round)
    return _write_pdf(args, lambda handle: render_standings(sheet, handle), [sheet], reason)


def cmd_print_prizes(args: argparse.Namespace) -> int:
    """The prize list (获奖名单, ``app.printouts.prize_list``); its warnings on standard error too."""
    from ..app.printouts import prize_list, render_prize_list
    from .desk_commands import load_event

    if args.round is not None:
        _check_round(args.round)

    def read(store: Any) -> tuple[Any, str]:
        from ..app.printouts import chief_referee_name

        loaded = load_event(store, args.event)
        return loaded, chief_referee_name(store.log(loaded.ev.id))

    loaded, chief = _store_call(args, read, read_only=True)
    args._event_id = loaded.ev.id
    args._event_name = loaded.ev.name
    sheet = prize_list(loaded, args.round, args.seed)
    sheet.final = bool(args.final)
    sheet.chief_referee = chief
    for line in prize_list(loaded, args.round, args.seed, lang=_lang(args)).warnings:
        print(line, file=sys.stderr)  # the sheet's are in Chinese; these in the command's language
    reason = text("print_out.reason_prizes", args, round=sheet.round)
    return _write_pdf(args, lambda handle: render_prize_list(sheet, handle), [sheet], reason)


def cmd_print_results(args: argparse.Namespace) -> int:
    """The results grid (成绩册) from the store, through ``--round`` (default: the last)."""
    from ..app.printouts import render_results_grid, results_grid
    from .desk_commands import load_event

    if args.round is not None:
        _check_round(args.round)
    loaded = _store_call(args, lambda store: load_event(store, args.event), read_only=True)
    args._event_id = loaded.ev.id
    args._event_name = loaded.ev.name
    sheet = results_grid(loaded, args.round)
    reason = text("print_out.reason_results", args, round=sheet.rounds)
    return _write_pdf(args, lambda handle: render_results_grid(sheet, handle), [sheet], reason)


def _check_round(round_no: int) -> None:
    check_round(round_no, error=CommandError)


def cmd_print_table_cards(args: argparse.Namespace) -> int:
    """Table cards of a round's pairing, read as ``print pairing`` reads it."""
    from ..app.printouts import render_table_cards

    args.sign = False
    sheet = _pairing_sheet(args)
    return _write_pdf(args, lambda handle: render_table_cards(sheet, handle))


def _pairing_sheet(args: argparse.Namespace) -> Any:
    """The round's pairing sheet as ``app.pairing.round_pairing`` reads it (see
    :func:`cmd_print_pairing`)."""
    from ..core.pairing import PairingError

    _check_round(args.round)
    if getattr(args, "web_url", None) is not None:
        from ..app.hall_public import check_web_url

        check_web_url(args.web_url)

    def read(store: Any) -> Any:
        from ..app.pairing import pairing_sheet, round_pairing

        try:
            rp = round_pairing(store, store.pick_event(args.event).id, args.round)
        except PairingError as exc:
            raise CommandError(
                f"--round {args.round}: {_one_line(exc)}",
                code=getattr(exc, "code", None),
                **getattr(exc, "values", {}),
            ) from None
        return rp.loaded, pairing_sheet(rp, web_url=getattr(args, "web_url", None), store=store)

    loaded, sheet = _store_call(args, read)
    args._event_id = loaded.ev.id
    args._event_name = loaded.ev.name
    return sheet


def cmd_print_pairing(args: argparse.Namespace) -> int:
    """The pairing list of a round as ``app.pairing.round_pairing`` reads it (the window's
    pairing view and ``pair`` read the same): the published pairing (its latest version);
    else the tables seated in the store; else the round's proposal, marked as not published.
    Printing draws nothing: a drawn round that has not been drawn is refused in one line.
    ``--by name``: every player in pinyin order with table, side and opponents."""
    sheet = _pairing_sheet(args)
    from ..app.printouts import render_pairing, render_pairing_by_name

    render = render_pairing_by_name if getattr(args, "by", "table") == "name" else render_pairing
    reason = text("print_out.reason_pairing", args, round=args.round)
    return _write_pdf(args, lambda handle: render(sheet, handle), [sheet], reason)
