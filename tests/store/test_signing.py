"""Issue 10 item 2: signed audit entries. Every entry is signed by the station and role that
wrote it; someone with write access to the database but without a station's key file
cannot add, rewrite or re-sign entries without ``verify`` naming them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from store_helpers import cli, drop_guards, make_case, sql, write_json

from referee_app.store import audit, keys
from referee_app.store.errors import InputError, RoleError
from referee_app.store.service import Actor, Store
from referee_app.store.shared import Shared

CHIEF_PIN, TABLE_PIN = "246810", "135790"


@pytest.fixture
def key_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "keys"
    monkeypatch.setenv(keys.ENV_KEYS, str(folder))
    return folder


def _hall(db: str) -> dict[str, Any]:
    """The chief referee's desk registers its own key (the trust root) and table-1's, sets
    both PINs; table-1 records a table as the table referee. Returns what the test needs."""
    chief_key = keys.create_key("desk", "chief_referee", None)
    table_key = keys.create_key("table-1", "table_referee", None)
    desk = Actor("孙裁判长", "desk")
    with Store.open(db) as store:
        root, is_root = store.register_key(
            station="desk", role="chief_referee", public_key=chief_key.public_hex, actor=desk
        )
        assert is_root and root.fingerprint == chief_key.fingerprint
        _, is_root = store.register_key(
            station="table-1", role="table_referee", public_key=table_key.public_hex, actor=desk
        )
        assert not is_root
        store.set_pin(1, "chief_referee", CHIEF_PIN, actor=desk)
        chief = store.login(1, "chief_referee", CHIEF_PIN, actor=desk)
        store.set_pin(1, "table_referee", TABLE_PIN, actor=chief)
        referee = store.login(1, "table_referee", TABLE_PIN, actor=Actor("李裁判", "table-1"))
        store.record(1, make_case(), actor=referee)
    return {"root": chief_key.fingerprint, "chief": chief_key, "table": table_key}


def _verify(db: str, **kw: Any) -> audit.VerifyResult:
    with Store.open(db) as store:
        return store.verify(**kw)


def test_a_correctly_signed_event_verifies_clean(event_db: str, key_dir: Path) -> None:
    hall = _hall(event_db)
    result = _verify(event_db, root=hall["root"])
    assert result.ok, result.problems
    # db.create, event.create, pairs.import came before the keys; the rest is signed
    assert (result.before_keys, result.root, result.root_seq) == (3, hall["root"], 4)
    assert result.signed == result.entries - 3 >= 5
    # the key file is the owner's alone
    assert (hall["table"].path.stat().st_mode & 0o077) == 0
    rc, out, err = cli(event_db, "verify", "--root", hall["root"][:16], "--progress")
    assert rc == 0 and "trust root " + hall["root"] in out, err
    assert err == f"verify: {result.entries}/{result.entries} (100%)\n"  # the last line always shows
    rc, out, err = cli(event_db, "export", "--progress")
    assert rc == 0 and out.count("\n") == 1 and err == "export: 1/1 (100%)\n", err
    rc, out, _ = cli(event_db, "log")
    assert (
        f"registered the chief referee key of station desk (fingerprint {hall['root'][:16]}…); the trust root"
        in out
    )
    rc, out, _ = cli(event_db, "log", lang="zh")
    assert "登记站点 table-1 的裁判员密钥" in out
    # a root that is not the one kept is a failure
    rc, _, err = cli(event_db, "verify", "--root", hall["chief"].fingerprint[::-1])
    assert rc == 1 and "not the" in err and "kept outside the store" in err


def test_only_the_chief_referees_registered_key_registers(event_db: str, key_dir: Path) -> None:
    table_key = keys.create_key("table-1", "table_referee", None)
    with Store.open(event_db) as store:
        # the first registration must be the chief referee's own key
        with pytest.raises(InputError, match="no chief referee key"):
            store.register_key(
                station="table-1", role="table_referee", public_key=table_key.public_hex,
                actor=Actor("李", "table-1"),
            )  # fmt: skip
        keys.create_key("desk", "chief_referee", None)
        with pytest.raises(InputError, match="the first is the trust root"):
            store.register_key(
                station="table-1", role="table_referee", public_key=table_key.public_hex,
                actor=Actor("孙", "desk"),
            )  # fmt: skip
    hall_key = keys.create_key("desk2", "chief_referee", None)
    _hall_root = _register_own(event_db, "desk")
    with Store.open(event_db) as store, pytest.raises(RoleError, match="only the chief referee"):
        # desk2 has a chief referee key, but nobody registered it
        store.register_key(
            station="desk2", role="chief_referee", public_key=hall_key.public_hex, actor=Actor("王", "desk2")
        )
    assert _verify(event_db, root=_hall_root).ok


def _register_own(db: str, station: str) -> str:
    k = keys.KeyRing().unlock(station, "chief_referee", None)
    assert k is not None
    with Store.open(db) as store:
        reg, _root = store.register_key(
            station=station, role="chief_referee", public_key=k.public_hex, actor=Actor("孙", station)
        )
    return reg.fingerprint


class _ForgingRing(keys.KeyRing):
    """A modified app: signs whatever it is asked to with the key it has, or forges."""

    def __init__(self, use: tuple[str, str] | None = None, claim: str | None = None) -> None:
        super().__init__()
        self.use, self.claim = use, claim

    def sign(self, station: str, role: str | None, entry_hash: str) -> tuple[str, str] | None:
        if self.use is None:
            return None
        signed = super().sign(self.use[0], self.use[1], entry_hash)
        assert signed is not None
        return (self.claim or signed[0], signed[1])


def _forger(db: str, monkeypatch: pytest.MonkeyPatch, ring: keys.KeyRing) -> Store:
    """A store whose role checks are switched off (a modified app with write access): the
    check every part of the store calls, on the object they share."""
    monkeypatch.setattr(Shared, "authorize", lambda self, conn, ev, action, actor: actor.role)
    # (a save checks the PINs it read in its first batch, through this one)
    monkeypatch.setattr(Shared, "authorize_with", lambda self, pins, ev, action, actor: actor.role)
    store = Store.open(db)
    store.keyring = ring
    return store


def test_forged_entries_are_each_reported(
    event_db: str, key_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hall = _hall(event_db)
    before = _verify(event_db).entries
    # 1. a "chief referee" version of table 1, written at table-1 with its table referee key
    with _forger(event_db, monkeypatch, _ForgingRing(use=("table-1", "table_referee"))) as s:
        s.record(1, make_case(defender_points=100), actor=Actor("李裁判", "table-1", "chief_referee"))
    # 2. a forged pin.set by someone with no key at all
    with _forger(event_db, monkeypatch, _ForgingRing()) as s:
        s.set_pin(1, "arbitration", "999999", actor=Actor("某人", "desk", "chief_referee"))
    # 3. a key of the forger's own, not registered
    keys.create_key("desk", "arbitration", None)
    with _forger(event_db, monkeypatch, _ForgingRing(use=("desk", "arbitration"))) as s:
        s.record(1, make_case(table=2, ns="3", ew="4"), actor=Actor("孙裁判长", "desk", "chief_referee"))
    # 4. the forger's signature under the chief referee's fingerprint
    with _forger(event_db, monkeypatch, _ForgingRing(use=("desk", "arbitration"), claim=hall["root"])) as s:
        s.record(1, make_case(table=3, ns="5", ew="6"), actor=Actor("孙裁判长", "desk", "chief_referee"))
    # 5. table-1's own valid key on a version that claims no role at all (as if the event
    # had no PINs): the store never writes that on an event whose roles are enforced
    with _forger(event_db, monkeypatch, _ForgingRing(use=("table-1", "table_referee"))) as s:
        s.record(1, make_case(table=4, ns="7", ew="8"), actor=Actor("李裁判", "table-1", None))
    result = _verify(event_db)
    assert not result.ok
    n = before
    expected = [
        f"entry #{n + 1} (match.record round 1 table 1,",
        "written as chief_referee but signed with the table_referee key of table-1",
        f"entry #{n + 2} (pin.set,",
        "unsigned (written without a registered station key)",
        f"entry #{n + 3} (match.record round 1 table 2,",
        "signed by an unregistered key",
        f"entry #{n + 4} (match.record round 1 table 3,",
        "wrongly signed",
        f"entry #{n + 5} (match.record round 1 table 4,",
        "states no role on event 1, whose roles are enforced",
    ]
    text = "\n".join(result.problems)
    for part in expected:
        assert part in text, text
    assert len(result.problems) == 5, result.problems
    rc, _, err = cli(event_db, "verify")
    assert rc == 1 and len(err.strip().splitlines()) == 5, err


def test_a_rewritten_entry_with_recomputed_hashes_and_a_cut_tail_are_reported(
    event_db: str, key_dir: Path, tmp_path: Path
) -> None:
    _hall(event_db)
    rc, anchor, err = cli(event_db, "anchor")
    assert rc == 0, err
    with Store.open(event_db) as store:
        referee = store.login(1, "table_referee", TABLE_PIN, actor=Actor("李裁判", "table-1"))
        store.record(1, make_case(table=2, ns="3", ew="4"), actor=referee)
        store.record(1, make_case(table=3, ns="5", ew="6"), actor=referee)
    last = _verify(event_db).entries
    # rewrite the second-to-last entry and recompute every hash after it: the chain is
    # whole again, but its signature (and the next one's) no longer match
    drop_guards(event_db, "audit_log")
    rows = sql(event_db, "SELECT * FROM audit_log WHERE seq >= :s ORDER BY seq", s=last - 1)
    prev = sql(event_db, "SELECT hash FROM audit_log WHERE seq = :s", s=last - 2)[0][0]
    for r in rows:
        e = dict(r._mapping)
        if e["seq"] == last - 1:
            e["user_name"] = "伪造者"
        new = audit.entry_hash(prev, e, audit.payload_text(e["payload"]))
        sql(
            event_db, "UPDATE audit_log SET user_name = :u, prev_hash = :p, hash = :h WHERE seq = :s",
            u=e["user_name"], p=prev, h=new, s=e["seq"],
        )  # fmt: skip
        prev = new
    result = _verify(event_db)
    assert [p.split("): ")[0] + ")" for p in result.problems] == [
        f"entry #{last - 1} (match.record round 1 table 2, {rows[0].at}, 伪造者@table-1)",
        f"entry #{last} (match.record round 1 table 3, {rows[1].at}, 李裁判@table-1)",
    ]
    assert all("wrongly signed" in p for p in result.problems)
    # cut the last entries (and their rows, and their signatures): the signatures left are
    # all good, but the anchor noted before says entry #n existed
    n = int(anchor.split(":")[1])
    for t in ("rulings", "infractions", "hands", "matches", "rounds", "entry_signatures"):
        drop_guards(event_db, t)
        col = "seq" if t == "entry_signatures" else "entry_seq"
        sql(event_db, f"DELETE FROM {t} WHERE {col} >= :s", s=n)
    sql(event_db, "DELETE FROM audit_log WHERE seq >= :s", s=n)
    cut = _verify(event_db)
    assert cut.ok, cut.problems  # nothing in the database says a tail is gone …
    rc, _, err = cli(event_db, "verify", "--head", anchor.strip())  # … the anchor does
    assert rc == 1 and f"the log was truncated: it has {n - 1} entries, but entry #{n}" in err, err


def test_old_entries_are_unsigned_not_broken_and_an_encrypted_key_needs_its_passphrase(
    event_db: str, key_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a store written before station keys: every entry unsigned, the chain intact
    rc, out, err = cli(event_db, "verify")
    assert rc == 0 and "no station keys registered yet; 3 entries unsigned" in out, err
    # a passphrase-protected chief referee key, made and registered from the command line
    monkeypatch.setenv(keys.ENV_PASSPHRASE, "马到成功")
    monkeypatch.setenv("REFEREE_APP_STATION", "desk")
    rc, out, err = cli(event_db, "key", "station", "create", "--role", "chief_referee", "--encrypt")
    assert rc == 0, err
    pub = out.split("public key ")[1].split()[0]
    path = Path(out.split("private key ")[1].split("\n")[0])
    assert keys.is_encrypted(path) and "ENCRYPTED" in path.read_text()
    rc, out, err = cli(event_db, "key", "register", "desk", "chief_referee", pub)
    assert rc == 0 and "trust root fingerprint" in out, err
    root = out.split("verify --root): ")[1].strip()
    # without the passphrase the key cannot sign: the command says so and writes nothing
    monkeypatch.delenv(keys.ENV_PASSPHRASE)
    rc, _, err = cli(event_db, "pairs", "import", str(tmp_path / "pairs.csv"))
    assert rc == 2 and "set REFEREE_APP_STATION_KEY_PASSPHRASE" in err, err
    monkeypatch.setenv(keys.ENV_PASSPHRASE, "错的")
    rc, _, err = cli(event_db, "record", write_json(tmp_path / "a.json", make_case()))
    assert rc == 2 and "wrong passphrase" in err, err
    rc, out, err = cli(event_db, "verify", "--root", root)
    assert rc == 0 and "3 written before station keys" in out, err
    # a write that did not unlock the key first (the desk's commands, the window) is
    # refused naming the variable, rather than written unsigned
    monkeypatch.delenv(keys.ENV_PASSPHRASE)
    entries = _verify(event_db).entries
    with Store.open(event_db) as store, pytest.raises(InputError, match=keys.ENV_PASSPHRASE):
        store.record(1, make_case(), actor=Actor("孙", "desk"))
    assert _verify(event_db).entries == entries
    # the same write with the right one is signed
    monkeypatch.setenv(keys.ENV_PASSPHRASE, "马到成功")
    assert cli(event_db, "record", write_json(tmp_path / "a.json", make_case()))[0] == 0
    result = _verify(event_db, root=root)
    assert result.ok and result.signed == 2, result


def test_a_key_unlocked_once_signs_without_its_passphrase_again(key_dir: Path) -> None:
    made = keys.create_key("desk", "chief_referee", "口令")
    ring = keys.KeyRing()
    with pytest.raises(InputError, match="wrong passphrase"):
        ring.unlock("desk", "chief_referee", "别的")
    unlocked = ring.unlock("desk", "chief_referee", "口令")
    assert unlocked is not None and unlocked.fingerprint == made.fingerprint
    again = ring.unlock("desk", None, None)  # the command unlocked it; the store asks again
    assert again is not None and again.fingerprint == made.fingerprint
    fpr, sig = ring.sign("desk", None, "ab" * 32) or ("", "")
    assert fpr == made.fingerprint and keys.verify_signature(made.public_hex, "ab" * 32, sig)
    assert not keys.verify_signature(made.public_hex, "cd" * 32, sig)
    assert ring.sign("table-9", "table_referee", "ab" * 32) is None  # no key: unsigned


def test_a_revoked_key_signs_nothing_that_verifies(
    event_db: str, key_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hall = _hall(event_db)
    table_fpr = hall["table"].fingerprint
    monkeypatch.setenv("REFEREE_APP_STATION", "desk")  # the chief referee's desk
    # the chief referee's own key cannot revoke itself (nobody could register again)
    rc, _, err = cli(event_db, "key", "revoke", hall["root"], "--reason", "试")
    assert rc == 2 and "cannot revoke itself" in err, err
    rc, out, err = cli(event_db, "key", "revoke", table_fpr[:16], "--reason", "笔记本丢失")
    assert rc == 0 and f"revoked table-1 table_referee {table_fpr}" in out, err
    rc, _, err = cli(event_db, "key", "revoke", table_fpr, "--reason", "again")
    assert rc == 2 and "already revoked" in err
    rc, out, _ = cli(event_db, "key", "list")
    assert f"{table_fpr}\ttable-1\ttable_referee\t#5\trevoked #" in out
    assert _verify(event_db, root=hall["root"]).ok  # what it signed before stays good
    # the lost laptop (its key file) keeps writing: every entry after the revocation is named
    with Store.open(event_db) as store:
        referee = store.login(1, "table_referee", TABLE_PIN, actor=Actor("李裁判", "table-1"))
        store.record(1, make_case(table=2, ns="3", ew="4"), actor=referee)
    result = _verify(event_db, root=hall["root"])
    assert not result.ok and len(result.problems) == 1
    assert "which the chief referee revoked at entry #" in result.problems[0], result.problems
    rc, out, _ = cli(event_db, "log")
    assert "revoked the table referee key of station table-1" in out and "笔记本丢失" in out
