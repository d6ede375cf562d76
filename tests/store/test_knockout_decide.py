"""A knockout's tied match (issue 26): the chief referee's deciding result, corrected with
a reason in the audit log (app operation, role checked in the store's transaction, the
``decide --correct`` command); the bracket and the standings follow, and the bracket lists
each round's matches by table. SQLite and PostgreSQL (the store suite's ``db``)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from store_helpers import cli, write_json
from test_roles import set_all_pins

from referee_app.app.event import KnockoutRanking, load_event
from referee_app.app.pairing import decide_tie
from referee_app.app.printouts import bracket_sheet
from referee_app.store.errors import InputError, RoleError
from referee_app.store.service import Actor, Store

WHO = Actor("孙裁判长", "desk-1")
PAIRS = "number,player1,player2\n" + "".join(f"{n},甲{n},乙{n}\n" for n in range(1, 5))


def _case(table: int, ns: str, ew: str, tied: bool) -> dict[str, Any]:
    """HBUE, round 1: a tie (time called before any hand: 2:2) or the NS side's win."""
    return {
        "event": "hbue-2018",
        "round": 1,
        "table": table,
        "pairs": {"NS": ns, "EW": ew},
        "first_dealer": "N",
        "hands": [] if tied else [{"defender_points": 0}],
        "finished": "time",
    }


@pytest.fixture
def knockout(db: str, tmp_path: Path) -> str:
    """HBUE, four pairs; round 1 at table 1 pairs 4–3 won by 4, at table 2 pairs 1–2 tied."""
    rc, _, err = cli(
        db, "event", "create", "--rules", "hbue-2018", "--name", "淘汰杯", "--date", "2026-04-01"
    )
    assert rc == 0, err
    (tmp_path / "p.csv").write_text(PAIRS, encoding="utf-8")
    assert cli(db, "pairs", "import", str(tmp_path / "p.csv"))[0] == 0
    for table, ns, ew, tied in ((1, "4", "3", False), (2, "1", "2", True)):
        rc, _, err = cli(db, "record", write_json(tmp_path / f"t{table}.json", _case(table, ns, ew, tied)))
        assert rc == 0, err
    return db


def _standings_code(db: str, tmp_path: Path) -> str:
    pdf = tmp_path / "standings.pdf"
    rc, _, err = cli(db, "print", "standings", "-o", str(pdf))
    assert rc == 0, err
    subprocess.run(["pdftoppm", "-r", "150", "-png", str(pdf), str(tmp_path / "s")], check=True)
    [png] = sorted(tmp_path.glob("s*.png"))
    scan = subprocess.run(["zbarimg", "--raw", "-q", str(png)], capture_output=True, text=True)
    return scan.stdout.strip()


def _bracket(db: str) -> list[dict[str, Any]]:
    with Store.open(db, read_only=True) as s:
        return list(bracket_sheet(load_event(s, 1, knockout=True)).rounds[1])


@pytest.mark.skipif(not (shutil.which("zbarimg") and shutil.which("pdftoppm")), reason="zbar-tools, poppler")
def test_a_decision_is_corrected_with_its_reason_and_the_bracket_and_standings_follow(
    knockout: str, tmp_path: Path
) -> None:
    rc, out, err = cli(
        knockout, "decide", "--round", "1", "--winner", "1", "--how", "lots", "--reason", "抽签"
    )
    assert rc == 0, err
    code = _standings_code(knockout, tmp_path)  # a knockout's standings: the bracket, with its QR
    assert code.startswith("RA1:KL:E1:") and cli(knockout, "verify-paper", code)[0] == 0
    before = _bracket(knockout)
    # listed by table, as the hall seats them (not by pair number): table 1 is pairs 4–3
    assert [(m["table"], m["NS"], m["EW"]) for m in before] == [(1, "4", "3"), (2, "1", "2")]
    assert before[1]["winner"] == "1" and before[1]["decided"] == "lots" and not before[1]["corrected"]
    rc, out, err = cli(
        knockout, "decide", "--round", "1", "--winner", "2", "--how", "decision", "--correct",
        "--reason", "抽签记录错了对号", lang="zh",
    )  # fmt: skip
    assert rc == 0, err
    assert "更正为第2对胜出第1对" in out and "原为第1对胜出（抽签）" in out
    after = _bracket(knockout)[1]
    assert (after["winner"], after["decided"], after["corrected"]) == ("2", "decision", True)
    with Store.open(knockout, read_only=True) as s:
        loaded = load_event(s, 1, knockout=True)
        ranking = {r["pair"]: r["rank"] for r in KnockoutRanking(loaded).rows}
        entry = [e for e in s.log(1) if e["action"].startswith("desk.")][-1]
    assert ranking["1"] > ranking["2"]  # the standings read the correction too
    assert entry["action"] == "desk.decider_correction"
    assert "抽签记录错了对号" in json.dumps(entry, ensure_ascii=False)
    rc, out, _ = cli(knockout, "verify-paper", code, lang="zh")
    assert rc == 1 and "打印后已有更改" in out  # the ranking printed before the correction
    rc, out, _ = cli(knockout, "bracket", lang="en")
    assert rc == 0 and "table 2  1 – 2  → 2 (tied: decided by the chief referee) (corrected)" in out


def test_a_correction_is_refused_in_one_line_where_it_changes_nothing_or_comes_too_late(
    knockout: str,
) -> None:
    with Store.open(knockout) as s:
        with pytest.raises(InputError, match="no decided tied match in round 1 to correct"):
            decide_tie(s, 1, 1, "1", "lots", "x", actor=WHO, correct=True)
        decide_tie(s, 1, 1, "1", "lots", "抽签", actor=WHO)
        with pytest.raises(InputError, match="that way already"):
            decide_tie(s, 1, 1, "1", "lots", "再抽", actor=WHO, correct=True)
        with pytest.raises(InputError, match="needs the chief referee's reason"):
            decide_tie(s, 1, 1, "2", "lots", "  ", actor=WHO, correct=True)
        s.add_desk_record(1, "pairing", 2, {"method": "knockout", "seed": 1, "tables": [[1, "4", "1"]], "bye": None}, actor=WHO, version=1)  # fmt: skip
    rc, _, err = cli(
        knockout, "decide", "--round", "1", "--winner", "2", "--how", "lots", "--correct", "--reason", "x"
    )
    assert rc == 2 and err.count("\n") == 1 and "round 2 is published or played already" in err, err


def test_only_the_chief_referee_corrects_a_decision_on_an_event_with_pins(knockout: str) -> None:
    with Store.open(knockout) as s:
        actors = set_all_pins(s)
        decide_tie(s, 1, 1, "1", "lots", "抽签", actor=actors["chief_referee"])
        with pytest.raises(RoleError):
            decide_tie(s, 1, 1, "2", "decision", "想改", actor=actors["table_referee"], correct=True)
        decide_tie(s, 1, 1, "2", "decision", "抽签记录错了", actor=actors["chief_referee"], correct=True)
        loaded = load_event(s, 1, knockout=True)
    assert [d.winner for d in loaded.record.deciders] == ["2"]
