"""The hall follows what other stations change (issue 22, item 3): only the cards of the tables
whose record changed are read and drawn again; the others stay the same widgets."""

from __future__ import annotations

from pathlib import Path

from referee_app.app.changes import changes_of
from referee_app.app.session import Session
from referee_app.store.service import Store

from .conftest import open_event_with_table
from .test_hall_display import CHIEF, result


def test_a_change_at_another_station_redraws_only_its_table(
    make_window, pairs_csv, db_path: Path, qtbot
) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    window.show_hall()
    window.watcher.timer.setInterval(50)
    other = Store.open(str(db_path), actor=CHIEF)
    try:
        eid = window.session.event.id
        sess = Session(other, other.pick_event(eid), CHIEF)
        sess.open_table(1, 2, "3", "4", "E")
        qtbot.waitUntil(lambda: len(window.hall.cards) == 2, timeout=10000)
        first, second = window.hall.cards
        assert (first.record.table, second.record.table) == (1, 2)
        drawn = {id(first): first.text(), id(second): second.text()}

        case = result(1, 2, "3", "4")
        case["first_dealer"] = "E"
        other.record(eid, case, actor=CHIEF, lang="zh", expected_version=1)
        qtbot.waitUntil(lambda: window.hall.cards[1].record.version == 2, timeout=10000)
        assert window.hall.cards[0] is first and window.hall.cards[1] is second  # no card made anew
        assert first.text() == drawn[id(first)]  # table 1 was not read again
        assert second.text() != drawn[id(second)] and "已结束" in second.text()
        assert "已结束 1" in window.hall.dashboard.text()

        other.void(eid, round_no=1, table_no=2, reason="重赛", actor=CHIEF)
        qtbot.waitUntil(lambda: len(window.hall.cards) == 1, timeout=10000)
        assert window.hall.cards == [first]
    finally:
        other.close()


def test_changes_name_the_tables_and_parts_each_entry_touched() -> None:
    entries = [
        (11, "match.record", 1, 1, 3),
        (12, "appeal.file", 1, 1, 3),
        (13, "desk.clock", 1, 2, None),
        (14, "match.sign", 2, 1, 1),  # another event in the same store
        (15, "auth.ok", 1, None, None),
        (16, "desk.pairing", 1, 2, None),
    ]
    ch = changes_of(1, 16, entries)
    assert ch.head == 16 and ch.tables == {(1, 3)} and ch.appeals == {1} and ch.clock == {2}
    assert ch.desk and not ch.pairs and not ch.everything and ch.tables_of(1) == {3} and not ch.tables_of(2)
    assert changes_of(1, 17, [(17, "pairs.import", 1, None, None)]).pairs
    assert changes_of(1, 18, [(18, "something.new", 1, None, None)]).everything
    assert changes_of(1, 11, entries[:1], complete=False).everything
    assert changes_of(1, 15, [(15, "auth.ok", 1, None, None)]).nothing
