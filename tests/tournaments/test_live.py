"""The live bus: what is published reaches the process's one listener and the open streams."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from datetime import timedelta

import pytest
import redis
from asgiref.sync import sync_to_async
from django.db import connections
from django.utils import timezone

from tables.services import draw_seats
from tests.factories import make_event
from tests.integration.conftest import wait_until
from tournaments import live
from tournaments.entry_services import register_entry
from tournaments.live_clock import state_key
from tournaments.models import LiveMessage

REDIS_URL = os.environ.get("REDIS_URL", "")


def run(coroutine, timeout=10):
    """Run a scenario; then close the database connection of asgiref's one sync thread, which
    sync_to_async and the hub's listener used (left open, the test database could not be
    dropped at the end: "being accessed by other users")."""

    async def bounded():
        try:
            async with asyncio.timeout(timeout):
                return await coroutine
        finally:
            await sync_to_async(connections.close_all)()

    return asyncio.run(bounded())


async def receive_one(listen, *, event_id, what="clock"):
    hub = live.Hub(listen)
    await hub.start()
    try:
        queue = hub.subscribe(live.channel_for(event_id))
        other = hub.subscribe(live.channel_for(event_id + 1))
        await sync_to_async(live.publish_event_changed)(event_id=event_id, what=what)
        message = await asyncio.wait_for(queue.get(), 5)
        assert other.empty()
        return message
    finally:
        await hub.stop()


@pytest.mark.django_db(transaction=True)
def test_db_bus_publish_then_listen_receives_the_clock_state(settings):
    settings.LIVE_BUS = "db"
    event = make_event()
    LiveMessage.objects.create(channel=live.channel_for(event.pk), payload="old")  # skipped
    message = run(receive_one(live.listen_db, event_id=event.pk))
    assert message.is_clock
    assert (message.data["event"], message.data["what"]) == (event.pk, "clock")
    assert message.data["clock"]["status"] == "not_started"
    assert 'id="clock"' in message.data["clock"]["views"]["en"]["html"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("what", ["standings", "seats"])
def test_anything_but_the_clock_goes_out_with_the_events_board(settings, what):
    """Issue 17: the board (standings, chip-up banner) travels with the change, in every
    language, so that no page fetches it."""
    settings.LIVE_BUS = "db"
    event = make_event()
    message = run(receive_one(live.listen_db, event_id=event.pk, what=what))
    assert not message.is_clock
    assert sorted(message.data) == ["at", "board", "event", "what"]
    assert (message.data["event"], message.data["what"]) == (event.pk, what)
    assert message.board_stamp == message.data["board"]["stamp"] > 0
    views = message.data["board"]["views"]
    assert sorted(views) == ["de", "en"]
    assert "Nobody is out yet." in views["en"]["standings"]
    assert "Noch ist niemand ausgeschieden." in views["de"]["standings"]
    assert sorted(views["en"]) == ["chip_up", "standings"]


@pytest.mark.django_db(transaction=True)
def test_a_change_of_a_gone_event_goes_out_as_a_nudge(settings):
    settings.LIVE_BUS = "db"
    event = make_event()
    event_id = event.pk
    event.delete()
    message = run(receive_one(live.listen_db, event_id=event_id, what="standings"))
    assert sorted(message.data) == ["at", "event", "what"]


@pytest.mark.skipif(not REDIS_URL, reason="needs the real Redis at REDIS_URL")
@pytest.mark.django_db(transaction=True)
def test_redis_bus_publish_then_the_hub_queue_receives_it(settings):
    settings.LIVE_BUS = "redis"
    settings.REDIS_URL = REDIS_URL
    live._redis.cache_clear()
    event = make_event()
    try:
        message = run(receive_one(live.listen_redis, event_id=event.pk))
        held = live._redis().hget(state_key(event.pk), "payload")
        live._redis().delete(state_key(event.pk))
    finally:
        live._redis.cache_clear()
    assert (message.data["event"], message.data["what"]) == (event.pk, "clock")
    assert held.decode() == message.raw  # kept for the tabs that connect later
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


async def client_goes(stream):
    """The client disconnects: the server cancels the task reading the stream."""
    reader = asyncio.create_task(anext(stream))
    await asyncio.sleep(0.05)
    reader.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reader


def skip_comments(stream):
    async def next_frame():
        chunk = (await anext(stream)).decode()
        while chunk.startswith(":"):
            chunk = (await anext(stream)).decode()
        return chunk

    return next_frame


@pytest.mark.django_db(transaction=True)
def test_the_stream_sends_the_state_then_changes_then_cleans_up_when_the_client_goes(settings):
    settings.LIVE_BUS = "db"
    event = make_event()

    async def scenario():
        stream = live.stream_event(event.pk, heartbeat=0.2)
        next_frame = skip_comments(stream)
        hello = await anext(stream)
        assert hello.startswith(b"retry: 2000\n")
        current = (await anext(stream)).decode()  # a tab that says nothing gets the state at once
        assert current.startswith("id: 0.")
        assert "\nevent: clock\ndata: {" in current
        board = (await anext(stream)).decode()  # and the event's board
        assert board.startswith("event: standings\ndata: {")
        hub = await live.get_hub()
        assert hub.subscribers(live.channel_for(event.pk)) == 1
        assert await anext(stream) == b": heartbeat\n\n"
        await sync_to_async(live.publish_event_changed)(event_id=event.pk, what="standings")
        chunk = await next_frame()
        assert chunk.startswith("event: standings\ndata: {")
        assert "\nid:" not in chunk  # the tab's Last-Event-ID stays its clock's
        newer = json.loads(chunk.split("data: ", 1)[1])
        assert newer["stamp"] > json.loads(board.split("data: ", 1)[1])["stamp"]
        assert "Nobody is out yet." in newer["standings"]
        await sync_to_async(live.publish_event_changed)(event_id=event.pk, what="level")
        chunk = await next_frame()
        assert chunk.startswith("id: 0.")
        assert json.loads(chunk.split("data: ", 1)[1])["what"] == "level"
        # A level change moves the purchase windows and the chip-ups due: the board follows.
        assert (await next_frame()).startswith("event: standings\ndata: {")
        await client_goes(stream)
        assert hub.subscribers(live.channel_for(event.pk)) == 0
        await hub.stop()

    run(scenario())


@pytest.mark.django_db(transaction=True)
def test_the_wsgi_stream_polls_the_bus_and_ends(settings):
    settings.LIVE_BUS = "db"
    mine = make_event()
    other = make_event(structure=mine.structure)
    stream = (
        chunk.decode() for chunk in live.stream_event_sync(mine.pk, seconds=1.0, heartbeat=0.2)
    )
    assert next(stream).startswith("retry: 2000\n")
    assert "event: clock" in next(stream)  # the current state
    assert next(stream).startswith("event: standings\n")  # and the board
    live.publish_event_changed(event_id=mine.pk, what="standings")
    live.publish_event_changed(event_id=other.pk, what="standings")  # not on this stream
    chunks = list(stream)
    boards = [c for c in chunks if c.startswith("event: standings")]
    assert len(boards) == 1
    assert ": heartbeat\n\n" in chunks


def _publish_news(user_id, **message):
    """What the online tables publish on a player's own channel (tables.online.publish)."""
    live.publish(live.user_channel(user_id), json.dumps({"user": user_id, **message}))


