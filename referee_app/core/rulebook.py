"""Loading an event's rulebook (规则文件) from TOML, validated once and cached.

A rulebook is validated by the pydantic schema in :mod:`.rulebook_schema` the first time
its exact text is seen; the normalised result is cached by content hash, so judging a case
(``referee-app judge``) reads plain data and does not pay for building the schema.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..locations import rules_dir
from .errors import RulebookError, cannot_read
from .inputs import read_limited
from .rulebook_kinds import KINDS
from .validated import ValidatedCache, code_stamp

if TYPE_CHECKING:  # for mypy only: at run time each is imported where a text is validated
    import tomllib

    from pydantic_core import ErrorDetails

#: 2: entries signed with the installation's secret, a folder per stamp (issue 24 item 4).
_CACHE_FORMAT = 2


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

    def kind_labels(self, lang: str) -> dict[str, str]:
        """Each infraction kind's name in ``lang`` as this rulebook words it (藏张 for
        ``hidden_card``; an event's own kinds too)."""
        return {kind: str(spec["label"][lang]) for kind, spec in self.data["infractions"].items()}


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
        raw = read_limited(path, error=RulebookError)
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
        raise RulebookError(
            f"{problems[0]}{more}", code="rulebook.problems", ref=origin, n=len(problems), first=problems[0]
        )
    assert data is not None
    _cache_write(digest, data)
    return Rulebook(id=data["id"], data=data, sha256=digest, source_text=text, origin=origin)


#: pydantic's error types, as the kinds of problem the catalogue words
#: (``rulebook.problem.<kind>``); the rulebook schema's own checks raise
#: ``PydanticCustomError``s whose type is ``rulebook_<kind>``.
_PYDANTIC_KINDS = {
    "missing": "missing",
    "extra_forbidden": "unknown_key",
    "literal_error": "choice",
    "enum": "choice",
    "int_parsing": "integer",
    "int_type": "integer",
    "int_from_float": "integer",
    "bool_type": "boolean",
    "bool_parsing": "boolean",
    "string_type": "text",
    "float_type": "number",
    "float_parsing": "number",
    "list_type": "list",
    "tuple_type": "list",
    "dict_type": "table",
    "model_type": "table",
    "model_attributes_type": "table",
    "greater_than_equal": "at_least",
    "less_than_equal": "at_most",
    "greater_than": "above",
    "less_than": "below",
    "too_short": "too_few",
    "too_long": "too_many",
    "string_pattern_mismatch": "pattern",
    "string_too_short": "empty",
}
#: The pydantic context value that is the limit of a kind.
_LIMIT = {
    "at_least": "ge",
    "at_most": "le",
    "above": "gt",
    "below": "lt",
    "too_few": "min_length",
    "too_many": "max_length",
    "pattern": "pattern",
}


def problem(line: str, kind: str, file: str, /, **values: Any) -> RulebookError:
    """One problem of a rulebook: its English ``line`` and its data, worded per language by
    the catalogue's ``rulebook.problem.<kind>`` (``file`` is the rulebook's name)."""
    return RulebookError(line, code=f"rulebook.problem.{kind}", file=file, **values)


def _toml_problem(origin: str, exc: tomllib.TOMLDecodeError) -> RulebookError:
    line = f"{origin}: TOML syntax error: {exc}"
    # the parser's own detail (app.messages words it in Chinese), without its position
    reason = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)\s*$", "", str(exc))
    at = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
    if at is None:
        kind = "toml_end" if "end of document" in str(exc) else "toml"
        return problem(line, kind, origin, reason=reason)
    return problem(line, "toml_at", origin, row=int(at.group(1)), column=int(at.group(2)), reason=reason)


def validate_text(text: str, origin: str) -> tuple[list[RulebookError], dict[str, Any] | None]:
    """Every problem of a rulebook text (one line each as ``str``), or the normalised data."""
    import tomllib  # here: a rulebook read from the cache is not parsed again

    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return [_toml_problem(origin, exc)], None
    except RecursionError:
        return [problem(f"{origin}: the rulebook is nested too deeply to be one", "nested", origin)], None
    except ValueError as exc:  # a number of more than 4300 digits
        return [problem(f"{origin}: not a rulebook: {str(exc).split(';')[0]}", "huge_number", origin)], None
    # Imported here, not at the top: pydantic and building the schema's models take longer
    # than the rest of a `judge` start, and a rulebook read from the cache needs neither
    # (tests/test_judge_start.py checks a warm `judge` never imports pydantic).
    from pydantic import ValidationError

    from .rulebook_schema import RulebookModel

    across: list[Any] = []  # the checks across the rulebook's parts, every one (not the first)
    try:
        model = RulebookModel.model_validate(raw, context={"problems": across})
    except RecursionError:
        return [problem(f"{origin}: the rulebook is nested too deeply to be one", "nested", origin)], None
    except ValidationError as exc:
        found = [_validation_problem(text, origin, error) for error in exc.errors(include_url=False)]
        # the checks across parts pydantic skips while any key is wrong: run on the parts
        # they read where those are sound, so a chief referee sees these too, at once
        return found + _across_problems(text, origin, _references_of_parts(raw)), None
    if across:
        return _across_problems(text, origin, across), None
    return [], model.model_dump(mode="json")


