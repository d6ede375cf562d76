"""The station's store at a glance, before the store's code has loaded: its events read
through the standard library (:func:`..store.sqlitefile.glance_events`), so the window lists
them while SQLAlchemy loads behind. Light: importing this loads no SQLAlchemy.

A glance is only a look. Choosing an event, creating one or anything else waits for the
store opened the full way (:func:`.store.open_store`), which checks, upgrades and holds it."""

from __future__ import annotations

from dataclasses import dataclass

from ..store.sqlitefile import EventInfo, glance_events, resolve_target, sqlite_path

__all__ = ["EventInfo", "StoreGlance", "glance_store"]


@dataclass(frozen=True)
class StoreGlance:
    """What a glance read: the store file (as ``Store.where`` names it) and its events."""

    where: str
    events: list[EventInfo]


def glance_store(db: str | None) -> StoreGlance | None:
    """The events of the store ``--db`` names (else ``$REFEREE_APP_DB``, else the station's
    file), when it is an SQLite store of this schema version that reads cleanly; None
    otherwise (a PostgreSQL hall, a new station, a store to upgrade or that is damaged),
    where only the full open can say or do what is needed."""
    path = sqlite_path(resolve_target(db)[0])
    if path is None:
        return None
    events = glance_events(path)
    return None if events is None else StoreGlance(path, events)
