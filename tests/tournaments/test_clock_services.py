"""Floor clock actions and the reconciler: applied once, audited, refused without a trace."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, connections

from tests.factories import make_event, make_structure, make_user
from tournaments.models import AuditEvent, Event, EventStatus, LevelStart
from tournaments.services import (
    ClockAction,
    ClockActionError,
    StaleClockError,
    act_on_clock,
    reconcile_clock,
)

T0 = datetime(2026, 11, 20, 19, 0, tzinfo=UTC)
MIN = timedelta(minutes=1)


def act(event, actor, action, *, at, version=None, **kwargs):
    """One floor action at a fixed moment, on the version the page showed (the current one)."""
    if version is None:
        version = Event.objects.get(pk=event.pk).clock_version
    return act_on_clock(
        event_id=event.pk, actor=actor, action=action, expected_version=version, now=at, **kwargs
    )


def remaining(event, at):
    return Event.objects.get(pk=event.pk).read_clock(at).remaining


def snapshot(event):
    event = Event.objects.get(pk=event.pk)
    return (
        event.clock_level_index,
        event.clock_level_started_at,
        event.clock_paused_at,
        event.clock_version,
        event.status,
        AuditEvent.objects.filter(event=event).count(),
        LevelStart.objects.filter(event=event).count(),
    )


@pytest.fixture
def event(db):
    # Two 12-minute levels, a 10-minute break after the second, then a third level.
    structure = make_structure(
        levels=((25, 50, 0, 12), (50, 100, 0, 12), (75, 150, 0, 12)), breaks_after=(1,)
    )
    return make_event(structure=structure)


@pytest.mark.django_db
def test_start_runs_the_clock_and_the_event(event, floor_user):
    act(event, floor_user, ClockAction.START, at=T0)
    event.refresh_from_db()
    assert event.status == EventStatus.RUNNING
    assert event.clock_level_started_at == T0
    assert event.clock_version == 1
    assert remaining(event, T0 + MIN) == 11 * MIN
    start = LevelStart.objects.get(event=event)
    assert (start.level_index, start.started_at, start.cause) == (0, T0, LevelStart.Cause.FLOOR)
    audit = AuditEvent.objects.get(event=event)
    assert audit.action == "clock.start"
    assert audit.actor == floor_user
    assert audit.data["version"] == 1


@pytest.mark.django_db
def test_pause_keeps_the_time_left_and_resume_runs_on(event, floor_user):
    act(event, floor_user, ClockAction.START, at=T0)
    act(event, floor_user, ClockAction.PAUSE, at=T0 + 5 * MIN)
    assert remaining(event, T0 + 60 * MIN) == 7 * MIN
    act(event, floor_user, ClockAction.RESUME, at=T0 + 8 * MIN)
    assert remaining(event, T0 + 10 * MIN) == 5 * MIN
    actions = list(
        AuditEvent.objects.filter(event=event).order_by("id").values_list("action", "actor")
    )
    assert actions == [
        ("clock.start", floor_user.pk),
        ("clock.pause", floor_user.pk),
        ("clock.resume", floor_user.pk),
    ]
    pause = AuditEvent.objects.get(event=event, action="clock.pause")
    assert pause.data["remaining_after"] == 7 * 60


@pytest.mark.django_db
def test_next_previous_and_go_to_record_each_level_start(event, floor_user):
    act(event, floor_user, ClockAction.START, at=T0)
    act(event, floor_user, ClockAction.NEXT, at=T0 + 3 * MIN)
    act(event, floor_user, ClockAction.PREVIOUS, at=T0 + 4 * MIN)
    act(event, floor_user, ClockAction.GO_TO, level=2, at=T0 + 5 * MIN)
    event.refresh_from_db()
    reading = event.read_clock(T0 + 6 * MIN)
    assert reading.level_index == 2  # the break
    assert reading.remaining == 9 * MIN
    starts = list(event.level_starts.values_list("level_index", "started_at", "cause"))
    assert starts == [
        (0, T0, "floor"),
        (1, T0 + 3 * MIN, "floor"),
        (0, T0 + 4 * MIN, "floor"),
        (2, T0 + 5 * MIN, "floor"),
    ]
    go_to = AuditEvent.objects.get(event=event, action="clock.go_to")
    assert (go_to.data["level_before"], go_to.data["level_after"]) == (1, 3)


@pytest.mark.django_db
def test_add_and_remove_time(event, floor_user):
    act(event, floor_user, ClockAction.START, at=T0)
    act(event, floor_user, ClockAction.ADD_TIME, seconds=60, at=T0 + 2 * MIN)
    assert remaining(event, T0 + 2 * MIN) == 11 * MIN
    act(event, floor_user, ClockAction.ADD_TIME, seconds=-180, at=T0 + 2 * MIN)
    assert remaining(event, T0 + 2 * MIN) == 8 * MIN
    audit = AuditEvent.objects.filter(event=event, action="clock.add_time").order_by("id")
    assert [a.data["seconds"] for a in audit] == [60, -180]


@pytest.mark.django_db
def test_stale_expected_version_changes_nothing(event, floor_user):
    act(event, floor_user, ClockAction.START, at=T0)
    before = snapshot(event)
    with pytest.raises(StaleClockError):
        act(event, floor_user, ClockAction.PAUSE, version=0, at=T0 + MIN)
    assert snapshot(event) == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("action", "kwargs"),
    [
        (ClockAction.PAUSE, {}),  # not started
        (ClockAction.RESUME, {}),
        (ClockAction.PREVIOUS, {}),  # first level
        (ClockAction.ADD_TIME, {"seconds": 60}),  # not started
        (ClockAction.GO_TO, {"level": 99}),
        (ClockAction.GO_TO, {"level": -1}),
        (ClockAction.GO_TO, {}),
    ],
)
def test_an_action_that_does_not_apply_is_refused_and_changes_nothing(
    event, floor_user, action, kwargs
):
    before = snapshot(event)
    with pytest.raises(ClockActionError):
        act(event, floor_user, action, at=T0, **kwargs)
    assert snapshot(event) == before


@pytest.mark.django_db
def test_zero_seconds_and_next_after_the_last_level_are_refused(event, floor_user):
    act(event, floor_user, ClockAction.START, at=T0)
    act(event, floor_user, ClockAction.GO_TO, level=3, at=T0 + MIN)
    before = snapshot(event)
    with pytest.raises(ClockActionError):
        act(event, floor_user, ClockAction.ADD_TIME, seconds=0, at=T0 + 2 * MIN)
    with pytest.raises(ClockActionError):
        act(event, floor_user, ClockAction.NEXT, at=T0 + 2 * MIN)
    with pytest.raises(ClockActionError):
        act(event, floor_user, ClockAction.START, at=T0 + 2 * MIN)  # already started
    assert snapshot(event) == before


@pytest.mark.django_db
def test_an_unknown_action_name_is_not_an_action():
    with pytest.raises(ValueError, match="'explode' is not a valid ClockAction"):
        ClockAction("explode")


@pytest.mark.django_db
def test_a_finished_event_refuses_clock_actions(event, floor_user):
    Event.objects.filter(pk=event.pk).update(status=EventStatus.FINISHED)
    before = snapshot(event)
    with pytest.raises(ClockActionError):
        act(event, floor_user, ClockAction.START, at=T0)
    assert snapshot(event) == before


@pytest.mark.django_db
def test_reconcile_records_a_level_start_exactly_once(event, floor_user):
    act(event, floor_user, ClockAction.START, at=T0)
    first = reconcile_clock(event_id=event.pk, now=T0 + 13 * MIN)
    second = reconcile_clock(event_id=event.pk, now=T0 + 13 * MIN + timedelta(seconds=1))
    assert [(s.level_index, s.started_at, s.cause) for s in first] == [
        (1, T0 + 12 * MIN, LevelStart.Cause.CLOCK)
    ]
    assert second == []
    assert event.level_starts.count() == 2
    assert AuditEvent.objects.filter(event=event, action="clock.level_started").count() == 1
    # Two levels later (the break and level 3) at once: both recorded, in order, once.
    later = reconcile_clock(event_id=event.pk, now=T0 + 35 * MIN)
    assert [s.level_index for s in later] == [2, 3]
    assert reconcile_clock(event_id=event.pk, now=T0 + 35 * MIN) == []


@pytest.mark.django_db
def test_reconcile_bumps_the_clock_version_so_pages_refetch(event, floor_user):
    act(event, floor_user, ClockAction.START, at=T0)
    reconcile_clock(event_id=event.pk, now=T0 + 13 * MIN)
    assert Event.objects.get(pk=event.pk).clock_version == 2


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_pauses_give_one_pause():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL; SQLite runs one writer at a time anyway")
    floor = make_user(username="floor1", role="floor")
    other = make_user(username="floor2", role="floor")
    event = make_event()
    act_on_clock(event_id=event.pk, actor=floor, action=ClockAction.START, expected_version=0)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def press_pause(user):
        try:
            barrier.wait()
            act_on_clock(
                event_id=event.pk, actor=user, action=ClockAction.PAUSE, expected_version=1
            )
            outcomes.append("paused")
        except StaleClockError:
            outcomes.append("stale")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=press_pause, args=(user,)) for user in (floor, other)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["paused", "stale"]
    event.refresh_from_db()
    assert event.clock_version == 2
    assert event.clock_paused_at is not None
    assert AuditEvent.objects.filter(event=event, action="clock.pause").count() == 1
