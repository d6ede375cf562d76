"""``referee-app standings`` and ``referee-app pair`` on a real SQLite store, and the sheet."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from referee_app.core.rulebook import load_rulebook
from referee_app.store.pairs_csv import parse_pairs
from referee_app.store.service import Actor, Store

ACTOR = Actor("t", "s")
NAMES = ["张三", "李四", "王五", "赵六", "钱七", "孙八", "周九", "吴十", "郑一", "冯二", "陈三", "褚四"]


def cli(db: str, *args: str, lang: str = "en") -> tuple[int, str, str]:
    from referee_app.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(["--db", db, "--lang", lang, *args])
        except SystemExit as exc:
            rc = int(exc.code or 0)
    return rc, out.getvalue(), err.getvalue()


def case(rnd: int, table: int, ns: str, ew: str, winner: str, rules: str = "bhg-2011") -> dict[str, Any]:
    """One hand: the dealer side keeps the defenders at 0 (+3 levels) and wins on time."""
    return {
        "event": rules,
        "round": rnd,
        "table": table,
        "pairs": {"NS": ns, "EW": ew},
        "first_dealer": "N" if winner == "NS" else "E",
        "hands": [{"defender_points": 0}],
        "finished": "time",
    }


def make_event(tmp_path: Path, n: int, rules: str = "bhg-2011") -> tuple[str, Store, int]:
    db = str(tmp_path / "event.db")
    store = Store.open(db, create=True, actor=ACTOR)
    ev = store.create_event(name="测试赛", rulebook=load_rulebook(rules), date="2024-05-01", actor=ACTOR)
    rows = "number,player1,player2,unit\n" + "".join(
        f"{i},{NAMES[(2 * i - 2) % 12]}{i},{NAMES[(2 * i - 1) % 12]}{i},队{i}\n" for i in range(1, n + 1)
    )
    store.import_pairs(ev.id, parse_pairs(rows, "pairs.csv"), actor=ACTOR, source="pairs.csv")
    return db, store, ev.id


def record(store: Store, eid: int, c: dict[str, Any]) -> None:
    store.record(eid, c, actor=ACTOR, lang="en")


@pytest.fixture
def four(tmp_path: Path) -> str:
    """BHG, pairs 1–4, two rounds: 1 beats 2 and 3; 4 beats 3 and loses to 2."""
    db, store, eid = make_event(tmp_path, 4)
    record(store, eid, case(1, 1, "1", "2", "NS"))
    record(store, eid, case(1, 2, "3", "4", "EW"))
    record(store, eid, case(2, 1, "1", "3", "NS"))
    record(store, eid, case(2, 2, "2", "4", "NS"))
    store.close()
    return db


def test_standings_json_is_the_ranked_rows(four: str) -> None:
    rc, out, err = cli(four, "standings", "--json")
    assert rc == 0, err
    rows = json.loads(out)
    assert [set(r) for r in rows] == [{"rank", "pair", "match_points", "tiebreaks", "assumed"}] * 4
    # BHG names 对手分, 级差分 and 小分 and 抽答 without defining them: the readings are marked
    assert rows[0]["assumed"] == ["opponents_score", "level_difference", "small_points", "lots"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert rows[0]["pair"] == "1" and rows[0]["match_points"] == 4
    assert rows[-1]["pair"] == "3" and rows[-1]["match_points"] == 0
    assert list(rows[0]["tiebreaks"]) == ["opponents_score", "level_difference", "small_points", "lots"]
    assert rows[0]["tiebreaks"]["level_difference"] == 6  # +3 in each round
    assert rows[0]["tiebreaks"]["lots"]["seed"] == 1  # the event id by default
    rc, out, _ = cli(four, "standings", "--json", "--round", "1", "--seed", "9")
    first = json.loads(out)
    assert {r["pair"]: r["match_points"] for r in first} == {"1": 2, "4": 2, "2": 0, "3": 0}
    assert first[0]["tiebreaks"]["lots"]["seed"] == 9


def test_standings_text_in_chinese(four: str) -> None:
    rc, out, _ = cli(four, "standings", lang="zh")
    assert rc == 0
    assert "第2轮后名次" in out and "对手分*" in out and "张三1" in out
    assert "* 假定：规程未载明其算法，按规则文件的解读计算：对手分、级差分、小分、抽签" in out


def test_pair_next_round_never_a_rematch(four: str) -> None:
    rc, out, err = cli(four, "pair", "--round", "3", "--json")
    assert rc == 0, err
    tables = json.loads(out)
    assert [t["table"] for t in tables] == [1, 2]
    met = {frozenset(p) for p in (("1", "2"), ("3", "4"), ("1", "3"), ("2", "4"))}
    assert {frozenset((t["NS"], t["EW"])) for t in tables} == {frozenset(("1", "4")), frozenset(("2", "3"))}
    assert not met & {frozenset((t["NS"], t["EW"])) for t in tables}
    rc, out, _ = cli(four, "pair", "--round", "1", "--seed", "5")
    assert rc == 0 and "seed 5" in out and out.count("\n") == 4


def test_odd_field_bye_inferred_and_paired(tmp_path: Path) -> None:
    db, store, eid = make_event(tmp_path, 5)
    record(store, eid, case(1, 1, "1", "2", "NS"))
    record(store, eid, case(1, 2, "3", "4", "NS"))
    store.close()
    rc, out, _ = cli(db, "standings", "--json")
    by = {r["pair"]: r for r in json.loads(out)}
    assert by["5"]["match_points"] == 2 and by["5"]["tiebreaks"]["level_difference"] == 0  # the bye
    rc, out, err = cli(db, "pair", "--round", "2", "--json")
    assert rc == 0, err
    got = json.loads(out)
    assert len(got) == 3 and "bye" in got[-1] and got[-1]["bye"] != "5"
    assert "seed" in err


def test_forfeit_and_disqualification_from_the_store(tmp_path: Path) -> None:
    db, store, eid = make_event(tmp_path, 4, rules="gansu-2018")
    record(store, eid, case(1, 1, "1", "2", "NS", "gansu-2018"))
    dq = case(1, 2, "3", "4", "NS", "gansu-2018")
    dq["history"] = {"NS": {"illegal_signal": 2}}
    dq["hands"] = [
        {"defender_points": 40, "infractions": [{"kind": "illegal_signal", "seat": "N", "trick": 4}]}
    ]
    record(store, eid, dq)
    store.close()
    rc, out, err = cli(db, "standings", "--json")
    assert rc == 0, err
    rows = json.loads(out)
    assert rows[-1]["pair"] == "3" and rows[-1]["tiebreaks"]["disqualified"] == 1
    assert {r["pair"]: r["match_points"] for r in rows}["4"] == 2  # the forfeited round's points
    rc, out, _ = cli(db, "pair", "--round", "2", "--json")
    seated = {p for t in json.loads(out) if "table" in t for p in (t["NS"], t["EW"])}
    assert "3" not in seated


def test_knockout_draw_from_the_store(tmp_path: Path) -> None:
    db, store, eid = make_event(tmp_path, 8, rules="hbue-2018")
    for t in range(4):
        record(store, eid, case(1, t + 1, str(2 * t + 1), str(2 * t + 2), "NS", "hbue-2018"))
    store.close()
    rc, out, err = cli(db, "pair", "--round", "2", "--knockout", "--json", "--seed", "4")
    assert rc == 0, err
    tables = json.loads(out)
    assert {p for t in tables for p in (t["NS"], t["EW"])} == {"1", "3", "5", "7"}


def test_errors_are_one_line_exit_1(tmp_path: Path, four: str) -> None:
    empty = str(tmp_path / "empty.db")
    Store.open(empty, create=True, actor=ACTOR).close()
    for db, args in (
        (empty, ["standings"]),
        (four, ["pair", "--round", "0"]),
        (four, ["standings", "--event", "99"]),
        (four, ["pair", "--round", "2", "--knockout"]),  # round 1 has a result each table: fine
        (str(tmp_path / "none.db"), ["standings"]),
    ):
        rc, out, err = cli(db, *args)
        if args[-1] == "--knockout":
            assert rc == 0, err
            continue
        assert rc == 2, (args, err)
        assert err.count("\n") == 1 and out == ""


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext is not installed")
def test_standings_pdf_reads_back(four: str, tmp_path: Path) -> None:
    pdf = tmp_path / "standings.pdf"
    rc, _, err = cli(four, "standings", "--pdf", str(pdf))
    assert rc == 0, err
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    for word in (
        "测试赛",
        "名次表",
        "STANDINGS",
        "对手分",
        "Opponents' score",
        "级差分",
        "小分",
        "张三1",
        "Page 1 of 1",
    ):
        assert word in text, word
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True).stdout
    assert "Helvetica" not in fonts


def test_printed_standings_mark_the_assumed_readings(four: str, tmp_path) -> None:
    import subprocess

    pdf = tmp_path / "standings.pdf"
    rc, _, err = cli(four, "standings", "--pdf", str(pdf))
    assert rc == 0, err
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "对手分*" in text and "小分*" in text
    assert "假定：规程未载明其算法" in text and "rulebook's reading applies" in text


# -- a whole event through the command line (issue 13) ------------------------------------------
def record_cli(db: str, tmp_path: Path, c: dict[str, Any]) -> None:
    f = tmp_path / f"r{c['round']}t{c['table']}.json"
    f.write_text(json.dumps(c, ensure_ascii=False), encoding="utf-8")
    rc, _, err = cli(db, "record", str(f))
    assert rc == 0, err


def lower_wins(rnd: int, table: int, ns: str, ew: str, rules: str) -> dict[str, Any]:
    """The lower pair number wins (so the right winner is known without the app)."""
    return case(rnd, table, ns, ew, "NS" if int(ns) < int(ew) else "EW", rules)


def tie(rnd: int, table: int, ns: str, ew: str, rules: str) -> dict[str, Any]:
    """Time is called before a hand is finished: 2:2, neither side moved — a draw."""
    c = case(rnd, table, ns, ew, "NS", rules)
    c["hands"] = []
    return c


def publish(db: str, rnd: int, *extra: str) -> list[dict[str, Any]]:
    rc, out, err = cli(db, "pair", "--round", str(rnd), "--json", "--publish", "--yes", *extra)
    assert rc == 0, err
    return json.loads(out)


def test_13_pair_knockout_start_to_finish(tmp_path: Path) -> None:
    """HBUE, 13 pairs: byes in rounds 1 and 2 are kept, a tie in round 1 waits for the chief
    referee's deciding result, and pair 1 (which wins every match) is the winner."""
    db, store, eid = make_event(tmp_path, 13, "hbue-2018")
    store.close()
    rnd, byes, tied = 1, [], None
    while True:
        rc, out, err = cli(db, "pair", "--round", str(rnd), "--json", "--publish", "--yes")
        if rc != 0:
            assert "the knockout is over" in err and "pair 1" in err, err
            break
        got = json.loads(out)
        assert f"round {rnd}: knockout, seed " in err or f"round {rnd}: lot, seed " in err
        byes += [t["bye"] for t in got if "bye" in t]
        for t in (t for t in got if "table" in t):
            if rnd == 1 and tied is None and "1" not in (t["NS"], t["EW"]):
                tied = (t["NS"], t["EW"])
                record_cli(db, tmp_path, tie(rnd, t["table"], t["NS"], t["EW"], "hbue-2018"))
            else:
                record_cli(db, tmp_path, lower_wins(rnd, t["table"], t["NS"], t["EW"], "hbue-2018"))
        if rnd == 1:
            assert tied is not None
            rc, _, err = cli(db, "pair", "--round", "2")
            assert rc == 2 and "round 1 is not finished" in err and f"{tied[0]} v {tied[1]} undecided" in err
            winner = min(tied, key=int)
            rc, out, err = cli(
                db, "decide", "--round", "1", "--winner", winner, "--how", "lots", "--reason", "抽签"
            )
            assert rc == 0 and f"pair {winner} goes on" in out, err
        rnd += 1
    assert rnd == 5 and len(byes) == 2 and len(set(byes)) == 2
    rc, out, err = cli(db, "bracket", "--json", "--pdf", str(tmp_path / "bracket.pdf"))
    assert rc == 0, err
    b = json.loads(out)
    first = b["placings"][0]
    assert (first["rank"], first["pair"], first["out_in"], first["prize"]) == (1, "1", None, 0)
    # HBUE decides places to six (the rulebook's assumed rule), then shares within a round
    # 3 pairs out in round 2 (5th, 6th, then 7th), 6 out in round 1 share 8th
    assert [r["rank"] for r in b["placings"]] == [1, 2, 3, 4, 5, 6, 7] + [8] * 6
    assert {m["bye"] for r in b["rounds"].values() for m in r if "bye" in m} == set(byes)
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "bracket.pdf"), "-"], capture_output=True, text=True
    ).stdout
    assert "淘汰赛对阵" in text and "KNOCKOUT BRACKET" in text and "名次" in text
    # the tie says how it was decided; places shared past the 8 first prizes are warned of
    decided = [m for r in b["rounds"].values() for m in r if m.get("decided")]
    assert [(m["NS"], m["EW"], m["decided"]) for m in decided] == [(*tied, "lots")]
    flat = "".join(text.split())
    assert "一等(名次)奖" in flat and "（抽签lots）" in flat
    assert "一等(名次)奖按规则设8个，按名次有13对获得" in flat
    rc, out, err = cli(db, "bracket")
    assert rc == 0 and "First prize (placed)" in out and "the places give it to 13 pairs" in err, err
    assert f"→ {min(tied, key=int)} (tied: decided by lots)" in out
    # standings in a knockout is the bracket's one ranking, not an order by match points
    rc, standings_out, err = cli(db, "standings")
    assert rc == 0, err
    placed = out[out.index("Placings") :]
    assert placed in standings_out
    with Store.open(db) as s:
        log = s.log(eid)
        assert [e["action"] for e in log].count("desk.pairing") == 4
        assert any(e["action"] == "desk.decider" and "抽签" in e["payload"] for e in log)
        assert s.verify().ok


