"""Issue 9, item 4: a refused action in the Chinese window is said in Chinese only (no English,
no command-line flag), from the error's code, and the widget of the field it is about has
the focus. Real widgets, a real store."""

from __future__ import annotations

import re
from datetime import timedelta

from referee_app.core import editing
from referee_app.store import audit
from referee_app.store.errors import InputError

from .conftest import open_event_with_table, when_modal

#: What a Chinese message may carry in ASCII: numbers, times, and these tokens.
ALLOWED = {"PIN", "PDF", "QR", "CSV", "JSON", "NS", "EW"}


def chinese_only(text: str) -> bool:
    words = [w for w in re.findall(r"[A-Za-z_]{3,}", text) if w not in ALLOWED]
    return bool(text) and not words and "--" not in text and bool(re.search(r"[\u4e00-\u9fff]", text))


def test_a_late_appeal_is_refused_in_chinese_and_focuses_the_acceptance(
    make_window, pairs_csv, monkeypatch
) -> None:
    window = make_window("zh")
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    exposed = {"kind": "exposed_card", "seat": "W", "cards": 1, "trick": 2}
    case = editing.complete_hand(editing.add_infraction(view.record.case, exposed), 60)
    view.load(window.session.save(view.record, editing.end_on_time(case)))  # the round has ended
    view.rulings_view.selectRow(0)
    real = audit.store_clock  # an hour after the round's end: past BHG's appeal window
    monkeypatch.setattr(audit, "store_clock", lambda conn: real(conn) + timedelta(hours=1))
    seen: dict = {}

    def refused(dialog) -> None:
        seen["error"] = dialog.error.text()
        seen["shown"] = dialog.error.isVisible() and dialog.accept_late.isVisible()
        seen["focus"] = dialog.focusWidget() is dialog.accept_late
        # what was typed stays; the chief referee's acceptance without its reason is refused
        seen["kept"] = dialog.grounds.toPlainText()
        dialog.reject()

    def file(dialog) -> None:
        dialog.grounds.setPlainText("牌是掉出来的，不是亮牌。")
        dialog.receipt.setText("R-1")
        when_modal(refused)  # the dialog comes back, saying why
        dialog._accept()

    when_modal(file)
    assert view.file_appeal() is None
    assert seen["shown"] and seen["focus"] and seen["kept"] == "牌是掉出来的，不是亮牌。"
    assert "申诉期结束后" in seen["error"] and "不予受理" in seen["error"], seen["error"]
    assert chinese_only(seen["error"]), seen["error"]


def test_a_refused_decision_names_the_field_in_chinese_and_focuses_it(make_window, qtbot) -> None:
    """The store's refusal (here: a reason of blanks the dialog lets through) reaches the
    dialog as its code and field: the reason box gets the focus."""
    from referee_app.gui.appeals import DecideDialog

    window = make_window("zh")
    ruling = {"text": "西家亮牌一张"}
    dialog = DecideDialog(window.language, {"id": 1, "ruling": ruling}, window)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.choice["rejected"].setChecked(True)  # the committee's choice (none is suggested)
    dialog.reason.setPlainText("经查录像")
    dialog.committee.setText("委员甲")

    def refuse() -> None:
        raise InputError(
            "--reason: a decision needs its reasons in writing",
            code="appeal.decision_reason_missing",
            field="reason",
        )

    dialog.act = refuse
    dialog.committee.setFocus()
    dialog._accept()
    assert dialog.error.text() == "理由：裁决须写明理由。"
    assert chinese_only(dialog.error.text())
    assert dialog.focusWidget() is dialog.reason and dialog.result() == 0
    # the same refusal in the English window: English words, still no flag
    window.language.set("en")
    dialog._accept()
    assert dialog.error.text() == "reason: a decision needs its reasons in writing"
    window.language.set("zh")


def test_a_role_refusal_in_the_chinese_window(make_window, pairs_csv) -> None:
    """A store refusal with values (the action, the roles it needs, the actor's role) is
    worded in Chinese from the catalogue: no English role or action names."""
    from referee_app.app.messages import describe
    from referee_app.store.errors import RoleError

    window = make_window("zh")
    err = RoleError(
        "match.correct needs the chief referee's PIN (you are: table referee)",
        code="role.refused",
        action="match.correct",
        needs=["chief_referee"],
        role="table_referee",
    )
    text = describe(err, window.language.lang)
    assert text == "更正记录需要裁判长的 PIN（当前角色：裁判员）。" and chinese_only(text)


def test_the_window_says_plurals_in_english(make_window) -> None:
    window = make_window("en")
    tr = window.language.tr
    assert tr("pairs_imported", count=1) == "1 pair imported."
    assert tr("pairs_imported", count=8) == "8 pairs imported."
    window.language.set("zh")
    assert tr("pairs_imported", count=1) == "已导入 1 对。"
