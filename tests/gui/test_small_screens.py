"""Any laptop screen (issue 15 item 6): on the 1024×700 screen the GUI tests run on
(``small_screen.json``), every dialog fits with its Confirm in view, the table view fits in
English too, and every infraction kind's button shows without scrolling."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication, QPushButton, QWidget

from referee_app.core.catalogue import facts_required, fields_for

from .conftest import open_event_with_table, table_with_one_ruling_selected, when_modal

WIDTH, HEIGHT = 1024, 700


def test_the_tests_screen_is_the_small_laptop(qapp) -> None:
    area = QApplication.primaryScreen().availableGeometry()
    assert (area.width(), area.height()) == (WIDTH, HEIGHT)


@pytest.fixture()
def app_font(qapp):
    """The font the app itself uses (the bundled CJK font at 11 pt, as gui/app.py sets it)."""
    from PySide6.QtGui import QFont

    from referee_app.gui.app import register_font

    before = qapp.font()
    family = register_font()
    if family:
        qapp.setFont(QFont(family, 11))
    yield
    qapp.setFont(before)


def fits(dialog: QWidget, confirm: QPushButton) -> None:
    """``dialog`` shown is no larger than the screen, and ``confirm`` lies wholly inside it."""
    dialog.show()
    QApplication.processEvents()
    assert dialog.width() <= WIDTH and dialog.height() <= HEIGHT - 30, (type(dialog).__name__, dialog.size())
    assert dialog.sizeHint().height() <= HEIGHT and dialog.sizeHint().width() <= WIDTH
    top_left = confirm.mapTo(dialog, confirm.rect().topLeft())
    assert confirm.isVisible() and dialog.rect().contains(QRect(top_left, confirm.size())), type(
        dialog
    ).__name__


def infraction_dialog(view, kind: str):
    from referee_app.gui.infraction_dialog import InfractionDialog

    data = view.session.rulebook.data
    return InfractionDialog(
        view.language,
        kind,
        data["infractions"][kind]["label"],
        view.preview_infraction,
        fields_for(data, kind),
        "N",
        None,
        view,
        required=facts_required(data, kind),
    )


@pytest.mark.parametrize(("lang", "rulebook"), [("zh", "bhg-2011"), ("en", "bhg-2011"), ("zh", "gansu-2018")])
def test_every_infraction_dialog_keeps_confirm_and_the_reason_in_view_when_overriding(
    make_window, pairs_csv, qtbot, lang, rulebook, app_font
) -> None:
    window = make_window(lang)
    open_event_with_table(window, rulebook, pairs_csv)
    view = window.table_view
    for kind in view.session.rulebook.kinds:
        dialog = infraction_dialog(view, kind)
        qtbot.addWidget(dialog)
        fits(dialog, dialog.confirm_button)
        dialog.override_box.setChecked(True)  # ticking 改判 unfolds the override below
        QApplication.processEvents()
        fits(dialog, dialog.confirm_button)
        reason = dialog.ov_reason
        assert not reason.visibleRegion().isEmpty(), kind  # scrolled into view, not off screen
        dialog.reject()


def test_the_other_dialogs_fit_the_small_screen(make_window, pairs_csv, qtbot, app_font) -> None:
    from referee_app.gui.appeals import DecideDialog, FileAppealDialog
    from referee_app.gui.login import LoginDialog
    from referee_app.gui.new_event import NewEventDialog
    from referee_app.gui.signature import SignDialog

    window = make_window()
    table_with_one_ruling_selected(window, pairs_csv)
    view = window.table_view
    ruling = view.selected_ruling()[2]
    new_event = NewEventDialog(window.language, window)
    fits(new_event, new_event.findChildren(QPushButton)[-2])
    login = LoginDialog(window.language, window.session, window)
    login._show_error(("login_locked", {"role": "裁判长", "until": "18:45:30"}))
    fits(login, login.ok_button)
    lock = login.error_label  # the lock's end time is read in full, not clipped
    assert lock.height() >= lock.heightForWidth(lock.width()) and "18:45:30" in lock.text()
    appeal = FileAppealDialog(window.language, ruling, {"fee_yuan": 100, "evidence_required": True}, window)
    appeal.show_late("申诉已超过时限 7 分钟")
    fits(appeal, [b for b in appeal.findChildren(QPushButton) if b.isDefault()][0])
    decide = DecideDialog(window.language, {"id": 1, "ruling": ruling}, window)
    decide.choice["modified"].setChecked(True)
    fits(decide, [b for b in decide.findChildren(QPushButton) if b.isDefault()][0])
    sign = SignDialog(window.language, {"N": "张三"}, "第1轮 第1桌", window)
    fits(sign, sign.confirm_button)
    for dialog in (new_event, login, appeal, decide, sign):
        dialog.close()
    seen = {}

    def measure(dialog) -> None:
        close = [b for b in dialog.findChildren(QPushButton) if b.text() == "关闭"][0]
        seen["size"] = (dialog.width(), dialog.height())
        fits(dialog, close)
        dialog.accept()

    when_modal(measure)
    view.preview_scoresheet()
    assert seen["size"][0] <= WIDTH and seen["size"][1] <= HEIGHT


def test_the_table_view_fits_1024_wide_in_english_and_shows_every_kind_unscrolled(
    make_window, pairs_csv, app_font
) -> None:
    for lang in ("en", "zh"):
        window = make_window(lang)
        open_event_with_table(window, "bhg-2011", pairs_csv)
        window.fit_to_screen()
        QApplication.processEvents()
        assert window.minimumSizeHint().width() <= WIDTH, lang
        assert window.width() <= WIDTH and window.height() <= HEIGHT
        # nor taller than the screen with a title bar: a third line of an English kind's label
        # made it some 10 px too tall (the status bar, where 已保存 is said, off the screen)
        assert window.minimumSizeHint().height() <= HEIGHT - 30, (lang, window.minimumSizeHint())
        view = window.table_view
        for kind, button in view.kind_buttons.items():  # each wholly in view, none scrolled away
            assert button.visibleRegion().boundingRect() == button.rect(), (lang, kind)
            label = button.label  # its words wrapped, none cut off
            assert label.heightForWidth(button.width() - 12) <= button.height() - 8, (lang, kind)
        header = view.rulings_view.horizontalHeader()  # the ruling's text gets the room
        assert header.sectionSize(1) > header.sectionSize(2), lang
        window.table_view.clear_hand_form()


def test_the_pairing_view_fits_1024_wide_in_both_languages(make_window, pairs_csv, app_font) -> None:
    """The pairing view's row of buttons (swap, publish, print) and its line of what is shown
    (status, method and seed, pair again) leave the window within the small screen."""
    from referee_app.app.session import Session
    from referee_app.core.rulebook import load_rulebook

    for lang in ("en", "zh"):
        window = make_window(lang)
        info = Session.create_event(
            window.store, f"编排 {lang}", load_rulebook("gansu-2018"), None, window.actor
        )
        window.fill_events()
        window.open_event(info.id)
        window.import_pairs(str(pairs_csv))
        window.act_pairing.trigger()
        window.fit_to_screen()
        QApplication.processEvents()
        view = window.pairing_view
        assert view.current is not None and view.redraw_button.isVisible(), lang
        assert window.minimumSizeHint().width() <= WIDTH, lang
        assert window.width() <= WIDTH and window.height() <= HEIGHT


#: Four-character names and a long unit: the table's title line carried the names on one line
#: with its buttons (1096 px wide in English).
LONG_NAMES = (
    "number,player1,player2,unit\n1,欧阳明月,司马长风,兰州市第一代表队\n"
    "2,王五,赵六,二队\n3,孙七,周八,三队\n4,吴九,郑十,四队\n"
)


@pytest.mark.parametrize("rules", ["bhg-2011", "gansu-2018"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_table_view_fits_1024x700_with_long_names_hands_played_and_the_time_warning(
    make_window, pairs_csv, app_font, rules: str, lang: str
) -> None:
    """Long names wrap under the title, and the time warning's count (Gansu) sits over the
    hands: before, the names made the view 1096 px wide and the warning 692 px tall."""
    pairs_csv.write_text(LONG_NAMES, encoding="utf-8")
    window = make_window(lang)
    open_event_with_table(window, rules, pairs_csv)
    view = window.table_view
    for points in ("45", "85", "125"):
        view.defender_points.edit.setText(points)
        QApplication.processEvents()
        view.confirm_hand()
    if rules == "gansu-2018":
        view.give_time_warning()
        assert view.time_banner.isVisibleTo(view)
    assert "欧阳明月" in view.players_line.text()
    window.fit_to_screen()
    QApplication.processEvents()
    hint = window.minimumSizeHint()
    assert hint.width() <= WIDTH and hint.height() <= HEIGHT - 30, (rules, lang, hint)
    for kind, button in view.kind_buttons.items():
        assert button.visibleRegion().boundingRect() == button.rect(), (lang, kind)
