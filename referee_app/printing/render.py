"""The forms as PDF (reportlab): scoresheet (记分表), a round's scoresheets, appeal form
(申诉表), ruling slip (判罚单).

Every label is Chinese with its English beneath or beside, from the form templates in
``forms/``; the data texts (outcomes, rulings) are in the data's language. Each sheet
numbers its own pages ("第 x 页 共 y 页"): a round's PDF holds one sheet per table, each
signed separately on paper.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import IO, Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import A4, A5
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from .data import (
    SEAT_EN,
    SEAT_ZH,
    SIDE_EN,
    SIDE_ZH,
    SIDES,
    AppealFormData,
    PairInfo,
    RulingSlipData,
    ScoresheetData,
    all_rulings,
    offender_text,
    qr_payload,
    sanction_summary,
)
from .fonts import FONT, FONT_MONO, cjk_paragraph, cjk_paragraphs, register_fonts
from .forms import FormTemplate, load_form

Target = str | Path | IO[bytes]

INK = colors.HexColor("#111111")
GREY = colors.HexColor("#5a5a5a")
RULE = colors.HexColor("#333333")
LIGHT = colors.HexColor("#efefef")
HEAD = colors.HexColor("#e2e2e2")
MARK = colors.HexColor("#8a1c1c")

BODY = 8.5
EN_SIZE = 6.5


# -- styles -------------------------------------------------------------------------------
class _Styles:
    def __init__(self) -> None:
        register_fonts()
        base = ParagraphStyle("base", fontName=FONT, fontSize=BODY, leading=BODY * 1.35, textColor=INK)
        base.wordWrap = "CJK"
        self.body = base
        self.small = ParagraphStyle("small", parent=base, fontSize=7.5, leading=7.5 * 1.35)
        self.tiny = ParagraphStyle("tiny", parent=base, fontSize=6.5, leading=6.5 * 1.3, textColor=GREY)
        self.cell = ParagraphStyle("cell", parent=base, fontSize=8, leading=8 * 1.3)
        self.cell_c = ParagraphStyle("cell_c", parent=self.cell, alignment=TA_CENTER)
        self.label = ParagraphStyle("label", parent=base, fontSize=8, leading=9.2)
        self.label_c = ParagraphStyle("label_c", parent=self.label, alignment=TA_CENTER)
        self.grounds = ParagraphStyle("grounds", parent=base, fontSize=10, leading=16, firstLineIndent=20)
        self.mono = ParagraphStyle("mono", parent=base, fontName=FONT_MONO, fontSize=7, leading=8.5)
        self.heading = ParagraphStyle(
            "heading", parent=base, fontSize=10.5, leading=13, spaceBefore=6, spaceAfter=3
        )
        self.title = ParagraphStyle("title", parent=base, fontSize=21, leading=26, alignment=TA_CENTER)
        self.title_en = ParagraphStyle(
            "title_en", parent=base, fontSize=9, leading=11, alignment=TA_CENTER, textColor=GREY
        )
        self.event = ParagraphStyle("event", parent=base, fontSize=13, leading=17, alignment=TA_CENTER)
        self.event_en = ParagraphStyle(
            "event_en", parent=base, fontSize=8, leading=10, alignment=TA_CENTER, textColor=GREY
        )
        self.left = ParagraphStyle("left", parent=base, alignment=TA_LEFT)
        self.note = ParagraphStyle("note", parent=self.cell, textColor=MARK)


_styles: _Styles | None = None


def styles() -> _Styles:
    global _styles
    if _styles is None:
        _styles = _Styles()
    return _styles


def _lab(
    form: FormTemplate, key: str, *, center: bool = False, inline: bool = False, **fields: Any
) -> Paragraph:
    """A bilingual label: Chinese, English beneath (or beside when ``inline``)."""
    st = styles()
    zh = escape(form.zh(key, **fields))
    en = escape(form.en(key, **fields))
    sep = "  " if inline else "<br/>"
    return Paragraph(
        f'{zh}{sep}<font size="{EN_SIZE}" color="#5a5a5a">{en}</font>',
        st.label_c if center else st.label,
    )


def _heading(form: FormTemplate, key: str) -> Paragraph:
    zh = escape(form.zh(key))
    en = escape(form.en(key))
    return Paragraph(f'{zh}&nbsp;&nbsp;<font size="8" color="#5a5a5a">{en}</font>', styles().heading)


def _p(text: Any, style: ParagraphStyle | None = None) -> Any:
    return cjk_paragraph("" if text is None else str(text), style or styles().cell)


def _pc(text: Any) -> Any:
    """Centred cell text; a newline starts a new line."""
    text = "" if text is None else str(text)
    if "\n" in text:
        return cjk_paragraphs(text, styles().cell_c)
    return cjk_paragraph(text, styles().cell_c)


def _two(zh: str, en: str, style: ParagraphStyle | None = None) -> Paragraph:
    """Data shown in both languages (an event name, a side): Chinese, English beneath."""
    st = style or styles().cell
    if not en or en == zh:
        return Paragraph(escape(zh), st)
    return Paragraph(f'{escape(zh)}<br/><font size="{EN_SIZE}" color="#5a5a5a">{escape(en)}</font>', st)


def _grid(
    rows: list[list[Any]],
    widths: Sequence[float],
    *,
    header: bool = False,
    label_cols: Sequence[int] = (),
    extra: Sequence[tuple[Any, ...]] = (),
    repeat: int = 0,
) -> Table:
    t = Table(rows, colWidths=list(widths), repeatRows=repeat, hAlign="LEFT")
    cmds: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, -1), FONT, 8),
        ("GRID", (0, 0), (-1, -1), 0.5, RULE),
        ("BOX", (0, 0), (-1, -1), 1.0, RULE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3.5),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3.5),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
    ]
    if header:
        cmds.append(("BACKGROUND", (0, 0), (-1, 0), HEAD))
    for c in label_cols:
        cmds.append(("BACKGROUND", (c, 0), (c, -1), LIGHT))
    cmds.extend(extra)
    t.setStyle(TableStyle(cmds))
    return t


# -- page furniture: per-sheet page numbers, running header, digest footer -----------------
class SheetMark(Flowable):
    """Zero-size marker at the start of a sheet: the canvas numbers pages per sheet."""

    def __init__(self, info: dict[str, Any]) -> None:
        super().__init__()
        self.info = info
        self.width = self.height = 0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        return (0, 0)

    def draw(self) -> None:
        self.canv._sheet = self.info  # type: ignore[attr-defined]


class NumberedCanvas(Canvas):
    """Keeps each page until the end, then draws "第 x 页 共 y 页" with the sheet's own count."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if not kwargs.get("initialFontName"):
            kwargs["initialFontName"] = FONT  # else reportlab declares Helvetica, not embedded
        super().__init__(*args, **kwargs)
        self._sheet: dict[str, Any] = {}
        self._pages: list[dict[str, Any]] = []

    def showPage(self) -> None:  # noqa: N802 - reportlab's name
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        counts = Counter(id(p["_sheet"]) for p in self._pages)
        seen: Counter[int] = Counter()
        for state in self._pages:
            self.__dict__.update(state)
            key = id(self._sheet)
            seen[key] += 1
            self._furniture(seen[key], counts[key])
            Canvas.showPage(self)
        Canvas.save(self)

    def _furniture(self, page: int, pages: int) -> None:
        info = self._sheet
        form: FormTemplate | None = info.get("form")
        if form is None:
            return
        width, _height = self._pagesize
        margin = info.get("margin", 15 * mm)
        y = info.get("footer_y", 10 * mm)
        self.saveState()
        self.setStrokeColor(RULE)
        self.setLineWidth(0.5)
        self.line(margin, y + 9, width - margin, y + 9)
        self.setFillColor(INK)
        self.setFont(FONT, 8)
        page_zh = form.zh("page", page=page, pages=pages)
        page_en = form.en("page", page=page, pages=pages)
        self.drawRightString(width - margin, y, page_zh)
        self.setFont(FONT, EN_SIZE)
        self.setFillColor(GREY)
        self.drawRightString(width - margin, y - 8, page_en)
        left = info.get("footer_left")
        if left:
            self.setFont(FONT, 7)
            self.setFillColor(INK)
            self.drawString(margin, y, left[0])
            if len(left) > 1:
                self.setFont(FONT_MONO, 6.5)
                self.setFillColor(GREY)
                self.drawString(margin, y - 8, left[1])
        if page > 1 and info.get("running"):
            top = self._pagesize[1] - info.get("top_margin", 14 * mm) + 6
            self.setFont(FONT, 7.5)
            self.setFillColor(GREY)
            self.drawString(margin, top, info["running"])
            self.line(margin, top - 3, width - margin, top - 3)
        self.restoreState()


