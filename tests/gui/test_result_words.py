"""The table's result line says 平局 for a 1:1 round, never 「平局胜」 (issue 23)."""

from __future__ import annotations

from .conftest import open_event_with_table


def test_a_drawn_round_reads_draw_not_draw_win(make_window, pairs_csv) -> None:
    # 000 比赛方法「胜者得积分2分，平得1分」: equal levels at time, 1:1
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    case = dict(view.record.case, hands=[{"defender_points": 80, "infractions": []}], finished="time")
    record = window.session.save(view.record, case)
    assert record.decision["result"]["decided_by"] == "tie_draw"
    view.load(record)
    view.retranslate()
    assert view.status.text().startswith("本轮结果：平局　积分 南北1 : 东西1"), view.status.text()
    assert "平局胜" not in view.status.text()
    window.act_lang.trigger()
    assert window.language.lang == "en"
    assert view.status.text().startswith("Result: Draw   match points NS 1 : EW 1"), view.status.text()
