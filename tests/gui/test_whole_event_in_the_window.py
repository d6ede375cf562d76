"""A whole event in the window alone (issue 27, "Done when"), driven by its widgets — clicks
and keys, Chinese text set where QTest cannot type it: the event created, its entries
imported from an Excel file, the roles' PINs set, round 1 drawn and published, played at two
stations (two windows on one SQLite file) with rulings, an appeal filed and decided, a signed
record corrected and signed again, the round ended, its scores published, the hall display
opened, round 2 drawn and published. No step goes to the command line or calls the store."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import Workbook
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QInputDialog, QLineEdit, QMessageBox

from referee_app.gui.appeals import DecideDialog, FileAppealDialog
from referee_app.gui.chief import SetPinDialog
from referee_app.gui.hall_display import BigScreenDialog, HallDisplay
from referee_app.gui.infraction_dialog import InfractionDialog
from referee_app.gui.login import LoginDialog
from referee_app.gui.new_event import NewEventDialog

from .conftest import when_modal
from .test_signing import sign_everyone
from .test_station import double_click_hand, hand_points
from .test_table_referee import fill

CHIEF, TABLE, COMMITTEE = "246810", "135790", "975310"
CTRL = Qt.KeyboardModifier.ControlModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


@pytest.fixture(autouse=True)
def _cheap_pin_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """New PIN hashes cost 2^14 here, as in tests/store (the real checks still run)."""
    from referee_app.store import roles

    monkeypatch.setattr(roles, "SCRYPT_N", 2**14)


def press(qtbot, window, key: Qt.Key, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    window.activateWindow()  # a shortcut goes to the active window, as on the referee's screen
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, key, modifiers)


def click(qtbot, widget, pos: QPoint | None = None) -> None:
    if pos is None:
        qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)
    else:
        qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=pos)


def yes(qtbot):
    def answer(box) -> None:
        assert isinstance(box, QMessageBox), box
        click(qtbot, box.button(QMessageBox.StandardButton.Yes))

    return answer


def ok(qtbot, buttons: QDialogButtonBox) -> None:
    click(qtbot, buttons.button(QDialogButtonBox.StandardButton.Ok))


def login_as(qtbot, role: str, pin: str):
    def log_in(dialog) -> None:
        assert isinstance(dialog, LoginDialog), dialog
        dialog.role_combo.setCurrentIndex(dialog.role_combo.findText(role))
        qtbot.keyClicks(dialog.pin_edit, pin)
        click(qtbot, dialog.ok_button)

    return log_in


def entry_list(path: Path) -> Path:
    book = Workbook()
    sheet = book.active
    sheet.append(["编号", "选手1", "选手2", "单位"])
    for n, (a, b, unit) in enumerate(
        [
            ("张三", "李四", "一队"),
            ("王五", "赵六", "二队"),
            ("孙七", "周八", "三队"),
            ("吴九", "郑十", "四队"),
        ],
        1,
    ):
        sheet.append([n, a, b, unit])
    book.save(path)
    return path


def play_table(qtbot, window, kind: str, seat: str, facts: dict, points: str) -> None:
    """At the table open in ``window``: one infraction logged by its kind's button, one hand
    by its points and Ctrl+Enter, the round ended on time and signed by everyone."""
    view = window.table_view

    def log(dialog) -> None:
        assert isinstance(dialog, InfractionDialog)
        fill(dialog, seat, facts)
        click(qtbot, dialog.confirm_button)

    when_modal(log)
    click(qtbot, view.kind_buttons[kind])
    assert view.rulings_model.rowCount() == 1
    qtbot.keyClicks(view.defender_points.edit, points)
    press(qtbot, window, Qt.Key.Key_Return, CTRL)
    assert hand_points(view) == [int(points)]
    when_modal(yes(qtbot))  # ending before the clock's end is asked
    click(qtbot, view.end_button)
    assert view.record.decision["result"] is not None
    when_modal(sign_everyone)
    click(qtbot, view.sign_button)
    assert view.record.signed


def test_a_whole_event_is_run_in_the_window_alone(make_window, qtbot, tmp_path: Path) -> None:
    desk = make_window()  # the chief referee's station

    # -- the event, its entries from Excel, the roles' PINs -------------------------------------
    def new_event(dialog) -> None:
        assert isinstance(dialog, NewEventDialog)
        dialog.name.setText("甘肃省职工双升赛")
        rulebooks = [dialog.rules.itemData(i).id for i in range(dialog.rules.count())]
        dialog.rules.setCurrentIndex(rulebooks.index("gansu-2018"))
        ok(qtbot, dialog.findChild(QDialogButtonBox))

    when_modal(new_event)
    press(qtbot, desk, Qt.Key.Key_N, CTRL)
    session = desk.session
    assert session is not None and session.rulebook.id == "gansu-2018"

    def pick(dialog) -> None:
        assert isinstance(dialog, QFileDialog)
        dialog.selectNameFilter(dialog.nameFilters()[-1])
        dialog.findChild(QLineEdit, "fileNameEdit").setText(str(entry_list(tmp_path / "报名表.xlsx")))
        click(
            qtbot,
            dialog.findChild(QDialogButtonBox, "buttonBox").button(QDialogButtonBox.StandardButton.Open),
        )

    when_modal(pick)
    press(qtbot, desk, Qt.Key.Key_I, CTRL)
    qtbot.waitUntil(lambda: len(session.pairs()) == 4)

    def first_pin(dialog) -> None:  # the chief referee's comes first
        assert isinstance(dialog, SetPinDialog)
        qtbot.keyClicks(dialog.new_pin, CHIEF)
        qtbot.keyClicks(dialog.again, CHIEF)
        click(qtbot, dialog.ok_button)

    def role_pin(role: str, pin: str):
        def set_pin(dialog) -> None:
            dialog.role_combo.setCurrentIndex(dialog.role_combo.findText(role))
            qtbot.keyClicks(dialog.new_pin, pin)
            qtbot.keyClicks(dialog.again, pin)
            click(qtbot, dialog.ok_button)

        return set_pin

    for setting in (first_pin, role_pin("裁判员", TABLE), role_pin("仲裁委员会", COMMITTEE)):
        when_modal(setting)
        press(qtbot, desk, Qt.Key.Key_K, CTRL_SHIFT)
    assert session.roles_enforced() and session.role == "chief_referee"
    assert all(state.has_pin for state in session.role_states().values())

    # -- round 1 drawn and published --------------------------------------------------------------
    press(qtbot, desk, Qt.Key.Key_F6)
    pairing = desk.pairing_view
    assert pairing.round.value() == 1
    when_modal(yes(qtbot))
    click(qtbot, pairing.publish_button)
    assert [t.table for t in session.tables(1)] == [1, 2]

    # -- a table referee's station on the same file ------------------------------------------------
    table = make_window()
    table.fill_events()
    table.welcome.events.setCurrentRow(0)
    when_modal(login_as(qtbot, "裁判员", TABLE))
    click(qtbot, table.welcome.open_button)
    assert table.session.role == "table_referee"
    desk.watcher.timer.setInterval(50)
    table.watcher.timer.setInterval(50)

    # -- round 1 played at the two stations, with rulings ---------------------------------------
    press(qtbot, desk, Qt.Key.Key_F2)
    click(qtbot, desk.hall.clock.start_button)
    qtbot.waitUntil(lambda: table.hall.clock.running, timeout=5000)
    click(qtbot, desk.hall.cards[0])
    click(qtbot, table.hall.cards[1])
    assert (desk.table_view.record.table, table.table_view.record.table) == (1, 2)
    play_table(qtbot, desk, "exposed_card", "W", {"cards": 1, "trick": 2, "severity": "light"}, "45")
    hidden = {"trick": 3, "discovered": 5, "affects_result": True}
    play_table(qtbot, table, "hidden_card", "N", hidden, "120")

    # -- an appeal filed at the table, decided by the committee at the desk ---------------------
    view = table.table_view
    view.rulings_view.selectRow(0)

    def file_appeal(dialog) -> None:
        assert isinstance(dialog, FileAppealDialog)
        dialog.grounds.setPlainText("藏牌已被及时发现，未影响本副结果。")
        dialog.evidence.setText("邻桌裁判员目睹")
        qtbot.keyClicks(dialog.receipt, "R-0001")
        click(qtbot, next(b for b in dialog.findChildren(type(dialog.attach_button)) if b.isDefault()))

    when_modal(file_appeal)
    click(qtbot, view.appeal_button)
    press(qtbot, desk, Qt.Key.Key_F7)
    appeals = desk.appeals_view
    assert appeals.list.rowCount() == 1 and appeals.list.item(0, 6).text()  # 申诉时限 filled

    def decide(dialog) -> None:
        assert isinstance(dialog, DecideDialog)
        rejected = dialog.choice["rejected"]
        click(qtbot, rejected, QPoint(8, rejected.height() // 2))
        dialog.reason.setPlainText("经查，藏牌影响了本副结果，维持原判。")
        dialog.committee.setText("委员甲，委员乙")
        when_modal(login_as(qtbot, "仲裁委员会", COMMITTEE))
        qtbot.keyClick(dialog.reason, Qt.Key.Key_Return, CTRL)

    when_modal(decide)
    click(qtbot, appeals.decide_button)
    assert session.appeals()[0]["state"] == "rejected"

    # -- the chief referee corrects table 1's signed record, and it is signed again ----------
    when_modal(login_as(qtbot, "裁判长", CHIEF))
    press(qtbot, desk, Qt.Key.Key_R, CTRL)
    assert session.role == "chief_referee"
    press(qtbot, desk, Qt.Key.Key_F2)
    click(qtbot, desk.hall.cards[0])
    there = desk.table_view

    def reason(dialog) -> None:
        assert isinstance(dialog, QInputDialog)
        dialog.setTextValue("记分员把 50 分误记为 45 分")
        ok(qtbot, dialog.findChild(QDialogButtonBox))

    when_modal(reason)
    click(qtbot, there.correct_button)
    double_click_hand(qtbot, there, 0)
    there.defender_points.edit.selectAll()
    qtbot.keyClicks(there.defender_points.edit, "50")
    press(qtbot, desk, Qt.Key.Key_Return, CTRL)
    assert hand_points(there) == [50] and not there.record.signed
    when_modal(sign_everyone)
    click(qtbot, there.sign_button)
    assert there.record.signed

    # -- the round ended, its scores published, the hall display opened ------------------------
    when_modal(yes(qtbot))
    press(qtbot, desk, Qt.Key.Key_E, CTRL_SHIFT)
    when_modal(yes(qtbot))
    press(qtbot, desk, Qt.Key.Key_S, CTRL_SHIFT)
    assert list(session.round_marks(1)) == ["round_end", "scores_published"]

    def big_screen(dialog) -> None:
        assert isinstance(dialog, BigScreenDialog)
        click(qtbot, dialog.ok_button)

    when_modal(big_screen)
    press(qtbot, desk, Qt.Key.Key_D, CTRL_SHIFT)
    [shown] = desk.big_screens
    assert isinstance(shown, HallDisplay) and shown.phase == "after"  # the standings after round 1

    # -- round 2 drawn and published ----------------------------------------------------------------
    press(qtbot, desk, Qt.Key.Key_F6)
    assert pairing.round.value() == 2 and pairing.pairing.method == "swiss"
    when_modal(yes(qtbot))
    click(qtbot, pairing.publish_button)
    assert len(session.tables(2)) == 2
    first = {frozenset((t.pairs["NS"], t.pairs["EW"])) for t in session.tables(1)}
    assert not first & {frozenset((t.pairs["NS"], t.pairs["EW"])) for t in session.tables(2)}
    qtbot.waitUntil(lambda: shown.round_no == 2, timeout=5000)  # the hall display follows
    shown.close()
