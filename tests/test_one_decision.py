"""One decision for the same facts: order of play, several hand losses, readings marked assumed.

Each test names the clause it pins. The permutation properties run over the three bundled
rulebooks and the fourth event written by ``test_fourth_event``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee_app.core.engine import judge
from referee_app.core.errors import CaseError

from .test_fourth_event import FOURTH
from .test_properties import infractions, single_hands

#: What a decision says, without the wording (the same in any input order).
OUTCOME_KEYS = ("defender_total", "lost_by", "levels_after", "next_dealer", "gains", "assumed", "decided_by")


def case(event: str, hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"event": event, "first_dealer": "E", "hands": hands, "finished": "time", **extra}


def hand(points: int = 60, infractions: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    return {"defender_points": points, "infractions": infractions or [], **extra}


def outcome(decision: dict[str, Any]) -> list[Any]:
    """The decision without the wording and without where each infraction was typed."""
    return [
        [h[k] for k in OUTCOME_KEYS]
        + [sorted(json.dumps(dict(r, infraction=None), sort_keys=True) for r in h["rulings"])]
        for h in decision["hands"]
    ] + [decision["result"], decision["forfeit"]]


# -- escalation in the order of play ---------------------------------------------------------


@pytest.mark.parametrize("tricks", [(2, 5, 9), (9, 2, 5), (5, 9, 2)])
def test_bhg_third_wrong_play_is_the_third_played_whatever_the_typing(tricks: tuple[int, ...]) -> None:
    """BHG 二、5: 跟错牌……在一副牌中累积3次，判过错方负 — the 3rd in play, not in typing."""
    plays = [{"kind": "wrong_play", "seat": "N", "trick": t} for t in tricks]
    out = judge(case("bhg-2011", [hand(60, plays)]))
    first = out["hands"][0]
    by_trick = {p["trick"]: r for p, r in zip(plays, first["rulings"], strict=True)}
    assert [by_trick[t]["occurrence"] for t in (2, 5, 9)] == [1, 2, 3]
    assert [by_trick[t]["points"] for t in (2, 5, 9)] == [10, 10, 0]
    assert by_trick[9]["hand_lost"] and by_trick[9]["escalated"]
    # rulings are shown in the order the infractions were given
    assert [r["kind"] for r in first["rulings"]] == ["wrong_play"] * 3
    # NS defend: 60 − 20 (two wrong plays) − 80 (二 判负) counts as 0
    assert first["lost_by"] == "NS" and first["defender_total"] == 0


def test_discovery_breaks_a_tie_between_offences_in_one_trick() -> None:
    """Order of play: the offence's trick, then the trick it was found in."""
    a = {"kind": "exposed_card", "seat": "S", "trick": 4, "discovered": 6}
    b = {"kind": "exposed_card", "seat": "S", "trick": 4, "discovered": 4}
    c = {"kind": "exposed_card", "seat": "S", "trick": 7}
    for order in ([a, b, c], [c, a, b], [b, c, a]):
        rulings = judge(case("bhg-2011", [hand(40, order)]))["hands"][0]["rulings"]
        by_id = {id(i): r for i, r in zip(order, rulings, strict=True)}
        assert by_id[id(b)]["occurrence"] == 1 and by_id[id(a)]["occurrence"] == 2
        assert by_id[id(c)]["occurrence"] == 3 and by_id[id(c)]["hand_lost"]


def test_a_voided_ruling_does_not_count_toward_escalation() -> None:
    """BHG 二、4: only rulings that stand are counted toward 累积3次."""
    exposures = [
        {"kind": "exposed_card", "seat": "W", "trick": 1},
        {"kind": "exposed_card", "seat": "W", "trick": 2, "void": {"reason": "记错座位"}},
        {"kind": "exposed_card", "seat": "W", "trick": 3},
    ]
    first = judge(case("bhg-2011", [hand(60, exposures)]))["hands"][0]
    assert first["lost_by"] is None
    assert [r["hand_lost"] for r in first["rulings"]] == [False, False, False]


