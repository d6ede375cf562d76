"""Benchmark of printing: a 16-hand scoresheet and a 100-table round, against reportlab
drawing the same text bare.

    python bench/bench_printing.py            # a small table; --json for machine output

"Forms" is the real renderer (tables, CJK line breaking, signature boxes, QR code,
per-sheet page numbering). "Bare" draws every string the form shows with
``canvas.drawString`` in the same embedded font, one line each, new page when full: the
floor any reportlab PDF of that text pays (font subsetting and embedding included).

Rows: one scoresheet in process (fonts registered), a 100-table round in process, and one
scoresheet as a whole process (``python -m referee_app print scoresheet`` against a bare
script that imports reportlab, loads the font and draws the strings). The two sides of a
row run alternately in one loop, so a busy machine slows both alike; each row prints the
medians and the ratio of medians with the spread (min–max) of the per-pair ratios.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee_app.printing.data import ScoresheetData, scoresheet_from_case  # noqa: E402
from referee_app.printing.fonts import FONT, font_path, register_fonts  # noqa: E402
from referee_app.printing.render import render_round, render_scoresheet  # noqa: E402

CASE = ROOT / "tests" / "printing" / "data" / "round3-table5.json"


#: Hands added to the fixture's five for a 16-hand table (each deal changes hands, no A passed).
EXTRA_HANDS = (85, 90, 85, 95, 80, 85, 90, 100, 85, 80, 95)


def case16() -> dict[str, Any]:
    case = json.loads(CASE.read_text("utf-8"))
    case["hands"] += [{"defender_points": p} for p in EXTRA_HANDS]
    return case


def sheet(table: int) -> ScoresheetData:
    data = scoresheet_from_case(case16(), "zh", date="2024-05-18")
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


#: The bare side of the whole-process row: reportlab only, the font's one face, the strings.
BARE_SCRIPT = """
import json, sys
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
font, pages, out = sys.argv[1], json.load(open(sys.argv[2], encoding="utf-8")), sys.argv[3]
pdfmetrics.registerFont(TTFont("F", font, subfontIndex=0))
c = Canvas(out, pagesize=A4, initialFontName="F")
for texts in pages:
    y = 800.0
    c.setFont("F", 8)
    for s in texts:
        for k in range(0, len(s), 60):
            if y < 40:
                c.showPage()
                c.setFont("F", 8)
                y = 800.0
            c.drawString(40, y, s[k : k + 60])
            y -= 11
    c.showPage()
c.save()
"""


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


def alternate(project: Callable[[], Any], baseline: Callable[[], Any], repeat: int) -> dict[str, float]:
    """Run the two alternately ``repeat`` times (after one warm-up each): medians, ratio, spread."""
    project()
    baseline()
    pt: list[float] = []
    bt: list[float] = []
    for _ in range(repeat):
        for fn, times in ((project, pt), (baseline, bt)):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
    ratios = [p / b for p, b in zip(pt, bt, strict=True)]
    return {
        "forms_s": statistics.median(pt),
        "bare_s": statistics.median(bt),
        "ratio": statistics.median(pt) / statistics.median(bt),
        "ratio_min": min(ratios),
        "ratio_max": max(ratios),
        "runs": repeat,
    }


def whole_process(repeat: int) -> dict[str, float]:
    """``referee-app print scoresheet`` of the 16-hand case against the bare script, each a
    fresh Python process (imports, font loading and the PDF written to disk included)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        case = folder / "case16.json"
        case.write_text(json.dumps(case16(), ensure_ascii=False), encoding="utf-8")
        texts = folder / "strings.json"
        texts.write_text(json.dumps([strings(sheet(5))], ensure_ascii=False), encoding="utf-8")
        script = folder / "bare.py"
        script.write_text(BARE_SCRIPT, encoding="utf-8")
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        # as installed: pip compiles a wheel's modules, so an app never recompiles at start
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        cli = [sys.executable, "-m", "referee_app", "print", "scoresheet", "--case", str(case)]
        cli += ["-o", str(folder / "forms.pdf")]
        plain = [sys.executable, str(script), str(font_path()), str(texts), str(folder / "bare.pdf")]

        def run(cmd: list[str]) -> Callable[[], None]:
            return lambda: subprocess.run(cmd, check=True, env=env, cwd=ROOT, capture_output=True)

        return alternate(run(cli), run(plain), repeat)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--skip-round", action="store_true", help="leave out the 100-table round")
    args = parser.parse_args()
    register_fonts()
    one = [sheet(5)]
    rows = []
    row = alternate(lambda: forms(one), lambda: bare(one), args.repeat * 4)
    rows.append({"what": "one scoresheet, whole process", **whole_process(args.repeat * 2)})
    rows.append({"what": "one scoresheet, in process", **row, "pdf_bytes": len(forms(one))})
    if not args.skip_round:
        hundred = [sheet(t) for t in range(1, 101)]
        row = alternate(lambda: forms(hundred), lambda: bare(hundred), args.repeat)
        rows.append({"what": "100-table round, in process", **row, "pdf_bytes": len(forms(hundred))})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'':30} {'forms':>10} {'bare':>10} {'ratio':>6} {'spread':>12} {'runs':>5}")
    for r in rows:
        print(
            f"{r['what']:30} {r['forms_s'] * 1000:8.1f}ms {r['bare_s'] * 1000:8.1f}ms "
            f"{r['ratio']:5.2f}× {r['ratio_min']:5.2f}–{r['ratio_max']:4.2f}× {r['runs']:>5}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
