"""The print-outs the window and the command line share: the scoresheet data built from the
store (one builder), the appeal form and ruling slip data, the standings, pairing and
bracket sheets' data, the rendered PDFs, and signing.

Importing this module loads no reportlab: the data and the builders are plain Python, the
signing module imports pyHanko and cryptography inside its functions, and each ``render_*``
here imports the renderer when it is called (the window opens and ``judge`` runs without
the PDF code; the first print-out pays for it)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..printing.build import (
    appeal_form_data,
    chain_entry_hash,
    chief_referee_name,
    store_scoresheets,
    stored_digest,
    stored_ruling_slip,
)
from ..printing.data import (
    AppealFormData,
    RulingSlipData,
    ScoresheetData,
    SignatureStamp,
    applied_clause,
    blank_sheet,
    parse_paper_code,
    scoresheet_from_case,
)
from ..printing.forms import FormTemplate
from ..printing.qr import qr_modules
from ..printing.sheets import BracketSheet, PairingSheet, StandingsSheet, Target
from ..printing.signing import make_event_identity, sign_pdf, verify_pdf

__all__ = [
    "AppealFormData",
    "BracketSheet",
    "PairingSheet",
    "RulingSlipData",
    "ScoresheetData",
    "SignatureStamp",
    "StandingsSheet",
    "Target",
    "appeal_form_data",
    "applied_clause",
    "blank_sheet",
    "chain_entry_hash",
    "chief_referee_name",
    "make_event_identity",
    "parse_paper_code",
    "qr_modules",
    "render_appeal",
    "render_bracket",
    "render_pairing",
    "render_round",
    "render_ruling",
    "render_scoresheet",
    "render_standings",
    "scoresheet_from_case",
    "sign_pdf",
    "store_scoresheets",
    "stored_digest",
    "stored_ruling_slip",
    "verify_pdf",
]


def render_scoresheet(data: ScoresheetData, target: Target, form: FormTemplate | None = None) -> None:
    """One table's scoresheet as a PDF written to ``target`` (a path or a binary file)."""
    from ..printing.render import render_scoresheet as render

    render(data, target, form)


def render_round(
    sheets: Sequence[ScoresheetData],
    target: Target,
    form: FormTemplate | None = None,
    progress: Callable[[int], None] | None = None,
) -> None:
    """A round's scoresheets in one PDF; ``progress(n)`` as the n-th is laid out."""
    from ..printing.render import render_round as render

    render(sheets, target, form, progress)


def render_ruling(data: RulingSlipData, target: Target, form: FormTemplate | None = None) -> None:
    """One ruling slip (判罚单), A5."""
    from ..printing.render import render_ruling as render

    render(data, target, form)


def render_appeal(data: AppealFormData, target: Target, form: FormTemplate | None = None) -> None:
    """The appeal form (申诉表), pre-filled from the ruling."""
    from ..printing.render import render_appeal as render

    render(data, target, form)


def render_standings(sheet: StandingsSheet, target: Target) -> None:
    """The standings sheet (名次表)."""
    from ..printing.standings import render_standings as render

    render(sheet, target)


def render_pairing(sheet: PairingSheet, target: Target) -> None:
    """A round's pairing list (对阵表)."""
    from ..printing.standings import render_pairing as render

    render(sheet, target)


def render_bracket(sheet: BracketSheet, target: Target) -> None:
    """The knockout bracket (淘汰赛对阵与名次)."""
    from ..printing.standings import render_bracket as render

    render(sheet, target)
