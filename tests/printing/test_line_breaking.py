"""Chinese line breaking: no line starts with closing punctuation, none is too wide."""

from __future__ import annotations

import pytest

from referee_app.printing.fonts import (
    CANNOT_END,
    CANNOT_START,
    FONT,
    break_lines,
    cjk_paragraph,
    register_fonts,
)

from .helpers import GROUNDS

FORBIDDEN_START = "，。；：！？、）》」”"


def test_the_required_marks_cannot_start_a_line() -> None:
    for ch in FORBIDDEN_START + "』】〉’":
        assert ch in CANNOT_START
    for ch in "（《「“":
        assert ch in CANNOT_END


def _width(s: str) -> float:
    return 10.0 * len(s)


@pytest.mark.parametrize("chars", range(3, 41))
def test_no_line_starts_with_a_closing_mark_at_any_width(chars: int) -> None:
    width = 10.0 * chars
    lines = break_lines(GROUNDS, _width, width)
    assert "".join(lines) == GROUNDS.replace(" ", "") or "".join(lines).replace(" ", "") == GROUNDS.replace(
        " ", ""
    )
    for line in lines:
        assert _width(line) <= width
        assert line[:1] not in CANNOT_START, (chars, line)
    for line in lines[:-1]:
        assert line[-1:] not in CANNOT_END, (chars, line)


def test_runs_of_closing_marks_move_down_together() -> None:
    # "”，" after 均属实: neither mark may start the next line
    assert break_lines("甲乙丙丁”，戊", _width, 40) == ["甲乙丙", "丁”，戊"]
    assert break_lines("甲乙丙“丁戊", _width, 40) == ["甲乙丙", "“丁戊"]


def test_latin_words_and_times_are_not_cut() -> None:
    lines = break_lines("录像 camera-2 于15:01至15:03", _width, 60)
    assert all(not line.startswith(("amera", ":", "01", "03")) for line in lines)
    assert "15:01" in "".join(lines) and any("15:01" in line for line in lines)


def test_an_unbreakable_run_wider_than_the_column_is_cut() -> None:
    lines = break_lines("a" * 25, _width, 100)
    assert lines == ["a" * 10, "a" * 10, "a" * 5]


def test_the_paragraph_the_appeal_form_draws_breaks_the_same_way() -> None:
    """The lines reportlab will draw, read from the paragraph after wrapping."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register_fonts()
    style = ParagraphStyle("g", fontName=FONT, fontSize=10, leading=16)
    style.wordWrap = "CJK"
    for width in (150, 233, 301, 480):
        para = cjk_paragraph(GROUNDS, style)
        para.wrap(width, 10_000)
        lines = ["".join(line[1]) for line in para.blPara.lines]
        assert len(lines) > 3
        for line in lines:
            assert line[:1] not in FORBIDDEN_START, (width, line)
            assert stringWidth(line, FONT, 10) <= width + 0.01
