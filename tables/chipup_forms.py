"""The chip-up form of one table: each player's small chips and whether he has any others."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tables.models import Seat
from tournaments.bounds import MAX_ID, MAX_LEVELS


class ChipUpForm(forms.Form):
    """One table's leftover small chips, a row per seat in dealing order (R5.11)."""

    table = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=MAX_ID)
    level = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=MAX_LEVELS)

    def __init__(self, *args: Any, seats: list[Seat], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        for seat in seats:
            self.fields[f"chips_{seat.entry_id}"] = forms.IntegerField(
                label=seat.entry.player.name,
                min_value=0,
                max_value=10_000,
                error_messages={
                    "invalid": _("A chip count is a whole number."),
                    "min_value": _("A chip count cannot be negative."),
                    "required": _("Count the chips (0 if none)."),
                },
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "chips"}),
            )
            self.fields[f"alone_{seat.entry_id}"] = forms.BooleanField(
                label=_("no other chips"), required=False
            )

    def rows(self) -> list[tuple[Seat, forms.BoundField, forms.BoundField]]:
        """Seat, chips field and no-other-chips box, in dealing order."""
        return [(s, self[f"chips_{s.entry_id}"], self[f"alone_{s.entry_id}"]) for s in self.seats]

    def small_chips(self) -> dict[int, int]:
        return {s.entry_id: self.cleaned_data[f"chips_{s.entry_id}"] for s in self.seats}

    def no_other_chips(self) -> set[int]:
        return {s.entry_id for s in self.seats if self.cleaned_data[f"alone_{s.entry_id}"]}
