"""Live updates of online tables: ONE server-sent-event stream per browser tab for all its tables
(what is published on it: tables.online.publish).

The stream carries each table's public table per version and the viewer's own private part on
his own channel (docs/architecture.md, "Live updates"), so a hole card can only ever reach its
owner. Every message has an SSE id that says what the tab has: each table's version and the
number of the viewer's own messages (``t7=42,t8=13,p=105``). A tab that reconnects sends the
last one (``Last-Event-ID``, or ``?last=``) and gets what it missed, in order, from the
messages kept a while (tables.online.replay); when they are gone, the current table and its own
part at once. The stream also tells the server that the player's browser is there (R3.10: the
disconnect protection needs a drop the server saw), and a drop the others see on the table.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import weakref
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from tables.online import languages, replay
from tables.online.broadcast import private_message, public_message
from tables.online.models import OnlineTable, Presence, TableStatus
from tables.online.play import reconnected
from tables.online.publish import nudge, publish_table_changed, table_channel
from tables.online.selectors import table_snapshot
from tournaments.bounds import parse_id
from tournaments.live import (
    HEARTBEAT_SECONDS,
    RESYNC,
    RETRY_MS,
    SyncPoller,
    get_hub,
    user_channel,
)
from tournaments.live_clock import BusMessage

logger = logging.getLogger(__name__)

MAX_TABLES = 8  # tables one tab follows
# A player's last stream closed: the others see him disconnected after this, unless a stream of
# his opened meanwhile (a page reload closes one and opens the next within a second).
PRESENCE_GRACE_SECONDS = 2.0
# A stream's player is renewed as present this often (_Alive); the sweeper counts a presence
# silent for PRESENCE_STALE as dropped (a stream whose process died never said goodbye).
PRESENCE_REFRESH_SECONDS = 15.0
PRESENCE_STALE = timedelta(seconds=45)
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


@dataclass
class Cursor:
    """What one tab has: each table's version and the number (``seq``) of the viewer's last own
    message; every frame's SSE id says it, so the tab's ``Last-Event-ID`` is where to resume."""

    tables: dict[int, int]
    private: int | None  # None: nobody is logged in, no own messages
    replayed: set[int] = field(default_factory=set)  # own messages sent on connect
    covered: int = 0  # own messages up to this one: their parts were sent as they stand now

    def event_id(self) -> str:
        parts = [f"t{table}={version}" for table, version in sorted(self.tables.items())]
        if self.private is not None:
            parts.append(f"p={self.private}")
        return ",".join(parts)

    @staticmethod
    def parse(text: str | None) -> tuple[dict[int, int], int | None] | None:
        """The tables' versions and the own messages' number a tab sent; None: it sent none."""
        if not text or not text.strip():
            return None
        tables: dict[int, int] = {}
        private = None
        for part in text.strip().split(",")[: MAX_TABLES + 1]:  # the tables and the own count
            name, _equals, value = part.strip().partition("=")
            number = parse_id(value)
            if number is None:
                continue
            if name == "p":
                private = number
            elif name.startswith("t") and (table := parse_id(name[1:])) is not None:
                tables[table] = number
        return tables, private

    def admit(self, message: BusMessage) -> bool:
        """Whether ``message`` is news for the tab (a table's version it has is not); it is
        then counted as sent."""
        data = message.data
        if "user" in data:
            seq = data.get("seq")
            if isinstance(seq, int):
                if seq in self.replayed or seq <= self.covered:
                    return False  # sent on connect, or what it says was
                self.private = seq
            return True
        table, version = data.get("table"), data.get("version")
        if isinstance(table, int) and isinstance(version, int) and table in self.tables:
            if version <= self.tables[table]:
                return False
            self.tables[table] = version
        return True

    def frame(self, data: str) -> str:
        return f"event: changed\nid: {self.event_id()}\ndata: {data}\n\n"


def catch_up(
    table_ids: Sequence[int], *, user_id: int | None, last_event_id: str | None
) -> tuple[Cursor, list[str]]:
    """The frames a tab gets as its stream opens, and its cursor after them.

    A tab that says nothing gets each table's version (a nudge: it fetches what it lacks). A
    tab that reconnects gets the messages it missed in order: its tables' kept messages after
    the versions it has, then its own after the number it has; when some are gone (or nothing
    is kept: the database bus), the current table, or its own part of each table. Its own
    messages are read from the set of ``user_id``, the user of the request, whatever the id
    says: another player's id yields nothing of his.
    """
    try:
        tables = list(OnlineTable.objects.filter(pk__in=table_ids).order_by("pk"))
        count = None if user_id is None else replay.user_count(user_id)
        cursor = Cursor(tables={table.pk: table.version for table in tables}, private=count)
        said = Cursor.parse(last_event_id)
        if said is None:
            return cursor, [cursor.frame(nudge(table.pk, table.version)) for table in tables]
        had, seq = said
        own = None
        if user_id is not None and seq is not None:
            own = replay.user_since(user_id, seq)
            if own is not None:
                cursor.private = seq  # the ids of the tables' frames: his own still to come
        frames: list[str] = []
        for table in tables:
            have = had.get(table.pk)
            if have is None:
                frames.append(cursor.frame(nudge(table.pk, table.version)))
                continue
            if have == table.version:
                continue
            kept = replay.table_since(table.pk, table.created_at, have)
            if kept is None or have > table.version:
                frames.extend(_current_table(table, cursor))
                continue
            cursor.tables[table.pk] = have
            for payload in kept:
                message = BusMessage.parse(payload)
                if cursor.admit(message):
                    frames.append(cursor.frame(message.raw))
        if own is not None:
            messages, count = own
            for payload in messages:
                message = BusMessage.parse(payload)
                cursor.admit(message)
                seq_of = message.data.get("seq")
                if isinstance(seq_of, int):
                    cursor.replayed.add(seq_of)
                frames.append(cursor.frame(message.raw))
            cursor.private = max(cursor.private or 0, count)
        elif user_id is not None and seq is not None:
            # His own messages since are gone: his part of every table of the tab as it stands
            # (read after his count: those counted, arriving late on the bus, say no more).
            cursor.covered = count or 0
            frames.extend(_current_parts(tables, user_id, cursor))
        return cursor, frames
    finally:
        if not connection.in_atomic_block:
            connection.close()


def _catch_up(
    table_ids: Sequence[int], user_id: int | None, last_event_id: str | None
) -> tuple[Cursor, list[str]]:
    return catch_up(table_ids, user_id=user_id, last_event_id=last_event_id)


def _current_table(table: OnlineTable, cursor: Cursor) -> list[str]:
    """The table as it stands, for a tab that missed more of it than is kept."""
    snapshot = table_snapshot(table)
    if snapshot is None:
        return []
    try:
        message = json.dumps(public_message(snapshot))
    except Exception:
        logger.exception("could not render table %s for a tab: it fetches it", table.pk)
        message = nudge(table.pk, snapshot.table.version)
    cursor.tables[table.pk] = max(cursor.tables.get(table.pk, 0), snapshot.table.version)
    return [cursor.frame(message)]


def _current_parts(tables: Sequence[OnlineTable], user_id: int, cursor: Cursor) -> list[str]:
    """The viewer's own part of each table as it stands."""
    frames = []
    for table in tables:
        snapshot = table_snapshot(table)
        if snapshot is not None:
            frames.append(cursor.frame(json.dumps(private_message(snapshot, user_id))))
    return frames


# -- presence (R3.10) --------------------------------------------------------------------------


def stream_opened(user_id: int) -> bool:
    """A tab of the player opened its stream; back after a drop: more time on his turn.
    Returns whether his tables showed him disconnected (a drop longer than the grace)."""
    try:
        with transaction.atomic():
            presence, _ = Presence.objects.select_for_update().get_or_create(user_id=user_id)
            was_dropped = presence.streams <= 0 and presence.dropped_at is not None
            dropped_at = presence.dropped_at
            presence.streams = max(presence.streams, 0) + 1
            presence.last_seen = timezone.now()
            presence.dropped_at = None
            presence.save()
        if was_dropped:
            reconnected(user_id=user_id)  # R3.10
        # Half a second early: the drop's announcement may be on its way (a second one is no
        # harm, a missing one leaves him "disconnected" until the page's safety poll).
        shown = timedelta(seconds=max(PRESENCE_GRACE_SECONDS - 0.5, 0))
        return was_dropped and dropped_at is not None and timezone.now() - dropped_at >= shown
    finally:
        if not connection.in_atomic_block:
            connection.close()


def stream_alive(*user_ids: int) -> None:
    """Their streams are still open: the browsers are still there."""
    try:
        Presence.objects.filter(user_id__in=user_ids).update(last_seen=timezone.now())
    finally:
        if not connection.in_atomic_block:
            connection.close()


class _Alive:
    """The players with a stream open in this process's event loop. Their presence is renewed
    together every PRESENCE_REFRESH_SECONDS, whether their streams are busy or quiet: renewed
    only by a quiet stream's heartbeat, a player at a busy table (a message at least every 15
    s) was counted as dropped by the sweeper after two minutes of play, shown "Disconnected"
    to everyone, and given the disconnect protection at his next time-out (R3.10). One
    statement for them all, not one per stream."""

    def __init__(self) -> None:
        self.users: Counter[int] = Counter()
        self.task: asyncio.Task[None] | None = None

    def add(self, user_id: int) -> None:
        self.users[user_id] += 1
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._renew())

    def discard(self, user_id: int) -> None:
        self.users[user_id] -= 1
        if self.users[user_id] <= 0:
            del self.users[user_id]

    async def _renew(self) -> None:
        while self.users:
            await asyncio.sleep(PRESENCE_REFRESH_SECONDS)
            if self.users:
                try:
                    await in_database(stream_alive, *self.users)
                except Exception:
                    logger.exception("the presence of %s players was not renewed", len(self.users))


