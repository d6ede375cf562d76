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
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
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

from ..core.text import FORFEIT_WORDS, evidence_parts, forfeit_cause, forfeit_text
from . import flow
from .data import (
    SEAT_EN,
    SEAT_ZH,
    SIDE_EN,
    SIDE_ZH,
    SIDES,
    AppealFormData,
    PairInfo,
    PaperStamp,
    RulingSlipData,
    ScoresheetData,
    all_rulings,
    offender_text,
    qr_payload,
    sanction_summary,
    seat_player,
    zone_name,
)
from .fonts import (
    FONT,
    break_lines,
    cjk_paragraph,
    cjk_paragraphs,
    font_runs,
    markup,
    mono_font,
    needs_fallback,
    register_fonts,
)
from .forms import FormTemplate, load_form
from .grid import Grid, Run, RunsText, num, shared_parts, supports, write_runs
from .qr import qr_modules

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
        self.heading = ParagraphStyle(
            "heading", parent=base, fontSize=10.5, leading=13, spaceBefore=4, spaceAfter=2
        )
        self.heading_tight = ParagraphStyle(
            "heading_tight", parent=self.heading, leading=12.5, spaceBefore=2, spaceAfter=1
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
        self.event_l = ParagraphStyle(
            "event_l", parent=self.event, alignment=TA_LEFT, fontSize=12, leading=14
        )
        self.title_r = ParagraphStyle(
            "title_r", parent=self.title, alignment=TA_RIGHT, fontSize=17, leading=19
        )


_styles: _Styles | None = None


def styles() -> _Styles:
    global _styles
    if _styles is None:
        _styles = _Styles()
    return _styles


#: One run of text in a cell: the text, its font size and colour, and its face when not
#: :data:`FONT` (the digest face).
Piece = tuple[Any, ...]


#: Cell layouts by text, style and width (:meth:`CellText._layout`); cleared when full.
_LAYOUTS: dict[Any, Any] = {}
LAYOUTS_KEPT = 20000


class CellText(RunsText):
    """Text in a table cell drawn straight on the canvas, as the :class:`Paragraph` it
    replaces would lay it out (first baseline a font size below the top, lines ``leading``
    apart, left or centred), without parsing markup or wrapping twice: a scoresheet has
    hundreds of cells and a round's PDF a hundred scoresheets.

    ``lines`` are the logical lines; one of a single piece is broken by
    :func:`~.fonts.break_lines` to the column, one of several pieces (a label with its
    English beside it) is kept whole. Where that does not fit, or a character needs a
    fallback font, ``para()`` (the Paragraph it stands for) lays the cell out instead."""

    def __init__(
        self, lines: list[list[Piece]], style: ParagraphStyle, markup_text: str | Callable[[], str]
    ) -> None:
        super().__init__()
        self.lines = lines
        self.style = style
        self._markup = markup_text
        self._laid: list[tuple[float, float, list[tuple[str, float, Any, float, str]]]] = []
        self._stand_in: Any = None
        self._placed: dict[float, Any] = {}
        self._widths: dict[float, tuple[Any, Any]] = {}  # width → (laid, stand-in)
        self._fits: dict[float, tuple[float, list[Run]] | None] = {}
        self.spaceBefore = style.spaceBefore  # a heading in the story keeps its spacing
        self.spaceAfter = style.spaceAfter

    def _layout(self, width: float) -> Any:
        """(top offset, x, runs) per printed line; False when only the Paragraph can do it.
        Layouts are kept by text, style and width: every sheet of a round repeats its labels
        and most of its values."""
        key = (
            tuple(tuple((p[0], p[1], id(p[2]), *p[3:]) for p in line) for line in self.lines),
            self.style.alignment,
            width,
        )
        laid = _LAYOUTS.get(key)
        if laid is None:
            laid = self._lay_out(width)
            if len(_LAYOUTS) >= LAYOUTS_KEPT:
                _LAYOUTS.clear()
            _LAYOUTS[key] = laid
        return laid

    def _lay_out(self, width: float) -> Any:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        laid: list[tuple[float, float, list[tuple[str, float, Any, float, str]]]] = []
        shifts: dict[object, float] = {TA_CENTER: 0.5, TA_RIGHT: 1.0}
        shift = shifts.get(self.style.alignment, 0.0)  # of the room left
        for line in self.lines:
            if len(line) == 1:
                text, size, color, *face = line[0]
                f = face[0] if face else FONT
                if not text:
                    continue
                whole = stringWidth(text, f, size)
                if whole <= width + 1e-6 and "\n" not in text:  # fits: break_lines would keep it
                    broken = [text.rstrip().lstrip(" ")]
                else:

                    def measure(s: str, z: float = size, f: str = f) -> float:
                        return float(stringWidth(s, f, z))

                    broken = break_lines(text, measure, width)
                for part in broken:
                    w = whole if part == text else stringWidth(part, f, size)
                    laid.append((size, (width - w) * shift, [(part, size, color, w, f)]))
            else:
                runs = []
                for t, z, c, *face in line:
                    f = face[0] if face else FONT
                    if t:
                        runs.append((t, z, c, stringWidth(t, f, z), f))
                used = sum(r[3] for r in runs)
                if used > width + 1e-6:
                    return False
                laid.append((max(r[1] for r in runs), (width - used) * shift, runs))
        return laid

    def _at_width(self, width: float) -> tuple[Any, Any]:
        """(laid, stand-in Paragraph or None) at ``width``, made once per width (a cell text
        may stand in cells of several widths, even while a worker prints a round)."""
        kept = self._widths.get(width)
        if kept is None:
            laid = self._layout(width)
            kept = ([], Paragraph(self.markup_text, self.style)) if laid is False else (laid, None)
            self._widths[width] = kept
        return kept

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        laid, stand_in = self._at_width(availWidth)
        self._laid, self._stand_in = laid, stand_in  # what draw() draws
        if stand_in is not None:
            size = stand_in.wrap(availWidth, availHeight)
        else:
            size = (availWidth, len(laid) * self.style.leading)
        self.width, self.height = size
        return size

    @property
    def markup_text(self) -> str:
        """The cell as paragraph markup (made when first needed: most cells never are)."""
        if callable(self._markup):
            self._markup = self._markup()
        return self._markup

    def runs_at(self, width: float) -> list[tuple[str, float, Any, float, float, str]] | None:
        """The runs (text, size, colour, x, baseline, face) of the cell laid out at
        ``width``, placed from its bottom left corner, for a :class:`~.grid.Grid` to write
        in one text object; None when the Paragraph stands in. Kept per width: one cell
        text may stand in several cells of a table, and in every sheet of a round."""
        placed = self._placed.get(width, False)
        if placed is not False:
            return placed
        laid, stand_in = self._at_width(width)
        if stand_in is not None:
            self._placed[width] = None
            return None
        out = []
        top = len(laid) * self.style.leading
        first = True
        for size, dx, runs in laid:
            top = top - size if first else top - self.style.leading
            first = False
            at = dx
            for text, z, color, w, face in runs:
                out.append((text, z, color, at, top, face))
                at += w
        self._placed[width] = out
        return out

    def fit(self, width: float) -> tuple[float, list[Run]] | None:
        """Its height at ``width`` (what :meth:`wrap` gives) and :meth:`runs_at`, kept per
        width: a grid lays out every cell once a sheet, and most cells are the same text."""
        if width not in self._fits:
            placed = self.runs_at(width)
            kept = None if placed is None else (len(self._at_width(width)[0]) * self.style.leading, placed)
            self._fits[width] = kept
        return self._fits[width]

    def draw(self) -> None:
        if self._stand_in is not None:
            self._stand_in.drawOn(self.canv, 0, 0)
            return
        c = self.canv  # drawOn saves and restores the canvas state around draw()
        y = self.height
        first = True
        for size, x, runs in self._laid:
            y = y - size if first else y - self.style.leading
            first = False
            for text, z, color, w, face in runs:
                c.setFillColor(color)
                c.setFont(face, z)
                c.drawString(x, y, text)
                x += w


def _cell(lines: list[list[Piece]], style: ParagraphStyle, markup_text: str | Callable[[], str]) -> Any:
    """:class:`CellText` for text the main font draws in the style's face, else the Paragraph."""
    if style.fontName != FONT or any(needs_fallback(p[0]) for line in lines for p in line):
        return Paragraph(markup_text() if callable(markup_text) else markup_text, style)
    return CellText(lines, style, markup_text)


def _bilingual(
    zh: str, en: str, style: ParagraphStyle, *, inline: bool, sep: str = " ", en_size: float = EN_SIZE
) -> Any:
    """Chinese in the style, English smaller and grey beneath it (or beside when ``inline``,
    after ``sep``: spaces collapse to one as in a paragraph, ``\xa0`` stays)."""
    joint = sep.replace("\xa0", "&nbsp;") if inline else "<br/>"
    raw_zh, raw_en = zh, en

    def text() -> str:
        return f'{markup(raw_zh)}{joint}<font size="{en_size}" color="#5a5a5a">{markup(raw_en)}</font>'

    zh, en = " ".join(zh.split()), " ".join(en.split())
    if not zh or not en:  # a reworded template may leave one out: the Paragraph knows the spacing
        return Paragraph(text(), style)
    size, color = style.fontSize, style.textColor
    if inline:
        gap = sep if "\xa0" in sep else " "
        lines = [[(zh + gap, size, color), (en, en_size, GREY)]]
    else:
        lines = [[(zh, size, color)], [(en, en_size, GREY)]]
    return _cell(lines, style, text)


def _lab(form: FormTemplate, key: str, *, center: bool = False, inline: bool = False, **fields: Any) -> Any:
    """A bilingual label: Chinese, English beneath (or beside when ``inline``). One
    flowable per form, label and placement, drawn wherever it appears: a round's hundred
    sheets repeat the same labels."""
    cache_key = (id(form), key, center, inline, tuple(sorted(fields.items())))
    kept = _LABELS.get(cache_key)
    if kept is not None and kept[0] is form:
        return kept[1]
    style = styles().label_c if center else styles().label
    made = _bilingual(form.zh(key, **fields), form.en(key, **fields), style, inline=inline, sep="  ")
    made.fixed = True  # the form's own words: a grid may share its row between sheets
    _LABELS[cache_key] = (form, made)  # the form kept with it: its id names no other form
    return made


_LABELS: dict[tuple[Any, ...], tuple[FormTemplate, Any]] = {}


def _heading(form: FormTemplate, key: str, tight: bool = False) -> Any:
    """A box's heading; ``tight``: the scoresheet's, closer to its box (one page a table)."""
    style = styles().heading_tight if tight else styles().heading
    return _bilingual(form.zh(key), form.en(key), style, inline=True, sep="\xa0\xa0", en_size=8)


def _plain(text: str, style: ParagraphStyle) -> Any:
    """One style of plain text (newlines become spaces), broken by Chinese rules. A text
    drawn as plain runs is one flowable per text and style (values repeat across a round)."""
    kept = _PLAIN.get((text, id(style)))  # first: a text seen before needs no checking again
    if kept is not None and kept[0] is style:
        return kept[1]
    flat = " ".join(text.split())
    if style.firstLineIndent or style.leftIndent or style.rightIndent or needs_fallback(flat):
        return cjk_paragraph(text, style)
    made = _cell([[(flat, style.fontSize, style.textColor)]], style, lambda: markup(flat))
    if len(_PLAIN) >= LAYOUTS_KEPT:
        _PLAIN.clear()
    _PLAIN[(text, id(style))] = (style, made)  # the style kept with it: its id names no other
    return made


_PLAIN: dict[tuple[str, int], tuple[ParagraphStyle, Any]] = {}


def _p(text: Any, style: ParagraphStyle | None = None) -> Any:
    return _plain("" if text is None else str(text), style or styles().cell)


def _pc(text: Any) -> Any:
    """Centred cell text; a newline starts a new line."""
    text = "" if text is None else str(text)
    style = styles().cell_c
    if "\n" in text:
        return [_plain(p, style) for p in text.split("\n") if p.strip()] or [_plain("", style)]
    return _plain(text, style)


def _two(zh: str, en: str, style: ParagraphStyle | None = None) -> Any:
    """Data shown in both languages (an event name, a side): Chinese, English beneath."""
    st = style or styles().cell
    if not en or en == zh:
        return Paragraph(markup(zh), st)
    return _bilingual(zh, en, st, inline=False)


def _lab_text(zh: str, en: str) -> Any:
    """A short bilingual value on one line (``南北方 NS``)."""
    return _bilingual(zh, en, styles().cell_c, inline=True)


def _grid(
    rows: list[list[Any]],
    widths: Sequence[float],
    *,
    header: bool = False,
    label_cols: Sequence[int] = (),
    extra: Sequence[tuple[Any, ...]] = (),
    repeat: int = 0,
) -> Flowable:
    """A ruled table of the forms' look (a :class:`~.grid.Grid`; reportlab's ``Table`` only
    for style commands the grid does not know)."""
    cmds: list[tuple[Any, ...]] = []
    if header:
        cmds.append(("BACKGROUND", (0, 0), (-1, 0), HEAD))
    for c in label_cols:
        cmds.append(("BACKGROUND", (c, 0), (c, -1), LIGHT))
    cmds.extend(extra)
    if supports(cmds):
        return Grid(rows, widths, padding=PADDING, rule=RULE, font=FONT, repeat=repeat, commands=cmds)
    t = Table(rows, colWidths=list(widths), repeatRows=repeat, hAlign="LEFT")
    left, right, top, bottom = PADDING
    base: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, -1), FONT, 8),
        ("GRID", (0, 0), (-1, -1), 0.5, RULE),
        ("BOX", (0, 0), (-1, -1), 1.0, RULE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), left),
        ("RIGHTPADDING", (0, 0), (-1, -1), right),
        ("TOPPADDING", (0, 0), (-1, -1), top),
        ("BOTTOMPADDING", (0, 0), (-1, -1), bottom),
    ]
    t.setStyle(TableStyle(base + cmds))
    return t


