"""An event for the hall web page's tests, with what is published and what is not.

Round 1 is published and complete (every table has its result); round 2 is published and in
progress (one table finished with a ruling, the clock running); round 3 has only a kept
proposal (编排建议, unpublished). A second event in the same store is never served. The
markers in :data:`SECRETS` must never appear in anything the page sends."""

from __future__ import annotations

from typing import Any

from referee_app.app.session import Session
from referee_app.core.rulebook import load_rulebook
from referee_app.store.pairs_csv import parse_pairs
from referee_app.store.service import Actor, Store

CHIEF = Actor("裁判长", "desk")
NAMES = "张三 李四 王五 赵六 钱七 孙八 周九 吴十 郑一 冯二 陈三 褚四 卫五 蒋六 沈七 韩八 杨九 朱十".split()
OTHER_EVENT = "内部测试赛事"
OTHER_PLAYERS = ("隐藏甲", "隐藏乙")
PIN = "735194"
#: Words that are in the store but must never be in a page.
SECRETS = (OTHER_EVENT, *OTHER_PLAYERS, PIN, "第3轮", "Round 3", "round 3", "第2轮后", "after round 2")


def result(rnd: int, table: int, ns: str, ew: str, *, winner_points: int = 0) -> dict[str, Any]:
    return {
        "event": "gansu-2018",
        "round": rnd,
        "table": table,
        "pairs": {"NS": ns, "EW": ew},
        "first_dealer": "N",
        "hands": [{"defender_points": winner_points}],
        "finished": "time",
    }


def make_event(
    target: str, n: int = 8, *, rounds: int = 2, proposal: bool = True, pin: bool = True
) -> tuple[int, int]:
    """The event (its id) and the other one, in the store at ``target``; ``pin``: the chief
    referee's PIN set (a later write then needs it)."""
    with Store.open(target, create=True, actor=CHIEF) as s:
        ev = s.create_event(name="职工双升赛", rulebook=load_rulebook("gansu-2018"), date=None, actor=CHIEF)
        rows = "number,player1,player2\n" + "".join(
            f"{i},{NAMES[(2 * i - 2) % 18]},{NAMES[(2 * i - 1) % 18]}\n" for i in range(1, n + 1)
        )
        s.import_pairs(ev.id, parse_pairs(rows), actor=CHIEF, source="p.csv")
        other = s.create_event(name=OTHER_EVENT, rulebook=load_rulebook("gansu-2018"), date=None, actor=CHIEF)
        s.import_pairs(
            other.id,
            parse_pairs(f"number,player1,player2\n1,{OTHER_PLAYERS[0]},{OTHER_PLAYERS[1]}\n"),
            actor=CHIEF,
            source="o.csv",
        )
        session = Session(s, s.pick_event(ev.id), CHIEF)
        for rnd in range(1, rounds + 1):
            rp = session.round_pairing(rnd)
            session.publish_pairing(rp, rp.check()[1])
            for i, t in enumerate(rp.pairing.tables):
                if rnd < rounds:
                    s.record(
                        ev.id, result(rnd, t.table, t.ns, t.ew, winner_points=20 * i), actor=CHIEF, lang="zh"
                    )
        last = session.round_pairing(rounds)
        t = last.pairing.tables[0]
        s.record(ev.id, result(rounds, t.table, t.ns, t.ew, winner_points=40), actor=CHIEF, lang="zh")
        session.clock_act(rounds, "start")
        if proposal:
            rec = s.desk_records(ev.id, "pairing", rounds)
            assert rec
            # the next round's draw, kept and not published (a score-group round is not
            # kept: a kept proposal needs a drawn round, so keep one by hand)
            s.add_desk_record(
                ev.id,
                "proposal",
                rounds + 1,
                {"method": "entered", "seed": 99, "tables": [[1, "1", "2"]], "bye": None},
                actor=CHIEF,
            )
        if pin:
            session.set_pin("chief_referee", PIN)
        return int(ev.id), int(other.id)


def make_knockout(target: str, n: int = 8) -> int:
    """A knockout (hbue-2018): round 1 published and played, round 2 published."""
    with Store.open(target, create=True, actor=CHIEF) as s:
        ev = s.create_event(
            name="高校双升淘汰赛", rulebook=load_rulebook("hbue-2018"), date=None, actor=CHIEF
        )
        rows = "number,player1,player2\n" + "".join(
            f"{i},{NAMES[(2 * i - 2) % 18]},{NAMES[(2 * i - 1) % 18]}\n" for i in range(1, n + 1)
        )
        s.import_pairs(ev.id, parse_pairs(rows), actor=CHIEF, source="p.csv")
        session = Session(s, s.pick_event(ev.id), CHIEF)
        rp = session.round_pairing(1)
        session.publish_pairing(rp, rp.check()[1])
        for t in rp.pairing.tables:
            s.record(ev.id, result(1, t.table, t.ns, t.ew) | {"event": "hbue-2018"}, actor=CHIEF, lang="zh")
        rp = session.round_pairing(2)
        session.publish_pairing(rp, rp.check()[1])
        return int(ev.id)
