"""A new event's rulebook (新赛事规则), made by its chief referee from a bundled one: the
operations the command line (``rules new``, ``rules export``) and the window (新建规则…) share.

A rulebook stays a file (the truth, reviewed like code): these operations copy a bundled
rulebook's text as it is, comments and all, and never overwrite a file unless told to.
Standard library and the core only: ``rules`` is a light command.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..core.errors import RulebookError, cannot_write
from ..core.rulebook import Rulebook, bundled_ids, check_files, load_rulebook, validate_text
from .messages import message

#: A rulebook id as the schema accepts it (``RulebookModel.id``).
ID_FORM = r"[a-z0-9][a-z0-9_-]*"
#: The top-level ``id = "…"`` line of a rulebook's text.
_ID_LINE = re.compile(r'^id\s*=\s*"[^"\n]*"[ \t]*(#[^\n]*)?$', re.MULTILINE)


def export_text(ref: str) -> str:
    """The text of a rulebook (a bundled id or a file), as it is: ``rules export``."""
    return load_rulebook(ref).source_text


def new_rulebook_text(new_id: str, from_ref: str) -> str:
    """A new event's rulebook text: the rulebook ``from_ref`` copied whole (its comments,
    its clauses), its ``id`` set to ``new_id``, a header saying where it came from and what
    to change. The text validates as it is, so the chief referee starts from a rulebook that
    judges, and the trial bench (``rules try``) shows what each change does."""
    if not re.fullmatch(ID_FORM, new_id) or len(new_id) > 100:
        raise RulebookError(
            f"{new_id!r}: a rulebook id is lowercase letters, digits, - and _ (e.g. club-2026)",
            code="rulebook.new_id_form",
            field="id",
            got=new_id,
        )
    if new_id in bundled_ids():
        raise RulebookError(
            f"{new_id}: a bundled rulebook has this id; give the new event its own",
            code="rulebook.new_id_bundled",
            field="id",
            got=new_id,
        )
    base = load_rulebook(from_ref)
    found = _ID_LINE.search(base.source_text)
    if found is None:  # a rulebook's id may be written otherwise (id="x" in a table is not top level)
        raise RulebookError(
            f'{from_ref}: no top-level id = "…" line to change',
            code="rulebook.no_id_line",
            ref=from_ref,
        )
    body = base.source_text[: found.start()] + f'id = "{new_id}"' + base.source_text[found.end() :]
    header = "".join(
        f"# {line}\n"
        for lang in ("zh", "en")
        for line in message("rulebook_new.header", lang, base=base.id, sha=base.sha256[:12]).split("\n")
    )
    # read by the trial bench (rules try): the bundled rulebook to judge the draft beside
    text = f"{header}# based-on: {base.id}\n\n{body}"
    problems, _ = validate_text(text, new_id)
    if problems:  # the copy of a sound rulebook with another id is sound: a bug, not the user's
        raise problems[0]
    return text


def write_new_file(
    path: str | os.PathLike[str], text: str, *, force: bool = False, field: str = "out"
) -> Path:
    """Write ``text`` to ``path``; an existing file is never replaced unless ``force``
    (a rulebook the chief referee has edited is not lost to a second ``rules new``)."""
    target = Path(path)
    if not force and target.exists():
        raise RulebookError(f"{target}: already exists", code="file.exists", field=field, target=target)
    if not target.parent.is_dir():
        raise RulebookError(
            f"{target}: the folder {target.parent} does not exist",
            code="file.no_folder",
            field=field,
            target=target,
            folder=target.parent,
        )
    try:
        with target.open("w" if force else "x", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except FileExistsError:  # made between the check and the write
        raise RulebookError(
            f"{target}: already exists", code="file.exists", field=field, target=target
        ) from None
    except OSError as exc:
        line, data = cannot_write(target, exc, field)
        raise RulebookError(line, **data) from None
    return target


def open_rulebook_file(path: str) -> tuple[Rulebook | None, list[RulebookError]]:
    """A rulebook file as the window opens it: the rulebook, or every problem it has (each
    with its field and line, not only the first), so its author fixes them in one go."""
    try:
        return load_rulebook(path), []
    except RulebookError as exc:
        if exc.code != "rulebook.problems":  # unreadable, not UTF-8: the one problem there is
            return None, [exc]
        return None, check_files([path]) or [exc]
