"""What the online tables publish on the live bus after a commit (tables.online.live streams it).

Imported by the services that change a table (services, play) and by the stream (live), and
importing none of them: no module of the package imports one that imports it back.
"""

from __future__ import annotations

import json
import logging

from tables.online.selectors import build_snapshot
from tournaments.live import publish
from tournaments.live_clock import namespace

logger = logging.getLogger(__name__)


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
