"""Issue 12: forms printed from the event record — ruling slips after an appeal, override
or escalation; one scoresheet builder for the window and the command line; a digest and
QR that do not depend on the language; the record's version, signatures' time, chief
referee; a QR a third party checks against the store (``verify-paper``)."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
from pathlib import Path

import pytest

from .conftest import requires_poppler
from .helpers import CASE, pdftotext, run_cli, signature_png

SIGS = {k: signature_png(i) for i, k in enumerate(("N", "E", "S", "W", "referee"))}


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _case(table: int = 3) -> dict:
    return {
        "event": "bhg-2011",
        "round": 1,
        "table": table,
        "pairs": {"NS": "1", "EW": "2"} if table == 3 else {"NS": "3", "EW": "4"},
        "first_dealer": "E",
        "before_play": [{"kind": "late_arrival", "side": "EW", "minutes": 4}],
        "hands": [
            {
                "defender_points": 85,
                "infractions": [
                    {"kind": "exposed_card", "seat": "N", "cards": 1, "trick": 7},
                    {"kind": "wrong_play", "seat": "W", "cards": 1, "trick": 2},
                    {"kind": "wrong_play", "seat": "W", "cards": 1, "trick": 5},
                    {"kind": "wrong_play", "seat": "W", "cards": 1, "trick": 9},
                ],
            },
            {"defender_points": 30},
        ],
        "finished": "time",
    }


@pytest.fixture(scope="module")
def hall_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Round 1: table 3 signed, its exposed-card ruling appealed and modified to a warning
    (version 2, signed again); table 4 recorded. The chief referee has a PIN and acted."""
    from referee_app.core.rulebook import load_rulebook
    from referee_app.store.pairs_csv import parse_pairs
    from referee_app.store.service import Actor, Store

    db = tmp_path_factory.mktemp("hall") / "event.db"
    desk = Actor("钱裁判长", "desk")
    referee = Actor("赵裁判", "table-3")
    with Store.open(str(db), create=True, actor=desk) as s:
        ev = s.create_event(name="测试杯", rulebook=load_rulebook("bhg-2011"), date="2026-04-01", actor=desk)
        s.import_pairs(
            ev.id,
            parse_pairs(
                "number,player1,player2,unit\n1,甲一,乙一,东队\n2,丙二,丁二,西队\n3,戊三,己三,\n4,庚四,辛四,\n"
            ),
            actor=desk,
            source="p.csv",
        )
        rec = s.record(ev.id, _case(), actor=referee, lang="zh")
        s.sign_match(ev.id, 1, 3, 1, SIGS, referee)
        exposed = next(r["id"] for r in s.rulings_of(rec.match_id) if r["kind"] == "exposed_card")
        aid = s.file_appeal(ev.id, ruling_id=exposed, by="NS", grounds="牌系掉落", actor=desk, receipt="R-1")
        s.review_appeal(aid, actor=desk)
        s.decide_appeal(
            aid,
            decision="modified",
            reason="录像显示系无意掉落，改为警告",
            committee=["周委员", "吴委员"],
            sanctions=["warning"],
            actor=desk,
        )
        s.sign_match(ev.id, 1, 3, 2, SIGS, referee)
        s.record(ev.id, _case(4), actor=referee, lang="zh")
        s.set_pin(ev.id, "chief_referee", "246810", actor=desk)
        chief = s.login(ev.id, "chief_referee", "246810", actor=desk)
        s.void(ev.id, round_no=1, table_no=4, reason="桌号记错", actor=chief)
        s.record(ev.id, _case(4), actor=chief, lang="zh")
    return db


def _rulings(db: Path) -> dict[str, dict]:
    """The stored rulings of round 1 table 3 by (version, kind, position)."""
    from referee_app.store.service import Store

    with Store.open(str(db)) as s:
        ev = s.pick_event(None)
        out = {}
        for h in s.history(ev.id, 1, 3):
            for r in s.rulings_of(h["id"]):
                full = s.ruling(r["id"])
                out[f"v{h['version']}-{r['kind']}-{full['position']}"] = full
        return out


def _print(db: Path, *args: str, lang: str = "zh") -> subprocess.CompletedProcess[str]:
    return run_cli("--db", str(db), "--lang", lang, "print", *args)


