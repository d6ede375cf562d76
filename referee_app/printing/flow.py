"""A form's blocks placed on its pages directly (issue 11): what reportlab's
``SimpleDocTemplate.build`` does with the flowables the scoresheets are made of, without
its document machinery.

platypus handles each flowable through the document template (page templates, hanging
actions, generated content) and its frame; ``KeepTogether`` copies the frame to measure its
content, which is then measured again as it is placed. A round's PDF has a hundred sheets
of a dozen blocks. :func:`build` keeps one frame's arithmetic (the space between blocks,
the fuzz, splitting a block that does not fit, moving it to the next page when it cannot
split) and the same canvas calls, so the PDF is the one ``SimpleDocTemplate`` writes, byte
for byte. A story holding anything else is left to ``SimpleDocTemplate``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from reportlab import rl_config
from reportlab.platypus import (
    CondPageBreak,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
)
from reportlab.platypus.doctemplate import LayoutError

_FUZZ = rl_config._FUZZ
#: A frame's padding on each side (reportlab's ``Frame`` default).
PAD = 6.0

#: reportlab's blocks laid out as a ``Frame`` lays out any flowable (wrap, split, drawOn).
PLAIN_BLOCKS: tuple[type, ...] = (Spacer, Paragraph, Table)

_NEXT_PAGE = object()  # the page is full: what a FrameBreak does with one frame a page
_END = object()  # the story is over


def supported(story: Sequence[Any], own: tuple[type, ...]) -> bool:
    """Whether :func:`build` lays out every block of ``story`` as ``SimpleDocTemplate``
    would: reportlab's :data:`PLAIN_BLOCKS`, page breaks, ``KeepTogether``, and the
    caller's ``own`` flowables (which use neither the frame nor the document template)."""
    plain = (*PLAIN_BLOCKS, *own)
    for block in story:
        if isinstance(block, KeepTogether):
            if getattr(block, "_maxHeight", None) or type(block) is not KeepTogether:
                return False
            if not supported(block._content, own):  # type: ignore[attr-defined]  # reportlab's own, not in its stubs
                return False
        elif type(block) in (PageBreak, CondPageBreak):
            continue
        elif not isinstance(block, plain) or getattr(block, "keepWithNext", False):
            return False
        elif getattr(block, "_ZEROSIZE", False) or getattr(block, "_SPACETRANSFER", False):
            return False
    return True


class _Frame:
    """The frame's state: where the next block goes, whether nothing is on the page yet,
    the space after the last block (merged with the next one's space before)."""

    __slots__ = ("x", "top", "bottom", "width", "y", "at_top", "after")

    def __init__(self, doc: SimpleDocTemplate) -> None:
        self.x = doc.leftMargin + PAD
        self.top = doc.bottomMargin + doc.height - PAD
        self.bottom = doc.bottomMargin + PAD
        self.width = doc.width - 2 * PAD
        self.reset()

    def reset(self) -> None:
        self.y = self.top
        self.at_top = True
        self.after = 0.0

    def space_before(self, block: Any) -> float:
        if self.at_top:
            return 0.0
        return max(block.getSpaceBefore() - self.after, 0.0)

    def add(self, canv: Any, block: Any) -> bool:
        """Place ``block`` at the current point if it fits (``Frame._add``)."""
        s = self.space_before(block)
        room = self.y - self.bottom - s
        if room <= 0:
            return False
        block.canv = canv
        try:
            w, h = block.wrap(self.width, room)
        finally:
            if hasattr(block, "canv"):
                del block.canv
        y = self.y - (h + s)
        if y < self.bottom - _FUZZ:
            return False
        after = block.getSpaceAfter()
        block.drawOn(canv, self.x, y, _sW=self.width - w)
        y -= after
        self.after = after
        if y != self.y:
            self.at_top = False
        self.y = y
        return True

    def split(self, canv: Any, block: Any) -> list[Any]:
        room = self.y - self.bottom - self.space_before(block)
        if room <= 0:
            return []
        block.canv = canv
        try:
            return list(block.split(self.width, room))
        finally:
            if hasattr(block, "canv"):
                del block.canv


