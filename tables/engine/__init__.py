"""Floorman poker engine: hold'em and Omaha, seven-card stud and Draw Hold'em; pure Python,
standard library only, deterministic given a deck.

The shared parts sit at the top (cards, evaluator, describe, rules, records, betting, moves,
pots, showdown, dealing, commitment, all-in equity); each game has a package (``holdem``,
``stud``, ``draw``) and hand histories have theirs (``phh``). Code outside the engine imports
the public names below or a package's, never a module's.
"""

from tables.engine.betting import BettingRound, IllegalAction
from tables.engine.cards import (
    DECK_SIZE,
    RANKS,
    SUITS,
    Card,
    card_name,
    cards_name,
    check_deck,
    new_deck,
    parse_card,
    parse_cards,
    rank_of,
    shuffled_deck,
    suit_of,
)
from tables.engine.commitment import (
    Opening,
    card_salt,
    commit,
    new_secret,
    positions_of,
    reshuffle_order,
)
from tables.engine.commitment import verify as verify_commitment
from tables.engine.dealing import Seats, plan_seats
from tables.engine.describe import HandName, best_five, describe
from tables.engine.draw import AwardSwapFees, DrawHand, Reshuffle, StandPat, Swap, public_view
from tables.engine.equity import Equity, all_in_equity
from tables.engine.evaluator import HandCategory, evaluate, evaluate_omaha, evaluate_unchecked
from tables.engine.holdem import Hand
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
from tables.engine.showdown import UNKNOWN_HAND, hand_value
from tables.engine.stud import BringIn, DealCommon, DealStud, StudHand, StudRules, StudStreet

__all__ = [
    "verify_commitment",
    "DECK_SIZE",
    "RANKS",
    "SUITS",
    "UNKNOWN_HAND",
    "AnteMode",
    "AwardPot",
    "AwardSwapFees",
    "Betting",
    "BettingRound",
    "Blind",
    "BringIn",
    "Call",
    "Card",
    "Cause",
    "Check",
    "DealBoard",
    "DealCommon",
    "DealHole",
    "DealStud",
    "DrawHand",
    "Equity",
    "Fold",
    "Hand",
    "HandCategory",
    "HandName",
    "IllegalAction",
    "Move",
    "OddChip",
    "Opening",
    "Pot",
    "PostAnte",
    "PostBlind",
    "RaiseTo",
    "Record",
    "Reshuffle",
    "ReturnUncalled",
    "Rules",
    "Seats",
    "ShowHand",
    "StandPat",
    "Street",
    "StudHand",
    "StudRules",
    "StudStreet",
    "Swap",
    "TimeOut",
    "all_in_equity",
    "best_five",
    "build_pots",
    "card_name",
    "card_salt",
    "cards_name",
    "check_deck",
    "commit",
    "describe",
    "evaluate",
    "evaluate_omaha",
    "evaluate_unchecked",
    "hand_value",
    "limit_small_blind",
    "new_deck",
    "new_secret",
    "parse_card",
    "parse_cards",
    "plan_seats",
    "positions_of",
    "public_view",
    "reshuffle_order",
    "rank_of",
    "shuffled_deck",
    "split_pot",
    "suit_of",
]