@pytest.mark.django_db(transaction=True)
def test_an_online_events_stream_says_mine_for_the_players_own_news_of_the_event(settings):
    """Issue 17: the online event's page polled its player's part every 3 s. Its stream now
    says "mine" when his own news names the event (seated, moved, out), and nothing for the
    rest of his channel (his hole cards and buttons at a table stay on his table's stream),
    another event's news or another player's."""
    settings.LIVE_BUS = "db"
    event = make_event()
    other = make_event(structure=event.structure)

    async def scenario():
        stream = live.stream_event(event.pk, heartbeat=60, user_id=7)
        next_frame = skip_comments(stream)
        assert (await anext(stream)).startswith(b"retry: 2000\n")
        assert (await next_frame()).startswith("id: 0.")  # the clock
        assert (await next_frame()).startswith("event: standings")  # the board
        hub = await live.get_hub()
        assert hub.subscribers(live.user_channel(7)) == 1
        publish = sync_to_async(_publish_news)
        await publish(7, what="moved", table=3, event=other.pk)  # another event
        await publish(8, what="out", table=3, event=event.pk)  # another player
        await publish(7, what="chips", table=3)  # a cash table's chips
        await publish(7, table=3, version=9, parts={"cards": "As Kd"})  # his part at a table
        await publish(7, what="out", table=3, event=event.pk)
        assert await next_frame() == "event: mine\ndata: {}\n\n"
        await sync_to_async(live.publish_event_changed)(event_id=event.pk, what="standings")
        assert (await next_frame()).startswith("event: standings")  # nothing came between
        # The bus dropped and came back: his news of the gap may be lost, his part looks again.
        hub.subscribed()
        assert (await next_frame()).startswith("event: standings")  # the board as it stands
        assert await next_frame() == "event: mine\ndata: {}\n\n"
        await client_goes(stream)
        assert hub.subscribers(live.user_channel(7)) == 0
        assert hub.subscribers(live.channel_for(event.pk)) == 0
        await hub.stop()

    run(scenario())


