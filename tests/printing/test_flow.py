"""Issue 11: scoresheets laid out by ``printing/flow.py`` are the PDF that reportlab's
``SimpleDocTemplate.build`` makes of the same story, byte for byte (reportlab's invariant
mode fixes the file's dates and id): the same page breaks, splits and places."""

from __future__ import annotations

import io
import json
from datetime import datetime
from typing import Any

import pytest

from .helpers import CASE, HERE, scoresheet


def _case(hands: int, every: int = 0) -> dict[str, Any]:
    """The fixture's table with ``hands`` hands, a delay every ``every``-th from the sixth."""
    case = json.loads(CASE.read_text("utf-8"))
    for i in range(len(case["hands"]), hands):
        hand: dict[str, Any] = {"defender_points": (80, 85, 90, 95)[i % 4]}
        if every and i % every == 0:
            hand["infractions"] = [{"kind": "delay", "seat": "E", "what": "lead", "trick": 2}]
        case["hands"].append(hand)
    return case


def _sheets() -> list[Any]:
    from referee_app.printing.data import SignatureStamp, blank_sheet, scoresheet_from_case

    stamp = SignatureStamp("孙八", "ab" * 32, datetime(2024, 5, 18, 17, 5), "确认", "北京")
    plain = json.loads((HERE / "data" / "plain-case.json").read_text("utf-8"))
    out = [
        scoresheet("zh"),  # signatures drawn in, a voiding: one page
        scoresheet_from_case(_case(16), "en", date="2024-05-18"),  # the tail on a page of its own
        scoresheet_from_case(_case(34, every=3), "zh", date="2024-05-18"),  # hands split, rulings
        scoresheet_from_case(plain, "zh", date="2024-05-18"),  # no infractions
        blank_sheet(scoresheet("zh"), 14),
    ]
    stamped = scoresheet_from_case(_case(12), "zh", date="2024-05-18")
    stamped.stamp = stamp  # reportlab's Table in the kept-together tail
    return [*out, stamped]


def _pdf(sheets: list[Any], monkeypatch: pytest.MonkeyPatch, *, platypus: bool) -> bytes:
    from reportlab import rl_config
    from reportlab.platypus import SimpleDocTemplate

    from referee_app.printing import flow, render

    monkeypatch.setattr(rl_config, "invariant", 1)
    with monkeypatch.context() as patch:
        if platypus:  # a story flow does not know: the round goes to SimpleDocTemplate
            patch.setattr(flow, "supported", lambda story, own: False)
        else:

            def refuse(*args: Any, **kwargs: Any) -> None:
                raise AssertionError("laid out by SimpleDocTemplate, not by flow")

            patch.setattr(SimpleDocTemplate, "build", refuse)
        out = io.BytesIO()
        render.render_round(sheets, out)
    return out.getvalue()


@pytest.mark.parametrize("which", range(6))
def test_a_sheet_laid_out_by_flow_is_simpledoctemplates_pdf(
    which: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    sheets = [_sheets()[which]]
    assert _pdf(sheets, monkeypatch, platypus=False) == _pdf(sheets, monkeypatch, platypus=True)


def test_a_round_laid_out_by_flow_is_simpledoctemplates_pdf(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every kind of sheet twice in one PDF: the second time its labelled rows and boxes
    are shared forms, and each sheet starts on a new page."""
    sheets = _sheets() * 2
    progress: list[int] = []
    from referee_app.printing import render

    flowed = _pdf(sheets, monkeypatch, platypus=False)
    assert flowed == _pdf(sheets, monkeypatch, platypus=True)
    with monkeypatch.context():
        render.render_round(sheets[:3], io.BytesIO(), progress=progress.append)
    assert progress == [1, 2, 3]  # as each sheet is laid out, then once the file is written
