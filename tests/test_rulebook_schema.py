"""The rulebook schema as a rulebook's author meets it: what a value's type must be."""

from __future__ import annotations

import pytest

from referee_app.core.errors import RulebookError
from referee_app.core.rulebook import rulebook_from_text

from .conftest import RULES

GANSU = (RULES / "gansu-2018.toml").read_text(encoding="utf-8")
LIGHT = 'sanction = { points = 10, instruction = { zh = "轻罚张收回。"'


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        (
            "warning_includes_current = false",
            'warning_includes_current = "no"',
            "round.warning_includes_current",
        ),
        (
            LIGHT,
            LIGHT.replace("points = 10", 'points = "10"'),
            "infractions.exposed_card.rules[0].sanction.points",
        ),
        (
            LIGHT,
            LIGHT.replace("points = 10", "points = 10.0"),
            "infractions.exposed_card.rules[0].sanction.points",
        ),
        ("points_range = [10, 70]", 'points_range = ["10", 70]', "sanction.points_range"),
        (
            'en = "The side with the higher level at the end of the round wins.", assumed = true',
            'en = "The side with the higher level at the end of the round wins.", assumed = "yes"',
            "levels.clause.assumed",
        ),
    ],
)
def test_a_value_of_the_wrong_type_is_refused_with_its_field_and_line(old: str, new: str, field: str) -> None:
    """A boolean is true or false and a number a number: "yes", "10" and 10.0 would once
    have been read as true and 10."""
    assert old in GANSU
    text = GANSU.replace(old, new, 1)
    line = text[: text.index(new)].count("\n") + 1
    with pytest.raises(RulebookError) as caught:
        rulebook_from_text(text, "strict.toml", use_cache=False)
    message = str(caught.value)
    assert field in message and f"(line {line})" in message, message


def test_a_range_is_written_as_a_toml_array() -> None:
    rulebook = rulebook_from_text(GANSU, "gansu.toml", use_cache=False)
    [rule] = [
        r for r in rulebook.data["infractions"]["misconduct"]["rules"] if r["id"] == "discretionary_points"
    ]
    assert list(rule["sanction"]["points_range"]) == [10, 70]
