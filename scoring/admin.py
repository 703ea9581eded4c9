"""Django admin for seasons (formula changes audited, R6.3) and satellite infractions."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.urls import reverse

from scoring import payouts
from scoring.models import SatelliteInfraction
from scoring.payout_models import Deal, EventPayout, PayoutStructure, PayoutTier
from scoring.season_selectors import formula_choices
from scoring.season_services import record_season_change
from tournaments.admin_base import ReadOnlyAdmin
from tournaments.models import Season
from tournaments.services import record_audit


class SeasonAdminForm(forms.ModelForm[Season]):
    """The formula as a choice of the registry (R6.3: one active formula per season)."""

    formula = forms.ChoiceField(choices=formula_choices)

    class Meta:
        model = Season
        fields = [
            "name",
            "starts_on",
            "ends_on",
            "formula",
            "super_final_stack_rule",
            "include_bots",
        ]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin[Season]):
    form = SeasonAdminForm
    list_display = [
        "name", "starts_on", "ends_on", "formula", "super_final_stack_rule", "updated_at",
    ]  # fmt: skip

    def view_on_site(self, obj: Season) -> str:
        return reverse("seasons:season_detail", args=[obj.pk])

    def save_model(self, request: HttpRequest, obj: Season, form: Any, change: bool) -> None:
        before = Season.objects.filter(pk=obj.pk).values(*form.changed_data).first() or {}
        super().save_model(request, obj, form, change)
        user = request.user if isinstance(request.user, User) else None
        changes = {f: [before.get(f, ""), getattr(obj, f)] for f in form.changed_data}
        record_season_change(season=obj, actor=user, changes=changes, created=not change)


@admin.register(SatelliteInfraction)
class SatelliteInfractionAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "player", "kind", "event", "other_event", "actor"]
    list_filter = ["kind"]


# --- payouts (docs/money.md) --------------------------------------------------------------------


class PayoutTierInline(admin.TabularInline[PayoutTier, PayoutStructure]):
    model = PayoutTier
    extra = 0


@admin.register(PayoutStructure)
class PayoutStructureAdmin(admin.ModelAdmin[PayoutStructure]):
    """Payout templates; the editor at /payouts/ checks each row (sums, order) as it is saved,
    the admin checks the whole table here and audits the change."""

    list_display = ["name", "is_preset", "updated_at"]
    inlines = [PayoutTierInline]

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        structure = form.instance
        user = request.user if isinstance(request.user, User) else None
        record_audit(
            actor=user,
            action="payouts.admin_saved",
            structure=structure.pk,
            rows=[[r.min_entries, r.max_entries, list(r.percentages)] for r in structure.rows()],
            problems=payouts.table_problems(structure.rows()),
        )

    def delete_model(self, request: HttpRequest, obj: PayoutStructure) -> None:
        user = request.user if isinstance(request.user, User) else None
        record_audit(actor=user, action="payouts.admin_deleted", structure=obj.pk, name=obj.name)
        super().delete_model(request, obj)


@admin.register(EventPayout)
class EventPayoutAdmin(admin.ModelAdmin[EventPayout]):
    list_display = ["event", "structure", "unit", "remainder", "updated_at"]

    def save_model(self, request: HttpRequest, obj: EventPayout, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        user = request.user if isinstance(request.user, User) else None
        record_audit(
            actor=user, action="payouts.event_set", event=obj.event,
            after={"structure": obj.structure_id, "unit": obj.unit, "remainder": obj.remainder},
        )  # fmt: skip


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "event", "method", "total", "kept", "cancelled_at", "actor"]
