"""The hall's clock and warning, the scoresheet preview, and the interface's words."""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

from referee_app.core import editing
from referee_app.gui.i18n import load_catalog

from .conftest import open_event_with_table, when_modal

GUI = Path(__file__).resolve().parents[2] / "referee_app" / "gui"


def test_every_interface_string_exists_in_both_languages() -> None:
    catalog = load_catalog()
    used: set[str] = set()
    for source in GUI.glob("*.py"):
        used |= set(re.findall(r"""\btr\(\s*["']([a-z_]+)["']""", source.read_text(encoding="utf-8")))
    used = {k for k in used if not k.endswith("_")}  # prefixes of keys built at run time
    from referee_app.gui.hall import STATUS_COLOURS
    from referee_app.gui.models import HAND_COLUMNS
    from referee_app.gui.table_view import SHAPES

    used |= {f"status_{s}" for s in STATUS_COLOURS} | set(HAND_COLUMNS) | {f"shape_{s}" for s in SHAPES}
    used |= {f"shot_{w}" for w in ("bury", "lead", "follow")} | {"j_suit_trump", "j_suit_side"}
    used |= {
        f"field_{f}"
        for f in (
            "defender_points",
            "redeclarations",
            "bottom_points",
            "captured",
            "shape",
            "pairs",
            "largest",
            "j_cards",
            "j_suit",
        )
    }
    missing = sorted(k for k in used if k not in catalog)
    assert not missing, missing
    for key, entry in catalog.items():
        assert set(entry) == {"zh", "en"} and all(entry.values()), key


def test_the_round_clock_warns_with_the_rulebooks_words(make_window, pairs_csv) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    window.show_hall()
    hall = window.hall
    assert hall.cards and "第 1 桌" in hall.cards[0].text()
    hall.clock.restore(time.time() - 51 * 60, 0.0)  # 9 of 60 minutes left
    hall.clock.tick()
    assert hall.warning.isVisible()
    assert "还有最后1副牌（不包括正在打的该副牌）" in hall.warning.text()
    assert hall.clock.minutes_since_start() == 51
    assert hall.clock.running
    hall.clock.toggle()
    # paused, not reset: it says so and offers to go on (issue 27)
    assert not hall.clock.running and hall.clock.start_button.text() == "继续计时"
    assert hall.clock.state.text() == "已暂停"


def test_scoresheet_preview_renders_and_saves(make_window, pairs_csv, tmp_path) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    case = editing.add_infraction(
        view.record.case, {"kind": "exposed_card", "seat": "N", "cards": 1, "trick": 2}
    )
    view.save(editing.complete_hand(case, 60))
    seen = {}

    def look(dialog) -> None:
        seen["pages"] = dialog.page_count()
        seen["saved"] = dialog.save_pdf(str(tmp_path / "sheet.pdf"))
        dialog.accept()

    when_modal(look)
    view.preview_scoresheet()
    assert seen["pages"] >= 1
    text = subprocess.run(
        ["pdftotext", "-layout", seen["saved"], "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "记分表" in text and "二、4 暴露张" in text and "张三" in text
    assert "测试赛 bhg-2011" in text  # the event's own name heads the sheet


def test_the_hall_dashboard_counts_tables_and_flags_late_ones(make_window, pairs_csv) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    window.session.open_table(1, 2, "3", "4", "E")
    record = window.session.table(1, 1)
    window.session.save(record, editing.complete_hand(record.case, 60))
    window.hall.clock.restore(time.time() - 7 * 60, 0.0)
    window.show_hall()
    text = window.hall.dashboard.text()
    assert "本轮 2 桌" in text and "进行中 1" in text and "未开始 1" in text
    assert "开赛已 7 分钟" in text and "第 2 桌" in text


def test_qts_own_buttons_speak_the_interface_language(qtbot) -> None:
    from PySide6.QtWidgets import QDialogButtonBox

    from referee_app.gui.i18n import Language

    language = Language("zh")
    language.install_qt_translator()
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    qtbot.addWidget(buttons)
    assert sorted(b.text() for b in buttons.buttons()) == sorted(["确定", "取消"])
    language.set("en")
    english = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    qtbot.addWidget(english)
    assert sorted(b.text() for b in english.buttons()) == ["Cancel", "OK"]
