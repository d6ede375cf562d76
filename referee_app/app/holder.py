"""The store's holder process (:mod:`referee_app.store.walholder`): a frozen bundle starts its
own executable again with :data:`HOLD_ARGUMENT` to keep an SQLite store open while the
window runs. The launcher asks here first, before anything heavy loads (this imports only
the holder's module: no SQLAlchemy)."""

from __future__ import annotations

from ..store.walholder import HOLD_ARGUMENT, hold

__all__ = ["HOLD_ARGUMENT", "hold"]
