"""The clock's reconciler on PostgreSQL with real Celery workers and beat on Redis.

Levels are a minute long (the model stores minutes); each test moves the next boundary to a
couple of seconds away through the floor's own "add time" action (a negative amount), so a
natural level change happens while the processes are watched.
"""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from celery import Celery
from django.utils import timezone

from tests import factories
from tests.integration.conftest import Processes, base_env, celery, wait_until
from tournaments import clock, services
from tournaments.models import AuditEvent, Event, LevelStart

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

LEVELS = ((25, 50, 0, 1), (50, 100, 0, 1), (75, 150, 0, 1), (100, 200, 0, 1), (150, 300, 0, 1))
STARTUP = 30.0  # seconds a worker may take to answer on a loaded 2-core machine
RECORD = 20.0  # seconds a running worker and beat may take to record a level start


@pytest.fixture
def celery_env(postgres_test_url: str, redis_test_url: str) -> dict[str, str]:
    return base_env(
        DATABASE_URL=postgres_test_url,
        REDIS_URL=redis_test_url,
        CLOCK_RECONCILE_SECONDS="0.5",
        LOG_LEVEL="WARNING",
    )


@pytest.fixture
def broker(redis_test_url: str):
    """A Celery client on the workers' broker: to ping them and to send tasks."""
    app = Celery("floorman-tests", broker=redis_test_url, set_as_current=False)
    yield app
    app.close()


def start_worker(processes: Processes, env: dict[str, str], name: str, concurrency: int = 1):
    processes.start(
        name,
        celery(
            "worker", "--loglevel", "INFO", "--concurrency", str(concurrency),
            "--hostname", f"{name}@127.0.0.1", "--without-gossip", "--without-mingle",
        ),
        env=env,
    )  # fmt: skip


def start_beat(processes: Processes, env: dict[str, str]) -> None:
    folder = processes.log_dir
    processes.start(
        "beat",
        celery(
            "beat", "--loglevel", "INFO", "--schedule", str(folder / "beat-schedule"),
            "--pidfile", str(folder / "beat.pid"),
        ),
        env=env,
    )  # fmt: skip


def wait_for_workers(processes: Processes, broker: Celery, *names: str) -> None:
    """Until every named worker answers a ping over the broker."""

    def answered() -> bool:
        for name in names:
            processes.assert_alive(name)
        replies = broker.control.ping(timeout=0.5) or []
        seen = {host.split("@")[0] for reply in replies for host in reply}
        return set(names) <= seen

    wait_until(answered, timeout=STARTUP, what=f"workers {names} to answer a ping")


def running_event(floor: object) -> Event:
    """An event on one-minute levels whose clock the floor has just started."""
    event = factories.make_event(structure=factories.make_structure(levels=LEVELS))
    return services.act_on_clock(event_id=event.pk, actor=floor, action=services.ClockAction.START)


def bring_boundary_near(event: Event, floor: object, *, seconds: int) -> clock.ClockReading:
    """Take time off the current level so it ends in about ``seconds``; the reading after."""
    remaining = Event.objects.get(pk=event.pk).read_clock().remaining
    cut = int(remaining.total_seconds()) - seconds
    updated = services.act_on_clock(
        event_id=event.pk, actor=floor, action=services.ClockAction.ADD_TIME, seconds=-cut
    )
    return updated.read_clock()


def starts(event: Event) -> list[tuple[int, int, str]]:
    """The recorded (sequence, level index, cause) of the event, in order."""
    rows = LevelStart.objects.filter(event=event).order_by("sequence")
    return list(rows.values_list("sequence", "level_index", "cause"))


def recorded(event: Event, level_index: int) -> bool:
    return LevelStart.objects.filter(event=event, level_index=level_index).exists()


def assert_each_level_started_once(event: Event, *, levels: int) -> None:
    expected = [(1, 0, "floor")] + [(n + 1, n, "clock") for n in range(1, levels)]
    assert starts(event) == expected
    announced = AuditEvent.objects.filter(event=event, action="clock.level_started")
    assert sorted(announced.values_list("data__level", flat=True)) == list(range(2, levels + 1))


def assert_no_task_failed(processes: Processes, *names: str) -> None:
    for name in names:
        log = processes.logs[name].read_text(errors="replace")
        failures = re.findall(r".*(?:raised unexpected|ERROR|Traceback).*", log)
        assert not failures, f"{name}: {failures[:5]}"


