"""One hand of hold'em as a state machine: postings, deals, moves, side pots and showdown."""

from __future__ import annotations

from collections.abc import Sequence

from tables.engine.betting import BettingRound, IllegalAction
from tables.engine.cards import Card
from tables.engine.dealing import Deal, Seats, plan_seats
from tables.engine.pots import Pot, build_pots
from tables.engine.records import (
    AwardPot,
    Blind,
    Call,
    Cause,
    Check,
    DealBoard,
    DealHole,
    Fold,
    PostAnte,
    PostBlind,
    RaiseTo,
    Record,
    ReturnUncalled,
    ShowHand,
    TimeOut,
)
from tables.engine.rules import AnteMode, Rules, Street
from tables.engine.showdown import UNKNOWN_HAND, award_pots, hand_value, showing_order


class Hand:
    """One hand: ``Hand.start(...)``, then moves by whoever is ``actor`` until ``is_over``.

    Players are positions 0..n-1 clockwise. Each move is a triad (``can_raise``,
    ``verify_raise_to``, ``raise_to``); a move returns its record and appends it to
    ``records``; an illegal move raises IllegalAction and changes nothing. Streets advance by
    themselves when a round closes (R3.3), and the board runs out when at most one player can
    still bet. Uncalled bets go back at the end of each round, before pots are built.

    Choices where the rules leave room, so that a replay or a UI can count on them:
    - antes are posted before the blinds; a big-blind ante after the big blind (TDA);
    - a fold is refused when the player may check (check instead);
    - ``can_raise`` covers bets too; ``can_bet`` is the case with nothing bet this round;
    - after a short all-in, the minimum raise is that bet plus the largest full raise (R3.5);
    - the limit cap holds heads-up as well (R3.4 names no exception);
    - once over, ``street`` is SHOWDOWN after a showdown, else the street the hand ended on;
    - a hand whose hole cards are unknown (a replayed history) loses to any shown hand.
    """

    __slots__ = (
        "rules", "n", "button", "small_blind_seat", "big_blind_seat", "starting_stacks",
        "stacks", "bets", "contributed", "pot_total", "folded", "protected", "can_act",
        "acted", "acted_at", "live_count", "active_count", "round", "street", "actor",
        "is_over", "last_aggressor", "hole_cards", "board", "records", "payouts",
        "showdown_order", "dead_money", "_deal", "_pot_credit_seat", "_short_big_blind",
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
        self._deal = deal
        self._short_big_blind = False
        # R3.6 house option: the small blind counts as a full big blind in the pot-limit sum.
        self._pot_credit_seat = (
            seats.small_blind if rules.pot_limit_small_blind_counts_as_big else None
        )

    @classmethod
    def start(
        cls,
        *,
        rules: Rules,
        stacks: Sequence[int],
        button: int,
        deck: Sequence[Card] | None = None,
        hole_cards: Sequence[Sequence[Card] | None] | None = None,
        board: Sequence[Card] | None = None,
        small_blind_seat: int | None = None,
        big_blind_seat: int | None = None,
        dead_small_blind: bool = False,
    ) -> Hand:
        """Post antes and blinds, deal, and wait for the first move before the flop.

        ``stacks`` are the players' chips by position clockwise and ``button`` a position.
        Blinds default to the usual seats (R2.1; heads-up the button posts the small blind,
        R2.8). R2.7: ``dead_small_blind=True`` posts no small blind (the big blind defaults to
        the first player left of the button); for a dead button pass as ``button`` the player
        right of the empty button seat, who acts last after the flop. ``deck`` (default a fresh
        shuffle, R1.1) is dealt in order: hole cards one at a time from the small blind, then a
        burn card before each street. ``hole_cards`` (None entries: unknown) and ``board``
        give cards explicitly for replays; the board is then dealt without burns.
        """
        seats = plan_seats(
            players=len(stacks),
            button=button,
            small_blind_seat=small_blind_seat,
            big_blind_seat=big_blind_seat,
            dead_small_blind=dead_small_blind,
        )
        if any(stack <= 0 for stack in stacks):
            raise ValueError("every player in the hand needs chips")
        deal = Deal.prepare(
            rules=rules, players=len(stacks), deck=deck, hole_cards=hole_cards, board=board
        )
        hand = cls(rules=rules, stacks=stacks, seats=seats, deal=deal)
        hand._post()
        hand._deal_hole_cards()
        hand._advance((hand.big_blind_seat + 1) % hand.n)  # R3.2: left of the big blind
        return hand

    @classmethod
    def replay(
        cls,
        *,
        rules: Rules,
        stacks: Sequence[int],
        button: int,
        records: Sequence[Record],
        deck: Sequence[Card] | None = None,
        small_blind_seat: int | None = None,
        big_blind_seat: int | None = None,
        dead_small_blind: bool = False,
    ) -> Hand:
        """Rebuild a hand from its records; the cards come from the deal records.

        Raises ValueError if the records are not what replaying their moves produces.
        """
        hole: list[Sequence[Card] | None] = [None] * len(stacks)
        board: list[Card] = []
        for record in records:
            if isinstance(record, DealHole):
                hole[record.seat] = record.cards
            elif isinstance(record, DealBoard):
                board.extend(record.cards)
        hand = cls.start(
            rules=rules,
            stacks=stacks,
            button=button,
            deck=deck,
            hole_cards=hole,
            board=board,
            small_blind_seat=small_blind_seat,
            big_blind_seat=big_blind_seat,
            dead_small_blind=dead_small_blind,
        )
        for record in records:
            hand.apply(record)
        if hand.records != list(records):
            raise ValueError("the records are not what replaying their moves produces")
        return hand

    def apply(self, record: Record) -> Record | None:
        """Make the move a record describes (for replays); other records are skipped."""
        if isinstance(record, Fold | Check):
            if record.cause is Cause.ABSENT:
                return self.absent(seat=record.seat)
            if record.cause is Cause.TIME_OUT:
                return self.time_out(seat=record.seat)
            if isinstance(record, Fold):
                return self.fold(seat=record.seat)
            return self.check(seat=record.seat)
        if isinstance(record, Call):
            return self.call(seat=record.seat)
        if isinstance(record, RaiseTo):
            return self.raise_to(record.to, seat=record.seat)
        if isinstance(record, TimeOut):
            return self.time_out(seat=record.seat)
        return None

    # -- queries ---------------------------------------------------------------------------

    @property
    def pots(self) -> list[Pot]:
        """The main pot and side pots from the contribution levels so far (R3.9)."""
        return build_pots(
            self.contributed, [not folded for folded in self.folded], dead=self.dead_money
        )

    @property
    def final_stacks(self) -> list[int]:
        """Each player's chips after the hand (the stacks once the hand is over)."""
        return list(self.stacks)

    @property
    def pot_winners(self) -> list[tuple[int, ...]]:
        """The winners of each pot pushed, main pot first."""
        return [record.winners for record in self.records if isinstance(record, AwardPot)]

    def call_amount(self) -> int:
        """The chips the actor must add to call (all-in for less if short); 0 if none."""
        i = self.actor
        if i is None:
            return 0
        owed = self._owed(i)
        return owed if owed < self.stacks[i] else self.stacks[i]

    def min_raise_to(self) -> int:
        """The smallest legal bet or raise-to for the actor (R3.4, R3.5; all-in if short)."""
        i = self._actor_or_raise(None)
        return self.round.min_raise_to(total=self.bets[i] + self.stacks[i])

    def max_raise_to(self) -> int:
        """The largest legal bet or raise-to for the actor (R3.4, R3.5, R3.6)."""
        i = self._actor_or_raise(None)
        return self.round.max_raise_to(
            total=self.bets[i] + self.stacks[i],
            own_bet=self.bets[i],
            pot_total=self.pot_total,
            pot_credit=self._pot_credit(),
        )

    def can_fold(self, *, seat: int | None = None) -> bool:
        """Whether the actor may fold: only when facing a bet."""
        i = self.actor
        return i is not None and (seat is None or seat == i) and self._owed(i) > 0

    def can_check(self, *, seat: int | None = None) -> bool:
        """Whether the actor may check: nothing to call."""
        i = self.actor
        return i is not None and (seat is None or seat == i) and not self._owed(i)

    def can_call(self, *, seat: int | None = None) -> bool:
        """Whether the actor may call: facing a bet."""
        i = self.actor
        return i is not None and (seat is None or seat == i) and self._owed(i) > 0

    def can_raise(self, *, seat: int | None = None) -> bool:
        """Whether ``raise_to`` is legal at all now: a bet, or a raise when facing one."""
        i = self.actor
        return i is not None and (seat is None or seat == i) and self._raise_problem(i) is None

    def can_bet(self, *, seat: int | None = None) -> bool:
        """Whether the actor may bet: ``raise_to`` with nothing bet yet this round."""
        return self.round.current_bet == 0 and self.can_raise(seat=seat)

    # -- verification ----------------------------------------------------------------------

    def verify_fold(self, *, seat: int | None = None) -> None:
        """Raise IllegalAction unless the actor may fold."""
        self._verify_fold(seat)

    def verify_check(self, *, seat: int | None = None) -> None:
        """Raise IllegalAction unless the actor may check."""
        self._verify_check(seat)

    def verify_call(self, *, seat: int | None = None) -> None:
        """Raise IllegalAction unless the actor may call."""
        self._verify_call(seat)

    def _verify_fold(self, seat: int | None) -> int:
        i = self._actor_or_raise(seat)
        if not self._owed(i):
            raise IllegalAction("there is no bet to fold to; check instead")
        return i

    def _verify_check(self, seat: int | None) -> int:
        i = self._actor_or_raise(seat)
        if self._owed(i):
            raise IllegalAction(f"you cannot check facing a bet; call {self.call_amount()} or fold")
        return i

    def _verify_call(self, seat: int | None) -> tuple[int, int]:
        """The actor and the chips his call adds."""
        i = self._actor_or_raise(seat)
        owed = self._owed(i)
        if not owed:
            raise IllegalAction("there is no bet to call; check instead")
        stack = self.stacks[i]
        return i, owed if owed < stack else stack

    def verify_raise_to(self, amount: int, *, seat: int | None = None) -> None:
        """Raise IllegalAction unless the actor may bet or raise to ``amount``."""
        i = self._actor_or_raise(seat)
        problem = self._raise_problem(i)
        if problem is not None:
            raise IllegalAction(problem)
        low, high = self.min_raise_to(), self.max_raise_to()
        word = "bet" if self.round.current_bet == 0 else "raise to"
        if amount < low:
            raise IllegalAction(f"the smallest {word} is {low}, not {amount}")
        if amount > high:
            raise IllegalAction(f"the largest {word} is {high}, not {amount}")

    # -- moves -----------------------------------------------------------------------------

    def fold(self, *, seat: int | None = None, cause: Cause = Cause.PLAYER) -> Fold:
        """The actor folds."""
        self._verify_fold(seat)
        return self._fold(cause)

    def check(self, *, seat: int | None = None, cause: Cause = Cause.PLAYER) -> Check:
        """The actor checks (R2.5: the live big blind may check his option)."""
        i = self._verify_check(seat)
        record = Check(seat=i, cause=cause)
        self.records.append(record)
        self.acted[i] = True
        self.acted_at[i] = self.round.current_bet
        self._advance(i + 1)
        return record

    def call(self, *, seat: int | None = None) -> Call:
        """The actor calls, all-in for less when short (R3.9)."""
        i, amount = self._verify_call(seat)
        self._put(i, amount)
        record = Call(seat=i, amount=amount, all_in=self.stacks[i] == 0)
        self.records.append(record)
        self.acted[i] = True
        self.acted_at[i] = self.round.current_bet
        self._advance(i + 1)
        return record

    def raise_to(self, amount: int, *, seat: int | None = None) -> RaiseTo:
        """The actor bets or raises to ``amount`` in front of him this round."""
        self.verify_raise_to(amount, seat=seat)
        i = self._actor()
        added = amount - self.bets[i]
        is_bet = self.round.current_bet == 0
        self._put(i, added)
        self.round.raise_to(amount)
        record = RaiseTo(seat=i, to=amount, amount=added, bet=is_bet, all_in=self.stacks[i] == 0)
        self.records.append(record)
        self.acted[i] = True
        self.acted_at[i] = amount
        self.last_aggressor = i
        self._advance(i + 1)
        return record

    def time_out(self, *, seat: int | None = None) -> TimeOut | Fold:
        """R3.10: the actor's clock ran out: all-in protected if he has chips in, else folds."""
        i = self._actor_or_raise(seat)
        if not self.contributed[i]:
            return self._fold(Cause.TIME_OUT)
        record = TimeOut(seat=i)
        self.records.append(record)
        self.protected[i] = True  # R3.10: stays in, acts no more, plays for the pot so far
        self._stop_acting(i)
        self._advance(i + 1)
        return record

    def absent(self, *, seat: int | None = None) -> Check | Fold:
        """R2.9: an absent player's hand checks where it may, else folds."""
        i = self._actor_or_raise(seat)
        if not self._owed(i):
            return self.check(cause=Cause.ABSENT)
        return self._fold(Cause.ABSENT)

    # -- mechanics -------------------------------------------------------------------------

    def _actor(self) -> int:
        i = self.actor
        if i is None:
            raise IllegalAction("nobody is to act")
        return i

    def _actor_or_raise(self, seat: int | None) -> int:
        i = self.actor
        if i is not None and (seat is None or seat == i):
            return i
        if i is None:
            raise IllegalAction("the hand is over" if self.is_over else "nobody is to act")
        if seat is not None and seat != i:
            raise IllegalAction(f"it is seat {i}'s turn to act, not seat {seat}'s")
        return i

    def _raise_problem(self, i: int) -> str | None:
        """Why the actor may not bet or raise at all, or None if he may."""
        betting = self.round
        if betting.capped(self.rules.cap):
            return f"the betting is capped at {self.rules.cap} bets this round (R3.4)"
        current = betting.current_bet
        if self.bets[i] + self.stacks[i] <= current:
            return "you do not have more chips than the call; call or fold"
        if self.acted[i] and not betting.reopened_for(self.acted_at[i]):
            if current == self.acted_at[i]:
                return "nobody raises his own bet (R3.8)"
            return "a short all-in does not reopen the betting to you; call or fold (R3.7)"
        for j in range(self.n):
            if j != i and self.can_act[j] and self.bets[j] + self.stacks[j] > current:
                return None
        return "every other player is all-in or out; call or fold"

    def _pot_credit(self) -> int:
        """R3.6 house option: chips the small blind lacks of a big blind, counted in the pot."""
        seat = self._pot_credit_seat
        if seat is None or self.street is not Street.PREFLOP:
            return 0
        lacking = self.rules.big_blind - self.bets[seat]
        return lacking if lacking > 0 else 0

    def _put(self, i: int, amount: int) -> None:
        """Move chips from a player's stack to his bet this round."""
        self.stacks[i] -= amount
        self.bets[i] += amount
        self.contributed[i] += amount
        self.pot_total += amount
        if not self.stacks[i] and self.can_act[i]:
            self._stop_acting(i)

    def _stop_acting(self, i: int) -> None:
        self.can_act[i] = False
        self.active_count -= 1

    def _fold(self, cause: Cause) -> Fold:
        i = self._actor()
        record = Fold(seat=i, cause=cause)
        self.records.append(record)
        self.folded[i] = True
        self.live_count -= 1
        if self.can_act[i]:
            self._stop_acting(i)
        if self.live_count == 1:
            self._end_round()
        else:
            self._advance(i + 1)
        return record

    def _post(self) -> None:
        """R2.1, R2.9, R2.10: antes and blinds before the deal, all-in for what one has."""
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
        order = [(first + k) % self.n for k in range(self.n)]
        self.hole_cards = self._deal.hole(order)
        for seat in order:
            self.records.append(DealHole(seat=seat, cards=self.hole_cards[seat]))

    def _advance(self, start: int) -> None:
        """Give the turn to the next player who owes action, or close the round (R3.3)."""
        nxt = self._next_actor(start)
        if nxt is None:
            self._end_round()
        else:
            self.actor = nxt

    def _next_actor(self, start: int) -> int | None:
        """R3.2, R3.3: the first player clockwise from ``start`` who still owes action."""
        n, can_act, acted, bets = self.n, self.can_act, self.acted, self.bets
        current = self.round.current_bet
        for k in range(n):
            i = (start + k) % n
            if can_act[i]:
                owes = bets[i] < current and self._owed(i) > 0
                if owes or not acted[i]:
                    if not owes and self.active_count == 1:
                        return None  # nobody left to bet against: nothing to do this round
                    return i
        return None

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

    def _end_round(self) -> None:
        """R3.3: return the uncalled bet, then deal on, run out the board, or finish."""
        self.actor = None
        self._return_uncalled()
        if self.live_count == 1:
            self._award_uncontested()
            return
        while self.street < Street.RIVER:
            self._next_street()
            if self.active_count >= 2:
                self.last_aggressor = None
                self.actor = self._next_actor(self.button + 1)  # R3.2: left of the button
                return
        self._showdown()

    def _return_uncalled(self) -> None:
        bets = self.bets
        top = max(bets)
        if not top:
            return
        seat = bets.index(top)
        second = max((bet for j, bet in enumerate(bets) if j != seat), default=0)
        if top > second:
            excess = top - second
            self.stacks[seat] += excess
            self.contributed[seat] -= excess
            self.pot_total -= excess
            self.records.append(ReturnUncalled(seat=seat, amount=excess))

    def _next_street(self) -> None:
        self.street = street = Street(self.street + 1)
        cards = self._deal.board(3 if street is Street.FLOP else 1)
        self.board.extend(cards)
        self.records.append(DealBoard(street=street, cards=cards))
        self.bets = [0] * self.n
        self.acted = [False] * self.n
        self.round = BettingRound(rules=self.rules, street=street)

    def _award_uncontested(self) -> None:
        winner = self.folded.index(False)
        self._finish([(self.pot_total, [(winner, self.pot_total)])])

    def _showdown(self) -> None:
        """R4.1: each pot to the best hand eligible for it; the last aggressor shows first."""
        self.street = Street.SHOWDOWN
        self.showdown_order = showing_order(
            folded=self.folded, last_aggressor=self.last_aggressor, button=self.button
        )
        values = [UNKNOWN_HAND] * self.n
        for seat in self.showdown_order:
            hole = self.hole_cards[seat]
            values[seat] = hand_value(hole, self.board, omaha=self.rules.omaha)
            self.records.append(ShowHand(seat=seat, cards=hole, value=values[seat]))
        self._finish(
            award_pots(
                pots=self.pots,
                values=values,
                odd_chip=self.rules.odd_chip,
                button=self.button,
                hole=self.hole_cards,
            )
        )

    def _finish(self, awards: list[tuple[int, list[tuple[int, int]]]]) -> None:
        """Push the pots: each amount with its (seat, chips) shares; the hand is over."""
        stacks, payouts = self.stacks, self.payouts
        for index, (amount, shares) in enumerate(awards):
            for seat, share in shares:
                stacks[seat] += share
                payouts[seat] += share
            self.records.append(AwardPot(pot=index, amount=amount, shares=tuple(shares)))
        self.bets = [0] * self.n
        self.is_over = True
