"""The hall display follows the store: pairings before the round, the clock and table
status during it, standings after it; a second station sees a change made elsewhere."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from referee_app.app.session import Session
from referee_app.core.rulebook import load_rulebook
from referee_app.gui.hall_display import HallDisplay
from referee_app.gui.main_window import MainWindow  # noqa: F401  (the app's Qt set-up)
from referee_app.store.pairs_csv import parse_pairs
from referee_app.store.service import Actor, Store
from tests.needs import missing

CHIEF = Actor("裁判长", "desk")
HALL = Actor("大屏", "hall")
NAMES = "张三 李四 王五 赵六 钱七 孙八 周九 吴十 郑一 冯二 陈三 褚四".split()


def event(target: str, n: int = 6) -> int:
    with Store.open(target, create=True, actor=CHIEF) as s:
        ev = s.create_event(name="职工双升赛", rulebook=load_rulebook("gansu-2018"), date=None, actor=CHIEF)
        rows = "number,player1,player2\n" + "".join(
            f"{i},{NAMES[(2 * i) % 12]},{NAMES[(2 * i + 1) % 12]}\n" for i in range(1, n + 1)
        )
        s.import_pairs(ev.id, parse_pairs(rows), actor=CHIEF, source="p.csv")
        return int(ev.id)


def result(rnd: int, table: int, ns: str, ew: str, finished: str = "time") -> dict[str, Any]:
    return {
        "event": "gansu-2018",
        "round": rnd,
        "table": table,
        "pairs": {"NS": ns, "EW": ew},
        "first_dealer": "N",
        "hands": [{"defender_points": 0}],
        "finished": finished,
    }


def _seconds(clock: str) -> int:
    minutes, seconds = clock.split()[0].split(":")
    return int(minutes) * 60 + int(seconds)


def publish(store: Store, eid: int, tables: list[tuple[int, str, str]]) -> None:
    body = {
        "method": "entered",
        "seed": None,
        "tables": [list(t) for t in tables],
        "bye": None,
        "warnings": [],
    }
    store.add_desk_record(eid, "pairing", 1, body, actor=CHIEF, version=1)


def test_each_phase_of_a_round(qtbot, tmp_path: Path) -> None:
    db = str(tmp_path / "hall.db")
    eid = event(db)
    desk = Store.open(db, actor=CHIEF)
    hall_store = Store.open(db, actor=HALL)
    session = Session(hall_store, hall_store.pick_event(eid), HALL)
    view = HallDisplay(session, poll_ms=50)
    qtbot.addWidget(view)
    assert view.phase == "waiting" and "等待编排" in view.body.text()
    tables = [(1, "1", "2"), (2, "3", "4"), (3, "5", "6")]
    publish(desk, eid, tables)
    qtbot.waitUntil(lambda: view.phase == "before", timeout=10000)
    assert "第1轮　对阵" in view.title.text() and not view.clock.isVisibleTo(view)
    assert "钱七" in view.body.text() and "桌号" in view.body.text()
    Session(desk, desk.pick_event(eid), CHIEF).clock_act(1, "start")
    qtbot.waitUntil(lambda: view.phase == "during", timeout=10000)
    assert view.clock.isVisibleTo(view) and 0 < _seconds(view.clock.text()) <= 60 * 60
    desk.record(eid, result(1, 1, "1", "2"), actor=CHIEF, lang="zh")
    desk.record(eid, result(1, 2, "3", "4", finished="open") | {"hands": []}, actor=CHIEF, lang="zh")
    qtbot.waitUntil(lambda: "已结束" in view.body.text(), timeout=10000)
    assert view.body.text().count("已结束") == 1 and "未开始" in view.body.text()
    Session(desk, desk.pick_event(eid), CHIEF).clock_act(1, "pause")
    qtbot.waitUntil(lambda: "暂停" in view.clock.text(), timeout=10000)
    desk.record(eid, result(1, 2, "3", "4"), actor=CHIEF, lang="zh", expected_version=1)
    desk.record(eid, result(1, 3, "5", "6"), actor=CHIEF, lang="zh")
    qtbot.waitUntil(lambda: view.phase == "after", timeout=10000)
    assert "第1轮　成绩" in view.title.text() and "名次" in view.body.text() and "级差分" in view.body.text()
    from PySide6.QtWidgets import QAbstractButton, QLineEdit

    assert not view.findChildren(QAbstractButton) and not view.findChildren(QLineEdit)  # read-only
    desk.close()
    hall_store.close()


def _two_stations(qtbot, target: str) -> list[int]:
    """Station A records, then voids, a table; station B's watcher counts its tables each time."""
    eid = event(target, 4)
    a = Store.open(target, actor=CHIEF)
    b = Store.open(target, actor=HALL)
    try:
        from referee_app.gui.watch import StoreWatcher

        sb = Session(b, b.pick_event(eid), HALL)
        seen: list[int] = []
        watcher = StoreWatcher(sb.store_head, 50)
        watcher.changed.connect(lambda: seen.append(len(sb.tables(1))))
        a.record(eid, result(1, 1, "1", "2"), actor=CHIEF, lang="zh")
        qtbot.waitUntil(lambda: seen == [1], timeout=10000)
        a.void(eid, round_no=1, table_no=1, reason="重赛", actor=CHIEF)
        qtbot.waitUntil(lambda: len(seen) == 2, timeout=10000)
        watcher.timer.stop()
        return seen
    finally:
        a.close()
        b.close()