@pytest.mark.django_db(transaction=True)
def test_the_wsgi_stream_says_mine_for_the_players_own_news_of_the_event(settings):
    settings.LIVE_BUS = "db"
    event = make_event()
    frames = live.stream_event_sync(event.pk, seconds=1.0, heartbeat=5.0, user_id=7)
    stream = (chunk.decode() for chunk in frames)
    assert next(stream).startswith("retry: 2000\n")
    assert "event: clock" in next(stream)
    assert next(stream).startswith("event: standings\n")
    _publish_news(7, table=3, version=9, parts={"cards": "As Kd"})  # his part at a table
    _publish_news(7, what="moved", table=4, event=event.pk + 1)  # another event
    _publish_news(7, what="moved", table=4, event=event.pk)
    assert [chunk for chunk in stream if not chunk.startswith(":")] == ["event: mine\ndata: {}\n\n"]


def test_a_full_queue_drops_its_oldest_message_never_the_newest():
    async def scenario():
        hub = live.Hub(live.listen_db)
        queue = hub.subscribe("event:1")
        for number in range(live.QUEUE_SIZE + 3):
            hub.dispatch("event:1", json.dumps({"n": number}))
        return [json.loads((await queue.get()).raw)["n"] for _ in range(queue.qsize())]

    received = run(scenario())
    assert received == list(range(3, live.QUEUE_SIZE + 3))


@pytest.mark.django_db
def test_a_bus_failure_does_not_break_the_floor_action(settings, caplog):
    settings.LIVE_BUS = "redis"
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    live._redis.cache_clear()
    event = make_event()
    try:
        live.publish_event_changed(event_id=event.pk, what="clock")
    finally:
        live._redis.cache_clear()
    assert "could not publish" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_a_change_whose_publishing_failed_goes_out_again_as_it_then_stands(settings, monkeypatch):
    """Issue 17: a web process that could not reach Redis left its change to the pages' polls,
    every 120 s while their streams are up (the events process, still subscribed, never knew).
    It now publishes again a moment later from a thread, the board as it then stands."""
    settings.LIVE_BUS = "db"
    settings.LIVE_PUBLISH_RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
    event = make_event()
    down = [True]
    failed = []
    real = live.publish

    def flaky(channel, payload):
        if down[0]:
            failed.append(channel)
            raise redis.ConnectionError("Redis is out of reach")
        real(channel, payload)

    monkeypatch.setattr(live, "publish", flaky)
    channel = live.channel_for(event.pk)
    live.publish_event_changed(event_id=event.pk, what="standings")
    # Changes committed meanwhile, each one's own publish lost too: in the board that goes out.
    for name in ("Anna", "Bernd"):
        register_entry(event_id=event.pk, actor=None, name=name, check_in=True)
    draw_seats(event_id=event.pk, actor=None, tables=1)
    assert len(failed) >= 4 and not LiveMessage.objects.filter(channel=channel).exists()
    down[0] = False  # Redis is back
    wait_until(
        lambda: LiveMessage.objects.filter(channel=channel).exists(), timeout=30, what="the retry"
    )
    wait_until(lambda: not live.event_retries.pending, timeout=30, what="no retry on its way")
    published = LiveMessage.objects.filter(channel=channel).values_list("payload", flat=True)
    boards = [json.loads(payload)["board"] for payload in published]
    newest = max(boards, key=lambda board: board["stamp"])
    assert 'players-left">2 / 2<' in newest["views"]["en"]["standings"]
    assert len(boards) <= 2  # one retry for them all (twice if a change came as it read)