# -- custom flowables -----------------------------------------------------------------------
class SignatureGrid(Flowable):
    """Boxes to sign in: role (zh, en) at the top, printed name, the signature drawn in when
    its PNG is given (``mask="auto"`` keeps a transparent background transparent)."""

    def __init__(
        self,
        boxes: Sequence[tuple[str, str, str, bytes | None]],
        width: float,
        columns: int = 3,
        box_height: float = 50,
        gap: float = 5,
    ) -> None:
        super().__init__()
        self.boxes = list(boxes)
        self.columns = max(1, min(columns, len(self.boxes) or 1))
        self.box_w = (width - gap * (self.columns - 1)) / self.columns
        self.box_h = box_height
        self.gap = gap
        self.rows = (len(self.boxes) + self.columns - 1) // self.columns
        self.width = width
        self.height = self.rows * box_height + (self.rows - 1) * gap

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        return (self.width, self.height)

    def draw(self) -> None:
        c = self.canv
        for i, (zh, en, name, png) in enumerate(self.boxes):
            row, col = divmod(i, self.columns)
            x = col * (self.box_w + self.gap)
            y = self.height - (row + 1) * self.box_h - row * self.gap
            c.setStrokeColor(RULE)
            c.setLineWidth(0.8)
            c.rect(x, y, self.box_w, self.box_h)
            c.setFillColor(INK)
            c.setFont(FONT, 8)
            c.drawString(x + 4, y + self.box_h - 10, zh)
            zw = c.stringWidth(zh, FONT, 8)
            c.setFont(FONT, EN_SIZE)
            c.setFillColor(GREY)
            c.drawString(x + 4 + zw + 4, y + self.box_h - 10, en)
            # signing line and date
            c.setLineWidth(0.4)
            c.setStrokeColor(GREY)
            c.line(x + 4, y + 13, x + self.box_w - 4, y + 13)
            c.setFont(FONT, 6)
            c.drawString(x + 4, y + 4, "签字 Signature")
            c.drawRightString(x + self.box_w - 4, y + 4, "时间 Time ____:____")
            if name:
                c.setFillColor(INK)
                c.setFont(FONT, 8.5)
                c.drawRightString(
                    x + self.box_w - 4, y + self.box_h - 10, _fit(c, name, FONT, 8.5, self.box_w / 2)
                )
            if png:
                area_h = self.box_h - 14 - 15
                try:
                    img = ImageReader(io.BytesIO(png))
                    c.drawImage(
                        img,
                        x + 6,
                        y + 15,
                        width=self.box_w - 12,
                        height=area_h,
                        mask="auto",
                        preserveAspectRatio=True,
                        anchor="c",
                    )
                except Exception:  # noqa: BLE001 - a bad image must not lose the form
                    c.setFont(FONT, 7)
                    c.setFillColor(MARK)
                    c.drawString(x + 6, y + 22, "（签名图像无法读取 signature image unreadable）")


