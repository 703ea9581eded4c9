"""Data for season tests: a season, events in it and finished results."""

from __future__ import annotations

from datetime import date

from tests.factories import make_event, make_structure
from tournaments.models import Entry, EntryStatus, Event, EventStatus, Player, Season


def make_season(*, name: str = "Winter", formula: str = "linear") -> Season:
    return Season.objects.create(
        name=name, starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31), formula=formula
    )


def player(name: str) -> Player:
    return Player.objects.get_or_create(name=name)[0]


def finished_event(
    *, season: Season | None, names: list[str], name: str = "Night", kind: str = "custom"
) -> Event:
    """A finished event whose players placed in the order given (winner first)."""
    event = make_event(name=name, structure=make_structure(name=f"{name} {Event.objects.count()}"))
    event.season, event.kind, event.status = season, kind, EventStatus.FINISHED
    event.save()
    for place, who in enumerate(names, start=1):
        Entry.objects.create(
            event=event,
            player=player(who),
            starting_stack=event.starting_stack,
            status=EntryStatus.FINISHED if place == 1 else EntryStatus.BUSTED,
            place=place,
        )
    return event
