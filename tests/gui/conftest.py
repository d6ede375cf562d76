"""Fixtures for driving the real desktop app offscreen against a real SQLite file."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
if os.environ["QT_QPA_PLATFORM"] == "offscreen":
    # the smallest laptop screen a referee brings (issue 15): every window and dialog must fit
    SMALL_SCREEN = Path(__file__).with_name("small_screen.json")
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={SMALL_SCREEN}"

from PySide6.QtCore import QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication, QLineEdit, QWidget  # noqa: E402

from referee_app.app.session import Session  # noqa: E402
from referee_app.core.rulebook import load_rulebook  # noqa: E402
from referee_app.gui.i18n import Language  # noqa: E402
from referee_app.gui.main_window import MainWindow  # noqa: E402
from referee_app.store.service import Actor, Store  # noqa: E402

PAIRS = (
    "number,player1,player2,unit\n1,张三,李四,一队\n2,王五,赵六,二队\n3,孙七,周八,三队\n4,吴九,郑十,四队\n"
)


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # each test's own data folder: the drafts (typed, unconfirmed input) live there
    # (the station's settings: tests/conftest.py gives each test its own)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    yield


@pytest.fixture()
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "event.sqlite"


@pytest.fixture()
def pairs_csv(tmp_path: Path) -> Path:
    path = tmp_path / "pairs.csv"
    path.write_text(PAIRS, encoding="utf-8")
    return path


def _drop_typed_points(window: MainWindow) -> None:
    if window.table_view is not None:
        window.table_view.clear_hand_form()


@pytest.fixture()
def make_window(qtbot, db_path: Path) -> Callable[..., MainWindow]:
    stores: list[Store] = []

    def make(lang: str = "zh") -> MainWindow:
        actor = Actor("裁判一", "station-1")
        store = Store.open(str(db_path), create=True, actor=actor)
        stores.append(store)
        window = MainWindow(Language(lang))
        # closing asks about typed, unconfirmed points: the teardown's close must not block
        qtbot.addWidget(window, before_close_func=_drop_typed_points)
        window.resize(1400, 860)
        window.show()
        assert window.store is None and not window.act_new.isEnabled()  # nothing to act on yet
        window.use_store(store, actor)
        return window

    yield make
    for store in stores:
        store.close()


def open_event_with_table(window: MainWindow, rulebook_id: str, pairs_csv: Path) -> None:
    info = Session.create_event(
        window.store, f"测试赛 {rulebook_id}", load_rulebook(rulebook_id), "2026-11-30", window.actor
    )
    window.fill_events()
    window.open_event(info.id)
    assert window.import_pairs(str(pairs_csv)) == 4
    assert window.session is not None
    window.session.open_table(1, 1, "1", "2", "E")
    window.show_hall()
    window.open_table(1, 1)


def when_modal(action: Callable[[QWidget], None]) -> None:
    """Run ``action`` on the next modal dialog once it is shown (exec() blocks the test)."""

    def attempt(tries: int = 0) -> None:
        widget = QApplication.activeModalWidget()
        if widget is None:
            if tries > 200:
                raise AssertionError("no modal dialog appeared")
            QTimer.singleShot(10, lambda: attempt(tries + 1))
            return
        try:
            action(widget)
        except BaseException:
            widget.close()  # never leave a modal dialog blocking the test run
            raise
        if widget is QApplication.activeModalWidget() and widget.isVisible():
            # the action did not close it (a refused confirm): close it rather than hang
            widget.close()
            raise AssertionError(f"{type(widget).__name__} stayed open after the test's action")

    QTimer.singleShot(0, attempt)


def type_path(dialog: QWidget, path: Path) -> None:
    """``path`` typed into a file dialog's name box, as a referee may. Not ``selectFile``: the
    dialog lists its folder in the background, and a file written just before it opened may
    not be listed yet, so the selection is dropped and Open does nothing."""
    name = dialog.findChild(QLineEdit, "fileNameEdit")
    assert name is not None, "a file dialog without its name box"
    name.setText(str(path))


def when_shown(kind: type, action: Callable[[QWidget], None]) -> None:
    """Run ``action`` on the next modal dialog of ``kind`` once it is shown (one dialog
    opening another: :func:`when_modal` would take the first); closed if the action fails."""

    def attempt(tries: int = 0) -> None:
        widget = QApplication.activeModalWidget()
        if not isinstance(widget, kind) or not widget.isVisible():
            if tries > 500:
                raise AssertionError(f"no {kind.__name__} appeared")
            QTimer.singleShot(10, lambda: attempt(tries + 1))
            return
        try:
            action(widget)
        except BaseException:
            widget.done(0)  # not close(): a dialog asking about unsaved changes would block
            raise

    QTimer.singleShot(0, attempt)


def table_with_one_ruling_selected(window: MainWindow, pairs_csv: Path) -> None:
    """A BHG table with West's exposed card logged and its ruling selected (to void, appeal …)."""
    from .test_table_referee import fill

    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view

    def log(dialog: QWidget) -> None:
        fill(dialog, "W", {"cards": 1, "trick": 2})
        dialog.confirm()

    when_modal(log)
    assert view.log_infraction("exposed_card")
    view.rulings_view.selectRow(0)
