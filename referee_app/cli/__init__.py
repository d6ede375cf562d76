"""The command line: ``referee-app`` (with no command, the window), ``judge``, ``rules`` and
the store's, the printing and the desk's commands. It only orchestrates: every use case is
in :mod:`referee_app.app`."""

from .main import build_parser, main

__all__ = ["build_parser", "main"]
