"""A fourth event is added by writing a rulebook, not by touching code.

Its rules are unlike the bundled three: 5, 10 and K are mandatory; the scoring bands are
25 points wide; a failed throw costs (thrown − 1) × 10; a wrong follow costs the offender a
level after the hand, and the round on the 3rd time in the round.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee_app.core.engine import judge
from referee_app.core.errors import CaseError
from referee_app.core.rulebook import check_files, load_rulebook

C = 'clause = {{ ref = "{ref}", title = "{title}", zh = "{title}", en = "{title}" }}'


def clause(ref: str, title: str) -> str:
    return C.format(ref=ref, title=title)


FOURTH = f"""
schema_version = 1
id = "city-open-2026"

[event]
name = {{ zh = "市双升公开赛", en = "City Shengji Open" }}
organiser = {{ zh = "市棋牌协会", en = "City card games association" }}
year = 2026
source = "竞赛规程"
format = {{ zh = "积分编排", en = "Swiss" }}

[levels]
mandatory = ["5", "10", "K", "A"]
{clause("第三条", "必打级")}

[scoring]
deal_changes_at = 75
step = 25
dealer_bands = [{{ upto = 0, gain = 4 }}, {{ upto = 20, gain = 3 }}, {{ upto = 45, gain = 2 }}, {{ upto = 70, gain = 1 }}]
{clause("第四条", "升级")}

[bottom]
single = 2
pair = 4
tractor = "linear"
throw = "fixed"
throw_value = 3
{clause("第五条", "抠底")}

[next_dealer]
{clause("第六条", "轮庄")}

[hand_loss]
mode = "levels"
award = {{ dealer_offends = 1, defenders_offend = 2 }}
both_sides = "open_grab"
{clause("第七条", "判负")}

[forfeit]
offender_points = 0
opponent_points = 3
offender_level = "2"
opponent_level = "2"
{clause("第八条", "弃权")}

[match_points]
win = 3
draw = 1
loss = 0
{clause("第九条", "积分")}

[round]
minutes = 50
warning_minutes_left = 5
hands_after_warning = 1
warning_includes_current = true
warning_text = {{ zh = "最后一副", en = "Last hand" }}
tie = "last_dealer_side"
tie_clause = {{ ref = "第十条", title = "平局", zh = "平局", en = "tie" }}
{clause("第十条", "比赛时间")}

[standings]
tie_breaks = ["match_points", "opponents_score", "progressive_score", "lots"]
{clause("第十一条", "名次")}

[appeal]
window_minutes = 15
window_from = "round_end"
fee_yuan = 100
refunded_if_upheld = true
{clause("第十二条", "申诉")}

[counters.wrong_play]
scope = "round"
[[counters.wrong_play.steps]]
from_count = 3
sanction = {{ round_forfeit = true }}
{clause("第十五条", "跟错三次")}
"""

OTHER_KINDS = [
    "late_arrival",
    "out_of_turn",
    "wrong_card_count",
    "bottom_miscount",
    "exposed_card",
    "hidden_card",
    "wrong_declaration",
    "unreasonable_play",
    "illegal_signal",
    "delay",
    "trick_handling",
    "misconduct",
]
for kind in OTHER_KINDS:
    FOURTH += f"""
[infractions.{kind}]
label = {{ zh = "{kind}", en = "{kind}" }}
[[infractions.{kind}.rules]]
id = "warning"
sanction = {{ warning = true }}
{clause("第二十条", kind)}
"""
FOURTH += f"""
[infractions.failed_throw]
label = {{ zh = "甩牌失败", en = "Failed throw" }}
[[infractions.failed_throw.rules]]
id = "thrown_less_one"
sanction = {{ points_thrown_less_one = 10 }}
{clause("第十三条", "甩牌失败")}

