"""A light table for the forms: the subset of reportlab's ``Table`` they use, laid out once
and drawn in a few strokes (issue 11).

reportlab's ``Table`` resolves every style command for every cell, measures each cell twice
and draws each line and string through its own graphics state; a round's PDF has a hundred
scoresheets of some 300 cells each. :class:`Grid` takes fixed column widths, one padding
and background per cell, column spans within a row, the grid's lines (0.5 pt inside, 1 pt
around) and middle vertical alignment, and lays a cell out as ``Table`` does (same row
heights, same positions), so a form looks the same whichever draws it. Cells whose text
can be drawn as plain runs (:class:`RunsText`) are written into one text object per table;
others (paragraphs, check boxes) draw themselves. It splits between rows across pages,
repeating its header rows, as ``Table(repeatRows=…)`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.lib import colors
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.platypus import Flowable

#: The style commands a :class:`Grid` understands beyond its fixed look; ``supports``
#: tells the forms when a plain ``Table`` is needed instead.
COMMANDS = frozenset(
    ("BACKGROUND", "ROWBACKGROUNDS", "SPAN", "TOPPADDING", "BOTTOMPADDING", "LEFTPADDING", "RIGHTPADDING")
)
_PAD = {"LEFTPADDING": 0, "RIGHTPADDING": 1, "TOPPADDING": 2, "BOTTOMPADDING": 3}
#: A string cell's line height: reportlab's for the table's 8-point font (1.2 × size).
STRING_SIZE = 8.0


#: Numbers as the content stream writes them, by value (:func:`num`); cleared when full.
_NUMBERS: dict[float, str] = {}
NUMBERS_KEPT = 50000


def num(value: float) -> str:
    """``fp_str(value)``, kept: formatting a number costs reportlab over a microsecond, and
    a round's sheets put their text and lines at the same few thousand places."""
    text = _NUMBERS.get(value)
    if text is None:
        if len(_NUMBERS) >= NUMBERS_KEPT:
            _NUMBERS.clear()
        text = _NUMBERS[value] = fp_str(value)
    return text


def supports(commands: Sequence[tuple[Any, ...]]) -> bool:
    """Whether :class:`Grid` draws these extra style commands (single-row spans only)."""
    for cmd in commands:
        if cmd[0] not in COMMANDS:
            return False
        if cmd[0] == "SPAN" and cmd[1][1] != cmd[2][1]:
            return False
    return True


#: A run of text placed on the page: text, size, colour, x, baseline, face.
Run = tuple[str, float, Any, float, float, str]


class RunsText(Flowable):
    """Text a :class:`Grid` writes into its own text object (the forms' ``CellText``).
    ``fixed``: the form's own words, the same on every sheet (a grid may share its row)."""

    fixed = False

    def fit(self, width: float) -> tuple[float, list[Run]] | None:
        """Its height at ``width`` and its runs placed from its bottom left corner; None
        when it draws itself (a paragraph stands in)."""
        raise NotImplementedError


#: A cell's padding: left, right, top, bottom.
Pads = tuple[float, float, float, float]
#: A flowable in a cell as laid out: its height, space before and after, and its runs when
#: the grid writes them (None: it draws itself).
Size = tuple[float, float, float, list[Run] | None]


class _Row:
    """One row: its cells, and per cell the paddings (left, right, top, bottom), the
    background, and the last column its span reaches (None where a span covers it)."""

    __slots__ = ("cells", "pads", "fills", "ends", "sizes", "inner")

    def __init__(self, cells: list[Any], pads: list[Pads], fills: list[Any], ends: list[int | None]):
        self.cells = cells
        self.pads = pads
        self.fills = fills
        self.ends = ends
        #: Per cell, each of its flowables as laid out (:data:`Size`).
        self.sizes: list[list[Size]] = [[] for _ in cells]
        #: Per cell, the height of its content (its flowables and the space between them).
        self.inner = [0.0] * len(cells)


