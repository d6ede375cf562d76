"""Reading a pairs file: ``number,player1,player2[,unit]``, UTF-8 or GB18030 text, or an
Excel workbook (``.xlsx`` through openpyxl, the older ``.xls`` through xlrd), as every
tournament office sends its entry list.

The header may be in Chinese (``编号,选手1,选手2,单位``, as tournament offices write it);
a text file may be comma- or tab-separated (Excel's "Unicode text" export is tab-separated);
a workbook's first sheet is read, its first non-empty row the header. Every format goes
through the same checks: errors name the file and the line (a workbook's row number, as
Excel shows it), and the whole file is refused.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..core.inputs import is_pair_number, read_input_bytes
from .errors import InputError

REQUIRED = ("number", "player1", "player2")
OPTIONAL = ("unit",)
#: Chinese column names, and the English ones they stand for.
CHINESE_HEADERS = {"编号": "number", "选手1": "player1", "选手2": "player2", "单位": "unit"}
#: The longest value of each column (the database's column widths, the same on every backend).
MAX_LENGTH = {"number": 20, "player1": 100, "player2": 100, "unit": 200}
#: Characters that reorder or hide text: a name holding one prints differently from what
#: the referee reads on screen (Unicode bidi controls and zero-width marks).
INVISIBLE = {
    **{chr(c): "a bidi control" for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))},
    "\u200e": "a left-to-right mark",
    "\u200f": "a right-to-left mark",
    "\u061c": "an Arabic letter mark",
    "\u200b": "a zero-width space",
    "\ufeff": "a byte-order mark",
}
#: What a spreadsheet reads as the start of a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


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
    raise InputError(f"{name}: not UTF-8 or GB18030 text", code="pairs.encoding", source=name)


#: The workbook suffixes read as Excel, and the library that reads each.
WORKBOOKS = (".xlsx", ".xlsm", ".xls")


def read_pairs(path: str | Path) -> list[PairRow]:
    """The pairs of a CSV/TSV text file or an Excel workbook (by its suffix)."""
    name = str(path)
    data = read_input_bytes(name, error=InputError)
    suffix = Path(path).suffix.lower()
    if suffix in WORKBOOKS:
        return pairs_from_rows(workbook_rows(data, name, old=suffix == ".xls"), name)
    return parse_pairs(decode(data, name), name)


def workbook_rows(data: bytes, name: str, *, old: bool = False) -> list[tuple[int, list[str]]]:
    """The first sheet's rows as text, each with its row number; trailing empty cells
    dropped (Excel keeps formatted empty cells). ``old``: the .xls format (xlrd)."""
    try:
        if old:
            raw = _xls_rows(data)
        else:
            raw = _xlsx_rows(data)
    except Exception as err:  # noqa: BLE001 — either library's own errors: not a workbook it reads
        raise InputError(
            f"{name}: cannot be read as an Excel workbook ({type(err).__name__})",
            code="pairs.bad_workbook",
            source=name,
        ) from None
    rows = []
    for line, cells in raw:
        text = [_cell_text(c) for c in cells]
        while text and not text[-1].strip():
            text.pop()
        rows.append((line, text))
    return rows


def _xlsx_rows(data: bytes) -> list[tuple[int, list[object]]]:
    from openpyxl import load_workbook

    # data_only: a formula's value as Excel last computed it, never the formula
    book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        sheet = book.worksheets[0]
        return [(n, list(row)) for n, row in enumerate(sheet.iter_rows(values_only=True), 1)]
    finally:
        book.close()


def _xls_rows(data: bytes) -> list[tuple[int, list[object]]]:
    import xlrd

    book = xlrd.open_workbook(file_contents=data)
    sheet = book.sheet_by_index(0)
    rows: list[tuple[int, list[object]]] = []
    for r in range(sheet.nrows):
        cells: list[object] = []
        for cell in sheet.row(r):
            if cell.ctype == xlrd.XL_CELL_DATE:
                cells.append(xlrd.xldate.xldate_as_datetime(float(cell.value), book.datemode))
            elif cell.ctype in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK, xlrd.XL_CELL_ERROR):
                cells.append(None)
            else:
                cells.append(cell.value)
        rows.append((r + 1, cells))
    return rows


def _cell_text(value: object) -> str:
    """A cell as the office typed it: a whole number without ``.0`` (Excel stores 7 as 7.0)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).upper()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if hasattr(value, "isoformat"):
        text: str = value.isoformat()
        return text.removesuffix("T00:00:00")
    return str(value)


def _delimiter(text: str) -> str:
    """Tab when the header line has a tab, else comma."""
    first = text.lstrip("\r\n").split("\n", 1)[0]
    return "\t" if "\t" in first else ","


def parse_pairs(text: str, name: str = "pairs.csv") -> list[PairRow]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    try:
        header = next(reader)
    except StopIteration:
        raise InputError(
            f"{name}: the file is empty (expected a header line)", code="pairs.empty", source=name
        ) from None
    except csv.Error as err:
        raise InputError(f"{name}: line 1: {err}", code="pairs.bad_line", source=name, line=1) from None

    def records() -> Iterator[tuple[int, list[str]]]:
        try:
            end = reader.line_num
            for rec in reader:
                # a quoted field may span lines: errors name the line the record starts on
                start, end = end + 1, reader.line_num
                yield start, rec
        except csv.Error as err:
            raise InputError(
                f"{name}: line {reader.line_num}: {err}",
                code="pairs.bad_line",
                source=name,
                line=reader.line_num,
            ) from None

    return _pairs(header, 1, records(), name)


