"""Bust-outs, quits, an agreed stop, undo/redo, and the public standings fragment."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET, require_POST

from scoring import forms, services, undo_services
from scoring import hand_for_hand_services as hand_for_hand
from scoring.floor_views import floor_done, floor_failed, form_errors, run_floor_action
from tournaments.bounds import parse_id
from tournaments.entry_services import FloorError
from tournaments.fragments import board_fragment
from tournaments.models import Entry, EntryStatus, Event
from tournaments.money_selectors import money_rules
from tournaments.permissions import acting_user, floor_required


def _playing(event: Event) -> list[Entry]:
    entries = Entry.objects.filter(event=event, status=EntryStatus.PLAYING)
    return list(entries.select_related("player").order_by("player__name"))


@require_POST
@floor_required
def record_busts(request: HttpRequest, pk: int) -> HttpResponse:
    """R5.6: the players out in one hand, placed by their stacks at the start of the hand."""
    event = get_object_or_404(Event, pk=pk)
    return run_floor_action(
        request,
        event,
        forms.BustForm(
            request.POST, entries=_playing(event), needs_busted_by=money_rules(event).has_bounties
        ),
        lambda data: services.record_busts(
            event_id=event.pk, actor=acting_user(request), busts=data["rows"], key=data["key"]
        ),
    )


@require_POST
@floor_required
def record_quit(request: HttpRequest, pk: int) -> HttpResponse:
    """R5.9: a player quits and places where he left."""
    event = get_object_or_404(Event, pk=pk)
    return run_floor_action(
        request,
        event,
        forms.QuitForm(request.POST),
        lambda data: services.record_quit(
            event_id=event.pk,
            entry_id=data["entry"],
            actor=acting_user(request),
            stack=data["stack"],
            key=data["key"],
        ),  # fmt: skip
    )


@require_POST
@floor_required
def agreed_stop(request: HttpRequest, pk: int) -> HttpResponse:
    """R5.10: everyone left agrees to stop; places by chip counts."""
    event = get_object_or_404(Event, pk=pk)
    return run_floor_action(
        request,
        event,
        forms.StopForm(request.POST, entries=_playing(event)),
        lambda data: services.record_agreed_stop(
            event_id=event.pk, actor=acting_user(request), counts=data["rows"], key=data["key"]
        ),
    )


def _step_id(request: HttpRequest) -> int | None:
    """The step the page offered to undo or redo (a double click then changes nothing twice)."""
    return parse_id(request.POST.get("step", ""))


def _step_action(request: HttpRequest, pk: int, service: Callable[..., object]) -> HttpResponse:
    """Undo or redo the step the page offered (a double click then changes nothing twice)."""
    event = get_object_or_404(Event, pk=pk)
    try:
        service(event_id=event.pk, actor=acting_user(request), step_id=_step_id(request))
    except FloorError as error:
        return floor_failed(request, event, str(error))
    return floor_done(request, event)


@require_POST
@floor_required
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back the last bust, quit, stop or move."""
    return _step_action(request, pk, undo_services.undo_last)


@require_POST
@floor_required
def redo(request: HttpRequest, pk: int) -> HttpResponse:
    """Do again what was undone last."""
    return _step_action(request, pk, undo_services.redo_next)


@require_POST
@floor_required
def hand_done(request: HttpRequest, pk: int) -> HttpResponse:
    """TDA RP-8: a table has finished the hand-for-hand hand."""
    event = get_object_or_404(Event, pk=pk)
    form = forms.HandDoneForm(request.POST)
    if not form.is_valid():
        return floor_failed(request, event, *form_errors(form))
    try:
        hand_for_hand.report_hand_done(
            event_id=event.pk, table_number=form.cleaned_data["table"],
            hand_number=form.cleaned_data["hand"], actor=acting_user(request),
        )  # fmt: skip
    except FloorError as error:
        return floor_failed(request, event, str(error))
    return floor_done(request, event)


@require_POST
@floor_required
def take_back_hand_done(request: HttpRequest, pk: int) -> HttpResponse:
    """TDA RP-8: take back a table's "hand done" report (a wrong click)."""
    event = get_object_or_404(Event, pk=pk)
    form = forms.HandDoneForm(request.POST)
    if not form.is_valid():
        return floor_failed(request, event, *form_errors(form))
    try:
        hand_for_hand.take_back_hand_done(
            event_id=event.pk, table_number=form.cleaned_data["table"],
            hand_number=form.cleaned_data["hand"], actor=acting_user(request),
            key=form.cleaned_data["key"],
        )  # fmt: skip
    except FloorError as error:
        return floor_failed(request, event, str(error))
    return floor_done(request, event)


@require_GET
def standings_fragment(request: HttpRequest, code: str) -> HttpResponse:
    """The public standings fragment for the TV and phones (the part of the event's board that
    the stream carries, tournaments.live_board); If-None-Match answers 304."""
    return board_fragment(request, "standings", code=code)
