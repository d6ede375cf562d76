"""What a referee is told, exactly: the refusals of facts that cannot have happened (the field,
the clause, the line in each language), the time warning's last hand, and the words of a hand
that stands as dealt. Written from the seeds' clauses: Gansu 2018 六、二、2 (the warning) and
六、六、E (a signal ends the hand at once), HBUE 2018 规则五、(一) and 规则一、(二), BHG 2011
比赛方法 (no warning printed)."""

from __future__ import annotations

from typing import Any

import pytest

from referee_app.app.messages import describe
from referee_app.core.engine import judge
from referee_app.core.errors import CaseError
from referee_app.core.rulebook import Rulebook, rulebook_from_text

from .conftest import RULES


def case(event: str, hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"event": event, "first_dealer": "E", "hands": hands, "finished": "time", **extra}


def hand(points: int = 60, *infractions: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"defender_points": points, "infractions": list(infractions), **extra}


def refused(raw: dict[str, Any], rulebook: Rulebook | None = None) -> CaseError:
    with pytest.raises(CaseError) as caught:
        judge(raw, rulebook=rulebook)
    return caught.value


def draft(base: str, *edits: tuple[str, str]) -> Rulebook:
    text = (RULES / f"{base}.toml").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    return rulebook_from_text(
        text.replace(f'id = "{base}"', 'id = "club-2026"'), "club.toml", use_cache=False
    )


def signal(seat: str, trick: int, **extra: Any) -> dict[str, Any]:
    return {"kind": "illegal_signal", "seat": seat, "trick": trick, **extra}


# -- the time warning ------------------------------------------------------------------------


def test_the_time_warning_names_its_hand_the_last_it_allows_and_its_clause() -> None:
    """Gansu 六、二、2 "还有最后1副牌(不包括正在打的该副牌)"; HBUE 规则五、(一) "再打二副牌，包括
    正在抓牌或打的这副牌"; BHG prints none (its one last hand is the rulebook's reading)."""
    three = [hand(), hand(), hand()]
    gansu = judge(case("gansu-2018", three, time_warning={"hand": 2}))["time_warning"]
    assert gansu == {"hand": 2, "last_hand": 3, "citation": "六、二、2 时间提醒", "assumed": False}
    hbue = judge(case("hbue-2018", three, time_warning={"hand": 2}))["time_warning"]
    assert hbue == {"hand": 2, "last_hand": 3, "citation": "规则五、(一) 限时提醒", "assumed": False}
    bhg = judge(case("bhg-2011", three, time_warning={"hand": 1}))["time_warning"]
    assert bhg == {"hand": 1, "last_hand": 2, "citation": "比赛方法 时间提醒", "assumed": True}
    assert "time_warning" not in judge(case("gansu-2018", three))


def test_a_hand_past_the_warning_is_refused_in_words_naming_the_warning_and_the_clause() -> None:
    error = refused(case("gansu-2018", [hand(), hand(), hand(), hand()], time_warning={"hand": 2}))
    assert error.field == "hands[3]" and error.code == "case.past_time_warning"
    assert str(error) == (
        "hands[3]: hand 4 is past the time warning given in hand 2: gansu-2018 allows hands up to 3 "
        "(六、二、2 时间提醒)"
    )
    assert describe(error, "zh") == (
        "第 4 副（hands[3]）：第 4 副已超出限时提醒（第 2 副时发出）后允许的牌局：规则 gansu-2018 只允许打到第 3 副"
        "（六、二、2 时间提醒）。"
    )
    error = refused(case("hbue-2018", [hand()] * 4, time_warning={"hand": 2}))
    assert error.values["clause"] == "规则五、(一) 限时提醒" and error.values["last"] == 3


def test_no_hand_after_a_warning_in_the_hand_being_played_leaves_that_hand_the_last() -> None:
    # a club whose warning allows no hand after it, the one in play included: that one is last
    club = draft(
        "gansu-2018",
        (
            "hands_after_warning = 1\nwarning_includes_current = false",
            "hands_after_warning = 0\nwarning_includes_current = true",
        ),
    )
    two = case("club-2026", [hand(), hand()], time_warning={"hand": 2})
    assert judge(two, rulebook=club)["time_warning"]["last_hand"] == 2
    error = refused(case("club-2026", [hand(), hand(), hand()], time_warning={"hand": 2}), club)
    assert str(error) == (
        "hands[2]: hand 3 is past the time warning given in hand 2: club-2026 allows hands up to 2 "
        "(六、二、2 时间提醒)"
    )


def test_a_rulebook_without_a_warning_clause_cites_the_rounds_own() -> None:
    text = (RULES / "gansu-2018.toml").read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("warning_clause"))
    club = draft("gansu-2018", (line + "\n", ""))
    out = judge(case("club-2026", [hand(), hand()], time_warning={"hand": 1}), rulebook=club)
    assert out["time_warning"] == {
        "hand": 1,
        "last_hand": 2,
        "citation": "六、二、1 比赛办法",
        "assumed": False,
    }
    error = refused(case("club-2026", [hand()] * 3, time_warning={"hand": 1}), club)
    assert error.values["clause"] == "六、二、1 比赛办法"


# -- nothing after a hand ended at once --------------------------------------------------------


def test_an_offence_after_the_hand_ended_is_refused_naming_the_ending_ruling_and_its_trick() -> None:
    """Gansu 六、六、E "若一经发现，该副牌立即结束"."""
    error = refused(case("gansu-2018", [hand(60, signal("E", 3), signal("N", 15))], finished="open"))
    assert error.field == "hands[0].infractions[1].trick" and error.code == "case.after_hand_ended"
    assert str(error) == (
        "hands[0].infractions[1].trick: the hand had already ended (hands[0].infractions[0], "
        "六、六、E 传递非法信息, trick 3); nothing is played after it"
    )
    assert error.values == {
        "ended_by": "hands[0].infractions[0]",
        "clause": "六、六、E 传递非法信息",
        "at": "trick 3",
    }
    assert describe(error, "zh") == (
        "第 1 副第 2 项违规的圈次（hands[0].infractions[1].trick）：本副牌已因第 1 副第 1 项违规的判罚（六、六、E 传递非法信息）"
        "立即结束，之后不能再有出牌或违规。"
    )


