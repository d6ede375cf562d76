"""The printed standings sheet (名次表): Chinese with English headings, A4.

Reuses the printing layer's font registration (:mod:`.fonts`) and the look of
:mod:`.render` (grey header row, thin grid, bilingual labels, "第 x 页 共 y 页"). The
labels live here rather than in ``forms/`` until a standings template is added there.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

from ..core.standings import TIE_BREAK_LABELS, assumed_footnote, format_tiebreak, tiebreak_label
from .fonts import FONT, escape, markup
from .render import EN_SIZE, GREY, INK, RULE, _grid, _p, _pc, styles
from .sheets import BracketSheet, PairingSheet, PrizeList, ResultsGrid, StandingsSheet, Target

TITLE = ("名次表", "Standings")
COLUMNS = {
    "rank": ("名次", "Rank"),
    "pair": ("对号", "Pair"),
    "players": ("选手", "Players"),
    "unit": ("单位", "Unit"),
}


def _head(zh: str, en: str) -> Paragraph:
    return Paragraph(
        f'{escape(zh)}<br/><font size="{EN_SIZE}" color="#5a5a5a">{escape(en)}</font>', styles().label_c
    )


def _order(zh: str, en: str) -> Paragraph:
    st = styles().cell
    return Paragraph(f'{escape(zh)}<br/><font size="{EN_SIZE}" color="#5a5a5a">{escape(en)}</font>', st)


class _PageCanvas(Canvas):
    """Draws "第 x 页 共 y 页" once the number of pages is known."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initialFontName", FONT)
        super().__init__(*args, **kwargs)
        self._saved: list[dict[str, Any]] = []

    def showPage(self) -> None:  # noqa: N802 - reportlab's name
        self._saved.append(dict(self.__dict__))
        self._startPage()  # type: ignore[attr-defined]  # reportlab's own, not in its stubs

    def save(self) -> None:
        total = len(self._saved)
        for i, state in enumerate(self._saved, start=1):
            self.__dict__.update(state)
            width, _ = self._pagesize  # type: ignore[attr-defined]  # reportlab's own, not in its stubs
            self.saveState()
            self.setStrokeColor(RULE)
            self.setLineWidth(0.5)
            self.line(12 * mm, 14 * mm, width - 12 * mm, 14 * mm)
            self.setFont(FONT, 8)
            self.setFillColor(INK)
            self.drawRightString(width - 12 * mm, 10 * mm, f"第 {i} 页 共 {total} 页")
            self.setFont(FONT, EN_SIZE)
            self.setFillColor(GREY)
            self.drawRightString(width - 12 * mm, 6.5 * mm, f"Page {i} of {total}")
            footer = getattr(self, "_footer", "")
            if footer:
                self.drawString(12 * mm, 10 * mm, footer)
            self.restoreState()
            Canvas.showPage(self)
        Canvas.save(self)


MARGIN = 12 * mm


def _sheet_doc(target: Target, pagesize: tuple[float, float], title: str) -> SimpleDocTemplate:
    """The page set-up every list the referee desk prints shares (standings, pairing)."""
    return SimpleDocTemplate(
        str(target) if isinstance(target, Path) else target,
        pagesize=pagesize,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=14 * mm,
        bottomMargin=20 * mm,
        title=title,
        author="referee-app",
        creator="referee-app",
        initialFontName=FONT,
    )


def _running(event: str, what: str, after_round: int | None = None) -> str:
    """A continuation page's header (:func:`_build`): the event, the sheet, its round."""
    after = "" if after_round is None else f" · 第 {after_round} 轮后 after round {after_round}"
    return f"{event} · {what}{after}"