#: A table cell's padding: left, right, top, bottom.
PADDING = (3.5, 3.5, 1.5, 2.5)
#: The scoresheet's hand and ruling rows, one line each, a little tighter than other grids:
#: 12 hands, 8 rulings, the result and six signatures fit one A4 page.
COMPACT_ROWS: tuple[tuple[Any, ...], ...] = (
    ("TOPPADDING", (0, 1), (-1, -1), 0.8),
    ("BOTTOMPADDING", (0, 1), (-1, -1), 1.6),
)


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
        started = self.info.get("started")
        if started is not None:  # a round's PDF reports each table as it is laid out
            started()


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
        self._startPage()  # type: ignore[attr-defined]  # reportlab's own, not in its stubs

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
        width, _height = self._pagesize  # type: ignore[attr-defined]  # reportlab's own, not in its stubs
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
                self.setFont(mono_font(), 6.5)
                self.setFillColor(GREY)
                self.drawString(margin, y - 8, left[1])
        mark = info.get("watermark")
        if mark:
            self.setFillColor(MARK)
            self.setFillAlpha(0.22)
            self.translate(width / 2, self._pagesize[1] / 2)  # type: ignore[attr-defined]  # reportlab's own, not in its stubs
            self.rotate(35)
            self.setFont(FONT, 54)
            self.drawCentredString(0, 10, mark[0])
            self.setFont(FONT, 26)
            self.drawCentredString(0, -26, mark[1].upper())
            self.setFillAlpha(1)
            self.rotate(-35)
            self.translate(-width / 2, -self._pagesize[1] / 2)  # type: ignore[attr-defined]  # reportlab's own, not in its stubs
        if page > 1 and info.get("running"):
            top = self._pagesize[1] - info.get("top_margin", 14 * mm) + 6  # type: ignore[attr-defined]  # reportlab's own, not in its stubs
            draw_text(self, margin, top, info["running"], FONT, 7.5, GREY)
            self.line(margin, top - 3, width - margin, top - 3)
        self.restoreState()


# -- custom flowables -----------------------------------------------------------------------
#: Height of a signature box's signing line above the box's foot (the caption beneath it).
SIGN_LINE = 12


