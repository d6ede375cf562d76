"""The errors the printing layer reports to a user, each one readable line: in a module of
their own, with nothing heavy to import, so the application layer names them
(:mod:`referee_app.app.errors`) without loading reportlab or the templates' code."""

from __future__ import annotations

from ..core.errors import Reported


class PaperCodeError(Reported, ValueError):
    """The text is not a scoresheet's QR code from the event record; the message is one line."""

    default_code = "paper_code.invalid"


class ResourceError(Reported, RuntimeError):
    """A shipped resource (font, form template) is missing or unreadable."""

    default_code = "print.resource"


class FormError(Reported, ValueError):
    """A form template that cannot be used; the message is one line naming file and key."""

    default_code = "form.invalid"


class SigningError(Reported, RuntimeError):
    """A key, certificate or PDF that cannot be used; the message is one line."""

    default_code = "signing.error"
