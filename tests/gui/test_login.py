"""The login dialog (角色登录) driven offscreen: PIN hidden, wrong PINs counted, the lock shown
at the field and lifted after a minute, the session in the role afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialog, QLineEdit

from referee_app.app.session import Session
from referee_app.core.rulebook import load_rulebook
from referee_app.gui.i18n import Language
from referee_app.gui.login import LoginDialog
from referee_app.store import roles
from referee_app.store.errors import RoleError
from referee_app.store.service import Actor, Store

CHIEF_PIN, ARB_PIN = "246879", "909090"


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 6, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(roles, "utcnow", c)
    return c


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    actor = Actor("裁判一", "station-1")
    store = Store.open(str(tmp_path / "event.sqlite"), create=True, actor=actor)
    ev = store.create_event(name="测试赛", rulebook=load_rulebook("bhg-2011"), date=None, actor=actor)
    yield Session(store, ev, actor, "zh")
    store.close()


def _dialog(qtbot, session: Session, lang: str = "zh") -> LoginDialog:  # type: ignore[no-untyped-def]
    dialog = LoginDialog(Language(lang), session)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def _choose(dialog: LoginDialog, role: str) -> None:
    dialog.role_combo.setCurrentIndex(dialog.role_combo.findData(role))


def _try(dialog: LoginDialog, pin: str) -> None:
    dialog.pin_edit.setText(pin)
    dialog.ok_button.click()


def test_wrong_pins_the_lock_and_a_login(qtbot, session: Session, clock: Clock) -> None:  # type: ignore[no-untyped-def]
    session.set_pin("chief_referee", CHIEF_PIN)  # the first PIN: this station is now chief referee
    assert session.role == "chief_referee" and session.actor.authenticated
    session.set_pin("arbitration", ARB_PIN)
    session.logout()
    dialog = _dialog(qtbot, session)
    assert dialog.pin_edit.echoMode() == QLineEdit.EchoMode.Password
    assert [dialog.role_combo.itemText(i) for i in range(3)] == ["裁判员", "裁判长", "仲裁委员会"]
    assert not dialog.note_label.isVisible()  # roles are enforced
    _choose(dialog, "arbitration")
    _try(dialog, "12")
    assert dialog.error_label.isVisible() and dialog.error_label.text() == "PIN 为 6–12 位数字。"
    for left in (4, 3, 2, 1):
        _try(dialog, "000079")
        assert dialog.error_label.text() == f"PIN 错误，还可再试 {left} 次；连续错误 5 次将锁定 1 分钟。"
        assert dialog.pin_edit.text() == "" and dialog.isVisible() and session.role is None
    _try(dialog, "000079")
    until = roles.local_hms(clock.now + timedelta(seconds=60))
    assert dialog.error_label.text() == f"仲裁委员会已锁定（连续 5 次 PIN 错误），请于 {until} 后再试。"
    assert not dialog.ok_button.isEnabled() and dialog.unlock_timer.isActive()
    _choose(dialog, "chief_referee")  # another role is not locked
    assert dialog.ok_button.isEnabled() and not dialog.error_label.isVisible()
    _choose(dialog, "arbitration")
    assert not dialog.ok_button.isEnabled() and until in dialog.error_label.text()
    clock.now += timedelta(seconds=60)
    dialog.unlock_timer.timeout.emit()  # the minute is over
    assert dialog.ok_button.isEnabled() and not dialog.error_label.isVisible()
    _try(dialog, ARB_PIN)
    assert dialog.result() == QDialog.DialogCode.Accepted and not dialog.isVisible()
    assert session.role == "arbitration" and session.actor.authenticated
    # the role travels with every write: the committee does not record tables
    with pytest.raises(RoleError, match=r"match.record needs .* \(you are: arbitration committee\)"):
        session.open_table(1, 1, "1", "2")


def test_an_event_without_pins_and_english(qtbot, session: Session) -> None:  # type: ignore[no-untyped-def]
    dialog = _dialog(qtbot, session, "en")
    assert dialog.note_label.isVisible() and "no PINs yet" in dialog.note_label.text()
    assert dialog.windowTitle() == "Log in to a role" and dialog.ok_button.text() == "Log in"
    dialog.language.set("zh")
    assert dialog.windowTitle() == "登录角色" and dialog.role_combo.itemText(2) == "仲裁委员会"
    _choose(dialog, "table_referee")
    _try(dialog, "123479")  # nothing to check yet: the role is taken as given
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert session.role == "table_referee" and not session.actor.authenticated
    assert not session.roles_enforced()


def test_a_role_without_a_pin(qtbot, session: Session) -> None:  # type: ignore[no-untyped-def]
    session.set_pin("chief_referee", CHIEF_PIN)
    dialog = _dialog(qtbot, session, "en")
    _choose(dialog, "table_referee")
    _try(dialog, "111179")
    assert dialog.error_label.text() == "Table referee has no PIN yet; the chief referee sets one first."
    assert dialog.isVisible() and session.role == "chief_referee"