class SignatureGrid(Flowable):
    """Boxes to sign in: the role (zh, en) on the top line, the printed name on its own
    line beneath (so a long name never runs into the role), the signature drawn in when its
    PNG is given (``mask="auto"`` keeps a transparent background transparent), and the
    time it was signed, or a blank to fill in by hand."""

    def __init__(
        self,
        boxes: Sequence[tuple[Any, ...]],
        width: float,
        columns: int = 3,
        box_height: float = 50,
        gap: float = 5,
    ) -> None:
        super().__init__()
        self.boxes = [tuple(b) + ("",) * (5 - len(b)) for b in boxes]
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
        inner = self.box_w - 8
        writer = TextWriter(c)
        put = writer.put
        shared = shared_parts(c)
        for i, (zh, en, name, png, when) in enumerate(self.boxes):
            row, col = divmod(i, self.columns)
            x = col * (self.box_w + self.gap)
            y = self.height - (row + 1) * self.box_h - row * self.gap
            key = ("signature box", zh, en, self.box_w, self.box_h, bool(when))
            form = shared.use(c, key, lambda zh=zh, en=en, when=when: self._box(0, 0, zh, en, when, None))
            if form is None:
                self._box(x, y, zh, en, when, writer)
            else:  # the same box on every sheet of a round: drawn once
                shared.place(c, form, x, y)
            top = y + self.box_h - 9
            if name:
                put(x + 4, top - 10, _fit(c, str(name), FONT, 8.5, inner), 8.5, INK)
            if when:
                put(x + self.box_w - 4, y + 4, f"时间 Time {when}", 6, INK, right=True)
            if png:
                # the signature on its line, as large as the box allows beside the printed
                # name (above the line, right of the name), not shrunk to the name's height
                low = y + SIGN_LINE - 2
                left = x + 4 + (min(c.stringWidth(str(name), FONT, 8.5), inner / 3) + 6 if name else 0)
                area_h = max(8.0, top - 3 - low)
                try:
                    img = ImageReader(io.BytesIO(png))
                    c.drawImage(
                        img,
                        left,
                        low,
                        width=x + self.box_w - 4 - left,
                        height=area_h,
                        mask="auto",
                        preserveAspectRatio=True,
                        anchor="sw",
                    )
                except Exception:  # noqa: BLE001 - a bad image must not lose the form
                    put(x + 6, y + 22, "（签名图像无法读取 signature image unreadable）", 7, MARK)
        writer.done()

    def _box(self, x: float, y: float, zh: str, en: str, when: Any, writer: TextWriter | None) -> None:
        """A box's part that is the same wherever it is signed: its frame, role, signing
        line and captions (the blank time when not signed), its text into ``writer`` (or
        its own text object)."""
        c = self.canv
        own = writer is None
        out = TextWriter(c) if writer is None else writer
        inner = self.box_w - 8
        c.setStrokeColor(RULE)
        c.setLineWidth(0.8)
        c.rect(x, y, self.box_w, self.box_h)
        top = y + self.box_h - 9
        zh_fit = _fit(c, zh, FONT, 7.5, inner)
        out.put(x + 4, top, zh_fit, 7.5, INK)
        zw = c.stringWidth(zh_fit, FONT, 7.5)
        room = inner - zw - 4
        if room > 20:
            out.put(x + 4 + zw + 4, top, _fit(c, en, FONT, EN_SIZE - 0.5, room), EN_SIZE - 0.5, GREY)
        c.setLineWidth(0.4)
        c.setStrokeColor(GREY)
        c.line(x + 4, y + SIGN_LINE, x + self.box_w - 4, y + SIGN_LINE)
        out.put(x + 4, y + 4, "签字 Signature", 6, GREY)
        if not when:
            out.put(x + self.box_w - 4, y + 4, "时间 Time ____:____", 6, GREY, right=True)
        if own:
            out.done()


class TextWriter:
    """Lines of text in the main font gathered into one text object (see
    :class:`~.grid.Grid`); a line with characters the font lacks is drawn at once by
    :func:`draw_text`, in its fallback fonts."""

    def __init__(self, canv: Canvas) -> None:
        self.canv = canv
        self.runs: list[Run] = []

    def put(self, x: float, y: float, text: str, size: float, color: Any, right: bool = False) -> None:
        if needs_fallback(text):
            draw_text(self.canv, x, y, text, FONT, size, color, right=right)
            return
        if right:
            x -= self.canv.stringWidth(text, FONT, size)
        self.runs.append((text, size, color, x, y, FONT))

    def done(self) -> None:
        text = self.canv.beginText()
        write_runs(text, {}, self.runs)
        self.canv.drawText(text)
        self.runs = []