# -- several hand losses in one hand ---------------------------------------------------------


@pytest.mark.parametrize("reverse", [False, True])
def test_gansu_two_dealer_hand_losses_give_the_larger_award(reverse: bool) -> None:
    """Gansu 六、六、A2 (defenders +1) and E (defenders +2) by the dealer side in one hand:
    the award that favours the non-offending side most stands, whichever was typed first."""
    offences = [
        {"kind": "wrong_card_count", "seat": "E", "phase": "after_bury", "cards": 1},
        {"kind": "illegal_signal", "seat": "W", "trick": 6},
    ]
    if reverse:
        offences.reverse()
    first = judge(case("gansu-2018", [hand(40, offences)]))["hands"][0]
    assert first["lost_by"] == "EW"
    assert first["gains"] == {"NS": 2, "EW": 0}
    assert first["levels_after"] == {"NS": "4", "EW": "2"}
    assert first["next_dealer"] == "N"


def test_hbue_both_sides_at_fault_open_the_next_deal() -> None:
    """HBUE 规则四、(一): 双方违规则下副牌实行一次性抢庄 — printed, so not assumed."""
    offences = [
        {"kind": "wrong_card_count", "seat": "E", "phase": "after_bury"},
        {"kind": "wrong_card_count", "seat": "N", "phase": "after_bury"},
    ]
    out = judge(case("hbue-2018", [hand(60, offences)], finished="open"))
    first = out["hands"][0]
    assert first["lost_by"] == "both" and first["next_dealer"] is None
    assert first["levels_after"] == {"NS": "2", "EW": "2"}
    assert first["assumed"] is False


@pytest.mark.parametrize("event", ["gansu-2018", "bhg-2011"])
def test_both_sides_losing_a_hand_is_marked_assumed_where_the_event_is_silent(event: str) -> None:
    """Gansu and BHG print nothing for a hand both sides lose: the rulebook's reading is
    shown as assumed on the hand and on both rulings. (Both in trick 3: a Gansu signal ends
    the hand at once, so nothing can follow it in a later trick.)"""
    offences = [
        {"kind": "illegal_signal", "seat": "E", "trick": 3},
        {"kind": "illegal_signal", "seat": "S", "trick": 3},
    ]
    first = judge(case(event, [hand(60, offences)], finished="open"))["hands"][0]
    assert first["lost_by"] == "both"
    assert first["assumed"] is True
    assert all(r["assumed"] for r in first["rulings"])


def test_a_hand_both_sides_lose_is_worded_as_its_rulebook_scores_it() -> None:
    """BHG scores a hand both sides lose on its points (the two 80-point shifts cancel) and
    HBUE opens the next deal to a grab: the hand's words say which, never an open grab for
    BHG (the words once said 一次性抢庄 beside a next dealer)."""
    offences = [
        {"kind": "illegal_signal", "seat": "E", "trick": 3},
        {"kind": "illegal_signal", "seat": "S", "trick": 5},
    ]
    bhg = judge(case("bhg-2011", [hand(60, offences)], finished="open"), lang="zh")
    first = bhg["hands"][0]
    assert first["next_dealer"] == "W"
    assert "抢庄" not in first["text"] and "防守方得60分" in first["text"], first["text"]
    assert "西家坐庄" in first["text"]
    count_errors = [
        {"kind": "wrong_card_count", "seat": "E", "phase": "after_bury"},
        {"kind": "wrong_card_count", "seat": "N", "phase": "after_bury"},
    ]
    hbue = judge(case("hbue-2018", [hand(60, count_errors)], finished="open"), lang="en")
    assert hbue["hands"][0]["text"] == "both sides lose the hand; the next deal is an open grab."


# -- readings marked assumed -----------------------------------------------------------------


