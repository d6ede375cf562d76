"""``assumed`` on one value inside a block (issue 25): a reading stated for one multiplier of
the bottom or one mandatory level marks only the hands that value decides, the rest of the
block staying as printed.

Written from the seeds: BHG (seed 000, 一、(十二)) prints "单张抠底底牌分数乘以2；对牌抠底底牌
分数乘以4；两连对抠底底牌分数乘以8，以此类推，底牌分数乘以2（n+1）……甩牌抠底乘以3", whose
"2（n+1）" the rulebook reads as a power: the tractor's multiplier is the reading, a single's and
a throw's are printed. HBUE (seed 004, 三、(六)) prints J
and A as mandatory levels; a club adding 5 by custom states that one as its reading."""

from __future__ import annotations

import pytest

from referee_app.core.engine import judge
from referee_app.core.errors import RulebookError
from referee_app.core.rulebook import load_rulebook, rulebook_from_text

from .conftest import RULES


def _draft(base: str, old: str, new: str):
    text = (RULES / f"{base}.toml").read_text(encoding="utf-8")
    assert old in text
    return rulebook_from_text(
        text.replace(old, new, 1).replace(f'id = "{base}"', 'id = "club-2026"'), "club.toml", use_cache=False
    )


def _hand(bottom: dict, points: int = 60) -> dict:
    return {
        "event": "club-2026",
        "first_dealer": "E",
        "finished": "open",
        "hands": [{"defender_points": points, "bottom": bottom}],
    }


def test_a_tractors_multiplier_stated_as_a_reading_marks_only_tractor_bottoms() -> None:
    draft = _draft("bhg-2011", "max_points = 80", 'assumed_values = ["tractor"]\nmax_points = 80')
    bhg = load_rulebook("bhg-2011")
    tractor = _hand({"points": 10, "captured": True, "shape": "tractor", "pairs": 3})
    single = _hand({"points": 10, "captured": True, "shape": "single"})
    throw = _hand({"points": 10, "captured": True, "shape": "throw", "largest": "pair"})
    for case, multiplier, marked in ((tractor, 16, True), (single, 2, False), (throw, 3, False)):
        mine = judge(case, rulebook=draft)["hands"][0]
        theirs = judge({**case, "event": "bhg-2011"}, rulebook=bhg)["hands"][0]
        # the same multipliers (2^(n+1) for n pairs, a single ×2, BHG's throw ×3) …
        assert mine["defender_total"] == theirs["defender_total"] == 60 + 10 * multiplier
        # … and only the tractor's, the reading, marks the hand
        assert mine["assumed"] is marked and theirs["assumed"] is False


def test_a_mandatory_level_stated_as_a_reading_marks_a_gain_stopped_there_only() -> None:
    old = 'mandatory = ["J", "A"]'
    draft = _draft("hbue-2018", old, 'mandatory = ["5", "J", "A"]\nassumed_mandatory = ["5"]')
    on_five = {**_hand({}, points=0), "levels": {"NS": "2", "EW": "4"}}
    on_jack = {**_hand({}, points=0), "levels": {"NS": "2", "EW": "9"}}
    five = judge(on_five, rulebook=draft)["hands"][0]
    jack = judge(on_jack, rulebook=draft)["hands"][0]
    assert five["levels_after"]["EW"] == "5" and five["assumed"]  # stopped on the club's 5
    assert jack["levels_after"]["EW"] == "J" and not jack["assumed"]  # stopped on HBUE's printed J


def test_an_assumed_level_must_be_a_mandatory_one() -> None:
    with pytest.raises(RulebookError) as caught:
        _draft("hbue-2018", 'mandatory = ["J", "A"]', 'mandatory = ["J", "A"]\nassumed_mandatory = ["5"]')
    assert "assumed_mandatory: 5 not among the mandatory levels" in str(caught.value)


def test_tractors_from_three_pairs_stated_as_a_reading_mark_only_those_bottoms() -> None:
    """BHG prints "两连对抠底底牌分数乘以8，以此类推": two pairs' ×8 is printed, three pairs and
    more are the "以此类推" read as 2^(n+1). Per number of pairs, not the whole tractor shape."""
    draft = _draft("bhg-2011", "max_points = 80", "assumed_tractor_from_pairs = 3\nmax_points = 80")
    bhg = load_rulebook("bhg-2011")
    cases = (
        ({"shape": "tractor", "pairs": 2}, 8, False),
        ({"shape": "tractor", "pairs": 3}, 16, True),
        ({"shape": "tractor", "pairs": 4}, 32, True),
        ({"shape": "pair"}, 4, False),
        # BHG's throw is ×3 whatever its parts (fixed): its largest part decides nothing
        ({"shape": "throw", "largest": "tractor", "pairs": 3}, 3, False),
    )
    for shape, multiplier, marked in cases:
        case = _hand({"points": 10, "captured": True, **shape})
        mine = judge(case, rulebook=draft)["hands"][0]
        theirs = judge({**case, "event": "bhg-2011"}, rulebook=bhg)["hands"][0]
        assert mine["defender_total"] == theirs["defender_total"] == 60 + 10 * multiplier, shape
        assert mine["assumed"] is marked and theirs["assumed"] is False, shape


def test_a_throw_multiplied_by_its_largest_part_is_marked_when_that_part_is_a_long_tractor() -> None:
    # HBUE: a throw is its largest combination's multiplier + 1, so the tractor's length decides
    draft = _draft("hbue-2018", "max_points = 80", "assumed_tractor_from_pairs = 3\nmax_points = 80")
    for pairs, marked in ((2, False), (3, True)):
        case = _hand({"points": 10, "captured": True, "shape": "throw", "largest": "tractor", "pairs": pairs})
        hand = judge(case, rulebook=draft)["hands"][0]
        assert hand["bottom_multiplier"] == 2 * (pairs + 1) + 1 and hand["assumed"] is marked


def test_a_throws_largest_part_marks_it_only_where_the_throw_is_multiplied_by_that_part() -> None:
    """HBUE 三、(一) "若以甩牌抠底，则乘以甩牌其中所含最大组合的倍数+1": the pair's reading
    decides a throw whose largest part is a pair; BHG "甩牌抠底乘以3" does not use the parts."""
    edit = ("max_points = 80", 'assumed_values = ["pair"]\nmax_points = 80')
    throw = {"points": 10, "captured": True, "shape": "throw", "largest": "pair"}
    pair = {"points": 10, "captured": True, "shape": "pair"}
    single_throw = {**throw, "largest": "single"}
    for base, throw_marked in (("hbue-2018", True), ("bhg-2011", False)):
        draft = _draft(base, *edit)
        assert judge(_hand(pair), rulebook=draft)["hands"][0]["assumed"] is True, base
        assert judge(_hand(throw), rulebook=draft)["hands"][0]["assumed"] is throw_marked, base
        assert judge(_hand(single_throw), rulebook=draft)["hands"][0]["assumed"] is False, base
