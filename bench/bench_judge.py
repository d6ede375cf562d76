"""Benchmarks of judging: in-process per hand, and the `judge` command as a whole process.

    python bench/bench_judge.py            # prints a small table; --json for machine output

In-process: a 25-hand round with 10 infractions under each bundled rulebook, judged many
times. Process: `referee-app judge CASE.json` against `python -c "import pydantic"`, the
floor any pydantic-based command pays, both started the same way and timed as the median of
repeated runs (the rulebook cache is warm, as on a referee's laptop after the first use).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
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


def in_process(repeat: int) -> dict[str, float]:
    out = {}
    for event in EVENTS:
        rulebook = load_rulebook(event)
        case = round_case(event)
        decision = judge(case, rulebook=rulebook)
        assert len(decision["hands"]) == 25
        assert sum(len(h["rulings"]) for h in decision["hands"]) == 10
        start = time.perf_counter()
        for _ in range(repeat):
            judge(case, rulebook=rulebook)
        per_round = (time.perf_counter() - start) / repeat
        out[event] = per_round
    return out


def median_run(cmd: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def whole_process(runs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        case_path = Path(folder) / "round.json"
        case_path.write_text(json.dumps(round_case("bhg-2011")), encoding="utf-8")
        judge_cmd = [sys.executable, "-m", "referee_app", "judge", str(case_path)]
        subprocess.run(judge_cmd, check=True, stdout=subprocess.DEVNULL)  # warm the cache
        bare = median_run([sys.executable, "-c", "import pydantic"], runs)
        judged = median_run(judge_cmd, runs)
    return {"import_pydantic_s": bare, "judge_s": judged, "ratio": judged / bare}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    inproc = in_process(args.repeat)
    proc = whole_process(args.runs)
    if args.json:
        print(json.dumps({"in_process_round_s": inproc, "process": proc}, indent=2))
        return 0
    print("in-process, 25-hand round with 10 infractions:")
    for event, seconds in inproc.items():
        print(f"  {event:<11} {seconds * 1e3:7.3f} ms per round  {seconds / 25 * 1e6:7.1f} µs per hand")
    print(f"whole process (median of {args.runs} runs):")
    print(f"  python -c 'import pydantic'   {proc['import_pydantic_s'] * 1e3:7.1f} ms")
    print(f"  referee-app judge round.json  {proc['judge_s'] * 1e3:7.1f} ms   ratio {proc['ratio']:.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
