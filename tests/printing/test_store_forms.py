"""Forms printed from the event store: appeal form, ruling slip, scoresheets with signatures,
voidings and corrections, and signing with the event's key kept in the store."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import requires_poppler
from .helpers import pdftotext, run_cli, signature_png, store_case

PASS = "event-passphrase-例"
GROUNDS = "北家的牌是洗牌时掉落的，并非出牌时暴露，请求撤销判罚。"


def _case(defender_points: int = 85) -> dict:
    return {
        "event": "bhg-2011",
        "round": 2,
        "table": 3,
        "pairs": {"NS": "1", "EW": "2"},
        "first_dealer": "E",
        "hands": [
            {
                "defender_points": defender_points,
                "infractions": [{"kind": "exposed_card", "seat": "N", "cards": 1, "trick": 7}],
            },
            {"defender_points": 30},
        ],
        "finished": "time",
    }


@pytest.fixture(scope="module")
def store_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An event with round 2 table 3 signed, appealed, upheld (a correction), signed again,
    and table 4 voided once; appeal 2 still open."""
    from referee_app.core.rulebook import load_rulebook
    from referee_app.store.pairs_csv import parse_pairs
    from referee_app.store.service import Actor, Store

    db = tmp_path_factory.mktemp("store") / "event.db"
    (db.parent / "录像截图.png").write_bytes(signature_png(9))
    chief = Actor("钱裁判长", "desk")
    referee = Actor("赵裁判", "table-3")
    sigs = {k: signature_png(i) for i, k in enumerate(("N", "E", "S", "W", "referee"))}
    with Store.open(str(db), create=True, actor=chief) as s:
        ev = s.create_event(name="测试杯", rulebook=load_rulebook("bhg-2011"), date="2026-04-01", actor=chief)
        s.import_pairs(
            ev.id,
            parse_pairs(
                "number,player1,player2,unit\n1,甲一,乙一,东队\n2,丙二,丁二,西队\n3,戊三,己三,\n4,庚四,辛四,\n"
            ),
            actor=chief,
            source="p.csv",
        )
        rec = s.record(ev.id, _case(), actor=referee, lang="zh")
        s.sign_match(ev.id, 2, 3, 1, sigs, referee)
        rid = s.rulings_of(rec.match_id)[0]["id"]
        aid = s.file_appeal(
            ev.id,
            ruling_id=rid,
            by="NS",
            grounds=GROUNDS,
            evidence="录像 2 号机位",
            attachment=db.parent / "录像截图.png",
            receipt="No. 0077",
            actor=chief,
        )
        s.review_appeal(aid, actor=chief)
        s.decide_appeal(
            aid, decision="upheld", reason="录像显示牌系掉落", committee=["周委员", "吴委员"], actor=chief
        )
        s.sign_match(ev.id, 2, 3, 2, sigs, referee)
        other = dict(_case(), table=4, pairs={"NS": "3", "EW": "4"})
        s.record(ev.id, other, actor=referee, lang="zh")
        s.void(ev.id, round_no=2, table_no=4, reason="桌号记错", actor=chief)
        rec4 = s.record(ev.id, other, actor=referee, lang="zh")
        s.file_appeal(
            ev.id,
            ruling_id=s.rulings_of(rec4.match_id)[0]["id"],
            by="EW",
            grounds="判罚过重",
            actor=chief,
            receipt="R-1",
        )
    return db


