"""The chief referee's desk in the window: pairing, publishing, standings, the printed sheet."""

from __future__ import annotations

import subprocess

from PySide6.QtWidgets import QMessageBox

from referee_app.app.session import Session
from referee_app.core import editing
from referee_app.core.rulebook import load_rulebook

from .conftest import when_modal


def play_round(session: Session, round_no: int, points: list[int]) -> None:
    """Each table plays one hand with the given defender points, then ends on time."""
    for record, pts in zip(session.tables(round_no), points, strict=True):
        record = session.save(record, editing.complete_hand(record.case, pts))
        session.save(record, editing.end_on_time(record.case))


def test_pair_publish_play_and_rank(make_window, pairs_csv, tmp_path) -> None:
    window = make_window()
    info = Session.create_event(
        window.store, "编排测试", load_rulebook("gansu-2018"), "2026-11-30", window.actor
    )
    window.fill_events()
    window.open_event(info.id)
    window.import_pairs(str(pairs_csv))
    window.act_pairing.trigger()
    view = window.pairing_view
    assert window.stack.currentWidget() is view
    assert view.round.value() == 1 and view.pairing.method == "lot"
    assert view.table.rowCount() == 2
    asked = {}

    def confirm(dialog) -> None:
        asked["text"] = dialog.text()
        dialog.button(QMessageBox.StandardButton.Yes).click()

    when_modal(confirm)
    drawn = [(t.table, t.ns, t.ew) for t in view.pairing.tables]
    seed = view.pairing.seed
    assert view.publish() == 2
    assert "发布第 1 轮对阵（2 桌）" in asked["text"]
    session = window.session
    assert [t.table for t in session.tables(1)] == [1, 2]
    stored = session.store.desk_records(session.event.id, "pairing", 1)
    assert len(stored) == 1 and stored[0]["body"]["seed"] == seed != session.event.id
    assert [tuple(t) for t in stored[0]["body"]["tables"]] == drawn
    assert not view.publish_button.isEnabled() or view.round.value() == 1

    view.round.setValue(2)  # round 1 is seated but not played: its pairing is refused
    assert "第 1 轮尚未结束" in view.warning.text() and not view.publish_button.isEnabled()
    play_round(session, 1, [0, 120])  # table 1: dealer side +3; table 2: defenders +1
    window.act_standings.trigger()
    standings = window.standings_view
    assert standings.table.rowCount() == 4
    winners = {standings.table.item(r, 1).text() for r in range(2)}
    first_round = {frozenset((t.pairs["NS"], t.pairs["EW"])) for t in session.tables(1)}
    headers = [standings.table.horizontalHeaderItem(c).text() for c in range(standings.table.columnCount())]
    assert headers[3:6] == ["积分", "级差分*", "对手分*"]  # Gansu 六、四; * the definitions are readings
    assert "假定" in standings.notes.text()
    assert all(standings.table.item(r, 3).text() == "2" for r in range(2))
    assert "六、四" in standings.order.text()

    window.act_pairing.trigger()
    assert view.round.value() == 2 and view.pairing.method == "swiss"
    second = {frozenset((t.ns, t.ew)) for t in view.pairing.tables}
    assert not second & first_round  # never the same two pairs twice
    top = view.pairing.tables[0]
    assert {top.ns, top.ew} == winners  # high against high
    old_opponent = next(next(iter(m - {top.ns})) for m in first_round if top.ns in m)
    seat = "NS" if view.pairing.tables[1].ns == old_opponent else "EW"
    rematches = view.swap((0, "EW"), (1, seat))  # bring top.ns's round-1 opponent to table 1
    assert rematches and "重复相遇" in view.warning.text()

    seen = {}
    when_modal(lambda dialog: (seen.setdefault("pages", dialog.page_count()), dialog.accept()))
    standings.print_sheet()
    assert seen["pages"] >= 1

    saved = {}
    when_modal(
        lambda dialog: (
            saved.setdefault("path", dialog.save_pdf(str(tmp_path / "pairing.pdf"))),
            dialog.accept(),
        )
    )
    view.print_list()
    text = subprocess.run(
        ["pdftotext", "-layout", saved["path"], "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "第2轮对阵表" in text.replace(" ", "") and "积分编排" in text
    for t in view.pairing.tables:
        assert view.names[t.ns].split(" · ")[0] in text
