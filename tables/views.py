"""The printable and the public seat lists and a player's seat on his phone.

The floor's seating page and its actions show the standings too: scoring.floor_views.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from tables.selectors import seat_card, tables_with_seats
from tournaments.models import Entry, EntryStatus, Event
from tournaments.permissions import floor_required


@require_GET
@floor_required
def floor_print(request: HttpRequest, pk: int) -> HttpResponse:
    """A printable seat list: by table and alphabetically."""
    event = get_object_or_404(Event, pk=pk)
    context = {"event": event, "tables": tables_with_seats(event), "by_name": _by_name(event)}
    return render(request, "tables/seat_list_print.html", context)


def _by_name(event: Event) -> list[Any]:
    entries = Entry.objects.filter(event=event, status=EntryStatus.PLAYING)
    return [seat_card(e) for e in entries.select_related("player").order_by("player__name")]


# ---- public pages --------------------------------------------------------------------------


@require_GET
@vary_on_headers("HX-Request", "Accept-Language", "Cookie")
def public_seats(request: HttpRequest, code: str) -> HttpResponse:
    """The public seat list of an event (posted in the room too) and "find my seat" by name."""
    event = get_object_or_404(Event, code=code)
    query = " ".join(request.GET.get("name", "").split())[:120]
    found = []
    if query:
        entries = Entry.objects.filter(event=event, player__name__icontains=query)
        found = [
            seat_card(e)
            for e in entries.select_related("player").order_by("player__name", "number")
        ]
    context = {
        "event": event,
        "query": query,
        "found": found,
        "searched": bool(query),
        "tables": tables_with_seats(event),
    }
    return render(request, "tables/seat_list_public.html", context)


@require_GET
@cache_control(no_cache=True)
@vary_on_headers("HX-Request", "Accept-Language", "Cookie")
def my_seat(request: HttpRequest, code: str, entry_id: int) -> HttpResponse:
    """One player's seat on his phone; after a move: "Go to table 3, seat 7"."""
    event = get_object_or_404(Event, code=code)
    entry = get_object_or_404(Entry.objects.select_related("player"), event=event, pk=entry_id)
    card = seat_card(entry)
    template = "tables/seat_phone.html"
    if getattr(request, "htmx", None):
        template += "#seat"
    return render(request, template, {"event": event, "card": card})
