"""The errors the window and the command line catch: each layer's own, named in one place so
the front ends word them without importing the layers (each is imported on first use)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:
    pass

_WHERE = {
    "CaseError": "..core.errors",
    "RulebookError": "..core.errors",
    "PaperCodeError": "..printing.data",
    "ResourceError": "..printing.fonts",
    "FormError": "..printing.forms",
    "SigningError": "..printing.signing",
    "InputError": "..store.errors",
    "NotFoundError": "..store.errors",
    "PinError": "..store.errors",
    "RoleError": "..store.errors",
    "StoreError": "..store.errors",
}
__all__ = sorted(_WHERE)
__getattr__ = lazy_names(__name__, _WHERE)
