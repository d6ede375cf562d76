"""Roles (角色), their PINs, and what each role may do — one table, checked by the store.

Three roles work an event: the table referee (裁判员), the chief referee (裁判长) and the
arbitration committee (仲裁委员会). Each has a PIN per event, 6 to 12 digits, kept only as
a salted scrypt hash whose cost makes trying every 6-digit PIN take days (see README).
What a role may do is :data:`PERMISSIONS`; every write of the store
checks it inside its own transaction, so the window, the command line and any other
client meet the same rule.

Why the table reads as it does (the bundled rulebooks):

* appeals go to the arbitration committee: BHG "向比赛仲裁委员会提起申诉", Gansu 八、1
  "比赛设仲裁委员会受理各队申诉". Only the committee decides an appeal; an event without a
  committee gives its PIN to whoever sits as one (often the chief referee).
* the chief referee decides disputes and corrects the record (DOMAIN: "decides disputes,
  receives appeals within the window"); Gansu 八、2 lets the chief referee set other terms
  for an appeal's window, hence ``appeal.accept_late``. The chief referee also runs the
  event: pairs, PINs, the event's signing key.
* the table referee records the table, voids an unsigned result, takes the signatures and
  hands in an appeal (Gansu: "向裁判提出"). The committee changes results only through its
  decision (``appeal.decide``), never by recording a table.

Bootstrap: an event with no PIN allows every action (a first run, a club evening, every
event created before schema 5); the event's creation entry in the log says so. The first
PIN set must be the chief referee's; from then on roles are enforced for that event.

Wrong PINs (issue 24; docs/using.md "Roles" says it for a referee): they are counted per
station, from the rows of ``auth_attempts`` and the station of each one's audit entry, so
every window and command line of a station shares its count. Each 5th wrong PIN in a run
at a station locks the role *at that station*, for :data:`LOCK_SECONDS` the first time and
twice as long each time after (60 s, 2 min, 4 min, …): only a right PIN at that station, or
a new PIN set by the chief referee, ends the run, and waiting — or moving the clock —
only lets the current lock run out, never resets the count. Wrong PINs at one table cannot
keep the chief referee out at the desk. A station's name is what it says it is, so all
stations together have a bound too: each :data:`GLOBAL_TRIES`-th wrong PIN since the
role's last right one anywhere locks the role (with the same doubling) at every station
except the one where its PIN was set (the chief referee's desk) and those where a right
PIN ended a run of wrong ones since: the chief referee's own desk keeps working while a
made-up station name gets no more than its share of guesses.

Times are the store's clock (:func:`store_now`): the database server's on PostgreSQL,
which no station can move; on SQLite the computer's, never earlier than the last attempt
it recorded (a clock set back cannot shorten a lock, and one set forward gains at most the
current lock, each twice as long as the one before).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, and_, select

from ..core.errors import field_of
from .errors import InputError
from .models import audit_log, auth_attempts, role_pins

TABLE_REFEREE = "table_referee"
CHIEF_REFEREE = "chief_referee"
ARBITRATION = "arbitration"
ROLES = (TABLE_REFEREE, CHIEF_REFEREE, ARBITRATION)
ALL = frozenset(ROLES)

#: action -> the roles that may do it (on an event whose roles are enforced).
PERMISSIONS: dict[str, frozenset[str]] = {
    "match.record": frozenset({TABLE_REFEREE, CHIEF_REFEREE}),
    "match.void": frozenset({TABLE_REFEREE, CHIEF_REFEREE}),
    "match.sign": frozenset({TABLE_REFEREE, CHIEF_REFEREE}),
    "match.correct": frozenset({CHIEF_REFEREE}),  # a signed table changed, or voided
    "appeal.file": ALL,
    "appeal.accept_late": frozenset({CHIEF_REFEREE}),
    # an appeal's times come from the store's clock; giving them is back-dating
    "appeal.backdate": frozenset({CHIEF_REFEREE}),
    "appeal.review": frozenset({CHIEF_REFEREE, ARBITRATION}),
    "appeal.decide": frozenset({ARBITRATION}),
    # and a table referee only the appeal they filed (see ``Store.withdraw_appeal``)
    "appeal.withdraw": frozenset({TABLE_REFEREE, CHIEF_REFEREE}),
    "pairs.import": frozenset({CHIEF_REFEREE}),
    "event.key": frozenset({CHIEF_REFEREE}),
    # pairings, withdrawals, deciders, the round clock, the round's end (issue 13)
    "desk.run": frozenset({CHIEF_REFEREE}),
    # a copy of the whole store, and a store replaced by one (issue 24 item 9)
    "store.backup": frozenset({CHIEF_REFEREE}),
    "store.restore": frozenset({CHIEF_REFEREE}),
    "pin.set": frozenset({CHIEF_REFEREE}),  # last: a new PIN ends the logins made with the old one
}
#: ``event.create`` is not in the table: a new event has no PINs yet, so anyone may create
#: one (a separate event in the same database changes nothing of the others).

ROLE_NAMES = {
    "en": {
        TABLE_REFEREE: "table referee",
        CHIEF_REFEREE: "chief referee",
        ARBITRATION: "arbitration committee",
    },
    "zh": {TABLE_REFEREE: "裁判员", CHIEF_REFEREE: "裁判长", ARBITRATION: "仲裁委员会"},
}
_POSSESSIVE = {
    TABLE_REFEREE: "a table referee's",
    CHIEF_REFEREE: "the chief referee's",
    ARBITRATION: "the arbitration committee's",
}

#: Six digits at least: the hash is readable by anyone who can read the database, so the
#: PIN must resist trying them all offline (10^6 of them), not only the lock below.
PIN_MIN, PIN_MAX = 6, 12
#: Wrong PINs in a run at one station before each lock there.
MAX_TRIES = 5
#: The first lock; each next one in the same run lasts twice as long (capped: 2^20 times).
LOCK_SECONDS = 60
_MAX_DOUBLINGS = 20
#: Wrong PINs for a role at all stations together (since its last right PIN anywhere)
#: before each lock at every station that has not given the role's right PIN.
GLOBAL_TRIES = 4 * MAX_TRIES
#: scrypt parameters of new hashes (each hash names its own, so they may change later):
#: 128 MiB and 0.30 s of one core per derivation (measured on the development machine,
#: 2026), so the 10^6 six-digit PINs cost 10^6 x 0.30 s = 3.5 days of one core; a core
#: twice as fast still needs 1.7 days. A login pays it once.
SCRYPT_COST_N = 2**17
SCRYPT_N, SCRYPT_R, SCRYPT_P = SCRYPT_COST_N, 8, 1
#: scrypt needs 128 * r * N bytes; hashlib refuses more than ``maxmem``.
SCRYPT_MAXMEM = 512 * 1024 * 1024
SCRYPT_DKLEN, SALT_BYTES = 32, 16


def utcnow() -> datetime:
    """The station's clock (UTC). Tests replace this function to move time."""
    return datetime.now(UTC)


