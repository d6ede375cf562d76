"""Shared builders for the printing tests: made-up names only."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CASE = HERE / "data" / "round3-table5.json"

GROUNDS = (
    "我方认为本判罚不当。第3副第12墩时，西家垫牌，牌从手中滑落，并非有意出错牌；现场裁判当时未看清楚牌的去向，"
    "仅凭北家的陈述即作出判罚。根据竞赛规则二、5，出错牌是指跟错牌、垫错牌、错将吃，而本次并非出牌行为，"
    "不应适用该条款！另外，本墩结果未受影响，对方也未因此获益；我方请求仲裁委员会撤销该判罚，恢复原来的得分。"
    "“以上所述，均属实”，请予核查：录像（2号机位，15:01–15:03）可以为证。对方（南北方）亦无异议？"
    "《竞赛规则》第二部分、第5条「出错牌」所指为出牌。"
) * 3


def run_cli(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    full_env = dict(os.environ)
    full_env.pop("REFEREE_APP_KEY_PASSPHRASE", None)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "referee_app", *args],
        capture_output=True,
        text=True,
        env=full_env,
        cwd=str(cwd or ROOT),
        timeout=120,
    )


def pdftotext(path: Path, layout: bool = False) -> str:
    cmd = ["pdftotext", "-enc", "UTF-8"] + (["-layout"] if layout else []) + [str(path), "-"]
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


def signature_png(seed: int = 0) -> bytes:
    from PIL import Image, ImageDraw

    im = Image.new("RGBA", (300, 90), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    pts = [(10 + i * 14, 45 + ((i * 37 + seed * 11) % 40) - 20) for i in range(20)]
    d.line(pts, fill=(20, 30, 120, 255), width=4)
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


def scoresheet(lang: str = "zh") -> Any:
    from referee_app.printing.data import Voiding, scoresheet_from_case

    data = scoresheet_from_case(json.loads(CASE.read_text("utf-8")), lang, date="2024-05-18")
    data.signer_names.update(table_referee="钱七", chief_referee="孙八")
    data.signatures = {"ns_player_1": signature_png(1), "table_referee": signature_png(2)}
    data.voidings.append(
        Voiding("第2轮第5桌原记录", "双方确认第4副得分录入有误，作废后重新录入。", "孙八", "2024-05-18 15:20")
    )
    return data


def appeal(decided: bool = True, filed_minute: int = 47) -> Any:
    from referee_app.core.rulebook import load_rulebook
    from referee_app.printing.data import AppealFormData, event_header, infraction_labels

    rb = load_rulebook("bhg-2011")
    sheet = scoresheet()
    ruling = sheet.decision["hands"][2]["rulings"][0]
    data = AppealFormData(
        event=event_header(rb, "2024-05-18"),
        ruling=ruling,
        by_side="EW",
        filed_at=datetime(2024, 5, 18, 15, filed_minute),
        grounds=GROUNDS,
        window_minutes=rb.data["appeal"]["window_minutes"],
        window_from=rb.data["appeal"]["window_from"],
        window_start=datetime(2024, 5, 18, 15, 30),
        fee_yuan=rb.data["appeal"]["fee_yuan"],
        appeal_clause=rb.data["appeal"]["clause"],
        round=3,
        table=5,
        hand=3,
        appeal_no="A-2024-003",
        by_pair=sheet.pairs["EW"],
        infraction_label=infraction_labels(rb)["wrong_play"],
        ruled_at=datetime(2024, 5, 18, 15, 2),
        receipt_no="No. 0012345",
        evidence="现场录像（2号机位）",
        late_accepted_by="孙八",
        chief_referee="孙八",
        committee=["周九", "吴十", "郑十一"],
    )
    if decided:
        data.decision = "upheld"
        data.decision_reasons = "经查看录像，牌系滑落，非出牌行为，申诉成立，撤销原判罚。"
        data.new_sanction = "不处罚"
        data.decided_at = datetime(2024, 5, 18, 16, 20)
        data.signatures = {"committee_1": signature_png(3)}
    return data


def store_with_case(folder: Path, name: str = "签名杯") -> Path:
    """An event store holding :data:`CASE` as round 3 table 5 (pairs 12 and 7): a record
    that may be signed (a sheet from a case file is not)."""
    db = folder / "event.db"
    pairs = folder / "pairs.csv"
    pairs.write_text(
        "number,player1,player2,unit\n12,张三,李四,海淀区桥牌协会\n7,王五,赵六,朝阳区体育总会\n", "utf-8"
    )
    case = folder / "case-for-the-store.json"
    case.write_text(json.dumps(store_case(), ensure_ascii=False), "utf-8")
    for args in (
        ("event", "create", "--rules", "bhg-2011", "--name", name, "--date", "2024-05-18"),
        ("pairs", "import", str(pairs)),
        ("record", str(case)),
    ):
        proc = run_cli("--db", str(db), *args)
        assert proc.returncode == 0, proc.stderr
    return db


def store_case() -> dict[str, Any]:
    """:data:`CASE` as the store records it: the pairs by number."""
    raw = json.loads(CASE.read_text("utf-8"))
    raw["pairs"] = {side: pair["number"] for side, pair in raw["pairs"].items()}
    return raw
