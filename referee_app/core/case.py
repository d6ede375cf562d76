"""The case file (案例): one round at one table, as ``referee-app judge`` reads it.

Parsed by hand rather than by a pydantic model: judging must start fast (the whole command
within 1.5× of a bare ``import pydantic``), and every error must read exactly like the
contract in CASE-FORMAT.md — ``hands[2].infractions[0].seat: expected one of E, S, W, N,
got "X"`` — so the messages are written here, next to the checks.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import CaseError
from .levels import LEVELS
from .rulebook_kinds import BLOCKERS, KINDS, PHASES
from .seats import SEATS, SIDES, side_of

TRICKS = 25
#: An event's own infraction kind, as its rulebook names it (``rulebook_schema.Infraction``):
#: a word that is none of the 14 (``take_back``); the judge checks the rulebook has it.
EVENT_KIND = re.compile(r"[a-z][a-z0-9_]*")
SHAPES = ("single", "pair", "tractor", "throw")
#: Phases before the first trick is led: an infraction found then has no trick.
_BEFORE_PLAY_PHASES = ("drawing", "before_bottom")
SANCTION_WORDS = ("warning", "hand_loss", "ends_hand", "round_forfeit", "disqualified")


@dataclass(frozen=True)
class Override:
    """The referee's own ruling in place of the computed one (改判), with the reason kept."""

    sanctions: list[dict[str, Any]]
    reason: str


@dataclass(frozen=True)
class Infraction:
    """One logged infraction (违规) and the facts its sanction depends on."""

    kind: str
    path: str
    seat: str | None = None
    side: str = ""
    cards: int = 1
    trick: int | None = None
    discovered: int | None = None
    phase: str | None = None
    severity: str = "light"
    affects_result: bool = False
    minutes: int | None = None
    what: str | None = None
    points: int | None = None
    thrown: int | None = None
    #: failed_throw: the shape that blocked it (``rulebook_schema.BLOCKERS``), for an event
    #: whose penalty goes by it (``points_by_blocker``).
    blocked_by: str | None = None
    #: The referee's choice for misconduct (停赛 N rounds / 取消比赛资格), where the event
    #: lets the referee choose them.
    suspension_rounds: int | None = None
    disqualified: bool = False
    #: late_arrival only: away from the draw between matches (抽签时离开现场), not late to a table.
    at_draw: bool = False
    override: Override | None = None
    void_reason: str | None = None

    @property
    def found_after(self) -> int:
        """Tricks between the offence and its discovery (0: found in the same trick)."""
        if self.trick is None or self.discovered is None:
            return 0
        return self.discovered - self.trick


#: How many J (the J rule's 滑钩 card) the capturing combination can hold, by its shape: a
#: single is one card, a pair two equal cards, a tractor pairs; a throw mixes combinations.
_J_FITS = {"single": (0, 1), "pair": (0, 2), "tractor": (0, 2)}


@dataclass(frozen=True)
class Bottom:
    """The bottom (底牌) and how the last trick captured it (抠底)."""

    points: int = 0
    captured: bool = False
    shape: str | None = None
    pairs: int | None = None
    largest: str | None = None
    j: int = 0
    #: Which J captured (主J / 副J): ``trump``, the trump suit's J, or ``side``, a side
    #: suit's J; None: not said. Decides the drop under a J rule that goes by it.
    j_suit: str | None = None


@dataclass(frozen=True)
class Hand:
    path: str
    defender_points: int
    redeclarations: int = 0
    bottom: Bottom = Bottom()
    infractions: list[Infraction] = field(default_factory=list)
    dealer: str | None = None
    in_progress: bool = False
    #: Who dealt this hand as it was played (实际坐庄), kept by the store from the version that
    #: recorded it: when an earlier hand's outcome changes later (申诉、更正), the hand stands
    #: as dealt and the rotation is not applied to it again.
    dealt_by: str | None = None


@dataclass(frozen=True)
class Case:
    event: str
    first_dealer: str
    levels: dict[str, str]
    history: dict[str, dict[str, int]]
    before_play: list[Infraction]
    hands: list[Hand]
    finished: str
    #: The hand in play (being drawn or played) when the round's time warning (限时提醒) was
    #: given, counted from 1; None: no warning recorded.
    time_warning: int | None = None
    #: Odd facts the referee confirmed happened (:mod:`.unusual`): ``{"fact", "field"}``.
    confirmed: list[dict[str, str]] = field(default_factory=list)
    #: A pair left during the round (中途退出) after the hands given: ``{"side", "reason"}``;
    #: the rulebook's forfeit applies after them, and they stand.
    withdrawal: dict[str, str] | None = None


