"""The one door to the event store for the window and the command line.

Both open a store with :func:`open_store` (or ``Store.open``) and act through the
:class:`Store` service, whose methods are the use cases (record, void, correct, sign,
appeal, publish a pairing, …); each checks the role of the acting station in the same
transaction as its write. The readers the two front ends share (the pairs file, appeal
times, audit anchors, the log's wording, PIN rules) are named here so that neither reaches
into the store's modules.

Importing this module loads the store (SQLAlchemy): a front end imports it inside the
function that needs the store, so the window paints and ``judge`` runs without it. The
errors are in :mod:`.errors`, the holder process's entry in :mod:`.holder`, both light."""

from __future__ import annotations

from ..store import keys, pgroles, roles
from ..store.appeals import parse_when
from ..store.audit import ANCHOR_PREFIX, parse_anchor
from ..store.db import SCHEMA_VERSION, PgDriver, display_url, postgresql_driver, resolve_target
from ..store.logtext import describe
from ..store.pairs_csv import read_pairs, spreadsheet_cell
from ..store.roles import PIN_MAX, PIN_MIN, ROLES, local_hms
from ..store.service import Actor, Store

__all__ = [
    "ANCHOR_PREFIX",
    "PIN_MAX",
    "PIN_MIN",
    "ROLES",
    "SCHEMA_VERSION",
    "Actor",
    "Store",
    "describe",
    "PgDriver",
    "display_url",
    "postgresql_driver",
    "keys",
    "local_hms",
    "open_store",
    "parse_anchor",
    "parse_when",
    "pgroles",
    "read_pairs",
    "resolve_target",
    "roles",
    "spreadsheet_cell",
]


def open_store(
    target: str | None,
    *,
    create: bool = False,
    actor: Actor | None = None,
    hold: bool = False,
    read_only: bool = False,
) -> Store:
    """The event store at ``target`` (a SQLite path or a database URL; None: the station's
    default store), created when ``create``; ``actor`` is who writes (station and role);
    ``hold``: a long-lived process (the window) keeps an SQLite file open (``Store.open``);
    ``read_only``: a command that only reads (never creates, upgrades or changes it)."""
    return Store.open(target, create=create, actor=actor, hold=hold, read_only=read_only)
