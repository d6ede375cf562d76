"""Errors the store reports to a user: each carries one readable line."""

from __future__ import annotations


class StoreError(Exception):
    """Base class. ``str(err)`` is the one line shown to the user."""

    exit_code = 1


class InputError(StoreError):
    """A file, field or value given by the user is not acceptable; nothing was written."""


class ConflictError(StoreError):
    """Another station changed the same thing first (optimistic versioning)."""


class LockedError(StoreError):
    """The match version is signed: a change needs a chief referee's correction."""


class DatabaseError(StoreError):
    """The database cannot be opened, created or reached."""


class SchemaTooNewError(DatabaseError):
    """The database was written by a newer referee-app; it is left unchanged."""


class NotFoundError(StoreError):
    """An event, pair, round or match named by the user does not exist."""


class RoleError(StoreError):
    """The actor's role may not do this on an event whose roles are enforced (PINs set)."""


class PinError(StoreError):
    """A wrong PIN, a role without a PIN, or a role locked after too many wrong PINs.

    ``tries_left`` (wrong PIN, not locked) and ``locked_until`` (an aware datetime) let a
    window word its own message; ``str(err)`` is the one line for the command line."""

    def __init__(
        self,
        message: str,
        *,
        role: str,
        tries_left: int | None = None,
        locked_until: object = None,
    ) -> None:
        super().__init__(message)
        self.role = role
        self.tries_left = tries_left
        self.locked_until = locked_until
