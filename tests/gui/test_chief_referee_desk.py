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
    # each table says why (issue 26): the criterion that decided, who floated
    assert view.table.horizontalHeaderItem(5).text() == "编排理由"
    whys = [view.table.item(r, 5).text() for r in range(view.table.rowCount())]
    assert all(w for w in whys) and not any("下浮" in w for w in whys)  # 2 + 2: no float
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


# -- one truth: the draw shown is the draw published, shown again and printed -----------------
def shown_tables(view) -> list[tuple[int, str, str]]:
    """The tables as the view's rows show them (table, NS, EW), not its data."""
    return [
        (int(view.table.item(r, 0).text()), view.table.item(r, 1).text(), view.table.item(r, 3).text())
        for r in range(view.table.rowCount())
    ]


def printed_from(view, path) -> tuple[list[tuple[int, str, str]], str]:
    """Print from the view (its preview saved as ``path``): the tables read back, the text."""
    saved = {}
    when_modal(lambda dialog: (saved.setdefault("path", dialog.save_pdf(str(path))), dialog.accept()))
    assert view.print_list() is not None
    text = subprocess.run(
        ["pdftotext", "-layout", saved["path"], "-"], capture_output=True, text=True, check=True
    ).stdout
    tables = []
    for line in text.splitlines():
        # table, then each side's pair, its players (张三、李四), unit and points
        cells = line.split()
        players = [i for i, c in enumerate(cells) if "、" in c]
        if len(players) == 2 and cells[0].isdigit() and all(cells[i - 1].isdigit() for i in players):
            tables.append((int(cells[0]), cells[players[0] - 1], cells[players[1] - 1]))
    return tables, text


def open_new_event(window, name: str, pairs_csv) -> int:
    info = Session.create_event(window.store, name, load_rulebook("gansu-2018"), "2026-11-30", window.actor)
    window.fill_events()
    window.open_event(info.id)
    window.import_pairs(str(pairs_csv))
    return info.id


def test_the_draw_shown_is_published_shown_again_on_reopening_and_printed(
    make_window, pairs_csv, tmp_path, qtbot
) -> None:
    from PySide6.QtCore import Qt

    from referee_app.app.pairing import round_pairing

    window = make_window()
    eid = open_new_event(window, "抽签测试", pairs_csv)
    window.act_pairing.trigger()
    view = window.pairing_view
    drawn = shown_tables(view)
    seed = view.pairing.seed
    assert len(drawn) == 2 and view.status.text() == "编排建议，未公布" and f"种子 {seed}" in view.info.text()
    # refreshed, reopened, switched to English and back, looked at from another station:
    # the same draw, not a new one each time
    view.compute()
    window.show_hall()
    window.act_pairing.trigger()
    window.language.set("en")
    assert view.status.text() == "Proposal, not published" and shown_tables(view) == drawn
    window.language.set("zh")
    other = make_window()
    other.fill_events()
    other.open_event(eid)
    other.act_pairing.trigger()
    assert shown_tables(other.pairing_view) == shown_tables(view) == drawn
    assert other.pairing_view.pairing.seed == seed
    tables, text = printed_from(view, tmp_path / "before.pdf")
    assert tables == drawn and "编排建议，未公布" in text

    def confirm(dialog) -> None:
        dialog.button(QMessageBox.StandardButton.Yes).click()

    when_modal(confirm)
    qtbot.mouseClick(view.publish_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.status.text() == "已公布（第 1 版）")
    assert shown_tables(view) == drawn and not view.publish_button.isEnabled()
    session = window.session
    (rec,) = session.store.desk_records(eid, "pairing", 1)
    assert rec["body"]["seed"] == seed and [tuple(t) for t in rec["body"]["tables"]] == drawn
    assert [(t.table, t.pairs["NS"], t.pairs["EW"]) for t in session.tables(1)] == drawn  # seated

    window.show_hall()
    window.act_pairing.trigger()  # reopened: the next round (round 1 is not played yet)
    assert view.round.value() == 2 and not view.publish_button.isEnabled()
    view.round.setValue(1)
    assert shown_tables(view) == drawn and view.status.text() == "已公布（第 1 版）"
    assert "第 1 轮对阵已公布（第 1 版）" in view.warning.text()
    tables, text = printed_from(view, tmp_path / "after.pdf")
    assert tables == drawn and "未公布" not in text and "version 1" in text and str(seed) in text
    rp = round_pairing(session.store, eid, 1)  # what the command line prints
    assert (rp.status, rp.version, rp.tables()) == ("published", 1, drawn)


def test_a_swap_is_kept_with_the_proposal_and_is_what_is_published(make_window, pairs_csv) -> None:
    window = make_window()
    eid = open_new_event(window, "交换测试", pairs_csv)
    window.act_pairing.trigger()
    view = window.pairing_view
    (t1, a, b), (t2, c, d) = shown_tables(view)
    view.swap((0, "EW"), (1, "NS"))
    swapped = [(t1, a, c), (t2, b, d)]
    assert shown_tables(view) == swapped
    window.show_hall()
    window.act_pairing.trigger()
    assert shown_tables(view) == swapped and view.status.text() == "编排建议，未公布"
    view.redraw()  # 重新编排: a new draw, kept in place of the swapped one
    redrawn = shown_tables(view)
    assert view.pairing.seed != window.session.store.desk_records(eid, "proposal", 1)[0]["body"]["seed"]
    view.compute()
    assert shown_tables(view) == redrawn
    view.swap((0, "EW"), (1, "NS"))
    swapped = shown_tables(view)
    assert swapped != redrawn
    when_modal(lambda dialog: dialog.button(QMessageBox.StandardButton.Yes).click())
    assert view.publish() == 2
    (rec,) = window.session.store.desk_records(eid, "pairing", 1)
    assert [tuple(t) for t in rec["body"]["tables"]] == swapped == shown_tables(view)


def test_a_proposal_replaced_at_another_station_is_not_published_unseen(make_window, pairs_csv) -> None:
    """Two desk stations: B draws again after A's view was shown; A's 发布并安排桌次 is refused
    (saying so), A's view then shows B's draw, and publishing publishes that one."""
    a = make_window()
    eid = open_new_event(a, "两台", pairs_csv)
    a.act_pairing.trigger()
    b = make_window()
    b.fill_events()
    b.open_event(eid)
    b.act_pairing.trigger()
    b.pairing_view.redraw()
    theirs = shown_tables(b.pairing_view)
    seen = {}

    def confirm_then_read_the_refusal(dialog) -> None:
        dialog.button(QMessageBox.StandardButton.Yes).click()
        when_modal(lambda refusal: (seen.setdefault("text", refusal.text()), refusal.accept()))

    when_modal(confirm_then_read_the_refusal)
    assert a.pairing_view.publish() == 0
    assert "已被其他工作站的第 2 稿取代" in seen["text"]
    assert a.session.store.desk_records(eid, "pairing", 1) == []
    assert shown_tables(a.pairing_view) == theirs
    when_modal(lambda dialog: dialog.button(QMessageBox.StandardButton.Yes).click())
    assert a.pairing_view.publish() == 2
    (rec,) = a.session.store.desk_records(eid, "pairing", 1)
    assert ([tuple(t) for t in rec["body"]["tables"]], rec["body"]["proposal"]) == (theirs, 2)
