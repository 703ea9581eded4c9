"""Pages of online events (docs/online.md, "Online tournaments"): the event's page where a
player registers and finds his table and his result, and the floor's controls (house bots, a
removed player). Parse, call one service of scoring.online_events, answer; a refusal is a 4xx
with the reason and changes nothing."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from scoring import online_events
from scoring.online_events import WAITING_STATUSES
from scoring.season_selectors import ResultLine, event_results
from tables.online.models import OnlineSeat, TableStatus
from tournaments.display import clock_display
from tournaments.entry_services import FloorError
from tournaments.fragments import board_fragment
from tournaments.models import Entry, Event, EventStatus
from tournaments.permissions import acting_user, floor_required
from tournaments.selectors import is_floor

SEE_OTHER = 303


class BotsForm(forms.Form):
    """How many house bots the floor adds."""

    count = forms.IntegerField(
        label=gettext_lazy("House bots"),
        min_value=1,
        max_value=1_000,
        initial=1,
        error_messages={
            "required": gettext_lazy("Add between 1 and 1,000 house bots."),
            "invalid": gettext_lazy("Add between 1 and 1,000 house bots."),
            "min_value": gettext_lazy("Add between 1 and 1,000 house bots."),
            "max_value": gettext_lazy("Add between 1 and 1,000 house bots."),
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1}),
    )


def _online_event(pk: int) -> Event:
    return get_object_or_404(
        Event.objects.select_related("structure", "season"), pk=pk, online=True
    )


def _my_entry(event: Event, user: User | Any) -> Entry | None:
    if not user.is_authenticated:
        return None
    return Entry.objects.filter(event=event, player__user=user).order_by("-pk").first()


def _my_result(event: Event, entry: Entry | None) -> ResultLine | None:
    """His place and his season points (R6, the season's formula), once he has a place."""
    if entry is None or entry.place is None:
        return None
    for line in event_results(event):
        if line.player_id == entry.player_id and line.place == entry.place:
            return line
    return None


def event_context(request: HttpRequest, event: Event, *, error: str = "") -> dict[str, Any]:
    """What the event's page shows its viewer alone (his part, ``#mine``): his entry, his
    table, his result, whether he may register. The rest travels with the event's board."""
    user = request.user
    entry = _my_entry(event, user)
    seat = None
    if entry is not None:
        seat = (
            OnlineSeat.objects.filter(entry=entry, table__status=TableStatus.OPEN)
            .select_related("table")
            .first()
        )
    scheduled = event.status == EventStatus.SCHEDULED
    late = event.status == EventStatus.RUNNING and not event.start_players
    return {
        "event": event,
        "entry": entry,
        "my_table": seat.table if seat else None,
        "result": _my_result(event, entry),
        "can_register": user.is_authenticated and entry is None and (scheduled or late),
        "can_unregister": entry is not None
        and scheduled
        and entry.status in WAITING_STATUSES
        and not entry.purchases.exists(),
        "staff": isinstance(user, User) and is_floor(user),
        "error": error,
    }


def _page(
    request: HttpRequest, event: Event, *, error: str = "", status: int = 200
) -> HttpResponse:
    context = event_context(request, event, error=error)
    if getattr(request, "htmx", False):  # his part looks again (its stream's "mine", a poll)
        return render(request, "scoring/online_event.html#mine", context, status=status)
    context |= {
        "clock": clock_display(event),
        "refresh_url": reverse("tournaments:event_clock", args=[event.code]),
        "stream_url": reverse("tournaments:event_stream", args=[event.code]) + "?mine=1",
    }
    return render(request, "scoring/online_event.html", context, status=status)


@require_GET
def event_page(request: HttpRequest, pk: int) -> HttpResponse:
    """An online event: its clock, start rule and players; register, find one's table, one's
    result."""
    return _page(request, _online_event(pk))


@require_GET
def field_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """An online event's field (players registered and left, open tables): the part of its
    board the page polls as the fallback of its stream; If-None-Match answers 304."""
    return board_fragment(request, "field", pk=pk, online=True)


def _back(event: Event) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("online_events:event", args=[event.pk]), status=SEE_OTHER)


@require_POST
@login_required
def register(request: HttpRequest, pk: int) -> HttpResponse:
    """Register: once (a second click finds him registered and changes nothing)."""
    event = _online_event(pk)
    user = acting_user(request)
    if _my_entry(event, user) is not None:
        return _back(event)
    try:
        online_events.register(event_id=event.pk, user=user)
    except FloorError as error:
        if _my_entry(event, user) is not None:
            return _back(event)  # a double click that raced the first: done already
        event.refresh_from_db()
        return _page(request, event, error=str(error), status=400)
    messages.success(request, _("You are registered for “%(name)s”.") % {"name": event.name})
    return _back(event)


@require_POST
@login_required
def unregister(request: HttpRequest, pk: int) -> HttpResponse:
    """Take the registration back before the start (a second click changes nothing)."""
    event = _online_event(pk)
    user = acting_user(request)
    if _my_entry(event, user) is None:
        return _back(event)
    try:
        online_events.unregister(event_id=event.pk, user=user)
    except FloorError as error:
        event.refresh_from_db()
        return _page(request, event, error=str(error), status=400)
    messages.success(request, _("Your registration is taken back."))
    return _back(event)


def _to_floor(event: Event) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("floor:event_floor", args=[event.pk]), status=SEE_OTHER)


@require_POST
@floor_required
def add_bots(request: HttpRequest, pk: int) -> HttpResponse:
    """The floor fills the event with house bots (audited by the service)."""
    event = _online_event(pk)
    form = BotsForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for e in form.errors.get("count", [])))
        return _to_floor(event)
    count = form.cleaned_data["count"]
    try:
        online_events.register_bots(event_id=event.pk, count=count, actor=acting_user(request))
    except FloorError as error:
        messages.error(request, str(error))
        return _to_floor(event)
    messages.success(request, _("%(count)s house bots registered.") % {"count": count})
    return _to_floor(event)


@require_POST
@floor_required
def remove_player(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    """The floor removes a player (audited): his hand folds, then he places where he left."""
    event = _online_event(pk)
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, event=event)
    try:
        online_events.remove_player(
            event_id=event.pk, entry_id=entry.pk, actor=acting_user(request)
        )
    except FloorError as error:
        messages.error(request, str(error))
        return _to_floor(event)
    messages.success(
        request, _("%(name)s is removed: he is out after his hand.") % {"name": entry.label}
    )
    return _to_floor(event)
