"""The admin site: every registered ModelAdmin refuses to touch a secret field (issue 16).

Django's changelist takes lookups on any local field from the querystring (``?deck__0=41``
answers "1 hand" exactly when the first card is 41). Every admin registered on this site, the
apps' and Django's own, gets ``SecretGuard`` mixed in: no lookup, list filter, search, ordering,
column or form reaches a field of ``tables.online.models.SECRET_FIELDS``, directly or through a
relation (``hand__deck``); a refused lookup answers 400 whatever its value.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib import admin
from django.core import checks
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest

from tables.online.models import SECRET_FIELDS

Model = type[models.Model]


def _secrets_of(model: Model) -> frozenset[str]:
    found: set[str] = set()
    for secret_model, names in SECRET_FIELDS.items():
        if issubclass(model, secret_model) or issubclass(secret_model, model):
            found |= names
    return frozenset(found)


def touches_secret(model: Model, path: str) -> bool:
    """Whether a lookup, ordering or search path (``hand__deck__0__iexact``, ``-deck``,
    ``^table__bot_seed``) reaches a secret field from ``model``."""
    current = model
    for part in path.lstrip("-^=@").split(LOOKUP_SEP):
        if part in _secrets_of(current):
            return True
        try:
            field = current._meta.get_field(part)
        except FieldDoesNotExist:
            return False  # a transform or a lookup: the path's fields end here
        if field.name in _secrets_of(current) or getattr(field, "attname", None) in _secrets_of(
            current
        ):
            return True
        path_infos = getattr(field, "path_infos", None)
        if not path_infos:
            return False
        current = path_infos[-1].to_opts.model
    return False


def _names(items: Iterable[Any]) -> list[str]:
    """The field paths named in an admin option (list_filter's tuples and classes included)."""
    names: list[str] = []
    for item in items:
        if isinstance(item, str):
            names.append(item)
        elif isinstance(item, list | tuple) and item and isinstance(item[0], str):
            names.append(item[0])
        elif isinstance(item, type) and hasattr(item, "parameter_name"):
            names.append(str(item.parameter_name))
    return names


class SecretGuard(admin.ModelAdmin[Any]):
    """Mixed into every registered admin: secret fields are out of reach of the querystring,
    the changelist's columns, filters, search and ordering, and the change form."""

    def _keep(self, items: Sequence[Any]) -> list[Any]:
        return [
            item
            for item in items
            if not any(touches_secret(self.model, name) for name in _names([item]))
        ]

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        if touches_secret(self.model, lookup):
            return False
        return super().lookup_allowed(lookup, value, request)

    def to_field_allowed(self, request: HttpRequest, to_field: str) -> bool:
        if touches_secret(self.model, to_field):
            return False
        return super().to_field_allowed(request, to_field)

    def get_list_display(self, request: HttpRequest) -> list[Any]:
        return self._keep(super().get_list_display(request))

    def get_list_display_links(self, request: HttpRequest, list_display: Any) -> Any:
        links = super().get_list_display_links(request, list_display)
        return links if links is None else self._keep(links)

    def get_list_filter(self, request: HttpRequest) -> list[Any]:
        return self._keep(super().get_list_filter(request))

    def get_search_fields(self, request: HttpRequest) -> list[Any]:
        return self._keep(super().get_search_fields(request))

    def get_ordering(self, request: HttpRequest) -> list[Any]:
        return self._keep(super().get_ordering(request) or ())

    def get_sortable_by(self, request: HttpRequest) -> list[Any]:
        return self._keep(super().get_sortable_by(request))

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        return self._keep(super().get_fields(request, obj))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        return self._keep(super().get_readonly_fields(request, obj))

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        return [
            (name, {**options, "fields": self._keep(options.get("fields", ()))})
            for name, options in super().get_fieldsets(request, obj)
        ]

    def get_exclude(self, request: HttpRequest, obj: Any = None) -> Any:
        excluded = super().get_exclude(request, obj)
        secret = sorted(_secrets_of(self.model))
        if not secret:
            return excluded
        if excluded is None:  # Django then takes the form's own Meta.exclude: keep it
            excluded = getattr(getattr(self.form, "_meta", None), "exclude", None)
        return [*(excluded or ()), *secret]

    def check(self, **kwargs: Any) -> list[checks.CheckMessage]:
        """A declared option that names a secret field is an error at start (floorman.E001)."""
        errors = list(super().check(**kwargs))
        for option in OPTIONS:
            declared = getattr(self, option, None) or ()
            if isinstance(declared, str):
                declared = [declared]
            for name in _names(declared):
                if touches_secret(self.model, name):
                    errors.append(
                        checks.Error(
                            f"{type(self).__name__}.{option} names {name!r}, which reaches a "
                            "secret field (tables.online.models.SECRET_FIELDS).",
                            obj=type(self),
                            id="floorman.E001",
                        )
                    )
        for inline in self.inlines:
            if _secrets_of(inline.model):
                errors.append(
                    checks.Error(
                        f"{type(self).__name__} has an inline of {inline.model.__name__}, which "
                        "has secret fields (tables.online.models.SECRET_FIELDS).",
                        obj=type(self),
                        id="floorman.E002",
                    )
                )
        return errors


OPTIONS = (
    "list_display",
    "list_display_links",
    "list_filter",
    "search_fields",
    "ordering",
    "sortable_by",
    "date_hierarchy",
    "fields",
    "readonly_fields",
    "raw_id_fields",
    "autocomplete_fields",
    "list_editable",
)


def guarded(admin_class: type[admin.ModelAdmin[Any]]) -> type[admin.ModelAdmin[Any]]:
    """``admin_class`` with ``SecretGuard`` first in its bases (itself if it has it)."""
    if issubclass(admin_class, SecretGuard):
        return admin_class
    return type(admin_class.__name__, (SecretGuard, admin_class), {"__module__": __name__})


class FloormanAdminSite(admin.AdminSite):
    """Django's admin site, whose every ModelAdmin is guarded (``SecretGuard``)."""

    def register(
        self,
        model_or_iterable: Any,
        admin_class: type[admin.ModelAdmin[Any]] | None = None,
        **options: Any,
    ) -> None:
        super().register(model_or_iterable, guarded(admin_class or admin.ModelAdmin), **options)
