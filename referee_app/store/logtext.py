"""The audit trail as readable lines, in Chinese or English."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from ..core.seats import SEAT_NAMES
from ..core.text import FORFEIT_WORDS, sanction_summary, sanctions_text

SIDE = {"zh": {"NS": "南北", "EW": "东西"}, "en": {"NS": "NS", "EW": "EW"}}
ROLE = {
    "zh": {"table_referee": "裁判员", "chief_referee": "裁判长", "arbitration": "仲裁委员会"},
    "en": {
        "table_referee": "table referee",
        "chief_referee": "chief referee",
        "arbitration": "arbitration committee",
    },
}


def _role(v: Any, lang: str) -> str:
    return ROLE[lang].get(str(v), str(v))


def _when(at: str, local: bool = False) -> str:
    # 2026-11-30T11:40:02.123456Z -> 2026-11-30 11:40:02 UTC, or the station's local time
    if local:
        try:
            when = datetime.fromisoformat(str(at).replace("Z", "+00:00"))
        except ValueError:
            return str(at)
        return (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    return at[:19].replace("T", " ") + " UTC"


def _side(v: Any, lang: str) -> str:
    return SIDE[lang].get(v, str(v)) if v else "-"


def _count(n: Any, noun: str) -> str:
    """``1 hand``, ``2 hands``: the English count of a record's parts."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def describe(
    entry: Mapping[str, Any],
    lang: str,
    *,
    local: bool = False,
    kinds: Mapping[str, str] | None = None,
) -> list[str]:
    """One header line for the entry, plus indented detail lines (rulings of a record).
    ``local``: its time in the station's local time (the window), else UTC (the command line);
    ``kinds``: the event's words for its infraction kinds in ``lang`` (its rulebook's labels),
    so that a line names 藏张 rather than ``hidden_card``."""
    zh = lang == "zh"
    try:
        payload = json.loads(entry["payload"])
    except (TypeError, ValueError):
        payload = {}
    info = payload.get("info", {}) if isinstance(payload, dict) else {}
    rows = payload.get("rows", {}) if isinstance(payload, dict) else {}
    action = entry["action"]
    head = f"#{entry['seq']}  {_when(entry['at'], local)}  {entry['user_name']}@{entry['station']}  "
    if info.get("role"):  # the role the writer logged in as
        head += f"［{_role(info['role'], lang)}］" if zh else f"[{_role(info['role'], lang)}] "
    details: list[str] = []
    if action == "db.create":
        what = (
            f"创建数据库（结构版本 {info.get('to')}）"
            if zh
            else f"created the database (schema version {info.get('to')})"
        )
    elif action == "db.upgrade":
        what = (
            f"升级数据库结构：版本 {info.get('from')} → {info.get('to')}"
            if zh
            else f"upgraded the database schema from version {info.get('from')} to {info.get('to')}"
        )
    elif action == "event.create":
        sha = str(info.get("sha256", ""))[:12]
        what = (
            f"创建赛事 {entry['event_id']}「{info.get('name')}」，规则 {info.get('rulebook')}（sha256 {sha}）"
            if zh
            else f'created event {entry["event_id"]} "{info.get("name")}" under rulebook '
            f"{info.get('rulebook')} (sha256 {sha})"
        )
        if info.get("roles_enforced") is False:
            what += (
                "；尚未设置 PIN：裁判长设置 PIN 之前，任何人可做任何操作"
                if zh
                else "; no PINs yet: every action is allowed until the chief referee sets one"
            )
    elif action == "pin.set":
        r = _role(info.get("for_role"), lang)
        what = (
            f"{'更改' if info.get('changed') else '设置'} {r} 的 PIN（只存加盐哈希）；"
            "本赛事从此按角色检查权限"
            if zh
            else f"PIN {'changed' if info.get('changed') else 'set'} for the {r} (only a salted hash "
            "is kept); roles are enforced on this event"
        )
    elif action == "key.register":
        r = _role(info.get("for_role"), lang)
        fpr = str(info.get("fingerprint", ""))[:16]
        what = (
            f"登记站点 {info.get('for_station')} 的{r}密钥（指纹 {fpr}…）"
            + ("；这是信任根" if info.get("trust_root") else "")
            if zh
            else f"registered the {r} key of station {info.get('for_station')} (fingerprint {fpr}…)"
            + ("; the trust root" if info.get("trust_root") else "")
        )
    elif action == "key.revoke":
        r = _role(info.get("for_role"), lang)
        fpr = str(info.get("fingerprint", ""))[:16]
        what = (
            f"吊销站点 {info.get('for_station')} 的{r}密钥（指纹 {fpr}…），原因：{info.get('reason')}"
            if zh
            else f"revoked the {r} key of station {info.get('for_station')} (fingerprint {fpr}…): "
            f"{info.get('reason')}"
        )
    elif action == "auth.fail":
        r = _role(info.get("for_role"), lang)
        what = (
            f"{r} PIN 错误（连续第 {info.get('failures')} 次）"
            if zh
            else f"wrong PIN for the {r} ({info.get('failures')} in a row)"
        )
    elif action == "auth.ok":
        r = _role(info.get("for_role"), lang)
        what = f"{r} PIN 正确，错误次数清零" if zh else f"right PIN for the {r}; wrong PINs reset"
    elif action == "pairs.import":
        nums = ", ".join(str(n) for n in info.get("numbers", []))
        what = (
            f"从 {info.get('source')} 导入 {info.get('count')} 对：{nums}"
            if zh
            else f"imported {info.get('count')} pairs from {info.get('source')}: {nums}"
        )
    elif action in ("match.record", "match.correct"):
        p = info.get("pairs", {})
        v = info.get("version")
        if zh:
            sup = f"（取代第 {v - 1} 版）" if isinstance(v, int) and v > 1 else ""
            what = (
                f"记录 第 {info.get('round')} 轮 第 {info.get('table')} 桌 第 {v} 版{sup}："
                f"南北 {p.get('NS')} 对 东西 {p.get('EW')}，{info.get('hands')} 副，"
                f"{info.get('rulings')} 条判罚（改判 {info.get('overridden')} 条，"
                f"撤销 {info.get('voided', 0)} 条），"
                f"胜方 {_side(info.get('winner'), lang)}"
            )
            if info.get("forfeit"):
                cause = FORFEIT_WORDS.get(str(info.get("forfeit_cause")), FORFEIT_WORDS["forfeit"])
                what += f"，{_side(info.get('forfeit'), lang)} {cause['zh']}"
            corr = info.get("correction")
            if isinstance(corr, dict):
                signed = "，取代已签字的版本，需重新签字" if corr.get("replaces_signed") else ""
                src = f"（申诉 {corr['appeal_id']} 的裁决）" if corr.get("appeal_id") else "（裁判长更正）"
                what = "更正" + src + "：" + what + f"；理由：{corr.get('reason')}{signed}"
            what += _carried_text(info.get("carried"), lang)
        else:
            sup = f" (supersedes version {v - 1})" if isinstance(v, int) and v > 1 else ""
            what = (
                f"recorded round {info.get('round')} table {info.get('table')} version "
                f"{v}{sup}: NS {p.get('NS')} v EW {p.get('EW')}, {_count(info.get('hands'), 'hand')}, "
                f"{_count(info.get('rulings'), 'ruling')} ({info.get('overridden')} overridden, "
                f"{info.get('voided', 0)} voided), "
                f"winner {_side(info.get('winner'), lang)}"
            )
            if info.get("forfeit"):
                cause = FORFEIT_WORDS.get(str(info.get("forfeit_cause")), FORFEIT_WORDS["forfeit"])
                what += f", {info.get('forfeit')}: {cause['en']}"
            corr = info.get("correction")
            if isinstance(corr, dict):
                signed = (
                    "; replaces a signed version, to be signed again" if corr.get("replaces_signed") else ""
                )
                src = (
                    f" (decision on appeal {corr['appeal_id']})"
                    if corr.get("appeal_id")
                    else " (chief referee's correction)"
                )
                what = "correction" + src + ": " + what + f"; reason: {corr.get('reason')}{signed}"
            what += _carried_text(info.get("carried"), lang)
        hand_no = {h["id"]: h["number"] for h in rows.get("hands", [])}
        for r in rows.get("rulings", []):
            n = hand_no.get(r.get("hand_id"), 0)
            seat = r.get("seat") or ""
            pts = r.get("points", 0)
            extra = []
            try:
                full = json.loads(r.get("ruling_json") or "{}")
            except ValueError:
                full = {}
            # the offence in the reader's words: the rulebook's label the ruling carries, and
            # the seat's name (a record stored before rulings carried labels shows its kind)
            label = full.get("label") if isinstance(full.get("label"), dict) else {}
            kind = label.get(lang) or r.get("kind")
            seat = SEAT_NAMES[lang].get(seat, seat)
            if seat:
                kind = f"{kind}（{seat}）" if zh else f"{kind} ({seat})"
            # the sanction in the words of the paper (警告, 罚N分（东西方）, 判负 …); a record
            # stored before rulings were kept whole words its columns
            said = sanction_summary(
                full
                if full
                else {
                    "points": pts,
                    "against": r.get("against"),
                    "hand_lost": r.get("hand_lost"),
                    "disqualified": r.get("disqualified"),
                },
                lang,
                instruction=False,
            )
            if r.get("assumed"):
                extra.append("推定规则" if zh else "assumed rule")
            ex = (("，" if zh else ", ") + ("，" if zh else ", ").join(extra)) if extra else ""
            over = r.get("decision") == "overridden"
            voided = r.get("decision") == "voided"
            reason = str(r.get("reason") or "")
            if zh:
                dec = ("改判，理由：" + reason) if over else ("撤销，理由：" + reason) if voided else "确认"
                cite = r.get("citation") or r.get("rule")
                details.append(
                    f"    {f'第 {n} 副' if n else '开赛前'} {kind}：{said}{ex}；{dec}（{cite}）"
                    f"［判罚 {r.get('id')}］"
                )
            else:
                dec = ("overridden: " + reason) if over else ("voided: " + reason) if voided else "confirmed"
                details.append(
                    f"    {f'hand {n}' if n else 'before play'} {kind}: {said}{ex}; {dec} ({r.get('rule')})"
                    f" [ruling {r.get('id')}]"
                )
    elif action == "match.void":
        if zh:
            what = (
                f"作废 第 {info.get('round')} 轮 第 {info.get('table')} 桌 "
                f"第 {info.get('version')} 版，理由：{info.get('reason')}"
            )
        else:
            what = (
                f"voided round {info.get('round')} table {info.get('table')} version "
                f"{info.get('version')}, reason: {info.get('reason')}"
            )
    elif action == "match.sign":
        what = (
            f"签字 第 {info.get('round')} 轮 第 {info.get('table')} 桌 第 {info.get('version')} 版"
            f"（北、东、南、西、裁判），该版本已锁定"
            if zh
            else f"signed round {info.get('round')} table {info.get('table')} version "
            f"{info.get('version')} (N, E, S, W, referee); the version is locked"
        )
    elif action == "event.key":
        sha = str(info.get("sha256", ""))[:16]
        what = (
            f"为赛事 {entry['event_id']} 生成签名密钥：{info.get('subject')}（sha256 {sha}）"
            if zh
            else f"stored the signing key of event {entry['event_id']}: {info.get('subject')} (sha256 {sha})"
        )
    elif action.startswith("appeal."):
        what = _appeal_text(entry, info, lang, local, kinds or {})
    elif action in ("store.backup", "store.round_copy", "store.restore", "audit.anchor"):
        what = _keeping_text(action, info, zh)
    elif action.startswith("desk.") and action[5:] in DESK_WORDS:
        words = DESK_WORDS[action[5:]]["zh" if zh else "en"]
        what = words.format(round=entry.get("round_no") or "-", version=info.get("version", 1))
        if info.get("clock") in CLOCK_WORDS:
            minutes = int(info.get("minutes") or 0)
            what += CLOCK_WORDS[str(info["clock"])]["zh" if zh else "en"].format(
                minutes=abs(minutes), sign="+" if minutes > 0 else "−"
            )
        if info.get("reason"):
            what += f"，原因：{info['reason']}" if zh else f"; reason: {info['reason']}"
    else:
        what = action
    return [head + what, *details]


