"""The clock on the live stream: its message format, ordered ids and resync by Last-Event-ID."""

from __future__ import annotations

import asyncio
import json
import os
from datetime import timedelta

import pytest
import redis
from django.urls import reverse
from django.utils import timezone

from tests.factories import make_event, make_structure
from tournaments import live
from tournaments.live_clock import (
    BusMessage,
    Cursor,
    MessageId,
    clock_payload,
    current_clock_payload,
    state_key,
    store_clock_payload,
)
from tournaments.models import Event
from tournaments.services import ClockAction, act_on_clock

REDIS_URL = os.environ.get("REDIS_URL", "")


@pytest.fixture
def event():
    structure = make_structure(levels=((25, 50, 0, 12), (50, 100, 10, 12)))
    return make_event(structure=structure)  # a code of its own: the ETag cache is by code


def started(event, floor_user, *, at):
    act_on_clock(
        event_id=event.pk, actor=floor_user, action=ClockAction.START, expected_version=0, now=at
    )
    return Event.objects.select_related("structure").get(pk=event.pk)


def at_time(monkeypatch, moment):
    monkeypatch.setattr(timezone, "now", lambda: moment)


def fragment(client, event, language):
    url = reverse("tournaments:event_clock", args=[event.code])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language)


def parse_frame(frame):
    assert isinstance(frame, bytes)  # encoded once per message and language, not per stream
    fields = dict(line.split(": ", 1) for line in frame.decode().strip().split("\n"))
    return fields, json.loads(fields["data"])


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_pushed_fragment_is_the_one_a_get_returns(
    client, event, floor_user, monkeypatch, language
):
    moment = timezone.now()
    event = started(event, floor_user, at=moment - timedelta(minutes=3))
    at_time(monkeypatch, moment)
    state = json.loads(clock_payload(event, what="clock"))["clock"]
    response = fragment(client, event, language)
    assert response.content.decode() == state["views"][language]["html"]
    assert response["ETag"] == f'"{state["views"][language]["etag"]}"'
    assert (state["status"], state["level_index"], state["remaining_ms"]) == ("running", 0, 540_000)
    assert state["ends_at"] == (moment + timedelta(minutes=9)).isoformat()


@pytest.mark.django_db
def test_the_next_fragment_is_what_a_get_returns_when_the_level_runs_out(
    client, event, floor_user, monkeypatch
):
    moment = timezone.now()
    event = started(event, floor_user, at=moment - timedelta(minutes=3))
    at_time(monkeypatch, moment)
    upcoming = json.loads(clock_payload(event, what="clock"))["clock"]["next"]
    ends_at = moment + timedelta(minutes=9)
    assert (upcoming["at"], upcoming["level_index"]) == (ends_at.isoformat(), 1)
    at_time(monkeypatch, ends_at)  # the level ran out; the reconciler has not run yet
    for language in ("en", "de"):
        assert (
            fragment(client, event, language).content.decode()
            == (upcoming["views"][language]["html"])
        )
    assert "50 / 100" in upcoming["views"]["en"]["html"]


@pytest.mark.django_db
def test_after_the_last_level_the_next_fragment_says_time_is_up(event, floor_user, monkeypatch):
    moment = timezone.now()
    event = started(event, floor_user, at=moment - timedelta(minutes=20))  # in level 2 of 2
    at_time(monkeypatch, moment)
    state = json.loads(clock_payload(event, what="clock"))["clock"]
    assert state["level_index"] == 1
    assert (state["next"]["level_index"], state["next"]["status"]) == (1, "finished")
    assert "Time is up" in state["next"]["views"]["en"]["html"]


@pytest.mark.django_db
def test_a_paused_or_unstarted_clock_sends_no_next(event, floor_user):
    unstarted = json.loads(clock_payload(event, what="clock"))["clock"]
    assert (unstarted["status"], unstarted["next"]) == ("not_started", None)
    started(event, floor_user, at=timezone.now())
    act_on_clock(event_id=event.pk, actor=floor_user, action=ClockAction.PAUSE)
    event = Event.objects.select_related("structure").get(pk=event.pk)
    paused = json.loads(clock_payload(event, what="clock"))["clock"]
    assert (paused["status"], paused["next"], paused["ends_at"]) == ("paused", None, "")


@pytest.mark.django_db
def test_a_frame_is_one_json_line_in_the_tabs_language_with_the_servers_time(event):
    payload = clock_payload(event, what="level")
    sent_at = timezone.now() + timedelta(hours=1)
    fields, data = parse_frame(BusMessage.parse(payload).frame("de", now=sent_at))
    assert fields["event"] == "clock"
    assert fields["id"] == data["id"] == json.loads(payload)["id"]
    assert data["now"] == sent_at.isoformat()  # when it left, not when it was read
    assert data["what"] == "level"
    assert data["etag"].endswith("-de")
    assert "Nicht gestartet" in data["html"]
    assert data["next"] is None
    assert data["chip_up"] is None  # R5.11: no chip leaves play after this level