class CheckRow(Flowable):
    """A row of check boxes with bilingual captions; the chosen one is ticked."""

    def __init__(self, items: Sequence[tuple[str, str, bool]], width: float, height: float = 16) -> None:
        super().__init__()
        self.items = list(items)
        self.width = width
        self.height = height

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        return (self.width, self.height)

    def draw(self) -> None:
        c = self.canv
        step = self.width / max(1, len(self.items))
        for i, (zh, en, ticked) in enumerate(self.items):
            x = i * step
            c.setStrokeColor(INK)
            c.setLineWidth(0.8)
            c.rect(x + 1, 3, 9, 9)
            if ticked:
                c.setLineWidth(1.6)
                c.line(x + 2.5, 7.5, x + 5, 4.5)
                c.line(x + 5, 4.5, x + 9.5, 11)
            c.setFillColor(INK)
            c.setFont(FONT, 8.5)
            c.drawString(x + 14, 4, zh)
            c.setFont(FONT, EN_SIZE)
            c.setFillColor(GREY)
            c.drawString(x + 14 + c.stringWidth(zh, FONT, 8.5) + 3, 4, en)


def _fit(c: Canvas, text: str, font: str, size: float, width: float) -> str:
    if c.stringWidth(text, font, size) <= width:
        return text
    while text and c.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


class QRFlowable(Flowable):
    """A QR code drawn straight on the canvas: reportlab's QR encoder (the one its
    ``barcode.qr`` widget uses), one filled path of runs instead of thousands of validated
    shapes, which made the widget the slowest part of a round's PDF. ASCII payloads only."""

    def __init__(self, payload: str, size: float, quiet: int = 2) -> None:
        super().__init__()
        from reportlab.graphics.barcode import qrencoder

        qr = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
        qr.addData(payload)
        qr.make()
        self.payload = payload
        self.modules = qr.getModuleCount()
        self.dark = [[qr.isDark(r, c) for c in range(self.modules)] for r in range(self.modules)]
        self.quiet = quiet
        self.width = self.height = size

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        return (self.width, self.height)

    def draw(self) -> None:
        c = self.canv
        n = self.modules + 2 * self.quiet
        unit = self.width / n
        c.saveState()
        c.setFillColor(colors.black)
        path = c.beginPath()
        for r, row in enumerate(self.dark):
            y = self.height - (r + self.quiet + 1) * unit
            col = 0
            while col < self.modules:
                if row[col]:
                    start = col
                    while col < self.modules and row[col]:
                        col += 1
                    path.rect((start + self.quiet) * unit, y, (col - start) * unit, unit)
                else:
                    col += 1
        c.drawPath(path, stroke=0, fill=1)
        c.restoreState()


def _qr(payload: str, size: float) -> QRFlowable:
    return QRFlowable(payload, size)


# -- shared blocks --------------------------------------------------------------------------
def _title_block(form: FormTemplate, ev: Any) -> list[Any]:
    st = styles()
    spaced = " ".join(form.title.zh) if len(form.title.zh) <= 4 else form.title.zh
    out: list[Any] = [Paragraph(escape(ev.name_zh), st.event)]
    if ev.name_en:
        out.append(Paragraph(escape(ev.name_en), st.event_en))
    out += [
        Spacer(1, 3),
        Paragraph(escape(spaced), st.title),
        Paragraph(escape(form.title.en.upper()), st.title_en),
        Spacer(1, 5),
    ]
    return out


def _header_values(form: FormTemplate, ev: Any, values: Mapping[str, Any]) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for key in form.header:
        if key == "organiser":
            out.append((key, _two(ev.organiser_zh or "—", ev.organiser_en)))
        elif key == "date":
            out.append((key, _p(ev.date or "")))
        elif key == "rulebook":
            out.append((key, _p(ev.rulebook_id)))
        else:
            v = values.get(key)
            out.append((key, _p("" if v is None else v)))
    return out


def _header_table(form: FormTemplate, ev: Any, values: Mapping[str, Any], width: float) -> Table:
    """Organiser and rulebook each on a full row; the other fields three to a row."""
    items = _header_values(form, ev, values)
    label_w = 58.0
    per_row = 3
    value_w = (width - per_row * label_w) / per_row
    widths = [label_w, value_w] * per_row
    rows: list[list[Any]] = []
    extra: list[tuple[Any, ...]] = []
    wide = ("organiser", "rulebook", "appeal_no")
    short = [it for it in items if it[0] not in wide]
    ordered: list[list[tuple[str, Any]]] = [[it] for it in items if it[0] == "organiser"]
    ordered += [short[i : i + per_row] for i in range(0, len(short), per_row)]
    ordered += [[it] for it in items if it[0] in wide[1:]]
    for chunk in ordered:
        r = len(rows)
        row: list[Any] = []
        for key, value in chunk:
            row += [_lab(form, key), value]
        if len(chunk) == 1 and chunk[0][0] in wide:
            extra.append(("SPAN", (1, r), (-1, r)))
        extra.append(("BACKGROUND", (0, r), (0, r), LIGHT))
        for c in range(1, len(chunk)):
            extra.append(("BACKGROUND", (2 * c, r), (2 * c, r), LIGHT))
        rows.append(row + [""] * (2 * per_row - len(row)))
    return _grid(rows, widths, extra=extra)


def _levels(levels: Mapping[str, Any] | None, lang: str) -> str:
    if not levels:
        return ""
    names = {"NS": "南北", "EW": "东西"} if lang == "zh" else {"NS": "NS", "EW": "EW"}
    return "\n".join(f"{names[s]} {levels.get(s, '')}" for s in SIDES)


def _signed(n: int) -> str:
    if n == 0:
        return "0"
    return f"+{n}" if n > 0 else f"−{abs(n)}"


