"""Benchmarks of judging: in-process per hand, and the `judge` command as a whole process.

    python bench/bench_judge.py            # prints a small table; --json for machine output
    python bench/bench_judge.py --samples 5 --repeat 2 --runs 3   # a quick check

Both parts alternate the project and a bare baseline sample by sample in one run (which side
goes first swaps at each pair), and report the medians, the ratio of the medians and the
min–max of the per-pair ratios.

In-process: a 25-hand round with 10 infractions under each bundled rulebook; a sample is
``--repeat`` rounds judged by ``judge`` (the ruling engine: parse the case, apply the
rulebook, word the decision), and the baseline's sample as many rounds through
``bare_round`` below: plain Python, no project code, that reads and checks every field the
case carries (types, seats, kinds, ranges), walks the hands in order keeping the dealer and
both sides' levels by one fixed points scale, and writes a decision of the same shape (every
key the engine's hands and rulings have, with a line of text each). That is the floor of any
judge of this case: it must read the same input and write the same output, so what the
ratio leaves is the rules — the rulebook's clauses looked up, escalation counted, sanctions
applied, worded from the rulebook.

Process: `referee-app judge CASE.json` against `python -c "import pydantic"`, the floor any
pydantic-based command pays, both started the same way, alternated run by run (the rulebook
cache is warm, as on a referee's laptop after the first use; both run with compiled bytecode,
as installed).
"""

from __future__ import annotations

import argparse
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

from referee_app.core.engine import judge
from referee_app.core.rulebook import load_rulebook

EVENTS = ["bhg-2011", "gansu-2018", "hbue-2018"]


