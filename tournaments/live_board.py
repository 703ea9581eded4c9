"""The event's board on the live bus: its standings and chip-up banner travel with the change.

A change of the standings (a bust-out, a buy-in, a seat, a race) publishes the board rendered
once in every language, and so does a clock change that moves the level (the purchase windows
and the chip-up due follow the level), so that the phones, the TV and the floor show it without
a request. Before, every page fetched both fragments after each change: 500 phones made 1,000
requests and about 10 s of CPU out of one bust-out (issue 17, bench/RESULTS.md).

A board's ``stamp`` (microseconds) is when its render began. A render that began later read
every change committed before it began, and each change's own board begins after its commit,
so the board with the highest stamp holds every change: streams and pages keep the highest and
drop an older one that arrives late, a message or a GET's answer (its ``Board-Stamp`` header).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache
from django.template import Context
from django.template.loader import render_to_string
from django.utils import timezone, translation

from tournaments.live_clock import namespace
from tournaments.models import Event

# The board's parts: the name a page knows it by, and its template (rendered from the event).
PARTS = {"standings": "scoring/_public_standings.html", "chip_up": "tables/_chip_up_banner.html"}
# An online event's page shows its field too (players registered and left, open tables).
ONLINE_PARTS = {**PARTS, "field": "scoring/_online_field.html"}
PHASE_SECONDS = 24 * 3600
STAMP_HEADER = "Board-Stamp"


def board_stamp() -> int:
    """Now, in microseconds: a board read from now on holds every change committed before."""
    return time.time_ns() // 1000


def shared_reading[T](context: Context, key: str, read: Callable[[], T]) -> T:
    """What a template tag reads for a part: once for all the languages of one board (its
    ``board_memo``), else once per render. Only for readings whose words are made as they are
    shown (lazy labels, text properties): the shared reading is shown in each language."""
    memo: dict[str, Any] | None = context.get("board_memo")
    if memo is None:
        return read()
    if key not in memo:
        memo[key] = read()
    found: T = memo[key]
    return found


def parts_of(event: Event) -> dict[str, str]:
    """The parts of the event's board, by name: an online event's has its field as well."""
    return ONLINE_PARTS if event.online else PARTS


def render_part(event: Event, part: str, *, memo: dict[str, Any] | None = None) -> str:
    """One part of the board in the active language: what its GET answers, byte for byte.
    ``memo``: what the renders of one reading in several languages read once and share (its
    template tags keep there what does not depend on the language)."""
    context: dict[str, Any] = {"event": event}
    if memo is not None:
        context["board_memo"] = memo
    return render_to_string(parts_of(event)[part], context)


def board_payload(event_id: int, *, what: str = "standings") -> str | None:
    """The bus message of an event's board as it reads now, in every language, for a change
    of ``what``; None if the event is gone."""
    stamp = board_stamp()
    event = Event.objects.select_related("structure").filter(pk=event_id).first()
    if event is None:
        return None
    views: dict[str, dict[str, str]] = {}
    memo: dict[str, Any] = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            views[language] = {p: render_part(event, p, memo=memo) for p in parts_of(event)}
    board = {"stamp": stamp, "views": views}
    return json.dumps(
        {"event": event_id, "what": what, "at": timezone.now().isoformat(), "board": board}
    )


def phase_of(clock: dict[str, Any]) -> str:
    """What the board shows of the clock (a clock message's state): started, finished or
    neither (an online event's field says which), the level in force. Pause, resume and time
    added leave it as it was: no board for them."""
    status = clock["status"]
    stage = status if status in {"not_started", "event_finished"} else "on"
    return f"{stage}:{clock['level_index']}"


def _phase_key(event_id: int) -> str:
    return f"live:board-phase:{namespace()}:{event_id}"


def phase_moved(event_id: int, phase: str) -> bool:
    """Whether the clock's publish before this one had another phase, as kept in the cache (the
    database bus; on Redis it is kept with the clock's state, tournaments.live_clock). A cache
    that cannot be read says moved: a board too many is only a render."""
    try:
        if cache.get(_phase_key(event_id)) == phase:
            return False
        cache.set(_phase_key(event_id), phase, PHASE_SECONDS)
    except redis.RedisError:
        pass
    return True
