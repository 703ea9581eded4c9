"""Pages of events, structures and the clock: parse, call one service, render."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments.models import BlindStructure, Event


def home(request: HttpRequest) -> HttpResponse:
    """The start page: running and coming events, links by role."""
    events = Event.objects.select_related("structure").exclude(status="finished")[:20]
    return render(request, "tournaments/home.html", {"events": events})


def event_phone(request: HttpRequest, code: str) -> HttpResponse:
    """The public phone view of an event's clock."""
    event = get_object_or_404(Event.objects.select_related("structure"), code=code)
    return render(request, "tournaments/event_phone.html", {"event": event})


def structure_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A structure's levels and shape."""
    structure = get_object_or_404(BlindStructure, pk=pk)
    return render(request, "tournaments/structure_detail.html", {"structure": structure})