def pairs_from_rows(rows: list[tuple[int, list[str]]], name: str) -> list[PairRow]:
    """The pairs of a workbook's rows (row number, cells): the header is the first row naming
    a column (rows above it, the list's title, are skipped), else the first non-empty row; a
    row shorter than the header has empty cells at its end."""
    filled = [(line, cells) for line, cells in rows if any(c.strip() for c in cells)]
    if not filled:
        raise InputError(
            f"{name}: the file is empty (expected a header line)", code="pairs.empty", source=name
        )
    known = {*CHINESE_HEADERS, *REQUIRED, *OPTIONAL}
    at = next((i for i, (_, cells) in enumerate(filled) if any(c.strip().lower() in known for c in cells)), 0)
    (header_line, header), body = filled[at], filled[at + 1 :]
    width = len(header)
    return _pairs(header, header_line, ((n, c + [""] * (width - len(c))) for n, c in body), name)


def _pairs(
    header: list[str], header_line: int, records: Iterable[tuple[int, list[str]]], name: str
) -> list[PairRow]:
    """The checks every pairs file goes through, whatever its format."""
    cols = [CHINESE_HEADERS.get(h.strip(), h.strip().lower()) for h in header]
    for req in REQUIRED:
        if req not in cols:
            raise InputError(
                f"{name}: line {header_line}: missing column {req!r} (header must have "
                f"number,player1,player2 (or 编号,选手1,选手2) and may have unit (单位); "
                f"got {','.join(header)!r})",
                code="pairs.missing_column",
                source=name,
                column=req,
                line=header_line,
            )
    for c in cols:
        if c not in REQUIRED + OPTIONAL:
            raise InputError(
                f"{name}: line {header_line}: unknown column {c!r}",
                code="pairs.unknown_column",
                source=name,
                column=c,
                line=header_line,
            )
    if len(set(cols)) != len(cols):
        raise InputError(
            f"{name}: line {header_line}: a column appears twice",
            code="pairs.column_twice",
            source=name,
            line=header_line,
        )
    index = {c: i for i, c in enumerate(cols)}
    rows: list[PairRow] = []
    first_line: dict[str, int] = {}
    for start, rec in records:
        line = start
        if not any(f.strip() for f in rec):
            continue  # blank line
        if len(rec) != len(cols):
            raise InputError(
                f"{name}: line {line}: expected {len(cols)} fields, got {len(rec)}",
                code="pairs.field_count",
                source=name,
                line=line,
                n=len(cols),
                got=len(rec),
            )
        vals = {c: _clean(rec[i], c, name, start) for c, i in index.items()}
        for req in REQUIRED:
            if not vals[req]:
                raise InputError(
                    f"{name}: line {start}: {req} is empty",
                    code="pairs.empty_field",
                    source=name,
                    line=start,
                    column=req,
                )
        number = vals["number"]
        if not is_pair_number(number):
            raise InputError(
                f"{name}: line {line}: pair number {number!r} is not a whole number ≥ 1 "
                "in digits 0-9; nothing imported",
                code="pairs.bad_number",
                source=name,
                line=line,
                pair=number,
            )
        if number in first_line:
            raise InputError(
                f"{name}: line {line}: pair number {number} already on line {first_line[number]}",
                code="pairs.duplicate",
                source=name,
                line=line,
                pair=number,
                first=first_line[number],
            )
        first_line[number] = line
        rows.append(PairRow(line, number, vals["player1"], vals["player2"], vals.get("unit") or None))
    if not rows:
        raise InputError(f"{name}: no pairs after the header", code="pairs.none", source=name)
    return rows


def _clean(raw: str, column: str, name: str, line: int) -> str:
    """A field as stored: NFC, spaces trimmed; refused (naming the line) when it holds a
    line break, a control or an invisible reordering character, or is too long."""
    value = unicodedata.normalize("NFC", raw).strip()
    for ch in value:
        what = None
        if ch in "\r\n\u2028\u2029\x85":
            what = "a line break"
        elif ch == "\0":
            what = "a NUL character"
        elif ch in INVISIBLE:
            what = INVISIBLE[ch]
        elif unicodedata.category(ch) in ("Cc", "Cf"):
            what = "a control character"
        if what is not None:
            raise InputError(
                f"{name}: line {line}: {column} contains {what} (U+{ord(ch):04X}); "
                "remove it, nothing imported",
                code="pairs.bad_character",
                source=name,
                line=line,
                column=column,
                char=f"U+{ord(ch):04X}",
            )
    limit = MAX_LENGTH[column]
    if len(value) > limit:
        raise InputError(
            f"{name}: line {line}: {column} has {len(value)} characters, more than {limit}; nothing imported",
            code="pairs.too_long",
            source=name,
            line=line,
            column=column,
            n=len(value),
            limit=limit,
        )
    return value


def spreadsheet_cell(text: str) -> str:
    """``text`` as a CSV or spreadsheet cell that a spreadsheet shows, never evaluates: a
    value starting like a formula (``=``, ``+``, ``-``, ``@``) gets a leading apostrophe
    (OWASP's advice for CSV injection); a line break, tab or other control character
    (from a database older than these checks) becomes U+FFFD, so a row stays one line.
    Every CSV/TSV export of names goes through this."""
    shown = "".join(
        "\ufffd" if ch in INVISIBLE or unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch
        for ch in text
    )
    return "'" + shown if shown.startswith(FORMULA_START) else shown
