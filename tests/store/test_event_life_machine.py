"""One truth over an event's life, checked after every step of random sequences (issue 22).

A hypothesis ``RuleBasedStateMachine`` runs a small event (4–6 pairs, 2–3 tables, 2–3
rounds, under BHG 2011 or Gansu 2018, drawn per sequence) through the application layer,
the way the window and the command line do: hands and infractions saved through
``Session``, rulings overridden and voided, matches voided and seated again, appeals filed
and decided, matches corrected from a case file (the stored case with its decisions
stripped), signed, rounds ended and paired, pairs withdrawn and re-admitted. Each sequence
has its own SQLite file or PostgreSQL schema.

After every step:

1. the window shows the store: ``Session.tables`` (case, decision, version, signed) of every
   round is the store's current matches, and the window's Qt models (``HandsModel``,
   ``RulingsModel``, offscreen) have a row per hand and per ruling, voided ones struck out;
2. the printed data is the store: the scoresheet data of ``store_scoresheets`` (the builder
   of ``print scoresheet`` and of the window's preview) has the stored case, decision and
   version, its digest is the stored version's, its voided rulings are the decision's;
3. the printed pairing is the published one: the pairing ``pairing show`` prints
   (``app.event.published_pairing``) is what was published, and every current match of a
   round sits at its published table with its published pairs;
4. a decision on a ruling (an override, a voiding, the committee's) stays with that ruling
   in every later version, unless a step replaced it (``replace_decisions``) or voided the
   match; and nowhere else does one appear;
5. a committee's decision that lightens a side's sanction (upheld, or modified to a
   warning) never worsens that side's result (winner, match points, level difference) —
   except for a sanction that ends the hand at once (Gansu 六、六、E): its hand is then scored
   on the points it had when it was stopped, which can give the other side more than the
   sanction did; that is the rule's reading (DOMAIN §4), not the store's;
6. the hands stand as played: every hand after the first keeps the dealer of the version
   before it, unless the step changed the first dealer or named a dealer itself;
7. the audit chain verifies;
8. the standings are an independent tally of the current matches' results and the
   published byes: match points, level difference, opponents' score, small points,
   earlier rounds' points;

and besides: a refused step writes nothing, and each stored decision is its stored case
judged again.

Run size: ``CI=true`` (or ``REFEREE_APP_TEST_LIFE_PROFILE=ci``) runs 200 sequences of 30 steps on
each back end, derandomized; locally 20.
"""

from __future__ import annotations

import contextlib
import copy
import io
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import hypothesis
import pytest
from conftest import _need_pg
from hypothesis import HealthCheck, Phase, event, reproduce_failure, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from referee_app.app.event import load_event, published_pairing
from referee_app.app.session import Session, TableRecord
from referee_app.core import editing
from referee_app.core.case import split_case
from referee_app.core.engine import decide, word
from referee_app.core.errors import CaseError
from referee_app.core.levels import level_index
from referee_app.core.pairing import PairingError
from referee_app.core.rulebook import load_rulebook
from referee_app.core.standings import compute_standings
from referee_app.store.common import strip_case
from referee_app.store.errors import StoreError
from referee_app.store.pairs_csv import PairRow
from referee_app.store.service import Actor, Store

CI = os.environ.get("CI", "").lower() == "true" or os.environ.get("REFEREE_APP_TEST_LIFE_PROFILE") == "ci"

settings.register_profile(
    "event-life-ci",
    max_examples=200,
    stateful_step_count=31,  # the event's opening and 30 steps
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    print_blob=True,
)
settings.register_profile(
    "event-life-dev",
    max_examples=int(os.environ.get("REFEREE_APP_TEST_LIFE_EXAMPLES", "20")),
    stateful_step_count=31,
    # REFEREE_APP_TEST_LIFE_SHRINK=0: report the first failing sequence as found (shrinking a
    # sequence of 30 store writes can take minutes)
    phases=[Phase.explicit, Phase.generate]
    if os.environ.get("REFEREE_APP_TEST_LIFE_SHRINK") == "0"
    else list(Phase),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    print_blob=True,
)
PROFILE = "event-life-ci" if CI else "event-life-dev"

CHIEF = Actor("孙裁判长", "desk-1")
SEATS = ("N", "E", "S", "W")
SIDE_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
OTHER = {"NS": "EW", "EW": "NS"}
RULEBOOKS = ("bhg-2011", "gansu-2018")
DECISION_KEYS = editing.DECISION_KEYS

#: What this machine found is kept as plain tests in test_event_life.py (the section "found
#: by the state machine"): a hand both sides lose on PostgreSQL, a voiding on top of the
#: committee's decision, a decided twin dropped, an appeal decided onto a moved ruling or
#: onto the record entered after a voiding.


# -- what a sequence is made of ---------------------------------------------------------------
def png(seed: int) -> bytes:
    from PIL import Image, ImageDraw

    # a signature's size and ink, as the pad draws one (the store refuses a blank or a dot)
    im = Image.new("RGBA", (200, 60), (0, 0, 0, 0))
    points = [(8 + i * 16, 30 + ((i * 37 + seed * 11) % 30) - 15) for i in range(12)]
    ImageDraw.Draw(im).line(points, fill=(20, 30, 120, 255), width=3)
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


SIGS = {k: png(i) for i, k in enumerate(("N", "E", "S", "W", "referee"))}

seats = st.sampled_from(SEATS)
tricks = st.integers(1, 20)


@st.composite
def infractions(draw: Any, rulebook: str) -> dict[str, Any]:
    """One infraction from a small valid vocabulary of the event's rulebook."""
    seat = draw(seats)
    trick = draw(tricks)
    kinds = ["exposed_card", "wrong_play", "hidden_card", "delay", "unreasonable_play", "illegal_signal"]
    kind = draw(st.sampled_from(kinds))
    inf: dict[str, Any] = {"kind": kind, "seat": seat, "trick": trick}
    if kind in ("exposed_card", "wrong_play"):
        inf["cards"] = draw(st.integers(1, 2))
    if kind == "exposed_card" and rulebook == "gansu-2018":
        inf["severity"] = draw(st.sampled_from(["light", "heavy"]))
    if kind == "hidden_card":
        inf["discovered"] = trick + draw(st.integers(0, 3))
        if rulebook == "gansu-2018":
            inf["affects_result"] = draw(st.booleans())
    if kind == "delay":
        inf["what"] = draw(st.sampled_from(["bury", "lead", "follow"]))
        inf.pop("trick")
    return inf


