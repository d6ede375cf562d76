"""What a user's input must be before any layer reads it: strict JSON and pair numbers.

Every front end and layer that reads a JSON file or value a user gives (a case, a pairing, a
committee's sanctions) reads it with :func:`read_json` / :func:`loads_strict`: a key given
twice in one object is refused with the key named (Python's ``json`` keeps the last, so a
case ``{"cards": 1, "cards": 9}`` used to be judged by the 9 the referee may not have seen);
``NaN`` and ``Infinity`` are not JSON and are refused too.

A pair number is a positive whole number in ASCII digits (:func:`is_pair_number`), in a
pairs file and in a case: Python's ``int()`` also reads ``١١`` (Arabic-Indic digits that
look like 11), ``-1`` and ``1_0``.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from typing import Any

from .errors import Reported


class BadInput(Reported, ValueError):
    """A file or value given by the user is not acceptable (the command line: exit 2)."""

    default_code = "input.invalid"
    exit_code = 2


class DuplicateKeyError(ValueError):
    """A JSON object names a key twice (raised by :func:`loads_strict`)."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {key!r} appears twice in one object")
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKeyError(key)
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def loads_strict(text: str) -> Any:
    """``json.loads`` that refuses a key given twice in one object (:class:`DuplicateKeyError`)
    and ``NaN``/``Infinity`` (``ValueError``); syntax errors are ``json.JSONDecodeError``."""
    return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)


def parse_json(raw: bytes | str, source: str) -> Any:
    """The JSON document in ``raw`` (UTF-8, a BOM allowed), read strictly; anything else is
    a :class:`BadInput` naming ``source`` (a file name, ``stdin`` or an option)."""
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as exc:
        raise BadInput(
            f"{source}: not UTF-8 text (byte {exc.start})",
            code="file.not_utf8",
            source=source,
            byte=exc.start,
        ) from None
    try:
        return loads_strict(text)
    except DuplicateKeyError as exc:
        raise BadInput(
            f"{source}: the key {exc.key!r} appears twice in one object; give it once",
            code="file.duplicate_key",
            source=source,
            key=exc.key,
        ) from None
    except json.JSONDecodeError as exc:
        raise BadInput(
            f"{source}: not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}",
            code="file.not_json",
            source=source,
            line=exc.lineno,
            column=exc.colno,
            detail=exc.msg,
        ) from None
    except RecursionError:
        raise BadInput(
            f"{source}: not JSON: nested too deeply", code="file.too_deep", source=source
        ) from None
    except ValueError as exc:  # NaN, a number of more than 4300 digits
        raise BadInput(
            f"{source}: not a case: {str(exc).split(';')[0]}", code="file.not_case", source=source
        ) from None


#: Bytes of a file a user gives (a case, a pairs list, a rulebook, an anchor file, a PDF, an
#: appeal's attachment) at most, unless its reader names a limit of its own: a referee's
#: files are well under 1 MB; a larger one is refused before it is all read.
MAX_INPUT_BYTES = 50_000_000


def read_limited(
    name: str | os.PathLike[str],
    limit: int | None = None,
    *,
    error: type[Reported] = BadInput,
    field: str | None = None,
) -> bytes:
    """The bytes of a file the user named (``-``: standard input), refused (``error``, naming
    the file: ``file.not_a_file``, ``file.too_big``) unless it is a regular file of at most
    ``limit`` bytes: a device, a FIFO or a folder is not opened (``/dev/zero`` would be read
    forever, a FIFO waits for a writer) and no more than ``limit`` + 1 bytes are read,
    standard input included (``limit``: :data:`MAX_INPUT_BYTES` unless given). ``OSError``
    (missing, not permitted) is the caller's to word."""
    limit = MAX_INPUT_BYTES if limit is None else limit
    source = "stdin" if str(name) == "-" else str(name)
    extra = {} if field is None else {"field": field}
    if str(name) == "-":
        raw = sys.stdin.buffer.read(limit + 1)
    else:
        mode = os.stat(name).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a device or a pipe"
            raise error(
                f"{source}: cannot read: not a file ({kind})",
                code="file.not_a_file",
                source=source,
                kind=kind,
                **extra,
            )
        with open(name, "rb") as handle:
            raw = handle.read(limit + 1)
    if len(raw) > limit:
        raise error(
            f"{source}: more than {limit} bytes, too large to be read",
            code="file.too_big",
            source=source,
            limit=limit,
            **extra,
        )
    return raw


def refuse_replacing_a_non_file(
    name: str | os.PathLike[str], *, error: type[Reported] = BadInput, field: str | None = None
) -> None:
    """Refuse (``error``, ``file.not_a_file_out``) an output path that is there and is not a
    regular file: a file written beside it and renamed onto it would replace the folder's
    entry: ``print -o /dev/full`` as root replaced the device with a PDF, ``-o /dev/stdout``
    the link."""
    try:
        mode = os.lstat(name).st_mode  # a link is not followed: the rename would replace it
    except (OSError, ValueError):
        return  # not there (or not a name): the writer says why it cannot write
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "a device, a pipe or a link"
        extra = {} if field is None else {"field": field}
        raise error(
            f"{name}: cannot write: not a file ({kind}), not replaced",
            code="file.not_a_file_out",
            source=str(name),
            kind=kind,
            **extra,
        )


def read_input_bytes(
    name: str | os.PathLike[str],
    limit: int | None = None,
    *,
    error: type[Reported] = BadInput,
    field: str | None = None,
) -> bytes:
    """:func:`read_limited`, a file that cannot be opened refused too (``file.cannot_read``)."""
    try:
        return read_limited(name, limit, error=error, field=field)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        if isinstance(exc, Reported):
            raise
        detail = getattr(exc, "strerror", None) or str(exc)
        extra = {} if field is None else {"field": field}
        raise error(
            f"{name}: cannot read ({detail})",
            code="file.cannot_read",
            source=str(name),
            detail=detail,
            **extra,
        ) from None


def read_json(name: str) -> Any:
    """The JSON file ``name`` (``-``: standard input), read strictly (:func:`parse_json`)."""
    return parse_json(read_input_bytes(name), "stdin" if name == "-" else name)


def number(text: str) -> int:
    """A whole number given on the command line (argparse's ``type`` of every numeric
    option): ASCII digits, a minus allowed, at most 9 of them. ``int()`` also reads ``١١``
    (Arabic-Indic digits), ``1_0`` and `` 1``, and a 20-digit round no column holds was an
    internal error (SQLite: OverflowError) or a standings that ran for ever (issue 24)."""
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 9):
        raise ValueError(text)
    return int(text)


#: No event has more rounds: a larger number is a typing slip (and past what the store's
#: integers hold).
ROUND_MAX = 999


def check_round(round_no: int, *, error: type[Reported] = BadInput) -> None:
    """Refuse (``error``, ``input.round_range``) a round number outside 1 to :data:`ROUND_MAX`."""
    if not 1 <= round_no <= ROUND_MAX:
        raise error(
            f"--round: expected a round number from 1 to {ROUND_MAX}, got {round_no}",
            code="input.round_range",
            field="round",
            got=round_no,
            max=ROUND_MAX,
        )


def is_pair_number(text: str) -> bool:
    """Whether ``text`` is a pair number: ASCII digits, not all zeros, at most 9 of them."""
    return text.isascii() and text.isdigit() and len(text) <= 9 and int(text) > 0
