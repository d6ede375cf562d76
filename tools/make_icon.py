"""Draw the app icon (a red card with 升 and a spade) into resources/icons/.

Run once when the design changes; the PNG (window icon, Linux .desktop, in the wheel) and
the ICO (the Windows bundle's icon, ``packaging/``) are committed. Drawn with Qt and the
bundled font, so it looks the same on every machine: ``QT_QPA_PLATFORM=offscreen python tools/make_icon.py``.

The ICO holds every size Windows asks for (Explorer's lists and tiles, the taskbar, the
title bar at 100-200 % scaling), each scaled down from the PNG by Pillow:
``python tools/make_icon.py --ico`` writes it alone from the committed PNG.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QGuiApplication, QImage, QPainter, QPainterPath

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "icons"
PNG = OUT / "referee-app.png"
ICO = ROOT / "packaging" / "referee-app.ico"
#: the sizes Windows picks from an .ico (16 and 24: lists, title bars; 256: large tiles)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)


def write_ico(png: Path = PNG, ico: Path = ICO) -> None:
    """The multi-size Windows icon from the 256-pixel PNG (Pillow resamples each size)."""
    from PIL import Image

    with Image.open(png) as image:
        image.convert("RGBA").save(ico, format="ICO", sizes=[(s, s) for s in ICO_SIZES])


def draw(size: int, family: str) -> QImage:
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    s = size / 256
    card = QPainterPath()
    card.addRoundedRect(QRectF(28 * s, 12 * s, 200 * s, 232 * s), 28 * s, 28 * s)
    p.fillPath(card, QColor("#c62828"))
    p.setPen(QColor("white"))
    font = QFont(family)
    font.setPixelSize(int(150 * s))
    font.setBold(True)
    p.setFont(font)
    p.drawText(QRectF(28 * s, 20 * s, 200 * s, 170 * s), Qt.AlignmentFlag.AlignCenter, "升")
    font.setPixelSize(int(56 * s))
    p.setFont(font)
    p.drawText(QRectF(28 * s, 170 * s, 200 * s, 66 * s), Qt.AlignmentFlag.AlignCenter, "♠")
    p.end()
    return image


def main() -> int:
    if sys.argv[1:] == ["--ico"]:
        write_ico()
        return 0
    app = QGuiApplication(sys.argv[:1])  # noqa: F841 - fonts need an application
    font_id = QFontDatabase.addApplicationFont(str(ROOT / "resources" / "fonts" / "wqy-microhei.ttc"))
    family = QFontDatabase.applicationFontFamilies(font_id)[0]
    OUT.mkdir(parents=True, exist_ok=True)
    if not draw(256, family).save(str(PNG)):
        print("cannot write the PNG", file=sys.stderr)
        return 1
    write_ico()
    return 0


if __name__ == "__main__":
    sys.exit(main())
