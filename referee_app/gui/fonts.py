"""The bundled CJK font, registered with Qt: one place for the window and the hall display
(the hall display's own process starts without the window's start-up module)."""

from __future__ import annotations

from ..locations import font_path


def register_font() -> str | None:
    """Register the bundled CJK font so Chinese renders on any machine; return its family."""
    from PySide6.QtGui import QFontDatabase

    font_file = font_path()
    if not font_file.is_file():
        return None
    font_id = QFontDatabase.addApplicationFont(str(font_file))
    families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    return families[0] if families else None
