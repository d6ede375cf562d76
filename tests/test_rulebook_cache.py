"""Issue 24 item 4: the rulebook cache is keyed to this installation.

An entry is signed with HMAC-SHA256 under a secret in the user's data folder, and kept in a
folder of the code that made it: an edited entry, even with its plain SHA-256 recomputed as
the old check was, is a cache miss (the TOML is read again and the entry replaced), never a
different ruling; two installations of one user keep their own entries; a schema that
changed is other code. Every run is a real `referee-app judge` process.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
from pathlib import Path
from typing import Any

import pytest

from .judge_process import ROOT, cache_entries, judge_process, user_env

#: Gansu 六、六、C1: a light exposed card costs 10 points.
CASE = {
    "event": "gansu-2018",
    "first_dealer": "E",
    "finished": "time",
    "hands": [
        {
            "defender_points": 60,
            "infractions": [{"kind": "exposed_card", "seat": "N", "cards": 1, "severity": "light"}],
        }
    ],
}


def _points(decision: dict[str, Any]) -> int:
    return int(decision["hands"][0]["rulings"][0]["points"])


def _plain_check(digest: str, data: dict[str, Any]) -> str:
    """The check entries carried before: a SHA-256 anyone can recompute."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(f"{digest}\n{canonical}".encode()).hexdigest()


def _forge(entry: Path, *, sign: Any = None) -> None:
    """Exposed-card points from 10 to 90 a card, the entry's check made again (by ``sign``,
    else the plain SHA-256)."""
    stored = json.loads(entry.read_text(encoding="utf-8"))
    for rule in stored["data"]["infractions"]["exposed_card"]["rules"]:
        if rule["sanction"].get("points") == 10:
            rule["sanction"]["points"] = 90
    sign = sign or (lambda stamp, digest, data: _plain_check(digest, data))
    stored["check"] = sign(stored["stamp"], entry.stem, stored["data"])
    entry.write_text(json.dumps(stored), encoding="utf-8")


@pytest.fixture
def case(tmp_path: Path) -> Path:
    path = tmp_path / "case.json"
    path.write_text(json.dumps(CASE), encoding="utf-8")
    return path


def test_a_forged_entry_is_a_miss_and_is_replaced(tmp_path: Path, case: Path) -> None:
    home = tmp_path / "home"
    env = user_env(home)
    first = judge_process(case, env)
    assert _points(first.decision) == 10
    (entry,) = cache_entries(home)
    _forge(entry)
    assert "90" in entry.read_text(encoding="utf-8")
    forged = entry.read_text(encoding="utf-8")

    again = judge_process(case, env)
    assert again.decision == first.decision  # the TOML's ruling, read again from the TOML
    assert "pydantic" in again.modules
    assert entry.read_text(encoding="utf-8") != forged  # … and the forged entry replaced
    rules = json.loads(entry.read_text(encoding="utf-8"))["data"]["infractions"]["exposed_card"]["rules"]
    assert [r["sanction"].get("points") for r in rules] == [10, 20]
    warm = judge_process(case, env)  # the replacement is trusted again
    assert warm.decision == first.decision and "pydantic" not in warm.modules


def test_the_secret_is_the_owners_alone(tmp_path: Path, case: Path) -> None:
    home = tmp_path / "home"
    env = user_env(home)
    assert _points(judge_process(case, env).decision) == 10
    secret_file = home / "data" / "referee-app" / "cache-secret.key"
    secret = secret_file.read_bytes()
    assert len(secret) == 32 and secret != bytes(32)
    if os.name == "posix":
        assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    # whoever holds the secret can sign; an entry signed with another secret is refused
    (entry,) = cache_entries(home)
    import hmac

    def signer(key: bytes) -> Any:
        def sign(stamp: str, digest: str, data: dict[str, Any]) -> str:
            canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            return hmac.new(key, f"{stamp}\n{digest}\n{canonical}".encode(), hashlib.sha256).hexdigest()

        return sign

    _forge(entry, sign=signer(os.urandom(32)))
    assert _points(judge_process(case, env).decision) == 10
    # the real secret signs: the check is the secret's (the forger needs the data folder)
    _forge(entry, sign=signer(secret))
    assert _points(judge_process(case, env).decision) == 90
    if os.name == "posix":
        # a secret others can read is no secret: not used (the entry it signed is a miss),
        # and a new one, the owner's alone, takes its place
        _forge(entry, sign=signer(secret))
        secret_file.chmod(0o644)
        again = judge_process(case, env)
        assert _points(again.decision) == 10 and "pydantic" in again.modules
        assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600 and secret_file.read_bytes() != secret
        assert "pydantic" not in judge_process(case, env).modules
        # … a link in its place too (it could point at a file others read)
        shared = tmp_path / "shared.key"
        shared.write_bytes(secret_file.read_bytes())
        shared.chmod(0o600)
        secret_file.unlink()
        secret_file.symlink_to(shared)
        linked = judge_process(case, env)
        assert _points(linked.decision) == 10 and "pydantic" in linked.modules
        assert not secret_file.is_symlink() and shared.read_bytes() != secret_file.read_bytes()


def _install_copy(where: Path) -> Path:
    """A second installation of the same code: the package copied elsewhere (its files
    written now, as another install would), the shipped folders beside it."""
    shutil.copytree(ROOT / "referee_app", where / "referee_app", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("rules", "forms", "resources"):
        (where / name).symlink_to(ROOT / name, target_is_directory=True)
    return where


def test_two_installations_keep_their_own_entries(tmp_path: Path, case: Path) -> None:
    home = tmp_path / "home"
    here, there = user_env(home), user_env(home, install=_install_copy(tmp_path / "other"))
    runs = [judge_process(case, env) for env in (here, there, here, there)]
    assert all(r.decision == runs[0].decision for r in runs)
    # each filled its own folder once; neither overwrote the other's entry
    assert ["pydantic" in r.modules for r in runs] == [True, True, False, False]
    assert len({e.parent for e in cache_entries(home)}) == 2


def test_a_changed_schema_does_not_read_the_old_schemas_entries(tmp_path: Path, case: Path) -> None:
    """A schema with new fields (another worker's rulebook_schema.py) is other code, even at
    the same size and file time."""
    home = tmp_path / "home"
    install = _install_copy(tmp_path / "other")
    env = user_env(home, install=install)
    assert "pydantic" in judge_process(case, env).modules
    assert "pydantic" not in judge_process(case, env).modules
    schema = install / "referee_app" / "core" / "rulebook_schema.py"
    before = schema.stat()
    text = schema.read_text(encoding="utf-8")
    schema.write_text(text[:-1] + "#", encoding="utf-8")  # the last line break made a comment
    os.utime(schema, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert schema.stat().st_size == before.st_size and schema.read_text(encoding="utf-8") != text
    changed = judge_process(case, env)
    assert _points(changed.decision) == 10 and "pydantic" in changed.modules
    assert len({e.parent for e in cache_entries(home)}) == 2
