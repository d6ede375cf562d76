"""Appeals, signatures and corrections, on SQLite and PostgreSQL (real databases)."""

from __future__ import annotations

import io
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from store_helpers import cli, count_entries, make_case, write_json

from referee_app.store.appeals import from_iso
from referee_app.store.service import Actor, Store

CHIEF = Actor("孙裁判长", "desk-1")


def flip_case(round_: int = 1, table: int = 1) -> dict[str, Any]:
    """EW win because N exposed four cards (defenders NS 40 − 40 = 0: EW keep the deal, +3);
    without it EW go up only one level (40) and NS win. West deals hand 2 either way (EW keep
    the deal), so the appeal changes hand 1's outcome alone and hand 2 stands as played."""
    return {
        "event": "bhg-2011",
        "round": round_,
        "table": table,
        "pairs": {"NS": "1", "EW": "2"},
        "first_dealer": "E",
        "hands": [
            {
                "defender_points": 40,
                "infractions": [{"kind": "exposed_card", "seat": "N", "cards": 4, "trick": 7}],
            },
            {"defender_points": 160},
        ],
        "finished": "time",
    }


def png(seed: int = 0) -> bytes:
    from PIL import Image, ImageDraw

    im = Image.new("RGBA", (120, 40), (0, 0, 0, 0))
    ImageDraw.Draw(im).line([(5, 20), (40, 5 + seed % 30), (115, 30)], fill=(20, 30, 120, 255), width=3)
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


SIGS = {k: png(i) for i, k in enumerate(("N", "E", "S", "W", "referee"))}


def record(db: str, tmp_path: Path, case: dict[str, Any]) -> int:
    rc, out, err = cli(db, "record", write_json(tmp_path / "c.json", case))
    assert rc == 0, err
    return int(out)


def ruling_ids(db: str, match_id: int) -> list[int]:
    with Store.open(db) as s:
        return [r["id"] for r in s.rulings_of(match_id)]


def recorded_at(db: str, match_id: int) -> Any:
    with Store.open(db) as s:
        entry = [
            e
            for e in s.log()
            if e["action"] == "match.record" and json.loads(e["payload"])["info"]["match_id"] == match_id
        ][0]
    return from_iso(entry["at"])


def test_late_appeal_is_refused_saying_by_how_much(event_db: str, tmp_path: Path) -> None:
    mid = record(event_db, tmp_path, flip_case())
    rid = ruling_ids(event_db, mid)[0]
    late = (recorded_at(event_db, mid) + timedelta(minutes=17)).isoformat()
    before = count_entries(event_db)
    rc, out, err = cli(
        event_db,
        "appeal",
        "file",
        "--ruling",
        str(rid),
        "--by",
        "NS",
        "--grounds",
        "牌是掉出来的",
        "--receipt",
        "R-1",
        "--filed-at",
        late,
        "--backdate-reason",
        "纸质申诉单补录",
    )
    assert rc == 2 and out == "" and err.count("\n") == 1, err
    assert "filed 7 min after the 10-min window closed" in err
    assert "--accept-late" in err
    assert count_entries(event_db) == before
    # with --ended-at (paper backfill) the window is the one given
    rc, _, err = cli(
        event_db, "appeal", "file", "--ruling", str(rid), "--by", "NS", "--grounds", "g", "--receipt", "R-1",
        "--ended-at", "2026-04-01T15:00:00+08:00", "--filed-at", "2026-04-01T15:12:30+08:00",
        "--backdate-reason", "纸质申诉单补录",
    )  # fmt: skip
    assert rc == 2 and "filed 3 min after the 10-min window closed" in err
    # the chief referee accepts it late: recorded, with the reason
    rc, out, err = cli(
        event_db, "appeal", "file", "--ruling", str(rid), "--by", "NS", "--grounds", "牌是掉出来的",
        "--filed-at", late, "--accept-late", "--reason", "计分公布延迟", "--receipt", "No. 0042",
        "--user", "孙裁判长", "--backdate-reason", "纸质申诉单补录",
    )  # fmt: skip
    assert rc == 0, err
    aid = int(out)
    rc, out, _ = cli(event_db, "appeal", "list", "--json")
    [a] = json.loads(out)
    assert a["id"] == aid and a["state"] == "filed" and a["late_minutes"] == 7
    assert a["late_reason"] == "计分公布延迟" and a["receipt"] == "No. 0042" and a["fee_yuan"] == 200
    rc, out, _ = cli(event_db, "log", lang="zh")
    assert f"申诉 {aid}：南北（第 1 对）" in out and "逾期 7 分钟，裁判长接受，理由：计分公布延迟" in out
    # on time: no question asked
    rc, out, err = cli(
        event_db, "appeal", "file", "--ruling", str(rid), "--by", "EW", "--grounds", "g", "--receipt", "R-1",
        "--filed-at", (recorded_at(event_db, mid) + timedelta(minutes=9)).isoformat(),
        "--backdate-reason", "纸质申诉单补录",
    )  # fmt: skip
    assert rc == 0, err
    assert cli(event_db, "verify")[0] == 0


