"""Texts validated once: the normalised data of a validated text (a rulebook, a form
template) kept in the user cache folder by the text's SHA-256, so a later run reads plain
data instead of building the schema that validated it (pydantic's import alone is a large
part of a short command). ``REFEREE_APP_NO_CACHE=1`` turns it off."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..locations import user_cache_dir


def entry_check(digest: str, data: dict[str, Any]) -> str:
    """Ties a cache entry's data to the hash of the text it was validated from. It catches
    a damaged or hand-edited entry, not one rewritten with this function."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(f"{digest}\n{canonical}".encode()).hexdigest()


def code_stamp(kind: int, schema: Path) -> str:
    """What an entry was made by: the cache's format, the app's version and the schema's
    source file (absent in a desktop bundle: a newer bundle must not read an older one's
    cache, hence the version)."""
    from .. import __version__

    try:
        stat = schema.stat()
    except OSError:
        return f"{kind}-{__version__}"
    return f"{kind}-{__version__}-{stat.st_size}-{stat.st_mtime_ns}"


class ValidatedCache:
    """Entries in the cache folder's ``folder``, valid while ``stamp()`` is unchanged."""

    def __init__(self, folder: str, stamp: Callable[[], str]) -> None:
        self.folder = folder
        self.stamp = stamp

    def where(self) -> Path | None:
        if os.environ.get("REFEREE_APP_NO_CACHE"):
            return None
        return user_cache_dir() / self.folder

    def read(self, digest: str) -> dict[str, Any] | None:
        folder = self.where()
        if folder is None:
            return None
        try:
            stored = json.loads((folder / f"{digest}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(stored, dict) or stored.get("stamp") != self.stamp():
            return None
        data = stored.get("data")
        if not isinstance(data, dict) or stored.get("check") != entry_check(digest, data):
            return None  # edited or damaged: validate the text again (and rewrite the entry)
        return data

    def write(self, digest: str, data: dict[str, Any]) -> None:
        folder = self.where()
        if folder is None:
            return
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tmp = folder / f".{digest}.{os.getpid()}.tmp"
            entry = {"stamp": self.stamp(), "data": data, "check": entry_check(digest, data)}
            tmp.write_text(json.dumps(entry), encoding="utf-8")
            os.replace(tmp, folder / f"{digest}.json")
        except OSError:
            pass  # a cache that cannot be written only costs time
