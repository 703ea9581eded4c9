"""The pure clock against worked examples and a second-by-second reference simulation."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import clock
from tournaments.clock import ClockError, ClockState, ClockStatus

T0 = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_level_and_time_left_follow_from_the_start_time():
    durations = [720, 720, 720]
    state = clock.start(ClockState(), durations, now=at(0))
    reading = clock.read_clock(state, durations, now=at(725))
    assert reading.level_index == 1
    assert reading.remaining_seconds == 715
    assert reading.ends_at == at(1440)
    assert reading.status is ClockStatus.RUNNING


def test_a_pause_keeps_the_time_left_and_resume_continues_from_it():
    durations = [720, 720]
    state = clock.start(ClockState(), durations, now=at(0))
    state = clock.pause(state, durations, now=at(100))
    paused = clock.read_clock(state, durations, now=at(5000))
    assert (paused.status, paused.level_index, paused.remaining_seconds) == (
        ClockStatus.PAUSED,
        0,
        620,
    )
    assert paused.ends_at is None
    state = clock.resume(state, durations, now=at(400))
    assert clock.read_clock(state, durations, now=at(400)).remaining_seconds == 620
    assert clock.read_clock(state, durations, now=at(1020)).level_index == 1


def test_the_last_level_stops_at_zero_and_added_time_counts_from_now():
    durations = [60, 60]
    state = clock.start(ClockState(), durations, now=at(0))
    finished = clock.read_clock(state, durations, now=at(500))
    assert (finished.status, finished.level_index, finished.remaining_seconds) == (
        ClockStatus.FINISHED,
        1,
        0,
    )
    state = clock.add_time(state, durations, seconds=30, now=at(500))
    assert clock.read_clock(state, durations, now=at(510)).remaining_seconds == 20


def test_removing_more_time_than_is_left_ends_the_level_now_not_the_next_one():
    durations = [60, 60]
    state = clock.start(ClockState(), durations, now=at(0))
    state = clock.add_time(state, durations, seconds=-500, now=at(10))
    reading = clock.read_clock(state, durations, now=at(10))
    assert (reading.level_index, reading.remaining_seconds) == (1, 60)


def test_jumping_keeps_a_paused_clock_paused_with_the_full_level():
    durations = [60, 90, 120]
    state = clock.start(ClockState(), durations, now=at(0))
    state = clock.pause(state, durations, now=at(5))
    state = clock.go_to_level(state, durations, index=2, now=at(6))
    reading = clock.read_clock(state, durations, now=at(100))
    assert (reading.status, reading.level_index, reading.remaining_seconds) == (
        ClockStatus.PAUSED,
        2,
        120,
    )


def test_level_starts_between_lists_each_level_that_began_on_its_own_once():
    durations = [60, 60, 60, 60]
    state = clock.start(ClockState(), durations, now=at(0))
    starts = clock.level_starts_between(state, durations, after_index=0, now=at(130))
    assert starts == [(1, at(60)), (2, at(120))]
    assert clock.level_starts_between(state, durations, after_index=2, now=at(130)) == []


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda s, d: clock.pause(s, d, now=at(0)), "not started"),
        (lambda s, d: clock.resume(s, d, now=at(0)), "not paused"),
        (lambda s, d: clock.add_time(s, d, seconds=60, now=at(0)), "start the clock"),
        (lambda s, d: clock.go_to_level(s, d, index=5, now=at(0)), "no level 6"),
        (lambda s, d: clock.previous_level(s, d, now=at(0)), "first level"),
    ],
)
def test_actions_that_do_not_apply_are_refused_with_a_reason(action, message):
    with pytest.raises(ClockError, match=message):
        action(ClockState(), [60, 60])


def test_a_structure_without_levels_has_no_clock():
    with pytest.raises(ClockError, match="at least one level"):
        clock.read_clock(ClockState(), [], now=at(0))


# The reference: a clock that counts down one second at a time, as a floorman with a stopwatch
# would, and knows nothing of timestamps.


@dataclass
class StopwatchClock:
    durations: list[int]
    index: int = 0
    remaining: int = 0
    started: bool = False
    paused: bool = False

    def __post_init__(self) -> None:
        self.remaining = self.durations[0]

    @property
    def last(self) -> int:
        return len(self.durations) - 1

    def settle(self) -> list[int]:
        """Move past levels whose time is up; return the levels that began."""
        began = []
        while self.started and self.remaining == 0 and self.index < self.last:
            self.index += 1
            self.remaining = self.durations[self.index]
            began.append(self.index)
        return began

    def tick(self) -> list[int]:
        if self.started and not self.paused and self.remaining > 0:
            self.remaining -= 1
        return self.settle()

    def status(self) -> ClockStatus:
        if not self.started:
            return ClockStatus.NOT_STARTED
        if self.paused:
            return ClockStatus.PAUSED
        return ClockStatus.RUNNING if self.remaining else ClockStatus.FINISHED

    def apply(self, name: str, value: int) -> bool:
        """Apply an action as the rules say; False where the real clock must refuse it."""
        if name == "start":
            if self.started:
                return False
            self.started, self.remaining = True, self.durations[self.index]
        elif name == "pause":
            if not self.started or self.paused:
                return False
            self.paused = True
        elif name == "resume":
            if not self.paused:
                return False
            self.paused = False
        elif name in {"next", "previous", "go_to"}:
            target = {"next": self.index + 1, "previous": self.index - 1, "go_to": value}[name]
            if not 0 <= target <= self.last:
                return False
            self.index, self.remaining = target, self.durations[target]
        elif name == "add_time":
            if not self.started or value == 0:
                return False
            self.remaining = max(self.remaining + value, 0)
        self.settle()
        return True


ACTIONS = {
    "start": lambda s, d, v, now: clock.start(s, d, now=now),
    "pause": lambda s, d, v, now: clock.pause(s, d, now=now),
    "resume": lambda s, d, v, now: clock.resume(s, d, now=now),
    "next": lambda s, d, v, now: clock.next_level(s, d, now=now),
    "previous": lambda s, d, v, now: clock.previous_level(s, d, now=now),
    "go_to": lambda s, d, v, now: clock.go_to_level(s, d, index=v, now=now),
    "add_time": lambda s, d, v, now: clock.add_time(s, d, seconds=v, now=now),
}

steps = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=40),  # seconds that pass first
        st.sampled_from(sorted(ACTIONS)),
        st.integers(min_value=-30, max_value=30),
    ),
    max_size=25,
)


@settings(max_examples=400, deadline=None)
@given(
    durations=st.lists(st.integers(min_value=1, max_value=30), min_size=1, max_size=5), steps=steps
)
def test_any_sequence_of_actions_matches_the_stopwatch(durations, steps):
    """Property: start, pause, resume, skip, jump and add/remove time in any order, any timing."""
    reference = StopwatchClock(durations)
    state = ClockState()
    now = 0
    for wait, name, value in steps:
        for _ in range(wait):
            now += 1
            reference.tick()
        if name == "go_to":
            value = value % len(durations)
        allowed = reference.apply(name, value)
        try:
            state = ACTIONS[name](state, durations, value, at(now))
        except ClockError:
            assert not allowed, f"{name}({value}) refused at {now}s but the rules allow it"
        else:
            assert allowed, f"{name}({value}) accepted at {now}s but the rules refuse it"
        reading = clock.read_clock(state, durations, now=at(now))
        assert (reading.status, reading.level_index, reading.remaining_seconds) == (
            reference.status(),
            reference.index,
            reference.remaining,
        )


@settings(max_examples=200, deadline=None)
@given(
    durations=st.lists(st.integers(min_value=1, max_value=30), min_size=1, max_size=6),
    pauses=st.lists(st.tuples(st.integers(0, 50), st.integers(0, 50)), max_size=6),
    horizon=st.integers(min_value=0, max_value=200),
)
def test_each_level_that_begins_on_its_own_is_listed_once_with_its_start(
    durations, pauses, horizon
):
    """Property: walking the clock forward lists every natural level start exactly once."""
    reference = StopwatchClock(durations)
    reference.apply("start", 0)
    state = clock.start(ClockState(), durations, now=at(0))
    now, announced, seen, expected = 0, 0, [], []
    for run, stop in pauses:
        for _ in range(run):
            now += 1
            expected += [(index, now) for index in reference.tick()]
        new = clock.level_starts_between(state, durations, after_index=announced, now=at(now))
        seen += [(index, (started - T0).total_seconds()) for index, started in new]
        announced = new[-1][0] if new else announced
        state = clock.pause(state, durations, now=at(now))
        reference.apply("pause", 0)
        now += stop
        state = clock.resume(state, durations, now=at(now))
        reference.apply("resume", 0)
    for _ in range(horizon):
        now += 1
        expected += [(index, now) for index in reference.tick()]
    new = clock.level_starts_between(state, durations, after_index=announced, now=at(now))
    seen += [(index, (started - T0).total_seconds()) for index, started in new]
    assert [index for index, _ in seen] == [index for index, _ in expected]
    assert [round(start) for _, start in seen] == [start for _, start in expected]
