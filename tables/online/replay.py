"""The online tables' recent messages, kept for a tab that reconnects (issue 17, ``Last-Event-ID``).

Every message a table's stream carries is kept a short while in Redis before it is published, in a
sorted set per table (scored by the table version) and one per player for what his own channel
carries (his private parts and his news, scored by a number that counts his messages:
``seq``). A tab that reconnects says what it has; the stream sends it what it missed, in
order, from these sets (tables.online.live). What is older than the sets, or any message on the
embedded default's database bus (which keeps none here), is not replayed: the tab gets the
current table and its own part instead.

The player's set is keyed by his user id only: the stream reads the set of the user of the
request's session, so a private part can only ever be replayed to its owner.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import redis
from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, caches

from config.cache import RedisCache
from tournaments.live_clock import namespace

logger = logging.getLogger(__name__)

KEEP_MESSAGES = 50  # per table and per player: a phone asleep for a minute at a busy table
KEEP_SECONDS = 300  # a tab away longer gets the current table
COUNT_SECONDS = 24 * 3600  # a player's message count outlives his kept messages by far

# One round trip for a change: the table's message kept (one per version, ARGV[5], if any) and
# each player's own message numbered and kept (ARGV[6...]: the JSON text without its opening
# brace); the numbered texts are returned, for the publisher to publish. A player's numbers grow
# with Redis's clock (milliseconds; one more than the last when faster), so a count that started
# again (expired, Redis flushed or restarted) never reuses a number a tab has seen; each message
# names the one before it ("prev"), so a tab's catch-up knows when one is missing.
KEEP_SCRIPT = """
local keep = tonumber(ARGV[1])
if ARGV[5] ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], ARGV[4], ARGV[4])
  redis.call('ZADD', KEYS[1], ARGV[4], ARGV[5])
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -1 - keep)
  redis.call('EXPIRE', KEYS[1], ARGV[2])
end
local bodies = {}
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
for i = 6, #ARGV do
  local own, count = KEYS[2 * (i - 5)], KEYS[2 * (i - 5) + 1]
  local prev = tonumber(redis.call('GET', count) or '0')
  local seq = math.max(prev + 1, now)
  redis.call('SET', count, seq, 'EX', ARGV[3])
  local body = '{"seq": ' .. seq .. ', "prev": ' .. prev .. ', ' .. ARGV[i]
  redis.call('ZADD', own, seq, body)
  redis.call('ZREMRANGEBYRANK', own, 0, -1 - keep)
  redis.call('EXPIRE', own, ARGV[2])
  bodies[#bodies + 1] = body
end
return bodies
"""


@dataclass(frozen=True)
class TableMessage:
    """A table's message of one version, to keep."""

    table_id: int
    created_at: datetime
    version: int
    payload: str


def kept() -> bool:
    """Whether messages are kept (Redis); the database bus keeps none here."""
    return settings.LIVE_BUS == "redis"


def _client() -> redis.Redis:
    """The shared cache's Redis client (config.cache): a change's messages are kept in the
    round trip of its cache's writes (tables.online.publish), so they are read there too."""
    cache = caches[DEFAULT_CACHE_ALIAS]
    if isinstance(cache, RedisCache):
        client: redis.Redis = cache._cache.get_client(write=True)
        return client
    return _own_client(settings.REDIS_URL)


@functools.cache
def _own_client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url)


@functools.cache
def _script() -> redis.commands.core.Script:
    # Its text and SHA, run on the client of the moment (``_client``).
    return redis.commands.core.Script(None, KEEP_SCRIPT.encode())  # type: ignore[arg-type]


def table_key(table_id: int, created_at: datetime) -> str:
    # The table's creation: a database recreated under the same name (ids reused) never finds
    # the messages of the one before.
    created = int(created_at.timestamp() * 1_000_000)
    return f"{namespace()}:online-kept:table:{table_id}:{created}"


def user_key(user_id: int) -> str:
    return f"{namespace()}:online-kept:user:{user_id}"


