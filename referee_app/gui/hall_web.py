"""The chief referee turns the hall web page on and off (赛场信息网页): players read their
table, the pairings, the standings and the clock on their phones from a QR code.

Off until started here (or by ``referee-app hall-web``). The chief referee picks the
interface it is served on (this computer only, one of the laptop's networks, or all of
them) and the port; the dialog then shows the address, its QR code, how many phones are
reading (distinct clients in the last minute), and stops it in one click."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..app.errors import StoreError
from ..app.session import Session
from .i18n import Language
from .refusal import refusal

LOOPBACK = "127.0.0.1"
ANY = "0.0.0.0"


def hall_addresses() -> list[tuple[str, str]]:
    """This laptop's IPv4 addresses on its networks that are up: (interface name, address)."""
    from PySide6.QtNetwork import QAbstractSocket, QNetworkInterface

    found = []
    for iface in QNetworkInterface.allInterfaces():
        flags = iface.flags()
        if (
            not (flags & QNetworkInterface.InterfaceFlag.IsUp)
            or flags & QNetworkInterface.InterfaceFlag.IsLoopBack
        ):
            continue
        for entry in iface.addressEntries():
            ip = entry.ip()
            if ip.protocol() == QAbstractSocket.NetworkLayerProtocol.IPv4Protocol:
                found.append((iface.humanReadableName(), ip.toString()))
    return found


class HallWebDialog(QDialog):
    """Start and stop the hall web page; not modal: the desk goes on working beside it."""

    def __init__(self, language: Language, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = language
        self.session = session
        self.server: object | None = None
        self.setObjectName("hallWebDialog")
        self.interface = QComboBox()
        self.port = QSpinBox()
        self.port.setRange(1, 65535)
        self.port.setValue(8080)
        self.start_button = QPushButton()
        self.stop_button = QPushButton()
        self.start_button.clicked.connect(self.start)
        self.stop_button.clicked.connect(self.stop)
        self.state = QLabel()
        self.address = QLabel()
        self.address.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.address.setStyleSheet("font-size: 20px; font-weight: bold;")
        self.state.setWordWrap(True)
        self.readers = QLabel()
        self.qr = QLabel()
        self.qr.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.qr.setMinimumSize(220, 220)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #b71c1c;")
        self.form = QFormLayout()
        self.interface_label = QLabel()
        self.port_label = QLabel()
        self.form.addRow(self.interface_label, self.interface)
        self.form.addRow(self.port_label, self.port)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.stop_button)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addLayout(buttons)
        layout.addWidget(self.problem)
        layout.addWidget(self.state)
        layout.addWidget(self.address)
        layout.addWidget(self.qr)
        layout.addWidget(self.readers)
        self.ticker = QTimer(self)
        self.ticker.setInterval(2000)
        self.ticker.timeout.connect(self.show_readers)
        self.fill_interfaces()
        self.retranslate()
        language.changed.connect(lambda *_: self.retranslate())
        self._show_state()

    def fill_interfaces(self) -> None:
        tr = self.language.tr
        self.interface.clear()
        self.interface.addItem(tr("hall_web_this_computer", address=LOOPBACK), LOOPBACK)
        for name, ip in hall_addresses():
            self.interface.addItem(tr("hall_web_network", name=name, address=ip), ip)
        self.interface.addItem(tr("hall_web_all_networks", address=ANY), ANY)

    def retranslate(self) -> None:
        tr = self.language.tr
        self.setWindowTitle(tr("hall_web_title"))
        self.interface_label.setText(tr("hall_web_interface"))
        self.port_label.setText(tr("hall_web_port"))
        self.start_button.setText(tr("hall_web_start"))
        self.stop_button.setText(tr("hall_web_stop"))
        self._show_state()

    # -- what it shows ------------------------------------------------------------------------
    def shown_url(self) -> str:
        """The address phones open: on all networks, the laptop's first network address."""
        from ..hallweb.server import HallWeb

        server = self.server
        if not isinstance(server, HallWeb) or server.bound is None:
            return ""
        host, port = server.bound
        if host == ANY:
            lan = hall_addresses()
            host = lan[0][1] if lan else LOOPBACK
        return f"http://{host}:{port}/"

    def _show_state(self) -> None:
        tr = self.language.tr
        running = self.running
        self.start_button.setEnabled(not running)
        self.stop_button.setEnabled(running)
        self.interface.setEnabled(not running)
        self.port.setEnabled(not running)
        self.state.setText(tr("hall_web_on") if running else tr("hall_web_off"))
        url = self.shown_url()
        self.address.setText(url)
        self.qr.setPixmap(qr_pixmap(url) if url else QPixmap())
        self.qr.setVisible(bool(url))
        self.show_readers()

    def show_readers(self) -> None:
        from ..hallweb.server import HallWeb

        server = self.server
        if isinstance(server, HallWeb) and self.running:
            self.readers.setText(self.language.tr("hall_web_readers", n=server.readers()))
        else:
            self.readers.setText("")

    @property
    def running(self) -> bool:
        from ..hallweb.server import HallWeb

        return isinstance(self.server, HallWeb) and self.server.running

    # -- acting -------------------------------------------------------------------------------
    def start(self) -> bool:
        """Serve the event's hall web page on the interface and port chosen."""
        from ..hallweb.server import HallWeb

        if self.running:
            return True
        self.problem.setText("")
        if self.session.roles_enforced() and self.session.role != "chief_referee":
            self.problem.setText(self.language.tr("hall_web_chief_only"))
            return False
        host = str(self.interface.currentData())
        server = HallWeb(
            self.session.store,
            self.session.event.id,
            host=host,
            port=self.port.value(),
            lang=self.language.lang,
        )
        try:
            server.start()
        except StoreError as exc:
            self.problem.setText(refusal(exc, self.language))
            return False
        except OSError as exc:
            where = f"{host}:{self.port.value()}"
            self.problem.setText(self.language.tr("hall_web_cannot", where=where, detail=exc.strerror or exc))
            return False
        self.server = server
        self.ticker.start()
        self._show_state()
        return True

    def stop(self) -> None:
        from ..hallweb.server import HallWeb

        if isinstance(self.server, HallWeb):
            self.server.close()
        self.server = None
        self.ticker.stop()
        self._show_state()


def qr_pixmap(text: str, module: int = 6) -> QPixmap:
    """The QR code of ``text`` drawn as a pixmap (the printing's QR encoder, through app)."""
    from PySide6.QtGui import QColor, QImage, QPainter

    from ..app.printouts import qr_modules

    dark = qr_modules(text)
    quiet = 4
    n = len(dark) + 2 * quiet
    image = QImage(n * module, n * module, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    black = QColor("black")
    for r, row in enumerate(dark):
        for c, on in enumerate(row):
            if on:
                painter.fillRect((c + quiet) * module, (r + quiet) * module, module, module, black)
    painter.end()
    return QPixmap.fromImage(image)
