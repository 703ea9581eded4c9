"""Draw Hold'em's stub: the cards after the deal, for swaps, burns and the board (R7.11).

The stub is dealt from the top: the first round's swaps, a burn and the flop, the flop's swaps,
a burn and the turn, and so on. House decision (R7.11): the stub keeps back the cards the board
still needs (a burn and a card for each street not yet dealt); a swap that would have to take
one of them is drawn from a new stub instead, the swapped-out cards and burns shuffled by the
``reshuffle`` callable (default: the operating system's CSPRNG, R1.1). So the board always comes
from the original shuffle (a deck commitment covers it) and can always be dealt; when nothing
has been swapped out or burned since the last reshuffle, no further swap is offered. With a full
deck that cannot happen (the stub and the discards together always hold 52 - 2n - 5 cards or
more); only a short deck runs dry.

A stub is *known* when it was dealt from a deck, or *unknown* in a replay from records: then
each card comes from the record that names it, a burn stays unknown (None), and a card the
records do not name (a live move after a replay) is drawn at random from the cards not known to
be anywhere.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence

from tables.engine.cards import DECK_SIZE, Card, card_name
from tables.engine.dealing import Deal
from tables.engine.draw.records import Reshuffle
from tables.engine.rules import Street

Reshuffler = Callable[[Sequence[Card]], Sequence[Card]]

# Cards the board still needs before each street's round, burns included (R7.11's reserve).
_BOARD_NEED = {Street.PREFLOP: 8, Street.FLOP: 4, Street.TURN: 2, Street.RIVER: 0}


def board_need(street: Street) -> int:
    """The stub cards the rest of the board takes, burns included, during ``street``."""
    return _BOARD_NEED.get(street, 0)


def system_reshuffle(cards: Sequence[Card]) -> list[Card]:
    """R1.1, R7.11: the cards in a new order from the operating system's CSPRNG."""
    order = list(cards)
    secrets.SystemRandom().shuffle(order)
    return order


def _no_cards() -> set[Card]:
    return set()


