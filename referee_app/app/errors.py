"""The errors the window and the command line catch: each layer's own, named in one place so
the front ends word them without importing the layers. Each comes from a module that
imports nothing heavy (no SQLAlchemy, no reportlab)."""

from __future__ import annotations

from ..core.errors import CaseError, RulebookError
from ..printing.errors import FormError, PaperCodeError, ResourceError, SigningError
from ..store.errors import (
    BackupError,
    ConflictError,
    InputError,
    NotFoundError,
    PinError,
    RoleError,
    SignatureImageError,
    StoreError,
)

__all__ = [
    "BackupError",
    "CaseError",
    "ConflictError",
    "FormError",
    "InputError",
    "NotFoundError",
    "PaperCodeError",
    "PinError",
    "ResourceError",
    "RoleError",
    "RulebookError",
    "SignatureImageError",
    "SigningError",
    "StoreError",
]
