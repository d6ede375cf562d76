"""Screenshots of the desktop app as a referee sees it, for review.

    xvfb-run -a -s "-screen 0 1600x1000x24" python tools/screenshots.py OUT_DIR [--lang zh|en]

Builds a demo event in a temporary SQLite store (made-up players), plays a few hands at
table 1, then saves PNGs of the hall, the table view, the infraction dialog with its live
preview, the signature pad and the scoresheet preview. Runs on a real X server (Xvfb), not
the offscreen platform, so fonts and widgets render as on a referee's laptop.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QWidget

from referee_app.app.session import Session
from referee_app.core import editing, load_rulebook
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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--lang", default="zh", choices=("zh", "en"))
    parser.add_argument("--rules", default="bhg-2011")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
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
    window = MainWindow(store, actor, language)
    window.resize(1500, 920)
    window.show()
    info = Session.create_event(store, "2026年教职工双升赛", load_rulebook(args.rules), "2026-11-30", actor)
    window.fill_events()
    settle(app)
    shoot(window, out / "01-welcome.png")
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

    def dialog_shot(dialog) -> None:
        dialog.who_buttons["N"].click()
        dialog.inputs["trick"].setValue(7)
        dialog.inputs["cards"].setValue(2)
        settle(app)
        dialog.adjustSize()
        settle(app)
        shoot(dialog, out / "04-infraction-dialog.png")
        dialog.reject()

    on_modal(app, dialog_shot)
    view.log_infraction("exposed_card")

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

    # finish round 1 everywhere, appeal one ruling, then the chief referee's views
    for record in session.tables(1):
        case = record.case
        if not case["hands"] or case["hands"][-1].get("in_progress"):
            case = editing.complete_hand(case, 120)
        session.save(record, editing.end_on_time(case))
    record = session.table(1, 1)
    first = session.rulings(record)[0]
    session.file_appeal(
        first["id"], "NS", "该牌系被对方碰落，并非本方暴露；请求撤销罚分。", receipt="2026-0001"
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
    window.close()
    settle(app)
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
