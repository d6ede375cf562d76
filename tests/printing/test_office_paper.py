"""The tournament office's paper (issue 26): a typical table's scoresheet on one page with
readable signatures, the event's organiser, venue and chief referee, the time of play,
blank sheets for a published round, each sanction's own clause, 按假定 where a result is
assumed, and an unsigned version marked in a signed batch. Every PDF is read back."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .conftest import requires_poppler
from .helpers import pdftotext, signature_png

PASS = "office-passphrase-例"
ENV = {"REFEREE_APP_KEY_PASSPHRASE": PASS}
PAIRS = (
    "number,player1,player2,unit\n1,甲一,乙一,东队\n2,丙二,丁二,西队\n3,戊三,己三,南队\n4,庚四,辛四,北队\n"
)
INFRACTIONS = [
    {"kind": "exposed_card", "seat": "N", "cards": 1, "trick": 7},
    {"kind": "delay", "seat": "E", "what": "lead", "trick": 2},
    {"kind": "wrong_play", "seat": "W", "cards": 1, "trick": 12},
    {"kind": "failed_throw", "seat": "S", "cards": 2, "trick": 1},
]


def typical_case(round_no: int, table: int, ns: str, ew: str) -> dict[str, Any]:
    """12 hands, 8 of them with a ruling: the most a typical table has."""
    hands = []
    for i, points in enumerate((60, 35, 120, 80, 45, 20, 90, 5, 70, 40, 100, 55)):
        hand: dict[str, Any] = {
            "defender_points": points,
            "bottom": {"points": 10, "captured": i % 3 == 0, "shape": "single"},
        }
        if i < 8:
            hand["infractions"] = [INFRACTIONS[i % 4]]
        hands.append(hand)
    return {
        "event": "bhg-2011",
        "round": round_no,
        "table": table,
        "pairs": {"NS": ns, "EW": ew},
        "first_dealer": "E",
        "hands": hands,
        "finished": "time",
    }


def forfeit_override_case(round_no: int, table: int, ns: str, ew: str) -> dict[str, Any]:
    """A delay the engine would warn for, overridden by the referee to a round forfeit."""
    override = {"sanctions": [{"round_forfeit": True}], "reason": "多次拖延，经警告仍不改正"}
    return {
        "event": "bhg-2011",
        "round": round_no,
        "table": table,
        "pairs": {"NS": ns, "EW": ew},
        "first_dealer": "E",
        "hands": [
            {"defender_points": 60},
            {
                "defender_points": 40,
                "infractions": [
                    {"kind": "delay", "seat": "E", "what": "lead", "trick": 2, "override": override}
                ],
            },
        ],
        "finished": "time",
    }


@pytest.fixture(scope="module")
def office(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Round 1: table 1 a typical table, signed; table 2 recorded, not signed. Round 2
    published, nothing played yet. The event's details set on the command line; an event key."""
    from referee_app.core.rulebook import load_rulebook
    from referee_app.store.pairs_csv import parse_pairs
    from referee_app.store.service import Actor, Store

    folder = tmp_path_factory.mktemp("office")
    db = folder / "event.db"
    chief = Actor("钱裁判长", "desk")
    referee = Actor("赵裁判", "table-1")
    sigs = {k: signature_png(i) for i, k in enumerate(("N", "E", "S", "W", "referee"))}
    with Store.open(str(db), create=True, actor=chief) as s:
        ev = s.create_event(name="办公杯", rulebook=load_rulebook("bhg-2011"), date="2026-04-01", actor=chief)
        s.import_pairs(ev.id, parse_pairs(PAIRS), actor=chief, source="p.csv")
        for rnd, tables in ((1, [[1, "1", "2"], [2, "3", "4"]]), (2, [[1, "1", "3"], [2, "2", "4"]])):
            body = {"method": "lot", "seed": 1, "tables": tables, "bye": None}
            s.add_desk_record(ev.id, "pairing", rnd, body, actor=chief, version=1)
        s.record(ev.id, typical_case(1, 1, "1", "2"), actor=referee, lang="zh")
        s.sign_match(ev.id, 1, 1, 1, sigs, referee)
        s.record(ev.id, forfeit_override_case(1, 2, "3", "4"), actor=referee, lang="zh")
    proc = run_cli(
        "--db", str(db), "event", "details", "--organiser", "某市体育总会", "--venue", "市体育馆二楼",
        "--chief-referee", "孙裁判长",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "venue\t市体育馆二楼" in proc.stdout
    proc = run_cli("--db", str(db), "key", "create", "--event", "1", env=ENV)
    assert proc.returncode == 0, proc.stderr
    return db


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``referee-app ARGS`` in this process (the suite's time: no interpreter to start and
    no imports to repeat per command), with the passphrase of ``env`` or none."""
    import contextlib
    import io
    import os

    from referee_app.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved = os.environ.pop("REFEREE_APP_KEY_PASSPHRASE", None)
    os.environ.update(env or {})
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(list(args))
            except SystemExit as exc:
                rc = int(exc.code or 0)
    finally:
        os.environ.pop("REFEREE_APP_KEY_PASSPHRASE", None)
        if saved is not None:
            os.environ["REFEREE_APP_KEY_PASSPHRASE"] = saved
    return subprocess.CompletedProcess(list(args), rc, out.getvalue(), err.getvalue())


def _print(db: Path, out: Path, *args: str, lang: str = "zh") -> str:
    proc = run_cli("--db", str(db), "--lang", lang, "print", *args, "-o", str(out), env=ENV)
    assert proc.returncode == 0, proc.stderr
    return pdftotext(out).replace(" ", "")


def _pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(next(ln.split()[-1] for ln in info.splitlines() if ln.startswith("Pages:")))


def _page_text(pdf: Path, page: int) -> str:
    cmd = ["pdftotext", "-enc", "UTF-8", "-f", str(page), "-l", str(page), str(pdf), "-"]
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.replace(" ", "")


@requires_poppler
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_typical_table_signed_fits_one_page_with_its_result_and_signatures(
    office: Path, tmp_path: Path, lang: str
) -> None:
    out = tmp_path / f"typical-{lang}.pdf"
    text = _print(office, out, "scoresheet", "--round", "1", "--table", "1", "--sign", lang=lang)
    assert _pages(out) == 1
    for want in ("某市体育总会", "市体育馆二楼", "孙裁判长", "赵裁判", "甲一", "丁二"):
        assert want in text, want
    assert ("比赛时间" if lang == "zh" else "Timeofplay") in text
    assert ("结束" if lang == "zh" else "end") in text
    if lang == "zh":
        assert "第8副第1墩" in text and "本轮结果" in text and "签字确认" in text
    if shutil.which("pdfimages"):
        # the 300 px wide signature images are drawn at a readable width: under 400 ppi is
        # wider than 19 mm (they were about 9 mm, some 850 ppi)
        listing = subprocess.run(["pdfimages", "-list", str(out)], capture_output=True, text=True).stdout
        rows = [ln.split() for ln in listing.splitlines()[2:] if ln.strip()]
        signatures = [r for r in rows if r[2] == "image" and r[3] == "300"]
        assert len(signatures) == 5
        assert all(int(r[12]) < 400 for r in signatures), rows


@requires_poppler
def test_blank_sheets_for_every_table_of_a_published_round_before_any_result(
    office: Path, tmp_path: Path
) -> None:
    out = tmp_path / "blank-round.pdf"
    text = _print(office, out, "round", "--round", "2", "--blank", "12")
    assert _pages(out) == 2
    for page, players in ((1, ("甲一", "戊三")), (2, ("丙二", "庚四"))):
        sheet = _page_text(out, page)
        assert all(p in sheet for p in players), sheet
        assert "判负调整" in sheet  # the shift column, to fill in
        assert "比赛时间" in sheet and "孙裁判长" in sheet and "某市体育总会" in sheet
    assert "QRRA1" not in text  # a blank sheet is no record to check
    one = tmp_path / "blank-table.pdf"
    text = _print(office, one, "scoresheet", "--round", "2", "--table", "2", "--blank", "10")
    assert _pages(one) == 1 and "丙二" in text and "庚四" in text
    proc = run_cli("--db", str(office), "--lang", "en", "print", "scoresheet", "--round", "3", "--table", "1",
                   "--blank", "10", "-o", str(tmp_path / "none.pdf"))  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("round 3, table 1: no such table in the published pairing")


@requires_poppler
def test_a_signed_batch_marks_the_version_awaiting_signatures_and_the_forfeit_cites_its_clause(
    office: Path, tmp_path: Path
) -> None:
    out = tmp_path / "round1-signed.pdf"
    _print(office, out, "round", "--round", "1", "--sign")
    signed, unsigned = _page_text(out, 1), _page_text(out, _pages(out))
    assert "本版尚待签字" not in signed
    assert "本版尚待签字" in unsigned and "戊三" in unsigned
    # the round forfeit the referee imposed cites 判弃权, not the proposed warning's 拖延比赛时间
    assert "二判弃权" in unsigned and "二、10拖延比赛时间" not in unsigned, unsigned
    slip = tmp_path / "slip.pdf"
    from referee_app.store.service import Store

    with Store.open(str(office), read_only=True) as s:
        rid = next(r["id"] for m in s.export(1) if m["table"] == 2 for r in s.rulings_of(m["match_id"]))
    text = _print(office, slip, "ruling", "--ruling", str(rid))
    assert "二判弃权" in text and "判一轮比赛弃权" in text


def test_an_override_to_a_round_forfeit_cites_the_forfeit_clause() -> None:
    from referee_app.core.engine import judge

    case = forfeit_override_case(1, 2, "3", "4")
    for key in ("round", "table", "pairs"):
        del case[key]
    ruling = judge(case, lang="en")["hands"][1]["rulings"][0]
    assert ruling["round_forfeit"] and ruling["citation"] == "二 判弃权"
    assert ruling["proposed"]["citation"].startswith("二、10")  # the warning proposed keeps its own


@requires_poppler
def test_a_forfeit_during_play_says_its_result_is_assumed(tmp_path: Path) -> None:
    from referee_app.printing.data import scoresheet_from_case
    from referee_app.printing.render import render_scoresheet

    case = json.loads(
        (Path(__file__).parents[1] / "cases/combos/bhg-round-forfeit-mid-round.json").read_text()
    )
    data = scoresheet_from_case(case, "zh")
    assert data.decision["result"]["assumed"]
    out = tmp_path / "forfeit.pdf"
    render_scoresheet(data, out)
    text = pdftotext(out).replace(" ", "")
    decided = next(ln for ln in text.splitlines() if ln.startswith("弃权"))
    assert "按假定" in decided, decided


# -- lists: pairing by table and by name, table cards, the results grid ----------------------
LIST_PAIRS = (
    "number,player1,player2,unit\n1,张伟,李娜,海淀队\n2,王芳,刘洋,朝阳队\n3,安然,赵磊,丰台队\n"
    "4,陈静,周杰,西城队\n5,欧阳明,孙丽,东城队\n"
)


def _short_case(round_no: int, table: int, ns: str, ew: str, points: int) -> dict[str, Any]:
    return {
        "event": "bhg-2011",
        "round": round_no,
        "table": table,
        "pairs": {"NS": ns, "EW": ew},
        "first_dealer": "E",
        "hands": [{"defender_points": points}, {"defender_points": 30}],
        "finished": "time",
    }


@pytest.fixture(scope="module")
def lists_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Five pairs; round 1: 1–2, 3–4, pair 5 a bye; pair 5 withdraws from round 2; round 2
    published: 1–3, 2–4."""
    from referee_app.core.rulebook import load_rulebook
    from referee_app.store.pairs_csv import parse_pairs
    from referee_app.store.service import Actor, Store

    db = tmp_path_factory.mktemp("lists") / "event.db"
    chief = Actor("钱裁判长", "desk")
    with Store.open(str(db), create=True, actor=chief) as s:
        ev = s.create_event(name="名单杯", rulebook=load_rulebook("bhg-2011"), date="2026-05-01", actor=chief)
        s.import_pairs(ev.id, parse_pairs(LIST_PAIRS), actor=chief, source="p.csv")
        body = {"method": "lot", "seed": 1, "tables": [[1, "1", "2"], [2, "3", "4"]], "bye": "5"}
        s.add_desk_record(ev.id, "pairing", 1, body, actor=chief, version=1)
        s.record(ev.id, _short_case(1, 1, "1", "2", 20), actor=chief, lang="zh")  # NS keeps the deal
        s.record(ev.id, _short_case(1, 2, "3", "4", 130), actor=chief, lang="zh")
        s.add_desk_record(ev.id, "withdraw", 2, {"pair": "5", "reason": "队员生病"}, actor=chief)
        body = {"method": "swiss", "seed": 1, "tables": [[1, "1", "3"], [2, "2", "4"]], "bye": None}
        s.add_desk_record(ev.id, "pairing", 2, body, actor=chief, version=1)
    return db


@requires_poppler
def test_the_pairing_by_table_shows_units_and_points_and_the_withdrawn_pair(
    lists_db: Path, tmp_path: Path
) -> None:
    from referee_app.app.event import load_event
    from referee_app.core.standings import compute_standings
    from referee_app.store.service import Store

    with Store.open(str(lists_db), read_only=True) as s:
        loaded = load_event(s, None, before_round=2)
    points = {
        r["pair"]: r["match_points"] for r in compute_standings(loaded.rulebook, loaded.record, seed=1).rows
    }
    out = tmp_path / "by-table.pdf"
    _print(lists_db, out, "pairing", "--round", "2")
    lines = [ln.split() for ln in pdftotext(out, layout=True).splitlines()]
    table1 = next(ln for ln in lines if ln[:2] == ["1", "1"])
    assert table1 == [
        "1",
        "1",
        "张伟、李娜",
        "海淀队",
        str(points["1"]),
        "3",
        "安然、赵磊",
        "丰台队",
        str(points["3"]),
    ]
    assert any(ln[:1] == ["退赛"] and "5" in "".join(ln) for ln in lines)


@requires_poppler
def test_the_pairing_by_name_lists_every_player_in_pinyin_order(lists_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "by-name.pdf"
    _print(lists_db, out, "pairing", "--round", "2", "--by", "name")
    names = [ln.split()[0] for ln in pdftotext(out, layout=True).splitlines() if ln.strip()]
    order = [n for n in names if n in "安然 陈静 李娜 刘洋 欧阳明 孙丽 王芳 张伟 赵磊 周杰".split()]
    assert order == "安然 陈静 李娜 刘洋 欧阳明 孙丽 王芳 张伟 赵磊 周杰".split()
    text = pdftotext(out, layout=True)
    ouyang = next(ln for ln in text.splitlines() if ln.strip().startswith("欧阳明"))
    assert "退赛" in ouyang
    anran = next(ln for ln in text.splitlines() if ln.strip().startswith("安然")).split()
    assert anran[:4] == ["安然", "3", "丰台队", "1"] and "1" in anran[-3:]  # table 1 against pair 1


@requires_poppler
def test_table_cards_and_the_results_grid(lists_db: Path, tmp_path: Path) -> None:
    cards = tmp_path / "cards.pdf"
    _print(lists_db, cards, "table-cards", "--round", "2")
    assert _pages(cards) == 1  # two tables, two to a page
    text = pdftotext(cards)
    assert "王芳、刘洋" in text and "陈静、周杰" in text
    grid = tmp_path / "results.pdf"
    _print(lists_db, grid, "results")
    from referee_app.app.event import load_event
    from referee_app.store.service import Store

    with Store.open(str(lists_db), read_only=True) as s:
        record = load_event(s, None).record
    first = next(m for m in record.results if m.ns == "1")
    word = "胜" if first.winner == "NS" else "负" if first.winner == "EW" else "平"
    rows = {
        ln.split()[0]: ln.split()
        for ln in pdftotext(grid, layout=True).splitlines()
        if ln.strip()[:1].isdigit()
    }
    assert rows["1"][2:4] == [f"2{word}{first.ns_points}", str(first.ns_points)]
    flat = pdftotext(grid).replace(" ", "")
    assert "退赛（第2轮起）" in flat and "轮空2" in flat
    standings = tmp_path / "standings.pdf"
    text = _print(lists_db, standings, "standings")
    assert "欧阳明、孙丽（第2轮起退赛withdrawn）" in text.replace("\n", "")


# -- checking paper: the event named by its identity, signed or not, re-signed PDFs -----------
def _qr_text(pdf: Path, folder: Path) -> str:
    subprocess.run(
        ["pdftoppm", "-r", "150", "-f", "1", "-l", "1", "-png", str(pdf), str(folder / "qr")], check=True
    )
    png = sorted(folder.glob("qr*.png"))[0]
    out = subprocess.run(
        ["zbarimg", "--raw", "-q", str(png)], capture_output=True, text=True, check=True
    ).stdout
    return out.strip()


@requires_poppler
@pytest.mark.skipif(not shutil.which("zbarimg"), reason="zbar-tools (zbarimg) not installed")
def test_verify_paper_tells_another_event_from_an_altered_sheet_and_says_if_it_was_signed(
    office: Path, lists_db: Path, tmp_path: Path
) -> None:
    from referee_app.app.printouts import event_identities
    from referee_app.store.service import Store

    signed_pdf, unsigned_pdf = tmp_path / "t1.pdf", tmp_path / "t2.pdf"
    _print(office, signed_pdf, "scoresheet", "--round", "1", "--table", "1")
    _print(office, unsigned_pdf, "scoresheet", "--round", "1", "--table", "2")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    code = _qr_text(signed_pdf, tmp_path / "a")
    with Store.open(str(office), read_only=True) as s:
        identity = event_identities(s, 1)[0]
        assert identity == s.event_key(1)["sha256"].lower()  # the event's certificate
    assert f":I{identity[:16].upper()}:" in code and code.startswith("RA1:E1:")
    proc = run_cli("--db", str(office), "--lang", "zh", "verify-paper", code)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "为现行版本" in proc.stdout and "该版已由双方队员及临场裁判签字" in proc.stdout
    proc = run_cli(
        "--db", str(office), "--lang", "zh", "verify-paper", _qr_text(unsigned_pdf, tmp_path / "b")
    )
    assert proc.returncode == 0 and "该版尚未签字" in proc.stdout, proc.stdout
    # the same code read against another store whose event is number 1 too: not this event
    proc = run_cli("--db", str(lists_db), "--lang", "zh", "verify-paper", code)
    assert proc.returncode == 1 and "不是本赛事的单据" in proc.stdout and "改动" not in proc.stdout
    proc = run_cli("--db", str(lists_db), "--lang", "en", "verify-paper", code)
    assert proc.returncode == 1 and "not a sheet of this event" in proc.stdout
    # a digit of the printed digest changed: this event's sheet, altered
    digest = code.rsplit(":D", 1)[1]
    altered = code[: -len(digest)] + ("0" if digest[0] != "0" else "1") + digest[1:]
    proc = run_cli("--db", str(office), "--lang", "zh", "verify-paper", altered)
    assert proc.returncode == 1 and "打印后被改动" in proc.stdout and "不是本赛事" not in proc.stdout


def test_verify_pdf_does_not_call_a_pdf_signed_again_by_another_key_intact(
    office: Path, tmp_path: Path
) -> None:
    from referee_app.app.printouts import make_event_identity, sign_pdf

    signed = tmp_path / "signed.pdf"
    _print(office, signed, "scoresheet", "--round", "1", "--table", "1", "--sign")
    other = make_event_identity(tmp_path, "attacker-passphrase", common_name="别的赛事")
    again = tmp_path / "again.pdf"
    _sign_again(signed, again, other.p12_path, "attacker-passphrase")
    proc = run_cli("--db", str(office), "--lang", "zh", "verify-pdf", str(again))
    assert proc.returncode == 1
    assert "另一证书重新签署" in proc.stdout and "完好" not in proc.stdout, proc.stdout
    # a sheet made and signed by someone else from the start
    (tmp_path / "x").mkdir()
    forged = tmp_path / "x" / "forged.pdf"
    sign_pdf(_unsigned_copy(office, tmp_path), forged, other.p12_path, "attacker-passphrase")
    proc = run_cli("--db", str(office), "--lang", "zh", "verify-pdf", str(forged))
    assert proc.returncode == 1 and "不是由本赛事证书签署" in proc.stdout and "完好" not in proc.stdout, (
        proc.stdout
    )


def _sign_again(src: Path, dst: Path, p12: Path, passphrase: str) -> None:
    """An attacker's signature over the file in a field of its own (an incremental update:
    what was signed before stays, the new revision carries whatever the attacker changed)."""
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import signers

    signer = signers.SimpleSigner.load_pkcs12(pfx_file=str(p12), passphrase=passphrase.encode())
    with src.open("rb") as handle, dst.open("wb") as out:
        writer = IncrementalPdfFileWriter(handle, strict=False)
        meta = signers.PdfSignatureMetadata(field_name="Attacker", reason="改过了")
        signers.sign_pdf(writer, meta, signer=signer, output=out)


def _unsigned_copy(db: Path, folder: Path) -> Path:
    out = folder / "plain.pdf"
    _print(db, out, "scoresheet", "--round", "1", "--table", "1")
    return out


# -- other forms ------------------------------------------------------------------------------
@requires_poppler
def test_the_chief_referees_box_never_stands_alone_on_the_standings_last_page(tmp_path: Path) -> None:
    """For every field from 30 to 56 pairs (the box falls past page 1 somewhere there), the
    page with the chief referee's box also holds the last pairs of the table."""
    from referee_app.printing.sheets import StandingsSheet
    from referee_app.printing.standings import render_standings

    seen_two_pages = False
    for n in range(30, 57, 2):
        rows = [
            {"pair": str(i), "rank": i, "match_points": 2 * (n - i), "tiebreaks": {}} for i in range(1, n + 1)
        ]
        sheet = StandingsSheet(
            event_name="名次杯",
            rulebook_id="bhg-2011",
            round=5,
            seed=1,
            tie_breaks=["match_points"],
            rows=rows,
            players={str(i): [f"甲{i}号", f"乙{i}号"] for i in range(1, n + 1)},
            chief_referee="孙裁判长",
        )
        out = tmp_path / f"standings-{n}.pdf"
        render_standings(sheet, out)
        pages = pdftotext(out).split("\f")
        with_box = next(p for p in pages if "裁判长签字确认" in p)
        assert f"甲{n}号" in with_box, (n, with_box[:200])
        seen_two_pages |= len([p for p in pages if p.strip()]) > 1
    assert seen_two_pages


@requires_poppler
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_blank_appeal_form_is_the_events_with_everything_else_to_fill_in(
    office: Path, tmp_path: Path, lang: str
) -> None:
    out = tmp_path / f"blank-appeal-{lang}.pdf"
    text = _print(office, out, "appeal", "--blank", lang=lang)
    assert _pages(out) == 1
    for want in ("申诉表", "某市体育总会", "市体育馆二楼", "孙裁判长", "200"):
        assert want in text, want
    assert "不处罚" not in text and "赛前" not in text and "Beforeplay" not in text  # nothing of a ruling
    proc = run_cli("--db", str(office), "--lang", "en", "print", "appeal", "-o", str(tmp_path / "x.pdf"))
    assert proc.returncode == 2 and "--blank" in proc.stderr


# -- every form's QR names its event (issue 26): ruling slip, appeal form, pairing, standings --
@requires_poppler
@pytest.mark.skipif(not shutil.which("zbarimg"), reason="zbar-tools (zbarimg) not installed")
def test_every_forms_qr_names_the_event_and_verify_paper_checks_it(
    office: Path, lists_db: Path, tmp_path: Path
) -> None:
    """The slip, the appeal form, the pairing list and the standings each carry a QR read
    back from a 150 dpi image; verify-paper confirms each against the store, tells another
    event's form, and an altered one."""
    from referee_app.app.printouts import event_identities
    from referee_app.store.service import Store

    db = tmp_path / "event.db"
    shutil.copy(office, db)
    proc = run_cli(
        "--db", str(db), "appeal", "file", "--ruling", "1", "--by", "NS", "--grounds", "牌是掉出来的",
        "--receipt", "R-0001", "--evidence", "邻桌裁判员目睹",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    with Store.open(str(db), read_only=True) as s:
        identity = event_identities(s, 1)[0][:16].upper()
    forms = {
        "S": (
            ["ruling", "--ruling", "1"],
            "判罚单 E1 R1 T1 v1 #1：赛事记录中确有此版本，内容一致，为现行版本",
        ),
        "A": (["appeal", "--appeal", "1"], "申诉表 E1 R1 T1 #1：赛事记录现有内容与打印一致"),
        "P": (["pairing", "--round", "2"], "对阵表 E1 R2 v1：赛事记录中确有此版本，内容一致，为现行版本"),
        "L": (["standings"], "名次表 E1 R1：赛事记录现有内容与打印一致"),
    }
    codes = {}
    for kind, (args, said) in forms.items():
        pdf = tmp_path / f"{kind}.pdf"
        text = _print(db, pdf, *args)
        (tmp_path / kind).mkdir()
        code = _qr_text(pdf, tmp_path / kind)
        assert code.startswith(f"RA1:K{kind}:E1:I{identity}:"), code
        assert code.rsplit(":D", 1)[1].lower() in text.replace("\n", "")  # the digest in print too
        fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True).stdout
        assert "Helvetica" not in fonts, kind  # the QR block's table embeds the form's font only
        proc = run_cli("--db", str(db), "--lang", "zh", "verify-paper", code)
        assert proc.returncode == 0 and said in proc.stdout, proc.stdout + proc.stderr
        codes[kind] = code
    assert (
        "该版已由双方队员及临场裁判签字"
        in run_cli("--db", str(db), "--lang", "zh", "verify-paper", codes["S"]).stdout
    )
    # another store whose event is number 1 too: not this event's form
    proc = run_cli("--db", str(lists_db), "--lang", "zh", "verify-paper", codes["P"])
    assert proc.returncode == 1 and "不是本赛事的单据" in proc.stdout
    # a digit of the digest changed: a versioned record altered; the standings differ from now
    for kind, said in (("S", "打印后被改动"), ("P", "打印后被改动"), ("L", "打印后已有更改")):
        digest = codes[kind].rsplit(":D", 1)[1]
        altered = codes[kind][: -len(digest)] + ("0" if digest[0] != "0" else "1") + digest[1:]
        proc = run_cli("--db", str(db), "--lang", "zh", "verify-paper", altered)
        assert proc.returncode == 1 and said in proc.stdout and "不是本赛事" not in proc.stdout, proc.stdout
    # an appeal form naming an appeal the store does not hold
    proc = run_cli("--db", str(db), "--lang", "en", "verify-paper", codes["A"].replace(":N1:", ":N9:"))
    assert proc.returncode == 1 and "the store holds no record the form names" in proc.stdout


@requires_poppler
@pytest.mark.skipif(not shutil.which("zbarimg"), reason="zbar-tools (zbarimg) not installed")
def test_a_table_card_carries_each_pairs_own_page_when_the_hall_page_has_an_address(
    office: Path, tmp_path: Path
) -> None:
    """issue 29: a pair's own QR (its hall web page /pair/N) on its table card."""
    cards = tmp_path / "cards.pdf"
    url = "http://192.168.10.20:8080/"
    _print(office, cards, "table-cards", "--round", "2", "--web-url", url)
    subprocess.run(["pdftoppm", "-r", "150", "-png", str(cards), str(tmp_path / "c")], check=True)
    [png] = sorted(tmp_path.glob("c*.png"))
    scan = subprocess.run(["zbarimg", "--raw", "-q", str(png)], capture_output=True, text=True)
    assert sorted(scan.stdout.split()) == [f"{url}pair/{n}" for n in "1234"]  # round 2: 1–3, 2–4
    text = pdftotext(cards).replace(" ", "")
    assert "南北1号专用" in text and "东西4号专用" in text
    plain = tmp_path / "plain.pdf"
    _print(office, plain, "table-cards", "--round", "2")
    subprocess.run(["pdftoppm", "-r", "150", "-png", str(plain), str(tmp_path / "p")], check=True)
    [png] = sorted(tmp_path.glob("p*.png"))
    scan = subprocess.run(["zbarimg", "--raw", "-q", str(png)], capture_output=True, text=True)
    assert scan.stdout == ""  # no address: no code sends a player nowhere
    proc = run_cli("--db", str(office), "print", "table-cards", "--round", "2", "--web-url", "ftp://x", "-o",
                   str(tmp_path / "bad.pdf"))  # fmt: skip
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "ftp://x" in proc.stderr


def test_a_pairs_page_address_is_under_the_hall_pages_address() -> None:
    from referee_app.app.hall_address import pair_page_url

    assert pair_page_url("http://192.168.1.5:8080", "12") == "http://192.168.1.5:8080/pair/12"
    assert pair_page_url("https://hall.example/live/?lang=en", "3") == "https://hall.example/live/pair/3"


@requires_poppler
def test_a_stored_withdrawal_is_ranked_and_printed_with_its_hands(tmp_path: Path) -> None:
    """A pair leaving mid-round (中途退出): the record keeps its hands, the standings score the
    forfeit, and the sheet says so with the clause and 按假定 (see tests/test_withdrawal.py)."""
    from ..test_desk_cli import cli, make_event
    from ..test_withdrawal import _left

    db, store, eid = make_event(tmp_path, 4)
    case = {**_left([0, 0, 45]), "round": 1, "table": 1, "pairs": {"NS": "1", "EW": "2"}}
    store.close()
    path = tmp_path / "c.json"
    path.write_text(json.dumps(case, ensure_ascii=False), encoding="utf-8")
    rc, _, err = cli(db, "record", str(path))
    assert rc == 0, err
    rc, out, err = cli(db, "standings", "--json")
    assert rc == 0, err
    rows = {r["pair"]: r for r in json.loads(out)}
    assert rows["2"]["match_points"] == 2 and rows["1"]["match_points"] == 0
    pdf = tmp_path / "sheet.pdf"
    rc, _, err = cli(db, "print", "scoresheet", "--round", "1", "--table", "1", "-o", str(pdf), lang="zh")
    assert rc == 0, err
    flat = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout.replace(
        " ", ""
    )
    assert "南北方中途退出，本轮判负（已打各副有效）：队员身体不适" in flat.replace("\n", "")
    assert "参赛须知8退出比赛" in flat and "按假定" in flat
    assert "45" in flat  # the third hand, played, is on the sheet