def test_the_hand_ends_when_the_offence_is_found_not_when_it_was_made() -> None:
    found_later = signal("E", 3, discovered=5)
    # played in trick 5, where the signal was found: before the end
    out = judge(
        case(
            "gansu-2018",
            [hand(60, found_later, {"kind": "exposed_card", "seat": "N", "trick": 5})],
            finished="open",
        )
    )
    assert [r["kind"] for r in out["hands"][0]["rulings"]] == ["illegal_signal", "exposed_card"]
    error = refused(
        case(
            "gansu-2018",
            [hand(60, found_later, {"kind": "exposed_card", "seat": "N", "trick": 6})],
            finished="open",
        )
    )
    assert error.field == "hands[0].infractions[1].trick" and error.values["at"] == "trick 5"
    # of two hand-ending offences the first in play ends it, whatever the order they were typed
    error = refused(case("gansu-2018", [hand(60, signal("N", 9), signal("E", 3))], finished="open"))
    assert (
        error.field == "hands[0].infractions[0].trick"
        and error.values["ended_by"] == "hands[0].infractions[1]"
    )


def test_a_bottom_captured_after_the_hand_ended_is_refused_in_words() -> None:
    pair = {"points": 20, "captured": True, "shape": "pair"}
    error = refused(case("gansu-2018", [hand(60, signal("E", 24), bottom=pair)]))
    assert error.field == "hands[0].bottom.captured" and error.code == "case.captured_after_end"
    assert str(error) == (
        "hands[0].bottom.captured: the hand ended before its last trick (hands[0].infractions[0], "
        "六、六、E 传递非法信息, trick 24); the bottom cannot be captured"
    )
    assert describe(error, "zh") == (
        "第 1 副的是否抠底（hands[0].bottom.captured）：本副牌已因第 1 副第 1 项违规的判罚（六、六、E 传递非法信息）"
        "在最后一圈之前结束，不可能抠底。"
    )
    # found in the last trick, the one that captures: the capture stands
    out = judge(case("gansu-2018", [hand(60, signal("E", 24, discovered=25), bottom=pair)]))
    assert out["hands"][0]["bottom_multiplier"] == 4


# A club whose count error after the bottom is buried ends the hand at once (a phase, no trick).
_ENDS_AT_ONCE = (
    "sanction = { hand_loss = { dealer_offends = 1, defenders_offend = 2 } }",
    "sanction = { ends_hand = true }",
)


def test_a_hand_ended_in_a_phase_names_the_phase_and_a_count_at_the_end_follows_it() -> None:
    club = draft("gansu-2018", _ENDS_AT_ONCE)
    count = {"kind": "wrong_card_count", "seat": "N", "phase": "after_bury"}
    exposed = {"kind": "exposed_card", "seat": "E", "trick": 2}
    error = refused(case("club-2026", [hand(60, count, exposed)], finished="open"), club)
    assert error.field == "hands[0].infractions[1].trick"
    assert error.values == {
        "ended_by": "hands[0].infractions[0]",
        "clause": "六、六、A2 多牌少牌",
        "at": "after_bury",
    }
    pair = {"points": 20, "captured": True, "shape": "pair"}
    error = refused(case("club-2026", [hand(60, count, bottom=pair)]), club)
    assert error.field == "hands[0].bottom.captured" and error.values["at"] == "after_bury"
    # a count error found when the cards are counted comes after the last trick: the bottom
    # was captured before it, and another count at the end is no offence after the end
    at_end = {"kind": "wrong_card_count", "seat": "N", "phase": "end_of_hand"}
    other = {"kind": "wrong_card_count", "seat": "E", "phase": "end_of_hand"}
    out = judge(case("club-2026", [hand(60, at_end, other, bottom=pair)]), rulebook=club)
    assert out["hands"][0]["bottom_multiplier"] == 4 and out["hands"][0]["lost_by"] == "both"


def test_a_hand_ended_without_saying_when_places_no_end() -> None:
    # logged with neither a trick nor a phase: nothing later can be said to follow it
    club = draft("gansu-2018", _ENDS_AT_ONCE)
    untimed = {"kind": "illegal_signal", "seat": "E"}
    out = judge(case("gansu-2018", [hand(60, untimed, {"kind": "exposed_card", "seat": "N", "trick": 20})]))
    assert [r["kind"] for r in out["hands"][0]["rulings"]] == ["illegal_signal", "exposed_card"]
    assert judge(case("club-2026", [hand(60, untimed)]), rulebook=club)["hands"][0]["lost_by"] == "EW"


# -- a hand that stands as dealt ---------------------------------------------------------------


def _changed_after_play() -> dict[str, Any]:
    """BHG: hand 2's hidden card changed by an appeal to a warning; hand 3 had been dealt by
    South, whom the rotation no longer gives (it gives East)."""
    return {
        "event": "bhg-2011",
        "first_dealer": "N",
        "hands": [
            {"defender_points": 85},
            {
                "defender_points": 40,
                "infractions": [
                    {
                        "kind": "hidden_card",
                        "seat": "W",
                        "trick": 3,
                        "discovered": 6,
                        "override": {"sanctions": ["warning"], "reason": "改判"},
                    }
                ],
            },
            {
                "defender_points": 120,
                "bottom": {"points": 20, "captured": True, "shape": "single"},
                "dealt_by": "S",
            },
        ],
        "finished": "time",
    }


def test_a_hand_standing_as_dealt_is_worded_whole_in_each_language() -> None:
    """BHG 一、(五) gives the rotation; a hand already played by another dealer stands (the
    rulebook's stated reading)."""
    zh = judge(_changed_after_play(), lang="zh")["hands"][2]["text"]
    assert zh == (
        "防守方得160分，东西方上庄，升2级，下一副东家坐庄。"
        "本副按实际发牌计：南家坐庄（按轮庄现应为东家；一、(五)，按假定）。"
    )
    en = judge(_changed_after_play(), lang="en")["hands"][2]["text"]
    assert en == (
        "defenders' total 160; East-West take the deal, +2; East deals next. "
        "Counted as dealt: South dealt (the rotation now gives East; 一、(五), assumed)."
    )


