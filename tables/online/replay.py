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
from datetime import datetime
from typing import cast

import redis
from django.conf import settings

from tournaments.live_clock import namespace

logger = logging.getLogger(__name__)

KEEP_MESSAGES = 50  # per table and per player: a phone asleep for a minute at a busy table
KEEP_SECONDS = 300  # a tab away longer gets the current table
COUNT_SECONDS = 24 * 3600  # a player's message count outlives his kept messages by far

# A player's message: counted and kept at once; its text, numbered, is what is published.
USER_SCRIPT = """
local seq = redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[3])
local body = '{"seq": ' .. seq .. ', ' .. ARGV[1]
redis.call('ZADD', KEYS[1], seq, body)
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -1 - tonumber(ARGV[2]))
redis.call('EXPIRE', KEYS[1], ARGV[4])
return body
"""


def kept() -> bool:
    """Whether messages are kept (Redis); the database bus keeps none here."""
    return settings.LIVE_BUS == "redis"


@functools.cache
def _client() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


@functools.cache
def _user_script() -> redis.commands.core.Script:
    return _client().register_script(USER_SCRIPT)


def table_key(table_id: int, created_at: datetime) -> str:
    # The table's creation: a database recreated under the same name (ids reused) never finds
    # the messages of the one before.
    created = int(created_at.timestamp() * 1_000_000)
    return f"{namespace()}:online-kept:table:{table_id}:{created}"


def user_key(user_id: int) -> str:
    return f"{namespace()}:online-kept:user:{user_id}"


def _count_key(user_id: int) -> str:
    return f"{namespace()}:online-kept:count:{user_id}"


def keep_table_message(*, table_id: int, created_at: datetime, version: int, payload: str) -> None:
    """Keep a table's message of ``version`` before it is published (one per version: a
    second publication of a version replaces the first)."""
    if not kept():
        return
    key = table_key(table_id, created_at)
    try:
        with _client().pipeline(transaction=True) as pipe:
            pipe.zremrangebyscore(key, version, version)
            pipe.zadd(key, {payload: version})
            pipe.zremrangebyrank(key, 0, -1 - KEEP_MESSAGES)
            pipe.expire(key, KEEP_SECONDS)
            pipe.execute()
    except redis.RedisError:
        # Published all the same; a tab that reconnects finds a gap and gets the current table.
        logger.warning("could not keep table %s's message of version %s", table_id, version)


def number_user_message(user_id: int, message: dict[str, object]) -> str:
    """The text to publish of a message of the player's own channel: numbered (``seq``) and
    kept, on Redis; as it is on the database bus."""
    body = json.dumps({key: value for key, value in message.items() if key != "seq"})
    if not kept() or body == "{}":
        return body
    try:
        numbered = _user_script()(
            keys=[user_key(user_id), _count_key(user_id)],
            args=[body[1:], KEEP_MESSAGES, COUNT_SECONDS, KEEP_SECONDS],
        )
    except redis.RedisError:
        logger.warning("could not keep a message of user %s: sent unnumbered", user_id)
        return body
    return _text(numbered)


def user_count(user_id: int) -> int:
    """How many messages the player's channel has carried (the ``seq`` of the last one)."""
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
    """The player's kept messages after ``seq``, oldest first, and his count; None when some
    are missing (older than the set, or a count that started again)."""
    if not kept():
        return None
    with _client().pipeline(transaction=True) as pipe:
        pipe.get(_count_key(user_id))
        pipe.zrange(user_key(user_id), 0, -1, withscores=True)
        value, found = pipe.execute()
    rows = _rows(found)
    count = int(value) if value else 0
    if seq > count:
        return None  # the tab counts past the count: it started again (it expired)
    if seq == count:
        return [], count
    if not rows or rows[0][1] > seq + 1:
        return None  # the messages after seq are no longer all kept
    return [_text(payload) for payload, score in rows if score > seq], count


def _rows(found: object) -> list[tuple[bytes | str, float]]:
    """A sorted set's (member, score) pairs as redis-py reads them."""
    return cast(list[tuple[bytes | str, float]], found)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