def round_case(event: str) -> dict[str, Any]:
    """25 hands that keep the round going (no one passes A) with 10 infractions spread over them."""
    offences = [
        {"kind": "exposed_card", "seat": "N", "cards": 1, "trick": 3},
        {"kind": "wrong_play", "seat": "E", "cards": 1, "trick": 5},
        {"kind": "delay", "seat": "S", "what": "follow"},
        {"kind": "failed_throw", "seat": "W", "cards": 2, "trick": 2},
        {"kind": "hidden_card", "seat": "N", "trick": 4, "discovered": 4},
        {"kind": "out_of_turn", "seat": "E", "cards": 1, "trick": 9},
        {"kind": "trick_handling", "seat": "W"},
        {"kind": "exposed_card", "seat": "S", "cards": 2, "trick": 1, "severity": "heavy"},
        {"kind": "delay", "seat": "S", "what": "lead"},
        {"kind": "unreasonable_play", "seat": "N", "trick": 12},
    ]
    hands = []
    for i in range(25):
        points = [60, 100, 60, 100, 80][i % 5]
        hand: dict[str, Any] = {
            "defender_points": points,
            "bottom": {"points": 10, "captured": i % 3 == 0, "shape": "pair"},
        }
        if i % 5 == 2:
            hand["infractions"] = offences[(i // 5) * 2 : (i // 5) * 2 + 2]
        hands.append(hand)
    return {"event": event, "first_dealer": "E", "hands": hands, "finished": "time"}


# -- the in-process baseline: the same case read and a decision of the same shape written,
#    without the rules (plain Python; nothing from the project) --------------------------------

BARE_SEATS = "ESWN"
BARE_LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
BARE_SHAPES = ("single", "pair", "tractor", "throw")


def _bare_int(obj: dict[str, Any], key: str, path: str, low: int, high: int) -> int | None:
    value = obj.get(key)
    if value is None:
        return None
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{path}.{key}: expected an integer {low}–{high}, got {value!r}")
    return value


def _bare_side(seat: str) -> str:
    return "NS" if seat in "NS" else "EW"


def bare_round(case: Any, shape: dict[str, list[str]]) -> dict[str, Any]:
    """The floor of judging ``case``: every field read and checked, the hands walked with one
    fixed scale (under 80 the dealer side goes up and keeps the deal, else the defenders go up
    and deal), one ruling per infraction, and a decision with every key in ``shape`` (the
    engine's keys of a hand and of a ruling)."""
    if not isinstance(case, dict):
        raise ValueError("the case: expected an object")
    event = case.get("event")
    if not isinstance(event, str):
        raise ValueError("event: expected a string")
    dealer = case.get("first_dealer")
    if dealer not in BARE_SEATS:
        raise ValueError(f"first_dealer: expected one of E, S, W, N, got {dealer!r}")
    if case.get("finished") not in (None, "open", "time", "all_hands"):
        raise ValueError("finished: unknown")
    raw_hands = case.get("hands")
    if not isinstance(raw_hands, list):
        raise ValueError("hands: expected a list")
    hand_blank = dict.fromkeys(shape["hand"])
    ruling_blank = dict.fromkeys(shape["ruling"])
    level = {"NS": 0, "EW": 0}
    hands = []
    for i, raw in enumerate(raw_hands):
        path = f"hands[{i}]"
        if not isinstance(raw, dict):
            raise ValueError(f"{path}: expected an object")
        points = _bare_int(raw, "defender_points", path, 0, 400)
        if points is None or points % 5:
            raise ValueError(f"{path}.defender_points: expected a multiple of 5")
        total = points
        bottom = raw.get("bottom")
        if bottom is not None:
            if not isinstance(bottom, dict):
                raise ValueError(f"{path}.bottom: expected an object")
            bottom_points = _bare_int(bottom, "points", path + ".bottom", 0, 100) or 0
            captured = bottom.get("captured", False)
            if not isinstance(captured, bool):
                raise ValueError(f"{path}.bottom.captured: expected true or false")
            if bottom.get("shape") not in (None, *BARE_SHAPES):
                raise ValueError(f"{path}.bottom.shape: unknown")
            if captured:
                total += 2 * bottom_points
        dealer_side = _bare_side(dealer)
        before = {s: BARE_LEVELS[level[s]] for s in ("NS", "EW")}
        rulings = []
        for j, inf in enumerate(raw.get("infractions") or ()):
            where = f"{path}.infractions[{j}]"
            if not isinstance(inf, dict) or not isinstance(inf.get("kind"), str):
                raise ValueError(f"{where}.kind: expected a string")
            seat = inf.get("seat")
            if seat not in BARE_SEATS:
                raise ValueError(f"{where}.seat: expected one of E, S, W, N, got {seat!r}")
            for key, high in (("cards", 52), ("trick", 25), ("discovered", 25)):
                _bare_int(inf, key, where, 0, high)
            side = _bare_side(seat)
            ruling = dict(ruling_blank)
            ruling |= {
                "infraction": where,
                "kind": inf["kind"],
                "seat": seat,
                "side": side,
                "against": side,
                "points": 10,
                "levels": {"NS": 0, "EW": 0},
                "occurrence": 1,
                "scope": "hand",
                "label": {"zh": inf["kind"], "en": inf["kind"]},
                "overridden": False,
                "voided": False,
                "text": f"{inf['kind']}（{seat}）：罚10分，计入{side}方。",
            }
            rulings.append(ruling)
        defenders = "EW" if dealer_side == "NS" else "NS"
        if total < 80:
            up, steps, keep = dealer_side, 1 + (80 - total - 1) // 40, True
        else:
            up, steps, keep = defenders, (total - 80) // 40, False
        gains = {"NS": 0, "EW": 0}
        gains[up] = steps
        level[up] = min(level[up] + steps, len(BARE_LEVELS) - 1)
        after = {s: BARE_LEVELS[level[s]] for s in ("NS", "EW")}
        seat_at = BARE_SEATS.index(dealer)
        nxt = BARE_SEATS[(seat_at + 2) % 4] if keep else BARE_SEATS[(seat_at + 1) % 4]
        hand = dict(hand_blank)
        hand |= {
            "number": i + 1,
            "dealer": dealer,
            "dealer_side": dealer_side,
            "levels_before": before,
            "rulings": rulings,
            "in_progress": False,
            "defender_total": total,
            "decided_by": "points",
            "gains": gains,
            "levels_after": after,
            "next_dealer": nxt,
            "keep_deal": keep,
            "text": f"防守方得{total}分，{up}方升{steps}级，下一副{nxt}家坐庄。",
        }
        hands.append(hand)
        dealer = nxt
    winner = "NS" if level["NS"] >= level["EW"] else "EW"
    return {
        "event": event,
        "rulebook_sha256": "",
        "before_play": [],
        "forfeit": None,
        "hands": hands,
        "result": {
            "winner": winner,
            "match_points": {winner: 2, ("EW" if winner == "NS" else "NS"): 0},
            "levels": {s: BARE_LEVELS[level[s]] for s in ("NS", "EW")},
            "level_difference": {"NS": level["NS"] - level["EW"], "EW": level["EW"] - level["NS"]},
        },
    }


def decision_shape(decision: dict[str, Any]) -> dict[str, list[str]]:
    """The keys of the engine's hands and rulings, for the baseline to write as many."""
    hands = decision["hands"]
    rulings = [r for h in hands for r in h["rulings"]]
    return {
        "hand": sorted({k for h in hands for k in h}),
        "ruling": sorted({k for r in rulings for k in r}),
    }


# -- alternation -----------------------------------------------------------------------------


def compare(project: list[float], bare: list[float]) -> dict[str, float]:
    """Medians of each side, the ratio of the medians, the min–max of the per-pair ratios."""
    ratios = [p / b for p, b in zip(project, bare, strict=True)]
    return {
        "project_s": statistics.median(project),
        "bare_s": statistics.median(bare),
        "ratio": statistics.median(project) / statistics.median(bare),
        "ratio_min": min(ratios),
        "ratio_max": max(ratios),
        "samples": len(project),
    }


def alternate(project: Callable[[], float], bare: Callable[[], float], samples: int) -> dict[str, float]:
    """``samples`` pairs, the side that goes first swapping at each pair."""
    ps: list[float] = []
    bs: list[float] = []
    for i in range(samples):
        if i % 2:
            bs.append(bare())
            ps.append(project())
        else:
            ps.append(project())
            bs.append(bare())
    return compare(ps, bs)


def in_process(samples: int, repeat: int) -> dict[str, dict[str, float]]:
    out = {}
    for event in EVENTS:
        rulebook = load_rulebook(event)
        case = round_case(event)
        decision = judge(case, rulebook=rulebook)
        assert len(decision["hands"]) == 25
        assert sum(len(h["rulings"]) for h in decision["hands"]) == 10
        shape = decision_shape(decision)
        floor = bare_round(case, shape)
        assert len(floor["hands"]) == 25 and sum(len(h["rulings"]) for h in floor["hands"]) == 10
        assert set(floor["hands"][2]) == set(decision["hands"][2]), "the baseline writes the same keys"

        def project(case: dict[str, Any] = case, rulebook: Any = rulebook) -> float:
            start = time.perf_counter()
            for _ in range(repeat):
                judge(case, rulebook=rulebook)
            return (time.perf_counter() - start) / repeat

        def bare(case: dict[str, Any] = case, shape: dict[str, list[str]] = shape) -> float:
            start = time.perf_counter()
            for _ in range(repeat):
                bare_round(case, shape)
            return (time.perf_counter() - start) / repeat

        project()  # warm both sides
        bare()
        out[event] = alternate(project, bare, samples)
    return out


def one_run(cmd: list[str], env: dict[str, str]) -> Callable[[], float]:
    def run() -> float:
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        return time.perf_counter() - start

    return run


def whole_process(runs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="bench-judge-") as folder:
        case_path = Path(folder) / "round.json"
        case_path.write_text(json.dumps(round_case("bhg-2011")), encoding="utf-8")
        judge_cmd = [sys.executable, "-m", "referee_app", "judge", str(case_path)]
        bare_cmd = [sys.executable, "-c", "import pydantic"]
        # as installed: pip compiles a wheel's modules (pydantic's are), so an app never
        # recompiles at start; under PYTHONDONTWRITEBYTECODE (this environment sets it) the
        # project's side alone compiled every module on every run
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        one_run(judge_cmd, env)()  # warm the rulebook cache, the bytecode and the disk cache
        one_run(bare_cmd, env)()
        return alternate(one_run(judge_cmd, env), one_run(bare_cmd, env), runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=21, help="in process: alternated samples a rulebook")
    parser.add_argument("--repeat", type=int, default=10, help="in process: rounds a sample")
    parser.add_argument("--runs", type=int, default=21, help="whole process: alternated runs a side")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    inproc = in_process(args.samples, args.repeat)
    proc = whole_process(args.runs)
    if args.json:
        print(json.dumps({"in_process_round": inproc, "process": proc}, indent=2))
        return 0
    print(
        f"in process, a 25-hand round with 10 infractions ({args.samples} alternated samples "
        f"of {args.repeat} rounds; baseline: the case read, a decision of its shape written, no rules):"
    )
    print(f"  {'rulebook':<11} {'judge':>9} {'per hand':>9} {'baseline':>9} {'ratio':>7} {'spread':>12}")
    for event, r in inproc.items():
        print(
            f"  {event:<11} {r['project_s'] * 1e3:6.3f} ms {r['project_s'] / 25 * 1e6:6.1f} µs "
            f"{r['bare_s'] * 1e3:6.3f} ms {r['ratio']:6.2f}× {r['ratio_min']:5.2f}–{r['ratio_max']:.2f}×"
        )
    print(f"whole process ({args.runs} alternated runs a side, medians):")
    print(f"  python -c 'import pydantic'   {proc['bare_s'] * 1e3:7.1f} ms")
    print(
        f"  referee-app judge round.json  {proc['project_s'] * 1e3:7.1f} ms   ratio {proc['ratio']:.2f}× "
        f"({proc['ratio_min']:.2f}–{proc['ratio_max']:.2f}×)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
