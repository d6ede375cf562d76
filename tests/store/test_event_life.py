"""What happened at the table stays recorded over an event's life (on SQLite and PostgreSQL):
a won appeal or a correction changes the hands it addresses, the later hands stand as they were
dealt, and a committee's decision stays with the ruling it answered whatever is recorded next."""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from store_helpers import cli, write_json

from referee_app.store.errors import InputError
from referee_app.store.service import Actor, Store
from tests.test_as_played import round_of_three

CHIEF = Actor("孙裁判长", "desk-1")


def hidden_card_round() -> dict[str, Any]:
    """BHG, North deals first. Hand 1: defenders 85 (EW take the deal, West deals); hand 2:
    West's hidden card in trick 3, found in trick 6 (EW lose the hand, South deals next),
    defenders 40; hand 3: defenders 120 and a single bottom of 20 captured. EW win."""
    return {**round_of_three(), "round": 1, "table": 1, "pairs": {"NS": "1", "EW": "2"}}


def recorded(db: str, tmp_path: Path, case: dict[str, Any]) -> int:
    rc, out, err = cli(db, "record", write_json(tmp_path / "case.json", case))
    assert rc == 0, err
    return int(out)


def current(db: str) -> dict[str, Any]:
    with Store.open(db) as s:
        [m] = s.current_matches(1)
    return m


def decision_of(m: dict[str, Any]) -> dict[str, Any]:
    return json.loads(m["decision_json"])


def appeal_to_warning(db: str, match_id: int) -> dict[str, Any]:
    """EW appeal hand 2's hand loss; the committee modifies it to a warning."""
    with Store.open(db) as s:
        [ruling] = [r for r in s.rulings_of(match_id) if r["kind"] == "hidden_card"]
        aid = s.file_appeal(
            1, ruling_id=ruling["id"], by="EW", grounds="未影响结果", actor=CHIEF, receipt="R-1"
        )
        return s.decide_appeal(
            aid,
            decision="modified",
            reason="藏牌未影响结果",
            committee=["周委员", "吴委员"],
            sanctions=["warning"],
            actor=CHIEF,
        )


def test_a_won_appeal_keeps_the_later_hands_as_dealt_and_their_points_with_the_side_that_won_them(
    event_db: str, tmp_path: Path
) -> None:
    mid = recorded(event_db, tmp_path, hidden_card_round())
    first = decision_of(current(event_db))
    assert [h["dealer"] for h in first["hands"]] == ["N", "W", "S"]
    assert first["hands"][1]["lost_by"] == "EW" and first["result"]["winner"] == "EW"

    out = appeal_to_warning(event_db, mid)

    assert out["winner_before"] == "EW" and out["winner_after"] == "EW"
    after = decision_of(current(event_db))
    h2, h3 = after["hands"][1], after["hands"][2]
    assert h2["lost_by"] is None and h2["keep_deal"] and h2["dealer_side"] == "EW"
    # hand 3 was dealt by South: the rotation would now give East, and the hand says so
    assert h3["dealer"] == "S" and h3["dealer_by_rotation"] == "E" and h3["assumed"]
    assert h3["defender_total"] == 160 and h3["gains"]["EW"] > 0 and h3["gains"]["NS"] == 0
    assert after["result"]["winner"] == "EW" and after["result"]["assumed"]
    # the lighter sanction does not worsen EW's result
    assert after["result"]["level_difference"]["EW"] >= first["result"]["level_difference"]["EW"]
    case = json.loads(current(event_db)["case_json"])
    assert [h.get("dealt_by") for h in case["hands"]] == [None, "W", "S"]


