"""The chief referee turns the hall web page on from the window, sees its address, its QR code
and how many phones read it, and stops it in one click (issue 29)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from referee_app.app.session import Session
from referee_app.core.rulebook import load_rulebook


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_chief_referee_starts_reads_and_stops_the_hall_web_page(
    make_window, pairs_csv, qtbot, tmp_path: Path
) -> None:
    window = make_window()
    info = Session.create_event(
        window.store, "网页测试赛", load_rulebook("gansu-2018"), "2026-11-30", window.actor
    )
    window.fill_events()
    window.open_event(info.id)
    window.import_pairs(str(pairs_csv))
    session = window.session
    rp = session.round_pairing(1)
    session.publish_pairing(rp, rp.check()[1])
    assert window.act_hall_web.isEnabled()
    window.act_hall_web.trigger()
    dialog = window.hall_web
    assert dialog is not None and dialog.isVisible() and not dialog.running
    assert dialog.state.text() == "网页未开启。" and not dialog.stop_button.isEnabled()
    assert (
        dialog.interface.itemData(0) == "127.0.0.1"
        and dialog.interface.itemData(dialog.interface.count() - 1) == "0.0.0.0"
    )
    dialog.interface.setCurrentIndex(0)
    port = _free_port()
    dialog.port.setValue(port)
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    url = f"http://127.0.0.1:{port}/"
    assert dialog.running and dialog.address.text() == url and not dialog.start_button.isEnabled()
    with urllib.request.urlopen(url + "tables", timeout=10) as r:
        page = r.read().decode()
    assert "第1轮对阵" in page and "张三" in page
    qtbot.waitUntil(lambda: dialog.readers.text() == "正在查看的手机：1 部（最近一分钟）", timeout=10000)
    assert window.hall_web_url() == url  # what a pairing printed now carries as its QR code
    if shutil.which("zbarimg"):  # the QR code shown reads back as the address
        png = tmp_path / "qr.png"
        assert dialog.qr.pixmap().save(str(png))
        read = subprocess.run(
            ["zbarimg", "--raw", "-q", str(png)], capture_output=True, text=True, timeout=30
        )
        assert read.stdout.strip() == url
    qtbot.mouseClick(dialog.stop_button, Qt.MouseButton.LeftButton)
    assert not dialog.running and dialog.state.text() == "网页未开启。" and dialog.address.text() == ""
    assert window.hall_web_url() is None
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url, timeout=5)


def test_a_port_in_use_is_said_in_the_dialog(make_window, pairs_csv, qtbot) -> None:
    window = make_window("en")
    info = Session.create_event(
        window.store, "Web test", load_rulebook("gansu-2018"), "2026-11-30", window.actor
    )
    window.fill_events()
    window.open_event(info.id)
    window.act_hall_web.trigger()
    dialog = window.hall_web
    assert dialog is not None
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        dialog.port.setValue(busy.getsockname()[1])
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
        assert not dialog.running and "the page cannot be served here" in dialog.problem.text()
    assert dialog.start_button.isEnabled() and dialog.state.text() == "The page is off."


def test_the_hall_display_shows_the_pages_qr_code(qtbot, tmp_path: Path) -> None:
    from referee_app.app.session import Session as S
    from referee_app.gui.hall_display import HallDisplay
    from referee_app.store.service import Actor, Store

    db = str(tmp_path / "hall.db")
    with Store.open(db, create=True, actor=Actor("裁判长", "desk")) as s:
        ev = s.create_event(
            name="大屏测试", rulebook=load_rulebook("gansu-2018"), date=None, actor=Actor("裁判长", "desk")
        )
    store = Store.open(db, actor=Actor("大屏", "hall"))
    try:
        plain = HallDisplay(S(store, store.pick_event(ev.id), Actor("大屏", "hall")), poll_ms=1000)
        qtbot.addWidget(plain)
        assert not plain.web_qr.isVisibleTo(plain)
        url = "http://192.168.10.20:8080/"
        view = HallDisplay(
            S(store, store.pick_event(ev.id), Actor("大屏", "hall")), poll_ms=1000, web_url=url
        )
        qtbot.addWidget(view)
        assert view.web_qr.isVisibleTo(view) and url in view.web_caption.text()
        if shutil.which("zbarimg"):
            png = tmp_path / "hall-qr.png"
            assert view.web_qr.pixmap().save(str(png))
            read = subprocess.run(
                ["zbarimg", "--raw", "-q", str(png)], capture_output=True, text=True, timeout=30
            )
            assert read.stdout.strip() == url
    finally:
        store.close()
