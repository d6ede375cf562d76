"""The window's side of the message catalogue (``referee_app.app.messages``).

A refused action is said in the window's language from the error's code and values, never
its English line (which may name a command-line flag), and the widget of the field the
error is about gets the focus, so the referee types the missing reason where it goes.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtWidgets import QWidget

from ..app.messages import describe
from .i18n import Language


def refusal(error: BaseException, language: Language) -> str:
    """What ``error`` says in the window's language (the field named in words)."""
    return describe(error, language.lang)


def focus_field(error: BaseException, widgets: Mapping[str, QWidget]) -> QWidget | None:
    """Focus the widget of the field ``error`` is about (``reason`` → the reason's box);
    the widget, or None when the error names no field of this form."""
    field = getattr(error, "field", None)
    widget = widgets.get(field) if isinstance(field, str) else None
    if widget is None:
        return None
    widget.setVisible(True)
    widget.setFocus()
    return widget