def _build(
    doc: SimpleDocTemplate,
    story: list[Any],
    rulebook_id: str,
    printed_at: datetime | None,
    running: str = "",
) -> None:
    """Lay out ``story`` with the footer (rulebook, time printed) and "第 x 页 共 y 页";
    ``running``: the sheet's header repeated at the top of every continuation page (the
    event, the sheet, its round: a page 2 read alone still says what it is)."""
    printed = (printed_at or datetime.now()).strftime("%Y-%m-%d %H:%M")
    footer = f"referee-app · {rulebook_id} · 打印时间 printed {printed}"

    def on_page(canvas: Canvas, _doc: Any) -> None:
        canvas._footer = footer  # type: ignore[attr-defined]

    def on_later(canvas: Canvas, doc_: Any) -> None:
        on_page(canvas, doc_)
        if running:
            width, height = doc_.pagesize
            canvas.saveState()
            canvas.setFont(FONT, 8.5)
            canvas.setFillColor(INK)
            canvas.drawString(MARGIN, height - 9 * mm, f"{running}（续 continued）")
            canvas.setStrokeColor(RULE)
            canvas.setLineWidth(0.5)
            canvas.line(MARGIN, height - 10.5 * mm, width - MARGIN, height - 10.5 * mm)
            canvas.restoreState()

    doc.build(story, onFirstPage=on_page, onLaterPages=on_later, canvasmaker=_PageCanvas)


def render_standings(sheet: StandingsSheet, target: Target) -> None:
    """Write the standings sheet as PDF to ``target`` (a path or a binary file)."""
    st = styles()
    keys = [k for k in sheet.tie_breaks if k != "match_points"]
    wide = len(keys) > 3
    pagesize = landscape(A4) if wide else A4
    doc = _sheet_doc(target, pagesize, f"{sheet.event_name} {TITLE[0]}")
    width = pagesize[0] - 2 * MARGIN
    status = ("最终名次", "FINAL") if sheet.final else ("临时名次", "PROVISIONAL")
    story: list[Any] = [
        Paragraph(markup(sheet.event_name), st.event),
        Spacer(1, 3),
        Paragraph(escape(" ".join(TITLE[0])), st.title),
        Paragraph(
            f"{escape(TITLE[1].upper())} · "
            f'<font color="{"#111111" if sheet.final else "#8a1c1c"}">{status[0]} {status[1]}</font>',
            st.title_en,
        ),
        Spacer(1, 4),
    ]
    order_zh = " → ".join(TIE_BREAK_LABELS[k][0] for k in sheet.tie_breaks)
    order_en = " → ".join(TIE_BREAK_LABELS[k][1] for k in sheet.tie_breaks)
    info = [
        [
            _head("轮次", "After round"),
            _pc(f"第 {sheet.round} 轮后"),
            _head("规则", "Rulebook"),
            _pc(sheet.rulebook_id),
            _head("抽签种子", "Seed of the lots"),
            _pc(str(sheet.seed)),
        ],
        [_head("名次计算", "Tie-break order"), _order(order_zh, order_en), "", "", "", ""],
    ]
    lw = 24 * mm
    vw = (width - 3 * lw) / 3
    story.append(_grid(info, [lw, vw, lw, vw, lw, vw], label_cols=(0,), extra=[("SPAN", (1, 1), (-1, 1))]))
    if sheet.clause_zh:
        story += [Spacer(1, 3), _p(f"{sheet.clause_ref}：{sheet.clause_zh}", st.tiny)]
    if sheet.assumed:
        footnote = f"{assumed_footnote(sheet.assumed, 'zh')} / {assumed_footnote(sheet.assumed, 'en')[2:]}"
        story += [Spacer(1, 2), _p(footnote, st.tiny)]
    story.append(Spacer(1, 6))

    header = [_head(*COLUMNS["rank"]), _head(*COLUMNS["pair"]), _head(*COLUMNS["players"])]
    header += [_head(*COLUMNS["unit"]), _head(*TIE_BREAK_LABELS["match_points"])]
    header += [
        _head(tiebreak_label(k, "zh", sheet.assumed), tiebreak_label(k, "en", sheet.assumed)) for k in keys
    ]
    rows: list[list[Any]] = [header]
    marks: list[tuple[Any, ...]] = []
    tied = tied_pairs(sheet)
    for row in sheet.rows:
        pair = row["pair"]
        names = "、".join(sheet.players.get(pair, []))
        left = sheet.withdrawn.get(pair)
        if left is not None:
            names += f"（第{left}轮起退赛 withdrawn）"
        dq = row["tiebreaks"].get("disqualified")
        if dq is not None:
            names += f"（第{dq}轮取消资格 DQ）"
            marks.append(("TEXTCOLOR", (0, len(rows)), (-1, len(rows)), GREY))
        cells = [
            _pc(f"{row['rank']}=" if pair in tied else row["rank"]),
            _pc(pair),
            _p(names),
            _p(sheet.units.get(pair, ""), st.small),
            _pc(row["match_points"]),
        ]
        cells += [_pc(format_tiebreak(k, row["tiebreaks"].get(k))) for k in keys]
        rows.append(cells)
    # a 30-character unit takes two lines at most, never four
    fixed = [12 * mm, 12 * mm, 0.0, 44 * mm, 19 * mm]
    rest = [28 * mm if k == "previous_round_points" else 24 * mm for k in keys]
    fixed[2] = max(30 * mm, width - sum(fixed) - sum(rest))
    widths = fixed + rest
    # the last rows go with the chief referee's box, so that it never stands alone on a page
    keep = min(3, len(rows) - 2) if len(rows) > 4 else 0
    cut = len(rows) - keep
    last_marks = [
        (c[0], (c[1][0], c[1][1] - cut), (c[2][0], c[2][1] - cut), *c[3:]) for c in marks if c[1][1] >= cut
    ]
    marks = [c for c in marks if c[1][1] < cut]
    story.append(_grid(rows[:cut], widths, header=True, repeat=1, extra=marks))
    if not keep:
        story += _standings_tail(sheet, tied, width)
    else:
        from reportlab.platypus import KeepTogether

        last = _grid(rows[cut:], widths, extra=last_marks)
        # one block (a KeepTogether inside another measures as a page): the tail unwrapped
        story.append(KeepTogether([last, *_standings_tail(sheet, tied, width, together=False)]))
    what = f"{TITLE[0]} {TITLE[1]} · {status[0]} {status[1]}"
    _build(doc, story, sheet.rulebook_id, sheet.printed_at, _running(sheet.event_name, what, sheet.round))