def test_13_pair_swiss_start_to_finish(tmp_path: Path) -> None:
    """Gansu, 13 pairs, 5 rounds through the command line: one bye per round, no pair twice,
    no rematch; the standings equal the core's on the record the test kept itself; a 6th
    round warns that the rulebook has 5."""
    from referee_app.core.standings import Bye, EventRecord, MatchResult, compute_standings

    db, store, eid = make_event(tmp_path, 13, "gansu-2018")
    store.close()
    results: list[MatchResult] = []
    byes: list[Bye] = []
    for rnd in range(1, 6):
        got = publish(db, rnd)
        tables = [t for t in got if "table" in t]
        bye = [t["bye"] for t in got if "bye" in t]
        assert len(tables) == 6 and len(bye) == 1
        byes.append(Bye(rnd, bye[0]))
        for t in tables:
            c = lower_wins(rnd, t["table"], t["NS"], t["EW"], "gansu-2018")
            record_cli(db, tmp_path, c)
            ns_wins = int(t["NS"]) < int(t["EW"])
            results.append(
                MatchResult(
                    rnd,
                    t["NS"],
                    t["EW"],
                    "NS" if ns_wins else "EW",
                    2 * ns_wins,
                    2 * (not ns_wins),
                    3 if ns_wins else -3,
                    -3 if ns_wins else 3,
                )
            )
    assert len({b.pair for b in byes}) == 5
    met = [frozenset((m.ns, m.ew)) for m in results]
    assert len(met) == len(set(met)) == 30
    rc, out, err = cli(db, "standings", "--json")
    assert rc == 0, err
    mine = compute_standings(
        load_rulebook("gansu-2018"),
        EventRecord(tuple(str(i) for i in range(1, 14)), tuple(results), tuple(byes)),
        seed=eid,
    )
    assert [(r["pair"], r["match_points"]) for r in json.loads(out)] == [
        (r["pair"], r["match_points"]) for r in mine.rows
    ]
    top = json.loads(out)[0]
    assert top["match_points"] == 10 and top["pair"] in {"1", "2"}
    rc, out, err = cli(db, "pair", "--round", "6")
    assert rc == 0 and "the rulebook (六、二、1) has 5 rounds; this is round 6" in err