def _side_name(side: str | None, lang: str) -> str:
    if not side:
        return ""
    return SIDE_ZH.get(side, side) if lang == "zh" else SIDE_EN.get(side, side)


def _pair_text(side: str, pair: PairInfo | None, lang: str) -> str:
    name = _side_name(side, lang)
    if pair and pair.number:
        return f"{name}（{pair.number}号对）" if lang == "zh" else f"{name} (pair {pair.number})"
    return name


def _doc(
    target: Target, pagesize: tuple[float, float], margin: float, title: str, top: float, bottom: float
) -> SimpleDocTemplate:
    return SimpleDocTemplate(
        str(target) if isinstance(target, Path) else target,
        pagesize=pagesize,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=top,
        bottomMargin=bottom,
        title=title,
        author="referee-app",
        creator="referee-app",
        initialFontName=FONT,
    )


# -- scoresheet -----------------------------------------------------------------------------
_DECIDED_BY = {
    "passed_a": ("过A", "passed A"),
    "levels": ("时间到，级数高者胜", "time: higher level"),
    "tie_reached_first": ("级数相同，先到者胜", "tie: reached first"),
    "tie_unresolved": ("级数相同，无法判定", "tie: unresolved"),
    "tie_last_dealer_side": ("级数相同，末副庄家方胜", "tie: last dealer side"),
    "tie_draw": ("级数相同，平局", "tie: draw"),
    "forfeit": ("弃权", "forfeit"),
}


