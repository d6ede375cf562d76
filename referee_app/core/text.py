"""The sentences a referee reads with a ruling or a hand, in Chinese or English."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .levels import advance, difference
from .seats import SEAT_NAMES, SIDE_NAMES, SIDES, other_side

if TYPE_CHECKING:
    from .rulebook import Rulebook
    from .ruling import Ruling

_SCOPE = {
    "zh": {"hand": "本副牌第{n}次", "round": "本轮第{n}次", "event": "本次比赛第{n}次"},
    "en": {
        "hand": "{nth} time in this hand",
        "round": "{nth} time in this round",
        "event": "{nth} time in the event",
    },
}


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def penalty_words(points: int, against: str, side: str, role: str | None, lang: str) -> str:
    """Who loses a penalty's points and who gains them. In a hand they move the defenders'
    total (the engine's ``penalty``): taken off it when they are against the defenders, added
    to it when against the dealer side. ``role`` is the offending ``side``'s (the points may be
    against the other side, e.g. a bottom miscount against the dealer side). Before play (no
    ``role``) the points are simply against the side."""
    zh = lang == "zh"
    sides = SIDE_NAMES[lang]
    name = sides[against]
    if role is not None:
        dealer_side = side if role == "dealer_side" else other_side(side)
        role = "dealer_side" if against == dealer_side else "defenders"
    if role == "defenders":
        return (
            f"罚{points}分，从{name}（防守方）得分中扣除"
            if zh
            else f"{points} penalty points taken off {name}'s total (the defenders)"
        )
    if role == "dealer_side":
        gainer = sides[other_side(against)]
        return (
            f"罚{points}分，计入{gainer}（防守方）得分"
            if zh
            else f"{points} penalty points on {name}, added to {gainer}'s total (the defenders)"
        )
    return f"罚{name}{points}分" if zh else f"{points} penalty points on {name}"


def ruling_text(ruling: Ruling, lang: str, rulebook: Rulebook, *, both_lost: bool = False) -> str:
    """``暴露张（北）：罚10分，从南北方（防守方）得分中扣除。依据二、4 暴露张。``

    ``both_lost``: both sides lose the hand this ruling is in; what each loss would award
    does not happen (the hand's text says what does), so no award is worded here."""
    zh = lang == "zh"
    sides = SIDE_NAMES[lang]
    parts: list[str] = []
    if ruling.warning:
        parts.append("警告" if zh else "warning")
    if ruling.points:
        parts.append(penalty_words(ruling.points, ruling.against, ruling.side, ruling.role, lang))
    if ruling.hand_lost and both_lost:
        loser = sides[ruling.side]
        parts.append(
            f"判{loser}本副牌负（双方均判负，结果见本副牌）"
            if zh
            else f"{loser} lose the hand (both sides lose it: see the hand's outcome)"
        )
    elif ruling.hand_lost:
        loser = sides[ruling.side]
        if ruling.ends_hand:
            parts.append(
                f"该副牌立即结束，判{loser}负" if zh else f"the hand ends at once and {loser} lose it"
            )
        else:
            parts.append(f"判{loser}本副牌负" if zh else f"{loser} lose the hand")
        award = ruling.award or (
            rulebook.data["hand_loss"]["award"] if rulebook.data["hand_loss"]["mode"] == "levels" else None
        )
        mode = rulebook.data["hand_loss"]["mode"]
        if mode == "shift" and ruling.award is None:
            shift = rulebook.data["hand_loss"]["shift"]
            parts.append(
                f"过错方减{shift}分，下一副由非过错方坐庄"
                if zh
                else f"{shift} points move against them and the other side deals next"
            )
        elif award is not None and ruling.proposed is None and ruling.role is not None:
            opponent = sides[other_side(ruling.side)]
            if ruling.role == "dealer_side":
                n = award["dealer_offends"]
                parts.append(f"{opponent}上庄并升{n}级" if zh else f"{opponent} take the deal, +{n}")
            else:
                n = award["defenders_offend"]
                parts.append(f"{opponent}续庄并升{n}级" if zh else f"{opponent} keep the deal, +{n}")
    for side, change in ruling.levels.items():
        if change:
            name = sides[side]
            if zh:
                parts.append(f"{name}{'升' if change > 0 else '降'}{abs(change)}级")
            else:
                parts.append(
                    f"{name} {'+' if change > 0 else '−'}{abs(change)} level{'s' if abs(change) > 1 else ''}"
                )
    if ruling.round_forfeit:
        parts.append(f"判{sides[ruling.side]}本轮弃权" if zh else f"{sides[ruling.side]} forfeit the round")
    if ruling.suspension_rounds:
        n = ruling.suspension_rounds
        parts.append(f"停赛{n}轮" if zh else f"suspended for {n} round{'s' if n > 1 else ''}")
    if ruling.disqualified:
        parts.append(
            f"取消{sides[ruling.side]}比赛资格" if zh else f"{sides[ruling.side]} disqualified from the event"
        )
    if not parts:
        parts.append("不罚分，予以纠正" if zh else "no penalty; corrected")
    if ruling.instruction:
        parts.append(ruling.instruction[lang])
    who = SEAT_NAMES[lang][ruling.seat] if ruling.seat else sides[ruling.side]
    label = ruling.label.get(lang, ruling.kind) if ruling.label else ruling.kind
    head = f"{label}（{who}）" if zh else f"{label} ({who})"
    if ruling.escalated and ruling.scope:
        count = _SCOPE[lang][ruling.scope].format(n=ruling.occurrence, nth=ordinal(ruling.occurrence))
        head += f"，{count}" if zh else f", {count}"
    sep = "，" if zh else "; "
    body = sep.join(parts).rstrip("。.")  # an instruction's own full stop would be doubled
    source = f"依据{ruling.citation}" if zh else f"under {ruling.citation}"
    sentence = f"{head}：{body}。{source}。" if zh else f"{head}: {body}. Clause {ruling.citation}."
    if ruling.void_reason is not None:
        sentence = (
            f"【已撤销：{ruling.void_reason}】" if zh else f"[Voided: {ruling.void_reason}] "
        ) + sentence
    if ruling.override_reason is not None:
        sentence += (
            f"裁判改判，理由：{ruling.override_reason}"
            if zh
            else f" Overridden by the referee: {ruling.override_reason}"
        )
    elif ruling.assumed:
        sentence += (
            "（规程未载明，按规则文件的假定）"
            if zh
            else " (assumed: the event's text is silent; the rulebook's default)"
        )
    return sentence


def sanction_summary(ruling: Mapping[str, Any], lang: str, instruction: bool = True) -> str:
    """The sanction alone, short: ``罚10分（南北方）``, ``警告``, ``判负（东西方）`` …;
    without the instruction to the players with ``instruction=False`` (the scoresheet)."""
    zh = lang == "zh"
    sides = SIDE_NAMES[lang]
    name = sides.get(ruling.get("against") or ruling.get("side") or "", "")
    against = f"（{name}）" if zh and name else f" ({name})" if name else ""
    parts: list[str] = []
    if ruling.get("warning"):
        parts.append("警告" if zh else "warning")
    if ruling.get("points"):
        parts.append(f"罚{ruling['points']}分{against}" if zh else f"{ruling['points']} points{against}")
    levels = ruling.get("levels") or {}
    for side in SIDES:
        n = levels.get(side) or 0
        if n:
            name = sides[side]
            if zh:
                parts.append(f"{name}{'升' if n > 0 else '降'}{abs(n)}级")
            else:
                parts.append(f"{name} {'+' if n > 0 else '−'}{abs(n)} level{'s' if abs(n) != 1 else ''}")
    if ruling.get("hand_lost"):
        parts.append(f"判负{against}" if zh else f"hand lost{against}")
    elif ruling.get("ends_hand"):
        parts.append("本副牌结束" if zh else "hand ends")
    if ruling.get("round_forfeit"):
        parts.append(f"判本轮弃权{against}" if zh else f"round forfeited{against}")
    if ruling.get("suspension_rounds"):
        n = ruling["suspension_rounds"]
        parts.append(f"停赛{n}轮" if zh else f"suspended {n} round{'s' if n != 1 else ''}")
    if ruling.get("disqualified"):
        parts.append("取消比赛资格" if zh else "disqualified")
    told = ruling.get("instruction") if instruction else None
    if isinstance(told, Mapping):
        told = told.get(lang) or told.get("zh") or ""
    if told:  # an instruction in neither language must not blank the summary
        parts.append(str(told))
    if not parts:
        parts.append("不处罚" if zh else "no sanction")
    return "；".join(parts) if zh else "; ".join(parts)


def sanctions_text(items: list[Any], lang: str) -> str:
    """An override's sanctions (the case format's vocabulary: ``"warning"`` or objects such
    as ``{"points": 20, "against": "EW"}``) worded as one sanction: ``警告；罚20分（东西方）``."""
    merged: dict[str, Any] = {}
    for item in items:
        one = {item: True} if isinstance(item, str) else dict(item) if isinstance(item, Mapping) else {}
        if one.pop("hand_loss", False):
            one["hand_lost"] = True
        for key, value in one.items():
            if key == "points":
                merged["points"] = merged.get("points", 0) + int(value)
            elif key == "levels" and isinstance(value, Mapping):
                levels = merged.setdefault("levels", {})
                for side, n in value.items():
                    levels[side] = levels.get(side, 0) + int(n)
            else:
                merged[key] = value
    return sanction_summary(merged, lang)


def hand_text(
    lang: str,
    dealer_side: str,
    total: int,
    gains: dict[str, int],
    keep_deal: bool,
    lost_by: str | None,
    j_drop: str | None,
    next_dealer: str | None,
    passed_a: str | None,
    *,
    levels_before: Mapping[str, str] | None = None,
    mandatory: tuple[str, ...] = (),
) -> str:
    """The hand's outcome. With ``levels_before`` (and the event's ``mandatory`` levels) a
    gain that a level which must be played (or A) stops lower is worded as what happens:
    the gain, where it stopped and the level reached. A decision stored without them words
    the gain alone."""
    zh = lang == "zh"
    sides = SIDE_NAMES[lang]
    defenders = other_side(dealer_side)
    parts: list[str] = []
    # Both sides lost the hand: either the event opens the next deal to a grab (no next
    # dealer), or the two losses cancel and the hand is scored on its points.
    open_grab = lost_by == "both" and next_dealer is None and not passed_a
    if open_grab:
        parts.append(
            "双方均判负，下一副一次性抢庄"
            if zh
            else "both sides lose the hand; the next deal is an open grab"
        )
    elif lost_by == "both":
        parts.append(
            f"双方均判负，两相抵消，按得分计：防守方得{total}分"
            if zh
            else f"both sides lose the hand: the two cancel out and the hand is scored on its"
            f" points, defenders' total {total}"
        )
    elif lost_by is not None:
        parts.append(f"{sides[lost_by]}判负" if zh else f"{sides[lost_by]} lose the hand")
    else:
        parts.append(f"防守方得{total}分" if zh else f"defenders' total {total}")
    if j_drop is not None:
        parts.append(
            f"J抠底，{sides[dealer_side]}降至{j_drop}"
            if zh
            else f"bottom captured with J: {sides[dealer_side]} drop to {j_drop}"
        )
    if not open_grab:
        keeper = dealer_side if keep_deal else defenders
        gain = gains[keeper]
        stopped = ""
        if levels_before is not None and gain > 0 and passed_a != keeper:
            start = levels_before[keeper]
            reached, _ = advance(start, gain, mandatory, keeper == dealer_side and keep_deal)
            if difference(reached, start) < gain:
                stopped = _stopped(start, reached, lang)
        if zh:
            up = f"，{'应' if stopped else ''}升{gain}级" if gain else ""  # 上庄 with no gain: no 升0级
            parts.append(f"{sides[keeper]}{'连庄' if keep_deal else '上庄'}{up}{stopped}")
        else:
            up = f", +{gain}" if gain else ""
            parts.append(f"{sides[keeper]} {'keep' if keep_deal else 'take'} the deal{up}{stopped}")
    if passed_a:
        parts.append(
            f"{sides[passed_a]}过A，本轮获胜" if zh else f"{sides[passed_a]} pass A and win the round"
        )
    if next_dealer:
        name = SEAT_NAMES[lang][next_dealer]
        parts.append(f"下一副{name}家坐庄" if zh else f"{name} deals next")
    return ("，".join(parts) + "。") if zh else ("; ".join(parts) + ".")


def _stopped(start: str, reached: str, lang: str) -> str:
    """``，止于A（必打级），实升2级``: a level that must be played (or A) stopped the gain."""
    moved = difference(reached, start)
    if lang == "zh":
        if moved == 0:
            return f"，但{start}为必打级，未打过不升级，仍为{start}"
        return f"，止于{reached}（必打级），实升{moved}级"
    if moved == 0:
        return f", but {start} must be played first: stays at {start}"
    return f", stopped at {reached} (a level that must be played): up {moved}"


def as_played_text(lang: str, dealer: str, by_rotation: str, clause: Mapping[str, Any] | None) -> str:
    """A hand dealt as played by another seat than the rotation now gives (an earlier hand's
    outcome was changed after play): the stated reading, with its clause and the mark."""
    seats = SEAT_NAMES[lang]
    ref = f"{clause['ref']}，" if clause and lang == "zh" else f"{clause['ref']}, " if clause else ""
    if lang == "zh":
        return f"本副按实际发牌计：{seats[dealer]}家坐庄（按轮庄现应为{seats[by_rotation]}家；{ref}按假定）。"
    now = seats[by_rotation]
    return f"Counted as dealt: {seats[dealer]} dealt (the rotation now gives {now}; {ref}assumed)."


#: How a round lost by a sanction is worded, by what caused it: a forfeit (迟到 and the
#: like: BHG 二「判弃权」, HBUE 通知四「视为弃权」) or a disqualification (取消资格).
FORFEIT_WORDS = {
    "forfeit": {"zh": "判本轮弃权", "en": "round forfeited"},
    "disqualified": {"zh": "取消资格，本轮判负", "en": "disqualified: the round is lost"},
    "withdrawal": {
        "zh": "中途退出，本轮判负（已打各副有效）",
        "en": "left during the round: the round is lost (the hands played stand)",
    },
}


def forfeit_cause(decision: Mapping[str, Any]) -> str | None:
    """What lost the round by a sanction (a key of :data:`FORFEIT_WORDS`), None when no side
    forfeited: a disqualification of the forfeiting side, else a forfeit."""
    forfeit = decision.get("forfeit")
    if not forfeit:
        return None
    if forfeit.get("cause") == "withdrawal":
        return "withdrawal"
    side = forfeit.get("side")
    rulings = list(decision.get("before_play") or [])
    for hand in decision.get("hands") or []:
        rulings += hand.get("rulings") or []
    for r in rulings:
        if r.get("disqualified") and not r.get("voided") and (side == "both" or r.get("side") == side):
            return "disqualified"
    return "forfeit"


def forfeit_text(decision: Mapping[str, Any], lang: str) -> str:
    """``东西方判本轮弃权`` / ``东西方取消资格，本轮判负``; "" when no side forfeited."""
    cause = forfeit_cause(decision)
    if cause is None:
        return ""
    side = (decision.get("forfeit") or {}).get("side")
    name = "双方" if lang == "zh" else "both sides"
    if side in SIDES:
        name = SIDE_NAMES[lang][side]
    words = FORFEIT_WORDS[cause][lang]
    reason = (decision.get("forfeit") or {}).get("reason") if cause == "withdrawal" else None
    if reason:  # the referee's own words of why the pair left (as an override's reason)
        words += f"：{reason}" if lang == "zh" else f": {reason}"
    return f"{name}{words}" if lang == "zh" else f"{name}: {words}"


#: An appeal's attachment as the evidence keeps it (one line, language-free): the file's name
#: and the SHA-256 of its bytes, so the copy the committee looks at can be checked later.
_ATTACHMENT = re.compile(r"^attachment: (?P<name>.+) sha256:(?P<digest>[0-9a-f]{64})$")


def attachment_line(name: str, digest: str) -> str:
    """The evidence's line for an attachment (``attachment: NAME sha256:HEX``)."""
    return f"attachment: {name} sha256:{digest}"


def evidence_parts(evidence: str) -> tuple[str, list[tuple[str, str]]]:
    """An appeal's evidence split into the written statement and its attachments (name,
    SHA-256), so each edge words the attachment in its own language."""
    statement: list[str] = []
    attached: list[tuple[str, str]] = []
    for line in evidence.splitlines():
        m = _ATTACHMENT.match(line.strip())
        if m:
            attached.append((m["name"], m["digest"]))
        else:
            statement.append(line)
    return "\n".join(statement).strip(), attached
