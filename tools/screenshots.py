"""Screenshots of the desktop app as a referee sees it, for review.

    xvfb-run -a python tools/screenshots.py --out OUT_DIR

Builds a demo event in a temporary SQLite store (made-up players), plays a few hands at
table 1, then saves PNGs of every view (welcome, hall, table, appeals desk, standings,
pairing) and every dialog (new event, login with a lock, each ruling dialog's kind with the
override unfolded, void, end of round, signatures, scoresheet, appeal, decision, restoring
drafts, the file dialog) on a 1024×700, a 1366×768 and a 1920×1080 screen, in Chinese and in English:
``OUT_DIR/1024x700-zh/…``. Each screen size runs in its own X server (Xvfb) of that size, so
windows and dialogs size themselves as on a referee's laptop; fonts render as there.

    xvfb-run -a -s "-screen 0 1024x700x24" python tools/screenshots.py --out DIR --size 1024x700 --lang zh

makes one set (what the first command runs for each size and language).

    python tools/screenshots.py --manual

makes the manual's pictures (``docs/manual/img/``, MANUAL_SHOTS: the 1024×700 Chinese set),
so the manual follows the window.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QWidget

from referee_app.app.session import Session
from referee_app.core import editing
from referee_app.core.rulebook import load_rulebook
from referee_app.gui.app import register_font
from referee_app.gui.i18n import Language
from referee_app.gui.main_window import MainWindow
from referee_app.store.service import Actor, Store

PAIRS = (
    "number,player1,player2,unit\n1,张三,李四,财务处\n2,王五,赵六,图书馆\n3,孙七,周八,后勤处\n"
    "4,吴九,郑十,教务处\n5,冯一,陈二,信息中心\n6,褚三,卫四,保卫处\n"
)


def settle(app: QApplication, seconds: float = 0.3) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.02)


def shoot(widget: QWidget, path: Path) -> None:
    widget.grab().save(str(path))
    print(path)


def on_modal(app: QApplication, action) -> None:
    def attempt() -> None:
        widget = QApplication.activeModalWidget()
        if widget is None:
            QTimer.singleShot(50, attempt)
            return
        action(widget)

    QTimer.singleShot(100, attempt)


SIZES = ("1024x700", "1366x768", "1920x1080")
#: The pictures of the manual (docs/manual/img/), from the 1024×700 Chinese set: a referee's
#: laptop screen, in the manual's language.
MANUAL_SHOTS = {
    "02-hall.png": "hall.png",
    "03-table.png": "table.png",
    "04-04-exposed_card.png": "ruling-dialog.png",
    "05-signature-pad.png": "signatures.png",
    "07-appeals-desk.png": "appeals-desk.png",
    "06d-decide.png": "decide.png",
    "09-pairing.png": "pairing.png",
    "08-standings.png": "standings.png",
    "12-rulebook-editor.png": "rulebook-editor.png",
}
MANUAL_IMAGES = Path(__file__).resolve().parents[1] / "docs" / "manual" / "img"
#: Pixels wide at most: the pictures fit the manual's window (gui/manual.py) without scrolling.
MANUAL_WIDTH = 820


def manual_pictures(rules: str) -> int:
    """Shoot the 1024×700 Chinese set in a temporary folder and copy the manual's pictures."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        command = [
            "xvfb-run", "-a", "-s", "-screen 0 1024x700x24", sys.executable, __file__,
            "--out", str(out), "--size", "1024x700", "--lang", "zh", "--rules", rules,
        ]  # fmt: skip
        if subprocess.run(command, check=False).returncode != 0:
            return 1
        MANUAL_IMAGES.mkdir(parents=True, exist_ok=True)
        from PIL import Image

        for shot, name in MANUAL_SHOTS.items():
            image = Image.open(out / shot)
            if image.width > MANUAL_WIDTH:  # the manual's window (F1) is narrower than the screen
                height = round(image.height * MANUAL_WIDTH / image.width)
                image = image.resize((MANUAL_WIDTH, height), Image.Resampling.LANCZOS)
            image.save(MANUAL_IMAGES / name, optimize=True)
            print(MANUAL_IMAGES / name)
    return 0