def test_a_hand_standing_as_dealt_cites_the_as_played_reading_else_the_rotations_clause() -> None:
    text = (RULES / "bhg-2011.toml").read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("as_played_clause"))
    own = draft("bhg-2011", (line, line.replace('ref = "一、(五)"', 'ref = "附则"', 1)))
    worded = judge({**_changed_after_play(), "event": "club-2026"}, lang="en", rulebook=own)["hands"][2]
    assert worded["text"].endswith("(the rotation now gives East; 附则, assumed).")
    none = draft("bhg-2011", (line + "\n", ""))
    worded = judge({**_changed_after_play(), "event": "club-2026"}, lang="zh", rulebook=none)["hands"][2]
    assert worded["text"].endswith("（按轮庄现应为东家；一、(五)，按假定）。")


@pytest.mark.parametrize(
    ("change", "field", "line", "zh"),
    [
        (
            {0: {"dealt_by": "E"}},
            "hands[0].dealt_by",
            "hands[0].dealt_by: the first hand's dealer is first_dealer (N), got E",
            "第 1 副的实际庄家（hands[0].dealt_by）：第一副的庄家是 first_dealer（N），收到 E。",
        ),
        (
            {0: {"dealer": "E"}},
            "hands[0].dealer",
            "hands[0].dealer: the first hand's dealer is first_dealer (N), got E",
            "第 1 副的庄家（hands[0].dealer）：第一副的庄家是 first_dealer（N），收到 E。",
        ),
        (
            {1: {"dealer": "E"}},
            "hands[1].dealer",
            "hands[1].dealer: dealers after the first are derived (W deals this hand), got E",
            "第 2 副的庄家（hands[1].dealer）：第一副之后的庄家由结果推出（本副应由 W 坐庄），收到 E。",
        ),
    ],
)
def test_a_dealer_the_round_cannot_have_had_is_refused_in_words(
    change: dict[int, dict[str, str]], field: str, line: str, zh: str
) -> None:
    raw = _changed_after_play()
    for i, facts in change.items():
        raw["hands"][i].update(facts)
    error = refused(raw)
    assert (error.field, str(error), describe(error, "zh")) == (field, line, zh)


def _after_an_open_grab(**second: Any) -> dict[str, Any]:
    """HBUE 规则四、(一) "双方违规则下副牌实行一次性抢庄": both sides miscount in hand 1."""
    counts = [{"kind": "wrong_card_count", "seat": s, "phase": "end_of_hand"} for s in ("N", "E")]
    return {
        "event": "hbue-2018",
        "first_dealer": "N",
        "finished": "open",
        "hands": [{"defender_points": 20, "infractions": counts}, {"defender_points": 40, **second}],
    }


def test_after_an_open_grab_the_grabs_winner_deals_and_no_other_can_have_dealt() -> None:
    error = refused(_after_an_open_grab())
    assert (error.field, error.code) == ("hands[1].dealer", "case.dealer_grab")
    assert str(error) == (
        "hands[1].dealer: required: the previous hand left the deal open (一次性抢庄); give the seat "
        "that won the grab"
    )
    assert (
        describe(error, "zh")
        == "第 2 副的庄家（hands[1].dealer）：必填：上一副未定庄（一次性抢庄）；请填写抢到庄的座位。"
    )
    error = refused(_after_an_open_grab(dealer="E", dealt_by="S"))
    assert (error.field, str(error), error.values) == (
        "hands[1].dealt_by",
        "hands[1].dealt_by: E won the grab (dealer), got S",
        {"dealer": "E", "got": "S"},
    )
    assert (
        describe(error, "zh")
        == "第 2 副的实际庄家（hands[1].dealt_by）：本副由 E 抢到庄，记录的实际庄家却是 S。"
    )
    # who dealt, as recorded when the hand was played, names the grab's winner
    dealt = judge(_after_an_open_grab(dealt_by="S"))["hands"][1]
    assert dealt["dealer"] == "S" and dealt["dealer_by_rotation"] is None and dealt["dealer_side"] == "NS"
    grabbed = judge(_after_an_open_grab(dealer="E", dealt_by="E"))["hands"][1]
    assert grabbed["dealer"] == "E" and grabbed["dealer_by_rotation"] is None


# -- a round's shape -----------------------------------------------------------------------------


def test_hands_after_the_round_ended_are_refused_saying_how_it_ended() -> None:
    late = {"kind": "late_arrival", "seat": "N", "minutes": 15}  # BHG 二、1: 10 minutes or more
    error = refused(case("bhg-2011", [hand(40)], before_play=[late]))
    assert (error.field, str(error)) == (
        "hands",
        "hands: the round was forfeited before play (before_play); give no hands",
    )
    assert describe(error, "zh") == "hands：本轮在开赛前已判弃权（before_play），不应再有牌局。"
    # East-West pass A in hand 1 (BHG 先过A者为胜)
    error = refused(case("bhg-2011", [hand(40), hand(40)], levels={"NS": "2", "EW": "A"}))
    assert (error.field, str(error), error.values) == (
        "hands[1]",
        "hands[1]: the round ended at hand 1 (passed A by EW); no hand can follow",
        {"n": 1, "round_end": "passed_a", "side": "EW"},
    )
    assert (
        describe(error, "zh")
        == "第 2 副（hands[1]）：本轮已在第 1 副结束（东西方过A获胜），之后不能再有牌局。"
    )
    forfeited = {
        "kind": "misconduct",
        "seat": "N",
        "points": 30,
        "override": {"reason": "拒绝比赛", "sanctions": ["round_forfeit"]},
    }
    error = refused(case("bhg-2011", [hand(40, forfeited), hand(40), hand(40)]))
    assert str(error) == "hands[1]: the round ended at hand 1 (round lost by NS); no hand can follow"


def test_a_stored_decision_with_parts_left_out_is_worded_as_far_as_it_goes() -> None:
    from referee_app.core.engine import word
    from referee_app.core.rulebook import load_rulebook

    bhg = load_rulebook("bhg-2011")
    assert word({}, "zh", bhg) == {}
    stored = judge(case("bhg-2011", [hand(60)]), lang="en")
    worded = word({"hands": stored["hands"], "before_play": None}, "zh", bhg)
    assert worded["hands"][0]["text"] == "防守方得60分，东西方连庄，升1级，下一副西家坐庄。"
    assert word({"hands": stored["hands"], "before_play": []}, "en", bhg)["hands"][0]["text"] == (
        "defenders' total 60; East-West keep the deal, +1; West deals next."
    )
    # a hand stored with its words, before decisions were language-free, keeps them
    old = {k: v for k, v in stored["hands"][0].items() if k != "keep_deal"}
    assert word({"hands": [old]}, "zh", bhg)["hands"][0]["text"] == stored["hands"][0]["text"]


