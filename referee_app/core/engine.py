"""The ruling engine (判罚引擎): an event's rulebook applied to one round at one table.

:func:`judge` is the single computation behind ``referee-app judge``, the desktop app and
the store: given a case and a rulebook it proposes every ruling with its clause, scores
each hand, moves the levels, and decides the round.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from . import text
from .case import TRICKS, Case, Hand, Infraction, parse_case
from .errors import CaseError, RulebookError
from .levels import LEVELS, advance, difference
from .rulebook import Rulebook, load_rulebook
from .rulebook_kinds import BLOCKERS, KINDS
from .ruling import Ruling
from .seats import SIDES, next_seat, other_side, partner, side_of
from .unusual import confirmations_in_effect, redeclarations_allowed

#: How a round ends before time, as an English refusal says it (the catalogue's words:
#: errors.toml ``[value.round_end]``).
ROUND_ENDS = {"passed_a": "passed A", "round_forfeit": "round lost"}


@dataclass
class HandOutcome:
    """How one hand ended (一副牌的结果): points, hand losses, levels, the next dealer."""

    number: int
    dealer: str
    dealer_side: str
    levels_before: dict[str, str]
    rulings: list[Ruling]
    in_progress: bool
    levels_after: dict[str, str]
    bottom_multiplier: int = 0
    bottom_points: int = 0
    penalty_points: int = 0
    defender_total: int | None = None
    lost_by: str | None = None
    decided_by: str = "points"
    gains: dict[str, int] = field(default_factory=lambda: {"NS": 0, "EW": 0})
    redeclaration_bonus: int = 0
    next_dealer: str | None = None
    passed_a: str | None = None  # the side that passed A in this hand
    assumed: bool = False
    keep_deal: bool = False
    j_drop: str | None = None  # the level the J rule (滑钩) dropped the dealer side to
    #: The seat the rotation gives now, when the hand was dealt by another as played
    #: (``dealer``): an earlier hand's outcome changed after play. None: the rotation's.
    dealer_by_rotation: str | None = None
    #: Played after the last hand the time warning allows, where the event's text is silent
    #: on how many follow it (the rulebook's number is a reading): the hand is marked.
    past_time_warning: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "dealer_side": self.dealer_side,
            "levels_before": self.levels_before,
            "rulings": [r.to_json() for r in self.rulings],
            "in_progress": self.in_progress,
            "bottom_multiplier": self.bottom_multiplier,
            "bottom_points": self.bottom_points,
            "penalty_points": self.penalty_points,
            "defender_total": self.defender_total,
            "lost_by": self.lost_by,
            "decided_by": self.decided_by,
            "gains": self.gains,
            "redeclaration_bonus": self.redeclaration_bonus,
            "levels_after": self.levels_after,
            "next_dealer": self.next_dealer,
            "passed_a": self.passed_a is not None,
            "passed_a_side": self.passed_a,
            "keep_deal": self.keep_deal,
            "j_drop": self.j_drop,
            "dealer_by_rotation": self.dealer_by_rotation,
            "past_time_warning": self.past_time_warning,
            "assumed": self.assumed,
        }


@dataclass
class Decision:
    """The engine's decision on a round (判罚结果), in no language: the rulings before play, each
    hand's outcome, a forfeit, and the round's result. Stored, chained in the audit log and
    hashed into the printed digest as :meth:`to_json`; worded for a reader by :func:`word`."""

    event: str
    rulebook_sha256: str
    before_play: list[Ruling]
    hands: list[HandOutcome]
    forfeit: dict[str, Any] | None
    result: dict[str, Any] | None
    #: Where the time warning fell and the last hand it allows (absent: none recorded).
    time_warning: dict[str, Any] | None = None
    #: The odd facts the referee confirmed and this decision rests on (:mod:`.unusual`).
    confirmed: list[dict[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out = {
            "event": self.event,
            "rulebook_sha256": self.rulebook_sha256,
            "before_play": [r.to_json() for r in self.before_play],
            "forfeit": self.forfeit,
            "hands": [h.to_json() for h in self.hands],
            "result": self.result,
        }
        if self.time_warning is not None:
            out["time_warning"] = self.time_warning
        if self.confirmed:
            out["confirmed"] = [dict(c) for c in self.confirmed]
        return out


def decide(case: Any, *, rulebook: Rulebook | None = None) -> Decision:
    """The typed, language-free decision on a decoded case (see :func:`judge`)."""
    parsed = parse_case(case)
    if rulebook is None:
        try:
            rulebook = load_rulebook(parsed.event)
        except RulebookError as exc:
            raise CaseError(f"event: {exc}", code=exc.code, field="event", **exc.values) from None
    return RoundJudge(rulebook, parsed).run_confirmed()


def word(decision: Mapping[str, Any], lang: str, rulebook: Rulebook) -> dict[str, Any]:
    """A copy of a language-free decision (:meth:`Decision.to_json`) with the words a referee
    reads in ``lang``: each ruling's ``text`` and ``instruction``, each hand's ``text``.

    A decision stored before decisions were language-free already carries its words; a part
    without the data to word it again (no ``scope`` on a ruling, no ``keep_deal`` on a hand)
    keeps the words it has."""
    out = copy.deepcopy(dict(decision))
    for r in out.get("before_play") or []:
        word_ruling(r, lang, rulebook)
    for hand in out.get("hands") or []:
        both_lost = hand.get("lost_by") == "both"
        for r in hand.get("rulings") or []:
            word_ruling(r, lang, rulebook, both_lost=both_lost)
        if hand.get("in_progress"):
            hand["text"] = "本副牌进行中。" if lang == "zh" else "Hand in progress."
        elif "keep_deal" in hand:
            hand["text"] = text.hand_text(
                lang,
                hand["dealer_side"],
                hand["defender_total"],
                hand["gains"],
                hand["keep_deal"],
                hand["lost_by"],
                hand["j_drop"],
                hand["next_dealer"],
                hand.get("passed_a_side"),
                levels_before=hand.get("levels_before"),
                mandatory=tuple(rulebook.data["levels"]["mandatory"]),
            )
            if hand.get("dealer_by_rotation"):
                nd = rulebook.data["next_dealer"]
                hand["text"] += (" " if lang == "en" else "") + text.as_played_text(
                    lang,
                    hand["dealer"],
                    hand["dealer_by_rotation"],
                    nd.get("as_played_clause") or nd["clause"],
                )
    return out


def is_language_free(decision: Mapping[str, Any]) -> bool:
    """Whether a stored decision is in no language (stored since decisions were): it can be
    worded in any language by :func:`word`, without judging the case again."""
    rulings = list(decision.get("before_play") or [])
    for hand in decision.get("hands") or []:
        if not hand.get("in_progress") and "keep_deal" not in hand:
            return False
        rulings += hand.get("rulings") or []
    return all("scope" in r and "text" not in r for r in rulings)


def word_ruling(
    ruling: dict[str, Any], lang: str, rulebook: Rulebook, *, both_lost: bool = False
) -> dict[str, Any]:
    """Add ``text`` and the one-language ``instruction`` to a ruling's data, in place.
    ``both_lost``: the ruling's hand is lost by both sides (no award of its own is worded)."""
    if "scope" not in ruling:  # stored with its words, before rulings were language-free
        return ruling
    instruction = ruling.get("instruction")
    ruling["text"] = text.ruling_text(Ruling.from_json(ruling), lang, rulebook, both_lost=both_lost)
    ruling["instruction"] = instruction.get(lang) if isinstance(instruction, Mapping) else instruction
    if isinstance(ruling.get("proposed"), dict):
        word_ruling(ruling["proposed"], lang, rulebook, both_lost=both_lost)
    return ruling