def test_upheld_appeal_changes_the_result_and_is_in_the_audit_trail(event_db: str, tmp_path: Path) -> None:
    mid = record(event_db, tmp_path, flip_case())
    with Store.open(event_db) as s:
        assert s.current_matches(1)[0]["winner"] == "EW"
    rid = ruling_ids(event_db, mid)[0]
    rc, out, err = cli(
        event_db,
        "appeal",
        "file",
        "--ruling",
        str(rid),
        "--by",
        "NS",
        "--grounds",
        "北家没有亮牌",
        "--receipt",
        "R-1",
    )
    assert rc == 0, err
    aid = int(out)
    assert cli(event_db, "appeal", "review", str(aid))[0] == 0
    rc, _, err = cli(
        event_db, "appeal", "decide", str(aid), "--decision", "upheld", "--reason", "录像显示牌未亮出",
        "--committee", "周委员,吴委员", lang="zh",
    )  # fmt: skip
    assert rc == 0, err
    assert "申诉成立" in err and "退还申诉费" in err and "第 2 版" in err
    with Store.open(event_db) as s:
        [m] = s.current_matches(1)
        assert m["version"] == 2 and m["winner"] == "NS"
        case = json.loads(m["case_json"])
        assert case["hands"][0]["infractions"][0]["void"]["reason"].startswith(f"申诉 #{aid} 成立")
        hist = s.history(1, 1, 1)
        assert [h["version"] for h in hist] == [1, 2] and hist[0]["winner"] == "EW"  # kept as it was
        new_rulings = s.rulings_of(m["id"])
        assert new_rulings[0]["decision"] == "voided"
        a = s.appeal(aid)
        assert a["state"] == "upheld" and a["fee"] == "refunded" and a["committee"] == ["周委员", "吴委员"]
        assert a["new_match_id"] == m["id"] and [st["state"] for st in a["steps"]] == [
            "under_review",
            "upheld",
        ]
    rc, out, _ = cli(event_db, "log", "--round", "1", lang="zh")
    assert f"申诉 {aid}（第 1 轮 第 1 桌）：进入审理" in out
    assert (
        f"申诉 {aid}（第 1 轮 第 1 桌）裁决：申诉成立；理由：录像显示牌未亮出；仲裁委员：周委员、吴委员"
        in out
    )
    assert "胜方 东西 → 南北" in out and f"更正（申诉 {aid} 的裁决）" in out
    rc, out, _ = cli(event_db, "log", "--round", "1")
    assert f"appeal {aid} (round 1 table 1) decided: upheld" in out and "winner EW → NS" in out
    rc, out, err = cli(event_db, "verify")
    assert rc == 0, err
    # decided is final
    rc, _, err = cli(event_db, "appeal", "withdraw", str(aid), "--reason", "x")
    assert rc == 2 and f"appeal {aid} is already upheld" in err and err.count("\n") == 1
    rc, _, err = cli(
        event_db, "appeal", "decide", str(aid), "--decision", "rejected", "--reason", "x", "--committee", "a"
    )
    assert rc == 2 and "already upheld" in err


