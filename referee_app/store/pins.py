"""The roles part of the store (:class:`Pins`): each role's PIN on an event, set by the chief
referee, and the login that checks one and issues the ticket the role check accepts
(:meth:`.shared.Shared.authorize`). The rules (who may do what, the PIN's hash, the lock
after wrong PINs) are :mod:`.roles`."""

from __future__ import annotations

import secrets

from sqlalchemy import Connection

from . import audit, roles
from .common import Actor
from .errors import InputError, PinError
from .models import auth_attempts, role_pins
from .shared import Shared


class Pins:
    """The roles and PINs part of the :class:`~referee_app.store.service.Store`."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared

    def roles_enforced(self, event_id: int) -> bool:
        """Whether the event has PINs (then every write is checked against its role)."""
        return self.shared.read(lambda conn: bool(roles.current_pins(conn, event_id)))  # type: ignore[no-any-return]

    def role_states(self, event_id: int, station: str | None = None) -> dict[str, roles.RoleState]:
        """Each role's PIN (set or not, when, by whom) and lock, now (the store's clock), as
        ``station`` sees it (locks are per station, see ``roles``)."""

        def run(conn: Connection) -> dict[str, roles.RoleState]:
            now = roles.store_now(conn)
            return {r: roles.role_state(conn, event_id, r, now, station) for r in roles.ROLES}

        return self.shared.read(run)  # type: ignore[no-any-return]

    def login(self, event_id: int, role: str, pin: str, *, actor: Actor, name: str | None = None) -> Actor:
        """Check ``role``'s PIN on the event; returns ``actor`` in that role, authenticated.

        ``name``: who logs in (default ``actor.user``); every entry written with the returned
        actor names them, beside the role.

        A wrong PIN is recorded, dated by the store's clock, and raises ``PinError`` saying
        how many tries are left; the 5th in a run at this station locks the role here, a
        minute the first time and twice as long each next time (see ``roles`` for the
        rules, and the bound over all stations). On an event without PINs there is nothing
        to log in to: the actor is returned with the role claimed, not authenticated
        (everything is allowed there anyway)."""
        roles.check_role(role)
        if not isinstance(pin, str):
            raise InputError("PIN: expected digits", code="pin.not_digits", field="pin")
        given = (actor.user if name is None else name).strip()
        if not (0 < len(given) <= 100 and given.isprintable()):
            raise InputError(
                "name: who logs in, 1 to 100 printable characters", code="login.name_invalid", field="user"
            )
        ev = self.shared.pick_event(event_id)
        who = roles.role_name(role)
        here = actor.station

        def run(conn: Connection) -> tuple[bool, roles.RoleState | None]:
            pins = roles.current_pins(conn, ev.id)
            if not pins:
                return True, None
            now = roles.store_now(conn)
            st = roles.role_state(conn, ev.id, role, now, here)
            if st.pin_hash is None:
                raise PinError(
                    f"the {who} has no PIN on event {ev.id} yet; the chief referee sets one "
                    f"(referee-app role set-pin --role {role})",
                    role=role,
                    code="pin.none",
                    event=ev.id,
                )
            if st.locked_until is not None:
                raise _locked(who, st)
            ok = roles.pin_matches(pin, st.pin_hash)
            if ok and not st.failures and not st.failures_everywhere:
                return True, st  # nothing to reset: nothing written
            w = audit.Writer(conn)
            w.insert(auth_attempts, {"event_id": ev.id, "role": role, "ok": ok, "at": roles.iso(now)})
            w.commit_entry(
                user=given,
                station=here,
                action="auth.ok" if ok else "auth.fail",
                event_id=ev.id,
                info={"for_role": role, "failures": 0 if ok else st.failures + 1},
            )
            return ok, st if ok else roles.role_state(conn, ev.id, role, now, here)

        ok, st = self.shared.write(run)
        if st is None:
            return Actor(given, actor.station, role)
        if not ok:
            if st.locked_until is not None:
                raise _locked(who, st)
            left = st.tries_left
            lock = st.next_lock_seconds
            raise PinError(
                f"wrong PIN for the {who}; {left} {'try' if left == 1 else 'tries'} left before "
                f"a {lock}-second lock",
                role=role,
                tries_left=left,
                code="pin.wrong",
                field="pin",
                n=left,
                lock=lock,
            )
        assert st.pin_hash is not None
        ticket = secrets.token_hex(16)
        self.shared.logins[ticket] = (ev.id, role, st.pin_hash, given)
        return Actor(given, actor.station, role, ticket)

    def set_pin(self, event_id: int, role: str, pin: str, *, actor: Actor) -> None:
        """Set (or change) ``role``'s PIN on the event: the chief referee's act, or anyone's
        on an event without PINs, where the chief referee's PIN must come first. Only the
        salted hash is stored; the audit entry says "PIN set for …" and holds a digest of
        the hash. Setting a PIN ends that role's run of wrong PINs (and its lock)."""
        roles.check_role(role)
        roles.check_pin(pin)
        ev = self.shared.pick_event(event_id)
        pin_hash = roles.hash_pin(pin)

        def run(conn: Connection) -> None:
            pins = roles.current_pins(conn, ev.id)
            as_role = self.shared.authorize(conn, ev.id, "pin.set", actor)
            if not pins and role != roles.CHIEF_REFEREE:
                raise InputError(
                    f"--role {role}: set the chief referee's PIN first (roles are enforced on "
                    f"event {ev.id} from then on)",
                    code="pin.chief_first",
                    field="role",
                    event=ev.id,
                )
            w = audit.Writer(conn)
            w.insert(role_pins, {"event_id": ev.id, "role": role, "pin_hash": pin_hash})
            w.commit_entry(
                user=actor.user,
                station=actor.station,
                action="pin.set",
                event_id=ev.id,
                info={"for_role": role, "changed": role in pins, "roles_enforced": True},
                role=as_role,
            )

        self.shared.write(run)


def _locked(who: str, st: roles.RoleState) -> PinError:
    assert st.locked_until is not None
    tries = max(st.failures, roles.MAX_TRIES)  # (a lock over all stations: this one's may be fewer)
    return PinError(
        f"the {who} is locked until {roles.local_hms(st.locked_until)} after {tries} wrong PINs",
        role=st.role,
        locked_until=st.locked_until,
        code="pin.locked",
        until=roles.local_hms(st.locked_until),
        tries=tries,
    )