_alive: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Alive] = weakref.WeakKeyDictionary()


def _alive_here() -> _Alive:
    loop = asyncio.get_running_loop()
    alive = _alive.get(loop)
    if alive is None:
        alive = _alive[loop] = _Alive()
    return alive


def stream_closed(user_id: int) -> bool:
    """A tab's stream ended; the last one to end is a drop the server saw (R3.10). Returns
    whether it was the last."""
    try:
        Presence.objects.filter(user_id=user_id).update(streams=F("streams") - 1)
        return bool(
            Presence.objects.filter(user_id=user_id, streams__lte=0).update(
                streams=0, dropped_at=timezone.now()
            )
        )
    finally:
        if not connection.in_atomic_block:
            connection.close()


def announce_presence(user_id: int) -> int:
    """Show the player's tables with him connected or not as his presence now says: each open
    table where he has a seat gets a new version, published (the others see "Disconnected" at
    once, not at their page's next poll). One table at a time, each its own statement: no lock
    is held while another is taken. Returns how many tables."""
    try:
        tables = sorted(
            OnlineTable.objects.filter(
                status=TableStatus.OPEN, players__user_id=user_id, players__is_bot=False
            )
            .values_list("pk", flat=True)
            .distinct()
        )
        for table_id in tables:
            OnlineTable.objects.filter(pk=table_id).update(version=F("version") + 1)
            publish_table_changed(table_id)
        return len(tables)
    except Exception:
        logger.exception("the tables of user %s were not shown (dis)connected", user_id)
        return 0
    finally:
        if not connection.in_atomic_block:
            connection.close()


