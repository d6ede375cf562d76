"""Tests that kill mutmut's surviving mutants of core/standings.py (issue 16).

Each test names the rule it pins: the event's clause (BHG 2011 比赛方法, Gansu 2018 六、四,
HBUE 2018 通知四、(一)) or the reading of DOMAIN.md §5 written in the module's docstring.
Every tie-break is tested on its own (a rulebook of ``match_points``, that tie-break and
nothing else), so a mutant in one cannot hide behind the next. Equivalent mutants are
listed in tools/mutation-equivalents.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee_app.core import load_rulebook
from referee_app.core.standings import (
    ASSUMED_MARK,
    Bye,
    Disqualification,
    Entry,
    EventRecord,
    MatchResult,
    StandingsError,
    Suspension,
    Withdrawal,
    assumed_footnote,
    compute_standings,
    format_tiebreak,
    lot_digest,
    natural_key,
    rows_by_pair,
    tiebreak_label,
)

BHG = load_rulebook("bhg-2011")
GANSU = load_rulebook("gansu-2018")
HBUE = load_rulebook("hbue-2018")


def win(rnd: int, winner: str, loser: str, ld: int = 1) -> MatchResult:
    """``winner`` (sitting NS) beats ``loser`` by ``ld`` levels: 2 : 0."""
    return MatchResult(rnd, winner, loser, "NS", 2, 0, ld, -ld)


def ew_win(rnd: int, ns: str, ew: str, ld: int = 1) -> MatchResult:
    """``ew`` (sitting EW) beats ``ns``: 0 : 2."""
    return MatchResult(rnd, ns, ew, "EW", 0, 2, -ld, ld)


def draw(rnd: int, ns: str, ew: str) -> MatchResult:
    return MatchResult(rnd, ns, ew, None, 1, 1, 0, 0)


def only(tie_break: str, *, lots: bool = False, win_points: int = 2) -> dict[str, Any]:
    """A rulebook ranking by match points, then ``tie_break`` alone (then lots if asked)."""
    order = ["match_points", tie_break] + (["lots"] if lots else [])
    return {"match_points": {"win": win_points, "draw": 1, "loss": 0}, "standings": {"tie_breaks": order}}


def table(rules: Any, rec: EventRecord, **kw: Any) -> list[tuple[int, str]]:
    return [(r["rank"], r["pair"]) for r in compute_standings(rules, rec, **kw).rows]


def by_pair(rules: Any, rec: EventRecord, **kw: Any) -> dict[str, Any]:
    return rows_by_pair(compute_standings(rules, rec, **kw).rows)


# -- labels, footnote, formatting --------------------------------------------------------------


def test_tiebreak_label_in_both_languages_marked_only_when_assumed() -> None:
    assert tiebreak_label("opponents_score", "zh") == "对手分"
    assert tiebreak_label("opponents_score", "en") == "Opponents' score"
    assert tiebreak_label("small_points", "zh", assumed=["small_points"]) == "小分" + ASSUMED_MARK
    assert tiebreak_label("small_points", "en", assumed=["lots"]) == "Small points"
    assert ASSUMED_MARK == "*"


def test_assumed_footnote_names_each_reading_and_the_bye() -> None:
    """The line under the table names what the event's text does not define (项目规则: assumed)."""
    assert assumed_footnote([], "zh") == ""
    assert assumed_footnote((), "en") == ""
    zh = assumed_footnote(["opponents_score", "bye"], "zh")
    assert zh == "* 假定：规程未载明其算法，按规则文件的解读计算：对手分、轮空计分"
    en = assumed_footnote(["level_difference", "bye"], "en")
    assert en == (
        "* Assumed: the event's text does not define them; the rulebook's reading applies: "
        "Level difference, bye scoring"
    )


@pytest.mark.parametrize(
    ("key", "value", "shown"),
    [
        ("opponents_score", None, "—"),
        ("lots", {"seed": 7, "draw": 3}, "3"),
        ("previous_round_points", [6, 4, 2], "6/4/2"),
        ("previous_round_points", [], "—"),
        ("small_points", 2.5, "2.5"),
        ("level_difference", -3, "-3"),
    ],
)
def test_format_tiebreak(key: str, value: Any, shown: str) -> None:
    assert format_tiebreak(key, value) == shown


def test_natural_key_sorts_pair_numbers_as_numbers_then_names() -> None:
    assert natural_key("10") == (0, 10, "")
    assert natural_key("B2") == (1, 0, "B2")
    assert sorted(["10", "B", "2", "A", "1"], key=natural_key) == ["1", "2", "10", "A", "B"]


def test_rows_by_pair_keys_each_row_by_its_pair() -> None:
    rows = [{"pair": "3", "rank": 1}, {"pair": "1", "rank": 2}]
    assert rows_by_pair(rows) == {"3": rows[0], "1": rows[1]}


def test_lot_digest_is_sha256_of_seed_salt_and_pair() -> None:
    import hashlib

    assert lot_digest(4, "12") == hashlib.sha256(b"4:12").hexdigest()
    assert lot_digest(4, "12", "ko") == hashlib.sha256(b"4:ko12").hexdigest()


# -- MatchResult.from_result ------------------------------------------------------------------


def test_from_result_reads_the_engines_result() -> None:
    result = {"winner": "NS", "match_points": {"NS": "2", "EW": 0}, "level_difference": {"NS": 3, "EW": -3}}
    m = MatchResult.from_result(2, 11, 4, result)
    assert m == MatchResult(2, "11", "4", "NS", 2, 0, 3, -3, None)
    assert isinstance(m.ns_points, int)


