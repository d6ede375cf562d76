"""The demo event (示例赛事): a Gansu 2018 event to try everything without risk.

``referee-app demo`` and the window's 赛事 → 打开示例赛事 build it into a store file of its
own, never the station's store: 12 pairs (made-up names), round 1 drawn and published, six
tables played with rulings of several kinds, every table signed, an appeal against a
hidden-card hand loss that the arbitration committee modified to a warning (the table then
signed again), and an appeal against an exposed card left open for the committee to try.
Every step is one of the application's operations (:class:`Session`), the
same the window and the command line use, so the demo's audit chain verifies like any
event's.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from ..core import editing
from ..core.rulebook import load_rulebook
from ..locations import user_data_dir
from ..store.pairs_csv import parse_pairs
from ..store.service import Actor, Store
from .errors import InputError
from .session import Session

DEMO_RULEBOOK = "gansu-2018"
#: Made-up players and units (no one's real name); 𠮷 (outside the BMP) on purpose: the
#: printing, the window and a Windows console must all show it.
DEMO_PAIRS = """number,player1,player2,unit
1,赵明远,钱思雨,兰州代表队
2,孙立新,李晓燕,天水代表队
3,周建华,吴丽娟,酒泉代表队
4,郑国强,王春梅,张掖代表队
5,冯志刚,陈秀英,武威代表队
6,褚海峰,卫美玲,白银代表队
7,蒋文博,沈雅琴,平凉代表队
8,韩东升,杨晓红,庆阳代表队
9,朱永军,秦玉兰,定西代表队
10,尤建平,许桂芳,陇南代表队
11,何振华,吕淑珍,临夏代表队
12,𠮷小川,施慧敏,甘南代表队
"""
CHIEF = Actor("示例裁判长", "demo-desk", "chief_referee")
TABLE_REFEREE = Actor("示例裁判员", "demo-table", "table_referee")
COMMITTEE = ["示例仲裁甲", "示例仲裁乙", "示例仲裁丙"]
SIGNERS = ("N", "E", "S", "W", "referee")


@dataclass(frozen=True)
class DemoEvent:
    """What was built: the store file, the event's id and name, and what it holds."""

    path: Path
    event_id: int
    name: str
    pairs: int
    tables: int
    #: appeals decided by the committee, and still open (for the committee to try deciding)
    decided: int
    open: int


def default_demo_path(today: date | None = None) -> Path:
    """A new file in the user data folder, beside (never in place of) the station's store."""
    stamp = (today or date.today()).strftime("%Y%m%d")
    folder = user_data_dir() / "demo"
    n = 1
    while (folder / f"demo-{stamp}-{n}.sqlite").exists():
        n += 1
    return folder / f"demo-{stamp}-{n}.sqlite"