def test_level_change_while_the_worker_is_down_is_recorded_once_after_restart(
    processes, celery_env, broker, floor_user
):
    event = running_event(floor_user)
    start_beat(processes, celery_env)
    start_worker(processes, celery_env, "clock-a")
    wait_for_workers(processes, broker, "clock-a")

    # With the worker up, level 2 is announced on its own.
    bring_boundary_near(event, floor_user, seconds=2)
    wait_until(lambda: recorded(event, 1), timeout=RECORD, what="level 2 to be recorded")

    # The worker dies (no clean shutdown) just before level 3; beat keeps queuing meanwhile.
    processes.kill("clock-a")
    bring_boundary_near(event, floor_user, seconds=2)
    boundary = Event.objects.get(pk=event.pk).read_clock().ends_at
    assert boundary is not None
    time.sleep(max((boundary - timezone.now()).total_seconds(), 0) + 2.5)

    # The clock is right without any worker; only the announcement is late.
    late = Event.objects.get(pk=event.pk)
    assert late.read_clock().level_index == 2
    assert not recorded(event, 2)

    start_worker(processes, celery_env, "clock-a")
    wait_until(lambda: recorded(event, 2), timeout=STARTUP, what="level 3 after the restart")
    time.sleep(2)  # several more reconciler rounds, and the queued backlog, change nothing

    assert_each_level_started_once(event, levels=3)
    level_3 = LevelStart.objects.get(event=event, level_index=2)
    assert level_3.started_at == boundary  # when it really started, not when it was noticed
    assert level_3.recorded_at > boundary
    now = timezone.now()
    reading = Event.objects.get(pk=event.pk).read_clock(now)
    assert reading.level_index == 2
    assert reading.level_started_at == boundary
    assert reading.remaining == boundary + timedelta(minutes=1) - now
    assert_no_task_failed(processes, "clock-a")


def test_two_workers_and_beat_record_each_level_once(processes, celery_env, broker, floor_user):
    event = running_event(floor_user)
    start_beat(processes, celery_env)
    start_worker(processes, celery_env, "clock-a", concurrency=2)
    start_worker(processes, celery_env, "clock-b", concurrency=2)
    wait_for_workers(processes, broker, "clock-a", "clock-b")

    for level_index in (1, 2, 3):
        ends_at = bring_boundary_near(event, floor_user, seconds=1).ends_at
        assert ends_at is not None
        time.sleep(max((ends_at - timezone.now()).total_seconds(), 0) + 0.05)
        # On top of beat's rounds, a burst of reconcilers races on both workers' four processes.
        for _ in range(40):
            broker.send_task("tournaments.tasks.reconcile_clocks")
        wait_until(
            lambda index=level_index: recorded(event, index),
            timeout=RECORD,
            what=f"level {level_index + 1} to be recorded",
        )
    time.sleep(2)

    assert_each_level_started_once(event, levels=4)
    assert Event.objects.get(pk=event.pk).announced_level_index == 3
    for name in ("clock-a", "clock-b"):
        log = processes.logs[name].read_text(errors="replace")
        assert "reconcile_clocks" in log and "succeeded" in log, f"{name} ran no reconciler"
    assert_no_task_failed(processes, "clock-a", "clock-b")


def test_without_beat_nothing_is_recorded_and_beat_schedules_the_reconciler(
    processes, celery_env, broker, floor_user
):
    event = running_event(floor_user)
    start_worker(processes, celery_env, "clock-a")
    wait_for_workers(processes, broker, "clock-a")

    ends_at = bring_boundary_near(event, floor_user, seconds=1).ends_at
    assert ends_at is not None
    time.sleep(max((ends_at - timezone.now()).total_seconds(), 0) + 3)
    assert Event.objects.get(pk=event.pk).read_clock().level_index == 1
    assert not recorded(event, 1), "something other than beat ran the reconciler"

    start_beat(processes, celery_env)
    wait_until(lambda: recorded(event, 1), timeout=STARTUP, what="beat to schedule a reconcile")
    assert_each_level_started_once(event, levels=2)
    assert LevelStart.objects.get(event=event, level_index=1).started_at == ends_at
