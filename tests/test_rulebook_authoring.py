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

from .conftest import ROOT, RULES


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


def _bhg_with_problems(tmp_path: Path) -> Path:
    """BHG's rulebook with three problems: a tractor rule that is no choice, a negative
    appeal window, a kind's label missing."""
    text = (RULES / "bhg-2011.toml").read_text(encoding="utf-8")
    broken = text.replace('tractor = "power"', 'tractor = "cubic"').replace(
        "window_minutes = 10", "window_minutes = -10"
    )
    label = next(line for line in broken.splitlines() if line.startswith("label = "))
    broken = broken.replace(label + "\n", "", 1)
    path = tmp_path / "draft.toml"
    path.write_text(broken, encoding="utf-8")
    return path


def _line(path: Path, text: str) -> int:
    return path.read_text(encoding="utf-8").splitlines().index(text) + 1


def test_rules_check_lists_every_problem_naming_fields_and_options_in_chinese(tmp_path: Path) -> None:
    path = _bhg_with_problems(tmp_path)
    run = referee_app("--lang", "zh", "rules", "check", str(path))
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    tractor = _line(path, 'tractor = "cubic"')
    assert lines == [
        f'{path}：抠底 › 拖拉机抠底倍数：应为 "power"（2 的 n+1 次方）、"linear"（2 × (n+1)） 之一，收到 "cubic"（第 {tractor} 行）。',
        f"{path}：申诉 › 申诉期限（分钟）：应大于 0，收到 -10（第 {_line(path, 'window_minutes = -10')} 行）。",
        f"{path}：违规及处罚 › 迟到 › 名称：缺少此项（第 {_line(path, '[infractions.late_arrival]')} 行）。",
    ]


def test_checks_across_the_rulebook_are_all_listed_a_missing_kind_with_its_line(tmp_path: Path) -> None:
    text = (RULES / "gansu-2018.toml").read_text(encoding="utf-8")
    start = text.index("[infractions.delay]")
    end = text.index("\n[infractions.", start + 1)
    draft = text[:start] + text[end + 1 :]  # the delay kind left out
    counters = [line for line in draft.splitlines() if line.startswith('counter = "')]
    for line in counters[:2]:
        draft = draft.replace(line, line.replace('counter = "', 'counter = "zz_'), 1)
    path = tmp_path / "draft.toml"
    path.write_text(draft, encoding="utf-8")
    run = referee_app("--lang", "zh", "rules", "check", str(path))
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2 and len(lines) == 3, run.stderr
    first_kind = next(n for n, line in enumerate(draft.splitlines(), 1) if line.startswith("[infractions."))
    assert (
        lines[0] == f"{path}：违规及处罚：每种违规都要有处罚规则，缺少“拖延比赛时间”（第 {first_kind} 行）。"
    )
    for line, counter in zip(lines[1:], counters[:2], strict=True):
        name = counter.split('"')[1]
        assert line.startswith(f"{path}：违规及处罚 › ") and "处罚规则第 1 项 › 计数器：" in line
        assert line.endswith(
            f"没有名为“zz_{name}”的计数器（第 {_line(path, counter.replace(name, 'zz_' + name))} 行）。"
        )
    english = referee_app("--lang", "en", "rules", "check", str(path)).stderr.splitlines()
    assert english[0] == f"{path}: infractions: every kind needs rules; missing delay (line {first_kind})"