def _across_problems(text: str, origin: str, across: list[Any]) -> list[RulebookError]:
    errors = [
        {
            "type": e.type,
            "loc": ("infractions",) if e.type == "rulebook_kinds_missing" else (),
            "msg": e.message().removeprefix("infractions: "),
            "ctx": e.context or {},
        }
        for e in across
    ]
    return [_validation_problem(text, origin, cast("ErrorDetails", e)) for e in errors]


def _references_of_parts(raw: Any) -> list[Any]:
    """The checks across a rulebook's parts (a rule's counter defined, a kind's rules there,
    …) on the parts they read, when those parts are sound and another part is not; none when
    a part they read has problems of its own (those are listed already)."""
    from pydantic import ValidationError

    from .rulebook_schema import HandLoss, RulebookModel, reference_problems

    if not isinstance(raw, dict):
        return []
    parts: dict[str, Any] = {}
    for name in ("infractions", "counters", "hand_loss"):
        if name not in raw:
            if name == "infractions":
                return []
            continue
        try:
            parts[name] = _part_adapter(name).validate_python(raw[name])
        except ValidationError:
            if name != "hand_loss":
                return []
    parts.setdefault("counters", {})
    # a hand loss with problems of its own: its award is not looked at (said already)
    parts.setdefault("hand_loss", HandLoss.model_construct(mode="shift", award=None))
    return reference_problems(RulebookModel.model_construct(**parts))


@cache
def _part_adapter(name: str) -> Any:
    from pydantic import TypeAdapter

    from .rulebook_schema import RulebookModel

    return TypeAdapter(cast(Any, RulebookModel.model_fields[name].annotation))


def _validation_problem(text: str, origin: str, error: ErrorDetails) -> RulebookError:
    path = _key_path(error["loc"]) or "(top)"
    message = error["msg"].removeprefix("Value error, ")
    given: str | None = None
    if error["type"] not in ("missing", "extra_forbidden") and "input" in error:
        shown = json.dumps(error["input"], ensure_ascii=False, default=str)
        if len(shown) <= 60 and not isinstance(error["input"], dict):
            given = shown
            message += f", got {shown}"
    if error["type"] == "extra_forbidden":
        message = "unknown key"
    loc = error["loc"]
    ctx = error.get("ctx") or {}
    if "where" in ctx:  # a check on the whole rulebook names the key it is about
        named = f"{ctx['where']}.{ctx['key']}" if "key" in ctx else str(ctx["where"])
        keys = re.sub(r"\[\d+\]", "", named).split(".")
        loc = (*loc, *keys)
    # a key missing is found nowhere (a later table's key of that name is another's): the
    # line of the table that lacks it
    at_line = _line_of(text, loc[:-1] if error["type"] == "missing" and len(loc) > 1 else loc)
    if error["type"] == "rulebook_kinds_missing":  # where the kind's rules go: the infractions
        at_line = _line_of(text, ("infractions",)) or _section_line(text, "infractions")
    where = f" (line {at_line})" if at_line else ""
    line = f"{origin}: {path}: {message}{where}"
    kind = str(error["type"]).removeprefix("rulebook_")
    values: dict[str, Any] = {"path": path, "at_line": at_line, "given": given}
    # the keys named by the schema's parts, for a message in words (app.messages labels them)
    values["path_parts"] = key_parts(error["loc"])
    base = _loc_of(str(ctx["where"])) if "where" in ctx else tuple(error["loc"])
    if "where" in ctx:
        values["where_parts"] = key_parts(base)
    if "key" in ctx:
        values["key_parts"] = key_parts((*base, str(ctx["key"])))[-1:]
    if str(error["type"]).startswith("rulebook_"):  # the schema's own check: its context
        values.update({k: v for k, v in ctx.items() if isinstance(v, str | int | list)})
    elif error["type"] in _PYDANTIC_KINDS:
        kind = _PYDANTIC_KINDS[error["type"]]
        if kind == "choice":
            # pydantic's own list: "'a', 'b' or 'c'" (texts quoted, numbers not)
            found = re.findall(r"'([^']*)'|([^\s',]+)", str(ctx.get("expected", "")))
            values["expected"] = [q or w for q, w in found if (q or w) != "or"]
            fields = [p for p in values["path_parts"] if p.startswith(("f:", "k:"))]
            if fields:  # whose options they are: the key's (or an infraction kind's)
                values["options_of"] = "kind" if set(values["expected"]) <= set(KINDS) else fields[-1][2:]
        elif kind in _LIMIT:
            values["limit"] = ctx.get(_LIMIT[kind])
    else:  # a check of pydantic's the catalogue has no words for: its English kept
        kind = "other"
        values["detail"] = message
    return problem(line, kind, origin, **values)


