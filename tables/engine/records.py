"""The append-only records of a hand: postings, deals, moves, returns and awards."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from tables.engine.cards import Card
from tables.engine.rules import Street


class Cause(StrEnum):
    """Who made a move: the player, or the server for an absent (R2.9) or timed-out player."""

    PLAYER = "player"
    ABSENT = "absent"  # R2.9
    TIME_OUT = "time_out"  # R3.10


class Blind(StrEnum):
    """Which blind a posting is."""

    SMALL = "small_blind"
    BIG = "big_blind"


def slot_setters(cls: type) -> tuple[Callable[[object, Any], None], ...]:
    """The setters of a record's slots, in field order.

    Each record's ``__init__`` fills its slots through them: what the generated ``__init__`` of
    a frozen dataclass does through ``object.__setattr__``, about a third faster (a record is
    made on every move). Records stay frozen: assigning to a field still raises.
    """
    return tuple(cls.__dict__[field.name].__set__ for field in fields(cls))


@dataclass(frozen=True, kw_only=True, slots=True, init=False)
class PostAnte:
    """A player posted an ante (R2.9, R2.10: all-in if short)."""

    seat: int
    amount: int
    all_in: bool = False

    def __init__(self, *, seat: int, amount: int, all_in: bool = False) -> None:
        fill = _POST_ANTE_SLOTS
        fill[0](self, seat)
        fill[1](self, amount)
        fill[2](self, all_in)


_POST_ANTE_SLOTS = slot_setters(PostAnte)


@dataclass(frozen=True, kw_only=True, slots=True, init=False)
class PostBlind:
    """A player posted a blind (R2.1, R2.10: all-in if short)."""

    seat: int
    blind: Blind
    amount: int
    all_in: bool = False

    def __init__(self, *, seat: int, blind: Blind, amount: int, all_in: bool = False) -> None:
        fill = _POST_BLIND_SLOTS
        fill[0](self, seat)
        fill[1](self, blind)
        fill[2](self, amount)
        fill[3](self, all_in)


_POST_BLIND_SLOTS = slot_setters(PostBlind)


@dataclass(frozen=True, kw_only=True, slots=True, init=False)
class DealHole:
    """A player's hole cards; None where they are unknown (a replay of a mucked hand)."""

    seat: int
    cards: tuple[Card, ...] | None

    def __init__(self, *, seat: int, cards: tuple[Card, ...] | None) -> None:
        fill = _DEAL_HOLE_SLOTS
        fill[0](self, seat)
        fill[1](self, cards)


_DEAL_HOLE_SLOTS = slot_setters(DealHole)


@dataclass(frozen=True, kw_only=True, slots=True, init=False)
class DealBoard:
    """The board cards of a street."""

    street: Street
    cards: tuple[Card, ...]

    def __init__(self, *, street: Street, cards: tuple[Card, ...]) -> None:
        fill = _DEAL_BOARD_SLOTS
        fill[0](self, street)
        fill[1](self, cards)


_DEAL_BOARD_SLOTS = slot_setters(DealBoard)


@dataclass(frozen=True, kw_only=True, slots=True, init=False)
class Fold:
    """A player folded."""

    seat: int
    cause: Cause = Cause.PLAYER

    def __init__(self, *, seat: int, cause: Cause = Cause.PLAYER) -> None:
        fill = _FOLD_SLOTS
        fill[0](self, seat)
        fill[1](self, cause)


_FOLD_SLOTS = slot_setters(Fold)


@dataclass(frozen=True, kw_only=True, slots=True, init=False)
class Check:
    """A player checked."""

    seat: int
    cause: Cause = Cause.PLAYER

    def __init__(self, *, seat: int, cause: Cause = Cause.PLAYER) -> None:
        fill = _CHECK_SLOTS
        fill[0](self, seat)
        fill[1](self, cause)


_CHECK_SLOTS = slot_setters(Check)


@dataclass(frozen=True, kw_only=True, slots=True, init=False)
class Call:
    """A player called; ``amount`` is the chips he added."""

    seat: int
    amount: int
    all_in: bool = False

    def __init__(self, *, seat: int, amount: int, all_in: bool = False) -> None:
        fill = _CALL_SLOTS
        fill[0](self, seat)
        fill[1](self, amount)
        fill[2](self, all_in)


_CALL_SLOTS = slot_setters(Call)


@dataclass(frozen=True, kw_only=True, slots=True, init=False)
class RaiseTo:
    """A player bet (nothing to call) or raised, to ``to`` in front of him this street."""

    seat: int
    to: int
    amount: int  # chips added by this move
    bet: bool = False  # True when there was nothing to call: a bet, not a raise
    all_in: bool = False

    def __init__(
        self, *, seat: int, to: int, amount: int, bet: bool = False, all_in: bool = False
    ) -> None:
        fill = _RAISE_TO_SLOTS
        fill[0](self, seat)
        fill[1](self, to)
        fill[2](self, amount)
        fill[3](self, bet)
        fill[4](self, all_in)


_RAISE_TO_SLOTS = slot_setters(RaiseTo)


@dataclass(frozen=True, kw_only=True, slots=True, init=False)
class TimeOut:
    """R3.10: a player with chips in the pot timed out; he stays in, all-in protected."""

    seat: int

    def __init__(self, *, seat: int) -> None:
        fill = _TIME_OUT_SLOTS
        fill[0](self, seat)


_TIME_OUT_SLOTS = slot_setters(TimeOut)


@dataclass(frozen=True, kw_only=True, slots=True, init=False)
class ReturnUncalled:
    """The uncalled part of a bet went back to the player."""

    seat: int
    amount: int

    def __init__(self, *, seat: int, amount: int) -> None:
        fill = _RETURN_UNCALLED_SLOTS
        fill[0](self, seat)
        fill[1](self, amount)


_RETURN_UNCALLED_SLOTS = slot_setters(ReturnUncalled)


@dataclass(frozen=True, kw_only=True, slots=True, init=False)
class ShowHand:
    """A player's hand at the showdown, in showing order; ``value`` is the evaluator's."""

    seat: int
    cards: tuple[Card, ...] | None
    value: int

    def __init__(self, *, seat: int, cards: tuple[Card, ...] | None, value: int) -> None:
        fill = _SHOW_HAND_SLOTS
        fill[0](self, seat)
        fill[1](self, cards)
        fill[2](self, value)


_SHOW_HAND_SLOTS = slot_setters(ShowHand)


@dataclass(frozen=True, kw_only=True, slots=True, init=False)
class AwardPot:
    """A pot (0 = main pot) was pushed: ``shares`` pairs seat and chips (R4.1, R4.2)."""

    pot: int
    amount: int
    shares: tuple[tuple[int, int], ...]

    def __init__(self, *, pot: int, amount: int, shares: tuple[tuple[int, int], ...]) -> None:
        fill = _AWARD_POT_SLOTS
        fill[0](self, pot)
        fill[1](self, amount)
        fill[2](self, shares)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won a share of this pot."""
        return tuple(seat for seat, _ in self.shares)


_AWARD_POT_SLOTS = slot_setters(AwardPot)


Record = (
    PostAnte
    | PostBlind
    | DealHole
    | DealBoard
    | Fold
    | Check
    | Call
    | RaiseTo
    | TimeOut
    | ReturnUncalled
    | ShowHand
    | AwardPot
)
Move = Fold | Check | Call | RaiseTo | TimeOut
MOVES = (Fold, Check, Call, RaiseTo, TimeOut)
