"""Django admin for the chip-up races (R5.11): records written by the floor, viewable only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tables.models import ChipUpRace


class ReadOnlyAdmin(admin.ModelAdmin[Any]):
    """Records written by the floor's services: viewable, never edited here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(ChipUpRace)
class ChipUpRaceAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "event", "table", "level_index", "chip_value", "new_chip_value"]
