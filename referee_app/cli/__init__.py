"""The command line: ``judge``, ``rules`` and the store's, the printing and the desk's
commands; with no command, the window that the launcher (:mod:`referee_app.launcher`) hands
it (this package does not import the window). It only orchestrates: every use case is in
:mod:`referee_app.app`."""

from .main import build_parser, main

__all__ = ["build_parser", "main"]