#: The odd-but-possible facts a case can confirm (:mod:`.unusual` checks each).
CONFIRMABLE_FACTS = ("redeclarations_over_assumed", "same_offence_twice")


def parse_case(raw: Any) -> Case:
    """Check a decoded case and return it; raise :class:`CaseError` naming the first problem."""
    top = _object(
        raw,
        "(case)",
        {
            "event",
            "first_dealer",
            "levels",
            "history",
            "before_play",
            "hands",
            "finished",
            "time_warning",
            "confirmed",
            "withdrawal",
        },
    )
    event = _string(top, "event", "event", required=True)
    first_dealer = _choice(top, "first_dealer", "first_dealer", SEATS, required=True)
    levels = {"NS": "2", "EW": "2"}
    if "levels" in top:
        given = _object(top["levels"], "levels", set(SIDES))
        for side in SIDES:
            if side in given:
                levels[side] = _choice(given, side, f"levels.{side}", LEVELS, required=True)
    history: dict[str, dict[str, int]] = {"NS": {}, "EW": {}}
    if "history" in top:
        given = _object(top["history"], "history", set(SIDES))
        for side, counts in given.items():
            counted = _object(counts, f"history.{side}", set(KINDS))
            for kind in counted:
                history[side][kind] = _int(counted, kind, f"history.{side}.{kind}", low=0, high=1000)
    before = []
    for i, item in enumerate(_list(top.get("before_play", []), "before_play", MAX_INFRACTIONS)):
        before.append(_infraction(item, f"before_play[{i}]", before_play=True))
    hands = [_hand(item, f"hands[{i}]") for i, item in enumerate(_list(top.get("hands"), "hands", MAX_HANDS))]
    finished = _choice(top, "finished", "finished", ("time", "open"), required=True)
    for i, parsed in enumerate(hands):
        if parsed.in_progress and (i != len(hands) - 1 or finished != "open"):
            raise CaseError(
                f"hands[{i}].in_progress: only the last hand of a round still open can be in progress",
                code="case.in_progress_not_last",
                field=f"hands[{i}].in_progress",
            )
    time_warning = None
    if "time_warning" in top:
        warning = _object(top["time_warning"], "time_warning", {"hand"})
        if "hand" not in warning:
            raise CaseError("time_warning.hand: required", code="case.required", field="time_warning.hand")
        time_warning = _int(warning, "hand", "time_warning.hand", low=1, high=MAX_HANDS)
        if time_warning > len(hands) + 1:
            # the warning falls in a hand that was played, or the one about to be dealt
            raise CaseError(
                f"time_warning.hand: hand {time_warning}, but the round has {len(hands)} hands",
                code="case.warning_past_hands",
                field="time_warning.hand",
                got=time_warning,
                n=len(hands),
            )
    confirmed = []
    for i, item in enumerate(_list(top.get("confirmed", []), "confirmed", MAX_INFRACTIONS)):
        entry = _object(item, f"confirmed[{i}]", {"fact", "field"})
        fact = _choice(entry, "fact", f"confirmed[{i}].fact", CONFIRMABLE_FACTS, required=True)
        where = _string(entry, "field", f"confirmed[{i}].field", required=True)
        confirmed.append({"fact": fact, "field": where})
    withdrawal = None
    if "withdrawal" in top:  # a pair leaving during the round (中途退出), after the hands given
        left = _object(top["withdrawal"], "withdrawal", {"side", "reason"})
        withdrawal = {
            "side": _choice(left, "side", "withdrawal.side", SIDES, required=True),
            "reason": _string(left, "reason", "withdrawal.reason") or "",
        }
    return Case(
        event, first_dealer, levels, history, before, hands, finished, time_warning, confirmed, withdrawal
    )


