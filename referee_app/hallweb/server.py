"""The hall web page's server: aiohttp (already in the app's dependencies through pyHanko) in
a thread of its own, so the window and ``referee-app hall-web`` run it the same way.

* **Off by default**, bound to the one interface given (``127.0.0.1`` unless the chief
  referee picks the hall's network).
* **Reads only the public view**: a task reads the store's head every ``poll_s`` seconds
  and, when it moved, :func:`~referee_app.app.hall_public.public_view` again; the pages are
  drawn from that view (each once, until what the hall sees changes), never from the store,
  so a thousand phones cost the stations one small read every ``poll_s`` seconds and the
  event read again when it changed; nothing a page is asked can reach what is not published.
* **GET and HEAD only**, a few fixed paths; anything else is 404 or 405, said in a line.
* **A request limit per client** (a token bucket per address): a phone refreshing every
  few seconds never meets it; a script hammering the page gets 429 and a Retry-After.
* Counts the **phones reading**: the distinct addresses that read a page in the last minute.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from ..app.errors import StoreError
from ..app.hall_public import PublicView, public_view, store_head
from . import pages
from .words import LANGS

log = logging.getLogger(__name__)

#: The longest text the 我的桌号 box takes (a pair number or part of a name).
MAX_QUERY = 40
#: The most pages kept drawn (every pair's page in two languages, for a large field).
MAX_PAGES = 4096
#: How often the store's head is read (seconds): the pages follow the store within this.
POLL_S = 2.0

SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    # no other site's resource, no frame, no plugin: the page's own style and tick script only
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
}


class RequestLimit:
    """A token bucket per client: ``burst`` requests at once, then ``per_s`` a second.
    At most ``max_clients`` are remembered (the longest idle forgotten first), so a flood of
    addresses cannot grow it without bound."""

    def __init__(
        self,
        per_s: float = 2.0,
        burst: int = 30,
        max_clients: int = 4096,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_s = per_s
        self.burst = burst
        self.max_clients = max_clients
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, client: str) -> bool:
        now = self.clock()
        tokens, then = self._buckets.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.per_s)
        allowed = tokens >= 1.0
        if allowed:
            tokens -= 1.0
        self._buckets[client] = (tokens, now)
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)
        return allowed

    def retry_after(self) -> int:
        return max(1, int(1 / self.per_s + 0.999))


class HallWeb:
    """The hall web page for event ``event_id`` of ``store``, served on ``host``:``port``
    (port 0: any free port) once :meth:`start` is called, until :meth:`stop`.

    ``lang`` is the pages' language unless a reader asks ``?lang=``; ``refresh_s`` how often
    a page refreshes itself; ``poll_s`` how often the store's head is read."""

    def __init__(
        self,
        store: Any,
        event_id: int,
        *,
        host: str = "127.0.0.1",
        port: int = 8080,
        lang: str = "zh",
        refresh_s: int = 5,
        poll_s: float = POLL_S,
        limit: RequestLimit | None = None,
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.host = host
        self.port = port
        self.lang = lang if lang in LANGS else "zh"
        self.refresh_s = refresh_s
        self.poll_s = poll_s
        self.limit = limit or RequestLimit()
        self._view: PublicView | None = None
        self._fingerprint = ""
        self._changed_at = datetime.now(UTC)
        self._head: int | None = None
        #: the pages drawn from the current view, by path, language and what else they show:
        #: a phone's refresh is then a lookup, not a page drawn again
        self._pages: dict[tuple[str, ...], str] = {}
        self._seen: dict[str, float] = {}
        self._seen_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="hall-web-read")
        self.bound: tuple[str, int] | None = None

    # -- what the pages show ---------------------------------------------------------------
    def read(self) -> bool:
        """Read the store's head and, when it moved, the public view; True when what the
        hall sees changed. A store that cannot be read now keeps the last view."""
        head = store_head(self.store)
        if head == self._head and self._view is not None:
            return False
        view = public_view(self.store, self.event_id)
        self._head = head
        changed = view.fingerprint != self._fingerprint
        if changed:
            self._fingerprint = view.fingerprint
            self._changed_at = datetime.now(UTC)
            self._view = view
            self._pages = {}  # the pages drawn from the last view are out of date
        return changed

    @property
    def view(self) -> PublicView | None:
        return self._view

    @property
    def changed_at(self) -> datetime:
        return self._changed_at

    def readers(self, window_s: float = 60.0) -> int:
        """How many phones are reading: distinct clients that read a page in the last minute."""
        since = time.monotonic() - window_s
        with self._seen_lock:
            for client in [c for c, t in self._seen.items() if t < since]:
                del self._seen[client]
            return len(self._seen)

    def url(self, path: str = "/") -> str:
        """The page's address (``bound`` once started)."""
        host, port = self.bound or (self.host, self.port)
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}{path}"

    # -- running -----------------------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> None:
        """Read the event, bind and serve in a thread of its own. StoreError when the event
        cannot be read, OSError when the address cannot be bound (in use, not this host's)."""
        if self._thread is not None:
            return
        # a malformed request line is answered 400 by aiohttp, which also logs it with a
        # traceback: a phone's or a scanner's bad request is not the app's error to log
        logging.getLogger("aiohttp.server").setLevel(logging.CRITICAL)
        self.read()
        self._ready.clear()
        self._error = None
        self._thread = threading.Thread(target=self._run, name="hall-web", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise OSError(f"{self.host}:{self.port}: the hall web page did not start")
        if self._error is not None:
            self._thread.join(timeout)
            self._thread = None
            raise self._error

    def stop(self, timeout: float = 10.0) -> None:
        loop, stop, thread = self._loop, self._stop, self._thread
        if thread is None or loop is None or stop is None:
            return
        loop.call_soon_threadsafe(stop.set)
        thread.join(timeout)
        self._thread = None
        self.bound = None
        with self._seen_lock:
            self._seen.clear()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def close(self) -> None:
        self.stop()
        self._reader.shutdown(wait=False)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._serve())
        except BaseException as exc:  # the bind failed: start() raises it in the caller
            self._error = exc
            self._ready.set()
        finally:
            loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        runner = web.AppRunner(self.make_app(), access_log=None, handle_signals=False)
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.host, self.port, reuse_address=True)
            await site.start()
            address = runner.addresses[0]
            self.bound = (str(address[0]), int(address[1]))
            self._ready.set()
            follow = asyncio.ensure_future(self._follow())
            await self._stop.wait()
            follow.cancel()
        finally:
            await runner.cleanup()

    async def _follow(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.poll_s)
            try:
                await loop.run_in_executor(self._reader, self.read)
            except StoreError as exc:  # the store is busy or away: the pages keep the last view
                log.warning("hall web page: the store could not be read: %s", exc)
            except Exception:  # never let one bad read stop the page following the store
                log.exception("hall web page: reading the event failed")

    # -- the web application ---------------------------------------------------------------
    def make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=1024)
        app.on_response_prepare.append(_headers)
        for path, handler in (
            ("/", self._index),
            ("/me", self._me),
            ("/pair/{number}", self._pair),
            ("/tables", self._tables),
            ("/names", self._names),
            ("/standings", self._standings),
            ("/clock", self._clock),
            ("/bracket", self._bracket),
            ("/tick.js", self._tick),
        ):
            app.router.add_get(path, handler)
        return app

    def _context(self, request: web.Request) -> pages.Context:
        lang = request.query.get("lang", self.lang)
        return pages.Context(
            lang if lang in LANGS else self.lang,
            self.lang,
            self._changed_at,
            self.refresh_s,
            datetime.now(UTC),
        )

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        client = request.remote or "?"
        if not self.limit.allow(client):
            return self._problem(
                request, 429, "page.too_many", {"Retry-After": str(self.limit.retry_after())}
            )
        try:
            response = await handler(request)
        except web.HTTPMethodNotAllowed:
            return self._problem(request, 405, "page.not_allowed", {"Allow": "GET, HEAD"})
        except web.HTTPNotFound:
            return self._problem(request, 404, "page.not_found")
        except web.HTTPBadRequest:
            return self._problem(request, 400, "page.bad_request")
        except web.HTTPException as exc:
            code = "page.unavailable" if exc.status >= 500 else "page.bad_request"
            return self._problem(request, exc.status, code)
        except Exception:
            log.exception("hall web page: %s failed", request.path)
            return self._problem(request, 500, "page.unavailable")
        if response.content_type == "text/html":
            with self._seen_lock:
                self._seen[client] = time.monotonic()
        return response

    def _problem(
        self, request: web.Request, status: int, code: str, headers: dict[str, str] | None = None
    ) -> web.Response:
        try:
            ctx = self._context(request)
        except Exception:  # a query string that cannot be read at all
            ctx = pages.Context(self.lang, self.lang, self._changed_at, self.refresh_s, datetime.now(UTC))
        return web.Response(
            text=pages.problem(ctx, self._view, code),
            status=status,
            content_type="text/html",
            charset="utf-8",
            headers=headers,
        )

    def _page(self, html: str) -> web.Response:
        return web.Response(text=html, content_type="text/html", charset="utf-8")

    def _drawn(
        self, request: web.Request, key: tuple[str, ...], draw: Callable[[pages.Context], str]
    ) -> web.Response:
        """The page ``key`` (with the reader's language) as drawn from the current view,
        drawn once until the view changes (at most :data:`MAX_PAGES` kept)."""
        ctx = self._context(request)
        full = (*key, ctx.lang)
        cache = self._pages
        html = cache.get(full)
        if html is None:
            html = draw(ctx)
            if len(cache) < MAX_PAGES:
                cache[full] = html
        return self._page(html)

    def _ready_view(self) -> PublicView:
        if self._view is None:
            raise web.HTTPServiceUnavailable()
        return self._view

    async def _index(self, request: web.Request) -> web.Response:
        view = self._ready_view()
        return self._drawn(request, ("/",), lambda ctx: pages.index(view, ctx))

    async def _me(self, request: web.Request) -> web.Response:
        query = request.query.get("q", "").strip()
        if len(query) > MAX_QUERY or any(ord(ch) < 32 for ch in query):
            raise web.HTTPBadRequest()
        view = self._ready_view()
        if not query:
            return self._drawn(request, ("/",), lambda ctx: pages.index(view, ctx))
        return self._page(pages.me(view, self._context(request), query))

    async def _pair(self, request: web.Request) -> web.Response:
        view = self._ready_view()
        number = request.match_info["number"]
        if view.pair(number) is None:
            raise web.HTTPNotFound()
        return self._drawn(request, ("/pair", number), lambda ctx: pages.pair_page(view, ctx, number))

    async def _tables(self, request: web.Request) -> web.Response:
        view = self._ready_view()
        return self._drawn(request, ("/tables",), lambda ctx: pages.tables(view, ctx))

    async def _names(self, request: web.Request) -> web.Response:
        view = self._ready_view()
        return self._drawn(request, ("/names",), lambda ctx: pages.names(view, ctx))

    async def _standings(self, request: web.Request) -> web.Response:
        view = self._ready_view()
        return self._drawn(request, ("/standings",), lambda ctx: pages.standings(view, ctx))

    async def _clock(self, request: web.Request) -> web.Response:
        view = self._ready_view()
        second = str(int(time.time()))  # the time left, drawn once a second
        return self._drawn(request, ("/clock", second), lambda ctx: pages.clock(view, ctx))

    async def _bracket(self, request: web.Request) -> web.Response:
        view = self._ready_view()
        if not view.knockout:
            raise web.HTTPNotFound()
        return self._drawn(request, ("/bracket",), lambda ctx: pages.bracket(view, ctx))

    async def _tick(self, request: web.Request) -> web.Response:
        return web.Response(text=pages.TICK_JS, content_type="application/javascript", charset="utf-8")


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(SECURITY_HEADERS)
    response.headers.pop("Server", None)  # which library, which version: nobody's business