def test_a_correction_of_another_hand_keeps_the_committees_decision_and_counts_it(
    event_db: str, tmp_path: Path
) -> None:
    mid = recorded(event_db, tmp_path, hidden_card_round())
    appeal_to_warning(event_db, mid)
    # the chief referee corrects hand 1's points from the original case file
    corrected = hidden_card_round()
    corrected["hands"][0]["defender_points"] = 90
    rc, _, err = cli(
        event_db, "correct", write_json(tmp_path / "fix.json", corrected), "--reason", "第1副分数记错"
    )
    assert rc == 0, err

    m = current(event_db)
    d = decision_of(m)
    assert d["hands"][0]["defender_total"] == 90
    [ruling] = d["hands"][1]["rulings"]
    assert ruling["warning"] and not ruling["hand_lost"] and d["hands"][1]["lost_by"] is None
    assert ruling["proposed"]["hand_lost"]  # the computed ruling the committee replaced
    assert d["hands"][2]["dealer"] == "S" and d["result"]["winner"] == "EW"
    case = json.loads(m["case_json"])
    assert "改判" in case["hands"][1]["infractions"][0]["override"]["reason"]

    rc, out, _ = cli(event_db, "log", "--round", "1", "--table", "1")
    correction_line = [line for line in out.splitlines() if "correct" in line.lower()][-1]
    assert "(1 overridden" in correction_line, correction_line

    # the printed sheet shows the warning, not the hand loss the case file had
    pdf = tmp_path / "sheet.pdf"
    rc, _, err = cli(
        event_db, "print", "scoresheet", "--round", "1", "--table", "1", "-o", str(pdf), lang="zh"
    )
    assert rc == 0, err
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True).stdout
    assert "改判为警告" in text or "警告" in text
    assert "西判负" not in text.replace(" ", "") and "东西判负" not in text.replace(" ", "")


def test_a_record_that_drops_a_decided_ruling_is_refused_until_confirmed_with_a_reason(
    event_db: str, tmp_path: Path
) -> None:
    mid = recorded(event_db, tmp_path, hidden_card_round())
    appeal_to_warning(event_db, mid)
    before = current(event_db)["version"]
    dropped = hidden_card_round()
    dropped["hands"][1]["infractions"] = []
    path = write_json(tmp_path / "drop.json", dropped)

    rc, out, err = cli(event_db, "correct", path, "--reason", "重录")
    assert rc != 0 and out == "" and err.count("\n") == 1, (rc, err)
    assert "hand 2" in err and "hidden_card" in err and "--replace-decisions" in err
    assert current(event_db)["version"] == before

    rc, _, err = cli(event_db, "correct", path, "--reason", "该违规系误记", "--replace-decisions")
    assert rc == 0, err
    m = current(event_db)
    assert m["version"] == before + 1
    assert json.loads(m["case_json"])["hands"][1].get("infractions") == []
    with Store.open(event_db) as s:
        entry = s.log(1, 1, 1)[-1]
    info = json.loads(entry["payload"])["info"]
    assert info["carried"]["replaced"] == [
        {"hand": 2, "position": 0, "kind": "hidden_card", "decision": "override"}
    ]


def test_a_case_that_changes_the_facts_of_a_decided_ruling_is_refused(event_db: str, tmp_path: Path) -> None:
    mid = recorded(event_db, tmp_path, hidden_card_round())
    appeal_to_warning(event_db, mid)
    changed = hidden_card_round()
    changed["hands"][1]["infractions"][0]["discovered"] = 4
    rc, _, err = cli(event_db, "correct", write_json(tmp_path / "c.json", changed), "--reason", "发现时间")
    assert rc != 0 and "decision" in err


def test_a_correction_that_names_the_dealer_as_played_is_taken_as_given(
    event_db: str, tmp_path: Path
) -> None:
    recorded(event_db, tmp_path, hidden_card_round())
    # the chief referee finds hand 2 had no hand loss and that the table dealt by the rotation
    fixed = copy.deepcopy(hidden_card_round())
    fixed["hands"][1]["infractions"] = []
    fixed["hands"][1]["dealt_by"] = "W"
    fixed["hands"][2]["dealt_by"] = "E"
    rc, _, err = cli(event_db, "correct", write_json(tmp_path / "f.json", fixed), "--reason", "藏牌误记")
    assert rc == 0, err
    d = decision_of(current(event_db))
    assert [h["dealer"] for h in d["hands"]] == ["N", "W", "E"]
    assert all(h["dealer_by_rotation"] is None for h in d["hands"])


def test_the_committees_decision_says_which_hands_stand_as_dealt(event_db: str, tmp_path: Path) -> None:
    mid = recorded(event_db, tmp_path, hidden_card_round())
    with Store.open(event_db) as s:
        [ruling] = [r for r in s.rulings_of(mid) if r["kind"] == "hidden_card"]
        aid = s.file_appeal(1, ruling_id=ruling["id"], by="EW", grounds="g", actor=CHIEF, receipt="R-1")
    rc, _, err = cli(
        event_db, "appeal", "decide", str(aid), "--decision", "modified", "--reason", "未影响结果",
        "--committee", "周委员", "--sanctions", '["warning"]', lang="zh",
    )  # fmt: skip
    assert rc == 0, err
    assert "第 3 副按实际发牌计：南坐庄（按轮庄现应为东；按假定）" in err
    pdf = tmp_path / "sheet.pdf"
    rc, _, err = cli(
        event_db, "print", "scoresheet", "--round", "1", "--table", "1", "-o", str(pdf), lang="zh"
    )
    assert rc == 0, err
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True).stdout
    assert "按实际发牌计（轮庄现应为东）" in text.replace(" ", "")


