"""``verify`` under zh says every problem in Chinese (issue 28 item 6): each line the audit
check writes in English is worded from the catalogue's ``[verify.problem]``, its values kept,
and ``verify --help`` says truthfully that it reports all of them."""

from __future__ import annotations

import re
from pathlib import Path

from store_helpers import PAIRS_CSV, cli, drop_guards, sql

from referee_app.app.messages import catalogue

AUDIT_SOURCE = Path(__file__).resolve().parents[2] / "referee_app" / "store" / "audit.py"


def tampered_store(tmp_path: Path) -> tuple[str, Path]:
    """Pairs imported twice, the log's head noted outside (an anchor file); then a player
    renamed behind the store's back and the last entry (the second import) deleted."""
    db = str(tmp_path / "event.sqlite")
    assert cli(db, "event", "create", "--rules", "gansu-2018", "--name", "省赛")[0] == 0
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(PAIRS_CSV, encoding="utf-8")
    assert cli(db, "pairs", "import", str(pairs))[0] == 0
    more = tmp_path / "more.csv"
    more.write_text("number,player1,player2,unit\n9,甲一,乙二,\n", encoding="utf-8")
    assert cli(db, "pairs", "import", str(more))[0] == 0
    anchors = tmp_path / "anchors.txt"
    assert cli(db, "anchor", "-o", str(anchors))[0] == 0
    drop_guards(db, "players", "audit_log")
    sql(db, "UPDATE players SET name = '改名' WHERE id = 3")
    sql(db, "DELETE FROM audit_log WHERE seq = (SELECT max(seq) FROM audit_log)")
    return db, anchors


def test_every_problem_verify_finds_is_said_in_chinese_with_its_values(tmp_path: Path) -> None:
    db, anchors = tampered_store(tmp_path)
    rc, out, err = cli(db, "verify", "--anchors", str(anchors), lang="zh")
    assert rc == 1 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) >= 4, err
    assert any(
        re.fullmatch(r"审计记录有问题：选手表第 \d+ 行自称写于第 \d+ 条记录，但该记录不存在", x)
        for x in lines
    )
    assert any(
        re.fullmatch(
            r"审计记录有问题：日志被截断：只有 \d+ 条记录，而库外记下了第 \d+ 条（哈希 [0-9a-f]+…）", x
        )
        for x in lines
    )
    changed = next(line for line in lines if "被改动" in line)
    assert re.fullmatch(
        r"审计记录有问题：第 \d+ 条记录（导入参赛对，\S+，\S+@\S+）：选手表第 3 行被改动：名称现为 '改名'，记录中为 '\S+'",
        changed,
    ), changed
    for line in lines:  # no English sentence left: only values (hashes, times, stations)
        assert not re.search(r"\b(entry|the|is|was|names|missing|changed)\b", line), line
        assert "未能译出" not in line, line

    rc, _, english = cli(db, "verify", "--anchors", str(anchors), lang="en")
    assert rc == 1 and "audit log: the log was truncated: it has" in english
    assert len(english.splitlines()) == len(lines)  # the same problems, every one of them


def test_each_kind_of_problem_line_is_one_the_audit_check_writes() -> None:
    """The catalogue's English texts are the store's own lines: each literal piece of each
    template is in store/audit.py (a line reworded there must be reworded here too)."""
    # adjacent string literals joined, as Python joins them ("…the "\n  f"key…")
    source = re.sub(r'"\s*\n\s*f?"', "", AUDIT_SOURCE.read_text(encoding="utf-8"))
    kinds = {c: e for c, e in catalogue("errors").items() if c.startswith("verify.problem.")}
    assert len(kinds) >= 25
    for code, entry in kinds.items():
        if code.endswith(".unworded"):
            continue
        for piece in re.split(r"\{\w+\}", str(entry["en"])):
            for words in (w.strip() for w in re.split(r"[#…()]", piece)):
                if len(words) > 3:
                    assert words in source, f"{code}: {words!r} is not in store/audit.py"


def test_verify_help_says_it_reports_every_problem() -> None:
    for lang, words in (("en", "report every problem"), ("zh", "列出发现的全部问题")):
        rc, out, _ = cli(None, "verify", "--help", lang=lang)
        assert rc == 0 and words in " ".join(out.split()), out
        assert "first bad entry" not in out and "第一条" not in out
