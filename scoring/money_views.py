"""The floor's money buttons: buy-in, rebuy, add-on, re-entry (docs/money.md)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_POST

from scoring.floor_views import run_floor_action
from tournaments import money, money_services
from tournaments.models import Event
from tournaments.money_forms import PurchaseForm, VoidForm
from tournaments.permissions import acting_user, floor_required


@require_POST
@floor_required
def buy(request: HttpRequest, pk: int) -> HttpResponse:
    """One purchase of an entry, refused with its reason when the rules do not allow it."""
    event = get_object_or_404(Event, pk=pk)
    form = PurchaseForm(request.POST)

    def purchase(data: dict[str, Any]) -> object:
        kind = money.PurchaseKind(data["kind"])
        where = {"event_id": event.pk, "entry_id": data["entry"], "key": data["key"]}
        if kind is money.PurchaseKind.RE_ENTRY:
            return money_services.re_enter(actor=acting_user(request), **where)
        return money_services.buy(kind=kind, actor=acting_user(request), **where)

    return run_floor_action(request, event, form, purchase)


@require_POST
@floor_required
def void(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back a rebuy or add-on recorded by mistake (once; audited)."""
    event = get_object_or_404(Event, pk=pk)
    return run_floor_action(
        request,
        event,
        VoidForm(request.POST),
        lambda data: money_services.void_purchase(
            event_id=event.pk, purchase_id=data["purchase"], actor=acting_user(request)
        ),
    )
