"""Tests that kill mutmut's surviving mutants of core/levels.py (issue 16).

Each pins a rule of the level ladder the existing cases left loose; the mutant it kills is
named in its docstring. Equivalent mutants are listed in tools/mutation-equivalents.md.
"""

import pytest

from referee_app.core.levels import LEVELS, advance, difference, is_level, level_index


@pytest.mark.parametrize("playing_it", [True, False])
def test_a_is_a_stop_even_when_the_rulebook_lists_no_mandatory_level(playing_it: bool) -> None:
    """A is always a stop (DOMAIN 过A: the round is won only by winning a hand as dealer *at* A).

    A gain from K that would run past A stops on A without passing it, even for the side
    that won as dealer at K and even with an empty mandatory list (kills ``{"A"}`` mutated
    to ``{"XXAXX"}`` / ``{"a"}``).
    """
    assert advance("K", 3, [], playing_it) == ("A", False)
    assert advance("Q", 5, (), playing_it) == ("A", False)


def test_a_is_passed_only_by_playing_it_with_no_mandatory_list() -> None:
    assert advance("A", 1, [], playing_it=True) == ("A", True)
    assert advance("A", 2, [], playing_it=False) == ("A", False)


def test_hbue_3_6_j_stops_a_gain_that_would_run_past_it() -> None:
    """HBUE 规则三、(六): J is mandatory, so 9 + 4 stops on J even for the dealer side at 9."""
    assert advance("9", 4, ["J", "A"], playing_it=True) == ("J", False)
    # the gain exactly reaching the stop lands on it
    assert advance("10", 1, ["J", "A"], playing_it=False) == ("J", False)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2", True),
        ("10", True),
        ("J", True),
        ("A", True),
        ("1", False),
        ("a", False),
        ("11", False),
        ("", False),
        (10, False),
        (None, False),
    ],
)
def test_is_level_accepts_exactly_the_thirteen_levels(value: object, expected: bool) -> None:
    """A level is one of the 13 strings 2 … A; the number 10 is not the level "10"."""
    assert is_level(value) is expected


def test_level_ladder_order_and_difference() -> None:
    assert LEVELS[0] == "2" and LEVELS[-1] == "A" and len(LEVELS) == 13
    assert level_index("2") == 0 and level_index("A") == 12
    assert difference("A", "2") == 12
    assert difference("J", "K") == -2
    assert difference("7", "7") == 0
