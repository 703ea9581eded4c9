"""Django admin for the chip-up races (R5.11): records written by the floor, viewable only."""

from __future__ import annotations

from django.contrib import admin

from tables.models import ChipAccount, ChipTransfer, ChipUpRace, OnlineTable, TableHand
from tournaments.admin_base import AppendOnlyAdmin, ReadOnlyAdmin


@admin.register(ChipUpRace)
class ChipUpRaceAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "event", "table", "level_index", "chip_value", "new_chip_value"]


@admin.register(OnlineTable)
class OnlineTableAdmin(ReadOnlyAdmin):
    list_display = ["name", "game", "small_blind", "big_blind", "seats", "status", "hands_dealt"]
    list_filter = ["status", "game"]


# The chips' accounts, ledger and hands are records the services keep conserved: a deleted row
# would leave chips unaccounted for (or a hand without its history), so none is deleted here.
@admin.register(ChipAccount)
class ChipAccountAdmin(AppendOnlyAdmin):
    list_display = ["user", "balance"]
    search_fields = ["user__username"]


@admin.register(ChipTransfer)
class ChipTransferAdmin(AppendOnlyAdmin):
    list_display = ["created_at", "user", "kind", "amount", "table", "actor"]
    list_filter = ["kind"]


@admin.register(TableHand)
class TableHandAdmin(AppendOnlyAdmin):
    """Hands, without their deck or secret: no staff page shows a card (docs/architecture.md)."""

    list_display = ["table", "number", "started_at", "ended_at", "is_over"]
    fields = ["table", "number", "seat_numbers", "starting_stacks", "final_stacks", "commitment"]
