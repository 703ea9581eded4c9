"""Forms of the online tables: open a table, sit down, a move, come back, chips."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tables.online.models import Game, OnlineTable
from tournaments.bounds import MAX_CHIPS, MAX_ID


class OpenTableForm(forms.ModelForm[OnlineTable]):
    """Floor staff open a table: game, stakes or an event's clock (R2.11), seats, clock."""

    class Meta:
        model = OnlineTable
        fields = [
            "name", "game", "seats", "small_blind", "big_blind", "ante", "event",
            "small_blind_counts_as_big", "any_all_in_reopens", "smallest_chip",
            "min_buy_in", "max_buy_in", "action_seconds", "countdown_seconds",
            "time_bank_seconds", "time_bank_refill_hands", "protections_per_day",
        ]  # fmt: skip

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        seats = data.get("seats")
        if isinstance(seats, int) and not 2 <= seats <= 10:
            self.add_error("seats", _("A table has 2 to 10 seats."))
        small, big = data.get("small_blind"), data.get("big_blind")
        if isinstance(small, int) and isinstance(big, int) and (big <= 0 or small > big):
            self.add_error(
                "big_blind", _("The big blind must be positive and at least the small blind.")
            )
        low, high = data.get("min_buy_in"), data.get("max_buy_in")
        if isinstance(low, int) and isinstance(high, int) and (low <= 0 or low > high):
            self.add_error("max_buy_in", _("The buy-in range needs 0 < minimum ≤ maximum."))
        return data


class SitForm(forms.Form):
    seat = forms.IntegerField(label=_("Seat"), min_value=1, max_value=10, required=False)
    buy_in = forms.IntegerField(label=_("Buy-in"), min_value=1, max_value=MAX_CHIPS)
    # R2.6: post a big blind to play at once, or wait for the big blind.
    post = forms.BooleanField(label=_("Post a big blind to play at once"), required=False)


class ActForm(forms.Form):
    ACTIONS = [
        ("fold", _("Fold")),
        ("check", _("Check")),
        ("call", _("Call")),
        ("raise", _("Raise")),
        ("bring_in", _("Bring in")),  # R7.2
        ("swap", _("Swap")),  # R7.4
        ("stand_pat", _("Keep my cards")),  # R7.3
    ]
    hand = forms.IntegerField(min_value=1, max_value=MAX_ID)
    sequence = forms.IntegerField(min_value=0, max_value=MAX_ID)
    action = forms.ChoiceField(choices=ACTIONS)
    amount = forms.IntegerField(min_value=1, max_value=MAX_CHIPS, required=False)
    key = forms.CharField(max_length=64, required=False)
    card = forms.CharField(max_length=2, required=False)  # the hole card a swap gives back


class ComeBackForm(forms.Form):
    post = forms.BooleanField(label=_("Post a big blind to play at once"), required=False)


class ChipsForm(forms.Form):
    amount = forms.IntegerField(label=_("Chips"), min_value=1, max_value=MAX_CHIPS)


class GrantForm(forms.Form):
    username = forms.CharField(label=_("Log-in"), max_length=150)
    amount = forms.IntegerField(label=_("Chips"), min_value=1, max_value=10_000_000)


class ShowForm(forms.Form):
    hand = forms.IntegerField(min_value=1, max_value=MAX_ID)


class BotForm(forms.Form):
    seat = forms.IntegerField(label=_("Seat"), min_value=1, max_value=10, required=False)


GAMES = Game.choices
