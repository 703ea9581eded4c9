"""The floor dashboard: the clock with its controls, the level list, the floor's notices.

The dashboard points to every layer (seats, chip-ups, hand-for-hand, standings), so it sits
in the top one; the clock's own pages (phone, TV, fragment, stream) stay in tournaments.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import etag, require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from scoring.templatetags.floor_notices import floor_notices
from tournaments.clock_forms import ClockActionForm
from tournaments.display import ClockDisplay, clock_display
from tournaments.models import Event
from tournaments.permissions import floor_required
from tournaments.services import ClockAction, ClockActionError, StaleClockError, act_on_clock
from tournaments.views import HtmxHttpRequest


def floor_etag(event: Event, display: ClockDisplay) -> str:
    """The dashboard's ETag: its clock and its notices (a chip-up race, a hand-done report)."""
    return f"floor-{display.etag}-{floor_notices(event).key}"


def _floor_etag(request: HttpRequest, pk: int) -> str | None:
    if request.headers.get("HX-Request") != "true":
        return None
    event = Event.objects.select_related("structure").filter(pk=pk).first()
    return None if event is None else floor_etag(event, clock_display(event))


def _render_floor(
    request: HttpRequest,
    event: Event,
    *,
    partial: bool,
    error: str | None = None,
    status: int = 200,
) -> HttpResponse:
    display: ClockDisplay = clock_display(event)
    context = {
        "event": event,
        "clock": display,
        "floor_etag": floor_etag(event, display),
        "error": error,
        "refresh_url": reverse("floor:event_floor", args=[event.pk]),
        "stream_url": reverse("tournaments:event_stream", args=[event.code]),
        "phone_url": request.build_absolute_uri(event.get_absolute_url()),
    }
    template = "scoring/event_floor.html" + ("#floor" if partial else "")
    return render(request, template, context, status=status)


@floor_required
@require_GET
@vary_on_headers("HX-Request")
@cache_control(no_cache=True, private=True)
@etag(_floor_etag)
def event_floor(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The floor dashboard: the clock, its controls and the level list."""
    event = get_object_or_404(Event.objects.select_related("structure"), pk=pk)
    return _render_floor(request, event, partial=bool(request.htmx))


@floor_required
@require_POST
def clock_action(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """One press of a clock control, checked against the clock version the page showed."""
    event = get_object_or_404(Event.objects.select_related("structure"), pk=pk)
    form = ClockActionForm(request.POST)
    if not form.is_valid():
        return HttpResponse(form.error_text(), status=400, content_type="text/plain")
    assert isinstance(request.user, User)  # noqa: S101 - floor_required let only users in
    data = form.cleaned_data
    try:
        event = act_on_clock(
            event_id=event.pk,
            actor=request.user,
            action=ClockAction(data["action"]),
            expected_version=data["expected_version"],
            level=data.get("level"),
            seconds=data.get("seconds"),
        )
    except StaleClockError as error:
        return _refuse(request, event, str(error), status=409)
    except ClockActionError as error:
        return _refuse(request, event, str(error), status=400)
    if request.htmx:
        return _render_floor(request, event, partial=True)
    return HttpResponseRedirect(reverse("floor:event_floor", args=[event.pk]), status=303)


def _refuse(request: HtmxHttpRequest, event: Event, message: str, *, status: int) -> HttpResponse:
    """htmx: the fresh controls with the reason; without JavaScript: a message and back."""
    if request.htmx:
        event.refresh_from_db()
        return _render_floor(request, event, partial=True, error=message, status=status)
    messages.error(request, message)
    return redirect("floor:event_floor", pk=event.pk)
