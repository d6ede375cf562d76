"""The rulebook editor's draft (app/rulebook_editor.py, issue 25 item 2): the file's own TOML
document changed in place, so an edited rulebook differs from its file only in what was
edited, and what the editor adds is written as the bundled files write it."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from referee_app.app.rulebook_editor import Draft, fields, model_of, open_draft, save_draft
from referee_app.core.errors import RulebookError

from .conftest import RULES


def changed_lines(before: str, after: str) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


@pytest.mark.parametrize("rid", ["bhg-2011", "gansu-2018", "hbue-2018"])
def test_a_draft_left_alone_is_its_file_byte_for_byte(rid: str) -> None:
    text = (RULES / f"{rid}.toml").read_text(encoding="utf-8")
    assert Draft(text, f"{rid}.toml").text() == text


def test_an_edit_changes_only_its_line_and_an_added_key_is_written_as_the_files_write_one() -> None:
    text = (RULES / "bhg-2011.toml").read_text(encoding="utf-8")
    draft = Draft(text, "club.toml")
    draft.set(("bottom", "throw_value"), 4)
    draft.set(("round", "tie_clause", "assumed"), True)  # a key added to an inline table
    draft.set(("round", "tie_clause", "zh"), '逢"J"必打')  # ASCII quotes inside: escaped, not broken
    assert changed_lines(text, draft.text()) == [
        "-throw_value = 3",
        "+throw_value = 4",
        '-tie_clause = { ref = "比赛方法", title = "平局", zh = "先过A者或级数高者为胜，胜者得积分2分，平得1分。", '
        'en = "Equal levels at the end of the round: a draw, 1 match point each." }',
        '+tie_clause = { ref = "比赛方法", title = "平局", zh = "逢\\"J\\"必打", '
        'en = "Equal levels at the end of the round: a draw, 1 match point each.", assumed = true }',
    ]
    assert draft.problems() == []
    draft.remove(("round", "tie_clause", "assumed"))
    assert 'en = "Equal levels at the end of the round: a draw, 1 match point each." }\n' in draft.text()


def test_a_new_part_holds_its_required_keys_and_its_problems_name_what_is_left() -> None:
    draft = Draft((RULES / "bhg-2011.toml").read_text(encoding="utf-8"), "club.toml")
    draft.set(("scoring", "j_rule"), draft.new_part("JRule", ("scoring", "j_rule")))
    draft.add_item(("scoring", "dealer_bands"), "Band")
    text = draft.text()
    assert '\n[scoring.j_rule]\nlevel = "2"\nsingle_to = "2"\npair_to = "2"\n' in text
    assert 'clause = { ref = "", title = "", zh = "", en = "" }\n' in text
    assert "  { upto = 0, gain = 0 },\n]" in text
    said = [str(p) for p in draft.problems()]
    assert [s.split(": ")[1] for s in said] == [
        "scoring.dealer_bands",
        "scoring.j_rule.clause.ref",
        "scoring.j_rule.clause.title",
        "scoring.j_rule.clause.zh",
        "scoring.j_rule.clause.en",
    ], said
    assert model_of(("infractions", "delay", "rules", 0, "sanction")) == "Sanction"
    assert [f.kind for f in fields("Band")] == ["int", "int"]


def test_saving_writes_the_draft_to_its_file_and_says_whether_an_event_can_use_it(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text((RULES / "hbue-2018.toml").read_text(encoding="utf-8"), encoding="utf-8")
    draft = open_draft(path)
    draft.set(("appeal", "fee_yuan"), -5)
    saved = save_draft(draft)
    assert (
        saved.rulebook is None and len(saved.problems) == 1 and "fee_yuan = -5\n" in path.read_text("utf-8")
    )
    draft.set(("appeal", "fee_yuan"), 50)
    saved = save_draft(draft)
    assert saved.rulebook is not None and saved.rulebook.data["appeal"]["fee_yuan"] == 50
    assert not draft.changed
    path.write_text("id = [", encoding="utf-8")
    with pytest.raises(RulebookError) as caught:
        open_draft(path)
    assert caught.value.code == "rulebook.problem.toml_end"