def _count_key(user_id: int) -> str:
    return f"{namespace()}:online-kept:count:{user_id}"


@dataclass(frozen=True)
class Keeping:
    """A change's messages to keep: the keep script's keys and arguments, and the texts to
    publish of the player's own messages if they are not kept (numbered: ``numbered``)."""

    keys: list[str]
    args: list[str | int]
    bodies: list[str]

    def numbered(self, kept: object) -> list[str]:
        """The texts to publish of the own messages, from the script's answer."""
        return [_text(body) for body in cast(list[bytes | str], kept)]


def keeping(table: TableMessage | None, own: Sequence[tuple[int, dict[str, Any]]]) -> Keeping:
    """What ``keep_messages`` sends (tables.online.publish sends it with other commands)."""
    bodies = [json.dumps({k: v for k, v in message.items() if k != "seq"}) for _u, message in own]
    keys = [table_key(table.table_id, table.created_at) if table else user_key(0)]
    for user_id, _message in own:
        keys += [user_key(user_id), _count_key(user_id)]
    args: list[str | int] = [KEEP_MESSAGES, KEEP_SECONDS, COUNT_SECONDS]
    args += [table.version, table.payload] if table else [0, ""]
    args += [body[1:] for body in bodies]
    return Keeping(keys, args, bodies)


def keep_script() -> redis.commands.core.Script:
    """The keep script (``KEEP_SCRIPT``), registered: its SHA, and loaded where it is missing."""
    return _script()


def keep_messages(
    table: TableMessage | None, own: Sequence[tuple[int, dict[str, Any]]]
) -> list[str]:
    """Keep a change's messages before they are published, in one round trip: the table's
    message of its version (a second publication of a version replaces the first) and each
    player's own message, numbered (``seq``). Returns the texts to publish of the own messages,
    in order: numbered on Redis; as they are on the database bus, or if Redis failed (a tab
    that reconnects then finds a gap and gets the current table and its part)."""
    call = keeping(table, own)
    if not kept() or (table is None and not own):
        return call.bodies
    try:
        return call.numbered(_script()(keys=call.keys, args=call.args, client=_client()))
    except redis.RedisError:
        logger.warning("the messages of a change were not kept: sent as they are")
        return call.bodies


def number_user_message(user_id: int, message: dict[str, Any]) -> str:
    """The text to publish of one message of the player's own channel (his news)."""
    return keep_messages(None, [(user_id, message)])[0]


def user_count(user_id: int) -> int:
    """The number (``seq``) of the last message the player's channel carried; 0: none kept."""
    if not kept():
        return 0
    value = _client().get(_count_key(user_id))
    return int(value) if value else 0


def table_since(table_id: int, created_at: datetime, version: int) -> list[str] | None:
    """The table's kept messages after ``version``, oldest first; None when some may be
    missing (older than the set, or nothing kept)."""
    if not kept():
        return None
    rows = _rows(_client().zrange(table_key(table_id, created_at), 0, -1, withscores=True))
    if not rows or rows[0][1] > version:
        return None  # the oldest kept is newer than what the tab has: a gap, perhaps
    return [_text(payload) for payload, score in rows if score > version]


def user_since(user_id: int, seq: int) -> tuple[list[str], int] | None:
    """The player's kept messages after ``seq``, oldest first, and his last number; None when
    some are missing (no longer kept, or his numbering started again since)."""
    if not kept():
        return None
    with _client().pipeline(transaction=True) as pipe:
        pipe.get(_count_key(user_id))
        pipe.zrange(user_key(user_id), 0, -1, withscores=True)
        value, found = pipe.execute()
    count = int(value) if value else 0
    if seq == count:
        return [], count
    after = [_text(payload) for payload, score in _rows(found) if score > seq]
    if not after or json.loads(after[0]).get("prev") != seq:
        return None  # the one after the tab's is not kept (or follows another)
    return after, count


def _rows(found: object) -> list[tuple[bytes | str, float]]:
    """A sorted set's (member, score) pairs as redis-py reads them."""
    return cast(list[tuple[bytes | str, float]], found)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
