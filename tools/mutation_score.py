"""Per-module mutation score from mutmut's recorded results (issue 16; README "Mutation testing").

Run after ``mutmut run``: ``python tools/mutation_score.py [MODULE-PREFIX ...]``. Prints, per
module, killed / survived / no tests / timeout / not checked and the score
killed ÷ (killed + survived + no tests); timeouts are listed apart, not counted as killed.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter, defaultdict


def _module(mutant: str) -> str:
    # "referee_app.core.levels.x_advance__mutmut_1" / "…data.xǁClassǁmethod__mutmut_3"
    head = mutant.split("__mutmut_")[0]
    return head.rsplit(".", 1)[0]


def main(argv: list[str]) -> int:
    out = subprocess.run(
        ["mutmut", "results", "--all", "true"], capture_output=True, text=True, check=True
    ).stdout
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for line in out.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if not sep:
            continue
        module = _module(name)
        if argv and not any(module.startswith(p) for p in argv):
            continue
        counts[module][status] += 1
    heads = ("killed", "survived", "no tests", "timeout", "unchecked")
    print(f"{'module':40} " + " ".join(f"{h:>9}" for h in heads) + " score")
    for module in sorted(counts):
        c = counts[module]
        tried = c["killed"] + c["survived"] + c["no tests"]
        score = f"{100 * c['killed'] / tried:.0f}%" if tried else "—"
        print(
            f"{module:40} "
            + " ".join(f"{c[k]:9}" for k in ("killed", "survived", "no tests", "timeout", "not checked"))
            + f" {score}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
