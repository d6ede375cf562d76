"""The windows the command line opens: the desktop app (no command) and the hall display
(``hall-display``). The command line does not import the window's code: the launcher
(:mod:`referee_app.launcher`), above both, hands :func:`referee_app.cli.main.main` a
:class:`Windows` that loads them; without one (the command line alone) there is no window
to open, and the command says so in one line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Literal, Protocol

from .messages import text

WindowName = Literal["window", "hall-display"]


class Windows(Protocol):
    """Loads a window's start function; ImportError when the desktop app is not installed
    (no PySide6). The start function takes the parsed command line (``lang``, ``db``, …)
    and returns the exit code."""

    def load(self, name: WindowName) -> Callable[[argparse.Namespace], int]: ...


def open_window(name: WindowName, args: argparse.Namespace) -> int:
    """Start the window ``name`` with the ``Windows`` that ``main`` was given."""
    windows: Windows | None = getattr(args, "windows", None)
    try:
        if windows is None:
            raise ImportError("this program has no window")
        run = windows.load(name)
    except ImportError as exc:
        print(text("cli.no_desktop", args, detail=exc), file=sys.stderr)
        return 1
    return run(args)