def tied_pairs(sheet: StandingsSheet) -> set[str]:
    """Pairs equal to another pair on every criterion before the lots: their order is the
    lots' (or they share a rank)."""
    from ..core.prizes import tied_groups

    return {p for members in tied_groups(sheet.rows, sheet.tie_breaks) for p in members}


def _standings_tail(sheet: StandingsSheet, tied: set[str], width: float, together: bool = True) -> list[Any]:
    """The note on tied ranks and the chief referee's sign-off (kept together unless the
    caller keeps it with the table's last rows)."""
    from reportlab.platypus import KeepTogether

    from .render import SignatureGrid

    st = styles()
    out: list[Any] = [Spacer(1, 4)]
    if tied:
        out.append(
            _p(
                f"= 名次并列：各项计算相同，先后由抽签决定（抽签种子 {sheet.seed}）。"
                f" Tied on every criterion: the order is the lots' (seed {sheet.seed}).",
                st.tiny,
            )
        )
    status = (
        ("最终名次", "Final standings")
        if sheet.final
        else ("临时名次，以裁判长签字的最终名次为准", "Provisional")
    )
    box = [("裁判长签字确认", f"Chief referee: {status[1].lower()}", sheet.chief_referee, None, "")]
    block: list[Any] = [Spacer(1, 6), SignatureGrid(box, width / 2, columns=1, box_height=40)]
    if sheet.paper is not None:
        from .render import paper_block

        block += [Spacer(1, 4), paper_block(sheet.paper, width)]
    if sheet.stamp is not None:
        from .render import stamp_block

        block += [Spacer(1, 4), stamp_block(sheet.stamp, width)]
    if together:
        out.append(KeepTogether(block))
    else:
        out += block
    return out


METHODS = {
    "seated": ("已公布，按入座记录", "published: as seated"),
    "lot": ("抽签编排", "by lot"),
    "swiss": ("积分编排", "by score groups"),
    "knockout": ("淘汰制抽签", "knockout draw"),
    "entered": ("现场抽签录入", "drawn in the hall"),
}


def hall_web_block(url: str, width: float) -> Any:
    """The hall web page's QR code with what it is for and its address, for a printed sheet
    (the pairing list; a table card can use it too): players scan it for their table."""
    from reportlab.platypus import Table

    from .render import QR_MODULE, QRFlowable

    code = QRFlowable(url, quiet=2, module=QR_MODULE * 1.3)
    caption = Paragraph(
        "扫码查看本对桌号、对阵、排名和计时"
        f'<br/><font size="{EN_SIZE}" color="#5a5a5a">Scan for your table, the pairings, the standings '
        f"and the clock</font><br/>{escape(url)}",
        styles().cell,
    )
    block = Table([[code, caption]], colWidths=[code.width + 6, width - code.width - 6])
    block.setStyle(
        [
            ("FONTNAME", (0, 0), (-1, -1), FONT),  # else the table's own Helvetica is embedded
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LEFTPADDING", (0, 0), (0, 0), 0),
        ]
    )
    return block