@requires_poppler
def test_appeal_form_from_the_store(store_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "appeal.pdf"
    proc = run_cli("--db", str(store_db), "--lang", "zh", "print", "appeal", "--appeal", "1", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    text = pdftotext(out).replace(" ", "").replace("\n", "")
    for want in ("申诉表", "#1", "北家的牌是洗牌时掉落的", "录像2号机位", "No.0077", "200", "甲一", "乙一",
                 "录像显示牌系掉落", "周委员", "吴委员", "撤销原判罚", "二、12", "在时限内"):  # fmt: skip
        assert want in text, want
    # the attachment in the form's words, with the whole digest to check the committee's copy by
    digest = hashlib.sha256((store_db.parent / "录像截图.png").read_bytes()).hexdigest()
    assert f"附件Attachment：录像截图.pngSHA-256{digest}" in text and "attachment:" not in text
    # the open appeal prints with its decision left blank
    out2 = tmp_path / "appeal2.pdf"
    proc = run_cli("--db", str(store_db), "--lang", "en", "print", "appeal", "--appeal", "2", "-o", str(out2))
    assert proc.returncode == 0, proc.stderr
    assert "判罚过重" in pdftotext(out2)


def test_unknown_appeal_or_ruling_is_one_line(store_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "x.pdf"
    proc = run_cli("--db", str(store_db), "--lang", "en", "print", "appeal", "--appeal", "99", "-o", str(out))
    assert proc.returncode == 2 and proc.stderr.strip() == "--appeal: no appeal 99"
    proc = run_cli("--db", str(store_db), "--lang", "en", "print", "ruling", "--ruling", "99", "-o", str(out))
    assert proc.returncode == 2 and proc.stderr.strip() == "--ruling: no ruling 99"
    assert not out.exists()


@requires_poppler
def test_ruling_slip_from_the_store(store_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "ruling.pdf"
    proc = run_cli("--db", str(store_db), "--lang", "zh", "print", "ruling", "--ruling", "1", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    text = pdftotext(out).replace(" ", "")
    assert "判罚单" in text and "暴露张" in text and "二、4" in text and "第1副第7墩" in text
    assert "罚10分（南北方）" in text and "赵裁判" in text
    en = tmp_path / "ruling-en.pdf"  # judged again for English texts, same numbers
    proc = run_cli("--db", str(store_db), "--lang", "en", "print", "ruling", "--ruling", "1", "-o", str(en))
    assert proc.returncode == 0, proc.stderr
    assert "10 points" in pdftotext(en)


@requires_poppler
def test_store_scoresheet_has_signatures_voidings_and_corrections(store_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    proc = run_cli(
        "--db",
        str(store_db),
        "--lang",
        "zh",
        "print",
        "scoresheet",
        "--round",
        "2",
        "--table",
        "3",
        "-o",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    text = pdftotext(out).replace(" ", "").replace("\n", "")
    assert "申诉#1成立：录像显示牌系掉落" in text  # the ruling voided by the appeal, with its reason
    assert "第1版记录（已签字），更正为第2版" in text
    assert "赵裁判" in text  # the table referee who collected the signatures
    if shutil.which("pdfimages"):
        images = subprocess.run(["pdfimages", "-list", str(out)], capture_output=True, text=True).stdout
        assert len([ln for ln in images.splitlines()[2:] if ln.strip()]) >= 5  # four players and the referee
    rnd = tmp_path / "round.pdf"
    proc = run_cli("--db", str(store_db), "--lang", "zh", "print", "round", "--round", "2", "-o", str(rnd))
    assert proc.returncode == 0, proc.stderr
    text = pdftotext(rnd).replace(" ", "").replace("\n", "")
    assert "第1版记录" in text and "桌号记错" in text


def test_event_key_in_the_store_signs_and_verifies(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    env = {"REFEREE_APP_KEY_PASSPHRASE": PASS}
    assert (
        run_cli("--db", str(db), "event", "create", "--rules", "bhg-2011", "--name", "签名杯").returncode == 0
    )
    proc = run_cli("--db", str(db), "--lang", "en", "verify-pdf", str(tmp_path / "none.pdf"))
    assert proc.returncode == 2 and "event 1 has no key in the event store" in proc.stderr
    proc = run_cli("--db", str(db), "key", "create", "--event", "1", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "签名杯" in proc.stdout and PASS not in proc.stdout + proc.stderr
    assert PASS.encode() not in db.read_bytes()
    again = run_cli("--db", str(db), "key", "create", "--event", "1", env=env)
    assert again.returncode == 2 and "已有签名密钥" in again.stderr  # the default language: Chinese
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("number,player1,player2,unit\n12,张三,李四,\n7,王五,赵六,\n", "utf-8")
    case = tmp_path / "case.json"
    case.write_text(json.dumps(store_case(), ensure_ascii=False), "utf-8")
    assert run_cli("--db", str(db), "pairs", "import", str(pairs)).returncode == 0
    assert run_cli("--db", str(db), "record", str(case)).returncode == 0
    signed = tmp_path / "signed.pdf"
    where = ("--db", str(db), "print", "scoresheet", "--round", "3", "--table", "5")
    proc = run_cli(*where, "-o", str(signed), "--sign", env=env)
    assert proc.returncode == 0, proc.stderr
    ok = run_cli("--db", str(db), "--lang", "en", "verify-pdf", str(signed))
    assert ok.returncode == 0 and "intact and signed by this event's certificate" in ok.stdout
    # an edited /SubFilter (issue 24, item 7): modified, in one line, not "not signed" and
    # no pyHanko traceback; a file that is not a PDF at all is bad input (exit 2)
    original = signed.read_bytes()
    assert original.count(b"/ETSI.CAdES.detached") == 1
    edited = tmp_path / "subfilter.pdf"
    edited.write_bytes(original.replace(b"/ETSI.CAdES.detached", b"/ETSI.CAdES.detachex"))
    for lang in ("en", "zh"):
        bad = run_cli("--db", str(db), "--lang", lang, "verify-pdf", str(edited))
        assert bad.returncode == 1 and "Traceback" not in bad.stderr and bad.stderr == "", bad.stderr
        assert "modified" in bad.stdout or "修改" in bad.stdout, bad.stdout
        assert "not signed" not in bad.stdout and "未签名" not in bad.stdout
        assert len(bad.stdout.strip().splitlines()) == 1
    not_pdf = tmp_path / "notes.pdf"
    not_pdf.write_text("这不是 PDF", encoding="utf-8")
    proc = run_cli("--db", str(db), "--lang", "en", "verify-pdf", str(not_pdf))
    assert proc.returncode == 2 and proc.stdout == "" and len(proc.stderr.splitlines()) == 1, proc.stderr
    assert "notes.pdf: not a PDF" in proc.stderr
    data = bytearray(signed.read_bytes())
    data[len(data) // 2] ^= 0x01
    signed.write_bytes(bytes(data))
    bad = run_cli("--db", str(db), "--lang", "en", "verify-pdf", str(signed))
    assert bad.returncode == 1 and "modified" in bad.stdout
    wrong = run_cli(
        *where,
        "-o",
        str(tmp_path / "w.pdf"),
        "--sign",
        env={"REFEREE_APP_KEY_PASSPHRASE": "not-the-passphrase"},
    )
    assert wrong.returncode == 2
    assert wrong.stderr.strip() == "数据库中的赛事密钥无法打开（口令错误）。"  # never the temporary file
    wrong = run_cli(*where, "--lang", "en", "-o", str(tmp_path / "w.pdf"), "--sign",
                    env={"REFEREE_APP_KEY_PASSPHRASE": "not-the-passphrase"})  # fmt: skip
    assert (
        wrong.stderr.strip()
        == "the event's stored key: cannot open the key (wrong passphrase, or not a PKCS#12 file)"
    )
    log = run_cli("--db", str(db), "--lang", "zh", "log")
    assert "为赛事 1 生成签名密钥" in log.stdout
    assert run_cli("--db", str(db), "verify").returncode == 0
