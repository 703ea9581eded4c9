"""Absurd numbers are form errors, never a 500 (issue 16): every form's integers are bounded."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest
from django import forms
from django.core.validators import MaxValueValidator

from tournaments.bounds import DB_INT_MAX, MAX_ID

ROOT = Path(__file__).resolve().parent.parent
APPS = ("tournaments", "tables", "scoring")


def _form_classes() -> list[type[forms.BaseForm]]:
    found: dict[str, type[forms.BaseForm]] = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts or "engine" in path.parts:
                continue
            module = importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
            for _name, value in inspect.getmembers(module, inspect.isclass):
                if issubclass(value, forms.BaseForm) and value.__module__ == module.__name__:
                    found[f"{value.__module__}.{value.__name__}"] = value
    return [found[name] for name in sorted(found)]


def _integer_fields():
    for form in _form_classes():
        for name, field in form.base_fields.items():
            if isinstance(field, forms.IntegerField) and field.max_value is not None:
                yield pytest.param(field, id=f"{form.__module__}.{form.__name__}.{name}")


def _unbounded_fields():
    """Integer fields with no maximum; a model form's are checked by its model's validators."""
    for form in _form_classes():
        model = getattr(getattr(form, "_meta", None), "model", None)
        for name, field in form.base_fields.items():
            if not isinstance(field, forms.IntegerField) or field.max_value is not None:
                continue
            if model is not None and any(
                isinstance(v, MaxValueValidator) and v.limit_value <= DB_INT_MAX
                for v in model._meta.get_field(name).validators
            ):
                continue
            yield f"{form.__module__}.{form.__name__}.{name}"


def test_every_integer_a_form_takes_has_a_maximum():
    assert list(_unbounded_fields()) == []


@pytest.mark.parametrize("field", list(_integer_fields()))
def test_every_integer_a_form_takes_has_a_maximum_within_its_column(field):
    """An id may reach a bigint; every other number an integer column (most: far less)."""
    assert field.max_value <= (MAX_ID if field.max_value == MAX_ID else DB_INT_MAX)
    assert field.min_value is not None and field.min_value >= -DB_INT_MAX
    for absurd in (10**30, -(10**30), field.min_value - 1, field.max_value + 1):
        with pytest.raises(forms.ValidationError):
            field.clean(str(absurd))
