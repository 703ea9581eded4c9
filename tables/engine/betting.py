"""One betting round's sizing rules: minimum and maximum raises, reopening, the limit cap."""

from __future__ import annotations

from tables.engine.rules import Betting, Rules, Street


class IllegalAction(ValueError):
    """A move the rules do not allow now; the hand is left unchanged."""


class BettingRound:
    """The amounts that decide what a raise may be in the current betting round.

    ``current_bet`` is what each player must have in front of him to stay in (R3.3). Before the
    flop it is the full big blind even when the big blind is short (R2.10, TDA: the others
    still call the full big blind). ``increment`` is the minimum raise: the big blind, then the
    largest full bet or raise of the round (R3.5); in limit the fixed bet (R3.4). ``full_level``
    is the bet reached by the last full bet or raise, which a limit raise adds its bet to, and
    ``raises`` counts full bets and raises against the limit cap (R3.4).
    """

    __slots__ = (
        "betting", "chip", "current_bet", "full_level", "increment", "raises", "reopen_on_any",
    )  # fmt: skip

    def __init__(self, *, rules: Rules, street: Street) -> None:
        self.betting = rules.betting
        self.reopen_on_any = rules.any_all_in_reopens
        self.chip = rules.smallest_chip
        if rules.betting is Betting.LIMIT:
            self.increment = rules.limit_bet(street)
        else:
            self.increment = rules.big_blind  # R3.5: the minimum bet is the big blind
        if street is Street.PREFLOP:
            self.current_bet = self.full_level = rules.big_blind
            self.raises = 1  # R3.4: the big blind is the first bet of the round
        else:
            self.current_bet = self.full_level = self.raises = 0

    def min_raise_to(self, *, total: int) -> int:
        """The smallest raise-to a player with ``total`` chips (bet + stack) may make."""
        if self.betting is Betting.LIMIT:
            # R3.4: a limit raise is one bet above the last full bet; a short all-in below
            # half a bet does not move that level (TDA 47), so the next raise completes it.
            target = self.full_level + self.increment
        else:
            target = self.current_bet + self.increment  # R3.5
        return target if target < total else total

    def max_raise_to(self, *, total: int, own_bet: int, pot_total: int, pot_credit: int) -> int:
        """The largest raise-to: the stack (NL), the pot (PL, R3.6) or the fixed bet (limit)."""
        if self.betting is Betting.NO_LIMIT:
            return total  # R3.5: the maximum is the whole stack
        minimum = self.min_raise_to(total=total)
        if self.betting is Betting.LIMIT:
            return minimum
        # R3.6: the raise is at most the pot after the raiser's call; ``pot_credit`` is the
        # house option counting the small blind as a big blind.
        call = self.current_bet - own_bet
        target = self.current_bet + pot_total + call + pot_credit
        if self.chip > 1:
            target = -(-target // self.chip) * self.chip  # R7.1: round up to the smallest chip
        if target < minimum:
            target = minimum  # R3.5: a bet of at least the big blind even into a smaller pot
        return target if target < total else total

    def limits(
        self, *, total: int, own_bet: int, pot_total: int, pot_credit: int
    ) -> tuple[int, int]:
        """``min_raise_to`` and ``max_raise_to`` at once (the common question before a move)."""
        low = self.min_raise_to(total=total)
        if self.betting is Betting.NO_LIMIT:
            return low, total  # R3.5: the maximum is the whole stack
        high = self.max_raise_to(
            total=total, own_bet=own_bet, pot_total=pot_total, pot_credit=pot_credit
        )
        return low, high

    def reopened_for(self, acted_at: int) -> bool:
        """R3.7: whether a player who acted when the bet was ``acted_at`` may raise again."""
        facing = self.current_bet - acted_at
        if facing <= 0:
            return False  # R3.8: nobody raises his own bet
        if self.reopen_on_any:
            return True  # R3.7 house option: any all-in reopens the betting
        if self.betting is Betting.LIMIT:
            # TDA 47 (limit): all-ins of at least half a bet count as a raise.
            return facing * 2 >= self.increment
        # R3.7 / TDA 47: short all-ins reopen only if together they make a full raise.
        return facing >= self.increment

    def raise_to(self, amount: int) -> None:
        """Record a bet or raise to ``amount`` (already checked legal)."""
        if self.betting is Betting.LIMIT:
            if (amount - self.full_level) * 2 >= self.increment:
                # TDA 47 (limit): an all-in of half a bet or more is a raise.
                self.full_level = amount
                self.raises += 1
        elif amount - self.current_bet >= self.increment:
            self.increment = amount - self.current_bet  # R3.5: the largest full raise
            self.full_level = amount
            self.raises += 1
        self.current_bet = amount

    def capped(self, cap: int) -> bool:
        """R3.4: whether the limit cap of bets this round is reached."""
        return self.betting is Betting.LIMIT and self.raises >= cap