def test_pairing_over_an_unfinished_round_is_refused_unless_overridden(tmp_path: Path) -> None:
    db, store, eid = make_event(tmp_path, 8)
    for t in range(3):  # 3 of 4 results in
        record(store, eid, case(1, t + 1, str(2 * t + 1), str(2 * t + 2), "NS"))
    store.close()
    rc, out, err = cli(db, "pair", "--round", "2")
    assert (rc, out) == (2, "") and err.count("\n") == 1
    assert "round 1 is not finished (missing 7; missing 8)" in err and "--override REASON" in err
    rc, out, err = cli(db, "pair", "--round", "9")
    assert rc == 2 and "round 8 is not finished" in err
    rc, out, err = cli(db, "pair", "--round", "2", "--override", "7、8对因故延后，先编排", "--json")
    assert rc == 0, err
    with Store.open(db) as s:
        entry = s.log(eid)[-1]
        assert entry["action"] == "desk.override" and "7、8对因故延后" in entry["payload"]


def test_withdrawal_readmission_and_a_late_entry(tmp_path: Path) -> None:
    """A pair imported after round 1 has no retroactive bye; a withdrawn pair is not paired
    and not missing; re-admitted, it is paired again."""
    db, store, eid = make_event(tmp_path, 6, "gansu-2018")
    for t in range(3):
        record(store, eid, case(1, t + 1, str(2 * t + 1), str(2 * t + 2), "NS", "gansu-2018"))
    store.import_pairs(eid, parse_pairs("number,player1,player2\n7,甲,乙\n"), actor=ACTOR, source="late.csv")
    store.close()
    rc, out, err = cli(db, "standings", "--json")
    assert {r["pair"]: r["match_points"] for r in json.loads(out)}["7"] == 0  # no retroactive bye
    rc, out, err = cli(db, "withdraw", "--pair", "6", "--from-round", "2", "--reason", "身体不适")
    assert rc == 0 and "pair 6 withdrawn from round 2" in out, err
    got = publish(db, 2)
    seated = {p for t in got if "table" in t for p in (t["NS"], t["EW"])}
    assert "6" not in seated and len(seated) == 6 and not any("bye" in t for t in got)
    for t in (t for t in got if "table" in t):
        record_cli(db, tmp_path, lower_wins(2, t["table"], t["NS"], t["EW"], "gansu-2018"))
    rc, out, err = cli(db, "readmit", "--pair", "6", "--from-round", "3")
    assert rc == 0, err
    got = publish(db, 3)
    assert "6" in {p for t in got for p in (t.get("NS"), t.get("EW"), t.get("bye"))}
    rc, _, err = cli(db, "withdraw", "--pair", "99", "--from-round", "2", "--reason", "x")
    assert rc == 2 and err == "--pair: no pair 99 in event 1 (测试赛)\n"


