"""The rulebook schema (规则文件): what an event's TOML file may say, validated by pydantic.

Only :mod:`referee_app.core.rulebook` imports this module, and only when a rulebook has to
be validated (a new or changed file): judging reads the validated, normalised form.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator
from pydantic import Strict as StrictType
from pydantic_core import PydanticCustomError

from .rulebook_kinds import BLOCKERS, KINDS, PHASES  # noqa: F401  (re-exported)

SCHEMA_VERSION = 1

#: A range [low, high] as TOML writes it (an array): the array may be a list, its numbers
#: stay strict whole numbers.
IntPair = Annotated[tuple[Annotated[int, StrictType()], Annotated[int, StrictType()]], StrictType(False)]

Level = Literal["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


class Strict(BaseModel):
    # strict: a boolean is true or false, a number is a number ("yes", "10" and 10.0 are refused)
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Text(Strict):
    """A sentence in both languages."""

    zh: str = Field(min_length=1)
    en: str = Field(min_length=1)


class Clause(Strict):
    """Where a rule comes from: the clause of the event's document (条款).

    ``assumed`` is true when the event's text is silent and the value is a default the
    rulebook chose; ``note`` says why (which reading, which default).
    """

    ref: str = Field(min_length=1)
    title: str = Field(min_length=1)
    zh: str = Field(min_length=1)
    en: str = Field(min_length=1)
    assumed: bool = False
    note: str = ""


class Band(Strict):
    upto: int = Field(ge=0)
    gain: int = Field(ge=0)


class Redeclaration(Strict):
    """反牌升级: each re-declaration gives the side that deals next extra levels."""

    levels_each: int = Field(ge=1)
    from_hand: int = Field(default=1, ge=1)
    clause: Clause
    # the bonus added to a hand lost by sanction (判负), where the event prints it only for
    # hands scored on points: the reading is stated here and marks the hand assumed
    hand_loss_clause: Clause | None = None
    # a hand both sides lose (an open grab follows): no side deals next to take the bonus;
    # the reading that it lapses, stated here, marks such a hand assumed
    both_lose_clause: Clause | None = None


class RedeclarationLimit(Strict):
    """From hand ``from_hand`` of a round on, at most ``max`` re-declarations in a hand."""

    from_hand: int = Field(default=1, ge=1)
    max: int = Field(ge=0)


class Redeclarations(Strict):
    """反主: how many times a hand's trump may be re-declared (一副牌最多反两次主牌); a case
    with more is refused, citing ``clause``."""

    limits: list[RedeclarationLimit] = Field(min_length=1)
    clause: Clause


class JRule(Strict):
    """滑钩: the defenders capture the bottom with a J while the dealer side is on ``level``:
    the dealer side loses the deal and drops.

    Where it drops is said one of two ways, both keys of a way given: by how many Js
    captured (``single_to``, ``pair_to``: HBUE 单J抠底降至6；对J抠底降至2), or by which J
    captured (``trump_to``, ``side_to``: the trump suit's J 主J sends it to one level, a side
    suit's J 副J to another; the case says which, ``bottom.j_suit``).
    ``min_defender_total``: the rule applies only when the defenders' total for the hand
    (the bottom and penalties counted) reaches it (e.g. 80); absent, whatever their points
    (无论得分多少). The defenders gain what their points give, as in any hand.
    """

    level: Level
    single_to: Level | None = None
    pair_to: Level | None = None
    trump_to: Level | None = None
    side_to: Level | None = None
    min_defender_total: int | None = Field(default=None, ge=0)
    clause: Clause
    # the defenders capture with a J but lose the hand by sanction: the hand loss stands
    # (the dealer side keeps the deal, no drop); a reading where the event does not say
    defenders_lose_clause: Clause | None = None

    @model_validator(mode="after")
    def _one_way_of_dropping(self) -> JRule:
        by_count = (self.single_to, self.pair_to)
        by_suit = (self.trump_to, self.side_to)
        whole = [all(v is not None for v in way) for way in (by_count, by_suit)]
        given = [any(v is not None for v in way) for way in (by_count, by_suit)]
        if whole.count(True) != 1 or given.count(True) != 1:
            raise PydanticCustomError(
                "rulebook_j_rule_drops",
                "give the J rule's drops one way: single_to and pair_to, or trump_to and side_to",
            )
        return self


class Scoring(Strict):
    """计分与升级: the defenders' total decides the hand. From ``deal_changes_at`` on the deal
    changes and the defenders gain a level for each further ``step`` points (每超过 step 分升
    一级). Below it the dealer side keeps the deal and goes up by ``dealer_bands``, written
    out, or derived from ``dealer_step`` (每低于 dealer_step 分升一级): one level for each
    ``dealer_step`` points, or part of them, the total falls short of ``deal_changes_at``
    (80 and 20: 60–75 +1, 40–55 +2, 20–35 +3, 0–15 +4), and ``dealer_zero_gain`` at 0 where
    the event prints a shut-out (大光) apart (80, 40 and 3: BHG's 40–75 +1, 5–35 +2, 0 +3).
    """

    deal_changes_at: int = Field(gt=0)
    step: int = Field(gt=0)
    dealer_bands: list[Band] = Field(min_length=1)
    dealer_step: int | None = Field(default=None, gt=0)
    dealer_zero_gain: int | None = Field(default=None, ge=0)
    defender_gain_cap: int | None = Field(default=None, ge=1)
    clause: Clause
    dealer_bands_clause: Clause | None = None
    redeclaration: Redeclaration | None = None
    j_rule: JRule | None = None
    negative_total: Literal["zero", "more_levels"] = "zero"
    negative_step: int | None = Field(default=None, gt=0, validate_default=True)
    negative_clause: Clause | None = None

    @model_validator(mode="before")
    @classmethod
    def _bands_from_dealer_step(cls, data: object) -> object:
        """The dealer bands a ``dealer_step`` stands for, written into the rulebook's data
        (the engine and a reader of the data see bands either way)."""
        if not isinstance(data, dict) or "dealer_step" not in data:
            if isinstance(data, dict) and "dealer_zero_gain" in data:
                raise PydanticCustomError(
                    "rulebook_zero_gain_needs_step", "dealer_zero_gain: only with dealer_step"
                )
            return data
        if "dealer_bands" in data:
            raise PydanticCustomError("rulebook_bands_or_step", "give dealer_bands or dealer_step, not both")
        step, threshold, zero = data["dealer_step"], data.get("deal_changes_at"), data.get("dealer_zero_gain")
        if not (type(step) is int and type(threshold) is int and step > 0 and threshold > 0):
            # the fields' own checks name what is wrong; the bands are not missing as well
            return {**data, "dealer_bands": [{"upto": 0, "gain": 0}]}
        most = -(-threshold // step)  # levels for a total of 0, a part of a step counting whole
        bands = [{"upto": threshold - (gain - 1) * step - 1, "gain": gain} for gain in range(most, 0, -1)]
        if type(zero) is int:
            bands = [{"upto": 0, "gain": zero}, *(b for b in bands if b["upto"] > 0)]
        return {**data, "dealer_bands": bands}

    # the key's own check (run while another key of the part is wrong), against the option
    # where that is sound
    @field_validator("negative_step")
    @classmethod
    def _negative_step_with_more_levels(cls, step: int | None, info: ValidationInfo) -> int | None:
        option = info.data.get("negative_total")
        if option == "more_levels" and step is None:
            raise PydanticCustomError(
                "rulebook_negative_step_needed",
                'negative_step: required when negative_total = "more_levels"',
            )
        if option == "zero" and step is not None:
            raise PydanticCustomError(
                "rulebook_negative_step_only", 'negative_step: only with negative_total = "more_levels"'
            )
        return step

    # A check of the bands' own key (not of the whole part): pydantic runs it while another
    # key of the part is wrong (a step mistyped), so every problem is listed at once; the
    # deal-change line is read where it is sound (it comes before the bands).
    @field_validator("dealer_bands")
    @classmethod
    def _bands_cover_below_threshold(cls, bands: list[Band], info: ValidationInfo) -> list[Band]:
        previous = -1
        for i, band in enumerate(bands):
            if band.upto <= previous:
                raise PydanticCustomError(
                    "rulebook_bands_rise",
                    "band {n}: bands must rise, {upto} <= {previous}",
                    {"i": i, "n": i + 1, "upto": band.upto, "previous": previous},
                )
            previous = band.upto
        threshold = info.data.get("deal_changes_at")
        if isinstance(threshold, int) and previous >= threshold:
            raise PydanticCustomError(
                "rulebook_bands_past_threshold",
                "the last band ends at {upto}, at or past deal_changes_at {threshold}",
                {"upto": previous, "threshold": threshold},
            )
        return bands


class Bottom(Strict):
    """抠底: the multiplier of the bottom's points by the shape of the last trick."""

    single: int = Field(ge=1)
    pair: int = Field(ge=1)
    tractor: Literal["power", "linear"]
    throw: Literal["fixed", "fixed_or_largest", "largest_plus"]
    throw_value: int = Field(ge=0)
    clause: Clause
    #: The most card points the bottom can hold (8 cards of two decks: 80); a larger entry
    #: is a typing mistake the table referee is told about at once.
    max_points: int | None = Field(default=None, ge=0)
    #: The multipliers (by the last trick's shape) that are a reading where the clause prints
    #: the others (BHG prints ×8 for two pairs; three and more is read): a hand whose bottom
    #: is multiplied by one of them is marked assumed; the clause itself stays as printed.
    assumed_values: list[Literal["single", "pair", "tractor", "throw"]] = []
    #: Tractors from this many pairs on have a multiplier that is a reading, the shorter ones
    #: printed (BHG prints ×8 for two pairs: 3): a hand whose bottom is multiplied by such a
    #: tractor (or a throw by its largest part, such a tractor) is marked assumed.
    assumed_tractor_from_pairs: int | None = Field(default=None, ge=2)


class Levels(Strict):
    mandatory: list[Level] = Field(min_length=1)
    clause: Clause
    #: The mandatory levels that are a reading where the clause prints the others: a gain
    #: stopped on one of them marks the hand assumed; one stopped on a printed level does not.
    assumed_mandatory: list[Level] = []
    #: Where the event says that passing A (过A) wins the round at once; a rulebook whose
    #: event does not print it states the reading here, marked assumed.
    pass_a_clause: Clause | None = None

    # the key's own check (run while the clause has a problem of its own), against the
    # mandatory levels where those are sound
    @field_validator("assumed_mandatory")
    @classmethod
    def _assumed_are_mandatory(cls, assumed: list[str], info: ValidationInfo) -> list[str]:
        mandatory = info.data.get("mandatory")
        extra = [level for level in assumed if isinstance(mandatory, list) and level not in mandatory]
        if extra:
            raise PydanticCustomError(
                "rulebook_assumed_not_mandatory",
                "{shown} not among the mandatory levels",
                {"shown": ", ".join(extra), "levels": extra},
            )
        return assumed


class NextDealer(Strict):
    """轮庄: keep the deal → the dealer's partner deals; lose it → the next seat (下家)."""

    clause: Clause
    #: What a later hand is when an earlier hand's outcome changes after play (申诉改判、更正)
    #: and the rotation would now give another dealer: the hand stands as dealt and played.
    #: No event's text says so; the rulebook states the reading (assumed) and its note.
    as_played_clause: Clause | None = None


class Award(Strict):
    """Levels awarded when a side loses a hand by sanction (判负)."""

    dealer_offends: int = Field(ge=0)
    defenders_offend: int = Field(ge=0)


class HandLoss(Strict):
    """How this event scores a lost hand (判负).

    ``shift``: at the end of the hand the offending side's total moves ``shift`` points
    against it, the hand is otherwise scored as played, the non-offending side deals next.
    ``levels``: the hand's outcome is replaced by ``award`` levels; with
    ``keep_better_outcome`` the non-offending side keeps what the hand's points already
    gave it when that is more, so that an offence never improves the offender's lot.
    """

    mode: Literal["shift", "levels"]
    shift: int | None = Field(default=None, gt=0, validate_default=True)
    award: Award | None = Field(default=None, validate_default=True)
    both_sides: Literal["by_points", "open_grab"]
    keep_better_outcome: bool = True
    clause: Clause
    both_sides_clause: Clause | None = None
    # the offences both_sides_clause is printed for; a hand both sides lose by any other
    # offence applies it by reading (marked assumed). None: printed for every offence.
    both_sides_kinds: list[Literal[KINDS]] | None = None  # type: ignore[valid-type]
    # shift mode: the non-offending side deals next even where the shifted total alone would
    # not give it the deal; it then deals without a level gain. Where the event prints only
    # the deal, the gain is a reading and this clause says so.
    deal_without_gain_clause: Clause | None = None

    # the keys' own checks against the mode (not the whole part's, which would wait while
    # another key of the part is wrong): every problem listed at once
    @field_validator("shift", "award")
    @classmethod
    def _mode_fields(cls, value: object, info: ValidationInfo) -> object:
        needs = {"shift": "shift", "award": "levels"}[str(info.field_name)]
        if value is None and info.data.get("mode") == needs:
            raise PydanticCustomError(
                "rulebook_mode_needs",
                f'required when mode = "{needs}"',
                {"mode": needs},
            )
        return value


class Forfeit(Strict):
    """判弃权: the round given to the opponent."""

    offender_points: int = Field(ge=0)
    opponent_points: int = Field(ge=0)
    offender_level: Level
    opponent_level: Level
    clause: Clause
    #: Where the event speaks of a pair leaving during a round (中途退出); the forfeit's
    #: scores and levels apply after the hands recorded, which stand (``assumed`` where the
    #: text is silent on the scoring).
    withdrawal_clause: Clause | None = None


class MatchPoints(Strict):
    win: int
    draw: int
    loss: int
    clause: Clause


#: The old names of ``round.tie``'s options, still read (the bundled HBUE says reached_first):
#: each stands for the option named for what it means.
TIE_ALIASES = {"reached_first": "reached_level_first", "last_dealer_side": "dealt_last_hand"}


class Round(Strict):
    """The round's time, its warning, and who wins when it ends on time with the levels equal.

    ``tie``: ``draw``; ``reached_level_first``, the side whose level last moved earlier (先到此级者胜);
    ``dealt_last_hand``, the side of the last hand's dealer, whatever that hand's change of
    deal; ``holds_deal_at_end``, the side holding the deal when the round ends: the one that
    deals next after the last hand, its change of deal counted (a dealer side that lost the
    hand, by points or for a miscount, has stepped down); ``lots`` (抽签) and ``referee``
    (裁判长裁定): the round's result awaits that decision — recorded with no winner and no
    match points, marked as awaiting (``awaits``: ``lots`` or ``decision``), until the chief
    referee records it as a tied knockout match's is (``decide``, the same desk record); the
    winner then takes the win's match points, the other the loss's. The old names
    ``reached_first`` and ``last_dealer_side`` are read as ``reached_level_first`` and
    ``dealt_last_hand``.
    """

    minutes: int = Field(gt=0)
    warning_minutes_left: int = Field(ge=0)
    hands_after_warning: int = Field(ge=0)
    warning_includes_current: bool
    warning_text: Text
    tie: Literal[
        "draw",
        "reached_level_first",
        "dealt_last_hand",
        "holds_deal_at_end",
        "lots",
        "referee",
        "reached_first",  # old names, read as the two above them
        "last_dealer_side",
    ]
    tie_clause: Clause
    clause: Clause
    #: Where the time warning (minutes left, hands after it) comes from; marked assumed
    #: where the event prints only the round's length.
    warning_clause: Clause | None = None
    #: Where the event says who wins a round that ends on time by the levels (级数高者为胜);
    #: without it the match points' clause is cited.
    result_clause: Clause | None = None

    @field_validator("tie")
    @classmethod
    def _tie_by_its_name(cls, value: str) -> str:
        return TIE_ALIASES.get(value, value)


class Appeal(Strict):
    window_minutes: int = Field(gt=0)
    window_from: Literal["round_end", "score_published"]
    fee_yuan: int = Field(ge=0)
    refunded_if_upheld: bool
    evidence_required: bool = False
    clause: Clause


class TimeLimits(Strict):
    """Seconds allowed per action (拖延比赛时间)."""

    bury: int | None = Field(default=None, gt=0)
    lead: int | None = Field(default=None, gt=0)
    follow: int | None = Field(default=None, gt=0)
    clause: Clause


TieBreak = Literal[
    "match_points",
    "opponents_score",
    "level_difference",
    "progressive_score",
    "small_points",
    "head_to_head",
    "previous_round_points",
    "lots",
]


class Prize(Strict):
    name: Text
    count: int = Field(gt=0)


class Placings(Strict):
    """A knockout's places: the first ``decided`` places are separated (HBUE "直至决出前六名"),
    pairs that went out in the same round within them by ``split_by`` in order; the places
    after them are shared within a round. ``prizes`` go down the places in order."""

    decided: int = Field(gt=0)
    split_by: list[Literal["level_difference", "lots"]] = Field(min_length=1)
    prizes: list[Prize] = Field(default_factory=list)
    clause: Clause


class Standings(Strict):
    format: Literal["swiss", "knockout"] = "swiss"  # 积分编排 or 淘汰制
    tie_breaks: list[TieBreak] = Field(min_length=1)
    clause: Clause
    #: The event's number of rounds (e.g. Gansu 六、二、1 "比赛5轮"); pairing past it warns.
    rounds: int | None = Field(default=None, gt=0)
    rounds_clause: Clause | None = None
    placings: Placings | None = None  # a knockout's places and prizes
    #: A Swiss event's prizes down the places in order (Gansu 七 "第1名…第4-12名纪念奖"),
    #: where the event states them; a knockout's are its ``placings.prizes``.
    prizes: list[Prize] = Field(default_factory=list)
    prizes_clause: Clause | None = None
    #: How a tie-break (or a bye, ``bye``) is computed where the event names it without
    #: defining it: each reading with its clause, ``assumed`` where the text is silent.
    readings: dict[Literal[TieBreak, "bye"], Clause] = {}


class Range(Strict):
    min: int | None = None
    max: int | None = None

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if self.min is not None and self.max is not None and self.min > self.max:
            raise PydanticCustomError(
                "rulebook_min_over_max",
                "min {min} is greater than max {max}",
                {"min": self.min, "max": self.max},
            )
        return self


class When(Strict):
    """Conditions that choose a sanction. Every condition given must hold."""

    phase: list[Literal["drawing", "before_bottom", "after_bury", "end_of_hand"]] | None = None
    found_after: Range | None = None
    severity: Literal["light", "heavy"] | None = None
    role: Literal["dealer_side", "defenders"] | None = None
    affects_result: bool | None = None
    minutes: Range | None = None
    referee_points: bool | None = None  # the referee gave ``points`` (a discretionary penalty)
    referee_suspension: bool | None = None  # the referee gave ``suspension_rounds`` (停赛)
    referee_disqualification: bool | None = None  # the referee chose ``disqualified`` (取消资格)
    at_draw: bool | None = None  # late_arrival: away from the draw rather than late to the table


class LevelChange(Strict):
    """Levels a sanction moves each side (扣一级: ``offender = -1``), applied after the hand:
    once the hand's own gains (and the J rule's drop) are made, never below 2 and never
    counted as playing a mandatory level; a hand still in play moves nothing until it is
    scored. With a counter whose step at the third time is ``round_forfeit``, "three times →
    the round"."""

    offender: int = 0
    opponent: int = 0


class BlockerTiers(Strict):
    """Points a card of a failed throw by the shape that blocked it (被单张挡每张罚10分，被对子挡
    20分，被拖拉机挡40分, 被三连对以上挡60分): the referee records the shape (``blocked_by``);
    a shape the event gives no tier is refused, naming those it gives."""

    single: int | None = Field(default=None, ge=0)
    pair: int | None = Field(default=None, ge=0)
    tractor: int | None = Field(default=None, ge=0)
    long_tractor: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _some_tier(self) -> BlockerTiers:
        if all(getattr(self, shape) is None for shape in BLOCKERS):
            raise PydanticCustomError("rulebook_no_tier", "give the points of at least one blocking shape")
        return self


#: The ways a sanction counts points, one at most, in the order of their keys.
POINTS_FORMS = ("points", "points_per_card", "points_thrown_less_one", "points_range", "points_by_blocker")


class Sanction(Strict):
    """What a rule does. Several parts may combine (points and an instruction, …)."""

    warning: bool = False
    points: int | None = Field(default=None, ge=0)
    points_per_card: int | None = Field(default=None, ge=0)
    points_thrown_less_one: int | None = Field(default=None, ge=0)
    points_range: IntPair | None = None
    #: A failed throw's points a card by the shape that blocked it (tiers, e.g. 10/20/40/60).
    points_by_blocker: BlockerTiers | None = None
    #: With ``points_per_card``: points for each card thrown but not blocked (a failed
    #: throw whose other cards are handled as exposed), when the cards thrown are known.
    rest_points_per_card: int | None = Field(default=None, ge=0)
    against: Literal["offender", "dealer_side"] = "offender"
    levels: LevelChange | None = None
    hand_loss: bool | Award = False
    ends_hand: bool = False
    round_forfeit: bool = False
    suspension_rounds: int = Field(default=0, ge=0)
    #: 停赛一轮至N轮: the referee chooses the rounds within this range.
    suspension_range: IntPair | None = None
    disqualified: bool = False
    instruction: Text | None = None

    @field_validator("points_range", "suspension_range")
    @classmethod
    def _range(cls, value: tuple[int, int] | None) -> tuple[int, int] | None:
        if value is not None and not (0 <= value[0] <= value[1]):
            raise PydanticCustomError(
                "rulebook_range",
                "expected [low, high] with 0 <= low <= high, got {got}",
                {"got": str(list(value))},
            )
        return value

    # each form's own check, against the forms before it where those are sound (not the whole
    # sanction's, which would wait while another of its keys is wrong): every problem at once
    @field_validator(*POINTS_FORMS)
    @classmethod
    def _one_points_form(cls, value: object, info: ValidationInfo) -> object:
        if value is None:
            return value
        earlier = POINTS_FORMS[: POINTS_FORMS.index(str(info.field_name))]
        forms = [name for name in earlier if info.data.get(name) is not None] + [str(info.field_name)]
        if len(forms) > 1:
            raise PydanticCustomError(
                "rulebook_points_forms",
                "give one way of counting points, not {shown}",
                {"shown": ", ".join(forms), "forms": forms},
            )
        return value

    @field_validator("rest_points_per_card")
    @classmethod
    def _rest_with_per_card(cls, value: int | None, info: ValidationInfo) -> int | None:
        # points_per_card absent from the data is wrong itself (its own problem is listed)
        if value is not None and "points_per_card" in info.data and info.data["points_per_card"] is None:
            raise PydanticCustomError(
                "rulebook_rest_points", "rest_points_per_card: only with points_per_card"
            )
        return value


class Rule(Strict):
    """One branch of an infraction's penalty: the first rule whose conditions hold applies."""

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    when: When = When()
    sanction: Sanction = Sanction()
    same_as: Literal[KINDS] | None = None  # type: ignore[valid-type]
    counter: str | None = None
    clause: Clause
    # A failed throw whose other cards are charged as exposed (rest_points_per_card): the
    # counter those cards would feed if they counted as a time, and the reading that they
    # do not. A ruling the other reading would change is marked assumed.
    rest_counter: str | None = None
    rest_counter_clause: Clause | None = None
    # a fixed penalty (points) the text words for one card, applied to several cards exposed
    # at once: the reading that they are one offence; such a ruling is marked assumed
    several_cards_clause: Clause | None = None


class Step(Strict):
    """From the ``from_count``-th occurrence in the counter's scope on, this sanction applies."""

    from_count: int = Field(ge=2)
    sanction: Sanction
    clause: Clause


class Counter(Strict):
    """An escalation counter (累积次数) with an explicit scope, per offending side."""

    scope: Literal["hand", "round", "event"]
    steps: list[Step] = Field(min_length=1)
    # where the text does not say what the times are counted over: the reading; a ruling the
    # scope decides (counted over the round it would take another step) is marked assumed
    scope_clause: Clause | None = None
    # where the text does not say whose times are counted (the pair's or each player's): the
    # reading that the side's are; a ruling a per-player count would change is marked assumed
    per_side_clause: Clause | None = None


class Infraction(Strict):
    """An infraction kind's rules. ``event_kind``: a kind the event defines beyond the 14
    (悔牌, 调换比赛者 …), named by its own key and ``label``; the table referee logs it
    like any other (a button at the table), with the common facts (seat, trick, cards)."""

    label: Text
    rules: list[Rule] = Field(min_length=1)
    event_kind: bool = False


class Event(Strict):
    name: Text
    organiser: Text
    year: int
    source: str = Field(min_length=1)
    format: Text


class RulebookModel(Strict):
    schema_version: Literal[1]
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    event: Event
    levels: Levels
    scoring: Scoring
    bottom: Bottom
    next_dealer: NextDealer
    hand_loss: HandLoss
    forfeit: Forfeit
    disqualification_forfeits_round: bool = True
    match_points: MatchPoints
    round: Round
    standings: Standings
    appeal: Appeal
    time_limits: TimeLimits | None = None
    redeclarations: Redeclarations | None = None
    counters: dict[Annotated[str, Field(pattern=r"^[a-z0-9_]+$")], Counter] = {}
    #: the 14 kinds, and any kind the event defines (``event_kind = true``)
    infractions: dict[Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")], Infraction]

    @model_validator(mode="after")
    def _references(self, info: ValidationInfo) -> RulebookModel:
        """The checks across the rulebook (a kind without rules, a counter not defined, …).
        Every one is found: with a list as the validation's context ``problems`` (as
        :func:`referee_app.core.rulebook.validate_text` validates), each is added to it,
        so a chief referee sees them all at once; without it, the first is raised."""
        found = reference_problems(self)
        collect = info.context.get("problems") if isinstance(info.context, dict) else None
        if isinstance(collect, list):
            collect.extend(found)
        elif found:
            raise found[0]
        return self


def reference_problems(model: RulebookModel) -> list[PydanticCustomError]:
    """Every problem across a rulebook's parts, in the order of the file."""
    found: list[PydanticCustomError] = []
    for kind in KINDS:
        if kind not in model.infractions:
            found.append(
                PydanticCustomError(
                    "rulebook_kinds_missing",
                    "infractions: every kind needs rules; missing {shown}",
                    {"shown": kind, "kinds": [kind]},
                )
            )
    for kind, infraction in model.infractions.items():
        if kind not in KINDS and not infraction.event_kind:
            found.append(
                PydanticCustomError(
                    "rulebook_not_a_kind",
                    "{where}: not one of the 14 kinds; a kind of the event's own says event_kind = true",
                    {"where": f"infractions.{kind}", "kind": kind},
                )
            )
        elif kind in KINDS and infraction.event_kind:
            found.append(
                PydanticCustomError(
                    "rulebook_builtin_event_kind",
                    "{where}.event_kind: {kind} is one of the 14 kinds, not the event's own",
                    {"where": f"infractions.{kind}", "key": "event_kind", "kind": kind},
                )
            )
        for i, rule in enumerate(infraction.rules):
            where = f"infractions.{kind}.rules[{i}]"
            if rule.counter is not None and rule.counter not in model.counters:
                found.append(
                    PydanticCustomError(
                        "rulebook_no_counter",
                        "{where}.counter: no counter named '{name}'",
                        {"where": where, "key": "counter", "name": rule.counter},
                    )
                )
            if rule.rest_counter is not None and rule.rest_counter not in model.counters:
                found.append(
                    PydanticCustomError(
                        "rulebook_no_counter",
                        "{where}.rest_counter: no counter named '{name}'",
                        {"where": where, "key": "rest_counter", "name": rule.rest_counter},
                    )
                )
            if rule.same_as == kind:
                found.append(
                    PydanticCustomError(
                        "rulebook_same_as_itself",
                        "{where}.same_as: a kind cannot refer to itself",
                        {"where": where, "key": "same_as"},
                    )
                )
            elif (
                rule.same_as is not None
                and rule.same_as in model.infractions
                and any(r.same_as is not None for r in model.infractions[rule.same_as].rules)
            ):
                found.append(
                    PydanticCustomError(
                        "rulebook_same_as_chain",
                        "{where}.same_as: {kind} itself refers on",
                        {"where": where, "key": "same_as", "kind": rule.same_as},
                    )
                )
            if (
                rule.sanction.hand_loss is True
                and model.hand_loss.mode == "levels"
                and model.hand_loss.award is None
            ):
                found.append(
                    PydanticCustomError(
                        "rulebook_no_award",
                        "{where}.sanction.hand_loss: the event has no default award",
                        {"where": where, "key": "sanction.hand_loss"},
                    )
                )
    return found
