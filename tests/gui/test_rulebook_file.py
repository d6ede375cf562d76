"""The new-event dialog loading a chief referee's rulebook file (issue 25): every problem of
a bad file listed at once in Chinese words with its line, and cleared when a sound file loads."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from referee_app.gui.i18n import Language
from referee_app.gui.new_event import NewEventDialog

from ..conftest import RULES


def test_a_bad_rulebook_lists_every_problem_and_a_good_one_clears_them(qtbot, tmp_path: Path) -> None:
    dialog = NewEventDialog(Language("zh"))
    qtbot.addWidget(dialog)
    dialog.show()
    text = (RULES / "hbue-2018.toml").read_text(encoding="utf-8")
    bad = tmp_path / "draft.toml"
    bad.write_text(
        text.replace('tractor = "linear"', 'tractor = "cubic"').replace("fee_yuan = 0", "fee_yuan = -5", 1),
        encoding="utf-8",
    )
    bundled = dialog.rules.count()
    assert not dialog.load_file(str(bad))
    assert dialog.error.text() == "此规则文件有 2 处问题，无法加载（逐条列在下面）："
    shown = dialog.problems.toPlainText().splitlines()
    assert dialog.problems.isVisible() and len(shown) == 2, shown
    assert shown[0].startswith(f"{bad}：抠底 › 拖拉机抠底倍数：应为") and "行）" in shown[0]
    assert shown[1].startswith(f"{bad}：申诉 › 申诉费（元）：应不小于 0")
    assert dialog.rules.count() == bundled  # nothing added

    good = tmp_path / "club.toml"
    good.write_text(text.replace('id = "hbue-2018"', 'id = "club-2026"'), encoding="utf-8")
    assert dialog.load_file(str(good))
    assert dialog.error.text() == "" and not dialog.problems.isVisible()
    assert dialog.problems.toPlainText() == ""
    assert dialog.rulebook is not None and dialog.rulebook.id == "club-2026"
    assert dialog.rules.currentText().endswith(f"({good})")


def test_new_rulebook_copies_a_bundled_one_to_the_file_typed_and_loads_it(qtbot, tmp_path: Path) -> None:
    """新建规则… from the new-event dialog: the bundled rulebook chosen there, a new id and a
    file typed, OK: the file is written (a copy under the new id) and becomes the event's
    rulebook; a file that exists is refused beside the fields."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QDialogButtonBox

    from referee_app.gui.rulebook_dialogs import NewRulebookDialog
    from referee_app.gui.rulebook_editor import RulebookEditor

    from .conftest import when_shown

    dialog = NewEventDialog(Language("zh"))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.rules.setCurrentIndex(dialog.rules.findText("甘肃省职工双升级扑克牌比赛（2018）"))
    target = tmp_path / "club.toml"
    seen: list[str] = []

    def fill() -> None:
        new = QApplication.activeModalWidget()
        assert isinstance(new, NewRulebookDialog)
        seen.append(new.base.currentData())
        qtbot.keyClicks(new.rule_id, "club-2026")
        new.path.clear()
        qtbot.keyClicks(new.path, str(target))
        # OK opens the copy in the rulebook editor (tests/gui/test_rulebook_editor.py): closed here
        when_shown(RulebookEditor, lambda editor: (seen.append(editor.draft.path.name), editor.reject()))
        qtbot.mouseClick(new.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, fill)
    assert dialog.new_rulebook() == target
    assert seen == ["gansu-2018", "club.toml"]
    assert 'id = "club-2026"' in target.read_text(encoding="utf-8")
    assert dialog.rulebook is not None and dialog.rulebook.id == "club-2026"
    assert dialog.rules.currentText().endswith(f"({target})") and dialog.error.text() == ""

    again = NewRulebookDialog(Language("zh"), "bhg-2011")
    qtbot.addWidget(again)
    qtbot.keyClicks(again.rule_id, "club-2027")
    again.path.clear()
    qtbot.keyClicks(again.path, str(target))
    assert not again.make()
    assert again.error.text().endswith(f"{target}：文件已存在。"), again.error.text()
    assert 'id = "club-2026"' in target.read_text(encoding="utf-8")


def test_the_trial_dialog_shows_the_differing_samples_in_red_beside_the_bundled_rulings(
    qtbot, tmp_path: Path
) -> None:
    from referee_app.app.rulebooks import new_rulebook_text
    from referee_app.core.rulebook import rulebook_from_text
    from referee_app.gui.rulebook_dialogs import TrialDialog

    text = new_rulebook_text("club-2026", "bhg-2011").replace('tractor = "power"', 'tractor = "linear"', 1)
    draft = rulebook_from_text(text, "club.toml")
    trial = TrialDialog(Language("zh"), draft)
    qtbot.addWidget(trial)
    trial.resize(1100, 640)
    trial.show()
    assert trial.against.currentData() == "bhg-2011"  # the one it was copied from
    assert trial.run()
    shown = trial.report.toPlainText()
    assert "≠ bhg-1-12-bottom-tractor-3-pairs.json：判罚不同" in shown
    assert "\nbhg-2011：第 1 副：防守方得80分，南北方上庄，下一副北家坐庄。\n" in shown
    assert "#c62828" in trial.report.toHtml()  # the differing samples in red
    assert (
        trial.summary.text().endswith("与内置规则 bhg-2011 的判罚不同。")
        and "有 0 个" not in trial.summary.text()
    )

    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    trial.add_case_files([bad])
    assert trial.own_label.text() == "自带案例 1 个"
    assert trial.summary.text().startswith(f"{bad}：不是有效的 JSON")


def test_an_event_kind_gets_a_button_at_the_table_and_is_judged_when_logged(make_window, pairs_csv) -> None:
    """An event pinned to a rulebook with a kind of its own (使用手机, tests/test_event_kinds.py):
    the table has its button, labelled from the rulebook, and logging it stores its ruling."""
    from referee_app.app.session import Session
    from referee_app.core.rulebook import rulebook_from_text

    from ..test_event_kinds import PHONE
    from .conftest import when_modal
    from .test_table_referee import fill, stored_decision

    text = (
        (RULES / "bhg-2011.toml").read_text(encoding="utf-8").replace('id = "bhg-2011"', 'id = "club-2026"')
    )
    window = make_window()
    info = Session.create_event(
        window.store, "俱乐部赛", rulebook_from_text(text + PHONE, "club.toml"), "2026-12-05", window.actor
    )
    window.fill_events()
    window.open_event(info.id)
    assert window.import_pairs(str(pairs_csv)) == 4
    window.session.open_table(1, 1, "1", "2", "E")
    window.show_hall()
    window.open_table(1, 1)
    view = window.table_view
    assert view.kind_buttons["phone_use"].text().startswith("使用手机")
    when_modal(lambda dialog: (fill(dialog, "S", {"trick": 3}), dialog.confirm()))
    assert view.log_infraction("phone_use")
    case, decision = stored_decision(window)
    assert case["hands"][-1]["infractions"][-1]["kind"] == "phone_use"
    [ruling] = decision["hands"][-1]["rulings"]
    assert ruling["warning"] and ruling["text"].startswith("使用手机（南）：警告")