@pytest.mark.django_db(transaction=True)
def test_a_change_that_cannot_be_published_is_given_up_after_the_last_pause(
    settings, monkeypatch, caplog
):
    settings.LIVE_BUS = "db"
    # The first pause long enough that the second change joins the retry on a busy machine too.
    settings.LIVE_PUBLISH_RETRY_SECONDS = (1.0, 0.05)
    event = make_event()
    tries = []

    def down(channel, payload):
        tries.append(channel)
        raise redis.ConnectionError("Redis is out of reach")

    monkeypatch.setattr(live, "publish", down)
    live.publish_event_changed(event_id=event.pk, what="standings")
    live.publish_event_changed(event_id=event.pk, what="standings")  # joins the retry under way
    wait_until(lambda: not live.event_retries.pending, timeout=30, what="the retries given up")
    assert len(tries) == 2 + 2  # the two changes, then one retry after each pause
    assert "gave up publishing standings" in caplog.text


def test_the_retries_of_many_changes_go_out_one_after_another_in_one_thread(settings):
    """A Redis outage with many tables in play: every table's change goes out again, from one
    thread of the process (one database connection), not from a thread each."""
    settings.LIVE_PUBLISH_RETRY_SECONDS = (0.05, 0.05)
    threads, published = set(), []

    def again(key):
        threads.add(threading.get_ident())
        published.append(key)
        return True

    retries = live.Retries(again, name=str)
    for key in range(50):
        retries.failed(key)
    wait_until(lambda: not retries.pending, timeout=30, what="every retry out")
    assert sorted(published) == list(range(50))
    assert len(threads) == 1 and threading.get_ident() not in threads


@pytest.mark.django_db
def test_old_db_messages_are_pruned(settings):
    settings.LIVE_BUS = "db"
    old = timezone.now() - timedelta(hours=1)
    for _ in range(live.DB_PRUNE_EVERY + 1):
        LiveMessage.objects.create(channel="event:1", payload="{}", created_at=old)
    while (LiveMessage.objects.order_by("-id").first().pk + 1) % live.DB_PRUNE_EVERY:
        LiveMessage.objects.create(channel="event:1", payload="{}", created_at=old)
    live.publish_event_changed(event_id=1, what="standings")
    assert list(LiveMessage.objects.values_list("created_at", flat=True)) != []
    assert not LiveMessage.objects.filter(created_at__lt=timezone.now() - live.DB_KEEP).exists()


async def quiet_stream(monkeypatch, *, heartbeat):
    """A stream on a hub of its own (no bus, no database): its hub, channel and the stream."""

    async def listen(hub):
        hub.ready.set()
        await asyncio.Event().wait()

    hub = live.Hub(listen)
    monkeypatch.setitem(live._hubs, asyncio.get_running_loop(), hub)
    monkeypatch.setattr(live, "_current_clock", lambda event_id, version: None)
    stream = live.stream_event(1, heartbeat=heartbeat)
    assert (await anext(stream)).startswith(b"retry: 2000\n")
    return hub, live.channel_for(1), stream