def draw_text(
    c: Canvas, x: float, y: float, text: str, font: str, size: float, color: Any = None, right: bool = False
) -> None:
    """Draw one line of text on the canvas (right-aligned at ``x`` with ``right``)."""
    c.saveState()
    if color is not None:
        c.setFillColor(color)
    runs = font_runs(text) if font == FONT and needs_fallback(text) else [(font, text)]
    if right:
        x -= sum(c.stringWidth(run, f, size) for f, run in runs)
    for f, run in runs:
        c.setFont(f, size)
        c.drawString(x, y, run)
        x += c.stringWidth(run, f, size)
    c.restoreState()


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
    shapes, which made the widget the slowest part of a round's PDF. ASCII payloads only.
    ``size`` None: ``module`` points a module, quiet zone included."""

    def __init__(self, payload: str, size: float | None = None, quiet: int = 2, module: float = 1.0) -> None:
        super().__init__()
        dark = qr_modules(payload)
        self.payload = payload
        self.modules = len(dark)
        self.dark = dark
        self.quiet = quiet
        self.width = self.height = size if size is not None else (self.modules + 2 * quiet) * module

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        return (self.width, self.height)

    def draw(self) -> None:
        c = self.canv
        n = self.modules + 2 * self.quiet
        unit = self.width / n
        c.saveState()
        c.setFillColor(colors.black)
        boxes = []  # one filled path of the rows' dark runs, written as the operators
        # the numbers as the content stream writes them, each once: a run's start and
        # length are a few dozen values, and formatting four numbers a run was most of
        # the drawing
        size = num(unit)
        starts = [num((k + self.quiet) * unit) for k in range(self.modules)]
        lengths = [""] + [num(k * unit) for k in range(1, self.modules + 1)]
        for r, row in enumerate(self.dark):
            y = num(self.height - (r + self.quiet + 1) * unit)
            col = 0
            while col < self.modules:
                if row[col]:
                    start = col
                    while col < self.modules and row[col]:
                        col += 1
                    boxes.append(f"{starts[start]} {y} {lengths[col - start]} {size} re")
                else:
                    col += 1
        c._code.append(" ".join(boxes) + " f")  # type: ignore[attr-defined]  # reportlab's own, not in its stubs
        c.restoreState()


#: The QR's module: 0.75 mm is 4.4 dots at 150 dpi, so a copy or a phone photo still scans.
QR_MODULE = 0.75 * mm


#: The forms' own flowables, which :mod:`.flow` places as a frame does.
OWN_BLOCKS: tuple[type, ...] = (SheetMark, Grid, CellText, SignatureGrid, CheckRow, QRFlowable)


def _qr(payload: str) -> QRFlowable:
    return QRFlowable(payload, quiet=2, module=QR_MODULE)


# -- shared blocks --------------------------------------------------------------------------
def _title_block(form: FormTemplate, ev: Any, width: float | None = None) -> list[Any]:
    """The event's name and the form's title: centred, one under the other; or, given the
    frame's ``width``, the form's title beside the event's name (room for a table's hands)."""
    st = styles()
    spaced = " ".join(form.title.zh) if len(form.title.zh) <= 4 else form.title.zh
    if width is not None:
        event = _bilingual(ev.name_zh, ev.name_en, st.event_l, inline=False, en_size=7)
        title = _bilingual(form.title.zh, form.title.en.upper(), st.title_r, inline=False, en_size=7)
        return [Grid([[event, title]], [width * 0.72, width * 0.28], padding=(0, 0, 0, 3), valign="BOTTOM")]
    out: list[Any] = [Paragraph(markup(ev.name_zh), st.event)]
    if ev.name_en:
        out.append(Paragraph(markup(ev.name_en), st.event_en))
    out += [
        Spacer(1, 3),
        Paragraph(markup(spaced), st.title),
        Paragraph(markup(form.title.en.upper()), st.title_en),
        Spacer(1, 5),
    ]
    return out


def _header_values(form: FormTemplate, ev: Any, values: Mapping[str, Any]) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for key in form.header:
        if key == "organiser":
            out.append((key, _two(ev.organiser_zh or "—", ev.organiser_en)))
        elif key == "venue":
            out.append((key, _p(getattr(ev, "venue", "") or "—")))
        elif key == "date":
            out.append((key, _p(ev.date or "")))
        elif key == "rulebook":
            out.append((key, _p(ev.rulebook_id)))
        else:
            v = values.get(key)
            out.append((key, _p("" if v is None else v)))
    return out


def _header_table(form: FormTemplate, ev: Any, values: Mapping[str, Any], width: float) -> Flowable:
    """Organiser and rulebook each on a full row; the other fields three to a row."""
    items = _header_values(form, ev, values)
    label_w = 56.0
    per_row = 4 if width > 450 else 3  # A4: four short fields a row; the A5 slip: three
    value_w = (width - per_row * label_w) / per_row
    widths = [label_w, value_w] * per_row
    rows: list[list[Any]] = []
    extra: list[tuple[Any, ...]] = []
    wide = ("organiser", "venue", "rulebook") + (("appeal_no",) if per_row < 4 else ())
    short = [it for it in items if it[0] not in wide]
    first = [it for it in items if it[0] in ("organiser", "venue")]
    # organiser and venue share the first row on A4 (the organiser the wider half)
    ordered: list[list[tuple[str, Any]]] = (
        [first] if per_row == 4 and len(first) == 2 else [[it] for it in first]
    )
    ordered += [short[i : i + per_row] for i in range(0, len(short), per_row)]
    ordered += [[it] for it in items if it[0] in wide and it[0] not in ("organiser", "venue")]
    for chunk in ordered:
        r = len(rows)
        row: list[Any] = []
        if len(chunk) == 2 and chunk[0][0] == "organiser" and chunk[1][0] == "venue":
            (k1, v1), (k2, v2) = chunk
            rows.append([_lab(form, k1), v1, "", "", _lab(form, k2), v2, "", ""])
            extra += [
                ("SPAN", (1, r), (3, r)),
                ("SPAN", (5, r), (7, r)),
                ("BACKGROUND", (0, r), (0, r), LIGHT),
                ("BACKGROUND", (4, r), (4, r), LIGHT),
            ]
            continue
        for key, value in chunk:
            row += [_lab(form, key), value]
        if len(chunk) == 1 and chunk[0][0] in wide:
            extra.append(("SPAN", (1, r), (-1, r)))
        extra.append(("BACKGROUND", (0, r), (0, r), LIGHT))
        for c in range(1, len(chunk)):
            extra.append(("BACKGROUND", (2 * c, r), (2 * c, r), LIGHT))
        rows.append(row + [""] * (2 * per_row - len(row)))
    return _grid(rows, widths, extra=extra)


def _dt(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if value else ""


def _levels(levels: Mapping[str, Any] | None) -> str:
    """``3 / 2``: North-South's level, then East-West's (the column heads say so)."""
    if not levels:
        return ""
    return f"{levels.get('NS', '')} / {levels.get('EW', '')}"


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
    "tie_holds_deal_at_end": ("级数相同，终局坐庄方胜", "tie: holds the deal at the end"),
    "tie_lots": ("级数相同，待抽签决定", "tie: awaiting the lots"),
    "tie_referee": ("级数相同，待裁判长裁定", "tie: awaiting the referee's decision"),
    "forfeit": ("弃权", "forfeit"),
}


def _hand_outcome(hand: Mapping[str, Any], lang: str) -> str:
    """The hand's outcome, short, from its language-free fields: who lost the hand, who
    deals next (keeps or takes the deal) and by how many levels, A passed."""
    zh = lang == "zh"
    names = SIDE_ZH if zh else {"NS": "NS", "EW": "EW"}
    parts: list[str] = []
    by_rotation = hand.get("dealer_by_rotation")
    if by_rotation in SEAT_ZH:  # dealt as played: an earlier hand's outcome changed after play
        parts.append(
            f"按实际发牌计（轮庄现应为{SEAT_ZH[by_rotation]}）"
            if zh
            else f"as dealt (rotation now: {SEAT_EN[by_rotation]})"
        )
    lost = hand.get("lost_by")
    if lost in SIDES:
        parts.append(f"{names[lost]}判负" if zh else f"{names[lost]} lose the hand")
    elif lost == "both":
        parts.append("双方判负" if zh else "both sides lose the hand")
    nxt = hand.get("next_dealer")
    side = "NS" if nxt in ("N", "S") else ("EW" if nxt in ("E", "W") else None)
    if side:
        keep = side == hand.get("dealer_side")
        gain = int((hand.get("gains") or {}).get(side) or 0)
        if zh:
            parts.append(f"{names[side]}{'连庄' if keep else '上庄'}" + (f"，升{gain}级" if gain else ""))
        else:
            parts.append(
                f"{names[side]} {'keep' if keep else 'take'} the deal" + (f" +{gain}" if gain else "")
            )
    elif hand.get("in_progress"):
        parts.append("未打完" if zh else "in progress")
    if hand.get("passed_a"):
        parts.append("过A" if zh else "passed A")
    return ("，" if zh else "; ").join(parts)


def _struck(cell: Any) -> Any:
    """A paragraph's text struck through (a voided ruling stays legible, and visibly void)."""
    if isinstance(cell, CellText):
        return Paragraph(f"<strike>{cell.markup_text}</strike>", cell.style)
    if isinstance(cell, Paragraph):
        return Paragraph(f"<strike>{cell.text}</strike>", cell.style)
    return cell


