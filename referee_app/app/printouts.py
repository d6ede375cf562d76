"""The print-outs the window and the command line share: the scoresheet data built from the
store (one builder), the appeal form and ruling slip data, the rendered PDFs, the standings,
pairing and bracket sheets, and signing. Each name is imported on first use, so opening the
window or running ``judge`` does not load reportlab."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:
    pass

_WHERE = {
    "appeal_form_data": "..printing.build",
    "chain_entry_hash": "..printing.build",
    "chief_referee_name": "..printing.build",
    "store_scoresheets": "..printing.build",
    "stored_digest": "..printing.build",
    "stored_ruling_slip": "..printing.build",
    "RulingSlipData": "..printing.data",
    "SignatureStamp": "..printing.data",
    "applied_clause": "..printing.data",
    "blank_sheet": "..printing.data",
    "parse_paper_code": "..printing.data",
    "scoresheet_from_case": "..printing.data",
    "font_path": "..printing.fonts",
    "render_appeal": "..printing.render",
    "render_round": "..printing.render",
    "render_ruling": "..printing.render",
    "render_scoresheet": "..printing.render",
    "make_event_identity": "..printing.signing",
    "sign_pdf": "..printing.signing",
    "verify_pdf": "..printing.signing",
    "BracketSheet": "..printing.standings",
    "PairingSheet": "..printing.standings",
    "StandingsSheet": "..printing.standings",
    "render_bracket": "..printing.standings",
    "render_pairing": "..printing.standings",
    "render_standings": "..printing.standings",
}
__all__ = sorted(_WHERE)
__getattr__ = lazy_names(__name__, _WHERE)
