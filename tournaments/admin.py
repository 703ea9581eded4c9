"""Django admin for chip sets, structures (levels inline), events and the audit log."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import F
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest

from tournaments import money_admin, structures
from tournaments.admin_base import AppendOnlyAdmin
from tournaments.models import (
    AuditEvent,
    BlindStructure,
    ChipSet,
    Denomination,
    Event,
    EventMoney,
    Level,
    LevelStart,
)


class DenominationInline(admin.TabularInline[Denomination, ChipSet]):
    model = Denomination
    extra = 0


@admin.register(ChipSet)
class ChipSetAdmin(admin.ModelAdmin[ChipSet]):
    inlines = [DenominationInline]


class LevelAdminForm(forms.ModelForm[Level]):
    def validate_constraints(self) -> None:
        """Positions are checked across the formset and saved in two passes (LevelFormSet.save),
        so a swap must not clash with the rows as they are in the database now."""
        try:
            self.instance.validate_constraints(exclude={"position"})
        except ValidationError as error:
            self.add_error(None, error)


class LevelFormSet(BaseInlineFormSet[Level, BlindStructure, Any]):
    """The levels are checked together (tournaments.structures), so a bad structure is refused."""

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        rows = [
            form
            for form in self.forms
            if form.cleaned_data
            and not form.cleaned_data.get("DELETE")
            and form.cleaned_data.get("position")
        ]
        rows.sort(key=lambda form: form.cleaned_data["position"])
        structure = self.instance
        if structure.chip_set_id is None:
            return
        problems = structures.validate_levels(
            [form.instance.spec() for form in rows],
            chips=structure.chip_values(),
            smallest_chip=structure.smallest_chip.value if structure.smallest_chip else None,
            game=structure.game,
            starting_stack=structure.starting_stack,
        )
        if problems:
            raise ValidationError([str(problem) for problem in problems])

    def save(self, commit: bool = True) -> list[Level]:
        """Save in two passes so that swapped positions never clash with the unique position."""
        structure = self.instance
        if commit and structure.pk is not None:
            new_positions = [
                f.cleaned_data.get("position") or 0 for f in self.forms if f.cleaned_data
            ]
            top = max([0, *new_positions, *structure.levels.values_list("position", flat=True)])
            structure.levels.update(position=F("position") + top + 1)
            for form in self.forms:
                if form.instance.pk is not None and form not in self.deleted_forms:
                    form.instance.save(update_fields=["position"])
        return super().save(commit=commit)


class LevelInline(admin.TabularInline[Level, BlindStructure]):
    model = Level
    form = LevelAdminForm
    formset = LevelFormSet
    extra = 0
    ordering = ["position"]
    fields = ["position", "kind", "small_blind", "big_blind", "ante", "minutes", "chip_up"]


@admin.register(BlindStructure)
class BlindStructureAdmin(admin.ModelAdmin[BlindStructure]):
    list_display = ["name", "game", "starting_stack", "chip_set", "is_preset", "updated_at"]
    inlines = [LevelInline]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin[Event]):
    list_display = ["name", "kind", "status", "scheduled_start", "structure", "code"]
    list_filter = ["kind", "status"]
    inlines = [money_admin.EventMoneyInline]
    readonly_fields = [
        "clock_level_index",
        "clock_level_started_at",
        "clock_paused_at",
        "clock_version",
        "announced_level_index",
        # Online play is set on the event form, whose service checks it (docs/online.md).
        "online",
        "table_size",
        "start_players",
    ]

    def save_formset(
        self,
        request: HttpRequest,
        form: Any,
        formset: BaseInlineFormSet[Any, Any, Any],
        change: bool,
    ) -> None:
        super().save_formset(request, form, formset, change)
        if formset.model is EventMoney:
            money_admin.audit_money_formset(request, formset)


@admin.register(LevelStart)
class LevelStartAdmin(admin.ModelAdmin[LevelStart]):
    list_display = ["event", "sequence", "level_index", "started_at", "cause"]
    list_filter = ["cause"]

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(AuditEvent)
class AuditEventAdmin(AppendOnlyAdmin):
    """The audit log is append-only: it can be read and searched, never edited."""

    list_display = ["created_at", "actor", "action", "event"]
    list_filter = ["action"]
    search_fields = ["action", "actor__username"]