def scoresheet_story(
    data: ScoresheetData, form: FormTemplate | None = None, width: float | None = None
) -> list[Any]:
    """The flowables of one table's scoresheet (starting with its :class:`SheetMark`)."""
    form = form or load_form("scoresheet")
    st = styles()
    width = width or (A4[0] - 30 * mm)
    lang = data.lang
    zh = lang == "zh"
    dec = data.decision
    digest = data.digest
    where_zh = "".join(
        p for p in (f"第{data.round}轮" if data.round else "", f" 第{data.table}桌" if data.table else "")
    )
    where_en = ", ".join(
        p for p in (f"round {data.round}" if data.round else "", f"table {data.table}" if data.table else "")
    )
    running = f"{form.title.zh} {form.title.en} · {data.event.name_zh} · {where_zh} {where_en}（续 cont.）"
    story: list[Any] = [
        SheetMark(
            {
                "form": form,
                "running": running,
                "footer_left": [form.zh("integrity") + " " + form.en("integrity") + "  SHA-256", digest],
                "margin": 15 * mm,
                "footer_y": 11 * mm,
                "top_margin": 14 * mm,
            }
        )
    ]
    story += _title_block(form, data.event)
    story.append(_header_table(form, data.event, {"round": data.round, "table": data.table}, width))

    # pairs
    if form.has("pairs"):
        story.append(_heading(form, "pairs"))
        start = dec.get("hands")[0]["levels_before"] if dec.get("hands") else data.case.get("levels") or {}
        rows: list[list[Any]] = [
            [_lab(form, k, center=True) for k in ("side", "pair_no", "players", "unit", "start_levels")]
        ]
        for side in SIDES:
            pair = data.pairs.get(side, PairInfo())
            rows.append(
                [
                    _two(SIDE_ZH[side], SIDE_EN[side], st.cell_c),
                    _pc(pair.number or ""),
                    _p("、".join(pair.players) if zh else ", ".join(pair.players)),
                    _p(pair.unit or ""),
                    _pc((start or {}).get(side, "2")),
                ]
            )
        story.append(_grid(rows, [70, 50, 175, width - 70 - 50 - 175 - 70, 70], header=True))

    # hands
    hands = dec.get("hands") or []
    if form.has("hands"):
        story.append(_heading(form, "hands"))
        keys = (
            "hand_no", "dealer", "levels_before", "redeclarations", "defender_points",
            "bottom", "penalties", "total", "outcome", "levels_after",
        )  # fmt: skip
        widths = [24, 38, 50, 32, 42, 54, 36, 36, 0, 50]
        widths[8] = width - sum(widths)
        rows = [[_lab(form, k, center=True) for k in keys]]
        case_hands = data.case.get("hands") or []
        for i, hand in enumerate(hands):
            ch = case_hands[i] if i < len(case_hands) else {}
            dealer = hand.get("dealer") or ""
            mult = hand.get("bottom_multiplier") or 0
            raw_bottom = (ch.get("bottom") or {}).get("points", 0)
            bottom = f"{raw_bottom}×{mult}={hand.get('bottom_points', 0)}" if mult else "—"
            outcome = hand.get("text") or ""
            if hand.get("assumed"):
                outcome += f"（{form.zh('assumed')} {form.en('assumed')}）"
            rows.append(
                [
                    _pc(hand.get("number")),
                    _pc(
                        f"{SEAT_ZH.get(dealer, dealer)} {dealer}" if zh else f"{SEAT_EN.get(dealer, dealer)}"
                    ),
                    _pc(_levels(hand.get("levels_before"), lang)),
                    _pc(ch.get("redeclarations", 0)),
                    _pc(ch.get("defender_points", "")),
                    _pc(bottom),
                    _pc(_signed(hand.get("penalty_points") or 0)),
                    _pc(hand.get("defender_total", "")),
                    _p(outcome),
                    _pc(_levels(hand.get("levels_after"), lang)),
                ]
            )
        if not hands:
            rows.append([_lab(form, "no_hands", inline=True)] + [""] * 9)
            extra: list[tuple[Any, ...]] = [("SPAN", (0, 1), (-1, 1))]
        else:
            extra = []
        story.append(_grid(rows, widths, header=True, repeat=1, extra=extra))

    # infractions and rulings
    rulings = all_rulings(dec)
    tricks = _tricks(data.case)
    if form.has("infractions"):
        story.append(CondPageBreak(80))
        story.append(_heading(form, "infractions"))
        keys = ("when", "seat", "infraction", "sanction", "clause", "note")
        widths = [68, 68, 92, 0, 92, 84]
        widths[3] = width - sum(widths)
        rows = [[_lab(form, k, center=True) for k in keys]]
        counters: Counter[int | None] = Counter()
        for hand_no, r in rulings:
            idx = counters[hand_no]
            counters[hand_no] += 1
            notes: list[str] = []
            if r.get("assumed"):
                notes.append(f"{form.zh('assumed')} {form.en('assumed')}")
            if r.get("overridden"):
                notes.append(f"{form.zh('overridden')} {form.en('overridden')}")
            if r.get("voided"):
                notes.append(f"{form.zh('voided')} {form.en('voided')}")
            if r.get("escalated") and (r.get("occurrence") or 0) > 1:
                notes.append(f"第{r['occurrence']}次" if zh else f"occurrence {r['occurrence']}")
            label = data.infraction_labels.get(r.get("kind", ""), (r.get("kind", ""), r.get("kind", "")))
            rows.append(
                [
                    _when(form, hand_no, tricks.get((hand_no, idx)), lang),
                    _p(offender_text(r, lang)),
                    _two(label[0], label[1]) if zh else _p(label[1]),
                    _p(sanction_summary(r, lang)),
                    _p(r.get("citation", "")),
                    _p("；".join(notes) if notes else "", st.note),
                ]
            )
        extra = []
        if not rulings:
            rows.append([_lab(form, "no_infractions", inline=True)] + [""] * 5)
            extra = [("SPAN", (0, 1), (-1, 1))]
        story.append(_grid(rows, widths, header=True, repeat=1, extra=extra))

    # overrides and voidings
    if form.has("corrections"):
        story.append(CondPageBreak(70))
        story.append(_heading(form, "corrections"))
        keys = ("when", "infraction", "proposed", "ruled", "reason")
        widths = [68, 92, 100, 100, 0]
        widths[4] = width - sum(widths)
        rows = [[_lab(form, k, center=True) for k in keys]]
        counters = Counter()
        for hand_no, r in rulings:
            idx = counters[hand_no]
            counters[hand_no] += 1
            if not r.get("overridden"):
                continue
            label = data.infraction_labels.get(r.get("kind", ""), (r.get("kind", ""), r.get("kind", "")))
            proposed = r.get("proposed") or {}
            rows.append(
                [
                    _when(form, hand_no, tricks.get((hand_no, idx)), lang),
                    _two(label[0], label[1]) if zh else _p(label[1]),
                    _p(sanction_summary(proposed, lang) if proposed else ""),
                    _p(sanction_summary(r, lang)),
                    _p(r.get("override_reason", "")),
                ]
            )
        for v in data.voidings:
            by = "，".join(x for x in (v.by or "", v.at or "") if x)
            rows.append(
                [
                    _lab(form, "voided", center=True),
                    _p(v.what),
                    _p(""),
                    _p(form.zh("voided") if zh else form.en("voided")),
                    _p(v.reason + (f"（{form.zh('by')}：{by}）" if by else "")),
                ]
            )
        extra = []
        if len(rows) == 1:
            rows.append([_lab(form, "no_corrections", inline=True)] + [""] * 4)
            extra = [("SPAN", (0, 1), (-1, 1))]
        story.append(_grid(rows, widths, header=True, repeat=1, extra=extra))

    # result
    result_block: list[Any] = []
    if form.has("result"):
        block: list[Any] = [_heading(form, "result")]
        res = dec.get("result")
        if res is None:
            block.append(_grid([[_lab(form, "not_finished", inline=True)]], [width]))
        else:
            winner = res.get("winner")
            if winner:
                wtext = _pair_text(winner, data.pairs.get(winner), lang)
            else:
                wtext = form.zh("draw") if zh else form.en("draw")
            if dec.get("forfeit"):
                fs = dec["forfeit"].get("side")
                wtext += f"（{_side_name(fs, lang)}{form.zh('forfeit') if zh else ' ' + form.en('forfeit')}）"
            mp = res.get("match_points") or {}
            ld = res.get("level_difference") or {}
            sep = "：" if zh else " : "
            names = {"NS": "南北方", "EW": "东西方"} if zh else {"NS": "NS", "EW": "EW"}
            decided = _DECIDED_BY.get(res.get("decided_by", ""), (res.get("decided_by", ""),) * 2)
            decided_text = decided[0] if zh else decided[1]
            if res.get("citation"):
                decided_text += f"（{res['citation']}）"
            half = width / 2
            lw = 70
            rows = [
                [_lab(form, "winner"), _p(wtext), _lab(form, "decided_by"), _p(decided_text)],
                [
                    _lab(form, "match_points"),
                    _p(f"{names['NS']} {mp.get('NS', '')}{sep}{names['EW']} {mp.get('EW', '')}"),
                    _lab(form, "final_levels"),
                    _p(_levels(res.get("levels"), lang).replace("\n", "  ")),
                ],
                [
                    _lab(form, "level_difference"),
                    _p(f"{names['NS']} {_signed(ld.get('NS', 0))}  {names['EW']} {_signed(ld.get('EW', 0))}"),
                    "",
                    "",
                ],
            ]
            block.append(
                _grid(
                    rows,
                    [lw, half - lw, lw, half - lw],
                    extra=[
                        ("SPAN", (1, 2), (3, 2)),
                        ("BACKGROUND", (0, 0), (0, -1), LIGHT),
                        ("BACKGROUND", (2, 0), (2, 1), LIGHT),
                    ],
                )
            )
        result_block = block

    # signatures and integrity
    tail: list[Any] = list(result_block) if form.has("result") else []
    if form.has("signatures"):
        tail.append(_heading(form, "signatures"))
        boxes = [
            (form.zh(k), form.en(k), data.signer_name(k), data.signatures.get(k)) for k in form.signatures
        ]
        tail.append(SignatureGrid(boxes, width, columns=3 if len(boxes) > 4 else 2))
    if form.has("integrity"):
        tail.append(Spacer(1, 6))
        payload = qr_payload(data)
        text = [
            _lab(form, "digest"),
            Paragraph(f'<font name="{FONT_MONO}">{digest}</font>', st.small),
            Spacer(1, 3),
            _lab(form, "rulebook_digest"),
            Paragraph(
                f'{escape(data.event.rulebook_id)}  <font name="{FONT_MONO}" size="6.5">'
                f"{escape(data.event.rulebook_sha256)}</font>",
                st.small,
            ),
            Spacer(1, 3),
            Paragraph(
                f'<font name="{FONT_MONO}" size="6" color="#5a5a5a">QR: {escape(payload)}</font>', st.tiny
            ),
        ]
        qr_size = 60
        t = Table(
            [[_qr(payload, qr_size), text]], colWidths=[qr_size + 10, width - qr_size - 10], hAlign="LEFT"
        )
        t.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), FONT, 8),
                    ("BOX", (0, 0), (-1, -1), 0.8, RULE),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("LEFTPADDING", (0, 0), (0, 0), 5),
                    ("TOPPADDING", (0, 0), (-1, -1), 4),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
                ]
            )
        )
        tail.append(t)
    if tail:
        story.append(KeepTogether(tail))
    return story


