"""Drafts: what a referee has typed but not yet confirmed, kept on disk while it is typed.

A table referee's open ruling dialog and the hand points typed into the form are lost if the
app is killed (a flat battery, a crash, a kill from the task manager). Each is written to a
small JSON file in the station's user data folder as it changes, removed once it is
confirmed or cancelled, and offered back on the next start.

One draft per name (``hand``, ``ruling``) per event store: a station has one table open at a
time, and two stores (a test event and the real one) never see each other's drafts.

Standard library only: the window (Qt) decides when to save; this module only keeps files.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from ..locations import user_data_dir


def drafts_dir() -> Path:
    return user_data_dir() / "drafts"


class Drafts:
    """The drafts of one event store (``scope``, e.g. the store's location) on this station."""

    def __init__(self, scope: str, folder: Path | None = None) -> None:
        self.scope = scope
        self.folder = folder if folder is not None else drafts_dir()
        self.prefix = hashlib.sha256(scope.encode("utf-8")).hexdigest()[:16]

    def path(self, name: str) -> Path:
        return self.folder / f"{self.prefix}-{name}.json"

    def save(self, name: str, data: dict[str, Any]) -> None:
        """Write ``data`` as draft ``name``, whole or not at all (a kill mid-write leaves the
        previous draft). Not fsynced: it guards against the app dying, whose written pages
        the system still writes out, and a sync per keystroke would slow typing."""
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.path(name)
        temporary = target.with_suffix(".tmp")
        temporary.write_text(json.dumps({"scope": self.scope, **data}, ensure_ascii=False), encoding="utf-8")
        os.replace(temporary, target)

    def load(self, name: str) -> dict[str, Any] | None:
        """Draft ``name``, or None when there is none (or it cannot be read: a draft is a
        convenience, never a reason to refuse to start)."""
        try:
            data = json.loads(self.path(name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("scope") != self.scope:
            return None
        data.pop("scope")
        return data

    def discard(self, name: str) -> None:
        self.path(name).unlink(missing_ok=True)

    def pending(self, names: tuple[str, ...] = ("hand", "ruling")) -> dict[str, dict[str, Any]]:
        """Every draft left behind, by name."""
        found = {name: self.load(name) for name in names}
        return {name: data for name, data in found.items() if data is not None}