def judge(case: Any, *, lang: str = "zh", rulebook: Rulebook | None = None) -> dict[str, Any]:
    """Judge a decoded case (a dict as in CASE-FORMAT.md) and return the decision.

    Raises :class:`CaseError` for an invalid case and :class:`RulebookError` when the
    event's rulebook cannot be loaded.
    """
    if lang not in ("zh", "en"):
        raise ValueError(f"lang: expected zh or en, got {lang!r}")
    parsed = parse_case(case)
    if rulebook is None:
        try:
            rulebook = load_rulebook(parsed.event)
        except RulebookError as exc:
            raise CaseError(f"event: {exc}", code=exc.code, field="event", **exc.values) from None
    return word(RoundJudge(rulebook, parsed).run_confirmed().to_json(), lang, rulebook)


class RoundJudge:
    """Plays a round's hands in order: rulings, hand scores, levels, dealer, result."""

    def __init__(self, rulebook: Rulebook, case: Case) -> None:
        self.rb = rulebook
        self.rules = rulebook.data
        self.case = case
        self.levels = dict(case.levels)
        self.reached = {"NS": 0, "EW": 0}
        # hands whose outcome rests on a reading the event does not print (both sides losing,
        # an award above the printed one, a gain stopped at A …): the result they lead to
        # is marked assumed too
        self.read_hands: list[int] = []
        # (side, counter, hand number, seat) for every occurrence counted so far in this round
        self.occurrences: list[tuple[str, str, int, str | None]] = []
        # (side, counter, hand number) for every failed throw whose other cards were charged
        # as exposed but, by the rulebook's assumed reading, not counted as a time
        self.rest_times: list[tuple[str, str, int]] = []
        self.mandatory = self.rules["levels"]["mandatory"]
        self.check_kinds()

    def check_kinds(self) -> None:
        """Each infraction is of a kind this rulebook has: the 14, or one of the event's own
        (``event_kind``); said as the case format says an unknown choice."""
        known = [*KINDS, *(k for k in self.rules["infractions"] if k not in KINDS)]
        for inf in [*self.case.before_play, *(i for hand in self.case.hands for i in hand.infractions)]:
            if inf.kind not in self.rules["infractions"]:
                got = json.dumps(inf.kind, ensure_ascii=False)
                raise CaseError(
                    f"{inf.path}.kind: expected one of {', '.join(known)}, got {got}",
                    code="case.expected_choice",
                    field=f"{inf.path}.kind",
                    allowed=known,
                    got=got,
                )

    # -- the round -------------------------------------------------------------------------

    def run_confirmed(self) -> Decision:
        """The round judged, with the confirmations of odd facts it rests on."""
        decision = self.run()
        decision.confirmed = confirmations_in_effect(self.case, self.rules)
        return decision

    def run(self) -> Decision:
        # counted in a canonical order like a hand's infractions; shown in the order given
        before_play = self.case.before_play
        by_index = {
            i: self.ruling(before_play[i], hand_number=0, dealer_side=None)
            for i in sorted(range(len(before_play)), key=lambda i: play_order(before_play[i], i))
        }
        before = [by_index[i] for i in range(len(before_play))]
        decision = Decision(self.rb.id, self.rb.sha256, before, [], None, None)
        forfeiting = sorted(
            {r.side for r in before if (r.round_forfeit or r.disqualified) and r.void_reason is None}
        )
        if forfeiting:
            if self.case.hands:
                raise CaseError(
                    "hands: the round was forfeited before play (before_play); give no hands",
                    code="case.forfeit_no_hands",
                    field="hands",
                )
            decision.forfeit = self.forfeit(forfeiting)
            decision.result = self.forfeit_result(decision.forfeit)
            return decision

        # a level change ruled before play (迟到扣一级) moves the levels the first hand starts from
        self.move_by_rulings(self.levels, [r for r in before if r.void_reason is None])
        decision.time_warning = self.check_time_warning()
        hands_out: list[HandOutcome] = []
        dealer: str | None = self.case.first_dealer
        ended: str | None = None  # how the round ended: passed_a, round_forfeit
        ended_side: str | None = None  # the side that passed A, or that lost the round
        forfeit: dict[str, Any] | None = None
        passed_side: str | None = None
        last_dealer_side = None
        for number, hand in enumerate(self.case.hands, start=1):
            if ended:
                raise CaseError(
                    f"{hand.path}: the round ended at hand {number - 1} ({ROUND_ENDS[ended]} by "
                    f"{ended_side}); no hand can follow",
                    code="case.hand_after_end",
                    field=hand.path,
                    n=number - 1,
                    round_end=ended,
                    side=ended_side,
                )
            dealer = self.dealer_for(hand, number, dealer)
            by_rotation = self.rotation_differs(hand, number, dealer)
            if by_rotation is not None:
                dealer = by_rotation[1]
            last_dealer_side = side_of(dealer)
            result = self.play_hand(hand, number, dealer)
            if by_rotation is not None:
                # the hand stands as it was dealt; the rotation's dealer is a stated reading
                result["outcome"].dealer_by_rotation = by_rotation[0]
                result["outcome"].assumed = True
                self.read_hands.append(number)
            if decision.time_warning is not None and number > decision.time_warning["last_hand"]:
                # past the hands the warning allows, by a number the event does not print
                result["outcome"].past_time_warning = True
                result["outcome"].assumed = True
                self.read_hands.append(number)
            hands_out.append(result["outcome"])
            dealer = result["next_dealer"]
            if result["forfeiting"]:
                forfeit = self.forfeit(result["forfeiting"])
                ended, ended_side = "round_forfeit", forfeit["side"]
            elif result["passed_a"]:
                passed_side = result["passed_a"]
                ended, ended_side = "passed_a", passed_side
        if self.case.withdrawal is not None:
            if ended:
                raise CaseError(
                    f"withdrawal: the round ended at hand {len(hands_out)} ({ROUND_ENDS[ended]} by "
                    f"{ended_side}); a pair cannot leave it after that",
                    code="case.withdrawal_after_end",
                    field="withdrawal",
                    n=len(hands_out),
                    round_end=ended,
                    side=ended_side,
                )
            forfeit = self.withdrawal_forfeit(self.case.withdrawal["side"], self.case.withdrawal["reason"])
        decision.forfeit = forfeit
        decision.hands = hands_out
        if forfeit is not None:
            decision.result = self.forfeit_result(forfeit)
        elif passed_side is not None:
            decision.result = self.result(passed_side, "passed_a")
        elif self.case.finished != "open":
            # ``dealer``: who holds the deal as the round ends, the last hand's next dealer
            # (after its change of deal); none after an open grab
            decision.result = self.result_on_time(last_dealer_side, dealer)
        return decision

    def check_time_warning(self) -> dict[str, Any] | None:
        """Where the time warning (限时提醒) fell and the last hand it allows; hands past it
        are refused where the event prints how many follow, marked where it does not."""
        if self.case.time_warning is None:
            return None
        cfg = self.rules["round"]
        clause = cfg.get("warning_clause") or cfg["clause"]
        given = self.case.time_warning
        last = max(given, given + cfg["hands_after_warning"] - (1 if cfg["warning_includes_current"] else 0))
        played = len(self.case.hands)
        if played > last and not clause["assumed"]:
            extra = self.case.hands[last]
            raise CaseError(
                f"{extra.path}: hand {last + 1} is past the time warning given in hand {given}: "
                f"{self.rb.id} allows hands up to {last} ({cite(clause)})",
                code="case.past_time_warning",
                field=extra.path,
                n=last + 1,
                warned_in=given,  # not "given": a message shows that as ", got …"
                last=last,
                rulebook=self.rb.id,
                clause=cite(clause),
            )
        return {
            "hand": given,
            "last_hand": last,
            "citation": cite(clause),
            "assumed": bool(clause["assumed"]),
        }

    def dealer_for(self, hand: Hand, number: int, derived: str | None) -> str:
        if number == 1:
            if hand.dealer is not None and hand.dealer != self.case.first_dealer:
                raise self.not_first_dealer(hand, "dealer", hand.dealer)
            return self.case.first_dealer
        if derived is None:
            if hand.dealer is None and hand.dealt_by is not None:
                return hand.dealt_by  # the grab's winner, as recorded when the hand was played
            if hand.dealer is None:
                raise CaseError(
                    f"{hand.path}.dealer: required: the previous hand left the deal open "
                    "(一次性抢庄); give the seat that won the grab",
                    code="case.dealer_grab",
                    field=f"{hand.path}.dealer",
                )
            return hand.dealer
        if hand.dealer is not None and hand.dealer != derived:
            raise CaseError(
                f"{hand.path}.dealer: dealers after the first are derived "
                f"({derived} deals this hand), got {hand.dealer}",
                code="case.dealer_derived",
                field=f"{hand.path}.dealer",
                derived=derived,
                got=hand.dealer,
            )
        return derived

    def not_first_dealer(self, hand: Hand, key: str, got: str) -> CaseError:
        """The first hand given another dealer (``key``: the field) than ``first_dealer``."""
        return CaseError(
            f"{hand.path}.{key}: the first hand's dealer is first_dealer "
            f"({self.case.first_dealer}), got {got}",
            code="case.first_dealer",
            field=f"{hand.path}.{key}",
            first=self.case.first_dealer,
            got=got,
        )

    def rotation_differs(self, hand: Hand, number: int, dealer: str) -> tuple[str, str] | None:
        """(the rotation's dealer, the seat that dealt) when ``hand`` was dealt as played
        (``dealt_by``) by another seat than the rotation now gives — an earlier hand's outcome
        was changed after play (申诉、更正) — else None. The first hand's dealer and a grab's
        winner are the case's own facts: a different ``dealt_by`` there cannot have happened."""
        if hand.dealt_by is None or hand.dealt_by == dealer:
            return None
        if number == 1:
            raise self.not_first_dealer(hand, "dealt_by", hand.dealt_by)
        if hand.dealer is not None:
            raise CaseError(
                f"{hand.path}.dealt_by: {hand.dealer} won the grab (dealer), got {hand.dealt_by}",
                code="case.dealt_by_grab",
                field=f"{hand.path}.dealt_by",
                dealer=hand.dealer,
                got=hand.dealt_by,
            )
        return dealer, hand.dealt_by

    # -- one hand --------------------------------------------------------------------------

    def play_hand(self, hand: Hand, number: int, dealer: str) -> dict[str, Any]:
        dealer_side = side_of(dealer)
        defenders = other_side(dealer_side)
        before = dict(self.levels)
        redeclarations_over = self.check_hand_facts(hand, number)
        # Escalation counts occurrences in the order of play, whatever the order they were
        # typed in; the rulings are then shown in the order the infractions were given.
        shown_by_index: dict[int, Ruling] = {}
        for index in sorted(range(len(hand.infractions)), key=lambda i: play_order(hand.infractions[i], i)):
            shown_by_index[index] = self.ruling(hand.infractions[index], number, dealer_side)
        shown = [shown_by_index[i] for i in range(len(hand.infractions))]
        rulings = [r for r in shown if r.void_reason is None]  # a voided ruling has no effect
        self.check_nothing_after_the_end(hand, shown)
        forfeiting = sorted(
            {
                r.side
                for r in rulings
                if r.round_forfeit or (r.disqualified and self.rules["disqualification_forfeits_round"])
            }
        )
        if hand.in_progress and not any(r.ends_hand for r in rulings):
            # a hand-ending offence (立即结束) ends a hand still being played: it is scored now
            return self.hand_in_progress(hand, number, dealer, before, shown, forfeiting)

        penalty = 0  # moves the defenders' total: + against the dealer side, − against them
        for r in rulings:
            penalty += r.points if r.against == dealer_side else -r.points
        bottom_points = self.bottom_points(hand)
        raw_total = hand.defender_points + bottom_points + penalty
        negative = self.rules["scoring"].get("negative_clause")
        # a total below 0 counted as 0: a reading where the event does not print it
        negative_assumed = raw_total < 0 and negative is not None and bool(negative["assumed"])

        losers = [r for r in rulings if r.hand_lost]
        lost_sides = sorted({r.side for r in losers})
        loss_cfg = self.rules["hand_loss"]
        gains = {"NS": 0, "EW": 0}
        keep_deal = True
        decided_by = "points"
        scoring_assumed = False
        reading_assumed = False  # the hand's outcome rests on a reading the event does not print
        j_drop: str | None = None
        open_grab = False
        lost_by: str | None = None

        if len(lost_sides) == 2:
            lost_by = "both"
            both_clause = loss_cfg.get("both_sides_clause")
            printed_for = loss_cfg.get("both_sides_kinds")
            if (both_clause is not None and both_clause["assumed"]) or (
                printed_for is not None and any(r.kind not in printed_for for r in losers)
            ):
                reading_assumed = True
                for r in losers:
                    r.assumed = True
            if loss_cfg["both_sides"] == "open_grab":
                open_grab = True
                keep_deal = False  # no side keeps the deal: the next one is grabbed
                decided_by = "hand_loss"
                total = self.counted(raw_total)
            else:  # the two shifts cancel: the hand is scored on its points
                total = self.counted(raw_total)
                keep_deal, gain, scoring_assumed = self.outcome_by_points(total)
                gains[dealer_side if keep_deal else defenders] = gain
        elif len(lost_sides) == 1:
            offender = lost_sides[0]
            lost_by = offender
            if loss_cfg["clause"]["assumed"]:
                reading_assumed = True  # the event's hand-loss rule is itself a reading
            if loss_cfg["mode"] == "shift" and all(r.award is None for r in losers):
                shift = loss_cfg["shift"]
                total = self.counted(raw_total + (shift if offender == dealer_side else -shift))
                keep_deal, gain, scoring_assumed = self.outcome_by_points(total)
                decided_by = "hand_loss"
                winner_keeps = offender == defenders
                if keep_deal != winner_keeps:
                    # the non-offending side deals next even where the total alone would not
                    # give it the deal; it then deals without a level gain
                    keep_deal, gain = winner_keeps, 0
                    no_gain_clause = loss_cfg.get("deal_without_gain_clause")
                    if no_gain_clause is not None and no_gain_clause["assumed"]:
                        reading_assumed = True
                        for r in losers:
                            r.assumed = True
                gains[dealer_side if keep_deal else defenders] = gain
            else:
                # Lost more than once: the award that favours the non-offending side most
                # stands, whichever offence was typed first.
                role_key = "dealer_offends" if offender == dealer_side else "defenders_offend"
                awards = [
                    ((r.award or loss_cfg["award"])[role_key], r)
                    for r in losers
                    if (r.award or loss_cfg["award"]) is not None
                ]
                printed = max(award for award, _ in awards)
                # every ruling carrying the largest award, so the mark never depends on order
                largest = [r for award, r in awards if award == printed]
                total = self.counted(raw_total)
                decided_by = "hand_loss"
                points_keep, points_gain, _ = self.outcome_by_points(total)
                # A hand that ends at once (立即结束) has no final points to compare with.
                better = loss_cfg["keep_better_outcome"] and not any(r.ends_hand for r in losers)
                if offender == dealer_side:
                    keep_deal = False
                    gains[defenders] = printed
                    if better and not points_keep:
                        gains[defenders] = max(gains[defenders], points_gain)
                    # an offence must not spare the dealer side the J rule's drop
                    j_drop = self.j_rule_drop(hand, before[dealer_side], total)
                else:
                    keep_deal = True
                    gains[dealer_side] = printed
                    if better and points_keep:
                        gains[dealer_side] = max(gains[dealer_side], points_gain)
                    j_rule = self.rules["scoring"].get("j_rule")
                    if self.j_rule_drop(hand, before[dealer_side], total) is not None:
                        # the defenders captured with a J but lost the hand: two printed
                        # clauses meet; the hand loss stands and the J rule does not apply
                        overruled = j_rule.get("defenders_lose_clause")
                        if overruled is not None and overruled["assumed"]:
                            reading_assumed = True
                            for r in losers:
                                r.assumed = True
                if max(gains.values()) > printed:
                    # more than the printed award: the keep-better reading decided the hand
                    reading_assumed = True
                    for r in largest:
                        r.assumed = True
        else:
            total = self.counted(raw_total)
            keep_deal, gain, scoring_assumed = self.outcome_by_points(total)
            gains[dealer_side if keep_deal else defenders] = gain
            j_drop = self.j_rule_drop(hand, before[dealer_side], total)
            if j_drop is not None:
                keep_deal = False
                gains[dealer_side] = 0
                gains[defenders] = 0 if total < self.rules["scoring"]["deal_changes_at"] else gain
                decided_by = "j_rule"
        if j_drop is not None and self.rules["scoring"]["j_rule"]["clause"]["assumed"]:
            reading_assumed = True  # the J rule (滑钩) decided the hand and is itself a reading

        if hand.bottom.captured and self.multiplier_assumed(hand):
            reading_assumed = True  # the bottom multiplied by a value the event does not print

        redeclaration_bonus = 0
        red = self.rules["scoring"].get("redeclaration")
        if red and hand.redeclarations and number >= red["from_hand"]:
            if open_grab:
                # both sides lost the hand: no side deals next to take the bonus, so it lapses
                both_lose = red.get("both_lose_clause")
                if both_lose is None or both_lose["assumed"]:
                    reading_assumed = True
            else:
                redeclaration_bonus = red["levels_each"] * hand.redeclarations
                gains[dealer_side if keep_deal else defenders] += redeclaration_bonus
                after_loss = red.get("hand_loss_clause")
                if lost_by is not None and after_loss is not None and after_loss["assumed"]:
                    reading_assumed = True  # a bonus on top of a printed hand-loss award
                if red["clause"]["assumed"]:
                    reading_assumed = True

        passed_a: str | None = None
        after = dict(before)
        if not open_grab:
            for side in SIDES:
                playing_it = side == dealer_side and keep_deal
                after[side], passed = advance(before[side], gains[side], self.mandatory, playing_it)
                if passed:
                    passed_a = side
                elif difference(after[side], before[side]) < gains[side] and (
                    self.rules["levels"]["clause"]["assumed"]
                    or after[side] in self.rules["levels"].get("assumed_mandatory", ())
                ):
                    reading_assumed = True  # a gain stopped on a level the event does not print
            if j_drop is not None:
                after[dealer_side] = j_drop
        self.move_by_rulings(after, rulings)
        for side in SIDES:
            if after[side] != before[side]:
                self.reached[side] = number
        self.levels = after

        if open_grab:
            next_dealer = None
        else:
            next_dealer = partner(dealer) if keep_deal else next_seat(dealer)
        # who deals next comes from a rotation the event does not print: the hand is marked
        # (its levels stand; the next hand's dealer is the reading)
        rotation_assumed = next_dealer is not None and bool(self.rules["next_dealer"]["clause"]["assumed"])
        if redeclarations_over:
            reading_assumed = True

        if reading_assumed:
            self.read_hands.append(number)
        outcome = HandOutcome(
            number=number,
            dealer=dealer,
            dealer_side=dealer_side,
            levels_before=before,
            rulings=shown,
            in_progress=False,
            bottom_multiplier=self.multiplier(hand) if hand.bottom.captured else 0,
            bottom_points=bottom_points,
            penalty_points=penalty,
            defender_total=total,
            lost_by=lost_by,
            decided_by=decided_by,
            gains=gains,
            redeclaration_bonus=redeclaration_bonus,
            levels_after=after,
            next_dealer=next_dealer,
            passed_a=passed_a,
            assumed=scoring_assumed
            or reading_assumed
            or negative_assumed
            or rotation_assumed
            or any(r.assumed for r in rulings),
            keep_deal=keep_deal,
            j_drop=j_drop,
        )
        return {
            "outcome": outcome,
            "next_dealer": next_dealer,
            "forfeiting": forfeiting,
            "passed_a": passed_a,
        }

    def move_by_rulings(self, levels: dict[str, str], rulings: list[Ruling]) -> None:
        """The level changes sanctions rule (扣一级), in place: after whatever else moved
        ``levels``, never below 2, never counted as playing a mandatory level."""
        for r in rulings:
            for side, change in r.levels.items():
                if change:
                    levels[side], _ = advance(levels[side], change, self.mandatory, False)

    def check_hand_facts(self, hand: Hand, number: int) -> bool:
        """Refuse a hand whose facts cannot have happened under this event's rules (a bottom
        worth more than its cards hold, more re-declarations than allowed); True when the
        re-declarations pass a limit the rulebook itself only assumes (the hand is marked)."""
        bottom_cfg = self.rules["bottom"]
        most = bottom_cfg.get("max_points")
        if most is not None and hand.bottom.points > most:
            raise CaseError(
                f"{hand.path}.bottom.points: {hand.bottom.points} card points, more than the "
                f"{most} the bottom can hold ({cite(bottom_cfg['clause'])})",
                code="case.bottom_over_max",
                field=f"{hand.path}.bottom.points",
                got=hand.bottom.points,
                most=most,
                clause=cite(bottom_cfg["clause"]),
            )
        limit = redeclarations_allowed(self.rules, number)
        if limit is None:
            return False
        allowed, clause = limit
        if hand.redeclarations <= allowed:
            return False
        if clause["assumed"]:
            return True  # odd, not impossible: the referee confirms it (core.unusual)
        raise CaseError(
            f"{hand.path}.redeclarations: {hand.redeclarations} re-declarations, more than the "
            f"{allowed} {self.rb.id} allows in hand {number} ({cite(clause)})",
            code="case.redeclarations_over",
            field=f"{hand.path}.redeclarations",
            got=hand.redeclarations,
            allowed=allowed,
            n=number,
            rulebook=self.rb.id,
            clause=cite(clause),
        )

    def check_nothing_after_the_end(self, hand: Hand, shown: list[Ruling]) -> None:
        """Refuse an offence, or a bottom capture, after a ruling ended the hand at once
        (该副牌立即结束): nothing is played after it."""
        ending = [
            (play_order(inf, i), inf, r)
            for i, (inf, r) in enumerate(zip(hand.infractions, shown, strict=True))
            if r.ends_hand and r.void_reason is None
        ]
        if not ending:
            return
        (_, ended_at, _, _), first, ruling = min(ending, key=lambda e: e[0])
        if first.trick is None and first.phase is None:
            return  # logged without saying when: the end is not placed in the hand
        # the hand ends when the offence is found (play_order's second part): the trick of its
        # discovery, or its phase
        end = ended_at
        where = f"trick {end}" if first.trick is not None else str(first.phase)
        for i, inf in enumerate(hand.infractions):
            if inf is first or inf.phase == "end_of_hand":
                continue  # a count error is found when the cards are counted, after the end
            offence_at = play_order(inf, i)[0]
            if offence_at <= end and inf.discovered is not None and inf.discovered > end:
                # made before the end, but found in a trick that was never played
                raise CaseError(
                    f"{inf.path}.discovered: the hand had already ended ({first.path}, "
                    f"{ruling.citation}, {where}); trick {inf.discovered} was never played",
                    code="case.found_after_end",
                    field=f"{inf.path}.discovered",
                    ended_by=first.path,
                    clause=ruling.citation,
                    at=where,
                    discovered=inf.discovered,
                )
            if offence_at > end:
                late_field = f"{inf.path}.trick" if inf.trick is not None else f"{inf.path}.phase"
                raise CaseError(
                    f"{late_field}: the hand had already ended ({first.path}, {ruling.citation}, "
                    f"{where}); nothing is played after it",
                    code="case.after_hand_ended",
                    field=late_field,
                    ended_by=first.path,
                    clause=ruling.citation,
                    at=where,
                )
        # (a count error found when the cards are counted, end_of_hand, comes after the last trick)
        if hand.bottom.captured and end < TRICKS:
            raise CaseError(
                f"{hand.path}.bottom.captured: the hand ended before its last trick "
                f"({first.path}, {ruling.citation}, {where}); the bottom cannot be captured",
                code="case.captured_after_end",
                field=f"{hand.path}.bottom.captured",
                ended_by=first.path,
                clause=ruling.citation,
                at=where,
            )

    def hand_in_progress(
        self,
        hand: Hand,
        number: int,
        dealer: str,
        before: dict[str, str],
        shown: list[Ruling],
        forfeiting: list[str],
    ) -> dict[str, Any]:
        """A hand still being played: its rulings stand, it is scored when its points are in."""
        outcome = HandOutcome(
            number=number,
            dealer=dealer,
            dealer_side=side_of(dealer),
            levels_before=before,
            rulings=shown,
            in_progress=True,
            levels_after=dict(before),
            decided_by="in_progress",
            assumed=any(r.assumed for r in shown if r.void_reason is None),
        )
        return {"outcome": outcome, "next_dealer": None, "forfeiting": forfeiting, "passed_a": None}

    def j_rule_drop(self, hand: Hand, dealer_level: str, total: int) -> str | None:
        """The level the dealer side drops to under the J rule (滑钩), if it applies: by
        how many Js captured, or by which J (主J / 副J) where the rulebook says so; only from
        the rule's least defender ``total`` on, where it has one."""
        j_rule = self.rules["scoring"].get("j_rule")
        if not (j_rule and dealer_level == j_rule["level"] and hand.bottom.captured and hand.bottom.j > 0):
            return None
        least = j_rule.get("min_defender_total")
        if least is not None and total < least:
            return None
        if j_rule.get("trump_to") is None:
            return j_rule["single_to"] if hand.bottom.j == 1 else j_rule["pair_to"]
        if hand.bottom.j_suit is None:
            raise CaseError(
                f"{hand.path}.bottom.j_suit: required: {self.rb.id}'s J rule drops the dealer side "
                f"by which J captured ({cite(j_rule['clause'])}): trump (the trump suit's J) "
                "or side (a side suit's J)",
                code="case.j_suit_required",
                field=f"{hand.path}.bottom.j_suit",
                rulebook=self.rb.id,
                clause=cite(j_rule["clause"]),
            )
        return j_rule["trump_to"] if hand.bottom.j_suit == "trump" else j_rule["side_to"]

    def counted(self, total: int) -> int:
        """A defenders' total as the hand is scored on it: below 0 it counts as 0, unless the
        rulebook's ``negative_total`` keeps it to give further levels (more_levels)."""
        if self.rules["scoring"].get("negative_total", "zero") == "more_levels":
            return total
        return max(0, total)

    def outcome_by_points(self, total: int) -> tuple[bool, int, bool]:
        """(dealer side keeps the deal, levels gained, whether the band used is assumed)."""
        scoring = self.rules["scoring"]
        threshold = scoring["deal_changes_at"]
        if total < threshold:
            bands = scoring["dealer_bands"]
            # the first band up to the total; a total past the last band's upto and short of
            # the threshold (a referee's penalty not in fives: 77 under 75 and 80) is in the last
            band = next((b for b in bands if total <= b["upto"]), bands[-1])
            clause = scoring.get("dealer_bands_clause") or scoring["clause"]
            gain = band["gain"]
            if total < 0:  # kept below 0 (more_levels): a level more for each whole step
                # (the 0 band's reading marks it as at 0; negative_clause's, in play_hand)
                gain += -total // scoring["negative_step"]
            return True, gain, bool(clause["assumed"])
        gain = (total - threshold) // scoring["step"]
        cap = scoring.get("defender_gain_cap")
        if cap is not None:
            gain = min(gain, cap)
        return False, gain, bool(scoring["clause"]["assumed"])

    def multiplier(self, hand: Hand) -> int:
        cfg = self.rules["bottom"]
        bottom = hand.bottom

        def of(shape: str | None, pairs: int | None) -> int:
            if shape == "single":
                return cfg["single"]
            if shape == "pair":
                return cfg["pair"]
            n = pairs or 2
            return 2 ** (n + 1) if cfg["tractor"] == "power" else 2 * (n + 1)

        if bottom.shape != "throw":
            return of(bottom.shape, bottom.pairs)
        largest = of(bottom.largest, bottom.pairs)
        if cfg["throw"] == "fixed":
            return cfg["throw_value"]
        if cfg["throw"] == "fixed_or_largest":
            return max(cfg["throw_value"], largest)
        return largest + cfg["throw_value"]

    def multiplier_assumed(self, hand: Hand) -> bool:
        """Whether the bottom's multiplier comes from a value the rulebook states as a
        reading (``bottom.assumed_values``): the shape of the last trick, and for a throw
        also the largest part it is multiplied by where the throw's rule reads it."""
        cfg = self.rules["bottom"]
        assumed = set(cfg.get("assumed_values") or ())
        from_pairs, pairs = cfg.get("assumed_tractor_from_pairs"), hand.bottom.pairs
        if from_pairs is not None and pairs is not None and pairs >= from_pairs:
            assumed.add("tractor")  # a tractor this long: its multiplier is the reading
        # a captured bottom has its shape, and a throw its largest part (the case requires them)
        shape = hand.bottom.shape
        if shape in assumed:
            return True
        return shape == "throw" and cfg["throw"] != "fixed" and hand.bottom.largest in assumed

    def bottom_points(self, hand: Hand) -> int:
        return hand.bottom.points * self.multiplier(hand) if hand.bottom.captured else 0

    # -- rulings ---------------------------------------------------------------------------

    def ruling(self, inf: Infraction, hand_number: int, dealer_side: str | None) -> Ruling:
        proposed = self.computed_ruling(inf, hand_number, dealer_side)
        ruling = proposed if inf.override is None else self.overridden(inf, proposed, dealer_side)
        ruling.void_reason = inf.void_reason
        ruling.infraction = inf.path
        if proposed is not ruling:
            proposed.infraction = inf.path
        if dealer_side is not None:
            ruling.role = "dealer_side" if inf.side == dealer_side else "defenders"
        return ruling

    def computed_ruling(self, inf: Infraction, hand_number: int, dealer_side: str | None) -> Ruling:
        spec = self.rules["infractions"][inf.kind]
        rule = self.first_match(inf.kind, inf, dealer_side)
        sanction = rule["sanction"]
        clause = rule["clause"]
        assumed = bool(clause["assumed"])
        citation = cite(clause)
        counter = rule["counter"]
        instruction = sanction["instruction"]
        if rule["same_as"] is not None:
            inner = self.first_match(rule["same_as"], inf, dealer_side)
            sanction = inner["sanction"]
            citation = f"{citation}（{cite(inner['clause'])}）"
            assumed = assumed or bool(inner["clause"]["assumed"])
            counter = counter or inner["counter"]
            instruction = rule["sanction"]["instruction"] or inner["sanction"]["instruction"]
        occurrence, scope, escalated = 1, None, False
        if counter is not None:
            spec_counter = self.rules["counters"][counter]
            in_round = 1 + sum(1 for s, c, _, _ in self.occurrences if s == inf.side and c == counter)
            in_hand = 1 + sum(
                1 for s, c, h, _ in self.occurrences if s == inf.side and c == counter and h == hand_number
            )
            by_player = 1 + sum(
                1
                for _, c, h, seat in self.occurrences
                if seat == inf.seat and c == counter and (spec_counter["scope"] != "hand" or h == hand_number)
            )
            occurrence, scope = self.count(
                counter, inf.side, hand_number, record=inf.void_reason is None, seat=inf.seat
            )
            per_side = spec_counter.get("per_side_clause")
            if (
                scope != "event"
                and inf.seat is not None
                and per_side is not None
                and per_side["assumed"]
                and step_for(spec_counter, occurrence) is not step_for(spec_counter, by_player)
            ):
                # counted per player this would take another step: the side count decides it
                assumed = True
            scope_clause = spec_counter.get("scope_clause")
            if scope_clause is not None and scope_clause["assumed"] and scope != "event":
                # the other reading of the scope: a hand's count over the round, a round's
                # count within the hand; a ruling it would take to another step is marked
                other = in_round if scope == "hand" else in_hand
                if step_for(spec_counter, occurrence) is not step_for(spec_counter, other):
                    assumed = True
            uncounted = self.uncounted_rest(counter, inf.side, hand_number)
            if uncounted and step_for(spec_counter, occurrence) is not step_for(
                spec_counter, occurrence + uncounted
            ):
                # counting an earlier failed throw's exposed cards as a time would change this
                assumed = True
            step = step_for(spec_counter, occurrence)
            if step is not None:
                sanction = step["sanction"]
                citation = cite(step["clause"])
                assumed = assumed or bool(step["clause"]["assumed"])
                instruction = sanction["instruction"] or instruction
                escalated = True
        several = rule.get("several_cards_clause")
        if several is not None and several["assumed"] and inf.cards > 1 and not escalated:
            # the text words a fixed penalty for one card; several cards at once are read as
            # one offence
            assumed = True
        ruling = Ruling(
            kind=inf.kind,
            seat=inf.seat,
            side=inf.side,
            against=inf.side,
            occurrence=occurrence,
            scope=scope,
            escalated=escalated,
            assumed=assumed,
            rule=f"{self.rb.id}/{inf.kind}",
            branch=rule["id"],
            citation=citation,
            clause=clause,
            label=spec["label"],
        )
        self.apply_sanction(ruling, sanction, inf, dealer_side)
        if instruction:
            ruling.instruction = instruction
        rest_counter, rest_clause = rule.get("rest_counter"), rule.get("rest_counter_clause")
        charged_rest = (
            sanction.get("rest_points_per_card") is not None
            and inf.thrown is not None
            and inf.thrown > inf.cards
            and inf.override is None
        )
        if rest_counter and charged_rest and rest_clause is not None and rest_clause["assumed"]:
            rest_spec = self.rules["counters"][rest_counter]
            counted = sum(
                1
                for s, c, h, _ in self.occurrences
                if s == inf.side and c == rest_counter and (rest_spec["scope"] != "hand" or h == hand_number)
            )
            earlier = self.uncounted_rest(rest_counter, inf.side, hand_number)
            if step_for(rest_spec, counted + earlier + 1) is not None:
                # were its exposed cards a time, this throw would take the counter's step
                ruling.assumed = True
            if inf.void_reason is None:
                self.rest_times.append((inf.side, rest_counter, hand_number))
        return ruling

    def uncounted_rest(self, counter: str, side: str, hand_number: int) -> int:
        """Failed throws whose exposed cards the rulebook reads as no time of ``counter``."""
        scope = self.rules["counters"][counter]["scope"]
        return sum(
            1
            for s, c, h in self.rest_times
            if s == side and c == counter and (scope != "hand" or h == hand_number)
        )

    def first_match(self, kind: str, inf: Infraction, dealer_side: str | None) -> dict[str, Any]:
        for rule in self.rules["infractions"][kind]["rules"]:
            if self.holds(rule["when"], inf, dealer_side):
                return rule
        raise RulebookError(
            f"{self.rb.origin}: infractions.{kind}: no rule applies to {inf.path} "
            "(the last rule of a kind should have no conditions)"
        )

    def holds(self, when: dict[str, Any], inf: Infraction, dealer_side: str | None) -> bool:
        if when["phase"] is not None and inf.phase not in when["phase"]:
            return False
        if when["found_after"] is not None and not in_range(inf.found_after, when["found_after"]):
            return False
        if when["severity"] is not None and inf.severity != when["severity"]:
            return False
        if when["role"] is not None:
            role = "dealer_side" if inf.side == dealer_side else "defenders"
            if role != when["role"]:
                return False
        if when["affects_result"] is not None and inf.affects_result != when["affects_result"]:
            return False
        if when["minutes"] is not None and (
            inf.minutes is None or not in_range(inf.minutes, when["minutes"])
        ):
            return False
        if when["referee_points"] is not None and (inf.points is not None) != when["referee_points"]:
            return False
        chosen_suspension = when.get("referee_suspension")
        if chosen_suspension is not None and (inf.suspension_rounds is not None) != chosen_suspension:
            return False
        if when.get("at_draw") is not None and inf.at_draw != when["at_draw"]:
            return False
        chosen_disqualification = when.get("referee_disqualification")
        if chosen_disqualification is not None and inf.disqualified != chosen_disqualification:
            return False
        return True

    def count(
        self, counter: str, side: str, hand_number: int, record: bool = True, seat: str | None = None
    ) -> tuple[int, str]:
        """The number of this occurrence within the counter's scope, this one included."""
        scope = self.rules["counters"][counter]["scope"]
        if scope == "hand":
            before = sum(
                1 for s, c, h, _ in self.occurrences if s == side and c == counter and h == hand_number
            )
        else:
            before = sum(1 for s, c, _, _ in self.occurrences if s == side and c == counter)
            if scope == "event":
                feeding = {
                    kind
                    for kind, spec in self.rules["infractions"].items()
                    if any(r["counter"] == counter for r in spec["rules"])
                }
                before += sum(n for kind, n in self.case.history[side].items() if kind in feeding)
        if record:  # a voided ruling is shown with its count but does not count
            self.occurrences.append((side, counter, hand_number, seat))
        return before + 1, scope

    def apply_sanction(
        self, ruling: Ruling, sanction: dict[str, Any], inf: Infraction, dealer_side: str | None
    ) -> None:
        if sanction["against"] == "dealer_side" and dealer_side is not None:
            ruling.against = dealer_side
        ruling.warning = sanction["warning"]
        ruling.points = self.points(sanction, inf)
        if sanction["levels"]:
            change = sanction["levels"]
            ruling.levels = {
                ruling.against: change["offender"],
                other_side(ruling.against): change["opponent"],
            }
        loss = sanction["hand_loss"]
        if loss:
            if dealer_side is None:
                raise RulebookError(
                    f"{self.rb.origin}: infractions.{inf.kind}: a hand loss "
                    "cannot be ruled before the first hand"
                )
            ruling.hand_lost = True
            ruling.award = loss if isinstance(loss, dict) else None
        ruling.ends_hand = sanction["ends_hand"]
        if ruling.ends_hand:
            ruling.hand_lost = True
        ruling.round_forfeit = sanction["round_forfeit"]
        ruling.suspension_rounds = sanction["suspension_rounds"]
        if sanction.get("suspension_range") is not None:
            low, high = sanction["suspension_range"]
            chosen = inf.suspension_rounds
            if chosen is None or not low <= chosen <= high:
                raise CaseError(
                    f"{inf.path}.suspension_rounds: the referee chooses {low}–{high} rounds "
                    f"for {inf.kind} in {self.rb.id}, got {chosen if chosen is not None else 'none'}",
                    code="case.suspension_range",
                    field=f"{inf.path}.suspension_rounds",
                    low=low,
                    high=high,
                    kind=inf.kind,
                    rulebook=self.rb.id,
                )
            ruling.suspension_rounds = chosen
        ruling.disqualified = sanction["disqualified"]

    def points(self, sanction: dict[str, Any], inf: Infraction) -> int:
        if sanction["points_range"] is not None:
            low, high = sanction["points_range"]
            if inf.points is None:
                raise CaseError(
                    f"{inf.path}.points: required: the referee chooses the points "
                    f"for {inf.kind} in {self.rb.id} ({low}–{high})",
                    code="case.points_choose",
                    field=f"{inf.path}.points",
                    low=low,
                    high=high,
                    kind=inf.kind,
                    rulebook=self.rb.id,
                )
            if not low <= inf.points <= high:
                raise CaseError(
                    f"{inf.path}.points: {inf.points} is outside {self.rb.id}'s range "
                    f"for {inf.kind}, {low}–{high}",
                    code="case.points_range",
                    field=f"{inf.path}.points",
                    got=inf.points,
                    low=low,
                    high=high,
                    kind=inf.kind,
                    rulebook=self.rb.id,
                )
            return inf.points
        if inf.points is not None and inf.override is None:
            raise CaseError(
                f"{inf.path}.points: {inf.kind} in {self.rb.id} is not a discretionary "
                "penalty; to rule otherwise, give an override with a reason",
                code="case.points_not_discretionary",
                field=f"{inf.path}.points",
                kind=inf.kind,
                rulebook=self.rb.id,
            )
        if sanction["points"] is not None:
            return sanction["points"]
        if sanction["points_per_card"] is not None:
            rest = sanction.get("rest_points_per_card")
            if rest is not None and inf.thrown is not None:
                return sanction["points_per_card"] * inf.cards + rest * (inf.thrown - inf.cards)
            return sanction["points_per_card"] * inf.cards
        if sanction["points_thrown_less_one"] is not None:
            if inf.thrown is None:
                raise CaseError(
                    f"{inf.path}.thrown: required: {self.rb.id} counts a failed throw "
                    "by the cards thrown, (thrown − 1) × "
                    f"{sanction['points_thrown_less_one']}",
                    code="case.thrown_required",
                    field=f"{inf.path}.thrown",
                    rulebook=self.rb.id,
                )
            return sanction["points_thrown_less_one"] * (inf.thrown - 1)
        tiers = sanction.get("points_by_blocker")
        if tiers is not None:
            given = [shape for shape in BLOCKERS if tiers.get(shape) is not None]
            shape = inf.blocked_by
            if shape == "long_tractor" and tiers.get(shape) is None:
                shape = "tractor"  # no tier of its own: a longer tractor is a tractor
            if "tractor" in given and "long_tractor" not in given:
                given.append("long_tractor")
            if shape is None or tiers.get(shape) is None:
                raise CaseError(
                    f"{inf.path}.blocked_by: required: {self.rb.id} charges a failed throw by the "
                    f"shape that blocked it (one of {', '.join(given)})",
                    code="case.blocked_by_required",
                    field=f"{inf.path}.blocked_by",
                    allowed=given,
                    rulebook=self.rb.id,
                )
            return int(tiers[shape]) * inf.cards
        return 0

    def overridden(self, inf: Infraction, proposed: Ruling, dealer_side: str | None) -> Ruling:
        assert inf.override is not None
        ruling = Ruling(
            kind=inf.kind,
            seat=inf.seat,
            side=inf.side,
            against=inf.side,
            occurrence=proposed.occurrence,
            scope=proposed.scope,
            assumed=False,
            rule=f"{self.rb.id}/{inf.kind}",
            branch="override",
            citation=proposed.citation,
            clause=proposed.clause,
            label=proposed.label,
            override_reason=inf.override.reason,
            proposed=proposed,
        )
        for item in inf.override.sanctions:
            if item.get("warning"):
                ruling.warning = True
            if "points" in item:
                ruling.points += item["points"]
                ruling.against = item.get("against", ruling.against)
            if item.get("hand_loss") or item.get("ends_hand"):
                if dealer_side is None:
                    raise CaseError(
                        f"{inf.path}.override: a hand loss needs a hand",
                        code="case.hand_loss_needs_hand",
                        field=f"{inf.path}.override",
                    )
                ruling.hand_lost = True
            if item.get("ends_hand"):
                ruling.ends_hand = True
            if item.get("round_forfeit"):
                ruling.round_forfeit = True
            if item.get("disqualified"):
                ruling.disqualified = True
            if "suspension_rounds" in item:
                ruling.suspension_rounds = item["suspension_rounds"]
            for side, change in item.get("levels", {}).items():
                ruling.levels[side] = ruling.levels.get(side, 0) + change
            if item.get("instruction"):
                ruling.instruction = {"zh": item["instruction"], "en": item["instruction"]}
        if ruling.round_forfeit:
            # the round forfeit the referee imposed has its own clause (判弃权): cite it, not
            # the clause of the sanction proposed (a warning's, say)
            ruling.clause = dict(self.rules["forfeit"]["clause"])
            ruling.citation = cite(ruling.clause)
        return ruling

    # -- the round's end -------------------------------------------------------------------

    def forfeit(self, sides: list[str]) -> dict[str, Any]:
        cfg = self.rules["forfeit"]
        if len(sides) == 2:
            return {
                "side": "both",
                "match_points": {s: cfg["offender_points"] for s in SIDES},
                "levels": {s: cfg["offender_level"] for s in SIDES},
                "citation": cite(cfg["clause"]),
                "assumed": bool(cfg["clause"]["assumed"]),
            }
        side = sides[0]
        opponent = other_side(side)
        levels = {side: cfg["offender_level"], opponent: cfg["opponent_level"]}
        assumed = bool(cfg["clause"]["assumed"])
        board_lead = difference(self.levels[opponent], self.levels[side])
        if board_lead > difference(levels[opponent], levels[side]):
            # forfeited during play: the opponent keeps the lead it already has on the board
            # rather than the printed levels (a reading: the text gives only the levels)
            levels = dict(self.levels)
            assumed = True
        return {
            "side": side,
            "match_points": {side: cfg["offender_points"], opponent: cfg["opponent_points"]},
            "levels": levels,
            "citation": cite(cfg["clause"]),
            "assumed": assumed,
        }

    def withdrawal_forfeit(self, side: str, reason: str = "") -> dict[str, Any]:
        """A pair leaving during the round (中途退出): the rulebook's forfeit applied after the
        hands recorded, which stand (its levels: the board's where the opponent leads by
        more, as for a forfeit during play), citing the event's clause on leaving where it
        has one (``forfeit.withdrawal_clause``), assumed where that clause is."""
        out = self.forfeit([side])
        clause = self.rules["forfeit"].get("withdrawal_clause")
        if clause:
            out["citation"] = cite(clause)
            out["assumed"] = bool(out["assumed"] or clause.get("assumed"))
        out["cause"] = "withdrawal"
        if reason:
            out["reason"] = reason
        return out

    def forfeit_result(self, forfeit: dict[str, Any]) -> dict[str, Any]:
        levels = forfeit["levels"]
        return {
            "winner": None if forfeit["side"] == "both" else other_side(forfeit["side"]),
            "match_points": {s: forfeit["match_points"][s] for s in SIDES},
            "levels": {s: levels[s] for s in SIDES},
            "level_difference": {
                "NS": difference(levels["NS"], levels["EW"]),
                "EW": difference(levels["EW"], levels["NS"]),
            },
            "passed_a": False,
            "decided_by": "forfeit",
            "assumed": forfeit["assumed"],
            "citation": forfeit["citation"],
        }

    def result(self, winner: str | None, decided_by: str, assumed: bool = False) -> dict[str, Any]:
        mp = self.rules["match_points"]
        if winner is None:
            points = {s: mp["draw"] for s in SIDES}
        else:
            points = {winner: mp["win"], other_side(winner): mp["loss"]}
        levels = dict(self.levels)
        # the clause that names the winner is cited; the match points come from their own
        # clause, and a reading there marks the result as much as one in the winner's
        if decided_by.startswith("tie"):
            clause = self.rules["round"]["tie_clause"]
        elif decided_by == "passed_a":
            clause = self.rules["levels"].get("pass_a_clause") or mp["clause"]
        else:
            clause = self.rules["round"].get("result_clause") or mp["clause"]
        return {
            "winner": winner,
            "match_points": {s: points[s] for s in SIDES},
            "levels": levels,
            "level_difference": {
                "NS": difference(levels["NS"], levels["EW"]),
                "EW": difference(levels["EW"], levels["NS"]),
            },
            "passed_a": decided_by == "passed_a",
            "decided_by": decided_by,
            "assumed": assumed
            or bool(clause["assumed"])
            or bool(mp["clause"]["assumed"])
            or bool(self.read_hands),
            "citation": cite(clause),
            "match_points_citation": cite(mp["clause"]),
        }

    def result_on_time(self, last_dealer_side: str | None, holder: str | None) -> dict[str, Any]:
        """The result of a round ended on time: the higher level wins; equal levels are
        decided by the rulebook's ``tie`` (``holder``: the seat holding the deal at the end)."""
        ns, ew = self.levels["NS"], self.levels["EW"]
        if ns != ew:
            return self.result("NS" if LEVELS.index(ns) > LEVELS.index(ew) else "EW", "levels")
        tie = self.rules["round"]["tie"]
        if tie == "holds_deal_at_end":
            if holder is None:
                # an open grab follows the last hand: no side holds the deal, nothing decides
                return self.result(None, "tie_unresolved", assumed=True)
            return self.result(side_of(holder), "tie_holds_deal_at_end")
        if tie == "reached_level_first":
            if self.reached["NS"] != self.reached["EW"]:
                first = "NS" if self.reached["NS"] < self.reached["EW"] else "EW"
                return self.result(first, "tie_reached_first")
            # neither side reached the level before the other (nothing moved): no rule decides
            return self.result(None, "tie_unresolved", assumed=True)
        if tie in ("lots", "referee"):
            # 抽签 / 裁判长裁定: no winner until the chief referee records the decision (a
            # decider desk record, as for a tied knockout match); no match points meanwhile
            out = self.result(None, f"tie_{tie}")
            out["match_points"] = {s: 0 for s in SIDES}
            out["awaits"] = TIE_AWAITS[tie]
            return out
        if tie == "dealt_last_hand" and last_dealer_side is not None:
            return self.result(last_dealer_side, "tie_last_dealer_side")
        return self.result(None, "tie_draw")


