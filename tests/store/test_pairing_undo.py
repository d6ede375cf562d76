"""Undo at the desk (issue 26): a published pairing withdrawn before play, a pair withdrawing
from a published round, ``pairing enter`` without ``--publish``, and ``pair check`` over the
published rounds. App-layer operations with their role check, audited; SQLite and
PostgreSQL (the store suite's ``db`` parametrization through ``event_db``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from store_helpers import cli, write_json
from test_roles import set_all_pins

from referee_app.app.event import load_event, round_unfinished
from referee_app.app.pairing import (
    check_published,
    publish_round,
    refuse_unfinished,
    round_pairing,
    unpublish_round,
    withdraw_pair,
)
from referee_app.store.errors import InputError, NotFoundError, RoleError
from referee_app.store.service import Actor, Store

WHO = Actor("孙裁判长", "desk-1")


def result_case(rnd: int, table: int, ns: str, ew: str) -> dict[str, Any]:
    """One hand the NS side wins on time (no rulings)."""
    return {
        "event": "bhg-2011",
        "round": rnd,
        "table": table,
        "pairs": {"NS": ns, "EW": ew},
        "first_dealer": "N",
        "hands": [{"defender_points": 0}],
        "finished": "time",
    }


@pytest.fixture
def store(event_db: str) -> Iterator[Store]:
    s = Store.open(event_db)
    yield s
    s.close()


def publish(store: Store, rnd: int, actor: Actor = WHO, reason: str | None = None) -> Any:
    rp = round_pairing(store, 1, rnd, keeper=lambda: actor, check=lambda ld: refuse_unfinished(ld, rnd))
    publish_round(store, rp, actor=actor, reason=reason)
    return round_pairing(store, 1, rnd)


def actions(store: Store) -> list[dict[str, Any]]:
    return [e for e in store.log(1) if str(e["action"]).startswith("desk.")]


def test_a_published_pairing_is_withdrawn_before_play_with_its_reason_in_the_log(store: Store) -> None:
    shown = publish(store, 1)
    assert shown.status == "published" and shown.version == 1
    rec = unpublish_round(store, 1, 1, reason="抽签时漏了一对", actor=WHO)
    assert rec["kind"] == "unpublish" and rec["body"] == {"version": 1, "reason": "抽签时漏了一对"}
    after = round_pairing(store, 1, 1)
    # the round shows its kept draw again, as a proposal: the same tables, not published
    assert after.status == "proposal" and after.tables() == shown.tables()
    assert 1 not in load_event(store, 1).published
    entry = actions(store)[-1]
    assert entry["action"] == "desk.unpublish" and "抽签时漏了一对" in json.dumps(entry, ensure_ascii=False)
    # published again: the next version, which (the players saw version 1) needs its reason
    again = publish(store, 1, reason="重新公布")
    assert again.status == "published" and again.version == 2
    unpublish_round(store, 1, 1, reason="再次撤回", actor=WHO)
    with pytest.raises(NotFoundError):  # nothing left to withdraw
        unpublish_round(store, 1, 1, reason="x", actor=WHO)


def test_withdrawing_a_pairing_after_a_result_is_refused_in_one_line(store: Store) -> None:
    shown = publish(store, 1)
    t, ns, ew = shown.tables()[0]
    store.record(1, result_case(1, t, ns, ew), actor=WHO, lang="en")
    before = len(store.log(1))
    with pytest.raises(InputError) as caught:
        unpublish_round(store, 1, 1, reason="晚了", actor=WHO)
    assert caught.value.code == "desk.unpublish_played"
    assert str(caught.value).count("\n") == 0 and f"table {t} has a result" in str(caught.value)
    assert len(store.log(1)) == before and round_pairing(store, 1, 1).status == "published"


def test_only_the_chief_referee_withdraws_a_pairing_on_an_event_with_pins(store: Store) -> None:
    actors = set_all_pins(store)
    publish(store, 1, actors["chief_referee"])
    with pytest.raises(RoleError):
        unpublish_round(store, 1, 1, reason="想改", actor=actors["table_referee"])
    assert round_pairing(store, 1, 1).status == "published"
    unpublish_round(store, 1, 1, reason="漏了一对", actor=actors["chief_referee"])
    assert round_pairing(store, 1, 1).status == "proposal"


def test_a_pair_seated_in_the_published_round_withdraws_with_a_warning_and_the_next_round_pairs(
    store: Store,
) -> None:
    shown = publish(store, 1)
    *played, (t, ns, ew) = shown.tables()
    for table, a, b in played:
        store.record(1, result_case(1, table, a, b), actor=WHO, lang="en")
    done = withdraw_pair(store, 1, ns, 1, reason="身体不适", actor=WHO)
    assert (done.table, done.opponent, done.seated) == (t, ew, True)
    assert done.warning() == ("desk.withdrawn_seated", {"pair": ns, "round": 1, "table": t, "opponent": ew})
    assert round_unfinished(load_event(store, 1, before_round=2), 1) == []
    rp = round_pairing(store, 1, 2, keeper=lambda: WHO, check=lambda ld: refuse_unfinished(ld, 2))
    seated = {p for _t, a, b in rp.tables() for p in (a, b)}
    # seven pairs left: six seated, one bye; the withdrawn pair's opponent plays again
    assert ns not in seated and rp.pairing.bye != ns and len(seated) == 6 and rp.pairing.bye is not None
    assert ew in seated | {rp.pairing.bye}
    # a pair not seated in a published round withdraws without a warning
    assert withdraw_pair(store, 1, ew, 3, reason="弃权", actor=WHO).warning() is None


def test_pairing_enter_without_publish_shows_and_does_not_ask(event_db: str, tmp_path: Path) -> None:
    rows = [{"table": i + 1, "NS": str(2 * i + 1), "EW": str(2 * i + 2)} for i in range(4)]
    path = write_json(tmp_path / "p.json", rows)
    # stdin empty: a question would read it and answer no (exit 1)
    rc, out, err = cli(event_db, "pairing", "enter", path, "--round", "1", stdin="")
    assert rc == 0, err
    assert "not published (add --publish to publish it)" in err and "[y/N]" not in err
    with Store.open(event_db) as s:
        assert s.desk_records(1, "pairing") == []
    rc, _out, err = cli(event_db, "pairing", "enter", path, "--round", "1", "--publish", "--yes")
    assert rc == 0 and "published (version 1)" in err, err


def test_pair_check_names_a_round_published_against_the_criteria_and_exits_1(
    event_db: str, tmp_path: Path
) -> None:
    assert cli(event_db, "pair", "--round", "1", "--publish", "--yes")[0] == 0
    with Store.open(event_db) as s:
        tables = round_pairing(s, 1, 1).tables()
        for t, ns, ew in tables:
            s.record(1, result_case(1, t, ns, ew), actor=WHO, lang="en")
    rc, out, err = cli(event_db, "pair", "check")
    assert rc == 0 and out.strip() == "round 1 (version 1): as the criteria give", err
    # round 2 by hand: the winners kept apart, each against a loser
    winners = [ns for _t, ns, _ew in tables]
    losers = [ew for _t, _ns, ew in tables]
    rows = [{"table": i + 1, "NS": w, "EW": losers[(i + 1) % 4]} for i, w in enumerate(winners)]
    path = write_json(tmp_path / "r2.json", rows)
    assert cli(event_db, "pairing", "enter", path, "--round", "2", "--publish", "--yes")[0] == 0
    rc, out, err = cli(event_db, "pair", "check")
    assert rc == 1, err  # a check found a problem, as verify
    lines = out.strip().splitlines()
    assert lines[0] == "round 1 (version 1): as the criteria give"
    assert len(lines) == 2 and lines[1].startswith("round 2: the published pairing differs from the criteria")
    assert "weighted score gap 16, the least is 0" in lines[1]
    with Store.open(event_db) as s:
        (bad,) = [c for c in check_published(s, 1) if not c.ok]
    assert bad.round == 2 and bad.problems[0][0] == "desk.check_differs_gap"
