"""Starting the desktop app as a user would, offscreen, and seeing it come up.

Shared by the checkout's tests and the install tests (wheel, bundle). The window counts
as up when the app's own log says so ("window shown", written after ``show()``); it must
then still be running a moment later (no crash right after start); then it is stopped.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

#: Generous: a cold start on a busy 2-core machine imports Qt and opens the store.
WINDOW_START_LIMIT_S = 90.0
STILL_ALIVE_AFTER_S = 3.0


def log_file_under(state_home: Path) -> Path:
    """Where the app logs when ``XDG_STATE_HOME`` is ``state_home`` (Linux, as in CI)."""
    return state_home / "referee-app" / "log" / "referee-app.log"


def start_window(command: Sequence[str], *, env: dict[str, str], cwd: Path, log: Path) -> str:
    """Start the window, wait for "window shown" in ``log``, check it stays up, stop it.

    Returns the log's text; raises AssertionError with the app's output otherwise.
    """
    env = dict(env, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen(
        list(command), cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + WINDOW_START_LIMIT_S
        while time.monotonic() < deadline and proc.poll() is None:
            if log.is_file() and "window shown" in log.read_text(encoding="utf-8"):
                break
            time.sleep(0.2)
        if proc.poll() is None:
            time.sleep(STILL_ALIVE_AFTER_S)
        alive = proc.poll() is None
    finally:
        if proc.poll() is None:
            proc.terminate()
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
    text = log.read_text(encoding="utf-8") if log.is_file() else ""
    assert alive, f"the window exited with {proc.returncode}: {err.strip() or out.strip()}\n{text}"
    assert "window shown" in text, f"no 'window shown' in {log}: {text!r} {err!r}"
    assert "Traceback" not in err and "ERROR" not in text, err + text
    return text


def clean_env(home: Path) -> dict[str, str]:
    """The environment of a new user: own home and folders, no project settings, no
    PYTHONPATH leading back into the checkout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REFEREE_APP_", "PYTHON", "XDG_"))}
    env.update(
        HOME=str(home),
        USERPROFILE=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_STATE_HOME=str(home / "state"),
        XDG_CONFIG_HOME=str(home / "config"),
        LANG="C.UTF-8",
    )
    env.pop("VIRTUAL_ENV", None)
    return env
