"""The public part of an online event's page that travels with the event's board (its field:
how many registered and left, its open tables), read from the event alone
(tournaments.live_board)."""

from __future__ import annotations

from dataclasses import dataclass

from django import template

from tables.online.models import OnlineTable, TableStatus
from tournaments.live_board import shared_reading
from tournaments.models import Entry, Event

register = template.Library()


@dataclass(frozen=True)
class OnlineField:
    """How many registered, how many are still in, and the open tables to watch."""

    registered: int
    left: int
    tables: list[OnlineTable]


@register.simple_tag(takes_context=True)
def online_field(context: template.Context, event: Event) -> OnlineField:
    """The field of an online event as it stands: counts and table names, one reading for the
    board's languages (tournaments.live_board)."""
    return shared_reading(context, "field", lambda: _field(event))


def _field(event: Event) -> OnlineField:
    entries = Entry.objects.filter(event=event)
    tables = OnlineTable.objects.filter(event=event, status=TableStatus.OPEN).order_by("pk")
    return OnlineField(
        registered=entries.count(),
        left=entries.in_play().count(),
        tables=list(tables.only("pk", "name")),
    )
