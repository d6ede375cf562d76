"""Issue 11: a save runs as two batches of fixed SQL through the driver (``store.driver``):
the lookups with the new rows' ids, then the rows and the entry. These tests check what
that path must keep, on SQLite and PostgreSQL: the ids it takes beforehand are the rows'
(several hands, infractions before play and in hands), a refused save leaves nothing and
the next one fits, a constraint the database refuses is reported as the race it is, and
the audit entry still covers exactly the rows written (``verify``)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from store_helpers import make_case

from referee_app.store import audit
from referee_app.store.driver import Driver, sqlite_text
from referee_app.store.errors import ConflictError, InputError
from referee_app.store.models import audit_log, hands, infractions, matches, rounds, rulings
from referee_app.store.service import Actor, Store

ACTOR = Actor("张三", "table-1")


def _many_hands_case(round_: int, table: int, ns: str, ew: str) -> dict[str, Any]:
    case = make_case(round_, table, ns, ew)
    one = case["hands"][0]
    case["hands"] = []
    for h in range(4):
        hand = copy.deepcopy(one)
        hand["defender_points"] = [60, 100, 40, 85][h]
        hand["infractions"] = [
            {"kind": "exposed_card", "seat": "NESW"[h], "cards": 1, "trick": 3} for _ in range(h % 3)
        ]
        case["hands"].append(hand)
    case["before_play"] = [{"kind": "late_arrival", "side": "EW", "minutes": 7}]
    return case


def _counts(store: Store) -> dict[str, int]:
    with store.engine.connect() as conn:
        return {
            t.name: int(conn.execute(select(func.count()).select_from(t)).scalar() or 0)
            for t in (rounds, matches, hands, infractions, rulings, audit_log)
        }


def test_rows_written_with_ids_taken_beforehand_are_the_entrys_rows(event_db: str) -> None:
    with Store.open(event_db) as store:
        first = store.record(1, _many_hands_case(1, 1, "1", "2"), actor=ACTOR, lang="en")
        second = store.record(1, _many_hands_case(1, 1, "1", "2"), actor=ACTOR, lang="en")
        other = store.record(1, make_case(1, 2, "3", "4"), actor=ACTOR, lang="en")
        assert (first.version, second.version, other.version) == (1, 2, 1)
        assert second.supersedes_id == first.match_id
        with store.engine.connect() as conn:
            entry = conn.execute(select(audit_log).where(audit_log.c.seq == second.entry_seq)).one()
            mine = conn.execute(select(hands).where(hands.c.match_id == second.match_id)).all()
            infs = conn.execute(select(infractions).where(infractions.c.match_id == second.match_id)).all()
            rls = conn.execute(select(rulings).where(rulings.c.match_id == second.match_id)).all()
        import json

        payload = json.loads(audit.payload_text(entry.payload))["rows"]
        assert [h["id"] for h in payload["hands"]] == sorted(r.id for r in mine)
        assert len(mine) == 4
        # one before play, then 0, 1, 2, 0 in the hands: each infraction under its own hand
        assert len(infs) == 4
        by_hand = {r.id: r.number for r in mine}
        assert sorted(by_hand.get(r.hand_id, 0) for r in infs) == [0, 2, 3, 3]
        # every ruling names an infraction of this version (the ids taken beforehand line up)
        inf_ids = {r.id for r in infs}
        assert rls and all(r.infraction_id in inf_ids for r in rls if r.infraction_id is not None)
        assert {r["id"] for r in payload["rulings"]} == {r.id for r in rls}
        result = store.verify()
        assert result.ok, result.problem


def test_a_refused_save_writes_nothing_and_the_next_one_fits(event_db: str) -> None:
    with Store.open(event_db) as store:
        store.record(1, make_case(1, 1, "1", "2"), actor=ACTOR, lang="en")
        before = _counts(store)
        with pytest.raises(InputError) as err:  # pair 2 already plays at table 1
            store.record(1, _many_hands_case(1, 2, "2", "3"), actor=ACTOR, lang="en")
        assert err.value.code == "case.pair_plays"
        with pytest.raises(InputError) as err:
            store.record(1, make_case(1, 3, "5", "99"), actor=ACTOR, lang="en")
        assert err.value.code == "case.pair_unknown"
        with pytest.raises(ConflictError):
            store.record(1, make_case(1, 1, "1", "2"), actor=ACTOR, lang="en", expected_version=0)
        assert _counts(store) == before
        rec = store.record(1, _many_hands_case(2, 1, "2", "3"), actor=ACTOR, lang="en")
        after = _counts(store)
        assert after["rounds"] == before["rounds"] + 1  # round 2 is new
        assert after["hands"] == before["hands"] + 4
        assert after["audit_log"] == before["audit_log"] + 1
        assert [h["version"] for h in store.history(1, 2, 1)] == [rec.version] == [1]
        assert store.verify().ok


def test_a_token_saved_twice_writes_once(event_db: str) -> None:
    with Store.open(event_db) as store:
        first = store.record(1, make_case(1, 1, "1", "2"), actor=ACTOR, lang="en", token="t-1")
        before = _counts(store)
        again = store.record(1, make_case(1, 1, "1", "2"), actor=ACTOR, lang="en", token="t-1")
        assert again.replayed and (again.match_id, again.entry_seq) == (first.match_id, first.entry_seq)
        assert _counts(store) == before
        with pytest.raises(InputError) as err:
            store.record(
                1, make_case(1, 1, "1", "2", defender_points=85), actor=ACTOR, lang="en", token="t-1"
            )
        assert err.value.code == "match.token_reused"
        assert _counts(store) == before


def test_a_constraint_refused_in_a_batch_is_sqlalchemys_integrity_error(event_db: str) -> None:
    """What the store turns into "another station wrote the same record first": the
    driver's own error class would slip past that handling."""
    with Store.open(event_db) as store:
        store.record(1, make_case(1, 1, "1", "2"), actor=ACTOR, lang="en")
        head = store.anchor()
        with store.engine.begin() as conn, pytest.raises(IntegrityError):
            sql, cols = audit.insert_sql(audit_log, conn.dialect.name == "postgresql")
            row = {c: None for c in cols} | {
                "seq": head.seq + 1,
                "at": "2026-01-01T00:00:00Z",
                "user_name": "x",
                "station": "y",
                "action": "test",
                "payload": "{}",
                "prev_hash": head.hash,
                "hash": head.hash,  # the hash is unique: refused
            }
            Driver(conn).write([(sql, [row])])
        assert store.anchor() == head
        assert store.verify().ok


