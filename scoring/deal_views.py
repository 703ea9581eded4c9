"""An event's payouts (admins choose the structure) and the floor's deal calculator."""

from __future__ import annotations

from math import ceil
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring import deals, payouts
from scoring import payout_services as services
from scoring.payout_forms import DealForm, EventPayoutForm
from scoring.payout_models import DealMethod
from scoring.payout_selectors import (
    active_deal,
    event_payout,
    event_payouts,
    players_left,
    remaining_prizes,
)
from scoring.selectors import event_standings
from tournaments.models import Event
from tournaments.money_format import format_money
from tournaments.permissions import acting_user, admin_required, floor_required

UNPROCESSABLE = 422


@require_http_methods(["GET", "POST"])
@admin_required
def event_payout_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """Choose the event's payout structure, rounding unit and remainder rule."""
    event = get_object_or_404(Event, pk=pk)
    payout = event_payout(event)
    status = 200
    if request.method == "POST":
        form = EventPayoutForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            services.set_event_payout(
                actor=acting_user(request),
                event=event,
                structure=data["structure"],
                unit=data["unit"],
                remainder=payouts.RemainderRule(data["remainder"]),
            )
            messages.success(request, _("Payouts saved."))
            return redirect("payouts:event_payouts", pk=event.pk)
        status = UNPROCESSABLE
    else:
        initial: dict[str, Any] = {"structure": None, "unit": 100, "remainder": "winner"}
        if payout is not None:
            initial = {
                "structure": payout.structure,
                "unit": payout.unit,
                "remainder": payout.remainder,
            }
        form = EventPayoutForm(initial=initial)
    context = {"event": event, "form": form, "money": event_payouts(event)}
    return render(request, "scoring/event_payouts.html", context, status=status)


def _deal_rows(form: DealForm, split: deals.DealSplit | None) -> list[dict[str, Any]]:
    rows = []
    for index, field in enumerate(form.chip_fields()):
        row: dict[str, Any] = {"field": field, "name": field.label}
        if split is not None:
            row |= {
                "chip_chop": format_money(split.chip_chop[index]),
                "icm": format_money(split.icm[index]),
            }
        rows.append(row)
    return rows


def _render_deal(
    request: HttpRequest,
    event: Event,
    *,
    form: DealForm | None = None,
    split: deals.DealSplit | None = None,
    errors: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    entries = players_left(event)
    form = form or DealForm(entries=entries)
    prizes, payout = remaining_prizes(event)
    context = {
        "event": event,
        "form": form,
        "rows": _deal_rows(form, split),
        "split": split,
        "totals": split
        and {
            "shared": format_money(sum(split.chip_chop)),
            "kept": format_money(split.kept),
            "total": format_money(split.total),
            "chips": sum(split.stacks),
            "in_play": (in_play := event_standings(event).chips_in_play),
            "chips_differ": sum(split.stacks) != in_play,
        },
        "prizes": [format_money(p) for p in prizes],
        "prizes_total": format_money(sum(prizes)),
        "payout": payout,
        "deal": active_deal(event),
        "money": event_payouts(event),
        "errors": errors or [],
        "icm_error": split and format_money(max(1, ceil(split.icm_error))),
    }
    template = "scoring/deal_floor.html" + ("#deal" if getattr(request, "htmx", False) else "")
    return render(request, template, context, status=status)


@require_http_methods(["GET", "POST"])
@floor_required
def deal(request: HttpRequest, pk: int) -> HttpResponse:
    """The deal calculator: the floor types the chip counts; chip-chop and ICM side by side;
    posting with a method saves that deal (once per page, whatever the clicks)."""
    event = get_object_or_404(Event, pk=pk)
    if request.method == "GET":
        return _render_deal(request, event)
    form = DealForm(request.POST, entries=players_left(event))
    if not form.is_valid():
        return _render_deal(request, event, form=form, status=UNPROCESSABLE)
    stacks, kept = form.stacks(), form.cleaned_data["kept"]
    try:
        split = services.calculate_deal(event=event, stacks=stacks, kept=kept)
        method = form.cleaned_data.get("method")
        if method:
            services.save_deal(
                actor=acting_user(request), event_id=event.pk, method=DealMethod(method),
                stacks=stacks, kept=kept, key=form.cleaned_data["key"],
            )  # fmt: skip
            return _after_write(request, event, _("The deal is saved: the payouts follow it."))
    except services.PayoutEditError as error:
        return _render_deal(request, event, form=form, errors=error.problems, status=UNPROCESSABLE)
    return _render_deal(request, event, form=form, split=split)


@require_POST
@floor_required
def deal_cancel(request: HttpRequest, pk: int, deal_pk: int) -> HttpResponse:
    """Take back a saved deal; the payout table applies again."""
    event = get_object_or_404(Event, pk=pk)
    try:
        services.cancel_deal(actor=acting_user(request), event_id=event.pk, deal_id=deal_pk)
    except services.PayoutEditError as error:
        return _render_deal(request, event, errors=error.problems, status=UNPROCESSABLE)
    return _after_write(request, event, _("The deal is cancelled: the payout table applies again."))


def _after_write(request: HttpRequest, event: Event, message: str) -> HttpResponse:
    """htmx: the fresh deal fragment; without JavaScript: a message and the page again (PRG)."""
    if getattr(request, "htmx", False):
        return _render_deal(request, event)
    messages.success(request, message)
    return redirect("payouts:deal", pk=event.pk)
