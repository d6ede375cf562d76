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


def read_json(name: str) -> Any:
    """The JSON file ``name`` (``-``: standard input), read strictly (:func:`parse_json`)."""
    source = "stdin" if name == "-" else name
    try:
        if name == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(name, "rb") as handle:
                raw = handle.read()
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        detail = getattr(exc, "strerror", None) or str(exc)
        raise BadInput(
            f"{name}: cannot read ({detail})", code="file.cannot_read", source=name, detail=detail
        ) from None
    return parse_json(raw, source)


def is_pair_number(text: str) -> bool:
    """Whether ``text`` is a pair number: ASCII digits, not all zeros, at most 9 of them."""
    return text.isascii() and text.isdigit() and len(text) <= 9 and int(text) > 0
