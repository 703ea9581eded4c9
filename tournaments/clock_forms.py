"""The floor's clock action form: which action, on which clock version, with what argument."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.bounds import MAX_ID, MAX_LEVELS
from tournaments.services import ClockAction

MAX_ADDED_SECONDS = 24 * 60 * 60


class ClockActionForm(forms.Form):
    """One press of a clock control; ``expected_version`` is the clock the page showed."""

    action = forms.ChoiceField(label=_("action"), choices=[(a.value, a.value) for a in ClockAction])
    expected_version = forms.IntegerField(label=_("clock version"), min_value=0, max_value=MAX_ID)
    level = forms.IntegerField(label=_("level"), required=False, min_value=0, max_value=MAX_LEVELS)
    seconds = forms.IntegerField(
        label=_("seconds"),
        required=False,
        min_value=-MAX_ADDED_SECONDS,
        max_value=MAX_ADDED_SECONDS,
    )
    minutes = forms.IntegerField(
        label=_("minutes"),
        required=False,
        min_value=-MAX_ADDED_SECONDS // 60,
        max_value=MAX_ADDED_SECONDS // 60,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        action = data.get("action")
        if action == ClockAction.ADD_TIME:
            seconds, minutes = data.get("seconds"), data.get("minutes")
            if seconds is None and minutes is None:
                raise forms.ValidationError(_("Say how many minutes to add or remove."))
            total = (seconds or 0) + (minutes or 0) * 60
            if total == 0:
                raise forms.ValidationError(_("Add or remove at least one second."))
            data["seconds"] = total
        if action == ClockAction.GO_TO and data.get("level") is None:
            raise forms.ValidationError(_("Choose a level."))
        return data

    def error_text(self) -> str:
        """All errors as one line for a 400 answer or a message."""
        parts: list[str] = []
        for field, errors in self.errors.items():
            label = "" if field == "__all__" else f"{self.fields[field].label}: "
            parts.extend(f"{label}{error}" for error in errors)
        return " ".join(parts)
