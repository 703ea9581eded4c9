"""The betting moves every game shares: fold, check, call and raise-to, with their checks.

Hold'em (and Omaha and Draw Hold'em on top of it) and stud keep their own state and legality
(:mod:`tables.engine.holdem.legal`, :mod:`tables.engine.stud.legal`): who acts, what he owes, his
raise limits. What a move then does to the chips and the turn is the same in every game, so it
is written once here and mixed into each game's hand.
"""

from __future__ import annotations

from typing import Any, Protocol

from tables.engine.records import Call, Cause, Check, Fold, RaiseTo, TimeOut, maker

# The records of every move, made without the class call (records.maker).
_make_check, _make_call, _make_raise_to = maker(Check), maker(Call), maker(RaiseTo)


class _Round(Protocol):
    @property
    def current_bet(self) -> int: ...

    def raise_to(self, amount: int) -> None: ...


class _Game(Protocol):
    """What a game's state and queries give the shared moves."""

    records: Any
    acted: list[bool]
    acted_at: list[int]
    stacks: list[int]
    bets: list[int]
    last_aggressor: int | None

    @property
    def round(self) -> _Round: ...

    @property
    def _call(self) -> int: ...

    def can_fold(self, *, seat: int | None = None) -> bool: ...
    def can_raise(self, *, seat: int | None = None) -> bool: ...
    def _verify_fold(self, seat: int | None) -> int: ...
    def _verify_check(self, seat: int | None) -> int: ...
    def _verify_call(self, seat: int | None) -> int: ...
    def _verify_raise_to(self, amount: int, seat: int | None) -> int: ...
    def _fold(self, i: int, cause: Cause) -> Fold: ...
    def fold(self, *, seat: int | None = None, cause: Cause = Cause.PLAYER) -> Fold: ...
    def check(self, *, seat: int | None = None, cause: Cause = Cause.PLAYER) -> Check: ...
    def call(self, *, seat: int | None = None) -> Call: ...
    def raise_to(self, amount: int, *, seat: int | None = None) -> RaiseTo: ...
    def absent(self, *, seat: int | None = None) -> Any: ...
    def time_out(self, *, seat: int | None = None) -> Any: ...
    def out_of_time(self, *, seat: int | None = None) -> Any: ...
    def _server_move_for(self, record: Any) -> Any: ...
    def _put(self, i: int, amount: int) -> None: ...
    def _advance(self, start: int) -> None: ...


class SharedMoves:
    """Fold, check, call and raise-to as triads (``can_*``, ``verify_*``, the move): each move
    returns its record and appends it to ``records``; an illegal one raises IllegalAction and
    changes nothing."""

    __slots__ = ()
    last_aggressor: int | None  # the game's own slot, set by a bet or raise

    # -- queries and checks ----------------------------------------------------------------

    def can_call(self: _Game, *, seat: int | None = None) -> bool:
        """Whether the actor may call: facing a bet."""
        return self.can_fold(seat=seat)

    def can_bet(self: _Game, *, seat: int | None = None) -> bool:
        """Whether the actor may bet (stud: or complete): ``raise_to`` with nothing to call."""
        return self.round.current_bet == 0 and self.can_raise(seat=seat)

    def verify_fold(self: _Game, *, seat: int | None = None) -> None:
        """Raise IllegalAction unless the actor may fold."""
        self._verify_fold(seat)

    def verify_check(self: _Game, *, seat: int | None = None) -> None:
        """Raise IllegalAction unless the actor may check."""
        self._verify_check(seat)

    def verify_call(self: _Game, *, seat: int | None = None) -> None:
        """Raise IllegalAction unless the actor may call."""
        self._verify_call(seat)

    def verify_raise_to(self: _Game, amount: int, *, seat: int | None = None) -> None:
        """Raise IllegalAction unless the actor may bet or raise (stud: complete) to
        ``amount``."""
        self._verify_raise_to(amount, seat)

    # -- replays ---------------------------------------------------------------------------

    def apply(self: _Game, record: Any) -> Any:
        """Make the move a record describes (for replays); other records are skipped."""
        if isinstance(record, Fold | Check):
            server = self._server_move_for(record)
            if server is not None:
                return server
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

    def _server_move_for(self: _Game, record: Any) -> Any:
        """The server's move a record's cause names (R2.9 absent, R3.10 time-out, the action
        clock), or None for a player's own move."""
        cause = record.cause
        if cause is Cause.ABSENT:
            return self.absent(seat=record.seat)
        if cause is Cause.TIME_OUT:
            return self.time_out(seat=record.seat)
        if cause is Cause.CLOCK:
            return self.out_of_time(seat=record.seat)
        return None

    # -- moves -----------------------------------------------------------------------------

    def fold(self: _Game, *, seat: int | None = None, cause: Cause = Cause.PLAYER) -> Fold:
        """The actor folds."""
        return self._fold(self._verify_fold(seat), cause)

    def check(self: _Game, *, seat: int | None = None, cause: Cause = Cause.PLAYER) -> Check:
        """The actor checks (hold'em, R2.5: the live big blind may check his option)."""
        i = self._verify_check(seat)
        record = _make_check(seat=i, cause=cause)
        self.records.append(record)
        self.acted[i] = True
        self.acted_at[i] = self.round.current_bet
        self._advance(i + 1)
        return record

    def call(self: _Game, *, seat: int | None = None) -> Call:
        """The actor calls, all-in for less when short (R3.9)."""
        i = self._verify_call(seat)
        amount = self._call
        self._put(i, amount)
        record = _make_call(seat=i, amount=amount, all_in=self.stacks[i] == 0)
        self.records.append(record)
        self.acted[i] = True
        self.acted_at[i] = self.round.current_bet
        self._advance(i + 1)
        return record

    def raise_to(self: _Game, amount: int, *, seat: int | None = None) -> RaiseTo:
        """The actor bets or raises (stud, R7.2: completes) to ``amount`` in front of him this
        round."""
        i = self._verify_raise_to(amount, seat)
        added = amount - self.bets[i]
        betting = self.round
        is_bet = betting.current_bet == 0
        self._put(i, added)
        betting.raise_to(amount)
        record = _make_raise_to(
            seat=i, to=amount, amount=added, bet=is_bet, all_in=self.stacks[i] == 0
        )
        self.records.append(record)
        self.acted[i] = True
        self.acted_at[i] = amount
        self.last_aggressor = i
        self._advance(i + 1)
        return record
