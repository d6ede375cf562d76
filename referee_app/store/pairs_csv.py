"""Reading a pairs file: ``number,player1,player2[,unit]``, UTF-8 or GB18030.

The header may be in Chinese (``编号,选手1,选手2,单位``, as tournament offices write it);
the file may be comma- or tab-separated (Excel's "Unicode text" export is tab-separated).
Pure Python; errors name the file and the line, and the whole file is refused.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError

REQUIRED = ("number", "player1", "player2")
OPTIONAL = ("unit",)
#: Chinese column names, and the English ones they stand for.
CHINESE_HEADERS = {"编号": "number", "选手1": "player1", "选手2": "player2", "单位": "unit"}


@dataclass(frozen=True)
class PairRow:
    line: int
    number: str
    player1: str
    player2: str
    unit: str | None


def decode(data: bytes, name: str) -> str:
    """UTF-8 (with or without a BOM), else GB18030."""
    for enc in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            continue
    raise InputError(f"{name}: not UTF-8 or GB18030 text")


def read_pairs(path: str | Path) -> list[PairRow]:
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise InputError(f"{name}: cannot read ({err.strerror})") from None
    return parse_pairs(decode(data, name), name)


def _delimiter(text: str) -> str:
    """Tab when the header line has a tab, else comma."""
    first = text.lstrip("\r\n").split("\n", 1)[0]
    return "\t" if "\t" in first else ","


def parse_pairs(text: str, name: str = "pairs.csv") -> list[PairRow]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    try:
        header = next(reader)
    except StopIteration:
        raise InputError(f"{name}: the file is empty (expected a header line)") from None
    except csv.Error as err:
        raise InputError(f"{name}: line 1: {err}") from None
    cols = [CHINESE_HEADERS.get(h.strip(), h.strip().lower()) for h in header]
    for req in REQUIRED:
        if req not in cols:
            raise InputError(
                f"{name}: line 1: missing column {req!r} (header must have "
                f"number,player1,player2 (or 编号,选手1,选手2) and may have unit (单位); "
                f"got {','.join(header)!r})"
            )
    for c in cols:
        if c not in REQUIRED + OPTIONAL:
            raise InputError(f"{name}: line 1: unknown column {c!r}")
    if len(set(cols)) != len(cols):
        raise InputError(f"{name}: line 1: a column appears twice")
    index = {c: i for i, c in enumerate(cols)}
    rows: list[PairRow] = []
    first_line: dict[str, int] = {}
    try:
        for rec in reader:
            line = reader.line_num
            if not any(f.strip() for f in rec):
                continue  # blank line
            if len(rec) != len(cols):
                raise InputError(f"{name}: line {line}: expected {len(cols)} fields, got {len(rec)}")
            vals = {c: rec[i].strip() for c, i in index.items()}
            for req in REQUIRED:
                if not vals[req]:
                    raise InputError(f"{name}: line {line}: {req} is empty")
            number = vals["number"]
            if len(number) > 20:
                raise InputError(f"{name}: line {line}: number {number!r} is too long")
            if number in first_line:
                raise InputError(
                    f"{name}: line {line}: pair number {number} already on line {first_line[number]}"
                )
            first_line[number] = line
            rows.append(PairRow(line, number, vals["player1"], vals["player2"], vals.get("unit") or None))
    except csv.Error as err:
        raise InputError(f"{name}: line {reader.line_num}: {err}") from None
    if not rows:
        raise InputError(f"{name}: no pairs after the header")
    return rows