def _hand(raw: Any, path: str) -> Hand:
    obj = _object(
        raw,
        path,
        {"defender_points", "redeclarations", "bottom", "infractions", "dealer", "in_progress", "dealt_by"},
    )
    in_progress = _bool(obj, "in_progress", f"{path}.in_progress") or False
    points = _points(obj, "defender_points", f"{path}.defender_points", required=not in_progress) or 0
    redeclarations = _int(obj, "redeclarations", f"{path}.redeclarations", low=0, high=10) or 0
    bottom = _bottom(obj["bottom"], f"{path}.bottom") if "bottom" in obj else Bottom()
    if points + bottom.points > 200:
        raise CaseError(
            f"{path}: defender_points {points} + bottom.points {bottom.points} = "
            f"{points + bottom.points}, more than the 200 card points in two decks",
            code="case.points_over_200",
            field=path,
            points=points,
            bottom=bottom.points,
            total=points + bottom.points,
        )
    infractions = [
        _infraction(item, f"{path}.infractions[{i}]")
        for i, item in enumerate(_list(obj.get("infractions", []), f"{path}.infractions", MAX_INFRACTIONS))
    ]
    dealer = _choice(obj, "dealer", f"{path}.dealer", SEATS)
    dealt_by = _choice(obj, "dealt_by", f"{path}.dealt_by", SEATS)
    return Hand(path, points, redeclarations, bottom, infractions, dealer, in_progress, dealt_by)


def _bottom(raw: Any, path: str) -> Bottom:
    obj = _object(raw, path, {"points", "captured", "shape", "pairs", "largest", "j", "j_suit"})
    points = _points(obj, "points", f"{path}.points") or 0
    captured = _bool(obj, "captured", f"{path}.captured") or False
    shape = _choice(obj, "shape", f"{path}.shape", SHAPES)
    largest = _choice(obj, "largest", f"{path}.largest", ("single", "pair", "tractor"))
    pairs = _int(obj, "pairs", f"{path}.pairs", low=2, high=12)
    j = _int(obj, "j", f"{path}.j", low=0, high=2) or 0
    j_suit = _choice(obj, "j_suit", f"{path}.j_suit", ("trump", "side"))
    if captured and shape is None:
        raise CaseError(
            f"{path}.shape: required when captured is true (single, pair, tractor or throw)",
            code="case.shape_required",
            field=f"{path}.shape",
        )
    if shape == "throw" and captured and largest is None:
        raise CaseError(
            f"{path}.largest: required for a throw (its largest combination: single, pair or tractor)",
            code="case.largest_required",
            field=f"{path}.largest",
        )
    needs_pairs = shape == "tractor" or (shape == "throw" and largest == "tractor")
    if captured and needs_pairs and pairs is None:
        raise CaseError(
            f"{path}.pairs: required for a tractor (how many pairs, 2 or more)",
            code="case.tractor_pairs_required",
            field=f"{path}.pairs",
        )
    if j and not captured:
        raise CaseError(
            f"{path}.j: J cards count only when the bottom is captured (captured is false)",
            code="case.j_not_captured",
            field=f"{path}.j",
        )
    fitting = _J_FITS.get(shape or "", (0, 1, 2))
    if j not in fitting:
        # a single is one card; a pair (and a tractor's pairs) has two J or none
        raise CaseError(
            f"{path}.j: a {shape} captured with {j} J cannot be: it holds {' or '.join(map(str, fitting))} J",
            code="case.j_not_in_shape",
            field=f"{path}.j",
            shape=shape,
            j=j,
            allowed=list(fitting),
        )
    if j_suit is not None and not j:
        raise CaseError(
            f"{path}.j_suit: says which J captured, but no J captured (j is 0)",
            code="case.j_suit_without_j",
            field=f"{path}.j_suit",
        )
    return Bottom(points, captured, shape, pairs, largest, j, j_suit)


