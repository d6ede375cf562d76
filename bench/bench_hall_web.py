"""The hall web page under a hall's phones while two stations save (issue 29).

    python bench/bench_hall_web.py                          # 300 phones every 5 s, ~2 minutes
    python bench/bench_hall_web.py --phones 100 --phase-s 10 --phases 2 --json
    python bench/bench_hall_web.py --db postgresql+psycopg://referee:referee@127.0.0.1:5432/referee_x

Bounded, on loopback. The desk laptop's process serves the page (``HallWeb`` in a thread, as
the window runs it) from the event store; two other processes are two table stations, each
saving its tables' records one after another
(``Store.record``, a new version with one to four hands), and time every save. The run
alternates three phases of ``--phase-s`` seconds, ``--phases`` times: **bare** (no page
served, no phones: what the stations pay anyway), **static** (the phones reading a bare
aiohttp server that sends one fixed page from memory: what the phones' load costs the
machine by itself) and **served** (the hall web page itself). ``--phones`` simulated phones,
each from its own loopback address (the limit is per client), open one of the pages every
``--every`` seconds, in a process of their own. It reports the pages' latency (p50, p95, p99)
and statuses (429: none expected), and the stations' save latency in each phase with the
ratios: served ÷ bare is what the hall page costs the stations all told on this machine,
served ÷ static what the page costs beyond the load of the phones themselves.

Not part of the test suite (tests/ pin what the page does, not how fast).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee_app.app.session import Session  # noqa: E402
from referee_app.core.rulebook import load_rulebook  # noqa: E402
from referee_app.hallweb.server import HallWeb, RequestLimit  # noqa: E402
from referee_app.store.pairs_csv import PairRow  # noqa: E402
from referee_app.store.service import Actor, Store  # noqa: E402

CHIEF = Actor("裁判长", "desk")


def case(table: int, ns: str, ew: str, hands: int) -> dict[str, Any]:
    return {
        "event": "gansu-2018",
        "round": 1,
        "table": table,
        "pairs": {"NS": ns, "EW": ew},
        "first_dealer": "N",
        "hands": [{"defender_points": 40 + 5 * (i % 8)} for i in range(hands)],
        "finished": "open",
    }


def build(db: str, tables: int) -> tuple[int, list[tuple[int, str, str]]]:
    """An event of ``2 * tables`` pairs with round 1 drawn, published and seated."""
    with Store.open(db, create=True, actor=CHIEF) as s:
        ev = s.create_event(
            name="赛场网页压力测试", rulebook=load_rulebook("gansu-2018"), date=None, actor=CHIEF
        )
        rows = [PairRow(i, str(i), f"甲{i}", f"乙{i}", None) for i in range(1, 2 * tables + 1)]
        s.import_pairs(ev.id, rows, actor=CHIEF, source="bench")
        session = Session(s, s.pick_event(ev.id), CHIEF)
        rp = session.round_pairing(1)
        session.publish_pairing(rp, rp.check()[1])
        return int(ev.id), rp.tables()


def station(
    db: str, eid: int, tables: list[tuple[int, str, str]], name: str, ready: Any, stop: Any, out: Any
) -> None:
    """One table station: save its tables in turn until ``stop``; (when, seconds) of each save.
    ``ready`` hears from it after its first save (the process started and warmed up)."""
    actor = Actor(f"裁判{name}", f"table-{name}")
    saves: list[tuple[float, float]] = []
    with Store.open(db, actor=actor) as store:
        versions = {t: int(m["version"]) for m in store.current_matches(eid, 1) for t in [int(m["table_no"])]}
        k = 0
        while not stop.is_set():
            table, ns, ew = tables[k % len(tables)]
            t0 = time.perf_counter()
            rec = store.record(
                eid, case(table, ns, ew, 1 + k % 4), actor=actor, lang="zh", expected_version=versions[table]
            )
            t1 = time.perf_counter()
            versions[table] = rec.version
            saves.append((time.time(), t1 - t0))
            if k == 0:
                ready.put(name)
            k += 1
            time.sleep(0.1)  # a referee's next save: the stations are busy, not flat out
    out.put((name, saves))


def phones(base: str, n: int, every: float, seconds: float, pairs: int, out: Any) -> None:
    """``n`` phones, each from its own loopback address, opening a page every ``every`` s."""
    import aiohttp

    pages = ["/tables", "/names", "/standings", "/clock"] + [f"/pair/{p}" for p in range(1, pairs + 1)]
    latencies: list[float] = []
    statuses: dict[int, int] = {}

    async def phone(i: int, end: float) -> None:
        local = f"127.0.{1 + i // 250}.{1 + i % 250}"
        connector = aiohttp.TCPConnector(local_addr=(local, 0), limit=1)
        rng = random.Random(i)
        async with aiohttp.ClientSession(connector=connector) as session:
            await asyncio.sleep(rng.uniform(0, every))  # phones do not refresh in step
            while time.monotonic() < end:
                t0 = time.perf_counter()
                try:
                    async with session.get(base + rng.choice(pages)) as r:
                        await r.read()
                        statuses[r.status] = statuses.get(r.status, 0) + 1
                except aiohttp.ClientError:
                    statuses[0] = statuses.get(0, 0) + 1
                t1 = time.perf_counter()
                latencies.append(t1 - t0)
                await asyncio.sleep(max(0.0, every - (t1 - t0)))

    async def run() -> None:
        end = time.monotonic() + seconds
        await asyncio.gather(*(phone(i, end) for i in range(n)))

    began = time.time()
    asyncio.run(run())
    out.put((latencies, statuses, began, time.time()))


class StaticPage:
    """The bare baseline: aiohttp in a thread answering every path with the same page, from
    memory, no store, no view, no limit: what the phones' load costs by itself."""

    def __init__(self, body: str) -> None:
        import threading

        self.body = body
        self.port = 0
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None

    def start(self) -> str:
        self._thread.start()
        self._ready.wait(30)
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        assert self._loop is not None and self._stop is not None
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(30)

    def _run(self) -> None:
        from aiohttp import web

        async def page(request: web.Request) -> web.Response:
            return web.Response(text=self.body, content_type="text/html", charset="utf-8")

        async def serve() -> None:
            self._stop = asyncio.Event()
            app = web.Application()
            app.router.add_get("/{tail:.*}", page)
            runner = web.AppRunner(app, access_log=None, handle_signals=False)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            self.port = int(runner.addresses[0][1])
            self._ready.set()
            await self._stop.wait()
            await runner.cleanup()

        self._loop = asyncio.new_event_loop()
        self._loop.run_until_complete(serve())
        self._loop.close()


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))] if s else float("nan")


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phones", type=int, default=300)
    ap.add_argument("--every", type=float, default=5.0, help="seconds between a phone's two pages")
    ap.add_argument("--phase-s", type=float, default=12.0, help="length of each phase (seconds)")
    ap.add_argument("--phases", type=int, default=2, help="rounds of the three phases (bare, static, served)")
    ap.add_argument("--tables", type=int, default=32)
    ap.add_argument("--db", default=None, help="a PostgreSQL URL (default: a SQLite file in a temp folder)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.phones > 250 * 250:
        ap.error("--phones: at most 62500 loopback addresses")

    ctx = mp.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "hall.db")
        eid, tables = build(db, args.tables)
        half = len(tables) // 2
        stop = ctx.Event()
        ready = ctx.Queue()
        saves_q = ctx.Queue()
        stations = [
            ctx.Process(target=station, args=(db, eid, part, name, ready, stop, saves_q))
            for name, part in (("A", tables[:half]), ("B", tables[half:]))
        ]
        for p in stations:
            p.start()
        for _ in stations:  # the stations' processes start and warm up outside the phases
            ready.get(timeout=120)
        windows: list[tuple[str, float, float]] = []
        page_lat: dict[str, list[float]] = {}
        statuses: dict[str, dict[int, int]] = {"static": {}, "served": {}}
        served_store = Store.open(db, actor=CHIEF, read_only=True)
        try:
            # a page as the hall sees it, for the bare server to send (same size, no work)
            sample = HallWeb(served_store, eid, port=0)
            sample.start()
            import urllib.request

            with urllib.request.urlopen(sample.url("/tables")) as r:
                static_body = r.read().decode()
            sample.close()
            kinds = ("bare", "static", "served")
            for i in range(args.phases * 3):
                kind = kinds[i % 3]
                start = time.time()
                if kind == "bare":
                    time.sleep(args.phase_s)
                    windows.append((kind, start, time.time()))
                    continue
                if kind == "served":
                    # limits as shipped, generous enough for a phone every few seconds
                    server: Any = HallWeb(served_store, eid, port=0, limit=RequestLimit())
                    server.start()
                    base = server.url("").rstrip("/")
                else:
                    server = StaticPage(static_body)
                    base = server.start()
                q = ctx.Queue()
                load = ctx.Process(
                    target=phones, args=(base, args.phones, args.every, args.phase_s, 2 * args.tables, q)
                )
                load.start()
                lat, st, start, end = q.get(timeout=args.phase_s + 120)
                load.join()
                server.stop() if kind == "static" else server.close()
                page_lat.setdefault(kind, []).extend(lat)
                for k, v in st.items():
                    statuses[kind][k] = statuses[kind].get(k, 0) + v
                windows.append((kind, start, end))  # while the phones were reading
        finally:
            stop.set()
            got = [saves_q.get(timeout=60) for _ in stations]
            for p in stations:
                p.join()
            served_store.close()
    by_kind: dict[str, list[float]] = {"bare": [], "static": [], "served": []}
    for _name, saves in got:
        for when, took in saves:
            for kind, a, b in windows:
                if a + 1.0 <= when <= b:  # a second's margin at each phase's edges
                    by_kind[kind].append(took)
    row: dict[str, Any] = {
        "phones": args.phones,
        "every_s": args.every,
        "phase_s": args.phase_s,
        "phases": args.phases,
        "tables": args.tables,
        "backend": "postgresql" if args.db else "sqlite",
    }
    for kind in ("static", "served"):
        lat = page_lat.get(kind, [])
        row[f"{kind}_requests"] = len(lat)
        row[f"{kind}_statuses"] = {str(k): v for k, v in sorted(statuses[kind].items())}
        for q in (50, 95, 99):
            row[f"{kind}_page_p{q}_ms"] = ms(pct(lat, q / 100))
    for kind, saves in by_kind.items():
        row[f"saves_{kind}"] = len(saves)
        row[f"save_{kind}_median_ms"] = ms(statistics.median(saves)) if saves else None
        row[f"save_{kind}_p95_ms"] = ms(pct(saves, 0.95)) if saves else None
    bare, static, served = by_kind["bare"], by_kind["static"], by_kind["served"]
    row["save_ratio_served_bare"] = round(statistics.median(served) / statistics.median(bare), 2)
    row["save_ratio_static_bare"] = round(statistics.median(static) / statistics.median(bare), 2)
    row["save_ratio_served_static"] = round(statistics.median(served) / statistics.median(static), 2)
    if args.json:
        print(json.dumps(row))
    else:
        print(
            f"{args.phones} phones every {args.every:g} s; {args.phases} x (bare, static, served) phases of "
            f"{args.phase_s:g} s; {args.tables} tables; {row['backend']}"
        )
        for kind in ("static", "served"):
            print(
                f"  pages, {kind:6}: {row[f'{kind}_requests']} requests {row[f'{kind}_statuses']}, "
                f"p50 {row[f'{kind}_page_p50_ms']} ms, p95 {row[f'{kind}_page_p95_ms']} ms, "
                f"p99 {row[f'{kind}_page_p99_ms']} ms"
            )
        for kind in ("bare", "static", "served"):
            print(
                f"  saves, {kind:6}: {row[f'saves_{kind}']}, median {row[f'save_{kind}_median_ms']} ms, "
                f"p95 {row[f'save_{kind}_p95_ms']} ms"
            )
        print(
            f"  save median ratios: served/bare {row['save_ratio_served_bare']}x, "
            f"static/bare {row['save_ratio_static_bare']}x, served/static {row['save_ratio_served_static']}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
