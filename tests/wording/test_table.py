"""The committed table of every wording (tests/wording/table.md) is what the code words now:
any change of words shows up in review as a change of that file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_wording_table_is_what_the_code_words() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "wording_table.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr


def test_the_table_covers_every_kind_of_the_three_rulebooks_in_both_languages() -> None:
    from referee_app.core.rulebook import bundled_ids, load_rulebook

    table = (ROOT / "tests" / "wording" / "table.md").read_text(encoding="utf-8")
    rows = [line.split(" | ") for line in table.splitlines() if line.startswith("| ") and " | " in line]
    seen = {(r[0].lstrip("| "), r[1], r[2], r[4]) for r in rows}
    for event in bundled_ids():
        for kind, spec in load_rulebook(event).data["infractions"].items():
            for rule in spec["rules"]:
                if rule.get("sanction") is None:
                    continue
                for lang in ("zh", "en"):
                    assert (event, kind, rule["id"], lang) in seen, (event, kind, rule["id"], lang)
    assert "平局胜" not in table and "升0级" not in table and "计入南北方。" not in table
