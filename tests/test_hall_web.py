"""The hall web page (issue 29): players read the published pairing, the standings, the clock
and a knockout's bracket on their phones; nothing unpublished is ever sent; a client that
asks too often is told to wait; the page follows the store by itself.

A real server on loopback over a real SQLite store, asked with real HTTP requests (and real
headless chromium at phone width for what a phone shows)."""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee_app.app.hall_public import public_view
from referee_app.app.session import Session
from referee_app.app.store import open_store
from referee_app.hallweb.server import HallWeb, RequestLimit
from referee_app.store.service import Store
from tests.hall_web_event import CHIEF, SECRETS, make_event, make_knockout, result


def get(
    hw: HallWeb, path: str, method: str = "GET", source: str = "127.0.0.1"
) -> tuple[int, str, dict[str, str]]:
    """One request as a phone sends it; the path exactly as given (not normalised)."""
    assert hw.bound is not None
    conn = http.client.HTTPConnection(hw.bound[0], hw.bound[1], timeout=10, source_address=(source, 0))
    try:
        conn.request(method, path)
        r = conn.getresponse()
        return r.status, r.read().decode("utf-8", "replace"), {k.lower(): v for k, v in r.getheaders()}
    finally:
        conn.close()


def raw(hw: HallWeb, request: bytes) -> tuple[int, str]:
    """A request line as bytes (odd encodings no client library would send)."""
    assert hw.bound is not None
    with socket.create_connection(hw.bound, timeout=10) as s:
        s.sendall(request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    return status, body.decode("utf-8", "replace")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HallWeb, str]]:
    db = str(tmp_path_factory.mktemp("hallweb") / "hall.db")
    eid, _other = make_event(db, 9)
    store = open_store(db, read_only=True)
    hw = HallWeb(store, eid, port=0, limit=RequestLimit(per_s=1000, burst=100000))
    hw.start()
    yield hw, db
    hw.close()
    store.close()


def test_a_pair_finds_its_table_by_number_name_or_its_own_link(served: tuple[HallWeb, str]) -> None:
    hw, _ = served
    view = hw.view
    assert view is not None and view.pairing is not None and view.pairing.round == 2
    t = view.pairing.tables[1]
    status, body, headers = get(hw, f"/me?q={t.ns}")
    assert status == 200 and f"第2轮：{t.table}号桌" in body and "方位：南北" in body
    assert f"对手：第 {t.ew} 对" in body and headers["content-type"].startswith("text/html")
    assert f'href="/pair/{t.ns}"' in body  # the pair's own link
    name = view.pair(t.ew).players[0]  # type: ignore[union-attr]
    from urllib.parse import quote

    status, body, _ = get(hw, f"/me?q={quote(name)}")
    assert status == 200 and (f"{t.table}号桌" in body or "找到多个参赛对" in body)
    status, body, _ = get(hw, f"/pair/{t.ew}?lang=en")
    assert status == 200 and f"Round 2: table {t.table}" in body and "Sitting: East–West" in body
    assert view.pairing.bye is not None
    status, body, _ = get(hw, f"/pair/{view.pairing.bye}")
    assert "第2轮：本对轮空" in body
    status, body, _ = get(hw, "/me?q=" + quote("没有这个人"))
    assert status == 200 and "没有找到“没有这个人”" in body


def test_the_pages_show_the_published_pairing_standings_and_clock(served: tuple[HallWeb, str]) -> None:
    hw, _ = served
    view = hw.view
    assert view is not None and view.pairing is not None
    status, tables, _ = get(hw, "/tables")
    assert status == 200 and "第2轮对阵" in tables and "已结束" in tables and "未开始" in tables
    assert 'name="viewport"' in tables and 'http-equiv="refresh" content="5"' in tables
    assert "数据更新于" in tables
    status, names, _ = get(hw, "/names?lang=en")
    assert status == 200 and "Round 2 pairing" in names and "Last changed at" in names
    for p in view.pairs:
        for n in p.players:
            assert n in names
    # in 拼音 order, as the printed list by name (not by character code)
    from referee_app.core.names import name_sort_key

    seated = {view.pairing.bye} | {x for t in view.pairing.tables for x in (t.ns, t.ew)}
    shown = [n for p in view.pairs if p.number in seated for n in p.players]
    assert sorted(shown, key=lambda n: names.index(f">{n}<")) == sorted(shown, key=name_sort_key)
    status, standings, _ = get(hw, "/standings")
    # round 2 is in progress: the standings are after round 1, with the tie-break columns
    assert status == 200 and "第1轮后排名" in standings and "级差分" in standings and "对手分" in standings
    status, clock, _ = get(hw, "/clock")
    assert status == 200 and "进行中" in clock and 'data-ends="' in clock and "/tick.js" in clock
    status, script, headers = get(hw, "/tick.js")
    assert status == 200 and headers["content-type"].startswith("application/javascript")
    status, _, _ = get(hw, "/bracket")
    assert status == 404  # not a knockout
    assert hw.readers() >= 1