def test_published_pairing_is_a_versioned_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db, store, eid = make_event(tmp_path, 4)
    store.close()
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    rc, out, err = cli(db, "pair", "--round", "1", "--seed", "3", "--publish")
    assert rc == 1 and "Publish round 1's pairing (version 1)?" in err and "not published" in err
    rc, _, err = cli(db, "pairing", "show", "--round", "1")
    assert rc == 2 and "round 1: no published pairing" in err
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    rc, out, err = cli(db, "pair", "--round", "1", "--seed", "3", "--publish")
    assert rc == 0 and "version 1" in err
    rc, out, _ = cli(db, "pairing", "show", "--round", "1", "--json")
    first = json.loads(out)
    assert first["version"] == 1 and first["seed"] == 3 and first["method"] == "lot"
    swapped = [
        {"table": 1, "NS": first["tables"][0][2], "EW": first["tables"][0][1]},
        {"table": 2, "NS": first["tables"][1][1], "EW": first["tables"][1][2]},
    ]
    (tmp_path / "p.json").write_text(json.dumps(swapped), encoding="utf-8")
    rc, _, err = cli(db, "pairing", "enter", str(tmp_path / "p.json"), "--round", "1", "--publish", "--yes")
    assert rc == 2 and "a correction needs --reason" in err
    rc, _, err = cli(
        db,
        "pairing",
        "enter",
        str(tmp_path / "p.json"),
        "--round",
        "1",
        "--publish",
        "--yes",
        "--reason",
        "座位互换",
    )
    assert rc == 0, err
    rc, out, _ = cli(db, "pairing", "show", "--round", "1", "--json")
    assert json.loads(out)["version"] == 2 and json.loads(out)["reason"] == "座位互换"
    rc, out, _ = cli(db, "pairing", "show", "--round", "1", "--version", "1", "--json")
    assert json.loads(out)["tables"] == first["tables"]
    incomplete = [{"table": 1, "NS": "1", "EW": "2"}]
    (tmp_path / "bad.json").write_text(json.dumps(incomplete), encoding="utf-8")
    rc, _, err = cli(
        db,
        "pairing",
        "enter",
        str(tmp_path / "bad.json"),
        "--round",
        "1",
        "--publish",
        "--yes",
        "--reason",
        "x",
    )
    assert rc == 2 and "not published" in err and "have no table and no bye" in err
    # round 1 played; a hand-entered round 2 that repeats a meeting is warned about
    t = first["tables"]
    with Store.open(db) as s:
        record(s, eid, case(1, 1, swapped[0]["NS"], swapped[0]["EW"], "NS"))
        record(s, eid, case(1, 2, swapped[1]["NS"], swapped[1]["EW"], "NS"))
    rematch = [{"table": 1, "NS": t[0][1], "EW": t[0][2]}, {"table": 2, "NS": t[1][1], "EW": t[1][2]}]
    (tmp_path / "re.json").write_text(json.dumps(rematch), encoding="utf-8")
    rc, out, err = cli(
        db, "pairing", "enter", str(tmp_path / "re.json"), "--round", "2", "--publish", "--yes"
    )
    assert rc == 0 and "warning: round 2 table 1: pairs" in err and "already met in round 1" in err
    rc, _, _ = cli(db, "pairing", "show", "--round", "2", "--pdf", str(tmp_path / "p2.pdf"))
    text = subprocess.run(["pdftotext", str(tmp_path / "p2.pdf"), "-"], capture_output=True, text=True).stdout
    assert "第2轮对阵表" in text and "现场抽签录入" in text and "version 1" in text