# -- item 1: the ruling slip -----------------------------------------------------------------
@requires_poppler
def test_overridden_slip_prints_the_reason_once_with_the_proposal(tmp_path: Path) -> None:
    out = tmp_path / "slip.pdf"
    proc = run_cli("--lang", "zh", "print", "ruling", "--case", str(CASE), "--hand", "3", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    flat = _flat(pdftotext(out))
    reason = "西家垫牌时牌从手中滑落"
    assert flat.count(reason) == 1, flat
    assert "原拟判罚" in flat and "罚10分（东西方）" in flat and "警告" in flat
    assert "裁判改判，理由" not in flat  # the engine's sentence would repeat the reason
    assert "临场裁判改判" in flat  # the clause box says no rule of the book was applied
    assert "赵六（7号对）" in flat  # the offender's name and pair
    assert "No.R3-T5-H3-1" in flat  # the serial number, also in the footer


@requires_poppler
def test_escalated_slip_quotes_the_escalation_clause(tmp_path: Path) -> None:
    case = tmp_path / "case.json"
    case.write_text(json.dumps(_case()), encoding="utf-8")
    out = tmp_path / "slip.pdf"
    proc = run_cli(
        "--lang", "zh", "print", "ruling", "--case", str(case), "--hand", "1", "--index", "4", "-o", str(out)
    )
    assert proc.returncode == 0, proc.stderr
    flat = _flat(pdftotext(out))
    assert "出错牌累积3次" in flat and "在一副牌中累积3次，判过错方负" in flat
    assert "判负（东西方）" in flat and "第3次" in flat
    assert "丁二" not in flat or "（2号对）" in flat


@requires_poppler
def test_slips_after_an_appeal(hall_db: Path, tmp_path: Path) -> None:
    rulings = _rulings(hall_db)
    old = rulings["v1-exposed_card-0"]
    new = rulings["v2-exposed_card-0"]
    # the appealed ruling: superseded, marked across the page, no invitation to appeal
    out = tmp_path / "old.pdf"
    proc = _print(hall_db, "ruling", "--ruling", str(old["id"]), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    flat = _flat(pdftotext(out))
    assert "已被取代" in flat and "第1版记录已由第2版取代（申诉#1）" in flat
    assert "对本判罚不服" not in flat
    assert "赵裁判" in flat and "甲一（1号对）" in flat
    assert f"No.1-{old['id']:05d}" in flat
    # the committee's ruling: the table referee is still the one who ruled, the basis is
    # the committee's decision, the reason is printed once, no invitation to appeal
    out = tmp_path / "new.pdf"
    proc = _print(hall_db, "ruling", "--ruling", str(new["id"]), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    flat = _flat(pdftotext(out))
    assert "已被取代" not in flat and "对本判罚不服" not in flat
    assert "仲裁委员会裁决（申诉#1，部分成立，改判；周委员、吴委员；" in flat
    assert "不得再次申诉" in flat
    assert flat.count("录像显示系无意掉落") == 1
    assert "赵裁判" in flat and "钱裁判长" not in flat.split("签字")[-1]
    assert "判罚时间" in flat and re.search(r"\d{4}-\d\d-\d\d\d\d:\d\d", flat)
    # a ruling that stands and was not appealed keeps the invitation
    out = tmp_path / "live.pdf"
    proc = _print(hall_db, "ruling", "--ruling", str(rulings["v2-late_arrival-0"]["id"]), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "对本判罚不服" in _flat(pdftotext(out))


# -- issue 9: one builder; the digest and QR do not depend on the language --------------------
def test_window_and_command_line_build_the_same_sheet(hall_db: Path) -> None:
    from referee_app.app.session import Session
    from referee_app.gui.preview import scoresheet_data
    from referee_app.printing.build import store_scoresheets
    from referee_app.store.service import Actor, Store

    with Store.open(str(hall_db)) as s:
        ev = s.pick_event(None)
        session = Session(s, ev, Actor("x", "y"), "zh")
        record = session.table(1, 3)
        assert record is not None
        window = scoresheet_data(session, record)
        _ev, (cli,) = store_scoresheets(s, None, 1, 3, "zh")
    assert window == cli
    # the voided ruling of version 2 is on the sheet (struck through when rendered)
    from referee_app.printing.data import all_rulings

    assert any(r.get("overridden") for _h, r in all_rulings(cli.decision))
    assert cli.record is not None and cli.record.version == 2
    assert set(cli.signatures) >= {"ns_player_1", "table_referee"} and cli.signed_at is not None
    assert cli.signer_names.get("chief_referee") == "钱裁判长"


def test_digest_and_qr_are_the_same_in_zh_and_en(hall_db: Path) -> None:
    from referee_app.printing.build import store_scoresheets
    from referee_app.printing.data import qr_payload, scoresheet_from_case
    from referee_app.store.service import Store

    with Store.open(str(hall_db)) as s:
        _ev, (zh,) = store_scoresheets(s, None, 1, 3, "zh")
        _ev, (en,) = store_scoresheets(s, None, 1, 3, "en")
    assert zh.decision != en.decision  # the wording differs …
    assert zh.digest == en.digest and qr_payload(zh) == qr_payload(en)  # … the record does not
    raw = json.loads(CASE.read_text("utf-8"))
    a, b = scoresheet_from_case(raw, "zh"), scoresheet_from_case(raw, "en")
    assert a.digest == b.digest and qr_payload(a) == qr_payload(b)
    # names are covered: another player's name gives another digest
    raw["pairs"]["NS"]["players"] = ["张三", "李五"]
    assert scoresheet_from_case(raw, "zh").digest != a.digest


def test_language_free_covers_every_rendered_key() -> None:
    """Every clause case judged in zh and en differs only in :data:`RENDERED_KEYS`."""
    from referee_app.core.engine import judge
    from referee_app.core.errors import CaseError
    from referee_app.printing.data import language_free

    cases = sorted(Path(__file__).parents[1].glob("cases/*/*.json"))
    cases = [c for c in cases if not c.name.endswith(".expected.json")]
    assert len(cases) > 50
    for path in cases:
        case = json.loads(path.read_text("utf-8"))
        try:
            zh = judge(case, lang="zh")
        except CaseError:  # a case that shows an error message: nothing to print
            continue
        assert language_free(zh) == language_free(judge(case, lang="en")), path.name


# -- items 3 and 5: what the stored scoresheet prints, and checking a paper copy -----------------
@requires_poppler
def test_stored_sheet_prints_version_times_chief_and_late_minutes(hall_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    proc = _print(hall_db, "scoresheet", "--round", "1", "--table", "3", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    text = pdftotext(out)
    flat = _flat(text)
    assert "第2版" in flat  # the record's version
    assert "钱裁判长" in flat  # the chief referee's name
    assert "4分钟" in flat  # the late arrival's minutes
    assert (
        "北甲一" in flat and "南乙一" in flat and "东丙二" in flat and "西丁二" in flat
    )  # seats and players
    assert "UTC" in flat and "本地时间" in flat  # one zone, stated
    # the signatures' time is printed in the boxes, in local time
    assert len(re.findall(r"\d{4}-\d\d-\d\d\d\d:\d\d", flat)) >= 5
    assert "主办单位" in flat and "北京华联" not in flat  # the organiser of the rulebook's event is not ours


@requires_poppler
def test_verify_paper_confirms_the_record_and_reports_a_change(hall_db: Path, tmp_path: Path) -> None:
    import shutil

    from referee_app.printing.build import store_scoresheets
    from referee_app.printing.data import qr_payload
    from referee_app.store.service import Store

    with Store.open(str(hall_db)) as s:
        _ev, (sheet,) = store_scoresheets(s, None, 1, 3, "en")
    code = qr_payload(sheet)
    out = tmp_path / "sheet.pdf"
    proc = _print(hall_db, "scoresheet", "--round", "1", "--table", "3", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert code in _flat(pdftotext(out))  # the printed code is the one the QR holds
    proc = run_cli("--db", str(hall_db), "--lang", "en", "verify-paper", code)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "holds this exact version" in proc.stdout
    # an older version's code: held, but superseded
    old = code.replace(":V2:", ":V1:")
    proc = run_cli("--db", str(hall_db), "--lang", "en", "verify-paper", old)
    assert proc.returncode == 1 and "v1:" in proc.stdout
    # the record altered in the database after printing (an attacker with file access)
    copy = tmp_path / "altered.db"
    shutil.copy(hall_db, copy)
    con = sqlite3.connect(copy)
    for (name,) in con.execute("select name from sqlite_master where type='trigger'").fetchall():
        con.execute(f'drop trigger "{name}"')
    row = con.execute("select id, case_json from matches where table_no=3 and version=2").fetchone()
    con.execute(
        "update matches set case_json=? where id=?",
        (row[1].replace('"defender_points":85', '"defender_points":95'), row[0]),
    )
    con.commit()
    con.close()
    proc = run_cli("--db", str(copy), "--lang", "en", "verify-paper", code)
    assert proc.returncode == 1, proc.stdout
    assert "differs" in proc.stdout
    proc = run_cli("--db", str(copy), "--lang", "zh", "verify-paper", code)
    assert proc.returncode == 1 and "不一致" in proc.stdout
    # a sheet printed from a case file has nothing to check
    proc = run_cli("--db", str(hall_db), "--lang", "en", "verify-paper", "RA1:CASE:R3:T5:D" + "A" * 64)
    assert proc.returncode == 2 and "case file" in proc.stderr
    proc = run_cli("--db", str(hall_db), "--lang", "zh", "verify-paper", "RA1:CASE:R3:T5:D" + "A" * 64)
    assert proc.returncode == 2 and "由案例文件打印" in proc.stderr