def _pairing_heading(sheet: PairingSheet, title: str, title_en: str) -> list[Any]:
    """A round's pairing sheet's heading (by table, by name): the event, 第 N 轮 ``title``
    and its English, and a proposal's warning (it must not be taken for the tables the
    players go to)."""
    st = styles()
    story: list[Any] = [
        Paragraph(markup(sheet.event_name), st.event),
        Spacer(1, 3),
        Paragraph(escape(f"第 {sheet.round} 轮 {title}"), st.title),
        Paragraph(escape(f"ROUND {sheet.round} {title_en}"), st.title_en),
        Spacer(1, 4),
    ]
    if not sheet.published:
        story += [
            Paragraph('<font color="#8a1c1c">编排建议，未公布 · PROPOSAL, NOT PUBLISHED</font>', st.event),
            Spacer(1, 4),
        ]
    return story


def _finish_pairing(
    doc: SimpleDocTemplate, story: list[Any], sheet: PairingSheet, width: float, running: str
) -> None:
    """A pairing sheet's stamp (when stamped) and its pages, ``running`` in their header."""
    if sheet.stamp is not None:
        from .render import stamp_block

        story += [Spacer(1, 6), stamp_block(sheet.stamp, width)]
    _build(doc, story, sheet.rulebook_id, sheet.printed_at, _running(sheet.event_name, running))


def render_pairing(sheet: PairingSheet, target: Target) -> None:
    """Write the round's pairing list as PDF to ``target`` (a path or a binary file)."""
    st = styles()
    doc = _sheet_doc(target, A4, f"{sheet.event_name} 第{sheet.round}轮对阵表")
    width = A4[0] - 2 * MARGIN
    method = METHODS.get(sheet.method, (sheet.method, sheet.method))
    story = _pairing_heading(sheet, "对 阵 表", "PAIRING")
    if sheet.version is not None:
        story += [
            Paragraph(escape(f"第 {sheet.version} 版 / version {sheet.version}"), st.title_en),
            Spacer(1, 4),
        ]
    info = [
        [
            _head("编排方法", "Method"),
            _order(method[0], method[1]),
            _head("抽签种子", "Seed"),
            _pc("—" if sheet.seed is None else str(sheet.seed)),
            _head("规则", "Rulebook"),
            _pc(sheet.rulebook_id),
        ]
    ]
    lw = 22 * mm
    vw = (width - 3 * lw) / 3
    story += [_grid(info, [lw, vw, lw, vw, lw, vw], label_cols=(0,)), Spacer(1, 6)]
    # by table: each side's pair, players, unit and match points before the round (积分)
    side_head = [_head("队员", "Players"), _head("单位", "Unit"), _head("积分", "Points")]
    rows: list[list[Any]] = [
        [_head("桌号", "Table"), _head("南北", "N-S"), *side_head, _head("东西", "E-W"), *side_head]
    ]

    def side(pair: str) -> list[Any]:
        score = sheet.scores.get(pair)
        return [
            _pc(pair),
            _p("、".join(sheet.players.get(pair, []))),
            _p(sheet.units.get(pair, ""), st.small),
            _pc("" if score is None else score),
        ]

    for table, ns, ew in sheet.tables:
        rows.append([_pc(table), *side(ns), *side(ew)])
    if sheet.bye:
        rows.append([_pc("轮空 Bye"), *side(sheet.bye), "", "", "", ""])
    names = (width - 14 * mm - 2 * (12 + 11) * mm) / 2
    cols = [14 * mm, 12 * mm, names * 0.58, names * 0.42, 11 * mm]  # 轮空 Bye on one line
    story.append(_grid(rows, cols + cols[1:], header=True, repeat=1))
    if sheet.withdrawn:
        story += [Spacer(1, 4), _p(f"退赛 Withdrawn：{'、'.join(sheet.withdrawn)}", st.small)]
    if sheet.web_url and sheet.published:  # a proposal sends no one to the page
        story += [Spacer(1, 8), hall_web_block(sheet.web_url, width)]
    if sheet.paper is not None and sheet.published:
        from .render import paper_block

        story += [Spacer(1, 6), paper_block(sheet.paper, width)]
    _finish_pairing(doc, story, sheet, width, f"第 {sheet.round} 轮对阵表 round {sheet.round} pairing")