[infractions.wrong_play]
label = {{ zh = "跟错牌", en = "Wrong follow" }}
[[infractions.wrong_play.rules]]
id = "level"
counter = "wrong_play"
sanction = {{ levels = {{ offender = -1 }} }}
{clause("第十四条", "跟错牌")}
"""


@pytest.fixture()
def rulebook_path(tmp_path: Path) -> Path:
    path = tmp_path / "city-open-2026.toml"
    path.write_text(FOURTH, encoding="utf-8")
    return path


def play(path: Path, hands: list[dict], **extra) -> dict:
    return judge({"event": str(path), "first_dealer": "S", "hands": hands, "finished": "open", **extra})


def test_the_rulebook_is_valid(rulebook_path: Path) -> None:
    assert check_files([str(rulebook_path)]) == []
    assert load_rulebook(str(rulebook_path)).id == "city-open-2026"


def test_25_point_bands_and_mandatory_5(rulebook_path: Path) -> None:
    out = play(rulebook_path, [{"defender_points": 0}], levels={"NS": "3", "EW": "2"})
    # 0 points: dealer side +4 from 3, but 5 is mandatory: it stops on 5.
    assert out["hands"][0]["levels_after"] == {"NS": "5", "EW": "2"}
    out = play(rulebook_path, [{"defender_points": 125}])
    # 125 ≥ 75: defenders (EW) take the deal with (125 − 75) / 25 = +2.
    assert out["hands"][0]["levels_after"] == {"NS": "2", "EW": "4"}
    assert out["hands"][0]["next_dealer"] == "E"


def test_failed_throw_costs_thrown_less_one(rulebook_path: Path) -> None:
    throw = {"kind": "failed_throw", "seat": "E", "cards": 1, "thrown": 5, "trick": 4}
    out = play(rulebook_path, [{"defender_points": 30, "infractions": [throw]}])
    ruling = out["hands"][0]["rulings"][0]
    assert ruling["points"] == 40 and ruling["against"] == "EW"
    assert out["hands"][0]["defender_total"] == 0  # defenders EW: 30 − 40 → 0
    with pytest.raises(CaseError, match=r"infractions\[0\]\.thrown: required"):
        play(
            rulebook_path,
            [
                {
                    "defender_points": 30,
                    "infractions": [{k: v for k, v in throw.items() if k != "thrown"}],
                }
            ],
        )


def test_wrong_follow_costs_a_level_then_the_round(rulebook_path: Path) -> None:
    wrong = {"kind": "wrong_play", "seat": "N", "trick": 2}
    out = play(
        rulebook_path,
        [{"defender_points": 40, "infractions": [wrong]}],
        levels={"NS": "7", "EW": "4"},
    )
    # NS deal at 7 and keep it with 40 (+2 → 9), then lose a level for the wrong follow.
    assert out["hands"][0]["levels_after"] == {"NS": "8", "EW": "4"}
    out = play(
        rulebook_path,
        [
            {"defender_points": 40, "infractions": [wrong]},
            {"defender_points": 40, "infractions": [wrong]},
            {"defender_points": 40, "infractions": [wrong]},
        ],
        levels={"NS": "7", "EW": "4"},
        finished="time",
    )
    third = out["hands"][2]["rulings"][0]
    assert third["round_forfeit"] and third["occurrence"] == 3
    assert out["forfeit"]["side"] == "NS"
    assert out["result"]["winner"] == "EW" and out["result"]["match_points"] == {"NS": 0, "EW": 3}


def test_a_round_won_on_levels_cites_the_match_points_clause_where_no_result_clause_is_given(
    rulebook_path: Path,
) -> None:
    out = play(rulebook_path, [{"defender_points": 70}], finished="time")
    result = out["result"]
    assert result["winner"] == "NS" and result["decided_by"] == "levels"
    assert result["citation"] == result["match_points_citation"] == "第九条 积分"


def test_the_command_line_judges_with_it(rulebook_path: Path, tmp_path: Path) -> None:
    case = tmp_path / "case.json"
    case.write_text(
        json.dumps(
            {
                "event": str(rulebook_path),
                "first_dealer": "S",
                "finished": "time",
                "hands": [{"defender_points": 70}],
            }
        ),
        encoding="utf-8",
    )
    run = subprocess.run(
        [sys.executable, "-m", "referee_app", "--lang", "en", "judge", str(case)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["event"] == "city-open-2026"
    assert out["result"]["winner"] == "NS" and out["result"]["match_points"]["NS"] == 3
