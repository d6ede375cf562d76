"""Roles and PINs (Architecture principle 6): salted hashes, wrong PINs counted in the store,
a minute's lock, and every row of the permission table enforced by the store itself, from
its API and from the command line. On SQLite and PostgreSQL (real databases)."""

from __future__ import annotations

import itertools
import json
import tempfile
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from store_helpers import cli, count_entries, drop_guards, sql, write_json
from test_appeals import SIGS, flip_case

from referee_app.core.rulebook import load_rulebook
from referee_app.store import roles
from referee_app.store.errors import InputError, PinError, RoleError
from referee_app.store.pairs_csv import parse_pairs
from referee_app.store.service import Actor, Store

PINS = {"table_referee": "111179", "chief_referee": "24681357", "arbitration": "909090"}
WHO = Actor("孙裁判长", "desk-1")
T0 = datetime(2026, 11, 30, 6, 0, 0, tzinfo=UTC)


class Clock:
    """The stations' clock, moved by the test (``roles.utcnow`` is replaced)."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(roles, "utcnow", c)
    return c


def set_all_pins(store: Store, event_id: int = 1) -> dict[str, Actor]:
    """The chief referee's first PIN (bootstrap), then the others; the three logins."""
    store.set_pin(event_id, "chief_referee", PINS["chief_referee"], actor=WHO)
    chief = store.login(event_id, "chief_referee", PINS["chief_referee"], actor=WHO)
    for role in ("table_referee", "arbitration"):
        store.set_pin(event_id, role, PINS[role], actor=chief)
    return {r: store.login(event_id, r, PINS[r], actor=Actor(f"{r}-user", "st-2")) for r in roles.ROLES}


@pytest.fixture
def store(event_db: str) -> Iterator[Store]:
    s = Store.open(event_db)
    yield s
    s.close()


# -- hashes -----------------------------------------------------------------------------------


