"""The hall display (赛场大屏): a full-screen, read-only view for a projector or a second
screen, large enough to read from the back of the hall, in Chinese.

It follows the store on its own (:class:`~.watch.StoreWatcher`) and shows what the hall
needs at each moment of the current round (the latest round with a published pairing or a
table):

* **before** the round (a pairing is published, the clock has not started, no result yet):
  the pairings and seats — table, North-South pair and players, East-West pair and
  players, the bye;
* **during** it (the clock started, or results still missing): the round clock, large, and
  each table's status;
* **after** it (every table has its result): the standings after the round (a knockout: its
  places).
"""

from __future__ import annotations

import argparse
import re
from html import escape
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont, QKeyEvent, QResizeEvent, QScreen
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QLabel,
    QRadioButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ..app.errors import StoreError
from ..app.session import Session
from .watch import POLL_MS, StoreWatcher
from .widgets import fmt_clock, ok_cancel

STATUS_ZH = {
    "not_started": ("未开始", "#eceff1", "#37474f"),
    "playing": ("比赛中", "#1565c0", "#ffffff"),
    "finished": ("已结束", "#2e7d32", "#ffffff"),
    "signed": ("已签字", "#1b5e20", "#ffffff"),
    "appeal": ("申诉中", "#ad1457", "#ffffff"),
}
PAGE_MS = 8000
"""How long each page of a long list stays on the screen (ms)."""
_SIZES = re.compile(r"(font-size: ?|width='|cellspacing='|cellpadding=')(\d+)(px|')")
DESIGN = (1920, 1080)
"""The screen the sizes below are written for; another screen's are scaled to it."""

PHASE_ZH = {"before": "对阵", "during": "比赛进行中", "after": "成绩", "waiting": "等待编排"}


