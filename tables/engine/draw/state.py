"""Draw Hold'em's state and flow between moves: the swap rounds, their fees and who wins them.

:class:`DrawState` is a :class:`~tables.engine.holdem.Hand` with the swap rounds of R7.3 woven into
the streets; the moves (``swap``, ``stand_pat``) and the public ``start``/``replay`` are in
:mod:`tables.engine.draw.hand`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from tables.engine.betting import IllegalAction
from tables.engine.cards import Card
from tables.engine.dealing import Seats
from tables.engine.draw.records import AwardSwapFees, DrawRecord
from tables.engine.draw.stub import Stub
from tables.engine.holdem.hand import Hand
from tables.engine.pots import split_pot
from tables.engine.records import PostBlind, ShowHand
from tables.engine.rules import Rules, Street
from tables.engine.showdown import odd_chip_order


class DrawState(Hand):
    """A hold'em hand with Draw Hold'em's swap rounds (R7.3) and fees (R7.5, R7.6, R7.9).

    ``pot_total`` is the pot: bets, antes and blinds, the first round's fees (they are bets,
    R7.5) and the fees of finished rounds after the flop (R7.6). This round's fees wait in
    ``swap_fees_pending`` until the round ends; fees paid while a player was all-in wait in
    ``swap_fees_apart`` for the winner of the hand (R7.9). ``round_fee`` is this round's fee.
    """

    __slots__ = (
        "first_swap_round", "round_fee", "swapped", "swap_fees_pending", "swap_fees_apart",
        "_queue", "_blind_posters", "_stub", "_shown",
    )  # fmt: skip

    def __init__(self, *, rules: Rules, stacks: Sequence[int], seats: Seats, deal: Stub) -> None:
        super().__init__(rules=rules, stacks=stacks, seats=seats, deal=deal)
        self.first_swap_round = False
        self.round_fee = rules.small_blind  # R7.5: the first round's fee
        self.swapped = [False] * self.n  # R7.4: one swap a player a round
        self.swap_fees_pending = 0  # R7.6: this round's fees, for the main pot after it
        self.swap_fees_apart = 0  # R7.9: for the winner of the hand
        self._queue: list[int] = []
        self._blind_posters: frozenset[int] = frozenset()
        self._stub = deal
        deal.locate = self._located_cards
        self._shown: dict[int, tuple[Card, ...]] = {}  # cards shown for unknown hands

    def _log(self, item: DrawRecord) -> None:
        cast("list[DrawRecord]", self.records).append(item)

    def _located_cards(self) -> set[Card]:
        """Every card known to be somewhere: in a hand (folded ones too), on the board, in the
        stub's pool or reshuffled stub, or on the board still to come."""
        cards = set(self.board)
        for hole in self.hole_cards:
            if hole is not None:
                cards.update(hole)
        return cards | self._stub.known_cards()

    # -- who may swap ---------------------------------------------------------------------

    @property
    def swap_only(self) -> bool:
        """Whether the actor's only choice is to swap or stand pat: the first swap round
        (R7.3), or a round after the flop with nobody left to bet against (R7.9)."""
        i = self.actor
        if i is None:
            return False
        if self.first_swap_round:
            return True
        return (
            self.street is not Street.PREFLOP
            and self.active_count == 1
            and self.bets[i] >= self.round.current_bet
        )

    def _fee_of(self, i: int) -> int:
        """R7.5: the blinds pay nothing more in the first round; R7.6: the round's fee."""
        if self.first_swap_round and i in self._blind_posters:
            return 0
        return self.round_fee

    def _swap_problem(self, i: int) -> str | None:
        """Why player i may not swap now, or None if he may (the turn is checked elsewhere)."""
        if self.is_over:
            return "the hand is over"
        if self.street is Street.PREFLOP and not self.first_swap_round:
            return "no swap in the pre-flop betting: the first swap round is over (R7.3)"
        if self.swapped[i]:
            return "one swap a round, of one card (R7.4)"
        if self.acted[i] and not self.first_swap_round:
            return "no swap after a check, bet, call or raise this round (R7.7)"
        if not self.can_act[i]:
            return "no swap when all-in (R7.8)"
        fee = self._fee_of(i)
        if self.stacks[i] < fee:
            return f"the fee is {fee}: no swap with fewer chips (R7.8)"
        if not self._stub.can_draw(self.street):
            return "no card is left to swap (R7.11)"
        return None

    def _anyone_all_in(self) -> bool:
        """R7.9: a player still in the hand is all-in (or all-in protected, R3.10)."""
        return any(
            not folded and not can_act
            for folded, can_act in zip(self.folded, self.can_act, strict=True)
        )

    # -- the first swap round (R7.3, R7.5, R7.10) -------------------------------------------

    def _open_first_round(self) -> None:
        """R7.5, R7.10: left of the big blind first, clockwise; then the players who posted a
        blind (small blind, big blind, a big blind posted out of turn), who pay nothing more."""
        posters = frozenset(r.seat for r in self.records if isinstance(r, PostBlind))
        first = (self.big_blind_seat + 1) % self.n
        order = [seat for seat in self._clockwise[first] if seat not in posters]
        blinds_first = self.small_blind_seat
        if blinds_first is None:
            blinds_first = self.big_blind_seat
        order += [seat for seat in self._clockwise[blinds_first] if seat in posters]
        self._blind_posters = posters
        self._queue = order
        self.first_swap_round = True
        self._next_swapper()

    def _next_swapper(self) -> None:
        """The next player of the first round who may swap (R7.8); then the pre-flop betting."""
        self._stale = True
        while self._queue:
            seat = self._queue.pop(0)
            if self._swap_problem(seat) is None:
                self.actor = seat
                return
        self.first_swap_round = False
        self.actor = None
        self._advance((self.big_blind_seat + 1) % self.n)  # R3.2: left of the big blind

    def _after_decision(self, i: int, *, only: bool) -> None:
        """The turn after a swap or a stand pat: the next swapper, the next player, or the
        same one, who now acts (R7.7)."""
        if self.first_swap_round:
            self._next_swapper()
        elif only:
            self.acted[i] = True  # nothing left to do this round
            self._advance(i + 1)
        elif not self.can_act[i]:
            self._advance(i + 1)  # the fee took his last chip: all-in
        else:
            self._stale = True

    # -- streets ----------------------------------------------------------------------------

    def _next_actor(self, start: int) -> int | None:
        """R3.2, R3.3; R7.9: with nobody left to bet against, the one player who can still act
        gets his turn to swap, if he may and has not acted or swapped this round."""
        nxt = super()._next_actor(start)
        if nxt is not None or self.street is Street.PREFLOP or self.active_count != 1:
            return nxt
        i = self.can_act.index(True)
        if self.acted[i] or self._swap_problem(i) is not None:
            return None
        return i

    def _end_round(self) -> None:
        """R3.3, R7.6: the uncalled bet back and the round's fees into the main pot; then the
        next street with its swap round, or the showdown. R7.9: a street where nobody can bet
        or swap is dealt out."""
        self._stale = True
        self.actor = None
        self._return_uncalled()
        self._settle_fees()
        if self.live_count == 1:
            self._award_uncontested()
            return
        self._run_streets()

    def _street_then_turn(self) -> bool:
        """The next street with its swap round; whether someone acts on it (R7.9: the one
        player who can still act may swap though nobody can bet)."""
        self._next_street()
        self.swapped = [False] * self.n
        self.round_fee = self.pot_total  # R7.6: the pot at the start, fixed for the round
        if self.active_count >= 2:
            self.last_aggressor = None
        actor = self._next_actor(self.button + 1)  # R3.2: left of the button
        if actor is not None:
            self.actor = actor
            return True
        return False

    @property
    def tabled(self) -> bool:
        """TDA 16, with R7.9: the hands lie face up once nobody can act again, so not while
        the one player with chips may still swap on a street to come: he can pay a round's fee
        (R7.6: the pot, which no bet changes any more; R7.8)."""
        if not self.street_waits:
            return False
        able = [i for i in range(self.n) if self.can_act[i] and not self.folded[i]]
        return not able or self.stacks[able[0]] < self.pot_total

    def _showdown(self) -> None:
        """R4.1; a hand whose cards are unknown (a censored history) shows the cards given for
        it (``shown_cards``), else it loses to any shown hand."""
        for seat, cards in self._shown.items():
            if self.hole_cards[seat] is None and not self.folded[seat]:
                if set(cards) & self._located_cards():
                    raise ValueError(f"the cards shown for position {seat} are elsewhere")
                self.hole_cards[seat] = cards
        super()._showdown()

    def _settle_fees(self) -> None:
        """R7.6: the round's fees join the main pot after the round (dead money in it)."""
        fees = self.swap_fees_pending
        if fees:
            self.pot_total += fees
            self.dead_money += fees
            self.swap_fees_pending = 0

    def _finish(self, awards: list[tuple[int, list[tuple[int, int]]]]) -> None:
        """The pots, then R7.9: the fees kept apart, whole to the winner of the hand."""
        super()._finish(awards)
        if self.swap_fees_apart:
            self._award_fees_apart(self.swap_fees_apart)

    def _award_fees_apart(self, fees: int) -> None:
        """R7.9, R7.11: the best hand among all who reached the showdown takes the fees kept
        apart, whoever swapped and whatever pot he could win; tied hands split them, the odd
        chip by R4.2. Without a showdown, the last player in takes them."""
        shown = [item for item in self.records if isinstance(item, ShowHand)]
        if shown:
            best = max(item.value for item in shown)
            winners = [item.seat for item in shown if item.value == best]
        else:
            winners = [self.folded.index(False)]
        if len(winners) > 1:
            winners = odd_chip_order(
                winners,
                rule=self.rules.odd_chip,
                button=self.button,
                n=self.n,
                hole=self.hole_cards,
            )
        shares = split_pot(fees, winners)
        for seat, share in shares:
            self.stacks[seat] += share
            self.payouts[seat] += share
        self._log(AwardSwapFees(amount=fees, shares=tuple(shares)))

    # -- betting while a swap is the only choice ----------------------------------------------

    def _refresh(self) -> None:
        if self.swap_only:
            self._stale = False
            self._limits_now = None
            self._owed_now = self._call = 0
            self._problem = "swap or stand pat first (R7.3)"
            return
        super()._refresh()

    def _limits(self) -> tuple[int, int]:
        if self.swap_only:
            raise IllegalAction("no bet now: swap or stand pat (R7.3)")
        return super()._limits()

    def _refuse_betting(self, seat: int | None) -> None:
        """IllegalAction for a bet, call, check or fold where only a swap decision is open."""
        if self.swap_only:
            self._actor_or_raise(seat)
            raise IllegalAction("swap or stand pat first; the betting comes after (R7.3)")

    def _verify_fold(self, seat: int | None) -> int:
        self._refuse_betting(seat)
        return super()._verify_fold(seat)

    def _verify_check(self, seat: int | None) -> int:
        self._refuse_betting(seat)
        return super()._verify_check(seat)

    def _verify_call(self, seat: int | None) -> int:
        self._refuse_betting(seat)
        return super()._verify_call(seat)

    def _verify_raise_to(self, amount: int, seat: int | None) -> int:
        self._refuse_betting(seat)
        return super()._verify_raise_to(amount, seat)

    def can_fold(self, *, seat: int | None = None) -> bool:
        """Whether the actor may fold: facing a bet, and no swap decision open."""
        return not self.swap_only and super().can_fold(seat=seat)

    def can_check(self, *, seat: int | None = None) -> bool:
        """Whether the actor may check: nothing to call, and no swap decision open."""
        return not self.swap_only and super().can_check(seat=seat)

    def can_raise(self, *, seat: int | None = None) -> bool:
        """Whether the actor may bet or raise now (never while a swap decision is open)."""
        return not self.swap_only and super().can_raise(seat=seat)