def test_draw_entered_as_made_or_with_an_unforeseeable_seed(tmp_path: Path) -> None:
    db, store, eid = make_event(tmp_path, 5, "gansu-2018")
    store.close()
    rc, out, err = cli(db, "pair", "--round", "1", "--drawn", "3,1,5，2,4", "--json")
    assert rc == 0 and json.loads(out) == [
        {"table": 1, "NS": "3", "EW": "1"},
        {"table": 2, "NS": "5", "EW": "2"},
        {"bye": "4"},
    ]
    rc, out, err = cli(db, "pair", "--round", "1", "--json")  # the hall's draw is kept
    assert rc == 0 and json.loads(out)[0] == {"table": 1, "NS": "3", "EW": "1"}, err
    assert "round 1: entered, seed — (proposal, not published)" in err
    seeds = []
    for _ in range(3):  # each a new, printed seed, not the event id; the last one is kept
        rc, out, err = cli(db, "pair", "--round", "1", "--redraw", "--json")
        assert rc == 0, err
        seeds.append(re.search(r"round 1: lot, seed (\d+) \(proposal, not published\)", err).group(1))
    assert len(set(seeds)) == 3 and str(eid) not in seeds
    rc, out, err = cli(db, "pair", "--round", "1", "--json")
    assert f"round 1: lot, seed {seeds[-1]} (proposal" in err
    rc, out, err = cli(db, "pair", "--round", "1", "--drawn", "1,2,3", "--json")
    assert rc == 2 and "pair(s) 4, 5 of round 1's field not drawn" in err


# -- one truth: the draw shown is the draw published and printed ------------------------------
SEED_LINE = re.compile(r"round (\d+): (\w+), seed (\S+) \((.+)\)")


def shown(err: str) -> tuple[str, str, str]:
    """(method, seed, status) of ``pair --json``'s line on standard error."""
    m = SEED_LINE.search(err)
    assert m, err
    return m.group(2), m.group(3), m.group(4)


def printed_pairing(pdf: Path) -> tuple[list[tuple[int, str, str]], str | None, str]:
    """The tables (table, NS, EW) and the bye of a printed pairing list, and its text."""
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    tables: list[tuple[int, str, str]] = []
    bye = None
    for line in text.splitlines():
        cells = line.split()  # table, NS, its players, [unit], points, EW, its players, [unit], points
        numbers = [c for c in cells if c.isdigit()]  # table, NS, its points, EW, its points
        if len(numbers) == 5 and cells[:2] == numbers[:2]:
            tables.append((int(numbers[0]), numbers[1], numbers[3]))
        elif cells[:2] == ["轮空", "Bye"]:
            bye = cells[2]
    return tables, bye, text


