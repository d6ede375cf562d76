"""Whether a window can open here: the window, the hall display and the command line that
starts them ask the same question and say the same line (no Qt needed to ask it)."""

from __future__ import annotations

import os
import sys


def display_problem(lang: str) -> str | None:
    """Why no window can open here, in one line in ``lang``, or None."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return None
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        from .messages import message

        tools = "referee-app judge CASE.json, referee-app rules list, referee-app --help"
        return "referee-app: " + message("window.no_display", lang, tools=tools)
    return None
