"""The pairs file as tournament offices write it: Chinese headers, tab-separated (Excel)."""

from __future__ import annotations

from pathlib import Path

import pytest
from store_helpers import cli

from referee_app.store.errors import InputError
from referee_app.store.pairs_csv import parse_pairs


def test_chinese_headers_in_any_order() -> None:
    rows = parse_pairs("单位,编号,选手1,选手2\n北城队,7,甲一,乙一\n,8,丙二,丁二\n")
    assert [(r.number, r.player1, r.player2, r.unit) for r in rows] == [
        ("7", "甲一", "乙一", "北城队"),
        ("8", "丙二", "丁二", None),
    ]


def test_tab_separated_with_commas_inside_a_field() -> None:
    rows = parse_pairs("编号\t选手1\t选手2\t单位\n1\t甲,一\t乙一\t南城队\n")
    assert [(r.number, r.player1, r.unit) for r in rows] == [("1", "甲,一", "南城队")]


def test_a_missing_chinese_column_is_named_in_both_spellings() -> None:
    with pytest.raises(InputError) as err:
        parse_pairs("编号,选手1\n1,甲一\n", "p.csv")
    assert "p.csv: line 1: missing column 'player2'" in str(err.value)
    assert "编号,选手1,选手2" in str(err.value)


def test_a_tab_separated_gb18030_file_imports_into_the_store(tmp_path: Path) -> None:
    db = str(tmp_path / "event.db")
    assert cli(db, "event", "create", "--rules", "bhg-2011", "--name", "E")[0] == 0
    f = tmp_path / "pairs.txt"
    f.write_bytes(
        "编号\t选手1\t选手2\t单位\r\n21\t张三\t李四\t东城队\r\n22\t王五\t赵六\t\r\n".encode("gb18030")
    )
    rc, _, err = cli(db, "pairs", "import", str(f))
    assert rc == 0, err
    rc, out, _ = cli(db, "pairs", "list")
    assert out.splitlines() == ["21\t张三\t李四\t东城队", "22\t王五\t赵六"]


# -- Excel entry lists (issue 27 item 2): the same checks and line numbers as a CSV ----------

ENTRY_LISTS = Path(__file__).with_name("entry_lists")


def _xlsx(path: Path, rows: list[list[object]]) -> Path:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    book.save(path)
    return path


def _event(tmp_path: Path) -> str:
    db = str(tmp_path / "event.db")
    assert cli(db, "event", "create", "--rules", "gansu-2018", "--name", "E")[0] == 0
    return db


TITLED = [["2026 年报名表"], [], ["编号", "选手1", "选手2", "单位"]]


def test_an_xlsx_entry_list_with_a_title_row_imports_from_the_command_line(tmp_path: Path) -> None:
    db = _event(tmp_path)
    # numbers typed as numbers, an empty unit, a title above the header: as offices send it
    f = _xlsx(
        tmp_path / "报名表.xlsx",
        [*TITLED, [1, "甲一", "乙一", "北城队"], [2, "丙二", "丁二"], [3.0, "戊三", "己三", None]],
    )
    rc, _, err = cli(db, "pairs", "import", str(f))
    assert (rc, err) == (0, "3 pairs imported\n")
    assert cli(db, "pairs", "list")[1].splitlines() == [
        "1\t甲一\t乙一\t北城队",
        "2\t丙二\t丁二",
        "3\t戊三\t己三",
    ]


def test_an_xlsx_error_names_the_row_excel_shows_and_imports_nothing(tmp_path: Path) -> None:
    db = _event(tmp_path)
    f = _xlsx(tmp_path / "p.xlsx", [*TITLED, [1, "甲一", "乙一"], [2, "丙二", "丁二"], [1, "戊三", "己三"]])
    rc, out, err = cli(db, "pairs", "import", str(f), lang="zh")
    assert rc == 2 and out == ""
    assert err.strip().splitlines() == [f"{f}：第 6 行：参赛对编号 1 已在第 4 行出现。"]
    assert cli(db, "pairs", "list")[1] == ""


def test_an_old_xls_entry_list_imports_and_its_errors_name_the_row(tmp_path: Path) -> None:
    db = _event(tmp_path)
    rc, _, err = cli(db, "pairs", "import", str(ENTRY_LISTS / "entries.xls"))
    assert (rc, err) == (0, "3 pairs imported\n")
    assert cli(db, "pairs", "list")[1].splitlines() == [
        "1\t甲一\t乙一\t北城队",
        "2\t丙二\t丁二",
        "3\t戊三\t己三\t南城队",
    ]
    (tmp_path / "other").mkdir()
    other = _event(tmp_path / "other")
    rc, _, err = cli(other, "pairs", "import", str(ENTRY_LISTS / "entries_duplicate.xls"))
    assert rc == 2 and "entries_duplicate.xls: line 6: pair number 1 already on line 4" in err


def test_a_file_named_xlsx_that_is_not_a_workbook_is_refused_in_one_line(tmp_path: Path) -> None:
    db = _event(tmp_path)
    f = tmp_path / "p.xlsx"
    f.write_text("编号,选手1,选手2\n1,甲,乙\n", encoding="utf-8")
    rc, _, err = cli(db, "pairs", "import", str(f), lang="zh")
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "无法作为 Excel 工作簿读取" in err
