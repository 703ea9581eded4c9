"""Forms of the season pages: the formula an admin sets and the one a what-if shows."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.season_selectors import formula_choices


class FormulaForm(forms.Form):
    """R6.3: the one formula a season counts points by."""

    formula = forms.ChoiceField(
        label=_("Points formula"),
        error_messages={"invalid_choice": _("%(value)s is not a points formula.")},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["formula"]
        assert isinstance(field, forms.ChoiceField)  # noqa: S101 - declared above
        field.choices = formula_choices()  # read at request time: the registry may grow


class WhatIfForm(FormulaForm):
    """The leaderboard under another formula; the season keeps its own."""

    prefix = None
