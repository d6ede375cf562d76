"""Benchmark of printing: one scoresheet and a 100-table round, against reportlab drawing
the same text bare.

    python bench/bench_printing.py            # a small table; --json for machine output

"Forms" is the real renderer (tables, CJK line breaking, signature boxes, QR code,
two-pass page numbering). "Bare" draws every string the form shows with
``canvas.drawString`` in the same embedded font, one line each, new page when full: the
floor any reportlab PDF of that text pays (font subsetting and embedding included). The
ratio is forms / bare. Times are the median of repeated runs, in-process, fonts registered.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee_app.printing.data import ScoresheetData, scoresheet_from_case  # noqa: E402
from referee_app.printing.fonts import FONT, register_fonts  # noqa: E402
from referee_app.printing.render import render_round, render_scoresheet  # noqa: E402

CASE = ROOT / "tests" / "printing" / "data" / "round3-table5.json"


def sheet(table: int) -> ScoresheetData:
    data = scoresheet_from_case(json.loads(CASE.read_text("utf-8")), "zh", date="2024-05-18")
    data.table = table
    return data


def strings(data: ScoresheetData) -> list[str]:
    """Every text the scoresheet shows, as plain strings (the bare baseline draws these)."""
    from referee_app.printing.data import all_rulings, sanction_summary
    from referee_app.printing.forms import load_form

    form = load_form("scoresheet")
    out = [form.title.zh, form.title.en, data.event.name_zh, data.event.name_en, data.event.organiser_zh]
    out += [f"{lab.zh} {lab.en}" for lab in form.labels.values()]
    for side, pair in data.pairs.items():
        out.append(f"{side} {pair.number} {'、'.join(pair.players)} {pair.unit or ''}")
    for hand in data.decision["hands"]:
        out.append(
            f"{hand['number']} {hand['dealer']} {hand['levels_before']} {hand['bottom_points']} "
            f"{hand['penalty_points']} {hand['defender_total']} {hand['levels_after']}"
        )
        out.append(hand["text"])
    for _hand, r in all_rulings(data.decision):
        out += [r["text"], sanction_summary(r, "zh"), r["citation"], r.get("override_reason") or ""]
    out.append(data.digest)
    return [s for s in out if s]


def bare(sheets: list[ScoresheetData]) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, initialFontName=FONT)
    for data in sheets:
        y = 800.0
        c.setFont(FONT, 8)
        for s in strings(data):
            for k in range(0, len(s), 60):  # keep lines on the page; no line breaking logic
                if y < 40:
                    c.showPage()
                    c.setFont(FONT, 8)
                    y = 800.0
                c.drawString(40, y, s[k : k + 60])
                y -= 11
        c.showPage()
    c.save()
    return buf.getvalue()


def forms(sheets: list[ScoresheetData]) -> bytes:
    buf = io.BytesIO()
    if len(sheets) == 1:
        render_scoresheet(sheets[0], buf)
    else:
        render_round(sheets, buf)
    return buf.getvalue()


def timed(fn: Callable[[], Any], repeat: int) -> float:
    fn()  # warm up (font parsing, template cache)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    register_fonts()
    one = [sheet(5)]
    hundred = [sheet(t) for t in range(1, 101)]
    rows = []
    cases = (("one scoresheet", one, args.repeat * 4), ("100-table round", hundred, args.repeat))
    for name, sheets, repeat in cases:
        f = timed(lambda s=sheets: forms(s), repeat)
        b = timed(lambda s=sheets: bare(s), repeat)
        size = len(forms(sheets))
        rows.append({"what": name, "forms_s": f, "bare_s": b, "ratio": f / b, "pdf_bytes": size})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'':18} {'forms':>10} {'bare':>10} {'ratio':>7} {'PDF size':>10}")
    for r in rows:
        print(
            f"{r['what']:18} {r['forms_s'] * 1000:8.1f}ms {r['bare_s'] * 1000:8.1f}ms "
            f"{r['ratio']:6.1f}× {r['pdf_bytes'] / 1024:8.0f}KB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