def test_checks_across_parts_are_listed_beside_a_wrong_value_elsewhere_an_empty_text_in_words(
    tmp_path: Path,
) -> None:
    """pydantic skips the checks across the rulebook while any key is wrong; they run on the
    parts they read (the infractions, the counters) when those are sound, so the editor and
    ``rules check`` list every problem at once (issue 25 item 2)."""
    text = (RULES / "bhg-2011.toml").read_text(encoding="utf-8")
    draft = text.replace("fee_yuan = 200", "fee_yuan = -5").replace(
        'counter = "exposed_card"', 'counter = "exposed"', 1
    )
    draft = draft.replace('title = "升级", zh = "庄家与防家', 'title = "", zh = "庄家与防家', 1)
    path = tmp_path / "draft.toml"
    path.write_text(draft, encoding="utf-8")
    run = referee_app("--lang", "zh", "rules", "check", str(path))
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2 and len(lines) == 3, run.stderr
    emptied = next(
        line for line in draft.splitlines() if line.startswith('clause = { ref = "一、(十二)", title = ""')
    )
    assert lines[0] == f"{path}：计分与升级 › 条款 › 条款标题：不能为空（第 {_line(path, emptied)} 行）。"
    assert lines[1].startswith(f"{path}：申诉 › 申诉费（元）：应不小于 0，收到 -5")
    assert lines[2].startswith(
        f"{path}：违规及处罚 › 暴露张 › 处罚规则第 1 项 › 计数器：没有名为“exposed”的计数器"
    )
    # an infraction itself wrong: the checks that read the infractions wait for it (no guesses)
    wrong = draft.replace("sanction = { points_per_card = 10 }", "sanction = { points_per_card = -1 }", 1)
    path.write_text(wrong, encoding="utf-8")
    lines = referee_app("--lang", "zh", "rules", "check", str(path)).stderr.strip().splitlines()
    assert len(lines) == 3 and not any("计数器：没有名为" in line for line in lines), lines
    assert any("每张罚分：应不小于 0，收到 -1" in line for line in lines), lines


def test_a_toml_syntax_error_keeps_the_parsers_detail_in_chinese(tmp_path: Path) -> None:
    path = tmp_path / "quotes.toml"
    path.write_text('schema_version = 1\nid = "x"\ntitle = "逢"J"必打"\n', encoding="utf-8")
    run = referee_app("--lang", "zh", "rules", "check", str(path))
    assert run.returncode == 2
    assert _one_line(run) == (
        f"{path}：第 3 行第 12 列 TOML 语法错误：一行只能写一项：值之后还有多余的内容"
        '（文字中的英文双引号要写成 \\" 或改用中文引号“”）。'
    )
    english = referee_app("--lang", "en", "rules", "check", str(path))
    assert _one_line(english) == (
        f"{path}: TOML syntax error: Expected newline or end of document after a statement (at line 3, column 12)"
    )


def _draft(tmp_path: Path, base: str, *changes: tuple[str, str]) -> Path:
    made = tmp_path / "draft.toml"
    assert (
        referee_app("rules", "new", "club-2026", "--from", base, "--out", str(made), "--force").returncode
        == 0
    )
    text = made.read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    made.write_text(text, encoding="utf-8")
    return made


def test_the_trial_bench_flags_exactly_the_samples_a_changed_value_rules_otherwise(tmp_path: Path) -> None:
    """BHG's tractor multiplier changed from 2^(n+1) to 2×(n+1): the samples whose bottom is
    captured by a tractor are ruled otherwise, and only they; an unchanged copy differs nowhere."""
    same = referee_app("--lang", "zh", "rules", "try", str(_draft(tmp_path, "bhg-2011")))
    assert same.returncode == 0, same.stderr
    lines = same.stdout.splitlines()
    n = int(lines[0].split("共 ")[1].split(" 个样例")[0])
    assert (
        n >= 30
        and lines[0] == f"试判：规则 club-2026 对照内置规则 bhg-2011，共 {n} 个样例（其中自带案例 0 个）。"
    )
    assert lines[-1] == f"{n} 个样例中有 0 个与内置规则 bhg-2011 的判罚不同。"
    assert "= bhg-2-5-failed-throw.json：判罚相同" in lines
    assert (
        "    club-2026 = bhg-2011：第 1 副：甩错牌（南）：罚20分，从南北方（防守方）得分中扣除" in same.stdout
    )

    draft = _draft(tmp_path, "bhg-2011", ('tractor = "power"', 'tractor = "linear"'))
    run = referee_app("--lang", "zh", "rules", "try", str(draft))
    flagged = sorted(line[2:].split("：")[0] for line in run.stdout.splitlines() if line.startswith("≠ "))
    assert "bhg-1-12-bottom-tractor-3-pairs.json" in flagged and "bhg-2-5-failed-throw.json" not in flagged
    for name in flagged:  # each flagged sample captures the bottom with a tractor
        case = next(p for p in (ROOT / "tests" / "cases").rglob(name))
        assert '"tractor"' in case.read_text(encoding="utf-8"), name
    assert run.stdout.splitlines()[-1] == f"{n} 个样例中有 {len(flagged)} 个与内置规则 bhg-2011 的判罚不同。"
    i = run.stdout.splitlines().index("≠ bhg-1-12-bottom-tractor-3-pairs.json：判罚不同")
    assert run.stdout.splitlines()[i + 1 : i + 3] == [
        "    club-2026：第 1 副：防守方得40分，东西方连庄，升1级，下一副西家坐庄。",
        "    bhg-2011：第 1 副：防守方得80分，南北方上庄，下一副北家坐庄。",
    ]


