"""Random events (模拟赛事) for checking the pairing: any field size, any rulebook.

Pure Python. :func:`random_event` plays an event round by round as :func:`~.pairing.pair_round`
pairs it, with random results scored by the rulebook's ``[match_points]`` (a win, a draw, a
forfeit now and then, level differences 1–5), and returns the record and every round's
pairing. The same ``seed`` gives the same event. FIDE asks an endorsed pairing program to
ship such a generator beside its checker (``referee-app pair check``); the property test of
the criteria and ``referee-app pair simulate`` use this one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from .pairing import Pairing, pair_round
from .standings import Bye, EventRecord, MatchResult


@dataclass
class SimulatedEvent:
    """A generated event: its record after the last round played and each round's pairing."""

    rulebook_id: str
    seed: int
    record: EventRecord
    pairings: list[Pairing] = field(default_factory=list)


def _points(rulebook: Any) -> tuple[int, int, int]:
    mp = rulebook.data["match_points"]
    return int(mp["win"]), int(mp.get("draw", 0)), int(mp.get("loss", 0))


def random_result(rulebook: Any, round_no: int, ns: str, ew: str, rng: random.Random) -> MatchResult:
    """One table's random result: NS or EW wins by 1–5 levels (a draw one time in ten, a
    forfeit one time in forty), scored by the rulebook's match points."""
    win, draw, loss = _points(rulebook)
    x = rng.random()
    if x < 0.1:
        return MatchResult(round_no, ns, ew, None, draw, draw, 0, 0)
    ns_wins = rng.random() < 0.5
    levels = rng.randint(1, 5)
    forfeit = ("EW" if ns_wins else "NS") if x > 0.975 else None
    a, b = (win, loss) if ns_wins else (loss, win)
    d = levels if ns_wins else -levels
    return MatchResult(round_no, ns, ew, "NS" if ns_wins else "EW", a, b, d, -d, forfeit)


def play_round(rulebook: Any, record: EventRecord, pairing: Pairing, rng: random.Random) -> EventRecord:
    """``record`` with random results for every table of ``pairing`` (and its bye)."""
    results = [random_result(rulebook, pairing.round, t.ns, t.ew, rng) for t in pairing.tables]
    byes = (Bye(pairing.round, pairing.bye),) if pairing.bye else ()
    return replace(record, results=record.results + tuple(results), byes=record.byes + byes)


def random_event(
    rulebook: Any, pairs: int, rounds: int, seed: int, *, knockout: bool = False
) -> SimulatedEvent:
    """An event of ``pairs`` pairs (numbered 1, 2, …) played for ``rounds`` rounds (fewer
    when a knockout ends, or a Swiss field can no longer be paired without a rematch)."""
    from .pairing import PairingError

    rng = random.Random(seed)
    record = EventRecord(tuple(str(i) for i in range(1, pairs + 1)))
    event = SimulatedEvent(rulebook.id, seed, record)
    for rnd in range(1, rounds + 1):
        try:
            pg = pair_round(rulebook, record, rnd, seed=seed, knockout=knockout)
        except PairingError:
            break
        if knockout:  # a knockout needs a winner at every table
            results = []
            for t in pg.tables:
                r = random_result(rulebook, rnd, t.ns, t.ew, rng)
                while r.winner is None:
                    r = random_result(rulebook, rnd, t.ns, t.ew, rng)
                results.append(r)
            byes = (Bye(rnd, pg.bye),) if pg.bye else ()
            record = replace(record, results=record.results + tuple(results), byes=record.byes + byes)
        else:
            record = play_round(rulebook, record, pg, rng)
        event.pairings.append(pg)
    event.record = record
    return event


__all__ = ["SimulatedEvent", "play_round", "random_event", "random_result"]