def test_a_heartbeat_follows_silence_only(monkeypatch):
    """A heartbeat comes after ``heartbeat`` seconds without a frame, not between messages that
    come more often, and again after every further silence."""

    async def scenario():
        hub, channel, stream = await quiet_stream(monkeypatch, heartbeat=0.4)
        reader = asyncio.create_task(anext(stream))
        chunks = []
        for number in range(8):  # a message every 0.1 s for 0.8 s: never 0.4 s of silence
            hub.dispatch(channel, json.dumps({"event": 1, "what": "standings", "n": number}))
            chunks.append(await reader)
            reader = asyncio.create_task(anext(stream))
            await asyncio.sleep(0.1)
        assert all(chunk.startswith(b"event: changed\n") for chunk in chunks)
        quiet_since = asyncio.get_running_loop().time()
        assert await reader == b": heartbeat\n\n"
        assert asyncio.get_running_loop().time() - quiet_since >= 0.2  # 0.4 s after the last
        assert await anext(stream) == b": heartbeat\n\n"  # and again
        await stream.aclose()

    run(scenario())


def test_a_message_arms_no_timer_on_a_stream(monkeypatch):
    """Issue 17: a timeout around every wait armed and cancelled a timer per stream and
    message, 500 timers per clock change with 500 phones; the heartbeat arms one per beat."""

    async def scenario():
        loop = asyncio.get_running_loop()
        hub, channel, stream = await quiet_stream(monkeypatch, heartbeat=30)
        armed = []
        call_at = loop.call_at
        monkeypatch.setattr(loop, "call_at", lambda *a, **k: armed.append(a) or call_at(*a, **k))
        for number in range(50):
            reader = asyncio.create_task(anext(stream))
            await asyncio.sleep(0)
            hub.dispatch(channel, json.dumps({"event": 1, "what": "standings", "n": number}))
            assert (await reader).startswith(b"event: changed\n")
        assert len(armed) <= 1
        await stream.aclose()

    run(scenario())


def _backend_pid() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def _terminate(pid: int) -> None:
    """End a backend as a PostgreSQL restart or an administrator would, from another thread's
    connection (then closed)."""
    from django.db import connection

    deadline = time.monotonic() + 30  # a generous cap on a loaded machine
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
            assert cursor.fetchone()[0]
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
            while cursor.fetchone()[0]:  # until the backend has gone
                assert time.monotonic() < deadline, f"backend {pid} still there after 30 s"
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
    finally:
        connection.close()


def _publish_elsewhere(event_id: int, what: str) -> None:
    from django.db import connection

    try:
        live.publish_event_changed(event_id=event_id, what=what)
    finally:
        connection.close()


def _others(besides: int) -> int:
    """The backends on the test database other than this thread's own and ``besides``."""
    from django.db import connection

    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND pid <> %s",
                [besides],
            )
            return int(cursor.fetchone()[0])
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_the_db_bus_listener_outlives_its_connection_ending_and_closes_it_when_stopped(settings):
    """The database bus's listener polls on asgiref's one sync thread. When the database drops
    that connection (a restart), the next poll opens a new one instead of failing for ever; a
    stopped listener leaves no connection open (the test database could not be dropped)."""
    from django.db import connection

    assert connection.vendor == "postgresql", "scripts/test.sh runs the suite on PostgreSQL"
    settings.LIVE_BUS = "db"
    event = make_event()
    channel = live.channel_for(event.pk)

    async def scenario():
        hub = live.Hub(live.listen_db)
        await hub.start()
        try:
            queue = hub.subscribe(channel)
            await sync_to_async(live.publish_event_changed)(event_id=event.pk, what="standings")
            await asyncio.wait_for(queue.get(), 30)
            pid = await sync_to_async(_backend_pid)()  # the sync thread's: the listener's too
            await sync_to_async(_terminate, thread_sensitive=False)(pid)
            # Published elsewhere, as a web process or the worker would.
            await sync_to_async(_publish_elsewhere, thread_sensitive=False)(event.pk, "seats")
            message = await asyncio.wait_for(queue.get(), 30)
            assert message.data["what"] == "seats"
        finally:
            await hub.stop()
        # Nothing else used the sync thread: what it holds now the listener left behind.
        return await sync_to_async(_others, thread_sensitive=False)(mine)

    mine = _backend_pid()  # this test's own connection, which made the event
    assert asyncio.run(scenario()) == 0