def test_keep_better_outcome_beyond_the_printed_award_is_assumed() -> None:
    """HBUE 规则四: dealer side at fault → opponents +2; with 200 points the defenders' own
    gain (+3 at 200) stands, a reading the text does not print."""
    foul = [{"kind": "wrong_play", "seat": "E", "trick": 4, "discovered": 6}]
    first = judge(case("hbue-2018", [hand(200, foul)]))["hands"][0]
    assert first["gains"]["NS"] == 3 and first["assumed"] is True
    assert first["rulings"][0]["assumed"] is True
    plain = judge(case("hbue-2018", [hand(40, foul)]))["hands"][0]
    assert plain["gains"]["NS"] == 2 and plain["assumed"] is False


def test_a_gain_stopped_at_a_is_assumed_where_a_is_not_printed_as_mandatory() -> None:
    """BHG prints no rule that A cannot be skipped: a gain stopped at A is a reading."""
    out = judge(case("bhg-2011", [hand(0)], levels={"NS": "2", "EW": "Q"}))
    first = out["hands"][0]
    assert first["levels_after"]["EW"] == "A" and first["assumed"] is True
    # HBUE prints that A (and J) cannot be skipped: the same stop is the event's own rule
    out = judge(case("hbue-2018", [hand(40)], levels={"NS": "2", "EW": "Q"}))
    assert out["hands"][0]["levels_after"]["EW"] == "K"


@pytest.mark.parametrize(
    ("event", "assumed"), [("bhg-2011", False), ("gansu-2018", True), ("hbue-2018", True)]
)
def test_passing_a_ends_the_round_cited_to_the_events_own_clause(event: str, assumed: bool) -> None:
    """BHG 比赛方法 and HBUE 规则五、(二) print 先过A者为胜; Gansu does not (assumed). HBUE's
    knockout prints no match points: the 2/0 recorded are a reading and mark the result."""
    out = judge(case(event, [hand(40)], levels={"NS": "2", "EW": "A"}))
    result = out["result"]
    assert result["passed_a"] and result["winner"] == "EW" and result["decided_by"] == "passed_a"
    assert result["assumed"] is assumed


def test_a_forfeit_mid_round_that_keeps_the_board_lead_is_assumed() -> None:
    """BHG 二 判弃权: 级数为2：3. A side already 4 levels ahead keeps its lead — a reading."""
    hands = [
        hand(0),  # EW deal and go up 3: 5:2
        hand(60, [{"kind": "misconduct", "seat": "N", "trick": 2, "disqualified": True}]),
    ]
    out = judge(case("bhg-2011", hands))
    assert out["forfeit"]["side"] == "NS"
    assert out["forfeit"]["levels"] == {"NS": "2", "EW": "6"}  # hand 2 is scored, then forfeited
    assert out["forfeit"]["assumed"] is True and out["result"]["assumed"] is True
    early = judge(case("bhg-2011", [hand(60, [{"kind": "misconduct", "seat": "N", "disqualified": True}])]))
    assert early["forfeit"]["levels"] == {"NS": "2", "EW": "3"} and early["forfeit"]["assumed"] is False


def test_a_hand_ending_offence_ends_a_hand_in_progress() -> None:
    """Gansu 六、六、E: 该副牌立即结束 — a hand still being played is scored at once."""
    out = judge(
        case(
            "gansu-2018",
            [{"in_progress": True, "infractions": [{"kind": "illegal_signal", "seat": "N", "trick": 2}]}],
            finished="open",
        )
    )
    first = out["hands"][0]
    assert first["in_progress"] is False and first["lost_by"] == "NS"
    assert first["gains"] == {"NS": 0, "EW": 3} and first["levels_after"] == {"NS": "2", "EW": "5"}
    assert first["next_dealer"] == "W"


def test_bhg_time_warning_is_marked_assumed() -> None:
    from referee_app.core.rulebook import load_rulebook

    rounds = {r: load_rulebook(r).data["round"] for r in ("bhg-2011", "gansu-2018", "hbue-2018")}
    assert rounds["bhg-2011"]["warning_clause"]["assumed"] is True  # 每轮1小时 only
    assert rounds["gansu-2018"]["warning_clause"]["assumed"] is False  # 六、二、2
    assert rounds["hbue-2018"]["warning_clause"]["ref"] == "规则五、(一)"  # 限时提醒后每桌只能再打二副牌
    assert not rounds["hbue-2018"]["warning_clause"]["assumed"]


