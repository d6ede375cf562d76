"""Station keys: each station signs the audit entries it writes, one Ed25519 key per role.

Why: the hash chain alone stops no one who can write to the database (the chain can be
extended, or rewritten and rehashed). A signature made with a key that lives outside the
database — the station's private key file — can only come from that station. The chief
referee registers each station's public key for one role in the store (``key.register``,
itself a signed entry); the first registration, the chief referee's own key, is the trust
root, whose fingerprint the chief referee keeps outside the database.

What is signed: the bytes ``SIGNED_PREFIX + entry hash`` (ASCII). The entry's hash already
covers its number, who, which station, when, the action, every row written, the role in its
info and the previous entry's hash; none of it depends on the language shown.

Private key files: PEM (PKCS#8) in the station's user data folder, ``station-keys/``
(``$REFEREE_APP_KEYS`` for another folder, e.g. a USB stick), readable by the owner only;
with a passphrase they are encrypted (``$REFEREE_APP_STATION_KEY_PASSPHRASE`` or a prompt
before the write, never inside a transaction).
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import field_of
from ..core.inputs import read_limited
from .errors import InputError

ENV_KEYS = "REFEREE_APP_KEYS"
ENV_PASSPHRASE = "REFEREE_APP_STATION_KEY_PASSPHRASE"
SIGNED_PREFIX = b"referee-app audit entry v1\n"
#: The action of a key registration, and the only role that may register keys.
REGISTER_ACTION = "key.register"
#: A key the chief referee revoked (a station's laptop lost): what it signs later is reported.
REVOKE_ACTION = "key.revoke"
KEY_ACTIONS = (REGISTER_ACTION, REVOKE_ACTION)
REGISTRAR_ROLE = "chief_referee"


def keys_dir() -> Path:
    configured = os.environ.get(ENV_KEYS)
    if configured:
        return Path(configured)
    from ..locations import user_data_dir

    return user_data_dir() / "station-keys"


def _slug(station: str) -> str:
    # A readable file name for any station name, unique through the digest.
    safe = re.sub(r"[^A-Za-z0-9_-]+", "_", station)[:40]
    return f"{safe}-{hashlib.sha256(station.encode('utf-8')).hexdigest()[:8]}"


def key_file(station: str, role: str, folder: Path | None = None) -> Path:
    return (folder or keys_dir()) / f"{_slug(station)}.{role}.pem"


def fingerprint(public_hex: str) -> str:
    """SHA-256 of the raw 32-byte public key, in hex: what the chief referee keeps."""
    return hashlib.sha256(bytes.fromhex(public_hex)).hexdigest()


def short(fpr: str) -> str:
    return fpr[:16]


def signed_bytes(entry_hash: str) -> bytes:
    return SIGNED_PREFIX + entry_hash.encode("ascii")


def check_public_key(text: str, where: str = "--public-key") -> str:
    """A public key as written by ``key station create``: 64 hex digits."""
    t = text.strip().lower()
    if len(t) != 64 or any(c not in "0123456789abcdef" for c in t):
        raise InputError(
            f"{where}: expected an Ed25519 public key as 64 hex digits, got {t[:70]!r}",
            code="keys.public_key",
            field=field_of(where),
        )
    return t


def verify_signature(public_hex: str, entry_hash: str, signature_hex: str) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))
        key.verify(bytes.fromhex(signature_hex), signed_bytes(entry_hash))
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True)
class StationKey:
    station: str
    role: str
    path: Path
    public_hex: str

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_hex)


def _public_hex(private: Any) -> str:
    from cryptography.hazmat.primitives import serialization

    raw = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return bytes(raw).hex()


def create_key(station: str, role: str, passphrase: str | None, out: Path | None = None) -> StationKey:
    """Make a station's key pair for ``role``; the private half goes to a file only the
    owner can read (never replaced: a registered key stays the one the store knows)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    if not station.strip() or len(station) > 100:
        raise InputError(
            "--station: a station name of 1 to 100 characters", code="keys.station_name", field="station"
        )
    path = out or key_file(station, role)
    if path.exists():
        raise InputError(
            f"{path}: a key is already there (a station key is never overwritten)",
            code="file.exists",
            field="out",
            target=path,
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(
            f"{path.parent}: cannot create the key folder ({err.strerror})",
            code="file.cannot_write",
            target=path.parent,
            detail=err.strerror,
        ) from None
    private = Ed25519PrivateKey.generate()
    enc: Any = (
        serialization.BestAvailableEncryption(passphrase.encode("utf-8"))
        if passphrase
        else serialization.NoEncryption()
    )
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, enc)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
    except OSError as err:
        raise InputError(
            f"{path}: cannot write the key ({err.strerror})",
            code="file.cannot_write",
            target=path,
            detail=err.strerror,
        ) from None
    return StationKey(station, role, path, _public_hex(private))


