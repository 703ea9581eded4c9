"""The event stream under uvicorn on Redis: a clock change reaches an open stream within 2 s,
with the clock's state; a stream that reconnects catches up at once by its Last-Event-ID.

uvicorn runs as in production (config.asgi, REDIS_URL set, so LIVE_BUS is redis) on pytest's
test database; the clock actions run in the test process through the services, whose
on_commit pushes go over the same Redis.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import timedelta

import httpx
import pytest
from django.conf import settings
from django.utils import timezone

from tests import factories
from tests.integration.conftest import (
    uvicorn_server,
)
from tests.integration.sse import Stream, next_changed, next_clock
from tournaments import live, services

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

PUSH_DEADLINE = 2.0  # seconds from the commit to the stream (docs/architecture.md, live pages)


@pytest.fixture(scope="module")
def events_server(django_db_setup, tmp_path_factory) -> Iterator[str]:
    """uvicorn with config.asgi on the test database and the test process's Redis.

    One server for the module: streams hold no database connection, so the flush between
    tests does not wait for it.
    """
    assert settings.LIVE_BUS == "redis", "the stream test needs REDIS_URL (the production bus)"
    with uvicorn_server(tmp_path_factory.mktemp("uvicorn"), redis_url=settings.REDIS_URL) as base:
        yield base


@pytest.fixture
def open_stream() -> Iterator[Callable[..., Stream]]:
    streams: list[Stream] = []

    def opener(url: str, last_event_id: str | None = None, language: str | None = None) -> Stream:
        stream = Stream(url, last_event_id=last_event_id, language=language)
        streams.append(stream)
        stream.wait_connected()
        return stream

    yield opener
    for stream in streams:
        stream.close()


def test_a_floor_clock_action_reaches_the_open_stream_within_two_seconds(
    events_server, open_stream, floor_user
):
    event = factories.make_event(code="strm01")
    stream = open_stream(f"{events_server}/e/{event.code}/events/")
    _received, opened = next_clock(stream, timeout=PUSH_DEADLINE)  # the state on connect
    assert (opened["version"], opened["status"]) == (0, "not_started")

    acted = time.monotonic()
    services.act_on_clock(event_id=event.pk, actor=floor_user, action=services.ClockAction.START)
    received, state = next_clock(stream, timeout=PUSH_DEADLINE, newer_than=0)

    assert received - acted < PUSH_DEADLINE
    assert (state["event"], state["what"], state["status"]) == (event.pk, "clock", "running")
    assert 'data-status="running"' in str(state["html"])
    assert state["next"] is not None  # the level after this one, to show when it runs out


def test_a_stream_hears_only_its_own_event_and_the_reconciler_too(
    events_server, open_stream, floor_user
):
    mine = factories.make_event(code="strm02")
    other = factories.make_event(code="strm03", structure=mine.structure)
    stream = open_stream(f"{events_server}/e/{mine.code}/events/")
    next_clock(stream, timeout=PUSH_DEADLINE)  # the state on connect

    services.act_on_clock(event_id=other.pk, actor=floor_user, action=services.ClockAction.START)
    # Started a level ago (12 minutes and a second): level 2 began a second ago, unrecorded.
    started = timezone.now() - timedelta(minutes=12, seconds=1)
    services.act_on_clock(
        event_id=mine.pk, actor=floor_user, action=services.ClockAction.START, now=started
    )
    _received, state = next_clock(stream, timeout=PUSH_DEADLINE)
    assert state["event"] == mine.pk, "a change of another event reached this stream"

    # A level that starts on its own is pushed by the reconciler (beat's job) the same way.
    acted = time.monotonic()
    assert services.reconcile_clock(event_id=mine.pk)
    received, state = next_clock(stream, timeout=PUSH_DEADLINE, newer_than=1)
    assert received - acted < PUSH_DEADLINE
    assert (state["event"], state["what"], state["level_index"]) == (mine.pk, "level", 1)


def test_standings_reach_the_stream_with_the_events_board(events_server, open_stream):
    """Issue 17: the stream carries the board (standings, chip-up banner) in the tab's
    language, on connect and with each change: no page fetches it."""
    event = factories.make_event(code="strm05")
    stream = open_stream(f"{events_server}/e/{event.code}/events/", language="de")
    _received, connected = next_changed(stream, timeout=PUSH_DEADLINE, event="standings")
    live.publish_event_changed(event_id=event.pk, what="standings")
    _received, board = next_changed(stream, timeout=PUSH_DEADLINE, event="standings")
    assert int(board["stamp"]) > int(connected["stamp"])
    assert "Noch ist niemand ausgeschieden." in str(board["standings"])
    assert board["chip_up"] == connected["chip_up"]


def test_a_stream_that_reconnects_gets_what_it_missed_at_once(
    events_server, open_stream, floor_user
):
    """A phone that slept: its browser reconnects with the id of the last state it saw."""
    event = factories.make_event(code="strm06")
    first = open_stream(f"{events_server}/e/{event.code}/events/")
    _received, seen = next_clock(first, timeout=PUSH_DEADLINE)
    first.close()
    for action in (services.ClockAction.START, services.ClockAction.NEXT):
        services.act_on_clock(event_id=event.pk, actor=floor_user, action=action)

    opened = time.monotonic()
    again = open_stream(f"{events_server}/e/{event.code}/events/", last_event_id=str(seen["id"]))
    received, state = next_clock(again, timeout=PUSH_DEADLINE)
    assert received - opened < 1.0
    assert (state["version"], state["level_index"], state["status"]) == (2, 1, "running")
    # A tab that has the current state gets nothing more on connect (only heartbeats later).
    current = open_stream(f"{events_server}/e/{event.code}/events/", last_event_id=str(state["id"]))
    time.sleep(1.0)
    names = [current.events.get_nowait()[1] for _ in range(current.events.qsize())]
    assert "clock" not in names, names


def test_an_unknown_event_has_no_stream(events_server):
    assert httpx.get(f"{events_server}/e/nosuch/events/", timeout=5).status_code == 404


def test_open_streams_hold_no_database_connection(events_server, open_stream):
    """One stream per phone for hours: a connection each would exhaust PostgreSQL's limit."""
    from django.db import connection

    event = factories.make_event(code="strm04")
    for _ in range(10):
        open_stream(f"{events_server}/e/{event.code}/events/")
    with connection.cursor() as cursor:
        cursor.execute(
            "select count(*) from pg_stat_activity"
            " where datname = current_database() and pid <> pg_backend_pid()"
        )
        (others,) = cursor.fetchone()
    assert others < 10, f"{others} database connections for 10 open streams"
