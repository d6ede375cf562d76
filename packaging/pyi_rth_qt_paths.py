"""The bundle's start-up hook for Qt, in place of PyInstaller's own ``pyi_rth_pyside6``.

PyInstaller's hook imports ``PySide6.QtCore`` at every start of the bundle, only to see
whether an embedded ``qt.conf`` exists (PySide6's wheels embed one when QtCore is imported,
so it always does): that loads Qt's core library and ICU's 32 MB of data before ``judge`` or
``--version`` has done anything, some 100 ms a start on Linux. This hook keeps what the other
one does that the app needs (where Qt finds its plugins; on Windows, the bundle's folder on
PATH for OpenSSL; outside a macOS .app, the folder on DYLD_LIBRARY_PATH) and leaves QtCore
to be imported when the window opens. The app uses no QML. (Checked in a Linux bundle built
with this hook alone: QtCore's own qt.conf is registered, QLibraryInfo finds the bundle's
plugins and translations, and Qt's Chinese strings load.) ``packaging/referee-app.spec``
swaps the hooks; ``tests/test_bundle_lean.py`` runs this one."""

import os
import sys


def _qt_paths() -> None:
    base = sys._MEIPASS  # type: ignore[attr-defined]  # the bundle's folder, set by PyInstaller
    qt = (
        os.path.join(base, "PySide6")
        if sys.platform.startswith("win")
        else os.path.join(base, "PySide6", "Qt")
    )
    os.environ["QT_PLUGIN_PATH"] = os.path.join(qt, "plugins")

    def prepend(name: str) -> None:
        old = os.environ.get(name)
        os.environ[name] = base if not old else os.pathsep.join([base, old])

    if sys.platform.startswith("win"):
        prepend("PATH")
    inside_app = base.replace(os.sep, "/").endswith("Contents/Frameworks")  # a macOS .app
    if sys.platform == "darwin" and not inside_app:
        prepend("DYLD_LIBRARY_PATH")


_qt_paths()
del _qt_paths