#: What a tie on time the rulebook leaves to lots or to the referee awaits: the ``how`` of the
#: chief referee's deciding result (``app.pairing.decide_tie``).
TIE_AWAITS = {"lots": "lots", "referee": "decision"}

#: Where an infraction without a trick falls in the hand, by the phase it was found in.
_PHASE_POSITION = {"drawing": -3, "before_bottom": -2, "after_bury": 0, "end_of_hand": 26}
#: A delay in burying (扣底牌) comes after the bottom is taken and before the first trick.
_BURY_POSITION = -1


def play_order(inf: Infraction, index: int) -> tuple[int, int, str, int]:
    """When an infraction happened in the hand: the offence's trick, then its discovery,
    then the facts themselves, so that two different offences in one trick are counted in
    the same order however they were typed; the order they were given in breaks a tie only
    between identical facts, where it changes nothing.

    Without a trick, the phase places it (an exposure while drawing comes before any trick,
    a count error found at the end after every trick); a delay in burying comes before the
    first trick; with neither, it is placed before the first trick, where most offences
    logged without a trick happen (drawing, burying, before the lead)."""
    if inf.trick is not None:
        when = inf.trick
        found = inf.discovered if inf.discovered is not None else inf.trick
    elif inf.phase is not None:
        when = found = _PHASE_POSITION[inf.phase]
    elif inf.what == "bury":
        when = found = _BURY_POSITION
    else:
        when = found = 0
    return when, found, repr(replace(inf, path="")), index


def step_for(counter: dict[str, Any], occurrence: int) -> dict[str, Any] | None:
    """The escalation step that holds for this occurrence, or None below the first."""
    steps = [s for s in counter["steps"] if s["from_count"] <= occurrence]
    return max(steps, key=lambda s: s["from_count"]) if steps else None


def cite(clause: dict[str, Any]) -> str:
    """The short citation shown with a ruling: ``二、4 暴露张``."""
    return f"{clause['ref']} {clause['title']}"


def in_range(value: int, bounds: dict[str, int | None]) -> bool:
    low, high = bounds.get("min"), bounds.get("max")
    return (low is None or value >= low) and (high is None or value <= high)
