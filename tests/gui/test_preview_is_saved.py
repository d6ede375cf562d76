"""The ruling preview is the decision that will be saved, and nothing is logged into a hand
that has ended (Gansu 六、六、E: 该副牌立即结束; 累计三次传递非法信息的，取消违规方比赛资格)."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from referee_app.gui.infraction_dialog import InfractionDialog

from .conftest import open_event_with_table, when_modal
from .test_table_referee import fill, stored_decision


def signal(view, seat: str, trick: int) -> None:
    when_modal(lambda dialog: (fill(dialog, seat, {"trick": trick}), dialog.confirm()))
    assert view.log_infraction("illegal_signal")


def score(view, points: str) -> None:
    view.defender_points.edit.setText(points)
    view.confirm_hand()


def test_nothing_is_logged_into_a_hand_that_ended_at_once(make_window, pairs_csv) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    view = window.table_view
    signal(view, "N", 3)
    seen: dict[str, str] = {}

    def refused(box) -> None:
        assert isinstance(box, QMessageBox)
        seen["text"] = box.text()
        box.close()

    when_modal(refused)
    assert not view.log_infraction("exposed_card")
    assert "已立即结束" in seen["text"] and "第 1 副" in seen["text"]
    case, _ = stored_decision(window)
    assert len(case["hands"][0]["infractions"]) == 1  # nothing added to the ended hand
    # the app refuses it too, whatever the window does
    from referee_app.core import editing
    from referee_app.core.errors import CaseError

    record = view.record
    try:
        window.session.save(record, editing.add_infraction(record.case, {"kind": "delay", "seat": "E"}))
    except CaseError as exc:
        assert exc.code == "case.logged_after_end"
    else:
        raise AssertionError("saved into an ended hand")


def test_the_third_signal_previews_the_disqualification_and_the_lost_round(make_window, pairs_csv) -> None:
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    view = window.table_view
    signal(view, "N", 3)
    score(view, "40")
    signal(view, "S", 5)
    score(view, "40")
    seen: dict[str, str] = {}

    def look(dialog: InfractionDialog) -> None:
        fill(dialog, "N", {"trick": 2})
        seen["preview"] = dialog.preview_label.text()
        dialog.confirm()

    when_modal(look)
    assert view.log_infraction("illegal_signal")
    preview = seen["preview"]
    assert "取消南北方比赛资格" in preview  # the step, on this ruling
    assert "本轮判负" in preview and "南北 0 : 东西 2" in preview  # and what it does to the round
    _, decision = stored_decision(window)
    assert decision["forfeit"]["side"] == "NS"
    third = decision["hands"][2]["rulings"][0]
    assert third["disqualified"] and third["occurrence"] == 3
    assert not any(r["disqualified"] for h in decision["hands"][:2] for r in h["rulings"])


def test_a_trickless_offence_in_a_hand_placed_by_tricks_asks_for_its_trick(make_window, pairs_csv) -> None:
    """Without its trick a second signal would be counted before the first (placed before the
    first trick) and the earlier ruling would take the escalation: the trick is required."""
    window = make_window()
    open_event_with_table(window, "gansu-2018", pairs_csv)
    view = window.table_view
    when_modal(lambda dialog: (fill(dialog, "N", {"severity": "light", "trick": 4}), dialog.confirm()))
    assert view.log_infraction("exposed_card")
    seen: dict[str, bool] = {}

    def look(dialog: InfractionDialog) -> None:
        fill(dialog, "E", {"severity": "light"})
        seen["enabled_without_trick"] = dialog.confirm_button.isEnabled()
        fill(dialog, "E", {"trick": 6})
        seen["enabled_with_trick"] = dialog.confirm_button.isEnabled()
        dialog.confirm()

    when_modal(look)
    assert view.log_infraction("exposed_card")
    assert seen == {"enabled_without_trick": False, "enabled_with_trick": True}
