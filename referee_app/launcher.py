"""The program's front door, above the window and the command line: ``referee-app`` and
``python -m referee_app`` run :func:`main`, ``referee-app-gui`` and the desktop bundle
:func:`gui_script`.

The command line (:mod:`referee_app.cli`) parses every start; with no command it opens the
window, which it does not import: this module hands it :class:`Desktop`, which loads the
window's code (:mod:`referee_app.gui`) only when one is opened. So the window and the
command line never import each other, and ``referee-app judge`` loads no Qt."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from .cli.main import main as command_line
from .cli.windows import WindowName


class Desktop:
    """The windows of the desktop app, for :mod:`referee_app.cli.windows`: each is imported
    when it opens (ImportError without PySide6)."""

    def load(self, name: WindowName) -> Callable[[argparse.Namespace], int]:
        if name == "hall-display":
            from .gui.hall_display import run as hall_display

            return hall_display
        from .gui.app import run as window

        return window


def main(argv: Sequence[str] | None = None) -> int:
    """``referee-app [options] [command …]``: the command, or with none the window."""
    return command_line(argv, windows=Desktop())


def gui_script() -> int:
    """The ``referee-app-gui`` entry point (and the bundle's): Windows starts it without a
    console, where ``sys.stdout``/``sys.stderr`` are None, so printing would fail. The
    bundle's executable is also the store's holder process (``store.walholder``)."""
    from .app.holder import HOLD_ARGUMENT, hold

    if len(sys.argv) == 3 and sys.argv[1] == HOLD_ARGUMENT:
        return int(hold(sys.argv[2]))
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 - lives as long as the app
    return main()


if __name__ == "__main__":
    sys.exit(main())