@st.composite
def hand_points(draw: Any) -> dict[str, Any]:
    """A hand's points: the defenders' card points, the bottom and re-declarations."""
    points = draw(st.integers(0, 40)) * 5
    captured = draw(st.booleans())
    bottom: dict[str, Any] = {
        "points": draw(st.integers(0, min(16, (200 - points) // 5))) * 5,
        "captured": captured,
    }
    if captured:
        shape = draw(st.sampled_from(["single", "pair", "tractor"]))
        bottom["shape"] = shape
        if shape == "tractor":
            bottom["pairs"] = draw(st.integers(2, 3))
    return {"defender_points": points, "redeclarations": draw(st.integers(0, 1)), "bottom": bottom}


override_sanctions = st.one_of(
    st.just(["warning"]),
    st.builds(lambda n: [{"points": n}], st.sampled_from([10, 20, 40])),
    st.just(["hand_loss"]),
)


# -- the model: what the store must show ------------------------------------------------------
@dataclass
class TableModel:
    """One table of one round as the sequence made it. Infractions are known by an id that
    stays with them whatever moves around them; decisions are kept by infraction id."""

    round: int
    table: int
    pairs: dict[str, str]
    version: int = 0  # the latest version at the table, voided or not
    current: bool = False  # it has a current (unvoided) version
    generation: int = 0  # a new record after a voiding starts a new generation
    ids: list[list[int]] = field(default_factory=lambda: [[]])  # [before play, hand 1, …]
    decisions: dict[int, dict[str, Any]] = field(default_factory=dict)
    dealers: list[str] = field(default_factory=list)  # of the last checked version
    signed: bool = False
    checked: int = -1  # the version the invariants last looked at in depth
    case: dict[str, Any] = field(default_factory=dict)
    decision: dict[str, Any] = field(default_factory=dict)
    #: the next version's dealers: hand index -> the seat named (a correction named it);
    #: "free" when the step changed the first dealer (the earlier dealers are no facts then)
    dealers_named: dict[int, str] | str | None = None
    shown: int = -1  # the version the window's models last showed
    voided_signed: bool = False  # the voided version was signed

    def place_of(self, inf_id: int) -> tuple[int, int] | None:
        for slot, ids in enumerate(self.ids):
            if inf_id in ids:
                return slot, ids.index(inf_id)
        return None

    def id_at(self, slot: int, pos: int) -> int:
        return self.ids[slot][pos]

    def open(self) -> bool:
        return self.current and self.decision.get("result") is None


@dataclass
class AppealModel:
    id: int
    round: int
    table: int
    generation: int
    inf_id: int
    kind: str
    side: str  # the offending side of the appealed ruling
    ends_hand: bool
    place: tuple[int, int]  # where the appealed infraction was when the appeal was filed
    open: bool = True
    reviewed: bool = False


def slot_items(case: dict[str, Any]) -> list[list[Any]]:
    """The infractions of a case by slot: before play, then each hand."""
    out = [list(case.get("before_play") or [])]
    out += [list(h.get("infractions") or []) for h in case.get("hands") or []]
    return out


def stored_decisions(case: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    out = {}
    for slot, items in enumerate(slot_items(case)):
        for pos, inf in enumerate(items):
            d = {k: inf[k] for k in DECISION_KEYS if k in inf}
            if d:
                out[(slot, pos)] = d
    return out


def ruling_slot(ruling: dict[str, Any]) -> tuple[int, int] | None:
    """(slot, infraction index) of the infraction a ruling answers."""
    path = str(ruling.get("infraction") or "")
    if not path.endswith("]"):
        return None
    index = int(path[path.rindex("[") + 1 : -1])
    if path.startswith("before_play"):
        return 0, index
    hand = int(path[len("hands[") : path.index("]")])
    return hand + 1, index


def all_rulings(decision: dict[str, Any]) -> list[dict[str, Any]]:
    out = list(decision.get("before_play") or [])
    for h in decision.get("hands") or []:
        out += h.get("rulings") or []
    return out


def strip_decisions(case: dict[str, Any], *, dealers: bool) -> dict[str, Any]:
    """The case as a case file would give it: no decisions on rulings (and, with
    ``dealers``, no dealer as played)."""
    out = copy.deepcopy(case)
    for items in [out.get("before_play") or []] + [
        h.get("infractions") or [] for h in out.get("hands") or []
    ]:
        for inf in items:
            for k in DECISION_KEYS:
                inf.pop(k, None)
    if dealers:
        for h in out.get("hands") or []:
            h.pop("dealt_by", None)
    return out


def side_standing(decision: dict[str, Any], side: str) -> tuple[str, tuple[int, ...]] | None:
    """How ``side`` stands in a match, larger better for it: (won, match points, level
    difference) once it has a result; while it is open, its level lead after the last hand."""
    result = decision.get("result")
    if result is not None:
        winner = result.get("winner")
        won = 1 if winner == side else (-1 if winner == OTHER[side] else 0)
        return "result", (won, int(result["match_points"][side]), int(result["level_difference"][side]))
    hands = [h for h in decision.get("hands") or [] if not h.get("in_progress")]
    if decision.get("forfeit") or not hands:
        return None
    levels = hands[-1]["levels_after"]
    return "open", (level_index(levels[side]) - level_index(levels[OTHER[side]]),)


class Stopwatch:
    """Adds the time since the last call to ``timings[name]`` (what the invariants cost)."""

    def __init__(self, timings: Counter[str]) -> None:
        self.timings = timings
        self.last = time.perf_counter()

    def __call__(self, name: str) -> None:
        now = time.perf_counter()
        self.timings[name] += now - self.last  # type: ignore[assignment]
        self.last = now


class Refused(Exception):
    """A step the application refused (its code), with nothing written."""


# -- the machine ------------------------------------------------------------------------------
class EventLife(RuleBasedStateMachine):
    """A small event's life through the application layer, checked after every step."""

    #: set by the test: a fresh database target (a path or a URL) per sequence, and its kind
    new_target: Callable[[], contextlib.AbstractContextManager[str]]
    backend = "sqlite"
    #: render one scoresheet PDF and read it back at the end of every n-th sequence (0: never)
    render_every = 0
    sequences = 0
    outcomes: Counter[str] = Counter()
    timings: Counter[str] = Counter()

    def __init__(self) -> None:
        super().__init__()
        type(self).sequences += 1
        self.exit = contextlib.ExitStack()
        self.target = ""
        self.store: Store | None = None
        self.session: Session
        self.tables: dict[tuple[int, int], TableModel] = {}
        self.appeals: list[AppealModel] = []
        self.published: dict[int, dict[str, Any]] = {}
        self.withdrawn: dict[str, tuple[int, int | None]] = {}  # pair -> (from round, back from)
        self.round = 0
        self.rounds = 0
        self.pairs: list[str] = []
        self.next_id = itertools.count(1)
        self.pairing_changed = True
        self.ended: set[int] = set()
        self.voids = 0
        self.last_head: Any = None
        self.shown_rounds: dict[int, Any] = {}

    def teardown(self) -> None:
        clock = Stopwatch(type(self).timings)
        try:
            if self.store is not None and self.render_every and type(self).sequences % self.render_every == 1:
                self.render_one_sheet()
        finally:
            if self.store is not None:
                self.store.close()
            self.exit.close()
            clock("teardown")

    # -- helpers -----------------------------------------------------------------------------
    def note(self, what: str) -> None:
        event(what)
        type(self).outcomes[what] += 1

    def head(self) -> int:
        return self.session.store_head()

    def record_of(self, t: TableModel) -> TableRecord:
        found = self.session.table(t.round, t.table)
        assert found is not None, f"round {t.round} table {t.table}: not shown"
        return found

    def attempt(self, what: str, fn: Callable[[], Any], *allowed: str) -> Any:
        """Run a write; a refusal whose code is ``allowed`` must have written nothing."""
        before = self.head()
        clock = Stopwatch(type(self).timings)
        try:
            out = fn()
            clock("writes")
        except StoreError as err:
            code = getattr(err, "code", "?")
            assert any(code == a or (a.endswith("*") and code.startswith(a[:-1])) for a in allowed), (
                f"{what}: refused unexpectedly: {code}: {err}"
            )
            assert self.head() == before, f"{what}: refused ({code}) but the store changed"
            self.note(f"{what}: refused {code}")
            raise Refused(code) from None
        self.note(f"{what}: done")
        return out

    def saved(self, t: TableModel) -> None:
        """A new version of the table was written."""
        t.version += 1
        t.signed = False

    def save_case(
        self, t: TableModel, record: TableRecord, case: dict[str, Any], what: str, *allowed: str
    ) -> Any:
        """Save as the window does: a signed table through the chief referee's correction."""
        if record.signed:
            return self.attempt(what, lambda: self.session.correct(record, case, "裁判长更正"), *allowed)
        return self.attempt(what, lambda: self.session.save(record, case), *allowed)

    def grow_ids(self, t: TableModel, case: dict[str, Any]) -> None:
        """Give an id to each infraction the step appended (and drop the slot of a hand in
        progress without rulings that ending the round dropped)."""
        items = slot_items(case)
        while len(t.ids) > len(items):
            assert not t.ids[-1], "a hand with rulings disappeared"
            t.ids.pop()
        while len(t.ids) < len(items):
            t.ids.append([])
        for slot, its in enumerate(items):
            while len(t.ids[slot]) < len(its):
                t.ids[slot].append(next(self.next_id))
            assert len(t.ids[slot]) == len(its), f"slot {slot}: infractions disappeared"

    def candidates(self, pred: Callable[[TableModel], bool]) -> list[TableModel]:
        return [t for _, t in sorted(self.tables.items()) if pred(t)]

    def pick(self, pred: Callable[[TableModel], bool], n: int) -> TableModel:
        found = self.candidates(pred)
        return found[n % len(found)]

    def has(self, pred: Callable[[TableModel], bool]) -> bool:
        return self.store is not None and any(pred(t) for t in self.tables.values())

    # -- the event ---------------------------------------------------------------------------
    @initialize(
        rulebook=st.sampled_from(RULEBOOKS),
        n_pairs=st.integers(4, 6),
        rounds=st.integers(2, 3),
        seed=st.integers(0, 10**6),
    )
    def open_the_event(self, rulebook: str, n_pairs: int, rounds: int, seed: int) -> None:
        clock = Stopwatch(type(self).timings)
        self.target = self.exit.enter_context(self.new_target())
        clock("setup: database")
        self.store = Store.open(self.target, create=True, actor=CHIEF)
        rb = load_rulebook(rulebook)
        ev = Session.create_event(self.store, "生命周期杯", rb, "2026-05-01", CHIEF)
        self.pairs = [str(i) for i in range(1, n_pairs + 1)]
        rows = [PairRow(i, p, f"甲{p}", f"乙{p}", None) for i, p in enumerate(self.pairs, 1)]
        self.store.import_pairs(ev.id, rows, actor=CHIEF, source="pairs.csv")
        self.session = Session(self.store, ev, CHIEF, "zh")
        self.rounds = rounds
        self.rulebook = rulebook
        self.publish(seed)
        assert self.round == 1
        clock("setup: event")

    def publish(self, seed: int) -> None:
        """The desk's pairing: the next round refused over an unfinished one, else paired
        (round 1 drawn with ``seed``, kept as the round's proposal, as ``pair --seed``),
        checked, published and its tables seated (first dealer East)."""
        from referee_app.app.pairing import refuse_unfinished, round_pairing

        nxt = self.round + 1
        before = self.head()
        ev = self.session.event
        try:
            rp = round_pairing(
                self.store,
                ev.id,
                nxt,
                keeper=lambda: self.session.actor,
                seed=seed if nxt == 1 else None,
                check=lambda loaded: refuse_unfinished(loaded, nxt),
            )
        except PairingError as err:
            assert self.head() == before
            self.note(f"publish: no pairing ({getattr(err, 'code', '?')})")
            return
        errors, warnings = rp.check()
        assert not errors, errors
        self.attempt("publish", lambda: self.session.publish_pairing(rp, warnings))
        self.round = nxt
        pairing = rp.pairing
        self.published[nxt] = {"tables": [[t.table, t.ns, t.ew] for t in pairing.tables], "bye": pairing.bye}
        self.pairing_changed = True
        for t in pairing.tables:
            m = TableModel(nxt, t.table, {"NS": t.ns, "EW": t.ew}, version=1, current=True)
            self.tables[(nxt, t.table)] = m
            self.grow_ids(m, editing.new_case(self.rulebook, "E"))

    def round_played(self) -> bool:
        here = [t for t in self.tables.values() if t.round == self.round]
        return bool(here) and all(t.current and t.decision.get("result") is not None for t in here)

    @precondition(
        lambda self: self.store is not None and self.round not in self.ended and self.round_played()
    )
    @rule()
    def end_the_round(self) -> None:
        """The chief referee records the round's end (Gansu: publishes its scores): the
        appeal window runs from it."""
        kind = "scores_published" if self.rulebook == "gansu-2018" else "round_end"
        self.attempt(
            "end the round",
            lambda: self.store.add_desk_record(self.session.event.id, kind, self.round, {}, actor=CHIEF),
        )
        self.ended.add(self.round)

    @precondition(
        lambda self: (
            self.store is not None
            and self.round < self.rounds
            and len(self.withdrawn) < 2
            and all(back is not None for _, back in self.withdrawn.values())
        )
    )
    @rule(n=st.integers(0, 99))
    def withdraw_a_pair(self, n: int) -> None:
        active = [p for p in self.pairs if p not in self.withdrawn or self.withdrawn[p][1] is not None]
        if len(active) <= 3:
            self.note("withdraw: kept a field of three")
            return
        pair = active[n % len(active)]
        body = {"pair": pair, "reason": "家中有事"}
        ev = self.session.event.id
        self.attempt(
            "withdraw", lambda: self.store.add_desk_record(ev, "withdraw", self.round + 1, body, actor=CHIEF)
        )
        self.withdrawn[pair] = (self.round + 1, None)

    @precondition(lambda self: any(back is None for _, back in self.withdrawn.values()))
    @rule(n=st.integers(0, 99))
    def readmit_a_pair(self, n: int) -> None:
        out = sorted(p for p, (_, back) in self.withdrawn.items() if back is None)
        pair = out[n % len(out)]
        first = self.withdrawn[pair][0]
        back = max(self.round + 1, first + 1)
        ev = self.session.event.id
        self.attempt(
            "readmit",
            lambda: self.store.add_desk_record(
                ev, "readmit", back, {"pair": pair, "reason": "归队"}, actor=CHIEF
            ),
        )
        self.withdrawn[pair] = (first, back)

    # -- a table's hands ---------------------------------------------------------------------
    @precondition(lambda self: self.has(TableModel.open))
    @rule(n=st.integers(0, 99), points=hand_points(), data=st.data())
    def record_a_hand(self, n: int, points: dict[str, Any], data: st.DataObject) -> None:
        t = self.pick(TableModel.open, n)
        record = self.record_of(t)
        case = record.case
        for inf in data.draw(st.lists(infractions(self.rulebook), max_size=2)):
            case = editing.add_infraction(case, inf)
        case = editing.complete_hand(case, **points)
        self.save_judged(t, record, case, "record a hand", data)

    @precondition(lambda self: self.has(TableModel.open))
    @rule(n=st.integers(0, 99), data=st.data())
    def log_an_infraction(self, n: int, data: st.DataObject) -> None:
        """An infraction in the hand being played (a late arrival before the first hand)."""
        t = self.pick(TableModel.open, n)
        record = self.record_of(t)
        if not record.case.get("hands") and data.draw(st.booleans()):
            arrived = {i.get("side") for i in record.case.get("before_play") or []}
            side = data.draw(st.sampled_from(["NS", "EW"]))
            if side in arrived:
                self.note("late arrival: that side is here")
                return
            inf = {"kind": "late_arrival", "side": side, "minutes": data.draw(st.integers(0, 14))}
        else:
            inf = data.draw(infractions(self.rulebook))
        self.save_judged(t, record, editing.add_infraction(record.case, inf), "log an infraction", data)

    def save_judged(
        self, t: TableModel, record: TableRecord, case: dict[str, Any], what: str, data: st.DataObject
    ) -> None:
        """Preview first, as the window does; a hand after an open grab (both sides lost
        the hand before) names the seat that won the grab. Logging into a hand a ruling
        already ended at once is refused by the window before the preview and by the door."""
        try:
            editing.refuse_after_end(record.case, record.decision, case)
        except CaseError as err:
            if not record.signed:
                before = self.head()
                with pytest.raises(CaseError):
                    self.session.save(record, case)
                assert self.head() == before, f"{what}: refused ({err.code}) but the store changed"
            self.note(f"{what}: refused {err.code}")
            return
        try:
            self.session.check_confirmed(case)
        except CaseError as err:
            # an odd fact (the same offence twice in a trick): the referee confirms it, and
            # the confirmation is kept with the record, or does not, and nothing is written
            if data.draw(st.booleans(), label="confirm the unusual fact"):
                self.note(f"{what}: confirms {err.code}")
                case = editing.confirm_fact(case, err.values["fact"], str(err.field))
                return self.save_judged(t, record, case, what, data)
            if not record.signed:
                before = self.head()
                with pytest.raises(CaseError):
                    self.session.save(record, case)
                assert self.head() == before, f"{what}: unconfirmed ({err.code}) but the store changed"
            self.note(f"{what}: not confirmed {err.code}")
            return
        try:
            self.session.preview(case)
        except CaseError as err:
            if err.code == "case.dealer_grab":
                case["hands"][-1]["dealer"] = data.draw(seats)
                return self.save_judged(t, record, case, what, data)
            self.note(f"{what}: the preview refuses ({err.code})")
            return
        self.save_case(t, record, case, what)
        self.saved(t)
        self.grow_ids(t, case)

    @precondition(lambda self: self.has(TableModel.open))
    @rule(n=st.integers(0, 99), points=hand_points())
    def end_a_table_on_time(self, n: int, points: dict[str, Any]) -> None:
        t = self.pick(TableModel.open, n)
        record = self.record_of(t)
        case = record.case
        if editing.hand_in_progress(case) and editing.hand_in_progress(case).get("infractions"):
            case = editing.complete_hand(case, **points)  # its points first, as the window asks
        case = editing.end_on_time(case)
        try:
            self.session.preview(case)
        except CaseError as err:
            self.note(f"end on time: the preview refuses ({err.code})")
            return
        self.save_case(t, record, case, "end on time")
        self.saved(t)
        self.grow_ids(t, case)

    # -- decisions on rulings ----------------------------------------------------------------
    def rulings_of(self, t: TableModel) -> list[tuple[dict[str, Any], tuple[int, int]]]:
        out = []
        for r in all_rulings(t.decision):
            place = ruling_slot(r)
            if place is not None:
                out.append((r, place))
        return out

    def decided(self, t: TableModel, place: tuple[int, int]) -> bool:
        return t.id_at(*place) in t.decisions

    @precondition(lambda self: self.has(lambda t: t.current and bool(all_rulings(t.decision))))
    @rule(n=st.integers(0, 99), k=st.integers(0, 99), sanctions=override_sanctions, void=st.booleans())
    def override_or_void_a_ruling(self, n: int, k: int, sanctions: list[Any], void: bool) -> None:
        """The referee's own ruling in place of the computed one (改判), or its voiding
        (撤销), saved as the window saves it; on a ruling that carries a decision already it
        is refused (match.decisions_touched)."""
        t = self.pick(lambda t: t.current and bool(all_rulings(t.decision)), n)
        found = self.rulings_of(t)
        ruling, (slot, pos) = found[k % len(found)]
        if ruling.get("voided"):
            self.note("override or void: the ruling is voided (the window offers nothing)")
            return
        record = self.record_of(t)
        hand_index = None if slot == 0 else slot - 1
        if isinstance(sanctions[0], dict):
            sanctions = [dict(sanctions[0], against=ruling["side"])]
        if void:
            case = editing.void_infraction(record.case, hand_index, pos, "误判，撤销")
        else:
            case = editing.override_infraction(record.case, hand_index, pos, sanctions, "裁判改判")
        inf_id = t.id_at(slot, pos)
        now = {k: v for k, v in slot_items(case)[slot][pos].items() if k in DECISION_KEYS}
        # a ruling's decision is decided otherwise (changed, or one added on top of the
        # committee's) only when confirmed; the referee may void his own override
        was = t.decisions.get(inf_id, {})
        committees = any(isinstance(v, dict) and "appeal" in v for v in was.values())
        changes = any(now.get(k) != v for k, v in was.items()) or (bool(was) and now != was and committees)
        try:
            self.session.preview(case)
        except Exception as err:  # noqa: BLE001 - a sanction the engine refuses here
            self.note(f"override: the preview refuses ({getattr(err, 'code', err)})")
            return
        what = "void a ruling" if void else "override a ruling"
        try:
            self.save_case(t, record, case, what, "match.decisions_touched")
        except Refused:
            assert changes, f"{what}: refused on a ruling without a decision, or with this one"
            return
        assert not changes, (
            f"{what}: round {t.round} table {t.table}: the {ruling['kind']} ruling's decision "
            f"{t.decisions.get(inf_id)} became {now} without replace_decisions"
        )
        self.saved(t)
        t.decisions[inf_id] = now

    @precondition(lambda self: self.has(lambda t: t.current and bool(t.decisions)))
    @rule(n=st.integers(0, 99), k=st.integers(0, 99), drop=st.booleans())
    def replace_a_decision(self, n: int, k: int, drop: bool) -> None:
        """``correct --replace-decisions``: a decided ruling overridden anew (or its
        infraction dropped as wrongly recorded), confirmed with a reason."""
        t = self.pick(lambda t: t.current and bool(t.decisions), n)
        ids = sorted(t.decisions)
        inf_id = ids[k % len(ids)]
        slot, pos = t.place_of(inf_id)
        record = self.record_of(t)
        case = copy.deepcopy(record.case)
        items = case["before_play"] if slot == 0 else case["hands"][slot - 1]["infractions"]
        if drop:
            items.pop(pos)
        else:
            items[pos].pop("void", None)
            items[pos]["override"] = {"sanctions": ["warning"], "reason": "仲裁改判为警告"}
        full = dict(case, round=t.round, table=t.table, pairs=dict(t.pairs))
        ev = self.session.event.id
        try:
            self.attempt(
                "replace a decision",
                lambda: self.store.record(
                    ev, full, actor=CHIEF, expected_version=record.version,
                    correction_reason="记录有误，更正", replace_decisions=True,
                ),
                "case.*",
                "match.correction_unchanged",  # the same override again changes nothing
            )  # fmt: skip
        except Refused:
            return
        self.saved(t)
        if drop:
            t.ids[slot].pop(pos)
            del t.decisions[inf_id]
        else:
            t.decisions[inf_id] = {"override": items[pos]["override"]}

    # -- matches -----------------------------------------------------------------------------
    @precondition(lambda self: self.voids < 2 and self.has(lambda t: t.current))
    @rule(n=st.integers(0, 99))
    def void_a_match(self, n: int) -> None:
        t = self.pick(lambda t: t.current, n)
        self.voids += 1
        ev = self.session.event.id
        self.attempt(
            "void a match",
            lambda: self.store.void(
                ev, round_no=t.round, table_no=t.table, reason="记录混乱，作废重记", actor=CHIEF,
                expected_version=t.version, correction=t.signed,
            ),
        )  # fmt: skip
        t.current = False
        t.voided_signed = t.signed
        t.signed = False
        t.decisions = {}
        t.dealers = []
        t.ids = [[]]

    @precondition(lambda self: self.has(lambda t: not t.current))
    @rule(n=st.integers(0, 99), first=seats)
    def record_a_voided_table_again(self, n: int, first: str) -> None:
        """``referee-app record`` of a new case file at a voided table: a fresh record (over
        a voided signed version, ``referee-app correct`` with a reason: it stays locked)."""
        t = self.pick(lambda t: not t.current, n)
        case = dict(editing.new_case(self.rulebook, first), round=t.round, table=t.table, pairs=dict(t.pairs))
        ev = self.session.event.id
        reason = "作废后重记" if t.voided_signed else None
        self.attempt(
            "record again",
            lambda: self.store.record(ev, case, actor=CHIEF, source="case.json", correction_reason=reason),
        )
        t.version += 1
        t.current = True
        t.generation += 1
        t.checked = -1
        t.decision = {}
        self.grow_ids(t, case)

    @precondition(lambda self: self.has(lambda t: t.current and bool(t.case.get("hands"))))
    @rule(
        n=st.integers(0, 99),
        k=st.integers(0, 99),
        points=st.integers(0, 40),
        how=st.sampled_from(["points", "points", "points", "first_dealer", "dealt_by", "drop"]),
        keep_dealers=st.booleans(),
        seat=seats,
    )
    def correct_from_a_case_file(
        self, n: int, k: int, points: int, how: str, keep_dealers: bool, seat: str
    ) -> None:
        """``referee-app correct``: the stored case as a case file gives it (no decisions,
        maybe no dealers as played) with one thing changed: a hand's points, the first
        dealer, the dealer of a later hand, or an infraction dropped."""
        t = self.pick(lambda t: t.current and bool(t.case.get("hands")), n)
        record = self.record_of(t)
        case = strip_decisions(record.case, dealers=not keep_dealers)
        hands = case["hands"]
        i = k % len(hands)
        named: dict[int, str] | str = {}
        dropped = None
        must_refuse = False
        # judged with what the earlier version carries (the dealers as played), a case file
        # can be refused as a case: a round that now ends before its last hand …
        # … and a correction that changes nothing (the same points, the same dealer) is
        # refused, the signatures standing
        allowed: tuple[str, ...] = ("case.*", "match.correction_unchanged")
        if how == "points":
            if hands[i].get("in_progress"):
                self.note("correct: that hand is being played")
                return
            hands[i]["defender_points"] = points * 5
            if isinstance(hands[i].get("bottom"), dict):
                hands[i]["bottom"]["points"] = min(hands[i]["bottom"].get("points", 0), 200 - points * 5)
        elif how == "first_dealer":
            if seat == case["first_dealer"]:
                self.note("correct: the same first dealer")
                return
            case["first_dealer"] = seat
            named = "free"
        elif how == "dealt_by":
            if i == 0 or hands[i].get("dealer"):
                self.note("correct: the first hand's or a grab's dealer")
                return
            hands[i]["dealt_by"] = seat
            named = {i: seat}
        else:
            slots = [(s, p) for s, items in enumerate(slot_items(case)) for p in range(len(items))]
            if not slots:
                self.note("correct: no infraction to drop")
                return
            slot, pos = slots[k % len(slots)]
            items = case["before_play"] if slot == 0 else hands[slot - 1]["infractions"]
            # infractions with the same facts are told apart by their order alone: one of
            # them dropped touches every decision among them (which one went is not known)
            twins = [
                p
                for p, i in enumerate(items)
                if {k: v for k, v in i.items() if k not in DECISION_KEYS} == items[pos]
            ]
            items.pop(pos)
            dropped = (slot, pos)
            must_refuse = any(t.id_at(slot, p) in t.decisions for p in twins)
            if must_refuse:
                allowed = (*allowed, "match.decisions_touched")
        full = dict(case, round=t.round, table=t.table, pairs=dict(t.pairs))
        ev = self.session.event.id
        try:
            self.attempt(
                f"correct ({how})",
                lambda: self.store.record(
                    ev, full, actor=CHIEF, expected_version=record.version,
                    source="fix.json", correction_reason="更正记录",
                ),
                *allowed,
            )  # fmt: skip
        except Refused:
            return
        assert not (dropped and must_refuse), "a decided ruling (or one of its twins) was dropped unconfirmed"
        self.saved(t)
        t.dealers_named = named
        if dropped:
            t.ids[dropped[0]].pop(dropped[1])
        self.grow_ids(t, case)

    @precondition(
        lambda self: self.has(lambda t: t.current and not t.signed and t.decision.get("result") is not None)
    )
    @rule(n=st.integers(0, 99))
    def sign_a_match(self, n: int) -> None:
        t = self.pick(lambda t: t.current and not t.signed and t.decision.get("result") is not None, n)
        record = self.record_of(t)
        assert not record.signed
        self.attempt("sign", lambda: self.session.sign(record, SIGS))
        t.signed = True

    # -- appeals -----------------------------------------------------------------------------
    def appealable(self, t: TableModel) -> bool:
        return t.current and any(not r.get("voided") for r in all_rulings(t.decision))

    @precondition(lambda self: self.has(self.appealable))
    @rule(n=st.integers(0, 99), k=st.integers(0, 99), offender=st.booleans())
    def file_an_appeal(self, n: int, k: int, offender: bool) -> None:
        t = self.pick(self.appealable, n)
        record = self.record_of(t)
        stored = [r for r in self.session.rulings(record) if r["decision"] != "voided"]
        r = stored[k % len(stored)]
        slot = 0 if r["hand"] is None else r["hand"]
        [ruling] = [x for x, place in self.rulings_of(t) if place == (slot, r["position"])]
        by = ruling["side"] if offender else OTHER[ruling["side"]]
        open_same = [
            a
            for a in self.appeals
            if a.open and a.inf_id == t.id_at(slot, r["position"]) and a.generation == t.generation
        ]
        allowed = ("appeal.already_open",) if open_same else ()
        try:
            a = self.attempt(
                "file an appeal",
                lambda: self.session.file_appeal(r["id"], by, "判罚有误", evidence="记分表", receipt="R-1"),
                *allowed,
            )
        except Refused:
            return
        self.appeals.append(
            AppealModel(
                a["id"], t.round, t.table, t.generation, t.id_at(slot, r["position"]), r["kind"],
                ruling["side"], bool(ruling.get("ends_hand")), (slot, r["position"]),
            )
        )  # fmt: skip

    @precondition(lambda self: self.store is not None and any(a.open for a in self.appeals))
    @rule(
        n=st.integers(0, 99),
        outcome=st.sampled_from(["upheld", "warning", "points", "rejected", "withdrawn"]),
        review=st.booleans(),
    )
    def decide_an_appeal(self, n: int, outcome: str, review: bool) -> None:
        """The committee decides (or the appeal is withdrawn). Upheld and modified write a
        new version in which the appealed ruling carries the decision."""
        open_ = [a for a in self.appeals if a.open]
        a = open_[n % len(open_)]
        t = self.tables[(a.round, a.table)]
        if review and not a.reviewed:
            self.attempt("review an appeal", lambda: self.session.review_appeal(a.id))
            a.reviewed = True
        if outcome == "withdrawn":
            self.attempt("withdraw an appeal", lambda: self.session.withdraw_appeal(a.id, "双方和解"))
            a.open = False
            return
        decision = "modified" if outcome in ("warning", "points") else outcome
        sanctions = None
        if outcome == "warning":
            sanctions = ["warning"]
        elif outcome == "points":
            sanctions = [{"points": 20, "against": a.side}]
        place = t.place_of(a.inf_id) if t.current and t.generation == a.generation else None
        before = side_standing(t.decision, a.side) if t.current else None
        allowed: tuple[str, ...] = ()
        if decision != "rejected":
            # the re-judged case can be refused: a round that would now end before its last
            # hand (passed A), or a hand after an open grab that no longer is one
            allowed = ("appeal.sanction_invalid", "appeal.worsens_side")
            if place is None:
                allowed = (*allowed, "appeal.no_current_record", "appeal.ruling_moved")
        try:
            self.attempt(
                f"decide an appeal ({outcome})",
                lambda: self.session.decide_appeal(
                    a.id, decision, "经仲裁委员会审议", ["周委员", "吴委员"], sanctions
                ),
                *allowed,
            )
        except Refused:
            return
        a.open = False
        if decision == "rejected":
            return
        assert place is not None, (
            f"appeal {a.id}: decided onto round {t.round} table {t.table}, whose appealed ruling is "
            "no longer in the current record (voided and recorded again, or dropped)"
        )
        self.saved(t)
        # what the committee decided now stands on the appealed ruling (checked by invariant 4)
        fresh = self.record_of(t)
        inf = slot_items(fresh.case)[place[0]][place[1]]
        if decision == "upheld":
            assert "void" in inf and inf["void"]["reason"].endswith("经仲裁委员会审议"), inf
        else:
            assert "void" not in inf and inf["override"]["sanctions"] == sanctions, inf
        t.decisions[a.inf_id] = {k: inf[k] for k in DECISION_KEYS if k in inf}
        after = side_standing(fresh.decision, a.side)
        # 5. a lighter sanction never worsens the side's result (or, open, its level lead)
        if (
            outcome in ("upheld", "warning")
            and before
            and after
            and before[0] == after[0]
            and not a.ends_hand
        ):
            assert all(x >= y for x, y in zip(after[1], before[1], strict=True)), (
                f"appeal {a.id} ({outcome}) lightened {a.side}'s {a.kind} ruling, but {a.side}'s "
                f"standing ({before[0]}) went {before[1]} -> {after[1]}"
            )
            self.note(f"lighter decision checked ({before[0]})")

    @precondition(lambda self: self.store is not None)
    @rule()
    def reload_the_hall(self) -> None:
        """A station reloads the round (nothing written): each table's status is what the
        sequence made it."""
        for record in self.session.tables(self.round):
            t = self.tables[(self.round, record.table)]
            want = (
                "appeal" if self.open_appeals(t)
                else "signed" if t.signed
                else "finished" if t.decision.get("result") is not None
                else "playing" if t.case.get("hands") or t.case.get("before_play")
                else "not_started"
            )  # fmt: skip
            assert record.status == want, (record.round, record.table, record.status, want)
        self.note("reload the hall")

    # the steps a referee takes most often, drawn more often (a rule listed twice is drawn
    # twice as often when hypothesis's swarm testing has it enabled in a sequence)
    record_another_hand = record_a_hand
    record_a_hand_again = record_a_hand
    record_one_more_hand = record_a_hand
    log_another_infraction = log_an_infraction
    override_or_void_another_ruling = override_or_void_a_ruling
    file_another_appeal = file_an_appeal
    decide_another_appeal = decide_an_appeal
    correct_again = correct_from_a_case_file

    # -- the invariants ----------------------------------------------------------------------
    @invariant()
    def one_truth(self) -> None:
        if self.store is None:
            return
        store, ev = self.store, self.session.event
        clock = Stopwatch(type(self).timings)
        head = store.audit_head()
        if head == self.last_head:
            return  # nothing written since the last look: the store (append-only) is as it was
        self.last_head = head
        rows = store.current_matches(ev.id)
        current = {(m["round_no"], m["table_no"]): m for m in rows}
        assert set(current) == {k for k, t in self.tables.items() if t.current}, "current matches"
        for key, m in current.items():
            t = self.tables[key]
            assert m["version"] == t.version, f"round {key}: version {m['version']}, expected {t.version}"
            if t.checked != t.version:
                self.check_table(t, m)
        signed = store.signed_match_ids(ev.id)
        assert {k for k, m in current.items() if m["id"] in signed} == {
            k for k, t in self.tables.items() if t.current and t.signed
        }
        clock("tables")
        self.check_window(current)
        clock("window")
        self.check_pairings(current)
        # 7. the audit chain
        result = store.verify()
        assert result.ok, result.problems[:3]
        clock("verify")
        self.check_standings(rows)
        clock("standings")

    def check_table(self, t: TableModel, m: dict[str, Any]) -> None:
        case, meta = split_case(json.loads(m["case_json"]))
        decision = json.loads(m["decision_json"])
        assert meta == {"round": t.round, "table": t.table, "pairs": t.pairs}
        # the stored decision is its stored case judged again
        assert decide(copy.deepcopy(strip_case(case)), rulebook=self.session.rulebook).to_json() == decision
        # 4. decisions stay with their rulings, and appear nowhere else
        expected = {}
        for inf_id, d in t.decisions.items():
            place = t.place_of(inf_id)
            assert place is not None, f"infraction {inf_id}: decided but gone"
            expected[place] = d
        assert stored_decisions(case) == expected, (
            f"round {t.round} table {t.table} v{m['version']}: decisions {stored_decisions(case)}, expected {expected}"
        )
        assert [len(x) for x in slot_items(case)] == [len(x) for x in t.ids], "infractions moved"
        # each ruling answers the infraction at its own place (the window voids by row)
        for h, hand in enumerate(decision["hands"]):
            for i, r in enumerate(hand["rulings"]):
                assert r["infraction"] == f"hands[{h}].infractions[{i}]", r["infraction"]
        # 6. hands as played
        dealers = [h["dealer"] for h in decision["hands"]]
        if dealers:
            assert dealers[0] == case["first_dealer"]
        named = t.dealers_named
        if named != "free":
            named = named or {}
            for i in range(1, len(dealers)):
                want = named.get(i) if i in named else (t.dealers[i] if i < len(t.dealers) else None)
                if want is not None:
                    assert dealers[i] == want, (
                        f"round {t.round} table {t.table} v{m['version']}: hand {i + 1} dealt by {dealers[i]}, "
                        f"played by {want}"
                    )
                assert case["hands"][i].get("dealt_by") == dealers[i]
        t.dealers_named = None
        t.dealers = dealers
        # 2. the printed data is the store
        from referee_app.app.printouts import store_scoresheets, stored_digest

        _ev, [sheet] = store_scoresheets(self.store, self.session.event.id, t.round, t.table, lang="zh")
        assert sheet.record is not None and sheet.record.version == m["version"]
        assert sheet.case == case and sheet.stored_decision == decision
        assert sheet.decision == word(decision, "zh", self.session.rulebook)
        # the digest names the event by the identity the sheet printed (issue 26)
        assert sheet.record.identity
        assert sheet.digest == stored_digest(
            self.store, self.session.event.id, t.round, t.table, m["version"], sheet.record.identity
        )
        voided = [r for r in all_rulings(decision) if r.get("voided")]
        assert [v.reason for v in sheet.voidings[: len(voided)]] == [
            str(r.get("void_reason", "")) for r in voided
        ]
        assert bool(sheet.signatures) == t.signed
        t.case, t.decision, t.checked = case, decision, int(m["version"])

    def check_window(self, current: dict[tuple[int, int], dict[str, Any]]) -> None:
        """1. What the window shows is the store."""
        models = window_models()
        for rnd in sorted({r for r, _ in self.tables}):
            # what the round's tables show follows from their versions, signatures and appeals
            key = tuple(
                (t.table, t.version, t.current, t.signed, self.open_appeals(t))
                for (r, _), t in sorted(self.tables.items())
                if r == rnd
            )
            if self.shown_rounds.get(rnd) == key:
                continue
            self.shown_rounds[rnd] = key
            shown = self.session.tables(rnd)
            assert [r.table for r in shown] == sorted(tb for (r, tb) in current if r == rnd)
            for record in shown:
                t = self.tables[(rnd, record.table)]
                assert record.version == t.version and record.case == t.case
                assert record.decision == word(t.decision, "zh", self.session.rulebook)
                assert record.signed == t.signed, f"round {rnd} table {record.table}: signed {record.signed}"
                assert record.pairs == t.pairs
                assert record.open_appeals == self.open_appeals(t)
                if t.shown == t.version:
                    continue
                check_models(models, record)
                t.shown = t.version

    def open_appeals(self, t: TableModel) -> int:
        return sum(1 for a in self.appeals if a.open and (a.round, a.table) == (t.round, t.table))

    def check_pairings(self, current: dict[tuple[int, int], dict[str, Any]]) -> None:
        """3. The pairing that prints is the one published, and the tables sit as it says."""
        ev = self.session.event.id
        if self.pairing_changed:
            from referee_app.app.pairing import pairing_sheet

            for rnd, want in self.published.items():
                pairing, rec = published_pairing(self.store, ev, rnd)
                assert [[x.table, x.ns, x.ew] for x in pairing.tables] == want["tables"]
                assert pairing.bye == want["bye"] and rec["body"]["bye"] == want["bye"]
                # what the window and ``pairing show`` print: the published record
                rp = self.session.round_pairing(rnd)
                sheet = pairing_sheet(rp)
                assert rp.status == "published" and sheet.published and sheet.version == rec["version"]
                assert [list(x) for x in sheet.tables] == want["tables"] and sheet.bye == want["bye"]
            self.pairing_changed = False
        for (rnd, tbl), m in current.items():
            seated = {tb: {"NS": ns, "EW": ew} for tb, ns, ew in self.published[rnd]["tables"]}
            assert seated[tbl] == {"NS": m["ns_number"], "EW": m["ew_number"]}

    def check_standings(self, rows: list[dict[str, Any]]) -> None:
        """8. The standings the desk shows, against a tally of the results written here."""
        rb = self.session.rulebook
        win = int(rb.data["match_points"]["win"])
        by_round: dict[str, dict[int, int]] = defaultdict(dict)
        ld: Counter[str] = Counter()
        met: dict[str, list[str]] = defaultdict(list)
        beaten: dict[str, list[str]] = defaultdict(list)
        drawn: dict[str, list[str]] = defaultdict(list)
        rounds = set()
        for m in rows:
            result = json.loads(m["decision_json"]).get("result")
            if result is None:
                continue
            rnd, ns, ew = m["round_no"], m["ns_number"], m["ew_number"]
            rounds.add(rnd)
            by_round[ns][rnd] = result["match_points"]["NS"]
            by_round[ew][rnd] = result["match_points"]["EW"]
            ld[ns] += result["level_difference"]["NS"]
            ld[ew] += result["level_difference"]["EW"]
            met[ns].append(ew)
            met[ew].append(ns)
            if result["winner"] == "NS":
                beaten[ns].append(ew)
            elif result["winner"] == "EW":
                beaten[ew].append(ns)
            elif result.get("decided_by") != "forfeit":
                drawn[ns].append(ew)
                drawn[ew].append(ns)
        for rnd, p in self.published.items():
            if p["bye"] is not None:
                by_round[p["bye"]][rnd] = win
                rounds.add(rnd)
        through = max(rounds, default=0)
        total = {p: sum(by_round[p].values()) for p in self.pairs}
        loaded = load_event(self.store, self.session.event.id)
        table = compute_standings(rb, loaded.record, seed=self.session.event.id)
        assert table.round == through
        shown = {r["pair"]: r for r in table.rows}
        assert set(shown) == set(self.pairs)
        for p in self.pairs:
            row, tb = shown[p], shown[p]["tiebreaks"]
            assert row["match_points"] == total[p], (
                f"pair {p}: {row['match_points']} match points, tally {total[p]}"
            )
            assert tb["level_difference"] == ld[p], (
                f"pair {p}: level difference {tb['level_difference']}, tally {ld[p]}"
            )
            assert tb["opponents_score"] == sum(total[o] for o in met[p])
            if "small_points" in tb:
                small2 = 2 * sum(total[o] for o in beaten[p]) + sum(total[o] for o in drawn[p])
                assert tb["small_points"] * 2 == small2
            if "previous_round_points" in tb:
                cum = list(itertools.accumulate(by_round[p].get(r, 0) for r in range(1, through + 1)))
                assert tb["previous_round_points"] == cum[-2::-1]
        eligible = [r for r in table.rows if "disqualified" not in r["tiebreaks"]]
        assert [r["match_points"] for r in eligible] == sorted(
            (r["match_points"] for r in eligible), reverse=True
        )

    # -- the end of a sequence ---------------------------------------------------------------
    def render_one_sheet(self) -> None:
        """One scoresheet rendered as the command line prints it and read back."""
        if shutil.which("pdftotext") is None:
            return
        done = [t for t in self.tables.values() if t.current and t.decision.get("hands")]
        if not done:
            return
        from referee_app.app.printouts import render_scoresheet, store_scoresheets

        t = done[0]
        _ev, [sheet] = store_scoresheets(self.store, self.session.event.id, t.round, t.table, lang="en")
        with tempfile.TemporaryDirectory(prefix="life-sheet-") as tmp:
            pdf = Path(tmp) / "sheet.pdf"
            render_scoresheet(sheet, pdf)
            text = subprocess.run(
                ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True
            ).stdout
        flat = " ".join(text.split())
        hands = t.decision["hands"]
        lost = sum(1 for h in hands if h.get("lost_by") in ("NS", "EW"))
        assert flat.count("lose the hand") == lost, (flat.count("lose the hand"), lost)
        assert ("passed A" in flat) == any(h.get("passed_a") for h in hands)
        self.note("rendered a scoresheet")


_MODELS: list[Any] = []


def window_models() -> Any:
    """The window's Qt models (offscreen, no window shown), made once."""
    if not _MODELS:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from PySide6.QtWidgets import QApplication

        from referee_app.gui.i18n import Language
        from referee_app.gui.models import HandsModel, RulingsModel

        app = QApplication.instance() or QApplication([])
        language = Language("zh")
        _MODELS.extend([app, language, HandsModel(language), RulingsModel(language)])
    return _MODELS


def check_models(models: Any, record: TableRecord) -> None:
    from PySide6.QtCore import Qt

    from referee_app.gui.models import HAND_COLUMNS

    _app, _language, hands_model, rulings_model = models
    hands_model.set_decision(record.case, record.decision)
    hands = record.decision["hands"]
    assert hands_model.rowCount() == len(hands)
    total = HAND_COLUMNS.index("col_total")
    for row, hand in enumerate(hands):
        cell = hands_model.data(hands_model.index(row, total))
        assert cell == ("" if hand.get("in_progress") else str(hand["defender_total"]))
    rulings_model.set_decision(record.decision)
    rulings = all_rulings(record.decision)
    assert rulings_model.rowCount() == len(rulings)
    for row, ruling in enumerate(rulings):
        font = rulings_model.data(rulings_model.index(row, 1), Qt.ItemDataRole.FontRole)
        assert bool(font is not None and font.strikeOut()) == bool(ruling.get("voided"))
        assert rulings_model.data(rulings_model.index(row, 1)) == ruling["text"]


# -- the tests --------------------------------------------------------------------------------
@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


class SchemaPool:
    """Fresh PostgreSQL schemas, each with an empty store, made one ahead in a thread (the
    server builds the next while a sequence runs; a schema's creation and its drop cost as
    much as a third of a sequence) and dropped after their sequence."""

    def __init__(self, base: str) -> None:
        import sqlalchemy as sa

        self.base = base
        self.engine = sa.create_engine(base)
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="life-schemas")
        self.next = self.worker.submit(self.make)

    def make(self) -> tuple[str, str]:
        import sqlalchemy as sa

        schema = "life_" + uuid.uuid4().hex[:12]
        with self.engine.begin() as conn:
            conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
        sep = "&" if "?" in self.base else "?"
        url = f"{self.base}{sep}options={quote(f'-csearch_path={schema}')}"
        Store.open(url, create=True).close()
        return schema, url

    def drop(self, schema: str) -> None:
        import sqlalchemy as sa

        with self.engine.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))

    @contextlib.contextmanager
    def fresh(self) -> Iterator[str]:
        schema, url = self.next.result()
        self.next = self.worker.submit(self.make)
        try:
            yield url
        finally:
            self.worker.submit(self.drop, schema)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.drop(self.next.result()[0])
        self.worker.shutdown(wait=True)
        self.engine.dispose()


@pytest.fixture
def fresh_target(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[], contextlib.AbstractContextManager[str]]]:
    if backend == "postgresql":
        pool = SchemaPool(_need_pg())
        try:
            yield pool.fresh
        finally:
            pool.close()
        return

    # a real file, in memory where the machine has a tmpfs: the sequences test what is kept,
    # not the disk's flushes (a save's fsync was a third of a step)
    where = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    if where is None:
        # no tmpfs (a container without /dev/shm): the file on disk, each connection told not
        # to wait for the disk after the store's own settings (what is kept is the same; only a
        # power cut would tell), or a runner with slow flushes doubles the run
        from sqlalchemy import event as sa_event

        from referee_app.store import db as store_db

        settings_of_the_store = store_db._sqlite_settings

        def without_flushes(engine: Any) -> None:
            settings_of_the_store(engine)

            @sa_event.listens_for(engine, "connect")
            def _no_flush(dbapi_conn: Any, _record: Any) -> None:
                dbapi_conn.execute("PRAGMA synchronous=OFF")

        monkeypatch.setattr(store_db, "_sqlite_settings", without_flushes)

    @contextlib.contextmanager
    def sqlite_file() -> Iterator[str]:
        with tempfile.TemporaryDirectory(prefix="life-db-", dir=where) as tmp:
            yield str(Path(tmp) / "event.db")

    yield sqlite_file


