"""The print, key and verify-pdf commands as a referee runs them (real subprocesses)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .conftest import requires_poppler
from .helpers import CASE, ROOT, pdftotext, run_cli, store_with_case

PASS = "event-passphrase-例"


def test_judge_and_the_parser_do_not_load_reportlab_or_pyhanko() -> None:
    code = (
        "import sys; from referee_app import cli; cli.build_parser(); "
        "assert cli.main(['judge', sys.argv[1]]) == 0; "
        "bad = [m for m in ('reportlab', 'pyhanko', 'cryptography') if m in sys.modules]; "
        "assert not bad, bad"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(CASE.parent / "plain-case.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr


def test_invalid_case_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    case = json.loads(CASE.read_text("utf-8"))
    case["hands"][0]["infractions"][0]["seat"] = "X"
    bad.write_text(json.dumps(case, ensure_ascii=False), "utf-8")
    proc = run_cli("--lang", "en", "print", "scoresheet", "--case", str(bad), "-o", str(tmp_path / "x.pdf"))
    assert proc.returncode == 2
    assert proc.stderr.strip() == 'hands[0].infractions[0].seat: expected one of E, S, W, N, got "X"'
    assert not (tmp_path / "x.pdf").exists()
    bad.write_text("{", "utf-8")
    proc = run_cli("--lang", "en", "print", "scoresheet", "--case", str(bad), "-o", str(tmp_path / "x.pdf"))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "not JSON" in proc.stderr
    case = json.loads(CASE.read_text("utf-8"))
    case["pairs"]["NS"]["players"] = "张三"
    bad.write_text(json.dumps(case, ensure_ascii=False), "utf-8")
    proc = run_cli("--lang", "en", "print", "scoresheet", "--case", str(bad), "-o", str(tmp_path / "x.pdf"))
    assert proc.returncode == 2 and proc.stderr.strip() == "pairs.NS.players: expected a list of names"


def test_bad_hand_or_index_names_the_field(tmp_path: Path) -> None:
    proc = run_cli(
        "--lang", "en", "print", "ruling", "--case", str(CASE), "--hand", "9", "-o", str(tmp_path / "r.pdf")
    )
    assert proc.returncode == 2 and "--hand 9: no such hand (the case has 5)" in proc.stderr
    proc = run_cli(
        "--lang",
        "en",
        "print",
        "ruling",
        "--case",
        str(CASE),
        "--hand",
        "2",
        "--index",
        "3",
        "-o",
        str(tmp_path / "r.pdf"),
    )
    assert proc.returncode == 2 and "hands[1]: --index 3: no such ruling (there are 2)" in proc.stderr


@requires_poppler
def test_ruling_before_play(tmp_path: Path) -> None:
    out = tmp_path / "r0.pdf"
    proc = run_cli("--lang", "zh", "print", "ruling", "--case", str(CASE), "--hand", "0", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    text = pdftotext(out).replace(" ", "")
    assert "迟到" in text and "赛前" in text and "按假定" in text and "二、1迟到" in text


def test_missing_output_folder(tmp_path: Path) -> None:
    proc = run_cli(
        "--lang", "en", "print", "scoresheet", "--case", str(CASE), "-o", str(tmp_path / "no" / "x.pdf")
    )
    assert proc.returncode == 2 and "does not exist" in proc.stderr


def test_signed_scoresheet_verifies_and_one_changed_byte_fails(tmp_path: Path) -> None:
    env = {"REFEREE_APP_KEY_PASSPHRASE": PASS}
    key = tmp_path / "event.p12"
    proc = run_cli("key", "create", "--out", str(key), "--name", "测试赛事 2024", env=env)
    assert proc.returncode == 0, proc.stderr
    cert = tmp_path / "event.pem"
    assert key.is_file() and cert.is_file() and (key.stat().st_mode & 0o077) == 0
    assert PASS not in proc.stdout + proc.stderr  # never echoed
    assert PASS.encode() not in key.read_bytes()
    # an existing key is never overwritten
    again = run_cli("--lang", "en", "key", "create", "--out", str(key), env=env)
    assert again.returncode == 2 and "already exists" in again.stderr

    db = store_with_case(tmp_path)
    signed = tmp_path / "signed.pdf"
    proc = run_cli(
        "--db", str(db), "print", "scoresheet", "--round", "3", "--table", "5", "-o", str(signed),
        "--sign", "--key", str(key), env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert PASS not in proc.stdout + proc.stderr
    ok = run_cli("--lang", "en", "verify-pdf", str(signed), "--cert", str(cert))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "intact and signed by this event's certificate" in ok.stdout
    zh = run_cli("--lang", "zh", "verify-pdf", str(signed), "--cert", str(cert))
    assert zh.returncode == 0 and "完好" in zh.stdout

    data = signed.read_bytes()
    for pos in (len(data) // 3, len(data) // 2, 200):
        tampered = tmp_path / f"tampered-{pos}.pdf"
        changed = bytearray(data)
        changed[pos] ^= 0x01
        tampered.write_bytes(bytes(changed))
        bad = run_cli("--lang", "en", "verify-pdf", str(tampered), "--cert", str(cert))
        assert bad.returncode == 1, (pos, bad.stdout)
        assert "modified" in bad.stdout

    # appended content after the signature is also caught
    appended = tmp_path / "appended.pdf"
    appended.write_bytes(data + b"\n% added later\n")
    bad = run_cli("--lang", "en", "verify-pdf", str(appended), "--cert", str(cert))
    assert bad.returncode == 1

    # another event's certificate: intact, but not this event's
    other_key = tmp_path / "other.p12"
    assert (
        run_cli(
            "key", "create", "--out", str(other_key), env={"REFEREE_APP_KEY_PASSPHRASE": "another-pass"}
        ).returncode
        == 0
    )
    other = run_cli("--lang", "en", "verify-pdf", str(signed), "--cert", str(tmp_path / "other.pem"))
    assert other.returncode == 1 and "not signed by this event's certificate" in other.stdout

    unsigned = tmp_path / "unsigned.pdf"
    assert run_cli("print", "scoresheet", "--case", str(CASE), "-o", str(unsigned)).returncode == 0
    proc = run_cli("--lang", "en", "verify-pdf", str(unsigned), "--cert", str(cert))
    assert proc.returncode == 1 and "not signed" in proc.stdout


def test_wrong_passphrase_writes_nothing(tmp_path: Path) -> None:
    key = tmp_path / "k.p12"
    assert (
        run_cli("key", "create", "--out", str(key), env={"REFEREE_APP_KEY_PASSPHRASE": PASS}).returncode == 0
    )
    out = tmp_path / "s.pdf"
    db = store_with_case(tmp_path)
    where = (
        "--lang",
        "en",
        "--db",
        str(db),
        "print",
        "scoresheet",
        "--round",
        "3",
        "--table",
        "5",
        "-o",
        str(out),
    )
    proc = run_cli(
        *where, "--sign", "--key", str(key), env={"REFEREE_APP_KEY_PASSPHRASE": "wrong-passphrase"}
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"{key}: cannot open the key (wrong passphrase, or not a PKCS#12 file)"
    assert "wrong-passphrase" not in proc.stderr
    assert not out.exists() and list(tmp_path.glob(".s.pdf*")) == []
    proc = run_cli("--lang", "en", *where, "--sign")
    assert proc.returncode == 2 and "--sign needs --key" in proc.stderr
    proc = run_cli("--lang", "en", *where, "--sign", "--key", str(key))
    assert proc.returncode == 2 and "REFEREE_APP_KEY_PASSPHRASE" in proc.stderr  # no terminal to ask on
    # a sheet printed from a case file is never signed with the event's key
    proc = run_cli(
        "--lang",
        "en",
        "print",
        "scoresheet",
        "--case",
        str(CASE),
        "-o",
        str(out),
        "--sign",
        "--key",
        str(key),
    )
    assert proc.returncode == 2 and "not the event's record" in proc.stderr and not out.exists()


def test_signing_api_round_trip(tmp_path: Path) -> None:
    from referee_app.printing.data import RulingSlipData
    from referee_app.printing.render import render_ruling
    from referee_app.printing.signing import make_event_identity, sign_pdf, verify_pdf

    from .helpers import scoresheet

    ident = make_event_identity(tmp_path / "keys", PASS, common_name="测试赛事")
    sheet = scoresheet()
    pdf = tmp_path / "slip.pdf"
    render_ruling(RulingSlipData(event=sheet.event, ruling=sheet.decision["hands"][0]["rulings"][0]), pdf)
    sign_pdf(pdf, pdf, ident.p12_path, PASS)
    result = verify_pdf(pdf, ident.cert_path)
    assert result.ok and result.intact and result.trusted and result.signer and "测试赛事" in result.signer


def test_verify_pdf_of_what_is_no_pdf_is_one_line_without_a_librarys_warning(tmp_path: Path) -> None:
    """pyHanko's import warned (CryptographyDeprecationWarning, two lines) before the
    refusal's one line (found by the issue 24 audit)."""
    not_pdf, cert = tmp_path / "x.pdf", tmp_path / "cert.pem"
    not_pdf.write_text("no PDF here", encoding="utf-8")
    cert.write_text("no certificate", encoding="utf-8")
    r = run_cli(
        "--lang", "en", "verify-pdf", str(not_pdf), "--cert", str(cert), env={"PYTHONWARNINGS": "default"}
    )
    assert r.returncode == 2 and r.stdout == "", r
    assert len(r.stderr.splitlines()) == 1 and "Warning" not in r.stderr, r.stderr