@pytest.mark.django_db
def test_the_state_says_which_chip_leaves_play_after_the_level(event):
    """R5.11: the page tells its chip-up banner to look again when such a level ends."""
    first = event.structure.levels.get(position=1)
    first.chip_up = first.structure.chip_set.denominations.get(value=25)
    first.save()
    event = Event.objects.select_related("structure").get(pk=event.pk)
    _fields, data = parse_frame(
        BusMessage.parse(clock_payload(event, what="clock")).frame("en", now=timezone.now())
    )
    assert data["chip_up"] == 25


def test_a_state_read_much_later_supersedes_a_higher_version_after_a_restore():
    held = MessageId(40, 1_000_000)
    assert not MessageId(39, 1_000_500).supersedes(held)  # two publishers racing: the newer holds
    assert MessageId(3, 1_000_000 + 61_000).supersedes(held)  # the database went back to v3
    assert MessageId(40, 1_000_001).supersedes(held)
    assert not held.supersedes(held)


def test_message_ids_order_by_clock_version_then_time():
    assert MessageId.parse("3.100") < MessageId.parse("3.200") < MessageId.parse("4.0")
    assert str(MessageId.parse(" 12.1763900000000 ")) == "12.1763900000000"
    for junk in (None, "", "abc", "3", "3.x", "-1.5", "1.2.3"):
        assert MessageId.parse(junk) is None, junk


def clock_message(version, stamp):
    state = {"version": version, "level_index": 0, "status": "paused", "ends_at": "",
             "remaining_ms": 1000, "views": {"en": {"etag": "e", "html": "<div></div>"}},
             "next": None}  # fmt: skip
    payload = {"event": 1, "what": "clock", "at": "", "id": f"{version}.{stamp}", "clock": state}
    return BusMessage.parse(json.dumps(payload))


def test_a_tab_that_is_behind_gets_the_state_and_a_tab_that_has_it_gets_nothing():
    current = clock_message(5, 2000)
    # Behind, nothing said, or ahead of the database (it was restored): the current state.
    for other in (None, "4.9999", "not-ours", "6.0"):
        assert Cursor(language="en", last_event_id=other).resync(current) is not None, other
    # The same clock version: the same state, read at another moment; the page counts time.
    for same in ("5.1000", "5.2000", "5.3000"):
        assert Cursor(language="en", last_event_id=same).resync(current) is None, same
    cursor = Cursor(language="en", last_event_id="4.1")
    cursor.resync(current)
    assert cursor.frame(current) is None  # sent once


def test_an_older_state_arriving_late_is_never_sent_after_a_newer_one():
    cursor = Cursor(language="en", last_event_id=None)
    assert cursor.frame(clock_message(6, 100)) is not None
    assert cursor.frame(clock_message(5, 900)) is None  # published earlier, delivered later
    assert cursor.frame(clock_message(6, 100)) is None  # the same state twice
    nudge = BusMessage.parse(json.dumps({"event": 1, "what": "standings", "at": ""}))
    assert cursor.frame(nudge).startswith(b"event: changed\n")
    assert cursor.frame(clock_message(7, 50)) is not None


def first_frames(stream, count, *, timeout=5.0):
    async def collect():
        frames = []
        async with asyncio.timeout(timeout):
            while len(frames) < count:
                frames.append(await anext(stream))
        await stream.aclose()
        return frames

    return asyncio.run(collect())


@pytest.mark.django_db(transaction=True)
def test_a_reconnecting_tab_gets_the_current_state_at_once_only_when_behind(
    settings, event, floor_user
):
    settings.LIVE_BUS = "db"
    act_on_clock(event_id=event.pk, actor=floor_user, action=ClockAction.START)
    current = BusMessage.parse(current_clock_payload(event.pk, client=None))
    older = f"{current.id.version - 1}.{current.id.stamp}"
    hello, frame = first_frames(live.stream_event(event.pk, last_event_id=older), 2)
    fields, data = parse_frame(frame)
    assert fields["event"] == "clock"
    assert (data["version"], data["status"]) == (1, "running")
    # A tab that has the current clock gets no clock: the event's board (which its id does not
    # name, tournaments.live_board), then nothing but the heartbeat.
    stream = live.stream_event(event.pk, last_event_id=data["id"], heartbeat=0.2)
    frames = first_frames(stream, 3)
    assert frames[1].startswith(b"event: standings\ndata: {")
    assert frames[2] == b": heartbeat\n\n"
    asyncio.run(_stop_hubs())


async def _stop_hubs():
    hub = await live.get_hub()
    await hub.stop()