# -- sanctions the referee chooses -----------------------------------------------------------


def test_bhg_misconduct_suspension_and_disqualification_are_choosable() -> None:
    """BHG 二: 停赛一轮至N轮 and 取消比赛资格 for deliberate fouls or disobeying the referee."""
    suspended = judge(
        case("bhg-2011", [hand(60, [{"kind": "misconduct", "seat": "S", "suspension_rounds": 2}])])
    )
    ruling = suspended["hands"][0]["rulings"][0]
    assert ruling["suspension_rounds"] == 2 and ruling["citation"] == "二 停赛" and not ruling["assumed"]
    assert suspended["forfeit"] is None
    out = judge(case("bhg-2011", [hand(60, [{"kind": "misconduct", "seat": "S", "disqualified": True}])]))
    assert out["hands"][0]["rulings"][0]["disqualified"] and out["forfeit"]["side"] == "NS"
    with pytest.raises(CaseError, match=r"hands\[0\]\.infractions\[0\]\.suspension_rounds"):
        judge(case("bhg-2011", [hand(60, [{"kind": "misconduct", "seat": "S", "suspension_rounds": 0}])]))


def test_bhg_failed_throw_charges_the_unblocked_cards_as_exposed_when_thrown_is_given() -> None:
    """BHG 二、5: 每被挡一张罚10分，其余按暴露张处理 (二、4: 每张罚10分)."""
    throw = {"kind": "failed_throw", "seat": "E", "trick": 3, "cards": 1}
    assert judge(case("bhg-2011", [hand(60, [throw])]))["hands"][0]["rulings"][0]["points"] == 10
    counted = judge(case("bhg-2011", [hand(60, [dict(throw, thrown=4)])]))["hands"][0]["rulings"][0]
    assert counted["points"] == 40 and counted["against"] == "EW"


# -- the same facts in any order (properties) -----------------------------------------------


@pytest.fixture(scope="module")
def fourth_event(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("fourth") / "city-open-2026.toml"
    path.write_text(FOURTH, encoding="utf-8")
    return str(path)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    single_hands(),
    st.lists(infractions(), min_size=2, max_size=6),
    st.randoms(use_true_random=False),
    st.booleans(),
)
def test_permuting_a_hands_infractions_never_changes_the_decision(
    fourth_event: str, setup, offences, rng, use_fourth: bool
) -> None:
    assert_one_decision_in_any_order(fourth_event if use_fourth else None, setup, offences, rng)


def assert_one_decision_in_any_order(fourth_event: str | None, setup, offences, rng) -> None:
    """Judge two hands with ``offences`` as typed and shuffled by ``rng``: the same decision,
    or the same refusal. ``fourth_event``: judge with that rulebook instead of the drawn one."""
    event, one_hand, levels, dealer = setup
    if fourth_event is not None:
        event = fourth_event
        for offence in offences:
            if offence["kind"] == "failed_throw":
                offence["thrown"] = offence["cards"] + 1
    shuffled = list(offences)
    rng.shuffle(shuffled)
    base = {"event": event, "first_dealer": dealer, "levels": levels, "finished": "time"}
    hands = [dict(one_hand, infractions=offences), dict(one_hand, infractions=offences)]
    permuted_hands = [dict(h, infractions=shuffled) for h in hands]
    try:
        straight = judge(dict(base, hands=hands))
    except CaseError:
        # a case refused in one order (a hand after the round ended …) is refused in any
        with pytest.raises(CaseError):
            judge(dict(base, hands=permuted_hands))
        return
    assert outcome(straight) == outcome(judge(dict(base, hands=permuted_hands)))


