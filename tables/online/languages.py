"""Which languages the open streams of a table, and of a player, read (issue 17: a move's CPU).

A table's message carries the public table, and a player's own message his private part,
rendered by the process that committed the change (tables.online.broadcast). Rendering is
about half of a move's CPU, and each part was rendered in every language of the site although
a table's tabs nearly always read one. So a stream says, as it opens and every heartbeat while
it lasts, which language its page reads: a mark in the cache per table it follows and per
player, that lapses ``LISTENING_SECONDS`` after the stream's last word. The publisher renders
the languages marked. A table no stream reads (a table of house bots nobody watches) is sent as
a bare nudge, its version without the table: nothing is rendered for nobody, and a tab that
opens later fetches its fragment as it would anyway. A player's part no stream of his reads is
rendered in every language (his tab may be opening: the stream hands it the messages kept since
its page was drawn), and so is everything when the cache fails: a failure costs CPU, never a
message.

A tab whose language a message lacks (its stream opened after the change was rendered, or it
reconnects to messages kept from before) fetches its fragment instead: static/js/table.js
treats it as a bare nudge. So a mark missing or lapsed delays one tab by a request; it never
shows a tab a table in another language, or a stale one.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

from django.conf import settings
from django.core.cache import cache

from tournaments.live import HEARTBEAT_SECONDS
from tournaments.live_clock import namespace

logger = logging.getLogger(__name__)

# A stream renews its marks every heartbeat; a mark outlives three of them, so a busy moment
# in the events process does not let one lapse under a tab that is there.
REFRESH_SECONDS = HEARTBEAT_SECONDS
LISTENING_SECONDS = 3 * HEARTBEAT_SECONDS


def codes() -> tuple[str, ...]:
    """Every language of the site, in settings order."""
    return tuple(code for code, _name in settings.LANGUAGES)


def site_language(language: str | None) -> str | None:
    """The site's language a page in ``language`` reads ("de-at" reads "de"), or None."""
    if not language:
        return None
    short = language.lower().split("-")[0]
    return short if short in codes() else None


def _table_key(table_id: int, code: str) -> str:
    return f"{namespace()}:online-lang:t{table_id}:{code}"


def _user_key(user_id: int, code: str) -> str:
    return f"{namespace()}:online-lang:u{user_id}:{code}"


def mark_listening(table_ids: Iterable[int], user_id: int | None, language: str | None) -> None:
    """A stream that reads ``language`` follows these tables (and is ``user_id``'s)."""
    code = site_language(language)
    if code is None:
        return
    keys = {_table_key(table_id, code): 1 for table_id in table_ids}
    if user_id is not None:
        keys[_user_key(user_id, code)] = 1
    try:
        cache.set_many(keys, LISTENING_SECONDS)
    except Exception:
        logger.warning("the cache failed: the tables' messages stay in every language")


def forget_listening(
    table_ids: Iterable[int], user_ids: Iterable[int], languages: Iterable[str] | None = None
) -> None:
    """The marks of these tables and players gone, as if they had lapsed (tests, benchmarks)."""
    chosen = tuple(codes() if languages is None else languages)
    keys = [_table_key(table_id, code) for table_id in table_ids for code in chosen]
    keys += [_user_key(user_id, code) for user_id in user_ids for code in chosen]
    cache.delete_many(keys)


type Languages = tuple[tuple[str, ...], dict[int, tuple[str, ...]]]


def listening(table_id: int, user_ids: Sequence[int]) -> Languages:
    """The languages to render the table's public part in (those marked; none if no stream
    reads the table) and each player's private part in (those marked, else every language).
    Every language for both if the cache fails. One round trip to the cache."""
    try:
        found: dict[str, Any] | None = cache.get_many(listening_keys(table_id, user_ids))
    except Exception:
        found = None
    return listened(table_id, user_ids, found)


def listening_keys(table_id: int, user_ids: Sequence[int]) -> list[str]:
    """The cache's keys ``listening`` reads (to read with others: tables.online.publish)."""
    return list(_owners(table_id, user_ids))


def _owners(table_id: int, user_ids: Sequence[int]) -> dict[str, tuple[int | None, str]]:
    every = codes()
    keys: dict[str, tuple[int | None, str]] = {
        _table_key(table_id, code): (None, code) for code in every
    }
    for user_id in user_ids:
        keys |= {_user_key(user_id, code): (user_id, code) for code in every}
    return keys


def listened(table_id: int, user_ids: Sequence[int], found: dict[str, Any] | None) -> Languages:
    """``listening`` from what the cache answered for ``listening_keys`` (None: it failed)."""
    every = codes()
    if found is None:
        logger.warning("the cache failed: table %s is rendered in every language", table_id)
        return every, dict.fromkeys(user_ids, every)
    keys = _owners(table_id, user_ids)
    marked: dict[int | None, list[str]] = {}
    for key in found:
        owner, code = keys[key]
        marked.setdefault(owner, []).append(code)

    def ordered(owner: int | None) -> tuple[str, ...]:
        chosen = marked.get(owner, ())
        return tuple(code for code in every if code in chosen)

    return ordered(None), {user_id: ordered(user_id) or every for user_id in user_ids}
