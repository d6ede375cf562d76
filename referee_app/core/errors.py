"""The errors the core raises, and the base every layer's errors share: errors as data.

An error a user meets carries a ``code`` (a stable key of the message catalogue,
``resources/messages/errors.toml``), the ``field`` it is about (a logical name such as
``reason``, ``filed_at`` or ``hands[2].seat``, or None) and the ``values`` its message is
made of. The front ends word it from those (``referee_app.app.messages.describe``): the
command line names the field by its flag in English and in words in Chinese, the window
focuses the field's widget. ``str(err)`` stays one readable English line, for the log, the
tests and a caller that only needs a sentence.
"""

from __future__ import annotations

import unicodedata
from typing import Any


def shown(text: str) -> str:
    """``text`` with every character that hides or reorders what a referee reads escaped as
    Python writes it (``\\u202e``): controls (Unicode Cc), format characters (Cf: bidi
    overrides and isolates, zero-width spaces and joiners, the byte-order mark) and the
    line and paragraph separators. A message echoing a user's value cannot then reverse
    the rest of the line or hide part of it."""
    if text.isascii() and text.isprintable():
        return text
    out = []
    for ch in text:
        if unicodedata.category(ch) in _HIDDEN:
            code = ord(ch)
            width = "x02" if code < 0x100 else "u04" if code < 0x10000 else "U08"
            out.append(f"\\{width[0]}{code:{width[1:]}x}")
        else:
            out.append(ch)
    return "".join(out)


_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def one_line(message: object) -> str:
    """``message`` as the single line a referee sees: line breaks and runs of spaces folded,
    hidden and reordering characters escaped (:func:`shown`). Every error line of the
    command line and the window is made here."""
    return shown(" ".join(str(message).split()))


class Reported(Exception):
    """An error worded from data: ``code``, ``field``, ``values`` (see the module's doc).

    ``Reported("english line", code="appeal.late", field="filed_at", minutes=7)``. A class
    sets ``default_code``, used when a raise gives none (its catalogue entry words the
    class's errors in general)."""

    default_code = "error.general"

    def __init__(
        self,
        message: object = "",
        *args: object,
        code: str | None = None,
        field: str | None = None,
        **values: Any,
    ) -> None:
        super().__init__(message, *args)
        self.code: str = code or self.default_code
        self.field: str | None = field
        self.values: dict[str, Any] = values

    @property
    def coded(self) -> bool:
        """True when the raise gave its own code (not only the class's general one)."""
        return self.code != type(self).default_code

    def __reduce__(self) -> tuple[Any, ...]:  # pickles (worker processes) keep the data
        return (_rebuild, (type(self), self.args, self.__dict__))


def _rebuild(cls: type[Reported], args: tuple[object, ...], state: dict[str, Any]) -> Reported:
    err = cls.__new__(cls)
    Exception.__init__(err, *args)
    err.__dict__.update(state)
    return err


class CaseError(Reported, ValueError):
    """A case is not valid: the message names the field (``hands[2].seat: …``)."""

    default_code = "case.invalid"


class RulebookError(Reported, ValueError):
    """A rulebook cannot be loaded: the message names the file and the key path."""

    default_code = "rulebook.invalid"


def field_of(name: str) -> str:
    """The logical field of a flag or a label a raise site was given (``--filed-at`` →
    ``filed_at``, ``new PIN`` → ``new_pin``); a path into a file (``hands[2].seat``) is kept."""
    if "[" in name or "." in name:
        return name
    return name.strip().lstrip("-").replace("-", "_").replace(" ", "_").lower()


def cannot_read(path: object, exc: OSError, field: str | None = None) -> tuple[str, dict[str, Any]]:
    """The English line and the data of a file that cannot be read, for any layer's error:
    ``line, data = cannot_read(name, exc)``, then ``raise SomeError(line, **data)`` (code
    ``file.cannot_read``)."""
    detail = exc.strerror or str(exc)
    data: dict[str, Any] = {"code": "file.cannot_read", "source": path, "detail": detail}
    if field is not None:
        data["field"] = field
    return f"{path}: cannot read: {detail}", data


def cannot_write(path: object, exc: OSError, field: str | None = None) -> tuple[str, dict[str, Any]]:
    """The English line and the data of a file that cannot be written (``file.cannot_write``),
    about ``field`` (the option that named the file) when given."""
    detail = exc.strerror or str(exc)
    data: dict[str, Any] = {"code": "file.cannot_write", "target": path, "detail": detail}
    if field is not None:
        data["field"] = field
    return f"{path}: cannot write: {detail}", data
