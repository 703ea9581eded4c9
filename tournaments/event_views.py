"""Event management (floor staff and admins): parse a form, call one service, render.

Floor staff run the night alone: they create an event from a structure, edit and finish it;
structures, seasons and users stay with the admin (docs/online.md, "Roles").
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import event_services as services
from tournaments.event_forms import EventForm, FinishForm
from tournaments.models import Event, EventStatus
from tournaments.money_forms import MoneyForm
from tournaments.permissions import acting_user, floor_required

CONFLICT = 409
UNPROCESSABLE = 422


# --- event management ---------------------------------------------------------------------------


def _render_list(
    request: HttpRequest,
    *,
    refused: Event | None = None,
    reason: str = "",
    needs_confirmation: bool = False,
    status: int = 200,
) -> HttpResponse:
    events = Event.objects.select_related("structure", "season")
    context: dict[str, Any] = {
        "running": events.filter(status=EventStatus.RUNNING).order_by("scheduled_start", "pk"),
        "upcoming": events.filter(status=EventStatus.SCHEDULED).order_by("scheduled_start", "pk"),
        "finished": events.filter(status=EventStatus.FINISHED).order_by("-scheduled_start", "-pk"),
        "refused": refused,
        "reason": reason,
        "needs_confirmation": needs_confirmation,
    }
    template = "tournaments/event_list.html"
    if getattr(request, "htmx", False):
        template += "#events"
    return render(request, template, context, status=status)


@require_GET
@floor_required
def event_list(request: HttpRequest) -> HttpResponse:
    """Every event: running, coming up and finished, with the links to run each."""
    return _render_list(request)


def _render_form(
    request: HttpRequest,
    form: EventForm,
    money_form: MoneyForm,
    *,
    event: Event | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {"form": form, "money_form": money_form, "event": event}
    return render(request, "tournaments/event_form.html", context, status=status)


def _refused(
    request: HttpRequest,
    forms: tuple[EventForm, MoneyForm],
    error: services.EventEditError,
    event: Event | None,
) -> HttpResponse:
    form, money_form = forms
    field = error.field or ""
    if field.startswith("money-"):
        money_form.add_error(field.removeprefix("money-"), str(error))
    else:
        form.add_error(error.field, str(error))
    return _render_form(request, form, money_form, event=event, status=UNPROCESSABLE)


@require_http_methods(["GET", "POST"])
@floor_required
def event_create(request: HttpRequest) -> HttpResponseBase:
    """A new event: the form, then create_event."""
    if request.method == "GET":
        return _render_form(request, EventForm(), MoneyForm())
    form, money_form = EventForm(request.POST), MoneyForm(request.POST)
    if not (form.is_valid() & money_form.is_valid()):
        return _render_form(request, form, money_form, status=UNPROCESSABLE)
    try:
        event = services.create_event(
            actor=acting_user(request), money_settings=money_form.settings(), **form.cleaned_data
        )
    except services.EventEditError as error:
        return _refused(request, (form, money_form), error, None)
    messages.success(request, _("“%(name)s” is scheduled.") % {"name": event.name})
    return HttpResponseRedirect(reverse("tournaments:event_list"), status=303)


@require_http_methods(["GET", "POST"])
@floor_required
def event_edit(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Change an event's settings (not once it has finished; not its levels once it runs)."""
    event = get_object_or_404(Event.objects.select_related("structure", "season"), pk=pk)
    if event.status == EventStatus.FINISHED:
        reason = services.finished_text()
        return _render_list(request, refused=event, reason=reason, status=CONFLICT)
    if request.method == "GET":
        forms = EventForm(event=event), MoneyForm(event=event)
        return _render_form(request, *forms, event=event)
    form, money_form = EventForm(request.POST, event=event), MoneyForm(request.POST, event=event)
    if not (form.is_valid() & money_form.is_valid()):
        return _render_form(request, form, money_form, event=event, status=UNPROCESSABLE)
    try:
        services.update_event(
            actor=acting_user(request), event_id=event.pk,
            money_settings=money_form.settings(), **form.cleaned_data,
        )  # fmt: skip
    except services.EventEditError as error:
        return _refused(request, (form, money_form), error, event)
    messages.success(request, _("“%(name)s” is saved.") % {"name": form.cleaned_data["name"]})
    return HttpResponseRedirect(reverse("tournaments:event_list"), status=303)


@require_POST
@floor_required
def event_finish(request: HttpRequest, pk: int) -> HttpResponse:
    """Running → finished; with players still in, only once the floor confirms."""
    event = get_object_or_404(Event, pk=pk)
    form = FinishForm(request.POST)
    confirm = form.is_valid() and bool(form.cleaned_data["confirm"])
    try:
        services.finish_event(
            actor=acting_user(request), event_id=event.pk, confirm_players_in=confirm
        )
    except services.EventEditError as error:
        return _render_list(
            request,
            refused=event,
            reason=str(error),
            needs_confirmation=isinstance(error, services.PlayersStillInError),
            status=CONFLICT,
        )
    messages.success(request, _("“%(name)s” has finished.") % {"name": event.name})
    if getattr(request, "htmx", False):
        return _render_list(request)
    return HttpResponseRedirect(reverse("tournaments:event_list"), status=303)