def _infraction(raw: Any, path: str, before_play: bool = False) -> Infraction:
    obj = _object(
        raw,
        path,
        {
            "kind",
            "seat",
            "side",
            "cards",
            "trick",
            "discovered",
            "phase",
            "severity",
            "affects_result",
            "minutes",
            "what",
            "points",
            "thrown",
            "blocked_by",
            "suspension_rounds",
            "disqualified",
            "at_draw",
            "override",
            "void",
        },
    )
    # the 14 kinds, or an event's own (its rulebook is checked when the case is judged)
    kind = obj.get("kind") if isinstance(obj.get("kind"), str) and EVENT_KIND.fullmatch(obj["kind"]) else None
    if kind is None or kind in KINDS:
        kind = _choice(obj, "kind", f"{path}.kind", KINDS, required=True)
    seat = _choice(obj, "seat", f"{path}.seat", SEATS)
    side = _choice(obj, "side", f"{path}.side", SIDES)
    if kind == "late_arrival":
        if side is None and seat is not None:
            side = side_of(seat)
        if side is None:
            raise CaseError(
                f"{path}.side: required for late_arrival (NS or EW)",
                code="case.side_required",
                field=f"{path}.side",
            )
        if seat is not None and side_of(seat) != side:
            raise CaseError(
                f"{path}.seat: {seat} is not on side {side}",
                code="case.seat_not_on_side",
                field=f"{path}.seat",
                seat=seat,
                side=side,
            )
    else:
        if before_play:
            raise CaseError(
                f'{path}.kind: only late_arrival comes before the first hand, got "{kind}"',
                code="case.kind_before_play",
                field=f"{path}.kind",
                kind=kind,
            )
        if seat is None:
            raise CaseError(
                f"{path}.seat: required (the offending player: E, S, W or N)",
                code="case.seat_required",
                field=f"{path}.seat",
            )
        if side is not None and side != side_of(seat):
            raise CaseError(
                f"{path}.side: {side} is not the side of seat {seat}",
                code="case.side_not_of_seat",
                field=f"{path}.side",
                seat=seat,
                side=side,
            )
        side = side_of(seat)
    cards = _int(obj, "cards", f"{path}.cards", low=1, high=33)
    trick = _int(obj, "trick", f"{path}.trick", low=1, high=TRICKS)
    discovered = _int(obj, "discovered", f"{path}.discovered", low=1, high=TRICKS)
    if discovered is not None and trick is None:
        raise CaseError(
            f"{path}.trick: required when discovered is given",
            code="case.trick_required",
            field=f"{path}.trick",
        )
    if trick is not None and discovered is None:
        discovered = trick
    if trick is not None and discovered is not None and discovered < trick:
        raise CaseError(
            f"{path}.discovered: trick {discovered} is before the offence in trick {trick}",
            code="case.discovered_before",
            field=f"{path}.discovered",
            discovered=discovered,
            trick=trick,
        )
    phase = _choice(obj, "phase", f"{path}.phase", PHASES)
    if phase in _BEFORE_PLAY_PHASES and trick is not None:
        raise CaseError(
            f"{path}.trick: found while {phase.replace('_', ' ')} (phase), before the first trick, "
            f"yet placed in trick {trick}",
            code="case.phase_with_trick",
            field=f"{path}.trick",
            phase=phase,
            trick=trick,
        )
    if kind == "wrong_card_count" and phase is None:
        raise CaseError(
            f"{path}.phase: required for wrong_card_count (one of {', '.join(PHASES)})",
            code="case.phase_required",
            field=f"{path}.phase",
            allowed=list(PHASES),
        )
    severity = _choice(obj, "severity", f"{path}.severity", ("light", "heavy")) or "light"
    affects = _bool(obj, "affects_result", f"{path}.affects_result") or False
    minutes = _int(obj, "minutes", f"{path}.minutes", low=0, high=600)
    if kind == "late_arrival" and minutes is None:
        raise CaseError(
            f"{path}.minutes: required for late_arrival (minutes after the round started)",
            code="case.minutes_required",
            field=f"{path}.minutes",
        )
    what = _choice(obj, "what", f"{path}.what", ("bury", "lead", "follow"))
    points = _int(obj, "points", f"{path}.points", low=0, high=200)
    thrown = _int(obj, "thrown", f"{path}.thrown", low=2, high=33)
    if thrown is not None and cards is not None and cards > thrown:
        raise CaseError(
            f"{path}.cards: {cards} blocked cards but only {thrown} thrown",
            code="case.blocked_over_thrown",
            field=f"{path}.cards",
            cards=cards,
            thrown=thrown,
        )
    blocked_by = _choice(obj, "blocked_by", f"{path}.blocked_by", BLOCKERS)
    if blocked_by is not None and kind != "failed_throw":
        raise CaseError(
            f"{path}.blocked_by: only for failed_throw (what blocked the throw), not {kind}",
            code="case.blocked_by_only_throw",
            field=f"{path}.blocked_by",
            kind=kind,
        )
    suspension = _int(obj, "suspension_rounds", f"{path}.suspension_rounds", low=1, high=99)
    disqualified = _bool(obj, "disqualified", f"{path}.disqualified") or False
    at_draw = _bool(obj, "at_draw", f"{path}.at_draw") or False
    if at_draw and kind != "late_arrival":
        raise CaseError(
            f"{path}.at_draw: only for late_arrival (away from the draw), not {kind}",
            code="case.at_draw_only_late",
            field=f"{path}.at_draw",
            kind=kind,
        )
    override = _override(obj["override"], f"{path}.override") if "override" in obj else None
    void_reason = None
    if "void" in obj:
        void = _object(obj["void"], f"{path}.void", {"reason", "appeal"})
        _int(void, "appeal", f"{path}.void.appeal", low=1, high=10**9)  # the committee's (申诉)
        void_reason = (_string(void, "reason", f"{path}.void.reason", required=True) or "").strip()
        if not void_reason:
            raise CaseError(
                f"{path}.void.reason: voiding a ruling needs a written reason",
                code="case.void_reason_missing",
                field=f"{path}.void.reason",
            )
    return Infraction(
        kind=kind,
        path=path,
        seat=seat,
        side=side,
        cards=cards or 1,
        trick=trick,
        discovered=discovered,
        phase=phase,
        severity=severity,
        affects_result=affects,
        minutes=minutes,
        what=what,
        points=points,
        thrown=thrown,
        blocked_by=blocked_by,
        suspension_rounds=suspension,
        disqualified=disqualified,
        at_draw=at_draw,
        override=override,
        void_reason=void_reason,
    )