class Stub(Deal):
    """The hole cards (as :class:`Deal`), then the stub of a Draw Hold'em hand."""

    __slots__ = (
        "_known", "_left", "_pending", "_pool", "_reshuffle", "_spare", "deck_size", "locate",
    )  # fmt: skip

    def __init__(
        self,
        *,
        hole_count: int,
        rest: list[Card],
        hole: list[tuple[Card, ...] | None] | None,
        board: list[Card],
    ) -> None:
        super().__init__(hole_count=hole_count, rest=rest, hole=hole, board=board)
        self._left = 0  # cards of the original stub not yet dealt
        self.deck_size = DECK_SIZE
        self._known = True
        self._spare: list[Card | None] = []  # the reshuffled stub for swaps, top first
        self._pool: list[Card | None] = []  # swapped-out cards and burns since the last reshuffle
        self._pending: Reshuffle | None = None  # a reshuffle the records made (a replay)
        self._reshuffle: Reshuffler = system_reshuffle
        # Every card known to be somewhere (hands, board, this stub): set by the hand.
        self.locate: Callable[[], set[Card]] = _no_cards

    def setup(
        self, *, deck_size: int, players: int, known: bool, reshuffle: Reshuffler | None
    ) -> None:
        """The deck's size (the stub is the deck less the hole cards); whether its cards are
        known; the reshuffle (R7.11)."""
        size = deck_size - players * self._hole_count
        if size < _BOARD_NEED[Street.PREFLOP]:
            raise ValueError("the deck leaves too few cards for the burns and the board")
        self.deck_size = deck_size
        self._left = size
        self._known = known
        if reshuffle is not None:
            self._reshuffle = reshuffle

    @property
    def pool(self) -> tuple[Card | None, ...]:
        """The swapped-out cards and burns waiting for a reshuffle (None: unknown)."""
        return tuple(self._pool)

    @property
    def spare(self) -> tuple[Card | None, ...]:
        """The reshuffled stub the swaps draw from, top first (None: unknown)."""
        return tuple(self._spare)

    def known_cards(self) -> set[Card]:
        """The cards known to be in this stub: the pool, the reshuffled stub, the board to come."""
        cards = {card for card in self._pool if card is not None}
        cards.update(card for card in self._spare if card is not None)
        cards.update(self._board[self._board_pos :])
        return cards

    # -- the board -----------------------------------------------------------------------------

    def board(self, count: int) -> tuple[Card, ...]:
        """A burn (kept for a reshuffle, R7.11), then the street's cards: given ones first."""
        self._pool.append(self._take())
        cards: list[Card] = []
        for _ in range(count):
            if self._board_pos < len(self._board):
                cards.append(self._board[self._board_pos])
                self._board_pos += 1
                self._left -= 1
            else:
                card = self._take()
                cards.append(self._invent(set()) if card is None else card)
        return tuple(cards)

    def _take(self) -> Card | None:
        """The top card of the original stub; None in an unknown stub."""
        self._left -= 1
        if not self._known:
            return None
        card = self._rest[self._pos]
        self._pos += 1
        return card

    def _invent(self, taken: set[Card]) -> Card:
        """A card no record names, at random among those known to be nowhere (R1.1)."""
        free = sorted(set(range(DECK_SIZE)) - self.locate() - taken)
        if not free:
            raise ValueError("every card is accounted for; there is none to deal")
        return secrets.choice(free)

    # -- swaps ---------------------------------------------------------------------------------

    def can_draw(self, street: Street) -> bool:
        """R7.11: whether a swap can get a card: spare in the stub, or any to reshuffle."""
        return self._left > board_need(street) or bool(self._spare) or bool(self._pool)

    def discard(self, card: Card | None) -> None:
        """A swapped-out card goes face down with the burns, for a reshuffle (R7.11)."""
        self._pool.append(card)

    def prime(self, item: Reshuffle) -> None:
        """A replay: the next reshuffle makes the order this record names."""
        self._pending = item

    def draw(
        self, street: Street, *, recorded: bool, card: Card | None
    ) -> tuple[Card | None, Reshuffle | None]:
        """The card a swap gets, and the reshuffle it took, if any (R7.11).

        ``recorded`` with ``card``: what a record says was drawn, used where the stub's own
        card is unknown; a known stub card wins (a replay then sees its records differ).
        """
        reshuffled = None
        if self._left > board_need(street):
            own = self._take()
        else:
            if not self._spare:
                reshuffled = self._new_stub()
            own = self._spare.pop(0)
        if own is not None:
            return own, reshuffled
        if not recorded:
            return self._invent(set()), reshuffled
        if card is not None and card in self.locate():
            raise ValueError(f"the records draw the {card_name(card)}, which is elsewhere")
        return card, reshuffled

    def _new_stub(self) -> Reshuffle:
        """R7.11: the swapped-out cards and burns, shuffled into a new stub for the swaps."""
        pool, pending = self._pool, self._pending
        self._pending = None
        if not pool:
            raise ValueError("no card is left to swap (R7.11)")
        if pending is not None:
            order = self._recorded_order(pending)
        else:
            cards: list[Card] = []
            for card in pool:
                cards.append(self._invent(set(cards)) if card is None else card)
            shuffled = list(self._reshuffle(cards))
            if sorted(shuffled) != sorted(cards):
                raise ValueError("a reshuffle must return the same cards in a new order")
            order = list[Card | None](shuffled)
        self._spare = order
        self._pool = []
        known = None if None in order else tuple(card for card in order if card is not None)
        return Reshuffle(count=len(order), cards=known)

    def _recorded_order(self, pending: Reshuffle) -> list[Card | None]:
        """A replay's reshuffle, checked against what is known of the cards it shuffles."""
        pool = self._pool
        if pending.count != len(pool):
            raise ValueError(
                f"the records reshuffle {pending.count} cards; {len(pool)} were swapped out "
                "or burned (R7.11)"
            )
        if pending.cards is None:
            return [None] * pending.count
        order = list(pending.cards)
        if len(order) != pending.count or len(set(order)) != len(order):
            raise ValueError("a reshuffle names each of its cards once")
        known = {card for card in pool if card is not None}
        if not known <= set(order):
            raise ValueError("the records' reshuffle leaves out a card that was swapped out")
        strangers = set(order) - known
        if strangers & self.locate():
            raise ValueError("the records reshuffle a card that is elsewhere")
        return list[Card | None](order)