def test_a_second_station_follows_a_change_made_elsewhere_sqlite(qtbot, tmp_path: Path) -> None:
    # the void made at station A shows at station B by itself
    assert _two_stations(qtbot, str(tmp_path / "two.db")) == [1, 0]


def test_a_second_station_follows_a_change_made_elsewhere_postgresql(qtbot) -> None:
    url = os.environ.get("REFEREE_APP_TEST_PG_URL")
    if not url:
        missing("REFEREE_APP_TEST_PG_URL is not set: PostgreSQL store tests not run")
    import uuid
    from urllib.parse import quote

    from sqlalchemy import create_engine, text

    schema = "t_" + uuid.uuid4().hex[:12]  # a fresh schema on the hall's server
    eng = create_engine(url)
    with eng.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        sep = "&" if "?" in url else "?"
        assert _two_stations(qtbot, f"{url}{sep}options={quote(f'-csearch_path={schema}')}") == [1, 0]
    finally:
        with eng.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        eng.dispose()


def test_the_hall_clock_is_one_clock_in_the_store(make_window, pairs_csv, db_path: Path, qtbot) -> None:
    """The chief referee starts the clock at one station; another station's hall shows the
    same clock, and a table seated elsewhere, without a manual refresh."""
    from tests.gui.conftest import open_event_with_table

    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    window.show_hall()
    window.watcher.timer.setInterval(50)
    other = Store.open(str(db_path), actor=CHIEF)
    try:
        sess = Session(other, other.pick_event(window.session.event.id), CHIEF)
        window.hall.clock.start_button.click()
        assert window.hall.clock.running and sess.clock(1).phase == "running"
        sess.clock_act(1, "pause")
        sess.clock_act(1, "extend", 5, "停电")
        qtbot.waitUntil(lambda: not window.hall.clock.running, timeout=10000)
        assert window.hall.clock.total == 65 * 60
        sess.open_table(1, 2, "3", "4", "E")
        qtbot.waitUntil(lambda: len(window.hall.cards) == 2, timeout=10000)
        assert [a["action"] for a in other.log(sess.event.id) if a["action"] == "desk.clock"] == [
            "desk.clock"
        ] * 3
    finally:
        other.close()


def test_a_big_field_turns_its_pages(qtbot, tmp_path: Path) -> None:
    """40 pairs: 20 tables do not fit one screen; the pages turn by themselves."""
    db = str(tmp_path / "big.db")
    with Store.open(db, create=True, actor=CHIEF) as s:
        ev = s.create_event(name="大赛", rulebook=load_rulebook("gansu-2018"), date=None, actor=CHIEF)
        rows = "number,player1,player2\n" + "".join(f"{i},甲{i},乙{i}\n" for i in range(1, 41))
        s.import_pairs(ev.id, parse_pairs(rows), actor=CHIEF, source="p.csv")
        publish(s, ev.id, [(t, str(2 * t - 1), str(2 * t)) for t in range(1, 21)])
        eid = int(ev.id)
    store = Store.open(db, actor=HALL)
    try:
        view = HallDisplay(Session(store, store.pick_event(eid), HALL), poll_ms=50)
        qtbot.addWidget(view)
        first = view.body.text()
        assert view.phase == "before" and "第 1/2 页" in first and "甲1、乙1" in first and "甲39" not in first
        view.next_page()
        second = view.body.text()
        assert "第 2/2 页" in second and "甲39、乙39" in second and "甲1、乙1" not in second
    finally:
        store.close()
