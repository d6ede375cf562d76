"""The interface's words in Chinese and English, switchable while the app runs.

Strings live in ``resources/translations/gui.toml`` (reviewed like code); Qt's own buttons
(OK, Cancel, …) speak Chinese through Qt's ``qtbase_zh_CN.qm``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLibraryInfo, QLocale, QObject, QTranslator, Signal
from PySide6.QtWidgets import QApplication

from ..locations import resources_dir

CATALOG_PATH = resources_dir() / "translations" / "gui.toml"


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

    def tr(self, name: str, /, **values: Any) -> str:
        entry = self.catalog.get(name)
        if entry is None:
            raise KeyError(f"{CATALOG_PATH.name}: no string {name!r}")
        text = entry[self.lang]
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


#: The translator of Qt's own strings currently installed in the application.
_qt_translator: QTranslator | None = None


def system_lang() -> str:
    """The same rule as the command line's, so one locale gives one language everywhere."""
    from ..app.language import default_lang

    return default_lang()