def every_set(out: Path, rules: str) -> int:
    """One child per screen size and language, each in an X server of that size."""
    failed = 0
    for size in SIZES:
        for lang in ("zh", "en"):
            command = [
                "xvfb-run",
                "-a",
                "-s",
                f"-screen 0 {size}x24",
                sys.executable,
                __file__,
                "--out",
                str(out / f"{size}-{lang}"),
                "--size",
                size,
                "--lang",
                lang,
                "--rules",
                rules,
            ]
            failed += subprocess.run(command, check=False).returncode != 0
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out")
    parser.add_argument("--manual", action="store_true", help="the manual's pictures (docs/manual/img/)")
    parser.add_argument("--lang", choices=("zh", "en"))
    parser.add_argument("--size", choices=SIZES)
    parser.add_argument("--rules", default="bhg-2011")
    args = parser.parse_args()
    if args.manual:
        return manual_pictures(args.rules)
    if args.out is None:
        parser.error("--out is required (or --manual)")
    out = Path(args.out)
    if args.size is None or args.lang is None:
        return every_set(out, args.rules)
    out.mkdir(parents=True, exist_ok=True)
    os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp()  # the demo's drafts, not the user's
    app = QApplication(sys.argv[:1])
    family = register_font()
    if family:
        app.setFont(QFont(family, 11))
    folder = Path(tempfile.mkdtemp())
    (folder / "pairs.csv").write_text(PAIRS, encoding="utf-8")
    actor = Actor("裁判员甲", "table-1")
    store = Store.open(str(folder / "demo.sqlite"), create=True, actor=actor)
    language = Language(args.lang)
    language.install_qt_translator()
    window = MainWindow(language)
    window.fit_to_screen()
    window.show()
    window.use_store(store, actor)  # as the app does, once the window has painted
    info = Session.create_event(store, "2026年教职工双升赛", load_rulebook(args.rules), "2026-11-30", actor)
    window.fill_events()
    settle(app)
    shoot(window, out / "01-welcome.png")
    on_modal(app, lambda dialog: (settle(app), shoot(dialog, out / "01b-new-event.png"), dialog.reject()))
    window.new_event()
    window.open_event(info.id)
    window.import_pairs(str(folder / "pairs.csv"))
    session = window.session
    for table, (ns, ew) in enumerate((("1", "2"), ("3", "4"), ("5", "6")), start=1):
        session.open_table(1, table, ns, ew, "E")
    record = session.table(1, 2)
    case = editing.complete_hand(record.case, 60)
    session.save(record, case)
    window.hall.clock.restore(time.time() - 52 * 60, 0.0)
    window.hall.clock.tick()
    window.show_hall()
    settle(app)
    shoot(window, out / "02-hall.png")

    window.open_table(1, 1)
    view = window.table_view
    case = view.record.case
    case = editing.add_infraction(case, {"kind": "exposed_card", "seat": "N", "cards": 1, "trick": 3})
    case = editing.complete_hand(case, 60, 0, {"points": 20, "captured": True, "shape": "pair"})
    case = editing.add_infraction(case, {"kind": "hidden_card", "seat": "E", "trick": 5, "discovered": 6})
    case = editing.complete_hand(case, 35, 1, {"points": 10, "captured": False})
    case = editing.add_infraction(case, {"kind": "delay", "seat": "S", "what": "follow"})
    view.save(case)
    view.defender_points.edit.setText("85")
    view.diagram.select("W")
    settle(app)
    shoot(window, out / "03-table.png")

    def shoot_modal(name: str, then=lambda dialog: dialog.reject()) -> None:
        """Shoot the next modal dialog as it opened (its own size on this screen)."""
        on_modal(app, lambda dialog: (settle(app), shoot(dialog, out / name), then(dialog)))

    data = session.rulebook.data
    for n, kind in enumerate(session.rulebook.kinds):

        def ruling_shot(dialog, n=n, kind=kind) -> None:
            for seat in ("N", "NS"):
                if seat in dialog.who_buttons:
                    dialog.who_buttons[seat].click()
            settle(app)
            shoot(dialog, out / f"04-{n:02d}-{kind}.png")
            dialog.override_box.setChecked(True)  # 改判 unfolded: Confirm must stay in view
            dialog.ov_reason.setPlainText("经核实该牌系裁判碰落")
            settle(app)
            shoot(dialog, out / f"04-{n:02d}-{kind}-override.png")
            dialog.reject()

        on_modal(app, ruling_shot)
        view.log_infraction(kind, values={"minutes": 12} if kind == "late_arrival" else None)
    assert data  # every kind of this rulebook was shown

    view.rulings_view.selectRow(0)
    shoot_modal("04b-void.png")
    view.void_selected()
    shoot_modal("04c-end-round.png", lambda box: box.close())
    view.end_on_time()
    shoot_modal("04d-file-dialog.png")
    window.import_pairs()

    from referee_app.gui.signature import SignDialog
    from referee_app.gui.widgets import seat_names

    sign = SignDialog(language, seat_names(view.record.players), language.tr("table_title", round=1, table=1))
    sign.show()
    settle(app)
    for n, pad in enumerate(sign.pads.values()):
        if n == 4:
            break
        w, h = pad.width(), pad.height()
        pad.add_stroke([(w * 0.15 + i * w * 0.05, h * (0.55 + 0.15 * ((-1) ** i))) for i in range(12)])
    settle(app)
    shoot(sign, out / "05-signature-pad.png")
    sign.close()

    on_modal(
        app,
        lambda dialog: (settle(app, 0.8), shoot(dialog, out / "06-scoresheet-preview.png"), dialog.accept()),
    )
    view.preview_scoresheet()

    from referee_app.gui.appeals import DecideDialog, FileAppealDialog
    from referee_app.gui.login import LoginDialog

    ruling = view.selected_ruling()[2]
    login = LoginDialog(language, session, window)
    login._show_error(("login_locked", {"role": language.tr("role_chief_referee"), "until": "18:45:30"}))
    for name, dialog in (
        ("06b-login-locked.png", login),
        (
            "06c-file-appeal.png",
            FileAppealDialog(language, ruling, {"fee_yuan": 100, "evidence_required": True}, window),
        ),
        ("06d-decide.png", DecideDialog(language, {"id": 1, "ruling": ruling}, window)),
    ):
        if isinstance(dialog, FileAppealDialog):
            dialog.show_late(language.tr("late_by", minutes=7))
        if isinstance(dialog, DecideDialog):
            dialog.choice["modified"].setChecked(True)
        dialog.show()
        settle(app)
        shoot(dialog, out / name)
        dialog.close()

    # finish round 1 everywhere, appeal one ruling, then the chief referee's views
    for record in session.tables(1):
        case = record.case
        if not case["hands"] or case["hands"][-1].get("in_progress"):
            case = editing.complete_hand(case, 120)
        session.save(record, editing.end_on_time(case))
    record = session.table(1, 1)
    first = session.rulings(record)[0]
    session.file_appeal(
        first["id"],
        "NS",
        "该牌系被对方碰落，并非本方暴露；请求撤销罚分。",
        evidence="邻桌裁判员目睹对方碰落该牌。",
        receipt="2026-0001",
    )
    window.act_appeals.trigger()
    settle(app)
    shoot(window, out / "07-appeals-desk.png")
    window.act_standings.trigger()
    settle(app)
    shoot(window, out / "08-standings.png")
    window.act_pairing.trigger()
    settle(app)
    shoot(window, out / "09-pairing.png")
    window.show_hall()
    settle(app)
    shoot(window, out / "10-hall-after-round.png")

    # a crash with points typed at table 2: the next start offers them back
    window.open_table(1, 2)
    window.table_view.defender_points.edit.setText("85")
    again = MainWindow(language)
    again.fit_to_screen()
    again.show()
    again.use_store(store, actor)
    shoot_modal("11-restore-drafts.png", lambda box: box.button(box.StandardButton.No).click())
    again.resume()
    again.close()
    window.table_view.clear_hand_form()

    # 规则 → 编辑规则文件…: a copy of the event's rulebook in the editor, a band mistyped
    from referee_app.app.rulebooks import new_rulebook_text, write_new_file
    from referee_app.gui.new_event import open_editor
    from referee_app.gui.rulebook_editor import RulebookEditor

    copy = write_new_file(folder / "club-2026.toml", new_rulebook_text("club-2026", args.rules))
    editor = RulebookEditor(language, copy, window)
    open_editor(editor, window)
    editor.show()
    editor.select("scoring")
    last = editor.draft.length(("scoring", "dealer_bands")) - 1
    editor.at[f"scoring.dealer_bands[{last}].upto"].setText("90")
    editor.check()
    settle(app)
    shoot(editor, out / "12-rulebook-editor.png")
    editor.done(0)
    window.close()
    settle(app)
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
