"""What the online tables publish on the live bus after a commit (tables.online.live streams it):
the table itself (docs/architecture.md, "Live updates").

Imported by the services that change a table (services, play) and by the stream (live), and
importing none of them: no module of the package imports one that imports it back.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from config.cache import Batch
from tables.online.broadcast import SENT_SECONDS, changed_parts, public_message, sent_keys
from tables.online.languages import listened, listening_keys
from tables.online.replay import (
    TableMessage,
    keep_messages,
    keep_script,
    keeping,
    kept,
    number_user_message,
)
from tables.online.selectors import TableSnapshot, build_snapshot, keep_snapshot
from tournaments.live import Retries, publish, publish_many, user_channel
from tournaments.live_clock import namespace

logger = logging.getLogger(__name__)


def table_channel(table_id: int) -> str:
    """The bus channel of one online table (of this installation's database)."""
    return f"{namespace()}:table:{table_id}"


def publish_user_event(
    user_id: int, *, what: str, table_id: int | None = None, event_id: int | None = None
) -> None:
    """Tell the player's own tabs that something of his changed (after the commit). Like the
    public nudges it carries no card and no amount: the tab fetches what it may see. An online
    event's news names the event, so a player in two events follows each to its own table. A
    failure is published again a moment later (``Retries``)."""
    key = (user_id, what, table_id, event_id)
    if not _publish_user_event(key):
        user_retries.failed(key)


def _publish_user_event(key: tuple[int, str, int | None, int | None]) -> bool:
    user_id, what, table_id, event_id = key
    try:
        message: dict[str, object] = {"user": user_id, "what": what, "table": table_id}
        if event_id is not None:
            message["event"] = event_id
        publish(user_channel(user_id), number_user_message(user_id, message))
    except Exception:
        logger.exception("could not publish %s to user %s", what, user_id)
        return False
    return True


user_retries = Retries(_publish_user_event, name=lambda key: f"{key[1]} to user {key[0]}")


def nudge(table_id: int, version: int) -> str:
    """A table's message without the table: which, and its version (a tab fetches it)."""
    return json.dumps({"table": table_id, "version": version})


def publish_table_changed(table_id: int, snapshot: TableSnapshot | None = None) -> None:
    """Send every tab of the table its new version (called after the commit): the public table
    rendered once here, and to each player whose private part changed, his part on his own
    channel (tables.online.broadcast). The snapshot (a move's own, ``move_snapshot``, or read
    now) is kept in the cache, so a tab that fetches its fragment (a first load) finds it; the
    messages are kept a while for a tab that reconnects with the last id it saw
    (tables.online.replay), before they go out.

    Three round trips to Redis, whatever the table (issue 17: each is CPU in the process, in
    Redis and in the kernel): the snapshot kept with the reads of the streams' languages and of
    what each player was last sent; then the fingerprints of the parts sent with the messages
    kept; then the messages published."""
    if not _publish_table(table_id, snapshot):
        table_retries.failed(table_id)


def _publish_table(
    table_id: int, snapshot: TableSnapshot | None = None, *, every_part: bool = False
) -> bool:
    """``publish_table_changed`` once; whether it went out (or there was nothing to publish).
    ``every_part``: each player's private part is sent whatever he was last sent (a retry: the
    failed try may have remembered parts it never published)."""
    try:
        if snapshot is None:
            snapshot = build_snapshot(table_id, keep=False)
        if snapshot is None:
            return True  # the table is gone
        version = snapshot.table.version
        players = [seat.user_id for seat in snapshot.seats if not seat.is_bot]
        reads = Batch()
        keep_snapshot(snapshot, reads)
        languages_read = reads.get_many(listening_keys(table_id, players))
        sent_read = reads.get_many(list(sent_keys(snapshot).values()))
        try:
            found: list[Any] | None = reads.send()
        except Exception:
            found = None  # every language rendered, every part sent (each logs it)
        # Rendered in the languages the table's streams read; a bare nudge if none reads it
        # (tables.online.languages: a table of bots nobody watches is not drawn at all).
        table_languages, player_languages = listened(
            table_id, players, None if found is None else found[languages_read]
        )
        message = nudge(table_id, version)
        if table_languages:
            try:
                message = json.dumps(public_message(snapshot, table_languages))
            except Exception:
                logger.exception("could not render table %s: its tabs fetch it", table_id)
        sent = {} if every_part else None if found is None else found[sent_read]
        privates, fingerprints = changed_parts(snapshot, player_languages, sent)
        kept = TableMessage(table_id, snapshot.table.created_at, version, message)
        bodies = _kept(kept, privates, fingerprints)
        messages = [(table_channel(table_id), message)]
        messages += [
            (user_channel(user_id), body)
            for (user_id, _private), body in zip(privates, bodies, strict=True)
        ]
        publish_many(messages)
    except Exception:
        # The change is committed; it is published again, and every page still finds it by its
        # conditional GET polling.
        logger.exception("could not publish a change of table %s", table_id)
        return False
    return True


# Tables whose change could not be published: each as it then stands, every player's part.
table_retries = Retries(
    lambda table_id: _publish_table(table_id, every_part=True), name=lambda key: f"table {key}"
)


def _kept(
    table: TableMessage, privates: list[tuple[int, dict[str, Any]]], fingerprints: dict[str, str]
) -> list[str]:
    """The fingerprints of the parts sent remembered, and the messages kept (tables.online.
    replay), in one round trip: the texts to publish of the players' own messages. A failure
    sends them unnumbered (a tab that reconnects gets the table whole) and the parts again."""
    batch = Batch()
    batch.set_many(fingerprints, SENT_SECONDS)
    if not kept() or not batch.on_redis:
        try:
            batch.send()
        except Exception:
            logger.warning(
                "the cache failed: table %s's private parts are sent again", table.table_id
            )
        return keep_messages(table, privates)
    call = keeping(table, privates)
    slot = batch.script(keep_script(), call.keys, call.args)
    try:
        return call.numbered(batch.send()[slot])
    except Exception:
        logger.warning(
            "the messages of table %s's change were not kept: sent as they are", table.table_id
        )
        return call.bodies
