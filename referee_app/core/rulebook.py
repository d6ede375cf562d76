"""Loading an event's rulebook (规则文件) from TOML, validated once and cached.

A rulebook is validated by the pydantic schema in :mod:`.rulebook_schema` the first time
its exact text is seen; the normalised result is cached by content hash, so judging a case
(``referee-app judge``) reads plain data and does not pay for building the schema.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..locations import rules_dir
from .errors import RulebookError
from .validated import ValidatedCache, code_stamp, entry_check

_CACHE_FORMAT = 1


@dataclass(frozen=True)
class Rulebook:
    """An event's validated rules. ``data`` is the normalised rulebook (every default filled)."""

    id: str
    data: dict[str, Any] = field(repr=False)
    sha256: str
    source_text: str = field(repr=False)
    origin: str

    def name(self, lang: str) -> str:
        return self.data["event"]["name"][lang]

    @property
    def appeal(self) -> dict[str, Any]:
        return self.data["appeal"]

    @property
    def kinds(self) -> list[str]:
        return list(self.data["infractions"])


def bundled_ids() -> list[str]:
    folder = rules_dir()
    return sorted(p.stem for p in folder.glob("*.toml")) if folder.is_dir() else []


#: The longest rulebook id or path taken from a case or a command line.
MAX_REF = 1000


def _shown(ref: str) -> str:
    return ref if len(ref) <= 80 else f"{ref[:60]}… ({len(ref)} characters)"


def resolve(ref: str) -> Path:
    """A bundled id (``bhg-2011``) or a path to a rulebook file."""
    if len(ref) > MAX_REF or "\0" in ref:
        raise RulebookError(
            f"{_shown(ref)!r}: not a rulebook id or file name", code="rulebook.not_id", ref=_shown(ref)
        )
    try:
        if re.fullmatch(r"[a-z0-9][a-z0-9_-]*", ref):
            candidate = rules_dir() / f"{ref}.toml"
            if candidate.is_file():
                return candidate
            if not Path(ref).exists():
                known = ", ".join(bundled_ids()) or "none"
                raise RulebookError(
                    f"{_shown(ref)}: no bundled rulebook with this id (bundled: {known})",
                    code="rulebook.unknown",
                    ref=_shown(ref),
                    known=known,
                )
    except OSError as exc:  # e.g. a name too long for the file system
        raise RulebookError(
            f"{_shown(ref)}: not a rulebook id or file ({exc.strerror or exc})",
            code="rulebook.not_id",
            ref=_shown(ref),
        ) from None
    return Path(ref)


def load_rulebook(ref: str) -> Rulebook:
    path = resolve(ref)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RulebookError(
            f"{_shown(str(path))}: cannot read the rulebook: {exc.strerror or exc}",
            code="rulebook.cannot_read",
            ref=_shown(str(path)),
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulebookError(
            f"{path}: not UTF-8 (byte {exc.start})", code="rulebook.not_utf8", ref=str(path)
        ) from None
    return rulebook_from_text(text, origin=str(path))


def rulebook_from_text(text: str, origin: str, *, use_cache: bool = True) -> Rulebook:
    """Validate a rulebook's TOML text (or take it from the cache) and return it.

    ``use_cache=False``: always validate the text itself. An event's pinned rulebook is
    loaded so: a cache file can be edited by anyone who can write the user's cache folder,
    and the event's rulings must follow the text whose hash it shows."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    cached = _cache_read(digest) if use_cache else None
    if cached is not None:
        return Rulebook(id=cached["id"], data=cached, sha256=digest, source_text=text, origin=origin)
    problems, data = validate_text(text, origin)
    if problems:
        more = f" (and {len(problems) - 1} more; see `referee-app rules check`)" if len(problems) > 1 else ""
        raise RulebookError(problems[0] + more, code="rulebook.problems", ref=origin, n=len(problems))
    assert data is not None
    _cache_write(digest, data)
    return Rulebook(id=data["id"], data=data, sha256=digest, source_text=text, origin=origin)


def validate_text(text: str, origin: str) -> tuple[list[str], dict[str, Any] | None]:
    """Every problem of a rulebook text as one line each, or the normalised data."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return [f"{origin}: TOML syntax error: {exc}"], None
    except RecursionError:
        return [f"{origin}: the rulebook is nested too deeply to be one"], None
    except ValueError as exc:  # a number of more than 4300 digits
        return [f"{origin}: not a rulebook: {str(exc).split(';')[0]}"], None
    from pydantic import ValidationError

    from .rulebook_schema import RulebookModel

    try:
        model = RulebookModel.model_validate(raw)
    except RecursionError:
        return [f"{origin}: the rulebook is nested too deeply to be one"], None
    except ValidationError as exc:
        lines = []
        for error in exc.errors(include_url=False):
            path = _key_path(error["loc"])
            message = error["msg"].removeprefix("Value error, ")
            if error["type"] not in ("missing", "extra_forbidden") and "input" in error:
                shown = json.dumps(error["input"], ensure_ascii=False, default=str)
                if len(shown) <= 60 and not isinstance(error["input"], dict):
                    message += f", got {shown}"
            if error["type"] == "extra_forbidden":
                message = "unknown key"
            line = _line_of(text, error["loc"])
            where = f" (line {line})" if line else ""
            lines.append(f"{origin}: {path or '(top)'}: {message}{where}")
        return lines, None
    return [], model.model_dump(mode="json")


def check_files(paths: list[str]) -> list[str]:
    """`referee-app rules check`: one line per problem, empty when every file is sound."""
    problems: list[str] = []
    for name in paths:
        path = Path(name)
        try:
            text = path.read_bytes().decode("utf-8")
        except OSError as exc:
            problems.append(f"{name}: cannot read: {exc.strerror or exc}")
            continue
        except UnicodeDecodeError as exc:
            problems.append(f"{name}: not UTF-8 (byte {exc.start})")
            continue
        found, data = validate_text(text, name)
        problems.extend(found)
        if data is not None and path.suffix == ".toml" and path.parent == rules_dir():
            if data["id"] != path.stem:
                problems.append(f"{name}: id: {data['id']!r} differs from the file name {path.stem!r}")
    return problems


def _key_path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif str(part) == "[key]" or str(part).startswith(("function-", "literal[", "tagged-union")):
            continue
        else:
            out += ("." if out else "") + str(part)
    return out


def _line_of(text: str, loc: tuple[Any, ...]) -> int | None:
    """Best-effort line number of a key path in TOML text (tomllib gives no positions)."""
    lines = text.splitlines()
    start = 0
    found: int | None = None
    keys = [str(p) for p in loc if isinstance(p, str)]
    for key in keys:
        pattern = re.compile(rf"(^|[\s.\[{{,\"]){re.escape(key)}[\"]?\s*(=|\]|\.)")
        for number in range(start, len(lines)):
            if not lines[number].lstrip().startswith("#") and pattern.search(lines[number]):
                start = number
                found = number + 1
                break
        else:
            break
    return found


def _schema_stamp() -> str:
    return code_stamp(_CACHE_FORMAT, Path(__file__).with_name("rulebook_schema.py"))


_CACHE = ValidatedCache("rulebooks", _schema_stamp)
_cache_read = _CACHE.read
_cache_write = _CACHE.write
#: An entry's check (tests forge entries with it).
_cache_check = entry_check
