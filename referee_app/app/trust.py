"""What the chief referee is told about the store's trust (issue 24 item 10; docs/trust.md):
the notices the window shows while they hold, as catalogue keys and values.

* station keys not registered yet: every entry so far is unsigned, so anyone able to write
  to the database (a station's PostgreSQL login, whoever has the SQLite file) could append
  an entry under any name and role, and ``verify`` shows it only as unsigned;
* no anchor kept since the last round ended: entries after the last anchor kept outside the
  store (an anchor file, paper, a verified backup) can be removed, or an older copy put
  back, without ``verify`` seeing it."""

from __future__ import annotations

from typing import Any

Notice = tuple[str, dict[str, Any]]


def notices(store: Any, event_id: int) -> list[Notice]:
    """The notices that hold now for ``event_id`` in ``store`` (an ``app.store.Store``)."""
    found: list[Notice] = []
    if not store.station_keys():
        found.append(("notice_no_station_keys", {}))
    state = store.anchor_state(event_id)
    if state.anchor_due:
        found.append(("notice_no_anchor", {"round": state.round_no}))
    return found


def keep_anchor(store: Any, actor: Any, path: str) -> Any:
    """The chain's head appended to the anchor file ``path`` (``RA1:<entry>:<hash>``, what
    ``anchor -o`` writes and ``verify --anchors`` reads) and noted in the log as kept
    (``audit.anchor``): the anchor. The file is opened first, so a file that cannot be
    written is refused (``InputError``) before anything is noted."""
    from ..core.errors import cannot_write
    from .errors import InputError

    try:
        handle = open(path, "a", encoding="utf-8")
    except OSError as err:
        line, data = cannot_write(path, err, "output")
        raise InputError(line, **data) from None
    with handle:
        anchor = store.note_anchor(actor=actor, kept=path)
        handle.write(anchor.text() + "\n")
    return anchor
