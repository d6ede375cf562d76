"""The new-event dialog loading a chief referee's rulebook file (issue 25): every problem of
a bad file listed at once in Chinese words with its line, and cleared when a sound file loads."""

from __future__ import annotations

from pathlib import Path

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
