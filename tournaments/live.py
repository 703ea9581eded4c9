"""The live bus: publish what changed; one listener per process fans it out to the streams.

Two backends, chosen by ``settings.LIVE_BUS``: Redis pub/sub in production, and on the embedded
default a small table (``LiveMessage``) that the listener polls. Either way each process runs ONE
listener (docs/architecture.md, "Live updates"): an asyncio hub that subscribes once to
``event:*`` and hands every message to the queues of the streams open in that process. A clock
change travels with the clock's public state (tournaments.live_clock), a standings change with
the event's board (tournaments.live_board).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import heapq
import itertools
import json
import logging
import os
import threading
import time
import weakref
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from datetime import timedelta
from typing import Any

import redis
import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from tournaments import clock_etag, live_board
from tournaments.live_clock import (
    BusMessage,
    Cursor,
    clock_payload,
    current_clock_payload,
    namespace,
    store_clock_payload,
)
from tournaments.models import Event, LiveMessage

logger = logging.getLogger(__name__)

CHANNEL_PREFIX = "event:"
DB_POLL_SECONDS = 0.3
DB_KEEP = timedelta(minutes=5)
DB_PRUNE_EVERY = 50  # messages
HEARTBEAT_SECONDS = 15.0
RETRY_MS = 2000
QUEUE_SIZE = 32
RECONNECT_SECONDS = 1.0  # the Redis listener's pause before it subscribes again
CLOCK_CHANGES = frozenset({"clock", "level"})  # published with the clock's state


def channel_for(event_id: int) -> str:
    """The bus channel of one event (of this installation's database, on a shared Redis)."""
    return f"{namespace()}:{CHANNEL_PREFIX}{event_id}"


def user_channel(user_id: int) -> str:
    """The bus channel of one player's own news (his turn, his chips, his seat), his tabs only."""
    return f"{namespace()}:user:{user_id}"


class Retries:
    """Publishing that failed, tried again after each pause of settings.LIVE_PUBLISH_RETRY_SECONDS
    with what then stands, until it goes out or the pauses run out (then it is logged, and the
    pages' polls find the change).

    The change is committed and the pages would find it by their polls, but while their streams
    are up those come every 120 s (the board), 20 s (the clock) or 15 s (a table): when only this
    process lost Redis (the events process still subscribed), a bust went unseen for two
    minutes and a player's turn for fifteen seconds (issue 17).

    ``again(key)`` publishes the state of ``key`` (an event and a kind of change, a table) as it
    stands and says whether it went out; one retry a key serves every change of it that failed
    meanwhile. ``pending`` holds the keys with a retry on its way, each with the number of its
    failures: one that fails while a retry is on its way counts there, and the retry goes once
    more if it read the state before that change. The retries run one after another in one
    thread of the process, which ends when none is due: a Redis outage with a hundred tables in
    play takes one database connection of the process, not a hundred."""

    IDLE_SECONDS = 5.0  # the thread waits this long for another retry before it ends

    def __init__(self, again: Callable[[Any], bool], name: Callable[[Any], str]) -> None:
        self._again = again
        self._name = name
        self.pending: dict[Any, int] = {}
        self._due: list[tuple[float, int, Any, int]] = []  # (when, order, key, attempt), a heap
        self._order = itertools.count()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def failed(self, key: Any) -> None:
        """The publishing of ``key``'s change failed: try again after the first pause."""
        self._later(key, attempt=0)

    def _later(self, key: Any, *, attempt: int) -> None:
        pauses = settings.LIVE_PUBLISH_RETRY_SECONDS
        with self._changed:
            if attempt == 0 and key in self.pending:
                self.pending[key] += 1  # a retry is on its way: it goes once more if it read before
                return
            if attempt >= len(pauses):
                self.pending.pop(key, None)
                if pauses:
                    logger.error("gave up publishing %s: pages poll it", self._name(key))
                return
            self.pending.setdefault(key, 1)
            when = time.monotonic() + pauses[attempt]
            heapq.heappush(self._due, (when, next(self._order), key, attempt))
            if self._thread is None or not self._thread.is_alive():  # none yet, or a fork's copy
                self._thread = threading.Thread(target=self._run, name="live-retries", daemon=True)
                self._thread.start()
            self._changed.notify()

    def _run(self) -> None:
        while (due := self._next()) is not None:
            try:
                self._retry(*due)
            finally:
                connection.close()  # this thread's own, one at a time: none held between pauses

    def _next(self) -> tuple[Any, int] | None:
        """The next retry once it is due; None when none came for IDLE_SECONDS (the thread
        ends, and the next failure starts another)."""
        with self._changed:
            while True:
                if not self._due:
                    self._changed.wait(self.IDLE_SECONDS)
                    if not self._due:
                        self._thread = None
                        return None
                    continue
                when, _order, key, attempt = self._due[0]
                if (wait := when - time.monotonic()) > 0:
                    self._changed.wait(wait)
                    continue
                heapq.heappop(self._due)
                return key, attempt

    def _retry(self, key: Any, attempt: int) -> None:
        with self._changed:
            failures = self.pending.get(key, 0)
        try:
            published = self._again(key)
        except Exception:
            logger.exception("could not publish %s", self._name(key))
            published = False
        if not published:
            self._later(key, attempt=attempt + 1)
            return
        logger.warning("published %s on try %s", self._name(key), attempt + 2)
        with self._changed:
            if self.pending.get(key, 0) == failures:
                self.pending.pop(key, None)
                return
        self._retry(key, 0)  # another change failed while this one was read: once more


def publish_event_changed(*, event_id: int, what: str) -> None:
    """Tell every open page of the event that its ``what`` (clock, level, standings) changed.

    A clock change (``clock``, ``level``) goes out with the clock's new state, and, when it
    moved the level, with the event's board too; anything else (standings, seats, races) with
    the board (tournaments.live_board): the pages show either without a fetch. Called after the
    commit; a failure is published again as it then stands (``Retries``).
    """
    if not _publish_event_changed(event_id=event_id, what=what):
        event_retries.failed((event_id, what))


def _publish_event_changed(*, event_id: int, what: str) -> bool:
    """``publish_event_changed`` once; whether it went out."""
    try:
        if what in CLOCK_CHANGES and _publish_clock(event_id=event_id, what=what) is False:
            return True  # the clock moved nothing the board shows (a pause, time added)
        board = live_board.board_payload(event_id, what=what)
        publish(channel_for(event_id), board or _nudge(event_id=event_id, what=what))
    except Exception:
        logger.exception("could not publish %s of event %s on the live bus", what, event_id)
        return False
    return True


# An event's changes whose publishing failed, by (event, what): the clock and the board as they
# then stand.
event_retries = Retries(
    lambda key: _publish_event_changed(event_id=key[0], what=key[1]),
    name=lambda key: f"{key[1]} of event {key[0]}",
)


def _nudge(*, event_id: int, what: str) -> str:
    return json.dumps({"event": event_id, "what": what, "at": timezone.now().isoformat()})


def _publish_clock(*, event_id: int, what: str) -> bool | None:
    """Drop the cached ETags, read the clock, prime the cache with its ETags, publish its state.
    Whether it moved what the event's board shows of the clock (tournaments.live_board); None
    when the event is gone."""
    code = Event.objects.filter(pk=event_id).values_list("code", flat=True).first()
    if code is None:
        return None
    # Every cached ETag of the clock is dropped, the generation taken before the database is
    # read, as the view does.
    generation = clock_etag.new_generation(code)
    event = Event.objects.select_related("structure").get(pk=event_id)
    payload = clock_payload(event, what=what)
    clock = json.loads(payload)["clock"]
    clock_etag.prime_clock_etags(code, clock, generation=generation)
    phase = live_board.phase_of(clock)
    if settings.LIVE_BUS == "redis":
        channel = channel_for(event_id)
        before = store_clock_payload(
            _redis(), channel=channel, payload=payload, publish=True, phase=phase
        )
        return before != phase
    publish(channel_for(event_id), payload)
    return live_board.phase_moved(event_id, phase)


def publish(channel: str, payload: str) -> None:
    """Put one message on the bus of this installation."""
    if settings.LIVE_BUS == "redis":
        _redis().publish(channel, payload)
        return
    message = LiveMessage.objects.create(channel=channel, payload=payload)
    if message.pk % DB_PRUNE_EVERY == 0:
        LiveMessage.objects.filter(created_at__lt=timezone.now() - DB_KEEP).delete()


def publish_many(messages: list[tuple[str, str]]) -> None:
    """Put several (channel, payload) messages on the bus, in order: one round trip to Redis
    (a pipeline without MULTI) where ``publish`` takes one each."""
    if settings.LIVE_BUS != "redis":
        for channel, payload in messages:
            publish(channel, payload)
        return
    pipeline = _redis().pipeline(transaction=False)
    for channel, payload in messages:
        pipeline.publish(channel, payload)
    pipeline.execute()


@functools.cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


class Hub:
    """The process's one listener: subscribes once and fans each message out to client queues."""

    def __init__(self, listen: Callable[[Hub], Coroutine[Any, Any, None]]) -> None:
        self._listen = listen
        self._queues: defaultdict[str, set[asyncio.Queue[BusMessage]]] = defaultdict(set)
        self._task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        # How many times the subscription has stood. A stream keeps the number it started
        # with: when it grows, the bus dropped and came back, and what was published between
        # never reached this process, so the stream catches up (RESYNC).
        self.generation = 0
        # The event's state read once for all its streams catching up: (event, generation).
        self.catch_ups: dict[tuple[int, int], asyncio.Future[list[BusMessage]]] = {}
        # The newest board of each event channel with a stream here, for the streams that
        # connect (tournaments.live_board), and the readings of one under way, by event.
        self.boards: dict[str, BusMessage] = {}
        self.board_reads: dict[int, asyncio.Future[BusMessage | None]] = {}

    async def start(self, *, timeout: float = 5.0) -> None:
        """Start listening (once) and wait until the subscription stands."""
        if self._task is None or self._task.done():
            self.ready.clear()
            # A fresh context: the listener outlives the request that happened to start it.
            self._task = asyncio.create_task(
                self._listen(self), name="floorman-live-hub", context=contextvars.Context()
            )
        try:
            async with asyncio.timeout(timeout):
                await self.ready.wait()
        except TimeoutError:
            logger.warning("the live bus is not ready yet; pages fall back to polling")

    async def stop(self) -> None:
        """Stop listening (tests, shutdown)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def subscribe(self, channel: str) -> asyncio.Queue[BusMessage]:
        """A new queue that receives the messages published on ``channel``."""
        queue: asyncio.Queue[BusMessage] = asyncio.Queue(maxsize=QUEUE_SIZE)
        self._queues[channel].add(queue)
        return queue

    def unsubscribe(self, channel: str, queue: asyncio.Queue[BusMessage]) -> None:
        """Forget a client's queue (it disconnected)."""
        queues = self._queues.get(channel)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self._queues[channel]
                self.boards.pop(channel, None)  # nobody here hears its changes any more

    def subscribers(self, channel: str | None = None) -> int:
        """How many queues listen (on one channel, or on all)."""
        if channel is not None:
            return len(self._queues.get(channel, ()))
        return sum(len(queues) for queues in self._queues.values())

    def subscribed(self) -> None:
        """The listener's subscription stands. Again after a drop: every stream is woken to
        catch up on what it missed meanwhile."""
        self.generation += 1
        self.ready.set()
        if self.generation > 1:
            logger.warning(
                "the live bus is back: its streams catch up (%s queues)", self.subscribers()
            )
            for queues in self._queues.values():
                for queue in queues:
                    _put_newest(queue, RESYNC)

    def lost(self) -> None:
        """The listener's subscription fell: messages are lost until it stands again."""
        self.ready.clear()

    def dispatch(self, channel: str, payload: str) -> None:
        """Hand one message, parsed once, to every queue of its channel."""
        queues = tuple(self._queues.get(channel, ()))
        if queues:
            message = BusMessage.parse(payload)
            self.keep_board(channel, message)
            for queue in queues:
                _put_newest(queue, message)

    def keep_board(self, channel: str, message: BusMessage) -> None:
        """Keep ``message`` as the channel's board if it is one, newer than the one kept, and
        a stream here listens to the channel."""
        stamp = message.board_stamp
        if stamp is None or channel not in self._queues:
            return
        kept = self.boards.get(channel)
        if kept is None or (kept.board_stamp or 0) < stamp:
            self.boards[channel] = message


def _put_newest(queue: asyncio.Queue[BusMessage], message: BusMessage) -> None:
    """A full queue (a tab that reads slowly) loses its oldest message, never the newest: the
    newest clock message holds the whole state, and a nudge only asks the page to look again."""
    while True:
        try:
            queue.put_nowait(message)
            return
        except asyncio.QueueFull:
            with contextlib.suppress(asyncio.QueueEmpty):
                queue.get_nowait()


def listener_name() -> str:
    """The name of this process's subscription in Redis (``CLIENT LIST``): whose it is."""
    return f"floorman-live:{namespace()}:{os.getpid()}"


async def reconnect_pause() -> None:
    """Between a failed subscription and the next try."""
    await asyncio.sleep(RECONNECT_SECONDS)


async def listen_redis(hub: Hub) -> None:
    """Redis pub/sub: one pattern subscription per process, re-established after a failure.
    Pub/sub keeps nothing for a subscriber that was away: once subscribed again the hub wakes
    every stream to catch up (Hub.subscribed)."""
    while True:
        client = redis.asyncio.Redis.from_url(settings.REDIS_URL, client_name=listener_name())
        pubsub = client.pubsub()
        try:
            # Every channel of this installation: the clocks and the online tables.
            await pubsub.psubscribe(f"{namespace()}:*")
            async for message in pubsub.listen():
                if message["type"] == "psubscribe":
                    hub.subscribed()
                elif message["type"] == "pmessage":
                    hub.dispatch(_text(message["channel"]), _text(message["data"]))
        except asyncio.CancelledError:
            raise
        except Exception:
            hub.lost()
            logger.exception("the Redis live listener failed; reconnecting")
            await reconnect_pause()
        finally:
            await pubsub.aclose()  # type: ignore[no-untyped-call]
            await client.aclose()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _db_last_id() -> int:
    last = LiveMessage.objects.order_by("-id").values_list("id", flat=True).first()
    return last or 0


def _db_since(last_id: int) -> list[tuple[int, str, str]]:
    # As a request starts: a connection the database ended (a restart) or older than
    # CONN_MAX_AGE is closed, and this poll opens a new one; else every poll would fail on it.
    close_old_connections()
    rows = LiveMessage.objects.filter(id__gt=last_id).order_by("id")
    return list(rows.values_list("id", "channel", "payload")[:500])


def _close_connection() -> None:
    connection.close()  # this thread's: ``connection`` is looked up where it is called


async def listen_db(hub: Hub) -> None:
    """The embedded default: poll the message table by id, from the newest at start."""
    try:
        last_id = await sync_to_async(_db_last_id)()
        # Read by id from where it stood, even after a failure: nothing is missed.
        hub.subscribed()
        while True:
            try:
                rows = await sync_to_async(_db_since)(last_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("the database live listener failed; retrying")
                rows = []
                await asyncio.sleep(1.0)
            for message_id, channel, payload in rows:
                hub.dispatch(channel, payload)
                last_id = message_id
            await asyncio.sleep(DB_POLL_SECONDS)
    finally:
        # Stopped (shutdown, tests): the sync thread's connection is not left open.
        await sync_to_async(_close_connection)()


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


async def get_hub() -> Hub:
    """This process's hub (one per event loop), started on first use."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        hub = Hub(listen_redis if settings.LIVE_BUS == "redis" else listen_db)
        _hubs[loop] = hub
    await hub.start()
    return hub


def _sse(*, event: str | None = None, data: str | None = None, comment: str | None = None) -> str:
    lines = [f": {comment}"] if comment else []
    if event:
        lines.append(f"event: {event}")
    if data is not None:
        lines.extend(f"data: {line}" for line in data.splitlines() or [""])
    return "\n".join(lines) + "\n\n"


CONNECTED = (f"retry: {RETRY_MS}\n" + _sse(comment="connected")).encode()
BEAT = _sse(comment="heartbeat").encode()


def _current_clock(event_id: int, version: int | None) -> BusMessage | None:
    """The event's newest clock message for a tab that connects; no connection is kept."""
    try:
        client = _redis() if settings.LIVE_BUS == "redis" else None
        payload = current_clock_payload(event_id, client=client, version=version)
    except Exception:
        logger.exception("could not read the clock of event %s for a stream", event_id)
        return None
    finally:
        if not connection.in_atomic_block:
            connection.close()
    return None if payload is None else BusMessage.parse(payload)


def _board_read_now(event_id: int) -> BusMessage | None:
    """The event's board as it reads now; None when it cannot be read (the page polls)."""
    try:
        board = live_board.board_payload(event_id)
    except Exception:
        logger.exception("could not read the board of event %s for its streams", event_id)
        board = None
    finally:
        if not connection.in_atomic_block:
            connection.close()
    return None if board is None else BusMessage.parse(board)


def _event_read_now(event_id: int) -> list[BusMessage]:
    """The event's clock (its kept state if of the version in the database) and its board as
    they read now; a nudge instead of the board that cannot be read (the page fetches)."""
    try:
        version = Event.objects.filter(pk=event_id).values_list("clock_version", flat=True).first()
    finally:
        if not connection.in_atomic_block:
            connection.close()
    clock = _current_clock(event_id, version)
    board = _board_read_now(event_id)
    nudge = BusMessage.parse(_nudge(event_id=event_id, what="resync"))
    return [*([clock] if clock else []), board or nudge]


async def _event_now(hub: Hub, event_id: int) -> list[BusMessage]:
    """What the streams of an event catch up on after the bus came back (``_event_read_now``):
    read once for all of them in this process, not once a stream (500 phones, 500 readings)."""
    key = (event_id, hub.generation)
    reading = hub.catch_ups.get(key)
    if reading is None:
        hub.catch_ups = {k: v for k, v in hub.catch_ups.items() if k[1] == hub.generation}
        reading = asyncio.ensure_future(sync_to_async(_event_read_now)(event_id))
        hub.catch_ups[key] = reading
    found = await asyncio.shield(reading)
    hub.keep_board(channel_for(event_id), found[-1])
    return found


async def _board_now(hub: Hub, event_id: int) -> BusMessage | None:
    """The board for a stream that connects: the newest this process has seen on the event's
    channel, else read once for all the streams that connect while it is read (a herd of
    phones, an events process restarted)."""
    channel = channel_for(event_id)
    board = hub.boards.get(channel)
    if board is not None:
        return board
    reading = hub.board_reads.get(event_id)
    if reading is None:
        reading = asyncio.ensure_future(sync_to_async(_board_read_now)(event_id))
        hub.board_reads[event_id] = reading
        reading.add_done_callback(lambda _done: hub.board_reads.pop(event_id, None))
    board = await asyncio.shield(reading)
    if board is not None:
        hub.keep_board(channel, board)
    return board


async def stream_event(
    event_id: int,
    *,
    language: str = settings.LANGUAGE_CODE,
    last_event_id: str | None = None,
    version: int | None = None,
    heartbeat: float = HEARTBEAT_SECONDS,
    user_id: int | None = None,
) -> AsyncIterator[bytes]:
    """Server-sent events for one event: the clock's state, its board, heartbeats; with
    ``user_id`` (an online event's page, its player logged in) a ``mine`` nudge too whenever
    his own news names the event (seated, moved, out: ``mine_of``).

    Subscribed first, then the current state: whatever is published meanwhile is queued, and
    the cursor sends each state once and never an older one after a newer (nor what the tab
    says it has, by ``Last-Event-ID``). ``version`` is the clock version in the database as the
    tab connected (the kept state must be that one).
    """
    hub = await get_hub()
    channel = channel_for(event_id)
    queue = hub.subscribe(channel)
    own = None if user_id is None else hub.subscribe(user_channel(user_id))
    pump = None if own is None else asyncio.create_task(_pump_mine(own, queue, event_id))
    generation = hub.generation
    cursor = Cursor(language=language, last_event_id=last_event_id)
    beat = _Heartbeat(queue, seconds=heartbeat)
    try:
        yield CONNECTED
        current = await sync_to_async(_current_clock)(event_id, version)
        if current is not None and (frame := cursor.resync(current)):
            yield frame
        board = await _board_now(hub, event_id)
        if board is not None and (frame := cursor.frame(board)):
            yield frame
        beat.start()
        while True:
            message = await queue.get()
            if hub.generation != generation:
                # The bus dropped and came back: the clock and the board as they stand, whose
                # changes may have been lost meanwhile.
                generation = hub.generation
                for current in await _event_now(hub, event_id):
                    # The clock once per version (the page counts time itself); the board if
                    # newer than the last one sent.
                    frame = cursor.resync(current) if current.is_clock else cursor.frame(current)
                    if frame:
                        yield frame
                if own is not None:
                    yield MINE_FRAME  # his own news may have been lost too: his part looks
            if message is HEARTBEAT:
                yield BEAT
            elif message is MINE:
                yield MINE_FRAME
            elif message is not RESYNC and (frame := cursor.frame(message)):
                yield frame
            beat.sent()
    except asyncio.CancelledError:
        logger.debug("stream of event %s closed by the client", event_id)
        raise
    finally:
        beat.stop()
        hub.unsubscribe(channel, queue)
        if pump is not None:
            pump.cancel()
        if own is not None and user_id is not None:
            hub.unsubscribe(user_channel(user_id), own)


def mine_of(message: BusMessage, event_id: int) -> bool:
    """Whether a message of the player's own channel is news of his in this event (seated,
    moved, out): his part of the event's page looks again. The rest of his channel (his hole
    cards, his buttons at a table) is for his table's page and never leaves on this stream."""
    return message.data.get("event") == event_id and message.data.get("what") in MINE_NEWS


async def _pump_mine(
    source: asyncio.Queue[BusMessage], target: asyncio.Queue[BusMessage], event_id: int
) -> None:
    """The player's own news of the event, as a ``mine`` nudge on his stream's queue."""
    while True:
        message = await source.get()
        if mine_of(message, event_id):
            _put_newest(target, MINE)


HEARTBEAT = BusMessage(data={}, raw="", id=None)  # put on a stream's queue by its _Heartbeat
# Put on every stream's queue when the bus is back after a drop (Hub.subscribed): catch up.
RESYNC = BusMessage(data={}, raw="", id=None)
# Put on an online event's stream when its player's own news names the event (_pump_mine).
MINE = BusMessage(data={}, raw="", id=None)
MINE_FRAME = b"event: mine\ndata: {}\n\n"
MINE_NEWS = frozenset({"moved", "out"})


class _Heartbeat:
    """A stream's heartbeat after ``seconds`` without a frame: one timer per beat.

    A timeout around every wait armed (and cancelled) a timer per stream for every message:
    with 500 streams that was 500 timers per clock change in the events process, a fifth of
    its work for one change (issue 17, bench/RESULTS.md).
    """

    def __init__(self, queue: asyncio.Queue[BusMessage], *, seconds: float) -> None:
        self.queue = queue
        self.seconds = seconds
        self.loop = asyncio.get_running_loop()
        self.last = self.loop.time()
        self.timer: asyncio.TimerHandle | None = None

    def start(self) -> None:
        self.last = self.loop.time()
        self.timer = self.loop.call_at(self.last + self.seconds, self._due)

    def sent(self) -> None:
        """A frame (or a heartbeat) went out: the next beat is due ``seconds`` from now."""
        self.last = self.loop.time()

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()

    def _due(self) -> None:
        due = self.last + self.seconds
        if self.loop.time() >= due:
            _put_newest(self.queue, HEARTBEAT)
            due = self.loop.time() + self.seconds
        self.timer = self.loop.call_at(due, self._due)


def stream_event_sync(
    event_id: int,
    *,
    seconds: float,
    heartbeat: float = 5.0,
    language: str = settings.LANGUAGE_CODE,
    last_event_id: str | None = None,
    version: int | None = None,
    user_id: int | None = None,
) -> Iterator[bytes]:
    """The same stream for a WSGI server (the test server): polls the bus in its thread, ends.

    A WSGI worker is held while it runs, so it closes after ``seconds``; the browser reconnects
    with ``Last-Event-ID`` and gets the current state if it missed one.
    """
    deadline = time.monotonic() + seconds
    beat = time.monotonic() + heartbeat
    cursor = Cursor(language=language, last_event_id=last_event_id)
    own = None if user_id is None else user_channel(user_id)
    with SyncPoller(channel_for(event_id), *([own] if own else [])) as poller:
        yield CONNECTED
        current = _current_clock(event_id, version)
        if current is not None and (frame := cursor.resync(current)):
            yield frame
        board = _board_read_now(event_id)
        if board is not None and (frame := cursor.frame(board)):
            yield frame
        while time.monotonic() < deadline:
            messages = poller.poll_channels()
            for channel, message in messages:
                if channel == own:
                    if mine_of(message, event_id):
                        yield MINE_FRAME
                elif frame := cursor.frame(message):
                    yield frame
            if not messages and time.monotonic() >= beat:
                beat = time.monotonic() + heartbeat
                yield BEAT


class SyncPoller:
    """Reads channels of the bus from a thread: subscribed (or positioned) on entry."""

    def __init__(self, *channels: str) -> None:
        self.channels = channels
        self.pubsub: redis.client.PubSub | None = None
        self.last_id = 0

    def __enter__(self) -> SyncPoller:
        if settings.LIVE_BUS == "redis":
            self.pubsub = _redis().pubsub()  # type: ignore[no-untyped-call]
            self.pubsub.subscribe(*self.channels)
        else:
            self.last_id = _db_last_id()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pubsub is not None:
            self.pubsub.close()

    def poll(self) -> list[BusMessage]:
        """The messages published since the last poll, waiting up to one poll interval."""
        return [message for _channel, message in self.poll_channels()]

    def poll_channels(self) -> list[tuple[str, BusMessage]]:
        """``poll``, each message with the channel it came on."""
        if self.pubsub is not None:
            message = self.pubsub.get_message(
                ignore_subscribe_messages=True, timeout=DB_POLL_SECONDS
            )
            if not message:
                return []
            return [(_text(message["channel"]), BusMessage.parse(_text(message["data"])))]
        rows = LiveMessage.objects.filter(id__gt=self.last_id, channel__in=self.channels)
        found = list(rows.order_by("id").values_list("id", "channel", "payload"))
        if not found:
            time.sleep(DB_POLL_SECONDS)
            return []
        self.last_id = found[-1][0]
        return [(channel, BusMessage.parse(payload)) for _id, channel, payload in found]