def test_the_seated_elsewhere_lookup_uses_the_pair_indexes_on_sqlite(tmp_path: Any) -> None:
    """Each save checks the two pairs through the indexes of schema 9, not by reading every
    match of the round (a 1000-table round would cost a million rows read to fill)."""
    import sqlite3

    from referee_app.store.save import _SQL_SEATED_ELSEWHERE

    db = str(tmp_path / "event.db")
    Store.open(db, create=True, actor=ACTOR).close()
    con = sqlite3.connect(db)
    try:
        params = {"event_id": 1, "round_no": 1, "table_no": 1, "ns": "1", "ew": "2"}
        plan = [r[3] for r in con.execute("EXPLAIN QUERY PLAN " + sqlite_text(_SQL_SEATED_ELSEWHERE), params)]
    finally:
        con.close()
    assert any("ix_matches_ns_pair_round" in step for step in plan), plan
    assert any("ix_matches_ew_pair_round" in step for step in plan), plan
    assert not any(
        step.startswith(("SCAN m", "SEARCH m USING INDEX sqlite_autoindex_matches_1")) for step in plan
    ), plan


def test_ids_are_taken_for_exactly_the_rows_a_save_writes(event_db: str) -> None:
    """The count behind the ids taken beforehand matches the rows written: too few would
    refuse the save, too many would spend PostgreSQL sequence values for nothing."""
    import json

    from referee_app.store.common import strip_case
    from referee_app.store.save import _row_counts

    cases = [
        make_case(1, 1, "1", "2"),
        _many_hands_case(1, 2, "3", "4"),
        make_case(1, 3, "5", "6", exposed=3),
    ]
    with Store.open(event_db) as store:
        for case in cases:
            rec = store.record(1, case, actor=ACTOR, lang="en")
            with store.engine.connect() as conn:
                entry = conn.execute(select(audit_log).where(audit_log.c.seq == rec.entry_seq)).one()
                decision = json.loads(
                    conn.execute(
                        select(matches.c.decision_json).where(matches.c.id == rec.match_id)
                    ).scalar_one()
                )
            rows = json.loads(audit.payload_text(entry.payload))["rows"]
            written = {f"n_{t}": len(rows.get(t, [])) for t in ("hands", "infractions", "rulings")}
            assert _row_counts(strip_case(case), decision) == written
            assert written["n_hands"] >= 2
