"""Writing a table (standings, a pairing) for the tournament office: CSV or Excel ``.xlsx``.

The format follows the file's suffix. CSV is UTF-8 with a byte-order mark, which Excel needs
to read Chinese correctly; ``.xlsx`` (openpyxl) keeps numbers as numbers, so the office
can sort and sum, with a bold header row frozen under the title.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from pathlib import Path

from .core.errors import Reported

Cell = str | int | float | None

_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


class SpreadsheetError(Reported, ValueError):
    """The file cannot be written (suffix, folder, permissions): one line naming the file."""

    default_code = "spreadsheet.error"


def write_table(path: str | Path, title: str, header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> None:
    target = Path(path)
    suffix = target.suffix.lower()
    try:
        if suffix == ".csv":
            _write_csv(target, header, rows)
        elif suffix == ".xlsx":
            _write_xlsx(target, title, header, rows)
        else:
            got = suffix or "no suffix"
            raise SpreadsheetError(
                f"{target}: expected a .csv or .xlsx file name, got {got!r}",
                code="spreadsheet.suffix",
                target=target,
            )
    except OSError as err:
        raise SpreadsheetError(
            f"{target}: cannot write ({err.strerror or err})",
            code="file.cannot_write",
            target=target,
            detail=err.strerror or str(err),
        ) from None


def _write_csv(target: Path, header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> None:
    with target.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows([["" if c is None else c for c in row] for row in rows])


def _as_number(cell: Cell) -> Cell:
    if isinstance(cell, str) and _NUMBER.fullmatch(cell.strip()):
        text = cell.strip()
        return float(text) if "." in text else int(text)
    return cell


def _write_xlsx(target: Path, title: str, header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> None:
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    # Excel forbids []:*?/\ in sheet names and cuts them at 31 characters
    sheet.title = re.sub(r"[\[\]:*?/\\]", " ", title)[:31] or "Sheet1"
    sheet.append([title])
    sheet["A1"].font = Font(bold=True, size=13)
    sheet.append(list(header))
    for cell in sheet[2]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append([_as_number(c) for c in row])
    sheet.freeze_panes = "A3"
    for index, name in enumerate(header, 1):
        longest = max([len(str(name))] + [len(str(r[index - 1] or "")) for r in rows if len(r) >= index])
        sheet.column_dimensions[get_column_letter(index)].width = min(60, 4 + 2 * longest)
    book.save(target)
