"""Who may do what: the roles of docs/architecture.md (admin, floor staff, player, anonymous)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.http import HttpRequest

FLOOR_GROUP = "Floor staff"
ADMIN_GROUP = "Admins"

User = AuthUser | AnonymousUser


def is_admin(user: User) -> bool:
    """Admins keep structures, seasons and users."""
    if not user.is_authenticated:
        return False
    return bool(user.is_superuser or user.groups.filter(name=ADMIN_GROUP).exists())


def is_floor(user: User) -> bool:
    """Floor staff run events; admins may too."""
    if not user.is_authenticated:
        return False
    return is_admin(user) or user.groups.filter(name=FLOOR_GROUP).exists()


def roles(request: HttpRequest) -> dict[str, Any]:
    """Template context: what the user may do, for showing links (views still check)."""
    user = request.user
    assert isinstance(user, AuthUser | AnonymousUser)  # noqa: S101 - the one user model
    return {"user_is_floor": is_floor(user), "user_is_admin": is_admin(user)}
