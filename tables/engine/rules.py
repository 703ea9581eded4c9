"""A table's settings for one hand: betting structure, blinds, antes and house options."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum


class Betting(StrEnum):
    """The betting structure of the game (R7.1)."""

    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    LIMIT = "limit"


class AnteMode(StrEnum):
    """Who pays the ante."""

    NONE = "none"
    EVERY_PLAYER = "every_player"
    # The big blind pays one ante for the whole table; ``Rules.ante`` is that whole amount.
    BIG_BLIND = "big_blind"


class OddChip(StrEnum):
    """Who gets the odd chip of a split pot (R4.2)."""

    LEFT_OF_BUTTON = "left_of_button"  # R4.2 default: the first winner clockwise from the button
    HIGHEST_CARD = "highest_card"  # R4.2 house rule: the winner with the highest single card


class Street(IntEnum):
    """The betting rounds of hold'em, then the showdown."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3
    SHOWDOWN = 4


def limit_small_blind(small_bet: int) -> int:
    """R2.4: the limit small blind is half the small bet, rounded down ($5/$10 -> $2)."""
    return small_bet // 2


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """The table's settings for a hand; R2.11: fixed when the blinds are posted."""

    betting: Betting
    small_blind: int
    big_blind: int
    ante: int = 0  # per player for EVERY_PLAYER; the whole table's ante for BIG_BLIND
    ante_mode: AnteMode = AnteMode.NONE
    small_bet: int | None = None  # R3.4 limit: defaults to the big blind
    big_bet: int | None = None  # R3.4 limit: defaults to twice the small bet
    cap: int = 4  # R3.4: bets per round in limit (a bet and three raises)
    odd_chip: OddChip = OddChip.LEFT_OF_BUTTON
    pot_limit_small_blind_counts_as_big: bool = False  # R3.6 house option for PLO
    any_all_in_reopens: bool = False  # R3.7 house option for PLO
    omaha: bool = False  # R7.1: four hole cards, exactly two of them play
    smallest_chip: int = 1  # R7.1: a pot-limit bet's fraction of a chip rounds up to this chip
    # An all-in's board comes one street at a time: with the betting closed and at most one
    # player able to act, the hand waits (``street_waits``) for the server's ``deal_street``
    # before each street (the online tables' runout, shown street by street). Off: at once.
    staged_runout: bool = False

    def __post_init__(self) -> None:
        if self.small_blind < 0 or self.big_blind <= 0 or self.ante < 0:
            raise ValueError("blinds and ante must be whole non-negative chips, big blind > 0")
        if self.small_blind > self.big_blind:
            raise ValueError("the small blind cannot be larger than the big blind")
        if self.ante and self.ante_mode is AnteMode.NONE:
            raise ValueError("an ante needs an ante mode (every player or big blind)")
        if self.smallest_chip < 1:
            raise ValueError("the smallest chip in play is worth at least 1")
        if self.cap < 1:
            raise ValueError("the limit cap allows at least one bet a round")
        if (self.small_bet is not None and self.small_bet <= 0) or (
            self.big_bet is not None and self.big_bet <= 0
        ):
            raise ValueError("limit bets must be positive")

    @property
    def hole_card_count(self) -> int:
        """Two hole cards in hold'em, four in Omaha (R7.1)."""
        return 4 if self.omaha else 2

    @property
    def limit_small_bet(self) -> int:
        """R3.4: the limit bet before the flop and on the flop (default: the big blind)."""
        return self.big_blind if self.small_bet is None else self.small_bet

    @property
    def limit_big_bet(self) -> int:
        """R3.4: the limit bet on the turn and river (default: twice the small bet)."""
        return 2 * self.limit_small_bet if self.big_bet is None else self.big_bet

    def limit_bet(self, street: Street) -> int:
        """R3.4: the fixed bet of a limit street: small bet, then big bet from the turn."""
        return self.limit_small_bet if street <= Street.FLOP else self.limit_big_bet
