"""The store's command-line subcommands: event, pairs, record, void, export, verify, log,
appeal, sign, correct, role.

Roles: every writing command takes ``--role ROLE`` (or ``$REFEREE_APP_ROLE``); on an event
whose roles are enforced the role's PIN is read from ``$REFEREE_APP_PIN`` or asked for
without echo, never taken from the command line. The store checks what the role may do.

``register(subparsers)`` only builds argparse parsers; SQLAlchemy and the core are
imported inside the handlers, so ``referee-app judge`` does not pay for them.  Every
handler returns an exit code; a user error prints one line on standard error and
returns 2 (nothing is changed), never a traceback; ``verify`` returns 1 when it finds a
problem (docs/exit-codes.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from ..core.errors import Reported, cannot_write
from ..core.errors import one_line as _one_line
from ..core.inputs import number
from ..core.seats import SEAT_NAMES
from .messages import current_language, error_line, lang_of, say_error, text
from .output import stdout_json

Handler = Callable[[argparse.Namespace], int]


def _common(p: argparse.ArgumentParser) -> None:
    # Like the other commands, --lang (and --db) may also follow the command.
    p.add_argument("--lang", choices=("zh", "en"), default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    p.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)


ROLE_CHOICES = ("table_referee", "chief_referee", "arbitration")
ENV_ROLE, ENV_PIN, ENV_NEW_PIN = "REFEREE_APP_ROLE", "REFEREE_APP_PIN", "REFEREE_APP_NEW_PIN"


def add_role_option(p: argparse.ArgumentParser) -> None:
    """``--role ROLE`` on a writing command (other layers' commands use it with ``acting_as``)."""
    p.add_argument(
        "--role",
        choices=ROLE_CHOICES,
        default=None,
        help=f"act as this role (default: {ENV_ROLE}); its PIN comes from {ENV_PIN} or a prompt",
    )


def _who(p: argparse.ArgumentParser) -> None:
    p.add_argument("--user", default=None, help="who writes (default: REFEREE_APP_USER or the login name)")
    add_role_option(p)
    p.add_argument(
        "--station",
        default=None,
        help="which station writes (default: REFEREE_APP_STATION or the host name)",
    )


def _event_opt(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--event", type=number, default=None, help="event id (default: the only event in the database)"
    )


def register(subparsers: Any) -> None:
    """Add the store's subcommands to ``referee-app``'s argparse subparsers."""
    ev = subparsers.add_parser("event", help="create or list events in the event store")
    ev_sub = ev.add_subparsers(dest="event_command", required=True, parser_class=type(ev))
    create = ev_sub.add_parser("create", help="create an event pinned to a rulebook")
    create.add_argument("--rules", required=True, help="bundled rulebook id or a .toml path")
    create.add_argument("--name", required=True, help="the event's name")
    create.add_argument("--date", default=None, help="YYYY-MM-DD")
    _who(create)
    _common(create)
    create.set_defaults(func=_guard(cmd_event_create))
    lst = ev_sub.add_parser("list", help="the events in the database")
    _common(lst)
    lst.set_defaults(func=_guard(cmd_event_list))
    det = ev_sub.add_parser(
        "details",
        help="the event's organiser, venue and chief referee for its forms (shown; set with the options)",
    )
    _event_opt(det)
    det.add_argument("--organiser", default=None, help='主办单位, as printed on every form ("" clears it)')
    det.add_argument("--venue", default=None, help="比赛地点, the venue")
    det.add_argument("--chief-referee", default=None, help="裁判长's name, printed on the forms")
    _who(det)
    _common(det)
    det.set_defaults(func=_guard(cmd_event_details))

    pa = subparsers.add_parser("pairs", help="import or list an event's pairs")
    pa_sub = pa.add_subparsers(dest="pairs_command", required=True, parser_class=type(pa))
    imp = pa_sub.add_parser(
        "import",
        help="import pairs from CSV (UTF-8 or GB18030) or Excel (.xlsx, .xls): number,player1,player2[,unit]",
    )
    imp.add_argument("file")
    _event_opt(imp)
    _who(imp)
    _common(imp)
    imp.set_defaults(func=_guard(cmd_pairs_import))
    pl = pa_sub.add_parser("list", help="the event's pairs")
    _event_opt(pl)
    _common(pl)
    pl.set_defaults(func=_guard(cmd_pairs_list))

    rec = subparsers.add_parser(
        "record", help="judge a case (with round, table, pairs) and record it; prints the match id"
    )
    rec.add_argument("case", help="a case file, or - for standard input")
    _event_opt(rec)
    rec.add_argument(
        "--expect-version",
        type=number,
        default=None,
        help="refuse unless the round and table are at this version (0 = new)",
    )
    rec.add_argument(
        "--token",
        default=None,
        help="idempotency key: recording the same token again writes nothing",
    )
    _who(rec)
    _common(rec)
    rec.set_defaults(func=_guard(cmd_record))

    vo = subparsers.add_parser("void", help="void the current result of a round and table")
    _event_opt(vo)
    vo.add_argument("--round", type=number, required=True)
    vo.add_argument("--table", type=number, required=True)
    vo.add_argument("--reason", required=True)
    vo.add_argument("--expect-version", type=number, default=None)
    _who(vo)
    _common(vo)
    vo.set_defaults(func=_guard(cmd_void))

    ex = subparsers.add_parser("export", help="JSON lines: each current match, case and decision")
    _event_opt(ex)
    ex.add_argument("-o", "--output", default=None, help="write to this file (default: stdout)")
    _progress_opt(ex)
    _common(ex)
    ex.set_defaults(func=_guard(cmd_export))

    verify_help = (
        "recompute the audit chain and check its signatures and rows; report every problem "
        "(the first 50 and a count of the rest); exit 1 if there is any"
    )
    ve = subparsers.add_parser("verify", help=verify_help, description=verify_help)
    ve.add_argument(
        "--head",
        default=None,
        help="a hash printed by an earlier verify (e.g. noted on a signed scoresheet), or an "
        "anchor RA1:<entry>:<hash> (the text of a QR code): also check the log still holds it",
    )
    ve.add_argument(
        "--anchors",
        default=None,
        metavar="FILE",
        help="a file of anchors written by `referee-app anchor`: report truncation or rewriting",
    )
    ve.add_argument(
        "--root",
        default=None,
        metavar="FINGERPRINT",
        help="the trust root's fingerprint kept by the chief referee (printed by `key register`)",
    )
    _progress_opt(ve)
    _common(ve)
    ve.set_defaults(func=_guard(cmd_verify))

    demo = subparsers.add_parser(
        "demo", help="build the demo event (Gansu, 12 pairs, a round played) in a new store file"
    )
    demo.add_argument(
        "--store",
        default=None,
        metavar="PATH",
        help="the new SQLite file to build it in (default: a new file in the data folder's demo/)",
    )
    _common(demo)
    demo.set_defaults(func=_guard(cmd_demo))

    _register_db_commands(subparsers)

    an = subparsers.add_parser(
        "anchor", help="print the chain's head as an anchor (RA1:<entry>:<hash>) to keep outside"
    )
    an.add_argument("-o", "--output", default=None, help="append it to this anchor file too")
    an.add_argument(
        "--note",
        action="store_true",
        help="also note in the log that this anchor was kept (the window stops reminding the chief referee)",
    )
    _common(an)
    an.set_defaults(func=_guard(cmd_anchor))

    co = subparsers.add_parser(
        "correct",
        help="a chief referee's correction: record a case over a signed round, with a reason",
    )
    co.add_argument("case", help="a case file, or - for standard input")
    co.add_argument("--reason", required=True, help="why the record is corrected (kept in the log)")
    _event_opt(co)
    co.add_argument("--expect-version", type=number, default=None)
    co.add_argument(
        "--replace-decisions",
        action="store_true",
        help="the case changes or drops rulings that carry a decision (an override, a voiding, the "
        "committee's): take it as given (without this, such a case is refused; decisions on rulings "
        "it does not touch are always kept)",
    )
    _who(co)
    _common(co)
    co.set_defaults(func=_guard(cmd_correct))

    sg = subparsers.add_parser(
        "sign", help="store the signatures (PNG) of N, E, S, W and the table referee; locks the round"
    )
    _event_opt(sg)
    sg.add_argument("--round", type=number, required=True)
    sg.add_argument("--table", type=number, required=True)
    sg.add_argument("--expect-version", type=number, required=True, help="the version the signers saw")
    for k in ("N", "E", "S", "W", "referee"):
        sg.add_argument(f"--{k}", dest=f"sig_{k}", required=True, metavar="PNG", help=f"{k}'s signature")
    _who(sg)
    _common(sg)
    sg.set_defaults(func=_guard(cmd_sign))

    ap = subparsers.add_parser("appeal", help="appeals (申诉): file, review, decide, withdraw, list")
    ap_sub = ap.add_subparsers(dest="appeal_command", required=True, parser_class=type(ap))
    af = ap_sub.add_parser("file", help="file an appeal against one ruling (checked against the window)")
    af.add_argument(
        "--ruling", type=number, required=True, help="the ruling's id (see referee-app appeal list)"
    )
    af.add_argument("--by", required=True, help="the appealing pair's side: NS or EW")
    af.add_argument("--grounds", required=True)
    af.add_argument("--evidence", default=None, help="the evidence, in writing")
    af.add_argument("--attachment", default=None, metavar="FILE", help="a photo or scan of the evidence")
    af.add_argument("--receipt", default=None, help="the fee's receipt number")
    af.add_argument("--filed-at", default=None, help="when it was handed in (ISO 8601; default now)")
    af.add_argument(
        "--ended-at",
        default=None,
        help="when the window opened (ISO 8601; default: when the result was recorded)",
    )
    af.add_argument("--accept-late", action="store_true", help="the chief referee accepts it late")
    af.add_argument("--reason", default=None, help="why a late appeal is accepted")
    af.add_argument(
        "--backdate-reason",
        default=None,
        help="why --filed-at/--ended-at replace the store's clock (the chief referee's act)",
    )
    _event_opt(af)
    _who(af)
    _common(af)
    af.set_defaults(func=_guard(cmd_appeal_file))
    ar = ap_sub.add_parser("review", help="the committee takes the appeal up (filed → under review)")
    ar.add_argument("id", type=number)
    _event_opt(ar)
    _who(ar)
    _common(ar)
    ar.set_defaults(func=_guard(cmd_appeal_review))
    ad = ap_sub.add_parser("decide", help="decide an appeal: upheld, modified or rejected")
    ad.add_argument("id", type=number)
    ad.add_argument("--decision", required=True, choices=("upheld", "modified", "rejected"))
    ad.add_argument("--reason", required=True)
    ad.add_argument("--committee", required=True, help='the committee\'s names, "名1,名2"')
    ad.add_argument("--sanctions", default=None, help='JSON list (override vocabulary), e.g. ["warning"]')
    _event_opt(ad)
    _who(ad)
    _common(ad)
    ad.set_defaults(func=_guard(cmd_appeal_decide))
    aw = ap_sub.add_parser("withdraw", help="the appellant withdraws the appeal")
    aw.add_argument("id", type=number)
    aw.add_argument("--reason", required=True)
    _event_opt(aw)
    _who(aw)
    _common(aw)
    aw.set_defaults(func=_guard(cmd_appeal_withdraw))
    al = ap_sub.add_parser("list", help="the event's appeals and their states")
    al.add_argument("--round", type=number, default=None)
    al.add_argument("--json", action="store_true")
    _event_opt(al)
    _common(al)
    al.set_defaults(func=_guard(cmd_appeal_list))

    ro = subparsers.add_parser("role", help="roles' PINs (裁判员, 裁判长, 仲裁委员会): set one, or see them")
    ro_sub = ro.add_subparsers(dest="role_command", required=True, parser_class=type(ro))
    rs = ro_sub.add_parser(
        "set-pin",
        help=f"set or change a role's PIN (the chief referee's act: the chief referee's PIN from "
        f"{ENV_PIN} or a prompt; the new PIN from {ENV_NEW_PIN} or a prompt, asked twice)",
    )
    rs.add_argument("--role", required=True, choices=ROLE_CHOICES, help="whose PIN is set")
    rs.add_argument("--user", default=None, help="who writes (default: REFEREE_APP_USER or the login name)")
    rs.add_argument("--station", default=None, help="which station writes")
    _event_opt(rs)
    _common(rs)
    rs.set_defaults(func=_guard(cmd_role_set_pin))
    rst = ro_sub.add_parser("status", help="which roles have a PIN, which are locked and until when")
    rst.add_argument("--json", action="store_true")
    _event_opt(rst)
    _common(rst)
    rst.set_defaults(func=_guard(cmd_role_status))

    _register_backup_commands(subparsers)

    lo = subparsers.add_parser("log", help="the audit trail, readable")
    _event_opt(lo)
    lo.add_argument("--round", type=number, default=None)
    lo.add_argument("--table", type=number, default=None)
    _common(lo)
    lo.set_defaults(func=_guard(cmd_log))


def _register_backup_commands(subparsers: Any) -> None:
    """``backup`` and ``restore`` (issue 24 item 9; docs/backup.md)."""
    bk = subparsers.add_parser(
        "backup",
        help="copy the event store to a file, safely while a window writes to it; the copy is verified",
    )
    bk.add_argument("--store", default=None, help="the store to copy (default: --db or REFEREE_APP_DB)")
    bk.add_argument("--out", required=True, metavar="FILE", help="the backup file to write")
    bk.add_argument("--force", action="store_true", help="replace a file already at --out")
    _event_opt(bk)
    _who(bk)
    _common(bk)
    bk.set_defaults(func=_guard(cmd_backup))
    rs = subparsers.add_parser(
        "restore",
        help="make the event store again from a backup file (checked first; a store in use is refused)",
    )
    rs.add_argument("--from", dest="source", required=True, metavar="FILE", help="the backup file")
    rs.add_argument("--store", default=None, help="the store to restore (default: --db or REFEREE_APP_DB)")
    rs.add_argument("--force", action="store_true", help="replace the store already there")
    _event_opt(rs)
    _who(rs)
    _common(rs)
    rs.set_defaults(func=_guard(cmd_restore))


def _store_arg(args: argparse.Namespace) -> None:
    """``--store`` is the command's own name for ``--db``."""
    if getattr(args, "store", None):
        args.db = args.store


def _chief(args: argparse.Namespace, store: Any, event_id: int | None) -> Any:
    """The actor of a backup or a restore: the chief referee logged in (its PIN asked) on an
    event whose roles are enforced; otherwise who runs the command."""
    from ..app.store import roles

    events = store.list_events()
    if event_id is None and not events:
        return _actor(args)
    ev = store.pick_event(event_id)
    if not getattr(args, "role", None) and not os.environ.get(ENV_ROLE):
        args.role = roles.CHIEF_REFEREE
    return acting_as(args, store, ev.id)


def cmd_backup(args: argparse.Namespace) -> int:
    _store_arg(args)
    with _open(args) as store:
        actor = _chief(args, store, args.event)
        done = store.backup(args.out, actor=actor, event_id=args.event, force=args.force)
    print(text("out.backup_done", args, file=done.where, n=done.entries, anchor=done.anchor))
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from ..app.store import Store, display_url, resolve_target

    _store_arg(args)
    target = getattr(args, "db", None)
    where = display_url(resolve_target(target)[0])
    if not args.force or not Store.store_exists(target):
        # the file checked first, then a store already there refused (--force replaces it)
        done = Store.restore_new(args.source, target, actor=_actor(args))
    else:
        with _open(args) as store:
            actor = _chief(args, store, args.event)
            done = store.restore(args.source, actor=actor, event_id=args.event)
    print(text("out.restore_done", args, where=where, file=args.source, n=done.entries, head=done.head))
    return 0


def _progress_opt(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--progress",
        action="store_true",
        help="show progress on standard error (the default when it is a terminal)",
    )


def _progress(args: argparse.Namespace, what: str) -> Callable[[int, int], None] | None:
    """A line on stderr every few seconds while a long read runs (terminal or --progress)."""
    if not (getattr(args, "progress", False) or sys.stderr.isatty()):
        return None
    import time

    last = [time.monotonic()]

    def show(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] < 2.0 and done != total:
            return
        last[0] = now
        pct = f" ({100 * done // total}%)" if total else ""
        print(f"{what}: {done}/{total}{pct}", file=sys.stderr, flush=True)

    return show


ENV_STATION_DB_PASSWORD = "REFEREE_APP_STATION_DB_PASSWORD"


def _register_db_commands(subparsers: Any) -> None:
    dbp = subparsers.add_parser("db", help="the event store itself: upgrade it, PostgreSQL logins")
    db_sub = dbp.add_subparsers(dest="db_command", required=True, parser_class=type(dbp))
    up = db_sub.add_parser("upgrade", help="bring the store to this referee-app's schema (the owner's login)")
    _common(up)
    up.set_defaults(func=_guard(cmd_db_upgrade))
    dd = db_sub.add_parser(
        "driver",
        help="whether this program can open a PostgreSQL store: its driver, loaded without connecting",
    )
    _common(dd)
    dd.set_defaults(func=_guard(cmd_db_driver))
    sr = db_sub.add_parser(
        "setup-roles",
        help="PostgreSQL: make or update a station login that may only read and append",
    )
    sr.add_argument(
        "--owner-url",
        default=None,
        help="the store's URL with the owner's login (default: --db or REFEREE_APP_DB)",
    )
    sr.add_argument("--station-login", required=True, help="the station login to create or update")
    sr.add_argument(
        "--no-password",
        action="store_true",
        help=f"set no password (default: from {ENV_STATION_DB_PASSWORD}, or asked)",
    )
    _common(sr)
    sr.set_defaults(func=_guard(cmd_db_setup_roles))


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    from ..app.store import SCHEMA_VERSION

    with _open(args):
        pass  # opening upgrades
    print(text("out.schema_version", args, version=SCHEMA_VERSION))
    return 0


def cmd_db_driver(args: argparse.Namespace) -> int:
    """The PostgreSQL driver's line (exit 0), or why a PostgreSQL store cannot be opened (1)."""
    from ..app.store import postgresql_driver

    driver = postgresql_driver()
    if driver is None:
        print(_one_line(text("out.no_pg_driver", args)), file=sys.stderr)
        return 1
    print(text("out.pg_driver", args, psycopg=driver.psycopg, impl=driver.implementation, libpq=driver.libpq))
    return 0


def cmd_db_setup_roles(args: argparse.Namespace) -> int:
    import getpass

    from ..app.errors import InputError
    from ..app.store import display_url, pgroles, resolve_target

    url, _default = resolve_target(args.owner_url or getattr(args, "db", None))
    if not url.startswith("postgresql"):
        raise InputError(
            "db setup-roles: only for a PostgreSQL store (--owner-url postgresql+psycopg://…)",
            code="db.roles_postgres_only",
        )
    pgroles.check_login_name(args.station_login)
    password: str | None = None
    if not args.no_password:
        password = os.environ.get(ENV_STATION_DB_PASSWORD)
        if password is None:
            if not sys.stdin.isatty():
                raise InputError(
                    f"the station login's password: set {ENV_STATION_DB_PASSWORD} or give --no-password",
                    code="db.station_password_env",
                    env=ENV_STATION_DB_PASSWORD,
                )
            password = getpass.getpass(text("out.ask_password", args, login=args.station_login))
    with _open_url(url, args) as store:  # as the owner: upgrades first if needed
        store.setup_station_login(args.station_login, password, print)
    print(text("out.station_login", args, login=args.station_login))
    print(display_url(pgroles.station_url(url, args.station_login, None)))
    return 0


def register_station_key_commands(key_sub: Any) -> None:
    """``key station create``, ``key register``, ``key list`` (under the ``key`` group)."""
    ks = key_sub.add_parser("station", help="this station's keys that sign the audit log")
    ks_sub = ks.add_subparsers(dest="station_key_command", required=True, parser_class=type(ks))
    kc = ks_sub.add_parser("create", help="make this station's key pair for a role; prints the public key")
    kc.add_argument("--role", choices=ROLE_CHOICES, required=True, help="the role the key signs for")
    kc.add_argument(
        "--station", default=None, help="the station (default: REFEREE_APP_STATION or the host name)"
    )
    kc.add_argument(
        "--encrypt",
        action="store_true",
        help="protect the key file with a passphrase (from REFEREE_APP_STATION_KEY_PASSPHRASE or asked)",
    )
    kc.add_argument("--out", default=None, help="the key file (default: the user data folder, station-keys/)")
    _common(kc)
    kc.set_defaults(func=_guard(cmd_key_station_create))

    kr = key_sub.add_parser(
        "register",
        help="the chief referee registers a station's public key for a role (the first: the trust root)",
    )
    kr.add_argument("for_station", metavar="STATION", help="the station the key belongs to")
    kr.add_argument("for_role", metavar="ROLE", choices=ROLE_CHOICES, help="the role it signs for")
    kr.add_argument("public_key", metavar="PUBLIC_KEY", help="64 hex digits (key station create)")
    kr.add_argument("--user", default=None, help="who registers (default: REFEREE_APP_USER or login)")
    kr.add_argument(
        "--station", default=None, help="the chief referee's station (default: REFEREE_APP_STATION)"
    )
    _common(kr)
    kr.set_defaults(func=_guard(cmd_key_register))

    kv = key_sub.add_parser("revoke", help="the chief referee revokes a registered key (a lost station)")
    kv.add_argument("fingerprint", metavar="FINGERPRINT", help="the key's fingerprint (key list), 16+ digits")
    kv.add_argument("--reason", required=True, help="why (kept in the log)")
    kv.add_argument("--user", default=None, help="who revokes (default: REFEREE_APP_USER or login)")
    kv.add_argument("--station", default=None, help="the chief referee's station (REFEREE_APP_STATION)")
    _common(kv)
    kv.set_defaults(func=_guard(cmd_key_revoke))

    kl = key_sub.add_parser("list", help="the registered station keys (the first is the trust root)")
    _common(kl)
    kl.set_defaults(func=_guard(cmd_key_list))


def _ask_passphrase(prompt: str, twice: bool = False) -> str:
    import getpass

    from ..app.errors import InputError
    from ..app.store import keys

    ENV_PASSPHRASE = keys.ENV_PASSPHRASE
    given = os.environ.get(ENV_PASSPHRASE)
    if given:
        return given
    if not sys.stdin.isatty():
        raise InputError(
            f"the station key's passphrase: set {ENV_PASSPHRASE} (no terminal to ask on)",
            code="key.passphrase_env",
            env=ENV_PASSPHRASE,
        )
    first = getpass.getpass(prompt)
    if twice and getpass.getpass(prompt) != first:
        raise InputError("the two passphrases differ; nothing was written", code="key.passphrases_differ")
    if not first:
        raise InputError(
            "an empty passphrase protects nothing; leave out --encrypt instead", code="key.passphrase_empty"
        )
    return first


def cmd_key_station_create(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..app.store import keys

    station = _actor(args).station
    passphrase = (
        _ask_passphrase(text("out.ask_station_passphrase", args), twice=True) if args.encrypt else None
    )
    k = keys.create_key(station, args.role, passphrase, Path(args.out) if args.out else None)
    print(text("out.private_key", args, path=k.path))
    print(text("out.public_key", args, key=k.public_hex))
    print(text("out.fingerprint", args, fingerprint=k.fingerprint))
    command = f"referee-app key register {station} {args.role} {k.public_hex}"
    print(text("out.register_it", args, command=command))
    return 0


def cmd_key_register(args: argparse.Namespace) -> int:
    from ..app.store import keys

    REGISTRAR_ROLE = keys.REGISTRAR_ROLE

    actor = _actor(args)
    with _open(args) as store:
        _unlock(store, actor.station, REGISTRAR_ROLE)
        k, root = store.register_key(
            station=args.for_station, role=args.for_role, public_key=args.public_key, actor=actor
        )
    key = f"{k.station} {k.role} {k.fingerprint} (#{k.entry_seq})"
    print(text("out.registered", args, key=key))
    if root:
        print(text("out.trust_root", args, fingerprint=k.fingerprint))
    return 0


def cmd_key_list(args: argparse.Namespace) -> int:
    with _open(args, read_only=True) as store:
        found = store.station_keys()
    for n, k in enumerate(found):
        mark = "\t" + text("out.root", args) if n == 0 else ""
        if k.revoked_seq is not None:
            mark += f"\t{text('out.revoked', args)} #{k.revoked_seq}"
        print(f"{k.fingerprint}\t{k.station}\t{k.role}\t#{k.entry_seq}{mark}")
    return 0


def cmd_key_revoke(args: argparse.Namespace) -> int:
    from ..app.store import keys

    REGISTRAR_ROLE = keys.REGISTRAR_ROLE

    actor = _actor(args)
    with _open(args) as store:
        _unlock(store, actor.station, REGISTRAR_ROLE)
        k = store.revoke_key(args.fingerprint, reason=args.reason, actor=actor)
    print(f"{text('out.revoked', args)} {k.station} {k.role} {k.fingerprint} (#{k.revoked_seq})")
    return 0


def _unlock(store: Any, station: str, role: str | None) -> None:
    """Load this station's key for ``role`` before any write, asking for its passphrase if
    it is encrypted (never inside a write, which holds the store's lock)."""
    from ..app.store import keys

    ring = store.keyring
    r = ring.role_for(station, role)
    if r is None or not ring.path(station, r).exists():
        return
    path = ring.path(station, r)
    passphrase = None
    if keys.is_encrypted(path) and not os.environ.get(keys.ENV_PASSPHRASE):
        passphrase = _ask_passphrase(text("out.ask_passphrase_of", current_language(), name=path.name))
    ring.unlock(station, r, passphrase)


def _guard(fn: Handler) -> Handler:
    """This layer's errors as one line and an exit code; anything unexpected is left to
    ``referee_app.cli.main``, which says it in one line too."""

    def run(args: argparse.Namespace) -> int:
        from ..app.errors import RoleError, StoreError

        try:
            return fn(args)
        except RoleError as err:
            hint = "" if _role_arg(args) else text("cli.role_hint", args, env=ENV_PIN)
            line = error_line(err, lang_of(args))
            print((line.rstrip("。") if hint else line) + hint, file=sys.stderr)
            return err.exit_code
        except StoreError as err:
            say_error(err, args)
            return err.exit_code
        except Reported as err:  # a file the user gave (core.inputs): bad input
            say_error(err, args)
            return 2

    run.__name__ = fn.__name__
    run.__doc__ = fn.__doc__
    return run


def _lang(args: argparse.Namespace) -> str:
    lang = getattr(args, "lang", None)
    return lang if lang in ("zh", "en") else "zh"


def _actor(args: argparse.Namespace) -> Any:
    from ..app.store import Actor

    return Actor.default(getattr(args, "user", None), getattr(args, "station", None))


def _role_arg(args: argparse.Namespace) -> str | None:
    if getattr(args, "role_command", None) is not None:
        return None  # role set-pin: --role names whose PIN is set, not who acts
    return getattr(args, "role", None) or os.environ.get(ENV_ROLE) or None


def _ask_pin(prompt: str, env: str = ENV_PIN) -> str:
    """A PIN from ``$env`` or typed without echo (never from the command line)."""
    import getpass

    from ..app.errors import InputError

    given = os.environ.get(env)
    if given is not None:
        return given.strip()
    try:
        return getpass.getpass(prompt).strip()
    except (EOFError, KeyboardInterrupt):
        raise InputError(
            f"no PIN given (type it at the prompt, or set {env})", code="pin.not_given", field="pin", env=env
        ) from None


def acting_as(args: argparse.Namespace, store: Any, event_id: int) -> Any:
    """The actor of a writing command: logged in as ``--role`` when the event enforces roles
    (the store then checks what the role may do); without ``--role``, no role."""
    from ..app.errors import InputError
    from ..app.store import Actor, roles

    actor = _actor(args)
    role = _role_arg(args)
    if role is None:
        return actor
    roles.check_role(role, "--role" if getattr(args, "role", None) else ENV_ROLE)
    if not store.roles_enforced(event_id):
        return Actor(actor.user, actor.station, role)
    name = roles.role_name(role, lang_of(args))
    who = getattr(args, "user", None) or os.environ.get("REFEREE_APP_USER")
    if not who:  # the log names the person who logs in, not the computer's account
        if not sys.stdin.isatty():
            raise InputError(
                f"--user: give your name to act as the {roles.role_name(role)} (or REFEREE_APP_USER)",
                code="login.name_missing",
                field="user",
                role=role,
            )
        who = input(text("out.ask_name", args))
    pin = _ask_pin(text("out.ask_pin", args, role=name))
    return store.login(event_id, role, pin, actor=actor, name=who)


def _open(args: argparse.Namespace, *, create: bool = False, read_only: bool = False) -> Any:
    """The store of ``--db``; ``read_only`` for a command that only reads (it then never
    creates, upgrades or changes the file, and works on read-only media)."""
    from ..app.store import Store

    actor = _actor(args)
    store = Store.open(getattr(args, "db", None), create=create, actor=actor, read_only=read_only)
    if hasattr(args, "station"):  # a writing command: its entries are signed with this station's key
        role = _role_arg(args)
        store.keyring.default_role = role or store.keyring.default_role
        try:
            _unlock(store, actor.station, role)
        except BaseException:
            store.close()
            raise
    return store


def _open_url(url: str, args: argparse.Namespace) -> Any:
    from ..app.store import Store

    return Store.open(url, actor=_actor(args))


def _read_json(name: str) -> Any:
    """A JSON file the user gives (``-``: standard input), read strictly (``core.inputs``)."""
    from ..core.inputs import read_json

    return read_json(name)


def cmd_event_create(args: argparse.Namespace) -> int:
    from datetime import date

    from referee_app.core.errors import RulebookError
    from referee_app.core.rulebook import load_rulebook

    from ..app.errors import InputError

    if args.date is not None:
        try:
            date.fromisoformat(args.date)
        except ValueError:
            raise InputError(
                f"--date: expected YYYY-MM-DD, got {args.date!r}",
                code="input.date",
                field="date",
                got=args.date,
            ) from None
    try:
        rb = load_rulebook(args.rules)
    except RulebookError as err:
        raise InputError(f"--rules: {err}", code=err.code, field="rules", **err.values) from None
    with _open(args, create=True) as store:
        info = store.create_event(name=args.name, rulebook=rb, date=args.date, actor=_actor(args))
    print(info.id)
    return 0


def cmd_event_list(args: argparse.Namespace) -> int:
    with _open(args, read_only=True) as store:
        for e in store.list_events():
            print(f"{e.id}\t{e.name}\t{e.date or '-'}\t{e.rulebook_id}\t{e.rulebook_sha256[:12]}")
    return 0


def cmd_event_details(args: argparse.Namespace) -> int:
    """``event details [--organiser X] [--venue Y] [--chief-referee Z]``: with no option,
    the recorded details; with any, records them (the chief referee's) and prints them."""
    from ..app.event import set_event_details

    changes = {k: getattr(args, k) for k in ("organiser", "venue", "chief_referee")}
    if all(v is None for v in changes.values()):
        with _open(args, read_only=True) as store:
            details = store.event_details(store.pick_event(args.event).id)
    else:
        with _open(args) as store:
            ev = store.pick_event(args.event)
            details = set_event_details(store, ev.id, acting_as(args, store, ev.id), **changes)
    for key, value in details.items():
        print(f"{key}\t{value or '-'}")
    return 0


def cmd_pairs_import(args: argparse.Namespace) -> int:
    from ..app.store import read_pairs

    rows = read_pairs(args.file)  # the whole file is checked before the database is opened
    with _open(args) as store:
        ev = store.pick_event(args.event)
        n = store.import_pairs(ev.id, rows, actor=acting_as(args, store, ev.id), source=args.file)
    print(text("pairs.imported", args, n=n), file=sys.stderr)
    return 0


def cmd_pairs_list(args: argparse.Namespace) -> int:
    from ..app.store import spreadsheet_cell

    with _open(args, read_only=True) as store:
        ev = store.pick_event(args.event)
        for p in store.list_pairs(ev.id):
            cells = [p["number"], *p["players"], p["unit"] or ""]
            print("\t".join(map(spreadsheet_cell, cells)).rstrip("\t"))
    return 0


def cmd_record(args: argparse.Namespace) -> int:
    case = _read_json(args.case)
    source = "stdin" if args.case == "-" else args.case
    with _open(args) as store:
        ev = store.pick_event(args.event)
        rec = store.record(
            ev.id,
            case,
            actor=acting_as(args, store, ev.id),
            lang=_lang(args),
            expected_version=args.expect_version,
            token=args.token,
            source=source,
        )
    print(rec.match_id)
    return 0


def cmd_void(args: argparse.Namespace) -> int:
    with _open(args) as store:
        ev = store.pick_event(args.event)
        store.void(
            ev.id,
            round_no=args.round,
            table_no=args.table,
            reason=args.reason,
            actor=acting_as(args, store, ev.id),
            expected_version=args.expect_version,
        )
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from ..app.errors import InputError

    with _open(args, read_only=True) as store:
        ev = store.pick_event(args.event)
        # one match at a time: memory stays flat however large the event
        matches = store.export(ev.id, progress=_progress(args, "export"))
        if not args.output:
            for m in matches:
                sys.stdout.write(stdout_json(m, sort_keys=True) + "\n")
            return 0
        try:
            with open(args.output, "w", encoding="utf-8") as fh:
                for m in matches:
                    fh.write(json.dumps(m, ensure_ascii=False, sort_keys=True) + "\n")
        except OSError as err:
            line, data = cannot_write(args.output, err, "output")
            raise InputError(line, **data) from None
    return 0


def _anchors_of(args: argparse.Namespace) -> tuple[str | None, list[Any]]:
    """(--head as a bare hash, the anchors from --head RA1:… and --anchors FILE)."""
    from ..app.errors import InputError
    from ..app.store import ANCHOR_PREFIX, parse_anchor

    head, found = args.head, []
    try:
        if head is not None and head.strip().upper().startswith(ANCHOR_PREFIX + ":"):
            found.append(parse_anchor(head, "--head"))
            head = None
        if args.anchors is not None:
            from ..core.inputs import read_limited

            try:
                text = read_limited(args.anchors, error=InputError, field="anchors").decode("utf-8")
            except (OSError, UnicodeDecodeError) as err:
                raise InputError(
                    f"--anchors {args.anchors}: cannot read ({err})",
                    code="file.cannot_read",
                    field="anchors",
                    source=args.anchors,
                    detail=str(err),
                ) from None
            for n, line in enumerate(text.splitlines(), 1):
                if line.strip() and not line.lstrip().startswith("#"):
                    found.append(parse_anchor(line, f"{args.anchors}: line {n}"))
            if not found:
                raise InputError(
                    f"--anchors {args.anchors}: no anchor in the file",
                    code="verify.no_anchor",
                    field="anchors",
                    source=args.anchors,
                )
    except ValueError as err:
        raise InputError(str(err)) from None
    return head, found


def cmd_anchor(args: argparse.Namespace) -> int:
    from ..app.errors import InputError
    from ..app.trust import keep_anchor

    if args.note:  # a write: the head before it is the anchor, the note after it
        with _open(args) as store:
            actor = _actor(args)
            _unlock(store, actor.station, None)  # signed like every entry of this station
            if args.output:  # the file opened before anything is noted
                a = keep_anchor(store, actor, args.output)
            else:
                a = store.note_anchor(actor=actor, kept="printed")
        print(a.text())
        return 0
    with _open(args, read_only=True) as store:
        a = store.anchor()
    if args.output:
        try:
            with open(args.output, "a", encoding="utf-8") as f:
                f.write(a.text() + "\n")
        except OSError as err:
            line, data = cannot_write(args.output, err, "output")
            raise InputError(line, **data) from None
    print(a.text())
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    head, anchors = _anchors_of(args)
    with _open(args, read_only=True) as store:
        result = store.verify(head, anchors, root=args.root, progress=_progress(args, "verify"))
    if result.root is None:
        keys_line = text("out.verify_no_keys", args, n=result.before_keys)
    else:
        keys_line = text(
            "out.verify_keys",
            args,
            signed=result.signed,
            before=result.before_keys,
            root=result.root,
            seq=result.root_seq,
        )
        if result.unsigned_schema:
            keys_line += text("out.verify_unsigned_schema", args, n=result.unsigned_schema)
    if result.ok:
        print(keys_line)
        # what this verify did not see (issue 24 item 10; docs/trust.md)
        if not anchors and head is None:
            print(text("out.verify_blind", args))
        elif anchors:
            latest = max(a.seq for a in anchors)
            if latest >= result.entries:
                print(text("out.verify_anchors_head", args, k=len(anchors)))
            else:
                print(
                    text(
                        "out.verify_anchors_after",
                        args,
                        k=len(anchors),
                        seq=latest,
                        n=result.entries - latest,
                    )
                )
        if result.root is not None and args.root is None:
            print(text("out.verify_root_unchecked", args))
        # last, ending with the head hash (to note outside the database)
        print(text("out.verify_ok", args, n=result.entries, head=result.head_hash))
        return 0
    from ..app.audit_words import problem_words

    label = text("out.audit_problem", args)
    colon = "：" if lang_of(args) == "zh" else ": "
    shown = result.problems[:50]
    for p in shown:
        print(_one_line(f"{label}{colon}{problem_words(p, lang_of(args))}"), file=sys.stderr)
    more = len(result.problems) - len(shown) + result.more_problems
    if more:
        print(text("out.more_problems", args, n=more), file=sys.stderr)
    if result.root is not None:  # which keys the entries were checked against
        print(keys_line)
    return 1


def cmd_demo(args: argparse.Namespace) -> int:
    """The demo event, in a file of its own (never ``--db``, the station's store)."""
    from pathlib import Path

    from ..app.demo import build_demo, default_demo_path

    built = build_demo(Path(args.store) if args.store else default_demo_path(), _lang(args))
    print(
        text(
            "out.demo_built",
            args,
            name=built.name,
            pairs=built.pairs,
            tables=built.tables,
            decided=built.decided,
            open=built.open,
        ),
        file=sys.stderr,
    )
    print(built.path)  # alone on standard output: `referee-app --db "$(referee-app demo)" …`
    return 0


def cmd_log(args: argparse.Namespace) -> int:
    from ..app.store import describe

    with _open(args, read_only=True) as store:
        event_id = None
        if args.event is not None or args.round is not None or args.table is not None:
            event_id = store.pick_event(args.event).id
        entries = store.log(event_id, args.round, args.table)
        # each event's kinds in its own rulebook's words (藏张, not hidden_card)
        kinds: dict[Any, dict[str, str]] = {}
        for e in entries:
            ev = e.get("event_id")
            if ev is not None and ev not in kinds:
                kinds[ev] = store.pinned_rulebook(ev).kind_labels(_lang(args))
    for e in entries:
        for line in describe(e, _lang(args), kinds=kinds.get(e.get("event_id"))):
            print(line)
    return 0


def cmd_correct(args: argparse.Namespace) -> int:
    case = _read_json(args.case)
    source = "stdin" if args.case == "-" else args.case
    with _open(args) as store:
        ev = store.pick_event(args.event)
        rec = store.record(
            ev.id,
            case,
            actor=acting_as(args, store, ev.id),
            lang=_lang(args),
            expected_version=args.expect_version,
            source=source,
            correction_reason=args.reason,
            replace_decisions=args.replace_decisions,
        )
    print(rec.match_id)
    return 0


def cmd_sign(args: argparse.Namespace) -> int:
    from ..app.errors import InputError
    from ..core.inputs import read_input_bytes
    from ..core.signature_image import MAX_SIGNATURE_BYTES

    sigs = {}
    for k in ("N", "E", "S", "W", "referee"):
        path = getattr(args, f"sig_{k}")
        sigs[k] = read_input_bytes(path, MAX_SIGNATURE_BYTES, error=InputError, field=k)
    with _open(args) as store:
        ev = store.pick_event(args.event)
        version = store.sign_match(
            ev.id,
            args.round,
            args.table,
            args.expect_version,
            sigs,
            acting_as(args, store, ev.id),
            sources={k: getattr(args, f"sig_{k}") for k in sigs},
        )
    print(text("out.signed", args, round=args.round, table=args.table, version=version), file=sys.stderr)
    return 0


def _when_opt(value: str | None, field: str) -> Any:
    from ..app.store import parse_when

    return None if value is None else parse_when(value, field)


def cmd_appeal_file(args: argparse.Namespace) -> int:
    from ..app.errors import InputError

    if args.accept_late and not (args.reason and args.reason.strip()):
        raise InputError(
            "--accept-late: needs --reason TEXT (why the chief referee accepts it late)",
            code="appeal.late_reason_missing",
            field="reason",
        )
    if args.reason is not None and not args.accept_late:
        raise InputError(
            "--reason: only with --accept-late", code="appeal.reason_without_accept", field="reason"
        )
    filed_at = _when_opt(args.filed_at, "--filed-at")
    ended_at = _when_opt(args.ended_at, "--ended-at")
    with _open(args) as store:
        ev = store.pick_event(args.event)
        aid = store.file_appeal(
            ev.id,
            ruling_id=args.ruling,
            by=args.by,
            grounds=args.grounds,
            evidence=args.evidence,
            receipt=args.receipt,
            filed_at=filed_at,
            ended_at=ended_at,
            accept_late_reason=args.reason if args.accept_late else None,
            backdate_reason=args.backdate_reason,
            attachment=args.attachment,
            actor=acting_as(args, store, ev.id),
        )
    print(aid)
    return 0


def cmd_appeal_review(args: argparse.Namespace) -> int:
    with _open(args) as store:
        ev = store.pick_event(args.event)
        store.review_appeal(args.id, actor=acting_as(args, store, ev.id), event_id=ev.id)
    return 0


def cmd_appeal_withdraw(args: argparse.Namespace) -> int:
    with _open(args) as store:
        ev = store.pick_event(args.event)
        actor = acting_as(args, store, ev.id)
        store.withdraw_appeal(args.id, reason=args.reason, actor=actor, event_id=ev.id)
    return 0


def cmd_appeal_decide(args: argparse.Namespace) -> int:
    from ..app.errors import InputError

    sanctions = None
    if args.sanctions is not None:
        from ..core.inputs import DuplicateKeyError, loads_strict

        try:
            sanctions = loads_strict(args.sanctions)
        except DuplicateKeyError as err:
            raise InputError(
                f"--sanctions: the key {err.key!r} appears twice in one object; give it once",
                code="file.duplicate_key",
                field="sanctions",
                source="--sanctions",
                key=err.key,
            ) from None
        except json.JSONDecodeError as err:
            raise InputError(
                f"--sanctions: not JSON: {err.msg} at column {err.colno}",
                code="appeal.sanctions_not_json",
                field="sanctions",
                column=err.colno,
                detail=err.msg,
            ) from None
        if not isinstance(sanctions, list):
            raise InputError(
                f"--sanctions: expected a JSON list, got {args.sanctions!r}",
                code="appeal.sanctions_not_list",
                field="sanctions",
            )
    committee = [n.strip() for n in args.committee.replace("，", ",").replace("、", ",").split(",")]
    with _open(args) as store:
        ev = store.pick_event(args.event)
        out = store.decide_appeal(
            args.id,
            decision=args.decision,
            reason=args.reason,
            committee=committee,
            sanctions=sanctions,
            actor=acting_as(args, store, ev.id),
            event_id=ev.id,
        )
    fee = text(f"out.fee_{out['fee'] if out['fee'] in ('refunded', 'kept') else 'none'}", args)
    state = _state(out["state"], args)
    if out["version"] is not None:
        print(
            text("out.decided_recorded", args, appeal=args.id, state=state, fee=fee, version=out["version"]),
            file=sys.stderr,
        )
    else:
        print(text("out.decided", args, appeal=args.id, state=state, fee=fee), file=sys.stderr)
    seats = SEAT_NAMES[lang_of(args)]
    for h in out["dealt_as_played"]:
        print(
            text(
                "out.dealt_as_played",
                args,
                hand=h["hand"],
                dealer=seats[h["dealer"]],
                by_rotation=seats[h["by_rotation"]],
            ),
            file=sys.stderr,
        )
    return 0


def _state(state: str, args: argparse.Namespace) -> str:
    """An appeal's state in the command's language (English: the state's own word)."""
    return state if lang_of(args) == "en" else text(f"value.state.{state}", args)


def cmd_appeal_list(args: argparse.Namespace) -> int:
    with _open(args, read_only=True) as store:
        ev = store.pick_event(args.event)
        items = store.appeals(ev.id, args.round)
    if args.json:
        keep = (
            "id", "round", "table", "ruling_id", "kind", "hand", "seat", "by", "pair", "state",
            "filed_at", "deadline", "late_minutes", "late_reason", "grounds", "evidence", "receipt",
            "fee_yuan", "fee", "decision", "decision_reason", "committee", "sanctions",
            "decided_at", "new_match_id",
        )  # fmt: skip
        print(stdout_json([{k: a[k] for k in keep} for a in items], indent=1))
        return 0
    for a in items:
        state = _state(a["state"], args)
        late = "  " + text("out.late_accepted", args, n=a["late_minutes"]) if a["late_minutes"] else ""
        hand = text("out.hand", args, hand=a["hand"]) if a["hand"] else text("out.before_play", args)
        where = text("out.round_table", args, round=a["round"], table=a["table"])
        # the offence in the rulebook's words the ruling carries (its kind when it has none)
        label = (a["ruling"] or {}).get("label") or {}
        kind = label.get(lang_of(args)) or a["kind"] if isinstance(label, dict) else a["kind"]
        print(
            f"{a['id']}\t{where}\t{hand} {kind} {a['seat'] or ''}"
            f"\t{text('out.ruling', args)} {a['ruling_id']}\t{a['by']} {a['pair']}\t{state}{late}"
        )
    return 0


def cmd_role_set_pin(args: argparse.Namespace) -> int:
    from ..app.errors import InputError
    from ..app.store import roles

    target = roles.check_role(args.role)
    name = roles.role_name(target, lang_of(args))
    with _open(args) as store:
        ev = store.pick_event(args.event)
        actor = _actor(args)
        if store.roles_enforced(ev.id):
            chief = roles.role_name(roles.CHIEF_REFEREE, lang_of(args))
            pin = _ask_pin(text("out.ask_pin", args, role=chief))
            actor = store.login(ev.id, roles.CHIEF_REFEREE, pin, actor=actor)
        new = _ask_pin(
            text("out.ask_new_pin", args, role=name, min=roles.PIN_MIN, max=roles.PIN_MAX),
            ENV_NEW_PIN,
        )
        roles.check_pin(new, "new PIN")
        if os.environ.get(ENV_NEW_PIN) is None and _ask_pin(text("out.ask_again", args), ENV_NEW_PIN) != new:
            raise InputError(
                "new PIN: the two entries differ; nothing changed", code="pin.entries_differ", field="new_pin"
            )
        store.set_pin(ev.id, target, new, actor=actor)
    print(text("out.pin_set", args, role=name), file=sys.stderr)
    return 0


def cmd_role_status(args: argparse.Namespace) -> int:
    from ..app.store import roles

    with _open(args, read_only=True) as store:
        ev = store.pick_event(args.event)
        states = store.role_states(ev.id, _actor(args).station)
    enforced = any(st.has_pin for st in states.values())
    if args.json:
        out = {
            "event": ev.id,
            "enforced": enforced,
            "roles": {
                r: {
                    "pin": st.has_pin,
                    "pin_set_at": st.pin_set_at,
                    "pin_set_by": st.pin_set_by,
                    "failures": st.failures,
                    "tries_left": st.tries_left,
                    "locked_until": None if st.locked_until is None else roles.iso(st.locked_until),
                }
                for r, st in states.items()
            },
        }
        print(stdout_json(out, indent=1))
        return 0
    lang = lang_of(args)
    print(text("out.roles_enforced" if enforced else "out.roles_off", args, event=ev.id))
    for r, st in states.items():
        if not st.has_pin:
            pin = text("out.no_pin", args)
        else:
            at = str(st.pin_set_at)[:19].replace("T", " ") + " UTC"
            pin = text("out.pin_set_at", args, at=at, by=st.pin_set_by)
        if st.locked_until is not None:
            lock = text("out.locked_until", args, until=roles.local_hms(st.locked_until))
        elif st.failures:
            lock = text("out.wrong_in_a_row", args, failures=st.failures, n=st.tries_left)
        else:
            lock = ""
        print("\t".join([r, roles.role_name(r, lang), pin, lock]).rstrip("\t"))
    return 0
