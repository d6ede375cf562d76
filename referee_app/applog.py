"""The app's log file, in the user log folder (``platformdirs``).

A referee never sees a traceback: an unexpected failure is written here in full and the
referee is shown one line naming this file, which the desk can send to whoever maintains
the app. The desktop app logs its start and each unexpected failure; the command line
writes here only when something unexpected happens (``judge`` stays fast).
"""

from __future__ import annotations

import logging
from pathlib import Path

from . import __version__
from .locations import user_log_dir

LOG_FILE_NAME = "referee-app.log"
logger = logging.getLogger("referee_app")


def log_file() -> Path:
    return user_log_dir() / LOG_FILE_NAME


def start_logging() -> Path | None:
    """Send the app's log records to the log file (once); the file, or None when it cannot
    be written (a read-only profile must not stop the app)."""
    path = log_file()
    for handler in logger.handlers:
        if isinstance(handler, logging.FileHandler) and Path(handler.baseFilename) == path:
            return path
    from logging.handlers import RotatingFileHandler  # here: the window paints before it

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
    except OSError:
        return None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.info("referee-app %s", __version__)
    return path


def log_unexpected(exc: BaseException, where: str) -> Path | None:
    """Write an unexpected failure with its traceback to the log; the log file or None."""
    path = start_logging()
    logger.error("unexpected failure in %s", where, exc_info=(type(exc), exc, exc.__traceback__))
    return path