def announce_drop(user_id: int) -> int:
    """After the grace: if the player is still without a stream, his tables show it. Runs on
    its own after the stream ended (a timer, a task): a failure is logged, never raised."""
    try:
        dropped = Presence.objects.filter(
            user_id=user_id, streams__lte=0, dropped_at__isnull=False
        ).exists()
    except Exception:
        logger.exception("the drop of user %s was not shown on his tables", user_id)
        return 0
    finally:
        if not connection.in_atomic_block:
            connection.close()
    return announce_presence(user_id) if dropped else 0


_announcements: set[asyncio.Task[None]] = set()


async def _announce_drop_later(user_id: int) -> None:
    await asyncio.sleep(PRESENCE_GRACE_SECONDS)
    await in_database(announce_drop, user_id)


def _schedule_drop(user_id: int) -> None:
    task = asyncio.get_running_loop().create_task(_announce_drop_later(user_id))
    _announcements.add(task)  # kept until done: the loop holds tasks weakly
    task.add_done_callback(_announcements.discard)


# -- the streams -------------------------------------------------------------------------------


async def stream_tables(
    table_ids: Sequence[int],
    *,
    user_id: int | None,
    last_event_id: str | None = None,
    heartbeat: float = HEARTBEAT_SECONDS,
    language: str | None = None,
) -> AsyncIterator[str]:
    """Server-sent events for a tab's tables: their versions now (or what the tab missed,
    ``last_event_id``), then every change. Subscribed first: what is published meanwhile is
    queued, and the cursor sends each version once. The tab reads ``language``: the stream
    says so while it lasts (tables.online.languages)."""
    hub = await get_hub()
    channels = [table_channel(table_id) for table_id in table_ids]
    if user_id is not None:
        channels.append(user_channel(user_id))
    queues = [(channel, hub.subscribe(channel)) for channel in channels]
    generation = hub.generation
    alive = _alive_here()
    merged: asyncio.Queue[BusMessage] = asyncio.Queue(maxsize=64)
    pumps = [asyncio.create_task(_pump(queue, merged)) for _channel, queue in queues]
    try:
        # Shielded like its closing below: the count stays right if the tab goes meanwhile.
        if user_id is not None:
            alive.add(user_id)
            if await asyncio.shield(in_database(stream_opened, user_id)):
                await in_database(announce_presence, user_id)  # connected again
        await sync_to_async(languages.mark_listening)(table_ids, user_id, language)
        marked = time.monotonic()
        yield f"retry: {RETRY_MS}\n: connected\n\n"
        cursor, frames = await in_database(_catch_up, table_ids, user_id, last_event_id)
        for frame in frames:
            yield frame
        while True:
            if time.monotonic() - marked >= languages.REFRESH_SECONDS:  # busy or quiet, renewed
                await sync_to_async(languages.mark_listening)(table_ids, user_id, language)
                marked = time.monotonic()
            try:
                async with asyncio.timeout(heartbeat):
                    message = await merged.get()
            except TimeoutError:
                yield ": heartbeat\n\n"  # a tab that went finds the stream closed (_Alive)
                continue
            if hub.generation != generation:
                # The bus dropped and came back: what was published meanwhile never came. The
                # tab catches up from where its cursor stands, as a reconnecting tab does.
                generation = hub.generation
                said = cursor.event_id()
                cursor, frames = await in_database(_catch_up, table_ids, user_id, said)
                for frame in frames:
                    yield frame
            if message is not RESYNC and cursor.admit(message):
                yield cursor.frame(message.raw)
    finally:
        for pump in pumps:
            pump.cancel()
        for channel, queue in queues:
            hub.unsubscribe(channel, queue)
        if user_id is not None:
            alive.discard(user_id)
            if await asyncio.shield(in_database(stream_closed, user_id)):
                _schedule_drop(user_id)  # his last stream: the others see it after the grace


