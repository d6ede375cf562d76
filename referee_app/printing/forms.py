"""Form templates (``forms/*.toml``): title, header fields, labels (zh + en), boxes.

A template is data an organiser may reword; its keys are the contract with the renderer,
so a template with an unknown or missing key is refused with one line naming the file and
the key (``forms/appeal.toml: labels.grounds: missing``). A valid template's text is
validated once (pydantic, imported then) and kept in the cache folder like a rulebook.
"""

from __future__ import annotations

import hashlib
import string
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..core.validated import ValidatedCache, code_stamp
from ..locations import forms_dir
from .errors import FormError

_COMMON_LABELS = {"event", "organiser", "venue", "date", "round", "table", "page"}

SPEC: dict[str, dict[str, Any]] = {
    "scoresheet": {
        "header": {"organiser", "venue", "date", "round", "table", "rulebook", "version"},
        "boxes": {"pairs", "hands", "infractions", "corrections", "result", "signatures", "integrity"},
        "signatures": {
            "ns_player_1",
            "ns_player_2",
            "ew_player_1",
            "ew_player_2",
            "table_referee",
            "chief_referee",
        },
        "labels": _COMMON_LABELS
        | set(
            "rulebook pairs side pair_no players unit start_levels hands hand_no dealer levels_before "
            "redeclarations defender_points bottom penalties total outcome levels_after no_hands "
            "infractions when seat infraction sanction clause note before_play hand_trick hand_only "
            "assumed overridden voided no_infractions corrections proposed ruled reason by "
            "no_corrections result winner draw match_points final_levels level_difference decided_by "
            "not_finished forfeit signatures ns_player_1 ns_player_2 ew_player_1 ew_player_2 "
            "table_referee chief_referee integrity digest rulebook_digest shift version "
            "not_from_record record chain_head local_times time_warning play_time started ended "
            "unsigned".split()
        ),
    },
    "appeal": {
        "header": {"organiser", "venue", "date", "round", "table", "appeal_no"},
        "boxes": {"ruling", "timing", "fee", "grounds", "decision", "fee_outcome", "signatures"},
        "signatures": {"appellant", "chief_referee", "committee"},
        "labels": _COMMON_LABELS
        | set(
            "appeal_no ruling hand infraction seat sanction clause ruled_at timing appellant filed_at "
            "window window_round_end window_score_published deadline on_time late late_accepted "
            "late_refused fee amount yuan receipt grounds evidence attachment decision upheld modified "
            "rejected withdrawn new_sanction reasons decided_at fee_outcome refunded kept rules_clause "
            "signatures chief_referee committee".split()
        ),
    },
    "ruling": {
        "header": {"organiser", "venue", "date", "round", "table"},
        "boxes": {"ruling", "clause", "correction", "appeal_note", "signatures"},
        "signatures": {"table_referee", "offender"},
        "labels": _COMMON_LABELS
        | set(
            "hand before_play infraction seat sanction occurrence ruling_text clause assumed "
            "correction proposed reason appeal_note appeal_text signatures table_referee "
            "offender serial ruled_at superseded by_referee appeal_final".split()
        ),
    },
}

# Labels that are format strings, and the fields each may use.
PLACEHOLDERS: dict[str, set[str]] = {
    "page": {"page", "pages"},
    "local_times": {"zone"},
    "hand_trick": {"hand", "trick"},
    "hand_only": {"hand"},
    "window_round_end": {"minutes"},
    "window_score_published": {"minutes"},
    "late": {"minutes"},
    "yuan": {"amount"},
    "appeal_text": {"window", "window_en", "fee"},
}


@dataclass(frozen=True)
class Label:
    zh: str
    en: str


@cache
def _schema() -> Any:
    """The pydantic schema of a template (built when a text is first validated)."""
    from typing import Literal

    from pydantic import BaseModel, ConfigDict, field_validator

    class LabelSchema(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True)
        zh: str
        en: str

        @field_validator("zh", "en")
        @classmethod
        def _not_blank(cls, v: str) -> str:
            if not v.strip():
                raise ValueError("must not be empty")
            return v

    class FormSchema(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True)
        schema_version: Literal[1]
        form: Literal["scoresheet", "appeal", "ruling"]
        title: LabelSchema
        header: list[str]
        boxes: list[str]
        signatures: list[str]
        labels: dict[str, LabelSchema]

    return FormSchema


