"""The house bots: a simple, honest policy that picks a legal move for the actor of a hand.

A bot sees what a player at the table sees: its own hole cards (``hand.hole_cards[hand.actor]``),
the board, the chips in the pot and the bet to match, and the engine's own answers to what it
may do (``can_*``, ``call_amount``, ``min_raise_to``, ``max_raise_to``). It never reads another
player's hole cards and never works out an amount the engine did not give it a range for.
"""

from __future__ import annotations

import random  # the bots' whims only, never cards (R1.1: decks come from secrets)
from dataclasses import dataclass
from typing import Literal

from tables.engine import (
    Card,
    HandCategory,
    describe,
    evaluate_unchecked,
    hand_value,
    rank_of,
    suit_of,
)
from tables.engine.draw import DrawHand
from tables.engine.holdem import Hand
from tables.engine.stud import StudHand

Action = Literal["fold", "check", "call", "raise", "bring_in", "swap", "stand_pat"]

# Strength is a rough 0..1 guess of how good the hand is; the thresholds compare noisy strength.
_RAISE_AT = 0.7
_ALL_IN_AT = 0.85
_ALL_IN_CHANCE = 0.25
_BLUFF_CHANCE = 0.08
_NOISE = 0.1
_FOLD_BASE = 0.3
_FOLD_PER_PRESSURE = 0.6
_OMAHA_DISCOUNT = 0.1  # four hole cards make every starting hand look better than it is

# After the flop: a base strength per category, plus a spread by the hand's top rank.
_MADE_HAND = {
    HandCategory.HIGH_CARD: (0.05, 0.1),
    HandCategory.PAIR: (0.3, 0.25),
    HandCategory.TWO_PAIR: (0.58, 0.07),
    HandCategory.THREE_OF_A_KIND: (0.68, 0.07),
    HandCategory.STRAIGHT: (0.76, 0.05),
    HandCategory.FLUSH: (0.82, 0.05),
    HandCategory.FULL_HOUSE: (0.88, 0.05),
    HandCategory.FOUR_OF_A_KIND: (0.95, 0.03),
    HandCategory.STRAIGHT_FLUSH: (0.98, 0.02),
}
_ACE = 12


@dataclass(frozen=True, slots=True)
class BotMove:
    """A bot's choice: ``amount`` is the raise-to (or bet) for a raise, None otherwise."""

    action: Action
    amount: int | None = None

    def __post_init__(self) -> None:
        # ``amount`` is the raise-to of a raise, or the card a swap gives back (R7.4).
        if (self.action in ("raise", "swap")) != (self.amount is not None):
            raise ValueError("a raise or a swap needs an amount, and only they have one")


def choose_move(hand: Hand | StudHand, *, rng: random.Random) -> BotMove:
    """A legal move for the hand's actor: fold weak hands to big bets, call medium, raise strong.

    ``rng`` is the caller's seeded generator for the bot's whims only; it never touches cards
    (R1.1: the deck is shuffled by the CSPRNG in tables.engine.cards).
    """
    seat = hand.actor
    if seat is None:
        raise ValueError("nobody is to act")
    hole = hand.hole_cards[seat]
    if hole is None:
        raise ValueError("a bot plays only a hand whose hole cards it holds")
    if isinstance(hand, StudHand):
        # R7.2: its own down and up cards (and a common card); the low card must bring in.
        strength = _stud_strength((*hole, *hand.board)) + rng.uniform(-_NOISE, _NOISE)
        if hand.can_bring_in():
            if hand.can_raise() and strength >= _RAISE_AT:
                return BotMove("raise", hand.min_raise_to())  # completes
            return BotMove("bring_in")
    else:
        strength = _strength(hole, hand.board, omaha=hand.rules.omaha)
        strength += rng.uniform(-_NOISE, _NOISE)
    if isinstance(hand, DrawHand):
        swap = _draw_decision(hand, hole, strength, rng)
        if swap is not None:
            return swap
    owed = hand.call_amount()
    if hand.can_raise() and (strength >= _RAISE_AT or (not owed and rng.random() < _BLUFF_CHANCE)):
        return BotMove("raise", _raise_size(hand, strength=strength, owed=owed, rng=rng))
    if hand.can_check():
        return BotMove("check")
    # The share of the pot after calling that the call costs: a big bet is a big share.
    pressure = owed / (hand.pot_total + owed)
    if strength < _FOLD_BASE + _FOLD_PER_PRESSURE * pressure and strength < _RAISE_AT:
        return BotMove("fold")
    return BotMove("call")