def preview_tables(out: str) -> tuple[list[tuple[int, str, str]], str | None]:
    got = json.loads(out)
    return [(t["table"], t["NS"], t["EW"]) for t in got if "table" in t], next(
        (t["bye"] for t in got if "bye" in t), None
    )


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext is not installed")
def test_print_pairing_after_publishing_prints_the_published_draw(tmp_path: Path) -> None:
    """pair --json previews a draw; a bare --publish publishes that draw; print pairing prints
    the published record's tables, without the proposal's mark (before publishing: the same
    draw, marked 编排建议，未公布)."""
    db, store, eid = make_event(tmp_path, 7)  # odd: a bye as well
    store.close()
    rc, out, err = cli(db, "pair", "--round", "1", "--json")
    assert rc == 0, err
    method, seed, status = shown(err)
    assert (method, status) == ("lot", "proposal, not published") and seed != str(eid)
    previewed = preview_tables(out)
    rc, _, err = cli(db, "print", "pairing", "--round", "1", "-o", str(tmp_path / "before.pdf"))
    assert rc == 0, err
    tables, bye, text = printed_pairing(tmp_path / "before.pdf")
    assert (tables, bye) == previewed and len(tables) == 3
    assert "编排建议，未公布" in text and "PROPOSAL, NOT PUBLISHED" in text and seed in text

    rc, out, err = cli(db, "pair", "--round", "1", "--publish", "--yes")
    assert rc == 0 and "round 1: pairing published (version 1)" in err, err
    rc, out, _ = cli(db, "pairing", "show", "--round", "1", "--json")
    rec = json.loads(out)
    assert (rec["version"], str(rec["seed"]), rec["method"], rec["proposal"]) == (1, seed, "lot", 1)
    assert ([tuple(t) for t in rec["tables"]], rec["bye"]) == previewed
    rc, _, err = cli(db, "print", "pairing", "--round", "1", "-o", str(tmp_path / "after.pdf"))
    assert rc == 0, err
    tables, bye, text = printed_pairing(tmp_path / "after.pdf")
    assert (tables, bye) == ([tuple(t) for t in rec["tables"]], rec["bye"])
    assert "未公布" not in text and "NOT PUBLISHED" not in text
    assert "version 1" in text and seed in text and "抽签编排" in text


def test_a_drawn_first_round_is_the_same_draw_at_every_look_until_published(tmp_path: Path) -> None:
    """Round 1 is drawn once: every preview (and the reader the window uses) shows that draw,
    one kept proposal in the audit log; publishing publishes it; after that every look shows
    the published version and a bare --publish again is refused in one line."""
    from referee_app.app.pairing import round_pairing

    db, store, eid = make_event(tmp_path, 8)
    store.close()
    looks = []
    for _ in range(3):
        rc, out, err = cli(db, "pair", "--round", "1", "--json")
        assert rc == 0, err
        looks.append((preview_tables(out), shown(err)))
    assert looks[0] == looks[1] == looks[2]
    (tables, bye), (method, seed, status) = looks[0]
    assert (method, status, bye) == ("lot", "proposal, not published", None) and len(tables) == 4
    rc, out, _ = cli(db, "pair", "--round", "1")
    assert out.splitlines()[0] == f"测试赛: round 1 pairing (by lot, seed {seed}, proposal, not published)"
    with Store.open(db) as s:
        assert [e["action"] for e in s.log(eid)].count("desk.proposal") == 1  # one draw, kept
        rp = round_pairing(s, eid, 1)  # read only: what the window and print pairing show
        assert (rp.status, str(rp.pairing.seed), rp.tables()) == ("proposal", seed, tables)

    rc, out, err = cli(db, "pair", "--round", "1", "--json", "--publish", "--yes")
    assert rc == 0 and preview_tables(out) == (tables, None), err
    with Store.open(db) as s:
        (rec,) = s.desk_records(eid, "pairing", 1)
        assert (str(rec["body"]["seed"]), rec["body"]["proposal"]) == (seed, 1)
        assert [tuple(t) for t in rec["body"]["tables"]] == tables
        rp = round_pairing(s, eid, 1)
        assert (rp.status, rp.version, rp.tables()) == ("published", 1, tables)
    rc, out, err = cli(db, "pair", "--round", "1", "--json")
    assert preview_tables(out) == (tables, None) and shown(err) == ("lot", seed, "version 1")
    rc, out, err = cli(db, "pair", "--round", "1", "--publish", "--yes")
    assert rc == 2 and err.count("\n") == 1
    assert err.startswith("round 1: version 1 is published; a correction is a new pairing")


def test_a_corrected_pairing_is_the_latest_version_every_reader_shows(tmp_path: Path) -> None:
    """A correction (a new draw, published with its reason) is version 2: pair, pairing show
    and the app's reader all show it; version 1 stays as it was."""
    from referee_app.app.pairing import round_pairing

    db, store, eid = make_event(tmp_path, 6)
    store.close()
    first = publish(db, 1)
    rc, out, err = cli(db, "pair", "--round", "1", "--seed", "4242", "--json")
    assert rc == 0 and shown(err) == ("lot", "4242", "proposal, not published"), err
    corrected = preview_tables(out)
    rc, _, err = cli(db, "pair", "--round", "1", "--seed", "4242", "--publish", "--yes")
    assert rc == 2 and "a correction needs --reason" in err
    rc, _, err = cli(
        db, "pair", "--round", "1", "--seed", "4242", "--publish", "--yes", "--reason", "抽签有误"
    )
    assert rc == 0 and "version 2" in err, err
    rc, out, err = cli(db, "pair", "--round", "1", "--json")
    assert preview_tables(out) == corrected and shown(err) == ("lot", "4242", "version 2")
    rc, out, _ = cli(db, "pairing", "show", "--round", "1", "--version", "1", "--json")
    assert [tuple(t) for t in json.loads(out)["tables"]] == preview_tables(json.dumps(first))[0]
    with Store.open(db) as s:
        rp = round_pairing(s, eid, 1)
        assert (rp.status, rp.version, rp.pairing.seed, rp.record["body"]["reason"]) == (
            "published",
            2,
            4242,
            "抽签有误",
        )
        assert (rp.tables(), rp.pairing.bye) == corrected