def _keeping_text(action: str, info: Mapping[str, Any], zh: bool) -> str:
    """A backup taken, a store restored, an anchor kept (``store.backup``; issue 24)."""
    n, short = info.get("entries"), str(info.get("head", ""))[:16]
    if action == "store.round_copy":
        return (
            f"第 {info.get('round')} 轮结束，自动备份到 {info.get('file')}（{n} 条记录，末条哈希 {short}…）"
            if zh
            else f"round {info.get('round')} ended: copy kept in {info.get('file')} "
            f"({n} entries, head {short}…)"
        )
    if action == "store.backup":
        return (
            f"备份到 {info.get('file')}，副本已核对（{n} 条记录，末条哈希 {short}…）"
            if zh
            else f"backed up to {info.get('file')}, the copy verified ({n} entries, head {short}…)"
        )
    if action == "store.restore":
        was = info.get("replaced_entries")
        text = (
            f"从备份 {info.get('file')} 恢复（{n} 条记录，末条哈希 {short}…）"
            if zh
            else f"restored from the backup {info.get('file')} ({n} entries, head {short}…)"
        )
        if was is not None:
            old = str(info.get("replaced_head", ""))[:16]
            text += (
                f"；替换了原有的 {was} 条记录（末条哈希 {old}…）"
                if zh
                else f"; it replaced a store of {was} entries (head {old}…)"
            )
        return text
    anchor = str(info.get("anchor", ""))
    return (
        f"锚点 {anchor[:24]}… 已保存到 {info.get('kept')}"
        if zh
        else f"anchor {anchor[:24]}… kept in {info.get('kept')}"
    )


