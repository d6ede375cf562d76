"""The event store's behaviour, run on SQLite and on PostgreSQL (see conftest ``db``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from store_helpers import PAIRS_CSV, cli, count_entries, drop_guards, make_case, refused, sql, write_json

from referee_app.core.engine import decide, is_language_free, word
from referee_app.core.rulebook import rulebook_from_text
from referee_app.store.common import strip_case
from referee_app.store.service import Store

RULES = Path(__file__).resolve().parents[2] / "rules"


def test_event_create_pins_the_rulebook_text(db: str, tmp_path: Path) -> None:
    """A later edit of the rulebook file never changes a ruling of an existing event."""
    book = tmp_path / "bhg-2011.toml"
    original = (RULES / "bhg-2011.toml").read_text(encoding="utf-8")
    book.write_text(original, encoding="utf-8")
    rc, out, err = cli(db, "event", "create", "--rules", str(book), "--name", "春季赛")
    assert (rc, err) == (0, "")
    event_id = int(out)
    csv = tmp_path / "p.csv"
    csv.write_text(PAIRS_CSV, encoding="utf-8")
    assert cli(db, "pairs", "import", str(csv))[0] == 0

    edited = original.replace(
        'sanction = { points_per_card = 10 }\nclause = { ref = "二、4"',
        'sanction = { points_per_card = 30 }\nclause = { ref = "二、4"',
        1,
    )
    assert edited != original
    book.write_text(edited, encoding="utf-8")

    rc, out, err = cli(db, "record", write_json(tmp_path / "c.json", make_case()))
    assert rc == 0, err
    with Store.open(db) as store:
        rid, sha, text = store.rulebook_text(event_id)
        assert text == original and rid == "bhg-2011"
        import hashlib

        assert sha == hashlib.sha256(original.encode()).hexdigest()
        (ruling,) = store.rulings_of(int(out))
    assert ruling["points"] == 10  # the pinned text, not the edited file's 30
    assert ruling["decision"] == "confirmed"

    rc, out, _ = cli(db, "event", "list")
    assert rc == 0 and "春季赛" in out and sha[:12] in out


def test_pairs_import_utf8_and_gb18030(db: str, tmp_path: Path) -> None:
    assert cli(db, "event", "create", "--rules", "bhg-2011", "--name", "E")[0] == 0
    f = tmp_path / "gb.csv"
    f.write_bytes("number,player1,player2\n11,张三,李四\n12,王五,赵六\n".encode("gb18030"))
    rc, _, err = cli(db, "pairs", "import", str(f))
    assert rc == 0, err
    g = tmp_path / "u.csv"
    g.write_bytes("\ufeffplayer1,player2,number,unit\n钱七,孙八,13,北城队\n".encode())
    assert cli(db, "pairs", "import", str(g))[0] == 0
    rc, out, _ = cli(db, "pairs", "list")
    assert out.splitlines() == ["11\t张三\t李四", "12\t王五\t赵六", "13\t钱七\t孙八\t北城队"]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("number,player1\n1,张三\n", "line 1: missing column 'player2'"),
        (
            "number,player1,player2\n1,张三,李四\n2,王五,赵六\n1,钱七,孙八\n",
            "line 4: pair number 1 already on line 2",
        ),
        ("number,player1,player2\n1,张三,李四\n2,,赵六\n", "line 3: player1 is empty"),
        ("number,player1,player2\n1,张三,李四\n2,王五\n", "line 3: expected 3 fields, got 2"),
        ("number,player1,player2\n1,张三,李四\n", "line 2: pair number 1 is already in event"),
    ],
)
def test_pairs_import_refuses_a_bad_file_whole(
    event_db: str, tmp_path: Path, content: str, expected: str
) -> None:
    before = cli(event_db, "pairs", "list")[1]
    entries = count_entries(event_db)
    f = tmp_path / "bad.csv"
    f.write_text(content, encoding="utf-8")
    rc, out, err = cli(event_db, "pairs", "import", str(f))
    assert rc == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert str(f) in err and expected in err
    assert cli(event_db, "pairs", "list")[1] == before
    assert count_entries(event_db) == entries


def test_record_prints_match_id_and_export_rejudges(event_db: str, tmp_path: Path) -> None:
    cases = [
        make_case(1, 1, "1", "2"),
        make_case(1, 2, "3", "4", defender_points=0, exposed=2),
        make_case(2, 1, "1", "3", override={"sanctions": [{"points": 20}], "reason": "故意亮牌"}),
        make_case(2, 2, "2", "4", defender_points=120),
    ]
    ids = []
    for i, c in enumerate(cases):
        rc, out, err = cli(
            event_db, "record", write_json(tmp_path / f"c{i}.json", c), lang="zh" if i % 2 else "en"
        )
        assert (rc, err) == (0, ""), err
        ids.append(int(out.strip()))
    assert len(set(ids)) == 4

    rc, out, err = cli(event_db, "export")
    assert rc == 0, err
    lines = [json.loads(x) for x in out.splitlines()]
    assert [(x["round"], x["table"]) for x in lines] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    with Store.open(event_db) as store:
        _, _, text = store.rulebook_text(1)
    rb = rulebook_from_text(text, origin="test")
    for line, case in zip(lines, cases, strict=True):
        # the case as recorded, with who dealt each later hand kept as a fact
        dealers = [h["dealer"] for h in line["decision"]["hands"]]
        assert line["case"] == {
            **case,
            "hands": [h if i == 0 else {**h, "dealt_by": dealers[i]} for i, h in enumerate(case["hands"])],
        }
        assert line["pairs"] == case["pairs"]
        # the store keeps the decision in no language, whichever language recorded it
        assert decide(strip_case(line["case"]), rulebook=rb).to_json() == line["decision"]
        assert is_language_free(line["decision"]) and '"text":' not in json.dumps(line["decision"])
        # and the command line judge agrees, worded in its language (the bundled file is the
        # pinned one here)
        f = write_json(tmp_path / "rejudge.json", strip_case(line["case"]))
        for lang in ("zh", "en"):
            rc, out, err = cli(None, "judge", f, lang=lang)
            assert rc == 0, err
            assert json.loads(out) == word(line["decision"], lang, rb)

    with Store.open(event_db) as store:
        (r,) = store.rulings_of(ids[2])
    assert r["decision"] == "overridden" and r["reason"] == "故意亮牌" and r["points"] == 20
    assert json.loads(r["proposal_json"])["points"] == 10  # the engine's proposal is kept


def test_record_again_supersedes_and_keeps_both(event_db: str, tmp_path: Path) -> None:
    first = cli(event_db, "record", write_json(tmp_path / "a.json", make_case()))
    assert first[0] == 0
    second = cli(event_db, "record", write_json(tmp_path / "b.json", make_case(exposed=2)))
    assert second[0] == 0
    with Store.open(event_db) as store:
        hist = store.history(1, 1, 1)
        assert [h["version"] for h in hist] == [1, 2]
        assert hist[1]["supersedes_id"] == hist[0]["id"] == int(first[1])
        assert [r["points"] for r in store.rulings_of(hist[0]["id"])] == [10]
        assert [r["points"] for r in store.rulings_of(hist[1]["id"])] == [20]
    lines = cli(event_db, "export")[1].splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["version"] == 2
    rc, out, _ = cli(event_db, "log", "--round", "1", "--table", "1")
    assert "version 1:" in out and "version 2 (supersedes version 1)" in out


def test_second_station_on_a_stale_version_is_refused(event_db: str, tmp_path: Path) -> None:
    f = write_json(tmp_path / "a.json", make_case())
    assert cli(event_db, "record", f, "--expect-version", "0", "--station", "table-A")[0] == 0
    # table-B loaded version 1 as well; table-A records version 2 first
    assert (
        cli(event_db, "record", f, "--expect-version", "1", "--station", "table-A", "--user", "李四")[0] == 0
    )
    entries = count_entries(event_db)
    rc, out, err = cli(event_db, "record", f, "--expect-version", "1", "--station", "table-B")
    assert rc == 2 and out == ""
    assert err.count("\n") == 1
    assert "round 1 table 1 was changed by 李四@table-A" in err
    assert "now version 2" in err and "you edited version 1" in err and "Nothing saved" in err
    assert count_entries(event_db) == entries


def test_record_bad_input_changes_nothing(event_db: str, tmp_path: Path) -> None:
    assert cli(event_db, "record", write_json(tmp_path / "ok.json", make_case(1, 1, "1", "2")))[0] == 0
    entries = count_entries(event_db)
    bad_seat = make_case(1, 2, "3", "4")
    bad_seat["hands"][0]["infractions"][0]["seat"] = "X"
    wrong_event = make_case(1, 2, "3", "4")
    wrong_event["event"] = "gansu-2018"
    cases = {
        "unknown": (make_case(1, 2, "3", "99"), "pairs.EW: no pair 99 in event 1"),
        "busy": (make_case(1, 2, "1", "4"), "pairs.NS: pair 1 already plays this round at table 1"),
        "seat": (bad_seat, "hands[0].infractions[0].seat: expected one of"),
        "event": (wrong_event, "event: this event runs under rulebook 'bhg-2011'"),
        "round": ({**make_case(), "round": 0}, "round: expected a whole number ≥ 1, got 0"),
        "same": (make_case(1, 2, "3", "3"), "pairs: NS and EW are the same pair 3"),
    }
    for name, (case, expected) in cases.items():
        f = write_json(tmp_path / f"{name}.json", case)
        rc, out, err = cli(event_db, "record", f)
        assert rc == 2, name
        assert out == "" and err.count("\n") == 1 and "Traceback" not in err, (name, err)
        assert f in err and expected in err, (name, err)
    notjson = tmp_path / "nj.json"
    notjson.write_text("{", encoding="utf-8")
    rc, _, err = cli(event_db, "record", str(notjson))
    assert rc == 2 and "not JSON" in err
    assert count_entries(event_db) == entries
    assert len(cli(event_db, "export")[1].splitlines()) == 1


def test_void_and_record_again(event_db: str, tmp_path: Path) -> None:
    assert cli(event_db, "record", write_json(tmp_path / "a.json", make_case()))[0] == 0
    rc, _, err = cli(event_db, "void", "--round", "1", "--table", "1", "--reason", "记分表有误")
    assert rc == 0, err
    assert cli(event_db, "export")[1] == ""
    rc, _, err = cli(event_db, "void", "--round", "1", "--table", "1", "--reason", "again")
    assert rc == 2 and "already void" in err
    assert cli(event_db, "record", write_json(tmp_path / "b.json", make_case()))[0] == 0
    (line,) = cli(event_db, "export")[1].splitlines()
    assert json.loads(line)["version"] == 2
    rc, out, _ = cli(event_db, "log", lang="zh")
    assert "作废 第 1 轮 第 1 桌 第 1 版，理由：记分表有误" in out
    assert cli(event_db, "verify")[0] == 0


def test_token_makes_a_retried_write_idempotent(event_db: str, tmp_path: Path) -> None:
    f = write_json(tmp_path / "a.json", make_case())
    a = cli(event_db, "record", f, "--token", "tok-1")
    b = cli(event_db, "record", f, "--token", "tok-1")
    assert a[0] == b[0] == 0 and a[1] == b[1]
    with Store.open(event_db) as store:
        assert len(store.history(1, 1, 1)) == 1


def test_log_is_readable_in_both_languages(event_db: str, tmp_path: Path) -> None:
    case = make_case(override={"sanctions": [{"points": 30}], "reason": "多次警告无效"})
    assert cli(event_db, "record", write_json(tmp_path / "a.json", case))[0] == 0
    assert cli(event_db, "record", write_json(tmp_path / "b.json", make_case(2, 3, "5", "6")))[0] == 0
    rc, zh, _ = cli(event_db, "log", lang="zh")
    assert rc == 0
    assert "张三@table-1" in zh
    assert "创建赛事 1「测试杯」，规则 bhg-2011" in zh
    assert "导入 8 对" in zh
    assert "记录 第 1 轮 第 1 桌 第 1 版：南北 1 对 东西 2" in zh
    assert "改判，理由：多次警告无效" in zh
    # the offences in words, never their ids (exposed_card) or seat letters
    assert re.search(r"\b[a-z]+_[a-z_]+\b", zh) is None, zh
    rc, en, _ = cli(event_db, "log", "--round", "2")
    assert rc == 0
    assert (
        "recorded round 2 table 3 version 1: NS 5 v EW 6, 2 hands, 1 ruling (0 overridden, 0 voided), winner "
        in en.splitlines()[0]
    )
    assert "round 1" not in en
    assert "hand 1 Exposed card (North): 10 points (North-South); confirmed" in en


def test_verify_names_the_entry_of_a_ruling_changed_in_sql(event_db: str, tmp_path: Path) -> None:
    for t in (1, 2):
        case = make_case(1, t, str(2 * t - 1), str(2 * t))
        assert cli(event_db, "record", write_json(tmp_path / f"{t}.json", case))[0] == 0
    rc, out, err = cli(event_db, "verify")
    assert rc == 0 and "audit chain intact: 5 entries" in out
    (row,) = sql(
        event_db,
        "SELECT r.id, r.entry_seq FROM rulings r JOIN matches m ON m.id = r.match_id WHERE m.table_no = 2",
    )
    # the database itself refuses a change in place …
    assert "rulings is append-only" in refused(
        event_db, "UPDATE rulings SET points = 40 WHERE id = :id", id=row.id
    )
    assert "rulings is append-only" in refused(event_db, "DELETE FROM rulings")
    assert cli(event_db, "verify")[0] == 0
    # … and when someone drops its guard first, verify names the entry
    drop_guards(event_db, "rulings")
    sql(event_db, "UPDATE rulings SET points = 40 WHERE id = :id", id=row.id)
    rc, out, err = cli(event_db, "verify")
    assert rc == 1 and out == "" and err.count("\n") == 1
    assert f"entry #{row.entry_seq} (match.record round 1 table 2," in err
    assert f"rulings id {row.id} changed: points is 40, the entry says 10" in err


def test_verify_catches_an_edited_or_deleted_entry(event_db: str, tmp_path: Path) -> None:
    assert cli(event_db, "record", write_json(tmp_path / "a.json", make_case()))[0] == 0
    drop_guards(event_db, "audit_log", "players")
    sql(event_db, "UPDATE audit_log SET station = 'elsewhere' WHERE seq = 3")
    rc, _, err = cli(event_db, "verify")
    assert rc == 1 and "entry #3 (pairs.import" in err and "hash does not match" in err
    sql(event_db, "UPDATE audit_log SET station = 'table-1' WHERE seq = 3")
    assert cli(event_db, "verify")[0] == 0
    sql(event_db, "DELETE FROM players WHERE id = 3")
    rc, _, err = cli(event_db, "verify")
    assert rc == 1 and "entry #3" in err and "players id 3 is missing" in err


def test_a_rewritten_chain_is_caught_by_a_noted_head(event_db: str, tmp_path: Path) -> None:
    """Recomputing every hash after a change defeats the chain alone; a head hash noted
    outside the database (printed by verify, written on the signed scoresheet) does not."""
    from referee_app.store import audit

    for t in (1, 2):
        case = make_case(1, t, str(2 * t - 1), str(2 * t))
        assert cli(event_db, "record", write_json(tmp_path / f"{t}.json", case))[0] == 0
    rc, out, _ = cli(event_db, "verify")
    head = out.split()[-1]
    assert rc == 0 and len(head) == 64
    assert cli(event_db, "verify", "--head", head[:16])[0] == 0

    drop_guards(event_db, "rulings", "audit_log")
    (rid, seq) = sql(event_db, "SELECT id, entry_seq FROM rulings ORDER BY id")[0]
    sql(event_db, "UPDATE rulings SET points = 0 WHERE id = :id", id=rid)
    entries = [dict(r._mapping) for r in sql(event_db, "SELECT * FROM audit_log ORDER BY seq")]
    prev = entries[seq - 2]["hash"]
    for e in entries[seq - 1 :]:
        if e["seq"] == seq:
            payload = json.loads(audit.payload_text(e["payload"]))
            for r in payload["rows"]["rulings"]:
                if r["id"] == rid:
                    r["points"] = 0
            e["payload"] = audit.canonical(payload)
        e["prev_hash"] = prev
        e["hash"] = prev = audit.entry_hash(prev, e, audit.payload_text(e["payload"]))
        sql(
            event_db,
            "UPDATE audit_log SET payload = :p, prev_hash = :ph, hash = :h WHERE seq = :s",
            p=e["payload"],
            ph=e["prev_hash"],
            h=e["hash"],
            s=e["seq"],
        )
    assert cli(event_db, "verify")[0] == 0  # self-consistent again
    rc, out, err = cli(event_db, "verify", "--head", head)
    assert rc == 1 and f"no entry has the noted hash {head[:16]}" in err
    rc, _, err = cli(event_db, "verify", "--head", "abc")
    assert rc == 1 and "at least 12 hex digits" in err


def test_register_is_cheap() -> None:
    import subprocess
    import sys

    code = (
        "import sys, argparse\n"
        "from referee_app.cli import store_commands as commands\n"
        "p = argparse.ArgumentParser(); commands.register(p.add_subparsers())\n"
        "bad = [m for m in sys.modules if m.startswith(('sqlalchemy', 'psycopg'))]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[2])


def test_options_may_follow_the_command(event_db: str, tmp_path: Path) -> None:
    f = write_json(tmp_path / "a.json", make_case())
    rc, out, err = cli(None, "record", f, "--db", event_db, "--lang", "zh")
    assert rc == 0, err
    rc, out, _ = cli(None, "log", "--db", event_db, "--lang", "zh")
    assert rc == 0 and "记录 第 1 轮 第 1 桌" in out


def test_a_pinned_rulebook_that_no_longer_loads_is_one_line(event_db: str, tmp_path: Path) -> None:
    drop_guards(event_db, "events")
    sql(event_db, "UPDATE events SET rulebook_text = 'id = 1'")
    rc, out, err = cli(event_db, "record", write_json(tmp_path / "a.json", make_case()))
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert "event 1: its pinned rulebook bhg-2011" in err and "does not load" in err
    rc, _, err = cli(event_db, "verify")
    assert rc == 1 and "entry #2 (event.create" in err and "rulebook_text" in err


def test_before_play_forfeit_and_a_voided_ruling_are_kept(event_db: str, tmp_path: Path) -> None:
    late = make_case(1, 1, "1", "2")
    late["before_play"] = [{"kind": "late_arrival", "side": "EW", "minutes": 12}]
    late["hands"] = []
    rc, out, err = cli(event_db, "record", write_json(tmp_path / "late.json", late))
    assert rc == 0, err
    with Store.open(event_db) as store:
        (r,) = store.rulings_of(int(out))
    assert (r["kind"], r["hand_id"], r["decision"], r["against"]) == ("late_arrival", None, "confirmed", "EW")
    assert r["infraction_id"] is not None
    voided = make_case(1, 2, "3", "4")
    voided["hands"][0]["infractions"][0]["void"] = {"reason": "裁判看错"}
    rc, out, err = cli(event_db, "record", write_json(tmp_path / "void.json", voided))
    assert rc == 0, err
    with Store.open(event_db) as store:
        (r,) = store.rulings_of(int(out))
    assert (r["decision"], r["reason"]) == ("voided", "裁判看错")
    rc, log, _ = cli(event_db, "log", "--round", "1", lang="zh")
    assert "开赛前 迟到：判本轮弃权（东西方）；确认" in log  # no 「罚 0 分」 for a forfeit
    assert "东西 判本轮弃权" in log
    assert "撤销，理由：裁判看错" in log
    rc, log, _ = cli(event_db, "log", "--round", "1")
    assert "before play Late arrival: round forfeited (East-West); confirmed" in log
    assert cli(event_db, "verify")[0] == 0


def test_each_stored_ruling_links_the_infraction_it_answers(event_db: str, tmp_path: Path) -> None:
    """BHG 二、5: three wrong plays typed 9, 2, 5 — the escalated ruling (the 3rd in play) is
    stored against the infraction of trick 9, the first typed."""
    c = make_case(1, 1, "1", "2")
    c["hands"][0]["infractions"] = [{"kind": "wrong_play", "seat": "N", "trick": t} for t in (9, 2, 5)]
    rc, out, err = cli(event_db, "record", write_json(tmp_path / "c.json", c))
    assert rc == 0, err
    with Store.open(event_db) as store:
        found = store.rulings_of(int(out))
    tricks = {}
    for r in found:
        (inf,) = sql(event_db, "SELECT input_json FROM infractions WHERE id = :i", i=r["infraction_id"])
        tricks[json.loads(inf[0])["trick"]] = r
    assert sorted(tricks) == [2, 5, 9]
    assert tricks[9]["hand_lost"] and not tricks[2]["hand_lost"] and tricks[5]["points"] == 10


def test_current_results_give_each_result_and_a_decision_only_where_it_has_rulings(
    event_db: str, tmp_path: Path
) -> None:
    """What the desk reads (issue 11): each current match's result as the database takes it
    out of the stored decision, the whole decision only for a match with rulings, the
    rounds before ``before_round``; a voided or superseded version is not read."""
    plain = make_case(1, 1, "1", "2")
    for hand in plain["hands"]:
        hand["infractions"] = []
    open_ = {**make_case(1, 2, "3", "4"), "finished": "open"}
    for hand in open_["hands"]:
        hand["infractions"] = []
    cases = [
        plain,
        make_case(1, 3, "5", "6"),  # an exposed card: a ruling
        open_,  # no result yet
        make_case(1, 4, "7", "8", defender_points=120),
        make_case(1, 4, "7", "8", defender_points=0),  # supersedes the one above
        make_case(2, 1, "1", "3"),
        make_case(2, 2, "2", "4"),  # voided below
    ]
    for i, case in enumerate(cases):
        assert cli(event_db, "record", write_json(tmp_path / f"c{i}.json", case))[0] == 0
    assert cli(event_db, "void", "--round", "2", "--table", "2", "--reason", "记错桌")[0] == 0
    with Store.open(event_db) as store:
        stored = {
            (m["round_no"], m["table_no"]): json.loads(m["decision_json"]) for m in store.current_matches(1)
        }
        every = store.current_results(1)
        before_2 = store.current_results(1, before_round=2)
        first, second = (json.loads(v["decision_json"])["result"] for v in store.history(1, 1, 4))
    assert [(m["round_no"], m["table_no"], m["ns_number"], m["ew_number"]) for m in every] == [
        (1, 1, "1", "2"),
        (1, 2, "3", "4"),
        (1, 3, "5", "6"),
        (1, 4, "7", "8"),
        (2, 1, "1", "3"),
    ]
    assert before_2 == every[:4]
    for m in every:
        decision = stored[m["round_no"], m["table_no"]]
        assert m["result"] == decision["result"]
        has_rulings = bool(decision["before_play"]) or any(h["rulings"] for h in decision["hands"])
        assert m["decision"] == (decision if has_rulings else None)
    assert every[1]["result"] is None  # the open match
    assert every[0]["result"]["winner"] == stored[1, 1]["result"]["winner"] is not None
    assert [m["decision"] is not None for m in every] == [False, False, True, True, True]
    assert every[3]["result"] == second != first  # the second version of table 4


def _published_round_one(target: str, tmp_path: Path) -> dict:
    """On ``target``: an event, round 1 drawn with seed 77 and published, then corrected
    (seed 78, with its reason); round 1 as ``app.pairing.round_pairing`` reads it."""
    from referee_app.app.pairing import round_pairing

    assert cli(target, "event", "create", "--rules", "bhg-2011", "--name", "测试杯")[0] == 0
    csv = tmp_path / "pairs.csv"
    csv.write_text(PAIRS_CSV, encoding="utf-8")
    assert cli(target, "pairs", "import", str(csv))[0] == 0
    rc, out, err = cli(target, "pair", "--round", "1", "--seed", "77", "--json")
    assert rc == 0, err
    previewed = json.loads(out)
    rc, out, err = cli(target, "pair", "--round", "1", "--publish", "--yes", "--json")
    assert rc == 0 and json.loads(out) == previewed, err
    rc, _, err = cli(target, "pair", "--round", "1", "--seed", "78", "--publish", "--yes", "--reason", "重抽")
    assert rc == 0 and "version 2" in err, err
    with Store.open(target) as store:
        rp = round_pairing(store, 1, 1)
        first = store.desk_records(1, "pairing", 1)[0]["body"]
        kept = [r["body"] for r in store.desk_records(1, "proposal", 1)]
    assert [tuple(t) for t in first["tables"]] == [(t["table"], t["NS"], t["EW"]) for t in previewed]
    return {
        "status": rp.status,
        "version": rp.version,
        "method": rp.pairing.method,
        "seed": rp.pairing.seed,
        "tables": rp.tables(),
        "bye": rp.pairing.bye,
        "body": rp.record["body"] if rp.record else None,
        "first": first,
        "kept": kept,
        "players": rp.players(),
    }


def test_a_published_round_reads_the_same_on_postgresql_as_on_sqlite(pg_db: str, tmp_path: Path) -> None:
    """The same desk acts on each store: round 1's pairing read back (the latest published
    version, its seed, tables and reason; the first version and the kept proposals) is equal."""
    (tmp_path / "lite").mkdir()
    (tmp_path / "pg").mkdir()
    on_sqlite = _published_round_one(str(tmp_path / "lite" / "event.db"), tmp_path / "lite")
    on_postgresql = _published_round_one(pg_db, tmp_path / "pg")
    assert on_postgresql == on_sqlite
    assert (on_sqlite["status"], on_sqlite["version"], on_sqlite["seed"]) == ("published", 2, 78)
    assert on_sqlite["body"]["reason"] == "重抽" and on_sqlite["first"]["seed"] == 77
    assert [k["seed"] for k in on_sqlite["kept"]] == [77, 78] and len(on_sqlite["tables"]) == 4


def test_the_draw_previewed_is_the_draw_published_on_each_store(event_db: str) -> None:
    """An unforeseeable draw kept in the store (SQLite or PostgreSQL) is shown again and
    published as shown, its seed with it."""
    looks = [cli(event_db, "pair", "--round", "1", "--json") for _ in range(2)]
    assert looks[0] == looks[1] and looks[0][0] == 0, looks[0][2]
    seed = int(re.search(r"round 1: lot, seed (\d+) \(proposal", looks[0][2]).group(1))
    rc, out, err = cli(event_db, "pair", "--round", "1", "--publish", "--yes", "--json")
    assert rc == 0 and out == looks[0][1], err
    with Store.open(event_db) as store:
        (rec,) = store.desk_records(1, "pairing", 1)
    assert (rec["body"]["seed"], rec["body"]["proposal"]) == (seed, 1)
    assert [{"table": t, "NS": ns, "EW": ew} for t, ns, ew in rec["body"]["tables"]] == json.loads(out)