class Grid(Flowable):
    def __init__(
        self,
        rows: Sequence[Sequence[Any]],
        widths: Sequence[float],
        *,
        padding: tuple[float, float, float, float],
        rule: Any = None,
        line: float = 0.5,
        box: float = 1.0,
        font: str = "",
        repeat: int = 0,
        commands: Sequence[tuple[Any, ...]] = (),
        valign: str = "MIDDLE",
    ) -> None:
        super().__init__()
        self.widths = [float(w) for w in widths]
        self.rule, self.line, self.box, self.font, self.repeat = rule, line, box, font, repeat
        self.valign = valign
        m = len(self.widths)
        self.rows = [  # the paddings shared until a command sets one (a new tuple)
            _Row(list(r) + [""] * (m - len(r)), [padding] * m, [None] * m, list(range(m))) for r in rows
        ]
        n = len(self.rows)
        for cmd in commands:
            (c0, r0), (c1, r1) = cmd[1], cmd[2]
            c0, c1 = c0 % m, c1 % m
            r0, r1 = r0 % n if n else 0, r1 % n if n else 0
            name = cmd[0]
            for r in range(r0, min(r1, n - 1) + 1):
                row = self.rows[r]
                if name == "SPAN":
                    row.ends[c0] = c1
                    for c in range(c0 + 1, c1 + 1):
                        row.ends[c] = None
                    continue
                for c in range(c0, c1 + 1):
                    if name == "BACKGROUND":
                        row.fills[c] = cmd[3]
                    elif name == "ROWBACKGROUNDS":
                        palette = cmd[3]
                        row.fills[c] = palette[(r - r0) % len(palette)]
                    else:
                        pads = list(row.pads[c])
                        pads[_PAD[name]] = float(cmd[3])
                        row.pads[c] = (pads[0], pads[1], pads[2], pads[3])
        self.edges = [0.0]
        for w in self.widths:
            self.edges.append(self.edges[-1] + w)
        self.width = self.edges[-1]
        self.heights: list[float] | None = None
        self.height = 0.0

    # -- layout -----------------------------------------------------------------------------
    def _cell_height(
        self,
        cell: Any,
        width: float,
        pads: Pads,
        sizes: list[Size],
        inner: list[float],
        index: int,
    ) -> float:
        """The cell's height as ``Table`` measures it; its flowables' sizes go in ``sizes``,
        their height with the space between them in ``inner[index]``."""
        if isinstance(cell, RunsText):  # most cells: one text, laid out once for its width
            fit = cell.fit(width - pads[0] - pads[1])
            if fit is not None:
                h, before, after = fit[0], cell.spaceBefore, cell.spaceAfter
                sizes[:] = ((h, before, after, fit[1]),)
                total = (0.0 + (h + before + after)) - (before + after)  # as the loop below
                inner[index] = total
                return total + pads[2] + pads[3]
        if isinstance(cell, str | int | float) or cell is None:
            lines = ("" if cell is None else str(cell)).split("\n")
            return STRING_SIZE * 1.2 * len(lines) + pads[2] + pads[3]
        parts = cell if isinstance(cell, list | tuple) else [cell]
        if not parts:
            return pads[2] + pads[3]
        avail_w = width - pads[0] - pads[1]
        avail_h = 72000 - pads[2] - pads[3]
        total = 0.0
        sizes.clear()
        for v in parts:
            fit = v.fit(avail_w) if isinstance(v, RunsText) else None
            if fit is not None:  # plain runs, laid out once for this width
                h, placed = fit
                before, after = v.spaceBefore, v.spaceAfter
            else:
                h = v.wrapOn(None, avail_w, avail_h)[1]
                before, after, placed = v.getSpaceBefore(), v.getSpaceAfter(), None
            sizes.append((h, before, after, placed))
            total += h + before + after
        total -= sizes[0][1] + sizes[-1][2]
        inner[index] = total
        return total + pads[2] + pads[3]

    def _layout(self) -> list[float]:
        if self.heights is None:
            heights = []
            edges = self.edges
            height_of = self._cell_height
            for row in self.rows:
                h = 0.0
                ends, pads, sizes, inner = row.ends, row.pads, row.sizes, row.inner
                for c, cell in enumerate(row.cells):
                    end = ends[c]
                    if end is None:
                        continue
                    h = max(h, height_of(cell, edges[end + 1] - edges[c], pads[c], sizes[c], inner, c))
                heights.append(h)
            self.heights = heights
            self.height = sum(heights)
        return self.heights

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        self._layout()
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:  # noqa: N803
        heights = self._layout()
        used, n = 0.0, 0
        for h in heights:
            if used + h > availHeight + 1e-6:
                break
            used += h
            n += 1
        if n <= self.repeat:
            return []
        if n >= len(heights):
            return [self]
        return [self._part(range(n)), self._part([*range(self.repeat), *range(n, len(heights))])]

    def _part(self, which: Sequence[int] | range) -> Grid:
        part = Grid.__new__(Grid)
        Flowable.__init__(part)
        part.widths, part.edges, part.width = self.widths, self.edges, self.width
        part.rule, part.line, part.box, part.font, part.repeat = (
            self.rule,
            self.line,
            self.box,
            self.font,
            self.repeat,
        )
        part.valign = self.valign
        part.rows = [self.rows[i] for i in which]
        part.heights = [self._layout()[i] for i in which]
        part.height = sum(part.heights)
        return part

    # -- drawing ----------------------------------------------------------------------------
    def draw(self) -> None:
        c = self.canv
        heights = self._layout()
        edges = self.edges
        tops = [self.height]
        for h in heights:
            tops.append(tops[-1] - h)
        shared = shared_parts(c)
        fills: dict[int, tuple[Any, list[str]]] = {}  # by colour: its cells' rectangles
        uses: list[str] = []  # the shared rows this grid shows
        place: list[float] = []  # at these heights
        inline = [True] * len(self.rows)  # the row's fixed part drawn here, not a shared form's
        for r, row in enumerate(self.rows):
            bottom, height = tops[r + 1], heights[r]
            key = self._fixed_key(row, height)
            if key is not None:
                name = shared.use(c, key, lambda row=row, height=height: self._fixed_part(row, height))
                if name is not None:
                    uses.append(name)
                    place.append(bottom)
                    inline[r] = False
                    continue
            for col, fill in enumerate(row.fills):
                end = row.ends[col]
                if fill is not None and end is not None:
                    box = f"{num(edges[col])} {num(bottom)} {num(edges[end + 1] - edges[col])} {num(height)}"
                    fills.setdefault(id(fill), (fill, []))[1].append(f"{box} re")
        for fill, boxes in fills.values():
            c.setFillColor(fill)
            c._code.append(" ".join(boxes) + " f")  # type: ignore[attr-defined]  # reportlab's own, not in its stubs
        for name, bottom in zip(uses, place, strict=True):
            shared.place(c, name, 0, bottom)
        runs: list[Run] = []
        for r, row in enumerate(self.rows):
            self._cells(row, tops[r + 1], heights[r], runs, None if inline[r] else False)
        self._lines(tops)
        text = c.beginText()
        write_runs(text, {}, runs)
        c.drawText(text)

    def _fixed_key(self, row: _Row, height: float) -> tuple[Any, ...] | None:
        """What a row's fixed part (its backgrounds and its form's labels, the cells marked
        ``fixed``) depends on, or None when it has none: the same key draws the same."""
        edges = self.edges
        parts: list[Any] = []
        for col, cell in enumerate(row.cells):
            end = row.ends[col]
            if end is None:
                continue
            fill = row.fills[col]
            fixed = isinstance(cell, RunsText) and cell.fixed
            if fill is None and not fixed:
                continue
            width = edges[end + 1] - edges[col]
            parts.append((col, edges[col], width, fill, cell if fixed else None, tuple(row.pads[col])))
            if fixed:
                parts.append(row.inner[col])
        if not parts:
            return None
        return (self.valign, height, *parts)

    def _fixed_part(self, row: _Row, height: float) -> None:
        """Draw a row's backgrounds and fixed cells from its bottom left corner (into the
        form the canvas is making)."""
        c = self.canv
        edges = self.edges
        fills: dict[int, tuple[Any, list[str]]] = {}  # one path a colour, as draw() fills them
        for col, fill in enumerate(row.fills):
            end = row.ends[col]
            if fill is not None and end is not None:
                box = f"{num(edges[col])} 0 {num(edges[end + 1] - edges[col])} {num(height)}"
                fills.setdefault(id(fill), (fill, []))[1].append(f"{box} re")
        for fill, boxes in fills.values():
            c.setFillColor(fill)
            c._code.append(" ".join(boxes) + " f")  # type: ignore[attr-defined]  # reportlab's own, not in its stubs
        runs: list[Run] = []
        self._cells(row, 0.0, height, runs, True)
        if runs:
            text = c.beginText()
            write_runs(text, {}, runs)
            c.drawText(text)

    def _cells(self, row: _Row, bottom: float, height: float, runs: list[Run], fixed: bool | None) -> None:
        """Add the row's cells' runs to ``runs`` (drawing at once the cells that draw
        themselves): only its fixed cells (``fixed`` True), only the others (False) or all."""
        c = self.canv
        edges = self.edges
        add = runs.append
        valign = self.valign
        ends, pads, inner = row.ends, row.pads, row.inner
        for col, cell in enumerate(row.cells):
            end = ends[col]
            if end is None or cell is None:
                continue
            kind = type(cell)
            if kind is str and not cell:
                continue
            if fixed is not None and fixed != (isinstance(cell, RunsText) and cell.fixed):
                continue
            left, right, top_pad, bottom_pad = pads[col]
            if kind is str or kind is int or kind is float:
                lines = str(cell).split("\n")
                y = bottom + (bottom_pad + height - top_pad + len(lines) * STRING_SIZE * 1.2) / 2
                y -= STRING_SIZE
                for s in lines:
                    add((s, STRING_SIZE, colors.black, edges[col] + left, y, self.font))
                    y -= STRING_SIZE * 1.2
                continue
            parts = cell if kind is list or kind is tuple else (cell,)
            if not parts:
                continue
            sizes = row.sizes[col]
            if valign == "TOP":
                y = bottom + height - top_pad
            elif valign == "BOTTOM":
                y = bottom + bottom_pad + inner[col]
            else:
                y = bottom + (height + bottom_pad - top_pad + inner[col]) / 2
            y += sizes[0][1]
            x = edges[col] + left
            avail = edges[end + 1] - edges[col] - left - right
            for v, (h, before, after, placed) in zip(parts, sizes, strict=True):
                y -= before + h
                if placed is not None:
                    for t, z, color, dx, dy, face in placed:
                        add((t, z, color, x + dx, y + dy, face))
                else:  # laid out again at this cell's width: a flowable may stand in several
                    v.wrapOn(c, avail, 72000 - top_pad - bottom_pad)
                    v.drawOn(c, x, y)
                y -= after

    def _lines(self, tops: list[float]) -> None:
        if self.rule is None:  # a layout grid: no lines
            return
        c = self.canv
        edges = self.edges
        c.setStrokeColor(self.rule)
        c.setLineCap(1)
        c.setLineJoin(1)
        c.setLineWidth(self.line)
        # each edge and each row's top formatted once: a sheet's grids have some 400
        # segments on a few dozen lines
        xs = [num(x) for x in edges]
        ys = [num(y) for y in tops]
        right = xs[-1]
        ops = [f"0 {y} m {right} {y} l" for y in ys[1:-1]]
        inner = range(1, len(edges) - 1)
        for r, row in enumerate(self.rows):
            ends, top, low = row.ends, ys[r], ys[r + 1]
            for col in inner:
                if ends[col] is not None:  # not inside a span
                    x = xs[col]
                    ops.append(f"{x} {top} m {x} {low} l")
        if ops:
            c._code.append(" ".join(ops) + " S")  # type: ignore[attr-defined]  # reportlab's own, not in its stubs
        c.setLineWidth(self.box)
        c.rect(0, 0, self.width, self.height, stroke=1, fill=0)


