"""Starting the desktop app: a display, the bundled font, the language, the store, the log.
The launcher (:mod:`referee_app.launcher`) calls :func:`run` when the command line has no
command; this package does not import the command line.

An unexpected exception anywhere in the window (Qt hands a slot's exception to
``sys.excepthook``) is written in full to the log file and shown as one message naming the
log; the window stays open.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from types import TracebackType
from typing import Any

from ..app.display import display_problem
from ..applog import log_unexpected, logger, start_logging
from ..locations import resources_dir
from .fonts import register_font

ICON_FILE = "referee-app.png"


def icon_path() -> Path:
    return resources_dir() / "icons" / ICON_FILE


class UnexpectedErrorReporter:
    """``sys.excepthook`` while the window runs: log the exception, show one message."""

    def __init__(self, lang: str = "zh") -> None:
        self.lang = lang
        self.boxes: list[Any] = []  # open messages (kept so they are not garbage-collected)

    def __call__(self, kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        from PySide6.QtWidgets import QMessageBox

        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, exc, tb)
            return
        exc.__traceback__ = tb
        log = log_unexpected(exc, "the window")
        from ..app.messages import message

        # the referee's language is Chinese first; the interface's may not be known yet
        text = message("window.unexpected", self.lang, log=log or "—")
        print(f"referee-app: {type(exc).__name__}: {exc} ({log})", file=sys.stderr)
        box = QMessageBox(QMessageBox.Icon.Critical, "referee-app", text)
        box.setTextInteractionFlags(box.textInteractionFlags() | _selectable())
        box.finished.connect(lambda _=0, b=box: self.boxes.remove(b) if b in self.boxes else None)
        self.boxes.append(box)
        box.open()  # not exec(): the window keeps running behind the message


def _selectable() -> Any:
    from PySide6.QtCore import Qt

    return Qt.TextInteractionFlag.TextSelectableByMouse  # the path can be copied


def run(args: argparse.Namespace) -> int:
    problem = display_problem(args.lang)
    if problem:
        print(problem, file=sys.stderr)
        return 1
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QFont, QIcon
    from PySide6.QtWidgets import QApplication

    from .i18n import Language
    from .main_window import MainWindow

    reporter = UnexpectedErrorReporter(args.lang)  # logs on its own if the log is not started
    sys.excepthook = reporter
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setApplicationName("referee-app")
    app.setDesktopFileName("referee-app")  # Wayland/X11 match the window to referee-app.desktop
    if icon_path().is_file():
        app.setWindowIcon(QIcon(str(icon_path())))
    family = register_font()
    if family:
        font = QFont(family)
        font.setPointSize(11)
        app.setFont(font)
    # args.lang is --lang or the locale's language by the command line's rule (cli.default_lang)
    language = Language(args.lang)
    language.changed.connect(lambda lang: setattr(reporter, "lang", lang))
    window = MainWindow(language)
    code = [0]
    exit_when = os.environ.get("REFEREE_APP_EXIT_WHEN_IDLE", "")

    def start() -> None:
        # after the first paint: the log file, Qt's own words (its buttons, in dialogs only)
        # and the store (SQLAlchemy) load while the referee already sees the window
        from ..app.glance import glance_store  # the store's package: after the first paint

        start_logging()
        language.install_qt_translator()
        glance = glance_store(args.db)
        if glance is not None and not window.returns_into_an_event(glance.where):
            # the events listed at once; the store's code loads behind them (StoreLoader)
            loader = StoreLoader(lambda: opened(), app)
            window.show_glance(glance.where, glance.events, loader.finish)
            logger.info("events listed at a glance (%d), the store loading", len(glance.events))
            if exit_when == "listed":  # the bench's "listed" row: the glance painted
                quit_once_painted(window, app)
                return
            loader.start()
            return
        opened()

    def opened() -> None:
        if not open_store(window, args):
            code[0] = 1
            app.exit(1)
            return
        window.resume()  # back to the table open at quit or crash, offering back unconfirmed input
        logger.info("window shown (store %s, language %s)", store_name(args.db), args.lang)
        if exit_when == "ready":  # the bench's "ready" rows: until the station's view is painted
            quit_once_painted(window, app)

    def painted() -> None:
        if exit_when == "painted":
            QTimer.singleShot(0, app.quit)  # the bench's first row: shown, painted, idle
            return
        QTimer.singleShot(0, start)

    window.first_painted.connect(painted)
    window.show()
    result = int(app.exec())
    if window.store is not None:
        window.store.close()  # its holder, the last connection, checkpoints the WAL into the file
    logger.info("window closed")
    return code[0] or result


class StoreLoader:
    """Loads the store's code (SQLAlchemy and the store's modules, most of the window's start)
    on a thread while the window shows the events read at a glance, then opens the store on
    the window's thread (``open``). The thread only imports: nothing of Qt or of the store's
    data is touched off the window's thread. Once the store's modules are in, the thread goes
    on with what opening an event needs (the session: the rulebook schema, the engine) while
    the store opens. :meth:`finish` is also what a referee's first choice calls: it waits for
    the store's modules (a busy cursor) and opens the store at once."""

    POLL_MS = 20

    def __init__(self, open_store: Any, app: Any) -> None:
        import threading

        from PySide6.QtCore import QTimer

        self._open = open_store
        self._store_code = threading.Event()
        self._thread = threading.Thread(target=self._load, name="store-code", daemon=True)
        self._timer = QTimer(app)
        self._timer.setInterval(self.POLL_MS)
        self._timer.timeout.connect(self._poll)
        self._done = False

    def _load(self) -> None:
        try:
            from ..app import store  # noqa: F401  (imported here, used once loaded)
        except Exception:  # the window's thread imports it again and says what is wrong
            logger.exception("loading the store's code behind the window")
        finally:
            self._store_code.set()
        try:
            from ..app import session  # noqa: F401  (what opening an event imports first)
        except Exception:
            logger.exception("loading the session's code behind the window")

    def start(self) -> None:
        self._thread.start()
        self._timer.start()

    def _poll(self) -> None:
        if self._store_code.is_set():
            self.finish()

    def finish(self) -> None:
        if self._done:
            return
        self._done = True
        self._timer.stop()
        if self._thread.ident and not self._store_code.is_set():
            from PySide6.QtCore import Qt
            from PySide6.QtWidgets import QApplication

            QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
            try:
                self._store_code.wait()
            finally:
                QApplication.restoreOverrideCursor()
        self._open()


