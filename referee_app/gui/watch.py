"""Every station follows the store: a timer polls the audit log's head and says when it moved.

Any write by any station (a table recorded, a void, a pairing published, the clock paused)
appends an audit entry, so one cheap query tells a station that it should refresh, on
SQLite shared by several windows or on the hall's PostgreSQL server alike.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from ..app.changes import OpChanges
from ..app.errors import StoreError

POLL_MS = 1500
"""How often a station looks at the store's head (ms): a change elsewhere shows within it."""


class StoreWatcher(QObject):
    """Emits ``changed`` when the store's head (``head()``) differs from the last one seen,
    and ``changes`` with what changed since (``since(seen)``, an ``OpChanges``) when given."""

    changed = Signal()
    changes = Signal(object)

    def __init__(
        self,
        head: Callable[[], int],
        interval_ms: int = POLL_MS,
        parent: QObject | None = None,
        since: Callable[[int], OpChanges] | None = None,
    ):
        super().__init__(parent)
        self.head = head
        self.since = since
        self.seen: int | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.poll)
        self.poll()
        self.timer.start()

    def poll(self) -> None:
        try:
            now = self.head()
        except StoreError:
            return  # the server is away for a moment: try again at the next tick
        if self.seen is not None and now != self.seen:
            seen, self.seen = self.seen, now
            if self.since is not None:
                try:
                    self.changes.emit(self.since(seen))
                except StoreError:
                    self.seen = seen  # read what changed at the next tick
                    return
            self.changed.emit()
        self.seen = now