def show_on_screen(widget: QWidget, screen: QScreen | None = None, *, full_screen: bool = True) -> None:
    """Show a big-screen ``widget`` on ``screen`` (default: the primary one): full screen, or a
    window that fits that screen's free area (it was a fixed 1920×1080, cut off on a laptop)."""
    screen = screen or QApplication.primaryScreen()
    if screen is None:
        widget.show()
        return
    widget.setScreen(screen)
    area = screen.availableGeometry()
    if full_screen:
        widget.move(area.topLeft())
        widget.showFullScreen()
        return
    title = widget.style().pixelMetric(widget.style().PixelMetric.PM_TitleBarHeight)
    width, height = area.width() * 9 // 10, (area.height() - max(title, 24) - 6) * 9 // 10
    widget.resize(width, height)
    widget.move(area.left() + (area.width() - width) // 2, area.top() + (area.height() - height) // 2)
    widget.showNormal()


def leave_full_screen(widget: QWidget, event: QKeyEvent) -> bool:
    """Esc on a full-screen big screen: back to a window that fits its screen (the hall
    display has no button to close it, and a projector's full screen hid every other window)."""
    if event.key() == Qt.Key.Key_Escape and widget.isFullScreen():
        show_on_screen(widget, widget.screen(), full_screen=False)
        return True
    if event.key() == Qt.Key.Key_F11:  # and back to full screen
        show_on_screen(widget, widget.screen(), full_screen=not widget.isFullScreen())
        return True
    return False


class HallDisplay(QWidget):
    """Read-only: it has no button and writes nothing."""

    def __init__(
        self,
        session: Session,
        poll_ms: int = POLL_MS,
        parent: QWidget | None = None,
        web_url: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.setObjectName("hallDisplay")
        self.setStyleSheet("QWidget#hallDisplay { background: #102027; } QLabel { color: #ffffff; }")
        self.setWindowTitle(f"{session.event.name} — 赛场大屏")
        self.title = QLabel()
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title.setWordWrap(True)
        self.clock = QLabel()
        self.clock.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.zoom = 1.0
        self._size_labels()
        self.body = QLabel()
        self.body.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.body.setTextFormat(Qt.TextFormat.RichText)
        self.body.setWordWrap(True)
        # the lists are paged to the screen: they never make the window taller than it
        self.body.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(40, 20, 40, 20)
        layout.addWidget(self.title)
        layout.addWidget(self.clock)
        layout.addWidget(self.body, 1)
        # the hall web page's QR code in the top right corner, over the layout (the title and
        # the clock are centred): players scan it for their table, taking no room from the lists
        self.web_corner = QWidget(self)
        self.web_qr = QLabel()
        self.web_caption = QLabel()
        self.web_caption.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.web_caption.setStyleSheet("font-size: 18px; color: #b0bec5;")
        corner = QVBoxLayout(self.web_corner)
        corner.setContentsMargins(0, 0, 0, 0)
        corner.addWidget(self.web_qr, 0, Qt.AlignmentFlag.AlignCenter)
        corner.addWidget(self.web_caption)
        self.set_web_url(web_url)
        self.phase = "waiting"
        self.round_no = 0
        self.watcher = StoreWatcher(session.store_head, poll_ms, self)
        self.watcher.changed.connect(self.refresh)
        self.ticker = QTimer(self)
        self.ticker.setInterval(500)
        self.ticker.timeout.connect(self.tick)
        self.ticker.start()
        # a long list (a big field) is shown a page at a time, the pages turning by themselves
        self.page = 0
        self.pager = QTimer(self)
        self.pager.setInterval(PAGE_MS)
        self.pager.timeout.connect(self.next_page)
        self.pager.start()
        self.refresh()

    def set_web_url(self, url: str | None) -> None:
        """Show the hall web page's QR code and address (None: no code)."""
        self.web_url = url
        if url:
            from .hall_web import qr_pixmap

            self.web_qr.setPixmap(qr_pixmap(url, module=4))
            self.web_caption.setText(f"扫码查看桌号、对阵与排名<br>{escape(url)}")
        self.web_qr.setVisible(bool(url))
        self.web_caption.setVisible(bool(url))
        self.web_corner.setVisible(bool(url))
        self._place_corner()

    def _place_corner(self) -> None:
        self.web_corner.adjustSize()
        self.web_corner.move(self.width() - self.web_corner.width() - 16, 16)
        self.web_corner.raise_()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._place_corner()
        # written for a 1920×1080 projector: a laptop's window (or a 4K screen) scales it
        zoom = max(0.35, min(2.0, self.width() / DESIGN[0], self.height() / DESIGN[1]))
        if abs(zoom - self.zoom) > 0.01:
            self.zoom = zoom
            self._size_labels()
            self.refresh()
        elif event.oldSize().width() != self.width() and self.phase == "during":
            self.refresh()  # the tiles to a row follow the width

    def _size_labels(self) -> None:
        colour = self.clock.styleSheet().partition(" color:")[2]
        self.title.setStyleSheet(f"font-size: {self._px(56)}px; font-weight: bold; padding: 12px;")
        self.clock.setStyleSheet(
            f"font-size: {self._px(220)}px; font-weight: bold; font-family: monospace;"
            + (f" color:{colour}" if colour else "")
        )

    def _px(self, size: int) -> int:
        return max(8, round(size * self.zoom))

    def _scaled(self, html: str) -> str:
        """``html``'s font sizes and cell widths at this window's scale."""
        if self.zoom == 1.0:
            return html
        return _SIZES.sub(lambda m: f"{m[1]}{self._px(int(m[2]))}{m[3]}", html)

    def _show(self, html: str) -> None:
        self.body.setText(self._scaled(html))

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        if not leave_full_screen(self, event):
            super().keyPressEvent(event)

    def next_page(self) -> None:
        self.page += 1
        self.refresh()

    def _paged(self, items: list[str], per_page: int) -> tuple[list[str], str]:
        """This page's share of ``items`` and its footer ("第 2/3 页"), or no footer."""
        pages = max(1, -(-len(items) // per_page))
        p = self.page % pages
        footer = f"<p align='center' style='font-size:32px; color:#b0bec5'>第 {p + 1}/{pages} 页</p>"
        return items[p * per_page : (p + 1) * per_page], (footer if pages > 1 else "")

    # -- what to show ----------------------------------------------------------------------
    def current_round(self) -> int:
        from ..app.event import published_rounds  # a pairing withdrawn before play is not shown

        published = published_rounds(self.session.store, self.session.event.id)
        return max(published | set(self.session.rounds()), default=0)

    def refresh(self) -> None:
        try:
            self._refresh()
        except StoreError as exc:
            from ..app.messages import describe

            # the hall display speaks Chinese (its title too)
            self._show(f"<p style='font-size:40px'>{escape(describe(exc, 'zh'))}</p>")

    def _refresh(self) -> None:
        from ..app.event import published_pairing

        self.round_no = rnd = self.current_round()
        ev = self.session.event
        if rnd == 0:
            self.phase = "waiting"
            self.title.setText(escape(ev.name))
            self.clock.setVisible(False)
            self._show("<p style='font-size:64px'>等待编排</p>")
            return
        tables = self.session.tables(rnd)
        clock = self.session.clock(rnd)
        try:
            pairing, _ = published_pairing(self.session.store, ev.id, rnd)
        except StoreError:
            pairing = None
        expected = len(pairing.tables) if pairing is not None else len(tables)
        results = sum(1 for t in tables if t.decision.get("result") is not None)
        # the chief referee ended the round: its clock, still running in the store, is done
        ended = "round_end" in self.session.round_marks(rnd)
        if expected and results >= expected and (clock.phase != "running" or ended):
            self.phase = "after"
        elif clock.phase == "not_started" and results == 0 and pairing is not None:
            self.phase = "before"
        else:
            self.phase = "during"
        self.title.setText(f"{escape(ev.name)}　第{rnd}轮　{PHASE_ZH[self.phase]}")
        self.clock.setVisible(self.phase == "during")
        if self.phase == "before":
            self._show(self._pairing_html(pairing))
        elif self.phase == "during":
            self._show(self._status_html(pairing, tables))
        else:
            self._show(self._standings_html(rnd))
        self.tick()

    def tick(self) -> None:
        if self.phase != "during" or self.round_no == 0:
            return
        try:
            st = self.session.clock(self.round_no)
        except StoreError:
            return
        if st.phase == "not_started":
            self.clock.setText(fmt_clock(st.total_s))
            self.clock.setStyleSheet(self.clock.styleSheet().split(" color:")[0] + " color: #90a4ae;")
            return
        warn = int(self.session.rulebook.data["round"]["warning_minutes_left"]) * 60
        colour = "#ff5252" if st.remaining_s <= warn else ("#ffd54f" if st.phase == "paused" else "#ffffff")
        text = fmt_clock(st.remaining_s)
        if st.phase == "paused":
            text += " 暂停"
        self.clock.setText(text)
        self.clock.setStyleSheet(self.clock.styleSheet().split(" color:")[0] + f" color: {colour};")

    # -- the three pictures ------------------------------------------------------------------
    def _names(self) -> dict[str, str]:
        return {str(p["number"]): "、".join(p["players"]) for p in self.session.pairs()}

    def _pairing_html(self, pairing: Any) -> str:
        names = self._names()
        head = "".join(f"<th>{h}</th>" for h in ("桌号", "南北", "选手", "东西", "选手"))
        rows = []
        for t in pairing.tables:
            rows.append(
                f"<tr><td align='center'>{t.table}</td><td align='center'><b>{escape(t.ns)}</b></td>"
                f"<td>{escape(names.get(t.ns, ''))}</td><td align='center'><b>{escape(t.ew)}</b></td>"
                f"<td>{escape(names.get(t.ew, ''))}</td></tr>"
            )
        if pairing.bye:
            rows.append(
                f"<tr><td align='center'>轮空</td><td align='center'><b>{escape(pairing.bye)}</b></td>"
                f"<td colspan='3'>{escape(names.get(pairing.bye, ''))}</td></tr>"
            )
        few = len(rows) <= 10
        shown, footer = self._paged(rows, 10 if few else 15)
        return _table([f"<tr style='background:#37474f'>{head}</tr>", *shown], 56 if few else 38) + footer

    def _status_html(self, pairing: Any, tables: list[Any]) -> str:
        by_table = {t.table: t for t in tables}
        numbers = sorted(
            set(by_table) | ({t.table for t in pairing.tables} if pairing is not None else set())
        )
        seats = {t.table: (t.ns, t.ew) for t in pairing.tables} if pairing is not None else {}
        cells = []
        for n in numbers:
            rec = by_table.get(n)
            status = rec.status if rec is not None else "not_started"
            ns, ew = (rec.pairs["NS"], rec.pairs["EW"]) if rec is not None else seats.get(n, ("", ""))
            word, bg, fg = STATUS_ZH[status]
            big = len(numbers) <= 12  # a few tables: tiles a projector shows from the back
            cells.append(
                f"<td align='center' width='{280 if big else 200}' style='background:{bg}; color:{fg}'>"
                f"<span style='font-size:{72 if big else 48}px'><b>{n}桌</b></span><br>"
                f"<span style='font-size:{46 if big else 32}px'>{escape(ns)} — {escape(ew)}</span><br>"
                f"<span style='font-size:{52 if big else 36}px'>{word}</span></td>"
            )
        # six (eight) tiles to a row on a projector; fewer where a narrower screen holds fewer
        tile = (280 if len(numbers) <= 12 else 200) + 2 * 14 + 16  # width, padding, spacing
        room = self.width() - 80 - 16  # the layout's margins, the table's outer spacing
        fits = max(1, int(room // max(1, self._px(tile))))
        per_row = min(6 if len(numbers) <= 12 else 8, fits)
        cells, footer = self._paged(cells, 12 if len(numbers) <= 12 else 24)
        rows = ["<tr>" + "".join(cells[i : i + per_row]) + "</tr>" for i in range(0, len(cells), per_row)]
        return (
            "<table cellspacing='16' cellpadding='14' align='center'>" + "".join(rows) + "</table>" + footer
        )

    def _standings_html(self, rnd: int) -> str:
        from ..app.event import load_event
        from ..core.knockout import placings
        from ..core.standings import TIE_BREAK_LABELS, compute_standings, format_tiebreak

        loaded = load_event(self.session.store, self.session.event.id)
        names = self._names()
        if loaded.knockout:
            rule = loaded.rulebook.data["standings"].get("placings")
            rows = []
            for r in placings(loaded.record, rule, seed=loaded.ev.id):
                rank = "—" if r["rank"] is None else r["rank"]
                rows.append(
                    f"<tr><td align='center'>{rank}</td><td align='center'><b>{escape(r['pair'])}</b></td>"
                    f"<td>{escape(names.get(r['pair'], ''))}</td></tr>"
                )
            shown, footer = self._paged(rows, 14)
            head = "<tr style='background:#37474f'><th>名次</th><th>对号</th><th>选手</th></tr>"
            return _table([head, *shown], 40) + footer
        table = compute_standings(loaded.rulebook, loaded.record, through_round=rnd, seed=loaded.ev.id)
        keys = [k for k in table.tie_breaks if k not in ("match_points", "lots")]
        head = "".join(f"<th>{TIE_BREAK_LABELS[k][0]}</th>" for k in keys)
        rows = []
        for r in table.rows:
            cells = "".join(
                f"<td align='center'>{escape(format_tiebreak(k, r['tiebreaks'].get(k)))}</td>" for k in keys
            )
            rows.append(
                f"<tr><td align='center'>{r['rank']}</td><td align='center'><b>{escape(r['pair'])}</b></td>"
                f"<td>{escape(names.get(r['pair'], ''))}</td>"
                f"<td align='center'><b>{r['match_points']}</b></td>{cells}</tr>"
            )
        shown, footer = self._paged(rows, 14)
        top = (
            f"<tr style='background:#37474f'><th>名次</th><th>对号</th><th>选手</th><th>积分</th>{head}</tr>"
        )
        return _table([top, *shown], 38) + footer


class HallOverviewScreen(QWidget):
    """The hall overview (赛场总览: every table's card, the round clock) as the big screen:
    read-only (no seat, clock or table buttons), in a larger font, following the store by
    the same change-following as a station's hall."""

    def __init__(self, language: Any, session: Session, poll_ms: int = POLL_MS) -> None:
        super().__init__()
        from .hall import HallView

        self.session = session
        self.setWindowTitle(f"{session.event.name} — {language.tr('hall')}")
        self.base_font = QFont(self.font())
        self.zoom = 0.0
        self.hall = HallView(language, session, self)
        self.hall.max_columns = None  # as many cards to a row as the screen holds
        for button in (
            self.hall.seat_button,
            self.hall.clock.start_button,
            self.hall.clock.extend_button,
            self.hall.clock.adjust_button,
        ):
            button.setVisible(False)
        self.hall.trust_notice.setVisible(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.hall)
        self.watcher = StoreWatcher(session.store_head, poll_ms, self, since=session.changes_since)
        self.watcher.changes.connect(self.follow)
        self._scale(1.0)
        self.show_clock()

    #: The text's scale on a 1366×768 screen (the station's font is read from a desk).
    OVERVIEW_SCALE = 1.6

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        # the text grows and shrinks with the screen (a 1024-px laptop window to a projector)
        self._scale(max(0.75, min(2.5, self.width() / 1366, self.height() / 768)))

    def _scale(self, zoom: float) -> None:
        if abs(zoom - self.zoom) < 0.02:
            return
        self.zoom = zoom
        font = QFont(self.base_font)
        font.setPointSizeF(self.base_font.pointSizeF() * self.OVERVIEW_SCALE * zoom)
        self.setFont(font)
        self.hall.dashboard.setFont(font)  # styled: it keeps its own font otherwise
        clock = QFont(font)
        clock.setPointSizeF(font.pointSizeF() * 2.0)
        clock.setBold(True)
        self.hall.clock.display.setFont(clock)
        self.hall.set_card_font(font)

    def follow(self, changes: Any) -> None:
        self.hall.apply(changes)
        self.hall.trust_notice.setVisible(False)
        if changes.everything or changes.desk or self.hall.round.value() in changes.clock:
            self.show_clock()

    def show_clock(self) -> None:
        """The round's clock as the store holds it (every station's), its changes beside it."""
        import time

        rnd = self.hall.round.value()
        try:
            st = self.session.clock(rnd)
            changes = self.session.clock_changes(rnd)
        except StoreError:
            return
        clock = self.hall.clock
        clock.total = st.total_s
        running = st.phase == "running"
        clock.restore(
            time.time() - st.elapsed_s if running else None,
            0.0 if running else float(st.elapsed_s),
            started=st.phase != "not_started",
        )
        clock.show_changes([(a.action, a.minutes, a.reason) for a in changes])
        for button in (clock.start_button, clock.extend_button, clock.adjust_button):
            button.setVisible(False)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        if not leave_full_screen(self, event):
            super().keyPressEvent(event)


class BigScreenDialog(QDialog):
    """赛场总览 / 赛场大屏 from the window: which picture (the hall display, or the hall
    overview), on which screen, full screen or in a window that fits it."""

    def __init__(self, language: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        tr = language.tr
        self.setWindowTitle(tr("big_screen_title"))
        self.display = QRadioButton(tr("big_screen_display"))
        self.overview = QRadioButton(tr("big_screen_overview"))
        self.display.setChecked(True)
        self.screen_combo = QComboBox()
        screens = QApplication.screens()
        for n, screen in enumerate(screens, 1):
            size = screen.size()
            self.screen_combo.addItem(
                tr("big_screen_item", n=n, name=screen.name(), width=size.width(), height=size.height()),
                n - 1,
            )
        # a second screen (the projector) when there is one
        self.screen_combo.setCurrentIndex(1 if len(screens) > 1 else 0)
        self.full_screen = QCheckBox(tr("big_screen_full"))
        self.full_screen.setChecked(len(screens) > 1)
        self.hint = QLabel(tr("big_screen_hint"))
        self.hint.setWordWrap(True)
        self.buttons, self.ok_button = ok_cancel(self)
        form = QFormLayout()
        form.addRow(tr("big_screen_what"), self.display)
        form.addRow("", self.overview)
        form.addRow(tr("big_screen_screen"), self.screen_combo)
        form.addRow("", self.full_screen)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.hint)
        layout.addWidget(self.buttons)

    def screen_chosen(self) -> QScreen | None:
        screens = QApplication.screens()
        index = int(self.screen_combo.currentData() or 0)
        return screens[index] if 0 <= index < len(screens) else None


def _table(rows: list[str], px: int) -> str:
    return (
        f"<table cellspacing='0' cellpadding='10' align='center' width='100%' "
        f"style='font-size:{px}px; border-collapse:collapse'>" + "".join(rows) + "</table>"
    )


def run(args: argparse.Namespace) -> int:
    """``referee-app hall-display``: open the store (``--db``), the event (``--event``) and the
    display, full screen unless ``--windowed``, until it is closed. The command line checked
    that a window can open here; the launcher loads this function for it."""
    import sys

    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QApplication

    from ..app.store import Actor, open_store
    from .fonts import register_font

    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    family = register_font()
    if family:
        app.setFont(QFont(family))
    store = open_store(args.db)
    try:
        ev = store.pick_event(args.event)
        view = HallDisplay(Session(store, ev, Actor.default()), web_url=getattr(args, "web_url", None))
        screens = app.screens()
        number = getattr(args, "screen", None)
        if number is not None and not 1 <= number <= len(screens):
            from ..app.errors import InputError

            raise InputError(
                f"--screen: expected 1 to {len(screens)} (this computer's screens), got {number}",
                code="display.screen",
                field="screen",
                got=number,
                count=len(screens),
            )
        screen = screens[number - 1] if number else None
        show_on_screen(view, screen, full_screen=not args.windowed)
        return int(app.exec())
    finally:
        store.close()
