"""Floorman poker engine: hold'em and Omaha, seven-card stud and Draw Hold'em; pure Python,
standard library only, deterministic given a deck."""

from tables.engine.betting import BettingRound, IllegalAction
from tables.engine.dealing import Seats, plan_seats
from tables.engine.draw import DrawHand
from tables.engine.draw_records import AwardSwapFees, Reshuffle, StandPat, Swap, public_view
from tables.engine.hand import Hand
from tables.engine.pots import Pot, build_pots, split_pot
from tables.engine.records import (
    AwardPot,
    Blind,
    Call,
    Cause,
    Check,
    DealBoard,
    DealHole,
    Fold,
    Move,
    PostAnte,
    PostBlind,
    RaiseTo,
    Record,
    ReturnUncalled,
    ShowHand,
    TimeOut,
)
from tables.engine.rules import AnteMode, Betting, OddChip, Rules, Street, limit_small_blind
from tables.engine.stud import StudHand
from tables.engine.stud_rules import BringIn, DealCommon, DealStud, StudRules, StudStreet

__all__ = [
    "AnteMode",
    "AwardPot",
    "AwardSwapFees",
    "BringIn",
    "DealCommon",
    "DealStud",
    "DrawHand",
    "Reshuffle",
    "StandPat",
    "StudHand",
    "StudRules",
    "StudStreet",
    "Swap",
    "public_view",
    "Betting",
    "BettingRound",
    "Blind",
    "Call",
    "Cause",
    "Check",
    "DealBoard",
    "DealHole",
    "Fold",
    "Hand",
    "IllegalAction",
    "Move",
    "OddChip",
    "Pot",
    "PostAnte",
    "PostBlind",
    "RaiseTo",
    "Record",
    "ReturnUncalled",
    "Rules",
    "Seats",
    "ShowHand",
    "Street",
    "TimeOut",
    "build_pots",
    "limit_small_blind",
    "plan_seats",
    "split_pot",
]
