"""The application layer: what a referee's station does, through the core and the store.

The desktop app calls only this (and the core's pure helpers); it holds no rule logic and no
SQL. Every change is judged by the core first (a preview), then saved as a new version of
the table's record with the version the station last saw, so a concurrent change by another
station is refused rather than overwritten.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from .core import CaseError, Rulebook, editing, judge
from .store.service import Actor, EventInfo, Store


@dataclass
class TableRecord:
    """One table of one round: its pairs, the case as recorded, and its decision."""

    round: int
    table: int
    pairs: dict[str, str]
    case: dict[str, Any]
    decision: dict[str, Any]
    version: int
    players: dict[str, list[str]] = field(default_factory=dict)

    @property
    def status(self) -> str:
        """not_started, playing, finished (signed and appeal states come from the store)."""
        if self.decision.get("result") is not None:
            return "finished"
        if self.case.get("hands") or self.case.get("before_play"):
            return "playing"
        return "not_started"

    @property
    def levels(self) -> dict[str, str]:
        hands = self.decision.get("hands") or []
        if hands:
            return dict(hands[-1]["levels_after"])
        return dict(self.case.get("levels") or {"NS": "2", "EW": "2"})

    @property
    def next_dealer(self) -> str | None:
        hands = self.decision.get("hands") or []
        if not hands:
            return self.case["first_dealer"]
        last = hands[-1]
        return last["dealer"] if last.get("in_progress") else last["next_dealer"]


class Session:
    """An open event at one station."""

    def __init__(self, store: Store, event: EventInfo, actor: Actor, lang: str = "zh") -> None:
        self.store = store
        self.event = event
        self.actor = actor
        self.lang = lang
        self.rulebook: Rulebook = store.pinned_rulebook(event.id)

    # -- events ------------------------------------------------------------------------------

    @staticmethod
    def create_event(
        store: Store, name: str, rulebook: Rulebook, date: str | None, actor: Actor
    ) -> EventInfo:
        return store.create_event(name=name, rulebook=rulebook, date=date, actor=actor)

    def pairs(self) -> list[dict[str, Any]]:
        return self.store.list_pairs(self.event.id)

    def import_pairs(self, path: str) -> int:
        from .store.pairs_csv import read_pairs

        return self.store.import_pairs(self.event.id, read_pairs(path), actor=self.actor, source=path)

    # -- tables --------------------------------------------------------------------------

    def tables(self, round_no: int) -> list[TableRecord]:
        names = {p["number"]: p["players"] for p in self.pairs()}
        out = []
        for m in self.store.current_matches(self.event.id):
            if m["round_no"] != round_no:
                continue
            out.append(self._record_of(m, names))
        return sorted(out, key=lambda t: t.table)

    def rounds(self) -> list[int]:
        return sorted({m["round_no"] for m in self.store.current_matches(self.event.id)})

    def table(self, round_no: int, table_no: int) -> TableRecord | None:
        for record in self.tables(round_no):
            if record.table == table_no:
                return record
        return None

    def open_table(
        self, round_no: int, table_no: int, ns: str, ew: str, first_dealer: str = "E"
    ) -> TableRecord:
        """Seat two pairs at a table for a round (记录 version 1, no hand yet)."""
        case = editing.new_case(self.rulebook.id, first_dealer)
        return self.save_new(round_no, table_no, {"NS": ns, "EW": ew}, case, expected_version=0)

    # -- changes -------------------------------------------------------------------------

    def preview(self, case: dict[str, Any]) -> dict[str, Any]:
        """Judge a proposed case without saving it. Raises CaseError on invalid input."""
        return judge(copy.deepcopy(case), lang=self.lang, rulebook=self.rulebook)

    def save(self, record: TableRecord, case: dict[str, Any]) -> TableRecord:
        """Save a new version of the table's case; refused if another station saved first."""
        return self.save_new(record.round, record.table, record.pairs, case, expected_version=record.version)

    def save_new(
        self,
        round_no: int,
        table_no: int,
        pairs: dict[str, str],
        case: dict[str, Any],
        expected_version: int,
    ) -> TableRecord:
        self.preview(case)  # an invalid case never reaches the store
        full = dict(case, round=round_no, table=table_no, pairs=dict(pairs))
        self.store.record(
            self.event.id, full, actor=self.actor, lang=self.lang, expected_version=expected_version
        )
        record = self.table(round_no, table_no)
        assert record is not None
        return record

    def _record_of(self, m: dict[str, Any], names: dict[str, list[str]]) -> TableRecord:
        import json

        case = json.loads(m["case_json"])
        for key in ("round", "table", "pairs"):
            case.pop(key, None)
        decision = json.loads(m["decision_json"])
        if m["lang"] != self.lang:
            decision = self.preview(case)  # texts in the station's language; same computation
        pairs = {"NS": m["ns_number"], "EW": m["ew_number"]}
        return TableRecord(
            round=m["round_no"],
            table=m["table_no"],
            pairs=pairs,
            case=case,
            decision=decision,
            version=m["version"],
            players={side: names.get(number, []) for side, number in pairs.items()},
        )


__all__ = ["CaseError", "Session", "TableRecord"]
