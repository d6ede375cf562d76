"""Issue 11: the printing's fast paths draw what reportlab's slow ones did — the QR's
codewords, a table's geometry (the light Grid against reportlab's Table), the text of a
round's sheets whichever way a cell is laid out."""

from __future__ import annotations

import io
import json
import random
import string

import pytest

from .conftest import requires_poppler
from .helpers import CASE, pdftotext


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_qr_codewords_are_reportlabs(level: int) -> None:
    from reportlab.graphics.barcode import qrencoder

    from referee_app.printing.qr import qr_codewords

    rng = random.Random(level)
    for n in (1, 14, 47, 90, 134, 220, 400):
        payload = "".join(rng.choice(string.ascii_uppercase + string.digits + ":-") for _ in range(n))
        qr = qrencoder.QRCode(None, level)
        qr.addData(payload)
        version = qr.calculate_version()
        assert qr_codewords(version, level, qr.dataList) == qrencoder.QRCode.createData(
            version, level, qr.dataList
        ), (n, version)


def test_the_qr_modules_are_reportlabs_with_the_fixed_mask() -> None:
    from reportlab.graphics.barcode import qrencoder

    from referee_app.printing.qr import QR_MASK
    from referee_app.printing.render import QRFlowable

    rng = random.Random(7)
    for n in (12, 70, 140, 260):
        payload = "".join(rng.choice(string.ascii_uppercase + string.digits + ":-") for _ in range(n))
        qr = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
        qr.addData(payload)
        qr.version = qr.calculate_version()
        qr.makeImpl(False, QR_MASK)
        size = qr.getModuleCount()
        assert QRFlowable(payload).dark == [[qr.isDark(r, c) for c in range(size)] for r in range(size)]


def test_the_grid_lays_cells_out_as_reportlabs_table() -> None:
    """Same row heights and the same place for every cell's text as Table: paddings,
    middle alignment, a spanned row, a blank row, wrapped and two-line cells."""
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Table, TableStyle

    from referee_app.printing import render
    from referee_app.printing.grid import Grid

    render.styles()
    st = render.styles()
    zero = render._pc("0")
    rows = [
        [render._lab_text("南北方", "NS"), render._pc("12"), render._p("北 张三 南 李四 " * 6)],
        [render._p("东西方", st.small), "", render._two("北京华联", "BHG Mall")],
        [render._pc("合计"), "", ""],
        ["", "", ""],
        [zero, zero, [zero, render._pc("—")]],  # one flowable in cells of three widths
    ]
    widths = [62.0, 40.0, 190.0]
    extra = [
        ("SPAN", (1, 2), (-1, 2)),
        ("BACKGROUND", (0, 0), (-1, 0), render.HEAD),
        ("TOPPADDING", (0, 3), (-1, 3), 7),
    ]
    grid = Grid(rows, widths, padding=render.PADDING, rule=render.RULE, font=render.FONT, commands=extra)
    table = Table(rows, colWidths=widths)
    left, right, top, bottom = render.PADDING
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), render.FONT, 8),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LEFTPADDING", (0, 0), (-1, -1), left),
                ("RIGHTPADDING", (0, 0), (-1, -1), right),
                ("TOPPADDING", (0, 0), (-1, -1), top),
                ("BOTTOMPADDING", (0, 0), (-1, -1), bottom),
                *extra,
            ]
        )
    )
    assert grid.wrap(500, 800) == pytest.approx(table.wrap(500, 800))
    assert grid.heights == pytest.approx(table._rowHeights)

    def placed(flowable) -> list[tuple[str, float, float]]:  # noqa: ANN001
        canvas = Canvas(io.BytesIO(), pageCompression=0)
        flowable.wrapOn(canvas, 500, 800)
        flowable.drawOn(canvas, 20, 300)
        canvas.showPage()
        return sorted(_texts(canvas.getpdfdata()))

    drawn = placed(grid)
    assert len(drawn) == 13  # every text run of the cells
    assert [t for t, _x, _y in drawn] == [t for t, _x, _y in placed(table)]
    expected = [v for _t, x, y in placed(table) for v in (x, y)]
    assert [v for _t, x, y in drawn for v in (x, y)] == pytest.approx(expected, abs=0.02)


