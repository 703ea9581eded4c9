"""Django admin for the money: an event's settings inline (audited) and the read-only ledger."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest

from tournaments.admin_base import AppendOnlyAdmin
from tournaments.models import Event, EventMoney, Purchase, PurchaseVoid
from tournaments.services import record_audit


class EventMoneyInline(admin.StackedInline[EventMoney, Event]):
    """Amounts in cents here; the event form takes them as 20 / 20.00 / 20,00."""

    model = EventMoney
    extra = 0
    max_num = 1
    can_delete = True


def audit_money_formset(request: HttpRequest, formset: BaseInlineFormSet[Any, Any, Any]) -> None:
    """Every change of an event's money in the admin goes to the audit log."""
    for form in formset.forms:
        if form.has_changed() or form in formset.deleted_forms:
            event = formset.instance
            record_audit(
                actor=request.user if request.user.is_authenticated else None,
                action="event.money",
                event=event,
                source="admin",
                deleted=form in formset.deleted_forms,
                changed=sorted(form.changed_data),
            )


@admin.register(Purchase)
class PurchaseAdmin(AppendOnlyAdmin):
    """The ledger is append-only: read and searched here, written by the floor's actions."""

    list_display = ["created_at", "event", "entry", "kind", "amount", "fee", "bounty", "chips"]
    list_filter = ["kind"]
    search_fields = ["entry__player__name", "event__name"]


@admin.register(PurchaseVoid)
class PurchaseVoidAdmin(AppendOnlyAdmin):
    """Rebuys and add-ons the floor took back: read here, written by the floor's action."""

    list_display = ["created_at", "purchase", "voided_by"]