def apply_move(hand: Hand | StudHand, move: BotMove) -> object:
    """Make a bot's move on the engine, which checks it like any player's; its record."""
    match move.action:
        case "bring_in" if isinstance(hand, StudHand):
            return hand.bring_in()
        case "swap" if isinstance(hand, DrawHand) and move.amount is not None:
            return hand.swap(move.amount)
        case "stand_pat" if isinstance(hand, DrawHand):
            return hand.stand_pat()
        case "fold":
            return hand.fold()
        case "check":
            return hand.check()
        case "call":
            return hand.call()
        case "raise" if move.amount is not None:
            return hand.raise_to(move.amount)
    raise ValueError(f"not a move: {move}")


def _draw_decision(
    hand: DrawHand, hole: tuple[Card, ...], strength: float, rng: random.Random
) -> BotMove | None:
    """Draw Hold'em (R7.3-R7.8): a weak hand swaps its lower card when the fee is small
    against its stack; otherwise it keeps its cards where that is the only choice."""
    cheap = hand.swap_fee() * 10 <= hand.stacks[hand.actor or 0]
    if hand.can_swap() and strength < _FOLD_BASE + 0.2 and cheap and rng.random() < 0.7:
        return BotMove("swap", min(hole))  # the lower card (ints order by rank, then suit)
    if hand.swap_only:
        return BotMove("stand_pat")
    return None


def _stud_strength(cards: tuple[Card, ...]) -> float:
    """A rough 0..1 strength of a stud player's own cards: the made hand from five cards on,
    else pairs and high cards of what he holds."""
    if len(cards) >= 5:
        name = describe(evaluate_unchecked(list(cards)))  # at most 7: six own and a common
        base, spread = _MADE_HAND[name.category]
        return base + spread * name.ranks[0] / _ACE
    ranks = sorted((rank_of(card) for card in cards), reverse=True)
    if len(set(ranks)) < len(ranks):
        return 0.55 + 0.45 * max(r for r in ranks if ranks.count(r) > 1) / _ACE
    return 0.1 + 0.4 * ranks[0] / _ACE


def _raise_size(hand: Hand | StudHand, *, strength: float, owed: int, rng: random.Random) -> int:
    """Half the pot to the pot on top of the call, or sometimes all-in with a strong hand."""
    if isinstance(hand, StudHand):
        return hand.raise_targets()[0]  # R7.2: fixed limit (the small bet when two are legal)
    low, high = hand.min_raise_to(), hand.max_raise_to()
    if strength >= _ALL_IN_AT and rng.random() < _ALL_IN_CHANCE:
        return high
    pot_after_call = hand.pot_total + owed
    wanted = hand.round.current_bet + int(rng.uniform(0.5, 1.0) * pot_after_call)
    return min(max(wanted, low), high)


def _strength(hole: tuple[Card, ...], board: list[Card], *, omaha: bool) -> float:
    """A rough 0..1 strength of the actor's own hand: starting cards, or the made hand."""
    if len(board) < 3:
        if omaha:
            best = max(_starting(a, b) for i, a in enumerate(hole) for b in hole[i + 1 :])
            return best - _OMAHA_DISCOUNT
        return _starting(*hole)
    name = describe(hand_value(hole, board, omaha=omaha))
    base, spread = _MADE_HAND[name.category]
    return base + spread * name.ranks[0] / _ACE


def _starting(first: Card, second: Card) -> float:
    """Two starting cards: pairs by rank, else high cards, suited and connected a little more."""
    high, low = sorted((rank_of(first), rank_of(second)), reverse=True)
    if high == low:
        return 0.55 + 0.45 * high / _ACE
    strength = 0.1 + 0.35 * high / _ACE + 0.2 * low / _ACE
    if suit_of(first) == suit_of(second):
        strength += 0.06
    if high - low == 1:
        strength += 0.04
    return strength