def store_now(conn: Connection) -> datetime:
    """The clock PIN attempts and locks are dated by: the database server's on PostgreSQL
    (``audit.store_clock``, out of any station's reach), this computer's on SQLite (see
    :func:`role_state` for why moving it gains nothing)."""
    if conn.dialect.name == "postgresql":
        from .audit import store_clock

        return store_clock(conn)
    return utcnow()


def lock_seconds(nth: int) -> int:
    """How long the ``nth`` lock of a run lasts (1: :data:`LOCK_SECONDS`), in seconds."""
    return int(LOCK_SECONDS * 2 ** min(max(nth, 1) - 1, _MAX_DOUBLINGS))


def check_role(role: Any, field: str = "--role") -> str:
    if role not in ROLES:
        raise InputError(
            f"{field}: expected one of {', '.join(ROLES)}, got {role!r}",
            code="role.invalid",
            field=field_of(field),
            got=role,
            allowed=list(ROLES),
        )
    return str(role)


def check_pin(pin: Any, field: str = "PIN") -> str:
    if (
        not isinstance(pin, str)
        or not pin.isascii()
        or not pin.isdigit()
        or not (PIN_MIN <= len(pin) <= PIN_MAX)
    ):
        raise InputError(
            f"{field}: expected {PIN_MIN} to {PIN_MAX} digits",
            code="pin.length",
            field=field_of(field),
            min=PIN_MIN,
            max=PIN_MAX,
        )
    return pin


def hash_pin(pin: str) -> str:
    """``scrypt$n$r$p$salt_b64$hash_b64`` with a fresh random salt."""
    check_pin(pin)
    salt = os.urandom(SALT_BYTES)
    digest = hashlib.scrypt(
        pin.encode("ascii"),
        salt=salt,
        n=SCRYPT_N,
        r=SCRYPT_R,
        p=SCRYPT_P,
        dklen=SCRYPT_DKLEN,
        maxmem=SCRYPT_MAXMEM,
    )
    b64 = base64.b64encode
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${b64(salt).decode()}${b64(digest).decode()}"


def pin_matches(pin: str, stored: str) -> bool:
    """Whether ``pin`` hashes to ``stored`` (constant-time comparison)."""
    try:
        scheme, n, r, p, salt_b64, hash_b64 = stored.split("$")
        if scheme != "scrypt":
            return False
        salt, expected = base64.b64decode(salt_b64), base64.b64decode(hash_b64)
        got = hashlib.scrypt(
            pin.encode("utf-8"),
            salt=salt,
            n=int(n),
            r=int(r),
            p=int(p),
            dklen=len(expected),
            maxmem=SCRYPT_MAXMEM,
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, expected)


def role_name(role: str | None, lang: str = "en") -> str:
    return ROLE_NAMES[lang].get(role or "", str(role))


def allowed(action: str) -> list[str]:
    """The roles that may do ``action``, in the table's order."""
    return [r for r in ROLES if r in PERMISSIONS[action]]


def needs(action: str) -> str:
    """Who may do ``action``: "the chief referee's or the arbitration committee's"."""
    allowed = [r for r in ROLES if r in PERMISSIONS[action]]
    if set(allowed) == ALL:
        return "any role's"
    return " or ".join(_POSSESSIVE[r] for r in allowed)


