"""One hand of hold'em: start or replay it, then the players' and the server's moves.

The state and what happens between moves (postings, deals, streets, side pots, showdown) are in
:mod:`tables.engine.holdem.state`; what the actor may do now, in :mod:`tables.engine.holdem.legal`.
"""

from __future__ import annotations

from collections.abc import Sequence

from tables.engine.betting import IllegalAction
from tables.engine.cards import Card
from tables.engine.dealing import Deal, plan_seats
from tables.engine.holdem.legal import HandQueries
from tables.engine.pots import Pot, build_pots
from tables.engine.records import (
    AwardPot,
    Cause,
    Check,
    DealBoard,
    DealHole,
    Fold,
    NextStreet,
    Record,
    TimeOut,
)
from tables.engine.rules import Rules, Street


class Hand(HandQueries):
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
    ) -> Hand:
        """Post antes and blinds, deal, and wait for the first move before the flop.

        ``stacks`` are the players' chips by position clockwise and ``button`` a position.
        Blinds default to the usual seats (R2.1; heads-up the button posts the small blind,
        R2.8). R2.7: ``dead_small_blind=True`` posts no small blind (the big blind defaults to
        the first player left of the button); for a dead button pass as ``button`` the player
        right of the empty button seat, who acts last after the flop. ``deck`` (default a fresh
        shuffle, R1.1) is dealt in order: hole cards one at a time from the small blind, then a
        burn card before each street. ``hole_cards`` (None entries: unknown) and ``board``
        give cards explicitly for replays; the board is then dealt without burns. ``posts``
        are positions that post a live big blind out of turn to play at once (R2.6); each
        keeps his option to check or raise when the action comes back to him.
        """
        seats = plan_seats(
            players=len(stacks),
            button=button,
            small_blind_seat=small_blind_seat,
            big_blind_seat=big_blind_seat,
            dead_small_blind=dead_small_blind,
        )
        if min(stacks) <= 0:  # plan_seats has checked that there are players
            raise ValueError("every player in the hand needs chips")
        for post in posts:
            if not 0 <= post < len(stacks) or post in (seats.small_blind, seats.big_blind):
                raise ValueError(f"position {post} cannot post a big blind out of turn (R2.6)")
        deal = Deal.prepare(
            rules=rules, players=len(stacks), deck=deck, hole_cards=hole_cards, board=board
        )
        hand = cls(rules=rules, stacks=stacks, seats=seats, deal=deal)
        hand._post(posts)
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
        posts: Sequence[int] = (),
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
            posts=posts,
        )
        for record in records:
            hand.apply(record)
        if hand.records != list(records):
            raise ValueError("the records are not what replaying their moves produces")
        return hand

    def apply(self, record: Record | NextStreet) -> Record | NextStreet | None:
        """Make the move a record describes (replays, tables.engine.moves); a staged runout's
        street is dealt by its ``NextStreet`` move, or by its ``DealBoard`` (a replay of the
        records, which hold no ``NextStreet``)."""
        if self.street_waits:
            if isinstance(record, NextStreet):
                return self.deal_street(record.street)
            if isinstance(record, DealBoard):
                self.deal_street(record.street)
                return None
        made: Record | None = super().apply(record)
        return made

    def deal_street(self, street: Street | None = None) -> NextStreet:
        """The server deals the next street of a staged all-in runout (``Rules.staged_runout``),
        ``street`` if named (a stored move names the street it deals: it is dealt once)."""
        if not self.street_waits:
            raise IllegalAction("no street waits to be dealt")
        coming = Street(self.street + 1)
        if street is not None and street != coming:
            raise IllegalAction(f"the next street is {coming.name.lower()}, not {street}")
        self.street_waits = False
        self._stale = True
        if not self._street_then_turn():
            self._run_streets()
        return NextStreet(street=coming)

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

    # -- the server's moves ----------------------------------------------------------------

    def time_out(self, *, seat: int | None = None) -> TimeOut | Fold:
        """R3.10: the actor's clock ran out: all-in protected if he has chips in, else folds."""
        i = self._turn(seat)
        if not self.contributed[i]:
            return self._fold(i, Cause.TIME_OUT)
        record = TimeOut(seat=i)
        self.records.append(record)
        self.protected[i] = True  # R3.10: stays in, acts no more, plays for the pot so far
        self._stop_acting(i)
        self._advance(i + 1)
        return record

    def out_of_time(self, *, seat: int | None = None) -> Check | Fold:
        """R3.10 house reading: a connected actor's time ran out: he checks where he may, else
        folds (the all-in protection of ``time_out`` is for a dropped connection only)."""
        i = self._turn(seat)
        if not self._owed_now:
            return self.check(cause=Cause.CLOCK)
        return self._fold(i, Cause.CLOCK)

    def absent(self, *, seat: int | None = None) -> Check | Fold:
        """R2.9: an absent player's hand checks where it may, else folds."""
        i = self._turn(seat)
        if not self._owed_now:
            return self.check(cause=Cause.ABSENT)
        return self._fold(i, Cause.ABSENT)

    def _fold(self, i: int, cause: Cause) -> Fold:
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