def test_a_round_forfeit_the_referee_imposes_cites_the_forfeit_clause() -> None:
    """BHG 二 判弃权: the override's round forfeit cites the clause that forfeits a round, not
    the clause of the sanction proposed (a misconduct's points)."""
    forfeited = {
        "kind": "misconduct",
        "seat": "N",
        "points": 30,
        "override": {"reason": "拒绝比赛", "sanctions": ["round_forfeit"]},
    }
    ruling = judge(case("bhg-2011", [hand(40, forfeited)]))["hands"][0]["rulings"][0]
    assert ruling["round_forfeit"] and ruling["citation"] == "二 判弃权"
    assert ruling["proposed"]["citation"] != "二 判弃权"


def test_a_proposal_under_an_override_in_a_hand_both_sides_lose_words_no_award_of_its_own() -> None:
    """HBUE 规则四、(一) "双方违规则下副牌实行一次性抢庄": neither side's award is given, for the
    ruling and for the proposal the referee overrode alike."""
    counts = [
        {"kind": "wrong_card_count", "seat": "N", "phase": "end_of_hand"},
        {
            "kind": "wrong_card_count",
            "seat": "E",
            "phase": "end_of_hand",
            "override": {"reason": "确认", "sanctions": ["hand_loss"]},
        },
    ]
    raw = {
        "event": "hbue-2018",
        "first_dealer": "N",
        "finished": "open",
        "hands": [{"defender_points": 20, "infractions": counts}],
    }
    zh = judge(raw)["hands"][0]["rulings"][1]
    assert (
        zh["proposed"]["text"]
        == "多或少牌（东）：判东西方本副牌负（双方均判负，结果见本副牌）。依据规则四、(一) 多或少牌。"
    )
    en = judge(raw, lang="en")["hands"][0]["rulings"][1]
    assert en["proposed"]["text"] == (
        "Wrong number of cards (East): East-West lose the hand (both sides lose it: see the hand's "
        "outcome). Clause 规则四、(一) 多或少牌."
    )


# -- a count the other reading of its scope would change (BHG 二、11 不按牌序扣牌) -------------


def _trick_handling_counted(scope: str, *steps: int) -> Rulebook:
    """BHG with its trick-handling counter (scope a reading: scope_clause assumed) over
    ``scope`` and a step of 10 more points from each count in ``steps``."""
    text = (RULES / "bhg-2011.toml").read_text(encoding="utf-8")
    start = text.index("[counters.trick_handling]")
    end = text.index("\n[[counters.trick_handling.steps]]", start)
    head = text[start:end].replace('scope = "hand"', f'scope = "{scope}"', 1)
    clause = 'clause = { ref = "二、11", title = "不按牌序扣牌", zh = "两次以上每次罚10分。", en = "More." }'
    block = head + "".join(
        f"\n[[counters.trick_handling.steps]]\nfrom_count = {n}\nsanction = {{ points = {10 * i} }}\n{clause}"
        for i, n in enumerate(steps, start=1)
    )
    after = text.index("\n\n", end)
    return rulebook_from_text(
        text[:start] + block + text[after:].replace('id = "bhg-2011"', 'id = "club-2026"'),
        "club.toml",
        use_cache=False,
    )


def _marks(rulebook: Rulebook, *hands: list[str]) -> list[list[bool]]:
    raw = case("bhg-2011", [hand(60, *({"kind": kind, "seat": seat} for kind, seat in h)) for h in hands])
    return [[r["assumed"] for r in h["rulings"]] for h in judge(raw, rulebook=rulebook)["hands"]]


def test_a_count_over_the_round_is_marked_only_where_counting_within_the_hand_changes_its_step() -> None:
    th = "trick_handling"
    club = _trick_handling_counted("round", 2, 3)
    # North's 2nd and 3rd in one hand: the hand's count is the same, nothing is marked
    assert _marks(club, [(th, "N"), (th, "N"), (th, "N")]) == [[False, False, False]]
    # East-West's times are not North-South's, nor another counter's (a delay) theirs
    assert _marks(club, [(th, "E"), (th, "E"), (th, "N")]) == [[False, False, False]]
    assert _marks(club, [("delay", "N"), ("delay", "N"), (th, "N")]) == [[False, False, False]]
    # North's 2nd of the round in another hand: counted within the hand a first time: marked
    assert _marks(club, [(th, "N")], [(th, "N")]) == [[False], [True]]


def test_a_count_within_the_hand_is_marked_only_where_counting_over_the_round_changes_its_step() -> None:
    th = "trick_handling"
    club = _trick_handling_counted("hand", 2, 4)
    # the 3rd in one hand is the round's 3rd too: the same step, not marked
    assert _marks(club, [(th, "N"), (th, "N"), (th, "N")]) == [[False, False, False]]
    # a first in hand 2 after one in hand 1 would be the round's 2nd: marked
    assert _marks(club, [(th, "N")], [(th, "N")]) == [[False], [True]]


@pytest.mark.parametrize("reading", ["per_side_clause", "scope_clause"])
def test_a_count_over_the_event_is_not_marked_by_a_reading_of_whose_times_or_over_what(reading: str) -> None:
    """Gansu 六、六、E "累计三次传递非法信息的，取消违规方比赛资格": counted over the event, with the
    pair's earlier times (history). A reading of whose times count (the pair's or the player's)
    or what they are counted over marks a ruling counted within a round; over the event the
    event's own count stands."""
    clause = 'ref = "六、六、E", title = "传递非法信息", zh = "累计三次", en = "three times", assumed = true'
    club = draft(
        "gansu-2018",
        (
            '[counters.illegal_signal]\nscope = "event"',
            f'[counters.illegal_signal]\nscope = "event"\n{reading} = {{ {clause} }}',
        ),
    )
    raw = case(
        "club-2026", [hand(60, signal("N", 4))], finished="open", history={"NS": {"illegal_signal": 2}}
    )
    ruling = judge(raw, rulebook=club)["hands"][0]["rulings"][0]
    assert ruling["occurrence"] == 3 and ruling["disqualified"] is True
    assert ruling["assumed"] is False


def test_two_cards_exposed_at_once_are_read_as_one_exposure_and_marked() -> None:
    """Gansu 六、六、C1 扣10分 for an exposure: two cards at once are the reading, as three are."""
    two = {"kind": "exposed_card", "seat": "N", "trick": 2, "cards": 2}
    ruling = judge(case("gansu-2018", [hand(60, two)]))["hands"][0]["rulings"][0]
    assert ruling["points"] == 10 and ruling["assumed"] is True