SIDE_NAMES = {"NS": ("南北", "N-S"), "EW": ("东西", "E-W"), "bye": ("轮空", "bye")}


def render_pairing_by_name(sheet: PairingSheet, target: Target) -> None:
    """The round's pairing by name (按姓名查桌号): every player in 拼音 order with pair,
    table, side and opponents, for the players to find their table; a withdrawn pair's
    players marked 退赛."""
    from ..core.names import name_sort_key

    st = styles()
    doc = _sheet_doc(target, A4, f"{sheet.event_name} 第{sheet.round}轮对阵表（按姓名）")
    width = A4[0] - 2 * MARGIN
    story = _pairing_heading(sheet, "对 阵 表（按 姓 名）", "PAIRING BY NAME")
    seats = sheet.seat_of()
    people = [
        (name, pair)
        for pair, names in sheet.players.items()
        if pair in seats or pair in sheet.withdrawn
        for name in names
    ]
    people.sort(key=lambda np: (name_sort_key(np[0]), np[1]))
    rows: list[list[Any]] = [
        [
            _head("姓名", "Name"),
            _head("对号", "Pair"),
            _head("单位", "Unit"),
            _head("桌号", "Table"),
            _head("方位", "Side"),
            _head("对手", "Opponents"),
        ]
    ]
    for name, pair in people:
        table, where, opponent = seats.get(pair, (None, "", None))
        if pair in sheet.withdrawn:
            place, side_text, against = "—", "退赛", "退赛 withdrawn"
        else:
            place = "—" if table is None else str(table)
            side_text = " ".join(SIDE_NAMES.get(where, (where, "")))
            against = f"{opponent} {'、'.join(sheet.players.get(opponent, []))}" if opponent else ""
        rows.append(
            [
                _p(name),
                _pc(pair),
                _p(sheet.units.get(pair, ""), st.small),
                _pc(place),
                _pc(side_text),
                _p(against),
            ]
        )
    cols = [30 * mm, 14 * mm, 40 * mm, 14 * mm, 22 * mm, 0.0]
    cols[-1] = width - sum(cols)
    story.append(_grid(rows, cols, header=True, repeat=1))
    _finish_pairing(doc, story, sheet, width, f"第 {sheet.round} 轮按姓名 round {sheet.round} by name")


def render_table_cards(sheet: PairingSheet, target: Target) -> None:
    """Table cards (桌号牌): one half page a table, its number large, the pairs at its
    North-South and East-West seats with their players, to stand on the table."""
    from reportlab.lib.colors import black

    from .render import RULE as RULE_COLOUR

    styles()  # the fonts registered
    pagesize = A4
    width, height = pagesize
    canvas = _PageCanvas(str(target) if isinstance(target, Path) else target, pagesize=pagesize)
    canvas.setTitle(f"{sheet.event_name} 第{sheet.round}轮桌号牌")
    canvas.setAuthor("referee-app")
    canvas.setCreator("referee-app")
    half = height / 2
    for i, (table, ns, ew) in enumerate(sheet.tables):
        top = height - (i % 2) * half
        canvas.setStrokeColor(RULE_COLOUR)
        canvas.setDash(3, 3)
        if i % 2:
            canvas.line(10 * mm, top, width - 10 * mm, top)  # where to cut
        canvas.setDash()
        canvas.setFillColor(GREY)
        canvas.setFont(FONT, 11)
        canvas.drawCentredString(
            width / 2, top - 16 * mm, f"{sheet.event_name} · 第 {sheet.round} 轮 Round {sheet.round}"
        )
        canvas.setFillColor(black)
        canvas.setFont(FONT, 96)
        canvas.drawCentredString(width / 2, top - 58 * mm, str(table))
        canvas.setFont(FONT, 14)
        canvas.drawCentredString(width / 2, top - 68 * mm, "桌 Table")
        for j, (side, pair) in enumerate((("NS", ns), ("EW", ew))):
            y = top - (84 + 16 * j) * mm
            canvas.setFont(FONT, 15)
            label = " ".join(SIDE_NAMES[side])
            names = "、".join(sheet.players.get(pair, []))
            canvas.drawCentredString(width / 2, y, f"{label}　{pair} 号　{names}")
            unit = sheet.units.get(pair, "")
            if unit:
                canvas.setFont(FONT, 10)
                canvas.setFillColor(GREY)
                canvas.drawCentredString(width / 2, y - 6 * mm, unit)
                canvas.setFillColor(black)
            url = sheet.pair_urls.get(pair)
            if url:
                _pair_qr(canvas, url, side, pair, j, width, top - half)
        if i % 2 or i == len(sheet.tables) - 1:
            canvas.showPage()
    if not sheet.tables:
        canvas.showPage()
    canvas.save()


