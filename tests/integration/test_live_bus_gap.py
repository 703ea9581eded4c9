"""The events process's one subscription to Redis drops (a Redis restart, a failover, a network
blip) and comes back: pub/sub keeps nothing for a subscriber that was away, so what was
published meanwhile never reaches the process. Every open stream then catches up by itself,
from where it stood, without waiting for the next change (issue 17): a table's stream gets the
versions it missed and the viewer's own part (his turn: without it his buttons would not show
until his time ran out), a clock's stream the clock and the event's board (standings, chip-up
banner) as they stand, read once in the process for all of the event's streams.

In-process with the real Redis: the hub and the streams run in the test's event loop, the
changes in the test's thread as a web process's would. The hub's connection is ended by name
(``CLIENT KILL``), and its pause before subscribing again is held by the test, so the change is
published while the process is certainly away.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator

import pytest
import redis
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.db import connections

from scoring.services import StackInput, record_busts
from tables.online import live as online_live
from tables.online import play as online_play
from tables.online.models import OnlineTable
from tests.factories import make_entries, make_event
from tests.tables.online_helpers import check_or_call, make_table, seat_players, stacked_deck
from tournaments import live
from tournaments.models import Event
from tournaments.services import ClockAction, act_on_clock

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

CAP = 30.0  # seconds: a generous cap for a loaded machine; the frames come at once


@pytest.fixture
def bus(settings, redis_test_url, monkeypatch) -> Iterator[asyncio.Event]:
    """The Redis bus and cache on the test's own Redis database; the listener's pause before
    it subscribes again lasts until the event returned is set (the process is let back)."""
    settings.LIVE_BUS = "redis"
    settings.REDIS_URL = redis_test_url
    settings.CACHES = {
        "default": {"BACKEND": "config.cache.RedisCache", "LOCATION": redis_test_url}
    }
    live._redis.cache_clear()
    back = asyncio.Event()  # bound to the loop that first waits on it

    async def held_pause() -> None:
        await back.wait()

    monkeypatch.setattr(live, "reconnect_pause", held_pause)
    yield back
    live._redis.cache_clear()


def run(coroutine):
    async def bounded():
        try:
            async with asyncio.timeout(3 * CAP):
                return await coroutine
        finally:
            hub = live._hubs.get(asyncio.get_running_loop())
            if hub is not None:
                await hub.stop()
            await sync_to_async(connections.close_all)()

    return asyncio.run(bounded())


async def drop_the_bus(hub: live.Hub) -> None:
    """End the hub's connection as a Redis restart would, and wait until it knows."""
    client = redis.Redis.from_url(live.settings.REDIS_URL)
    try:
        mine = [c for c in client.client_list() if c.get("name") == live.listener_name()]
        assert len(mine) == 1, f"the hub's subscription is not named: {client.client_list()}"
        assert client.client_kill_filter(_id=mine[0]["id"]) == 1
    finally:
        client.close()
    async with asyncio.timeout(CAP):
        while hub.ready.is_set():
            await asyncio.sleep(0.02)


async def frames_until(stream: AsyncIterator, done, *, what: str) -> list:
    """Frames of ``stream`` (heartbeats aside) until ``done(frames)``; fails after CAP."""
    frames: list = []
    try:
        async with asyncio.timeout(CAP):
            while not done(frames):
                frame = await anext(stream)
                text = frame.decode() if isinstance(frame, bytes) else frame
                if not text.startswith(":") and not text.startswith("retry:"):
                    frames.append(text)
    except TimeoutError:
        pytest.fail(f"{what}: not within {CAP} s; the stream sent {frames}")
    return frames


def changed(frames: list[str]) -> list[dict]:
    found = []
    for frame in frames:
        fields = dict(line.split(": ", 1) for line in frame.strip().splitlines() if ": " in line)
        if fields.get("event") == "changed":
            found.append(json.loads(fields["data"]))
    return found


def boards(frames: list[str]) -> list[dict]:
    """The event's boards among ``frames`` (tournaments.live_board)."""
    found = [t for t in frames if t.startswith("event: standings")]
    return [json.loads(t.split("\ndata: ", 1)[1]) for t in found]