def scoresheet_story(
    data: ScoresheetData, form: FormTemplate | None = None, width: float | None = None
) -> list[Any]:
    """The flowables of one table's scoresheet (starting with its :class:`SheetMark`).

    A table of up to 12 hands fits one A4 page with its result and signatures; a longer
    one flows onto continuation pages under a running header, the result, signatures and
    record block kept together."""
    form = form or load_form("scoresheet")
    st = styles()
    width = width or (A4[0] - 30 * mm)
    lang = data.lang
    zh = lang == "zh"
    dec = data.decision
    digest = data.digest
    stamp = data.record
    where_zh = " ".join(
        p for p in (f"第{data.round}轮" if data.round else "", f"第{data.table}桌" if data.table else "") if p
    )
    where_en = ", ".join(
        p
        for p in (f"round {data.round}" if data.round else "", f"table {data.table}" if data.table else "")
        if p
    )
    where = f"{where_zh} {where_en}" if where_zh else "案例文件 case file"
    version = ""
    if stamp is not None:
        version = f" · 第{stamp.version}版 version {stamp.version}"
    running = f"{form.title.zh} {form.title.en} · {data.event.name_zh} · {where}{version}（续 cont.）"
    story: list[Any] = [
        SheetMark(
            {
                "form": form,
                "running": running,
                "footer_left": (
                    [form.zh("integrity") + " " + form.en("integrity") + "  SHA-256", digest]
                    if not data.blank_hands
                    else ["", _zone_line(form)]
                ),
                "margin": 15 * mm,
                "footer_y": 10 * mm,
                "top_margin": 12 * mm,
            }
        )
    ]
    story += _title_block(form, data.event, width)
    values: dict[str, Any] = {"round": data.round, "table": data.table}
    if stamp is not None:
        values["version"] = f"第{stamp.version}版" if zh else f"version {stamp.version}"
    else:
        values["version"] = "—"
    story.append(_header_table(form, data.event, values, width))

    # pairs, with each player at a seat (the first player North or East)
    if form.has("pairs"):
        story.append(_heading(form, "pairs", tight=True))
        hands_decided = dec.get("hands")
        start = hands_decided[0]["levels_before"] if hands_decided else data.case.get("levels") or {}
        rows: list[list[Any]] = [
            [_lab(form, k, center=True) for k in ("side", "pair_no", "players", "unit", "start_levels")]
        ]
        seats = {"NS": ("N", "S"), "EW": ("E", "W")}
        for side in SIDES:
            pair = data.pairs.get(side, PairInfo())
            seated = []
            for i, seat in enumerate(seats[side]):
                name = pair.players[i] if i < len(pair.players) else ""
                seated.append(f"{SEAT_ZH[seat] if zh else seat} {name}".strip())
            rows.append(
                [
                    _lab_text(SIDE_ZH[side], side),
                    _pc(pair.number or ""),
                    _p("　".join(seated) if zh else " · ".join(seated)),
                    _p(pair.unit or ""),
                    _pc((start or {}).get(side, "2")),
                ]
            )
        story.append(_grid(rows, [62, 40, 190, width - 62 - 40 - 190 - 56, 56], header=True))

    # hands: the columns add up — points + bottom + penalties + the hand-loss shift = total
    hands = dec.get("hands") or []
    case_hands = data.case.get("hands") or []

    def shift_of(i: int, hand: Mapping[str, Any]) -> int:
        ch = case_hands[i] if i < len(case_hands) else {}
        parts = int(ch.get("defender_points") or 0) + int(hand.get("bottom_points") or 0)
        parts += int(hand.get("penalty_points") or 0)
        total = hand.get("defender_total")
        return int(total) - parts if isinstance(total, int) else 0

    shifts = [shift_of(i, h) for i, h in enumerate(hands)]
    if form.has("hands"):
        story.append(_heading(form, "hands", tight=True))
        keys = [
            "hand_no", "dealer", "levels_before", "redeclarations", "defender_points",
            "bottom", "penalties", "shift", "total", "outcome", "levels_after",
        ]  # fmt: skip
        widths: list[float] = [22, 32, 48, 30, 52, 54, 32, 40, 32, 0, 48]  # 防守方得分 on one line
        if not any(shifts) and not data.blank_hands:  # a blank sheet keeps it, to fill in
            i = keys.index("shift")
            del keys[i], widths[i]
        widths[keys.index("outcome")] = width - sum(widths)
        rows = [[_lab(form, k, center=True) for k in keys]]
        blank = data.blank_hands if not hands else 0
        for i, hand in enumerate(hands):
            ch = case_hands[i] if i < len(case_hands) else {}
            dealer = hand.get("dealer") or ""
            mult = hand.get("bottom_multiplier") or 0
            raw_bottom = (ch.get("bottom") or {}).get("points", 0)
            bottom = f"{raw_bottom}×{mult}={hand.get('bottom_points', 0)}" if mult else "—"
            outcome = _hand_outcome(hand, lang)
            if hand.get("assumed"):
                outcome += f"（{form.zh('assumed')}）" if zh else f" ({form.en('assumed')})"
            cells = {
                "hand_no": _pc(hand.get("number")),
                "dealer": _pc(
                    f"{SEAT_ZH.get(dealer, dealer)} {dealer}" if zh else SEAT_EN.get(dealer, dealer)
                ),
                "levels_before": _pc(_levels(hand.get("levels_before"))),
                "redeclarations": _pc(ch.get("redeclarations", 0)),
                "defender_points": _pc(ch.get("defender_points", "")),
                "bottom": _pc(bottom),
                "penalties": _pc(_signed(hand.get("penalty_points") or 0)),
                "shift": _pc(_signed(shifts[i]) if shifts[i] else ""),
                "total": _pc(hand.get("defender_total", "")),
                "outcome": _p(outcome, st.small),
                "levels_after": _pc(_levels(hand.get("levels_after"))),
            }  # fmt: skip
            rows.append([cells[k] for k in keys])
        for n in range(blank):
            rows.append([_pc(n + 1)] + [""] * (len(keys) - 1))
        extra: list[tuple[Any, ...]] = []
        if not hands and not blank:
            rows.append([_lab(form, "no_hands", inline=True)] + [""] * (len(keys) - 1))
            extra = [("SPAN", (0, 1), (-1, 1))]
        if blank:
            extra = [
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white]),
                ("TOPPADDING", (0, 1), (-1, -1), 0.8),
            ]
        elif hands:
            extra = list(COMPACT_ROWS)  # a typical table's hands, rulings and result on one page
        story.append(_grid(rows, widths, header=True, repeat=1, extra=extra))

    # infractions and rulings (voided ones struck through, with their mark)
    rulings = all_rulings(dec)
    facts = _facts(data.case)
    if form.has("infractions"):
        keys2 = ("when", "seat", "infraction", "sanction", "clause", "note")
        # English words run longer: each on one line, the clause (Chinese) a little narrower
        widths = [58.0, 98, 96, 0, 92, 58] if zh else [52.0, 98, 114, 0, 84, 48]
        widths[3] = width - sum(widths)
        rows = [[_lab(form, k, center=True) for k in keys2]]
        counters: Counter[int | None] = Counter()
        extra = []
        for hand_no, r in rulings:
            idx = counters[hand_no]
            counters[hand_no] += 1
            fact = facts.get((hand_no, idx), {})
            notes: list[str] = []
            mark = form.zh if zh else form.en  # the notes in the sheet's language: one line each
            if r.get("assumed"):
                notes.append(mark("assumed"))
            if r.get("overridden"):
                notes.append(mark("overridden"))
            if r.get("voided"):
                notes.append(mark("voided"))
            if r.get("escalated") and (r.get("occurrence") or 0) > 1:
                notes.append(f"第{r['occurrence']}次" if zh else f"occurrence {r['occurrence']}")
            label = data.infraction_labels.get(r.get("kind", ""), (r.get("kind", ""), r.get("kind", "")))
            minutes = fact.get("minutes")
            if isinstance(minutes, int) and not isinstance(minutes, bool):
                label = (f"{label[0]}（{minutes}分钟）", f"{label[1]} ({minutes} min)")
            who = offender_text(r, lang)
            name = seat_player(data.pairs, r.get("seat")) if r.get("seat") else ""
            if len(name) > 8:  # the whole name is in the pairs table, by its seat
                name = name[:7] + "…"
            text = st.cell if zh else st.small  # English runs longer: a size down keeps one line
            row = [
                _when(form, hand_no, fact.get("trick"), lang),
                _p(f"{who} {name}".strip(), text),
                _p(label[0] if zh else label[1], text),
                _p(sanction_summary(r, lang, instruction=False), text),
                _p(r.get("citation", "")),
                _p("；".join(notes) if notes else "", st.note),
            ]
            if r.get("voided"):
                row = [_struck(c) for c in row[:5]] + [row[5]]
            rows.append(row)
        if data.blank_hands:  # rows to write infractions in by hand
            rows += [[""] * 6 for _ in range(3)]
            extra = [("TOPPADDING", (0, 1), (-1, -1), 5), ("BOTTOMPADDING", (0, 1), (-1, -1), 5)]
        elif not rulings:
            rows.append([_lab(form, "no_infractions", inline=True)] + [""] * 5)
            extra = [("SPAN", (0, 1), (-1, 1))]
        else:
            extra = list(COMPACT_ROWS)
        story.append(
            KeepTogether(
                [_heading(form, "infractions", tight=True), _grid(rows[:2], widths, header=True, extra=extra)]
            )
            if len(rows) <= 2
            else CondPageBreak(60)
        )
        if len(rows) > 2:
            story += [
                _heading(form, "infractions", tight=True),
                _grid(rows, widths, header=True, repeat=1, extra=extra),
            ]

    # overrides and voidings: printed only when there are any
    if form.has("corrections"):
        keys3 = ("when", "infraction", "proposed", "ruled", "reason")
        widths = [64.0, 92, 100, 100, 0]
        widths[4] = width - sum(widths)
        rows = [[_lab(form, k, center=True) for k in keys3]]
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
                    _when(form, hand_no, facts.get((hand_no, idx), {}).get("trick"), lang),
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
        if len(rows) > 1:
            story += [
                CondPageBreak(60),
                _heading(form, "corrections", tight=True),
                _grid(rows, widths, header=True, repeat=1),
            ]

    # result (the QR beside it), signatures, the record's lines: kept together, never a
    # heading alone at the foot of a page
    tail: list[Any] = []
    blank = bool(data.blank_hands)
    payload = qr_payload(data, digest) if form.has("integrity") and not blank else ""
    qr = _qr(payload) if payload else None
    rw = width - (qr.width + 6 if qr is not None else 0)
    result_block: list[Any] = []
    if form.has("result"):
        res = dec.get("result")
        if blank:  # to fill in by hand
            keys4 = ("winner", "decided_by", "match_points", "final_levels")
            rows = [[_lab(form, k, inline=True), ""] for k in keys4]
            rows.append([_lab(form, "play_time", inline=True), _p(_play_time(form, data, lang))])
            result_block.append(
                _grid(rows, [96, rw - 96], label_cols=[0], extra=[("TOPPADDING", (0, 0), (-1, -1), 3)])
            )
        elif res is None:
            result_block.append(_grid([[_lab(form, "not_finished", inline=True)]], [rw]))
        else:
            winner = res.get("winner")
            if winner:
                wtext = _pair_text(winner, data.pairs.get(winner), lang)
            else:
                wtext = form.zh("draw") if zh else form.en("draw")
            if dec.get("forfeit"):  # worded by what lost the round: a forfeit or a disqualification
                wtext += f"（{forfeit_text(dec, lang)}）" if zh else f" ({forfeit_text(dec, lang)})"
            mp = res.get("match_points") or {}
            ld = res.get("level_difference") or {}
            sep = "：" if zh else " : "
            names = {"NS": "南北方", "EW": "东西方"} if zh else {"NS": "NS", "EW": "EW"}
            decided = _DECIDED_BY.get(res.get("decided_by", ""), (res.get("decided_by", ""),) * 2)
            decided_text = decided[0] if zh else decided[1]
            if res.get("decided_by") == "forfeit" and forfeit_cause(dec) == "disqualified":
                decided_text = FORFEIT_WORDS["disqualified"][lang]
            if res.get("citation"):
                decided_text += f"（{res['citation']}）"
            if res.get("assumed") or (dec.get("forfeit") or {}).get("assumed"):
                # a reading of the rulebook decided it (a forfeit during play keeps the board's
                # levels, say): said where the result is, not only in the rulings
                decided_text += f"（{form.zh('assumed')}）" if zh else f" ({form.en('assumed')})"
            lw = 96
            final = res.get("levels") or {}
            rows = [
                [_lab(form, "winner", inline=True), _p(wtext)],
                [_lab(form, "decided_by", inline=True), _p(decided_text)],
                [
                    _lab(form, "match_points", inline=True),
                    _p(f"{names['NS']} {mp.get('NS', '')}{sep}{names['EW']} {mp.get('EW', '')}"),
                ],
                [
                    _lab(form, "final_levels", inline=True),
                    _p(
                        f"{names['NS']} {final.get('NS', '')}  {names['EW']} {final.get('EW', '')}"
                        f"　（{form.zh('level_difference') if zh else form.en('level_difference')}"
                        f" {names['NS']} {_signed(ld.get('NS', 0))}"
                        f"  {names['EW']} {_signed(ld.get('EW', 0))}）"
                    ),
                ],
                [_lab(form, "play_time", inline=True), _p(_play_time(form, data, lang))],
            ]
            result_block.append(_grid(rows, [lw, rw - lw], label_cols=[0]))
        warning = dec.get("time_warning")
        if warning and not blank:
            # where the round's time warning fell and the last hand it allowed (限时提醒)
            reading = ("，按假定" if zh else "; assumed") if warning.get("assumed") else ""
            given, last, where = warning["hand"], warning["last_hand"], warning["citation"]
            warning_text = (
                f"第 {given} 副发出，最多打到第 {last} 副（{where}{reading}）"
                if zh
                else f"given in hand {given}, play up to hand {last} ({where}{reading})"
            )
            result_block.append(
                _grid(
                    [[_lab(form, "time_warning", inline=True), _p(warning_text)]],
                    [96, rw - 96],
                    label_cols=[0],
                )
            )
    if (
        stamp is not None
        and not blank
        and data.signed_at is None
        and (data.stamp is not None or stamp.version > 1)
    ):
        # a version nobody has signed yet, in a signed batch or as a correction: its paper
        # must not pass for the signed record
        zh_u, en_u = form.zh("unsigned"), form.en("unsigned")
        result_block.insert(
            0,
            _cell(
                [[(zh_u + "\xa0\xa0", st.label.fontSize, MARK), (en_u, EN_SIZE, MARK)]],
                st.label,
                f'<font color="#8a1c1c">{markup(zh_u)}&nbsp;&nbsp;'
                f'<font size="{EN_SIZE}">{markup(en_u)}</font></font>',
            ),
        )
    if form.has("integrity") and not blank:
        result_block += [Spacer(1, 3), *_record_lines(form, data, digest, payload)]
    if result_block or qr is not None:
        tail.append(_heading(form, "result", tight=True))
        tail_cells: list[Any] = [result_block or [Spacer(1, 1)], qr] if qr is not None else [result_block]
        tail_widths = [rw, qr.width + 6] if qr is not None else [rw]
        pad = [("LEFTPADDING", (1, 0), (1, 0), 6)] if qr is not None else []
        tail.append(Grid([tail_cells], tail_widths, padding=(0, 0, 0, 0), valign="TOP", commands=pad))
        if payload:
            tail.append(_qr_line(payload))
    if form.has("signatures"):
        tail.append(_heading(form, "signatures", tight=True))
        when = _dt(data.signed_at)
        seat_of = {"ns_player_1": "N", "ns_player_2": "S", "ew_player_1": "E", "ew_player_2": "W"}
        boxes = []
        for k in form.signatures:
            zh_label, en_label = form.zh(k), form.en(k)
            if k in seat_of:
                seat = seat_of[k]
                zh_label = f"{zh_label}（{SEAT_ZH[seat]}）"
                en_label = f"{en_label} ({SEAT_EN[seat]})"
            signed = data.signatures.get(k)
            boxes.append((zh_label, en_label, data.signer_name(k), signed, when if signed else ""))
        tail.append(SignatureGrid(boxes, width, columns=3 if len(boxes) > 4 else 2, box_height=40, gap=3))
    if data.stamp is not None:
        tail += [Spacer(1, 3), stamp_block(data.stamp, width)]
    if tail:
        story.append(KeepTogether(tail))
    return story


