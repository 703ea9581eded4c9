"""The floor dashboard's card of an online event: who sits where, how many registered."""

from __future__ import annotations

from dataclasses import dataclass

from django import template

from tables.online.models import OnlineSeat, TableStatus
from tournaments.models import Entry, Event

register = template.Library()


@dataclass(frozen=True)
class OnlineFloor:
    """The event's players at its open tables, and its registrations."""

    seats: list[OnlineSeat]
    registered: int


@register.simple_tag
def online_floor(event: Event) -> OnlineFloor:
    """The seated players of an online event, by table and seat."""
    seats = list(
        OnlineSeat.objects.filter(
            table__event=event, table__status=TableStatus.OPEN, entry__isnull=False
        )
        .select_related("table__floor_table", "entry__player")
        .order_by("table__floor_table__number", "table_id", "number")
    )
    return OnlineFloor(seats=seats, registered=Entry.objects.filter(event=event).count())
