"""The Swiss pairing (issue 26): its time at 16, 96 and 200 pairs, and how often the criteria
before issue 26 paired a round above the least weighted score gap.

    python bench/bench_pairing.py                  # the times
    python bench/bench_pairing.py --criteria 500   # old vs new over 500 generated events
    python bench/bench_pairing.py --json

**Times.** An event of N pairs (Gansu, random results, ``core.simulation``) is played for 4
rounds; round 5 is paired (``pair_round``: standings, weights, one exact matching over every
legal table), alternated run by run with a bare baseline: rustworkx's
``max_weight_matching`` alone over the same legal tables, unit weights — the library's work
no pairing can avoid. The ratio (project / baseline, median of the per-run ratios and the
range) says what the standings and the criteria cost on top of the matching. The same for
``explain_pairing`` (``pair --why``: one matching per table).

**Criteria.** The pairing module as it was before issue 26 (``git show <rev>:…``, default
the commit before the change) and the current one pair the same generated events (3–10
pairs, 3–6 rounds, Gansu and BHG, each round from the same record); each round's weighted
gap (sum of squared differences in match points) is compared with the least over every
rematch-free pairing (brute force), and so is the plain sum of gaps.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee_app.core.pairing import active_pairs, explain_pairing, pair_round, swiss_field  # noqa: E402
from referee_app.core.rulebook import load_rulebook  # noqa: E402
from referee_app.core.simulation import play_round, random_event  # noqa: E402
from referee_app.core.standings import EventRecord  # noqa: E402

BEFORE = "bc7db23^"  # the commit before the criteria changed


def alternate(project: Callable[[], object], baseline: Callable[[], object], repeat: int) -> dict[str, float]:
    """``project`` and ``baseline`` run in turn, ``repeat`` times each: medians and ratio."""
    mine: list[float] = []
    bare: list[float] = []
    for _ in range(repeat):
        for fn, into in ((project, mine), (baseline, bare)):
            t = time.perf_counter()
            fn()
            into.append(time.perf_counter() - t)
    ratios = [a / b for a, b in zip(mine, bare, strict=True)]
    return {
        "ms": statistics.median(mine) * 1000,
        "baseline_ms": statistics.median(bare) * 1000,
        "ratio": statistics.median(ratios),
        "ratio_min": min(ratios),
        "ratio_max": max(ratios),
    }


def bare_matching(order: list[str], met: set[frozenset[str]]) -> Callable[[], object]:
    import rustworkx as rx

    def run() -> object:
        g: rx.PyGraph = rx.PyGraph(multigraph=False)
        g.add_nodes_from(range(len(order)))
        g.add_edges_from(
            [
                (i, j, 1)
                for i in range(len(order))
                for j in range(i + 1, len(order))
                if frozenset((order[i], order[j])) not in met
            ]
        )
        return rx.max_weight_matching(g, max_cardinality=True, weight_fn=int)

    return run


def bench_times(sizes: list[int], repeat: int) -> dict[str, Any]:
    rb = load_rulebook("gansu-2018")
    out: dict[str, Any] = {}
    for n in sizes:
        ev = random_event(rb, n, 4, seed=n)
        rec = ev.record
        f = swiss_field(rb, rec, 5, active_pairs(rec, 5), n)
        rest = f.order[:-1] if len(f.order) % 2 else f.order
        pg = pair_round(rb, rec, 5, seed=n)
        out[f"pair {n}"] = alternate(
            lambda rec=rec, n=n: pair_round(rb, rec, 5, seed=n), bare_matching(rest, f.met), repeat
        )
        out[f"why {n}"] = alternate(
            lambda rec=rec, pg=pg: explain_pairing(rb, rec, pg),
            bare_matching(rest, f.met),
            max(1, repeat // 3),
        )
    return out


# -- old vs new criteria ------------------------------------------------------------------------
def old_module(rev: str) -> Any:
    """The pairing module of ``rev``, loaded beside the current one (same package)."""
    src = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{rev}:referee_app/core/pairing.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "pairing_before.py"
    path.write_text(src, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("referee_app.core._pairing_before", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def all_pairings(order: list[str], met: set[frozenset[str]]) -> Iterator[list[tuple[str, str]]]:
    stack: list[tuple[tuple[str, ...], tuple[tuple[str, str], ...]]] = [(tuple(order), ())]
    while stack:
        rest, done = stack.pop()
        if not rest:
            yield list(done)
            continue
        for j in range(1, len(rest)):
            if frozenset((rest[0], rest[j])) not in met:
                stack.append((rest[1:j] + rest[j + 1 :], done + ((rest[0], rest[j]),)))


def gaps(tables: list[tuple[str, str]], points: dict[str, int]) -> tuple[int, int, int]:
    d = [abs(points[a] - points[b]) for a, b in tables]
    return sum(x * x for x in d), sum(d), max(d, default=0)


def bench_criteria(events: int, rev: str) -> dict[str, Any]:
    old = old_module(rev)
    books = [load_rulebook("gansu-2018"), load_rulebook("bhg-2011")]
    rng = random.Random(26)
    tally = {
        "events": events,
        "rounds": 0,
        "old_above_least_weighted_gap": 0,
        "new_above_least_weighted_gap": 0,
        "old_above_least_sum_of_gaps": 0,
        "new_above_least_sum_of_gaps": 0,
        "old_largest_gap_above_new": 0,
        "rematches_old": 0,
        "rematches_new": 0,
    }
    for k in range(events):
        rb = books[k % 2]
        n, rounds, seed = rng.randint(3, 10), rng.randint(3, 6), rng.randrange(10**6)
        record = EventRecord(tuple(str(i) for i in range(1, n + 1)))
        play = random.Random(seed)
        for rnd in range(1, rounds + 1):
            try:
                new = pair_round(rb, record, rnd, seed=seed)
            except Exception:  # noqa: BLE001 - no rematch-free pairing left: the event ends
                break
            if rnd > 1:
                f = swiss_field(rb, record, rnd, active_pairs(record, rnd), seed)
                rest = [p for p in f.order if p != new.bye]
                every = [gaps(m, f.points) for m in all_pairings(rest, f.met)]
                least_w, least_s = min(g[0] for g in every), min(g[1] for g in every)
                was = old.pair_round(rb, record, rnd, seed=seed)
                g_new = gaps([(t.ns, t.ew) for t in new.tables], f.points)
                if was.bye == new.bye:
                    g_old = gaps([(t.ns, t.ew) for t in was.tables], f.points)
                    tally["old_above_least_weighted_gap"] += g_old[0] > least_w
                    tally["old_above_least_sum_of_gaps"] += g_old[1] > least_s
                    tally["old_largest_gap_above_new"] += g_old[2] > g_new[2]
                tally["new_above_least_weighted_gap"] += g_new[0] > least_w
                tally["new_above_least_sum_of_gaps"] += g_new[1] > least_s
                tally["rounds"] += 1
                for pg, key in ((was, "rematches_old"), (new, "rematches_new")):
                    tally[key] += sum(frozenset((t.ns, t.ew)) in f.met for t in pg.tables)
            record = play_round(rb, record, new, play)
    return tally


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="16,96,200")
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--criteria", type=int, default=0, metavar="N", help="old vs new over N generated events")
    ap.add_argument("--before", default=BEFORE, help="the git revision of the old criteria")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.criteria:
        out = bench_criteria(args.criteria, args.before)
        print(json.dumps(out, indent=2) if args.json else "\n".join(f"{k}\t{v}" for k, v in out.items()))
        return 0
    times = bench_times([int(x) for x in args.sizes.split(",")], args.repeat)
    if args.json:
        print(json.dumps(times, indent=2))
        return 0
    print("what\tproject\tbaseline (rustworkx alone)\tratio (range)")
    for k, v in times.items():
        print(
            f"{k}\t{v['ms']:.1f} ms\t{v['baseline_ms']:.1f} ms\t"
            f"{v['ratio']:.2f}× ({v['ratio_min']:.2f}–{v['ratio_max']:.2f}×)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
