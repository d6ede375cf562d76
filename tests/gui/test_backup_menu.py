"""文件 → 备份… / 恢复… (issue 24 item 9): the window backs the store up while it is open,
shows the copy's head hash to note, restores a backup after asking, and says why it will not
restore a store another station has open."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from referee_app.app.session import Session
from referee_app.core.rulebook import load_rulebook
from referee_app.store.service import Store

from .conftest import type_path, when_modal


def _menu_action(window, menu_title: str, text: str):
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == menu_title)
    return next(a for a in menu.actions() if a.text() == text)


def _choose_file(path: Path, then=None):
    def choose(dialog) -> None:
        assert isinstance(dialog, QFileDialog)
        if then is not None:
            when_modal(then)
        type_path(dialog, path)
        dialog.accept()

    return choose


def _event(window, name: str) -> int:
    info = Session.create_event(window.store, name, load_rulebook("bhg-2011"), "2026-12-04", window.actor)
    window.fill_events()
    return info.id


def test_backup_and_restore_from_the_file_menu(make_window, tmp_path: Path, db_path: Path) -> None:
    window = make_window()
    window.open_event(_event(window, "备份杯"))
    backup = tmp_path / "备份.db"
    seen: dict[str, str] = {}

    def done(box) -> None:
        seen["backup"] = box.text()
        box.accept()

    when_modal(_choose_file(backup, then=done))
    _menu_action(window, "文件(&F)", "备份…").trigger()
    assert backup.exists()
    with Store.open(str(backup), read_only=True) as copy:
        result = copy.verify()
    assert result.ok and result.head_hash in seen["backup"] and "已通过审计链核对" in seen["backup"]

    _event(window, "备份之后的赛事")  # saved after the backup: gone once it is restored
    assert window.welcome.events.count() == 2

    def confirm(box) -> None:
        assert isinstance(box, QMessageBox) and "备份之后保存的记录将不复存在" in box.text()
        when_modal(restored)
        box.button(QMessageBox.StandardButton.Yes).click()

    def restored(box) -> None:
        seen["restore"] = box.text()
        box.accept()

    when_modal(_choose_file(backup, then=confirm))
    _menu_action(window, "文件(&F)", "恢复…").trigger()
    assert "已从" in seen["restore"] and window.session is None
    assert [ev.name for ev in window.store.list_events()] == ["备份杯"]
    assert window.welcome.events.count() == 1
    log = window.store.log()
    assert [e["action"] for e in log][-1] == "store.restore"
    assert window.store.verify().ok


def test_restore_is_refused_while_another_station_has_the_store_open(
    make_window, tmp_path: Path, db_path: Path
) -> None:
    from referee_app.store.walholder import WalHolder

    window = make_window()
    window.open_event(_event(window, "占用杯"))
    backup = tmp_path / "b.db"
    when_modal(lambda box: box.accept())  # the copy's head hash, shown to note
    assert window.backup_store(str(backup)) is not None and backup.exists()
    before = window.store.audit_head()
    other = WalHolder.start(db_path, wait=True)  # another window's hold on the file
    assert other is not None
    seen: dict[str, str] = {}

    def confirm(box) -> None:
        when_modal(refused)
        box.button(QMessageBox.StandardButton.Yes).click()

    def refused(box) -> None:
        seen["title"], seen["text"] = box.windowTitle(), box.text()
        box.accept()

    try:
        when_modal(confirm)
        assert window.restore_store(str(backup)) is None
    finally:
        other.stop()
    assert seen["title"] == "未能恢复" and "正在使用" in seen["text"]
    assert window.store.audit_head() == before and window.session is not None


def test_the_hall_tells_of_unregistered_keys_and_of_no_anchor_since_the_round_ended(
    make_window, tmp_path: Path
) -> None:
    window = make_window()
    event_id = _event(window, "锚点杯")
    window.open_event(event_id)
    notice = window.hall.trust_notice
    assert notice.isVisible() and "尚未登记站点密钥" in notice.text()
    assert "锚点" not in notice.text()  # no round has ended yet

    # the chief referee ends round 1 (here as another station would: the window follows)
    window.store.add_desk_record(event_id, "round_end", 1, {}, actor=window.actor)
    window.watcher.poll()
    assert "第 1 轮结束后尚未保存锚点" in notice.text()

    anchors = tmp_path / "anchors.txt"
    seen: dict[str, str] = {}

    def kept(box) -> None:
        seen["text"] = box.text()
        box.accept()

    when_modal(_choose_file(anchors, then=kept))
    _menu_action(window, "文件(&F)", "保存锚点…").trigger()
    line = anchors.read_text(encoding="utf-8").strip()
    assert line.startswith("RA1:") and line in seen["text"]
    assert "锚点" not in notice.text() and "尚未登记站点密钥" in notice.text()
    with Store.open(window.store.where, read_only=True) as store:
        from referee_app.app.store import parse_anchor

        result = store.verify(None, [parse_anchor(line, "anchors")])
    assert result.ok

    window.language.set("en")
    assert "Station keys are not registered yet" in notice.text()