#: The chief referee's desk records (``desk.<kind>``), worded.
DESK_WORDS = {
    "pairing": {
        "zh": "发布第 {round} 轮对阵（第 {version} 版）",
        "en": "published the pairing of round {round} (version {version})",
    },
    "proposal": {
        "zh": "第 {round} 轮编排草案（第 {version} 版）",
        "en": "proposed the pairing of round {round} (version {version})",
    },
    "unpublish": {
        "zh": "撤回第 {round} 轮已发布的对阵（开赛前）",
        "en": "withdrew the published pairing of round {round} (before play)",
    },
    "withdraw": {"zh": "登记退赛（自第 {round} 轮起）", "en": "recorded a withdrawal (from round {round})"},
    "readmit": {"zh": "恢复参赛（自第 {round} 轮起）", "en": "re-admitted a pair (from round {round})"},
    "decider": {
        "zh": "判定第 {round} 轮平局的胜方",
        "en": "decided the winner of a tied match in round {round}",
    },
    "decider_correction": {
        "zh": "更正第 {round} 轮平局的胜方",
        "en": "corrected the winner of a tied match in round {round}",
    },
    "override": {"zh": "裁判长改判（第 {round} 轮）", "en": "the chief referee's override (round {round})"},
    "clock": {"zh": "第 {round} 轮计时", "en": "round {round} clock"},
    "round_end": {"zh": "第 {round} 轮比赛结束", "en": "round {round} ended"},
    "scores_published": {"zh": "第 {round} 轮成绩公布", "en": "round {round} scores published"},
}

