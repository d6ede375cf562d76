"""A new event's rulebook written by its chief referee (issue 25): started from a bundled one
(``rules new``, ``rules export``), its problems all listed in Chinese words with their lines,
the schema and the reference exported, and a trial bench against the bundled rulebook."""

from __future__ import annotations

import contextlib
import io
import os
from dataclasses import dataclass
from pathlib import Path

from referee_app.cli.main import main
from referee_app.core.rulebook import load_rulebook, rulebook_from_text

from .conftest import RULES


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str


def referee_app(*args: str, cwd: Path | None = None) -> Run:
    """The command line's entry point, in this process (the cli's own ``main``, as the
    installed command calls it): its exit code and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    before = Path.cwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exit_:  # argparse's own refusals
                code = int(exit_.code or 0)
    finally:
        os.chdir(before)
    return Run(code, out.getvalue(), err.getvalue())


def _one_line(run: Run) -> str:
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
    return lines[0]


def test_rules_new_copies_a_bundled_rulebook_under_the_new_id_and_it_judges_alike(tmp_path: Path) -> None:
    run = referee_app("--lang", "zh", "rules", "new", "club-2026", "--from", "hbue-2018", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    made = tmp_path / "club-2026.toml"
    assert _one_line(run) == "已写入 club-2026.toml（规则编号 club-2026）"
    new = rulebook_from_text(made.read_text(encoding="utf-8"), str(made), use_cache=False)
    base = load_rulebook("hbue-2018")
    assert new.id == "club-2026"
    # the whole text is kept, comments and clauses: only the id line differs, and the header
    assert base.source_text.replace('id = "hbue-2018"', 'id = "club-2026"', 1) in new.source_text
    assert new.source_text.startswith("# 新赛事的规则文件，由内置规则 hbue-2018")
    assert {k: v for k, v in new.data.items() if k != "id"} == {
        k: v for k, v in base.data.items() if k != "id"
    }


def test_rules_new_never_overwrites_a_file_unless_forced(tmp_path: Path) -> None:
    target = tmp_path / "mine.toml"
    target.write_text("# the chief referee's edits\n", encoding="utf-8")
    run = referee_app("--lang", "en", "rules", "new", "mine", "--from", "bhg-2011", "--out", str(target))
    assert run.returncode == 2 and _one_line(run) == f"{target}: already exists"
    assert target.read_text(encoding="utf-8") == "# the chief referee's edits\n"
    run = referee_app("--lang", "zh", "rules", "new", "mine", "--from", "bhg-2011", "--out", str(target))
    assert run.returncode == 2 and _one_line(run) == f"{target}：文件已存在。"
    forced = referee_app("rules", "new", "mine", "--from", "bhg-2011", "--out", str(target), "--force")
    assert forced.returncode == 0, forced.stderr
    assert 'id = "mine"' in target.read_text(encoding="utf-8")


def test_rules_new_refuses_a_bad_or_bundled_id_and_an_unknown_base_in_one_line(tmp_path: Path) -> None:
    for args, line in (
        (
            ("Club 2026", "--from", "bhg-2011"),
            "编号：“Club 2026”不能作规则编号：编号只用小写字母、数字、- 和 _（如 sj-2026）。",
        ),
        (
            ("gansu-2018", "--from", "bhg-2011"),
            "gansu-2018：已有内置规则用这个编号；请给新赛事另起一个编号。",
        ),
        (
            ("club", "--from", "nope"),
            "nope：没有这个编号的内置规则（内置：bhg-2011, gansu-2018, hbue-2018）。",
        ),
    ):
        run = referee_app("--lang", "zh", "rules", "new", *args, cwd=tmp_path)
        assert run.returncode == 2 and _one_line(run) == line
    assert list(tmp_path.iterdir()) == []


def test_rules_export_prints_the_text_as_it_is_or_writes_a_new_file(tmp_path: Path) -> None:
    run = referee_app("rules", "export", "gansu-2018")
    assert run.returncode == 0 and run.stdout == (RULES / "gansu-2018.toml").read_text(encoding="utf-8")
    out = tmp_path / "g.toml"
    assert referee_app("rules", "export", "gansu-2018", "--out", str(out)).returncode == 0
    assert out.read_text(encoding="utf-8") == run.stdout
    again = referee_app("--lang", "en", "rules", "export", "bhg-2011", "--out", str(out))
    assert again.returncode == 2 and _one_line(again) == f"{out}: already exists"
    assert out.read_text(encoding="utf-8") == run.stdout
