"""The hall's round clock, derived from the chief referee's clock records.

Pure Python. One clock per round for the whole hall: the records (``start``, ``pause``,
``resume``, ``extend`` with ``minutes``, ``adjust`` with signed ``minutes``) are read in
order with the time each was made, and :func:`clock_state` says where the clock stands at
``now``. Every station derives the same state from the same records; no station keeps its
own clock.

``extend`` grants the round more time (延长: the total grows); ``adjust`` corrects the clock
(调整: it was started late, or paused too late), moving the time left by ``minutes`` (more when
positive, less when negative) without changing the round's length. Both are the chief
referee's, each with its reason.

>>> from datetime import datetime, timedelta
>>> t0 = datetime(2026, 5, 1, 9, 0)
>>> acts = [ClockAct("start", t0), ClockAct("pause", t0 + timedelta(minutes=10)),
...         ClockAct("resume", t0 + timedelta(minutes=15)), ClockAct("extend", t0, 5)]
>>> s = clock_state(60, acts, t0 + timedelta(minutes=20))
>>> (s.running, s.elapsed_s // 60, s.total_s // 60, s.remaining_s // 60)
(True, 15, 65, 50)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from .errors import Reported

ACTIONS = ("start", "pause", "resume", "extend", "adjust")
#: The acts that change the time itself: each needs the chief referee's reason.
TIME_CHANGES = ("extend", "adjust")


class ClockError(Reported, ValueError):
    """A clock act that does not fit the clock's state (pausing a stopped clock …)."""

    default_code = "clock.error"


@dataclass(frozen=True, slots=True)
class ClockAct:
    action: str
    at: datetime
    minutes: int = 0
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ClockState:
    """``phase``: ``"not_started"``, ``"running"``, ``"paused"`` or ``"ended"``;
    ``ends_at``: when the clock reaches zero if it keeps running (None when paused)."""

    phase: str
    total_s: int
    elapsed_s: int
    ends_at: datetime | None

    @property
    def running(self) -> bool:
        return self.phase == "running"

    @property
    def remaining_s(self) -> int:
        return max(0, self.total_s - self.elapsed_s)


def check_act(minutes: int, acts: Sequence[ClockAct], new: ClockAct) -> None:
    """Refuse an act that makes no sense now (one line, language-free values)."""
    if new.action not in ACTIONS:
        raise ClockError(
            f"clock: expected one of {', '.join(ACTIONS)}, got {new.action!r}",
            code="clock.action_invalid",
            got=new.action,
            allowed=list(ACTIONS),
        )
    phase = clock_state(minutes, acts, new.at).phase
    if new.action == "start" and phase != "not_started":
        raise ClockError(f"clock: already started ({phase})", code="clock.started")
    if new.action == "pause" and phase != "running":
        raise ClockError(f"clock: not running ({phase})", code="clock.not_running")
    if new.action == "resume" and phase != "paused":
        raise ClockError(f"clock: not paused ({phase})", code="clock.not_paused")
    if new.action == "extend" and new.minutes <= 0:
        raise ClockError(
            f"--minutes: expected more than 0, got {new.minutes}",
            code="clock.minutes",
            field="minutes",
            got=new.minutes,
        )
    if new.action == "adjust":
        if phase == "not_started":
            raise ClockError(
                "clock: not started; start it before adjusting it", code="clock.adjust_not_started"
            )
        if new.minutes == 0:
            raise ClockError(
                "--minutes: expected a change of the time left (+N or -N), got 0",
                code="clock.adjust_zero",
                field="minutes",
            )
    if new.action in TIME_CHANGES and not new.reason.strip():
        raise ClockError(
            f"--reason: {'an extension' if new.action == 'extend' else 'an adjustment'} of the clock "
            "needs the chief referee's reason",
            code=f"clock.{new.action}_reason_missing",
            field="reason",
        )


def clock_state(minutes: int, acts: Sequence[ClockAct], now: datetime) -> ClockState:
    total = minutes * 60
    elapsed = 0.0
    running_since: datetime | None = None
    started = False
    for a in acts:
        if a.action == "extend":
            total += a.minutes * 60
        elif a.action == "adjust":  # the time left moves: elapsed time the other way, not below 0
            if running_since is not None:
                elapsed += (a.at - running_since).total_seconds()
                running_since = a.at
            elapsed = max(0.0, elapsed - a.minutes * 60)
        elif a.action in ("start", "resume") and running_since is None:
            started = True
            running_since = a.at
        elif a.action == "pause" and running_since is not None:
            elapsed += (a.at - running_since).total_seconds()
            running_since = None
    if running_since is not None:
        elapsed += max(0.0, (now - running_since).total_seconds())
    el = int(elapsed)
    if not started:
        return ClockState("not_started", total, 0, None)
    if el >= total:
        end = None
        if running_since is not None:
            end = now - timedelta(seconds=el - total)
        return ClockState("ended", total, total, end)
    if running_since is None:
        return ClockState("paused", total, el, None)
    # the exact moment (not from the whole seconds shown): it stays the same at every read
    return ClockState("running", total, el, now + timedelta(seconds=total - elapsed))
