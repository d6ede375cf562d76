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


def test_a_tie_left_to_lots_reads_awaiting_the_lots_not_draw(make_window, pairs_csv, tmp_path) -> None:
    """Issue 25 / DOMAIN §5 "Level tie on time: … lots, or the referee decides": a club's
    "比赛时间到双方级数相同时，抽签决定胜负" — the table says what the result awaits, no points."""
    from referee_app.app.session import Session
    from referee_app.core.rulebook import load_rulebook

    from ..conftest import RULES

    path = tmp_path / "club-2026.toml"
    text = (
        (RULES / "bhg-2011.toml").read_text(encoding="utf-8").replace('id = "bhg-2011"', 'id = "club-2026"')
    )
    path.write_text(text.replace('tie = "draw"', 'tie = "lots"', 1), encoding="utf-8")
    window = make_window()
    info = Session.create_event(
        window.store, "俱乐部赛", load_rulebook(str(path)), "2026-11-30", window.actor
    )
    window.fill_events()
    window.open_event(info.id)
    assert window.import_pairs(str(pairs_csv)) == 4
    window.session.open_table(1, 1, "1", "2", "E")
    window.show_hall()
    window.open_table(1, 1)
    view = window.table_view
    case = dict(view.record.case, hands=[{"defender_points": 80, "infractions": []}], finished="time")
    record = window.session.save(view.record, case)
    view.load(record)
    view.retranslate()
    assert view.status.text().startswith("本轮结果：级数相同，待抽签决定胜负　积分 南北0 : 东西0"), (
        view.status.text()
    )
