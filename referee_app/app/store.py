"""The one door to the event store for the window and the command line.

Both open a store with :func:`open_store` and act through the :class:`Store` service, whose
methods are the use cases (record, void, correct, sign, appeal, publish a pairing, …); each
checks the role of the acting station in the same transaction as its write. The readers the
two front ends share (the pairs file, appeal times, audit anchors, the log's wording, PIN
rules) are named here so that neither reaches into the store's modules. Each name is imported
on first use: the window paints before SQLAlchemy loads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:
    from ..store.service import Actor, Store

_WHERE = {
    "roles": "..store:roles",
    "keys": "..store:keys",
    "pgroles": "..store:pgroles",
    "SCHEMA_VERSION": "..store.db",
    "parse_when": "..store.appeals",
    "ANCHOR_PREFIX": "..store.audit",
    "parse_anchor": "..store.audit",
    "display_url": "..store.db",
    "resolve_target": "..store.db",
    "describe": "..store.logtext",
    "read_pairs": "..store.pairs_csv",
    "spreadsheet_cell": "..store.pairs_csv",
    "PIN_MAX": "..store.roles",
    "PIN_MIN": "..store.roles",
    "ROLES": "..store.roles",
    "local_hms": "..store.roles",
    "Actor": "..store.service",
    "Store": "..store.service",
    "HOLD_ARGUMENT": "..store.walholder",
    "hold": "..store.walholder",
}
__all__ = sorted([*_WHERE, "open_store"])
__getattr__ = lazy_names(__name__, _WHERE)


def open_store(
    target: str | None, *, create: bool = False, actor: Actor | None = None, hold: bool = False
) -> Store:
    """The event store at ``target`` (a SQLite path or a database URL; None: the station's
    default store), created when ``create``; ``actor`` is who writes (station and role);
    ``hold``: a long-lived process (the window) keeps an SQLite file open (``Store.open``)."""
    from ..store.service import Store

    return Store.open(target, create=create, actor=actor, hold=hold)
