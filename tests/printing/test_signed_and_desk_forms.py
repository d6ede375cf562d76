"""Issue 12, items 2 and 7: the visible signature and its reason and location, the event's
certificate for a third party, standings and pairing lists and a blank scoresheet from the
command line, progress for a round."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import requires_poppler
from .helpers import pdftotext, run_cli, store_with_case

PASS = "passphrase-for-the-event"
ENV = {"REFEREE_APP_KEY_PASSPHRASE": PASS}


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def keyed_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("keyed")
    db = store_with_case(folder, name="签名杯")
    proc = run_cli("--db", str(db), "key", "create", "--event", "1", env=ENV)
    assert proc.returncode == 0, proc.stderr
    return db


@requires_poppler
def test_a_signed_sheet_shows_who_when_and_which_certificate(keyed_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "signed.pdf"
    proc = run_cli(
        "--db", str(keyed_db), "--lang", "zh", "print", "scoresheet", "--round", "3", "--table", "5",
        "-o", str(out), "--sign", "--location", "第一赛场", env=ENV,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    # the certificate a third party gets, and its fingerprint on the paper
    cert = tmp_path / "event.pem"
    proc = run_cli("--db", str(keyed_db), "key", "export", "-o", str(cert))
    assert proc.returncode == 0, proc.stderr
    fingerprint = re.search(r"sha256 ([0-9a-f]{64})", proc.stdout).group(1)  # type: ignore[union-attr]
    assert cert.read_text().startswith("-----BEGIN CERTIFICATE-----")
    flat = _flat(pdftotext(out))
    assert "电子签名" in flat and "CN=签名杯" in flat and "第一赛场" in flat
    assert fingerprint in flat  # printed in groups of eight; the spaces are gone in the flat text
    assert re.search(r"CN=签名杯\d{4}-\d\d-\d\d\d\d:\d\dUTC[+−]\d\d:\d\d理由Reason", flat)
    # pyHanko reads the same reason and location from the signature, and it verifies
    from pyhanko.pdf_utils.reader import PdfFileReader

    with out.open("rb") as handle:
        sig = PdfFileReader(handle).embedded_signatures[0]
        assert sig.sig_object["/Location"] == "第一赛场"
        assert "第3轮" in str(sig.sig_object["/Reason"]) and "v1" in str(sig.sig_object["/Reason"])
        assert sig.sig_object["/SubFilter"] == "/ETSI.CAdES.detached"  # PAdES
    proc = run_cli("--lang", "en", "verify-pdf", str(out), "--cert", str(cert))
    assert proc.returncode == 0 and "intact and signed by this event's certificate" in proc.stdout
    again = run_cli("--db", str(keyed_db), "--lang", "en", "key", "export", "-o", str(cert))
    assert again.returncode == 2 and "already exists" in again.stderr


@requires_poppler
def test_a_stored_ruling_slip_is_signed_with_its_number(keyed_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "slip.pdf"
    proc = run_cli(
        "--db", str(keyed_db), "print", "ruling", "--ruling", "1", "-o", str(out), "--sign", env=ENV
    )
    assert proc.returncode == 0, proc.stderr
    flat = _flat(pdftotext(out))
    assert "电子签名" in flat and "No.1-00001" in flat


@requires_poppler
def test_standings_provisional_or_final_with_ties_and_sign_off(keyed_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "standings.pdf"
    proc = run_cli("--db", str(keyed_db), "--lang", "zh", "print", "standings", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    flat = _flat(pdftotext(out))
    assert "临时名次PROVISIONAL" in flat and "裁判长签字确认" in flat and "最终名次" not in flat
    final = tmp_path / "final.pdf"
    proc = run_cli(
        "--db", str(keyed_db), "print", "standings", "--final", "-o", str(final), "--sign", env=ENV
    )
    assert proc.returncode == 0, proc.stderr
    flat = _flat(pdftotext(final))
    assert "最终名次FINAL" in flat and "电子签名" in flat and "临时" not in flat


@requires_poppler
def test_tied_ranks_are_marked(tmp_path: Path) -> None:
    from referee_app.printing.standings import StandingsSheet, render_standings, tied_pairs

    rows = [
        {"rank": 1, "pair": "3", "match_points": 4, "tiebreaks": {"opponents_score": 6, "lots": {"draw": 1}}},
        {"rank": 2, "pair": "5", "match_points": 2, "tiebreaks": {"opponents_score": 4, "lots": {"draw": 1}}},
        {"rank": 3, "pair": "1", "match_points": 2, "tiebreaks": {"opponents_score": 4, "lots": {"draw": 2}}},
        {"rank": 4, "pair": "2", "match_points": 2, "tiebreaks": {"opponents_score": 3, "lots": {"draw": 1}}},
    ]
    sheet = StandingsSheet("测试杯", "bhg-2011", 2, 7, ["match_points", "opponents_score", "lots"], rows)
    assert tied_pairs(sheet) == {"5", "1"}
    out = tmp_path / "standings.pdf"
    render_standings(sheet, out)
    lines = [line.split() for line in pdftotext(out, layout=True).splitlines()]
    ranks = {
        cells[1]: cells[0]
        for cells in lines
        if len(cells) > 2 and re.fullmatch(r"\d=?", cells[0]) and cells[1] in {"3", "5", "1", "2"}
    }
    assert ranks == {"3": "1", "5": "2=", "1": "3=", "2": "4"}
    assert "名次并列" in _flat(pdftotext(out)) and "抽签种子7" in _flat(pdftotext(out))


@requires_poppler
def test_pairing_list_and_blank_sheet_from_the_command_line(keyed_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "pairing.pdf"
    proc = run_cli("--db", str(keyed_db), "--lang", "zh", "print", "pairing", "--round", "3", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    flat = _flat(pdftotext(out))
    assert "第3轮对阵表" in flat and "已公布" in flat and "张三、李四" in flat and "王五、赵六" in flat
    # two pairs that have met: no pairing without a rematch, said in one line
    proc = run_cli(
        "--db",
        str(keyed_db),
        "--lang",
        "en",
        "print",
        "pairing",
        "--round",
        "4",
        "-o",
        str(tmp_path / "p4.pdf"),
    )
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1 and "--round 4" in proc.stderr
    blank = tmp_path / "blank.pdf"
    proc = run_cli(
        "--db", str(keyed_db), "--lang", "zh", "print", "scoresheet", "--round", "3", "--table", "5",
        "--blank", "12", "-o", str(blank),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    text = pdftotext(blank, layout=True)
    rows = [line for line in text.splitlines() if re.fullmatch(r"\s*(\d{1,2})\s*", line)]
    assert [int(r) for r in rows] == list(range(1, 13))  # numbered rows, nothing else in them
    flat = _flat(text)
    assert "张三" in flat and "第3桌" not in flat.split("记分表")[0] and "265" not in flat  # nothing recorded
    assert "RA1:" not in flat  # a blank sheet is not a record to check


def test_print_round_reports_its_progress(keyed_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "round.pdf"
    proc = run_cli("--db", str(keyed_db), "--lang", "en", "print", "round", "--round", "3", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "round 3: 1/1 table\n" in proc.stderr  # the plural follows the count
    proc = run_cli("--db", str(keyed_db), "print", "round", "--round", "3", "--quiet", "-o", str(out))
    assert proc.returncode == 0 and "tables" not in proc.stderr


@requires_poppler
@pytest.mark.skipif(not shutil.which("zbarimg"), reason="zbarimg (zbar-tools) not installed")
def test_a_signed_sheets_scanned_qr_confirms_the_record(keyed_db: Path, tmp_path: Path) -> None:
    """The issue's "done when": the QR of a signed scoresheet, scanned from a 150 dpi copy,
    passed to verify-paper, confirms the record."""
    out = tmp_path / "signed.pdf"
    proc = run_cli(
        "--db", str(keyed_db), "print", "scoresheet", "--round", "3", "--table", "5", "-o", str(out), "--sign",
        env=ENV,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    subprocess.run(["pdftoppm", "-r", "150", "-gray", "-png", str(out), str(tmp_path / "copy")], check=True)
    codes = []
    for png in sorted(tmp_path.glob("copy*.png")):
        scan = subprocess.run(["zbarimg", "--raw", "-q", str(png)], capture_output=True, text=True)
        codes += [c for c in scan.stdout.split() if c.startswith("RA1:")]
    assert len(codes) == 1 and ":V1:" in codes[0]
    proc = run_cli("--db", str(keyed_db), "--lang", "zh", "verify-paper", codes[0])
    assert proc.returncode == 0 and "确有此版本" in proc.stdout, proc.stdout + proc.stderr


@requires_poppler
def test_a_signed_twelve_hand_sheet_from_the_store_is_one_page(keyed_db: Path, tmp_path: Path) -> None:
    import json

    from .test_layout_and_fonts import _pages, _twelve_hands

    case = json.loads(_twelve_hands(tmp_path).read_text("utf-8"))
    case.update(round=5, table=1, pairs={"NS": "12", "EW": "7"})
    path = tmp_path / "twelve-store.json"
    path.write_text(json.dumps(case, ensure_ascii=False), encoding="utf-8")
    proc = run_cli("--db", str(keyed_db), "record", str(path))
    assert proc.returncode == 0, proc.stderr
    for lang in ("zh", "en"):
        out = tmp_path / f"signed-{lang}.pdf"
        proc = run_cli(
            "--db", str(keyed_db), "--lang", lang, "print", "scoresheet", "--round", "5", "--table", "1",
            "-o", str(out), "--sign", env=ENV,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert _pages(out) == 1, lang
        flat = _flat(pdftotext(out))
        assert "电子签名" in flat and "签字确认" in flat
        assert re.search(r"RA1:E1:I[0-9A-F]{16}:R5:T1:V1:", flat), flat  # the event named by its identity
