"""Benchmarks of the chief referee's desk: standings and pairing, 512 pairs over 9 rounds.

    python bench/bench_desk.py            # a table
    python bench/bench_desk.py --json

An event of 512 pairs (and of 511, for the bye) is played out round by round with seeded
random results (10 % draws, wins by 1–5 levels) and the Gansu rulebook (tie-breaks 积分 →
级差分 → 对手分 → 上一轮总积分 → 抽签). Timed, each the median (and max) of repeated runs:

* standings after round 9 (``compute_standings``: 2 304 matches);
* pairing round 9 (``pair_round``: the standings after round 8, then the maximum-weight
  matching over each pair's nearest-ranked opponents it has not met);
* the whole event's pairing, rounds 1 … 9;
* standings under BHG's order (对手分 first, then 级差分, 小分, lots).

Aim (issue 6): standings and pairing each under 0.5 s.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee_app.core import load_rulebook  # noqa: E402
from referee_app.core.pairing import Pairing, pair_round  # noqa: E402
from referee_app.core.standings import Bye, EventRecord, MatchResult, compute_standings  # noqa: E402


def play(rec: EventRecord, pg: Pairing, rng: random.Random) -> EventRecord:
    results = list(rec.results)
    for t in pg.tables:
        x = rng.random()
        if x < 0.1:
            results.append(MatchResult(pg.round, t.ns, t.ew, None, 1, 1, 0, 0))
            continue
        ns_wins = x < 0.55
        d = rng.randint(1, 5) * (1 if ns_wins else -1)
        a, b = (2, 0) if ns_wins else (0, 2)
        results.append(MatchResult(pg.round, t.ns, t.ew, "NS" if ns_wins else "EW", a, b, d, -d))
    byes = rec.byes + ((Bye(pg.round, pg.bye),) if pg.bye else ())
    return EventRecord(rec.pairs, tuple(results), byes)


def event(rulebook: Any, n: int, rounds: int, seed: int) -> tuple[EventRecord, EventRecord, float]:
    """(record after ``rounds - 1`` rounds, after ``rounds``, seconds spent pairing all rounds)."""
    rng = random.Random(seed)
    rec = EventRecord(tuple(str(i) for i in range(1, n + 1)))
    before = rec
    spent = 0.0
    for r in range(1, rounds + 1):
        t0 = time.perf_counter()
        pg = pair_round(rulebook, rec, r, seed=seed)
        spent += time.perf_counter() - t0
        before = rec
        rec = play(rec, pg, rng)
    return before, rec, spent


def timed(fn: Callable[[], object], repeat: int) -> dict[str, float]:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t0)
    return {"median_ms": statistics.median(runs) * 1000, "max_ms": max(runs) * 1000}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    gansu = load_rulebook("gansu-2018")
    bhg = load_rulebook("bhg-2011")
    out: dict[str, Any] = {}
    for n in (512, 511):
        before9, after9, _ = event(gansu, n, 9, seed=1)
        out[f"standings_{n}x9_gansu"] = timed(
            lambda r=after9: compute_standings(gansu, r, seed=1), args.repeat
        )
        out[f"standings_{n}x9_bhg"] = timed(lambda r=after9: compute_standings(bhg, r, seed=1), args.repeat)
        out[f"pair_round9_{n}"] = timed(lambda r=before9: pair_round(gansu, r, 9, seed=1), args.repeat)
        whole = [event(gansu, n, 9, seed=s)[2] for s in range(1, 4)]
        out[f"pair_rounds1to9_{n}"] = {
            "median_ms": statistics.median(whole) * 1000,
            "max_ms": max(whole) * 1000,
        }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{'what':<28}{'median':>12}{'max':>12}")
    for key, v in out.items():
        print(f"{key:<28}{v['median_ms']:>10.1f}ms{v['max_ms']:>10.1f}ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
