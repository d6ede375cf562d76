"""The main window: choose or create an event, then the hall and the tables.

The window paints before the store, the printing code and the desk's views are imported
(issue 11): it is made without a store, :meth:`MainWindow.use_store` gives it one after the
first paint, and each view's module is imported when the view is first made."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

# Only what the first window shows is imported by name: PySide6 builds a class's (and the Qt
# namespace's) Python enums on first access, 90 ms for ``Qt`` alone; the rest is reached as
# ``QtWidgets.X`` when used (issue 11).
from PySide6 import QtCore, QtWidgets
from PySide6.QtCore import QSettings, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMainWindow,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ..app.messages import describe
from .i18n import Language, local_time

if TYPE_CHECKING:
    from PySide6.QtGui import QCloseEvent, QPaintEvent, QResizeEvent

    from ..app.changes import OpChanges
    from ..app.glance import EventInfo
    from ..app.session import Session
    from ..app.store import Actor, Store
    from .appeals import AppealsView
    from .chief import AuditLogView
    from .desk import PairingView, StandingsView
    from .hall import HallView
    from .hall_web import HallWebDialog
    from .login import LoginDialog
    from .table_view import TableView
    from .watch import StoreWatcher


class WelcomePage(QWidget):
    """The events in this store, and a button to create one."""

    def __init__(self, language: Language, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = language
        self.heading = QLabel()
        self.events = QListWidget()
        self.events.setMinimumWidth(480)
        self.open_button = QPushButton()
        self.new_button = QPushButton()
        self.where = QLabel()
        self.where.setStyleSheet("color: #607d8b;")
        buttons = QHBoxLayout()
        buttons.addWidget(self.new_button)
        buttons.addWidget(self.open_button)
        column = QVBoxLayout()
        column.addWidget(self.heading)
        column.addWidget(self.events, 1)
        column.addLayout(buttons)
        column.addWidget(self.where)
        outer = QHBoxLayout(self)
        outer.addStretch(1)
        outer.addLayout(column, 2)
        outer.addStretch(1)
        language.changed.connect(self.retranslate)
        self.retranslate()

    def retranslate(self, *_: object) -> None:
        tr = self.language.tr
        self.heading.setText(f"<h1 align=center>{tr('app_title')}</h1><p align=center>{tr('welcome')}</p>")
        self.open_button.setText(tr("open_event"))
        self.new_button.setText(tr("new_event"))


class MainWindow(QMainWindow):
    #: The modal dialog open now (a test or the error reporter finds it here), else None.
    active_dialog: QtWidgets.QDialog | None = None
    #: Emitted once, when the window has painted for the first time (the app opens the store then).
    first_painted = Signal()

    def __init__(self, language: Language) -> None:
        super().__init__()
        self.store: Store | None = None
        self.actor: Actor | None = None
        self.language = language
        self.session: Session | None = None
        self.hall: HallView | None = None
        self.table_view: TableView | None = None
        self.standings_view: StandingsView | None = None
        self.pairing_view: PairingView | None = None
        self.appeals_view: AppealsView | None = None
        self.hall_web: HallWebDialog | None = None
        self.audit_view: AuditLogView | None = None
        self.watcher: StoreWatcher | None = None
        # the station's settings where the platform keeps them (QSettings' native place); in
        # the default format, so that the tests can point every window at a folder of their own
        self.settings = QSettings(
            QSettings.defaultFormat(), QSettings.Scope.UserScope, "referee-app", "referee-app"
        )
        self._painted = False
        #: Finishes opening the store while only a glance at its events is shown (show_glance).
        self._finish_store: Callable[[], object] | None = None
        #: The events listed are a glance's: a choice made meanwhile is kept when the store lists them.
        self._glanced = False
        #: What was just saved, imported or refused, over the view (made on first use).
        self.banner: QLabel | None = None
        #: The size fit_to_screen chose (a window resized since keeps its size).
        self._fitted = QtCore.QSize()
        self.fit_to_screen()
        self.stack = QStackedWidget()
        self.welcome = WelcomePage(language)
        self.welcome.new_button.clicked.connect(self.new_event)
        self.welcome.open_button.clicked.connect(self.open_selected)
        self.welcome.events.itemDoubleClicked.connect(lambda *_: self.open_selected())
        self.stack.addWidget(self.welcome)
        self.setCentralWidget(self.stack)
        self._actions()
        self.status_label = QLabel()
        self.statusBar().addPermanentWidget(self.status_label)
        language.changed.connect(self.retranslate)
        self.fill_events()
        self.retranslate()

    def use_store(self, store: Store, actor: Actor) -> None:
        """Work on ``store`` as ``actor``: list its events (the window is usable from here)."""
        from ..app.drafts import Drafts

        self.store = store
        self.actor = actor
        self._finish_store = None
        #: Typed, unconfirmed input of this store kept on disk (offered back after a crash).
        self.drafts = Drafts(store.where)
        self.act_new.setEnabled(True)
        self.act_open.setEnabled(True)
        self.act_demo.setEnabled(True)
        self.act_backup.setEnabled(True)
        self.act_restore.setEnabled(True)
        self.act_keep_anchor.setEnabled(True)
        if Path(store.where).is_file():  # an SQLite file: offered again under 最近打开
            self.remember_store(store.where)
        self.fill_events()

    # -- another event store (文件 → 打开数据库…, 最近打开) ------------------------------------------

    RECENT_KEY = "recent_stores"
    RECENT_MAX = 8

    def recent_stores(self) -> list[str]:
        """The store files this station opened, newest first."""
        value = self.settings.value(self.RECENT_KEY, [])
        if isinstance(value, str):  # QSettings gives one path as a string
            return [value] if value else []
        return [str(p) for p in value if p] if isinstance(value, list | tuple) else []

    def remember_store(self, path: str) -> None:
        full = str(Path(path).resolve())
        paths = [full, *(p for p in self.recent_stores() if p != full)][: self.RECENT_MAX]
        self.settings.setValue(self.RECENT_KEY, paths)

    def fill_recent_stores(self) -> None:
        self.menu_recent.clear()
        paths = self.recent_stores()
        for path in paths:
            act = self.menu_recent.addAction(path)
            act.triggered.connect(lambda _=False, p=path: self.open_store_file(p))
        if not paths:
            empty = self.menu_recent.addAction(self.language.tr("recent_stores_none"))
            empty.setEnabled(False)

    def open_store_file(self, path: str | None = None) -> Any:
        """Work on another event store (an SQLite file): the open event is closed (typed,
        unconfirmed points asked about first) and the new store's events listed. A file that
        is not a referee-app store is refused in one line, and the store in use stays."""
        from ..app import errors  # not at module level: the window paints first
        from ..app.store import open_store

        if self.actor is None:
            return None
        tr = self.language.tr
        if not path:
            from .widgets import FILE_DIALOG

            path, _ = QtWidgets.QFileDialog.getOpenFileName(
                self, tr("open_store_title"), "", tr("store_filter"), options=FILE_DIALOG
            )
            if not path:
                return None
        if self.table_view is not None and self.table_view.unconfirmed_input():
            answer = QtWidgets.QMessageBox.question(
                self,
                tr("open_store_title"),
                tr("quit_unconfirmed"),
                QtWidgets.QMessageBox.StandardButton.Yes | QtWidgets.QMessageBox.StandardButton.No,
                QtWidgets.QMessageBox.StandardButton.No,
            )
            if answer != QtWidgets.QMessageBox.StandardButton.Yes:
                return None
        QApplication.setOverrideCursor(QtCore.Qt.CursorShape.WaitCursor)
        try:
            store = open_store(path, actor=self.actor, hold=True)
        except errors.StoreError as exc:
            QApplication.restoreOverrideCursor()
            text = describe(exc, self.language.lang)
            self.say(text, refused=True)
            QtWidgets.QMessageBox.warning(self, tr("open_store_title"), text)
            if path in self.recent_stores() and not Path(path).is_file():
                self.settings.setValue(self.RECENT_KEY, [p for p in self.recent_stores() if p != path])
            return None
        QApplication.restoreOverrideCursor()
        if self.table_view is not None:
            self.table_view.clear_hand_form()
            if self.drafts is not None:
                self.drafts.discard("hand")  # asked above: the referee chose to drop them
        if self.hall is not None:
            self.remember_clock()
        self.close_hall_web()
        self.close_big_screens()
        self._close_event()
        if self.audit_view is not None:
            self.stack.removeWidget(self.audit_view)
            self.audit_view.deleteLater()
            self.audit_view = None
        previous = self.store
        self.use_store(store, self.actor)
        if previous is not None and previous is not store:
            previous.close()
        self.show_events()
        self.say(tr("store_opened", file=Path(path).name))
        return store

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            # framed by now (the window manager answers before the first paint reaches us)
            QtCore.QTimer.singleShot(0, self.fit_frame)
            self.first_painted.emit()

    def fit_to_screen(self) -> None:
        """At least 1280×800 where the screen has room (most of a large screen), else the
        screen's available area (a 1024×700 laptop must see the whole window). The title bar
        and borders count: ``resize`` sizes the inside, so before the window manager has
        framed the window a title bar's worth is kept free, and once framed the window is
        fitted again with its real frame (:meth:`fit_frame`)."""
        screen = self.screen() or QApplication.primaryScreen()
        if screen is None:
            self.resize(1280, 800)
            self._fitted = self.size()
            return
        area = screen.availableGeometry()
        frame_w, frame_h = self._frame_extra()
        # a large screen gets most of it: the hands' outcomes read without scrolling sideways
        width = max(1280, int(area.width() * 0.85))
        height = max(800, int(area.height() * 0.85))
        self.resize(min(width, area.width() - frame_w), min(height, area.height() - frame_h))
        self._fitted = self.size()

    def _frame_extra(self) -> tuple[int, int]:
        """The width and height the window manager's frame adds: measured once the window is
        framed, else a title bar's height and thin borders (the style's own measure)."""
        frame, inside = self.frameGeometry(), self.geometry()
        if self.isVisible() and frame.height() > inside.height():
            return frame.width() - inside.width(), frame.height() - inside.height()
        title = self.style().pixelMetric(QtWidgets.QStyle.PixelMetric.PM_TitleBarHeight)
        return 2, max(title, 24) + 6

    def fit_frame(self) -> None:
        """The framed window within the screen's available area: smaller where its frame
        would run past the area's edge (the status bar, where 已保存 is said, stays in
        view), moved back where it starts outside it."""
        screen = self.screen() or QApplication.primaryScreen()
        if screen is None or self.isMaximized() or self.isFullScreen() or self.size() != self._fitted:
            return  # sized by hand (or by a test) since: that size is kept
        area = screen.availableGeometry()
        frame_w, frame_h = self._frame_extra()
        width = min(self.width(), area.width() - frame_w)
        height = min(self.height(), area.height() - frame_h)
        if (width, height) != (self.width(), self.height()):
            self.resize(width, height)
            self._fitted = self.size()
        frame = self.frameGeometry()
        if not area.contains(frame):
            self.move(
                max(area.left(), min(frame.left(), area.right() + 1 - frame.width())),
                max(area.top(), min(frame.top(), area.bottom() + 1 - frame.height())),
            )

    # -- actions -------------------------------------------------------------------------------

    def _action(self, keys: QKeySequence | QKeySequence.StandardKey, slot: Any) -> QAction:
        """An action of this window on ``keys``. Not ``QAction(shortcut=…)`` nor
        ``setShortcut``: their overload check builds the ``Qt`` namespace's Python enums
        (90 ms, before the first paint); ``setShortcuts`` takes the one type."""
        action = QAction(self)
        action.setShortcuts(keys if isinstance(keys, QKeySequence.StandardKey) else [keys])
        action.triggered.connect(slot)
        return action

    def _actions(self) -> None:
        self.act_new = self._action(QKeySequence.StandardKey.New, self.new_event)
        self.act_open = self._action(QKeySequence("Ctrl+O"), self.show_events)
        self.act_import = self._action(QKeySequence("Ctrl+I"), self.import_pairs)
        self.act_hall = self._action(QKeySequence("F2"), self.show_hall)
        self.act_lang = self._action(QKeySequence("Ctrl+L"), self.toggle_language)
        # Ctrl+Q spelled out: the platform's standard Quit key is empty on Windows and offscreen
        self.act_quit = self._action(QKeySequence("Ctrl+Q"), self.close)
        # the demo event (示例赛事): built into a new file of its own, never the station's store
        self.act_demo = QAction(self)
        self.act_demo.triggered.connect(self.open_demo)
        # 文件 → 备份… / 恢复… (issue 24 item 9): the whole store, the chief referee's
        self.menu_file = self.menuBar().addMenu("")
        # 文件 → 打开数据库… and 最近打开 (issue 27): another event store, without a restart
        self.act_open_store = self._action(QKeySequence("Ctrl+Shift+O"), lambda: self.open_store_file())
        self.menu_file.addAction(self.act_open_store)
        self.menu_recent = self.menu_file.addMenu("")
        self.menu_recent.aboutToShow.connect(self.fill_recent_stores)
        self.menu_file.addSeparator()
        self.act_backup = self._action(QKeySequence("Ctrl+Shift+B"), lambda: self.backup_store())
        self.act_restore = self._action(QKeySequence("Ctrl+Shift+R"), lambda: self.restore_store())
        self.act_keep_anchor = self._action(QKeySequence("Ctrl+Shift+A"), lambda: self.keep_anchor())
        self.menu_file.addAction(self.act_backup)
        self.menu_file.addAction(self.act_restore)
        self.menu_file.addAction(self.act_keep_anchor)
        self.menu_event = self.menuBar().addMenu("")
        for act in (self.act_new, self.act_open, self.act_import, self.act_demo, self.act_quit):
            self.menu_event.addAction(act)
        self.menu_view = self.menuBar().addMenu("")
        self.menu_view.addAction(self.act_hall)
        self.menu_view.addAction(self.act_lang)
        self.act_standings = self._action(QKeySequence("F5"), self.show_standings)
        self.act_pairing = self._action(QKeySequence("F6"), self.show_pairing)
        self.menu_desk = self.menuBar().addMenu("")
        self.act_appeals = self._action(QKeySequence("F7"), self.show_appeals)
        self.act_login = self._action(QKeySequence("Ctrl+R"), lambda: self.login())
        self.menu_event.insertAction(self.act_quit, self.act_login)
        self.menu_desk.addAction(self.act_appeals)
        self.menu_desk.addAction(self.act_standings)
        self.menu_desk.addAction(self.act_pairing)
        # Ctrl+Shift+P: a whole round's scoresheets (the preview's module loads when used)
        self.act_print_round = self._action(QKeySequence("Ctrl+Shift+P"), lambda: self.print_round())
        self.menu_desk.addAction(self.act_print_round)
        self.act_print_prizes = QAction(self)  # 获奖名单: no key of its own (printed once or twice)
        self.act_print_prizes.triggered.connect(lambda: self.print_prizes())
        self.menu_desk.addAction(self.act_print_prizes)
        # the hall web page (players' phones): the chief referee turns it on and off here
        self.act_hall_web = self._action(QKeySequence("Ctrl+Shift+W"), self.show_hall_web)
        self.menu_desk.addAction(self.act_hall_web)
        # the big screen (赛场大屏, or the hall overview) on a screen chosen here (issue 27)
        self.act_big_screen = self._action(QKeySequence("Ctrl+Shift+D"), lambda: self.show_big_screen())
        self.menu_desk.addAction(self.act_big_screen)
        self.big_screens: list[QtWidgets.QWidget] = []
        # what needed the command line (issue 27): the round's end and scores, PINs, the log
        self.menu_desk.addSeparator()
        self.act_end_round = self._action(QKeySequence("Ctrl+Shift+E"), lambda: self.end_round())
        self.act_publish_scores = self._action(QKeySequence("Ctrl+Shift+S"), lambda: self.publish_scores())
        self.act_set_pin = self._action(QKeySequence("Ctrl+Shift+K"), lambda: self.set_pin())
        self.act_audit = self._action(QKeySequence("F8"), self.show_audit_log)
        for act in (self.act_end_round, self.act_publish_scores, self.act_set_pin, self.act_audit):
            self.menu_desk.addAction(act)
        # 规则: a new event's rulebook, copied from a bundled one and edited here (issue 25)
        self.menu_rules = self.menuBar().addMenu("")
        self.act_rules_new = QAction(self)
        self.act_rules_new.triggered.connect(lambda: self.new_rulebook())
        self.act_rules_edit = QAction(self)
        self.act_rules_edit.triggered.connect(lambda: self.edit_rulebook())
        self.menu_rules.addAction(self.act_rules_new)
        self.menu_rules.addAction(self.act_rules_edit)
        # 帮助: the manual shipped with the app, read offline (F1)
        self.act_manual = self._action(QKeySequence("F1"), self.show_manual)
        self.menu_help = self.menuBar().addMenu("")
        self.menu_help.addAction(self.act_manual)
        self.act_about = QAction(self)  # 关于: the version, the licence, the third-party list
        self.act_about.triggered.connect(lambda: self.show_about())
        self.menu_help.addAction(self.act_about)
        self.manual: Any = None
        for act in (
            self.act_new,
            self.act_open,
            self.act_backup,
            self.act_restore,
            self.act_keep_anchor,
            self.act_import,
            self.act_demo,
            self.act_hall,
            self.act_standings,
            self.act_pairing,
            self.act_appeals,
            self.act_login,
            self.act_hall_web,
            self.act_big_screen,
            self.act_end_round,
            self.act_publish_scores,
            self.act_set_pin,
            self.act_audit,
        ):
            act.setEnabled(False)

    def print_round(self, round_no: int | None = None) -> Any:
        from .preview import print_round

        return print_round(self, round_no)

    def print_prizes(self) -> Any:
        from .preview import print_prizes

        return print_prizes(self)

    def fill_events(self) -> None:
        if self.store is None:  # until the store is open (or glanced at), nothing to choose or create
            if self._finish_store is None:
                self.welcome.events.clear()
                self.welcome.open_button.setEnabled(False)
                self.welcome.new_button.setEnabled(False)
            return
        from ..app import errors  # not at module level: the window paints first

        try:
            events = self.store.list_events()
        except errors.StoreError as exc:
            QtWidgets.QMessageBox.critical(
                self, self.language.tr("store_error"), describe(exc, self.language.lang)
            )
            events = []
        self._list_events(events, self.store.where)

    def _list_events(self, events: list[EventInfo], where: str) -> None:
        """The welcome page's events, the station's last event chosen (or, right after a
        glance, the one the referee chose meanwhile)."""
        role = QtCore.Qt.ItemDataRole.UserRole
        chosen = self.welcome.events.currentItem() if self._glanced else None
        last = self.settings.value("last_event") if chosen is None else chosen.data(role)
        self._glanced = False
        self.welcome.events.clear()
        self.welcome.new_button.setEnabled(True)
        for ev in events:
            item = QtWidgets.QListWidgetItem(f"{ev.name}   {ev.date or ''}   [{ev.rulebook_id}]")
            item.setData(role, ev.id)
            self.welcome.events.addItem(item)
        if events:
            row = next((i for i, ev in enumerate(events) if str(ev.id) == str(last)), len(events) - 1)
            self.welcome.events.setCurrentRow(row)
        self.welcome.open_button.setEnabled(bool(events))
        self.welcome.where.setText(self.language.tr("store_at", where=where))

    def show_glance(self, where: str, events: list[EventInfo], finish: Callable[[], object]) -> None:
        """The store's events as read at a glance (:mod:`..app.glance`) while the store's code
        loads: listed and chosen as usual. Choosing (打开赛事, 新建赛事, a double-click) first
        finishes opening the store (``finish``), under a busy cursor if it is still loading."""
        self._finish_store = finish
        self._list_events(events, where)
        self._glanced = True

    def store_ready(self) -> bool:
        """Whether the store is open, finishing its opening first if only a glance is shown."""
        if self.store is None and self._finish_store is not None:
            finish, self._finish_store = self._finish_store, None
            finish()
        return self.store is not None

    def show_events(self) -> None:
        self.remember_place(None, None)
        self.fill_events()
        self.stack.setCurrentWidget(self.welcome)

    def new_rulebook(self) -> Any:
        """规则 → 新建规则…: a bundled rulebook copied to a file, then opened in the editor."""
        from .rulebook_dialogs import NewRulebookDialog

        dialog = NewRulebookDialog(self.language, None, self)
        if dialog.exec() != QtWidgets.QDialog.DialogCode.Accepted or dialog.written is None:
            return None
        return self.edit_rulebook(str(dialog.written))

    def edit_rulebook(self, path: str | None = None) -> Any:
        """规则 → 编辑规则文件…: a rulebook file opened in the editor (a file chosen if none
        is given); the editor once closed."""
        from ..core.errors import Reported
        from .new_event import open_editor
        from .rulebook_editor import RulebookEditor
        from .widgets import FILE_DIALOG

        if path is None:
            path, _ = QtWidgets.QFileDialog.getOpenFileName(
                self, self.language.tr("rulebook_edit_file"), "", "TOML (*.toml)", options=FILE_DIALOG
            )
            if not path:
                return None
        try:
            editor = RulebookEditor(self.language, path, self)
        except Reported as exc:  # not UTF-8, not TOML: said, nothing opened
            QtWidgets.QMessageBox.warning(
                self, self.language.tr("rulebook_edit_file"), describe(exc, self.language.lang)
            )
            return None
        open_editor(editor, self)
        editor.exec()
        return editor

    def new_event(self) -> Any:
        if not self.store_ready():
            return None
        from ..app import errors  # not at module level: the window paints first

        if self.store is None or self.actor is None:
            return None
        from .new_event import NewEventDialog

        dialog = NewEventDialog(self.language, self)
        if dialog.exec() != QtWidgets.QDialog.DialogCode.Accepted or dialog.rulebook is None:
            return None
        from ..app.session import Session

        try:
            info = Session.create_event(
                self.store,
                dialog.name.text().strip(),
                dialog.rulebook,
                dialog.date.date().toString("yyyy-MM-dd"),
                self.actor,
            )
        except errors.StoreError as exc:
            QtWidgets.QMessageBox.warning(
                self, self.language.tr("not_saved"), describe(exc, self.language.lang)
            )
            return None
        self.fill_events()
        self.open_event(info.id)
        return info

    def open_demo(self) -> Any:
        """赛事 → 打开示例赛事: build the demo event (Gansu, 12 pairs, a round played) in a
        new store file of its own and work on it. The station's own store is closed, never
        written; 打开赛事 on it again needs a restart (the window opens the station's store)."""
        from ..app import errors  # not at module level: the window paints first
        from ..app.demo import build_demo, default_demo_path
        from ..app.store import open_store

        if self.actor is None:
            return None
        QApplication.setOverrideCursor(QtCore.Qt.CursorShape.WaitCursor)  # a few seconds
        try:
            built = build_demo(default_demo_path(), self.language.lang)
            store = open_store(str(built.path), actor=self.actor, hold=True)
        except (errors.StoreError, OSError) as exc:
            QApplication.restoreOverrideCursor()
            text = describe(exc, self.language.lang) if isinstance(exc, errors.StoreError) else str(exc)
            QtWidgets.QMessageBox.warning(self, self.language.tr("store_error"), text)
            return None
        QApplication.restoreOverrideCursor()
        previous = self.store
        self.use_store(store, self.actor)
        self.open_event(built.event_id)
        if previous is not None and previous is not store:
            previous.close()
        self.say(self.language.tr("demo_opened", file=built.path.name))  # the folder: 打开赛事
        return built

    def show_manual(self) -> Any:
        """帮助 → 使用手册 (F1): the manual shipped with the app, in the window's language."""
        from .manual import ManualWindow

        if self.manual is None:
            self.manual = ManualWindow(self.language, self)
        self.manual.show_home()
        self.manual.show()
        self.manual.raise_()
        self.manual.activateWindow()
        return self.manual

    def show_about(self) -> Any:
        """帮助 → 关于: the version, the licence and every third-party component's."""
        from .about import AboutDialog

        dialog = AboutDialog(self.language, self)
        dialog.open()
        return dialog

    def open_selected(self) -> None:
        if not self.store_ready():
            return
        item = self.welcome.events.currentItem()
        if item is not None:
            self.open_event(int(item.data(QtCore.Qt.ItemDataRole.UserRole)))

    def open_event(self, event_id: int) -> None:
        from ..app import errors  # not at module level: the window paints first
        from ..app.session import Session
        from .hall import HallView
        from .table_view import TableView
        from .watch import StoreWatcher

        if self.store is None or self.actor is None:
            return
        try:
            info = self.store.pick_event(event_id)
            self.session = Session(self.store, info, self.actor, self.language.lang)
        except (errors.StoreError, errors.RulebookError) as exc:
            QtWidgets.QMessageBox.warning(
                self, self.language.tr("store_error"), describe(exc, self.language.lang)
            )
            return
        self.settings.setValue("last_event", event_id)
        self.remember_place(event_id, None)
        self.close_hall_web()  # it served the event closed now
        self.close_big_screens()
        for view in (self.hall, self.table_view, self.standings_view, self.pairing_view, self.appeals_view):
            if view is not None:
                self.stack.removeWidget(view)
                view.deleteLater()
        if self.audit_view is not None:
            self.stack.removeWidget(self.audit_view)
            self.audit_view.deleteLater()
        self.standings_view = self.pairing_view = self.appeals_view = self.audit_view = None
        self.hall = HallView(self.language, self.session)
        self.hall.openTable.connect(self.open_table)
        self.hall.saved.connect(self.say)
        self.hall.clock.start_button.clicked.connect(self.remember_clock)
        self.hall.clock.extend_button.clicked.connect(lambda: self.change_clock("extend"))
        self.hall.clock.adjust_button.clicked.connect(lambda: self.change_clock("adjust"))
        self.restore_clock()
        self.hall.round.valueChanged.connect(lambda *_: self.restore_clock())
        # every station follows the store: a change made at another station shows here by itself
        if self.watcher is not None:
            self.watcher.timer.stop()
            self.watcher.deleteLater()
        self.watcher = StoreWatcher(self.session.store_head, parent=self, since=self.session.changes_since)
        self.watcher.changes.connect(self.store_changed)
        self.table_view = TableView(self.language, self.session, self.hall.clock.minutes_since_start)
        self.table_view.back.connect(self.show_hall)
        clock = self.hall.clock
        self.table_view.seconds_left = lambda: (
            None if clock.minutes_since_start() is None else clock.remaining()
        )
        self.table_view.saved.connect(self.say)
        self.table_view.drafts = self.drafts
        self.table_view.login = self.login
        self.stack.addWidget(self.hall)
        self.stack.addWidget(self.table_view)
        for act in (
            self.act_import,
            self.act_hall,
            self.act_standings,
            self.act_pairing,
            self.act_appeals,
            self.act_login,
            self.act_hall_web,
            self.act_big_screen,
            self.act_end_round,
            self.act_publish_scores,
            self.act_set_pin,
            self.act_audit,
        ):
            act.setEnabled(True)
        self.show_hall()
        self.retranslate()
        if self.session.roles_enforced():
            self.login()  # the store checks every write against the role logged in

    def login(self, dialog: LoginDialog | None = None, *, refused: BaseException | None = None) -> bool:
        """Log this station in to a role with its PIN (裁判员, 裁判长, 仲裁委员会); after a
        refusal (``refused``), the role the refused act needs is preselected."""
        if self.session is None:
            return False
        if dialog is None:
            from .login import LoginDialog

            needs = list(getattr(refused, "values", {}).get("needs") or [])
            dialog = LoginDialog(self.language, self.session, self, needs[0] if needs else None)
        self.active_dialog = dialog
        accepted = dialog.exec() == QtWidgets.QDialog.DialogCode.Accepted
        self.active_dialog = None
        self.retranslate()
        return accepted

    def show_hall(self) -> None:
        if self.hall is not None:
            if self.session is not None:
                self.remember_place(self.session.event.id, None)
            if self.watcher is not None:
                self.watcher.poll()  # what changed since the hall was drawn (this station's saves too)
            else:
                self.hall.refresh()
            self.stack.setCurrentWidget(self.hall)

    def _desk_view(self, attribute: str, make: Any, wire: Any = None) -> Any:
        """A chief referee's view, made (and its signals wired) on first use, then kept."""
        view = getattr(self, attribute)
        if view is None:
            view = make()
            view.back.connect(self.show_hall)
            if wire is not None:
                wire(view)
            self.stack.addWidget(view)
            setattr(self, attribute, view)
        return view

    def show_hall_web(self) -> None:
        """The hall web page's dialog: start it on an interface, see who reads, stop it."""
        if self.session is None:
            return
        from .hall_web import HallWebDialog

        if self.hall_web is None:
            self.hall_web = HallWebDialog(self.language, self.session, self)
        self.hall_web.show()
        self.hall_web.raise_()

    def show_big_screen(self, dialog: Any = None) -> Any:
        """The hall display or the hall overview on a screen chosen (a projector), full screen
        (Esc leaves it) or in a window that fits that screen; it follows the store by itself."""
        if self.session is None:
            return None
        from .hall_display import BigScreenDialog, HallDisplay, HallOverviewScreen, show_on_screen

        dialog = dialog or BigScreenDialog(self.language, self)
        self.active_dialog = dialog
        accepted = dialog.exec() == QtWidgets.QDialog.DialogCode.Accepted
        self.active_dialog = None
        if not accepted:
            return None
        screen: QtWidgets.QWidget
        if dialog.overview.isChecked():
            screen = HallOverviewScreen(self.language, self.session)
        else:
            screen = HallDisplay(self.session)
        screen.setAttribute(QtCore.Qt.WidgetAttribute.WA_DeleteOnClose)
        screen.destroyed.connect(
            lambda *_, w=screen: self.big_screens.remove(w) if w in self.big_screens else None
        )
        self.big_screens.append(screen)
        show_on_screen(screen, dialog.screen_chosen(), full_screen=dialog.full_screen.isChecked())
        return screen

    def close_big_screens(self) -> None:
        for screen in list(self.big_screens):
            screen.close()
        self.big_screens.clear()

    def close_hall_web(self) -> None:
        if self.hall_web is not None:
            self.hall_web.stop()
            self.hall_web.close()
            self.hall_web.deleteLater()
            self.hall_web = None

    def show_appeals(self) -> None:
        if self.session is None:
            return
        from .appeals import AppealsView

        def wire(view: AppealsView) -> None:
            view.changed.connect(self.say)
            view.login = self.login

        view = self._desk_view("appeals_view", lambda: AppealsView(self.language, self.session), wire)
        view.refresh()
        self.stack.setCurrentWidget(view)

    # -- the chief referee's acts that needed the command line (issue 27 item 3) ------------------

    def as_role(self, action: Any) -> Any:
        """Run ``action`` (a Session operation); refused for this station's role, offer the
        PIN dialog and run it once more after a login. Refused again (or for another reason):
        the same box as every other refusal (未保存, the reason in the window's language), also
        said over the view. Returns what ``action`` returned, or None when refused."""
        from ..app import errors  # not at module level: the window paints first

        for attempt in (1, 2):
            try:
                return action()
            except errors.RoleError as exc:
                if attempt == 1 and self.login(refused=exc):
                    continue
                self.refuse(exc)
            except errors.StoreError as exc:
                self.refuse(exc)
            return None
        return None

    def refuse(self, error: BaseException) -> None:
        text = describe(error, self.language.lang)
        self.say(text, refused=True)
        QtWidgets.QMessageBox.warning(self, self.language.tr("not_saved"), text)

    def _confirm(self, title: str, question: str) -> bool:
        buttons = QtWidgets.QMessageBox.StandardButton
        answer = QtWidgets.QMessageBox.question(self, title, question, buttons.Yes | buttons.No, buttons.No)
        return answer == buttons.Yes

    def _round_shown(self) -> int:
        return self.hall.round.value() if self.hall is not None else 1

    def end_round(self, round_no: int | None = None) -> dict[str, Any] | None:
        """Record the round's end (结束本轮), as ``referee-app round end`` does: the hall's
        round unless given; asks first; the chief referee's act."""
        session = self.session
        if session is None:
            return None
        rnd = round_no or self._round_shown()
        tr = self.language.tr
        if not self._confirm(tr("desk_end_round"), tr("desk_end_round_confirm", round=rnd)):
            return None
        ended = self.as_role(lambda: session.end_round(rnd))
        if ended is None:
            return None
        said = tr("round_ended", round=rnd, at=local_time(ended.record["at"]))
        if ended.copy_error is not None:  # the end is recorded; the copy could not be kept
            said += " " + tr("round_copy_failed", reason=describe(ended.copy_error, self.language.lang))
        else:
            said += " " + tr("round_copy_kept", file=ended.copy.where)
        self.say(said)
        self.restore_clock()
        return ended.record

    def publish_scores(self, round_no: int | None = None) -> dict[str, Any] | None:
        """Record the publication of the round's scores (公布成绩), as ``referee-app round
        scores`` does."""
        session = self.session
        if session is None:
            return None
        rnd = round_no or self._round_shown()
        tr = self.language.tr
        if not self._confirm(tr("publish_scores"), tr("publish_scores_confirm", round=rnd)):
            return None
        record = self.as_role(lambda: session.publish_scores(rnd))
        if record is not None:
            self.say(tr("scores_published", round=rnd, at=local_time(record["at"])))
            self.restore_clock()
        return record

    def set_pin(self, role: str | None = None) -> bool:
        """Set or change a role's PIN in the window (设置角色 PIN), as ``referee-app role
        set-pin`` does; True once the store has it."""
        if self.session is None:
            return False
        from .chief import SetPinDialog

        dialog = SetPinDialog(self.language, self.session, self, role)
        self.active_dialog = dialog
        accepted = dialog.exec() == QtWidgets.QDialog.DialogCode.Accepted
        self.active_dialog = None
        if accepted:
            self.say(self.language.tr("pin_set", role=self.language.tr(f"role_{dialog.role}")))
        self.retranslate()
        return accepted

    def show_audit_log(self) -> None:
        if self.session is None:
            return
        from .chief import AuditLogView

        view = self._desk_view("audit_view", lambda: AuditLogView(self.language, self.session))
        view.refresh()
        self.stack.setCurrentWidget(view)

    def show_standings(self) -> None:
        if self.session is None:
            return
        from .desk import StandingsView

        view = self._desk_view("standings_view", lambda: StandingsView(self.language, self.session))
        rounds = self.session.rounds()
        if rounds:
            view.round.setValue(rounds[-1])
        view.refresh()
        self.stack.setCurrentWidget(view)

    def show_pairing(self) -> None:
        if self.session is None:
            return
        from .desk import PairingView

        view = self._desk_view(
            "pairing_view",
            lambda: PairingView(self.language, self.session),
            self._wire_pairing,
        )
        view.round.setValue(max(self.session.rounds(), default=0) + 1)
        view.compute()
        self.stack.setCurrentWidget(view)

    def _wire_pairing(self, view: PairingView) -> None:
        view.published.connect(self.pairing_published)
        view.web_url = self.hall_web_url

    def hall_web_url(self) -> str | None:
        """The hall web page's address while it runs from this window (for a printed QR code)."""
        if self.hall_web is not None and self.hall_web.running:
            return self.hall_web.shown_url() or None
        return None

    def pairing_published(self, round_no: int) -> None:
        self.say(self.language.tr("pairing_published", round=round_no))
        if self.hall is not None:
            self.hall.round.setValue(round_no)

    def open_table(self, round_no: int, table_no: int) -> None:
        if self.session is None or self.table_view is None:
            return
        record = self.session.table(round_no, table_no)
        if record is None:
            return
        self.table_view.load(record)
        self.stack.setCurrentWidget(self.table_view)
        self.remember_place(self.session.event.id, (round_no, table_no))

    # -- a restart returns where the station was -------------------------------------------------

    def _place_key(self) -> str:
        return f"place/{self.drafts.prefix}"  # per store: a station may open several

    def remember_place(self, event_id: int | None, table: tuple[int, int] | None) -> None:
        """The event and table open now, written at once (a killed app cannot write later)."""
        if self.store is None:
            return
        key = self._place_key()
        self.settings.setValue(f"{key}/event", event_id or 0)
        self.settings.setValue(f"{key}/table", f"{table[0]}/{table[1]}" if table else "")
        self.settings.sync()

    def returns_into_an_event(self, where: str) -> bool:
        """Whether a start on the store at ``where`` goes back into an event (the station was
        in one at quit or crash, or typed input waits to be offered back): the store is then
        opened at once, since the event needs it, rather than glanced at first."""
        from ..app.drafts import Drafts

        drafts = Drafts(where)
        if drafts.pending():
            return True
        try:
            return int(str(self.settings.value(f"place/{drafts.prefix}/event", 0) or 0)) != 0
        except ValueError:
            return False

    def resume(self) -> None:
        """On start: reopen the event and table open at quit or crash, and offer back what was
        typed and not confirmed (a hand's points, an open ruling dialog)."""
        if self.store is None:
            return
        pending = self.drafts.pending()
        key = self._place_key()
        try:
            event_id = int(str(self.settings.value(f"{key}/event", 0) or 0))
            round_no, _, table_no = str(self.settings.value(f"{key}/table", "") or "").partition("/")
            table = (int(round_no), int(table_no)) if table_no else None
        except ValueError:
            event_id, table = 0, None
        draft = pending.get("ruling") or pending.get("hand")
        if draft is not None:  # the drafts' table, wherever the station was last
            event_id, table = int(draft["event"]), (int(draft["round"]), int(draft["table"]))
        if event_id and any(ev.id == event_id for ev in self.store.list_events()):
            self.open_event(event_id)
            if table is not None and self.session is not None and self.session.event.id == event_id:
                self.open_table(*table)
        if not pending:
            return
        view = self.table_view
        here = None if view is None or view.record is None else (view.record.round, view.record.table)
        if draft is None or view is None or here != (draft["round"], draft["table"]):
            for name in pending:
                self.drafts.discard(name)
            return
        tr = self.language.tr
        what = "\n".join(tr(f"draft_{n}", round=d["round"], table=d["table"]) for n, d in pending.items())
        answer = QtWidgets.QMessageBox.question(
            self,
            tr("restore_drafts_title"),
            f"{tr('restore_drafts')}\n\n{what}",
            QtWidgets.QMessageBox.StandardButton.Yes | QtWidgets.QMessageBox.StandardButton.No,
            QtWidgets.QMessageBox.StandardButton.Yes,
        )
        if answer != QtWidgets.QMessageBox.StandardButton.Yes:
            for name in pending:
                self.drafts.discard(name)
            view.clear_hand_form()
            return
        if "hand" in pending:
            view.restore_hand_draft(pending["hand"])
        if "ruling" in pending:
            dialog = pending["ruling"].get("dialog") or {}
            view.log_infraction(str(dialog.get("kind")), draft=dialog)

    def import_pairs(self, path: str | None = None) -> int:
        from ..app import errors  # not at module level: the window paints first

        if self.session is None:
            return 0
        if not path:
            from .widgets import FILE_DIALOG

            # an entry list as the office sends it: Excel (old or new) or a CSV/TSV text file
            kinds = f"{self.language.tr('entry_list_files')} (*.xlsx *.xls *.csv *.txt)"
            path, _ = QtWidgets.QFileDialog.getOpenFileName(
                self,
                self.language.tr("import_pairs"),
                "",
                f"{kinds};;Excel (*.xlsx *.xls);;CSV (*.csv *.txt)",
                options=FILE_DIALOG,
            )
            if not path:
                return 0
        try:
            count = self.session.import_pairs(path)
        except errors.StoreError as exc:
            QtWidgets.QMessageBox.warning(
                self, self.language.tr("not_saved"), describe(exc, self.language.lang)
            )
            return 0
        self.say(self.language.tr("pairs_imported", count=count))
        return count

    # -- backups (文件 → 备份… / 恢复…) ------------------------------------------------------------

    def _acting(self) -> tuple[Any, int | None]:
        """Who backs up or restores, and on which event's roles: the open event's login."""
        if self.session is not None:
            return self.session.actor, self.session.event.id
        return self.actor, None

    def backup_store(self, path: str | None = None) -> Any:
        """Copy the whole store to a file (safe while this and other stations write); the
        copy is verified before it is reported, with its head hash to note on paper."""
        from ..app import errors  # not at module level: the window paints first

        if self.store is None:
            return None
        tr = self.language.tr
        if not path:
            from .widgets import FILE_DIALOG

            suggested = time.strftime("referee-backup-%Y%m%d-%H%M.db")
            path, _ = QtWidgets.QFileDialog.getSaveFileName(
                self, tr("backup_title"), suggested, tr("backup_filter"), options=FILE_DIALOG
            )
            if not path:
                return None
        actor, event_id = self._acting()
        try:
            # the save dialog asked before a file already there is replaced
            done = self.store.backup(path, actor=actor, event_id=event_id, force=True)
        except errors.StoreError as exc:
            QtWidgets.QMessageBox.warning(self, tr("backup_failed"), describe(exc, self.language.lang))
            return None
        self.say(tr("backup_done_short", file=done.where))
        self.update_trust_notice()
        self._tell(tr("backup_title"), tr("backup_done", file=done.where, n=done.entries, anchor=done.anchor))
        return done

    def restore_store(self, path: str | None = None) -> Any:
        """Replace the whole store by a backup file, after the file is checked (a referee-app
        store that verifies) and the referee confirms; refused while another station has it
        open. The event is closed: it is opened again from the restored store."""
        from ..app import errors  # not at module level: the window paints first

        if self.store is None:
            return None
        tr = self.language.tr
        if not path:
            from .widgets import FILE_DIALOG

            path, _ = QtWidgets.QFileDialog.getOpenFileName(
                self, tr("restore_title"), "", tr("backup_filter"), options=FILE_DIALOG
            )
            if not path:
                return None
        answer = QtWidgets.QMessageBox.question(
            self,
            tr("restore_title"),
            tr("restore_confirm", file=path, where=self.store.where),
            QtWidgets.QMessageBox.StandardButton.Yes | QtWidgets.QMessageBox.StandardButton.No,
            QtWidgets.QMessageBox.StandardButton.No,
        )
        if answer != QtWidgets.QMessageBox.StandardButton.Yes:
            return None
        actor, event_id = self._acting()
        if self.watcher is not None:
            self.watcher.timer.stop()
        try:
            done = self.store.restore(path, actor=actor, event_id=event_id)
        except errors.StoreError as exc:
            if self.watcher is not None:
                self.watcher.timer.start()
            QtWidgets.QMessageBox.warning(self, tr("restore_failed"), describe(exc, self.language.lang))
            return None
        self._close_event()
        self.show_events()
        self.say(tr("restore_done_short", file=path))
        self._tell(tr("restore_title"), tr("restore_done", file=path, n=done.entries, head=done.head))
        return done

    def keep_anchor(self, path: str | None = None) -> Any:
        """Append the chain's head to an anchor file (kept off this computer: a USB stick,
        another station) and note it in the log; shown to be copied on paper too."""
        from ..app import errors  # not at module level: the window paints first
        from ..app.trust import keep_anchor

        if self.store is None:
            return None
        tr = self.language.tr
        if not path:
            from .widgets import FILE_DIALOG

            # appended to, never replaced: no question about a file already there
            options = FILE_DIALOG | QtWidgets.QFileDialog.Option.DontConfirmOverwrite
            path, _ = QtWidgets.QFileDialog.getSaveFileName(
                self, tr("keep_anchor_title"), "anchors.txt", tr("anchor_filter"), options=options
            )
            if not path:
                return None
        actor, _event_id = self._acting()
        try:
            anchor = keep_anchor(self.store, actor, path)
        except errors.StoreError as exc:
            QtWidgets.QMessageBox.warning(self, tr("not_saved"), describe(exc, self.language.lang))
            return None
        self.update_trust_notice()
        self._tell(tr("keep_anchor_title"), tr("anchor_kept", file=path, anchor=anchor.text()))
        return anchor

    def update_trust_notice(self) -> None:
        """Tell the chief referee (or anyone, on an event without PINs) what the store's
        trust lacks now: station keys, an anchor since the last round (``app.trust``)."""
        if self.hall is None or self.session is None:
            return
        from ..app import errors  # not before an event is open: the window paints first

        session = self.session
        found: list[tuple[str, dict[str, Any]]] = []
        if not session.roles_enforced() or session.role == "chief_referee":
            try:
                found = session.trust_notices()
            except errors.StoreError:
                found = []
        tr = self.language.tr
        self.hall.trust_notice.setText("\n".join(tr(key, **values) for key, values in found))
        self.hall.trust_notice.setVisible(bool(found))

    def _tell(self, title: str, text: str) -> None:
        box = QtWidgets.QMessageBox(QtWidgets.QMessageBox.Icon.Information, title, text, parent=self)
        box.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.active_dialog = box
        box.exec()
        self.active_dialog = None

    def _close_event(self) -> None:
        """The open event's views and session dropped (the store under them was replaced)."""
        if self.watcher is not None:
            self.watcher.timer.stop()
            self.watcher.deleteLater()
            self.watcher = None
        for view in (self.hall, self.table_view, self.standings_view, self.pairing_view, self.appeals_view):
            if view is not None:
                self.stack.removeWidget(view)
                view.deleteLater()
        self.hall = self.table_view = None
        self.standings_view = self.pairing_view = self.appeals_view = None
        self.session = None
        for act in (self.act_import, self.act_hall, self.act_standings, self.act_pairing, self.act_appeals):
            act.setEnabled(False)
        self.act_login.setEnabled(False)
        self.retranslate()

    def toggle_language(self) -> None:
        self.language.set("en" if self.language.lang == "zh" else "zh")
        if self.session is not None:
            self.session.lang = self.language.lang
            if self.table_view is not None and self.table_view.record is not None:
                self.table_view.reload()
            if self.hall is not None:
                self.hall.refresh()

    def say(self, message: str, *, refused: bool = False) -> None:
        """Feedback that matters (saved, imported, refused) where the referee is looking: a
        banner over the top of the view, for a few seconds, and in the status bar."""
        self.statusBar().showMessage(message, 8000)
        if self.banner is None:
            self.banner = QLabel(self)
            self.banner.setObjectName("feedbackBanner")
            self.banner.setWordWrap(True)
            self.banner.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
            # a passing message: the buttons under it still take their clicks
            self.banner.setAttribute(QtCore.Qt.WidgetAttribute.WA_TransparentForMouseEvents)
            self.banner_timer = QtCore.QTimer(self)
            self.banner_timer.setSingleShot(True)
            self.banner_timer.timeout.connect(self.banner.hide)
            # said in the hall, still shown at the table: placed for the view now shown
            self.stack.currentChanged.connect(lambda *_: self._place_banner())
        colours = ("#ffebee", "#b71c1c", "#c62828") if refused else ("#e8f5e9", "#1b5e20", "#2e7d32")
        self.banner.setStyleSheet(
            f"background: {colours[0]}; color: {colours[1]}; border: 2px solid {colours[2]};"
            " border-radius: 6px; padding: 6px 14px; font-weight: bold;"
        )
        self.banner.setText(message)
        self._place_banner()
        self.banner.show()
        self.banner.raise_()
        self.banner_timer.start(6000 if refused else 4000)

    def _place_banner(self) -> None:
        """Centred over the top of the view, at most half its width; under the view's top
        row where the view says it must stay in sight (``banner_top``: the hall's round
        clock, which the banner hid for its seconds)."""
        if self.banner is None:
            return
        central = self.centralWidget()
        if central is None:
            return
        area = central.geometry()
        width = min(max(320, area.width() // 2), area.width() - 16)
        self.banner.setFixedWidth(width)
        height = self.banner.heightForWidth(width)
        top = area.top() + 6
        view = self.stack.currentWidget()
        banner_top = getattr(view, "banner_top", None)
        if view is not None and callable(banner_top):
            top = max(top, view.mapTo(self, QtCore.QPoint(0, int(banner_top()))).y() + 4)
        self.banner.setGeometry(area.left() + (area.width() - width) // 2, top, width, height)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._place_banner()

    # -- the round clock survives a restart -------------------------------------------------------

    def _clock_key(self) -> str:
        assert self.store is not None and self.session is not None and self.hall is not None
        return f"clock/{self.store.where}/{self.session.event.id}/{self.hall.round.value()}"

    def remember_clock(self) -> None:
        from ..app import errors  # not at module level: the window paints first

        if self.hall is None:
            return
        clock = self.hall.clock
        self.settings.setValue(self._clock_key(), f"{clock.started_at or 0}|{clock.elapsed_before}")
        if self.session is None or clock.finished:
            # a round ended and published: its clock stopped on the screen, not by a pause
            # (closing a table referee's window asked for the chief referee's role to pause it)
            return
        # the hall's one clock is in the store: the chief referee's start/pause is recorded
        rnd = self.hall.round.value()
        try:
            phase = self.session.clock(rnd).phase
            if clock.running and phase in ("not_started", "paused"):
                self.session.clock_act(rnd, "start" if phase == "not_started" else "resume")
            elif not clock.running and phase == "running":
                self.session.clock_act(rnd, "pause")
        except errors.StoreError as exc:
            QtWidgets.QMessageBox.warning(
                self, self.language.tr("not_saved"), describe(exc, self.language.lang)
            )
            self.restore_clock()

    def change_clock(self, action: str, dialog: Any = None) -> bool:
        """Extend or adjust the round clock (``action``), with the chief referee's reason; the
        role's login is offered when this station is not logged in as chief referee."""
        from ..app import errors  # not at module level: the window paints first
        from .chief import ClockChangeDialog

        if self.session is None or self.hall is None:
            return False
        session, rnd = self.session, self.hall.round.value()
        dialog = dialog or ClockChangeDialog(self.language, action, self)

        def act(minutes: int, reason: str) -> None:
            try:
                session.clock_act(rnd, action, minutes, reason)
            except errors.RoleError as exc:
                if not self.login(refused=exc):
                    raise
                session.clock_act(rnd, action, minutes, reason)

        dialog.act = act
        self.active_dialog = dialog
        accepted = dialog.exec() == QtWidgets.QDialog.DialogCode.Accepted
        self.active_dialog = None
        if not accepted:
            return False
        self.restore_clock()
        minutes = dialog.minutes.value()
        shown = f"{minutes:+d}".replace("-", "−") if action == "adjust" else str(minutes)
        self.say(self.language.tr(f"clock_{action}_done", minutes=shown))
        return True

    def store_changed(self, changes: OpChanges) -> None:
        """Another station (or this one) wrote to the store: show what it changed."""
        if self.table_view is not None and self.stack.currentWidget() is self.table_view:
            self.table_view.apply(changes)  # the table open here, saved at another station
        if self.hall is not None:
            self.hall.apply(changes)
            if changes.everything or changes.desk or self.hall.round.value() in changes.clock:
                self.restore_clock()
            self.update_trust_notice()

    def restore_clock(self) -> None:
        from ..app import errors  # not at module level: the window paints first

        if self.hall is None:
            return
        finished = False
        if self.session is not None:
            try:
                marks = self.session.round_marks(self.hall.round.value())
                # the round over (ended, its scores published): the clock as it stood at the end
                finished = {"round_end", "scores_published"} <= marks.keys()
                st = self.session.clock(self.hall.round.value(), marks["round_end"] if finished else None)
                changes = self.session.clock_changes(self.hall.round.value())
            except errors.StoreError:
                st, changes = None, []
            self.hall.clock.show_changes([(a.action, a.minutes, a.reason) for a in changes])
            if st is not None:
                self.hall.clock.total = st.total_s  # extended before it started, too
            if st is not None and st.phase != "not_started":
                self.hall.clock.total = st.total_s
                running = st.phase == "running"
                self.hall.clock.restore(
                    time.time() - st.elapsed_s if running else None,
                    0.0 if running else st.elapsed_s,
                    finished=finished,
                    started=True,
                )
                return
        raw = str(self.settings.value(self._clock_key(), "0|0"))
        started, _, elapsed = raw.partition("|")
        try:
            started_at = float(started) or None
            elapsed_before = float(elapsed or 0)
        except ValueError:
            started_at, elapsed_before = None, 0.0
        if started_at is not None and started_at > time.time():
            started_at = None
        self.hall.clock.restore(started_at, elapsed_before, finished=finished)

    def retranslate(self, *_: object) -> None:
        tr = self.language.tr
        title = tr("app_title")
        if self.session is not None:
            rb = self.session.rulebook
            title = f"{self.session.event.name} — {rb.name(self.language.lang)} — {title}"
            if not self.session.roles_enforced():
                who = tr("roles_open")
            elif self.session.role:
                who = tr("logged_in_as", role=tr(f"role_{self.session.role}"))
            else:
                who = tr("not_logged_in")
            self.status_label.setText(f"{who}　{tr('rulebook_status', id=rb.id, sha=rb.sha256[:12])}")
        self.setWindowTitle(title)
        self.menu_file.setTitle(tr("menu_file"))
        self.act_open_store.setText(tr("open_store_menu"))
        self.menu_recent.setTitle(tr("recent_stores_menu"))
        self.act_backup.setText(tr("backup_menu"))
        self.act_restore.setText(tr("restore_menu"))
        self.act_keep_anchor.setText(tr("keep_anchor_menu"))
        self.update_trust_notice()
        self.menu_event.setTitle(tr("menu_event"))
        self.menu_view.setTitle(tr("menu_view"))
        self.act_new.setText(tr("new_event"))
        self.act_open.setText(tr("open_event"))
        self.act_import.setText(tr("import_pairs"))
        self.act_hall.setText(tr("hall"))
        self.act_lang.setText(tr("switch_language"))
        self.act_quit.setText(tr("quit"))
        self.act_demo.setText(tr("open_demo"))
        self.menu_help.setTitle(tr("menu_help"))
        self.menu_rules.setTitle(tr("menu_rules"))
        self.act_rules_new.setText(tr("rulebook_new"))
        self.act_rules_edit.setText(tr("rulebook_edit_file"))
        self.act_manual.setText(tr("manual"))
        self.act_about.setText(tr("about"))
        self.menu_desk.setTitle(tr("menu_desk"))
        self.act_standings.setText(tr("standings"))
        self.act_pairing.setText(tr("pairing"))
        self.act_appeals.setText(tr("appeals_desk"))
        self.act_login.setText(tr("switch_role"))
        self.act_print_round.setText(tr("print_round"))
        self.act_print_prizes.setText(tr("print_prizes"))
        self.act_hall_web.setText(tr("hall_web"))
        self.act_big_screen.setText(tr("big_screen_menu"))
        self.act_end_round.setText(tr("desk_end_round"))
        self.act_publish_scores.setText(tr("publish_scores"))
        self.act_set_pin.setText(tr("set_pin_menu"))
        self.act_audit.setText(tr("audit_log"))

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if self.table_view is not None and self.table_view.unconfirmed_input():
            answer = QtWidgets.QMessageBox.question(
                self,
                self.language.tr("quit"),
                self.language.tr("quit_unconfirmed"),
                QtWidgets.QMessageBox.StandardButton.Yes | QtWidgets.QMessageBox.StandardButton.No,
                QtWidgets.QMessageBox.StandardButton.No,
            )
            if answer != QtWidgets.QMessageBox.StandardButton.Yes:
                event.ignore()
                return
            self.drafts.discard("hand")  # the referee chose to drop them
        if self.hall is not None:
            self.remember_clock()
        self.close_hall_web()
        self.close_big_screens()
        super().closeEvent(event)