def load_private(path: Path, passphrase: str | None) -> Any:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    try:
        data = read_limited(path, error=InputError)
    except OSError as err:
        raise InputError(
            f"{path}: cannot read the station key ({err.strerror})",
            code="file.cannot_read",
            source=path,
            detail=err.strerror,
        ) from None
    try:
        key = serialization.load_pem_private_key(data, passphrase.encode("utf-8") if passphrase else None)
    except TypeError:
        raise InputError(
            f"{path}: the station key is encrypted: set {ENV_PASSPHRASE} (or type it when asked)",
            code="keys.passphrase_needed",
            source=path,
            env=ENV_PASSPHRASE,
        ) from None
    except ValueError:
        raise InputError(
            f"{path}: cannot open the station key (wrong passphrase, or not a key file)",
            code="keys.cannot_open",
            source=path,
        ) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise InputError(f"{path}: not an Ed25519 station key", code="keys.not_a_key", source=path)
    return key


def is_encrypted(path: Path) -> bool:
    try:
        return b"ENCRYPTED" in path.read_bytes()[:64]
    except OSError:
        return False


class KeyRing:
    """The station keys this process signs with, found by (station, role) in ``keys_dir``.

    A key is loaded the first time it signs; an encrypted one only with its passphrase
    given beforehand (``unlock``, or the environment), since a prompt inside a write would
    hold the store's write lock — without it the write is refused, naming the key file. A
    station with no key file for the role writes unsigned entries, and ``verify`` reports
    them."""

    def __init__(self, folder: Path | None = None, default_role: str | None = None) -> None:
        self.folder = folder
        self.default_role = default_role if default_role is not None else os.environ.get("REFEREE_APP_ROLE")
        self._loaded: dict[tuple[str, str], Any] = {}
        self._passphrase: str | None = None

    def path(self, station: str, role: str) -> Path:
        return key_file(station, role, self.folder or keys_dir())

    def roles_of(self, station: str) -> list[str]:
        folder = self.folder or keys_dir()
        prefix = _slug(station) + "."
        try:
            names = sorted(p.name for p in folder.glob(prefix + "*.pem"))
        except OSError:
            return []
        return [n[len(prefix) : -len(".pem")] for n in names]

    def role_for(self, station: str, role: str | None) -> str | None:
        """The role whose key signs an entry written in ``role`` (None: no role stated —
        an event without PINs, a login attempt — the station's default or only key)."""
        if role is not None:
            return role
        have = self.roles_of(station)
        if self.default_role in have:
            return self.default_role
        return have[0] if len(have) == 1 else None

    def unlock(self, station: str, role: str | None, passphrase: str | None) -> StationKey | None:
        """Load the key for (station, role) now (outside any write). Returns it, or None if
        the station has no such key file."""
        r = self.role_for(station, role)
        if r is None:
            return None
        path = self.path(station, r)
        key = self._loaded.get((station, r))
        if key is None:  # (unlocked before: no passphrase needed again)
            if not path.exists():
                return None
            key = load_private(path, passphrase or os.environ.get(ENV_PASSPHRASE))
            self._loaded[(station, r)] = key
        return StationKey(station, r, path, _public_hex(key))

    def sign(self, station: str, role: str | None, entry_hash: str) -> tuple[str, str] | None:
        """(fingerprint, signature hex) of the entry, or None when this station has no
        usable key for the role."""
        r = self.role_for(station, role)
        if r is None:
            return None
        key = self._loaded.get((station, r))
        if key is None:
            path = self.path(station, r)
            if not path.exists():
                return None
            # A key this station has but cannot open (encrypted, no passphrase given) refuses
            # the write with the reason: an entry written unsigned would only show later.
            key = load_private(path, os.environ.get(ENV_PASSPHRASE))
            self._loaded[(station, r)] = key
        return fingerprint(_public_hex(key)), bytes(key.sign(signed_bytes(entry_hash))).hex()
