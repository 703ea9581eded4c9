"""Who may do what: the roles of docs/architecture.md (admin, floor staff, player, anonymous)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.http import HttpRequest

FLOOR_GROUP = "Floor staff"
ADMIN_GROUP = "Admins"

User = AuthUser | AnonymousUser


def _groups(user: AuthUser) -> frozenset[str]:
    """The user's group names: one query per request's user object, however often asked."""
    names: frozenset[str] | None = getattr(user, "_floorman_groups", None)
    if names is None:
        names = frozenset(user.groups.values_list("name", flat=True))
        user._floorman_groups = names  # type: ignore[attr-defined]
    return names


def is_admin(user: User) -> bool:
    """Admins keep structures, seasons and users."""
    if not user.is_authenticated:
        return False
    assert isinstance(user, AuthUser)  # noqa: S101 - the one user model
    return bool(user.is_superuser or ADMIN_GROUP in _groups(user))


def is_floor(user: User) -> bool:
    """Floor staff run events; admins may too."""
    if not user.is_authenticated:
        return False
    assert isinstance(user, AuthUser)  # noqa: S101 - the one user model
    return is_admin(user) or FLOOR_GROUP in _groups(user)


def roles(request: HttpRequest) -> dict[str, Any]:
    """Template context: what the user may do, for showing links (views still check). Lazy: the
    template calls them only where it asks (a table's fragment, rendered for every player after
    every move, never does), and the user's groups are read once. A request refused before the
    authentication middleware (a host not allowed: the 400 page) has no user: nobody's roles."""
    user = getattr(request, "user", None)
    if user is None:
        user = AnonymousUser()
    assert isinstance(user, AuthUser | AnonymousUser)  # noqa: S101 - the one user model
    return {"user_is_floor": lambda: is_floor(user), "user_is_admin": lambda: is_admin(user)}
