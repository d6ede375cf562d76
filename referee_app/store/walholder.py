"""A helper process that holds an SQLite store open while the window runs (issue 11).

The store opens a connection per transaction (issue 10, ``db.make_engine``): SQLite's POSIX
locks belong to the process, and anything in it that opens and closes the database file
(a Qt file dialog sniffing the folder) drops them silently. But when the process's only
connection closes, SQLite treats it as the last one anywhere: it checkpoints the WAL into
the database, deletes the WAL and its index, and the next transaction creates both again.
Every save in the window paid that: a checkpoint, two more fsyncs and the WAL's re-creation,
3.7× a bare INSERT on its own.

A small child process holding one idle connection makes none of ours the last: the WAL
stays, and a save costs its commit. Its locks are its own process's, so nothing in the
window's process can drop them; and while it lives no other process (a command run beside
the window) can believe itself the last one and delete the WAL under anyone. It reads
nothing after its first look, takes no transaction (so it never holds a checkpoint back),
and ends when its standard input closes: when the store closes, or when the window's
process ends in any way, a crash included. When it cannot start, the store works as
before, only slower.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

logger = logging.getLogger(__name__)

#: The argument a frozen bundle's executable takes to run as the holder (``gui_script``).
HOLD_ARGUMENT = "--hold-sqlite-store"

#: What the child says once its connection is open and has read the file.
READY = b"holding\n"


def hold(path: str) -> int:
    """The child's whole life: open the store read-write (never creating it), look at it
    once so SQLite takes its shared locks and opens the WAL, say so, and wait for the end
    of standard input."""
    import sqlite3

    if sys.stdin is None or sys.stdout is None:  # a windowed bundle without its pipes
        return 1
    try:
        con = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=rw", uri=True, isolation_level=None)
        con.execute("PRAGMA busy_timeout=30000")
        # fetchall: the statement runs to its end, so no read transaction stays open
        con.execute("SELECT count(*) FROM sqlite_master").fetchall()
    except sqlite3.Error:
        return 1
    sys.stdout.buffer.write(READY)
    sys.stdout.buffer.flush()
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        con.close()
    return 0


class WalHolder:
    """The running holder of one SQLite file (see the module's text)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process

    @classmethod
    def start(cls, path: str | os.PathLike[str], *, wait: bool = False) -> WalHolder | None:
        """Start holding ``path``; ``None`` when the child cannot start (the store then works
        without it). ``wait``: return once the child holds the file (or has failed)."""
        if getattr(sys, "frozen", False):
            command = [sys.executable, HOLD_ARGUMENT, str(path)]
        else:
            # -I: nothing from the environment or the user's site; the package is found
            # where this module is, whatever the current folder
            root = str(Path(__file__).resolve().parents[2])
            code = (
                f"import sys; sys.path.insert(0, {root!r}); "
                "from referee_app.store.walholder import hold; sys.exit(hold(sys.argv[1]))"
            )
            command = [sys.executable, "-I", "-c", code, str(path)]
        try:
            process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                close_fds=True,
                # started from the window, a console program would open a console window
                creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0),
            )
        except OSError as err:
            logger.warning("cannot start the store's holder (%s): saves will be slower", err)
            return None
        holder = cls(process)
        if wait and not holder.wait_ready():
            return None
        return holder

    def wait_ready(self) -> bool:
        """Block until the child holds the file; False (and the child ended) if it could not."""
        assert self.process.stdout is not None
        if self.process.stdout.readline() == READY:
            return True
        self.stop()
        logger.warning("the store's holder could not open the file: saves will be slower")
        return False

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def stop(self, timeout: float = 10.0) -> None:
        """Close the child's input and wait for it: as the last connection it checkpoints
        the WAL into the file, as any last connection does."""
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
