"""Online events on the tables' pages: the lobby's list, and for a table of an event the
viewer's seat at another table of it (he was moved, TDA 10B/11A) or his place once he is out."""

from __future__ import annotations

from dataclasses import dataclass

from django import template
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count

from tables.online.models import OnlineSeat, OnlineTable, TableStatus
from tournaments.models import Entry, Event, EventStatus

register = template.Library()


@register.simple_tag
def open_online_events() -> list[Event]:
    """Online events not finished, soonest first, each with ``registered`` (its entries)."""
    return list(
        Event.objects.filter(online=True)
        .exclude(status=EventStatus.FINISHED)
        .annotate(registered=Count("entries"))
        .order_by("status", "scheduled_start", "pk")
    )


@dataclass(frozen=True)
class Elsewhere:
    """Where the viewer stands in the event of a table he has no (open) seat at."""

    table: OnlineTable | None  # his table now, another one of the event
    place: int | None  # his place, once he is out or the event is over


@register.simple_tag
def event_seat_elsewhere(table: OnlineTable, user: User | AnonymousUser) -> Elsewhere | None:
    """For a table of an online event: the viewer's other open table of it, or his place."""
    if table.event_id is None or not user.is_authenticated:
        return None
    entry = Entry.objects.filter(event_id=table.event_id, player__user=user).order_by("-pk").first()
    if entry is None:
        return None
    seat = (
        OnlineSeat.objects.filter(entry=entry, table__status=TableStatus.OPEN)
        .exclude(table=table)
        .select_related("table")
        .first()
    )
    if seat is None and entry.place is None:
        return None
    return Elsewhere(table=seat.table if seat else None, place=entry.place)
