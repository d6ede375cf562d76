"""The store's register of station keys (schema 8): who may sign which entries; and each
event's signing key (the PKCS#12 that signs its printed forms).

The chief referee registers a station's public key for one role; the registration is an
audit entry signed with the chief referee's own registered key. The very first
registration is the trust root: the chief referee's own key, signed by itself, whose
fingerprint the chief referee keeps outside the database (``verify --root``). Keys are
store-wide (a hall's stations), not per event: PINs say who sits in a role at an event,
keys say which station wrote an entry.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, select

from . import audit, keys, roles
from .errors import ConflictError, InputError, RoleError
from .models import audit_log, event_keys, station_keys
from .shared import Shared

if TYPE_CHECKING:
    from .common import Actor


@dataclass(frozen=True)
class RegisteredKey:
    station: str
    role: str
    public_key: str
    fingerprint: str
    entry_seq: int
    revoked_seq: int | None = None  # the entry that revoked it


def registered_keys(conn: Connection) -> dict[str, RegisteredKey]:
    revoked: dict[str, int] = {}
    for seq, payload in conn.execute(
        select(audit_log.c.seq, audit_log.c.payload)
        .where(audit_log.c.action == keys.REVOKE_ACTION)
        .order_by(audit_log.c.seq)
    ):
        fpr = str(json.loads(audit.payload_text(payload)).get("info", {}).get("fingerprint"))
        revoked.setdefault(fpr, int(seq))
    out: dict[str, RegisteredKey] = {}
    for r in conn.execute(select(station_keys).order_by(station_keys.c.id)):
        fpr = keys.fingerprint(r.public_key)
        out[fpr] = RegisteredKey(r.station, r.role, r.public_key, fpr, int(r.entry_seq), revoked.get(fpr))
    return out


def _registrar(current: Mapping[str, RegisteredKey], mine: keys.StationKey, station: str, what: str) -> None:
    own = current.get(mine.fingerprint)
    if own is None or own.role != keys.REGISTRAR_ROLE or own.station != station or own.revoked_seq:
        raise RoleError(
            f"only the chief referee {what} keys: this station's chief referee key "
            f"{keys.short(mine.fingerprint)}… is not registered (or was revoked) for station {station}",
            code="keys.not_registrar",
            key=keys.short(mine.fingerprint),
            station=station,
        )


class Registry:
    """The keys part of the :class:`~referee_app.store.service.Store`: the register of
    station keys (the shared ``keyring`` signs every entry) and each event's signing key."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared

    def setup_station_login(self, login: str, password: str | None, say: Callable[[str], None]) -> list[str]:
        """PostgreSQL: make or update a station login that may only read and append (see
        ``pgroles``); this store must be open with the tables' owner's login."""
        from . import pgroles

        return pgroles.setup_on(self.shared.engine, login, password, say)

    def station_keys(self) -> list[RegisteredKey]:
        """The registered keys, in order; the first is the trust root."""
        return list(self.shared.read(registered_keys).values())

    def register_key(
        self, *, station: str, role: str, public_key: str, actor: Actor
    ) -> tuple[RegisteredKey, bool]:
        """Register ``public_key`` as ``station``'s key for ``role``. Returns it and whether it
        is the trust root (the first registration: the chief referee's own key).

        Only a chief referee key registered for ``actor.station`` (loaded from this
        station's key folder) may register keys; the entry is signed with it, or nothing
        is written."""
        roles.check_role(role, "--role")
        pub = keys.check_public_key(public_key)
        fpr = keys.fingerprint(pub)
        station = station.strip()
        if not (0 < len(station) <= 100 and station.isprintable()):
            raise InputError(
                "--station: a station name of 1 to 100 printable characters",
                code="keys.station_name",
                field="station",
            )
        mine = self._chief_key(actor)

        def run(conn: Connection) -> tuple[RegisteredKey, bool]:
            current = registered_keys(conn)
            if fpr in current:
                k = current[fpr]
                raise InputError(
                    f"key {keys.short(fpr)}… is already registered (station {k.station}, {k.role})",
                    code="keys.already_registered",
                    key=keys.short(fpr),
                    station=k.station,
                    role=k.role,
                )
            root = not current
            if root:
                if role != keys.REGISTRAR_ROLE or pub != mine.public_hex or station != actor.station:
                    raise InputError(
                        "no key is registered yet: the first is the trust root, the chief referee's own "
                        f"key (referee-app key register --station {actor.station} --role chief_referee "
                        f"--public-key {mine.public_hex})",
                        code="keys.trust_root_first",
                        station=actor.station,
                    )
            else:
                _registrar(current, mine, actor.station, "registers")
            w = audit.Writer(conn)
            w.insert(station_keys, {"station": station, "role": role, "public_key": pub, "fingerprint": fpr})
            entry = w.commit_entry(
                user=actor.user,
                station=actor.station,
                action=keys.REGISTER_ACTION,
                info={"for_station": station, "for_role": role, "fingerprint": fpr, "trust_root": root},
                role=keys.REGISTRAR_ROLE,
            )
            if entry.get("signed_by") != mine.fingerprint:
                # cannot happen with the key just unlocked; never write an unsigned registration
                raise InputError(
                    f"{mine.path}: the registration could not be signed; nothing was written",
                    code="keys.cannot_sign",
                    source=mine.path,
                )
            return RegisteredKey(station, role, pub, fpr, int(entry["seq"])), root

        return self.shared.write(run)  # type: ignore[no-any-return]

    def revoke_key(self, fingerprint: str, *, reason: str, actor: Actor) -> RegisteredKey:
        """Revoke a registered key (a station's laptop or key file lost): ``verify`` reports
        every entry it signs after this one. The chief referee's act, signed with a chief
        referee key other than the one revoked."""
        want = fingerprint.strip().lower()
        if len(want) < 16:
            raise InputError(
                "FINGERPRINT: give at least 16 hex digits of the key's fingerprint (key list)",
                code="keys.fingerprint_short",
                field="fingerprint",
            )
        if not reason.strip():
            raise InputError(
                "--reason: say why the key is revoked (kept in the log)",
                code="keys.revoke_reason_missing",
                field="reason",
            )
        mine = self._chief_key(actor)

        def run(conn: Connection) -> RegisteredKey:
            current = registered_keys(conn)
            found = [k for f, k in current.items() if f.startswith(want)]
            if len(found) != 1:
                raise InputError(
                    f"no registered key has the fingerprint {want[:16]}… (referee-app key list)",
                    code="keys.unknown_fingerprint",
                    field="fingerprint",
                    key=want[:16],
                )
            k = found[0]
            if k.revoked_seq is not None:
                raise InputError(
                    f"key {keys.short(k.fingerprint)}… was already revoked (entry #{k.revoked_seq})",
                    code="keys.already_revoked",
                    key=keys.short(k.fingerprint),
                    seq=k.revoked_seq,
                )
            if k.fingerprint == mine.fingerprint:
                raise InputError(
                    "a chief referee key cannot revoke itself: revoke it from another registered "
                    "chief referee station",
                    code="keys.revoke_self",
                )
            _registrar(current, mine, actor.station, "revokes")
            w = audit.Writer(conn)
            entry = w.commit_entry(
                user=actor.user,
                station=actor.station,
                action=keys.REVOKE_ACTION,
                info={
                    "fingerprint": k.fingerprint,
                    "for_station": k.station,
                    "for_role": k.role,
                    "reason": reason.strip(),
                },
                role=keys.REGISTRAR_ROLE,
            )
            if entry.get("signed_by") != mine.fingerprint:
                raise InputError(
                    f"{mine.path}: the revocation could not be signed; nothing was written",
                    code="keys.cannot_sign",
                    source=mine.path,
                )
            return RegisteredKey(
                k.station, k.role, k.public_key, k.fingerprint, k.entry_seq, int(entry["seq"])
            )

        return self.shared.write(run)  # type: ignore[no-any-return]

    def _chief_key(self, actor: Actor) -> keys.StationKey:
        mine = self.shared.keyring.unlock(actor.station, keys.REGISTRAR_ROLE, None)
        if mine is None:
            raise InputError(
                f"station {actor.station} has no chief referee key "
                f"({self.shared.keyring.path(actor.station, keys.REGISTRAR_ROLE)}); make one first: "
                "referee-app key station create --role chief_referee",
                code="keys.no_registrar_key",
                station=actor.station,
            )
        return mine

    # -- the event's signing key ---------------------------------------------------
    def store_event_key(
        self,
        event_id: int,
        *,
        p12: bytes,
        cert_pem: bytes,
        subject: str,
        fingerprint: str,
        actor: Actor,
    ) -> int:
        """Keep the event's PKCS#12 (already encrypted under its passphrase) and certificate.
        An event has one key, never replaced."""
        ev = self.shared.pick_event(event_id)

        def run(conn: Connection) -> int:
            as_role = self.shared.authorize(conn, ev.id, "event.key", actor)
            if conn.execute(select(event_keys.c.id).where(event_keys.c.event_id == ev.id)).first():
                raise ConflictError(
                    f"event {ev.id} already has a signing key (an event key is never replaced)",
                    code="event.key_exists",
                    event=ev.id,
                )
            w = audit.Writer(conn)
            kid = w.insert(
                event_keys,
                {
                    "event_id": ev.id,
                    "p12_b64": base64.b64encode(p12).decode("ascii"),
                    "cert_pem": cert_pem.decode("ascii"),
                    "subject": subject[:400],
                    "sha256": fingerprint,
                },
            )
            w.commit_entry(
                user=actor.user,
                station=actor.station,
                action="event.key",
                event_id=ev.id,
                role=as_role,
                info={"subject": subject, "sha256": fingerprint},
            )
            return kid

        return self.shared.write(run)  # type: ignore[no-any-return]

    def event_key(self, event_id: int) -> dict[str, Any] | None:
        """``{"p12": bytes, "cert_pem": bytes, "subject", "sha256"}`` or None."""

        def run(conn: Connection) -> dict[str, Any] | None:
            r = conn.execute(select(event_keys).where(event_keys.c.event_id == event_id)).first()
            if r is None:
                return None
            return {
                "p12": base64.b64decode(r.p12_b64),
                "cert_pem": r.cert_pem.encode("ascii"),
                "subject": r.subject,
                "sha256": r.sha256,
            }

        return self.shared.read(run)  # type: ignore[no-any-return]