def test_a_correction_sent_again_with_its_token_is_the_first_one(event_db: str, tmp_path: Path) -> None:
    mid = recorded(event_db, tmp_path, hidden_card_round())
    appeal_to_warning(event_db, mid)
    corrected = hidden_card_round()
    corrected["hands"][0]["defender_points"] = 90
    with Store.open(event_db) as s:
        first = s.record(1, corrected, actor=CHIEF, token="fix-1", correction_reason="第1副分数")
        again = s.record(
            1, copy.deepcopy(corrected), actor=CHIEF, token="fix-1", correction_reason="第1副分数"
        )
        entries = len(s.log())
    assert again.match_id == first.match_id and again.version == first.version == 3
    assert current(event_db)["version"] == 3
    with Store.open(event_db) as s:
        assert len(s.log()) == entries
        other = hidden_card_round()
        other["hands"][0]["defender_points"] = 95
        with pytest.raises(InputError) as err:
            s.record(1, other, actor=CHIEF, token="fix-1", correction_reason="另一处")
        assert err.value.code == "match.token_reused" and len(s.log()) == entries


def test_an_appeal_that_would_worsen_the_side_it_relieves_is_refused(db: str, tmp_path: Path) -> None:
    """HBUE's J rule: relieved of a hand loss in hand 1, EW reach J and, dealing hand 3 as
    played, drop to 6 on a bottom captured with a J — their level difference 7 → 4."""
    from store_helpers import PAIRS_CSV

    assert cli(db, "event", "create", "--rules", "hbue-2018", "--name", "测试杯")[0] == 0
    (tmp_path / "pairs.csv").write_text(PAIRS_CSV, encoding="utf-8")
    assert cli(db, "pairs", "import", str(tmp_path / "pairs.csv"))[0] == 0
    case = {
        "event": "hbue-2018",
        "round": 1,
        "table": 1,
        "pairs": {"NS": "1", "EW": "2"},
        "first_dealer": "E",
        "levels": {"NS": "2", "EW": "10"},
        "hands": [
            {
                "defender_points": 40,
                "infractions": [
                    {
                        "kind": "delay",
                        "seat": "W",
                        "what": "lead",
                        "override": {"sanctions": ["hand_loss"], "reason": "多次拖延"},
                    }
                ],
            },
            {"defender_points": 85},
            {"defender_points": 30, "bottom": {"points": 10, "captured": True, "shape": "single", "j": 1}},
        ],
        "finished": "time",
    }
    mid = recorded(db, tmp_path, case)
    with Store.open(db) as s:
        [ruling] = s.rulings_of(mid)
        aid = s.file_appeal(1, ruling_id=ruling["id"], by="EW", grounds="g", actor=CHIEF, receipt="R-1")
        before = current(db)["version"]
        with pytest.raises(Exception) as err:
            s.decide_appeal(
                aid,
                decision="modified",
                reason="改为警告",
                committee=["周委员"],
                sanctions=["warning"],
                actor=CHIEF,
            )
        assert getattr(err.value, "code", None) == "appeal.worsens_side"
        assert getattr(err.value, "values", {})["before"] == "2/+7" and err.value.values["after"] == "2/+4"
        assert current(db)["version"] == before and s.appeal(aid)["state"] == "filed"
        # rejecting it keeps the result the appeal could not improve
        s.decide_appeal(aid, decision="rejected", reason="维持原判", committee=["周委员"], actor=CHIEF)
    rc, _, err_line = cli(db, "verify")
    assert rc == 0, err_line


# -- found by the state machine (test_event_life_machine.py) ------------------------------------
def both_sides_lose_round() -> dict[str, Any]:
    """BHG, East deals: in hand 1 East and South each signal illegally (二、9), so both sides
    lose the hand (the shifts cancel: scored on its 85 points, DOMAIN §3 reading)."""
    return {
        "event": "bhg-2011",
        "round": 1,
        "table": 1,
        "pairs": {"NS": "1", "EW": "2"},
        "first_dealer": "E",
        "hands": [
            {
                "defender_points": 85,
                "infractions": [
                    {"kind": "illegal_signal", "seat": "E", "trick": 3},
                    {"kind": "illegal_signal", "seat": "S", "trick": 5},
                ],
            }
        ],
        "finished": "time",
    }