@settings(max_examples=100, deadline=None)
@given(st.permutations([5, 12, 9, 30]), st.sampled_from(["bhg-2011", "gansu-2018", "hbue-2018"]))
def test_permuting_before_play_never_changes_the_decision(minutes: list[int], event: str) -> None:
    late = [
        {"kind": "late_arrival", "side": side, "minutes": m}
        for side, m in zip(["NS", "EW", "NS", "EW"], minutes, strict=True)
    ]
    first = judge({"event": event, "first_dealer": "E", "before_play": late, "hands": [], "finished": "time"})
    again = judge(
        {
            "event": event,
            "first_dealer": "E",
            "before_play": list(reversed(late)),
            "hands": [],
            "finished": "time",
        }
    )
    assert first["forfeit"] == again["forfeit"] and first["result"] == again["result"]


@pytest.mark.parametrize(("minutes", "forfeit"), [(5, False), (6, True)])
def test_hbue_away_from_the_draw_more_than_five_minutes(minutes: int, forfeit: bool) -> None:
    """HBUE 通知四、(三): 再抽签时离开现场超过5分钟 — more than 5, unlike 迟到5分钟 (5 itself)."""
    away = {"kind": "late_arrival", "side": "EW", "minutes": minutes, "at_draw": True}
    out = judge(
        {"event": "hbue-2018", "first_dealer": "E", "before_play": [away], "hands": [], "finished": "time"}
    )
    assert (out["forfeit"] is not None) is forfeit
    assert out["before_play"][0]["citation"] == "通知四、(三) 抽签离场"
    late = dict(away, at_draw=False, minutes=5)
    out = judge(
        {"event": "hbue-2018", "first_dealer": "E", "before_play": [late], "hands": [], "finished": "time"}
    )
    assert out["forfeit"]["side"] == "EW" and out["before_play"][0]["citation"] == "通知四、(二) 迟到"


def test_away_at_the_draw_is_only_a_late_arrival_fact() -> None:
    with pytest.raises(CaseError, match=r"hands\[0\]\.infractions\[0\]\.at_draw"):
        judge(case("hbue-2018", [hand(60, [{"kind": "delay", "seat": "E", "at_draw": True}])]))


# -- the decision in no language (issue 9, item 2) ----------------------------------------------
WORDED_KEYS = {"text", "instruction"}


def _keys(value: Any, path: str = "$") -> set[str]:
    if isinstance(value, dict):
        return {f"{path}.{k}" for k in value} | {p for k, v in value.items() for p in _keys(v, f"{path}.{k}")}
    if isinstance(value, list):
        return {p for v in value for p in _keys(v, f"{path}[]")}
    return set()


CASE_FILES = sorted(p for p in (Path(__file__).parent / "cases").rglob("*.json") if ".expected" not in p.name)


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.stem)
def test_the_decision_is_in_no_language_and_worded_at_the_edge(path: Path) -> None:
    from referee_app.core.engine import decide, is_language_free, word
    from referee_app.core.rulebook import load_rulebook

    raw = json.loads(path.read_text(encoding="utf-8"))
    try:
        decision = decide(raw).to_json()
    except CaseError:
        return  # a case that must be refused: judge refuses it too (the clause cases check)
    rulebook = load_rulebook(raw["event"])
    assert is_language_free(decision)
    assert not any(key.rsplit(".", 1)[1] == "text" for key in _keys(decision))
    zh, en = word(decision, "zh", rulebook), word(decision, "en", rulebook)
    # judge is the worded decision, nothing else
    assert judge(json.loads(path.read_text(encoding="utf-8")), lang="zh") == zh
    assert judge(json.loads(path.read_text(encoding="utf-8")), lang="en") == en

    def unworded(d: Any) -> Any:
        if isinstance(d, dict):
            return {k: unworded(v) for k, v in d.items() if k not in WORDED_KEYS}
        if isinstance(d, list):
            return [unworded(v) for v in d]
        return d

    # the two languages differ only in their words, and the words are there
    assert unworded(zh) == unworded(en) == unworded(decision)
    for worded in (zh, en):
        for h in worded["hands"]:
            assert h["text"]
            assert all(r["text"] for r in h["rulings"])
        assert all(r["text"] for r in worded["before_play"])