def _pair_qr(canvas: Canvas, url: str, side: str, pair: str, j: int, width: float, bottom: float) -> None:
    """A pair's own QR (its hall web page) in the card's lower corner on its side of the
    table: North-South left, East-West right, each captioned with the pair it is for."""
    from reportlab.lib.colors import black

    from .render import QR_MODULE, QRFlowable

    code = QRFlowable(url, quiet=2, module=QR_MODULE * 1.2)
    x = 18 * mm if j == 0 else width - 18 * mm - code.width
    y = bottom + 17 * mm  # above the page's footer on the lower card
    code.drawOn(canvas, x, y)
    canvas.setFont(FONT, 9)
    canvas.setFillColor(black)
    caption_x = x + code.width + 3 * mm if j == 0 else x - 3 * mm
    draw = canvas.drawString if j == 0 else canvas.drawRightString
    draw(caption_x, y + code.height - 8 * mm, f"{SIDE_NAMES[side][0]} {pair} 号专用")
    canvas.setFont(FONT, 7)
    canvas.setFillColor(GREY)
    draw(caption_x, y + code.height - 12 * mm, f"Pair {pair}: scan for your table,")
    draw(caption_x, y + code.height - 15 * mm, "results and standings")
    canvas.setFillColor(black)


OUTCOMES = {
    "win": ("胜", "W"),
    "loss": ("负", "L"),
    "draw": ("平", "D"),
    "bye": ("轮空", "bye"),
    "forfeit_won": ("对方弃权", "w/o"),
    "forfeit_lost": ("弃权", "forf."),
}


def render_results_grid(sheet: ResultsGrid, target: Target) -> None:
    """The results grid (成绩册): a row a pair (by pair number), a column a round with the
    opponent and the result (胜/负/平, 轮空, 弃权) and its match points, then the total and the
    rank; a withdrawn pair marked 退赛 from the round it left. Landscape past six rounds."""
    st = styles()
    pagesize = landscape(A4) if sheet.rounds > 6 else A4
    doc = _sheet_doc(target, pagesize, f"{sheet.event_name} 成绩册")
    width = pagesize[0] - 2 * MARGIN
    story: list[Any] = [
        Paragraph(markup(sheet.event_name), st.event),
        Spacer(1, 3),
        Paragraph(escape("成 绩 册"), st.title),
        Paragraph(escape(f"RESULTS GRID · 第 {sheet.rounds} 轮后 after round {sheet.rounds}"), st.title_en),
        Spacer(1, 6),
    ]
    header = [_head("对号", "Pair"), _head("选手", "Players")]
    header += [_head(f"第{r}轮", f"R{r}") for r in range(1, sheet.rounds + 1)]
    header += [_head("积分", "Points"), _head("名次", "Rank")]
    rows: list[list[Any]] = [header]
    for pair in sheet.pairs:
        left = sheet.withdrawn.get(pair)
        names = "、".join(sheet.players.get(pair, []))
        unit = sheet.units.get(pair, "")
        who = f"{names}（{unit}）" if unit else names
        if left is not None:
            who += f"　退赛（第{left}轮起）withdrawn from R{left}"
        row: list[Any] = [_pc(pair), _p(who, st.small)]
        for r in range(1, sheet.rounds + 1):
            cell = sheet.cells.get(pair, {}).get(r)
            if cell is None:
                row.append(_pc("退赛" if left is not None and r >= left else "—"))
                continue
            word = OUTCOMES.get(str(cell["outcome"]), (str(cell["outcome"]), ""))[0]
            against = "" if cell["opponent"] is None else f"{cell['opponent']} "
            row.append(_pc(f"{against}{word} {cell['points']}"))
        rank = sheet.ranks.get(pair)
        row += [_pc(sheet.totals.get(pair, 0)), _pc("—" if rank is None else rank)]
        rows.append(row)
    fixed = 12 * mm + 12 * mm + 14 * mm
    per_round = min(22 * mm, (width - fixed - 36 * mm) / max(1, sheet.rounds))
    names_w = width - fixed - per_round * sheet.rounds
    story.append(
        _grid(
            rows, [12 * mm, names_w] + [per_round] * sheet.rounds + [12 * mm, 14 * mm], header=True, repeat=1
        )
    )
    story += [
        Spacer(1, 4),
        _p(
            "每格：对手对号、结果（胜/负/平、轮空、弃权）、本轮积分；退赛：自该轮起退出比赛。"
            " Each cell: opponent, result, match points; 退赛: withdrawn from that round on.",
            st.tiny,
        ),
    ]
    if sheet.stamp is not None:
        from .render import stamp_block

        story += [Spacer(1, 6), stamp_block(sheet.stamp, width)]
    _build(
        doc,
        story,
        sheet.rulebook_id,
        sheet.printed_at,
        _running(sheet.event_name, "成绩册 results grid", sheet.rounds),
    )