def test_a_hand_lost_by_both_sides_is_saved(event_db: str) -> None:
    with Store.open(event_db) as s:
        s.record(1, both_sides_lose_round(), actor=CHIEF)
        [m] = s.current_matches(1)
    assert decision_of(m)["hands"][0]["lost_by"] == "both"


def test_voiding_a_ruling_that_carries_a_decision_is_refused_until_confirmed(
    event_db: str, tmp_path: Path
) -> None:
    from referee_app.app.session import Session
    from referee_app.core import editing
    from referee_app.store.errors import InputError

    mid = recorded(event_db, tmp_path, hidden_card_round())
    appeal_to_warning(event_db, mid)  # the committee: hand 2's hidden card is a warning
    with Store.open(event_db) as store:
        session = Session(store, store.pick_event(1), Actor("赵裁判", "table-1"), "zh")
        record = session.table(1, 1)
        assert record is not None
        before = record.version
        # the table referee selects the ruling in the window and voids it
        voided = editing.void_infraction(record.case, 1, 0, "看错了")
        with pytest.raises(InputError) as refused:
            session.save(record, voided)
        assert refused.value.code == "match.decisions_touched"
        assert session.table(1, 1).version == before
        # confirmed with a reason, it is saved, and the entry says what it replaced
        full = dict(voided, round=1, table=1, pairs=record.pairs)
        store.record(
            1, full, actor=CHIEF, expected_version=before, correction_reason="撤销", replace_decisions=True
        )
        info = json.loads(store.log(1, 1, 1)[-1]["payload"])["info"]
    assert {(p["hand"], p["position"], p["kind"]) for p in info["carried"]["replaced"]} == {
        (2, 0, "hidden_card")
    }


def test_dropping_one_of_two_identical_infractions_drops_its_decision(event_db: str) -> None:
    """Hand 1: West's exposed card (2 cards, trick 1) entered twice; the referee voids the
    first entry as the duplicate, then the chief referee drops that entry from the record."""
    from referee_app.core import editing
    from referee_app.store.errors import InputError

    twice = {"kind": "exposed_card", "seat": "W", "cards": 2, "trick": 1}
    case: dict[str, Any] = {
        "event": "bhg-2011",
        "round": 1,
        "table": 1,
        "pairs": {"NS": "1", "EW": "2"},
        "first_dealer": "E",
        "hands": [{"defender_points": 60, "infractions": [dict(twice), dict(twice)]}],
        "finished": "open",
    }
    with Store.open(event_db) as s:
        s.record(1, case, actor=CHIEF)
        s.record(1, editing.void_infraction(case, 0, 0, "重复录入"), actor=CHIEF, expected_version=1)
        dropped = copy.deepcopy(case)
        dropped["hands"][0]["infractions"] = [dict(twice)]  # the case file without the duplicate
        with pytest.raises(InputError) as refused:  # it drops a decided ruling: confirm it
            s.record(1, dropped, actor=CHIEF, expected_version=2, correction_reason="删去重复")
        assert refused.value.code == "match.decisions_touched"
        s.record(
            1, dropped, actor=CHIEF, expected_version=2, correction_reason="删去重复", replace_decisions=True
        )
        [m] = s.current_matches(1)
    [ruling] = decision_of(m)["hands"][0]["rulings"]
    assert not ruling["voided"] and ruling["points"] == 20  # West's exposed cards still cost 20


def exposed_cards_round() -> dict[str, Any]:
    """BHG, hand 1: North's exposed card (trick 3), South's two (trick 5), East's one (trick 7)."""
    return {
        "event": "bhg-2011",
        "round": 1,
        "table": 1,
        "pairs": {"NS": "1", "EW": "2"},
        "first_dealer": "E",
        "hands": [
            {
                "defender_points": 60,
                "infractions": [
                    {"kind": "exposed_card", "seat": "N", "cards": 1, "trick": 3},
                    {"kind": "exposed_card", "seat": "S", "cards": 2, "trick": 5},
                    {"kind": "exposed_card", "seat": "E", "cards": 1, "trick": 7},
                ],
            }
        ],
        "finished": "open",
    }


