"""Positions at a table between hands (R2.7, R2.8, TDA 10B/11A): blinds, button, worst seats."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

# Positions (R2.7, dead button). Seats are numbered clockwise 1..seats. Everything follows from
# the seat of the big blind of the last hand dealt at a table (call it L):
#   - next hand's big blind: the first occupied seat clockwise after L (the big blind always
#     moves on by exactly one player);
#   - next hand's small blind: seat L itself; if L is empty now (its player busted or left),
#     nobody posts the small blind (a dead small blind);
#   - next hand's button: the last hand's small-blind seat, occupied or not (a dead button).
# A player who sits down in an empty seat s therefore posts the big blind after as many hands
# as there are occupied seats clockwise from L up to s, counting himself: the empty seat with
# the smallest clockwise distance from L is the worst position, and an empty seat between L and
# the next big blind *is* next hand's big blind. The only seat whose newcomer would post the
# small blind next hand is L, so a balancing move never fills L (TDA 11A: never the SB).
# A player from a broken table takes any empty seat by random draw, L too (TDA 10B), and is
# dealt in at once unless his seat lies between the small blind and the button: see dealt_in.
# Heads-up this gives the R2.8 order: L (the last big blind) is next hand's button and SB.


@dataclass(frozen=True)
class TableState:
    """One table between hands: seats, who sits where, and the last hand's button and big blind.

    ``small_blind_seat`` and ``big_blind_seat`` are the blinds of the last hand dealt; pass them
    whenever they are known (a blind who busted leaves his seat empty, and only the stored seat
    says where he sat). Without them the small blind is taken as the first occupied seat
    clockwise after the button and the big blind as the next one after it (heads-up: the button
    and the other player), which is exact unless a blind busted or left.
    """

    table: int
    seats: int
    players: Mapping[int, int]  # seat -> player
    button_seat: int
    big_blind_seat: int | None = None
    small_blind_seat: int | None = None

    @classmethod
    def before_first_hand(
        cls, *, table: int, seats: int, players: Mapping[int, int], button_seat: int
    ) -> TableState:
        """A table whose first hand is not dealt yet, with the button of that first hand."""
        after = _clockwise_occupied(seats=seats, players=players, start=button_seat)
        heads_up = len(players) == 2 and button_seat in players
        # The first hand's small blind stands in for "the last big blind": the next big blind is
        # then the first occupied seat after it, as for any other hand.
        small_blind = button_seat if heads_up or not after else after[0]
        return cls(
            table=table,
            seats=seats,
            players=dict(players),
            button_seat=button_seat,
            big_blind_seat=small_blind,
        )


@dataclass(frozen=True)
class NextHand:
    """The blinds of the next hand at a table under the dead-button rule (R2.7)."""

    small_blind_seat: int  # may be empty: a dead small blind
    big_blind_seat: int | None  # None at an empty table
    button_seat: int  # may be empty: a dead button


def _clockwise_occupied(*, seats: int, players: Mapping[int, int], start: int) -> list[int]:
    """Occupied seats in clockwise order after ``start``; ``start`` itself comes last."""
    return [s for s in ((start + i - 1) % seats + 1 for i in range(1, seats + 1)) if s in players]


def small_blind_after_button(*, seats: int, players: Mapping[int, int], button_seat: int) -> int:
    """The small blind of a hand with this button: the next player, or heads-up the button."""
    after = _clockwise_occupied(seats=seats, players=players, start=button_seat)
    if not after or (len(after) == 2 and button_seat in players):
        return button_seat  # R2.8: heads-up the button posts the small blind
    return after[0]


def _known_small_blind(table: TableState) -> int | None:
    """The last small blind's seat as stored, unless it is the button (heads-up, R2.8)."""
    seat = table.small_blind_seat
    return None if seat is None or seat == table.button_seat else seat


def last_big_blind_seat(table: TableState) -> int:
    """The big blind of the last hand: given, or derived from the blinds (see TableState)."""
    if table.big_blind_seat is not None:
        return table.big_blind_seat
    small_blind = _known_small_blind(table)
    if small_blind is not None:
        after = _clockwise_occupied(seats=table.seats, players=table.players, start=small_blind)
        return after[0] if after else small_blind
    after = _clockwise_occupied(seats=table.seats, players=table.players, start=table.button_seat)
    if not after:
        return table.button_seat
    if len(after) == 1 or (len(after) == 2 and table.button_seat in table.players):
        return after[0]  # R2.8: heads-up the player not on the button is the big blind
    return after[1]


def _next_button(table: TableState, last: int) -> int:
    """R2.7: the next button is the last small blind's seat, occupied or not (a dead button).

    When that seat is not known, it is taken as the last seat occupied now on the way clockwise
    from the button B to the big blind L (both excluded), or B itself when none is: exact
    unless the small blind busted or left, who left no one there.
    """
    known = _known_small_blind(table)
    if known is not None:
        return known
    button, seats = table.button_seat, table.seats
    between = [(button + i - 1) % seats + 1 for i in range(1, (last - button) % seats)]
    return next((s for s in reversed(between) if s in table.players), button)


def next_hand(table: TableState) -> NextHand:
    """R2.7: the next hand's blinds; the big blind moves on one player, the SB follows it."""
    last = last_big_blind_seat(table)
    after = _clockwise_occupied(seats=table.seats, players=table.players, start=last)
    return NextHand(
        small_blind_seat=last,
        big_blind_seat=after[0] if after else None,
        button_seat=_next_button(table, last),
    )


def after_hand(table: TableState) -> TableState:
    """The table once its next hand is dealt: that hand's button and blinds are now the last."""
    hand = next_hand(table)
    return replace(
        table,
        button_seat=hand.button_seat,
        small_blind_seat=hand.small_blind_seat,
        big_blind_seat=hand.big_blind_seat
        if hand.big_blind_seat is not None
        else last_big_blind_seat(table),
    )


def worst_open_seats(*, table: TableState, players: Mapping[int, int] | None = None) -> list[int]:
    """Empty seats, worst position first (soonest big blind), never next hand's SB seat."""
    taken = table.players if players is None else players
    last = last_big_blind_seat(table)
    empty = [s for s in range(1, table.seats + 1) if s not in taken and s != last]
    return sorted(empty, key=lambda s: (s - last) % table.seats)  # TDA: never the small blind


def empty_seats(*, table: TableState, players: Mapping[int, int] | None = None) -> list[int]:
    """Every empty seat, the small blind's too: a broken table draws from these (TDA 10B)."""
    taken = table.players if players is None else players
    return [s for s in range(1, table.seats + 1) if s not in taken]


def dealt_in(*, table: TableState, seat: int) -> bool:
    """TDA 10B: whether a player put in ``seat`` now is dealt the next hand at once.

    Positions are those of the next hand under the dead-button rule (R2.7), from the table as it
    stood before anyone moved in: its small blind is the last big blind's seat L, its button the
    last small blind's seat, empty or not (see _next_button). The newcomer waits until the
    button has passed him when his seat is L itself (a dead small blind: he would play a hand
    without posting) or lies strictly between that button and L; anywhere else he is dealt in
    at once: on the button, between the last button and it, and in the big blind too. If the
    button is L (heads-up before the first hand, R2.8: the button is the small blind), only L
    waits.
    """
    last = last_big_blind_seat(table)
    if seat == last:
        return False
    button = _next_button(table, last)
    if button == last:
        return True  # R2.8: heads-up the button is the small blind; nobody sits between
    seats = table.seats
    return not 0 < (seat - button) % seats < (last - button) % seats