@dataclass(frozen=True)
class FormTemplate:
    """A validated template. ``label(key)`` → (zh, en); ``has(box)`` says whether a box appears."""

    kind: str
    title: Label
    header: tuple[str, ...]
    boxes: frozenset[str]
    signatures: tuple[str, ...]
    labels: dict[str, Label]
    path: str

    def zh(self, key: str, **fields: Any) -> str:
        return self.labels[key].zh.format(**fields) if fields else self.labels[key].zh

    def en(self, key: str, **fields: Any) -> str:
        return self.labels[key].en.format(**fields) if fields else self.labels[key].en

    def has(self, box: str) -> bool:
        return box in self.boxes


def _loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _line_of(text: str, key: str) -> str:
    for n, line in enumerate(text.splitlines(), 1):
        if line.split("=", 1)[0].strip() == key:
            return f" (line {n})"
    return ""


_FORM_CACHE = ValidatedCache("forms", lambda: code_stamp(1, Path(__file__)))


def parse_form(text: str, origin: str, expected: str | None = None) -> FormTemplate:
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    data = _FORM_CACHE.read(digest)
    if data is None:
        data = _validate(text, origin)
        _FORM_CACHE.write(digest, data)
    if expected is not None and data["form"] != expected:
        raise FormError(f"{origin}: form: expected {expected!r}, got {data['form']!r}")
    return FormTemplate(
        kind=data["form"],
        title=Label(**data["title"]),
        header=tuple(data["header"]),
        boxes=frozenset(data["boxes"]),
        signatures=tuple(data["signatures"]),
        labels={k: Label(**v) for k, v in data["labels"].items()},
        path=origin,
    )


def _validate(text: str, origin: str) -> dict[str, Any]:
    """A template's text checked against its schema and :data:`SPEC`, as plain data; the
    first problem raised as a :class:`FormError`."""
    from pydantic import ValidationError

    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise FormError(f"{origin}: not valid TOML: {exc}") from None
    try:
        model = _schema().model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = _loc(err["loc"])
        msg = "unknown key" if err["type"] == "extra_forbidden" else err["msg"]
        if err["type"] == "missing":
            msg = "missing"
        last = str(err["loc"][-1]) if err["loc"] else ""
        raise FormError(f"{origin}: {loc}: {msg}{_line_of(text, last)}") from None
    spec = SPEC[model.form]
    for field in ("header", "boxes", "signatures"):
        for i, item in enumerate(getattr(model, field)):
            if item not in spec[field]:
                known = ", ".join(sorted(spec[field]))
                raise FormError(f"{origin}: {field}[{i}]: unknown {item!r} (known: {known})")
    for key in model.labels:
        if key not in spec["labels"]:
            raise FormError(f"{origin}: labels.{key}: unknown key{_line_of(text, key)}")
    for key in sorted(spec["labels"]):
        if key not in model.labels:
            raise FormError(f"{origin}: labels.{key}: missing")
    for key, label in model.labels.items():
        allowed = PLACEHOLDERS.get(key, set())
        for lang in ("zh", "en"):
            try:
                used = {f for _, f, _, _ in string.Formatter().parse(getattr(label, lang)) if f is not None}
            except ValueError as exc:
                raise FormError(f"{origin}: labels.{key}.{lang}: {exc}{_line_of(text, key)}") from None
            bad = used - allowed
            if bad:
                raise FormError(
                    f"{origin}: labels.{key}.{lang}: unknown placeholder {{{sorted(bad)[0]}}}"
                    f" (allowed: {', '.join('{' + a + '}' for a in sorted(allowed)) or 'none'})"
                    f"{_line_of(text, key)}"
                )
    return model.model_dump(exclude={"schema_version"})


_cache: dict[tuple[str, str], FormTemplate] = {}


def load_form(kind: str, folder: Path | None = None) -> FormTemplate:
    """The template ``forms/<kind>.toml``, validated (cached by path and text)."""
    path = (folder or forms_dir()) / f"{kind}.toml"
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise FormError(f"{path}: cannot read the form template: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise FormError(f"{path}: not UTF-8 (byte {exc.start})") from None
    key = (str(path), text)
    if key not in _cache:
        _cache[key] = parse_form(text, str(path), expected=kind)
    return _cache[key]


def check_forms(folder: Path | None = None) -> list[str]:
    """One line per problem in the bundled templates (empty when all are valid)."""
    problems = []
    for kind in SPEC:
        try:
            load_form(kind, folder)
        except FormError as exc:
            problems.append(str(exc))
    return problems
