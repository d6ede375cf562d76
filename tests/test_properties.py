"""Properties every rulebook must keep, checked on random hands (hypothesis)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from referee_app import cli
from referee_app.core.engine import judge
from referee_app.core.errors import CaseError
from referee_app.core.levels import LEVELS, level_index
from referee_app.core.rulebook_kinds import KINDS, PHASES

EVENTS = ["bhg-2011", "gansu-2018", "hbue-2018"]
SEATS = ["E", "S", "W", "N"]
fives = st.integers(min_value=0, max_value=40).map(lambda n: n * 5)


@st.composite
def bottoms(draw: st.DrawFn) -> dict[str, Any]:
    points = draw(st.integers(min_value=0, max_value=12).map(lambda n: n * 5))
    if not draw(st.booleans()):
        return {"points": points, "captured": False}
    shape = draw(st.sampled_from(["single", "pair", "tractor", "throw"]))
    out: dict[str, Any] = {
        "points": points,
        "captured": True,
        "shape": shape,
        # as many J as the capturing combination can hold: a single one, a pair two
        "j": draw(
            st.sampled_from({"single": [0, 1], "pair": [0, 2], "tractor": [0, 2]}.get(shape, [0, 1, 2]))
        ),
    }
    if shape == "throw":
        out["largest"] = draw(st.sampled_from(["single", "pair", "tractor"]))
    if shape == "tractor" or out.get("largest") == "tractor":
        out["pairs"] = draw(st.integers(2, 4))
    return out


@st.composite
def infractions(draw: st.DrawFn, seat: str | None = None) -> dict[str, Any]:
    kind = draw(st.sampled_from([k for k in KINDS if k != "late_arrival"]))
    trick = draw(st.integers(1, 25))
    out: dict[str, Any] = {
        "kind": kind,
        "seat": seat or draw(st.sampled_from(SEATS)),
        "cards": draw(st.integers(1, 4)),
        "trick": trick,
        "discovered": draw(st.integers(trick, 25)),
        "severity": draw(st.sampled_from(["light", "heavy"])),
        "affects_result": draw(st.booleans()),
    }
    if kind == "wrong_card_count":
        out["phase"] = draw(st.sampled_from(PHASES))
        if out["phase"] in ("drawing", "before_bottom"):  # found before any trick is led
            del out["trick"], out["discovered"]
    if kind == "misconduct":
        out["points"] = draw(st.integers(2, 14).map(lambda n: n * 5))
    return out


@st.composite
def single_hands(draw: st.DrawFn) -> tuple[str, dict[str, Any], dict[str, str], str]:
    event = draw(st.sampled_from(EVENTS))
    bottom = draw(bottoms())
    points = draw(st.integers(0, (200 - bottom["points"]) // 5).map(lambda n: n * 5))
    levels = {"NS": draw(st.sampled_from(LEVELS)), "EW": draw(st.sampled_from(LEVELS))}
    return (
        event,
        {"defender_points": points, "redeclarations": draw(st.integers(0, 2)), "bottom": bottom},
        levels,
        draw(st.sampled_from(SEATS)),
    )


def standing(out: dict[str, Any], side: str) -> float:
    """How well ``side`` stands after the hand: a forfeit is the worst, passing A the best."""
    other = "EW" if side == "NS" else "NS"
    forfeit = out["forfeit"]
    if forfeit is not None and forfeit["side"] in (side, "both"):
        return float("-inf")
    result = out["result"]
    if result is not None and result["passed_a"]:
        return float("inf") if result["winner"] == side else float("-inf")
    after = out["hands"][-1]["levels_after"]
    return level_index(after[side]) - level_index(after[other])


#: Facts that cannot have happened, which a drawn hand can combine into (an offence after a
#: ruling that ended the hand at once, a bottom captured after it): refused, not judged.
IMPOSSIBLE = {"case.after_hand_ended", "case.captured_after_end"}


def run(event: str, hand: dict[str, Any], levels: dict[str, str], dealer: str) -> dict[str, Any]:
    try:
        return judge(
            {
                "event": event,
                "first_dealer": dealer,
                "levels": levels,
                "hands": [hand],
                "finished": "open",
            }
        )
    except CaseError as exc:
        if exc.code in IMPOSSIBLE:
            reject()
        raise


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(single_hands(), st.data())
def test_a_penalty_never_improves_the_offending_side(setup, data) -> None:
    event, hand, levels, dealer = setup
    offence = data.draw(infractions())
    clean = run(event, hand, levels, dealer)
    penalised = run(event, dict(hand, infractions=[offence]), levels, dealer)
    ruling = penalised["hands"][0]["rulings"][0]
    if ruling["ends_hand"]:
        # A hand that ends at once (立即结束) was never played out: its points are only those
        # collected so far, so the clean hand is no fair comparison (see the test below).
        return
    side = ruling["against"]  # a miscounted bottom is the dealer's
    assert standing(penalised, side) <= standing(clean, side), (offence, clean, penalised)


@settings(max_examples=200, deadline=None)
@given(single_hands())
def test_a_hand_ended_at_once_ignores_the_points_so_far(setup) -> None:
    """Gansu 六、六、E: 该副牌立即结束，判违规方负 — the printed award, whatever was collected."""
    event, hand, levels, dealer = setup
    event = "gansu-2018"
    dealer_side = "NS" if dealer in ("N", "S") else "EW"
    signal = {"kind": "illegal_signal", "seat": dealer, "trick": 3}
    # ended in trick 3, the hand never reaches the last trick that captures the bottom
    uncaptured = {"points": hand["bottom"]["points"], "captured": False}
    out = run(event, dict(hand, bottom=uncaptured, infractions=[signal]), levels, dealer)
    gains = out["hands"][0]["gains"]
    defenders = "EW" if dealer_side == "NS" else "NS"
    assert gains == {defenders: 2, dealer_side: 0}
    assert out["hands"][0]["next_dealer"] not in (dealer, {"E": "W", "W": "E", "N": "S", "S": "N"}[dealer])


@settings(max_examples=400, deadline=None)
@given(single_hands(), st.integers(1, 8), st.lists(infractions(), max_size=2))
def test_more_defender_points_never_help_the_dealer_side(setup, extra, offences) -> None:
    event, hand, levels, dealer = setup
    more = min(200 - hand["bottom"]["points"], hand["defender_points"] + 5 * extra)
    dealer_side = "NS" if dealer in ("N", "S") else "EW"
    fewer_out = run(event, dict(hand, infractions=offences), levels, dealer)
    more_out = run(event, dict(hand, defender_points=more, infractions=offences), levels, dealer)
    assert standing(more_out, dealer_side) <= standing(fewer_out, dealer_side)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 300)
    | st.text(max_size=6)
    | st.sampled_from(["E", "X", "NS", "bhg-2011", "hbue-2018", "time", "open", "pair", "J"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "event",
                    "first_dealer",
                    "hands",
                    "finished",
                    "levels",
                    "kind",
                    "seat",
                    "defender_points",
                    "bottom",
                    "infractions",
                    "points",
                    "captured",
                    "shape",
                    "trick",
                    "history",
                    "x",
                ]
            ),
            children,
            max_size=6,
        )
    ),
    max_leaves=20,
)


@st.composite
def mutated_cases(draw: st.DrawFn) -> Any:
    """Valid-looking cases with one field replaced by random JSON: reaches the deep checks."""
    event, hand, levels, dealer = draw(single_hands())
    hand["infractions"] = draw(st.lists(infractions(), max_size=3))
    case: dict[str, Any] = {
        "event": event,
        "first_dealer": dealer,
        "levels": levels,
        "hands": [hand],
        "finished": "time",
    }
    target = draw(st.sampled_from(["top", "hand", "infraction", "bottom", "none"]))
    key = draw(
        st.text(min_size=1, max_size=12)
        | st.sampled_from(
            [
                "kind",
                "seat",
                "trick",
                "discovered",
                "cards",
                "phase",
                "points",
                "shape",
                "pairs",
                "override",
                "levels",
                "history",
                "j",
                "minutes",
                "dealer",
                "thrown",
            ]
        )
    )
    value = draw(json_values)
    if target == "top":
        case[key] = value
    elif target == "hand":
        hand[key] = value
    elif target == "bottom":
        hand["bottom"][key] = value
    elif target == "infraction" and hand["infractions"]:
        hand["infractions"][0][key] = value
    return case


def judge_file(path: Path, capsys) -> tuple[int, str, str]:
    code = cli.main(["--lang", "en", "judge", str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.one_of(json_values, mutated_cases()))
def test_judge_on_random_json_exits_0_or_2_with_one_line(tmp_path, capsys, value) -> None:
    path = tmp_path / "case.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    code, out, err = judge_file(path, capsys)
    assert code in (0, 2)
    if code == 2:
        assert out == ""
        assert len(err.strip().splitlines()) == 1, err
        assert "Traceback" not in err
    else:
        json.loads(out)


@settings(max_examples=200, deadline=None)
@given(mutated_cases())
def test_judge_never_raises_anything_but_a_case_error(case) -> None:
    try:
        judge(case, lang="zh")
    except CaseError as exc:
        assert "\n" not in str(exc)
