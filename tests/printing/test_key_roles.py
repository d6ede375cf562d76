"""Keeping an event's signing key in the store is the chief referee's once PINs are set."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run(db: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    # the name of who logs in to a role (the log records it, not the computer's account)
    full = dict(os.environ, REFEREE_APP_DB=str(db), REFEREE_APP_USER="孙裁判长", **env)
    full.pop("REFEREE_APP_ROLE", None)
    return subprocess.run(
        [sys.executable, "-m", "referee_app", "--lang", "en", *args],
        capture_output=True,
        text=True,
        env=full,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def test_event_key_needs_the_chief_referees_pin(tmp_path: Path) -> None:
    db = tmp_path / "event.sqlite"
    assert run(db, "event", "create", "--rules", "bhg-2011", "--name", "测试赛").returncode == 0
    assert run(db, "role", "set-pin", "--role", "chief_referee", REFEREE_APP_NEW_PIN="246810").returncode == 0
    refused = run(db, "key", "create", "--event", "1", REFEREE_APP_KEY_PASSPHRASE="secret-pass")
    assert refused.returncode == 2
    assert refused.stderr.strip() == "event.key needs the chief referee's PIN (you are: not logged in)"
    done = run(
        db,
        "key",
        "create",
        "--event",
        "1",
        "--role",
        "chief_referee",
        REFEREE_APP_PIN="246810",
        REFEREE_APP_KEY_PASSPHRASE="secret-pass",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("event 1")
