"""The hall web page's pages, as plain HTML: readable on a phone without zooming (viewport,
large type, one column), working without JavaScript (a meta refresh follows the store; the
clock page's small script only ticks the seconds between two refreshes).

Every value shown comes from a :class:`~referee_app.app.hall_public.PublicView` and is
escaped; the words come from ``web.toml``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape
from urllib.parse import quote

from ..app.hall_public import PublicView
from ..core.names import name_sort_key
from ..core.standings import assumed_footnote, tiebreak_label
from .words import LANGUAGE_NAMES, word

STYLE = """
*{box-sizing:border-box}
body{margin:0;padding:0 12px 24px;font-family:"PingFang SC","Microsoft YaHei","Noto Sans CJK SC",
"WenQuanYi Micro Hei",sans-serif;font-size:20px;line-height:1.45;color:#102027;background:#fafafa}
header{background:#102027;color:#fff;margin:0 -12px 12px;padding:10px 12px}
header h1{font-size:22px;margin:0}
header .event{font-size:16px;color:#b0bec5}
h2{font-size:24px;margin:16px 0 8px}
nav{display:flex;flex-wrap:wrap;gap:6px;margin:8px 0}
nav a{flex:1 1 30%;text-align:center;padding:8px 4px;background:#e3f2fd;color:#0d47a1;
border-radius:8px;text-decoration:none;font-size:16px}
nav.choose a{flex:1 1 100%;font-size:20px;padding:12px}
nav a.here{background:#1565c0;color:#fff}
table{border-collapse:collapse;width:100%;font-size:19px}
th,td{padding:8px 4px;border-bottom:1px solid #cfd8dc;text-align:center;vertical-align:middle}
th{background:#eceff1;font-size:14px;font-weight:normal}
td.names{text-align:left;font-size:17px}
td.pair{text-align:left}
td.pair b{font-size:22px}
td.pair span{display:block;font-size:16px;color:#37474f;white-space:nowrap}
td.word{white-space:nowrap;font-size:16px}
.wide{overflow-x:auto}
.wide table{font-size:17px}
.big{font-size:30px;font-weight:bold}
.clock{font-size:84px;font-weight:bold;font-family:monospace;text-align:center;margin:12px 0}
.phase{text-align:center;font-size:24px}
.card{background:#fff;border:1px solid #cfd8dc;border-radius:10px;padding:12px;margin:10px 0}
form{display:flex;gap:8px;margin:12px 0}
input[type=text]{flex:1;font-size:22px;padding:10px;border:1px solid #90a4ae;border-radius:8px;min-width:0}
button{font-size:22px;padding:10px 16px;border:0;border-radius:8px;background:#1565c0;color:#fff}
footer{margin-top:20px;font-size:15px;color:#546e7a}
footer a{color:#0d47a1}
.st-playing{background:#bbdefb}.st-finished{background:#c8e6c9}.st-signed{background:#81c784}
.st-appeal{background:#f8bbd0}
.mine{background:#fff59d}
"""

#: The pages in the navigation, in order: (path, the word naming it).
NAV = (
    ("/", "nav.me"),
    ("/tables", "nav.tables"),
    ("/names", "nav.names"),
    ("/standings", "nav.standings"),
    ("/clock", "nav.clock"),
    ("/bracket", "nav.bracket"),
)


@dataclass(frozen=True)
class Context:
    """What every page needs besides the view: the reader's language, the server's own
    (links name ``?lang=`` only when they differ), when the data last changed, how often the
    page refreshes itself (seconds), and the time now."""

    lang: str
    default_lang: str
    changed_at: datetime
    refresh_s: int
    now: datetime

    def href(self, path: str, **params: str) -> str:
        if self.lang != self.default_lang:
            params = {**params, "lang": self.lang}
        if not params:
            return path
        return path + "?" + "&amp;".join(f"{k}={quote(v, safe='')}" for k, v in params.items())

    def w(self, code: str, **values: object) -> str:
        """A word of the page, escaped (its values are the event's: names, numbers)."""
        safe = {k: escape(str(v)) for k, v in values.items()}
        return word(code, self.lang, **safe)


def document(
    ctx: Context,
    view: PublicView | None,
    path: str,
    title: str,
    body: str,
    *,
    refresh: bool = True,
    link: tuple[str, dict[str, str]] | None = None,
) -> str:
    """A whole page: head (viewport, refresh), header, navigation (``path`` marked),
    ``body``, footer (when the data changed, the same page in the other language: ``link``,
    the page's own path and parameters, default ``path``)."""
    nav = []
    for target, code in NAV:
        knockout = view is not None and view.knockout
        if (target == "/bracket" and not knockout) or (target == "/standings" and knockout):
            continue  # a knockout's places are on its bracket
        cls = ' class="here"' if target == path else ""
        nav.append(f'<a href="{ctx.href(target)}"{cls}>{ctx.w(code)}</a>')
    other = "en" if ctx.lang == "zh" else "zh"
    own, params = link or (path, {})
    switch = Context(other, ctx.default_lang, ctx.changed_at, ctx.refresh_s, ctx.now).href(own, **params)
    refresh_tag = f'<meta http-equiv="refresh" content="{ctx.refresh_s}">' if refresh else ""
    follows = ctx.w("page.follows", seconds=ctx.refresh_s) if refresh else ""
    event = escape(view.event_name) if view is not None else ""
    script = '<script src="/tick.js" defer></script>' if path == "/clock" else ""
    return (
        "<!DOCTYPE html>"
        f'<html lang="{"zh-CN" if ctx.lang == "zh" else "en"}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"{refresh_tag}<title>{escape(title)} — {ctx.w('page.title')}</title>"
        f"<style>{STYLE}</style>{script}</head><body>"
        f'<header><div class="event">{event}</div><h1>{escape(title)}</h1></header>'
        f"<nav>{''.join(nav)}</nav>"
        f"{body}"
        f"<footer><p>{ctx.w('page.updated', time=ctx.changed_at.astimezone().strftime('%H:%M:%S'))}"
        f"{'　' + follows if follows else ''}</p>"
        f'<p><a href="{switch}" lang="{other}">{LANGUAGE_NAMES[other]}</a></p>'
        "</footer></body></html>"
    )


def _players(view: PublicView, number: str, ctx: Context) -> str:
    p = view.pair(number)
    sep = "、" if ctx.lang == "zh" else " / "
    return escape(sep.join(p.players)) if p is not None else ""


def _pair_cell(view: PublicView, number: str, ctx: Context, extra: str = "") -> str:
    """A pair's number, large, its players under it: the cell a phone reads at a glance."""
    return f"<td class='pair'><b>{escape(number)}</b><span>{_players(view, number, ctx)}{extra}</span></td>"


def _table(head: Sequence[str], rows: Sequence[str]) -> str:
    cells = "".join(f"<th>{h}</th>" for h in head)
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _pairing_heading(view: PublicView, ctx: Context) -> str:
    assert view.pairing is not None
    text = ctx.w("round.pairing", round=view.pairing.round)
    if view.pairing.version > 1:
        text += ctx.w("round.corrected", version=view.pairing.version)
    return f"<h2>{text}</h2>"


# -- the pages -----------------------------------------------------------------------------
def _box(ctx: Context, value: str = "") -> str:
    """The box for a pair number or a name, sent with GET to /me (no script needed)."""
    hidden = f'<input type="hidden" name="lang" value="{ctx.lang}">' if ctx.lang != ctx.default_lang else ""
    return (
        f'<form method="get" action="/me"><input type="text" name="q" maxlength="40" '
        f'value="{escape(value)}" placeholder="{ctx.w("me.prompt")}" aria-label="{ctx.w("me.prompt")}">'
        f'{hidden}<button type="submit">{ctx.w("me.find")}</button></form>'
    )


def index(view: PublicView, ctx: Context) -> str:
    """我的桌号: a box for the pair number or a name."""
    body = _box(ctx)
    if view.pairing is None:
        body += f"<p>{ctx.w('me.no_pairing')}</p>"
    # the page with the box is not refreshed: it would clear what the player is typing
    return document(ctx, view, "/", ctx.w("page.me"), body, refresh=False)


def me(view: PublicView, ctx: Context, query: str) -> str:
    """What a player typed: one pair, its card; several, a list to choose from."""
    found = view.find_pairs(query)
    if len(found) == 1:
        return pair_page(view, ctx, found[0].number, query=query)
    if not found:
        body = f"<p>{ctx.w('me.none', query=query)}</p>"
    else:
        links = "".join(
            f'<a href="{ctx.href("/pair/" + p.number)}">{ctx.w("me.pair", pair=p.number)} '
            f"{_players(view, p.number, ctx)}</a>"
            for p in found
        )
        body = f"<p>{ctx.w('me.several')}</p><nav class='choose'>{links}</nav>"
    return document(
        ctx, view, "/", ctx.w("page.me"), _box(ctx, query) + body, refresh=False, link=("/me", {"q": query})
    )


def pair_page(view: PublicView, ctx: Context, number: str, query: str | None = None) -> str:
    """A pair's own page (/pair/N): its table this round, its side, its opponents, its rank."""
    pair = view.pair(number)
    assert pair is not None
    lines = [
        f'<div class="big">{ctx.w("me.pair", pair=number)}</div><div>{_players(view, number, ctx)}</div>'
    ]
    if view.pairing is None:
        lines.append(f"<p>{ctx.w('me.no_pairing')}</p>")
    else:
        rnd = view.pairing.round
        seat = view.table_of(number)
        if seat is not None:
            t, side = seat
            other = t.ew if side == "NS" else t.ns
            lines.append(f'<p class="big">{ctx.w("me.table", round=rnd, table=t.table)}</p>')
            lines.append(f"<p>{ctx.w('me.side', side=word('side.' + side, ctx.lang))}</p>")
            lines.append(f"<p>{ctx.w('me.against', pair=other, players='')}{_players(view, other, ctx)}</p>")
        elif view.pairing.bye == number:
            lines.append(f'<p class="big">{ctx.w("me.bye", round=rnd)}</p>')
        else:
            lines.append(f"<p>{ctx.w('me.not_seated', round=rnd)}</p>")
    row = view.standing_of(number)
    if row is not None and view.standings is not None:
        lines.append(
            f"<p>{ctx.w('me.rank', round=view.standings.round, rank=row.rank, points=row.match_points)}</p>"
        )
    own = ctx.href("/pair/" + number)
    lines.append(f'<p><a href="{own}">{ctx.w("me.own_link")}</a></p>')
    body = f'<div class="card">{"".join(lines)}</div>'
    if query is not None:
        return document(ctx, view, "/", ctx.w("page.me"), body, link=("/me", {"q": query}))
    return document(ctx, view, "/", ctx.w("page.me"), body, link=("/pair/" + number, {}))


def tables(view: PublicView, ctx: Context) -> str:
    """The published pairing, table by table, with each table's status."""
    if view.pairing is None:
        return document(ctx, view, "/tables", ctx.w("page.tables"), f"<p>{ctx.w('me.no_pairing')}</p>")
    rows = [
        f'<tr class="st-{t.status}"><td class="big">{t.table}</td>'
        f"{_pair_cell(view, t.ns, ctx)}{_pair_cell(view, t.ew, ctx)}"
        f"<td class='word'>{ctx.w('status.' + t.status)}</td></tr>"
        for t in view.pairing.tables
    ]
    if view.pairing.bye:
        rows.append(
            f"<tr><td class='word'>{ctx.w('side.bye')}</td>{_pair_cell(view, view.pairing.bye, ctx)}"
            "<td></td><td></td></tr>"
        )
    head = [ctx.w(c) for c in ("col.table", "col.ns", "col.ew", "col.status")]
    body = _pairing_heading(view, ctx) + _table(head, rows)
    return document(ctx, view, "/tables", ctx.w("page.tables"), body)


def names(view: PublicView, ctx: Context) -> str:
    """The published pairing by player: each name, its pair, table and side."""
    if view.pairing is None:
        return document(ctx, view, "/names", ctx.w("page.names"), f"<p>{ctx.w('me.no_pairing')}</p>")
    seats: dict[str, tuple[str, str]] = {}
    for t in view.pairing.tables:
        seats[t.ns] = (str(t.table), ctx.w("side.NS"))
        seats[t.ew] = (str(t.table), ctx.w("side.EW"))
    if view.pairing.bye:
        seats[view.pairing.bye] = ("—", ctx.w("side.bye"))
    people = sorted(
        ((name, p.number) for p in view.pairs if p.number in seats for name in p.players),
        key=lambda x: (name_sort_key(x[0]), x[1]),  # 拼音 order, as the printed list by name
    )
    rows = [
        f"<tr><td class='names'>{escape(n)}</td><td>{escape(num)}</td>"
        f"<td class='big'>{seats[num][0]}</td><td>{seats[num][1]}</td></tr>"
        for n, num in people
    ]
    head = [ctx.w(c) for c in ("col.name", "col.pair", "col.table", "col.side")]
    body = _pairing_heading(view, ctx) + _table(head, rows)
    return document(ctx, view, "/names", ctx.w("page.names"), body)


def standings(view: PublicView, ctx: Context) -> str:
    """The standings after the last complete published round, with the tie-break columns."""
    if view.knockout:
        return bracket(view, ctx)
    st = view.standings
    if st is None:
        return document(
            ctx, view, "/standings", ctx.w("page.standings"), f"<p>{ctx.w('round.no_standings')}</p>"
        )
    head = [ctx.w("col.rank"), ctx.w("col.pair"), escape(tiebreak_label("match_points", ctx.lang))]
    head += [escape(tiebreak_label(k, ctx.lang, st.assumed)) for k in st.columns]
    rows = []
    for r in st.rows:
        cells = "".join(f"<td>{escape(v)}</td>" for v in r.tiebreaks)
        dq = ctx.w("round.disqualified", round=r.disqualified) if r.disqualified is not None else ""
        rows.append(
            f"<tr><td class='big'>{r.rank}</td>{_pair_cell(view, r.pair, ctx, dq)}"
            f"<td class='big'>{r.match_points}</td>{cells}</tr>"
        )
    note = f"<p>{escape(assumed_footnote(list(st.assumed), ctx.lang))}</p>" if st.assumed else ""
    table = f"<div class='wide'>{_table(head, rows)}</div>"  # many tie-breaks: it scrolls sideways
    body = f"<h2>{ctx.w('round.standings', round=st.round)}</h2>" + table + note
    return document(ctx, view, "/standings", ctx.w("page.standings"), body)


def fmt_left(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def clock(view: PublicView, ctx: Context) -> str:
    """The current round's clock, large; a running clock ticks with the small script."""
    c = view.clock
    if c is None:
        return document(ctx, view, "/clock", ctx.w("page.clock"), f"<p>{ctx.w('clock.none')}</p>")
    left = c.remaining_at(ctx.now)
    colour = "#c62828" if c.phase == "running" and left <= c.warning_s else "#102027"
    ends = f' data-ends="{escape(c.ends_at)}"' if c.phase == "running" and c.ends_at else ""
    body = (
        f"<h2>{ctx.w('round.heading', round=c.round)}</h2>"
        f'<div class="phase">{ctx.w("clock." + c.phase)}</div>'
        f'<div class="clock" id="clock" style="color:{colour}"{ends}>{fmt_left(left)}</div>'
        f'<div class="phase">{ctx.w("clock.left")}</div>'
    )
    return document(ctx, view, "/clock", ctx.w("page.clock"), body)


def bracket(view: PublicView, ctx: Context) -> str:
    """A knockout's complete rounds (each match and its winner), the current round's
    published pairing, and the places."""
    b = view.bracket
    if b is None:
        return document(ctx, view, "/bracket", ctx.w("page.bracket"), f"<p>{ctx.w('bracket.none')}</p>")
    parts = []
    rounds = sorted({m.round for m in b.matches} | {r for r, _ in b.byes})
    for rnd in rounds:
        rows = [
            f"<tr>{_pair_cell(view, m.ns, ctx)}{_pair_cell(view, m.ew, ctx)}"
            f"<td>{_winner(m.winner, ctx)}</td></tr>"
            for m in b.matches
            if m.round == rnd
        ]
        rows += [
            f"<tr>{_pair_cell(view, p, ctx)}<td></td><td class='word'>{ctx.w('side.bye')}</td></tr>"
            for r, p in b.byes
            if r == rnd
        ]
        parts.append(
            f"<h2>{ctx.w('round.heading', round=rnd)}</h2>"
            + _table([ctx.w("col.ns"), ctx.w("col.ew"), ""], rows)
        )
    if view.pairing is not None and view.pairing.round not in rounds:
        rows = [
            f"<tr><td class='big'>{t.table}</td>"
            f"{_pair_cell(view, t.ns, ctx)}{_pair_cell(view, t.ew, ctx)}</tr>"
            for t in view.pairing.tables
        ]
        parts.append(
            _pairing_heading(view, ctx) + _table([ctx.w("col.table"), ctx.w("col.ns"), ctx.w("col.ew")], rows)
        )
    if not parts:
        parts.append(f"<p>{ctx.w('bracket.empty')}</p>")
    if b.placings and rounds:
        rows = [
            f"<tr><td class='big'>{'—' if p.rank is None else p.rank}</td>"
            f"{_pair_cell(view, p.pair, ctx)}</tr>"
            for p in b.placings
        ]
        parts.append(
            f"<h2>{ctx.w('bracket.placings')}</h2>" + _table([ctx.w("col.rank"), ctx.w("col.pair")], rows)
        )
    return document(ctx, view, "/bracket", ctx.w("page.bracket"), "".join(parts))


def _winner(pair: str | None, ctx: Context) -> str:
    return ctx.w("bracket.winner", pair=pair) if pair else ctx.w("bracket.undecided")


def problem(ctx: Context, view: PublicView | None, code: str) -> str:
    """A page that says what went wrong (no such page, too many requests, …) in one line."""
    return document(ctx, view, "", ctx.w("page.title"), f"<p>{ctx.w(code)}</p>", refresh=False)


#: The clock page's script: it ticks the seconds between two refreshes; without it the page
#: shows the time left when it was read and refreshes itself.
TICK_JS = """(function(){var e=document.getElementById('clock');if(!e||!e.dataset.ends)return;
var end=Date.parse(e.dataset.ends);function t(){var s=Math.max(0,Math.ceil((end-Date.now())/1000));
e.textContent=Math.floor(s/60)+':'+('0'+s%60).slice(-2);}t();setInterval(t,1000);})();"""
