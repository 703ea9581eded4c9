"""Django admin for chip sets, structures (levels inline), events and the audit log."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import (
    AuditEvent,
    BlindStructure,
    ChipSet,
    Denomination,
    Event,
    Level,
    LevelStart,
)


class DenominationInline(admin.TabularInline[Denomination, ChipSet]):
    model = Denomination
    extra = 0


@admin.register(ChipSet)
class ChipSetAdmin(admin.ModelAdmin[ChipSet]):
    inlines = [DenominationInline]


class LevelInline(admin.TabularInline[Level, BlindStructure]):
    model = Level
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
    readonly_fields = [
        "clock_level_index",
        "clock_level_started_at",
        "clock_paused_at",
        "clock_version",
        "announced_level_index",
    ]


@admin.register(LevelStart)
class LevelStartAdmin(admin.ModelAdmin[LevelStart]):
    list_display = ["event", "sequence", "level_index", "started_at", "cause"]
    list_filter = ["cause"]

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin[AuditEvent]):
    """The audit log is append-only: it can be read and searched, never edited."""

    list_display = ["created_at", "actor", "action", "event"]
    list_filter = ["action"]
    search_fields = ["action", "actor__username"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
