"""What an operation changed (Anki's ``OpChanges``): the window refreshes what it shows from
this instead of reading the whole event again.

A station learns what another station changed from the audit entries written since the last
one it saw (every write appends one, naming its event, round and table); an operation of its
own returns the same kind of value."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: Entries that change one table's record (its hands, rulings, signatures, its voiding).
TABLE_ACTIONS = frozenset({"match.record", "match.correct", "match.void", "match.sign"})
#: Entries that change nothing a view of the event shows (logins, PINs, keys).
QUIET_ACTIONS = frozenset({"auth.ok", "auth.fail", "pin.set", "event.key", "key.register", "key.revoke"})


@dataclass(frozen=True)
class OpChanges:
    """What changed in one event since a store head: the tables (round, table) whose record
    changed, and whether appeals, the pairs, the round clock or the desk's records did.
    ``everything``: something a view cannot narrow down (an unknown kind of write, too many
    entries): read it all again."""

    head: int
    tables: frozenset[tuple[int, int]] = frozenset()
    appeals: frozenset[int] = frozenset()  # the rounds whose appeals changed
    clock: frozenset[int] = frozenset()  # the rounds whose clock changed
    desk: bool = False
    pairs: bool = False
    everything: bool = False

    @property
    def nothing(self) -> bool:
        return not (self.tables or self.appeals or self.clock or self.desk or self.pairs or self.everything)

    def tables_of(self, round_no: int) -> frozenset[int]:
        """The tables of ``round_no`` whose record changed."""
        return frozenset(t for r, t in self.tables if r == round_no)


def changes_of(
    event_id: int,
    head: int,
    entries: Iterable[tuple[int, str, int | None, int | None, int | None]],
    *,
    complete: bool = True,
) -> OpChanges:
    """The changes to ``event_id`` that ``entries`` (seq, action, event, round, table) made;
    ``complete``: the entries are all there are since the head a view last saw."""
    tables: set[tuple[int, int]] = set()
    appeals: set[int] = set()
    clock: set[int] = set()
    desk = pairs = everything = False
    for _seq, action, ev, rnd, tbl in entries:
        if action in QUIET_ACTIONS:
            continue
        if ev is not None and ev != event_id:
            continue  # another event in the same store
        if action in TABLE_ACTIONS and rnd is not None and tbl is not None:
            tables.add((rnd, tbl))
        elif action.startswith("appeal.") and rnd is not None:
            appeals.add(rnd)
            if tbl is not None:
                tables.add((rnd, tbl))  # a card shows its table's open appeals
        elif action == "desk.clock" and rnd is not None:
            clock.add(rnd)
        elif action.startswith("desk."):
            desk = True
        elif action == "pairs.import":
            pairs = True
        else:
            everything = True
    return OpChanges(
        head, frozenset(tables), frozenset(appeals), frozenset(clock), desk, pairs, everything or not complete
    )