def render_bracket(sheet: BracketSheet, target: Target) -> None:
    """Write the knockout bracket (淘汰赛对阵与名次) as PDF to ``target``."""
    st = styles()
    doc = _sheet_doc(target, A4, f"{sheet.event_name} 淘汰赛对阵")
    width = A4[0] - 2 * MARGIN
    story: list[Any] = [
        Paragraph(escape(sheet.event_name), st.event),
        Spacer(1, 3),
        Paragraph(escape("淘 汰 赛 对 阵"), st.title),
        Paragraph(escape("KNOCKOUT BRACKET"), st.title_en),
        Spacer(1, 6),
    ]

    def names(p: str | None) -> str:
        return "、".join(sheet.players.get(p or "", []))

    rows: list[list[Any]] = [
        [
            _head("轮次", "Round"),
            _head("桌号", "Table"),
            _head("南北", "North-South"),
            _head("东西", "East-West"),
            _head("胜者", "Winner"),
        ]
    ]
    for rnd, ms in sorted(sheet.rounds.items()):
        for m in ms:
            if "bye" in m:
                rows.append(
                    [_pc(rnd), _pc("—"), _p(f"{m['bye']} {names(m['bye'])}"), _pc("轮空 Bye"), _pc(m["bye"])]
                )
            else:
                w = m.get("winner")
                how = {"lots": "（抽签 lots）", "decision": "（裁判长决定 chief referee）"}.get(
                    m.get("decided", ""), ""
                )
                if m.get("corrected"):
                    how += "（已更正 corrected）"
                rows.append(
                    [
                        _pc(rnd),
                        _pc("" if m.get("table") is None else m["table"]),
                        _p(f"{m['NS']} {names(m['NS'])}"),
                        _p(f"{m['EW']} {names(m['EW'])}"),
                        _p(f"{w}{how}" if w else "未决 undecided", st.small),
                    ]
                )
    col = (width - 14 * mm - 12 * mm - 40 * mm) / 2
    story += [_grid(rows, [14 * mm, 12 * mm, col, col, 40 * mm], header=True, repeat=1), Spacer(1, 8)]
    prow: list[list[Any]] = [
        [_head("名次", "Place"), _head("对号", "Pair"), _head("选手", "Players"), _head("奖项", "Prize")]
    ]
    splits = {"level_difference": "级差 level difference", "lots": "抽签 lots"}
    for i, r in enumerate(sheet.placings):
        who = names(r["pair"])
        if r["pair"] in sheet.withdrawn:
            who += "（退赛 withdrawn）"
        if r.get("split"):  # what put it above the next pair out in the same round
            who += f"　先于下一对：{splits.get(r['split'], r['split'])}"
        prize = sheet.prizes[i] if i < len(sheet.prizes) else ""
        prow.append([_pc("—" if r["rank"] is None else r["rank"]), _pc(r["pair"]), _p(who), _p(prize)])
    story.append(_grid(prow, [18 * mm, 18 * mm, width - 36 * mm - 30 * mm, 30 * mm], header=True, repeat=1))
    for line in sheet.warnings:
        story += [Spacer(1, 4), Paragraph(f'<font color="#8a1c1c">{escape(line)}</font>', st.small)]
    if sheet.paper is not None:
        from .render import paper_block

        story += [Spacer(1, 8), paper_block(sheet.paper, width)]
    _build(
        doc,
        story,
        sheet.rulebook_id,
        sheet.printed_at,
        _running(sheet.event_name, "淘汰赛对阵 knockout bracket"),
    )


