"""Live updates of online tables: ONE server-sent-event stream per browser tab for all its tables.

The stream only nudges ("table 7 is at version 42"): no card, no amount. The page then fetches
its viewer's fragment with a conditional GET (docs/architecture.md, "Live updates"), so a hole
card can only ever be in a response to its owner. The stream also tells the server that the
player's browser is there (R3.10: the disconnect protection needs a drop the server saw).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from tables.online.models import OnlineTable, Presence
from tables.online.selectors import build_snapshot
from tournaments.live import HEARTBEAT_SECONDS, RETRY_MS, SyncPoller, get_hub, publish
from tournaments.live_clock import BusMessage, namespace

logger = logging.getLogger(__name__)

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


def table_channel(table_id: int) -> str:
    """The bus channel of one online table (of this installation's database)."""
    return f"{namespace()}:table:{table_id}"


def user_channel(user_id: int) -> str:
    """The bus channel of one player's private events (his turn, his chips), his tabs only."""
    return f"{namespace()}:user:{user_id}"


def publish_user_event(
    user_id: int, *, what: str, table_id: int | None = None, event_id: int | None = None
) -> None:
    """Tell the player's own tabs that something of his changed (after the commit). Like the
    public nudges it carries no card and no amount: the tab fetches what it may see. An online
    event's news names the event, so a player in two events follows each to its own table."""
    try:
        message: dict[str, object] = {"user": user_id, "what": what, "table": table_id}
        if event_id is not None:
            message["event"] = event_id
        payload = json.dumps(message)
        publish(user_channel(user_id), payload)
    except Exception:
        logger.exception("could not publish %s to user %s", what, user_id)


def nudge(table_id: int, version: int) -> str:
    """The stream's whole message about a table: which, and its version. Nothing secret."""
    return json.dumps({"table": table_id, "version": version})


def publish_table_changed(table_id: int) -> None:
    """Tell every open page of the table that it changed (called after the commit). The new
    version's snapshot is read first, so the pages that fetch their fragment on the nudge find
    it in the cache (tables.online.selectors.TableSnapshot)."""
    try:
        snapshot = build_snapshot(table_id)
        if snapshot is not None:
            publish(table_channel(table_id), nudge(table_id, snapshot.table.version))
    except Exception:
        # The change is committed; every page still finds it by its conditional GET polling.
        logger.exception("could not publish a change of table %s", table_id)


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
    from tables.online.play import reconnected  # the play services import this module

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