#: What a clock record did (``info["clock"]``), after the round's clock.
CLOCK_WORDS = {
    "start": {"zh": "：开始", "en": ": started"},
    "pause": {"zh": "：暂停", "en": ": paused"},
    "resume": {"zh": "：继续", "en": ": resumed"},
    "extend": {"zh": "：延长 {minutes} 分钟", "en": ": extended by {minutes} min"},
    "adjust": {
        "zh": "：剩余时间调整 {sign}{minutes} 分钟",
        "en": ": time left adjusted by {sign}{minutes} min",
    },
}


STATE = {
    "zh": {
        "under_review": "审理中",
        "upheld": "申诉成立",
        "modified": "改判",
        "rejected": "驳回",
        "withdrawn": "撤回",
    },
    "en": {
        "under_review": "under review",
        "upheld": "upheld",
        "modified": "modified",
        "rejected": "rejected",
        "withdrawn": "withdrawn",
    },
}
FEE = {
    "zh": {"refunded": "退还申诉费", "kept": "不退申诉费", "none": "无申诉费"},
    "en": {"refunded": "fee refunded", "kept": "fee kept", "none": "no fee"},
}


def _appeal_text(
    entry: Mapping[str, Any], info: Mapping[str, Any], lang: str, local: bool, kinds: Mapping[str, str]
) -> str:
    zh = lang == "zh"
    action = entry["action"]
    aid = info.get("appeal_id")
    where = (
        f"第 {entry.get('round_no')} 轮 第 {entry.get('table_no')} 桌"
        if zh
        else f"round {entry.get('round_no')} table {entry.get('table_no')}"
    )
    if action == "appeal.file":
        hand = info.get("hand")
        h = (f"第 {hand} 副" if hand else "开赛前") if zh else (f"hand {hand}" if hand else "before play")
        late = int(info.get("late_minutes") or 0)
        kind = str(info.get("kind") or "")
        kind = kinds.get(kind, kind)
        seat = SEAT_NAMES[lang].get(str(info.get("seat") or ""), str(info.get("seat") or ""))
        if seat:
            kind = f"{kind}（{seat}）" if zh else f"{kind} ({seat})"
        filed = _when(str(info.get("filed_at")), local)
        if zh:
            t = (
                f"申诉 {aid}：{_side(info.get('by'), lang)}（第 {info.get('pair')} 对）对 {where} {h} "
                f"{kind}的判罚 {info.get('ruling_id')} 提出申诉，提交于 {filed}"
            )
            if isinstance(info.get("backdated"), dict):
                b = info["backdated"]
                entered = _when(str(b.get("store_time")))
                t += f"（裁判长倒填时间，录入于 {entered}，理由：{b.get('reason')}）"
            if late:
                t += f"，逾期 {late} 分钟，裁判长接受，理由：{info.get('late_reason')}"
            if info.get("fee_yuan"):
                t += f"；申诉费 {info.get('fee_yuan')} 元，收据 {info.get('receipt') or '-'}"
            return t
        t = (
            f"appeal {aid}: {info.get('by')} (pair {info.get('pair')}) appeals ruling "
            f"{info.get('ruling_id')} ({where}, {h}, {kind}), filed {filed}"
        )
        if isinstance(info.get("backdated"), dict):
            b = info["backdated"]
            entered = _when(str(b.get("store_time")))
            t += f" (back-dated by the chief referee, entered {entered}: {b.get('reason')})"
        if late:
            t += f", {late} min late, accepted by the chief referee: {info.get('late_reason')}"
        if info.get("fee_yuan"):
            t += f"; fee {info.get('fee_yuan')} yuan, receipt {info.get('receipt') or '-'}"
        return t
    state = STATE[lang].get(str(info.get("state")), str(info.get("state")))
    if action == "appeal.review":
        return f"申诉 {aid}（{where}）：进入审理" if zh else f"appeal {aid} ({where}): under review"
    if action == "appeal.withdraw":
        return (
            f"申诉 {aid}（{where}）：撤回，理由：{info.get('reason')}"
            if zh
            else f"appeal {aid} ({where}): withdrawn, reason: {info.get('reason')}"
        )
    fee = FEE[lang].get(str(info.get("fee")), "")
    names = ("、" if zh else ", ").join(info.get("committee") or [])
    if zh:
        t = f"申诉 {aid}（{where}）裁决：{state}；理由：{info.get('reason')}；仲裁委员：{names}；{fee}"
        if info.get("sanctions") is not None:
            t += f"；新判罚：{sanctions_text(info['sanctions'], lang)}"
        if info.get("new_version"):
            t += (
                f"；记为第 {info.get('new_version')} 版，胜方 {_side(info.get('winner_before'), lang)}"
                f" → {_side(info.get('winner_after'), lang)}"
            )
        return t
    t = f"appeal {aid} ({where}) decided: {state}; reasons: {info.get('reason')}; committee: {names}; {fee}"
    if info.get("sanctions") is not None:
        t += f"; new sanctions: {sanctions_text(info['sanctions'], lang)}"
    if info.get("new_version"):
        t += (
            f"; recorded as version {info.get('new_version')}, winner "
            f"{_side(info.get('winner_before'), lang)} → {_side(info.get('winner_after'), lang)}"
        )
    return t


