"""The live bus: what is published reaches the process's one listener and the open streams."""

from __future__ import annotations

import asyncio
import json
import os
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from tournaments import live
from tournaments.models import LiveMessage

REDIS_URL = os.environ.get("REDIS_URL", "")


def run(coroutine, timeout=10):
    async def bounded():
        async with asyncio.timeout(timeout):
            return await coroutine

    return asyncio.run(bounded())


async def receive_one(listen, *, event_id=7):
    hub = live.Hub(listen)
    await hub.start()
    try:
        queue = hub.subscribe(live.channel_for(event_id))
        other = hub.subscribe(live.channel_for(event_id + 1))
        await sync_to_async(live.publish_event_changed)(event_id=event_id, what="clock")
        payload = json.loads(await asyncio.wait_for(queue.get(), 5))
        assert other.empty()
        return payload
    finally:
        await hub.stop()


@pytest.mark.django_db(transaction=True)
def test_db_bus_publish_then_listen_receives_it(settings):
    settings.LIVE_BUS = "db"
    LiveMessage.objects.create(channel="event:7", payload="old")  # before the listener: skipped
    payload = run(receive_one(live.listen_db))
    assert payload["event"] == 7
    assert payload["what"] == "clock"


@pytest.mark.skipif(not REDIS_URL, reason="needs the real Redis at REDIS_URL")
@pytest.mark.django_db(transaction=True)
def test_redis_bus_publish_then_the_hub_queue_receives_it(settings):
    settings.LIVE_BUS = "redis"
    settings.REDIS_URL = REDIS_URL
    live._redis.cache_clear()
    try:
        payload = run(receive_one(live.listen_redis, event_id=9001))
    finally:
        live._redis.cache_clear()
    assert payload == {"event": 9001, "what": "clock", "at": payload["at"]}
    assert LiveMessage.objects.count() == 0  # Redis, not the table


@pytest.mark.django_db(transaction=True)
def test_one_hub_per_event_loop_and_streams_share_it(settings):
    settings.LIVE_BUS = "db"

    async def scenario():
        first = await live.get_hub()
        second = await live.get_hub()
        assert first is second
        await first.stop()

    run(scenario())


@pytest.mark.django_db(transaction=True)
def test_the_stream_sends_changed_then_cleans_up_when_the_client_goes(settings):
    settings.LIVE_BUS = "db"

    async def scenario():
        stream = live.stream_event(42, heartbeat=0.2)
        hello = await anext(stream)
        assert hello.startswith("retry: 2000\n")
        hub = await live.get_hub()
        assert hub.subscribers(live.channel_for(42)) == 1
        assert await anext(stream) == ": heartbeat\n\n"
        await sync_to_async(live.publish_event_changed)(event_id=42, what="level")
        chunk = await anext(stream)
        while chunk.startswith(":"):
            chunk = await anext(stream)
        assert chunk.startswith("event: changed\ndata: {")
        assert json.loads(chunk.split("data: ", 1)[1])["what"] == "level"
        # The client disconnects: the server cancels the task reading the stream.
        reader = asyncio.create_task(anext(stream))
        await asyncio.sleep(0.05)
        reader.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reader
        assert hub.subscribers(live.channel_for(42)) == 0
        await hub.stop()

    run(scenario())


@pytest.mark.django_db(transaction=True)
def test_the_wsgi_stream_polls_the_bus_and_ends(settings):
    settings.LIVE_BUS = "db"
    stream = live.stream_event_sync(5, seconds=1.0, heartbeat=0.2)
    assert next(stream).startswith("retry: 2000\n")
    live.publish_event_changed(event_id=5, what="clock")
    live.publish_event_changed(event_id=6, what="clock")  # another event: not on this stream
    chunks = list(stream)
    changed = [c for c in chunks if c.startswith("event: changed")]
    assert len(changed) == 1
    assert '"event": 5' in changed[0]
    assert ": heartbeat\n\n" in chunks


@pytest.mark.django_db
def test_a_bus_failure_does_not_break_the_floor_action(settings, caplog):
    settings.LIVE_BUS = "redis"
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    live._redis.cache_clear()
    try:
        live.publish_event_changed(event_id=1, what="clock")
    finally:
        live._redis.cache_clear()
    assert "could not publish" in caplog.text


@pytest.mark.django_db
def test_old_db_messages_are_pruned(settings):
    settings.LIVE_BUS = "db"
    old = timezone.now() - timedelta(hours=1)
    for _ in range(live.DB_PRUNE_EVERY + 1):
        LiveMessage.objects.create(channel="event:1", payload="{}", created_at=old)
    while (LiveMessage.objects.order_by("-id").first().pk + 1) % live.DB_PRUNE_EVERY:
        LiveMessage.objects.create(channel="event:1", payload="{}", created_at=old)
    live.publish_event_changed(event_id=1, what="clock")
    assert list(LiveMessage.objects.values_list("created_at", flat=True)) != []
    assert not LiveMessage.objects.filter(created_at__lt=timezone.now() - live.DB_KEEP).exists()