def write_runs(text: Any, state: dict[str, Any], runs: Sequence[Run]) -> None:
    """Write runs (text, size, colour, x, baseline, face) into the text object, setting the
    face and colour only when they change.

    The operators are those reportlab's ``textOut`` writes for an embedded TrueType face
    (its glyph subsets, ``Tf`` on a change of subset, ``Tj``), but each string's split into
    subsets, each subset's name and each face change's operators are kept for the
    document (:class:`_Written`): a round repeats its labels on every sheet, and the split
    (a lookup per character) was the largest part of drawing a sheet."""
    canv = text._canvas
    doc = canv._doc
    kept = doc.__dict__.get("_written_runs")
    if kept is None:
        kept = doc.__dict__["_written_runs"] = _Written()
    split, fills, faces = kept.split, kept.fills, kept.faces
    numbers = _NUMBERS
    code = text._code
    append = code.append
    color_now = state.get("color")
    subset_now = state.get("subset")  # (face, subset) as kept, or None
    size_now = state.get("size")
    font_now = state.get("font")
    for s, size, color, x, y, face in runs:
        if not s:
            continue
        if color_now is not color:
            ops = fills.get(id(color))
            if ops is None or ops[0] is not color:  # what setFillColor writes (and any alpha)
                start = len(code)
                text.setFillColor(color)
                fills[id(color)] = (color, code[start:])
            else:
                code.extend(ops[1])
            color_now = color
        parts = split.get((face, s))
        if parts is None:
            parts = split[(face, s)] = kept.parts(face, s, canv)
        if not parts:  # a standard font: reportlab's own path
            if font_now != (face, size):
                text.setFont(face, size)
                font_now = (face, size)
                subset_now = None
            text.setTextOrigin(x, y)
            text.textOut(s)
            continue
        append(f"1 0 0 1 {numbers.get(x) or num(x)} {numbers.get(y) or num(y)} Tm")
        for subset, shown in parts:
            if subset is not subset_now or size != size_now:
                ops = faces.get((subset, size))
                if ops is None:
                    name = getFont(subset[0]).getSubsetInternalName(subset[1], doc)  # type: ignore[attr-defined]  # a TTFont: getFont is typed Font
                    ops = faces[(subset, size)] = f"{name} {num(size)} Tf {num(size * 1.2)} TL"
                append(ops)
                subset_now, size_now = subset, size
                font_now = None
            append(shown)
    state.update(color=color_now, subset=subset_now, size=size_now, font=font_now)