def quit_once_painted(window: Any, app: Any) -> None:
    """Quit ``app`` once the event loop is idle after ``window``'s next paint: what the station
    shows now (its events listed, the hall of the event it had open with its tables) painted
    as the referee sees it, not only built. The whole window is asked to repaint, so its
    children (the hall's cards) are painted in the same pass, before the quit runs."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    class QuitAfterPaint(QObject):
        def eventFilter(self, watched: Any, event: Any) -> bool:  # noqa: N802
            if event.type() == QEvent.Type.Paint:
                watched.removeEventFilter(self)
                QTimer.singleShot(0, app.quit)
            return False

    window._quit_after_paint = QuitAfterPaint(window)
    window.installEventFilter(window._quit_after_paint)
    window.update()


def open_store(window: Any, args: argparse.Namespace) -> bool:
    """Open the store named by ``--db`` (or the station's) and give it to the window; say why
    not in a message and on stderr."""
    from PySide6.QtWidgets import QMessageBox

    from ..app.errors import StoreError
    from ..app.store import Actor, open_store

    actor = Actor.default()
    try:
        # held open by a helper process while the window runs: a save costs its commit
        store = open_store(args.db, create=True, actor=actor, hold=True)
    except StoreError as exc:
        print(f"referee-app: {exc}", file=sys.stderr)
        logger.error("cannot open the store: %s", exc)
        from ..app.messages import describe

        QMessageBox.critical(window, "referee-app", describe(exc, args.lang))
        return False
    window.use_store(store, actor)
    return True


def store_name(db: str | None) -> str:
    from ..app.store import display_url, resolve_target

    return display_url(resolve_target(db)[0])
