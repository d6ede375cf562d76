"""Errors the store reports to a user: each carries one readable line."""

from __future__ import annotations

from typing import Any

from ..core.errors import Reported


class StoreError(Reported):
    """Base class. ``str(err)`` is the English line; ``code``, ``field`` and ``values`` let
    each front end word it (``referee_app.app.messages.describe``)."""

    #: the command line's exit code: a refused input or action (docs/exit-codes.md)
    exit_code = 2
    default_code = "store.error"


class InputError(StoreError):
    """A file, field or value given by the user is not acceptable; nothing was written."""

    default_code = "store.input"


class SignatureImageError(InputError):
    """An image given as a signature is not one (``core.signature_image``): a bad input
    file, exit 2 on the command line; nothing was locked."""

    exit_code = 2
    default_code = "signature.broken"


class ConflictError(StoreError):
    """Another station changed the same thing first (optimistic versioning)."""

    default_code = "store.conflict"


class LockedError(StoreError):
    """The match version is signed: a change needs a chief referee's correction."""

    default_code = "store.locked"


class DatabaseError(StoreError):
    """The database cannot be opened, created or reached."""

    default_code = "store.database"


class SchemaTooNewError(DatabaseError):
    """The database was written by a newer referee-app; it is left unchanged."""

    default_code = "store.schema_too_new"


class BackupError(StoreError):
    """A backup or a restore refused (``store.backup``): the file is not a referee-app store
    or does not verify, the target exists or is in use, the copy cannot be written. One
    line, exit 2 on the command line; nothing was changed."""

    exit_code = 2
    default_code = "backup.error"


class NotFoundError(StoreError):
    """An event, pair, round or match named by the user does not exist."""

    default_code = "store.not_found"


class RoleError(StoreError):
    """The actor's role may not do this on an event whose roles are enforced (PINs set)."""

    default_code = "store.role"


class PinError(StoreError):
    """A wrong PIN, a role without a PIN, or a role locked after too many wrong PINs.

    ``tries_left`` (wrong PIN, not locked) and ``locked_until`` (an aware datetime) let a
    window word its own message; ``str(err)`` is the one line for the command line."""

    default_code = "pin.error"

    def __init__(
        self,
        message: str,
        *,
        role: str,
        tries_left: int | None = None,
        locked_until: object = None,
        code: str | None = None,
        field: str | None = None,
        **values: Any,
    ) -> None:
        super().__init__(message, code=code, field=field, **values)
        self.role = role
        self.tries_left = tries_left
        self.locked_until = locked_until