def _play_time(form: FormTemplate, data: ScoresheetData, lang: str) -> str:
    """``开始 09:00　结束 10:42``: when play began and ended at the table (a line to fill
    in by hand for a time not known)."""
    label = form.zh if lang == "zh" else form.en

    def at(value: datetime | None) -> str:
        return value.strftime("%H:%M") if value is not None else "____:____"

    return f"{label('started')} {at(data.play_started)}　{label('ended')} {at(data.play_ended)}"


def stamp_block(stamp: Any, width: float) -> Table:
    """The visible signature: signer, time, certificate fingerprint, reason and location,
    drawn into the page before pyHanko signs the file (its stamp font has no Chinese)."""
    st = styles()
    fp = stamp.fingerprint
    fp_text = " ".join(fp[i : i + 8] for i in range(0, len(fp), 8))
    lines = [
        Paragraph(
            f'电子签名 <font size="{EN_SIZE}" color="#5a5a5a">Digitally signed (PAdES)</font>　'
            f"{markup(stamp.signer)}　{_dt(stamp.at)} {zone_name(stamp.at)}"
            f"　理由 Reason：{markup(stamp.reason)}　地点 Location：{markup(stamp.location)}",
            st.tiny,
        ),
        Paragraph(
            f'证书指纹 Certificate SHA-256：<font name="{mono_font()}" size="6">{fp_text}</font>', st.tiny
        ),
    ]
    t = Table([[lines]], colWidths=[width], hAlign="LEFT")
    t.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 8),
                ("BOX", (0, 0), (-1, -1), 1.2, MARK),
                ("LEFTPADDING", (0, 0), (-1, -1), 5),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    return t


def _zone_line(form: FormTemplate) -> str:
    """The time zone every time on a form is in (the station's)."""
    zone = zone_name()
    if "local_times" in form.labels:
        return f"{form.zh('local_times', zone=zone)} {form.en('local_times', zone=zone)}"
    return f"表中时间均为本地时间（{zone}） Times are local ({zone})"


#: Hex digits of the audit chain head's hash printed on a scoresheet's record line.
CHAIN_PRINT_HEX = 32


