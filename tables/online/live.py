"""Live updates of online tables: ONE server-sent-event stream per browser tab for all its tables
(what is published on it: tables.online.publish).

The stream only nudges ("table 7 is at version 42"): no card, no amount. The page then fetches
its viewer's fragment with a conditional GET (docs/architecture.md, "Live updates"), so a hole
card can only ever be in a response to its owner. The stream also tells the server that the
player's browser is there (R3.10: the disconnect protection needs a drop the server saw).
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from tables.online.models import OnlineTable, Presence
from tables.online.play import reconnected
from tables.online.publish import nudge, table_channel, user_channel
from tournaments.live import HEARTBEAT_SECONDS, RETRY_MS, SyncPoller, get_hub
from tournaments.live_clock import BusMessage

MAX_TABLES = 8  # tables one tab follows
# The events process does a stream's database work in a thread of the stream's own, each time
# on a new connection (CONN_MAX_AGE=0). 600 tabs arriving within a second (or reconnecting after
# a restart) opened that many connections at once: PostgreSQL refused the rest ("too many
# clients"), and streams, pages and the Celery worker failed (bench/online_tables.py).
DATABASE_CALLS_AT_ONCE = 8
_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


async def in_database[T](work: Callable[..., T], *args: object) -> T:
    """``work(*args)`` in the stream's thread, at most DATABASE_CALLS_AT_ONCE at once in this
    process; ``work`` closes its connection before it returns."""
    loop = asyncio.get_running_loop()
    gate = _gates.get(loop)
    if gate is None:
        gate = _gates[loop] = asyncio.Semaphore(DATABASE_CALLS_AT_ONCE)
    async with gate:
        return await sync_to_async(work)(*args)


def _frame(data: str) -> str:
    return "event: changed\n" + f"data: {data}\n\n"


def _versions(table_ids: Sequence[int]) -> list[str]:
    """The tables' current versions, as frames for a tab that (re)connects."""
    try:
        rows = OnlineTable.objects.filter(pk__in=table_ids).values_list("pk", "version")
        return [_frame(nudge(pk, version)) for pk, version in rows]
    finally:
        if not connection.in_atomic_block:
            connection.close()


# -- presence (R3.10) --------------------------------------------------------------------------


def stream_opened(user_id: int) -> None:
    """A tab of the player opened its stream; back after a drop: more time on his turn."""
    try:
        with transaction.atomic():
            presence, _ = Presence.objects.select_for_update().get_or_create(user_id=user_id)
            was_dropped = presence.streams <= 0 and presence.dropped_at is not None
            presence.streams = max(presence.streams, 0) + 1
            presence.last_seen = timezone.now()
            presence.dropped_at = None
            presence.save()
        if was_dropped:
            reconnected(user_id=user_id)  # R3.10
    finally:
        if not connection.in_atomic_block:
            connection.close()


def stream_alive(user_id: int) -> None:
    """The stream's heartbeat: the browser is still there."""
    try:
        Presence.objects.filter(user_id=user_id).update(last_seen=timezone.now())
    finally:
        if not connection.in_atomic_block:
            connection.close()


def stream_closed(user_id: int) -> None:
    """A tab's stream ended; the last one to end is a drop the server saw (R3.10)."""
    try:
        Presence.objects.filter(user_id=user_id).update(streams=F("streams") - 1)
        Presence.objects.filter(user_id=user_id, streams__lte=0).update(
            streams=0, dropped_at=timezone.now()
        )
    finally:
        if not connection.in_atomic_block:
            connection.close()


# -- the streams -------------------------------------------------------------------------------


async def stream_tables(
    table_ids: Sequence[int], *, user_id: int | None, heartbeat: float = HEARTBEAT_SECONDS
) -> AsyncIterator[str]:
    """Server-sent events for a tab's tables: their versions now, then every change."""
    hub = await get_hub()
    channels = [table_channel(table_id) for table_id in table_ids]
    if user_id is not None:
        channels.append(user_channel(user_id))
    queues = [(channel, hub.subscribe(channel)) for channel in channels]
    merged: asyncio.Queue[BusMessage] = asyncio.Queue(maxsize=64)
    pumps = [asyncio.create_task(_pump(queue, merged)) for _channel, queue in queues]
    try:
        if user_id is not None:
            # Shielded like its closing below: the count stays right if the tab goes meanwhile.
            await asyncio.shield(in_database(stream_opened, user_id))
        yield f"retry: {RETRY_MS}\n: connected\n\n"
        for frame in await in_database(_versions, table_ids):
            yield frame
        while True:
            try:
                async with asyncio.timeout(heartbeat):
                    message = await merged.get()
            except TimeoutError:
                if user_id is not None:
                    await in_database(stream_alive, user_id)
                yield ": heartbeat\n\n"
                continue
            yield _frame(message.raw)
    finally:
        for pump in pumps:
            pump.cancel()
        for channel, queue in queues:
            hub.unsubscribe(channel, queue)
        if user_id is not None:
            await asyncio.shield(in_database(stream_closed, user_id))


async def _pump(source: asyncio.Queue[BusMessage], target: asyncio.Queue[BusMessage]) -> None:
    while True:
        message = await source.get()
        if target.full():
            target.get_nowait()  # a slow tab loses its oldest nudge; the newest holds the version
        target.put_nowait(message)


def stream_tables_sync(
    table_ids: Sequence[int], *, user_id: int | None, seconds: float, heartbeat: float = 5.0
) -> Iterator[str]:
    """The same stream for a WSGI server (the test server): bounded, the browser reconnects."""
    deadline = time.monotonic() + seconds
    beat = time.monotonic() + heartbeat
    if user_id is not None:
        stream_opened(user_id)
    try:
        channels = [table_channel(table_id) for table_id in table_ids]
        if user_id is not None:
            channels.append(user_channel(user_id))
        with SyncPoller(*channels) as poller:
            yield f"retry: {RETRY_MS}\n: connected\n\n"
            yield from _versions(table_ids)
            while time.monotonic() < deadline:
                messages = poller.poll()
                for message in messages:
                    yield _frame(message.raw)
                if not messages and time.monotonic() >= beat:
                    beat = time.monotonic() + heartbeat
                    if user_id is not None:
                        stream_alive(user_id)
                    yield ": heartbeat\n\n"
    finally:
        if user_id is not None:
            stream_closed(user_id)


def drop_stale_presence(*, older_than: timedelta = timedelta(minutes=2)) -> int:
    """Streams of a process that died never said goodbye: count them as dropped."""
    cutoff = timezone.now() - older_than
    return Presence.objects.filter(streams__gt=0, last_seen__lt=cutoff).update(
        streams=0, dropped_at=F("last_seen")
    )
