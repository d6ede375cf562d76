"""The time warning at each table: the round clock gives it, every table playing records the
hand it is in, the table counts the hands left, the engine refuses one too many, and the
scoresheet shows where it fell (Gansu 六、二、2: 还有最后1副牌(不包括正在打的该副牌);
HBUE 规则五、(一): 限时提醒后每桌只能再打二副牌，包括正在抓牌或打的这副牌)."""

from __future__ import annotations

import subprocess
import time

from referee_app.core import editing

from .conftest import open_event_with_table, when_modal


def warn(window) -> None:
    hall = window.hall
    hall.clock.restore(time.time() - 51 * 60, 0.0)  # 9 of 60 minutes left
    hall.clock.tick()


def test_the_clock_records_the_warning_at_every_table_playing(make_window, pairs_csv) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    session = window.session
    session.open_table(1, 2, "3", "4", "E")
    one = session.table(1, 1)
    session.save(one, editing.complete_hand(one.case, 60))  # table 1 plays its 2nd hand
    window.show_hall()
    warn(window)
    assert window.hall.warning.isVisible()
    first, second = session.tables(1)
    assert first.case["time_warning"] == {"hand": 2} and second.case["time_warning"] == {"hand": 1}
    assert first.decision["time_warning"]["last_hand"] == 3
    version = first.version
    warn(window)  # the clock warns again (a restart): nothing is recorded twice
    assert session.table(1, 1).version == version


def test_the_table_counts_the_hands_left_and_refuses_one_too_many(make_window, pairs_csv, tmp_path) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    view = window.table_view
    view.give_time_warning()  # heard at the table: hand 1 is in play
    assert view.time_banner.isVisible() and not view.warning_button.isVisible()
    banner = view.time_banner.text()
    assert "限时提醒于第 1 副发出，最多打到第 2 副" in banner and "六、二、2" in banner
    assert "还可打 2 副" in banner
    for points in ("60", "40"):
        view.defender_points.edit.setText(points)
        view.confirm_hand()
    assert "允许的牌局已打完" in view.time_banner.text()
    view.defender_points.edit.setText("60")  # a third hand: past the warning
    assert not view.confirm_hand_button.isEnabled()
    assert "六、二、2" in view.outcome.text()
    view.clear_hand_form()
    seen: dict[str, str] = {}

    def save(dialog) -> None:
        seen["saved"] = dialog.save_pdf(str(tmp_path / "sheet.pdf"))
        dialog.accept()

    when_modal(save)
    view.preview_scoresheet()
    text = subprocess.run(
        ["pdftotext", "-layout", seen["saved"], "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "限时提醒" in text and "第 1 副发出，最多打到第 2 副" in text


def test_hbue_counts_the_hand_in_play_among_its_two(make_window, pairs_csv) -> None:
    window = make_window()
    open_event_with_table(window, "hbue-2018", pairs_csv)
    view = window.table_view
    view.defender_points.edit.setText("60")
    view.confirm_hand()
    view.give_time_warning()  # hand 2 is being drawn
    assert "最多打到第 3 副" in view.time_banner.text() and "还可打 2 副" in view.time_banner.text()
