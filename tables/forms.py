"""Forms of the floor's seating page: register, draw, seat, move, button, confirm a plan."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tables.seating import DEFAULT_SEATS, MAX_SEATS, MIN_SEATS
from tournaments.bounds import MAX_ID


class RegisterForm(forms.Form):
    name = forms.CharField(label=_("Player name"), max_length=120)
    satellites_won = forms.IntegerField(
        label=_("Satellites won"), min_value=0, max_value=50, required=False
    )
    check_in = forms.BooleanField(label=_("Checked in"), required=False, initial=True)
    # docs/money.md: a resent registration with a buy-in finds the first purchase.
    key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)


class DrawForm(forms.Form):
    METHODS = [
        ("random", _("Random seats (one or more tables)")),
        ("card", _("Card draw for one table (R2.3)")),
    ]
    tables = forms.IntegerField(label=_("Tables"), min_value=1, max_value=100, initial=1)
    seats_per_table = forms.IntegerField(
        label=_("Seats per table"), min_value=MIN_SEATS, max_value=MAX_SEATS, initial=DEFAULT_SEATS
    )
    method = forms.ChoiceField(label=_("Method"), choices=METHODS, initial="random")


class SeatForm(forms.Form):
    entry = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=MAX_ID)
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=MAX_ID, required=False)
    seat = forms.IntegerField(label=_("Seat"), min_value=1, max_value=MAX_SEATS, required=False)


class MoveForm(forms.Form):
    entry = forms.IntegerField(label=_("Player"), min_value=1, max_value=MAX_ID)
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=MAX_ID)
    seat = forms.IntegerField(label=_("Seat"), min_value=1, max_value=MAX_SEATS)
    key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)


class ButtonForm(forms.Form):
    """R2.7: the button and, when the floor gives it, the small blind of the hand at a table."""

    table = forms.IntegerField(min_value=1, max_value=MAX_ID, widget=forms.HiddenInput)
    seat = forms.IntegerField(label=_("Button"), min_value=1, max_value=MAX_SEATS)
    small_blind = forms.IntegerField(
        label=_("Small blind at seat"), min_value=1, max_value=MAX_SEATS, required=False
    )


class ConfirmPlanForm(forms.Form):
    step = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=MAX_ID)
