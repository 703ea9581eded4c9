"""Forms of the payout editor, an event's payout settings and the deal calculator."""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring import payouts
from scoring.payout_models import DealMethod, PayoutStructure, PayoutTier
from tournaments.models import Entry
from tournaments.money import AmountError, parse_amount
from tournaments.money_format import amount_text, format_money

# The rounding units an event may choose, in cents.
UNITS = (1, 100, 500, 1_000, 2_000, 5_000, 10_000)


class PayoutStructureForm(forms.ModelForm[PayoutStructure]):
    """A new payout structure: a name and what it is for."""

    class Meta:
        model = PayoutStructure
        fields = ["name", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 2})}


class PayoutDuplicateForm(forms.Form):
    name = forms.CharField(label=_("name of the copy"), max_length=120)


class PayoutRowForm(forms.Form):
    """One row: the fields it is for and the percentages of its places. The service checks
    the row within its table, so every problem names the row ("Row 2 (11–20 entries): …")."""

    min_entries = forms.IntegerField(label=_("from entries"), min_value=2, max_value=100_000)
    max_entries = forms.IntegerField(
        label=_("to entries"), min_value=2, max_value=100_000, required=False
    )
    percentages = forms.CharField(
        label=_("percentages, 1st place first"),
        max_length=600,
        help_text=_("Separated by spaces or semicolons, e.g. 50 30 20 or 27,5; 22,5."),
    )

    def __init__(self, *args: Any, form_id: str = "row-add", **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", f"{form_id}-%s")
        super().__init__(*args, **kwargs)
        self.form_id = form_id
        for name, field in self.fields.items():
            field.widget.attrs["form"] = form_id
            field.widget.attrs["aria-label"] = str(field.label or name)
        more = pgettext_lazy("payouts", "and more")
        self.fields["max_entries"].widget.attrs["placeholder"] = more
        for name in ("min_entries", "max_entries"):
            self.fields[name].widget.attrs |= {"inputmode": "numeric", "class": "num"}

    @classmethod
    def for_tier(cls, tier: PayoutTier, *, form_id: str) -> PayoutRowForm:
        row = tier.row()
        text = " ".join(payouts.percent_number(p) for p in row.percentages)
        initial = {"min_entries": row.min_entries, "max_entries": row.max_entries}
        return cls(initial=initial | {"percentages": text}, form_id=form_id)

    def clean_percentages(self) -> tuple[int, ...]:
        try:
            return payouts.parse_percentages(self.cleaned_data["percentages"])
        except ValueError as error:
            raise forms.ValidationError(str(error)) from error

    def row(self) -> payouts.PayoutRow:
        data = self.cleaned_data
        return payouts.PayoutRow(
            min_entries=data["min_entries"],
            max_entries=data.get("max_entries"),
            percentages=data["percentages"],
        )


class EventPayoutForm(forms.Form):
    """An event's payout structure (none: a freeroll), rounding unit and remainder rule."""

    structure = forms.ModelChoiceField(
        label=_("payout structure"),
        queryset=PayoutStructure.objects.order_by("-is_preset", "name"),
        required=False,
        empty_label=_("none (a freeroll: no prizes shown)"),
    )
    unit = forms.TypedChoiceField(label=_("round prizes to"), coerce=int, initial=100)
    remainder = forms.ChoiceField(
        label=_("what rounding leaves over goes"),
        choices=[
            (payouts.RemainderRule.WINNER.value, _("to the winner")),
            (payouts.RemainderRule.TOP_DOWN.value, _("one unit each from 1st place down")),
        ],
        initial=payouts.RemainderRule.WINNER.value,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.label = capfirst(field.label)
        unit = self.fields["unit"]
        assert isinstance(unit, forms.TypedChoiceField)  # noqa: S101 - declared above
        unit.choices = [(cents, format_money(cents)) for cents in UNITS]


class DealForm(forms.Form):
    """The chip counts the floor types for the players left, and what is kept for the winner."""

    kept = forms.CharField(
        label=_("kept back for the winner"), required=False, max_length=20, initial=""
    )
    key = forms.CharField(widget=forms.HiddenInput, max_length=64)
    method = forms.ChoiceField(choices=DealMethod.choices, required=False)

    def __init__(self, *args: Any, entries: list[Entry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entries = entries
        if not self.is_bound:
            self.initial.setdefault("key", secrets.token_hex(16))
        self.fields["kept"].widget.attrs |= {"inputmode": "decimal", "placeholder": amount_text(0)}
        for entry in entries:
            self.fields[f"chips_{entry.pk}"] = forms.IntegerField(
                label=entry.label,
                min_value=1,
                max_value=10**12,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "num"}),
            )

    def chip_fields(self) -> list[forms.BoundField]:
        return [self[f"chips_{entry.pk}"] for entry in self.entries]

    def clean_kept(self) -> int:
        text = self.cleaned_data.get("kept") or ""
        if not text.strip():
            return 0
        try:
            return parse_amount(text)
        except AmountError as error:
            raise forms.ValidationError(
                _("“%(text)s” is not an amount of money.") % {"text": text}
            ) from error

    def stacks(self) -> dict[int, int]:
        return {entry.pk: self.cleaned_data[f"chips_{entry.pk}"] for entry in self.entries}
