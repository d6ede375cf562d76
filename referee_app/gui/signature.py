"""Signatures (签字) taken on screen with a mouse, a pen or a finger."""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QDialog,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ..core.seats import SEAT_NAMES
from ..core.signature_image import is_signature
from .i18n import Language
from .widgets import available_height

SIGNERS = ("N", "E", "S", "W", "referee")


class SignaturePad(QWidget):
    """A white pad that records strokes; Qt turns pen and touch input into these mouse events."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.strokes: list[QPainterPath] = []
        self.setMinimumSize(260, 110)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setAttribute(Qt.WidgetAttribute.WA_AcceptTouchEvents, True)
        self.setCursor(Qt.CursorShape.CrossCursor)

    def ink(self) -> float:
        """How much has been written, as the total length of the strokes in pixels."""
        return sum(path.length() for path in self.strokes)

    def is_empty(self) -> bool:
        """Whether what is on the pad is not (yet) a signature: the check ``sign`` makes of
        every image (``core.signature_image``; a tap or a brush of the pad has too little
        ink), asked of the PNG the pad gives."""
        return not self.strokes or not is_signature(self.to_png())

    def clear(self) -> None:
        self.strokes = []
        self.update()
        self.changed.emit()

    def add_stroke(self, points: list[tuple[float, float]]) -> None:
        """Add a stroke programmatically (used by tests and by replaying a saved signature)."""
        if not points:
            return
        path = QPainterPath(QPointF(*points[0]))
        for x, y in points[1:]:
            path.lineTo(QPointF(x, y))
        self.strokes.append(path)
        self.update()
        self.changed.emit()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        self.strokes.append(QPainterPath(event.position()))
        self.update()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self.strokes and event.buttons() & Qt.MouseButton.LeftButton:
            self.strokes[-1].lineTo(event.position())
            self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self.strokes:
            self.strokes[-1].lineTo(event.position())
            self.update()
            self.changed.emit()

    def paint_strokes(self, painter: QPainter) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(
            QPen(
                QColor("#0d2b6b"),
                2.6,
                Qt.PenStyle.SolidLine,
                Qt.PenCapStyle.RoundCap,
                Qt.PenJoinStyle.RoundJoin,
            )
        )
        for path in self.strokes:
            painter.drawPath(path)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("white"))
        painter.setPen(QPen(QColor("#b0bec5"), 1, Qt.PenStyle.DashLine))
        baseline = int(self.height() * 0.75)
        painter.drawLine(12, baseline, self.width() - 12, baseline)
        self.paint_strokes(painter)
        painter.end()

    def to_png(self) -> bytes:
        """The signature as a PNG with a transparent background (drawn onto the scoresheet)."""
        image = QImage(self.size(), QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        self.paint_strokes(painter)
        painter.end()
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        image.save(buffer, "PNG")  # type: ignore[call-overload]  # Qt takes the format as str too
        return bytes(data.data())


class SignDialog(QDialog):
    """The four players and the table referee sign the round's record."""

    def __init__(self, language: Language, names: dict[str, str], title: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.language = language
        tr = language.tr
        self.setWindowTitle(tr("sign_title"))
        self.setMinimumSize(760, 560)
        self.pads: dict[str, SignaturePad] = {}
        grid = QGridLayout()
        for n, signer in enumerate(SIGNERS):
            if signer == "referee":
                caption = tr("table_referee")
            else:
                caption = f"{SEAT_NAMES[language.lang][signer]}  {names.get(signer, '')}"
            box = QGroupBox(caption)
            pad = SignaturePad()
            pad.changed.connect(self.update_state)
            clear = QPushButton(tr("clear_signature"))
            clear.clicked.connect(pad.clear)
            column = QVBoxLayout(box)
            column.addWidget(pad, 1)
            column.addWidget(clear, 0, Qt.AlignmentFlag.AlignRight)
            self.pads[signer] = pad
            grid.addWidget(box, n // 2, n % 2)
        heading = QLabel(f"<h3>{title}</h3>{tr('sign_explain')}")
        heading.setWordWrap(True)
        self.missing = QLabel()
        self.missing.setStyleSheet("color: #c62828;")
        self.confirm_button = QPushButton(tr("confirm_signatures"))
        self.confirm_button.setMinimumHeight(40)
        self.confirm_button.clicked.connect(self.accept)
        cancel = QPushButton(tr("cancel"))
        cancel.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addWidget(self.missing, 1)
        buttons.addWidget(cancel)
        buttons.addWidget(self.confirm_button)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addLayout(grid, 1)
        layout.addLayout(buttons)
        self.update_state()

    def update_state(self) -> None:
        missing = [s for s, pad in self.pads.items() if pad.is_empty()]
        lang = self.language.lang
        names = [
            self.language.tr("table_referee") if s == "referee" else SEAT_NAMES[lang][s] for s in missing
        ]
        self.missing.setText(self.language.tr("signatures_missing", who="、".join(names)) if missing else "")
        self.confirm_button.setEnabled(not missing)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """Never taller than the screen: the pads share what there is."""
        hint = super().sizeHint()
        return QSize(hint.width(), min(hint.height(), available_height(self)))

    def signatures(self) -> dict[str, bytes]:
        return {signer: pad.to_png() for signer, pad in self.pads.items()}
