"""What the actor may do now: the ``can_*`` queries, the ``verify_*`` checks and the amounts.

The actor's legal-move data (what he owes, his call, his raise limits and why he may not
raise, if so) is worked out once per state, on the first question after a move, and read by
every query and move until the next move marks it stale. Legality lives here only: the moves
in :mod:`tables.engine.holdem.hand` go through the same checks.
"""

from __future__ import annotations

from typing import NoReturn

from tables.engine.betting import IllegalAction
from tables.engine.holdem.state import HandState
from tables.engine.moves import SharedMoves
from tables.engine.rules import Betting, Street


class HandQueries(HandState, SharedMoves):
    """The queries and checks of a hand's moves, on top of its state."""

    __slots__ = ()

    # -- queries ---------------------------------------------------------------------------

    def call_amount(self) -> int:
        """The chips the actor must add to call (all-in for less if short); 0 if none."""
        if self._stale:
            self._refresh()
        return self._call

    def min_raise_to(self) -> int:
        """The smallest legal bet or raise-to for the actor (R3.4, R3.5; all-in if short)."""
        limits = self._limits_now
        return (self._limits() if limits is None or self._stale else limits)[0]

    def max_raise_to(self) -> int:
        """The largest legal bet or raise-to for the actor (R3.4, R3.5, R3.6)."""
        limits = self._limits_now
        return (self._limits() if limits is None or self._stale else limits)[1]

    # The questions below check the turn inline: a UI asks them before every move.

    def can_fold(self, *, seat: int | None = None) -> bool:
        """Whether the actor may fold: only when facing a bet."""
        i = self.actor
        if i is None or (seat is not None and seat != i):
            return False
        if self._stale:
            self._refresh()
        return self._owed_now > 0

    def can_check(self, *, seat: int | None = None) -> bool:
        """Whether the actor may check: nothing to call."""
        i = self.actor
        if i is None or (seat is not None and seat != i):
            return False
        if self._stale:
            self._refresh()
        return not self._owed_now

    def can_raise(self, *, seat: int | None = None) -> bool:
        """Whether ``raise_to`` is legal at all now: a bet, or a raise when facing one."""
        i = self.actor
        if i is None or (seat is not None and seat != i):
            return False
        if self._stale:
            self._refresh()
        return self._problem is None

    # -- verification ----------------------------------------------------------------------

    def _verify_fold(self, seat: int | None) -> int:
        i = self.actor  # ``_turn(seat)`` inline: every move comes here
        if i is None or (seat is not None and seat != i):
            i = self._actor_or_raise(seat)
        if self._stale:
            self._refresh()
        if not self._owed_now:
            raise IllegalAction("there is no bet to fold to; check instead")
        return i

    def _verify_check(self, seat: int | None) -> int:
        i = self.actor  # ``_turn(seat)`` inline: every move comes here
        if i is None or (seat is not None and seat != i):
            i = self._actor_or_raise(seat)
        if self._stale:
            self._refresh()
        if self._owed_now:
            raise IllegalAction(f"you cannot check facing a bet; call {self._call} or fold")
        return i

    def _verify_call(self, seat: int | None) -> int:
        i = self.actor  # ``_turn(seat)`` inline: every move comes here
        if i is None or (seat is not None and seat != i):
            i = self._actor_or_raise(seat)
        if self._stale:
            self._refresh()
        if not self._owed_now:
            raise IllegalAction("there is no bet to call; check instead")
        return i

    def _verify_raise_to(self, amount: int, seat: int | None) -> int:
        i = self.actor  # ``_turn(seat)`` inline: every move comes here
        if i is None or (seat is not None and seat != i):
            i = self._actor_or_raise(seat)
        if self._stale:
            self._refresh()
        if self._problem is not None:
            raise IllegalAction(self._problem)
        low, high = self._limits_now or self._limits()
        if low <= amount <= high:
            return i
        word = "bet" if self.round.current_bet == 0 else "raise to"
        if amount < low:
            raise IllegalAction(f"the smallest {word} is {low}, not {amount}")
        raise IllegalAction(f"the largest {word} is {high}, not {amount}")

    # -- the actor and his legal-move data ---------------------------------------------------

    def _turn(self, seat: int | None) -> int:
        """The actor, with his legal-move data fresh; IllegalAction if ``seat`` is not he."""
        i = self.actor
        if i is None or (seat is not None and seat != i):
            return self._actor_or_raise(seat)
        if self._stale:
            self._refresh()
        return i

    def _actor_or_raise(self, seat: int | None) -> int:
        i = self.actor
        if i is None:
            self._no_actor()
        if seat is not None and seat != i:
            raise IllegalAction(f"it is seat {i}'s turn to act, not seat {seat}'s")
        return i

    def _no_actor(self) -> NoReturn:
        raise IllegalAction("the hand is over" if self.is_over else "nobody is to act")

    def _refresh(self) -> None:
        """Work out what the actor owes, his call and whether he may raise, for this state."""
        self._stale = False
        self._limits_now = None
        i = self.actor
        if i is None:
            self._owed_now = self._call = 0
            self._problem = "nobody is to act"
            return
        owed = self.round.current_bet - self.bets[i]
        if owed <= 0:
            owed = 0
        elif self._short_big_blind and self.street is Street.PREFLOP:
            owed = self._owed_to_short_big_blind(i, owed)
        stack = self.stacks[i]
        self._owed_now = owed
        self._call = owed if owed < stack else stack
        self._problem = self._raise_problem(i)

    def _limits(self) -> tuple[int, int]:
        """The actor's smallest and largest bet or raise-to, worked out once per state."""
        if self._stale:
            self._refresh()
        limits = self._limits_now
        if limits is None:
            i = self.actor
            if i is None:
                self._no_actor()
            bet = self.bets[i]
            credit = 0 if self._pot_credit_seat is None else self._pot_credit()
            self._limits_now = limits = self.round.limits(
                total=bet + self.stacks[i], own_bet=bet, pot_total=self.pot_total, pot_credit=credit
            )
        return limits

    def _raise_problem(self, i: int) -> str | None:
        """Why the actor may not bet or raise at all, or None if he may."""
        betting = self.round
        if betting.betting is Betting.LIMIT and betting.capped(self.rules.cap):
            return f"the betting is capped at {self.rules.cap} bets this round (R3.4)"
        current = betting.current_bet
        bets, stacks = self.bets, self.stacks
        if bets[i] + stacks[i] <= current:
            return "you do not have more chips than the call; call or fold"
        if self.acted[i] and not betting.reopened_for(self.acted_at[i]):
            if current == self.acted_at[i]:
                return "nobody raises his own bet (R3.8)"
            return "a short all-in does not reopen the betting to you; call or fold (R3.7)"
        can_act = self.can_act
        for j in range(self.n):
            if j != i and can_act[j] and bets[j] + stacks[j] > current:
                return None
        return "every other player is all-in or out; call or fold"

    def _pot_credit(self) -> int:
        """R3.6 house option: chips the small blind lacks of a big blind, counted in the pot."""
        seat = self._pot_credit_seat
        if seat is None or self.street is not Street.PREFLOP:
            return 0
        lacking = self.rules.big_blind - self.bets[seat]
        return lacking if lacking > 0 else 0
