"""Issue 24 item 3: PIN attempts and locks are dated by the store's clock, a station that
moves its own clock gains no guesses, and wrong PINs at one station do not lock the chief
referee out at another."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from referee_app.store import roles
from referee_app.store.errors import PinError
from referee_app.store.service import Actor, Store

CHIEF_PIN, TABLE_PIN = "246813", "135792"
DESK = Actor("孙裁判长", "desk-1")


class StationClock:
    """This station's clock, moved by the test (``roles.utcnow``)."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> StationClock:
    c = StationClock()
    monkeypatch.setattr(roles, "utcnow", c)
    return c


@pytest.fixture
def store(event_db: str) -> Iterator[Store]:
    s = Store.open(event_db)
    chief = s.login
    s.set_pin(1, "chief_referee", CHIEF_PIN, actor=DESK)  # at the chief referee's desk
    s.set_pin(1, "table_referee", TABLE_PIN, actor=chief(1, "chief_referee", CHIEF_PIN, actor=DESK))
    yield s
    s.close()


def guesses(store: Store, role: str = "chief_referee") -> int:
    """The wrong PINs the store judged (each an ``auth_attempts`` row): refused tries are not."""
    with store.engine.connect() as conn:
        return int(
            conn.execute(
                sa.text("SELECT count(*) FROM auth_attempts WHERE role = :r AND ok = :ok"),
                {"r": role, "ok": False},
            ).scalar_one()
        )


def try_pin(store: Store, station: str, pin: str = "000000", role: str = "chief_referee") -> str:
    try:
        store.login(1, role, pin, actor=Actor("某人", station))
    except PinError as err:
        return "locked" if err.locked_until is not None and err.tries_left is None else "wrong"
    return "in"


def test_moving_the_station_clock_ahead_gives_no_more_guesses(store: Store, clock: StationClock) -> None:
    """The issue's attack: after each lock, the clock set 61 s ahead (then a day)."""
    for _ in range(30):
        try_pin(store, "table-7")
        clock.advance(61)
    if store.engine.dialect.name == "postgresql":
        # the server's clock dates them: five guesses, then locked, whatever this clock says
        assert guesses(store) == 5
        clock.advance(86_400)
        assert try_pin(store, "table-7") == "locked" and guesses(store) == 5
    else:
        # SQLite has only this computer's clock: each lock of a run lasts twice the last
        # (60, 120, 240 s …), so 30 jumps of 61 s (30 min) buy 20 guesses, not 30
        assert guesses(store) <= 20
        state = store.role_states(1, "table-7")["chief_referee"]
        assert state.failures == guesses(store) and state.next_lock_seconds >= 480


def test_setting_the_clock_back_neither_shortens_a_lock_nor_resets_the_count(
    store: Store, clock: StationClock
) -> None:
    for _ in range(5):
        assert try_pin(store, "table-7") in ("wrong", "locked")
    assert try_pin(store, "table-7") == "locked"
    clock.advance(-3600)  # an hour back
    assert try_pin(store, "table-7") == "locked"
    clock.advance(-86_400 * 365)
    assert try_pin(store, "table-7") == "locked"
    assert guesses(store) == 5
    assert store.role_states(1, "table-7")["chief_referee"].failures == 5


def test_a_lock_is_dated_by_the_servers_clock_on_postgresql(store: Store, clock: StationClock) -> None:
    if store.engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL: the server's clock")
    clock.advance(-7 * 86_400)  # this station's clock a week behind
    for _ in range(5):
        try_pin(store, "table-7")
    with pytest.raises(PinError) as err:
        store.login(1, "chief_referee", "000000", actor=Actor("某人", "table-7"))
    until = err.value.locked_until
    assert isinstance(until, datetime)
    # 60 s after the server's time of the fifth wrong PIN, not after this station's
    assert timedelta(seconds=50) < until - datetime.now(UTC) <= timedelta(seconds=61)


def test_wrong_pins_at_one_station_do_not_lock_the_chief_referee_out_at_another(
    store: Store, clock: StationClock
) -> None:
    for _ in range(5):
        try_pin(store, "table-7")
    assert try_pin(store, "table-7", CHIEF_PIN) == "locked"  # that station is locked, right PIN or not
    assert store.role_states(1, "table-7")["chief_referee"].locked_until is not None
    # the chief referee, at the desk and at any other station, is not
    assert store.role_states(1, DESK.station)["chief_referee"].locked_until is None
    assert try_pin(store, DESK.station, CHIEF_PIN) == "in"
    assert try_pin(store, "table-3", CHIEF_PIN) == "in"
    # the right PIN elsewhere does not give table-7 its guesses back
    assert try_pin(store, "table-7") == "locked"
    # nor does another role's run touch the chief referee's
    for _ in range(5):
        try_pin(store, "table-2", role="table_referee")
    assert try_pin(store, "table-2", CHIEF_PIN) == "in"


def test_made_up_station_names_share_a_bound_that_spares_the_chief_referees_desk(
    store: Store, clock: StationClock
) -> None:
    # four station names, five wrong PINs each: twenty over all stations
    for n in range(4):
        for _ in range(5):
            try_pin(store, f"fake-{n}")
    assert guesses(store) == roles.GLOBAL_TRIES == 20
    # a fifth name is locked before its first guess; the desk where the PIN was set is not
    assert try_pin(store, "fake-4") == "locked" and guesses(store) == 20
    assert try_pin(store, DESK.station, CHIEF_PIN) == "in"


def test_the_round_clocks_acts_are_dated_by_the_store_clock(event_db: str, clock: StationClock) -> None:
    """Like PIN locks, the hall's round clock takes its acts' times from the store's clock: a
    station whose clock is three hours ahead starts the round at the server's time on
    PostgreSQL (every station's clock then counts from it), at its own only on SQLite, where
    every station shares one computer's clock."""
    from referee_app.app.event import clock_acts, record_clock_act

    clock.advance(3 * 3600)
    with Store.open(event_db) as s:
        record_clock_act(s, 1, 1, "start", DESK)
        (act,) = clock_acts(s, 1, 1)
        postgresql = s.engine.dialect.name == "postgresql"
    real = datetime.now(UTC)
    if postgresql:
        assert abs((act.at - real).total_seconds()) < 60, act.at
    else:
        assert act.at == clock.now