def _when(form: FormTemplate, hand: int | None, trick: int | None, lang: str) -> Any:
    if hand is None:
        return _lab(form, "before_play", center=True)
    if trick:
        text = (
            form.zh("hand_trick", hand=hand, trick=trick)
            if lang == "zh"
            else form.en("hand_trick", hand=hand, trick=trick)
        )
    else:
        text = form.zh("hand_only", hand=hand) if lang == "zh" else form.en("hand_only", hand=hand)
    return _pc(text)


def _tricks(case: Mapping[str, Any]) -> dict[tuple[int | None, int], int]:
    """(hand number or None, index of the infraction) → its trick, from the case."""
    out: dict[tuple[int | None, int], int] = {}
    for i, hand in enumerate(case.get("hands") or [], start=1):
        for j, inf in enumerate(hand.get("infractions") or []):
            if isinstance(inf, Mapping) and isinstance(inf.get("trick"), int):
                out[(i, j)] = inf["trick"]
    return out


def render_scoresheet(data: ScoresheetData, target: Target, form: FormTemplate | None = None) -> None:
    """One table's scoresheet as a PDF written to ``target`` (a path or a binary file)."""
    render_round([data], target, form=form)


def render_round(sheets: Sequence[ScoresheetData], target: Target, form: FormTemplate | None = None) -> None:
    """Several scoresheets in one PDF, each starting on a new page and numbered on its own."""
    form = form or load_form("scoresheet")
    styles()
    width = A4[0] - 30 * mm
    story: list[Any] = []
    for i, data in enumerate(sheets):
        if i:
            story.append(PageBreak())
        story += scoresheet_story(data, form, width)
    title = f"{form.title.zh} {form.title.en}"
    if len(sheets) == 1 and sheets[0].round:
        title += f" · 第{sheets[0].round}轮 第{sheets[0].table}桌"
    doc = _doc(target, A4, 15 * mm, title, 14 * mm, 22 * mm)
    doc.build(story, canvasmaker=NumberedCanvas)


# -- ruling slip ----------------------------------------------------------------------------
def render_ruling(data: RulingSlipData, target: Target, form: FormTemplate | None = None) -> None:
    """One ruling (判罚单) on an A5 page."""
    form = form or load_form("ruling")
    st = styles()
    lang = data.lang
    zh = lang == "zh"
    margin = 12 * mm
    width = A5[0] - 2 * margin
    r = data.ruling
    story: list[Any] = [
        SheetMark({"form": form, "margin": margin, "footer_y": 9 * mm, "top_margin": 12 * mm}),
        *_title_block(form, data.event),
        _header_table(form, data.event, {"round": data.round, "table": data.table}, width),
        Spacer(1, 8),
    ]
    lw = 66
    rows: list[list[Any]] = []
    if form.has("ruling"):
        if data.hand is None:
            when: Any = _lab(form, "before_play")
        else:
            when = (
                _p(f"第{data.hand}副" + (f" 第{data.trick}墩" if data.trick else ""))
                if zh
                else _p(f"Hand {data.hand}" + (f", trick {data.trick}" if data.trick else ""))
            )
        label = data.infraction_label if data.infraction_label[0] else (r.get("kind", ""), r.get("kind", ""))
        rows += [
            [_lab(form, "hand"), when],
            [_lab(form, "infraction"), _two(label[0], label[1]) if zh else _p(label[1] or r.get("kind"))],
            [_lab(form, "seat"), _p(offender_text(r, lang))],
            [
                _lab(form, "sanction"),
                _p(
                    sanction_summary(r, lang), ParagraphStyle("s", parent=st.cell, fontSize=9.5, leading=12.5)
                ),
            ],
        ]
        if r.get("occurrence"):
            n = r["occurrence"]
            rows.append([_lab(form, "occurrence"), _p(f"第{n}次" if zh else f"occurrence {n}")])
        rows.append([_lab(form, "ruling_text"), _p(r.get("text", ""))])
    if form.has("clause"):
        clause = data.clause or {}
        parts: list[Any] = [_p(r.get("citation", ""))]
        if clause.get("zh"):
            parts.append(_p(clause["zh"], st.small))
        if clause.get("en"):
            parts.append(Paragraph(escape(clause["en"]), st.tiny))
        if r.get("assumed"):
            parts.append(_lab(form, "assumed"))
        rows.append([_lab(form, "clause"), parts])
    extra: list[tuple[Any, ...]] = []
    if form.has("correction") and r.get("overridden"):
        proposed = r.get("proposed") or {}
        rows.append(
            [
                _lab(form, "correction"),
                [
                    _p(f"{form.zh('proposed')} {form.en('proposed')}：{sanction_summary(proposed, lang)}"),
                    _p(f"{form.zh('reason')} {form.en('reason')}：{r.get('override_reason', '')}"),
                ],
            ]
        )
        extra.append(("TEXTCOLOR", (1, len(rows) - 1), (1, len(rows) - 1), MARK))
    story.append(_grid(rows, [lw, width - lw], label_cols=[0], extra=extra))
    if form.has("appeal_note") and data.appeal:
        ap = data.appeal
        key = "window_score_published" if ap.get("window_from") == "score_published" else "window_round_end"
        window_zh = {
            "window_round_end": "本轮比赛结束后{m}分钟内",
            "window_score_published": "本轮正式分数公布后{m}分钟内",
        }[key]
        window_en = {
            "window_round_end": "within {m} minutes after the round",
            "window_score_published": "within {m} minutes after the official score",
        }[key]
        m = ap.get("window_minutes")
        fields = {
            "window": window_zh.format(m=m),
            "window_en": window_en.format(m=m),
            "fee": ap.get("fee_yuan"),
        }
        story += [
            Spacer(1, 6),
            _grid(
                [
                    [
                        _lab(form, "appeal_note"),
                        [
                            _p(form.zh("appeal_text", **fields), st.small),
                            Paragraph(escape(form.en("appeal_text", **fields)), st.tiny),
                        ],
                    ]
                ],
                [lw, width - lw],
                label_cols=[0],
            ),
        ]
    if form.has("signatures"):
        names = {"table_referee": data.referee or "", "offender": ""}
        boxes = [(form.zh(k), form.en(k), names.get(k, ""), data.signatures.get(k)) for k in form.signatures]
        story += [_heading(form, "signatures"), SignatureGrid(boxes, width, columns=2, box_height=54)]
    doc = _doc(target, A5, margin, f"{form.title.zh} {form.title.en}", 12 * mm, 18 * mm)
    doc.build(story, canvasmaker=NumberedCanvas)