def test_the_chinese_page_links_to_the_same_page_in_english(served: tuple[HallWeb, str]) -> None:
    hw, _ = served
    _, body, _ = get(hw, "/standings")
    assert 'href="/standings?lang=en"' in body and 'href="/tables"' in body
    _, body, _ = get(hw, "/standings?lang=en")
    assert 'href="/standings"' in body and 'href="/tables?lang=en"' in body
    _, body, _ = get(hw, "/me?q=3&lang=en")
    assert 'href="/me?q=3"' in body


def _everything_a_visitor_might_try(hw: HallWeb) -> list[str]:
    view = hw.view
    assert view is not None
    paths = ["/", "/me", "/tables", "/names", "/standings", "/clock", "/bracket", "/tick.js"]
    paths += [f"/pair/{p.number}" for p in view.pairs]
    odd = [
        "/pair/0",
        "/pair/-1",
        "/pair/99999999999999999999999999",
        "/pair/1e9",
        "/pair/%31",
        "/pair/01",
        "/pair/1/../../etc/passwd",
        "/pair/..%2F..%2Fpyproject.toml",
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/static/../hall.db",
        "/hall.db",
        "/.git/config",
        "/pyproject.toml",
        "/tick.js/../../etc/passwd",
        "//etc/passwd",
        "/tables/",
        "/TABLES",
        "/event/2/tables",
        "/events",
        "/api",
        "/store",
        "/admin",
        "/debug",
        "/__debug__",
        "/favicon.ico",
        "/robots.txt",
        "/pair/",
        "/pair",
        "/me/1",
        "/%00",
        "/pair/%00",
        "/pair/%FF",
        "/me?q=%FF%FE",
        "/me?q=%00",
        "/me?q=%0d%0aX:1",
        "/me?q=" + "x" * 5000,
        "/me?q=-1",
        "/me?q=0",
        "/me?q=99999999999999999999",
        "/me?q=%E9%9A%90%E8%97%8F",
        "/me?q=%3Cscript%3Ealert(1)%3C/script%3E",
        "/me?q=%27%20OR%201=1--",
    ]
    params = [
        "round=3",
        "round=2",
        "round=1",
        "round=-1",
        "round=0",
        "round=99999999999",
        "round=abc",
        "event=2",
        "event=1",
        "event=-1",
        "version=1",
        "version=0",
        "lang=xx",
        "lang=../../etc",
        "lang=en&round=3",
        "q=%E5%86%85%E9%83%A8",
        "status=proposal",
        "proposal=1",
        "seed=99",
    ]
    for page in ("/", "/tables", "/names", "/standings", "/clock", "/me", "/pair/1"):
        paths += [f"{page}?{p}" for p in params]
    return paths + odd