# -- a failed throw's other cards, charged as exposed but not a time (BHG 二、5, 二、4) ----------


def _throw(seat: str, trick: int) -> dict[str, Any]:
    return {"kind": "failed_throw", "seat": seat, "cards": 1, "thrown": 3, "trick": trick}


def _exposed(seat: str, trick: int) -> dict[str, Any]:
    return {"kind": "exposed_card", "seat": seat, "trick": trick}


def _throw_marks(*hands: list[dict[str, Any]]) -> list[list[bool]]:
    out = judge(case("bhg-2011", [hand(60, *h) for h in hands]))
    return [[r["assumed"] for r in h["rulings"] if r["kind"] == "failed_throw"] for h in out["hands"]]


def test_a_failed_throw_is_marked_where_its_exposed_cards_as_a_time_would_be_the_third() -> None:
    """BHG 二、5 "其余按暴露张处理" and 二、4 "在一副牌中累积3次，判过错方负": the rulebook reads the
    other cards as charged, not as a time; a throw that, counted as one, would be the side's
    3rd exposure in the hand is marked."""
    assert _throw_marks([_exposed("N", 1), _exposed("S", 2), _throw("N", 3)]) == [[True]]
    # East-West's exposures are not North-South's times
    assert _throw_marks([_exposed("E", 1), _exposed("W", 2), _throw("N", 3)]) == [[False]]
    # counted within the hand: exposures in an earlier hand are not this hand's
    assert _throw_marks([_exposed("N", 1), _exposed("S", 2)], [_throw("N", 3)]) == [[], [False]]
    # an earlier throw's cards, read as no time, would be one: the second throw is marked
    assert _throw_marks([_exposed("N", 1), _throw("N", 2), _throw("S", 3)]) == [[False, True]]
    assert _throw_marks([_exposed("N", 1), _throw("E", 2), _throw("S", 3)]) == [[False, False]]
    assert _throw_marks([_exposed("N", 1), _throw("N", 2)], [_throw("S", 3)]) == [[False], [False]]


# -- a rulebook that leaves a case without a rule --------------------------------------------


def test_a_kind_whose_every_rule_has_conditions_refuses_what_none_of_them_holds() -> None:
    club = draft(
        "bhg-2011",
        (
            'id = "under_ten"\nsanction = { warning = true }',
            'id = "under_ten"\nwhen = { minutes = { min = 5 } }\nsanction = { warning = true }',
        ),
    )
    from referee_app.core.errors import RulebookError

    with pytest.raises(RulebookError) as caught:
        judge(
            case("club-2026", [], before_play=[{"kind": "late_arrival", "seat": "N", "minutes": 3}]),
            rulebook=club,
        )
    assert str(caught.value) == (
        "club.toml: infractions.late_arrival: no rule applies to before_play[0] "
        "(the last rule of a kind should have no conditions)"
    )
    lost = draft(
        "bhg-2011",
        (
            'id = "under_ten"\nsanction = { warning = true }',
            'id = "under_ten"\nsanction = { hand_loss = true }',
        ),
    )
    with pytest.raises(RulebookError) as caught:
        judge(
            case("club-2026", [], before_play=[{"kind": "late_arrival", "seat": "N", "minutes": 3}]),
            rulebook=lost,
        )
    assert (
        str(caught.value)
        == "club.toml: infractions.late_arrival: a hand loss cannot be ruled before the first hand"
    )


def test_a_rule_for_the_defenders_applies_to_the_side_not_dealing() -> None:
    per_card = 'id = "per_card"\ncounter = "exposed_card"\nsanction = { points_per_card = 10 }'
    club = draft(
        "bhg-2011",
        (
            per_card,
            'id = "defenders"\nwhen = { role = "defenders" }\nsanction = { points = 30 }\n'
            'clause = { ref = "二、4", title = "暴露张", zh = "防守方", en = "defenders" }\n\n'
            "[[infractions.exposed_card.rules]]\n" + per_card,
        ),
    )
    # East deals: North is a defender, East of the dealer side
    rulings = judge(case("club-2026", [hand(60, _exposed("N", 2), _exposed("E", 3))]), rulebook=club)[
        "hands"
    ][0]["rulings"]
    assert [(r["branch"], r["points"]) for r in rulings] == [("defenders", 30), ("per_card", 10)]


def test_a_total_past_the_last_band_and_short_of_80_is_in_the_last_band() -> None:
    """BHG 一、(十二) bands 40–75 +1 and the deal changing at 80: a referee's 17-point penalty
    (二、17 酌情罚10–70分) makes 77, which the dealer side keeps with +1 (it was refused as
    "no band holds 77", a rulebook error)."""
    chosen = {"kind": "misconduct", "seat": "E", "points": 17}
    out = judge(case("bhg-2011", [hand(60, chosen)], finished="open"))["hands"][0]
    assert out["defender_total"] == 77 and out["keep_deal"] is True and out["gains"] == {"NS": 0, "EW": 1}
    assert out["assumed"] is True  # BHG's bands are its reading (dealer_bands_clause assumed)


def test_a_hand_the_defenders_win_is_marked_where_the_scoring_clause_is_a_reading() -> None:
    """HBUE 规则三、(四) prints "拣分方总得分达到80分则由拣分方上庄，在此基础上每超过40分则升一级":
    as printed a hand the defenders win is not marked; stated as a reading, it is."""
    text = (RULES / "hbue-2018.toml").read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith('clause = { ref = "规则三、(四)"'))
    club = draft("hbue-2018", (line, line[:-2] + ", assumed = true }"))
    defenders = judge(case("club-2026", [hand(100)], finished="open"), rulebook=club)["hands"][0]
    assert defenders["keep_deal"] is False and defenders["assumed"] is True
    assert judge(case("hbue-2018", [hand(100)], finished="open"))["hands"][0]["assumed"] is False


def test_offences_of_one_trick_found_then_and_later_are_counted_in_the_order_found() -> None:
    """BHG 二、4 暴露张 counted per hand (3rd time: the hand lost): in trick 3 North exposes a
    card found at once, and South one found in trick 6 although made in trick 3, typed first."""
    later = {"kind": "exposed_card", "seat": "S", "trick": 3, "discovered": 6}
    now = {"kind": "exposed_card", "seat": "N", "trick": 3}
    rulings = judge(case("bhg-2011", [hand(60, later, now)], finished="open"))["hands"][0]["rulings"]
    assert [(r["seat"], r["occurrence"]) for r in rulings] == [("S", 2), ("N", 1)]


