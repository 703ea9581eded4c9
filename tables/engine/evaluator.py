"""Poker hand strength: best five of 5-7 cards (R1.2-R1.5) and Omaha's two-plus-three (R7.1)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations

from tables.engine.cards import DECK_SIZE, RANK_NAMES, Card, card_name

# A hand value is category << 20 followed by up to five 4-bit rank nibbles (0 = deuce .. 12 =
# ace), most significant first: the ranks that make the hand, then the kickers (R1.2). So a
# plain int comparison orders hands, equal hands get equal ints, and suits never enter (R1.5).
#
# Lookup: every card has a key (5 ** rank) << 16 | 1 << 4 * suit. The sum of a hand's keys holds
# the rank counts in base 5 above bit 16 (a count is at most 4, so no digit carries) and one
# 4-bit counter per suit below it. The counters start at 3 (_SUIT_BIAS), so a counter reaches 8
# (its top bit) exactly when a suit has five cards: one AND tells whether a flush is possible.
# Without a flush the rank counts alone decide the hand: one dict lookup, built at import.


class HandCategory(IntEnum):
    """The nine kinds of poker hand, weakest first (R1.2)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


_CATEGORY_SHIFT = 20
_ACE = 12
_FIVE = 3
_WHEEL_MASK = 1 << _ACE | 0b1111  # A-2-3-4-5 (R1.4)
_SUIT_BIAS = 0x3333
_FLUSH_BITS = 0x8888
_RANK_SHIFT = 16

_KEYS: tuple[int, ...] = tuple(
    (5 ** (card >> 2)) << _RANK_SHIFT | 1 << 4 * (card & 3) for card in range(DECK_SIZE)
)


def _pack(category: HandCategory, ranks: Sequence[int]) -> int:
    """A hand value from its category and its deciding ranks, most significant first."""
    value = int(category)
    for position in range(5):
        value = value << 4 | (ranks[position] if position < len(ranks) else 0)
    return value


def _straight_top(mask: int) -> int:
    """The top rank of the highest straight in a rank bitmask, or -1 (R1.4: no wrap-around)."""
    for top in range(_ACE, _FIVE, -1):
        if (mask >> (top - 4)) & 0b11111 == 0b11111:
            return top
    return _FIVE if mask & _WHEEL_MASK == _WHEEL_MASK else -1


def _ranks_high_to_low(mask: int) -> list[int]:
    """The ranks set in a bitmask, highest first."""
    return [rank for rank in range(_ACE, -1, -1) if mask >> rank & 1]


def _flush_value(mask: int) -> int:
    """The value of the best hand among suited cards with these ranks (5+ bits set)."""
    top = _straight_top(mask)
    if top >= 0:
        return _pack(HandCategory.STRAIGHT_FLUSH, [top])
    return _pack(HandCategory.FLUSH, _ranks_high_to_low(mask)[:5])


def _unsuited_value(counts: Sequence[int]) -> int:
    """The value of the best five cards given how many of each rank there are (no flush)."""
    by_count: list[list[int]] = [[], [], [], [], []]
    mask = 0
    for rank in range(_ACE, -1, -1):
        if counts[rank]:
            by_count[counts[rank]].append(rank)
            mask |= 1 << rank
    quads, trips, pairs = by_count[4], by_count[3], by_count[2]
    present = _ranks_high_to_low(mask)
    if quads:
        return _pack(HandCategory.FOUR_OF_A_KIND, [quads[0], _best_other(present, quads[:1])])
    if trips and (len(trips) > 1 or pairs):
        return _pack(HandCategory.FULL_HOUSE, [trips[0], max(trips[1:] + pairs)])
    top = _straight_top(mask)
    if top >= 0:
        return _pack(HandCategory.STRAIGHT, [top])
    if trips:
        return _pack(HandCategory.THREE_OF_A_KIND, [trips[0], *_others(present, trips, 2)])
    if len(pairs) > 1:
        return _pack(HandCategory.TWO_PAIR, [*pairs[:2], *_others(present, pairs[:2], 1)])
    if pairs:
        return _pack(HandCategory.PAIR, [pairs[0], *_others(present, pairs, 3)])
    return _pack(HandCategory.HIGH_CARD, present[:5])


def _others(present: list[int], used: list[int], count: int) -> list[int]:
    """The highest ``count`` ranks present that are not already used: the kickers."""
    return [rank for rank in present if rank not in used][:count]


def _best_other(present: list[int], used: list[int]) -> int:
    """The single highest kicker."""
    return _others(present, used, 1)[0]


def _build_unsuited_table() -> dict[int, int]:
    """Every multiset of 5-7 ranks (at most four of each), by base-5 key, to its value."""
    table: dict[int, int] = {}
    counts = [0] * 13

    def fill(rank: int, cards: int, key: int) -> None:
        if rank == 13:
            if cards >= 5:
                table[key] = _unsuited_value(counts)
            return
        for count in range(min(4, 7 - cards) + 1):
            counts[rank] = count
            fill(rank + 1, cards + count, key + count * 5**rank)
        counts[rank] = 0

    fill(0, 0, 0)
    return table


