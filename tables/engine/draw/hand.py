"""Draw Hold'em (R7.3-R7.11): hold'em where a player may swap one hole card a round, for a fee.

:class:`DrawHand` has the shape of :class:`~tables.engine.holdem.Hand` (start, replay, apply, the
move triads, the server's moves) plus the swap: ``can_swap``/``verify_swap``/``swap`` and, where
a swap decision is a player's only choice, ``can_stand_pat``/``verify_stand_pat``/``stand_pat``.

House decisions, so that a table, a replay and the docs can count on them:

- Order (R7.3): a swap round right after the deal; the pre-flop betting; then on the flop, turn
  and river one swap-and-bet round each, in the betting order (R7.7: a player may swap and then
  acts, and may not swap once he has checked, bet, called or raised in that round).
- First round (R7.5, R7.10): players decide one at a time, from the left of the big blind
  clockwise; those who posted a blind (the small blind, the big blind, a big blind posted out
  of turn under R2.6) decide last, in that order, and pay nothing more. The fee, the small
  blind, is put in as the player's first pre-flop bet: it counts toward his call; if he folds it
  stays in the pot like any folded bet (above a short all-in it is side-pot money, as a bet
  would be). A player short of the fee or all-in is skipped (R7.8). An overblind is not played
  by the engine (R2.12: no straddle); a player who posted a blind swaps last, as R7.10 asks of
  one who posted an overblind.
- After the flop (R7.6) the fee is ``pot_total`` when the round opens (the pot with its side
  pots and the earlier rounds' fees, not the fees kept apart under R7.9), fixed for the round.
  It is no bet and does not count toward a pot-limit raise; the round's fees join the main pot
  when the round ends (dead money in it: every player still in can win them).
- R7.9: a fee paid while a player still in the hand is all-in (or all-in protected, R3.10) is
  kept apart (``Swap.kept_apart``) and goes whole to the best hand at the showdown, whoever
  swapped and whatever that player could win of the pots; tied hands split it, the odd chip by
  R4.2. If the all-in player has the best hand he wins the main pot and every fee kept apart,
  the side pots going to the best hands eligible for them. With one player left who can act and
  nobody to bet against, he still gets a swap decision each street (swap or stand pat) while he
  can pay the fee; when nobody can, the board is dealt out.
- R7.8: a player with exactly the fee may swap; it puts him all-in.
- The clock (R7.11): a swap decision runs on the player's clock; a time-out, a connected
  player's time running out or an absent player's turn there is a stand pat (the cause
  recorded). In a swap-and-bet round the time-out moves are those of hold'em.
- The stub (R7.11): :mod:`tables.engine.draw.stub`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tables.engine.betting import IllegalAction
from tables.engine.cards import DECK_SIZE, Card, card_name
from tables.engine.dealing import plan_seats
from tables.engine.draw.records import AwardSwapFees, DrawRecord, Reshuffle, StandPat, Swap
from tables.engine.draw.state import DrawState
from tables.engine.draw.stub import Reshuffler, Stub
from tables.engine.records import (
    Cause,
    Check,
    DealBoard,
    DealHole,
    Fold,
    NextStreet,
    ShowHand,
    TimeOut,
)
from tables.engine.rules import Rules, Street

__all__ = ["DrawHand"]


class DrawHand(DrawState):
    """One hand of Draw Hold'em: ``DrawHand.start(...)``, then swaps and moves until over."""

    __slots__ = ()

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
        posts: Sequence[int] = (),
        reshuffle: Reshuffler | None = None,
        shown_cards: Mapping[int, Sequence[Card]] | None = None,
    ) -> DrawHand:
        """Post, deal and open the first swap round; the arguments are those of ``Hand.start``.

        The hole cards come from the deck as in hold'em; then swaps, burns and the board come
        off the stub in play order. Given ``hole_cards`` or ``board`` without a ``deck``, the
        stub's cards are unknown: each comes from the record that names it (a replay), else at
        random from the cards known to be nowhere. ``reshuffle`` orders the swapped-out cards
        and burns into a new stub (R7.11; default the operating system's CSPRNG).
        ``shown_cards`` are the cards a player whose hand is unknown shows at the showdown (a
        censored history: his swaps are hidden, his final hand was shown).
        """
        if rules.omaha:
            raise ValueError("Draw Hold'em is hold'em: two hole cards (R7.4)")
        seats = plan_seats(
            players=len(stacks),
            button=button,
            small_blind_seat=small_blind_seat,
            big_blind_seat=big_blind_seat,
            dead_small_blind=dead_small_blind,
        )
        if min(stacks) <= 0:
            raise ValueError("every player in the hand needs chips")
        for post in posts:
            if not 0 <= post < len(stacks) or post in (seats.small_blind, seats.big_blind):
                raise ValueError(f"position {post} cannot post a big blind out of turn (R2.6)")
        stub = Stub.prepare(
            rules=rules, players=len(stacks), deck=deck, hole_cards=hole_cards, board=board
        )
        if not isinstance(stub, Stub):  # pragma: no cover - Deal.prepare builds its own class
            raise TypeError("Stub.prepare did not build a Stub")
        explicit = hole_cards is not None or board is not None
        stub.setup(
            deck_size=DECK_SIZE if deck is None else len(deck),
            players=len(stacks),
            known=deck is not None or not explicit,
            reshuffle=reshuffle,
        )
        hand = cls(rules=rules, stacks=stacks, seats=seats, deal=stub)
        hand._shown = {seat: tuple(cards) for seat, cards in (shown_cards or {}).items()}
        hand._post(posts)
        hand._deal_hole_cards()
        hand._open_first_round()
        return hand

    @classmethod
    def replay(
        cls,
        *,
        rules: Rules,
        stacks: Sequence[int],
        button: int,
        records: Sequence[DrawRecord],
        deck: Sequence[Card] | None = None,
        small_blind_seat: int | None = None,
        big_blind_seat: int | None = None,
        dead_small_blind: bool = False,
        posts: Sequence[int] = (),
        reshuffle: Reshuffler | None = None,
    ) -> DrawHand:
        """Rebuild a hand from its records: dealt again from ``deck`` if given, else with the
        cards the records name (the deal, the board, each swap's card, each reshuffle, the
        hands shown).

        Without ``deck`` the stub is taken to be a full deck's (its size decides when R7.11
        reshuffles). Raises ValueError if the records are not what replaying their moves
        produces.
        """
        hole: list[Sequence[Card] | None] | None = None
        board: list[Card] | None = None
        shown = {
            item.seat: item.cards
            for item in records
            if isinstance(item, ShowHand) and item.cards is not None
        }
        if deck is None:
            hole, board = [None] * len(stacks), []
            for item in records:
                if isinstance(item, DealHole):
                    hole[item.seat] = item.cards
                elif isinstance(item, DealBoard):
                    board.extend(item.cards)
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
            posts=posts,
            reshuffle=reshuffle,
            shown_cards=shown,
        )
        for item in records:
            try:
                hand.apply(item)
            except IllegalAction as exc:
                raise ValueError(f"the records make an illegal move: {exc}") from exc
        if hand.records != list(records):
            raise ValueError("the records are not what replaying their moves produces")
        return hand

    def apply(  # type: ignore[override]
        self, record: DrawRecord | NextStreet
    ) -> DrawRecord | NextStreet | None:
        """Make the move a record describes (replays); a reshuffle is kept for the next swap
        that needs one; other records are skipped."""
        if isinstance(record, Swap):
            i = self._verify_swap_turn(record.seat)
            if record.discarded is not None:
                self._check_hole_card(i, record.discarded)
            return self._swap(i, record.discarded, recorded=True, drawn=record.drawn)
        if isinstance(record, StandPat):
            return self._stand_pat_for(record.seat, record.cause)
        if isinstance(record, Reshuffle):
            self._stub.prime(record)
            return None
        if isinstance(record, AwardSwapFees):
            return None
        return super().apply(record)

    @property
    def deck_size(self) -> int:
        """The cards of the deck the hand is dealt from: 52, fewer only for a test's short deck."""
        return self._stub.deck_size

    # -- the swap -------------------------------------------------------------------------------

    def can_swap(self, *, seat: int | None = None) -> bool:
        """Whether the actor may swap one of his hole cards now (R7.4-R7.8, R7.11)."""
        i = self.actor
        if i is None or (seat is not None and seat != i):
            return False
        return self.hole_cards[i] is not None and self._swap_problem(i) is None

    def swap_fee(self, *, seat: int | None = None) -> int:
        """The fee a swap costs the actor (or ``seat``) now: the small blind in the first round,
        nothing more for a blind (R7.5); the pot when the round opened after the flop (R7.6);
        0 where no swap round is on."""
        i = self.actor if seat is None else seat
        if i is None or self.is_over:
            return 0
        if self.first_swap_round:
            return self._fee_of(i)
        return 0 if self.street is Street.PREFLOP else self.round_fee

    def verify_swap(self, card: Card, *, seat: int | None = None) -> None:
        """Raise IllegalAction unless the actor may swap ``card``, one of his hole cards."""
        self._check_hole_card(self._verify_swap_turn(seat), card)

    def swap(self, card: Card, *, seat: int | None = None) -> Swap:
        """The actor gives back ``card`` and gets the next card of the stub, for the fee."""
        i = self._verify_swap_turn(seat)
        self._check_hole_card(i, card)
        return self._swap(i, card, recorded=False, drawn=None)

    def _verify_swap_turn(self, seat: int | None) -> int:
        i = self._turn(seat)
        problem = self._swap_problem(i)
        if problem is not None:
            raise IllegalAction(problem)
        return i

    def _check_hole_card(self, i: int, card: Card) -> None:
        hole = self.hole_cards[i]
        if hole is not None and card not in hole:  # unknown cards (censored): nothing to check
            name = card_name(card) if 0 <= card < DECK_SIZE else repr(card)
            raise IllegalAction(f"{name} is not one of the hole cards; swap one of them (R7.4)")

    def _swap(self, i: int, discarded: Card | None, *, recorded: bool, drawn: Card | None) -> Swap:
        only = self.swap_only
        fee = self._fee_of(i)
        card, reshuffled = self._stub.draw(self.street, recorded=recorded, card=drawn)
        if reshuffled is not None:
            self._log(reshuffled)
        apart = False
        if self.first_swap_round:
            self._put(i, fee)  # R7.5: the fee is his first pre-flop bet
        else:
            apart = self._anyone_all_in()  # R7.9
            self.stacks[i] -= fee  # R7.6: no bet
            if apart:
                self.swap_fees_apart += fee
            else:
                self.swap_fees_pending += fee
            if not self.stacks[i]:
                self._stop_acting(i)  # R7.8: the fee took his last chip
        self._replace_card(i, discarded, card)
        self._stub.discard(discarded)
        made = Swap(seat=i, fee=fee, discarded=discarded, drawn=card, kept_apart=apart)
        self._log(made)
        self.swapped[i] = True
        self._after_decision(i, only=only)
        return made

    def _replace_card(self, i: int, discarded: Card | None, drawn: Card | None) -> None:
        hole = self.hole_cards[i]
        if hole is None:
            return
        if discarded is None or drawn is None:
            self.hole_cards[i] = None  # a censored swap: his cards are unknown from here
            return
        self.hole_cards[i] = tuple(drawn if card == discarded else card for card in hole)

    # -- standing pat ---------------------------------------------------------------------------

    def can_stand_pat(self, *, seat: int | None = None) -> bool:
        """Whether the actor may decline the swap: where the swap is his only decision."""
        i = self.actor
        return i is not None and (seat is None or seat == i) and self.swap_only

    def verify_stand_pat(self, *, seat: int | None = None) -> None:
        """Raise IllegalAction unless the actor may stand pat."""
        self._verify_stand_pat(seat)

    def stand_pat(self, *, seat: int | None = None, cause: Cause = Cause.PLAYER) -> StandPat:
        """The actor declines the swap (the first round; a swap-only turn after the flop)."""
        i = self._verify_stand_pat(seat)
        made = StandPat(seat=i, cause=cause)
        self._log(made)
        self._after_decision(i, only=True)
        return made

    def _verify_stand_pat(self, seat: int | None) -> int:
        i = self._turn(seat)
        if not self.swap_only:
            raise IllegalAction("no swap decision is open: act, or swap and act (R7.7)")
        return i

    def _stand_pat_for(self, seat: int, cause: Cause) -> StandPat | TimeOut | Check | Fold:
        if cause is Cause.PLAYER:
            return self.stand_pat(seat=seat)
        if cause is Cause.ABSENT:
            return self.absent(seat=seat)
        if cause is Cause.CLOCK:
            return self.out_of_time(seat=seat)
        return self.time_out(seat=seat)

    # -- the server's moves ---------------------------------------------------------------------

    def time_out(self, *, seat: int | None = None) -> TimeOut | Fold | StandPat:  # type: ignore[override]
        """R3.10; at a swap decision (R7.11) the player's time-out is a stand pat."""
        if self.swap_only:
            return self.stand_pat(seat=seat, cause=Cause.TIME_OUT)
        return super().time_out(seat=seat)

    def out_of_time(self, *, seat: int | None = None) -> Check | Fold | StandPat:  # type: ignore[override]
        """R3.10 house reading; at a swap decision (R7.11) a stand pat."""
        if self.swap_only:
            return self.stand_pat(seat=seat, cause=Cause.CLOCK)
        return super().out_of_time(seat=seat)

    def absent(self, *, seat: int | None = None) -> Check | Fold | StandPat:  # type: ignore[override]
        """R2.9: an absent player's hand checks or folds; at a swap decision it stands pat."""
        if self.swap_only:
            return self.stand_pat(seat=seat, cause=Cause.ABSENT)
        return super().absent(seat=seat)
