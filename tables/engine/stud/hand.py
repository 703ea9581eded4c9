"""One hand of fixed-limit seven-card stud (R7.2): start or replay it, then the moves.

The state and what happens between moves (antes, streets, the order of action, the common
card, side pots, showdown) are in :mod:`tables.engine.stud.state`; what the actor may do
now, in :mod:`tables.engine.stud.legal`.
"""

from __future__ import annotations

from collections.abc import Sequence

from tables.engine.cards import Card
from tables.engine.pots import Pot, build_pots
from tables.engine.records import AwardPot, Cause, Check, Fold, TimeOut, maker
from tables.engine.stud.cards import StudDeal
from tables.engine.stud.legal import StudQueries
from tables.engine.stud.rules import (
    MAX_PLAYERS,
    BringIn,
    DealCommon,
    DealStud,
    StudMove,
    StudRecord,
    StudReshuffle,
    StudRules,
    StudStreet,
)

_make_bring_in, _make_fold = maker(BringIn), maker(Fold)

__all__ = [
    "MAX_PLAYERS",
    "BringIn",
    "DealCommon",
    "DealStud",
    "StudHand",
    "StudMove",
    "StudRecord",
    "StudReshuffle",
    "StudRules",
    "StudStreet",
]


class StudHand(StudQueries):
    """One stud hand: ``StudHand.start(...)``, then moves by ``actor`` until ``is_over``.

    The same public shape as :class:`tables.engine.Hand` (moves are triads, each returns its
    frozen record; an illegal move raises IllegalAction and changes nothing), plus the bring-in
    (``can_bring_in``, ``verify_bring_in``, ``bring_in``), each player's ``down_cards`` and
    ``up_cards``, and ``board``, which holds R7.2's common card if one is dealt.

    Choices where the rules leave room, so that a replay or a UI can count on them:
    - position 0 is dealt first and the action goes clockwise (up the positions); no button;
    - the bring-in is forced like a blind (R2.9): the low card brings in or completes, never
      folds or checks; the server's moves (absent, out of time, time-out) post it for him,
      and after a time-out with chips in he is protected at once (R3.10);
    - a short bring-in (R2.10) makes the others call what he posted (or complete);
    - if everyone just calls the bring-in, the round ends (the bring-in has no option);
    - a fold is refused when the player may check (check instead);
    - ``can_raise`` covers completions, bets and raises; ``can_bet`` the case with nothing
      to call;
    - once over, ``street`` is SHOWDOWN after a showdown, else the street the hand ended on;
    - a hand whose down cards are unknown (a replayed history) loses to any shown hand.
    """

    __slots__ = ()

    @classmethod
    def start(
        cls,
        *,
        rules: StudRules,
        stacks: Sequence[int],
        deck: Sequence[Card] | None = None,
        reshuffle: Sequence[Card] | None = None,
    ) -> StudHand:
        """Post the antes, deal third street and wait for the bring-in.

        ``stacks`` are the players' chips by position clockwise from the first player dealt;
        ``deck`` (default a fresh CSPRNG shuffle, R1.1) is the whole deck, dealt in order;
        ``reshuffle`` (all 52 cards) is the server's order for R7.2's mix of the deck's last
        card and the burns when the deck runs short (see :class:`StudDeal`).
        """
        deal = StudDeal.from_deck(deck, reshuffle)
        return cls.from_deal(rules=rules, stacks=stacks, deal=deal)

    @classmethod
    def replay(
        cls, *, rules: StudRules, stacks: Sequence[int], records: Sequence[StudRecord]
    ) -> StudHand:
        """Rebuild a hand from its records; the cards come from the deal records.

        Raises ValueError if the records are not what replaying their moves produces.
        """
        hand = cls.from_deal(rules=rules, stacks=stacks, deal=StudDeal.from_records(records))
        for item in records:
            hand.apply(item)
        if hand.records != list(records):
            raise ValueError("the records are not what replaying their moves produces")
        return hand

    @classmethod
    def from_deal(cls, *, rules: StudRules, stacks: Sequence[int], deal: StudDeal) -> StudHand:
        """Start a hand whose cards come from ``deal`` (a deck, or the cards a history names:
        :meth:`StudDeal.from_records`)."""
        if not 2 <= len(stacks) <= MAX_PLAYERS:
            raise ValueError(f"a stud hand needs 2 to {MAX_PLAYERS} players (R7.2)")
        if min(stacks) <= 0:
            raise ValueError("every player in the hand needs chips")
        hand = cls(rules=rules, stacks=stacks, deal=deal)
        hand._post_antes()
        hand._deal_third_street()
        hand._open_third_street()
        return hand

    def apply(self, record: StudRecord) -> StudMove | None:
        """Make the move a record describes (for replays); other records are skipped. The
        bring-in (R7.2) here; the betting moves as in every game."""
        if isinstance(record, BringIn):
            server = self._server_move_for(record)
            return server if server is not None else self.bring_in(seat=record.seat)
        move: StudMove | None = super().apply(record)
        return move

    # -- queries ---------------------------------------------------------------------------

    @property
    def pots(self) -> list[Pot]:
        """The main pot and side pots from the contribution levels so far (R3.9)."""
        return build_pots(self.contributed, [not folded for folded in self.folded])

    @property
    def final_stacks(self) -> list[int]:
        """Each player's chips after the hand (the stacks once the hand is over)."""
        return list(self.stacks)

    @property
    def pot_winners(self) -> list[tuple[int, ...]]:
        """The winners of each pot pushed, main pot first."""
        return [item.winners for item in self.records if isinstance(item, AwardPot)]

    @property
    def burned(self) -> tuple[Card, ...]:
        """The burn cards so far, server-side only (never shown to a player; for audits)."""
        return tuple(self._deal.burned)

    @property
    def common_card(self) -> Card | None:
        """R7.2: the card turned up in the middle when the deck ran out, if any."""
        return self.board[0] if self.board else None

    # -- moves -----------------------------------------------------------------------------

    def bring_in(self, *, seat: int | None = None) -> BringIn:
        """The low card brings in (R7.2), all-in for what he has if short (R2.10)."""
        i = self._verify_bring_in(seat)
        record = self._post_bring_in(i, Cause.PLAYER)
        self._advance(i + 1)
        return record

    # -- the server's moves ----------------------------------------------------------------

    def time_out(self, *, seat: int | None = None) -> TimeOut | Fold | BringIn:
        """R3.10: the actor's connection dropped and his clock ran out: all-in protected if he
        has chips in (the ante counts), else he folds. A due bring-in is posted first."""
        i = self._turn(seat)
        if self.round.bring_in_due:
            bring_in = self._post_bring_in(i, Cause.TIME_OUT)
            if self.can_act[i]:  # R3.10: now with chips in, he acts no more
                self.protected[i] = True
                self._stop_acting(i)
            self._advance(i + 1)
            return bring_in
        if not self.contributed[i]:
            return self._fold(i, Cause.TIME_OUT)
        record = TimeOut(seat=i)
        self.records.append(record)
        self.protected[i] = True  # R3.10: stays in, acts no more, plays for the pot so far
        self._stop_acting(i)
        self._advance(i + 1)
        return record

    def out_of_time(self, *, seat: int | None = None) -> Check | Fold | BringIn:
        """R3.10 house reading: a connected actor's time ran out: he checks where he may,
        else folds; a due bring-in is posted for him (it is forced, R7.2)."""
        return self._server_move(seat, Cause.CLOCK)

    def absent(self, *, seat: int | None = None) -> Check | Fold | BringIn:
        """R2.9: an absent player's hand posts a due bring-in, checks where it may, else
        folds."""
        return self._server_move(seat, Cause.ABSENT)

    def _server_move(self, seat: int | None, cause: Cause) -> Check | Fold | BringIn:
        i = self._turn(seat)
        if self.round.bring_in_due:
            record = self._post_bring_in(i, cause)
            self._advance(i + 1)
            return record
        if not self._owed_now:
            return self.check(cause=cause)
        return self._fold(i, cause)

    def _post_bring_in(self, i: int, cause: Cause) -> BringIn:
        amount = min(self.rules.bring_in, self.stacks[i])  # R2.10
        self._put(i, amount)
        self.round.post_bring_in(amount, small_bet=self.rules.small_bet)
        record = _make_bring_in(seat=i, amount=amount, all_in=self.stacks[i] == 0, cause=cause)
        self.records.append(record)
        self.acted[i] = True
        self.acted_at[i] = self.round.current_bet
        self._stale = True
        return record

    def _fold(self, i: int, cause: Cause) -> Fold:
        record = _make_fold(seat=i, cause=cause)
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
