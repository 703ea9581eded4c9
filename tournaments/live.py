"""Pushes to open pages: publish that an event changed; the event streams fan it out."""

from __future__ import annotations


def publish_event_changed(*, event_id: int, what: str) -> None:
    """Tell every open page of the event that its ``what`` (clock, level, standings) changed."""
    # The bus (Redis pub/sub, or the database on the embedded default) is wired in by the
    # live-updates work; until then pages find changes by their conditional GET polling.
    return None