def refusal(action: str, role: str | None) -> str:
    """The one line of a refused write: what it needs, and who the writer is."""
    who = role_name(role) if role is not None else "not logged in"
    return f"{action} needs {needs(action)} PIN (you are: {who})"


@dataclass(frozen=True)
class RoleState:
    """A role's PIN and lock on one event, at one moment, as one station sees it."""

    role: str
    pin_hash: str | None  # the current hash, None: no PIN set
    pin_seq: int | None  # the audit entry that set it
    pin_set_at: str | None
    pin_set_by: str | None
    failures: int  # wrong PINs in the current run (at this station)
    locked_until: datetime | None  # set while the role is locked (at this station)
    #: whether the role's PIN was set at this station, or a right PIN recorded here since
    proven: bool = False
    #: wrong PINs at every station since the role's last right PIN anywhere
    failures_everywhere: int = 0

    @property
    def has_pin(self) -> bool:
        return self.pin_hash is not None

    @property
    def tries_left(self) -> int:
        return 0 if self.locked_until is not None else MAX_TRIES - self.failures % MAX_TRIES

    @property
    def next_lock_seconds(self) -> int:
        """How long the lock the next run of wrong PINs here ends in would last."""
        return lock_seconds(self.failures // MAX_TRIES + 1)


def current_pins(conn: Connection, event_id: int) -> dict[str, tuple[str, int]]:
    """role -> (current hash, entry seq that set it), for the roles with a PIN."""
    out: dict[str, tuple[str, int]] = {}
    rows = conn.execute(
        select(role_pins.c.role, role_pins.c.pin_hash, role_pins.c.entry_seq)
        .where(role_pins.c.event_id == event_id)
        .order_by(role_pins.c.id)
    )
    for role, pin_hash, seq in rows:
        out[str(role)] = (str(pin_hash), int(seq))
    return out


def _lock_end(run: list[datetime], every: int) -> datetime | None:
    """When the run's latest lock runs out (None: not ``every`` wrong PINs yet): the
    ``k``-th lock starts at the run's ``k * every``-th wrong PIN and lasts ``lock_seconds(k)``
    (a wrong PIN given during it elsewhere, where it does not hold, does not end it)."""
    k = len(run) // every
    if k == 0:
        return None
    return run[k * every - 1] + timedelta(seconds=lock_seconds(k))


def role_state(
    conn: Connection, event_id: int, role: str, now: datetime, station: str | None = None
) -> RoleState:
    """``role``'s PIN and lock as ``station`` sees it at ``now`` (the store's clock, see
    :func:`store_now`; ``now`` is never taken as earlier than the last attempt recorded).
    ``station`` None: the view of a station that has given no PIN for the role (its own
    run empty), e.g. the event's overview."""
    pins = current_pins(conn, event_id)
    pin_hash, pin_seq = pins.get(role, (None, None))
    set_at = set_by = set_station = None
    if pin_seq is not None:
        e = conn.execute(
            select(audit_log.c.at, audit_log.c.user_name, audit_log.c.station).where(
                audit_log.c.seq == pin_seq
            )
        ).one()
        set_at, set_by, set_station = str(e.at), str(e.user_name), str(e.station)
    attempts = [
        (bool(ok), _from_iso(str(at)), int(seq), str(where))
        for ok, at, seq, where in conn.execute(
            select(auth_attempts.c.ok, auth_attempts.c.at, auth_attempts.c.entry_seq, audit_log.c.station)
            .join(audit_log, audit_log.c.seq == auth_attempts.c.entry_seq)
            .where(and_(auth_attempts.c.event_id == event_id, auth_attempts.c.role == role))
            .order_by(auth_attempts.c.entry_seq)
        )
    ]
    since = [a for a in attempts if a[2] > (pin_seq or 0)]
    if since:
        now = max(now, max(at for _ok, at, _seq, _where in since))
    # this station's run: its wrong PINs since its last right one (or the PIN's setting)
    here = [a for a in since if a[3] == station]
    last_ok_here = max((seq for ok, _at, seq, _where in here if ok), default=0)
    run = [at for ok, at, seq, _where in here if not ok and seq > last_ok_here]
    until = _lock_end(run, MAX_TRIES)
    # every station's: wrong PINs since the role's last right PIN anywhere
    last_ok = max((seq for ok, _at, seq, _where in since if ok), default=0)
    run_all = [at for ok, at, seq, _where in since if not ok and seq > last_ok]
    proven = station is not None and (
        station == set_station or any(ok and where == station for ok, _at, _seq, where in since)
    )
    if not proven:
        everywhere = _lock_end(run_all, GLOBAL_TRIES)
        if everywhere is not None and (until is None or everywhere > until):
            until = everywhere
    locked_until = until if until is not None and now < until else None
    return RoleState(role, pin_hash, pin_seq, set_at, set_by, len(run), locked_until, proven, len(run_all))


def iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _from_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def local_hms(when: datetime) -> str:
    """HH:MM:SS in the station's local time."""
    return when.astimezone().strftime("%H:%M:%S")
