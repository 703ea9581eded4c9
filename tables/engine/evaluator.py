"""Poker hand strength: best five of 5-7 cards (R1.2-R1.5) and Omaha's two-plus-three (R7.1)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations, combinations_with_replacement

from tables.engine.cards import DECK_SIZE, RANK_NAMES, Card, card_name

# A hand value is category << 20 followed by up to five 4-bit rank nibbles (0 = deuce .. 12 =
# ace), most significant first: the ranks that make the hand, then the kickers (R1.2). So a
# plain int comparison orders hands, equal hands get equal ints, and suits never enter (R1.5).
#
# Lookup: every card has a key (5 ** rank) << 16 | 1 << 4 * suit. The sum of a hand's keys holds
# the rank counts in base 5 above bit 16 (a count is at most 4, so no digit carries) and one
# 4-bit counter per suit below it. The counters start at 3 (_SUIT_BIAS), so a counter reaches 8
# (its top bit) exactly when a suit has five cards (seven cards take it to 10 at most, so it
# never overflows): one AND tells whether a flush is possible.
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

_POWERS_OF_5 = tuple(5**rank for rank in range(13))
_KEYS: dict[Card, int] = {
    card: _POWERS_OF_5[card >> 2] << _RANK_SHIFT | 1 << 4 * (card & 3) for card in range(DECK_SIZE)
}
# Bound once: in map() a dict's __getitem__ is faster than a tuple's, and a non-card is a KeyError.
_key_of = _KEYS.__getitem__
# A flush is the same ranks as a high-card hand, a straight flush the same as a straight.
_FLUSH_DELTA = (HandCategory.FLUSH - HandCategory.HIGH_CARD) << _CATEGORY_SHIFT
_STRAIGHT_FLUSH_DELTA = (HandCategory.STRAIGHT_FLUSH - HandCategory.STRAIGHT) << _CATEGORY_SHIFT


def _pack(category: HandCategory, *ranks: int) -> int:
    """A hand value from its category and its deciding ranks, most significant first."""
    value = int(category)
    for rank in ranks:
        value = value << 4 | rank
    return value << 4 * (5 - len(ranks))


def _straight_tops() -> list[int]:
    """For each rank bitmask the top rank of its highest straight, or -1 (R1.4: no wrap)."""
    tops = [-1] * (1 << 13)
    straights = [(_FIVE, _WHEEL_MASK)] + [(top, 0b11111 << (top - 4)) for top in range(4, 13)]
    for top, straight in straights:  # lowest first, so the highest straight is written last
        for mask in range(1 << 13):
            if mask & straight == straight:
                tops[mask] = top
    return tops


def _unsuited_value(hand: tuple[int, ...], straight_top: int) -> int:
    """The best five of some ranks (given high to low, at most four alike) without a flush."""
    # Distinct ranks by how often they appear, then by rank: the order the hand is read in.
    ranks = sorted(dict.fromkeys(hand), key=hand.count, reverse=True)
    most, second = hand.count(ranks[0]), hand.count(ranks[1])
    if most == 4:
        return _pack(HandCategory.FOUR_OF_A_KIND, ranks[0], max(ranks[1:]))
    if most == 3 and second >= 2:  # with seven cards a second trips leaves no pair
        return _pack(HandCategory.FULL_HOUSE, ranks[0], ranks[1])
    if straight_top >= 0:
        return _pack(HandCategory.STRAIGHT, straight_top)
    if most == 3:
        return _pack(HandCategory.THREE_OF_A_KIND, *ranks[:3])
    if most == 2 and second == 2:  # a third pair can still be the kicker
        return _pack(HandCategory.TWO_PAIR, ranks[0], ranks[1], max(ranks[2:]))
    if most == 2:
        return _pack(HandCategory.PAIR, *ranks[:4])
    return _pack(HandCategory.HIGH_CARD, *ranks[:5])


def _build_tables() -> tuple[dict[int, int], list[int]]:
    """The value of every multiset of 5-7 ranks by base-5 key, and of every flush by bitmask."""
    straight_tops = _straight_tops()
    unsuited: dict[int, int] = {}
    flushes = [0] * (1 << 13)
    for size in (5, 6, 7):
        for hand in combinations_with_replacement(range(_ACE, -1, -1), size):
            mask = 0
            for rank in hand:
                mask |= 1 << rank
            if hand.count(hand[size // 2]) > 4:  # any run of five covers the middle card
                continue  # no five of a kind with one deck (R1.1)
            value = _unsuited_value(hand, straight_tops[mask])
            unsuited[sum(map(_POWERS_OF_5.__getitem__, hand))] = value
            if mask.bit_count() == size:  # the same ranks all in one suit (R1.2)
                straight = value >> _CATEGORY_SHIFT == HandCategory.STRAIGHT
                flushes[mask] = value + (_STRAIGHT_FLUSH_DELTA if straight else _FLUSH_DELTA)
    return unsuited, flushes


_UNSUITED, _FLUSH = _build_tables()


def evaluate_unchecked(cards: Sequence[Card]) -> int:
    """The value of the best five of 5-7 distinct cards, without checking them (hot path)."""
    key = sum(map(_key_of, cards), _SUIT_BIAS)
    if not key & _FLUSH_BITS:
        return _UNSUITED[key >> _RANK_SHIFT]
    return flush_value(key, cards)


def flush_value(key: int, cards: Sequence[Card]) -> int:
    """The value of 5-7 ``cards`` whose key (their keys added to SUIT_BIAS) holds FLUSH_BITS:
    their flush, by the ranks of its suit (R1.2: with at most seven cards a flush rules out
    quads and full houses)."""
    suit = ((key & _FLUSH_BITS).bit_length() - 1) >> 2
    mask = 0
    for card in cards:
        if card & 3 == suit:
            mask |= 1 << (card >> 2)
    return _FLUSH[mask]


def evaluate(cards: Sequence[Card]) -> int:
    """The value of the best five of 5-7 cards (R1.3); higher is better, equal ints split."""
    count = len(cards)
    if not 5 <= count <= 7:
        raise ValueError(f"a hand is 5 to 7 cards, not {count}")
    if len(set(cards)) != count:
        _check_cards(cards)
    try:
        return evaluate_unchecked(cards)
    except KeyError:
        _check_cards(cards)
        raise


def _check_cards(cards: Sequence[Card]) -> None:
    """Raise ValueError unless the cards are distinct real cards."""
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
    return value == _pack(HandCategory.STRAIGHT_FLUSH, _ACE)


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


# The lookup's parts for enumerations that add card keys up street by street (all-in equity,
# tables.engine.equity): a hand's key is SUIT_BIAS plus its cards' CARD_KEYS; without
# FLUSH_BITS its value is UNSUITED[key >> RANK_SHIFT], else FLUSH_VALUES[the suit's rank mask].
CARD_KEYS: tuple[int, ...] = tuple(_KEYS[card] for card in range(DECK_SIZE))
SUIT_BIAS = _SUIT_BIAS
FLUSH_BITS = _FLUSH_BITS
RANK_SHIFT = _RANK_SHIFT
UNSUITED = _UNSUITED
FLUSH_VALUES = _FLUSH
