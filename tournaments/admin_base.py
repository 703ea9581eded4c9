"""Admin bases for records that the floor's services write: the admin only reads them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest


class ReadOnlyAdmin(admin.ModelAdmin[Any]):
    """Records written by the floor's services: viewable, never added or edited here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class AppendOnlyAdmin(ReadOnlyAdmin):
    """An append-only log (audit, money ledger): read and searched, never deleted either."""

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