def _record_lines(form: FormTemplate, data: ScoresheetData, digest: str, payload: str) -> list[Any]:
    """What the QR holds, in print, for a third party to check the sheet against the store:
    the event's id, the record's version, the audit chain's head, the record digest; the
    time zone of every time on the sheet; or the mark of a sheet not from the event record."""
    st = styles()
    stamp = data.record
    zone = zone_name(data.signed_at)
    mono = mono_font()
    small, tiny = (st.small.fontSize, st.small.textColor), (st.tiny.fontSize, st.tiny.textColor)
    out: list[Any] = []
    if stamp is None:  # a stored record's digest is in every page's footer and in the QR
        out.append(
            _cell(
                [[(f"{form.zh('digest')}：", *small), (digest, 6.5, st.small.textColor, mono)]],
                st.small,
                f'{markup(form.zh("digest"))}：<font name="{mono}" size="6.5">{digest}</font>',
            )
        )
        zh, en = form.zh("not_from_record"), form.en("not_from_record")
        out.append(
            _cell(
                [
                    [
                        (" ".join(zh.split()) + "\xa0\xa0", st.label.fontSize, MARK),
                        (" ".join(en.split()), EN_SIZE, MARK),
                    ]
                ],
                st.label,
                f'<font color="#8a1c1c">{markup(zh)}&nbsp;&nbsp;'
                f'<font size="{EN_SIZE}">{markup(en)}</font></font>',
            )
        )
    else:
        head = (
            f"{form.zh('record')} {form.en('record')}：E{stamp.event_id}"
            f" · 第{stamp.version}版 version {stamp.version}"
            f" · {form.zh('chain_head')} {form.en('chain_head')} #{stamp.chain_seq} "
        )
        # the chain head's first 128 bits, on the line (the QR holds 64): enough to tell
        # any two entries apart, and a line fewer on a table's one page
        chain = stamp.chain_hash[:CHAIN_PRINT_HEX]
        out.append(
            _cell(
                [[(" ".join(head.split()) + " ", *small), (chain, 6, st.small.textColor, mono)]],
                st.small,
                f'{markup(head)}<font name="{mono}" size="6">{chain}</font>',
            )
        )
    rulebook = f"{form.zh('rulebook_digest')} {data.event.rulebook_id} "
    out.append(
        _cell(
            [
                [
                    (" ".join(rulebook.split()) + " ", *tiny),
                    (data.event.rulebook_sha256, 6, st.tiny.textColor, mono),
                ]
            ],
            st.tiny,
            f'{markup(rulebook)}<font name="{mono}" size="6">{markup(data.event.rulebook_sha256)}</font>',
        )
    )
    out.append(_plain(f"{form.zh('local_times', zone=zone)} {form.en('local_times', zone=zone)}", st.tiny))
    return out


PADS = ("LEFTPADDING", "RIGHTPADDING", "TOPPADDING", "BOTTOMPADDING")
#: A form's kind (:data:`~.data.PAPER_KINDS`) as its record line names it.
PAPER_KIND_WORDS = {
    "S": ("判罚单", "ruling slip"),
    "A": ("申诉表", "appeal form"),
    "P": ("对阵表", "pairing list"),
    "L": ("名次表", "standings"),
}


def paper_block(stamp: PaperStamp, width: float) -> Any:
    """A form's QR (the scoresheet's code with its kind, :class:`~.data.PaperStamp`) beside
    what it holds in print: the event, the form and its record, the audit chain's head and
    the digest, for ``verify-paper`` and a third party to check the paper against the store."""
    from reportlab.platypus import Table

    code = _qr(stamp.payload())
    block = Table([[code, paper_lines(stamp)]], colWidths=[code.width + 6, width - code.width - 6])
    block.setStyle(
        [
            ("FONTNAME", (0, 0), (-1, -1), FONT),  # else the table's own Helvetica is embedded
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LEFTPADDING", (0, 0), (0, 0), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
        ]
    )
    return block


def paper_lines(stamp: PaperStamp) -> list[Any]:
    """What a form's QR holds, in print (:func:`paper_block`)."""
    st = styles()
    mono = mono_font()
    payload = stamp.payload()
    kind = PAPER_KIND_WORDS[stamp.kind]
    where = [f"E{stamp.event_id}", f"第{stamp.round}轮 round {stamp.round}"]
    if stamp.table is not None:
        where.append(f"第{stamp.table}桌 table {stamp.table}")
    if stamp.version is not None:
        where.append(f"第{stamp.version}版 version {stamp.version}")
    if stamp.number is not None and stamp.kind in ("S", "A"):
        where.append(f"No. {stamp.number}")
    head = f"{kind[0]} {kind[1]} · 记录 record {' · '.join(where)} · 审计链 chain head #{stamp.chain_seq}"
    lines = [
        Paragraph(markup(head), st.tiny),
        Paragraph(
            f'{markup("摘要 SHA-256 digest")}：<font name="{mono}" size="6">{stamp.digest}</font>', st.tiny
        ),
        Paragraph(
            f'{markup("赛事标识 event identity")}：<font name="{mono}" size="6">{stamp.identity}</font>',
            st.tiny,
        ),
        Paragraph(f'<font name="{mono}" size="5">QR {markup(payload)}</font>', st.tiny),
        Paragraph(markup("核对 check：referee-app verify-paper QR"), st.tiny),
    ]
    return lines


def _qr_line(payload: str) -> Any:
    """What the QR holds, in print, the whole width of the page (one line: no break in it)."""
    st = styles()
    mono = mono_font()
    return _cell(
        [[(f"QR {payload}", 5.5, st.tiny.textColor, mono)]],
        st.tiny,
        f'<font name="{mono}" size="5.5">QR {markup(payload)}</font>',
    )


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


def _facts(case: Mapping[str, Any]) -> dict[tuple[int | None, int], dict[str, Any]]:
    """(hand number or None before play, index of the infraction) → the facts entered."""
    out: dict[tuple[int | None, int], dict[str, Any]] = {}
    for j, inf in enumerate(case.get("before_play") or []):
        if isinstance(inf, Mapping):
            out[(None, j)] = dict(inf)
    for i, hand in enumerate(case.get("hands") or [], start=1):
        for j, inf in enumerate(hand.get("infractions") or []):
            if isinstance(inf, Mapping):
                out[(i, j)] = dict(inf)
    return out


def render_scoresheet(data: ScoresheetData, target: Target, form: FormTemplate | None = None) -> None:
    """One table's scoresheet as a PDF written to ``target`` (a path or a binary file)."""
    render_round([data], target, form=form)


def render_round(
    sheets: Sequence[ScoresheetData],
    target: Target,
    form: FormTemplate | None = None,
    progress: Callable[[int], None] | None = None,
) -> None:
    """Several scoresheets in one PDF, each starting on a new page and numbered on its own.
    ``progress(n)`` is called as the n-th sheet is laid out (the slow part), and once more
    when the file is written."""
    form = form or load_form("scoresheet")
    styles()
    width = A4[0] - 30 * mm
    done = [0]

    def started() -> None:
        done[0] += 1
        if progress is not None and done[0] < len(sheets):
            progress(done[0])

    def story(check: bool) -> Iterator[Any]:
        """The sheets' blocks, each sheet made when the one before it is laid out."""
        for i, data in enumerate(sheets):
            if i:
                yield PageBreak()
            part = scoresheet_story(data, form, width)
            part[0].info["started"] = started
            if check and not flow.supported(part, OWN_BLOCKS):
                raise flow.Unsupported(part)
            yield from part

    title = f"{form.title.zh} {form.title.en}"
    if len(sheets) == 1 and sheets[0].round:
        title += f" · 第{sheets[0].round}轮 第{sheets[0].table}桌"
    doc = _doc(target, A4, 15 * mm, title, 12 * mm, 16.5 * mm)
    try:  # the same pages without platypus's machinery
        flow.build(doc, story(check=True), NumberedCanvas)
    except flow.Unsupported:
        done[0] = 0
        doc.build(list(story(check=False)), canvasmaker=NumberedCanvas)
    if progress is not None:
        progress(len(sheets))