def _signature(seed: int) -> bytes:
    """A hand-drawn-looking stroke (PNG), as the window's pad gives it."""
    from PIL import Image, ImageDraw

    image = Image.new("RGBA", (260, 110), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    points = [(20 + i * 22, 55 + ((i * (seed + 3)) % 5 - 2) * 12) for i in range(11)]
    draw.line(points, fill=(20, 30, 120, 255), width=3)
    draw.line([(40, 85), (200, 80 - seed * 4)], fill=(20, 30, 120, 255), width=2)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


#: Per table: the infractions of each hand, then the hand's points (defenders' card points,
#: the bottom). A table's round ends on time after its hands.
_Hand = tuple[list[dict[str, Any]], int, dict[str, Any]]
_NO_BOTTOM: dict[str, Any] = {"points": 0, "captured": False}
_LIGHT_EXPOSED = {"kind": "exposed_card", "seat": "N", "cards": 1, "trick": 3, "severity": "light"}
_HEAVY_EXPOSED = {"kind": "exposed_card", "seat": "W", "cards": 2, "trick": 8, "severity": "heavy"}
#: West's hidden card, found three tricks later, ruled as affecting the result: the hand is lost
#: (六、六、D2); the appeal against it is the demo's committee decision.
_HIDDEN = {
    "kind": "hidden_card",
    "seat": "W",
    "cards": 1,
    "trick": 4,
    "discovered": 6,
    "affects_result": True,
}
TABLE_PLAY: dict[int, list[_Hand]] = {
    1: [
        ([_LIGHT_EXPOSED], 60, _NO_BOTTOM),
        ([], 85, {"points": 10, "captured": True, "shape": "single"}),
        ([], 40, _NO_BOTTOM),
    ],
    2: [
        ([], 75, _NO_BOTTOM),
        ([_HIDDEN], 40, {"points": 10, "captured": False}),
        ([], 120, {"points": 20, "captured": True, "shape": "pair"}),
    ],
    3: [
        ([{"kind": "delay", "seat": "S", "what": "follow"}], 55, _NO_BOTTOM),
        ([], 90, _NO_BOTTOM),
    ],
    4: [
        ([{"kind": "wrong_play", "seat": "E", "cards": 1, "trick": 5}], 35, _NO_BOTTOM),
        ([], 65, {"points": 15, "captured": True, "shape": "single"}),
        ([], 80, _NO_BOTTOM),
    ],
    5: [
        ([], 100, _NO_BOTTOM),
        ([_HEAVY_EXPOSED], 70, _NO_BOTTOM),
    ],
    6: [
        ([], 45, _NO_BOTTOM),
        ([], 130, {"points": 25, "captured": True, "shape": "pair"}),
        ([], 20, _NO_BOTTOM),
    ],
}
#: Table 5 starts with East-West five minutes late (a ruling before play).
LATE_AT_TABLE = 5
APPEALED_TABLE = 2
OPEN_APPEAL_TABLE = 1


def build_demo(path: Path, lang: str = "zh") -> DemoEvent:
    """Build the demo event into a new store file at ``path`` (refused, nothing written, if
    a file is already there: the demo never goes into an existing store)."""
    path = Path(path).expanduser().absolute()
    if path.exists():
        raise InputError(
            f"{path}: already exists; the demo event goes into a new file only",
            code="demo.exists",
            path=str(path),
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    store = Store.open(str(path), create=True, actor=CHIEF)
    try:
        name = "2026年甘肃省双升锦标赛（示例）" if lang == "zh" else "2026 Gansu Shengji Championship (demo)"
        rulebook = load_rulebook(DEMO_RULEBOOK)
        info = Session.create_event(store, name, rulebook, date.today().isoformat(), CHIEF)
        desk = Session(store, info, CHIEF, lang)
        rows = parse_pairs(DEMO_PAIRS, "demo-pairs.csv")
        store.import_pairs(info.id, rows, actor=CHIEF, source="demo-pairs.csv")
        drawn = desk.round_pairing(1)
        _errors, warnings = drawn.check()
        desk.publish_pairing(drawn, warnings)

        table = Session(store, info, TABLE_REFEREE, lang)
        for record in table.tables(1):
            case = record.case
            if record.table == LATE_AT_TABLE:
                case = editing.add_infraction(case, {"kind": "late_arrival", "side": "EW", "minutes": 5})
            for infractions, points, bottom in TABLE_PLAY.get(record.table, []):
                for infraction in infractions:
                    case = editing.add_infraction(case, infraction)
                case = editing.complete_hand(case, points, 0, bottom)
            record = table.save(record, editing.end_on_time(case))
            table.sign(record, {who: _signature(n + record.table) for n, who in enumerate(SIGNERS)})

        appealed = table.table(1, APPEALED_TABLE)
        assert appealed is not None
        [hidden] = [r for r in table.rulings(appealed) if r["kind"] == "hidden_card"]
        appeal = desk.file_appeal(
            hidden["id"],
            "EW",
            "藏牌已被及时发现，并未影响本副结果，请求改判。",
            evidence="本桌记分表：藏牌在本副第三轮即被发现。",
            receipt="示例-0001",
        )
        desk.review_appeal(appeal["id"])
        committee = Session(store, info, Actor("示例仲裁甲", "demo-committee", "arbitration"), lang)
        reason = "经仲裁委员会审议：藏牌未影响结果，改判为警告"
        committee.decide_appeal(appeal["id"], "modified", reason, COMMITTEE, ["warning"])
        again = table.table(1, APPEALED_TABLE)
        assert again is not None
        table.sign(again, {who: _signature(n + 7) for n, who in enumerate(SIGNERS)})
        # an appeal left open, for whoever tries the demo to review and decide (F7)
        first = table.table(1, OPEN_APPEAL_TABLE)
        assert first is not None
        [exposed] = [r for r in table.rulings(first) if r["kind"] == "exposed_card"]
        desk.file_appeal(
            exposed["id"],
            "NS",
            "该牌系被对方碰落，并非本方暴露；请求撤销判罚。",
            evidence="邻桌裁判员目睹对方碰落该牌。",
            receipt="示例-0002",
        )
        appeals = desk.appeals()
        decided = sum(1 for a in appeals if not a["open"])
        tables = len(table.tables(1))
        return DemoEvent(path, info.id, name, len(rows), tables, decided, len(appeals) - decided)
    finally:
        store.close()