def _carried_text(carried: Any, lang: str) -> str:
    """What a new version kept from the one it replaced (dealers as played, decisions on
    rulings) and which decisions it replaced, confirmed."""
    if not isinstance(carried, dict):
        return ""
    dealers = len(carried.get("dealers") or [])
    kept = len(carried.get("decisions") or [])
    replaced = carried.get("replaced") or []
    parts = []
    if lang == "zh":
        if dealers:
            parts.append(f"沿用实际庄家 {dealers} 副")
        if kept:
            parts.append(f"沿用裁决 {kept} 条")
        if replaced:
            where = "、".join("赛前" if r.get("hand") == 0 else f"第 {r.get('hand')} 副" for r in replaced)
            parts.append(f"经确认替换裁决 {len(replaced)} 条（{where}）")
        return ("；" + "，".join(parts)) if parts else ""
    if dealers:
        parts.append(f"kept the dealers as played of {_count(dealers, 'hand')}")
    if kept:
        parts.append(f"kept {_count(kept, 'decision')} on rulings")
    if replaced:
        where = ", ".join("before play" if r.get("hand") == 0 else f"hand {r.get('hand')}" for r in replaced)
        parts.append(f"replaced {_count(len(replaced), 'decision')}, confirmed ({where})")
    return ("; " + ", ".join(parts)) if parts else ""