# -- ruling slip ----------------------------------------------------------------------------
def render_ruling(data: RulingSlipData, target: Target, form: FormTemplate | None = None) -> None:
    """One ruling (判罚单) on an A5 page: what was ruled, when, against whom, under which
    clause. An overridden ruling shows the proposal it replaced and the reason once; a
    ruling replaced later is marked superseded across the page; a decided appeal replaces
    the invitation to appeal."""
    form = form or load_form("ruling")
    st = styles()
    lang = data.lang
    zh = lang == "zh"
    margin = 12 * mm
    width = A5[0] - 2 * margin
    r = data.ruling
    serial = data.serial or ""
    story: list[Any] = [
        SheetMark(
            {
                "form": form,
                "margin": margin,
                "footer_y": 9 * mm,
                "top_margin": 12 * mm,
                "footer_left": [f"No. {serial}" if serial else "", _zone_line(form)],
                "watermark": (form.zh("superseded"), form.en("superseded")) if data.superseded_by else None,
            }
        ),
        *_title_block(form, data.event),
        _header_table(form, data.event, {"round": data.round, "table": data.table}, width),
        Spacer(1, 6),
    ]
    lw = 66
    half = width / 2
    rows: list[list[Any]] = []
    extra: list[tuple[Any, ...]] = [("BACKGROUND", (2, 0), (2, 0), LIGHT)]
    if data.superseded_by:
        rows.append([_lab(form, "superseded"), _p(data.superseded_by, st.note), "", ""])
        extra += [("SPAN", (1, 0), (3, 0)), ("BACKGROUND", (2, 0), (2, 0), colors.white)]
    top = len(rows)
    rows.append(
        [_lab(form, "serial"), _p(serial), _lab(form, "ruled_at"), _p(_dt(data.ruled_at) or "____:____")]
    )
    extra.append(("BACKGROUND", (2, top), (2, top), LIGHT))

    def wide(label: Any, value: Any, *, mark: bool = False) -> None:
        rows.append([label, value, "", ""])
        extra.append(("SPAN", (1, len(rows) - 1), (3, len(rows) - 1)))
        if mark:
            extra.append(("TEXTCOLOR", (1, len(rows) - 1), (1, len(rows) - 1), MARK))

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
        wide(_lab(form, "hand"), when)
        wide(_lab(form, "infraction"), _two(label[0], label[1]) if zh else _p(label[1] or r.get("kind")))
        who = offender_text(r, lang)
        players = data.offender_players()
        wide(_lab(form, "seat"), _p(f"{who} {players}".strip()))
        wide(
            _lab(form, "sanction"),
            _p(sanction_summary(r, lang), ParagraphStyle("s", parent=st.cell, fontSize=9.5, leading=12.5)),
        )
        if r.get("occurrence") and (r.get("occurrence") or 0) > 1:
            n = r["occurrence"]
            wide(_lab(form, "occurrence"), _p(f"第{n}次" if zh else f"occurrence {n}"))
    overridden = bool(r.get("overridden"))
    if form.has("clause"):
        parts: list[Any] = []
        forfeit = overridden and bool(r.get("round_forfeit")) and bool(data.clause)
        if overridden and not forfeit:
            basis = data.decided_on_appeal or (form.zh("by_referee") if zh else form.en("by_referee"))
            parts.append(_p(basis))
        else:  # a rule's clause; an override to a round forfeit cites the forfeit's own (判弃权)
            clause = data.clause or {}
            ref = " ".join(x for x in (clause.get("ref", ""), clause.get("title", "")) if x)
            parts.append(_p(ref or r.get("citation", "")))
            if clause.get("zh"):
                parts.append(_p(clause["zh"], st.small))
            if clause.get("en"):
                parts.append(Paragraph(markup(clause["en"]), st.tiny))
            if r.get("assumed"):
                parts.append(_lab(form, "assumed"))
        wide(_lab(form, "clause"), parts)
    if form.has("correction") and overridden:
        proposed = r.get("proposed") or {}
        pc = data.proposed_clause or {}
        pref = " ".join(x for x in (pc.get("ref", ""), pc.get("title", "")) if x) or proposed.get(
            "citation", ""
        )
        wide(
            _lab(form, "proposed"),
            [_p(sanction_summary(proposed, lang)), _p(pref, st.small)],
        )
        wide(_lab(form, "reason"), _p(r.get("override_reason", "")), mark=True)
    elif form.has("ruling") and r.get("text"):
        wide(_lab(form, "ruling_text"), _p(r.get("text", "")))
    story.append(_grid(rows, [lw, half - lw, lw, half - lw], label_cols=[0], extra=extra))
    if form.has("appeal_note") and data.appeal:
        note: list[Any]
        if data.superseded_by:
            note = []
        elif data.appeal_outcome:
            note = [_p(data.appeal_outcome, st.small)]
        elif data.decided_on_appeal:
            note = [_lab(form, "appeal_final")]
        else:
            ap = data.appeal
            key = (
                "window_score_published" if ap.get("window_from") == "score_published" else "window_round_end"
            )
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
            note = [
                _p(form.zh("appeal_text", **fields), st.small),
                Paragraph(markup(form.en("appeal_text", **fields)), st.tiny),
            ]
        if note:
            story += [
                Spacer(1, 5),
                _grid([[_lab(form, "appeal_note"), note]], [lw, width - lw], label_cols=[0]),
            ]
    if form.has("signatures"):
        names = {"table_referee": data.referee or "", "offender": data.offender_players()}
        boxes = [(form.zh(k), form.en(k), names.get(k, ""), data.signatures.get(k)) for k in form.signatures]
        story.append(
            KeepTogether(
                [_heading(form, "signatures"), SignatureGrid(boxes, width, columns=2, box_height=54)]
            )
        )
    if data.paper is not None:
        story += [Spacer(1, 4), paper_block(data.paper, width)]
    if data.stamp is not None:
        story += [Spacer(1, 4), stamp_block(data.stamp, width)]
    doc = _doc(target, A5, margin, f"{form.title.zh} {form.title.en}", 12 * mm, 18 * mm)
    doc.build(story, canvasmaker=NumberedCanvas)


# -- appeal form ----------------------------------------------------------------------------
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
                "footer_left": ["", _zone_line(form)],
                "running": f"{form.title.zh} {form.title.en} · {data.event.name_zh}"
                + (f" · {data.appeal_no}" if data.appeal_no else "")
                + "（续 cont.）",
            }
        ),
        *_title_block(form, data.event, width),
        _header_table(
            form, data.event, {"round": data.round, "table": data.table, "appeal_no": data.appeal_no}, width
        ),
    ]
    half = width / 2
    if form.has("ruling"):
        label = data.infraction_label if data.infraction_label[0] else (r.get("kind", ""), r.get("kind", ""))
        if data.hand:
            hand_text = f"第{data.hand}副" if zh else f"Hand {data.hand}"
        elif data.blank:  # to fill in by hand
            hand_text = ""
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
                _p("" if data.blank else offender_text(r, lang)),
            ],
            [_lab(form, "sanction"), _p("" if data.blank else sanction_summary(r, lang)), "", ""],
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
            late_zh = markup(form.zh("late", minutes=timing.late_minutes))
            late_en = markup(form.en("late", minutes=timing.late_minutes))
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
    if form.has("grounds") and data.blank:  # ruled lines to write the grounds on
        story += [
            _heading(form, "grounds"),
            _grid([[""] for _ in range(6)], [width], extra=[("TOPPADDING", (0, 0), (-1, -1), 8)]),
        ]
    elif form.has("grounds"):
        paras = cjk_paragraphs(data.grounds, st.grounds)
        rows = [[p] for p in paras]
        if data.evidence:
            statement, attached = evidence_parts(data.evidence)
            cell = [_lab(form, "evidence", inline=True)]
            if statement:
                cell.append(_p(statement))
            for name, digest in attached:
                # the name and the whole digest: the committee's copy can be checked against it
                cell.append(_p(f"{form.zh('attachment')} {form.en('attachment')}：{name}  SHA-256 {digest}"))
            rows.append([cell])
        t = Table(rows, colWidths=[width], hAlign="LEFT")
        t.setStyle(
            TableStyle(
                [  # type: ignore[arg-type]  # the stubs type each command's tuple, not such a list
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
    if form.has("grounds"):
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
    paper = data.paper if not data.blank else None
    code = _qr(paper.payload()) if paper is not None else None
    if form.has("decision"):
        block: list[Any] = [_heading(form, "decision")]
        choices = [
            (form.zh(k), form.en(k), data.decision == k)
            for k in ("upheld", "modified", "rejected", "withdrawn")
        ]
        block.append(_grid([[CheckRow(choices, width - 8)]], [width]))
        reasons = data.decision_reasons
        inner = width - (code.width + 4 if code is not None else 0)
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
                        inner - lw - 8,
                    ),
                ]
            )
        decided = _grid(
            rows, [lw, inner - lw], label_cols=[0], extra=[("LINEABOVE", (0, 0), (-1, 0), 0, colors.white)]
        )
        if code is not None:  # the QR beside the decision: the form stays on one page
            beside = Table([[decided, code]], colWidths=[inner, width - inner])
            beside.setStyle(
                [("FONTNAME", (0, 0), (-1, -1), FONT), ("VALIGN", (0, 0), (-1, -1), "TOP")]
                + [(k, (0, 0), (-1, -1), 0) for k in PADS]
            )
            block.append(beside)
        else:
            block.append(decided)
    else:
        block = []
    if form.has("signatures"):  # kept with the decision: never a decision without its signers
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
        block += [
            _heading(form, "signatures"),
            SignatureGrid(boxes, width, columns=4 if len(boxes) == 4 else 3, box_height=46),
        ]
    if paper is not None:
        block += (
            [Spacer(1, 2), *paper_lines(paper)]
            if code is not None and form.has("decision")
            else [Spacer(1, 4), paper_block(paper, width)]
        )
    if data.stamp is not None:
        block += [Spacer(1, 4), stamp_block(data.stamp, width)]
    if block:
        story.append(KeepTogether(block))
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