_UNSUITED: dict[int, int] = _build_unsuited_table()
_FLUSH: tuple[int, ...] = tuple(
    _flush_value(mask) if mask.bit_count() >= 5 else 0 for mask in range(1 << 13)
)


def evaluate_unchecked(cards: Sequence[Card]) -> int:
    """The value of the best five of 5-7 distinct cards, without checking them (hot path)."""
    key = sum(map(_KEYS.__getitem__, cards), _SUIT_BIAS)
    if not key & _FLUSH_BITS:
        return _UNSUITED[key >> _RANK_SHIFT]
    # R1.2: with at most seven cards a flush rules out quads and full houses.
    suit = ((key & _FLUSH_BITS).bit_length() - 1) >> 2
    mask = 0
    for card in cards:
        if card & 3 == suit:
            mask |= 1 << (card >> 2)
    return _FLUSH[mask]


def evaluate(cards: Sequence[Card]) -> int:
    """The value of the best five of 5-7 cards (R1.3); higher is better, equal ints split."""
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a hand is 5 to 7 cards, not {len(cards)}")
    _check_cards(cards)
    return evaluate_unchecked(cards)


def _check_cards(cards: Sequence[Card]) -> None:
    """Raise ValueError unless the cards are distinct real cards."""
    if len(set(cards)) == len(cards) and min(cards) >= 0 and max(cards) < DECK_SIZE:
        return
    seen: set[Card] = set()
    for card in cards:
        if not 0 <= card < DECK_SIZE:
            raise ValueError(f"{card!r} is not a card number 0..51")
        if card in seen:
            raise ValueError(f"the card {card_name(card)} appears twice")
        seen.add(card)


def evaluate_omaha(*, hole: Sequence[Card], board: Sequence[Card]) -> int:
    """The value of the best hand of exactly two hole cards and three board cards (R7.1)."""
    if not 4 <= len(hole) <= 6:
        raise ValueError(f"an Omaha hand has 4 to 6 hole cards, not {len(hole)}")
    if not 3 <= len(board) <= 5:
        raise ValueError(f"an Omaha board has 3 to 5 cards, not {len(board)}")
    _check_cards([*hole, *board])
    keys = _KEYS
    boards = [(keys[a] + keys[b] + keys[c], a, b, c) for a, b, c in combinations(board, 3)]
    best = 0
    for x, y in combinations(hole, 2):
        hole_key = keys[x] + keys[y] + _SUIT_BIAS
        for board_key, a, b, c in boards:
            key = hole_key + board_key
            if key & _FLUSH_BITS:  # R7.1: all five suited, so two suited hole cards
                value = _FLUSH[
                    1 << (x >> 2) | 1 << (y >> 2) | 1 << (a >> 2) | 1 << (b >> 2) | 1 << (c >> 2)
                ]
            else:
                value = _UNSUITED[key >> _RANK_SHIFT]
            if value > best:
                best = value
    return best


def category_of(value: int) -> HandCategory:
    """The category of a hand value (R1.2)."""
    return HandCategory(value >> _CATEGORY_SHIFT)


def is_royal_flush(value: int) -> bool:
    """Whether a hand value is the ace-high straight flush (R1.2)."""
    return value == _pack(HandCategory.STRAIGHT_FLUSH, [_ACE])


def _ranks_of(value: int) -> list[int]:
    """The five rank nibbles of a hand value, most significant first."""
    return [value >> shift & 0xF for shift in (16, 12, 8, 4, 0)]


def _plural(rank: int) -> str:
    """The plural English name of a rank: 'sixes', 'kings'."""
    name = RANK_NAMES[rank]
    return name + ("es" if name.endswith("x") else "s")


def describe(value: int) -> str:
    """A plain English description of a hand value, such as 'Two pair, kings and sevens'."""
    category = category_of(value)
    first, second, *_ = _ranks_of(value)
    match category:
        case HandCategory.STRAIGHT_FLUSH if first == _ACE:
            return "Royal flush"
        case HandCategory.STRAIGHT_FLUSH:
            return f"Straight flush, {RANK_NAMES[first]} high"
        case HandCategory.FOUR_OF_A_KIND:
            return f"Four of a kind, {_plural(first)}"
        case HandCategory.FULL_HOUSE:
            return f"Full house, {_plural(first)} full of {_plural(second)}"
        case HandCategory.FLUSH:
            return f"Flush, {RANK_NAMES[first]} high"
        case HandCategory.STRAIGHT:
            return f"Straight, {RANK_NAMES[first]} high"
        case HandCategory.THREE_OF_A_KIND:
            return f"Three of a kind, {_plural(first)}"
        case HandCategory.TWO_PAIR:
            return f"Two pair, {_plural(first)} and {_plural(second)}"
        case HandCategory.PAIR:
            return f"Pair of {_plural(first)}"
        case _:
            return f"{RANK_NAMES[first].capitalize()} high"