class _Written:
    """What :func:`write_runs` keeps for a document: each string's parts (its subset, kept
    as one object per face and subset, and its ``Tj``; empty for a standard font), the
    operators setting each colour, and those setting each subset at each size."""

    __slots__ = ("split", "fills", "faces", "subsets")

    def __init__(self) -> None:
        self.split: dict[tuple[str, str], list[tuple[tuple[str, int], str]]] = {}
        self.fills: dict[int, tuple[Any, list[str]]] = {}
        self.faces: dict[tuple[tuple[str, int], float], str] = {}
        self.subsets: dict[tuple[str, int], tuple[str, int]] = {}

    def parts(self, face: str, s: str, canv: Any) -> list[tuple[tuple[str, int], str]]:
        font = getFont(face)
        if not font._dynamicFont:  # type: ignore[attr-defined]  # a TTFont: getFont is typed Font
            return []
        out = []
        for subset, t in font.splitString(s, canv._doc):  # type: ignore[attr-defined]  # a TTFont: getFont is typed Font
            key = self.subsets.setdefault((face, subset), (face, subset))
            out.append((key, f"({canv._escape(t)}) Tj"))
        return out


class SharedParts:
    """The parts a document draws more than once the same, each a form XObject: a round's
    PDF has a hundred scoresheets whose labelled rows (a table's head, a label column) and
    signature boxes are the same on every sheet. A part seen once is drawn inline (a
    one-sheet PDF is as before); seen a second time, it becomes a form that every later
    sheet refers to."""

    def __init__(self) -> None:
        self.seen: dict[tuple[Any, ...], str | None] = {}
        self.keep: list[tuple[Any, ...]] = []  # the keys' objects, so no id in a key names another

    def use(self, canv: Any, key: tuple[Any, ...], draw: Any) -> str | None:
        """The form's name for the part of ``key`` (``draw()`` draws it from the origin
        into the form), or None to draw the part inline."""
        try:
            known = key in self.seen
        except TypeError:  # a cell or colour that cannot be a key: drawn inline
            return None
        if not known:
            self.seen[key] = None
            self.keep.append(key)
            return None
        name = self.seen[key]
        if name is None:
            name = f"Shared{len(self.keep)}"
            self.keep.append(key)
            canv.beginForm(name, lowerx=-MARGIN, lowery=-MARGIN)  # a stroke at 0 is half below 0
            draw()
            canv.endForm()
            self.seen[key] = name
        return name

    @staticmethod
    def place(canv: Any, name: str, x: float, y: float) -> None:
        """Draw the form ``name`` with its origin at (x, y)."""
        canv._code.append(f"q 1 0 0 1 {num(x)} {num(y)} cm /{canv._doc.getXObjectName(name)} Do Q")
        canv._formsinuse.append(name)


#: How far a shared part may reach left of and below its origin (its form clips the rest).
MARGIN = 20


def shared_parts(canv: Any) -> SharedParts:
    """The document's :class:`SharedParts`."""
    doc = canv._doc
    shared = doc.__dict__.get("_shared_parts")
    if shared is None:
        shared = doc.__dict__["_shared_parts"] = SharedParts()
    return shared
