"""The rulebook editor's fields for the variations issue 25 left (negative totals that keep
adding levels, a tie on time left to lots, a failed throw charged by the shape that blocked
it), typed and clicked in the window, saved, and the table asking for the blocking shape."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QPushButton, QWidget

from referee_app.app.session import Session
from referee_app.core.rulebook import check_files, load_rulebook
from referee_app.gui.infraction_dialog import InfractionDialog
from referee_app.gui.rulebook_editor import RulebookEditor

from ..conftest import RULES
from .conftest import when_modal
from .test_rulebook_editor import checked, retype
from .test_table_referee import fill, stored_decision


def _choose(qtbot, combo: QWidget, value: str) -> None:
    """Down the list by key until ``value`` is chosen (as a referee would)."""
    assert isinstance(combo, QComboBox)
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Home)
    for _ in range(combo.count()):
        if combo.currentData() == value:
            return
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentData() == value, value


def _remove(qtbot, editor: RulebookEditor, where: str) -> None:
    """The 删除 button on the row of the field at ``where``."""
    cell = editor.at[where].parentWidget()
    [button] = [b for b in cell.findChildren(QPushButton) if b.text() == editor.language.tr("editor_remove")]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_the_editor_says_negative_levels_a_tie_by_lots_and_a_throw_by_its_blocker_and_the_table_asks_for_it(
    make_window, pairs_csv, qtbot, tmp_path: Path
) -> None:
    path = tmp_path / "club-2026.toml"
    text = (
        (RULES / "bhg-2011.toml").read_text(encoding="utf-8").replace('id = "bhg-2011"', 'id = "club-2026"')
    )
    path.write_text(text, encoding="utf-8")
    window = make_window()
    editor = RulebookEditor(window.language, path, window)
    qtbot.addWidget(editor)

    # 计分与升级 › 负分处理: 负分继续升级, and its step left out, then typed
    editor.select("scoring")
    _choose(qtbot, editor.at["scoring.negative_total"], "more_levels")
    problems = checked(qtbot, editor)
    assert any(
        "计分与升级 › 负分升级单位：负分处理为“负分继续升级”时必须写负分升级单位" in p for p in problems
    ), problems
    step = editor.at["scoring.negative_step"]
    assert isinstance(step, QLineEdit)
    qtbot.keyClicks(step, "40")
    assert checked(qtbot, editor) == []
    # 每轮比赛 › 同级时胜负: 抽签决定
    editor.select("round")
    tie = editor.at["round.tie"]
    _choose(qtbot, tie, "lots")
    assert tie.currentText() == "抽签决定（lots）"  # type: ignore[attr-defined]
    # 违规：甩错牌: the 10 a card and the rest out, the tiers by the blocking shape in
    editor.select("kind:failed_throw")
    sanction = "infractions.failed_throw.rules[0].sanction"
    _remove(qtbot, editor, f"{sanction}.rest_points_per_card")
    _remove(qtbot, editor, f"{sanction}.points_per_card")
    page = editor.page_area.widget()
    add = page.findChild(QComboBox, f"add-key:{sanction}")
    add.setCurrentIndex(add.findData("points_by_blocker"))
    qtbot.mouseClick(page.findChild(QPushButton, f"add-key-button:{sanction}"), Qt.MouseButton.LeftButton)
    problems = checked(qtbot, editor)
    assert any("至少写一种挡牌牌型的每张罚分" in p for p in problems), problems
    for shape, points in (("single", "10"), ("pair", "20"), ("tractor", "40"), ("long_tractor", "60")):
        retype(qtbot, editor.at[f"{sanction}.points_by_blocker.{shape}"], points)
    assert checked(qtbot, editor) == []
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    assert editor.saved is not None and check_files([str(path)]) == []
    saved = path.read_text(encoding="utf-8")
    assert 'negative_total = "more_levels"\nnegative_step = 40\n' in saved and 'tie = "lots"\n' in saved
    assert "points_by_blocker = { single = 10, pair = 20, tractor = 40, long_tractor = 60 }" in saved
    editor.close()

    # at the table: the failed throw's dialog asks what blocked it, and charges its tier
    info = Session.create_event(
        window.store, "俱乐部赛", load_rulebook(str(path)), "2026-11-30", window.actor
    )
    window.fill_events()
    window.open_event(info.id)
    assert window.import_pairs(str(pairs_csv)) == 4
    window.session.open_table(1, 1, "1", "2", "E")
    window.show_hall()
    window.open_table(1, 1)
    asked: dict = {}

    def log(dialog: QWidget) -> None:
        assert isinstance(dialog, InfractionDialog)
        blocked = dialog.inputs["blocked_by"]
        assert isinstance(blocked, QComboBox) and blocked.currentData() is None  # never guessed
        fill(dialog, "W", {"cards": 2, "trick": 3})
        asked["before"] = dialog.confirm_button.isEnabled()
        fill(dialog, "W", {"blocked_by": "pair"})
        asked["shapes"] = [blocked.itemText(i) for i in range(1, blocked.count())]
        dialog.confirm()

    when_modal(log)
    assert window.table_view.log_infraction("failed_throw")
    assert asked["before"] is False and asked["shapes"] == ["单张", "对子", "拖拉机（两连对）", "三连对以上"]
    _case, decision = stored_decision(window)
    [ruling] = decision["hands"][-1]["rulings"]
    assert ruling["points"] == 40, ruling  # 2 cards blocked by a pair, 20 each


def test_the_editor_follows_a_language_switch_and_names_the_keys_by_their_english_labels(
    make_window, qtbot, tmp_path: Path
) -> None:
    """Issue 25 item 2: "every problem listed at once, each naming the field by its … label";
    in English by its English label, not its path in the file. The window's language switched
    while the editor is open: its pages and problems follow."""
    path = tmp_path / "club-2026.toml"
    text = (
        (RULES / "bhg-2011.toml").read_text(encoding="utf-8").replace('id = "bhg-2011"', 'id = "club-2026"')
    )
    path.write_text(text.replace("fee_yuan = 200", "fee_yuan = -5"), encoding="utf-8")
    window = make_window()
    editor = RulebookEditor(window.language, path, window)
    qtbot.addWidget(editor)
    editor.select("appeal")
    assert any("申诉 › 申诉费（元）：应不小于 0" in p for p in checked(qtbot, editor))
    window.language.set("en")
    problems = checked(qtbot, editor)
    assert problems == ["club-2026.toml: appeal › fee (yuan): expected 0 or more, got -5 (line 105)"], (
        problems
    )
    assert editor.current_key() == "appeal" and editor.save_button.text() == "Save"
    titles = [label.text() for label in editor.page_area.widget().findChildren(QLabel)]
    assert "Appeal" in " ".join(titles) and not any("申诉费" in t for t in titles), titles
    window.language.set("zh")
    assert any("申诉 › 申诉费（元）" in p for p in checked(qtbot, editor))
    editor.reject()  # closed (nothing changed): a later switch is not followed
    window.language.set("en")
    assert editor.save_button.text() != "Save"