def test_from_result_without_level_difference_counts_zero() -> None:
    for ld in ({}, {"level_difference": None}):
        m = MatchResult.from_result(1, "1", "2", {"winner": None, "match_points": {"NS": 1, "EW": 1}, **ld})
        assert (m.ns_level_difference, m.ew_level_difference, m.forfeit) == (0, 0, None)


@pytest.mark.parametrize(("winner", "forfeit"), [("NS", "EW"), ("EW", "NS"), (None, "both")])
def test_from_result_names_the_side_that_forfeited(winner: str | None, forfeit: str) -> None:
    """A forfeit (弃权) names the loser; no winner is a double forfeit."""
    result = {"winner": winner, "decided_by": "forfeit", "match_points": {"NS": 0, "EW": 0}}
    assert MatchResult.from_result(1, "1", "2", result).forfeit == forfeit


# -- who is in the field of a round -----------------------------------------------------------


def test_late_entry_plays_from_its_first_round_on() -> None:
    rec = EventRecord(pairs=("1", "2"), entries=(Entry("2", 3), Entry("2", 2), Entry("1", 1)))
    assert rec.first_round("2") == 3  # the latest recorded entry wins
    assert rec.first_round("9") == 1
    assert not rec.plays("2", 2) and rec.plays("2", 3) and rec.plays("2", 4)
    assert rec.plays("1", 1)


def test_withdrawal_covers_its_rounds_until_readmitted() -> None:
    """退赛 from round 2, re-admitted from round 4: out in 2 and 3 only."""
    w = Withdrawal("1", 2, 4)
    assert [r for r in range(1, 6) if w.covers(r)] == [2, 3]
    assert [r for r in range(1, 6) if Withdrawal("1", 2).covers(r)] == [2, 3, 4, 5]
    rec = EventRecord(pairs=("1", "2"), withdrawals=(w,))
    assert [r for r in range(1, 6) if rec.withdrawn("1", r)] == [2, 3]
    assert not rec.withdrawn("2", 2)
    assert [r for r in range(1, 6) if rec.plays("1", r)] == [1, 4, 5]


def test_suspension_covers_exactly_its_rounds() -> None:
    """停赛 2 rounds from round 3: rounds 3 and 4."""
    s = Suspension("1", 3, 2)
    assert [r for r in range(1, 7) if s.covers(r)] == [3, 4]
    rec = EventRecord(pairs=("1", "2"), suspensions=(s,))
    assert [r for r in range(1, 7) if rec.plays("1", r)] == [1, 2, 5, 6]
    assert all(rec.plays("2", r) for r in range(1, 7))


def test_disqualified_pair_plays_its_round_but_no_later_one() -> None:
    """取消比赛资格 in round 2 (the earliest recorded): it played 2, it plays no round after."""
    rec = EventRecord(pairs=("1", "2"), disqualifications=(Disqualification("1", 3), Disqualification("1", 2)))
    assert rec.disqualified_in("1") == 2 and rec.disqualified_in("2") is None
    assert [r for r in range(1, 5) if rec.plays("1", r)] == [1, 2]
    assert all(rec.plays("2", r) for r in range(1, 5))


def test_last_round_counts_results_and_byes() -> None:
    assert EventRecord(pairs=("1",)).last_round() == 0
    assert EventRecord(pairs=("1", "2", "3"), results=(win(2, "1", "2"),), byes=(Bye(3, "3"),)).last_round() == 3
    assert EventRecord(pairs=("1", "2", "3"), results=(win(4, "1", "2"),), byes=(Bye(3, "3"),)).last_round() == 4


# -- errors: one line naming what is wrong ----------------------------------------------------


def test_errors_name_the_round_the_pair_and_the_field() -> None:
    with pytest.raises(StandingsError, match=r"^round 2: pair 3 plays itself$"):
        compute_standings(BHG, EventRecord(("3", "4"), (win(2, "3", "3"),)))
    with pytest.raises(StandingsError, match=r"^round 1: pair 2 has two results \(bye\)$"):
        compute_standings(BHG, EventRecord(("1", "2"), (win(1, "1", "2"),), byes=(Bye(1, "2"),)))
    with pytest.raises(StandingsError, match=r"^round 1: pair 1 has two results \(match\)$"):
        compute_standings(BHG, EventRecord(("1", "2", "3"), (win(1, "1", "2"), win(1, "3", "1"))))
    with pytest.raises(StandingsError, match=r"^--round: expected 0 or more, got -1$"):
        compute_standings(BHG, EventRecord(("1", "2")), through_round=-1)
    with pytest.raises(StandingsError, match=r"^rulebook: expected a Rulebook or its data$"):
        compute_standings(["match_points"], EventRecord(("1", "2")))
    with pytest.raises(StandingsError, match=r"^standings.tie_breaks: unknown tie-break 'coin'$"):
        compute_standings(only("coin"), EventRecord(("1", "2")))


def test_round_zero_ranks_everyone_equal_by_lots() -> None:
    rec = EventRecord(pairs=("1", "2"), results=(win(1, "1", "2"),))
    t = compute_standings(BHG, rec, through_round=0, seed=3)
    assert t.round == 0 and all(r["match_points"] == 0 for r in t.rows)
