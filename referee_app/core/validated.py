"""Texts validated once: the normalised data of a validated text (a rulebook, a form
template) kept in the user cache folder by the text's SHA-256, so a later run reads plain
data instead of building the schema that validated it (pydantic's import alone is a large
part of a short command). ``REFEREE_APP_NO_CACHE=1`` turns it off.

**Trust.** The cache folder is not trusted: anything that can write it could otherwise
change what a rulebook says (issue 24 item 4: exposed-card points edited from 10 to 90 and
the plain SHA-256 recomputed). Each entry is therefore signed with HMAC-SHA256 under a
secret of this user's installation, :data:`SECRET_FILE` in the user's data folder (32
random bytes, created on first use, owner-only ``0600``). An entry whose signature does not
verify, or that was made by other code, is a cache miss: the text is validated again and
the entry rewritten, never read. A secret that is not exactly the owner's (wrong size,
readable or writable by others, not a plain file, another owner) is not used: it is
replaced by a new one, so every entry signed with it is a miss.

**Who made an entry.** An entry is valid only for the code that made it
(:func:`code_stamp`: the cache's format, the app's version, where the package is
installed, the schema's source), and each such stamp has a folder of its own, so a desktop
bundle and a venv install of the same user never overwrite each other's entries, and a
schema with new fields never reads an entry the old one made.

Standard library only, and light: ``judge`` reads an entry on every start.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..locations import user_cache_dir, user_data_dir

#: The per-installation secret entries are signed with, in the user's data folder.
SECRET_FILE = "cache-secret.key"
SECRET_BYTES = 32


def _secret_path() -> Path:
    return user_data_dir() / SECRET_FILE


def _read_secret(path: Path) -> bytes | None:
    """The secret at ``path`` if it is this user's own, else None (missing, or not to be
    trusted: a secret others can read lets them forge entries)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size != SECRET_BYTES:
            return None
        if os.name == "posix" and (st.st_mode & 0o077 or st.st_uid != os.getuid()):
            return None
        secret = os.read(fd, SECRET_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return secret if len(secret) == SECRET_BYTES else None


def installation_secret(*, create: bool) -> bytes | None:
    """This installation's cache secret; with ``create``, made on first use (owner-only),
    and made anew in place of one not to be trusted (every entry signed with that one is
    then a cache miss). None when there is none to trust: nothing is read from the cache."""
    path = _secret_path()
    secret = _read_secret(path)
    if secret is not None or not create:
        return secret
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    replace = os.path.lexists(path)
    target = path.with_name(f".{SECRET_FILE}.{os.getpid()}.tmp") if replace else path
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, flags, 0o600)
    except OSError:  # another process made it first, or the data folder cannot be written
        return _read_secret(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(os.urandom(SECRET_BYTES))
        if replace:  # the untrusted file (or link) itself replaced, never written through
            os.replace(target, path)
    except OSError:
        if replace:
            with contextlib.suppress(OSError):
                os.unlink(target)
    return _read_secret(path)


def sign(secret: bytes, body: bytes) -> bytes:
    """The 32-byte HMAC-SHA256 of ``body`` under this installation's secret (a cache entry's
    signature: the parsed font faces sign their bytes with it)."""
    return hmac.new(secret, body, hashlib.sha256).digest()


def entry_check(secret: bytes, stamp: str, digest: str, data: dict[str, Any]) -> str:
    """An entry's signature: its data tied to the hash of the text it was validated from and
    to the code that made it, under this installation's secret."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return sign(secret, f"{stamp}\n{digest}\n{canonical}".encode()).hex()


def code_stamp(kind: int, *sources: Path) -> str:
    """What an entry was made by: the cache's format, the app's version, where the package
    is installed, and the SHA-256 of the schema's source files (a schema with new fields is
    other code). A desktop bundle carries no sources: its executable's size and time stand
    for them (a new bundle replaces the executable)."""
    from .. import __version__

    package = Path(__file__).resolve().parent.parent
    code = hashlib.sha256()
    for source in sources:
        try:
            code.update(source.read_bytes())
        except OSError:
            try:
                st = Path(sys.executable).stat()
            except OSError:
                break
            code.update(f"{sys.executable}:{st.st_size}:{st.st_mtime_ns}".encode())
            break
    return f"{kind}-{__version__}-{package}-{code.hexdigest()}"


class ValidatedCache:
    """Entries in the cache folder's ``folder``, valid while ``stamp()`` is unchanged."""

    def __init__(self, folder: str, stamp: Callable[[], str]) -> None:
        self.folder = folder
        self.stamp = stamp

    def where(self, stamp: str) -> Path | None:
        """The folder of the entries made by the code ``stamp`` names (None: no cache)."""
        if os.environ.get("REFEREE_APP_NO_CACHE"):
            return None
        return user_cache_dir() / self.folder / hashlib.sha256(stamp.encode()).hexdigest()[:16]

    def read(self, digest: str) -> dict[str, Any] | None:
        stamp = self.stamp()
        folder = self.where(stamp)
        if folder is None:
            return None
        try:
            stored = json.loads((folder / f"{digest}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(stored, dict) or stored.get("stamp") != stamp:
            return None
        data, check = stored.get("data"), stored.get("check")
        secret = installation_secret(create=False)
        if secret is None or not isinstance(data, dict) or not isinstance(check, str):
            return None
        if not hmac.compare_digest(check, entry_check(secret, stamp, digest, data)):
            return None  # forged, edited or damaged: validate the text again (and rewrite the entry)
        return data

    def write(self, digest: str, data: dict[str, Any]) -> None:
        stamp = self.stamp()
        folder = self.where(stamp)
        if folder is None:
            return
        secret = installation_secret(create=True)
        if secret is None:
            return  # no secret to sign with: an unsigned entry would never be read
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tmp = folder / f".{digest}.{os.getpid()}.tmp"
            entry = {"stamp": stamp, "data": data, "check": entry_check(secret, stamp, digest, data)}
            tmp.write_text(json.dumps(entry), encoding="utf-8")
            os.replace(tmp, folder / f"{digest}.json")
        except OSError:
            pass  # a cache that cannot be written only costs time
