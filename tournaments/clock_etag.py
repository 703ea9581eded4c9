"""The clock fragment's cached ETag: a phone's conditional GET (a 304 nearly always) costs no query.

It holds until the level in force ends (the one change that comes from time, not from a write),
for a few seconds at most, and every write that changes the clock drops it (tournaments.live
publishes the change) before the pages are told. An entry carries the event's cache generation
read BEFORE the database: a request that read the clock just before a write cannot put the old
ETag back after the write dropped it.
"""

from __future__ import annotations

import contextlib
import logging
import time
from datetime import datetime
from typing import Any

import redis
from django.core.cache import cache
from django.utils import translation
from django.utils.translation import get_language

from tournaments.live_clock import namespace
from tournaments.models import Event

logger = logging.getLogger(__name__)

CLOCK_ETAG_SECONDS = 5.0


# Keys carry the database's namespace: installations (or test runs) sharing one cache never
# read each other's ETags for events that happen to share a code.
def _etag_key(code: str) -> str:
    return f"clock-etag:{namespace()}:{code}:{get_language()}"


def _generation_key(code: str) -> str:
    return f"clock-etag-generation:{namespace()}:{code}"


def clock_etag_generation(code: str) -> str:
    """The event's current cache generation; read it before reading the clock. None to be had
    (the cache is down): a generation no entry has, so nothing is kept under it for long."""
    try:
        return str(cache.get(_generation_key(code), "0"))
    except redis.RedisError:
        return "unknown"


def cached_clock_etag(code: str) -> str | None:
    """The clock fragment's ETag for this language, if the cache still holds a current one. The
    cache is an economy: when it cannot be read (Redis restarting) the phones' GETs read the
    database, where they answered 500 before (issue 17)."""
    try:
        found = cache.get_many([_etag_key(code), _generation_key(code)])
    except redis.RedisError as error:
        logger.warning("the clock's ETag cache failed (%s): read from the database", error)
        return None
    entry = found.get(_etag_key(code))
    if entry is None:
        return None
    etag, until, generation = entry
    current = str(found.get(_generation_key(code), "0"))
    fresh = generation == current and (until is None or time.time() < until)
    return str(etag) if fresh else None


def cache_clock_etag(code: str, etag: str, *, until: datetime | None, generation: str) -> None:
    """Keep the fragment's ETag until ``until`` (the level's end) or a few seconds, if sooner;
    not at all while the cache is down (the next GET reads the database again)."""
    entry = _entry(etag, until=until, generation=generation)
    with contextlib.suppress(redis.RedisError):
        cache.set(_etag_key(code), entry, CLOCK_ETAG_SECONDS)


def _entry(etag: str, *, until: datetime | None, generation: str) -> tuple[str, float, str]:
    limit = time.time() + CLOCK_ETAG_SECONDS
    return etag, min(limit, until.timestamp()) if until else limit, generation


def forget_clock_etag(event_id: int) -> None:
    """Start a new cache generation for an event's clock: every cached ETag is dropped."""
    code = Event.objects.filter(pk=event_id).values_list("code", flat=True).first()
    if code is not None:
        new_generation(code)


def new_generation(code: str) -> str:
    """Drop every cached ETag of the event's clock; the new generation, as read after it (a
    writer that starts another one meanwhile only makes the entries primed with this one
    stale, never an old one current). One round trip less on the floor's press (issue 17)."""
    generation = str(time.time_ns())
    cache.set(_generation_key(code), generation, None)
    return generation


def prime_clock_etags(code: str, state: dict[str, Any], *, generation: str) -> None:
    """The phones' next conditional GETs find the new ETags in the cache: no query for a 304.
    Every language in one round trip."""
    until = datetime.fromisoformat(state["ends_at"]) if state["ends_at"] else None
    entries = {}
    for language, view in state["views"].items():
        with translation.override(language):
            entries[_etag_key(code)] = _entry(view["etag"], until=until, generation=generation)
    cache.set_many(entries, CLOCK_ETAG_SECONDS)
