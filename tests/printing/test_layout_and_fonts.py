"""Issue 12, items 4–6: layout (one page for a 12-hand table, nothing overlapping at long
names and units), columns that add up, and characters outside the main font."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import requires_poppler
from .helpers import CASE, pdftotext, run_cli

LONG_NAME = "欧阳明月清风徐来水波不兴举酒属客诵明月之诗歌窈窕之章少焉月出于东山之上徘徊于斗牛"  # 40
LONG_UNIT = "北京市海淀区中关村街道社区文化体育活动中心桥牌俱乐部双升"  # 28 …
LONG_UNIT += "协会"  # … 30 characters


def _twelve_hands(tmp_path: Path) -> Path:
    assert len(LONG_NAME) == 40 and len(LONG_UNIT) == 30
    hands = [{"defender_points": p} for p in (60, 35, 80, 45, 100, 20, 85, 150, 40, 75, 125, 55)]
    hands[0]["infractions"] = [{"kind": "exposed_card", "seat": "N", "cards": 1, "trick": 7}]
    hands[7]["infractions"] = [{"kind": "wrong_card_count", "seat": "N", "phase": "end_of_hand"}]
    case = {
        "event": "bhg-2011",
        "round": 4,
        "table": 12,
        "pairs": {
            "NS": {"number": "31", "players": [LONG_NAME, "李四"], "unit": LONG_UNIT},
            "EW": {"number": "7", "players": ["王五", LONG_NAME[::-1]], "unit": LONG_UNIT[::-1]},
        },
        "first_dealer": "E",
        "before_play": [{"kind": "late_arrival", "side": "EW", "minutes": 4}],
        "hands": hands,
        "finished": "time",
    }
    path = tmp_path / "twelve.json"
    path.write_text(json.dumps(case, ensure_ascii=False), encoding="utf-8")
    return path


def _pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))  # type: ignore[union-attr]


def _words(pdf: Path) -> list[tuple[float, float, float, float, str]]:
    out = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    words = []
    for m in re.finditer(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', out
    ):
        words.append((float(m[1]), float(m[2]), float(m[3]), float(m[4]), m[5]))
    return words


@requires_poppler
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_twelve_hand_table_is_one_page_and_nothing_overlaps(tmp_path: Path, lang: str) -> None:
    out = tmp_path / "sheet.pdf"
    proc = run_cli(
        "--lang", lang, "print", "scoresheet", "--case", str(_twelve_hands(tmp_path)), "-o", str(out)
    )
    assert proc.returncode == 0, proc.stderr
    assert _pages(out) == 1
    flat = re.sub(r"\s+", "", pdftotext(out))
    # results and signatures are on the same page as the hands
    for needle in ("本轮结果", "签字确认", "临场裁判", LONG_NAME[:12]):
        assert needle in flat, needle
    words = _words(out)
    for i, a in enumerate(words):
        for b in words[i + 1 :]:
            overlap_x = min(a[2], b[2]) - max(a[0], b[0])
            overlap_y = min(a[3], b[3]) - max(a[1], b[1])
            assert not (overlap_x > 1.0 and overlap_y > 1.0), (a, b)
    _render(out, tmp_path)


def _render(pdf: Path, folder: Path) -> None:
    subprocess.run(["pdftoppm", "-r", "80", "-png", str(pdf), str(folder / "page")], check=True)
    assert list(folder.glob("page*.png"))


@requires_poppler
def test_a_hand_loss_shift_has_its_own_column_and_the_columns_add_up(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    proc = run_cli(
        "--lang", "zh", "print", "scoresheet", "--case", str(_twelve_hands(tmp_path)), "-o", str(out)
    )
    assert proc.returncode == 0, proc.stderr
    text = pdftotext(out, layout=True)
    assert "判负调整" in text
    # hand 8: North (the dealer side) loses the hand: the defenders' 150 points move by 80
    row = next(line for line in text.splitlines() if re.search(r"[+−]80\s", line))
    cells = row.replace("−", "-").split()
    start = cells.index("150")
    points, bottom, penalty, shift, total = cells[start : start + 5]
    assert bottom == "—" and shift == "+80"
    assert int(points) + int(penalty) + int(shift) == int(total) == 230, row


@requires_poppler
def test_running_header_of_a_sheet_from_a_case_reads_sensibly(tmp_path: Path) -> None:
    raw = json.loads(CASE.read_text("utf-8"))
    for key in ("round", "table"):
        raw.pop(key)
    raw["hands"] = [{"defender_points": 80}] * 30  # 30 hands: continuation pages
    case = tmp_path / "long.json"
    case.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "sheet.pdf"
    proc = run_cli("--lang", "zh", "print", "scoresheet", "--case", str(case), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    text = pdftotext(out)
    assert _pages(out) >= 2
    assert "· ,（续" not in text and "案例文件 case file（续 cont.）" in text


HANAZONO = Path("/usr/share/fonts/truetype/hanazono/HanaMinB.ttf")


@requires_poppler
@pytest.mark.skipif(not HANAZONO.is_file(), reason="fonts-hanazono (the fallback font) not installed")
def test_characters_outside_the_main_font_print_in_the_fallback_font(tmp_path: Path) -> None:
    raw = json.loads(CASE.read_text("utf-8"))
    raw["pairs"]["NS"]["players"] = ["𠮷田一郎", "䶮雲"]
    raw["pairs"]["NS"]["unit"] = "𪚥龘俱乐部"
    case = tmp_path / "rare.json"
    case.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "sheet.pdf"
    proc = run_cli("--lang", "zh", "print", "scoresheet", "--case", str(case), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    text = pdftotext(out)
    for name in ("𠮷田一郎", "䶮雲", "𪚥龘俱乐部"):  # in the text layer, not blanks
        assert name in text, name
    fonts = subprocess.run(["pdffonts", str(out)], capture_output=True, text=True, check=True).stdout
    assert "HanaMin" in fonts
    _render(out, tmp_path)


def test_a_character_no_font_has_is_refused_by_name(tmp_path: Path) -> None:
    raw = json.loads(CASE.read_text("utf-8"))
    raw["pairs"]["EW"]["players"] = ["王\U000f0000", "赵六"]  # a private-use character
    case = tmp_path / "bad.json"
    case.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "sheet.pdf"
    proc = run_cli("--lang", "zh", "print", "scoresheet", "--case", str(case), "-o", str(out))
    assert proc.returncode == 2
    assert "U+F0000" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not out.exists()


@requires_poppler
@pytest.mark.skipif(not shutil.which("zbarimg"), reason="zbarimg (zbar-tools) not installed")
def test_the_qr_scans_from_a_150_dpi_copy(tmp_path: Path) -> None:
    from referee_app.printing.data import qr_payload, scoresheet_from_case

    out = tmp_path / "sheet.pdf"
    proc = run_cli("--lang", "en", "print", "scoresheet", "--case", str(CASE), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    subprocess.run(["pdftoppm", "-r", "150", "-gray", "-png", str(out), str(tmp_path / "copy")], check=True)
    found = []
    for png in sorted(tmp_path.glob("copy*.png")):
        scan = subprocess.run(["zbarimg", "--raw", "-q", str(png)], capture_output=True, text=True)
        found += scan.stdout.split()
    expected = qr_payload(scoresheet_from_case(json.loads(CASE.read_text("utf-8")), "zh"))
    assert expected in found


@requires_poppler
def test_the_appeal_form_keeps_its_decision_and_signers_on_one_page(tmp_path: Path) -> None:
    from referee_app.printing.render import render_appeal

    from .helpers import appeal

    data = appeal()
    data.grounds = data.grounds[: len(data.grounds) // 3]  # grounds of an ordinary length
    data.committee = [LONG_NAME, "吴十", "郑十一"]
    out = tmp_path / "appeal.pdf"
    render_appeal(data, out)
    assert _pages(out) == 1
    words = _words(out)
    flat = "".join(w[4] for w in words)
    assert "仲裁委员会裁决" in flat and "裁判长" in flat and "孙八" in flat
    for i, a in enumerate(words):  # "Committee member" never runs into a name
        for b in words[i + 1 :]:
            overlap_x = min(a[2], b[2]) - max(a[0], b[0])
            overlap_y = min(a[3], b[3]) - max(a[1], b[1])
            assert not (overlap_x > 1.0 and overlap_y > 1.0), (a, b)
    _render(out, tmp_path)


@requires_poppler
def test_the_standings_unit_column_takes_two_lines_at_most(tmp_path: Path) -> None:
    from referee_app.printing.standings import StandingsSheet, render_standings

    rows = [
        {"rank": i + 1, "pair": str(i + 1), "match_points": 10 - i, "tiebreaks": {"opponents_score": 20 - i}}
        for i in range(40)
    ]
    sheet = StandingsSheet(
        event_name="测试杯",
        rulebook_id="bhg-2011",
        round=5,
        seed=1,
        tie_breaks=["match_points", "opponents_score"],
        rows=rows,
        players={str(i + 1): ["甲", "乙"] for i in range(40)},
        units={str(i + 1): LONG_UNIT for i in range(40)},
    )
    out = tmp_path / "standings.pdf"
    render_standings(sheet, out)
    words = [w for w in _words(out) if w[4] and w[4][0] in LONG_UNIT]
    # the unit's lines: no more than two distinct baselines per row of the table
    lines_per_row = len({round(w[3]) for w in words}) / 40
    assert lines_per_row <= 2.0, lines_per_row
    assert _pages(out) <= 2  # 40 pairs: about 24 rows a page, not 11
    _render(out, tmp_path)


HEADINGS = ("参赛对", "各副牌记录", "违例与判罚", "改判与作废", "本轮结果", "签字确认")


@requires_poppler
def test_no_heading_is_left_alone_at_the_foot_of_a_page(tmp_path: Path) -> None:
    """Tables of 10 to 40 hands with a ruling every third hand: on every page, the last
    line above the footer is never a section heading."""
    from referee_app.printing.data import scoresheet_from_case
    from referee_app.printing.render import render_round

    sheets = []
    for n in range(10, 41, 3):
        hands = [{"defender_points": 80} for _ in range(n)]
        for i in range(0, n, 3):
            # a first delay in a hand is a warning: the levels stay put, the round goes on
            hands[i]["infractions"] = [{"kind": "delay", "seat": "E", "what": "lead", "trick": 2}]
        case = {
            "event": "bhg-2011",
            "round": 1,
            "table": n,
            "first_dealer": "E",
            "hands": hands,
            "finished": "time",
        }
        sheets.append(scoresheet_from_case(case, "zh"))
    out = tmp_path / "tables.pdf"
    render_round(sheets, out)
    pages = _pages(out)
    assert pages > len(sheets)  # some tables flow onto continuation pages
    for page in range(1, pages + 1):
        text = subprocess.run(
            ["pdftotext", "-f", str(page), "-l", str(page), "-layout", str(out), "-"],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        body = [ln for ln in lines if not re.match(r"(记录校验|第 \d+ 页|Page \d+|[0-9a-f]{64})", ln)]
        assert body and not body[-1].startswith(HEADINGS), (page, body[-3:])
