"""Who is dealt into an online table's next hand: button (R2.1, R2.2), blinds (R2.8), and the
players who wait for the big blind or post one to play at once (R2.6). Pure: no ORM."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True, slots=True)
class SeatInfo:
    """A seat with chips, as the planner needs it."""

    number: int
    playing: bool  # dealt in as a regular player
    waiting: bool  # R2.6: waits for the big blind (or posts one, ``posts``)
    posts: bool = False
    seated_order: int = 0  # R2.2: the first seated has the opening button


@dataclass(frozen=True, kw_only=True, slots=True)
class HandPlan:
    """The next hand's seats by position clockwise and its blind positions."""

    seat_numbers: tuple[int, ...]
    button: int
    small_blind: int
    big_blind: int
    posts: tuple[int, ...]  # R2.6: positions posting a big blind out of turn
    joined: tuple[int, ...] = ()  # seat numbers dealt in from waiting: they play from now on


def _after(numbers: Sequence[int], start: int) -> list[int]:
    """The seat numbers clockwise strictly after seat ``start``."""
    ordered = sorted(numbers)
    return [n for n in ordered if n > start] + [n for n in ordered if n <= start]


def _between(waiting: Sequence[int], low: int, high: int) -> list[int]:
    """The seats strictly between ``low`` and ``high`` clockwise, nearest ``low`` first."""
    around = _after(sorted({*waiting, high}), low)
    return around[: around.index(high)]


def plan_hand(
    seats: Sequence[SeatInfo], *, last_button: int | None, blinds: bool = True
) -> HandPlan | None:
    """The next hand, or None when fewer than two players can be dealt in.

    R2.1: the button moves to the next playing seat clockwise; R2.2: the first hand's button
    is the first player seated. R2.8: heads-up the button posts the small blind. R2.6: a
    waiting player is dealt in at the hand in which he would post the big blind (he then
    posts it in turn), or at once when he chose to post a big blind out of turn; when fewer
    than three are playing nobody waits (a game is starting, or heads-up play). A game without
    blinds (stud, R7.2: antes and a bring-in) deals everyone in at once, clockwise from the seat
    left of the button, which only marks where the deal starts.
    """
    playing = [s for s in seats if s.playing]
    waiting = [s for s in seats if s.waiting]
    joined: list[int] = []
    if len(playing) < 3 or not blinds:
        playing, waiting = playing + waiting, []
        joined = [s.number for s in seats if s.waiting]
    if len(playing) < 2:
        return None
    numbers = [s.number for s in playing]
    if last_button is None:
        button = min(playing, key=lambda s: (s.seated_order, s.number)).number  # R2.2
    else:
        button = _after(numbers, last_button)[0]  # R2.1
    if not blinds:
        dealt = _after(numbers, button)  # position 0 left of the button; the button last
        return HandPlan(
            seat_numbers=tuple(dealt),
            button=len(dealt) - 1,
            small_blind=0,
            big_blind=0,
            posts=(),
            joined=tuple(sorted(joined)),
        )
    small_blind = button if len(numbers) == 2 else _after(numbers, button)[0]  # R2.8
    big_blind = _after(numbers, small_blind)[0]
    posters: list[int] = []
    if waiting:
        waiting_numbers = [s.number for s in waiting]
        between = _between(waiting_numbers, small_blind, big_blind)
        if between:
            big_blind = between[0]  # R2.6: his big blind has come: he posts it in turn
            joined.append(big_blind)
        posters = [s.number for s in waiting if s.posts and s.number not in joined]
        joined.extend(posters)
    dealt = sorted(numbers + [n for n in joined if n not in numbers])
    position = {number: index for index, number in enumerate(dealt)}
    return HandPlan(
        seat_numbers=tuple(dealt),
        button=position[button],
        small_blind=position[small_blind],
        big_blind=position[big_blind],
        posts=tuple(position[n] for n in sorted(posters)),
        joined=tuple(sorted(joined)),
    )
