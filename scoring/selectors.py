"""Reads for pages: an event's standings (places so far, players left, chips, average stack)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Sum
from django.utils.functional import Promise as StrPromise

from scoring.models import Elimination, EliminationKind
from tournaments.models import Entry, EntryStatus, Event
from tournaments.money_selectors import chips_bought

# Entries whose chips came into play: they were seated at some point.
IN_THE_FIELD = [
    EntryStatus.PLAYING,
    EntryStatus.BUSTED,
    EntryStatus.QUIT,
    EntryStatus.FINISHED,
]


@dataclass(frozen=True)
class PlaceLine:
    """One placed entry."""

    place: int
    name: str
    kind: str
    kind_label: str | StrPromise  # lazy: in the language it is shown in
    entry_id: int


@dataclass(frozen=True)
class Standings:
    """An event's standings as the floor, the TV and the phones show them."""

    places: list[PlaceLine]
    players_left: int
    field: int
    total_chips: int
    chips_in_play: int
    average_stack: int | None
    winner: str | None = None  # once everyone is placed: the name in first place
    more: int = 0  # places not in ``places`` (beyond the ``shown`` asked for)


def event_standings(event: Event, *, shown: int | None = None) -> Standings:
    """Places so far (best first), players left, chips in play and the average stack; the
    first ``shown`` places only, if given (``more``: how many are left out)."""
    entries = Entry.objects.filter(event=event, status__in=IN_THE_FIELD)
    # docs/money.md: rebuy and add-on chips are in play too.
    total = (entries.aggregate(total=Sum("starting_stack"))["total"] or 0) + chips_bought(event)
    # R5.9: a quitter's chips leave play.
    removed = (
        Elimination.objects.active()
        .filter(event=event, kind=EliminationKind.QUIT)
        .aggregate(removed=Sum("stack"))["removed"]
        or 0
    )
    left = entries.filter(status=EntryStatus.PLAYING).count()
    outs = (
        Elimination.objects.active()
        .filter(event=event)
        .select_related("entry__player")
        .order_by("entry__place", "place", "pk")
    )
    places = [
        PlaceLine(
            # docs/money.md: a later entry moves the places given before it down (entry.place).
            place=o.entry.place or o.place,
            name=o.entry.label,
            kind=o.kind,
            # Lazy: a reading shared by the board's languages shows each its own (live_board).
            kind_label=EliminationKind(o.kind).label,
            entry_id=o.entry_id,
        )
        for o in (outs if shown is None else outs[:shown])
    ]
    more = 0 if shown is None or len(places) < shown else outs.count() - len(places)
    in_play = total - removed
    return Standings(
        places=places,
        players_left=left,
        field=entries.count(),
        total_chips=total,
        chips_in_play=in_play,
        average_stack=round(in_play / left) if left else None,
        winner=next((line.name for line in places if line.place == 1), None) if not left else None,
        more=more,
    )