def test_a_kept_draw_that_no_longer_fits_the_field_is_drawn_again_and_said(tmp_path: Path) -> None:
    """Printing draws nothing: an undrawn round 1 is refused in one line. A pair entered after
    the draw: printing refuses the draw kept (it leaves the pair out); the desk draws again
    and says why."""
    db, store, eid = make_event(tmp_path, 6)
    store.close()
    pdf = str(tmp_path / "p.pdf")
    rc, out, err = cli(db, "print", "pairing", "--round", "1", "-o", pdf)
    assert (rc, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("round 1 has not been drawn yet: the chief referee draws it")
    rc, _, err = cli(db, "print", "pairing", "--round", "1", "-o", pdf, lang="zh")
    assert rc == 2 and err.startswith("第 1 轮尚未抽签：由裁判长抽签")
    rc, out, err = cli(db, "pair", "--round", "1", "--json")
    _, seed, _ = shown(err)
    with Store.open(db) as s:
        s.import_pairs(eid, parse_pairs("number,player1,player2\n7,甲,乙\n"), actor=ACTOR, source="late.csv")
    rc, out, err = cli(db, "print", "pairing", "--round", "1", "-o", pdf)
    assert rc == 2 and err == (
        f"round 1: the field changed since the draw kept (seed {seed}); draw again: referee-app pair --round 1\n"
    )
    rc, out, err = cli(db, "pair", "--round", "1", "--json")
    assert rc == 0 and f"round 1: the field changed since the draw kept (seed {seed}); drawn again" in err
    tables, bye = preview_tables(out)
    assert bye is not None and {p for t in tables for p in t[1:]} | {bye} == {str(i) for i in range(1, 8)}
    assert shown(err)[1] != seed
    assert cli(db, "print", "pairing", "--round", "1", "-o", pdf)[0] == 0


def test_with_pins_only_the_chief_referee_draws_and_anyone_reads_the_draw(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keeping a draw is the chief referee's act: without the role a preview of round 1 is
    refused in one line; drawn by the chief referee, it is printed without a role."""
    from referee_app.store import roles

    monkeypatch.setattr(roles, "SCRYPT_N", 2**14)
    db, store, eid = make_event(tmp_path, 4)
    store.set_pin(eid, "chief_referee", "135790", actor=ACTOR)
    store.close()
    rc, out, err = cli(db, "pair", "--round", "1", "--json")
    assert (rc, out) == (2, "") and err.count("\n") == 1 and "chief referee" in err, err
    monkeypatch.setenv("REFEREE_APP_PIN", "135790")
    monkeypatch.setenv("REFEREE_APP_USER", "孙裁判长")
    rc, out, err = cli(db, "pair", "--round", "1", "--json", "--role", "chief_referee")
    assert rc == 0, err
    monkeypatch.delenv("REFEREE_APP_PIN")
    rc, again, err = cli(db, "pair", "--round", "1", "--json")  # kept: shown without a role
    assert rc == 0 and again == out, err
    assert cli(db, "print", "pairing", "--round", "1", "-o", str(tmp_path / "p.pdf"))[0] == 0


def test_round_clock_end_and_score_publication_are_records(tmp_path: Path) -> None:
    db, store, eid = make_event(tmp_path, 4, "gansu-2018")
    store.close()
    rc, out, _ = cli(db, "clock", "show", "--round", "1")
    assert "not started, 60:00 left" in out
    rc, out, _ = cli(db, "clock", "start", "--round", "1")
    assert rc == 0 and "running" in out
    rc, out, err = cli(db, "clock", "start", "--round", "1")
    assert rc == 2 and "clock: already started (running)" in err
    assert cli(db, "clock", "pause", "--round", "1")[0] == 0
    rc, out, err = cli(db, "clock", "extend", "--round", "1", "--minutes", "5")
    assert rc == 2 and err == "--reason: an extension of the clock needs the chief referee's reason\n", err
    rc, out, _ = cli(db, "clock", "extend", "--round", "1", "--minutes", "5", "--reason", "停电五分钟")
    assert rc == 0 and "paused" in out
    from datetime import UTC, datetime

    from referee_app.app.event import clock_acts
    from referee_app.core.clock import clock_state

    with Store.open(db) as s:
        st = clock_state(60, clock_acts(s, eid, 1), datetime.now(UTC))
    assert (st.phase, st.total_s) == ("paused", 65 * 60) and st.elapsed_s < 65 * 60
    # an adjustment moves the time left (here 2 minutes fewer), the round's length stays
    rc, out, err = cli(db, "clock", "adjust", "--round", "1", "--minutes", "-2", "--reason", "晚开始")
    assert rc == 0, err
    with Store.open(db) as s:
        after = clock_state(60, clock_acts(s, eid, 1), datetime.now(UTC))
    assert (after.total_s, after.elapsed_s) == (65 * 60, st.elapsed_s + 120)
    rc, out, _ = cli(db, "round", "scores", "--round", "1", "--at", "2026-05-01T10:00:00+08:00")
    assert rc == 0 and "2026-05-01T02:00:00+00:00" in out
    with Store.open(db) as s:
        kinds = [r["kind"] for r in s.desk_records(eid)]
        assert kinds == ["clock", "clock", "clock", "clock", "scores_published"]
        assert s.verify().ok


def exposed_card(rnd: int, table: int, ns: str, ew: str, rules: str) -> dict[str, Any]:
    """A hand with a ruling to appeal: N exposed a card."""
    c = case(rnd, table, ns, ew, "NS", rules)
    c["hands"] = [
        {
            "defender_points": 85,
            "infractions": [{"kind": "exposed_card", "seat": "N", "cards": 1, "trick": 7}],
        }
    ]
    return c


def paper_appeal(store, eid: int, rid: int, by: str, filed_at) -> int:
    """A written appeal typed in afterwards: its filing time is the chief referee's back-dating."""
    return store.file_appeal(
        eid,
        ruling_id=rid,
        by=by,
        grounds="g",
        actor=ACTOR,
        filed_at=filed_at,
        backdate_reason="书面申诉补录",
        evidence="e",
        receipt="R-1",
    )


def test_appeal_window_runs_from_the_round_end_or_the_publication_of_scores(tmp_path: Path) -> None:
    """BHG 二、12 "每轮比赛结束后的10分钟内": from the round's end (the last table's result
    while nothing else is recorded; the chief referee's recorded end when there is one).
    Gansu 六、八、2 "该轮比赛正式分数公布后5分钟内": from the publication of the scores;
    before it the window has not opened."""
    from datetime import datetime, timedelta

    from referee_app.store.errors import InputError

    for rules, minutes in (("bhg-2011", 10), ("gansu-2018", 5)):
        d = tmp_path / rules
        d.mkdir()
        db, store, eid = make_event(d, 4, rules)
        first = store.record(eid, exposed_card(1, 1, "1", "2", rules), actor=ACTOR, lang="en")
        rid = store.rulings_of(first.match_id)[0]["id"]
        t1 = datetime.fromisoformat(store.log(eid)[-1]["at"].replace("Z", "+00:00"))
        later = t1 + timedelta(hours=2)
        if rules == "bhg-2011":
            # table 2 has no result: the round has not ended, the window is not open
            store.record(
                eid, {**case(1, 2, "3", "4", "NS", rules), "finished": "open"}, actor=ACTOR, lang="en"
            )
            paper_appeal(store, eid, rid, "EW", later)
            ended = t1 + timedelta(hours=1)
            store.add_desk_record(eid, "round_end", 1, {}, actor=ACTOR, at=ended.isoformat())
            with pytest.raises(InputError, match=f"filed 50 min after the {minutes}-min window closed"):
                paper_appeal(store, eid, rid, "NS", later)
        else:
            paper_appeal(store, eid, rid, "EW", later)
            store.add_desk_record(
                eid, "scores_published", 1, {}, actor=ACTOR, at=(later - timedelta(minutes=8)).isoformat()
            )
            with pytest.raises(InputError, match=f"filed 3 min after the {minutes}-min window closed"):
                paper_appeal(store, eid, rid, "NS", later)
            on_time = later - timedelta(minutes=4)
            paper_appeal(store, eid, rid, "NS", on_time)
            assert store.appeals(eid)[-1]["window_source"] == "published"
        assert store.verify().ok
        store.close()


def test_hall_display_without_a_screen_says_so_in_one_line(
    four: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for var in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(var, raising=False)
    rc, out, err = cli(four, "hall-display")
    assert (rc, out) == (1, "") and err.count("\n") == 1 and "no display here" in err, err


def test_pair_why_says_per_table_who_floated_and_what_decided(four: str) -> None:
    """Round 3 of ``four``: 1 (4 points) has met 2 and 3, so 1–4 is forced by the no-rematch
    rule; each table's line names the points, the float and the criterion."""
    rc, out, err = cli(four, "pair", "--round", "3", "--why")
    assert rc == 0, err
    why = [line for line in out.splitlines() if line.startswith("table ")]
    assert len(why) == 2
    assert all("decided by: no rematch (no other legal pairing)" in line for line in why)
    assert any("1 (4)" in line and "1 floats down, 4 floats up" in line for line in why)
    assert "weighted score gap" in out.splitlines()[-1]
    rc, out, err = cli(four, "pair", "--round", "3", "--why", lang="zh")
    assert rc == 0 and "决定因素：相遇过的对不再相遇" in out and "1 下浮、4 上浮" in out, err


def test_pair_simulate_plays_random_events_and_checks_each_round(tmp_path: Path) -> None:
    rc, out, err = cli(str(tmp_path / "none.db"), "pair", "simulate", "--pairs", "11", "--events", "3")
    assert rc == 0, err
    lines = out.splitlines()
    assert len(lines) == 3 and all(", rematches 0, problems 0" in line for line in lines)
    assert lines[0].startswith("event 1 (seed 0): 11 pairs, 5 rounds")
    assert not (tmp_path / "none.db").exists()  # nothing stored
    rc, _out, err = cli(str(tmp_path / "none.db"), "pair", "simulate", "--rules", "no-such")
    assert rc == 2 and err.strip() == "--rules: no rulebook 'no-such'"
    rc, _out, err = cli(str(tmp_path / "none.db"), "pair")
    assert rc == 2 and "--round: required" in err