# -- readings that mark a hand, each alone (HBUE 2018, every other clause as printed) -----------


def _hbue_line(prefix: str) -> str:
    text = (RULES / "hbue-2018.toml").read_text(encoding="utf-8")
    return next(x for x in text.splitlines() if x.startswith(prefix))


def _printed(prefix: str) -> tuple[str, str]:
    line = _hbue_line(prefix)
    assert ", assumed = true" in line
    return line, line.replace(", assumed = true", "", 1)


def _read(prefix: str) -> tuple[str, str]:
    line = _hbue_line(prefix)
    assert "assumed" not in line
    return line, line[:-2] + ", assumed = true }"


_EXPOSED = (
    'clause = { ref = "规则四", title = "违规与判罚", zh = "（未载明）", en = "10 points per exposed card."'
)
_MATCH_POINTS = 'clause = { ref = "通知四、(一)", title = "淘汰制", zh = "复赛、决赛均采取淘汰制。"'
_HAND_LOSS = 'clause = { ref = "规则四", title = "违规判负"'
_J_RULE = 'clause = { ref = "规则三、(六)", title = "特别滑钩（J）牌"'


def _hbue_round(*hands: dict[str, Any], levels: dict[str, str] | None = None, **extra: Any) -> dict[str, Any]:
    return {
        "event": "club-2026",
        "first_dealer": "N",
        "levels": levels or {"NS": "2", "EW": "2"},
        "finished": "open",
        "hands": list(hands),
        **extra,
    }


def _count_error(seat: str) -> dict[str, Any]:
    return {"kind": "wrong_card_count", "seat": seat, "phase": "after_bury"}


def test_a_total_below_zero_counted_as_zero_marks_the_hand_where_that_is_a_reading() -> None:
    """HBUE prints no negative total (规则三、(二), read as 0): East, a defender, exposes two
    cards (20 points) with 10 in tricks."""
    club = draft("hbue-2018", _printed(_EXPOSED))
    exposed = {"kind": "exposed_card", "seat": "E", "trick": 2, "cards": 2}
    below = judge(_hbue_round(hand(10, exposed)), rulebook=club)["hands"][0]
    assert below["defender_total"] == 0 and below["gains"]["NS"] == 5 and below["assumed"] is True
    above = judge(_hbue_round(hand(30, exposed)), rulebook=club)["hands"][0]
    assert above["defender_total"] == 10 and above["assumed"] is False


def test_a_hand_lost_under_a_hand_loss_rule_that_is_a_reading_is_marked() -> None:
    lost = hand(40, _count_error("N"))
    assert judge(_hbue_round(lost), rulebook=draft("hbue-2018"))["hands"][0]["assumed"] is False
    read = judge(_hbue_round(lost), rulebook=draft("hbue-2018", _read(_HAND_LOSS)))["hands"][0]
    assert read["lost_by"] == "NS" and read["assumed"] is True


def _j(points: int, suit: str, *infractions: dict[str, Any]) -> dict[str, Any]:
    bottom = {"points": 10, "captured": True, "shape": "single", "j": 1, "j_suit": suit}
    return hand(points, *infractions, bottom=bottom)


_BY_SUIT = ('single_to = "6"\npair_to = "2"', 'trump_to = "2"\nside_to = "8"\nmin_defender_total = 80')


def test_a_dealer_side_losing_the_hand_still_drops_by_a_j_rule_from_80_only() -> None:
    club = draft("hbue-2018", _BY_SUIT)
    at_j = {"NS": "J", "EW": "5"}
    reached = judge(_hbue_round(_j(60, "trump", _count_error("N")), levels=at_j), rulebook=club)["hands"][0]
    assert reached["lost_by"] == "NS" and reached["j_drop"] == "2" and reached["levels_after"]["NS"] == "2"
    short = judge(_hbue_round(_j(50, "trump", _count_error("N")), levels=at_j), rulebook=club)["hands"][0]
    assert short["lost_by"] == "NS" and short["j_drop"] is None and short["levels_after"]["NS"] == "J"


def test_defenders_losing_with_a_j_capture_are_marked_only_where_the_j_rule_would_apply() -> None:
    """HBUE: "非庄方违规则庄方续庄" against "无论得分多少，一律由拣分方上庄": where the two meet the
    rulebook's reading (the hand loss stands) marks the hand and the round's result."""
    printed_points = _printed(_MATCH_POINTS)
    club = draft("hbue-2018", _BY_SUIT, printed_points)
    at_j = {"NS": "J", "EW": "5"}
    met = judge(_hbue_round(_j(60, "side", _count_error("E")), levels=at_j, finished="time"), rulebook=club)
    assert met["hands"][0]["lost_by"] == "EW" and met["hands"][0]["j_drop"] is None
    assert met["hands"][0]["rulings"][0]["assumed"] is True and met["result"]["assumed"] is True
    apart = judge(_hbue_round(_j(50, "side", _count_error("E")), levels=at_j, finished="time"), rulebook=club)
    assert apart["hands"][0]["rulings"][0]["assumed"] is False and apart["result"]["assumed"] is False
    # a rulebook that states no reading of it marks nothing
    silent = draft("hbue-2018", (_hbue_line("defenders_lose_clause") + "\n", ""), printed_points)
    out = judge(_hbue_round(_j(60, "side", _count_error("E")), levels=at_j, finished="time"), rulebook=silent)
    assert out["hands"][0]["assumed"] is False and out["result"]["assumed"] is False


def test_a_j_drop_marks_the_hand_where_the_j_rule_is_a_reading() -> None:
    at_j = {"NS": "J", "EW": "5"}
    bundled = judge(_hbue_round(_j(40, "side"), levels=at_j), rulebook=draft("hbue-2018"))["hands"][0]
    assert bundled["j_drop"] == "6" and bundled["assumed"] is False
    read = judge(_hbue_round(_j(40, "side"), levels=at_j), rulebook=draft("hbue-2018", _read(_J_RULE)))
    assert read["hands"][0]["j_drop"] == "6" and read["hands"][0]["assumed"] is True


