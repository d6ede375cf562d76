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
