"""The floor's seating page and its actions: parse a form, call one service, render the page.

The page shows seats and balancing (tables), hand-for-hand, places and standings (scoring), and
registers satellite players (scoring.satellites), so it sits in the top layer.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.middleware import HtmxDetails

from scoring import satellites
from scoring.hand_for_hand_services import hand_for_hand_view, reopenable_hand
from scoring.selectors import event_standings
from scoring.step_labels import step_label
from tables import forms, services
from tables.models import FloorStep, MoveReason, StepStatus
from tables.selectors import tables_with_seats
from tournaments.entry_services import FloorError, check_in_entry, register_entry
from tournaments.models import Entry, EntryStatus, Event, EventKind
from tournaments.money_display import floor_money
from tournaments.permissions import acting_user, floor_required


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


FLOOR_TEMPLATE = "scoring/floor_tables.html"


# ---- the floor page -----------------------------------------------------------------------

REASON_TEXT = {
    MoveReason.BALANCE: lambda: _(
        "Balancing: the player due for the next big blind at the fullest table moves to the "
        "worst free seat at the shortest table, never the small blind (TDA 11A; the table by a "
        "fixed procedure, TDA 11C; R5.7)."
    ),
    MoveReason.TABLE_BREAK: lambda: _(
        "Table break: players of the broken table draw random empty seats at the shortest "
        "tables and are dealt in at once, except between the small blind and the button (TDA "
        "10B; R5.7)."
    ),
    MoveReason.FINAL_TABLE: lambda: _(
        "Final table: everyone left fits one table and draws a fresh random seat (TDA RP-9)."
    ),
    MoveReason.FLOOR: lambda: _("Floor decision."),
}


def plan_lines(step: FloorStep) -> list[str]:
    """The plan's table facts in the reader's language, each citing its rule."""
    data, lines = step.data, []
    if data.get("final_table") is not None:
        lines.append(
            _("All players left fit table %(table)s: it is the final table; the button starts in "
              "seat %(seat)s (TDA RP-9).")
            % {"table": data["final_table"], "seat": data.get("final_button_seat")}
        )  # fmt: skip
    for table in data.get("broken_tables", []):
        lines.append(
            _("Table %(table)s breaks: next in the break order, and the other tables can seat its "
              "players (R5.7; TDA 10).") % {"table": table}
        )  # fmt: skip
    return lines


def draw_form(event: Event, entries: list[Entry]) -> forms.DrawForm:
    """The seat draw as the night needs it: the event's players a table, tables for everyone."""
    waiting = [e for e in entries if e.status == EntryStatus.CHECKED_IN] or [
        e for e in entries if e.status == EntryStatus.REGISTERED
    ]
    seats = event.table_size
    return forms.DrawForm(
        initial={"tables": max(1, -(-len(waiting) // seats)), "seats_per_table": seats}
    )


def floor_context(request: HttpRequest, event: Event, **extra: Any) -> dict[str, Any]:
    """Everything the floor's seating page shows."""
    entries = list(Entry.objects.filter(event=event).select_related("player"))
    plan = services.pending_plan(event)
    moves = []
    if plan is not None:
        for move in plan.moves.select_related("entry__player", "from_table", "to_table"):
            why = REASON_TEXT[MoveReason(move.reason)]()
            if not move.dealt_in:
                why += " " + _(
                    "This seat lies between the small blind and the button: he is dealt in after "
                    "the button passes (TDA 10B)."
                )
            moves.append({"move": move, "why": why, "waits": not move.dealt_in})
    steps = FloorStep.objects.filter(event=event)
    undo_step = steps.filter(status=StepStatus.DONE).order_by("-sequence").first()
    redo_step = steps.filter(status=StepStatus.UNDONE).order_by("sequence").first()
    context: dict[str, Any] = {
        "event": event,
        "entries": entries,
        "waiting": [e for e in entries if e.status in {"registered", "checked_in"}],
        "playing": [e for e in entries if e.status == EntryStatus.PLAYING],
        "checked_in": sum(1 for e in entries if e.status == EntryStatus.CHECKED_IN),
        "tables": tables_with_seats(event),
        "any_table": event.tables.exists(),
        "plan": plan,
        "plan_moves": moves,
        "plan_lines": plan_lines(plan) if plan else [],
        "halt_tables": plan.data.get("halt_tables", []) if plan else [],
        "hand_for_hand": hand_for_hand_view(event),  # TDA RP-8 on the satellite bubble
        "reopenable_hand": reopenable_hand(event),  # its reports can still be taken back
        "standings": event_standings(event),
        "money": floor_money(event, entries),  # docs/money.md; a freeroll shows none
        "undo_step": undo_step,
        "redo_step": redo_step,
        "undo_label": step_label(undo_step),
        "redo_label": step_label(redo_step),
        "register_form": forms.RegisterForm(),
        "draw_form": draw_form(event, entries),
        "is_final": event.kind == EventKind.FINAL,
        "errors": [],
        "posted": None,
        "form_key": uuid.uuid4().hex,
    }
    context.update(extra)
    return context


def render_floor(
    request: HttpRequest, event: Event, *, status: int = 200, **extra: Any
) -> HttpResponse:
    """The floor page, or only its #floor fragment for htmx."""
    htmx = getattr(request, "htmx", None)
    template = f"{FLOOR_TEMPLATE}#floor" if htmx else FLOOR_TEMPLATE
    return render(request, template, floor_context(request, event, **extra), status=status)


def floor_done(request: HttpRequest, event: Event) -> HttpResponse:
    """After a successful action: the fresh fragment for htmx, a redirect (PRG) otherwise."""
    if getattr(request, "htmx", None):
        event.refresh_from_db()  # the action may have ended it (scoring.services.end_event)
        return render_floor(request, event)
    return HttpResponseRedirect(reverse("floor:tables", args=[event.pk]))


def floor_failed(request: HttpRequest, event: Event, *reasons: str) -> HttpResponse:
    """Bad input: the page again with the reason and what was typed, status 400, nothing changed."""
    return render_floor(request, event, status=400, errors=list(reasons), posted=request.POST)


def form_errors(form: Any) -> list[str]:
    """A bound form's errors as plain sentences."""
    errors: list[str] = []
    for field, messages in form.errors.items():
        label = form.fields[field].label if field in form.fields else None
        errors.extend(f"{label}: {m}" if label else str(m) for m in messages)
    return errors


def run_floor_action(
    request: HttpRequest, event: Event, form: Any, action: Callable[[dict[str, Any]], object]
) -> HttpResponse:
    """Validate the form, call the service, answer with the page or the reason.

    A form resent with the key of a step it already made answers as the first one did (its
    players are out by now, so the form itself would no longer validate).
    """
    if services.find_by_key(event, str(request.POST.get("key", ""))[:64]) is not None:
        return floor_done(request, event)
    if not form.is_valid():
        return floor_failed(request, event, *form_errors(form))
    try:
        action(form.cleaned_data)
    except FloorError as error:
        return floor_failed(request, event, str(error))
    return floor_done(request, event)


@require_GET
@floor_required
def floor(request: HttpRequest, pk: int) -> HttpResponse:
    """The floor's seating page: entries, seat draw, tables, busts, the balancing plan."""
    return render_floor(request, get_object_or_404(Event, pk=pk))


@require_POST
@floor_required
def register(request: HttpRequest, pk: int) -> HttpResponse:
    """Register a player by name (found or created); checked in at once by default."""
    event = get_object_or_404(Event, pk=pk)
    # R5.5: a satellite screens the player first (nobody plays two satellites at once).
    register = (
        satellites.register_for_satellite if event.kind == EventKind.SATELLITE else register_entry
    )
    return run_floor_action(
        request,
        event,
        forms.RegisterForm(request.POST),
        lambda data: register(
            event_id=event.pk,
            actor=acting_user(request),
            name=data["name"],
            satellites_won=data["satellites_won"] or 0,
            check_in=data["check_in"],
            key=data["key"],
        ),  # fmt: skip
    )


@require_POST
@floor_required
def check_in(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    """Check in a registered player."""
    event = get_object_or_404(Event, pk=pk)
    check_in = (
        satellites.check_in_for_satellite if event.kind == EventKind.SATELLITE else check_in_entry
    )
    try:
        check_in(event_id=event.pk, entry_id=entry_id, actor=acting_user(request))
    except FloorError as error:
        return floor_failed(request, event, str(error))
    return floor_done(request, event)


@require_POST
@floor_required
def draw(request: HttpRequest, pk: int) -> HttpResponse:
    """Draw the opening seats of the checked-in players."""
    event = get_object_or_404(Event, pk=pk)
    return run_floor_action(
        request,
        event,
        forms.DrawForm(request.POST),
        lambda data: services.draw_seats(
            event_id=event.pk,
            actor=acting_user(request),
            tables=data["tables"],
            seats_per_table=data["seats_per_table"],
            by_card=data["method"] == "card",
        ),  # fmt: skip
    )


@require_POST
@floor_required
def seat(request: HttpRequest, pk: int) -> HttpResponse:
    """Seat a late player: at the named seat, or at random at the shortest table."""
    event = get_object_or_404(Event, pk=pk)
    return run_floor_action(
        request,
        event,
        forms.SeatForm(request.POST),
        lambda data: services.seat_entry(
            event_id=event.pk,
            entry_id=data["entry"],
            actor=acting_user(request),
            table_number=data["table"],
            seat_number=data["seat"],
        ),  # fmt: skip
    )


@require_POST
@floor_required
def move(request: HttpRequest, pk: int) -> HttpResponse:
    """Move one seated player to a free seat."""
    event = get_object_or_404(Event, pk=pk)
    return run_floor_action(
        request,
        event,
        forms.MoveForm(request.POST),
        lambda data: services.move_entry(
            event_id=event.pk,
            entry_id=data["entry"],
            actor=acting_user(request),
            table_number=data["table"],
            seat_number=data["seat"],
            key=data["key"],
        ),  # fmt: skip
    )


@require_POST
@floor_required
def button(request: HttpRequest, pk: int) -> HttpResponse:
    """Say where the button (and the small blind: R2.7, dead button) is at a table."""
    event = get_object_or_404(Event, pk=pk)
    return run_floor_action(
        request,
        event,
        forms.ButtonForm(request.POST),
        lambda data: services.set_button(
            event_id=event.pk,
            table_number=data["table"],
            button_seat=data["seat"],
            small_blind_seat=data["small_blind"],
            actor=acting_user(request),
        ),  # fmt: skip
    )


@require_POST
@floor_required
def confirm_plan(request: HttpRequest, pk: int) -> HttpResponse:
    """Carry out the balancing plan the floor looked at."""
    event = get_object_or_404(Event, pk=pk)
    return run_floor_action(
        request,
        event,
        forms.ConfirmPlanForm(request.POST),
        lambda data: services.confirm_plan(
            event_id=event.pk, step_id=data["step"], actor=acting_user(request)
        ),
    )
