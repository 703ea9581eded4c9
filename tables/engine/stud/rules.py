"""Seven-card stud (R7.2): the table's settings, the streets and the records stud adds."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from tables.engine.cards import Card
from tables.engine.records import (
    AwardPot,
    Call,
    Cause,
    Check,
    Fold,
    PostAnte,
    RaiseTo,
    ReturnUncalled,
    ShowHand,
    TimeOut,
    record,
)
from tables.engine.rules import OddChip

MAX_PLAYERS = 8  # R7.2: at most 8 players at a stud table


class StudStreet(IntEnum):
    """The betting rounds of seven-card stud, named by the cards each player then holds."""

    THIRD = 3
    FOURTH = 4
    FIFTH = 5
    SIXTH = 6
    SEVENTH = 7
    SHOWDOWN = 8


@dataclass(frozen=True, kw_only=True, slots=True)
class StudRules:
    """A stud table's settings for a hand (fixed limit; R2.11: fixed when the antes are posted).

    ``cap`` counts the bets a round allows: the complete (or, from fourth street, the bet) and
    the raises after it. R7.2 reads "completing the bring-in is no raise; at most three raises
    after it": bring-in, complete, then three raises, so the default is 4, as R3.4's "bet and
    three raises". The bring-in itself counts only when it is a full small bet (then it is the
    bet). ``odd_chip`` (R4.2): HIGHEST_CARD, the default, gives an odd chip to the winner with
    the highest card by suit among all his own cards (stud has no button; Robert's Rules and
    TDA do so in stud); LEFT_OF_BUTTON gives it to the first winner clockwise from position 0,
    the first player dealt (left of the dealer).
    """

    bring_in: int
    small_bet: int
    big_bet: int
    ante: int = 0
    cap: int = 4
    odd_chip: OddChip = OddChip.HIGHEST_CARD

    def __post_init__(self) -> None:
        if self.ante < 0:
            raise ValueError("the ante must be whole non-negative chips")
        if not 0 < self.bring_in <= self.small_bet:
            raise ValueError("the bring-in must be positive and at most the small bet (R7.2)")
        if self.big_bet < self.small_bet:
            raise ValueError("the big bet cannot be smaller than the small bet")
        if self.cap < 1:
            raise ValueError("the cap allows at least one bet a round")

    def bet(self, street: StudStreet) -> int:
        """The fixed bet of a street: the small bet on third and fourth, then the big bet.

        R7.2: an open pair on fourth street also allows the big bet (see ``StudRound``).
        """
        return self.small_bet if street <= StudStreet.FOURTH else self.big_bet


@record
class BringIn:
    """The low card's forced opening bet on third street (R7.2; R2.10: all-in if short).

    ``cause`` is the server's when it posted for an absent (R2.9) or timed-out (R3.10) player.
    """

    seat: int
    amount: int
    all_in: bool = False
    cause: Cause = Cause.PLAYER


@record
class DealStud:
    """A player's cards of one street: two down and one up on third street, one up on fourth
    to sixth, one down on seventh. ``down`` is None where the down cards are unknown (a
    replayed history); the up cards are always known."""

    seat: int
    street: StudStreet
    down: tuple[Card, ...] | None
    up: tuple[Card, ...]


@record
class DealCommon:
    """R7.2: the deck cannot give every player a card on seventh street, so one card is
    turned face up in the middle and plays in every player's hand."""

    card: Card
    street: StudStreet = StudStreet.SEVENTH


@record
class StudReshuffle:
    """R7.2: the deck could not give every player still in a card on ``street``: ``dealt``
    cards came off it (all but its last), then its last card and the burns (``mixed`` cards)
    were scrambled and cut in the server's order, one burned if ``burn``, and dealt on."""

    street: StudStreet
    dealt: int
    mixed: int
    burn: bool


StudRecord = (
    PostAnte
    | BringIn
    | DealStud
    | DealCommon
    | StudReshuffle
    | Fold
    | Check
    | Call
    | RaiseTo
    | TimeOut
    | ReturnUncalled
    | ShowHand
    | AwardPot
)
StudMove = BringIn | Fold | Check | Call | RaiseTo | TimeOut
