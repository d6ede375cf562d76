"""Nothing typed is lost (issue 15 item 5): an open ruling dialog and typed hand points are
kept as drafts while typed and offered back after the app is killed; a restart returns to
the table that was open."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt

from referee_app.app.drafts import Drafts

from .conftest import open_event_with_table, when_modal

#: The station as a referee leaves it: table 1 open, 85 typed, a ruling dialog half filled.
TYPING_SCRIPT = r"""
import sys
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication
QSettings.setDefaultFormat(QSettings.Format.IniFormat)
QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, sys.argv[3])
app = QApplication([])
from referee_app.core.rulebook import load_rulebook
from referee_app.gui.i18n import Language
from referee_app.gui.main_window import MainWindow
from referee_app.app.session import Session
from referee_app.store.service import Actor, Store
actor = Actor("裁判一", "station-1")
store = Store.open(sys.argv[1], create=True, actor=actor)
window = MainWindow(Language("zh"))
window.use_store(store, actor)
window.show()
info = Session.create_event(store, "草稿测试", load_rulebook("bhg-2011"), "2026-11-30", actor)
window.fill_events()
window.open_event(info.id)
window.import_pairs(sys.argv[2])
window.session.open_table(1, 1, "1", "2", "E")
window.open_table(1, 1)
view = window.table_view
view.defender_points.edit.setText("85")

def fill():
    dialog = QApplication.activeModalWidget()
    if dialog is None:
        QTimer.singleShot(20, fill)
        return
    dialog.who_buttons["W"].click()
    dialog.inputs["cards"].setValue(2)
    dialog.inputs["trick"].setValue(3)
    dialog.override_box.setChecked(True)
    dialog.ov_points.setValue(10)
    dialog.ov_reason.setPlainText("两张牌同时落地，按一次处理")
    print("TYPED", flush=True)

QTimer.singleShot(0, fill)
view.log_infraction("exposed_card")
print("DIALOG CLOSED", flush=True)
"""


def test_killed_with_an_open_ruling_and_typed_points_the_restart_offers_both_back(
    make_window, db_path: Path, pairs_csv: Path, tmp_path: Path, qtbot
) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen(
        [sys.executable, "-c", TYPING_SCRIPT, str(db_path), str(pairs_csv), str(tmp_path / "settings")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("TYPED"), proc.stderr.read() if proc.poll() is not None else line
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL

    window = make_window()
    assert window.stack.currentWidget() is window.welcome  # nothing reopened until resume()
    seen: dict[str, object] = {}

    def the_dialog(dialog) -> None:
        seen["offender"] = dialog.offender()
        seen["cards"] = dialog.inputs["cards"].value()
        seen["trick"] = dialog.inputs["trick"].value()
        seen["override"] = dialog.override_box.isChecked()
        seen["reason"] = dialog.ov_reason.toPlainText()
        seen["points"] = dialog.ov_points.value()
        seen["typed_points"] = window.table_view.defender_points.edit.text()
        qtbot.mouseClick(dialog.confirm_button, Qt.MouseButton.LeftButton)

    def restore(box) -> None:
        seen["question"] = box.text()
        when_modal(the_dialog)
        box.button(box.StandardButton.Yes).click()

    when_modal(restore)
    window.resume()
    assert "恢复未保存的输入？" in str(seen["question"])
    assert "第1轮第1桌" in str(seen["question"])
    assert window.stack.currentWidget() is window.table_view  # back at the table
    view = window.table_view
    assert (view.record.round, view.record.table) == (1, 1)
    assert seen["typed_points"] == "85" and view.defender_points.edit.text() == "85"
    assert seen["offender"] == "W" and seen["cards"] == 2 and seen["trick"] == 3
    assert seen["override"] is True and seen["points"] == 10
    assert seen["reason"] == "两张牌同时落地，按一次处理"
    logged = view.record.case["hands"][-1]["infractions"][-1]
    assert logged["seat"] == "W" and logged["override"]["reason"] == "两张牌同时落地，按一次处理"
    drafts = Drafts(window.store.where)
    assert drafts.load("ruling") is None  # confirmed: the draft is gone
    assert drafts.load("hand")["defender_points"] == "85"  # still typed, still kept
    qtbot.mouseClick(view.confirm_hand_button, Qt.MouseButton.LeftButton)
    assert view.record.case["hands"][0]["defender_points"] == 85
    assert drafts.pending() == {}


def test_a_refused_offer_drops_the_drafts(make_window, pairs_csv, qtbot) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    window.table_view.defender_points.edit.setText("40")
    drafts = Drafts(window.store.where)
    assert drafts.load("hand")["defender_points"] == "40"
    restarted = make_window()
    when_modal(lambda box: box.button(box.StandardButton.No).click())
    restarted.resume()
    assert drafts.pending() == {}
    assert restarted.table_view.defender_points.edit.text() == ""
    window.table_view.clear_hand_form()


def test_a_restart_returns_to_the_last_table_and_the_hall_after_leaving_it(make_window, pairs_csv) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    window.session.open_table(1, 2, "3", "4", "E")
    window.open_table(1, 2)
    restarted = make_window()
    restarted.resume()
    assert restarted.stack.currentWidget() is restarted.table_view
    assert restarted.table_view.record.table == 2
    assert restarted.session.event.id == window.session.event.id

    qtbot_back = window.table_view.back_button
    qtbot_back.click()  # back to the hall: the next start opens the hall
    again = make_window()
    again.resume()
    assert again.stack.currentWidget() is again.hall
    window.show_events()  # the event list: the next start stays there
    last = make_window()
    last.resume()
    assert last.stack.currentWidget() is last.welcome and last.session is None


def test_a_draft_is_kept_per_store_and_a_damaged_one_is_ignored(tmp_path: Path) -> None:
    here = Drafts("/data/event.sqlite", tmp_path)
    other = Drafts("postgresql://hall/referee", tmp_path)
    here.save("hand", {"event": 1, "round": 2, "table": 3, "defender_points": "85"})
    assert here.load("hand") == {"event": 1, "round": 2, "table": 3, "defender_points": "85"}
    assert other.pending() == {}  # another store's station sees nothing of this one
    assert not list(tmp_path.glob("*.tmp"))  # written whole, by a rename
    here.path("ruling").write_text("{not json", encoding="utf-8")
    assert here.load("ruling") is None and set(here.pending()) == {"hand"}
    here.discard("hand")
    here.discard("hand")  # discarding twice is fine
    assert here.load("hand") is None
