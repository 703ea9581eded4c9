"""Seven-card stud (R7.2): the hand (``hand``), its legality (``legal``), state (``state``),
cards and board order (``cards``), betting sizes (``betting``) and settings and records
(``rules``)."""

from tables.engine.stud.cards import (
    StudDeal,
    high_hand_seat,
    low_card_seat,
    rank_sum,
    showing_key,
)
from tables.engine.stud.hand import StudHand
from tables.engine.stud.rules import (
    MAX_PLAYERS,
    BringIn,
    DealCommon,
    DealStud,
    StudMove,
    StudRecord,
    StudReshuffle,
    StudRules,
    StudStreet,
)

__all__ = [
    "MAX_PLAYERS",
    "BringIn",
    "DealCommon",
    "DealStud",
    "StudDeal",
    "StudHand",
    "StudMove",
    "StudRecord",
    "StudReshuffle",
    "StudRules",
    "StudStreet",
    "high_hand_seat",
    "low_card_seat",
    "rank_sum",
    "showing_key",
]
