"""A stud hand's state and its mechanics: antes, streets, the order of action, the showdown.

:class:`StudState` holds the chips and cards of one seven-card stud hand (R7.2) and moves it
on between players' moves; the moves and their legality are in :mod:`tables.engine.stud.hand`.
"""

from __future__ import annotations

from collections.abc import Sequence

from tables.engine.cards import Card
from tables.engine.dealing import clockwise
from tables.engine.evaluator import evaluate_unchecked
from tables.engine.pots import build_pots
from tables.engine.records import AwardPot, PostAnte, ReturnUncalled, ShowHand, maker
from tables.engine.showdown import UNKNOWN_HAND, award_pots
from tables.engine.stud.betting import StudRound
from tables.engine.stud.cards import (
    RANK_KEYS,
    Dealt,
    StudDeal,
    high_hand_seat,
    low_card_seat,
    open_pair,
)
from tables.engine.stud.rules import DealCommon, DealStud, StudRecord, StudRules, StudStreet

_STREETS = tuple(StudStreet)
# The records a hand makes most, without the class call (records.maker).
_make_ante, _make_deal = maker(PostAnte), maker(DealStud)
_make_show, _make_award, _make_return = maker(ShowHand), maker(AwardPot), maker(ReturnUncalled)


class StudState:
    """The chips, cards and turn of one stud hand, and what happens between players' moves.

    Players are positions 0..n-1 clockwise; position 0 is dealt first (left of the dealer;
    stud has no button). Every change of state ends in ``_advance`` or ``_end_round``, which
    mark the actor's legal-move data stale.
    """

    __slots__ = (
        "rules", "n", "starting_stacks", "stacks", "bets", "contributed", "pot_total",
        "folded", "protected", "can_act", "acted", "acted_at", "live_count", "active_count",
        "round", "street", "actor", "is_over", "last_aggressor", "opener", "bring_in_seat",
        "down_cards", "up_cards", "_up_sums", "hole_cards", "board", "records", "payouts",
        "showdown_order", "_deal", "_clockwise", "_stale", "_owed_now", "_call", "_targets",
        "_problem",
    )  # fmt: skip

    def __init__(self, *, rules: StudRules, stacks: Sequence[int], deal: StudDeal) -> None:
        n = len(stacks)
        self.rules = rules
        self.n = n
        self.starting_stacks = tuple(stacks)
        self.stacks = list(stacks)
        self.bets = [0] * n
        self.contributed = [0] * n
        self.pot_total = 0
        self.folded = [False] * n
        self.protected = [False] * n  # R3.10: timed out with chips in, acts no more
        self.can_act = [True] * n
        self.acted = [False] * n
        self.acted_at = [0] * n  # the bet a player faced when he last acted (R3.7)
        self.live_count = n
        self.active_count = n
        self.round = StudRound(rules=rules, street=StudStreet.THIRD)
        self.street = StudStreet.THIRD
        self.actor: int | None = None
        self.is_over = False
        self.last_aggressor: int | None = None
        self.opener = 0  # where this street's action starts: the low card, then the high hand
        self.bring_in_seat: int | None = None
        self.down_cards: list[tuple[Card, ...] | None] = [()] * n
        self.up_cards: list[tuple[Card, ...]] = [()] * n
        self._up_sums = [0] * n  # each player's up cards' rank_sum, for the high hand (R7.2)
        self.hole_cards: list[tuple[Card, ...] | None] = [()] * n  # dealing order
        self.board: list[Card] = []  # R7.2: the common card, if the deck runs out
        self.records: list[StudRecord] = []
        self.payouts = [0] * n
        self.showdown_order: list[int] = []
        self._deal = deal
        self._clockwise = clockwise(n)
        self._stale = True
        self._owed_now = self._call = 0
        self._targets: tuple[int, ...] | None = None
        self._problem: str | None = None

    # -- chips -----------------------------------------------------------------------------

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

    # -- before the first move -------------------------------------------------------------

    def _post_antes(self) -> None:
        """R2.9, R2.10: every player antes from position 0 on, all-in for what he has."""
        ante = self.rules.ante
        if not ante:
            return
        stacks, contributed, append = self.stacks, self.contributed, self.records.append
        for seat in range(self.n):
            stack = stacks[seat]
            amount = ante if ante < stack else stack
            # An ante is dead money in the pot, not a bet.
            stacks[seat] = stack - amount
            contributed[seat] += amount
            self.pot_total += amount
            if amount == stack:
                self._stop_acting(seat)
            append(_make_ante(seat=seat, amount=amount, all_in=amount == stack))

    def _deal_third_street(self) -> None:
        """R7.2: two down cards and one up card each, one at a time from position 0."""
        n = self.n
        self._give(StudStreet.THIRD, range(n), self._deal.third_street(n))

    def _open_third_street(self) -> None:
        """R7.2: the lowest up card brings in. R2.10 (house decision): if he is all-in from
        the ante, the next player clockwise who can act brings in, as PokerKit does."""
        self.opener = low = low_card_seat(range(self.n), self.up_cards)
        if self.active_count < 2:
            self._end_round()  # nobody to bet against: the cards run out
            return
        self.bring_in_seat = self.actor = self._first_able(low)
        self._stale = True

    def _give(self, street: StudStreet, seats: Sequence[int], dealt: Sequence[Dealt]) -> None:
        """Each seat's cards of a street, recorded; in dealing order in ``hole_cards``."""
        downs, ups, holes, sums = self.down_cards, self.up_cards, self.hole_cards, self._up_sums
        append = self.records.append
        for seat, (down, up) in zip(seats, dealt, strict=True):
            if down is None:
                downs[seat] = holes[seat] = None
            else:
                if down:
                    known = downs[seat]
                    if known is not None:
                        downs[seat] = known + down
                hole = holes[seat]
                if hole is not None:
                    holes[seat] = hole + down + up  # down, down, up, then a card a street
            if up:
                ups[seat] += up
                for card in up:  # one a street: a loop, not rank_sum's call (R7.2)
                    sums[seat] += RANK_KEYS[card]
            append(_make_deal(seat=seat, street=street, down=down, up=up))

    # -- turns and streets -----------------------------------------------------------------

    def _advance(self, start: int) -> None:
        """R3.3: give the turn to the first player clockwise from ``start`` who still owes
        action, or close the round."""
        self._stale = True
        can_act, acted, bets = self.can_act, self.acted, self.bets
        current = self.round.current_bet
        for i in self._clockwise[start % self.n]:
            if not can_act[i]:
                continue
            if bets[i] < current:  # he owes chips
                self.actor = i
                return
            if not acted[i]:
                if self.active_count > 1:  # else nobody is left to bet against
                    self.actor = i
                    return
                break
        self._end_round()

    def _first_able(self, seat: int) -> int:
        """R7.2: ``seat`` if he can act, else (all-in) the next player clockwise who can."""
        can_act = self.can_act
        for i in self._clockwise[seat]:
            if can_act[i]:
                return i
        raise AssertionError("nobody can act")  # the callers checked active_count >= 2

    def _end_round(self) -> None:
        """R3.3: return the uncalled bet, then deal on, run out the cards, or finish."""
        self._stale = True
        self.actor = None
        self._return_uncalled()
        if self.live_count == 1:
            self._award_uncontested()
            return
        while self.street < StudStreet.SEVENTH:
            self._next_street()
            if self.active_count >= 2:
                self.last_aggressor = None
                self.actor = self._first_able(self.opener)  # R7.2: the high hand acts first
                return
        self._showdown()

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
            self.records.append(_make_return(seat=seat, amount=excess))

    def _next_street(self) -> None:
        """Deal the next street to the players still in; the high hand showing acts first."""
        self.street = street = _STREETS[self.street - StudStreet.THIRD + 1]
        folded = self.folded
        live = [seat for seat in range(self.n) if not folded[seat]]
        dealt = self._deal.next_street(street, live)
        if isinstance(dealt, list):
            mix = self._deal.mix  # R7.2: the deck ran short, its last card and the burns mixed
            if mix is None:
                self._give(street, live, dealt)
            else:
                self._give(street, live[: mix.dealt], dealt[: mix.dealt])
                self.records.append(mix)
                self._give(street, live[mix.dealt :], dealt[mix.dealt :])
        else:
            self.board.append(dealt)
            self.records.append(DealCommon(card=dealt, street=street))
        self.bets = [0] * self.n
        self.acted = [False] * self.n
        pair = street is StudStreet.FOURTH and open_pair(live, self.up_cards)
        self.round = StudRound(rules=self.rules, street=street, open_pair=pair)
        # R7.2: the best showing hand (with the common card, if any) opens the street.
        self.opener = high_hand_seat(live, self.up_cards, self.board, self._up_sums)

    # -- the end ---------------------------------------------------------------------------

    def _award_uncontested(self) -> None:
        winner = self.folded.index(False)
        self._finish([(self.pot_total, [(winner, self.pot_total)])])

    def _showdown(self) -> None:
        """R4.1: each pot to the best five of a player's cards (with the common card); the
        last aggressor shows first, else the high hand on board; then clockwise."""
        self.street = StudStreet.SHOWDOWN
        n = self.n
        start = self.last_aggressor
        if start is None or self.folded[start]:
            start = self.opener
        folded = self.folded
        order = [seat for seat in self._clockwise[start] if not folded[seat]]
        self.showdown_order = order
        values = [UNKNOWN_HAND] * n
        board, holes, append = self.board, self.hole_cards, self.records.append
        for seat in order:
            cards = holes[seat]
            if cards is not None:
                values[seat] = evaluate_unchecked([*cards, *board] if board else cards)
            append(_make_show(seat=seat, cards=cards, value=values[seat]))
        pots = build_pots(self.contributed, [not out for out in folded])
        # R4.2: stud has no button; button=n-1 makes "left of the button" position 0, and
        # HIGHEST_CARD compares all of a player's own cards (Robert's Rules, TDA).
        self._finish(
            award_pots(
                pots=pots,
                values=values,
                odd_chip=self.rules.odd_chip,
                button=n - 1,
                hole=self.hole_cards,
            )
        )

    def _finish(self, awards: list[tuple[int, list[tuple[int, int]]]]) -> None:
        """Push the pots: each amount with its (seat, chips) shares; the hand is over."""
        for index, (amount, shares) in enumerate(awards):
            for seat, share in shares:
                self.stacks[seat] += share
                self.payouts[seat] += share
            self.records.append(_make_award(pot=index, amount=amount, shares=tuple(shares)))
        self.bets = [0] * self.n
        self.is_over = True