def test_pins_are_salted_slow_hashes_kept_out_of_the_log(
    event_db: str, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(roles, "SCRYPT_N", roles.SCRYPT_COST_N)  # the real cost, not the suite's
    # 10^6 six-digit PINs must cost over a day of one core: 128 * r * N bytes per try
    assert roles.PIN_MIN >= 6 and 128 * roles.SCRYPT_R * roles.SCRYPT_COST_N >= 128 * 2**20
    store.create_event(name="第二赛事", rulebook=load_rulebook("bhg-2011"), date=None, actor=WHO)
    for ev in (1, 2):
        store.set_pin(ev, "chief_referee", "432179", actor=WHO)
    h1, h2 = (r[0] for r in sql(event_db, "SELECT pin_hash FROM role_pins ORDER BY id"))
    assert h1 != h2  # same PIN, two events: two salts
    for h in (h1, h2):
        scheme, n, r, p, salt, digest = h.split("$")
        assert (scheme, n, r, p) == ("scrypt", "131072", "8", "1")
        import base64

        assert len(base64.b64decode(salt)) == 16 and len(base64.b64decode(digest)) == 32
        assert roles.pin_matches("432179", h) and not roles.pin_matches("432279", h)
    # neither the PIN nor its hash is in the audit log; a digest of the hash is
    log = "\n".join(str(e["payload"]) for e in store.log())
    assert h1 not in log and h2 not in log and "432179" not in log
    assert "sha256:" in log and "pin.set" in {e["action"] for e in store.log()}
    rc, out, _ = cli(event_db, "log", lang="en")
    assert rc == 0 and "PIN set for the chief referee (only a salted hash is kept)" in out
    assert "no PINs yet: every action is allowed until the chief referee sets one" in out
    assert store.verify().ok
    # the hash cannot be swapped quietly: verify names the entry that set it
    assert "role_pins is append-only" in _refused(event_db, "UPDATE role_pins SET pin_hash = 'x'")
    drop_guards(event_db, "role_pins")
    sql(event_db, "UPDATE role_pins SET pin_hash = :h WHERE id = 2", h=h1)
    result = store.verify()
    assert (
        not result.ok and "pin.set" in str(result.problem) and "role_pins id 2 changed" in str(result.problem)
    )


def _refused(db: str, statement: str) -> str:
    from store_helpers import refused

    return refused(db, statement)


def test_pin_format_and_the_chief_referee_first(store: Store) -> None:
    for bad in ("123", "12345", "1234567890123", "12a456", "１２３４５６", ""):
        with pytest.raises(InputError, match="6 to 12 digits"):
            store.set_pin(1, "chief_referee", bad, actor=WHO)
    with pytest.raises(InputError, match="set the chief referee's PIN first"):
        store.set_pin(1, "table_referee", "111179", actor=WHO)
    with pytest.raises(InputError, match="--role: expected one of"):
        store.set_pin(1, "referee", "111179", actor=WHO)
    assert not store.roles_enforced(1)
    store.set_pin(1, "chief_referee", "246879", actor=WHO)
    assert store.roles_enforced(1)
    # now only the chief referee, logged in, sets PINs
    with pytest.raises(
        RoleError, match=r"^pin.set needs the chief referee's PIN \(you are: not logged in\)$"
    ):
        store.set_pin(1, "table_referee", "111179", actor=WHO)
    states = store.role_states(1)
    assert states["chief_referee"].has_pin and states["chief_referee"].pin_set_by == WHO.user
    assert not states["table_referee"].has_pin
    with pytest.raises(PinError, match="the table referee has no PIN on event 1 yet"):
        store.login(1, "table_referee", "111179", actor=WHO)


# -- wrong PINs and the lock --------------------------------------------------------------------


def test_wrong_pins_count_lock_for_a_minute_and_release(
    event_db: str, store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    if store.engine.dialect.name == "postgresql":
        pytest.skip("the lock is dated by the server's clock there (tests/store/test_pin_locks.py)")
    set_all_pins(store)
    for left in (4, 3, 2, 1):
        with pytest.raises(PinError, match=f"wrong PIN for the arbitration committee; {left} tr") as e:
            store.login(1, "arbitration", "000079", actor=WHO)
        assert e.value.tries_left == left and e.value.locked_until is None
        clock.advance(7)
    with pytest.raises(
        PinError, match=r"the arbitration committee is locked until \d\d:\d\d:\d\d after 5"
    ) as e:
        store.login(1, "arbitration", "000079", actor=WHO)
    until = e.value.locked_until
    assert until == clock.now + timedelta(seconds=60)
    assert roles.local_hms(until) in str(e.value)
    # the same station (another Store on the same database: its command line) sees the lock
    with Store.open(event_db) as again:
        clock.advance(59)
        with pytest.raises(PinError, match="is locked until") as e2:
            again.login(1, "arbitration", PINS["arbitration"], actor=Actor("委员", WHO.station))
        assert e2.value.locked_until == until
        assert again.role_states(1, WHO.station)["arbitration"].locked_until == until
        # another station is not locked out by them (issue 24): the committee logs in there
        assert again.role_states(1, "st-9")["arbitration"].locked_until is None
        assert again.login(1, "arbitration", PINS["arbitration"], actor=Actor("委员", "st-9")).authenticated
    # other roles are not locked
    store.login(1, "chief_referee", PINS["chief_referee"], actor=WHO)
    monkeypatch.setenv("REFEREE_APP_STATION", WHO.station)
    rc, out, _ = cli(event_db, "role", "status", "--json")
    status = json.loads(out)
    assert (
        rc == 0 and status["enforced"] and status["roles"]["arbitration"]["locked_until"] == roles.iso(until)
    )
    rc, out, _ = cli(event_db, "role", "status")
    assert f"locked until {roles.local_hms(until)}" in out
    clock.advance(1)  # 60 s after the 5th wrong PIN: released
    assert store.role_states(1, WHO.station)["arbitration"].locked_until is None
    # the next run starts, and its lock would be twice as long
    with pytest.raises(PinError, match="4 tries left before a 120-second lock"):
        store.login(1, "arbitration", "000079", actor=WHO)
    ok = store.login(1, "arbitration", PINS["arbitration"], actor=WHO)
    assert ok.authenticated and ok.role == "arbitration"
    with pytest.raises(PinError, match="4 tries left before a 60-second lock"):  # a right PIN reset it
        store.login(1, "arbitration", "000079", actor=WHO)
    acts = [e["action"] for e in store.log() if e["action"].startswith("auth.")]
    # lock-time refusals write nothing; st-9's right PIN ended the run over all stations
    assert acts == ["auth.fail"] * 5 + ["auth.ok", "auth.fail", "auth.ok", "auth.fail"]
    assert store.verify().ok


def test_a_new_pin_ends_a_lock_and_old_logins(store: Store, clock: Clock) -> None:
    actors = set_all_pins(store)
    for _ in range(5):
        with pytest.raises(PinError):
            store.login(1, "table_referee", "999979", actor=WHO)
    assert store.role_states(1, WHO.station)["table_referee"].locked_until is not None
    store.set_pin(1, "table_referee", "555579", actor=actors["chief_referee"])
    assert store.role_states(1, WHO.station)["table_referee"].tries_left == 5
    # a login with the old PIN no longer writes
    with pytest.raises(RoleError, match=r"you are: not logged in"):
        store.record(1, flip_case(), actor=actors["table_referee"])
    fresh = store.login(1, "table_referee", "555579", actor=WHO)
    assert store.record(1, flip_case(), actor=fresh).version == 1


def test_a_ticket_is_only_good_for_its_event_and_store(event_db: str, store: Store) -> None:
    actors = set_all_pins(store)
    forged = Actor("x", "y", "chief_referee", "0" * 32)
    claimed = Actor("x", "y", "chief_referee")
    for a in (forged, claimed):
        with pytest.raises(
            RoleError, match=r"pairs.import needs the chief referee's PIN \(you are: not logged in\)"
        ):
            store.import_pairs(1, parse_pairs("number,player1,player2\n9,甲,乙\n"), actor=a, source="p.csv")
    with Store.open(event_db) as other:  # a ticket from another store (process) means nothing
        with pytest.raises(RoleError):
            other.import_pairs(
                1, parse_pairs("number,player1,player2\n9,甲,乙\n"), actor=actors["chief_referee"], source="p"
            )
    ev2 = store.create_event(name="乙", rulebook=load_rulebook("bhg-2011"), date=None, actor=WHO)
    store.set_pin(ev2.id, "chief_referee", "864279", actor=WHO)
    with pytest.raises(RoleError):  # event 1's chief referee is nobody on event 2
        store.set_pin(ev2.id, "arbitration", "123479", actor=actors["chief_referee"])


# -- the permission table, from the store API ---------------------------------------------------


class Desk:
    """An event with PINs, and a fresh situation for each action tried."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.actors = set_all_pins(store)
        self.chief = self.actors["chief_referee"]
        self.rounds = itertools.count(1)
        self.pair_no = itertools.count(100)
        self._copies = tempfile.TemporaryDirectory(prefix="roles-backups-")  # removed with the Desk
        self.folder = Path(self._copies.name)

    def recorded(self, signed: bool = False) -> int:
        rnd = next(self.rounds)
        self.store.record(1, flip_case(rnd), actor=self.chief)
        if signed:
            self.store.sign_match(1, rnd, 1, 1, SIGS, self.chief)
        return rnd

    def appeal(self, by: Actor | None = None) -> int:
        rnd = self.recorded()
        rid = self._ruling(rnd)
        who = by or self.chief
        return int(
            self.store.file_appeal(1, ruling_id=rid, by="NS", grounds="没有亮牌", actor=who, receipt="R-1")
        )

    def table_referee(self, name: str) -> Actor:
        return self.store.login(1, "table_referee", PINS["table_referee"], actor=Actor(name, "st-3"))

    def _ruling(self, rnd: int) -> int:
        m = [x for x in self.store.current_matches(1) if x["round_no"] == rnd][0]
        return int(self.store.rulings_of(m["id"])[0]["id"])

    def situation(self, action: str) -> Callable[[Actor], Any]:
        """Set up what ``action`` needs; return the call that does it as an actor."""
        s = self.store
        if action == "match.record":
            rnd = next(self.rounds)
            return lambda a: s.record(1, flip_case(rnd), actor=a)
        if action == "match.void":
            rnd = self.recorded()
            return lambda a: s.void(1, round_no=rnd, table_no=1, reason="重赛", actor=a)
        if action == "match.sign":
            rnd = self.recorded()
            return lambda a: s.sign_match(1, rnd, 1, 1, SIGS, a)
        if action == "match.correct":
            rnd = self.recorded(signed=True)
            case = flip_case(rnd)
            case["hands"][1]["defender_points"] = 35
            return lambda a: s.record(1, case, actor=a, correction_reason="第2副得分抄错")
        if action == "appeal.file":
            rnd = self.recorded()
            rid = self._ruling(rnd)
            return lambda a: s.file_appeal(1, ruling_id=rid, by="EW", grounds="g", actor=a, receipt="R-1")
        if action == "appeal.accept_late":
            rnd = self.recorded()
            rid = self._ruling(rnd)
            late = datetime.now(UTC) + timedelta(hours=3)
            return lambda a: s.file_appeal(
                1,
                ruling_id=rid,
                by="EW",
                grounds="g",
                actor=a,
                filed_at=late,
                accept_late_reason="交通管制",
                backdate_reason="纸质申诉补录",
                receipt="R-1",
            )
        if action == "appeal.backdate":  # on time, but at a time the store did not see
            rnd = self.recorded()
            rid = self._ruling(rnd)
            return lambda a: s.file_appeal(
                1,
                ruling_id=rid,
                by="EW",
                grounds="g",
                actor=a,
                filed_at=datetime.now(UTC),
                backdate_reason="纸质申诉补录",
                receipt="R-1",
            )
        if action == "appeal.review":
            aid = self.appeal()
            return lambda a: s.review_appeal(aid, actor=a)
        if action == "appeal.decide":
            aid = self.appeal()
            return lambda a: s.decide_appeal(
                aid, decision="rejected", reason="r", committee=["周委员"], actor=a
            )
        if action == "appeal.withdraw":  # filed by the table referee who may withdraw it
            aid = self.appeal(by=self.actors["table_referee"])
            return lambda a: s.withdraw_appeal(aid, reason="撤回", actor=a)
        if action == "pairs.import":
            n = next(self.pair_no)
            return lambda a: s.import_pairs(
                1, parse_pairs(f"number,player1,player2\n{n},甲,乙\n"), actor=a, source="p.csv"
            )
        if action == "event.key":  # one key per event: the refused try before the right one
            return lambda a: s.store_event_key(
                1, p12=b"p12", cert_pem=b"-----CERT-----", subject="CN=x", fingerprint="ab" * 32, actor=a
            )
        if action == "pin.set":
            return lambda a: s.set_pin(1, "table_referee", PINS["table_referee"], actor=a)
        if action == "desk.run":
            return lambda a: s.add_desk_record(1, "round_end", 1, {}, actor=a)
        if action == "store.backup":
            out = self.folder / f"backup-{next(self.rounds)}.db"
            return lambda a: s.backup(str(out), actor=a, event_id=1)
        if action == "store.restore":  # the store as it is now, from a copy taken now
            copy = self.folder / f"copy-{next(self.rounds)}.db"
            s.backup(str(copy), actor=self.chief, event_id=1)
            return lambda a: s.restore(str(copy), actor=a, event_id=1)
        raise AssertionError(action)


def test_every_permission_row_is_enforced_by_the_store(event_db: str, store: Store) -> None:
    desk = Desk(store)
    nobody = Actor("路人", "st-0")
    assert set(roles.PERMISSIONS) == {
        "match.record", "match.void", "match.sign", "match.correct", "appeal.file",
        "appeal.accept_late", "appeal.backdate", "appeal.review", "appeal.decide", "appeal.withdraw",
        "pairs.import", "event.key", "pin.set",
        "desk.run", "store.backup", "store.restore",
    }  # fmt: skip
    for action, allowed in roles.PERMISSIONS.items():
        for role in roles.ROLES:
            do = desk.situation(action)
            before = count_entries(event_db)
            if role in allowed:
                do(desk.actors[role])
                entry = store.log()[-1]
                assert json.loads(entry["payload"])["info"]["role"] == role, action
            else:
                with pytest.raises(RoleError) as e:
                    do(desk.actors[role])
                msg = str(e.value)
                assert msg.startswith(f"{action} needs ") and msg.endswith(
                    f"PIN (you are: {roles.role_name(role)})"
                ), msg
                assert "\n" not in msg and count_entries(event_db) == before, (action, role)
            if role == roles.ROLES[0]:
                with pytest.raises(RoleError, match=r"\(you are: not logged in\)$"):
                    desk.situation(action)(nobody)
    assert "appeal.decide needs the arbitration committee's PIN (you are: table referee)" == roles.refusal(
        "appeal.decide", "table_referee"
    )
    assert store.verify().ok


def test_an_event_without_pins_allows_everything(store: Store) -> None:
    nobody = Actor("路人", "st-0")
    rec = store.record(1, flip_case(), actor=nobody)
    rid = store.rulings_of(rec.match_id)[0]["id"]
    aid = store.file_appeal(1, ruling_id=rid, by="NS", grounds="g", actor=nobody, receipt="R-1")
    out = store.decide_appeal(aid, decision="upheld", reason="r", committee=["周"], actor=nobody)
    assert out["state"] == "upheld"
    assert not store.roles_enforced(1)
    assert "role" not in json.loads(store.log()[-1]["payload"])["info"]


# -- the command line -----------------------------------------------------------------------------


def test_a_table_referee_cannot_decide_an_appeal_from_the_command_line(
    event_db: str, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    desk = Desk(store)
    aid = desk.appeal()
    before = count_entries(event_db)
    decide = ("appeal", "decide", str(aid), "--decision", "upheld", "--reason", "r", "--committee", "周")
    monkeypatch.setenv("REFEREE_APP_PIN", PINS["table_referee"])
    rc, out, err = cli(event_db, *decide, "--role", "table_referee")
    assert (rc, out) == (2, "")
    assert err == "appeal.decide needs the arbitration committee's PIN (you are: table referee)\n"
    monkeypatch.delenv("REFEREE_APP_PIN")
    rc, _, err = cli(event_db, *decide)
    assert rc == 2 and "(you are: not logged in); give --role ROLE" in err
    monkeypatch.setenv("REFEREE_APP_PIN", "000000")
    rc, _, err = cli(event_db, *decide, "--role", "arbitration")
    assert (
        rc == 2 and err == "wrong PIN for the arbitration committee; 4 tries left before a 60-second lock\n"
    )
    assert count_entries(event_db) == before + 1  # the wrong PIN, counted
    monkeypatch.setenv("REFEREE_APP_PIN", PINS["arbitration"])
    rc, _, err = cli(event_db, *decide, "--role", "arbitration")
    assert rc == 0, err
    rc, out, _ = cli(event_db, "log", lang="zh")
    assert "［仲裁委员会］申诉" in out and "仲裁委员会 PIN 错误（连续第 1 次）" in out


def test_the_pin_is_prompted_without_echo_never_in_argv(
    event_db: str, store: Store, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import getpass

    desk = Desk(store)
    asked: list[str] = []

    def fake_getpass(prompt: str = "") -> str:
        asked.append(prompt)
        return PINS["arbitration" if "arbitration" in prompt else "chief_referee"]

    monkeypatch.delenv("REFEREE_APP_PIN", raising=False)
    monkeypatch.setattr(getpass, "getpass", fake_getpass)
    case = write_json(tmp_path / "c.json", flip_case(next(desk.rounds)))
    rc, _, err = cli(event_db, "record", case, "--role", "chief_referee")
    assert rc == 0, err
    assert asked == ["PIN of the chief referee: "]
    rc, _, err = cli(event_db, "record", case, "--role", "chief_referee", "--pin", "123479")
    assert rc == 2 and "unrecognized arguments: --pin" in err
    # REFEREE_APP_ROLE stands for --role
    monkeypatch.setenv("REFEREE_APP_ROLE", "arbitration")
    rc, _, err = cli(event_db, "void", "--round", "1", "--table", "1", "--reason", "r")
    assert rc == 2 and "match.void needs" in err and "(you are: arbitration committee)" in err
    assert asked[-1] == "PIN of the arbitration committee: "


def _pin_env(monkeypatch: pytest.MonkeyPatch, role: str) -> None:
    monkeypatch.setenv("REFEREE_APP_PIN", PINS[role])


def test_every_permission_row_from_the_command_line(
    event_db: str, store: Store, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Each command as each role: refused with the store's one line, or done."""
    desk = Desk(store)
    pngs = {}
    for k, data in SIGS.items():
        (tmp_path / f"{k}.png").write_bytes(data)
        pngs[k] = str(tmp_path / f"{k}.png")
    csv = tmp_path / "p.csv"

    def argv(action: str) -> list[str]:
        if action == "match.record":
            return ["record", write_json(tmp_path / "r.json", flip_case(next(desk.rounds)))]
        if action == "match.void":
            return ["void", "--round", str(desk.recorded()), "--table", "1", "--reason", "重赛"]
        if action == "match.sign":
            rnd = desk.recorded()
            sig = [x for k in ("N", "E", "S", "W", "referee") for x in (f"--{k}", pngs[k])]
            return ["sign", "--round", str(rnd), "--table", "1", "--expect-version", "1", *sig]
        if action == "match.correct":
            rnd = desk.recorded(signed=True)
            case = flip_case(rnd)
            case["hands"][1]["defender_points"] = 35
            return ["correct", write_json(tmp_path / "c.json", case), "--reason", "抄错"]
        if action in ("appeal.file", "appeal.accept_late", "appeal.backdate"):
            rid = desk._ruling(desk.recorded())
            args = [
                "appeal",
                "file",
                "--ruling",
                str(rid),
                "--by",
                "EW",
                "--grounds",
                "g",
                "--receipt",
                "R-1",
            ]
            if action == "appeal.accept_late":
                late = (datetime.now(UTC) + timedelta(hours=3)).isoformat()
                args += ["--filed-at", late, "--accept-late", "--reason", "交通管制"]
            if action != "appeal.file":
                args += ["--backdate-reason", "纸质申诉补录"]
            if action == "appeal.backdate":
                args += ["--filed-at", datetime.now(UTC).isoformat()]
            return args
        if action == "appeal.review":
            return ["appeal", "review", str(desk.appeal())]
        if action == "appeal.decide":
            aid = str(desk.appeal())
            return ["appeal", "decide", aid, "--decision", "rejected", "--reason", "r", "--committee", "周"]
        if action == "appeal.withdraw":
            aid = desk.appeal(by=desk.table_referee("张三"))  # the command line's REFEREE_APP_USER
            return ["appeal", "withdraw", str(aid), "--reason", "撤回"]
        if action == "pairs.import":
            csv.write_text(f"number,player1,player2\n{next(desk.pair_no)},甲,乙\n", encoding="utf-8")
            return ["pairs", "import", str(csv)]
        if action == "desk.run":
            return ["round", "end", "--round", "1"]
        if action == "store.backup":
            taken = len(list(tmp_path.glob("backup-*.db")))  # a refused one leaves no file
            return ["backup", "--out", str(tmp_path / f"backup-{taken}.db")]
        raise AssertionError(action)

    # store.restore: a restore replaces the store this test's own ``store`` holds open (on
    # PostgreSQL, "in use"); its role check is tests/store/test_backup.py's
    cli_rows = [a for a in roles.PERMISSIONS if a not in ("event.key", "pin.set", "store.restore")]
    for action in cli_rows:
        allowed = roles.PERMISSIONS[action]
        for role in roles.ROLES:
            args = argv(action)
            _pin_env(monkeypatch, role)
            before = count_entries(event_db)
            rc, _, err = cli(event_db, *args, "--role", role)
            if role in allowed:
                assert rc == 0, (action, role, err)
            else:
                assert (
                    rc == 2
                    and err.startswith(f"{action} needs ")
                    and err.endswith(f"(you are: {roles.role_name(role)})\n")
                ), (action, role, err)
                assert count_entries(event_db) == before
    # pin.set: role set-pin acts as the chief referee (its PIN), whatever role is named
    monkeypatch.setenv("REFEREE_APP_NEW_PIN", "8642079")
    for role in ("table_referee", "arbitration"):
        _pin_env(monkeypatch, role)  # not the chief referee's PIN
        rc, _, err = cli(event_db, "role", "set-pin", "--role", role)
        assert rc == 2 and "wrong PIN for the chief referee" in err
    _pin_env(monkeypatch, "chief_referee")
    rc, _, err = cli(event_db, "role", "set-pin", "--role", "arbitration")
    assert rc == 0 and err == "PIN set for the arbitration committee\n"
    assert store.login(1, "arbitration", "8642079", actor=WHO).authenticated


def test_role_set_pin_and_status_on_a_new_event(
    event_db: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import getpass

    rc, out, _ = cli(event_db, "role", "status")
    assert rc == 0 and out.startswith("event 1: no PINs yet: roles not enforced")
    answers = iter(["246879", "246979"])
    monkeypatch.setattr(getpass, "getpass", lambda prompt="": next(answers))
    rc, _, err = cli(event_db, "role", "set-pin", "--role", "chief_referee")
    assert rc == 2 and err == "new PIN: the two entries differ; nothing changed\n"
    answers = iter(["246879", "246879"])
    rc, _, err = cli(event_db, "role", "set-pin", "--role", "chief_referee", lang="zh")
    assert rc == 0 and err == "已设置裁判长的 PIN\n"
    rc, out, _ = cli(event_db, "role", "status", lang="zh")
    assert out.splitlines()[0] == "赛事 1：按角色检查权限"
    assert "chief_referee\t裁判长\tPIN 设于" in out and "arbitration\t仲裁委员会\t未设 PIN" in out
    # roles are enforced from now on: a write without a role is refused, in one line
    (tmp_path / "p.csv").write_text("number,player1,player2\n9,甲,乙\n", encoding="utf-8")
    rc, _, err = cli(event_db, "pairs", "import", str(tmp_path / "p.csv"))
    assert rc == 2 and err.startswith("pairs.import needs the chief referee's PIN (you are: not logged in)")
    assert err.count("\n") == 1


def test_upgraded_v4_event_keeps_working_without_pins(db: str) -> None:
    from referee_app.store.db import SCHEMA_VERSION, make_engine, migrate, resolve_target

    url, _ = resolve_target(db)
    engine = make_engine(url)
    migrate(engine, create=True, user="old", station="s0", where=db, target=4)
    old = Store(engine)
    ev = old.create_event(name="旧", rulebook=load_rulebook("bhg-2011"), date=None, actor=WHO)
    old.import_pairs(ev.id, parse_pairs("number,player1,player2\n1,甲,乙\n2,丙,丁\n"), actor=WHO, source="p")
    old.close()
    with Store.open(db) as s:  # upgraded to the current schema on open
        assert sql(db, "SELECT value FROM store_meta")[0][0] == str(SCHEMA_VERSION)
        assert not s.roles_enforced(ev.id)
        s.record(ev.id, flip_case(), actor=Actor("x", "y"))
        s.set_pin(ev.id, "chief_referee", "135779", actor=WHO)
        with pytest.raises(RoleError):
            s.record(ev.id, flip_case(2), actor=Actor("x", "y"))
        assert s.verify().ok
    assert "role_pins is append-only" in _refused(db, "DELETE FROM role_pins")


# -- the application layer ----------------------------------------------------------------------


def test_session_login_role_and_set_pin(store: Store, clock: Clock) -> None:
    from referee_app.app.session import Session

    desk_session = Session(store, store.pick_event(None), Actor("孙裁判长", "desk-1"), "zh")
    assert desk_session.role is None and not desk_session.roles_enforced()
    desk_session.set_pin("chief_referee", "246879")  # the first PIN: the desk is now chief referee
    assert desk_session.roles_enforced() and desk_session.role == "chief_referee"
    desk_session.set_pin("table_referee", "111179")
    desk_session.set_pin("arbitration", "909090")
    desk_session.set_pin("chief_referee", "864279")  # a changed own PIN: logged in again with it
    assert desk_session.actor.authenticated
    record = desk_session.open_table(1, 1, "1", "2")
    assert record.version == 1

    table = Session(store, store.pick_event(None), Actor("赵裁判", "table-1"), "zh")
    with pytest.raises(RoleError, match=r"match.record needs .*\(you are: not logged in\)"):
        table.open_table(1, 2, "3", "4")
    with pytest.raises(PinError, match=r"^wrong PIN for the table referee; 4 tries left") as e:
        table.login("table_referee", "222279")
    assert e.value.tries_left == 4 and table.role is None
    table.login("table_referee", "111179")
    assert table.role == "table_referee"
    assert table.open_table(1, 2, "3", "4").version == 1
    with pytest.raises(
        RoleError, match=r"^pin.set needs the chief referee's PIN \(you are: table referee\)$"
    ):
        table.set_pin("arbitration", "123479")
    table.logout()
    assert table.role is None
    with pytest.raises(RoleError, match=r"\(you are: not logged in\)"):
        table.open_table(2, 1, "1", "2")
