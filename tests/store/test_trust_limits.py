"""What a bare ``verify`` cannot see, said and shown (issue 24 item 10): a store rolled back to
an older copy passes it, and only anchors kept outside catch that; entries after the last
anchor are covered by none; before station keys are registered a PostgreSQL station login
can append an entry claiming any role, which verify shows only as unsigned — and once keys
are registered, names."""

from __future__ import annotations

from pathlib import Path

import pytest
from store_helpers import PAIRS_CSV, cli, make_case, write_json
from test_pg_roles import station_login  # noqa: F401  (a fixture)

from referee_app.store import audit, keys, pgroles
from referee_app.store.service import Actor, Store


def _record(db: str, tmp_path: Path, table: int) -> None:
    case = make_case(table=table, ns=str(2 * table - 1), ew=str(2 * table))
    rc, _o, err = cli(db, "record", write_json(tmp_path / f"t{table}.json", case))
    assert rc == 0, err


def test_a_rollback_to_an_older_copy_passes_a_bare_verify_and_the_anchors_catch_it(tmp_path: Path) -> None:
    # SQLite: the anchors' checks are the chain's, the same on either database
    event_db = str(tmp_path / "event.db")
    assert cli(event_db, "event", "create", "--rules", "bhg-2011", "--name", "回滚杯")[0] == 0
    (tmp_path / "pairs.csv").write_text(PAIRS_CSV, encoding="utf-8")
    assert cli(event_db, "pairs", "import", str(tmp_path / "pairs.csv"))[0] == 0
    rc, out, err = cli(event_db, "verify")
    assert rc == 0 and "a bare verify cannot see" in out and "rollback" in out, err
    assert out.strip().splitlines()[-1].startswith("audit chain intact")  # the head still last
    older = tmp_path / "older.bak"
    assert cli(event_db, "backup", "--out", str(older))[0] == 0
    _record(event_db, tmp_path, 1)
    anchors = tmp_path / "anchors.txt"
    rc, kept, err = cli(event_db, "anchor", "-o", str(anchors), "--note")
    assert rc == 0, err
    with Store.open(event_db, read_only=True) as store:
        assert store.log()[-1]["action"] == "audit.anchor"
        assert kept.strip() in store.log()[-1]["payload"]
    rc, out, err = cli(event_db, "verify", "--anchors", str(anchors))
    assert rc == 0 and "1 entry after it is covered by no anchor" in out, out  # the note itself
    assert "a bare verify cannot see" not in out

    # the older copy put back: a bare verify sees nothing wrong …
    assert cli(event_db, "restore", "--from", str(older), "--force")[0] == 0
    rc, out, err = cli(event_db, "verify")
    assert rc == 0, err
    # … the anchor kept outside does
    rc, _o, err = cli(event_db, "verify", "--anchors", str(anchors))
    assert rc == 1 and "the log was truncated" in err, err
    rc, _o, err = cli(event_db, "verify", "--head", kept.strip())
    assert rc == 1


def test_before_station_keys_a_station_login_can_claim_any_role_and_after_them_it_is_named(
    station_login: str,  # noqa: F811
    pg_db: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sqlalchemy as sa

    assert cli(pg_db, "event", "create", "--rules", "bhg-2011", "--name", "杯")[0] == 0
    monkeypatch.setenv("REFEREE_APP_STATION_DB_PASSWORD", "pw-" + station_login)
    assert cli(pg_db, "db", "setup-roles", "--station-login", station_login)[0] == 0
    station = pgroles.station_url(pg_db, station_login, "pw-" + station_login)

    def forge() -> int:
        """What a table's login can do with psql: append an entry of the chain, as the chief
        referee correcting a table, without the app, its PIN or its key."""
        eng = sa.create_engine(station)
        try:
            with eng.begin() as conn:
                audit.lock_for_write(conn)
                w = audit.Writer(conn)
                e = w.commit_entry(
                    user="孙裁判长",
                    station="desk",
                    action="match.correct",
                    event_id=1,
                    round_no=1,
                    table_no=1,
                    role="chief_referee",
                    info={"reason": "伪造"},
                )
            return int(e["seq"])
        finally:
            eng.dispose()

    seq = forge()
    rc, out, err = cli(pg_db, "verify")
    assert rc == 0, err  # tried (issue 24 item 10): it passes, shown only as unsigned …
    assert "no station keys registered yet" in out and "under any name and role" in out
    with Store.open(pg_db, read_only=True) as store:
        forged = store.log()[-1]
    assert forged["seq"] == seq and '"role":"chief_referee"' in forged["payload"].replace(" ", "")

    # … the chief referee registers the trust root: the same forgery is named
    monkeypatch.setenv(keys.ENV_KEYS, str(tmp_path / "keys"))
    mine = keys.create_key("desk", "chief_referee", None)
    with Store.open(pg_db) as store:
        store.register_key(
            station="desk", role="chief_referee", public_key=mine.public_hex, actor=Actor("孙", "desk")
        )
    seq = forge()
    rc, _o, err = cli(pg_db, "verify")
    assert rc == 1 and f"entry #{seq}" in err and "unsigned" in err, err
