"""Who posts the blinds (R2.1, R2.7, R2.8) and where a hand's cards come from (R1.1)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tables.engine.cards import DECK_SIZE, Card, check_deck, shuffled_deck
from tables.engine.rules import Rules

_CARDS = frozenset(range(DECK_SIZE))
_CLOCKWISE: dict[int, tuple[tuple[int, ...], ...]] = {}


def clockwise(n: int) -> tuple[tuple[int, ...], ...]:
    """For each position of an ``n``-handed table, every position clockwise from it."""
    orders = _CLOCKWISE.get(n)
    if orders is None:
        orders = tuple(tuple((start + k) % n for k in range(n)) for start in range(n))
        _CLOCKWISE[n] = orders
    return orders


@dataclass(frozen=True, kw_only=True, slots=True)
class Seats:
    """The button and blind positions of a hand; ``small_blind`` None for a dead small blind."""

    button: int
    small_blind: int | None
    big_blind: int


def plan_seats(
    *,
    players: int,
    button: int,
    small_blind_seat: int | None = None,
    big_blind_seat: int | None = None,
    dead_small_blind: bool = False,
) -> Seats:
    """The blind positions: left of the button (R2.1), the button heads-up (R2.8), or dead."""
    if players < 2:
        raise ValueError("a hand needs at least two players")
    if not 0 <= button < players:
        raise ValueError(f"the button {button} is not one of the positions 0..{players - 1}")
    if dead_small_blind:
        if small_blind_seat is not None:
            raise ValueError("a dead small blind has no small blind seat")
        small_blind = None  # R2.7: nobody posts the small blind this hand
        big_blind = (button + 1) % players if big_blind_seat is None else big_blind_seat
    else:
        if small_blind_seat is not None:
            small_blind = small_blind_seat
        elif players == 2:
            small_blind = button  # R2.8: heads-up the button posts the small blind
        else:
            small_blind = (button + 1) % players  # R2.1
        big_blind = (small_blind + 1) % players if big_blind_seat is None else big_blind_seat
    for seat in (small_blind, big_blind):
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"the blind seat {seat} is not one of the positions 0..{players - 1}")
    if small_blind == big_blind:
        raise ValueError("the small blind and the big blind must be different players")
    return Seats(button=button, small_blind=small_blind, big_blind=big_blind)


class Deal:
    """The cards of one hand: explicit hole cards and board first, then the deck in order."""

    __slots__ = ("_board", "_board_pos", "_hole", "_hole_count", "_pos", "_rest")

    def __init__(
        self,
        *,
        hole_count: int,
        rest: list[Card],
        hole: list[tuple[Card, ...] | None] | None,
        board: list[Card],
    ) -> None:
        self._hole_count = hole_count
        self._rest = rest
        self._pos = 0
        self._hole = hole
        self._board = board
        self._board_pos = 0

    @classmethod
    def prepare(
        cls,
        *,
        rules: Rules,
        players: int,
        deck: Sequence[Card] | None,
        hole_cards: Sequence[Sequence[Card] | None] | None,
        board: Sequence[Card] | None,
    ) -> Deal:
        """Check the given cards and keep what the deck must still supply."""
        k = rules.hole_card_count
        hole: list[tuple[Card, ...] | None] | None = None
        known: list[Card] = []
        if hole_cards is not None:
            if len(hole_cards) != players:
                raise ValueError(f"hole cards are needed for {players} players (None: unknown)")
            hole = [None if cards is None else tuple(cards) for cards in hole_cards]
            for cards in hole:
                if cards is not None:
                    if len(cards) != k:
                        raise ValueError(f"each player holds {k} hole cards")
                    known.extend(cards)
        given_board = list(board or ())
        if len(given_board) > 5 or 0 < len(given_board) < 3:
            raise ValueError("a board is a flop of three cards, then a turn and a river")
        known.extend(given_board)
        if known:
            check_deck(known)
        source = shuffled_deck() if deck is None else list(deck)
        if deck is not None:
            distinct = set(source)
            if len(distinct) != len(source) or not distinct <= _CARDS:
                check_deck(source)  # raises with the reason
        rest = [card for card in source if card not in known] if known else source
        need = (players * k if hole is None else 0) + _board_need(len(given_board))
        if need > len(rest):
            raise ValueError(f"the deck holds {len(rest)} cards to deal, {need} are needed")
        return cls(hole_count=k, rest=rest, hole=hole, board=given_board)

    def hole(self, order: Sequence[int]) -> list[tuple[Card, ...] | None]:
        """Hole cards by position, dealt one at a time in ``order`` (R2.1)."""
        if self._hole is not None:
            return list(self._hole)
        n = len(order)
        rest, pos = self._rest, self._pos
        dealt: list[tuple[Card, ...] | None] = [None] * n
        end = pos + n * self._hole_count
        for position, seat in enumerate(order):
            dealt[seat] = tuple(rest[pos + position : end : n])  # every n-th card: one at a time
        self._pos = end
        return dealt

    def board(self, count: int) -> tuple[Card, ...]:
        """The next board cards: the given board, else a burn card and the deck's next ones."""
        start = self._board_pos
        if start + count <= len(self._board):
            self._board_pos = start + count
            return tuple(self._board[start : start + count])
        pos = self._pos + 1  # burn one
        self._pos = pos + count
        return tuple(self._rest[pos : pos + count])


def _board_need(given: int) -> int:
    """Deck cards the board may still need: a burn and the cards of each street not given."""
    return (4 if given < 3 else 0) + (2 if given < 4 else 0) + (2 if given < 5 else 0)