def _override(raw: Any, path: str) -> Override:
    obj = _object(raw, path, {"sanctions", "reason", "appeal"})
    _int(obj, "appeal", f"{path}.appeal", low=1, high=10**9)  # the committee's decision (申诉)
    reason = _string(obj, "reason", f"{path}.reason", required=True).strip()
    if not reason:
        raise CaseError(
            f"{path}.reason: an override needs a written reason",
            code="case.override_reason_missing",
            field=f"{path}.reason",
        )
    items = _list(obj.get("sanctions"), f"{path}.sanctions")
    sanctions: list[dict[str, Any]] = []
    for i, item in enumerate(items):
        where = f"{path}.sanctions[{i}]"
        if isinstance(item, str):
            if item not in SANCTION_WORDS:
                raise CaseError(
                    f"{where}: expected one of {', '.join(SANCTION_WORDS)} or an object, got {_show(item)}",
                    code="case.sanction_invalid",
                    field=where,
                    allowed=list(SANCTION_WORDS),
                    got=_show(item),
                )
            sanctions.append({item: True})
            continue
        one = _object(
            item,
            where,
            {
                "warning",
                "points",
                "against",
                "hand_loss",
                "ends_hand",
                "round_forfeit",
                "suspension_rounds",
                "disqualified",
                "levels",
                "instruction",
            },
        )
        clean: dict[str, Any] = {}
        for flag in ("warning", "hand_loss", "ends_hand", "round_forfeit", "disqualified"):
            if flag in one:
                clean[flag] = _bool(one, flag, f"{where}.{flag}")
        if "points" in one:
            clean["points"] = _int(one, "points", f"{where}.points", low=0, high=400)
        if "against" in one:
            clean["against"] = _choice(one, "against", f"{where}.against", SIDES)
        if "suspension_rounds" in one:
            clean["suspension_rounds"] = _int(
                one, "suspension_rounds", f"{where}.suspension_rounds", low=1, high=50
            )
        if "levels" in one:
            changes = _object(one["levels"], f"{where}.levels", set(SIDES))
            clean["levels"] = {
                side: _int(changes, side, f"{where}.levels.{side}", low=-12, high=12) for side in changes
            }
        if "instruction" in one:
            clean["instruction"] = _string(one, "instruction", f"{where}.instruction")
        sanctions.append(clean)
    return Override(sanctions, reason)


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _object(value: Any, path: str, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise CaseError(
            f"{path}: expected an object, got {_show(value)}",
            code="case.expected_object",
            field=path,
            got=_show(value),
        )
    for key in value:
        if key not in allowed:
            # a key with spaces or control characters is quoted so the message stays one line
            name = key if key.isidentifier() else _show(key)
            known = ", ".join(sorted(allowed))
            where = name if path == "(case)" else f"{path}.{name}"
            raise CaseError(
                f"{where}: unknown field (known: {known})",
                code="case.unknown_field",
                field=where,
                known=known,
            )
    return value


#: The largest case judged: a round has a few dozen hands at most, and a hand a handful
#: of infractions. Above these a case is refused rather than judged slowly.
MAX_HANDS = 200
MAX_INFRACTIONS = 200  # in one hand, and before play


def _list(value: Any, path: str, limit: int | None = None) -> list[Any]:
    if value is None:
        raise CaseError(f"{path}: required (a list)", code="case.list_required", field=path)
    if not isinstance(value, list):
        raise CaseError(
            f"{path}: expected a list, got {_show(value)}",
            code="case.expected_list",
            field=path,
            got=_show(value),
        )
    if limit is not None and len(value) > limit:
        raise CaseError(
            f"{path}: {len(value)} entries, more than the {limit} a case may have",
            code="case.too_many",
            field=path,
            n=len(value),
            limit=limit,
        )
    return value


def _string(obj: dict[str, Any], key: str, path: str, required: bool = False) -> Any:
    if key not in obj:
        if required:
            raise CaseError(f"{path}: required", code="case.required", field=path)
        return None
    value = obj[key]
    if not isinstance(value, str):
        raise CaseError(
            f"{path}: expected a string, got {_show(value)}",
            code="case.expected_string",
            field=path,
            got=_show(value),
        )
    return value


def _choice(
    obj: dict[str, Any], key: str, path: str, options: tuple[str, ...], required: bool = False
) -> Any:
    if key not in obj:
        if required:
            raise CaseError(
                f"{path}: required (one of {', '.join(options)})",
                code="case.choice_required",
                field=path,
                allowed=list(options),
            )
        return None
    value = obj[key]
    if value not in options or not isinstance(value, str):
        raise CaseError(
            f"{path}: expected one of {', '.join(options)}, got {_show(value)}",
            code="case.expected_choice",
            field=path,
            allowed=list(options),
            got=_show(value),
        )
    return value


def _bool(obj: dict[str, Any], key: str, path: str) -> bool | None:
    if key not in obj:
        return None
    value = obj[key]
    if not isinstance(value, bool):
        raise CaseError(
            f"{path}: expected true or false, got {_show(value)}",
            code="case.expected_bool",
            field=path,
            got=_show(value),
        )
    return value


def _int(obj: dict[str, Any], key: str, path: str, low: int, high: int) -> Any:
    if key not in obj:
        return None
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise CaseError(
            f"{path}: expected a whole number, got {_show(value)}",
            code="case.expected_int",
            field=path,
            got=_show(value),
        )
    if not low <= value <= high:
        raise CaseError(
            f"{path}: expected {low}–{high}, got {value}",
            code="case.out_of_range",
            field=path,
            low=low,
            high=high,
            got=value,
        )
    return value


def _points(obj: dict[str, Any], key: str, path: str, required: bool = False) -> Any:
    if key not in obj:
        if required:
            raise CaseError(
                f"{path}: required (card points, a multiple of 5 from 0 to 200)",
                code="case.points_required",
                field=path,
            )
        return None
    value = _int(obj, key, path, low=0, high=200)
    if value % 5:
        raise CaseError(
            f"{path}: card points come in fives, got {value}", code="case.points_fives", field=path, got=value
        )
    return value


#: Where a case was played, as the store and a printed sheet keep it around the case:
#: ``{"round": 1, "table": 2, "pairs": {"NS": "7", "EW": "12"}}``. ``judge`` refuses them.
CASE_META_KEYS = ("round", "table", "pairs")


def split_case(raw: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the case as ``judge`` reads it, its ``round``/``table``/``pairs``), both copies."""
    case = {k: copy.deepcopy(v) for k, v in raw.items() if k not in CASE_META_KEYS}
    meta = {k: copy.deepcopy(raw[k]) for k in CASE_META_KEYS if k in raw}
    return case, meta
