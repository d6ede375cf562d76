"""The sentences a referee reads with a ruling or a hand, in Chinese or English."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .seats import SEAT_NAMES, SIDE_NAMES, other_side

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


def ruling_text(ruling: Ruling, lang: str, rulebook: Rulebook) -> str:
    """``暴露张（北）：罚10分，计入南北方。依据二、4 暴露张。``"""
    zh = lang == "zh"
    sides = SIDE_NAMES[lang]
    parts: list[str] = []
    if ruling.warning:
        parts.append("警告" if zh else "warning")
    if ruling.points:
        against = sides[ruling.against]
        parts.append(
            f"罚{ruling.points}分，计入{against}" if zh else f"{ruling.points} points against {against}"
        )
    if ruling.hand_lost:
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
) -> str:
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
        if zh:
            parts.append(f"{sides[keeper]}{'连庄' if keep_deal else '上庄'}，升{gain}级")
        else:
            parts.append(f"{sides[keeper]} {'keep' if keep_deal else 'take'} the deal, +{gain}")
    if passed_a:
        parts.append(
            f"{sides[passed_a]}过A，本轮获胜" if zh else f"{sides[passed_a]} pass A and win the round"
        )
    if next_dealer:
        name = SEAT_NAMES[lang][next_dealer]
        parts.append(f"下一副{name}家坐庄" if zh else f"{name} deals next")
    return ("，".join(parts) + "。") if zh else ("; ".join(parts) + ".")


def as_played_text(lang: str, dealer: str, by_rotation: str, clause: Mapping[str, Any] | None) -> str:
    """A hand dealt as played by another seat than the rotation now gives (an earlier hand's
    outcome was changed after play): the stated reading, with its clause and the mark."""
    seats = SEAT_NAMES[lang]
    ref = f"{clause['ref']}，" if clause and lang == "zh" else f"{clause['ref']}, " if clause else ""
    if lang == "zh":
        return f"本副按实际发牌计：{seats[dealer]}家坐庄（按轮庄现应为{seats[by_rotation]}家；{ref}按假定）。"
    now = seats[by_rotation]
    return f"Counted as dealt: {seats[dealer]} dealt (the rotation now gives {now}; {ref}assumed)."