# 200 sequences take some 5 minutes a back end on the machines here, and CI's ran once more
# than twice as slow (the run's 600 s timeout ended it mid-sequence): the suite's timeout is
# for a hang, and this test's own bound is for one
@pytest.mark.timeout(1800)
def test_one_truth_over_an_events_life(backend: str, fresh_target: Callable[[], Any]) -> None:
    machine = type(
        "EventLifeRun",
        (EventLife,),
        {"new_target": staticmethod(fresh_target), "backend": backend, "render_every": 50},
    )
    machine.outcomes = Counter()
    machine.timings = Counter()
    blob = os.environ.get("REFEREE_APP_TEST_LIFE_REPRODUCE")  # the blob of a reported failure
    if blob:
        machine = reproduce_failure(hypothesis.__version__, blob.encode())(machine)
    started = time.perf_counter()
    profile = settings.get_profile(PROFILE)
    try:
        run_state_machine_as_test(machine, settings=profile)
    finally:
        # what the sequences did, and what the checks cost (pytest -s shows it)
        print(f"\n{machine.sequences} sequences in {time.perf_counter() - started:.1f} s")
        print("  ".join(f"{k} {v:.1f} s" for k, v in sorted(machine.timings.items())))
        print("\n".join(f"{n:6d}  {what}" for what, n in sorted(machine.outcomes.items())))
    # the sequences did what they are for: a machine whose steps never apply passes vacuously
    if not blob:
        assert machine.sequences >= profile.max_examples
        assert machine.outcomes["record a hand: done"] and machine.outcomes["file an appeal: done"]