def check_files(paths: list[str]) -> list[RulebookError]:
    """`referee-app rules check`: the problems (each one line as ``str``), empty when every
    file is sound."""
    problems: list[RulebookError] = []
    for name in paths:
        path = Path(name)
        try:
            text = read_limited(path, error=RulebookError).decode("utf-8")
        except RulebookError as exc:
            problems.append(exc)
            continue
        except OSError as exc:
            line, unread = cannot_read(name, exc)
            problems.append(RulebookError(line, **unread))
            continue
        except UnicodeDecodeError as exc:
            problems.append(
                problem(f"{name}: not UTF-8 (byte {exc.start})", "not_utf8", name, byte=exc.start)
            )
            continue
        found, data = validate_text(text, name)
        problems.extend(found)
        if data is not None and path.suffix == ".toml" and path.parent == rules_dir():
            if data["id"] != path.stem:
                line = f"{name}: id: {data['id']!r} differs from the file name {path.stem!r}"
                problems.append(problem(line, "id_not_file", name, id=data["id"], stem=path.stem))
    return problems


def _loc_of(path: str) -> tuple[str | int, ...]:
    """``infractions.delay.rules[0]`` as the location pydantic gives (``infractions``, ``delay``,
    ``rules``, 0)."""
    loc: list[str | int] = []
    for key, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path):
        loc.append(int(index) if index else key)
    return tuple(loc)


def _section_line(text: str, key: str) -> int | None:
    """The line of the first table of ``key`` (``[infractions.late_arrival]``)."""
    for number, line in enumerate(text.splitlines(), start=1):
        if re.match(rf"\s*\[+\s*{re.escape(key)}[.\]\s]", line):
            return number
    return None


def key_parts(loc: tuple[Any, ...]) -> list[str]:
    """The keys of a location in a rulebook as the schema knows them, for naming them in
    words: ``f:Model.key`` a key of the schema's part ``Model``, ``k:kind`` an infraction
    kind, ``n:name`` a name the rulebook gives (a counter's), ``i:N`` the N-th item (from 0)
    of a list, ``u:key`` a key the schema does not have."""
    from .rulebook_schema import RulebookModel

    parts: list[str] = []
    shape: Any = RulebookModel
    for part in loc:
        if isinstance(part, int):
            parts.append(f"i:{part}")
            shape = item_type(shape)
            continue
        key = str(part)
        if key == "[key]" or key.startswith(("function-", "literal[", "tagged-union")):
            continue
        models = models_of(shape)
        named = [m for m in models if m.__name__ == key]
        if named or key in ("bool", "int", "str", "tuple", "list", "dict"):  # a union's member
            shape = named[0] if named else shape
            continue
        field = next((m for m in models if key in m.model_fields), None)
        if field is not None:
            parts.append(f"f:{field.__name__}.{key}")
            shape = field.model_fields[key].annotation
        elif is_table(shape):
            kind = parts[-1:] == ["f:RulebookModel.infractions"]
            parts.append(f"k:{key}" if kind else f"n:{key}")
            shape = item_type(shape)
        else:
            parts.append(f"u:{key}")
            shape = None
    return parts


def type_args(shape: Any) -> tuple[Any, ...]:
    import typing

    origin = typing.get_origin(shape)
    if origin is typing.Annotated:
        return type_args(typing.get_args(shape)[0])
    return typing.get_args(shape) if origin is not None else ()


def models_of(shape: Any) -> list[type[Any]]:
    """The schema parts (models) a value of this type may be: itself, or a union's members."""
    from pydantic import BaseModel

    if isinstance(shape, type) and issubclass(shape, BaseModel):
        return [shape]
    return [m for a in type_args(shape) for m in models_of(a)] if not is_table(shape) else []


def is_table(shape: Any) -> bool:
    import typing

    if typing.get_origin(shape) is dict:
        return True
    return any(is_table(a) for a in type_args(shape) if a is not type(None))


def item_type(shape: Any) -> Any:
    """The type of an item of a list (or a value of a table) of this type."""
    import typing

    for candidate in (shape, *type_args(shape)):
        origin = typing.get_origin(candidate)
        if origin in (list, tuple):
            return typing.get_args(candidate)[0]
        if origin is dict:
            return typing.get_args(candidate)[1]
    return None


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
    # a table's own header, where it has one ([infractions.phone_use], not a counter's
    # [counters.phone_use] met first)
    header = re.compile(rf"^\s*\[\[?\s*{re.escape('.'.join(keys))}\s*\]")
    for number, line in enumerate(lines, start=1):
        if keys and header.match(line):
            return number
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
    """The code a cached rulebook's data depends on: the schema (and the kinds it reads) and
    this module, which normalises the schema's model (a new field is a new stamp)."""
    here = Path(__file__)
    return code_stamp(
        _CACHE_FORMAT, here.with_name("rulebook_schema.py"), here.with_name("rulebook_kinds.py"), here
    )


_CACHE = ValidatedCache("rulebooks", _schema_stamp)
_cache_read = _CACHE.read
_cache_write = _CACHE.write
