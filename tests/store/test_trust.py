"""Issue 10: a record the hall can trust (the rulebook cache, tokens, bad input, PINs …)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from store_helpers import cli, make_case, write_json

from referee_app.store.service import Store, strip_case


def _poison(data: Any) -> Any:
    """Every number a sanction could use, made absurd."""
    if isinstance(data, dict):
        return {k: _poison(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_poison(v) for v in data]
    if isinstance(data, int) and not isinstance(data, bool) and data > 0:
        return data + 500
    return data


def _edit_cache(cache_home: Path) -> int:
    edited = 0
    for f in (cache_home / "referee-app" / "rulebooks").glob("*.json"):
        stored = json.loads(f.read_text(encoding="utf-8"))
        stored["data"] = _poison(stored["data"])
        f.write_text(json.dumps(stored), encoding="utf-8")
        edited += 1
    return edited


def test_an_edited_rulebook_cache_changes_no_ruling(event_db: str, tmp_path: Path) -> None:
    case = make_case()
    f = write_json(tmp_path / "a.json", case)
    # the bundled rulebook is the pinned one: judging it fills the cache
    j = write_json(tmp_path / "j.json", strip_case(case))
    rc, before, err = cli(None, "judge", j)
    assert rc == 0, err
    assert _edit_cache(Path(os.environ["XDG_CACHE_HOME"])) >= 1
    # the command-line judge notices the edited entry and validates the text again
    rc, after, err = cli(None, "judge", j)
    assert rc == 0, err
    assert json.loads(after) == json.loads(before)
    # an event's rulings never come from the cache: poison it however well, they stay
    _edit_cache(Path(os.environ["XDG_CACHE_HOME"]))
    from referee_app.core import rulebook as rb_mod

    for entry in (Path(os.environ["XDG_CACHE_HOME"]) / "referee-app" / "rulebooks").glob("*.json"):
        stored = json.loads(entry.read_text(encoding="utf-8"))
        stored["check"] = rb_mod._cache_check(entry.stem, stored["data"])  # a deliberate forger
        entry.write_text(json.dumps(stored), encoding="utf-8")
    rc, out, err = cli(event_db, "record", f)
    assert rc == 0, err
    with Store.open(event_db) as store:
        (m,) = store.current_matches(1)
        (r,) = store.rulings_of(int(m["id"]))
    assert json.loads(m["decision_json"]) == json.loads(before)
    assert r["points"] == json.loads(before)["hands"][0]["rulings"][0]["points"] < 500


def test_a_token_reused_for_other_content_is_refused_by_name(event_db: str, tmp_path: Path) -> None:
    a = write_json(tmp_path / "a.json", make_case())
    b = write_json(tmp_path / "b.json", make_case(defender_points=80))
    assert cli(event_db, "record", a, "--token", "tok-7")[0] == 0
    rc, out, err = cli(event_db, "record", b, "--token", "tok-7")
    assert rc != 0 and out == "" and err.count("\n") == 1
    assert "--token tok-7: already used for a different record" in err and "round 1 table 1" in err
    with Store.open(event_db) as store:
        assert len(store.history(1, 1, 1)) == 1
    # the same content again is still a harmless retry
    assert cli(event_db, "record", a, "--token", "tok-7")[0] == 0
    rc, _, err = cli(event_db, "record", b, "--token", "x" * 101)
    assert rc != 0 and "--token: expected 1 to 100 printable characters" in err
