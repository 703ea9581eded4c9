"""A hand's state and its mechanics: postings, deals, turns, streets, the showdown and payouts.

:class:`HandState` holds the chips and cards of one hand and moves it on between players'
moves; the moves and their legality are in :mod:`tables.engine.holdem.legal` and
:mod:`tables.engine.holdem.hand`.
"""

from __future__ import annotations

from collections.abc import Sequence

from tables.engine.betting import BettingRound
from tables.engine.cards import Card
from tables.engine.dealing import Deal, Seats, clockwise
from tables.engine.pots import build_pots
from tables.engine.records import (
    AwardPot,
    Blind,
    DealBoard,
    DealHole,
    PostAnte,
    PostBlind,
    Record,
    ReturnUncalled,
    ShowHand,
)
from tables.engine.rules import AnteMode, Rules, Street
from tables.engine.showdown import UNKNOWN_HAND, award_pots, hand_value, showing_order

_STREETS = tuple(Street)  # by value: _STREETS[street + 1] is the next one


class HandState:
    """The chips, cards and turn of one hand, and what happens between players' moves.

    Every change of state ends in ``_advance`` or ``_end_round``, which mark the actor's
    legal-move data (:class:`tables.engine.holdem.legal.HandQueries`) stale.
    """

    __slots__ = (
        "rules", "n", "button", "small_blind_seat", "big_blind_seat", "starting_stacks",
        "stacks", "bets", "contributed", "pot_total", "folded", "protected", "can_act",
        "acted", "acted_at", "live_count", "active_count", "round", "street", "actor",
        "is_over", "last_aggressor", "hole_cards", "board", "records", "payouts",
        "showdown_order", "dead_money", "street_waits", "_deal", "_pot_credit_seat",
        "_short_big_blind", "_clockwise", "_stale", "_owed_now", "_call", "_limits_now", "_problem",
    )  # fmt: skip

    def __init__(self, *, rules: Rules, stacks: Sequence[int], seats: Seats, deal: Deal) -> None:
        n = len(stacks)
        self.rules = rules
        self.n = n
        self.button = seats.button
        self.small_blind_seat = seats.small_blind
        self.big_blind_seat = seats.big_blind
        self.starting_stacks = tuple(stacks)
        self.stacks = list(stacks)
        self.bets = [0] * n
        self.contributed = [0] * n
        self.pot_total = 0
        self.dead_money = 0  # the big blind ante: in the main pot, no player's stake
        self.folded = [False] * n
        self.protected = [False] * n  # R3.10: timed out with chips in, acts no more
        self.can_act = [True] * n
        self.acted = [False] * n
        self.acted_at = [0] * n  # the bet a player faced when he last acted (R3.7)
        self.live_count = n
        self.active_count = n
        self.round = BettingRound(rules=rules, street=Street.PREFLOP)
        self.street = Street.PREFLOP
        self.actor: int | None = None
        self.is_over = False
        self.last_aggressor: int | None = None
        self.hole_cards: list[tuple[Card, ...] | None] = [None] * n
        self.board: list[Card] = []
        self.records: list[Record] = []
        self.payouts = [0] * n
        self.showdown_order: list[int] = []
        # A staged runout (Rules.staged_runout) waits here for ``deal_street`` before a street.
        self.street_waits = False
        self._deal = deal
        self._short_big_blind = False
        # R3.6 house option: the small blind counts as a full big blind in the pot-limit sum.
        self._pot_credit_seat = (
            seats.small_blind if rules.pot_limit_small_blind_counts_as_big else None
        )
        self._clockwise = clockwise(n)
        # The actor's legal-move data, worked out once per state (tables.engine.holdem.legal).
        self._stale = True
        self._owed_now = self._call = 0
        self._limits_now: tuple[int, int] | None = None
        self._problem: str | None = None

    # -- chips -----------------------------------------------------------------------------

    def _put(self, i: int, amount: int) -> None:
        """Move chips from a player's stack to his bet this round."""
        stacks = self.stacks
        stacks[i] -= amount
        self.bets[i] += amount
        self.contributed[i] += amount
        self.pot_total += amount
        if not stacks[i] and self.can_act[i]:
            self._stop_acting(i)

    def _stop_acting(self, i: int) -> None:
        self.can_act[i] = False
        self.active_count -= 1

    def _owed(self, i: int) -> int:
        """What player i must add to stay in (before his stack limits it)."""
        owed = self.round.current_bet - self.bets[i]
        if owed <= 0:
            return 0
        if self._short_big_blind and self.street is Street.PREFLOP:
            return self._owed_to_short_big_blind(i, owed)
        return owed

    def _owed_to_short_big_blind(self, i: int, owed: int) -> int:
        """R2.10 / TDA: a short big blind still makes the others call the full big blind,
        but nobody owes more than some other live player has in or can put in."""
        current = self.round.current_bet
        most = 0
        for j in range(self.n):
            if j != i and not self.folded[j]:
                could = self.bets[j] + (self.stacks[j] if self.can_act[j] else 0)
                if could > most:
                    most = could
        if most >= current:
            return owed
        owed = most - self.bets[i]
        return owed if owed > 0 else 0

    # -- before the first move -------------------------------------------------------------

    def _post(self, posts: Sequence[int] = ()) -> None:
        """R2.1, R2.9, R2.10: antes and blinds before the deal, all-in for what one has; R2.6:
        then the big blinds of players who post to play at once (live: they keep the option)."""
        rules, n = self.rules, self.n
        first = self.small_blind_seat
        if first is None:
            first = (self.button + 1) % n
        if rules.ante_mode is AnteMode.EVERY_PLAYER and rules.ante:
            for k in range(n):
                self._post_ante((first + k) % n, rules.ante)
        if self.small_blind_seat is not None and rules.small_blind:
            self._post_blind(self.small_blind_seat, Blind.SMALL, rules.small_blind)
        self._post_blind(self.big_blind_seat, Blind.BIG, rules.big_blind)
        self._short_big_blind = self.bets[self.big_blind_seat] < rules.big_blind
        if (
            rules.ante_mode is AnteMode.BIG_BLIND
            and rules.ante
            and self.stacks[self.big_blind_seat]
        ):
            # TDA: a big blind short of both pays the blind first, then what is left as ante.
            self._post_big_blind_ante(rules.ante)
        for seat in posts:
            self._post_blind(seat, Blind.BIG, rules.big_blind)

    def _post_big_blind_ante(self, ante: int) -> None:
        """TDA: the big blind ante is the whole table's ante, dead money in the main pot; it is
        no part of the big blind's own stake, so a short all-in player can win all of it."""
        seat = self.big_blind_seat
        amount = min(ante, self.stacks[seat])  # R2.10
        self.stacks[seat] -= amount
        self.pot_total += amount
        self.dead_money += amount
        if not self.stacks[seat]:
            self._stop_acting(seat)
        self.records.append(PostAnte(seat=seat, amount=amount, all_in=not self.stacks[seat]))

    def _post_ante(self, seat: int, ante: int) -> None:
        amount = min(ante, self.stacks[seat])  # R2.10
        self._put(seat, amount)
        self.bets[seat] -= amount  # an ante is dead money in the pot, not a bet
        self.records.append(PostAnte(seat=seat, amount=amount, all_in=not self.stacks[seat]))

    def _post_blind(self, seat: int, blind: Blind, size: int) -> None:
        amount = min(size, self.stacks[seat])  # R2.10
        self._put(seat, amount)
        self.records.append(
            PostBlind(seat=seat, blind=blind, amount=amount, all_in=not self.stacks[seat])
        )

    def _deal_hole_cards(self) -> None:
        """R2.1: one card at a time, beginning with the small blind (left of the button)."""
        first = self.small_blind_seat
        if first is None:
            first = (self.button + 1) % self.n
        order = self._clockwise[first]
        self.hole_cards = hole = self._deal.hole(order)
        self.records.extend([DealHole(seat=seat, cards=hole[seat]) for seat in order])

    # -- turns and streets -----------------------------------------------------------------

    def _advance(self, start: int) -> None:
        """Give the turn to the next player who owes action, or close the round (R3.3)."""
        self._stale = True
        nxt = self._next_actor(start)
        if nxt is None:
            self._end_round()
        else:
            self.actor = nxt

    def _next_actor(self, start: int) -> int | None:
        """R3.2, R3.3: the first player clockwise from ``start`` who still owes action."""
        can_act, acted, bets = self.can_act, self.acted, self.bets
        current = self.round.current_bet
        short = self._short_big_blind and self.street is Street.PREFLOP
        for i in self._clockwise[start % self.n]:
            if not can_act[i]:
                continue
            if bets[i] < current and (
                not short or self._owed_to_short_big_blind(i, current - bets[i]) > 0
            ):
                return i  # he owes chips
            if not acted[i]:
                # Nobody left to bet against: nothing to do this round.
                return None if self.active_count == 1 else i
        return None

    def _end_round(self) -> None:
        """R3.3: return the uncalled bet, then deal on, run out the board, or finish."""
        self._stale = True
        self.actor = None
        self._return_uncalled()
        if self.live_count == 1:
            self._award_uncontested()
            return
        self._run_streets()

    def _run_streets(self) -> None:
        """Deal on until someone acts on a street, or the showdown. With at most one player
        able to act nobody bets again: the board runs out, at once or, staged, a street at a
        time on the server's ``deal_street`` (``street_waits``)."""
        while self.street < Street.RIVER:
            if self.active_count < 2 and self.rules.staged_runout:
                self.street_waits = True
                return
            if self._street_then_turn():
                return
        self._showdown()

    def _street_then_turn(self) -> bool:
        """Deal the next street; whether someone acts on it (he has the turn)."""
        self._next_street()
        if self.active_count >= 2:
            self.last_aggressor = None
            self.actor = self._next_actor(self.button + 1)  # R3.2: left of the button
            return True
        return False

    @property
    def tabled(self) -> bool:
        """Whether the live hands lie face up for everyone (TDA 16 in docs/rules.md: where the
        house's sources are silent, the TDA rules): a staged runout waits for its next street,
        so the betting is over and nobody acts again in the hand."""
        return self.street_waits

    def _return_uncalled(self) -> None:
        bets = self.bets
        ordered = sorted(bets)
        top, second = ordered[-1], ordered[-2]
        if top > second:
            seat = bets.index(top)
            excess = top - second
            self.stacks[seat] += excess
            self.contributed[seat] -= excess
            self.pot_total -= excess
            self.records.append(ReturnUncalled(seat=seat, amount=excess))

    def _next_street(self) -> None:
        self.street = street = _STREETS[self.street + 1]
        cards = self._deal.board(3 if street is Street.FLOP else 1)
        self.board.extend(cards)
        self.records.append(DealBoard(street=street, cards=cards))
        self.bets = [0] * self.n
        self.acted = [False] * self.n
        self.round = BettingRound(rules=self.rules, street=street)

    # -- the end ---------------------------------------------------------------------------

    def _award_uncontested(self) -> None:
        winner = self.folded.index(False)
        self._finish([(self.pot_total, [(winner, self.pot_total)])])

    def _showdown(self) -> None:
        """R4.1: each pot to the best hand eligible for it; the last aggressor shows first."""
        self.street = Street.SHOWDOWN
        self.showdown_order = order = showing_order(
            folded=self.folded, last_aggressor=self.last_aggressor, button=self.button
        )
        board, omaha, hole_cards = self.board, self.rules.omaha, self.hole_cards
        values = [UNKNOWN_HAND] * self.n
        shown = []
        for seat in order:
            hole = hole_cards[seat]
            values[seat] = value = hand_value(hole, board, omaha=omaha)
            shown.append(ShowHand(seat=seat, cards=hole, value=value))
        self.records.extend(shown)
        pots = build_pots(
            self.contributed, [not folded for folded in self.folded], dead=self.dead_money
        )
        self._finish(
            award_pots(
                pots=pots,
                values=values,
                odd_chip=self.rules.odd_chip,
                button=self.button,
                hole=hole_cards,
            )
        )

    def _finish(self, awards: list[tuple[int, list[tuple[int, int]]]]) -> None:
        """Push the pots: each amount with its (seat, chips) shares; the hand is over."""
        stacks, payouts, records = self.stacks, self.payouts, self.records
        for index, (amount, shares) in enumerate(awards):
            for seat, share in shares:
                stacks[seat] += share
                payouts[seat] += share
            records.append(AwardPot(pot=index, amount=amount, shares=tuple(shares)))
        self.bets = [0] * self.n
        self.is_over = True