def _together(frame: _Frame, canv: Any, block: KeepTogether) -> list[Any]:
    """What ``KeepTogether.split`` puts back in the story: its content, after a page break
    when the content does not fit below but would on a fresh page."""
    content = list(block._content)  # type: ignore[attr-defined]  # reportlab's own, not in its stubs
    first = next((c for c in content if not hasattr(c, "frameAction")), None)
    before = 0.0 if first is None or frame.at_top else max(first.getSpaceBefore() - frame.after, 0.0)
    room = frame.y - frame.bottom - before
    if room <= 0:  # Frame.split asks nothing of a block with no room: it goes on the next page
        return [_NEXT_PAGE, block]
    total, prev, top, first_h = 0.0, 0.0, True, None
    for c in content:  # _listWrapOn: the content's height, spaces merged
        c.canv = canv
        try:
            h = c.wrap(frame.width, 0xFFFFFFF)[1]
        finally:
            if hasattr(c, "canv"):
                del c.canv
        if first_h is None:
            first_h = h
        if h <= _FUZZ:
            continue
        total += h
        if not top:
            total += max(c.getSpaceBefore() - prev, 0.0)
        top = False
        prev = c.getSpaceAfter()
        total += prev
    total -= prev
    too_tall = total > room
    first_too_tall = (first_h or 0.0) > room or (too_tall and frame.at_top)
    if too_tall:
        return content if frame.at_top else [_NEXT_PAGE, *content]
    if first_too_tall:
        return [_NEXT_PAGE, *content]
    return content


class Unsupported(Exception):
    """Raised by a story given to :func:`build` on finding a block it does not lay out as
    ``SimpleDocTemplate`` would; nothing has been written then (the canvas writes its file
    when saved)."""


def build(doc: SimpleDocTemplate, story: Iterable[Any], canvasmaker: Any) -> None:
    """Lay ``story`` out on ``doc``'s pages, one frame a page (as ``doc.build(story,
    canvasmaker=…)``; see :func:`supported`), and save the canvas. ``story`` is taken
    block by block as the pages fill: a round's sheets can be made one at a time, each
    sheet's blocks dropped once drawn (made all first, they are a hundred sheets of cells
    alive at once, which the garbage collector walks again and again)."""
    doc._calc()  # type: ignore[attr-defined]  # reportlab's own, not in its stubs
    canv = doc._makeCanvas(canvasmaker=canvasmaker)  # type: ignore[attr-defined]  # reportlab's own, not in its stubs
    frame = _Frame(doc)
    incoming = iter(story)
    todo: list[Any] = []  # blocks put back (split, kept together, moved on): the next last
    page_open = False
    postponed: set[int] = set()

    def end_page() -> None:
        nonlocal page_open
        canv.setPageRotation(getattr(doc, "rotation", 0))
        canv.showPage()
        page_open = False

    while True:
        if todo:
            block = todo.pop()
        else:
            block = next(incoming, _END)
            if block is _END:
                break
        if not page_open:
            frame.reset()
            page_open = True
        if block is _NEXT_PAGE:
            end_page()
            continue
        if type(block) is PageBreak:
            end_page()
            continue
        if type(block) is CondPageBreak:
            # a zero-size block, drawn (as platypus does); then the page ends if the room
            # left is under its height
            room = frame.y - frame.bottom - frame.space_before(block)
            if room > 0:
                frame.add(canv, _Drawn())
                if room < block.height:
                    todo.append(_NEXT_PAGE)
                continue
            todo.append(block)
            end_page()
            continue
        if isinstance(block, KeepTogether):
            parts = _together(frame, canv, block)
            if parts and parts[0] is not _NEXT_PAGE:
                head = parts.pop(0)
                if not frame.add(canv, head):
                    raise _misfit(head, canv)
            todo.extend(reversed(parts))
            continue
        if frame.add(canv, block):
            continue
        parts = frame.split(canv, block)
        if parts:
            if not frame.add(canv, parts[0]):
                raise _misfit(parts[0], canv)
            todo.extend(reversed(parts[1:]))
            continue
        if id(block) in postponed:  # it did not fit on a fresh page either
            raise LayoutError(f"{block!r} too large on page {canv.getPageNumber()}")
        postponed.add(id(block))
        todo.append(block)
        end_page()
    if page_open:
        end_page()
    canv.save()


def _misfit(block: Any, canv: Any) -> LayoutError:
    return LayoutError(f"splitting error: {block!r} does not fit on page {canv.getPageNumber()}")


class _Drawn:
    """The zero-size block platypus draws for a ``CondPageBreak`` (a translation, nothing
    in it)."""

    def getSpaceBefore(self) -> float:  # noqa: N802 - reportlab's name
        return 0.0

    def getSpaceAfter(self) -> float:  # noqa: N802 - reportlab's name
        return 0.0

    def wrap(self, width: float, height: float) -> tuple[float, float]:
        return 0.0, 0.0

    def drawOn(self, canv: Any, x: float, y: float, _sW: float = 0) -> None:  # noqa: N802, N803
        canv.saveState()
        canv.translate(x, y)
        canv.restoreState()