def _texts(pdf: bytes) -> list[tuple[str, float, float]]:
    """(text, x, y) of each string shown on the (uncompressed) page, on the page: the
    translations (``cm``) a flowable's drawOn makes are followed through ``q``/``Q``."""
    import re

    ops = re.compile(
        rb"(?<![\w.])(q|Q)(?![\w])|1 0 0 1 ([-\d.]+) ([-\d.]+) (cm|Tm)|\(((?:[^()\\]|\\.)*)\) Tj"
    )
    out = []
    stack: list[tuple[float, float]] = []
    ox = oy = tx = ty = 0.0
    for stream in re.findall(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        if b" Tj" not in stream or b"\x00" in stream:  # not a page's content (a font program)
            continue
        for m in ops.finditer(stream):
            if m.group(1) == b"q":
                stack.append((ox, oy))
            elif m.group(1) == b"Q":
                ox, oy = stack.pop()
            elif m.group(4) == b"cm":
                ox, oy = ox + float(m.group(2)), oy + float(m.group(3))
            elif m.group(4) == b"Tm":
                tx, ty = ox + float(m.group(2)), oy + float(m.group(3))
            elif m.group(5) is not None:
                out.append((m.group(5).decode("latin-1"), round(tx, 2), round(ty, 2)))
    return out


@requires_poppler
def test_a_round_reads_the_same_sheet_by_sheet(tmp_path) -> None:  # noqa: ANN001
    """Every sheet of a round prints its own values (the layout cache keys on the text):
    each table's number and digest on its own pages."""
    from referee_app.printing.data import qr_payload, scoresheet_from_case
    from referee_app.printing.render import render_round

    sheets = []
    for table in range(1, 6):
        case = json.loads(CASE.read_text("utf-8"))
        case["table"] = table
        case["hands"][0]["defender_points"] = 40 + 5 * table
        sheets.append(scoresheet_from_case(case, "zh", date="2024-05-18"))
    out = tmp_path / "round.pdf"
    render_round(sheets, out)
    pages = pdftotext(out).split("\f")
    for sheet, page in zip(sheets, pages, strict=False):  # one page each
        flat = "".join(page.split())
        assert sheet.digest in flat and qr_payload(sheet) in flat
        assert f"1东E2/20{sheet.case['hands'][0]['defender_points']}" in flat  # its first hand's row


@requires_poppler
def test_a_round_keeps_the_labelled_rows_once(tmp_path) -> None:  # noqa: ANN001
    """A round's labelled rows (a table's head, a label column with its background) are
    form XObjects drawn on every sheet; a sheet alone draws them inline, and each sheet of
    the round reads as it does alone."""
    from referee_app.printing.data import scoresheet_from_case
    from referee_app.printing.render import render_round

    sheets = []
    for table in range(1, 4):
        case = json.loads(CASE.read_text("utf-8"))
        case["table"] = table
        case["hands"][0]["defender_points"] = 40 + 5 * table
        sheets.append(scoresheet_from_case(case, "zh", date="2024-05-18"))
    three = tmp_path / "three.pdf"
    render_round(sheets, three)
    assert three.read_bytes().count(b"/Subtype /Form") >= 8  # header, pairs, hands, result rows…
    pages = pdftotext(three, layout=True).split("\f")
    for i, data in enumerate(sheets):
        alone = tmp_path / f"alone{i}.pdf"
        render_round([data], alone)
        assert b"/Subtype /Form" not in alone.read_bytes()
        assert pages[i] == pdftotext(alone, layout=True).split("\f")[0]  # one page a sheet
        for label in ("打前级数", "Before NS/EW", "胜方", "Winner", "主办单位", "Organiser", "违例方"):
            assert label in pages[i]


def test_platypus_is_imported_with_its_unicode_wide_patterns_compiled_on_use() -> None:
    """In a fresh interpreter: after ``referee_app.printing``, reportlab's URL and CJK
    patterns are compiled when first used, match as the compiled ones do, and
    ``re.compile`` is the standard one again."""
    import subprocess
    import sys

    script = """
import re
import referee_app.printing
from reportlab.platypus import paragraph
from reportlab.lib import textsplit
from referee_app.printing.quick_import import PatternOnUse
assert re.compile.__module__ == "re" and re.compile("a") is re.compile("a")
assert type(paragraph.uri_pat) is PatternOnUse and type(textsplit.rx) is PatternOnUse
assert type(paragraph._wsc_re_split.__self__) is re.Pattern  # other patterns as usual
url = re.compile(paragraph.uri_pat.pattern, paragraph.uri_pat.flags)
for text in ("https://例子.中国/路径", "HTTP://Example.COM:8080/a?b#c", "ftp://1.2.3.4", "no url", "http://-x.com"):
    assert bool(paragraph.uri_pat.match(text)) == bool(url.match(text)), text
assert textsplit.rx.sub(r"\\1\\0 ", "中文abc") == "中\\0 文\\0 abc"
print("ok")
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr
