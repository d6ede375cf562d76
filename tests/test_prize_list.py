"""The prize list (获奖名单, issue 26): the rulebook's prize counts down the places, and a
warning wherever the places do not settle the list by themselves (shared places past a
count, a prize's last place decided by the lots alone). The PDF is read back."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from referee_app.core.prizes import decided_by_lots, overflow, prize_of, tied_groups
from referee_app.core.rulebook import load_rulebook

from .test_desk_cli import case, cli, make_event, record

PRIZES = [{"count": 1}, {"count": 1}, {"count": 1}, {"count": 9}]  # Gansu 七


def _row(rank: int, pair: str, mp: int, ld: int) -> dict[str, object]:
    return {"rank": rank, "pair": pair, "match_points": mp, "tiebreaks": {"level_difference": ld}}


def test_prizes_go_down_the_places_and_shared_places_past_a_count_are_named() -> None:
    assert [prize_of(r, PRIZES) for r in (1, 2, 3, 4, 12, 13, None)] == [0, 1, 2, 3, 3, None, None]
    rows = [{"rank": 1, "prize": 0}, {"rank": 2, "prize": 1}, {"rank": 2, "prize": 1}]
    assert overflow(rows, PRIZES) == [{"prize": 1, "count": 1, "pairs": 2}]
    assert overflow(rows[:2], PRIZES) == []


def test_a_tie_across_a_prizes_last_place_is_named_and_one_within_a_prize_is_not() -> None:
    rows = [
        _row(1, "5", 2, 3),
        _row(2, "3", 2, 1),
        _row(3, "1", 2, 1),
        _row(4, "4", 0, -1),
        _row(5, "6", 0, -1),
    ]
    groups = tied_groups(rows, ["match_points", "level_difference", "lots"])
    assert groups == [["3", "1"], ["4", "6"]]
    # 3 and 1 share every criterion at places 2–3: the lots gave 第2名 to one of them;
    # 4 and 6 both earn the commemorative prize, whatever the lots said
    assert decided_by_lots(rows, groups, PRIZES) == [{"pairs": ["3", "1"], "first": 2, "last": 3, "prize": 1}]


def test_the_seeds_prize_counts_are_in_the_rulebooks_marked_assumed_where_read() -> None:
    gansu = load_rulebook("gansu-2018").data["standings"]
    assert [p["count"] for p in gansu["prizes"]] == [1, 1, 1, 9] and not gansu["prizes_clause"].get("assumed")
    bhg = load_rulebook("bhg-2011").data["standings"]
    assert [p["count"] for p in bhg["prizes"]] == [1, 1, 1] and bhg["prizes_clause"]["assumed"]
    hbue = load_rulebook("hbue-2018").data["standings"]["placings"]
    assert [p["count"] for p in hbue["prizes"]] == [8, 24, 32]


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils not installed")
def test_the_prize_list_prints_each_prize_with_its_pairs_and_warns_where_lots_decide(tmp_path: Path) -> None:
    db, store, eid = make_event(tmp_path, 6, "gansu-2018")
    for t, (ns, ew) in enumerate((("1", "2"), ("3", "4"), ("5", "6")), 1):
        record(store, eid, case(1, t, ns, ew, "NS", "gansu-2018"))  # three equal wins
    store.close()
    pdf = tmp_path / "prizes.pdf"
    rc, out, err = cli(db, "print", "prizes", "-o", str(pdf), lang="en")
    assert rc == 0, err
    assert "the lots (seed 1) alone decide who gets First place" in err and "places 1 to 3" in err
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True).stdout
    flat = text.replace(" ", "")
    assert "获奖名单" in flat and "第1名至3名" not in flat
    assert "第1至3名的" in flat and "由抽签（种子1）决定谁得" in flat  # the sheet's warning
    assert flat.count("（抽签bylots）") == 3  # the three winners; the losers share 纪念奖 anyway
    assert "纪念奖" in flat and "七奖励办法" in flat and "按假定" not in flat
    # a rulebook whose counts are read from the notice says so
    (tmp_path / "b").mkdir()
    db2, store, eid = make_event(tmp_path / "b", 4)
    record(store, eid, case(1, 1, "1", "2", "NS"))
    store.close()
    rc, _, err = cli(db2, "print", "prizes", "-o", str(tmp_path / "b.pdf"), lang="zh")
    assert rc == 0, err
    flat = subprocess.run(["pdftotext", str(tmp_path / "b.pdf"), "-"], capture_output=True, text=True).stdout
    assert "按假定" in flat.replace(" ", "")


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils not installed")
def test_a_continuation_page_of_the_standings_repeats_the_sheets_header(tmp_path: Path) -> None:
    """Page 2 of a 60-pair standings, read alone, still names the event, the sheet and its
    round (the table's own column headings repeat as well)."""
    db, store, eid = make_event(tmp_path, 60)
    for t in range(1, 31):
        record(store, eid, case(1, t, str(2 * t - 1), str(2 * t), "NS"))
    store.close()
    pdf = tmp_path / "standings.pdf"
    rc, _, err = cli(db, "print", "standings", "-o", str(pdf))
    assert rc == 0, err
    page = subprocess.run(
        ["pdftotext", "-f", "2", "-l", "2", str(pdf), "-"], capture_output=True, text=True
    ).stdout.replace(" ", "")
    assert "测试赛·名次表Standings·临时名次PROVISIONAL·第1轮后afterround1（续continued）" in page
    assert "名次" in page and "积分" in page  # the column headings
    first = subprocess.run(["pdftotext", "-l", "1", str(pdf), "-"], capture_output=True, text=True).stdout
    assert "续" not in first