@pytest.mark.django_db(transaction=True)
def test_the_stream_view_reads_last_event_id_and_the_last_parameter(
    client, settings, event, floor_user
):
    settings.LIVE_BUS = "db"
    settings.LIVE_WSGI_STREAM_SECONDS = 0.4
    act_on_clock(event_id=event.pk, actor=floor_user, action=ClockAction.START)
    url = reverse("tournaments:event_stream", args=[event.code])

    def frames(**extra):
        response = client.get(url, **extra)
        assert response.status_code == 200
        return [chunk for chunk in response.streaming_content if b"event: clock" in chunk]

    (frame,) = frames(HTTP_ACCEPT_LANGUAGE="de")
    _fields, data = parse_frame(frame)
    assert "Läuft" in data["html"]
    assert frames(HTTP_LAST_EVENT_ID=data["id"]) == []
    assert frames(QUERY_STRING=f"last={data['id']}") == []
    assert len(frames(HTTP_LAST_EVENT_ID="0.1")) == 1


@pytest.mark.django_db
def test_a_published_state_primes_the_etag_cache(
    client, event, floor_user, django_capture_on_commit_callbacks, django_assert_num_queries
):
    with django_capture_on_commit_callbacks(execute=True):
        act_on_clock(event_id=event.pk, actor=floor_user, action=ClockAction.START)
    pushed = json.loads(current_clock_payload(event.pk, client=None))["clock"]
    etag = f'"{pushed["views"]["en"]["etag"]}"'
    url = reverse("tournaments:event_clock", args=[event.code])
    with django_assert_num_queries(0):  # the phones' next poll costs no query
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


@pytest.mark.django_db
def test_publishing_a_clock_change_costs_the_cache_two_round_trips(
    client, event, floor_user, monkeypatch
):
    """Issue 17: the floor's press waits for the publish; dropping the cached ETags and priming
    them in both languages is one write each (the generation is not read back), and the phones'
    next poll in either language is still a 304 from the cache."""
    from django.core.cache import cache

    act_on_clock(event_id=event.pk, actor=floor_user, action=ClockAction.START)
    calls = []
    for name in ("get", "set", "get_many", "set_many", "delete"):
        original = getattr(cache, name)
        monkeypatch.setattr(
            cache, name, lambda *a, _n=name, _o=original, **k: calls.append(_n) or _o(*a, **k)
        )
    live.publish_event_changed(event_id=event.pk, what="clock")
    monkeypatch.undo()
    assert calls == ["set", "set_many"]
    pushed = json.loads(current_clock_payload(event.pk, client=None))["clock"]
    url = reverse("tournaments:event_clock", args=[event.code])
    for language in ("en", "de"):
        etag = f'"{pushed["views"][language]["etag"]}"'
        response = client.get(url, HTTP_IF_NONE_MATCH=etag, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 304, language


@pytest.mark.skipif(not REDIS_URL, reason="needs the real Redis at REDIS_URL")
@pytest.mark.django_db
def test_a_kept_state_of_another_version_than_the_database_is_rendered_again(event, floor_user):
    """Redis outlived the database (restored, or recreated by a test run): the tab that connects
    gets the clock as the database has it, which then replaces the kept one."""
    client = redis.Redis.from_url(REDIS_URL)
    key = state_key(event.pk)
    stale = json.loads(clock_payload(event, what="clock"))
    stale["id"] = f"9.{MessageId.parse(stale['id']).stamp - 120_000}"
    stale["clock"]["version"] = 9
    client.hset(key, "payload", json.dumps(stale))
    try:
        payload = current_clock_payload(event.pk, client=client, version=0)
        kept = client.hget(key, "payload").decode()
    finally:
        client.delete(key)
        client.close()
    assert json.loads(payload)["clock"]["version"] == 0
    assert kept == payload


@pytest.mark.skipif(not REDIS_URL, reason="needs the real Redis at REDIS_URL")
@pytest.mark.django_db
def test_redis_keeps_the_published_state_for_the_tabs_that_connect_later(event, floor_user):
    client = redis.Redis.from_url(REDIS_URL)
    channel = f"test-live-clock:{event.pk}"
    pubsub = client.pubsub()
    pubsub.subscribe(channel)
    pubsub.get_message(timeout=1)  # the subscription
    try:
        act_on_clock(event_id=event.pk, actor=floor_user, action=ClockAction.START)
        event = Event.objects.select_related("structure").get(pk=event.pk)
        payload = clock_payload(event, what="clock")
        store_clock_payload(client, channel=channel, payload=payload, publish=True)
        received = pubsub.get_message(timeout=1)
        assert current_clock_payload(event.pk, client=client, version=1) == payload
        # The database says another version (a publish was lost): rendered again, not kept.
        again = current_clock_payload(event.pk, client=client, version=2)
    finally:
        client.delete(state_key(event.pk))
        pubsub.close()
        client.close()
    assert received["data"].decode() == payload
    assert again != payload
    assert json.loads(again)["clock"]["version"] == 1
