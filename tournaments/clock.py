"""Clock arithmetic: the current level and time left as a pure function of stored timestamps.

The clock's state is a level index, the moment that level (virtually) started and, while paused,
the moment it was paused. Nothing counts down: a page, a worker and a restart all compute the
same reading from the same state and the time now (docs/architecture.md, "The clock").

"Virtually started" means the start moved by pauses and added time: a level of 12 minutes that
started at 20:00, was paused for 5 minutes and had 1 minute added reads as started at 20:06.
Every floor action first rebases the state to the level in force now, so the anchor is always
the current level and reading the clock walks forward over at most the levels that passed since.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta


class ClockError(ValueError):
    """A clock action that does not apply to the clock as it is (e.g. pausing a paused clock)."""


class ClockStatus(enum.StrEnum):
    NOT_STARTED = "not_started"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"  # the last level's time is up; the floor adds levels or time


@dataclass(frozen=True, kw_only=True, slots=True)
class ClockState:
    """What is stored: the anchor level, when it virtually started, and when it was paused."""

    level_index: int = 0
    level_started_at: datetime | None = None
    paused_at: datetime | None = None

    @property
    def started(self) -> bool:
        return self.level_started_at is not None


@dataclass(frozen=True, kw_only=True, slots=True)
class ClockReading:
    """What the clock shows at one moment."""

    status: ClockStatus
    level_index: int
    elapsed: timedelta  # below zero when time was added, so remaining can exceed the level
    remaining: timedelta
    level_started_at: datetime | None
    ends_at: datetime | None  # when the current level ends if nobody touches the clock

    @property
    def remaining_seconds(self) -> int:
        """Whole seconds left, rounded up, as a countdown shows them."""
        micro = self.remaining // timedelta(microseconds=1)
        return -(-micro // 1_000_000)


def _durations(durations: Sequence[int]) -> Sequence[int]:
    if not durations:
        raise ClockError("a clock needs at least one level")
    if any(seconds <= 0 for seconds in durations):
        raise ClockError("every level lasts a positive number of seconds")
    return durations


def read_clock(state: ClockState, durations: Sequence[int], *, now: datetime) -> ClockReading:
    """The level in force and the time left at ``now``; ``durations`` are seconds per level."""
    durations = _durations(durations)
    index = min(max(state.level_index, 0), len(durations) - 1)
    if state.level_started_at is None:
        full = timedelta(seconds=durations[index])
        return ClockReading(
            status=ClockStatus.NOT_STARTED,
            level_index=index,
            elapsed=timedelta(0),
            remaining=full,
            level_started_at=None,
            ends_at=None,
        )
    moment = state.paused_at or now
    started = state.level_started_at
    # Negative while added time is still ahead of the level's own length.
    elapsed = moment - started
    # Walk over the levels that ended since the anchor; each starts where the last one ended.
    while index < len(durations) - 1 and elapsed >= timedelta(seconds=durations[index]):
        length = timedelta(seconds=durations[index])
        started += length
        elapsed -= length
        index += 1
    length = timedelta(seconds=durations[index])
    remaining = max(length - elapsed, timedelta(0))
    if state.paused_at is not None:
        status = ClockStatus.PAUSED
    elif remaining == timedelta(0):
        status = ClockStatus.FINISHED
    else:
        status = ClockStatus.RUNNING
    return ClockReading(
        status=status,
        level_index=index,
        elapsed=min(elapsed, length),
        remaining=remaining,
        level_started_at=started,
        ends_at=None if status is not ClockStatus.RUNNING else started + length,
    )


def level_starts_between(
    state: ClockState, durations: Sequence[int], *, after_index: int, now: datetime
) -> list[tuple[int, datetime]]:
    """The levels that started on their own after ``after_index``, up to now, with their starts.

    The reconciler records these; levels the floor went to by hand are recorded by the action.
    """
    reading = read_clock(state, durations, now=now)
    if reading.level_started_at is None or reading.level_index <= after_index:
        return []
    starts: list[tuple[int, datetime]] = []
    started = reading.level_started_at
    for index in range(reading.level_index, after_index, -1):
        starts.append((index, started))
        started -= timedelta(seconds=durations[index - 1])
    return starts[::-1]


def _rebase(state: ClockState, durations: Sequence[int], now: datetime) -> ClockState:
    """The same clock with its anchor moved to the level in force now."""
    reading = read_clock(state, durations, now=now)
    if state.level_started_at is None:
        return state
    # Measured back from the moment the clock shows, so a finished last level (elapsed capped at
    # its length) gets exactly the time that is added to it.
    moment = state.paused_at or now
    return dataclasses.replace(
        state, level_index=reading.level_index, level_started_at=moment - reading.elapsed
    )


def start(state: ClockState, durations: Sequence[int], *, now: datetime) -> ClockState:
    """Start the clock at its current level with the level's full time."""
    _durations(durations)
    if state.started:
        raise ClockError("the clock has already started")
    return ClockState(level_index=state.level_index, level_started_at=now, paused_at=None)


