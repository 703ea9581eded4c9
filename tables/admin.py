"""Django admin for the chip-up races (R5.11): records written by the floor, viewable only."""

from __future__ import annotations

from django.contrib import admin

from tables.models import ChipUpRace
from tournaments.admin_base import ReadOnlyAdmin


@admin.register(ChipUpRace)
class ChipUpRaceAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "event", "table", "level_index", "chip_value", "new_chip_value"]
