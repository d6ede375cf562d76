"""The store's register of station keys (schema 8): who may sign which entries.

The chief referee registers a station's public key for one role; the registration is an
audit entry signed with the chief referee's own registered key. The very first
registration is the trust root: the chief referee's own key, signed by itself, whose
fingerprint the chief referee keeps outside the database (``verify --root``). Keys are
store-wide (a hall's stations), not per event: PINs say who sits in a role at an event,
keys say which station wrote an entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, select

from . import audit, keys, roles
from .errors import InputError, RoleError
from .models import station_keys

if TYPE_CHECKING:
    from .service import Actor


@dataclass(frozen=True)
class RegisteredKey:
    station: str
    role: str
    public_key: str
    fingerprint: str
    entry_seq: int


def registered_keys(conn: Connection) -> dict[str, RegisteredKey]:
    out: dict[str, RegisteredKey] = {}
    for r in conn.execute(select(station_keys).order_by(station_keys.c.id)):
        fpr = keys.fingerprint(r.public_key)
        out[fpr] = RegisteredKey(r.station, r.role, r.public_key, fpr, int(r.entry_seq))
    return out


class KeysMixin:
    """``Store`` methods for station keys (the store's ``keyring`` signs every entry)."""

    keyring: keys.KeyRing
    _write: Any
    _read: Any

    def station_keys(self) -> list[RegisteredKey]:
        """The registered keys, in order; the first is the trust root."""
        return list(self._read(registered_keys).values())

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
            raise InputError("--station: a station name of 1 to 100 printable characters")
        mine = self.keyring.unlock(actor.station, keys.REGISTRAR_ROLE, None)
        if mine is None:
            raise InputError(
                f"station {actor.station} has no chief referee key "
                f"({self.keyring.path(actor.station, keys.REGISTRAR_ROLE)}); make one first: "
                "referee-app key station create --role chief_referee"
            )

        def run(conn: Connection) -> tuple[RegisteredKey, bool]:
            current = registered_keys(conn)
            if fpr in current:
                k = current[fpr]
                raise InputError(
                    f"key {keys.short(fpr)}… is already registered (station {k.station}, {k.role})"
                )
            root = not current
            if root:
                if role != keys.REGISTRAR_ROLE or pub != mine.public_hex or station != actor.station:
                    raise InputError(
                        "no key is registered yet: the first is the trust root, the chief referee's own "
                        f"key (referee-app key register --station {actor.station} --role chief_referee "
                        f"--public-key {mine.public_hex})"
                    )
            else:
                own = current.get(mine.fingerprint)
                if own is None or own.role != keys.REGISTRAR_ROLE or own.station != actor.station:
                    raise RoleError(
                        f"only the chief referee registers keys: this station's chief referee key "
                        f"{keys.short(mine.fingerprint)}… is not registered for station {actor.station}"
                    )
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
                raise InputError(f"{mine.path}: the registration could not be signed; nothing was written")
            return RegisteredKey(station, role, pub, fpr, int(entry["seq"])), root

        return self._write(run)  # type: ignore[no-any-return]