def counted(function, calls: list):
    def wrapper(*args):
        calls.append(args)
        return function(*args)

    return wrapper


def clock_of(frame: str) -> dict:
    return json.loads(frame.split("\ndata: ", 1)[1])


def _move(table_id: int) -> tuple[int, int]:
    """The player to act checks or calls; (the table's version after it, who moved)."""
    table = OnlineTable.objects.get(pk=table_id)
    user = check_or_call(table)
    table.refresh_from_db()
    return table.version, user.pk


def test_a_tables_stream_catches_up_on_what_was_published_while_the_bus_was_away(bus):
    table = make_table()
    alice, bob = seat_players(table, ["alice", "bob"])
    hand = online_play.deal_hand(table=table, deck=stacked_deck(["AhKd", "QsJs"]))
    assert hand is not None
    mover = User.objects.get(pk=hand.user_ids[hand.actor])
    viewer = bob if mover == alice else alice  # his turn comes with the next move

    async def scenario():
        stream = online_live.stream_tables(
            [table.pk], user_id=viewer.pk, heartbeat=CAP * 4, language="en"
        )
        first = await frames_until(stream, lambda f: len(f) >= 1, what="the table on connect")
        hub = await live.get_hub()
        assert hub.generation == 1
        await drop_the_bus(hub)
        version, moved = await sync_to_async(_move)(table.pk)  # published to nobody
        assert moved == mover.pk
        bus.set()
        caught = await frames_until(
            stream,
            lambda f: (
                any(m.get("version") == version for m in changed(f))
                and any("user" in m for m in changed(f))
            ),
            what="the missed version and the viewer's turn",
        )
        return first, caught, hub.generation

    first, caught, generation = run(scenario())
    assert generation == 2
    assert changed(first)[0]["table"] == table.pk
    messages = changed(caught)
    public = [m for m in messages if "user" not in m]
    assert public[-1]["version"] == OnlineTable.objects.get(pk=table.pk).version
    assert "en" in public[-1]["html"], "the public table itself, not a nudge to fetch it"
    own = [m for m in messages if "user" in m]
    assert {m["user"] for m in own} == {viewer.pk}  # only his own part, on his stream
    assert 'name="action"' in " ".join(m["html"]["en"] for m in own), "his buttons"


def test_a_clocks_stream_catches_up_on_what_was_published_while_the_bus_was_away(
    bus, floor_user, monkeypatch
):
    event = make_event()

    entries = make_entries(event=event, count=3, status="playing")
    readings = []
    monkeypatch.setattr(live, "_event_read_now", counted(live._event_read_now, readings))

    async def scenario():
        streams = [live.stream_event(event.pk, heartbeat=CAP * 4, version=0) for _ in range(3)]
        first = [
            await frames_until(s, lambda f: len(f) >= 2, what="the clock and board on connect")
            for s in streams
        ]
        hub = await live.get_hub()
        await drop_the_bus(hub)
        await sync_to_async(act_on_clock)(
            event_id=event.pk, actor=floor_user, action=ClockAction.START
        )  # published to nobody
        await sync_to_async(record_busts)(
            event_id=event.pk,
            actor=floor_user,
            busts=[StackInput(entry_id=entries[0].pk, stack=None)],
        )  # nor this
        bus.set()
        caught = [
            await frames_until(
                s,
                lambda f: any(t.startswith("id:") for t in f) and boards(f),
                what="the started clock and the board after the bust",
            )
            for s in streams
        ]
        return first, caught

    first, caught = run(scenario())
    assert clock_of(first[0][0])["status"] == "not_started"
    assert "Nobody is out yet." in boards(first[0])[0]["standings"]
    for frames in caught:
        clock = [clock_of(t) for t in frames if t.startswith("id:")]
        assert clock[0]["version"] == Event.objects.get(pk=event.pk).clock_version
        assert clock[0]["status"] == "running"
        (board,) = boards(frames)  # the standings as they stand, not a nudge to fetch them
        assert entries[0].player.name in board["standings"]
        assert "Nobody is out yet." not in board["standings"]
    # Three streams of the event in one process: the event read once for all of them.
    assert len(readings) == 1
