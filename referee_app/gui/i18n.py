"""The interface's words in Chinese and English, switchable while the app runs.

Strings live in ``resources/messages/gui.toml``, the window's part of the one message
catalogue (``referee_app.app.messages``; errors are worded by ``describe``); Qt's own buttons
(OK, Cancel, …) speak Chinese through Qt's ``qtbase_zh_CN.qm``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QObject, QTranslator, Signal
from PySide6.QtWidgets import QApplication

from ..app.messages import catalogue_dir

CATALOG_PATH = catalogue_dir() / "gui.toml"


def load_catalog(path: Path = CATALOG_PATH) -> dict[str, dict[str, str]]:
    with path.open("rb") as handle:
        raw: dict[str, Any] = tomllib.load(handle)
    return raw["strings"]


class Language(QObject):
    """The current interface language; widgets listen to ``changed`` and retranslate."""

    changed = Signal(str)

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        self.catalog = load_catalog()

    def tr(self, name: str, /, **values: Any) -> str:  # type: ignore[override]  # the catalogue's, not Qt's
        entry = self.catalog.get(name)
        if entry is None:
            raise KeyError(f"{CATALOG_PATH.name}: no string {name!r}")
        text = entry[self.lang]
        if isinstance(text, dict):  # forms by count: {one, other}
            from ..app.messages import plural_form

            text = plural_form(text, values)
        return text.format(**values) if values else text

    def set(self, lang: str) -> None:
        self.lang = lang
        self.install_qt_translator()
        self.changed.emit(lang)

    def install_qt_translator(self) -> None:
        """Qt's own strings (OK, Cancel, file dialogs) in this language. There is one such
        translator for the whole application, whichever window's language set it last, so a
        closed window cannot leave its language behind."""
        global _qt_translator
        app = QApplication.instance()
        if app is None:
            return
        if _qt_translator is not None:
            app.removeTranslator(_qt_translator)
            _qt_translator = None
        if self.lang == "zh":
            translator = QTranslator(app)
            folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
            if translator.load(
                QLocale(QLocale.Language.Chinese, QLocale.Country.China), "qtbase", "_", folder
            ):
                app.installTranslator(translator)
                _qt_translator = translator
        if _qt_missing is not None:
            app.removeTranslator(_qt_missing)
        if self.lang == "zh":
            _install_missing(app)


#: The translator of Qt's own strings currently installed in the application.
_qt_translator: QTranslator | None = None

#: Qt's own strings that its Chinese translation (qtbase_zh_CN.qm) lacks in this Qt version:
#: the file dialog's labels changed their source text (an added "&") and were left English.
QT_MISSING_ZH = {
    ("QFileDialog", "&Look in:"): "查找范围(&L)：",
    ("QFileDialog", "Files of &type:"): "文件类型(&T)：",
    # the file dialog's 类型 column: Qt 6 moved these to QAbstractFileIconProvider, untranslated
    ("QAbstractFileIconProvider", "Folder"): "文件夹",
    ("QAbstractFileIconProvider", "File"): "文件",
    ("QAbstractFileIconProvider", "%1 File"): "%1 文件",
    ("QAbstractFileIconProvider", "Drive"): "驱动器",
    ("QAbstractFileIconProvider", "Shortcut"): "快捷方式",
}


class _MissingQtStrings(QTranslator):
    def translate(
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str | None:
        # None (a null string): not ours, so Qt asks the next translator
        return QT_MISSING_ZH.get((context, source))

    def isEmpty(self) -> bool:  # noqa: N802 (Qt's name)
        return False


_qt_missing: QTranslator | None = None


def _install_missing(app: QCoreApplication) -> None:
    global _qt_missing
    if _qt_missing is None:
        _qt_missing = _MissingQtStrings(app)
    app.installTranslator(_qt_missing)


def local_time(value: object, *, with_date: bool = False) -> str:
    """A stored time (ISO 8601, UTC) as the station's local clock reads it: ``14:05:09``, or
    ``2026-11-30 14:05:09`` with the date; the text itself when it is not a time."""
    from datetime import UTC, datetime

    if isinstance(value, datetime):
        when = value
    else:
        try:
            when = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        except ValueError:
            return str(value)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone().strftime("%Y-%m-%d %H:%M:%S" if with_date else "%H:%M:%S")


def system_lang() -> str:
    """The same rule as the command line's, so one locale gives one language everywhere."""
    from ..app.language import default_lang

    return default_lang()
