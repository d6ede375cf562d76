"""A pair leaving during a round (中途退出, issue 26): the hands it played stand, and the
rulebook's forfeit applies after them, citing the event's clause on leaving, marked
assumed where the seed is silent on the scoring. Judged here (the engine's mutation gate
runs this file); stored, ranked and printed in tests/printing/test_office_paper.py."""

from __future__ import annotations

from typing import Any

import pytest

from referee_app.core.case import CaseError
from referee_app.core.engine import judge
from referee_app.core.rulebook import load_rulebook, rulebook_from_text

from .conftest import RULES


def _left(points: list[int], side: str = "NS", rules: str = "bhg-2011") -> dict[str, Any]:
    return {
        "event": rules,
        "first_dealer": "E",
        "hands": [{"defender_points": p} for p in points],
        "finished": "time",
        "withdrawal": {"side": side, "reason": "队员身体不适"},
    }


def test_the_hands_played_stand_and_the_forfeit_applies_after_them() -> None:
    d = judge(_left([0, 0, 45]), lang="zh")
    assert [h["levels_after"] for h in d["hands"]] == [
        {"NS": "2", "EW": "5"}, {"NS": "2", "EW": "8"}, {"NS": "2", "EW": "9"},
    ]  # fmt: skip
    f = d["forfeit"]
    assert (f["side"], f["cause"], f["reason"]) == ("NS", "withdrawal", "队员身体不适")
    assert f["match_points"] == {"NS": 0, "EW": 2} and f["levels"] == {
        "NS": "2",
        "EW": "9",
    }  # the board's lead
    assert f["citation"] == "参赛须知 8 退出比赛" and f["assumed"] is True
    r = d["result"]
    assert (r["winner"], r["decided_by"], r["citation"], r["assumed"]) == (
        "EW",
        "forfeit",
        "参赛须知 8 退出比赛",
        True,
    )


def test_a_leading_pair_that_leaves_loses_the_round_on_the_forfeits_levels() -> None:
    d = judge(_left([0, 0], side="EW"), lang="en")  # EW leads 8:2 and leaves
    assert len(d["hands"]) == 2 and d["forfeit"]["levels"] == {"EW": "2", "NS": "3"}
    assert d["result"]["winner"] == "NS" and d["result"]["match_points"] == {"NS": 2, "EW": 0}
    # the printed levels apply (no lead on the board to keep): only the clause on leaving,
    # which BHG does not score, marks it
    assert d["forfeit"]["assumed"] is True and d["result"]["assumed"] is True


def test_a_clause_on_leaving_that_says_how_the_round_is_scored_is_not_marked() -> None:
    """A club whose rules print the scoring of a pair leaving (离场判弃权，对手得2分，级数2:3):
    its forfeit with the printed levels is judged unmarked; keeping the board's lead still is."""
    text = (
        (RULES / "bhg-2011.toml").read_text(encoding="utf-8").replace('id = "bhg-2011"', 'id = "club-2026"')
    )
    start = text.index("withdrawal_clause = {")
    end = text.index("\n", start)
    text = (
        text[:start]
        + 'withdrawal_clause = { ref = "第八条", title = "中途退出", zh = "比赛中途退出者判弃权，对手得2分，级数记2:3。", '
        'en = "A pair leaving mid-round forfeits: the opponent scores 2, levels 2:3." }' + text[end:]
    )
    club = rulebook_from_text(text, "club-2026.toml", use_cache=False)
    case = {**_left([0, 0], side="EW"), "event": "club-2026"}
    d = judge(case, rulebook=club)
    assert d["forfeit"]["citation"] == "第八条 中途退出" and d["forfeit"]["assumed"] is False
    assert d["result"]["assumed"] is False
    led = judge({**_left([0, 0, 45]), "event": "club-2026"}, rulebook=club)  # EW leads 9:2, NS leaves
    assert led["forfeit"]["levels"] == {"NS": "2", "EW": "9"} and led["forfeit"]["assumed"] is True


@pytest.mark.parametrize(
    ("rules", "ref"), [("bhg-2011", "参赛须知 8"), ("gansu-2018", "六、七、7"), ("hbue-2018", "通知四、(三)")]
)
def test_each_rulebook_cites_its_clause_on_leaving_marked_assumed(rules: str, ref: str) -> None:
    clause = load_rulebook(rules).data["forfeit"]["withdrawal_clause"]
    assert clause["ref"] == ref and clause["assumed"] and clause["note"]
    d = judge(_left([30], rules=rules), lang="zh")
    assert d["result"]["citation"].startswith(ref) and d["result"]["assumed"] is True


def test_a_withdrawal_after_the_round_ended_or_with_a_wrong_side_is_refused() -> None:
    case = _left([0, 0])
    case["hands"][1]["infractions"] = [
        {"kind": "delay", "seat": "N", "what": "lead", "trick": 2,
         "override": {"sanctions": [{"round_forfeit": True}], "reason": "拒不改正"}},
    ]  # fmt: skip
    with pytest.raises(
        CaseError, match=r"^withdrawal: the round ended at hand 2 \(round lost by NS\)"
    ) as ended:
        judge(case, lang="en")
    assert ended.value.code == "case.withdrawal_after_end" and ended.value.field == "withdrawal"
    assert ended.value.values == {"n": 2, "round_end": "round_forfeit", "side": "NS"}
    passed = _left([0, 0])
    passed["levels"] = {"NS": "2", "EW": "A"}  # EW deals the first hand at A and passes it
    with pytest.raises(CaseError) as after_a:
        judge(passed, lang="en")
    assert after_a.value.values == {"n": 1, "round_end": "passed_a", "side": "EW"}
    bad = _left([0])
    bad["withdrawal"]["side"] = "N"
    with pytest.raises(CaseError) as caught:
        judge(bad, lang="en")
    assert caught.value.field == "withdrawal.side"


def test_the_windows_withdrawal_drops_a_hand_in_progress_without_rulings_and_keeps_one_with_them() -> None:
    from referee_app.core import editing

    case = _left([0, 0])
    del case["withdrawal"]
    case["finished"] = "open"
    empty = dict(case, hands=[*case["hands"], {"in_progress": True, "infractions": []}])
    left = editing.withdraw(empty, "EW", "  离开赛场 ")
    assert left["hands"] == case["hands"] and left["withdrawal"] == {"side": "EW", "reason": "离开赛场"}
    assert "withdrawal" not in empty and len(empty["hands"]) == 3  # its argument untouched
    exposed = {"kind": "exposed_card", "seat": "W", "cards": 1, "trick": 2}
    ruled = dict(case, hands=[*case["hands"], {"in_progress": True, "infractions": [exposed]}])
    d = judge(editing.withdraw(ruled, "NS", "队员身体不适"), lang="zh")
    assert len(d["hands"]) == 3 and d["hands"][2]["rulings"][0]["kind"] == "exposed_card"  # it stands
    assert d["result"]["winner"] == "EW" and d["forfeit"]["cause"] == "withdrawal"
