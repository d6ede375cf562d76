"""What a referee records for each infraction kind (违规种类), for forms and dialogs.

The case format accepts every field on every kind; this says which ones matter to a kind,
so the desktop app asks only for those.
"""

from __future__ import annotations

from .rulebook_kinds import KINDS

FIELDS: dict[str, tuple[str, ...]] = {
    "late_arrival": ("minutes", "at_draw"),
    "out_of_turn": ("cards", "trick"),
    "wrong_card_count": ("phase", "cards"),
    "bottom_miscount": (),
    "exposed_card": ("cards", "trick", "severity"),
    "failed_throw": ("cards", "thrown", "blocked_by", "trick"),
    "wrong_play": ("cards", "trick", "discovered"),
    "hidden_card": ("cards", "trick", "discovered", "affects_result"),
    "wrong_declaration": ("cards",),
    "unreasonable_play": ("trick",),
    "illegal_signal": ("trick",),
    "delay": ("what",),
    "trick_handling": ("trick",),
    "misconduct": ("points", "suspension_rounds", "disqualified"),
}

FIELD_LABELS: dict[str, dict[str, str]] = {
    "minutes": {"zh": "迟到分钟数", "en": "Minutes late"},
    "cards": {"zh": "涉及张数", "en": "Cards"},
    "thrown": {"zh": "甩出张数", "en": "Cards thrown"},
    "blocked_by": {"zh": "被何牌型挡住", "en": "Blocked by"},
    "trick": {"zh": "发生于第几圈", "en": "Trick"},
    "discovered": {"zh": "发现于第几圈", "en": "Found in trick"},
    "phase": {"zh": "发现时机", "en": "Found when"},
    "severity": {"zh": "轻重", "en": "Severity"},
    "affects_result": {"zh": "影响该副结果", "en": "Affected the result"},
    "what": {"zh": "拖延环节", "en": "Which delay"},
    "points": {"zh": "罚分（裁判酌定）", "en": "Points (referee's choice)"},
    "suspension_rounds": {"zh": "停赛轮数（裁判酌定）", "en": "Rounds of suspension (referee's choice)"},
    "disqualified": {"zh": "取消比赛资格", "en": "Disqualify"},
    "at_draw": {"zh": "抽签时离开现场", "en": "Away from the draw"},
}

CHOICES: dict[str, dict[str, dict[str, str]]] = {
    "phase": {
        "drawing": {"zh": "抓牌过程中", "en": "While drawing"},
        "before_bottom": {"zh": "庄家拿底牌前", "en": "Before the bottom is taken"},
        "after_bury": {"zh": "扣底后、出牌中", "en": "After burying, during play"},
        "end_of_hand": {"zh": "一副牌结束时", "en": "At the end of the hand"},
    },
    "severity": {
        "light": {"zh": "轻罚张", "en": "Light"},
        "heavy": {"zh": "重罚张", "en": "Heavy"},
    },
    "blocked_by": {
        "single": {"zh": "单张", "en": "A single"},
        "pair": {"zh": "对子", "en": "A pair"},
        "tractor": {"zh": "拖拉机（两连对）", "en": "A tractor (two pairs)"},
        "long_tractor": {"zh": "三连对以上", "en": "A tractor of three pairs or more"},
    },
    "what": {
        "bury": {"zh": "扣底", "en": "Burying"},
        "lead": {"zh": "领出", "en": "Leading"},
        "follow": {"zh": "跟牌", "en": "Following"},
    },
}

assert set(FIELDS) == set(KINDS)
#: An event's own kind (``event_kind``): the facts common to an offence at the table.
EVENT_KIND_FIELDS: tuple[str, ...] = ("cards", "trick", "discovered", "phase", "severity", "affects_result")


def kind_fields(kind: str) -> tuple[str, ...]:
    """The facts a referee may record for ``kind`` (one of the 14, or an event's own)."""
    return FIELDS.get(kind, EVENT_KIND_FIELDS)


# Facts worth recording even when the rulebook's sanction does not depend on them: they go
# on the scoresheet (which trick, how many cards, which delay).
_ALWAYS = ("trick", "cards", "what", "minutes")
_CONDITION_FIELDS = {
    "phase": "phase",
    "found_after": "discovered",
    "severity": "severity",
    "affects_result": "affects_result",
    "minutes": "minutes",
    "referee_points": "points",
    "referee_suspension": "suspension_rounds",
    "referee_disqualification": "disqualified",
    "at_draw": "at_draw",
}


def _charged_by_blocker(rules: dict, rule: dict) -> bool:
    """Whether ``rule``, or a step of its counter, charges a failed throw by what blocked it."""
    counter = rules.get("counters", {}).get(rule.get("counter") or "")
    sanctions = [rule["sanction"], *(step["sanction"] for step in (counter or {}).get("steps", []))]
    return any(s.get("points_by_blocker") is not None for s in sanctions)


def fields_for(rules: dict, kind: str) -> tuple[str, ...]:
    """The fields a referee is asked for ``kind`` under a rulebook's normalised ``rules``:
    those its conditions or sanctions read, and the facts a scoresheet shows."""
    used: set[str] = set()
    kinds = [kind]
    for rule in rules["infractions"][kind]["rules"]:
        if rule["same_as"]:
            kinds.append(rule["same_as"])
    for name in kinds:
        for rule in rules["infractions"][name]["rules"]:
            for condition, value in rule["when"].items():
                if value is not None and condition in _CONDITION_FIELDS:
                    used.add(_CONDITION_FIELDS[condition])
            sanction = rule["sanction"]
            if sanction["points_thrown_less_one"] is not None or sanction.get("rest_points_per_card"):
                used.add("thrown")
            if sanction["points_range"] is not None:
                used.add("points")
            if _charged_by_blocker(rules, rule):
                used.add("blocked_by")
    return tuple(f for f in kind_fields(kind) if f in used or f in _ALWAYS)


# Facts a rule's condition reads: left blank, the lightest rule would match by default (a
# hidden card with no tricks would be ruled "found in the same trick"), so they must be given.
_REQUIRED_BY_CONDITION = {
    "phase": ("phase",),
    "found_after": ("trick", "discovered"),
    "severity": ("severity",),
}


def facts_required(rules: dict, kind: str) -> tuple[str, ...]:
    """The facts of ``kind`` a referee must enter before a ruling is confirmed under the
    normalised ``rules``: those that choose between its rules."""
    needed: set[str] = set()
    kinds = [kind] + [r["same_as"] for r in rules["infractions"][kind]["rules"] if r["same_as"]]
    for name in kinds:
        for rule in rules["infractions"][name]["rules"]:
            for condition, value in rule["when"].items():
                if value is not None:
                    needed.update(_REQUIRED_BY_CONDITION.get(condition, ()))
            if _charged_by_blocker(rules, rule):
                needed.add("blocked_by")  # the tier it is charged by: never guessed
    return tuple(f for f in kind_fields(kind) if f in needed)
