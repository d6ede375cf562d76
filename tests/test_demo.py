"""The demo event (示例赛事, issue 28 item 4): ``referee-app demo`` builds a Gansu event with
12 pairs and a round played — rulings, an appeal decided, signed tables — into a new store
file through the application's operations, and the store it leaves passes ``verify``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee_app.cli.main import main
from referee_app.store.service import Store


def referee_app(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee_app", *args], capture_output=True, text=True, check=False
    )


def test_the_demo_command_builds_a_played_gansu_round_that_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store_file = tmp_path / "示例" / "demo.sqlite"
    assert main(["--lang", "zh", "demo", "--store", str(store_file)]) == 0
    said = capsys.readouterr()
    assert said.out.strip() == str(store_file)  # alone on stdout: usable as --db "$(…)"
    assert "示例赛事" in said.err and "12 对" in said.err

    checked = referee_app("--db", str(store_file), "--lang", "en", "verify")  # a process of its own
    assert checked.returncode == 0, checked.stderr
    assert "audit chain intact" in checked.stdout

    with Store.open(str(store_file), read_only=True) as store:
        [event] = store.list_events()
        assert event.rulebook_id == "gansu-2018"
        assert len(store.list_pairs(event.id)) == 12
        matches = store.current_matches(event.id, 1)
        assert len(matches) == 6
        assert all(json.loads(m["decision_json"])["result"] is not None for m in matches)
        assert {m["id"] for m in matches} <= store.signed_match_ids(event.id)  # every table signed
        kinds = {r["kind"] for m in matches for r in store.rulings_of(m["id"])}
        assert {"exposed_card", "hidden_card", "delay", "wrong_play", "late_arrival"} <= kinds
        decided, left = store.appeals(event.id, 1)
        assert decided["state"] == "modified" and not decided["open"]  # the committee modified it
        assert decided["ruling"]["kind"] == "hidden_card"
        assert left["open"] and left["ruling"]["kind"] == "exposed_card"  # one to try deciding


def test_the_demo_never_goes_into_a_file_that_exists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    own = tmp_path / "event.sqlite"
    own.write_bytes(b"the station's own store")
    assert main(["--lang", "en", "demo", "--store", str(own)]) == 2
    refused = capsys.readouterr()
    assert refused.out == ""
    assert refused.err.strip() == f"{own}: already exists; the demo event goes into a new file only"
    assert own.read_bytes() == b"the station's own store"
