"""The infraction catalogue (违规种类) and the phases of a hand, shared by the case parser
and the rulebook schema without importing pydantic."""

KINDS: tuple[str, ...] = (
    "late_arrival",  # 迟到
    "out_of_turn",  # 越序抓（出）牌
    "wrong_card_count",  # 多牌少牌
    "bottom_miscount",  # 底牌张数错误
    "exposed_card",  # 暴露张
    "failed_throw",  # 甩错牌
    "wrong_play",  # 出错牌：跟错、垫错、错将吃
    "hidden_card",  # 藏张 / 藏牌
    "wrong_declaration",  # 亮主错误
    "unreasonable_play",  # 无道理牌
    "illegal_signal",  # 传递非法信息
    "delay",  # 拖延比赛时间
    "trick_handling",  # 不按牌序扣牌
    "misconduct",  # 不文明行为、不服从裁判
)
PHASES: tuple[str, ...] = ("drawing", "before_bottom", "after_bury", "end_of_hand")

#: What blocked a failed throw (甩牌失败): the shape of the card or cards that beat it, a
#: ``long_tractor`` a tractor of three pairs or more. A case's ``blocked_by``; the keys of a
#: sanction's ``points_by_blocker``.
BLOCKERS = ("single", "pair", "tractor", "long_tractor")