def pause(state: ClockState, durations: Sequence[int], *, now: datetime) -> ClockState:
    """Stop the clock; time left is kept."""
    reading = read_clock(state, durations, now=now)
    if reading.status is ClockStatus.NOT_STARTED:
        raise ClockError("the clock has not started")
    if reading.status is ClockStatus.PAUSED:
        raise ClockError("the clock is already paused")
    return dataclasses.replace(_rebase(state, durations, now), paused_at=now)


def resume(state: ClockState, durations: Sequence[int], *, now: datetime) -> ClockState:
    """Run a paused clock on from where it stopped."""
    if state.level_started_at is None or state.paused_at is None:
        raise ClockError("the clock is not paused")
    rebased = _rebase(state, durations, state.paused_at)
    assert rebased.level_started_at is not None  # noqa: S101 - started clocks stay started
    shift = max(now - state.paused_at, timedelta(0))
    return ClockState(
        level_index=rebased.level_index,
        level_started_at=rebased.level_started_at + shift,
        paused_at=None,
    )


def go_to_level(
    state: ClockState, durations: Sequence[int], *, index: int, now: datetime
) -> ClockState:
    """Jump to a level with its full time; a paused clock stays paused, a new one unstarted."""
    durations = _durations(durations)
    if not 0 <= index < len(durations):
        raise ClockError(f"there is no level {index + 1}; the structure has {len(durations)}")
    if not state.started:
        return ClockState(level_index=index)
    paused_at = now if state.paused_at is not None else None
    return ClockState(level_index=index, level_started_at=now, paused_at=paused_at)


def next_level(state: ClockState, durations: Sequence[int], *, now: datetime) -> ClockState:
    """Go to the level after the one in force now."""
    current = read_clock(state, durations, now=now).level_index
    if current + 1 >= len(durations):
        raise ClockError("this is the last level")
    return go_to_level(state, durations, index=current + 1, now=now)


def previous_level(state: ClockState, durations: Sequence[int], *, now: datetime) -> ClockState:
    """Go back to the level before the one in force now."""
    current = read_clock(state, durations, now=now).level_index
    if current == 0:
        raise ClockError("this is the first level")
    return go_to_level(state, durations, index=current - 1, now=now)


def add_time(
    state: ClockState, durations: Sequence[int], *, seconds: int, now: datetime
) -> ClockState:
    """Add (or, negative, remove) time to the level in force; removing stops at zero left."""
    reading = read_clock(state, durations, now=now)
    if reading.status is ClockStatus.NOT_STARTED:
        raise ClockError("start the clock before changing its time")
    if seconds == 0:
        raise ClockError("add or remove at least one second")
    rebased = _rebase(state, durations, now)
    assert rebased.level_started_at is not None  # noqa: S101 - checked above
    # Removing more than is left ends the level now rather than eating into the next one.
    shift = max(timedelta(seconds=seconds), -reading.remaining)
    return dataclasses.replace(rebased, level_started_at=rebased.level_started_at + shift)
