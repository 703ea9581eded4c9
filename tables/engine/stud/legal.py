"""What the actor of a stud hand may do now: the ``can_*`` queries, ``verify_*`` checks and
amounts, worked out once per state (as :mod:`tables.engine.holdem.legal` does for hold'em)."""

from __future__ import annotations

from typing import NoReturn

from tables.engine.betting import IllegalAction
from tables.engine.moves import SharedMoves
from tables.engine.stud.rules import StudStreet
from tables.engine.stud.state import StudState


class StudQueries(StudState, SharedMoves):
    """The queries and checks of a stud hand's moves, on top of its state."""

    __slots__ = ()

    # -- queries ---------------------------------------------------------------------------

    def call_amount(self) -> int:
        """The chips the actor must add to call (all-in for less if short); 0 if none."""
        if self._stale:
            self._refresh()
        return self._call

    def bring_in_amount(self) -> int:
        """The chips the actor posts if he brings in (R2.10: all he has if short), else 0."""
        i = self.actor
        if i is None or not self.round.bring_in_due:
            return 0
        return min(self.rules.bring_in, self.stacks[i])

    def raise_targets(self) -> tuple[int, ...]:
        """Every legal raise-to amount: one fixed bet, or on fourth street with an open pair
        the small or the big bet (R7.2); all-in for less when short."""
        targets = self._targets
        if targets is None or self._stale:
            if self._stale:
                self._refresh()
            i = self.actor
            if i is None:
                self._no_actor()
            self._targets = targets = self.round.targets(total=self.bets[i] + self.stacks[i])
        return targets

    def min_raise_to(self) -> int:
        """The smallest legal completion, bet or raise-to for the actor (R7.2, R3.4)."""
        return self.raise_targets()[0]

    def max_raise_to(self) -> int:
        """The largest legal completion, bet or raise-to; with an open pair on fourth street
        the amounts between the two are not legal (see ``raise_targets``)."""
        return self.raise_targets()[-1]

    def can_bring_in(self, *, seat: int | None = None) -> bool:
        """Whether the actor is the low card who must bring in (or complete) now (R7.2)."""
        i = self.actor
        return i is not None and (seat is None or seat == i) and self.round.bring_in_due

    def can_fold(self, *, seat: int | None = None) -> bool:
        """Whether the actor may fold: only when facing a bet (the bring-in is forced)."""
        i = self.actor
        if i is None or (seat is not None and seat != i):
            return False
        if self._stale:
            self._refresh()
        return self._owed_now > 0

    def can_check(self, *, seat: int | None = None) -> bool:
        """Whether the actor may check: nothing to call and no bring-in due."""
        i = self.actor
        if i is None or (seat is not None and seat != i) or self.round.bring_in_due:
            return False
        if self._stale:
            self._refresh()
        return not self._owed_now

    def can_raise(self, *, seat: int | None = None) -> bool:
        """Whether ``raise_to`` is legal at all now: a completion, a bet or a raise."""
        i = self.actor
        if i is None or (seat is not None and seat != i):
            return False
        if self._stale:
            self._refresh()
        return self._problem is None

    # -- verification ----------------------------------------------------------------------

    def verify_bring_in(self, *, seat: int | None = None) -> None:
        """Raise IllegalAction unless the actor may bring in."""
        self._verify_bring_in(seat)

    def _verify_bring_in(self, seat: int | None) -> int:
        i = self._turn(seat)
        if not self.round.bring_in_due:
            raise IllegalAction("there is no bring-in to post now")
        return i

    def _verify_fold(self, seat: int | None) -> int:
        i = self.actor
        if i is None or (seat is not None and seat != i) or self._stale:
            i = self._turn(seat)  # refused, or refreshed
        if self.round.bring_in_due:
            self._no_bring_in_due()
        if not self._owed_now:
            raise IllegalAction("there is no bet to fold to; check instead")
        return i

    def _verify_check(self, seat: int | None) -> int:
        i = self.actor
        if i is None or (seat is not None and seat != i) or self._stale:
            i = self._turn(seat)  # refused, or refreshed
        if self.round.bring_in_due:
            self._no_bring_in_due()
        if self._owed_now:
            raise IllegalAction(f"you cannot check facing a bet; call {self._call} or fold")
        return i

    def _verify_call(self, seat: int | None) -> int:
        i = self.actor
        if i is None or (seat is not None and seat != i) or self._stale:
            i = self._turn(seat)  # refused, or refreshed
        if self.round.bring_in_due:
            self._no_bring_in_due()
        if not self._owed_now:
            raise IllegalAction("there is no bet to call; check instead")
        return i

    def _verify_raise_to(self, amount: int, seat: int | None) -> int:
        i = self._turn(seat)
        if self._problem is not None:
            raise IllegalAction(self._problem)
        targets = self.raise_targets()
        if amount in targets:
            return i
        if self.street is StudStreet.THIRD and not self.round.raises:
            word = "complete to"  # R7.2: the first full bet of third street completes
        else:
            word = "bet" if self.round.current_bet == 0 else "raise to"
        allowed = " or ".join(map(str, targets))
        why = " (R7.2: an open pair on fourth street)" if len(self.round.sizes) > 1 else ""
        raise IllegalAction(f"in fixed limit you {word} {allowed}{why}, not {amount}")

    # -- the actor and his legal-move data ---------------------------------------------------

    def _turn(self, seat: int | None) -> int:
        """The actor, with his legal-move data fresh; IllegalAction if ``seat`` is not he."""
        i = self.actor
        if i is None:
            self._no_actor()
        if seat is not None and seat != i:
            raise IllegalAction(f"it is seat {i}'s turn to act, not seat {seat}'s")
        if self._stale:
            self._refresh()
        return i

    def _no_actor(self) -> NoReturn:
        raise IllegalAction("the hand is over" if self.is_over else "nobody is to act")

    def _no_bring_in_due(self) -> None:
        if self.round.bring_in_due:
            raise IllegalAction(
                f"the low card must bring in ({self.bring_in_amount()}) or complete to "
                f"{self.min_raise_to()} (R7.2)"
            )

    def _refresh(self) -> None:
        """Work out what the actor owes, his call and whether he may complete, bet or raise at
        all, for this state: ``_problem`` says why not (the cap, R7.2 and R3.4; the bring-in;
        R3.7's reopening, read from StudRound), or is None if he may."""
        self._stale = False
        self._targets = None
        i = self.actor
        if i is None:
            self._owed_now = self._call = 0
            self._problem = "nobody is to act"
            return
        betting, rules, bets, stacks = self.round, self.rules, self.bets, self.stacks
        current = betting.current_bet
        bet, stack = bets[i], stacks[i]
        owed = current - bet
        owed = owed if owed > 0 else 0
        self._owed_now = owed
        self._call = owed if owed < stack else stack
        total = bet + stack
        problem: str | None = None
        if betting.raises >= rules.cap:
            problem = f"the betting is capped at {rules.cap} bets this round (R7.2)"
        elif betting.bring_in_due:
            if rules.bring_in >= rules.small_bet:
                problem = "the bring-in is a full small bet here: bring in"
            elif total <= rules.bring_in:
                problem = "you have no more than the bring-in: bring in"
        elif total <= current:
            problem = "you do not have more chips than the call; call or fold"
        elif self.acted[i] and betting.full_level <= self.acted_at[i]:
            if current == self.acted_at[i]:
                problem = "nobody raises his own bet (R3.8)"
            else:
                problem = "a short all-in does not reopen the betting to you; call or fold (R3.7)"
        else:
            can_act = self.can_act
            for j in range(self.n):
                if j != i and can_act[j] and bets[j] + stacks[j] > current:
                    break
            else:
                problem = "every other player is all-in or out; call or fold"
        self._problem = problem
