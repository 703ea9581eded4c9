"""A hand's five playing cards in reading order, and its category and deciding ranks (R1.2)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from tables.engine.cards import Card, rank_of
from tables.engine.evaluator import (
    HandCategory,
    category_of,
    evaluate,
    evaluate_omaha,
    evaluate_unchecked,
)

_ACE = 12
_FIVE = 3
# The nibbles of a value that mean something, by category (see the top of evaluator.py): the
# ranks that make the hand, then the kickers (R1.2). A straight is named by its top card alone.
_DECIDING = {
    HandCategory.HIGH_CARD: 5,
    HandCategory.PAIR: 4,
    HandCategory.TWO_PAIR: 3,
    HandCategory.THREE_OF_A_KIND: 3,
    HandCategory.STRAIGHT: 1,
    HandCategory.FLUSH: 5,
    HandCategory.FULL_HOUSE: 2,
    HandCategory.FOUR_OF_A_KIND: 2,
    HandCategory.STRAIGHT_FLUSH: 1,
}
_NIBBLE_SHIFTS = (16, 12, 8, 4, 0)


@dataclass(frozen=True, kw_only=True, slots=True)
class HandName:
    """What a hand value says: its category and its ranks (0 = deuce .. 12 = ace), read order."""

    category: HandCategory
    ranks: tuple[int, ...]


def describe(value: int) -> HandName:
    """The category and deciding ranks of an evaluator value: a full house KKKTT is (11, 8)."""
    if value < 0:
        raise ValueError(f"{value} is not the value of a shown hand")
    category = category_of(value)  # ValueError for a category the evaluator never makes
    ranks = tuple(value >> shift & 0xF for shift in _NIBBLE_SHIFTS[: _DECIDING[category]])
    if max(ranks) > _ACE:
        raise ValueError(f"{value} holds a rank above the ace")
    return HandName(category=category, ranks=ranks)


def best_five(
    hole: Sequence[Card], board: Sequence[Card], *, omaha: bool = False
) -> tuple[Card, ...]:
    """The five cards that play, the ones making the hand first, then kickers high to low.

    R1.3: any five of hole and board in hold'em; R7.1: exactly two hole and three board cards
    in Omaha. Of several sets worth the same (they differ in suits only), the highest cards.
    """
    if omaha:
        value = evaluate_omaha(hole=hole, board=board)  # checks the cards
        candidates = [
            (*two, *three) for two in combinations(hole, 2) for three in combinations(board, 3)
        ]
    else:
        value = evaluate([*hole, *board])  # checks the cards
        candidates = list(combinations([*hole, *board], 5))
    best = max(
        (five for five in candidates if evaluate_unchecked(five) == value),
        key=lambda five: sorted(five, reverse=True),
    )
    return _reading_order(best, value=value)


def _reading_order(five: Sequence[Card], *, value: int) -> tuple[Card, ...]:
    """Five cards as a hand is read: most alike ranks first, higher first; a wheel 5-4-3-2-A."""
    counts = Counter(rank_of(card) for card in five)
    name = describe(value)
    # R1.4: in A-2-3-4-5 the ace counts low, so it is read last.
    wheel = name.category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH)
    wheel = wheel and name.ranks[0] == _FIVE

    def importance(card: Card) -> tuple[int, int, int]:
        rank = rank_of(card)
        if wheel and rank == _ACE:
            rank = -1
        return (counts[rank_of(card)], rank, card)

    return tuple(sorted(five, key=importance, reverse=True))