# -- appeal form ----------------------------------------------------------------------------
def _dt(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if value else ""


def render_appeal(data: AppealFormData, target: Target, form: FormTemplate | None = None) -> None:
    """The appeal form (申诉表), pre-filled from the ruling; undecided parts are left to fill in."""
    form = form or load_form("appeal")
    st = styles()
    lang = data.lang
    zh = lang == "zh"
    margin = 15 * mm
    width = A4[0] - 2 * margin
    r = data.ruling
    lw = 70
    story: list[Any] = [
        SheetMark(
            {
                "form": form,
                "margin": margin,
                "footer_y": 11 * mm,
                "top_margin": 14 * mm,
                "running": f"{form.title.zh} {form.title.en} · {data.event.name_zh}"
                + (f" · {data.appeal_no}" if data.appeal_no else "")
                + "（续 cont.）",
            }
        ),
        *_title_block(form, data.event),
        _header_table(
            form, data.event, {"round": data.round, "table": data.table, "appeal_no": data.appeal_no}, width
        ),
    ]
    half = width / 2
    if form.has("ruling"):
        label = data.infraction_label if data.infraction_label[0] else (r.get("kind", ""), r.get("kind", ""))
        if data.hand:
            hand_text = f"第{data.hand}副" if zh else f"Hand {data.hand}"
        else:
            hand_text = "赛前" if zh else "Before play"
        clause_parts: list[Any] = [_p(r.get("citation", ""))]
        if r.get("assumed"):
            clause_parts.append(_p("（按假定 assumed）"))
        rows = [
            [_lab(form, "hand"), _p(hand_text), _lab(form, "ruled_at"), _p(_dt(data.ruled_at))],
            [
                _lab(form, "infraction"),
                _two(label[0], label[1]) if zh else _p(label[1]),
                _lab(form, "seat"),
                _p(offender_text(r, lang)),
            ],
            [_lab(form, "sanction"), _p(sanction_summary(r, lang)), "", ""],
            [_lab(form, "clause"), clause_parts, "", ""],
        ]
        if r.get("overridden"):
            rows[2][1] = [
                _p(sanction_summary(r, lang)),
                _p(f"（{'裁判改判' if zh else 'overridden'}：{r.get('override_reason', '')}）", st.small),
            ]
        story += [
            _heading(form, "ruling"),
            _grid(
                rows,
                [lw, half - lw, lw, half - lw],
                label_cols=[0],
                extra=[
                    ("SPAN", (1, 2), (3, 2)),
                    ("SPAN", (1, 3), (3, 3)),
                    ("BACKGROUND", (2, 0), (2, 1), LIGHT),
                ],
            ),
        ]
    if form.has("timing"):
        pair = data.by_pair
        who = _pair_text(data.by_side, pair, lang)
        if pair and pair.players:
            who += "：" + ("、".join(pair.players) if zh else ", ".join(pair.players))
        key = "window_score_published" if data.window_from == "score_published" else "window_round_end"
        window = (
            form.zh(key, minutes=data.window_minutes) if zh else form.en(key, minutes=data.window_minutes)
        )
        timing = data.timing()
        if timing is not None:
            deadline = form.zh("deadline") if zh else form.en("deadline")
            window += f"（{deadline} {timing.deadline.strftime('%H:%M')}）"
        status: list[Any]
        extra: list[tuple[Any, ...]] = [("SPAN", (1, 0), (3, 0)), ("SPAN", (1, 2), (3, 2))]
        if timing is None:
            status = []
        elif timing.on_time:
            status = [_lab(form, "on_time", inline=True)]
        else:
            late_zh = escape(form.zh("late", minutes=timing.late_minutes))
            late_en = escape(form.en("late", minutes=timing.late_minutes))
            status = [
                Paragraph(
                    f'<font color="#8a1c1c">{late_zh}</font>&nbsp;&nbsp;'
                    f'<font size="{EN_SIZE}" color="#5a5a5a">{late_en}</font>',
                    st.label,
                )
            ]
            if data.late_accepted_by:
                status.append(
                    _p(
                        f"{form.zh('late_accepted')}（{data.late_accepted_by}） {form.en('late_accepted')}",
                        st.small,
                    )
                )
            else:
                status.append(_lab(form, "late_refused", inline=True))
        rows = [
            [_lab(form, "appellant"), _p(who), "", ""],
            [_lab(form, "filed_at"), _p(_dt(data.filed_at)), _lab(form, "window"), [_p(window), *status]],
            [_lab(form, "rules_clause"), _p(_appeal_clause_text(data, lang), st.small), "", ""],
        ]
        story += [
            _heading(form, "timing"),
            _grid(
                rows,
                [lw, half - lw, lw, half - lw],
                label_cols=[0],
                extra=extra + [("BACKGROUND", (2, 1), (2, 1), LIGHT)],
            ),
        ]
    if form.has("fee"):
        amount = form.zh("yuan", amount=data.fee_yuan) if zh else form.en("yuan", amount=data.fee_yuan)
        story += [
            _heading(form, "fee"),
            _grid(
                [[_lab(form, "amount"), _p(amount), _lab(form, "receipt"), _p(data.receipt_no or "")]],
                [lw, half - lw, lw, half - lw],
                label_cols=[0, 2],
            ),
        ]
    if form.has("grounds"):
        paras = cjk_paragraphs(data.grounds, st.grounds)
        rows = [[p] for p in paras]
        if data.evidence:
            rows.append([[_lab(form, "evidence", inline=True), _p(data.evidence)]])
        t = Table(rows, colWidths=[width], hAlign="LEFT")
        t.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), FONT, 10),
                    ("BOX", (0, 0), (-1, -1), 1.0, RULE),
                    ("LEFTPADDING", (0, 0), (-1, -1), 8),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 8),
                    ("TOPPADDING", (0, 0), (-1, -1), 1),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
                    ("TOPPADDING", (0, 0), (-1, 0), 6),
                    ("BOTTOMPADDING", (0, -1), (-1, -1), 6),
                ]
                + ([("LINEABOVE", (0, -1), (-1, -1), 0.5, RULE)] if data.evidence else [])
            )
        )
        story += [_heading(form, "grounds"), t]
        if "appellant" in form.signatures:
            pair = data.by_pair
            name = "、".join(pair.players) if pair and pair.players else ""
            story += [
                Spacer(1, 5),
                SignatureGrid(
                    [(form.zh("appellant"), form.en("appellant"), name, data.signatures.get("appellant"))],
                    half,
                    columns=1,
                    box_height=42,
                ),
            ]
    if form.has("decision"):
        block: list[Any] = [_heading(form, "decision")]
        choices = [
            (form.zh(k), form.en(k), data.decision == k)
            for k in ("upheld", "modified", "rejected", "withdrawn")
        ]
        block.append(_grid([[CheckRow(choices, width - 8)]], [width]))
        reasons = data.decision_reasons
        reason_cell: Any = cjk_paragraphs(reasons, st.cell) if reasons else Spacer(1, 38)
        rows = [
            [_lab(form, "new_sanction"), _p(data.new_sanction or "")],
            [_lab(form, "reasons"), reason_cell],
            [_lab(form, "decided_at"), _p(_dt(data.decided_at))],
        ]
        if form.has("fee_outcome"):
            refunded = data.fee_refunded()
            rows.append(
                [
                    _lab(form, "fee_outcome"),
                    CheckRow(
                        [
                            (form.zh("refunded"), form.en("refunded"), refunded is True),
                            (form.zh("kept"), form.en("kept"), refunded is False),
                        ],
                        width - lw - 8,
                    ),
                ]
            )
        block.append(
            _grid(
                rows,
                [lw, width - lw],
                label_cols=[0],
                extra=[("LINEABOVE", (0, 0), (-1, 0), 0, colors.white)],
            )
        )
        story.append(KeepTogether(block))
    if form.has("signatures"):
        boxes: list[tuple[str, str, str, bytes | None]] = []
        if "committee" in form.signatures:
            members = list(data.committee) or ["", "", ""]
            for i, name in enumerate(members):
                boxes.append(
                    (
                        form.zh("committee"),
                        form.en("committee"),
                        name,
                        data.signatures.get(f"committee_{i + 1}") or data.signatures.get(name),
                    )
                )
        if "chief_referee" in form.signatures:
            boxes.append(
                (
                    form.zh("chief_referee"),
                    form.en("chief_referee"),
                    data.chief_referee or "",
                    data.signatures.get("chief_referee"),
                )
            )
        story.append(
            KeepTogether(
                [
                    _heading(form, "signatures"),
                    SignatureGrid(boxes, width, columns=4 if len(boxes) == 4 else 3, box_height=46),
                ]
            )
        )
    doc = _doc(target, A4, margin, f"{form.title.zh} {form.title.en}", 14 * mm, 19 * mm)
    doc.build(story, canvasmaker=NumberedCanvas)


def _appeal_clause_text(data: AppealFormData, lang: str) -> str:
    c = data.appeal_clause or {}
    if isinstance(c.get("clause"), Mapping):  # the rulebook's whole [appeal] table
        c = c["clause"]
    if not c:
        return ""
    ref = f"{c.get('ref', '')} {c.get('title', '')}".strip()
    body = c.get("zh") if lang == "zh" else c.get("en")
    return f"{ref}：{body}" if body else ref


Renderer = Callable[..., None]
