"""Cards as small integers, the 52-card deck and its CSPRNG shuffle (R1.1)."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence

# A card is an int 0..51: rank * 4 + suit. Rank 0 is a deuce, 12 an ace. Suits are numbered in
# the draw order of R1.6 (clubs < diamonds < hearts < spades), so a plain int comparison of two
# cards is the card-draw order: rank first, then suit.
Card = int

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = (
    "deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)  # fmt: skip
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
DECK_SIZE = 52


def make_card(*, rank: int, suit: int) -> Card:
    """The card of a rank (0 = deuce .. 12 = ace) and suit (0 = clubs .. 3 = spades)."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise ValueError(f"no card has rank {rank} and suit {suit}")
    return rank * 4 + suit


def rank_of(card: Card) -> int:
    """The rank index of a card: 0 for a deuce up to 12 for an ace."""
    return card >> 2


def suit_of(card: Card) -> int:
    """The suit index of a card: 0 clubs, 1 diamonds, 2 hearts, 3 spades (R1.6 order)."""
    return card & 3


def parse_card(text: str) -> Card:
    """A card from its two-letter name, such as 'Ah' or 'Tc'."""
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"{text!r} is not a card; write a rank of {RANKS} and a suit of {SUITS}")
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


def parse_cards(text: str) -> list[Card]:
    """Cards from concatenated names, such as 'AhKs' or 'Ah Ks'; '' gives no cards."""
    compact = text.replace(" ", "")
    if len(compact) % 2:
        raise ValueError(f"{text!r} is not a list of two-letter card names")
    return [parse_card(compact[i : i + 2]) for i in range(0, len(compact), 2)]


def card_name(card: Card) -> str:
    """The two-letter name of a card: 'Ah'."""
    if not 0 <= card < DECK_SIZE:
        raise ValueError(f"{card} is not a card number 0..51")
    return RANKS[card >> 2] + SUITS[card & 3]


def cards_name(cards: Iterable[Card]) -> str:
    """Concatenated two-letter names: 'AhKs'."""
    return "".join(card_name(card) for card in cards)


def new_deck() -> list[Card]:
    """A fresh 52-card deck in a fixed order, no jokers (R1.1)."""
    return list(range(DECK_SIZE))


def shuffled_deck(rng: secrets.SystemRandom | None = None) -> list[Card]:
    """A fresh deck shuffled by the operating system's CSPRNG (R1.1).

    ``secrets.SystemRandom`` keeps no state of its own: the entropy used for this shuffle is not
    kept, so nothing can be replayed from the generator (R1.1: the numbers are thrown away).
    """
    deck = new_deck()
    (rng or secrets.SystemRandom()).shuffle(deck)
    return deck


def check_deck(cards: Sequence[Card]) -> None:
    """Raise ValueError unless the cards are distinct real cards (a fixed deck for a replay)."""
    seen: set[Card] = set()
    for card in cards:
        if not 0 <= card < DECK_SIZE:
            raise ValueError(f"{card} is not a card number 0..51")
        if card in seen:
            raise ValueError(f"the card {card_name(card)} appears twice")
        seen.add(card)
