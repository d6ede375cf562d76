"""Standings and pairings for the tournament office: ``--csv`` and ``--xlsx`` hold exactly
the table the command prints, read back with the csv module and openpyxl."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from openpyxl import load_workbook

from .test_desk_cli import case, cli, make_event, record


@pytest.fixture
def three(tmp_path: Path) -> str:
    """BHG, 3 pairs (a bye each round), one round played."""
    db, store, eid = make_event(tmp_path, 3)
    record(store, eid, case(1, 1, "1", "2", "NS"))
    store.close()
    return db


def printed_table(out: str) -> tuple[str, list[list[str]]]:
    title, *lines = out.splitlines()
    return title, [line.split("\t") for line in lines]


@pytest.mark.parametrize("command", [["standings"], ["pair", "--round", "2"]])
def test_csv_and_xlsx_hold_the_printed_table(three: str, tmp_path: Path, command: list[str]) -> None:
    sheet_csv, sheet_xlsx = tmp_path / "t.csv", tmp_path / "t.xlsx"
    rc, out, err = cli(three, *command, "--csv", str(sheet_csv), "--xlsx", str(sheet_xlsx), lang="zh")
    assert rc == 0, err
    title, table = printed_table(out)

    raw = sheet_csv.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # Excel reads Chinese CSV only with the BOM
    rows = list(csv.reader(raw.decode("utf-8-sig").splitlines()))
    assert [[c for c in r if c] for r in rows] == [[c for c in r if c] for r in table]

    book = load_workbook(sheet_xlsx)
    sheet = book.active
    values = [list(r) for r in sheet.iter_rows(values_only=True)]
    assert values[0][0] == title and sheet.freeze_panes == "A3"
    got = [[("" if c is None else str(c)) for c in r] for r in values[1:]]
    assert [[c for c in r if c] for r in got] == [[c for c in r if c] for r in table]
    assert isinstance(values[2][0], int)  # the rank or table number is a number Excel can sort


def test_standings_xlsx_keeps_the_tie_break_order(three: str, tmp_path: Path) -> None:
    target = tmp_path / "名次.xlsx"
    assert cli(three, "standings", "--xlsx", str(target), lang="zh")[0] == 0
    header = [c.value for c in load_workbook(target).active[2]]
    # BHG names 对手分 without defining it: the column is marked as the rulebook's reading
    assert header[:4] == ["名次", "对", "积分", "对手分*"] and header[-1] == "选手"


def test_a_file_that_is_neither_csv_nor_xlsx_is_one_line(three: str, tmp_path: Path) -> None:
    rc, out, err = cli(three, "standings", "--xlsx", str(tmp_path / "t.xls"))
    assert rc == 2 and err.count("\n") == 1
    assert "t.xls: expected a .csv or .xlsx file name, got '.xls'" in err