async def _pump(source: asyncio.Queue[BusMessage], target: asyncio.Queue[BusMessage]) -> None:
    while True:
        message = await source.get()
        if target.full():
            target.get_nowait()  # a slow tab loses its oldest nudge; the newest holds the version
        target.put_nowait(message)


def stream_tables_sync(
    table_ids: Sequence[int],
    *,
    user_id: int | None,
    seconds: float,
    last_event_id: str | None = None,
    heartbeat: float = 5.0,
    language: str | None = None,
) -> Iterator[str]:
    """The same stream for a WSGI server (the test server): bounded, the browser reconnects."""
    deadline = time.monotonic() + seconds
    beat = time.monotonic() + heartbeat
    if user_id is not None and stream_opened(user_id):
        announce_presence(user_id)  # connected again
    languages.mark_listening(table_ids, user_id, language)
    marked = time.monotonic()
    try:
        channels = [table_channel(table_id) for table_id in table_ids]
        if user_id is not None:
            channels.append(user_channel(user_id))
        with SyncPoller(*channels) as poller:
            yield f"retry: {RETRY_MS}\n: connected\n\n"
            cursor, frames = catch_up(table_ids, user_id=user_id, last_event_id=last_event_id)
            yield from frames
            renewed = time.monotonic()
            while time.monotonic() < deadline:
                if time.monotonic() - marked >= languages.REFRESH_SECONDS:
                    languages.mark_listening(table_ids, user_id, language)
                    marked = time.monotonic()
                if user_id is not None and time.monotonic() - renewed >= PRESENCE_REFRESH_SECONDS:
                    stream_alive(user_id)  # busy or quiet, as _Alive does
                    renewed = time.monotonic()
                messages = poller.poll()
                for message in messages:
                    if cursor.admit(message):
                        yield cursor.frame(message.raw)
                if not messages and time.monotonic() >= beat:
                    beat = time.monotonic() + heartbeat
                    yield ": heartbeat\n\n"
    finally:
        if user_id is not None and stream_closed(user_id):
            # His last stream: the others see it after the grace.
            timer = threading.Timer(PRESENCE_GRACE_SECONDS, announce_drop, [user_id])
            timer.daemon = True
            timer.start()
            with _timers_lock:
                _timers.add(timer)


_timers: weakref.WeakSet[threading.Timer] = weakref.WeakSet()
_timers_lock = threading.Lock()


def wait_for_announcements(timeout: float = PRESENCE_GRACE_SECONDS + 5) -> None:
    """Wait for the drops the WSGI streams are still to show (tests: before the database
    goes, after their pages closed)."""
    deadline = time.monotonic() + timeout
    with _timers_lock:
        timers = list(_timers)
    for timer in timers:
        timer.join(max(deadline - time.monotonic(), 0))


def drop_stale_presence(*, older_than: timedelta = PRESENCE_STALE) -> int:
    """Streams of a process that died never said goodbye: count them as dropped, and show it
    on their players' tables."""
    cutoff = timezone.now() - older_than
    stale = Presence.objects.filter(streams__gt=0, last_seen__lt=cutoff)
    users = list(stale.values_list("user_id", flat=True))
    if not users:
        return 0
    dropped = Presence.objects.filter(user_id__in=users, streams__gt=0, last_seen__lt=cutoff)
    count = dropped.update(streams=0, dropped_at=F("last_seen"))
    for user_id in users:
        announce_drop(user_id)
    return count