def test_the_trial_bench_judges_the_chief_referees_own_cases_and_refuses_bad_input(tmp_path: Path) -> None:
    draft = _draft(tmp_path, "gansu-2018", ('tie = "draw"', 'tie = "last_dealer_side"'))
    own = tmp_path / "mine"
    own.mkdir()
    (own / "tie.json").write_text(
        '{"event": "club-2026", "first_dealer": "E", "finished": "time", '
        '"hands": [{"defender_points": 80}, {"defender_points": 80}]}',
        encoding="utf-8",
    )
    run = referee_app("--lang", "zh", "rules", "try", str(draft), str(own))
    assert run.returncode == 0, run.stderr
    out = run.stdout.splitlines()
    assert out[0].endswith("（其中自带案例 1 个）。")
    i = out.index(f"≠ {own / 'tie.json'}：判罚不同")
    # levels equal on time: the draft gives the round to the side that dealt the last hand
    assert out[i + 3] == "    club-2026：本轮：南北方胜（级数相同，最后一副的庄家方胜）。", out[i : i + 7]
    assert out[i + 6] == "    gansu-2018：本轮：平局（级数相同，平局）。"

    (own / "bad.json").write_text("{", encoding="utf-8")
    bad = referee_app("--lang", "zh", "rules", "try", str(draft), str(own / "bad.json"))
    assert (
        bad.returncode == 2
        and bad.stdout == ""
        and _one_line(bad).startswith(f"{own / 'bad.json'}：不是有效的 JSON")
    )
    plain = tmp_path / "plain.toml"
    plain.write_text(
        (RULES / "hbue-2018.toml").read_text(encoding="utf-8").replace('id = "hbue-2018"', 'id = "p"'),
        encoding="utf-8",
    )
    refused = referee_app("--lang", "zh", "rules", "try", str(plain))
    assert refused.returncode == 2 and _one_line(refused) == (
        f"{plain}：不是由内置规则复制而来，请指明对照的内置规则（bhg-2011, gansu-2018, hbue-2018 之一）。"
    )
    assert (
        "0 个与内置规则 hbue-2018"
        in referee_app("--lang", "zh", "rules", "try", str(plain), "--against", "hbue-2018").stdout
    )


def test_a_hand_loss_missing_its_shift_and_a_sanction_with_two_forms_are_listed_beside_their_parts_other_errors(
    tmp_path: Path,
) -> None:
    """Issue 25 item 2 "Validation as you type, every problem listed at once": the checks on
    the hand-loss part (its mode's key) and on a sanction's forms of counting points are the
    keys' own, so a wrong value elsewhere in the same part does not hide them."""
    text = (RULES / "bhg-2011.toml").read_text(encoding="utf-8")
    draft = text.replace("shift = 80\n", "", 1).replace(
        'both_sides = "by_points"', 'both_sides = "neither"', 1
    )
    draft = draft.replace(
        "sanction = { points_per_card = 10 }",
        "sanction = { points_per_card = 10, points = 20, suspension_rounds = -1 }",
        1,
    )
    path = tmp_path / "draft.toml"
    path.write_text(draft, encoding="utf-8")
    lines = referee_app("--lang", "zh", "rules", "check", str(path)).stderr.strip().splitlines()
    assert len(lines) == 4, lines
    assert any('判负 › 判负移分：判负计法为 "shift"（移分） 时必须给出' in line for line in lines), lines
    assert any("判负 › 双方判负：应为" in line for line in lines), lines
    assert any("处罚 › 每张罚分：罚分只能用一种计法，不能同时用 罚分、每张罚分" in line for line in lines), (
        lines
    )
    assert any("停赛轮数：应不小于 0" in line for line in lines), lines