def test_a_re_declaration_bonus_lapsing_in_a_hand_both_sides_lose_is_marked_where_that_is_a_reading() -> None:
    """HBUE 规则三、(五) gives the bonus to 上庄方; after a hand both sides lose nobody is: the
    rulebook reads that it lapses (both_lose_clause assumed)."""
    both = {"defender_points": 40, "redeclarations": 1, "infractions": [_count_error("N"), _count_error("E")]}
    raw = _hbue_round(hand(40), both)
    read = judge(raw, rulebook=draft("hbue-2018"))["hands"][1]
    assert read["redeclaration_bonus"] == 0 and read["next_dealer"] is None and read["assumed"] is True
    printed = judge(raw, rulebook=draft("hbue-2018", _printed("both_lose_clause")))["hands"][1]
    assert printed["redeclaration_bonus"] == 0 and printed["assumed"] is False


def test_what_was_made_before_the_end_or_counted_at_the_end_is_no_offence_after_it() -> None:
    # the signal in trick 5 ends the hand; an exposure made in trick 4 and found in trick 5 was
    # made before the end, and a count error is found when the cards are counted
    made_before = {"kind": "exposed_card", "seat": "N", "trick": 4, "discovered": 5}
    counted = {"kind": "wrong_card_count", "seat": "N", "phase": "end_of_hand"}
    out = judge(case("gansu-2018", [hand(60, signal("E", 5), made_before, counted)], finished="open"))
    assert [r["kind"] for r in out["hands"][0]["rulings"]] == [
        "illegal_signal",
        "exposed_card",
        "wrong_card_count",
    ]


def test_an_offence_in_a_later_phase_than_the_end_is_refused_on_its_phase() -> None:
    drawing = 'sanction = { instruction = { zh = "由少牌方从多牌方手中任意抽取一张，比赛继续进行。"'
    text = (RULES / "gansu-2018.toml").read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith(drawing))
    club = draft("gansu-2018", (line, "sanction = { ends_hand = true }"))
    while_drawing = {"kind": "wrong_card_count", "seat": "N", "phase": "drawing"}
    error = refused(case("club-2026", [hand(60, while_drawing, _count_error("E"))], finished="open"), club)
    assert error.field == "hands[0].infractions[1].phase" and error.values["at"] == "drawing"


# -- facts a hand cannot have ------------------------------------------------------------------


def test_a_bottom_over_what_eight_cards_hold_is_refused_in_words() -> None:
    """BHG 一、(十二) 抠底 with the bottom's eight cards: at most 80 card points."""
    bottom = {"points": 85, "captured": True, "shape": "single"}
    error = refused(case("bhg-2011", [hand(20, bottom=bottom)]))
    assert (error.field, error.code, error.values) == (
        "hands[0].bottom.points",
        "case.bottom_over_max",
        {"got": 85, "most": 80, "clause": "一、(十二) 抠底"},
    )
    assert str(error) == (
        "hands[0].bottom.points: 85 card points, more than the 80 the bottom can hold (一、(十二) 抠底)"
    )
    assert (
        describe(error, "zh")
        == "第 1 副的底牌分数（hands[0].bottom.points）：底牌 85 分，超过底牌最多可有的 80 分（一、(十二) 抠底）。"
    )


def test_more_re_declarations_than_the_event_allows_in_that_hand_are_refused_in_words() -> None:
    """BHG 一、(七) 一副牌最多反两次主牌; Gansu 六、五、4: from the second hand, once."""
    error = refused(case("bhg-2011", [hand(20, redeclarations=3)]))
    assert (error.field, error.code, error.values) == (
        "hands[0].redeclarations",
        "case.redeclarations_over",
        {"got": 3, "allowed": 2, "n": 1, "rulebook": "bhg-2011", "clause": "一、(七) 亮主牌"},
    )
    assert str(error) == (
        "hands[0].redeclarations: 3 re-declarations, more than the 2 bhg-2011 allows in hand 1 (一、(七) 亮主牌)"
    )
    assert describe(error, "zh") == (
        "第 1 副的反主次数（hands[0].redeclarations）：反主 3 次，超过规则 bhg-2011 第 1 副允许的 2 次（一、(七) 亮主牌）。"
    )
    error = refused(case("gansu-2018", [hand(20), hand(20, redeclarations=2)]))
    assert str(error) == (
        "hands[1].redeclarations: 2 re-declarations, more than the 1 gansu-2018 allows in hand 2 (六、五、4 抢庄)"
    )
    # two, as many as BHG allows, are judged
    assert judge(case("bhg-2011", [hand(20, redeclarations=2)]))["hands"][0]["defender_total"] == 20


def test_a_decision_carries_the_odd_facts_the_referee_confirmed_and_it_rests_on() -> None:
    """The same light exposure typed twice in one trick is odd, not impossible (core.unusual):
    confirmed by the referee, the decision says it rests on that confirmation."""
    exposed = {"kind": "exposed_card", "seat": "N", "trick": 3, "cards": 1, "severity": "light"}
    confirmed = [{"fact": "same_offence_twice", "field": "hands[0].infractions[1]"}]
    raw = {**case("gansu-2018", [hand(60, exposed, exposed)], finished="open"), "confirmed": confirmed}
    assert judge(raw)["confirmed"] == confirmed
    assert "confirmed" not in judge({**raw, "confirmed": []})


def test_a_kind_the_events_rulebook_does_not_have_is_refused_naming_those_it_has() -> None:
    taken_back = {"kind": "take_back", "seat": "N"}  # 悔牌: a kind of some events, not BHG's
    error = refused(case("bhg-2011", [hand(60, taken_back)], finished="open"))
    fourteen = [
        "late_arrival",
        "out_of_turn",
        "wrong_card_count",
        "bottom_miscount",
        "exposed_card",
        "failed_throw",
        "wrong_play",
        "hidden_card",
        "wrong_declaration",
        "unreasonable_play",
        "illegal_signal",
        "delay",
        "trick_handling",
        "misconduct",
    ]
    assert (error.field, error.code, error.values) == (
        "hands[0].infractions[0].kind",
        "case.expected_choice",
        {"allowed": fourteen, "got": '"take_back"'},
    )
    assert (
        str(error) == f'hands[0].infractions[0].kind: expected one of {", ".join(fourteen)}, got "take_back"'
    )
    assert describe(error, "zh") == (
        f'第 1 副第 1 项违规的违规种类（hands[0].infractions[0].kind）：应为 {"、".join(fourteen)} 之一，收到 "take_back"。'
    )
    # a kind typed in Chinese is quoted as typed, not as \\u escapes
    error = refused(case("bhg-2011", [hand(60, {"kind": "悔牌", "seat": "N"})], finished="open"))
    assert error.values["got"] == '"悔牌"' and str(error).endswith('got "悔牌"')