def test_nothing_unpublished_is_ever_in_a_response(served: tuple[HallWeb, str]) -> None:
    """Every path and parameter we could think of, every method: the other event, the PIN,
    the next round's kept proposal, the standings of the round in progress, the store's
    file: none of it is ever sent, and nothing fails inside (no 500)."""
    hw, db = served
    secrets = [*SECRETS, db, Path(db).name, "proposal", "seed", "sqlite", "Traceback"]
    seen = 0
    for path in _everything_a_visitor_might_try(hw):
        for method in ("GET", "HEAD"):
            status, body, headers = get(hw, path, method)
            assert status in (200, 400, 404), (path, method, status)
            assert "server" not in headers, headers
            for s in secrets:
                assert s not in body, (path, s)
            seen += 1
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND"):
        for path in ("/", "/tables", "/pair/1", "/me?q=1", "/nowhere"):
            status, body, headers = get(hw, path, method)
            assert status in (404, 405), (method, path, status)
            assert all(s not in body for s in secrets)
            if status == 405:
                assert headers["allow"] == "GET, HEAD" and "本页只供查看" in body
    for line in (
        b"GET /me?q=\xff\xfe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        b"GET /pair/\xe5\xbc\xa0 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        b"GET ../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        b"GET http://other.example/tables?round=3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        b"GET /tables HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc",
        b"POST /tables HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n"
        + b"x" * 5000,
        b"BREW /tables HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    ):
        status, body = raw(hw, line)
        assert status in (200, 400, 404, 405, 413), (line, status)
        assert all(s not in body for s in secrets), line
    assert seen > 300


def test_a_client_that_asks_too_often_is_told_to_wait(served: tuple[HallWeb, str]) -> None:
    assert served[0].view is not None
    store = open_store(served[1], read_only=True)
    hw = HallWeb(store, served[0].view.event_id, port=0, limit=RequestLimit(per_s=0.05, burst=5))
    hw.start()
    try:
        answers = [get(hw, "/tables")[0] for _ in range(5)]
        status, body, headers = get(hw, "/tables")
        assert answers == [200] * 5 and status == 429
        assert int(headers["retry-after"]) >= 1 and "请求过于频繁" in body
        # another phone is not held back by the first one
        assert get(hw, "/tables", source="127.0.0.2")[0] == 200
        assert hw.readers() == 2
    finally:
        hw.close()
        store.close()


def test_the_request_limit_refills_and_forgets_the_longest_idle() -> None:
    now = [0.0]
    limit = RequestLimit(per_s=1.0, burst=3, max_clients=2, clock=lambda: now[0])
    assert [limit.allow("a") for _ in range(4)] == [True, True, True, False]
    now[0] += 1.0
    assert limit.allow("a") and not limit.allow("a")
    limit.allow("b")
    limit.allow("c")  # three clients: "a", the longest idle, is forgotten
    assert set(limit._buckets) == {"b", "c"}


def test_the_page_follows_the_store_and_says_when_it_changed(tmp_path: Path) -> None:
    db = str(tmp_path / "follow.db")
    eid, _ = make_event(db, 4, rounds=1, proposal=False, pin=False)
    store = open_store(db, read_only=True)
    hw = HallWeb(store, eid, port=0, poll_s=0.05)
    hw.start()
    desk = Store.open(db, actor=CHIEF)
    try:
        first = hw.changed_at
        # a kept proposal for round 2 changes the store, not what the hall sees
        desk.add_desk_record(
            eid,
            "proposal",
            2,
            {"method": "entered", "seed": 7, "tables": [[1, "1", "2"]], "bye": None},
            actor=CHIEF,
        )
        head = desk.audit_head()[0]
        _wait(lambda: hw._head == head)
        assert hw.changed_at == first and "第2轮" not in get(hw, "/tables")[1]
        session = Session(desk, desk.pick_event(eid), CHIEF)
        for t in session.round_pairing(1).pairing.tables[1:]:
            desk.record(eid, result(1, t.table, t.ns, t.ew), actor=CHIEF, lang="zh")
        _wait(lambda: "第1轮后排名" in get(hw, "/standings")[1])
        rp = session.round_pairing(2)
        session.publish_pairing(rp, rp.check()[1])
        _wait(lambda: "第2轮对阵" in get(hw, "/tables")[1])
        assert hw.changed_at > first
    finally:
        desk.close()
        hw.close()
        store.close()


def _wait(cond: object, timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError("the page did not follow the store")


def test_a_knockout_shows_its_bracket_with_the_complete_rounds_only(tmp_path: Path) -> None:
    db = str(tmp_path / "ko.db")
    eid = make_knockout(db)
    with Store.open(db, actor=CHIEF) as desk:
        view = public_view(desk, eid)
        assert view.knockout and view.bracket is not None and view.pairing is not None
        assert {m.round for m in view.bracket.matches} == {1}  # round 2 is published, not played
        assert all(m.winner for m in view.bracket.matches)
        t = view.pairing.tables[0]
        desk.record(eid, result(2, t.table, t.ns, t.ew) | {"event": "hbue-2018"}, actor=CHIEF, lang="zh")
        # round 2's first result is not the hall's yet: its other tables are still playing
        assert {m.round for m in public_view(desk, eid).bracket.matches} == {1}  # type: ignore[union-attr]
    store = open_store(db, read_only=True)
    hw = HallWeb(store, eid, port=0)
    hw.start()
    try:
        status, body, _ = get(hw, "/bracket")
        assert status == 200 and "第1轮" in body and "胜者：第" in body and "第2轮对阵" in body
        assert 'href="/standings"' not in body  # a knockout's places are on its bracket
        assert "Knockout bracket" in get(hw, "/bracket?lang=en")[1]
    finally:
        hw.close()
        store.close()


def test_an_event_with_nothing_published_says_so(tmp_path: Path) -> None:
    from referee_app.core.rulebook import load_rulebook

    db = str(tmp_path / "empty.db")
    with Store.open(db, create=True, actor=CHIEF) as s:
        eid2 = s.create_event(name="新赛事", rulebook=load_rulebook("gansu-2018"), date=None, actor=CHIEF).id
    store = open_store(db, read_only=True)
    hw = HallWeb(store, eid2, port=0)
    hw.start()
    try:
        assert "对阵尚未公布" in get(hw, "/tables")[1] and "尚无已完成的轮次" in get(hw, "/standings")[1]
        assert "尚无计时" in get(hw, "/clock")[1]
    finally:
        hw.close()
        store.close()


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(
    CHROMIUM is None and os.environ.get("CI") != "true",
    reason="chromium is not installed (.ci/run installs it)",
)
def test_the_pages_on_a_phone_in_real_chromium_zh_and_en(served: tuple[HallWeb, str], tmp_path: Path) -> None:
    """390×844 (a phone), Chinese and English: the page as chromium draws it (a screenshot,
    looked at while building it) and the text as chromium read it (its DOM)."""
    from PIL import Image

    hw, _ = served
    assert CHROMIUM is not None and hw.view is not None and hw.view.pairing is not None
    # a seated pair: the draw is random, so a fixed number may be the round's bye
    seated = hw.view.pairing.tables[0]
    shots = {"tables-zh": "/tables", "standings-en": "/standings?lang=en"}
    doms = {"clock-zh": "/clock", "me-en": f"/me?q={seated.ew}&lang=en"}
    base = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--window-size=390,844",
        # a chromium that cannot finish loading (seen on a machine at load 10) draws what it
        # has after 20 s instead of waiting for ever
        "--timeout=20000",
    ]
    procs = {}
    for name, path in shots.items():
        cmd = [
            *base,
            f"--user-data-dir={tmp_path / name}",
            f"--screenshot={tmp_path / name}.png",
            hw.url(path),
        ]
        procs[name] = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for name, path in doms.items():
        cmd = [*base, f"--user-data-dir={tmp_path / name}", "--dump-dom", hw.url(path)]
        procs[name] = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        out = {name: p.communicate(timeout=120)[0] for name, p in procs.items()}
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
                p.wait()
    for name in shots:
        img = Image.open(tmp_path / f"{name}.png").convert("RGB")
        assert img.size == (390, 844)
        assert img.getpixel((5, 5)) == (0x10, 0x20, 0x27)  # the header band drawn
        assert len(img.crop((0, 200, 390, 600)).getcolors(1 << 20) or []) > 20  # text, not a blank page
    # the clock as chromium built the page; the pair's card in English
    assert 'id="clock"' in out["clock-zh"] and "进行中" in out["clock-zh"]
    assert f"Pair {seated.ew}" in out["me-en"], out["me-en"][-2000:]
    assert f"Round 2: table {seated.table}" in out["me-en"], out["me-en"][-2000:]


# -- referee-app hall-web ---------------------------------------------------------------------
def _cli(db: str, *args: str, lang: str = "en") -> tuple[int, str, str]:
    import contextlib
    import io

    from referee_app.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(["--db", db, "--lang", lang, *args])
        except SystemExit as exc:
            rc = int(exc.code or 0)
    return rc, out.getvalue(), err.getvalue()


def test_hall_web_command_refuses_bad_input_in_one_line(served: tuple[HallWeb, str]) -> None:
    _, db = served
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    try:
        port = str(busy.getsockname()[1])
        for args, lang, says in (
            (["--port", "99999", "--event", "1"], "en", "--port: expected 0 to 65535, got 99999"),
            (["--port", "-1", "--event", "1"], "zh", "端口：应为 0 到 65535 之间的端口号，收到 -1。"),
            (["--refresh", "0", "--event", "1"], "en", "--refresh: expected 1 to 600 seconds, got 0"),
            (["--port", port, "--event", "1"], "zh", f"127.0.0.1:{port}：无法在此地址提供赛场信息网页"),
            (
                ["--port", port, "--event", "1"],
                "en",
                f"127.0.0.1:{port}: cannot serve the hall web page here",
            ),
            (["--host", "192.0.2.1", "--event", "1"], "en", "192.0.2.1:8080: cannot serve"),
            (["--event", "77"], "en", "no event 77"),
            ([], "en", "events"),  # two events in the store: which one
            (["--port", "x"], "en", "invalid number value: 'x'"),
        ):
            rc, out, err = _cli(db, "hall-web", *args, lang=lang)
            assert rc == 2 and out == "" and err.count("\n") == 1 and says in err, (args, err)
            assert "Traceback" not in err
    finally:
        busy.close()


def test_hall_web_command_serves_until_interrupted(served: tuple[HallWeb, str]) -> None:
    import os
    import signal
    import sys
    import urllib.request

    _, db = served
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "referee_app", "--db", db, "hall-web", "--port", "0", "--event", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("赛场信息网页：http://127.0.0.1:"), line + (
            proc.stderr.read() if proc.stderr else ""
        )
        url = line.split("：", 1)[1].split("（")[0]
        with urllib.request.urlopen(url + "tables", timeout=10) as r:
            assert "第2轮对阵" in r.read().decode()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 0 and "赛场信息网页已停止" in out and err == "", err
    finally:
        if proc.poll() is None:
            proc.kill()


# -- QR codes to the page ---------------------------------------------------------------------
ZBAR = shutil.which("zbarimg")


def _qr_text(png: Path) -> str:
    assert ZBAR is not None
    read = subprocess.run([ZBAR, "--raw", "-q", str(png)], capture_output=True, text=True, timeout=60)
    return read.stdout.strip()


@pytest.mark.skipif(ZBAR is None or shutil.which("pdftoppm") is None, reason="zbarimg or pdftoppm missing")
def test_the_printed_pairing_carries_the_pages_qr_code(served: tuple[HallWeb, str], tmp_path: Path) -> None:
    from referee_app.app.printouts import PairingSheet, render_pairing

    _, db = served
    url = "http://192.168.10.20:8080/"
    pdf = tmp_path / "pairing.pdf"
    rc, out, err = _cli(
        db, "print", "pairing", "--event", "1", "--round", "2", "-o", str(pdf), "--web-url", url
    )
    assert rc == 0, err
    subprocess.run(
        ["pdftoppm", "-r", "100", "-png", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "p")], check=True
    )
    codes = _qr_text(tmp_path / "p-1.png").split()
    # the page's code, and the published pairing's own record code (verify-paper)
    assert [c for c in codes if not c.startswith("RA1:KP:")] == [url] and len(codes) == 2
    text_ = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "扫码查看本对桌号、对阵、排名和计时" in text_ and url in text_
    # a proposal sends no one to the page
    draft = tmp_path / "draft.pdf"
    sheet = PairingSheet("赛", "gansu-2018", 3, "lot", 1, [(1, "1", "2")], published=False, web_url=url)
    render_pairing(sheet, str(draft))
    assert "扫码" not in subprocess.run(["pdftotext", str(draft), "-"], capture_output=True, text=True).stdout
    for bad in ("javascript:alert(1)", "ftp://x", "http://" + "a" * 300, "http://有中文/"):
        rc, out, err = _cli(
            db, "print", "pairing", "--event", "1", "--round", "2", "-o", str(pdf), "--web-url", bad
        )
        assert rc == 2 and err.count("\n") == 1 and "expected the page's address" in err, err
