"""Role checks for views (docs/architecture.md: deny by default, checked in the view)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from tournaments.selectors import is_admin, is_floor

type View = Callable[..., HttpResponseBase]


def role_required(check: Callable[[User | AnonymousUser], bool]) -> Callable[[View], View]:
    """A view decorator: anonymous users go to the log-in page, users without the role get 403."""

    def decorator(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            user = request.user
            if not user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            assert isinstance(user, User)  # noqa: S101 - the one user model
            if not check(user):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


floor_required = role_required(is_floor)
admin_required = role_required(is_admin)


def acting_user(request: HttpRequest) -> User:
    """The logged-in user behind a floor or admin action (the decorators have checked)."""
    user = request.user
    assert isinstance(user, User)  # noqa: S101 - only logged-in users pass the decorators
    return user
