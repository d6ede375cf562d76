"""Every form read back from the PDF: Chinese content, numbers, clauses, fonts, a rendered page."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from referee_app.printing.data import record_digest, split_case
from referee_app.printing.fonts import CANNOT_START

from .conftest import requires_poppler
from .helpers import CASE, appeal, pdftotext, scoresheet

pytestmark = requires_poppler

FORBIDDEN_START = "，。；：！？、）》」”"


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _fonts(path: Path) -> list[list[str]]:
    out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    return [line.split() for line in out.splitlines()[2:] if line.strip()]


def _assert_fonts_embedded(path: Path) -> None:
    rows = _fonts(path)
    assert any("WenQuanYiMicroHei" in r[0] for r in rows), rows
    for r in rows:  # name type encoding emb sub uni object ID: every font embedded
        assert r[-5] == "yes", r


def _render_page(path: Path, tmp_path: Path, page: int = 1) -> None:
    prefix = tmp_path / f"{path.stem}-{page}"
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-f", str(page), "-l", str(page), str(path), str(prefix)],
        capture_output=True,
        check=True,
    )
    pngs = list(tmp_path.glob(f"{path.stem}-{page}*.png"))
    assert pngs and pngs[0].stat().st_size > 5000


def _pages(text: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in re.findall(r"第\s*(\d+)\s*页\s*共\s*(\d+)\s*页", text)]


def test_scoresheet_from_the_command_line(scoresheet_pdf: Path, tmp_path: Path) -> None:
    text = pdftotext(scoresheet_pdf)
    flat = _flat(text)
    for needle in (
        "记分表", "SCORESHEET", "BHGMall双升王牌赛（2011）", "北京华联BHGMall大赛组委会", "2024-05-18",
        "北张三南李四", "东王五西赵六", "海淀区桥牌协会",
        "暴露张", "二、4暴露张", "二、10拖延比赛时间", "二、5出错牌", "二、1迟到",
        "按假定", "已改判", "第2次",
        "西家垫牌时牌从手中滑落，经现场裁判确认系无意失误，且未影响本墩结果，改判警告。",
        "罚10分（南北方）", "罚10分（东西方）",
        "20×4=80", "15×2=30", "25×8=200",
        "东西方（7号对）", "南北方0：东西方2", "南北方−2东西方+2", "南北方5东西方7",
        "临场裁判", "裁判长", "东西方队员",
    ):  # fmt: skip
        assert needle in flat, needle
    # the paper names the defenders' points as the screen does (issue 23: 闲家得分 was the paper's)
    assert "防守方得分" in flat and "闲家" not in flat
    # defenders' totals of the five hands and the round's facts
    for total in ("130", "25", "150", "80", "265"):
        assert total in text.split()
    assert "RA1:CASE:R3:T5:" in flat  # round and table, in the QR text printed under it
    # the record digest covers the case, its decision without wording, pairs, round, table
    raw = __import__("json").loads(CASE.read_text("utf-8"))
    case, meta = split_case(raw)
    from referee_app.core.engine import judge
    from referee_app.printing.data import pairs_from_meta

    digest = record_digest(case, judge(case, lang="en"), pairs_from_meta(meta["pairs"]), 3, 5)
    assert digest in text
    assert f"D{digest.upper()}" in flat
    pages = _pages(text)
    assert (
        pages
        and all(b == len(pages) for _a, b in pages)
        and [a for a, _b in pages] == list(range(1, len(pages) + 1))
    )
    _assert_fonts_embedded(scoresheet_pdf)
    _render_page(scoresheet_pdf, tmp_path)


def test_scoresheet_with_signatures_and_voiding(scoresheet_api_pdf: Path, tmp_path: Path) -> None:
    flat = _flat(pdftotext(scoresheet_api_pdf))
    assert "双方确认第4副得分录入有误，作废后重新录入。" in flat
    assert "钱七" in flat and "孙八" in flat
    out = subprocess.run(["pdfimages", "-list", str(scoresheet_api_pdf)], capture_output=True, text=True)
    if out.returncode == 0:  # two signature images, each with its transparency mask
        rows = [line for line in out.stdout.splitlines()[2:] if line.strip()]
        assert sum(1 for r in rows if r.split()[2] == "image") == 2
        assert sum(1 for r in rows if r.split()[2] == "smask") == 2
    _render_page(scoresheet_api_pdf, tmp_path, page=1)  # the whole sheet fits one page now


def test_long_scoresheet_flows_onto_numbered_pages(tmp_path: Path) -> None:
    from referee_app.printing.data import scoresheet_from_case
    from referee_app.printing.render import render_scoresheet

    hand = {
        "defender_points": 80,
        "bottom": {"points": 5, "captured": False, "shape": "single"},
        "infractions": [{"kind": "delay", "seat": "E", "what": "lead", "trick": 4}],
    }
    case = {"event": "bhg-2011", "first_dealer": "E", "hands": [hand] * 60, "finished": "open"}
    data = scoresheet_from_case(case, "zh")
    path = tmp_path / "long.pdf"
    render_scoresheet(data, path)
    text = pdftotext(path)
    pages = _pages(text)
    n = len(pages)
    assert n >= 3
    assert pages == [(i, n) for i in range(1, n + 1)]
    assert text.count("(续 cont.)") + text.count("（续 cont.）") == n - 1
    assert "第60副" in _flat(text)
    _render_page(path, tmp_path, page=n)


def test_round_pdf_numbers_each_sheet_on_its_own(tmp_path: Path) -> None:
    from referee_app.printing.render import render_round

    sheets = []
    for table in (1, 2, 3):
        s = scoresheet()
        s.table = table
        sheets.append(s)
    path = tmp_path / "round.pdf"
    render_round(sheets, path)
    text = pdftotext(path)
    pages = _pages(text)
    per = pages[-1][1]
    assert pages == [(i, per) for i in range(1, per + 1)] * 3
    flat = _flat(text)
    for table in (1, 2, 3):  # each sheet's QR text names its table
        assert f":R3:T{table}:" in flat


def test_appeal_form(appeal_pdf: Path, tmp_path: Path) -> None:
    text = pdftotext(appeal_pdf)
    flat = _flat(text)
    for needle in (
        "申诉表", "APPEALFORM", "A-2024-003", "跟错牌、垫错牌、错将吃", "西家（东西方）", "二、5出错牌",
        "2024-05-1815:02", "2024-05-1815:47", "本轮比赛结束后10分钟内（截止15:40）", "逾时7分钟", "Lateby7min",
        "经裁判长同意受理（孙八）", "200元", "No.0012345", "二、12判罚程序",
        "申诉成立", "不处罚", "经查看录像，牌系滑落，非出牌行为，申诉成立，撤销原判罚。", "退还", "不予退还",
        "周九", "吴十", "郑十一", "仲裁委员",
    ):  # fmt: skip
        assert needle in flat, needle
    assert _flat(appeal().grounds) in flat  # the grounds, complete and in order
    _assert_fonts_embedded(appeal_pdf)
    _render_page(appeal_pdf, tmp_path)


def test_appeal_grounds_lines_never_start_with_closing_punctuation(appeal_pdf: Path) -> None:
    layout = pdftotext(appeal_pdf, layout=True)
    start = layout.index("四、申诉理由")
    end = layout.index("证据", start)
    lines = [line.strip() for line in layout[start:end].splitlines()[1:] if line.strip()]
    assert len(lines) > 10
    for line in lines:
        assert line[0] not in FORBIDDEN_START, line
        assert line[0] not in CANNOT_START, line


def test_appeal_on_time_and_undecided(tmp_path: Path) -> None:
    from referee_app.printing.render import render_appeal

    path = tmp_path / "blank.pdf"
    render_appeal(appeal(decided=False, filed_minute=38), path)
    flat = _flat(pdftotext(path))
    assert "在时限内" in flat and "逾时" not in flat.replace("逾时不予受理", "")
    assert "申诉成立" in flat  # the choices are printed, none ticked


def test_ruling_slip(ruling_pdf: Path, tmp_path: Path) -> None:
    flat = _flat(pdftotext(ruling_pdf))
    for needle in (
        "判罚单", "RULINGSLIP", "第3副第12墩", "跟错牌、垫错牌、错将吃", "西家（东西方）", "警告",
        "原拟判罚罚10分（东西方）Proposed二、5出错牌", "西家垫牌时牌从手中滑落",
        "本轮比赛结束后10分钟内", "200元", "第1页共1页",
    ):  # fmt: skip
        assert needle in flat, needle
    _assert_fonts_embedded(ruling_pdf)
    _render_page(ruling_pdf, tmp_path)


def test_english_texts(tmp_path: Path) -> None:
    from .helpers import run_cli

    path = tmp_path / "en.pdf"
    proc = run_cli("--lang", "en", "print", "scoresheet", "--case", str(CASE), "-o", str(path))
    assert proc.returncode == 0, proc.stderr
    text = pdftotext(path)
    assert "Exposed card" in text and "记分表" in text  # labels stay bilingual
    assert "10 points (North-South)" in text
