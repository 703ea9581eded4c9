"""The stream carries the table (docs/architecture.md, "Live updates"): the public table rendered
once per version by the process that commits the change, and each player's private part sent
on his own channel only when it changed for him.

The public part is the table as a spectator sees it (``table_view`` for nobody: no live hole
card of anyone, shown cards after the hand); the private part is drawn by the same selector for
its one viewer (his hole cards, his buttons and amounts, his pre-action boxes), so a hole card
can only ever reach its owner. Both are rendered in the languages their streams read
(tables.online.languages; every language when none is known); the tab takes its own, and
fetches its fragment when its language is missing. What a player was last sent is remembered
as a fingerprint in the cache, per table and player: a cache that fails sends again (harmless),
never less.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.cache import cache
from django.utils import translation

from tables.online.drawing import PRIVATE, PUBLIC, draw
from tables.online.languages import codes
from tables.online.models import OnlineTable
from tables.online.selectors import TableSnapshot, TableView, table_view
from tournaments.live_clock import namespace

logger = logging.getLogger(__name__)
SENT_SECONDS = 60 * 60


def _in_languages(
    template: str, context: dict[str, Any], languages: Sequence[str] | None
) -> dict[str, str]:
    rendered: dict[str, str] = {}
    for code in codes() if languages is None else languages:
        with translation.override(code):
            rendered[code] = str(draw(template, context))
    return rendered


def public_message(
    snapshot: TableSnapshot, languages: Sequence[str] | None = None
) -> dict[str, Any]:
    """The table channel's message of one version: the public table in ``languages`` (every
    language by default), with the seats whose player's connection dropped (R3.10: a drop
    bumps the version too)."""
    table = snapshot.table
    view = table_view(snapshot, AnonymousUser())  # its away seats read with its table's row
    html = _in_languages(PUBLIC, {"table": table, "view": view}, languages)
    return {"table": table.pk, "version": table.version, "html": html}


def private_state(view: TableView, table: OnlineTable) -> dict[str, Any]:
    """What the viewer's private part shows, as data: its fingerprint says whether it changed.

    Not what he would call: the page works its "Call N" box out from the public table (each
    seat's bet and stack and the current bet), so a raise, which changes that for everyone,
    sends a part only to the raiser and the next to act, not to every player (issue 17)."""
    me = view.me
    controls = view.controls
    return {
        "hand": [view.hand.pk, view.hand.commitment] if view.hand else None,
        "cards": [card.code for card in me.cards] if me else [],
        "in_hand": bool(me and me.in_hand and not me.folded and not me.all_in),
        "over": view.is_over,
        "shown": bool(me and me.hand_name),
        # His buttons carry the sequence they act on: a new one for every move on his turn.
        "controls": repr(controls) if controls else None,
        "sequence": view.sequence if controls else None,
        "seat": [view.my_seat.status, view.my_seat.leaving] if view.my_seat else None,
        # A closed table takes his seat's controls away and, at an online event, says his
        # place (the winner's table closes with him still seated).
        "open": table.is_open,
    }


def _private(
    view: TableView, table: OnlineTable, viewer: User, languages: Sequence[str] | None = None
) -> dict[str, Any]:
    # ``carried``: his cards travel in the part, for the page to lay into his seat.
    context = {"table": table, "view": view, "user": viewer, "carried": True}
    html = _in_languages(PRIVATE, context, languages)
    return {"user": viewer.pk, "what": "private", "table": table.pk,
            "version": table.version, "html": html}  # fmt: skip


def private_message(snapshot: TableSnapshot, user_id: int) -> dict[str, Any]:
    """The viewer's private part of the table as it stands (seated or not: a seat he left is
    gone from it), for his tab that reconnects after the messages it missed are gone
    (tables.online.live)."""
    viewer = User(pk=user_id)
    return _private(table_view(snapshot, viewer), snapshot.table, viewer)


def _sent_key(table: OnlineTable, user_id: int) -> str:
    # The table's creation, as the snapshot's key: a database recreated under the same name
    # (its ids reused) never finds the fingerprints of the one before.
    created = int(table.created_at.timestamp() * 1_000_000)
    return f"{namespace()}:online-private:{table.pk}:{created}:{user_id}"


def private_messages(
    snapshot: TableSnapshot, languages: dict[int, tuple[str, ...]] | None = None
) -> list[tuple[int, dict[str, Any]]]:
    """(player, message) for every player at the table whose private part changed, in the
    languages his streams read (``languages``: every language for a player it lacks)."""
    keys = sent_keys(snapshot)
    if not keys:
        return []
    try:
        sent: dict[str, Any] | None = cache.get_many(list(keys.values()))
    except Exception:
        sent = None
    messages, changed = changed_parts(snapshot, languages, sent)
    try:
        cache.set_many(changed, SENT_SECONDS)
    except Exception:
        logger.warning(
            "the cache failed: table %s's private parts are sent again", snapshot.table.pk
        )
    return messages


def sent_keys(snapshot: TableSnapshot) -> dict[int, str]:
    """Each player's key of what he was last sent at the table (to read with others)."""
    table = snapshot.table
    return {
        seat.user_id: _sent_key(table, seat.user_id) for seat in snapshot.seats if not seat.is_bot
    }


def changed_parts(
    snapshot: TableSnapshot,
    languages: dict[int, tuple[str, ...]] | None,
    sent: dict[str, Any] | None,
) -> tuple[list[tuple[int, dict[str, Any]]], dict[str, str]]:
    """``private_messages`` from what the cache answered for ``sent_keys`` (None: it failed:
    every part is sent), and the fingerprints to remember of the parts sent."""
    table = snapshot.table
    if sent is None:
        logger.warning("the cache failed: every private part of table %s is sent", table.pk)
        sent = {}
    messages = []
    changed = {}
    for user_id, key in sent_keys(snapshot).items():
        viewer = User(pk=user_id)
        view = table_view(snapshot, viewer)
        state = json.dumps(private_state(view, table), sort_keys=True, default=str)
        fingerprint = hashlib.sha256(state.encode()).hexdigest()
        if sent.get(key) == fingerprint:
            continue
        changed[key] = fingerprint
        chosen = languages.get(user_id) if languages is not None else None
        messages.append((user_id, _private(view, table, viewer, chosen)))
    return messages, changed
