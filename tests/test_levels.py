import doctest

import pytest

from referee_app.core import levels, seats
from referee_app.core.levels import advance


def test_doctests() -> None:
    for module in (levels, seats):
        assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize(
    ("level", "gain", "mandatory", "playing", "expected"),
    [
        ("2", 3, ["A"], True, ("5", False)),
        ("9", 3, ["J", "A"], False, ("J", False)),  # a gain stops on a mandatory level
        ("J", 2, ["J", "A"], False, ("J", False)),  # defenders standing on J stay there
        ("J", 2, ["J", "A"], True, ("K", False)),  # winning as dealer at J moves on
        ("K", 5, ["A"], True, ("A", False)),  # never past A without playing it
        ("A", 1, ["A"], True, ("A", True)),  # winning as dealer at A passes A
        ("A", 3, ["A"], False, ("A", False)),
        ("4", 3, ["5", "10", "K"], True, ("5", False)),
        ("3", -2, ["A"], False, ("2", False)),  # never below 2
        ("7", 0, ["A"], True, ("7", False)),
    ],
)
def test_advance(level, gain, mandatory, playing, expected) -> None:
    assert advance(level, gain, mandatory, playing) == expected
