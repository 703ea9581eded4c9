"""The event form's optional "Money" fieldset and the floor's purchase form."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments import money
from tournaments.bounds import MAX_CENTS, MAX_CHIPS, MAX_ID, MAX_LEVELS
from tournaments.models import EventMoney
from tournaments.money_format import amount_text, currency

PREFIX = "money"


class AmountField(forms.CharField):
    """An amount typed as "20", "20.00" or "20,00"; cleaned to cents (empty: 0)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal", "size": 8}))
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        return (
            amount_text(value) if isinstance(value, int) and not isinstance(value, bool) else value
        )

    def to_python(self, value: Any) -> int:  # type: ignore[override]
        text = super().to_python(value)
        if not text:
            return 0
        try:
            cents = money.parse_amount(text)
        except money.AmountError as error:
            raise forms.ValidationError(
                _("Give an amount such as 20, 20.00 or 20,00."), code="invalid"
            ) from error
        if cents > MAX_CENTS:
            raise forms.ValidationError(
                _("An amount is at most %(most)s.") % {"most": amount_text(MAX_CENTS)},
                code="max_value",
            )
        return cents


def _level(label: Any, **kwargs: Any) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=1,
        max_value=MAX_LEVELS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1, "size": 4}),
        error_messages={
            "invalid": _("Give a level number."),
            "min_value": _("Give a level number."),
            "max_value": _("A structure has at most %(limit_value)s levels."),
        },
        **kwargs,
    )


def _count(label: Any, **kwargs: Any) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=0,
        max_value=MAX_CHIPS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1, "size": 6}),
        error_messages={
            "invalid": _("Give a whole number."),
            "min_value": _("Give a whole number."),
            "max_value": _("At most %(limit_value)s."),
        },
        **kwargs,
    )


class MoneyForm(forms.Form):
    """Buy-in, fee, bounty, guarantee, late registration, rebuys, add-on, re-entry: all optional."""

    buy_in = AmountField(label=_("Buy-in"), help_text=_("To the prize pool, the bounty included."))
    fee = AmountField(label=_("Fee"), help_text=_("The house's part, never in the prize pool."))
    bounty = AmountField(
        label=_("Bounty"), help_text=_("Part of the buy-in; whoever busts the player wins it.")
    )
    guarantee = AmountField(label=_("Guaranteed prize pool"))
    late_registration_last_level = _level(
        _("Late registration until level"), help_text=_("Empty: open all night.")
    )
    rebuy_price = AmountField(label=_("Rebuy price"))
    rebuy_fee = AmountField(label=_("Rebuy fee"))
    rebuy_chips = _count(_("Rebuy chips"), help_text=_("Empty: no rebuys (R5.1: freeze-out)."))
    rebuy_first_level = _level(_("Rebuys from level"))
    rebuy_last_level = _level(_("Rebuys until level"))
    rebuy_limit = _count(_("Rebuys per player"), help_text=_("Empty: no limit."))
    add_on_price = AmountField(label=_("Add-on price"))
    add_on_fee = AmountField(label=_("Add-on fee"))
    add_on_chips = _count(_("Add-on chips"), help_text=_("Empty: no add-on (R5.1: freeze-out)."))
    add_on_first_level = _level(_("Add-on from level"))
    add_on_last_level = _level(_("Add-on until level"))
    add_on_limit = _count(_("Add-ons per player"), help_text=_("Empty: one."))
    re_entry = forms.BooleanField(
        label=_("Re-entry: a busted player may buy a new entry"), required=False
    )
    re_entry_last_level = _level(
        _("Re-entry until level"), help_text=_("Empty: as long as late registration.")
    )
    re_entry_limit = _count(_("Re-entries per player"), help_text=_("Empty: no limit."))

    GROUPS = (
        (_("Buy-in"), ("buy_in", "fee", "bounty", "guarantee", "late_registration_last_level")),
        (_("Rebuys"), ("rebuy_price", "rebuy_fee", "rebuy_chips", "rebuy_first_level",
                       "rebuy_last_level", "rebuy_limit")),
        (_("Add-on"), ("add_on_price", "add_on_fee", "add_on_chips", "add_on_first_level",
                       "add_on_last_level", "add_on_limit")),
        (_("Re-entry"), ("re_entry", "re_entry_last_level", "re_entry_limit")),
    )  # fmt: skip

    def __init__(self, *args: Any, event: Any = None, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", PREFIX)
        if event is not None and "initial" not in kwargs:
            row = EventMoney.objects.filter(event=event).first()
            if row is not None:
                kwargs["initial"] = {name: getattr(row, name) for name in money_fields()}
        super().__init__(*args, **kwargs)
        code = currency()
        for name in ("buy_in", "fee", "bounty", "guarantee", "rebuy_price", "rebuy_fee",
                     "add_on_price", "add_on_fee"):  # fmt: skip
            self.fields[name].label = f"{self.fields[name].label} ({code})"

    def groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The fields in their fieldsets, for the template."""
        return [(str(title), [self[name] for name in names]) for title, names in self.GROUPS]

    @property
    def is_set(self) -> bool:
        """Whether the event has money settings (the fieldset opens)."""
        return bool(self.initial) or self.is_bound and bool(self.errors)

    def settings(self) -> money.MoneyInput:
        """The cleaned fields as the service takes them; empties mean the defaults."""
        data = self.cleaned_data
        values: dict[str, Any] = {name: data.get(name) for name in money_fields()}
        for name in ("rebuy_first_level", "add_on_first_level", "add_on_limit"):
            values[name] = values[name] or 1
        for name in ("rebuy_chips", "add_on_chips"):
            values[name] = values[name] or 0
        values["re_entry"] = bool(values["re_entry"])
        return money.MoneyInput(**values)


def money_fields() -> list[str]:
    return list(money.MoneyInput.__dataclass_fields__)


class PurchaseForm(forms.Form):
    """The floor's purchase button: which entry buys what; the key makes a double click one."""

    KINDS = [
        (money.PurchaseKind.BUY_IN.value, _("Buy-in")),
        (money.PurchaseKind.REBUY.value, _("Rebuy")),
        (money.PurchaseKind.ADD_ON.value, _("Add-on")),
        (money.PurchaseKind.RE_ENTRY.value, _("Re-entry")),
    ]
    entry = forms.IntegerField(min_value=1, max_value=MAX_ID, widget=forms.HiddenInput)
    kind = forms.ChoiceField(
        choices=KINDS, error_messages={"invalid_choice": _("Choose a purchase.")}
    )
    key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)

    def purchase_kind(self) -> money.PurchaseKind:
        return money.PurchaseKind(self.cleaned_data["kind"])


class VoidForm(forms.Form):
    """The floor takes back a rebuy or add-on recorded by mistake."""

    purchase = forms.IntegerField(min_value=1, max_value=MAX_ID, widget=forms.HiddenInput)
