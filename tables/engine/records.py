"""The append-only records of a hand: postings, deals, moves, returns and awards."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

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


@dataclass(frozen=True, kw_only=True, slots=True)
class PostAnte:
    """A player posted an ante (R2.9, R2.10: all-in if short)."""

    seat: int
    amount: int
    all_in: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class PostBlind:
    """A player posted a blind (R2.1, R2.10: all-in if short)."""

    seat: int
    blind: Blind
    amount: int
    all_in: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class DealHole:
    """A player's hole cards; None where they are unknown (a replay of a mucked hand)."""

    seat: int
    cards: tuple[Card, ...] | None


@dataclass(frozen=True, kw_only=True, slots=True)
class DealBoard:
    """The board cards of a street."""

    street: Street
    cards: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Fold:
    """A player folded."""

    seat: int
    cause: Cause = Cause.PLAYER


@dataclass(frozen=True, kw_only=True, slots=True)
class Check:
    """A player checked."""

    seat: int
    cause: Cause = Cause.PLAYER


@dataclass(frozen=True, kw_only=True, slots=True)
class Call:
    """A player called; ``amount`` is the chips he added."""

    seat: int
    amount: int
    all_in: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class RaiseTo:
    """A player bet (nothing to call) or raised, to ``to`` in front of him this street."""

    seat: int
    to: int
    amount: int  # chips added by this move
    bet: bool = False  # True when there was nothing to call: a bet, not a raise
    all_in: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class TimeOut:
    """R3.10: a player with chips in the pot timed out; he stays in, all-in protected."""

    seat: int


@dataclass(frozen=True, kw_only=True, slots=True)
class ReturnUncalled:
    """The uncalled part of a bet went back to the player."""

    seat: int
    amount: int


@dataclass(frozen=True, kw_only=True, slots=True)
class ShowHand:
    """A player's hand at the showdown, in showing order; ``value`` is the evaluator's."""

    seat: int
    cards: tuple[Card, ...] | None
    value: int


@dataclass(frozen=True, kw_only=True, slots=True)
class AwardPot:
    """A pot (0 = main pot) was pushed: ``shares`` pairs seat and chips (R4.1, R4.2)."""

    pot: int
    amount: int
    shares: tuple[tuple[int, int], ...]

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won a share of this pot."""
        return tuple(seat for seat, _ in self.shares)


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