def voided_seats(m: dict[str, Any]) -> list[str]:
    return [r["seat"] for r in decision_of(m)["hands"][0]["rulings"] if r["voided"]]


def test_the_committees_decision_lands_on_the_appealed_ruling_after_a_correction(event_db: str) -> None:
    with Store.open(event_db) as s:
        s.record(1, exposed_cards_round(), actor=CHIEF)
        [m] = s.current_matches(1)
        [south] = [r for r in s.rulings_of(m["id"]) if r["seat"] == "S"]
        aid = s.file_appeal(
            1, ruling_id=south["id"], by="NS", grounds="牌没有亮出", actor=CHIEF, receipt="R-1"
        )
        fixed = exposed_cards_round()
        del fixed["hands"][0]["infractions"][0]  # North's was entered by mistake
        s.record(1, fixed, actor=CHIEF, correction_reason="北家误记")
        s.decide_appeal(aid, decision="upheld", reason="录像为证", committee=["周委员"], actor=CHIEF)
        [m] = s.current_matches(1)
    assert voided_seats(m) == ["S"]


def test_an_appeal_on_a_voided_record_changes_no_ruling_of_the_next(event_db: str) -> None:
    from referee_app.store.errors import StoreError

    with Store.open(event_db) as s:
        s.record(1, exposed_cards_round(), actor=CHIEF)
        [m] = s.current_matches(1)
        [south] = [r for r in s.rulings_of(m["id"]) if r["seat"] == "S"]
        aid = s.file_appeal(
            1, ruling_id=south["id"], by="NS", grounds="牌没有亮出", actor=CHIEF, receipt="R-1"
        )
        s.void(1, round_no=1, table_no=1, reason="记录混乱，作废重记", actor=CHIEF)
        again = exposed_cards_round()
        again["hands"][0]["infractions"] = [
            {"kind": "exposed_card", "seat": "W", "cards": 1, "trick": 2},
            {"kind": "exposed_card", "seat": "E", "cards": 3, "trick": 9},
        ]
        s.record(1, again, actor=CHIEF)
        with pytest.raises(StoreError):  # the appealed ruling is in no current record
            s.decide_appeal(aid, decision="upheld", reason="录像为证", committee=["周委员"], actor=CHIEF)
        [m] = s.current_matches(1)
    assert voided_seats(m) == []


def test_the_log_and_appeal_list_word_sanctions_and_kinds_as_the_rulebook_does(
    event_db: str, tmp_path: Path
) -> None:
    """A modified appeal's new sanction reads 警告 in the log (not raw JSON), and `appeal list`
    names the offence by the rulebook's label, per language, not its kind id (issue 23)."""
    from referee_app.core.rulebook import load_rulebook

    mid = recorded(event_db, tmp_path, hidden_card_round())
    appeal_to_warning(event_db, mid)
    rc, log, _ = cli(event_db, "log", lang="zh")
    assert rc == 0 and "新判罚：警告" in log and '["warning"]' not in log
    rc, log, _ = cli(event_db, "log", lang="en")
    assert rc == 0 and "new sanctions: warning" in log
    label = load_rulebook(hidden_card_round()["event"]).data["infractions"]["hidden_card"]["label"]
    for lang in ("zh", "en"):
        rc, out, _ = cli(event_db, "appeal", "list", lang=lang)
        assert rc == 0 and label[lang] in out and "hidden_card" not in out, out


def test_a_round_lost_by_disqualification_is_logged_as_such_not_as_a_forfeit(
    event_db: str, tmp_path: Path
) -> None:
    """000 二「取消比赛资格」(the rulebook: a disqualification during a round also loses it) is
    worded 取消资格，本轮判负 in the log; 二、1's late arrival stays 判本轮弃权."""
    case = {
        "event": "bhg-2011",
        "round": 1,
        "table": 1,
        "pairs": {"NS": "1", "EW": "2"},
        "first_dealer": "N",
        "finished": "open",
        "hands": [
            {
                "defender_points": 40,
                "infractions": [{"kind": "misconduct", "seat": "E", "disqualified": True}],
            }
        ],
    }
    recorded(event_db, tmp_path, case)
    decision = decision_of(current(event_db))
    assert decision["forfeit"]["side"] == "EW"
    rc, log, _ = cli(event_db, "log", lang="zh")
    assert rc == 0 and "东西 取消资格，本轮判负" in log and "东西 判本轮弃权" not in log
    rc, log, _ = cli(event_db, "log", lang="en")
    assert "EW: disqualified: the round is lost" in log