def render_prize_list(sheet: PrizeList, target: Target) -> None:
    """The prize list (获奖名单): each prize with its pairs, their players and units, down the
    places; the warnings the chief referee must settle in red above it; the clause the
    prizes come from (按假定 where the event's text is read); the chief referee's sign-off."""
    from .render import SignatureGrid

    st = styles()
    doc = _sheet_doc(target, A4, f"{sheet.event_name} 获奖名单")
    width = A4[0] - 2 * MARGIN
    status = ("最终", "FINAL") if sheet.final else ("临时", "PROVISIONAL")
    story: list[Any] = [
        Paragraph(markup(sheet.event_name), st.event),
        Spacer(1, 3),
        Paragraph(escape("获 奖 名 单"), st.title),
        Paragraph(
            f"PRIZE LIST · 第 {sheet.round} 轮后 after round {sheet.round} · "
            f'<font color="{"#111111" if sheet.final else "#8a1c1c"}">{status[0]} {status[1]}</font>',
            st.title_en,
        ),
        Spacer(1, 6),
    ]
    for line in sheet.warnings:
        story += [Paragraph(f'<font color="#8a1c1c">{markup(line)}</font>', st.cell)]
    if sheet.warnings:
        story.append(Spacer(1, 4))
    rows: list[list[Any]] = [
        [_head("奖项", "Prize"), _head("名次", "Place"), _head("对号", "Pair"), _head("选手", "Players"),
         _head("单位", "Unit")],
    ]  # fmt: skip
    spans: list[tuple[Any, ...]] = []
    start = 1
    for n, name in enumerate(sheet.prizes):
        mine = [r for r in sheet.rows if r["prize"] == n]
        for j, r in enumerate(mine):
            pair = str(r["pair"])
            lots = "（抽签 by lots）" if pair in sheet.by_lots else ""
            rows.append(
                [
                    _order(name, sheet.prizes_en[n] if n < len(sheet.prizes_en) else "") if j == 0 else "",
                    _pc("" if r["rank"] is None else r["rank"]),
                    _pc(pair),
                    _p("、".join(sheet.players.get(pair, [])) + lots),
                    _p(sheet.units.get(pair, ""), st.small),
                ]
            )
        if len(mine) > 1:
            spans.append(("SPAN", (0, start), (0, start + len(mine) - 1)))
        start += len(mine)
    cols = [30 * mm, 14 * mm, 14 * mm, 0.0, 50 * mm]
    cols[3] = width - sum(cols)
    story.append(
        _grid(rows, cols, header=True, repeat=1, extra=[*spans, ("VALIGN", (0, 1), (0, -1), "MIDDLE")])
    )
    if sheet.clause_zh:
        story += [Spacer(1, 3), _p(f"{sheet.clause_ref}：{sheet.clause_zh}", st.tiny)]
    if sheet.assumed_note:
        story += [Spacer(1, 2), _p(f"* 按假定 Assumed: {sheet.assumed_note}", st.tiny)]
    box = [("裁判长签字确认", "Chief referee", sheet.chief_referee, None, "")]
    block: list[Any] = [Spacer(1, 8), SignatureGrid(box, width / 2, columns=1, box_height=40)]
    if sheet.stamp is not None:
        from .render import stamp_block

        block += [Spacer(1, 4), stamp_block(sheet.stamp, width)]
    from reportlab.platypus import KeepTogether

    story.append(KeepTogether(block))
    _build(
        doc,
        story,
        sheet.rulebook_id,
        sheet.printed_at,
        _running(sheet.event_name, "获奖名单 prize list", sheet.round),
    )
