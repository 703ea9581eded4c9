"""A per-card commitment to a shuffled deck: seen cards provably fixed before the deal (R1.1).

Before the deal the table shows ``root``, the hash of 52 leaves, one per deck position. A leaf
hashes the card at that position with a salt of its own, so after the hand the cards that were
seen can be opened (position, card, salt) and checked against the leaves, while the leaves of
unseen cards stay unguessable: without its 256-bit salt, a leaf cannot be tried card by card.
Each salt is HMAC-SHA256 of the hand's secret and the position, so one secret per hand is kept
until the hand ends, and an opened salt tells nothing about the secret or another salt.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tables.engine.cards import DECK_SIZE, Card, card_name, check_deck

SECRET_BYTES = 32
_LEAF_CHARS = 64  # a sha256 hex digest
_RESHUFFLE = b"R7.2 reshuffle:"  # longer than a salt's one-byte message: never the same


class CommitmentError(ValueError):
    """A deck commitment or an opening of it does not check out."""


@dataclass(frozen=True, kw_only=True, slots=True)
class DeckCommitment:
    """The root the table shows before the deal, and the leaves it is the hash of."""

    root: str
    leaves: tuple[str, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Opening:
    """One deck position opened after the hand: its card and the salt of its leaf (hex)."""

    position: int
    card: Card
    salt: str


def new_secret() -> bytes:
    """A fresh secret for one hand's commitment, from the operating system's CSPRNG."""
    return secrets.token_bytes(SECRET_BYTES)


def card_salt(secret: bytes, position: int) -> bytes:
    """The salt of one deck position: HMAC-SHA256 of the secret and the position."""
    return hmac.digest(secret, _position_byte(position), "sha256")


def reshuffle_order(secret: bytes) -> list[Card]:
    """R7.2: the order in which a stud hand's dealer mixes the deck's last card and the burns
    when the deck runs short: the 52 cards by HMAC-SHA256 of the hand's secret and the card.

    The secret comes from the CSPRNG before the deal and the commitment fixes it, so the order
    is fixed then too, kept on the server with the deck; an opened salt (another message under
    the same key) tells nothing about it."""
    return sorted(
        range(DECK_SIZE),
        key=lambda card: hmac.digest(secret, _RESHUFFLE + bytes((card,)), "sha256"),
    )


def leaf(*, position: int, card: Card, salt: bytes) -> str:
    """The hex leaf of one deck position: sha256 of salt, position byte and card byte."""
    card_name(card)  # ValueError for a non-card
    return hashlib.sha256(salt + _position_byte(position) + bytes((card,))).hexdigest()


def root_of(leaves: Sequence[str]) -> str:
    """The root of some leaves: sha256 hex of the leaf hex strings joined in deck order."""
    return hashlib.sha256("".join(leaves).encode("ascii")).hexdigest()


def commit(deck: Sequence[Card], secret: bytes) -> DeckCommitment:
    """Commit to a whole shuffled deck (R1.1: 52 distinct cards) under the hand's secret."""
    _check_full_deck(deck)
    leaves = tuple(
        leaf(position=position, card=card, salt=card_salt(secret, position))
        for position, card in enumerate(deck)
    )
    return DeckCommitment(root=root_of(leaves), leaves=leaves)


def open_cards(
    deck: Sequence[Card], secret: bytes, positions: Iterable[int]
) -> tuple[Opening, ...]:
    """The openings of some deck positions, in position order; the others stay hidden."""
    _check_full_deck(deck)
    openings = []
    for position in sorted(set(positions)):
        salt = card_salt(secret, position)  # ValueError for a position off the deck
        openings.append(Opening(position=position, card=deck[position], salt=salt.hex()))
    return tuple(openings)


def positions_of(deck: Sequence[Card], cards: Iterable[Card]) -> tuple[int, ...]:
    """The deck positions of some cards (say, those shown at the showdown), in position order."""
    where = {card: position for position, card in enumerate(deck)}
    wanted = list(cards)
    missing = [card for card in wanted if card not in where]
    if missing:
        raise ValueError(f"not in the deck: {', '.join(map(str, missing))}")
    return tuple(sorted({where[card] for card in wanted}))


def verify(*, root: str, leaves: Sequence[str], openings: Sequence[Opening]) -> None:
    """Raise CommitmentError unless the leaves make the root and every opening its leaf."""
    if len(leaves) != DECK_SIZE:
        raise CommitmentError(f"a deck commitment has {DECK_SIZE} leaves, not {len(leaves)}")
    for position, text in enumerate(leaves):
        if len(text) != _LEAF_CHARS or text.strip("0123456789abcdef"):
            raise CommitmentError(f"leaf {position} is not a sha256 hex digest")
    if root_of(leaves) != root:
        raise CommitmentError("the leaves do not hash to the root shown before the deal")
    opened: dict[Card, int] = {}
    for opening in openings:
        _verify_opening(opening, leaves)
        earlier = opened.setdefault(opening.card, opening.position)
        if earlier != opening.position:
            raise CommitmentError(
                f"the {card_name(opening.card)} is opened at positions {earlier} and "
                f"{opening.position}: the committed deck was not 52 distinct cards"
            )


def _verify_opening(opening: Opening, leaves: Sequence[str]) -> None:
    position = opening.position
    if not 0 <= position < DECK_SIZE:
        raise CommitmentError(f"position {position} is not on the deck (0..{DECK_SIZE - 1})")
    if not 0 <= opening.card < DECK_SIZE:
        raise CommitmentError(f"{opening.card} at position {position} is not a card number")
    try:
        salt = bytes.fromhex(opening.salt)
    except ValueError:
        raise CommitmentError(f"the salt of position {position} is not hex") from None
    if len(salt) != SECRET_BYTES:
        raise CommitmentError(f"the salt of position {position} is not {SECRET_BYTES} bytes")
    if leaf(position=position, card=opening.card, salt=salt) != leaves[position]:
        raise CommitmentError(
            f"the {card_name(opening.card)} with this salt is not what position {position} "
            "committed to"
        )


def _position_byte(position: int) -> bytes:
    if not 0 <= position < DECK_SIZE:
        raise ValueError(f"position {position} is not on the deck (0..{DECK_SIZE - 1})")
    return bytes((position,))


def _check_full_deck(deck: Sequence[Card]) -> None:
    if len(deck) != DECK_SIZE:
        raise ValueError(f"a committed deck is all {DECK_SIZE} cards, not {len(deck)}")
    check_deck(deck)  # R1.1: distinct real cards, no jokers