def test_re_declarations_past_a_limit_the_rulebook_only_assumes_are_judged_and_marked() -> None:
    # a club reading HBUE's silence as at most one re-declaration a hand (assumed)
    limit = (
        "[redeclarations]\nlimits = [{ from_hand = 1, max = 1 }]\n"
        'clause = { ref = "规则三、(五)", title = "反牌", zh = "（未载明）", en = "One a hand.", assumed = true }\n\n'
    )
    club = draft("hbue-2018", ("[standings]", limit + "[standings]"))
    over = judge(_hbue_round(hand(100, redeclarations=2)), rulebook=club)["hands"][0]
    assert over["defender_total"] == 100 and over["assumed"] is True
    within = judge(_hbue_round(hand(100, redeclarations=1)), rulebook=club)["hands"][0]
    assert within["assumed"] is False


def test_a_ruling_worded_alone_words_its_hand_loss_award() -> None:
    from referee_app.core.engine import decide, word_ruling
    from referee_app.core.rulebook import load_rulebook

    lost = decide(case("hbue-2018", [hand(40, _count_error("E"))], finished="open")).to_json()
    ruling = lost["hands"][0]["rulings"][0]
    alone = word_ruling(dict(ruling), "zh", load_rulebook("hbue-2018"))["text"]
    both = word_ruling(dict(ruling), "zh", load_rulebook("hbue-2018"), both_lost=True)["text"]
    assert alone != both and "双方均判负" in both and "双方均判负" not in alone


# -- a refusal in Chinese names its place in the case in words ----------------------------------


def test_a_chinese_refusal_names_the_hand_and_the_infraction_in_words_beside_the_files_path() -> None:
    """Gansu 六、六、E 「若一经发现，该副牌立即结束」: a second signal twelve tricks later is
    refused; the Chinese line says which hand and which infraction, not only the file's path."""
    error = refused(case("gansu-2018", [hand(60), hand(60, signal("E", 3), signal("N", 15))]))
    assert error.field == "hands[1].infractions[1].trick"
    assert describe(error, "zh") == (
        "第 2 副第 2 项违规的圈次（hands[1].infractions[1].trick）：本副牌已因第 2 副第 1 项违规的判罚"
        "（六、六、E 传递非法信息）立即结束，之后不能再有出牌或违规。"
    )
    # English keeps the file's keys (they are English), the ending infraction by its path
    assert str(error).startswith(
        "hands[1].infractions[1].trick: the hand had already ended (hands[1].infractions[0]"
    )


def test_a_chinese_refusal_words_the_cases_phase_and_shape() -> None:
    """Gansu 六、六、A1 「未拿底牌之前，发现多牌少牌」: a count error while drawing has no trick;
    HBUE 三、(六) 「单J抠底…对J抠底」: a tractor holds its Js in pairs."""
    count = {"kind": "wrong_card_count", "seat": "N", "trick": 10, "phase": "drawing"}
    error = refused(case("gansu-2018", [hand(40, count)]))
    assert describe(error, "zh") == (
        "第 1 副第 1 项违规的圈次（hands[0].infractions[0].trick）：发现于抓牌过程中（出牌之前），却填写了第 10 圈。"
    )
    bottom = {"points": 10, "captured": True, "shape": "tractor", "pairs": 2, "j": 1}
    error = refused(case("hbue-2018", [hand(40, bottom=bottom)], levels={"NS": "2", "EW": "J"}))
    assert describe(error, "zh") == (
        "第 1 副的抠底 J 的张数（hands[0].bottom.j）：以拖拉机抠底不可能含 1 张 J：只能含 0、2 张。"
    )


def test_a_hand_after_a_round_forfeit_says_who_lost_the_round() -> None:
    forfeited = {
        "kind": "misconduct",
        "seat": "N",
        "points": 30,
        "override": {"reason": "拒绝比赛", "sanctions": ["round_forfeit"]},
    }
    error = refused(case("bhg-2011", [hand(40, forfeited), hand(40)]))
    assert (
        describe(error, "zh")
        == "第 2 副（hands[1]）：本轮已在第 1 副结束（南北方被判本轮负），之后不能再有牌局。"
    )
    assert (
        describe(error, "en") == "hands[1]: the round ended at hand 1 (round lost by NS); no hand can follow"
    )


def test_an_offence_found_in_a_trick_after_the_hand_ended_is_refused() -> None:
    """Gansu 六、六、E 「若一经发现，该副牌立即结束」: after a signal ends the hand in trick 5 no
    trick 8 is played, so nothing can be found in it, even an exposure made in trick 4."""
    found_later = {"kind": "exposed_card", "seat": "N", "trick": 4, "discovered": 8}
    error = refused(case("gansu-2018", [hand(60, signal("E", 5), found_later)], finished="open"))
    assert (error.code, error.field) == ("case.found_after_end", "hands[0].infractions[1].discovered")
    assert str(error) == (
        "hands[0].infractions[1].discovered: the hand had already ended (hands[0].infractions[0], "
        "六、六、E 传递非法信息, trick 5); trick 8 was never played"
    )
    assert describe(error, "zh") == (
        "第 1 副第 2 项违规的发现时的圈次（hands[0].infractions[1].discovered）：本副牌已因第 1 副第 1 项违规"
        "的判罚（六、六、E 传递非法信息）立即结束，没有打第 8 圈，不可能在该圈发现；请填写结束时发现的圈次。"
    )
    assert error.values == {
        "ended_by": "hands[0].infractions[0]",
        "clause": "六、六、E 传递非法信息",
        "at": "trick 5",
        "discovered": 8,
    }
    # made in the very trick the hand ended in, and found later: refused too
    in_that_trick = {"kind": "exposed_card", "seat": "N", "trick": 5, "discovered": 8}
    error = refused(case("gansu-2018", [hand(60, signal("E", 5), in_that_trick)], finished="open"))
    assert (error.code, error.field) == ("case.found_after_end", "hands[0].infractions[1].discovered")