def test_modified_rejected_and_withdrawn(event_db: str, tmp_path: Path) -> None:
    mid = record(event_db, tmp_path, flip_case())
    rid = ruling_ids(event_db, mid)[0]
    ids = []
    for side in ("NS", "EW"):
        rc, out, err = cli(
            event_db,
            "appeal",
            "file",
            "--ruling",
            str(rid),
            "--by",
            side,
            "--grounds",
            "g",
            "--receipt",
            "R-1",
        )
        assert rc == 0, err
        ids.append(int(out))
    rc, _, err = cli(
        event_db,
        "appeal",
        "file",
        "--ruling",
        str(rid),
        "--by",
        "NS",
        "--grounds",
        "again",
        "--receipt",
        "R-1",
    )
    assert rc == 2 and f"NS already has appeal {ids[0]} open" in err
    rc, _, err = cli(
        event_db,
        "appeal",
        "decide",
        str(ids[1]),
        "--decision",
        "rejected",
        "--reason",
        "判罚正确",
        "--committee",
        "周委员",
    )
    assert rc == 0, err
    with Store.open(event_db) as s:
        assert s.current_matches(1)[0]["version"] == 1  # a rejection changes nothing
        assert s.appeal(ids[1])["fee"] == "kept"
    rc, _, err = cli(
        event_db, "appeal", "decide", str(ids[0]), "--decision", "modified", "--reason", "改为警告",
        "--committee", "周委员，吴委员", "--sanctions", '["warning"]',
    )  # fmt: skip
    assert rc == 0, err
    with Store.open(event_db) as s:
        [m] = s.current_matches(1)
        assert m["version"] == 2 and m["winner"] == "NS"
        r = s.rulings_of(m["id"])[0]
        assert r["decision"] == "overridden" and r["points"] == 0 and "改为警告" in r["reason"]
        assert json.loads(r["ruling_json"])["warning"] is True
        assert s.appeal(ids[0])["fee"] == "refunded" and s.appeal(ids[0])["sanctions"] == ["warning"]
    # an appeal against a ruling of a superseded version is refused, naming the current ones
    rc, _, err = cli(
        event_db, "appeal", "file", "--ruling", str(rid), "--by", "NS", "--grounds", "g", "--receipt", "R-1"
    )
    assert rc == 2 and "since replaced by version 2" in err
    # withdrawing
    new_rid = ruling_ids(event_db, m["id"])[0]
    rc, out, _ = cli(
        event_db,
        "appeal",
        "file",
        "--ruling",
        str(new_rid),
        "--by",
        "EW",
        "--grounds",
        "g",
        "--receipt",
        "R-1",
    )
    rc, _, err = cli(event_db, "appeal", "withdraw", out.strip(), "--reason", "双方和解", lang="zh")
    assert rc == 0, err
    rc, out, _ = cli(event_db, "appeal", "list", lang="zh")
    assert "驳回" in out and "改判" in out and "已撤回" in out
    assert cli(event_db, "verify")[0] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["file", "--ruling", "1", "--by", "XX", "--grounds", "g"], "--by: expected NS or EW, got 'XX'"),
        (["file", "--ruling", "999", "--by", "NS", "--grounds", "g", "--receipt", "R-1"], "--ruling: no ruling 999"),
        (["file", "--ruling", "1", "--by", "NS", "--grounds", "g"], "--receipt: the rulebook fixes a 200 yuan appeal fee; give its receipt number"),
        (["file", "--ruling", "1", "--by", "NS", "--grounds", "g", "--receipt", "  "], "--receipt: the rulebook fixes a 200 yuan appeal fee"),
        (["file", "--ruling", "1", "--by", "NS", "--grounds", "g", "--receipt", "R-1", "--attachment", "no-such-photo.jpg"], "--attachment: cannot read no-such-photo.jpg"),
        (["file", "--ruling", "1", "--by", "NS", "--grounds", " "], "--grounds: an appeal needs its grounds"),
        (["file", "--ruling", "1", "--by", "NS", "--grounds", "g", "--filed-at", "昨天"], "--filed-at: expected a date and time"),
        (["file", "--ruling", "1", "--by", "NS", "--grounds", "g", "--accept-late"], "--accept-late: needs --reason"),
        (["decide", "1", "--decision", "modified", "--reason", "r", "--committee", "a", "--sanctions", "[warn"], "--sanctions: not JSON"),
        (["decide", "1", "--decision", "modified", "--reason", "r", "--committee", "a", "--sanctions", '["nothing"]'], "--sanctions: hands[0].infractions[0].override.sanctions[0]: expected one of"),
        (["decide", "1", "--decision", "modified", "--reason", "r", "--committee", "a"], "--sanctions: a modified ruling needs"),
        (["decide", "1", "--decision", "upheld", "--reason", "r", "--committee", " , "], "--committee: the decision needs"),
        (["decide", "1", "--decision", "rejected", "--reason", "r", "--committee", "a", "--sanctions", "[]"], "--sanctions: only with"),
        (["decide", "7", "--decision", "rejected", "--reason", "r", "--committee", "a"], "no appeal 7"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_changes_nothing(
    event_db: str, tmp_path: Path, args: list[str], message: str
) -> None:
    mid = record(event_db, tmp_path, flip_case())
    assert ruling_ids(event_db, mid) == [1]
    assert (
        cli(event_db, "appeal", "file", "--ruling", "1", "--by", "EW", "--grounds", "g", "--receipt", "R-1")[
            0
        ]
        == 0
    )
    before = count_entries(event_db)
    rc, out, err = cli(event_db, "appeal", *args)
    assert rc == 2 and out == "" and err.count("\n") == 1, err
    assert message in err, err
    assert count_entries(event_db) == before


def test_signed_match_is_locked_and_a_correction_keeps_the_signed_version(
    event_db: str, tmp_path: Path
) -> None:
    record(event_db, tmp_path, make_case(table=2))
    with Store.open(event_db) as s:
        for bad, msg in (
            ({**SIGS, "N": b"GIF89a" + b"x" * 40}, "signatures.N: not a PNG image"),
            ({k: v for k, v in SIGS.items() if k != "referee"}, "signatures.referee: missing"),
            ({**SIGS, "X": SIGS["N"]}, "signatures.X: unknown signer"),
        ):
            with pytest.raises(Exception, match=msg):
                s.sign_match(1, 1, 2, 1, bad, CHIEF)
        with pytest.raises(Exception, match="you edited version 3"):
            s.sign_match(1, 1, 2, 3, SIGS, CHIEF)
        assert s.signatures_of(1, 1, 2) == {}
        assert s.sign_match(1, 1, 2, 1, SIGS, CHIEF) == 1
        assert s.signatures_of(1, 1, 2) == SIGS
    before = count_entries(event_db)
    changed = make_case(table=2, defender_points=40)
    f = write_json(tmp_path / "c2.json", changed)
    rc, out, err = cli(event_db, "record", f)
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert err.strip() == (
        "round 1 table 2 is signed (version 1); a change needs a chief referee's correction with a reason"
    )
    rc, _, err = cli(event_db, "void", "--round", "1", "--table", "2", "--reason", "x")
    assert rc == 2 and "is signed (version 1)" in err
    assert count_entries(event_db) == before
    rc, _, err = cli(event_db, "correct", f, "--reason", " ")
    assert rc == 2 and "--reason: a correction needs a written reason" in err
    rc, out, err = cli(event_db, "correct", f, "--reason", "第1副得分抄错", "--user", "孙裁判长")
    assert rc == 0, err
    with Store.open(event_db) as s:
        hist = s.history(1, 1, 2)
        assert [h["version"] for h in hist] == [1, 2]
        assert s.signatures_of(1, 1, 2, version=1) == SIGS  # the signed version stays, signed
        assert s.signatures_of(1, 1, 2) == {}  # the new one must be signed again
        assert json.loads(hist[0]["case_json"])["hands"][0]["defender_points"] == 60
        # the new version is not locked until it is signed again
        assert s.sign_match(1, 1, 2, 2, SIGS, CHIEF) == 2
    rc, out, _ = cli(event_db, "log", "--table", "2", lang="zh")
    assert "签字 第 1 轮 第 1 桌" not in out and "签字 第 1 轮 第 2 桌 第 1 版" in out
    assert "更正（裁判长更正）：记录 第 1 轮 第 2 桌 第 2 版" in out
    assert "理由：第1副得分抄错，取代已签字的版本，需重新签字" in out
    rc, out, _ = cli(event_db, "log", "--table", "2")
    assert "correction (chief referee's correction): recorded round 1 table 2 version 2" in out
    assert cli(event_db, "verify")[0] == 0


def test_appeal_decision_on_a_signed_round_is_a_correction(event_db: str, tmp_path: Path) -> None:
    mid = record(event_db, tmp_path, flip_case())
    with Store.open(event_db) as s:
        s.sign_match(1, 1, 1, 1, SIGS, CHIEF)
        aid = s.file_appeal(
            1, ruling_id=ruling_ids(event_db, mid)[0], by="NS", grounds="g", actor=CHIEF, receipt="R-1"
        )
        out = s.decide_appeal(aid, decision="upheld", reason="成立", committee=["周委员"], actor=CHIEF)
        assert out["version"] == 2 and out["winner_before"] == "EW" and out["winner_after"] == "NS"
        assert s.signatures_of(1, 1, 1, version=1) == SIGS and s.signatures_of(1, 1, 1) == {}
    rc, out, _ = cli(event_db, "log", lang="en")
    assert f"correction (decision on appeal {aid})" in out and "replaces a signed version" in out
    assert cli(event_db, "verify")[0] == 0


def test_sign_from_the_command_line(event_db: str, tmp_path: Path) -> None:
    record(event_db, tmp_path, make_case())
    files = []
    for k, data in SIGS.items():
        p = tmp_path / f"{k}.png"
        p.write_bytes(data)
        files += [f"--{k}", str(p)]
    rc, _, err = cli(event_db, "sign", "--round", "1", "--table", "1", "--expect-version", "1", *files)
    assert rc == 0 and "version 1 signed and locked" in err
    rc, _, err = cli(event_db, "sign", "--round", "1", "--table", "1", "--expect-version", "1", *files)
    assert rc == 2 and "already signed" in err


def test_an_open_round_cannot_be_signed(event_db: str, tmp_path: Path) -> None:
    case = make_case()
    case["finished"] = "open"
    record(event_db, tmp_path, case)
    with Store.open(event_db) as s, pytest.raises(Exception, match="has no result yet"):
        s.sign_match(1, 1, 1, 1, SIGS, CHIEF)


def test_a_version_3_database_gets_appeals_and_signatures(db: str, tmp_path: Path) -> None:
    from referee_app.core.rulebook import load_rulebook
    from referee_app.store.db import SCHEMA_VERSION, make_engine, migrate, resolve_target
    from referee_app.store.pairs_csv import parse_pairs

    url, _ = resolve_target(db)
    engine = make_engine(url)
    migrate(engine, create=True, user="old", station="s0", where=db, target=3)
    old = Store(engine)
    ev = old.create_event(name="旧赛事", rulebook=load_rulebook("bhg-2011"), date=None, actor=CHIEF)
    old.import_pairs(
        ev.id, parse_pairs("number,player1,player2\n1,甲一,乙一\n2,丙二,丁二\n"), actor=CHIEF, source="p.csv"
    )
    rec = old.record(ev.id, flip_case(), actor=CHIEF, lang="zh")
    old.close()
    assert cli(db, "db", "upgrade")[0] == 0  # a reader (log) does not upgrade
    rc, out, err = cli(db, "log")
    assert rc == 0 and f"upgraded the database schema from version 3 to {SCHEMA_VERSION}" in out
    with Store.open(db) as s:
        rid = s.rulings_of(rec.match_id)[0]["id"]
        aid = s.file_appeal(ev.id, ruling_id=rid, by="NS", grounds="g", actor=CHIEF, receipt="R-1")
        s.decide_appeal(aid, decision="upheld", reason="r", committee=["周委员"], actor=CHIEF)
        s.sign_match(ev.id, 1, 1, 2, SIGS, CHIEF)
        assert s.current_matches(ev.id)[0]["winner"] == "NS"
    assert cli(db, "verify")[0] == 0
