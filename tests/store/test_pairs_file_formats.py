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
