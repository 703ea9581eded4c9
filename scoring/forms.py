"""Forms of busts, quits and an agreed stop: players with their stacks and tie cards."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.services import StackInput
from tables.engine import parse_card
from tournaments.bounds import DB_INT_MAX, MAX_CHIPS, MAX_ID, parse_id
from tournaments.models import Entry

# 12000, 12,000, 12.000 (German) or 12 000; never a fraction.
STACK_PATTERN = re.compile(r"\d+|\d{1,3}(?:[,. _]\d{3})+")


def parse_stack(raw: str | None) -> int | None:
    """A chip count as typed: digits, with optional thousands separators; None when empty."""
    text = (raw or "").strip()
    if not text:
        return None
    if not STACK_PATTERN.fullmatch(text):
        raise forms.ValidationError(_("A stack is a positive whole number of chips."))
    value = int(re.sub(r"\D", "", text))
    if value <= 0:
        raise forms.ValidationError(_("A stack is a positive whole number of chips."))
    if value > MAX_CHIPS:
        raise forms.ValidationError(
            _("A stack is at most %(most)s chips.") % {"most": f"{MAX_CHIPS:,}"}
        )
    return value


def parse_tie_card(raw: str | None) -> int | None:
    """A tie card such as 'As' or 'Td' (in hand, R5.6, or drawn, R5.10); None when empty."""
    text = (raw or "").strip()
    if not text:
        return None
    text = text[:-1].upper() + text[-1:].lower()
    try:
        return parse_card(text)
    except ValueError as error:
        raise forms.ValidationError(
            _("%(card)s is not a card: write a rank and a suit, such as As or Td.") % {"card": raw}
        ) from error


class StacksForm(forms.Form):
    """Chosen players (``out``) with ``stack-<id>`` and ``card-<id>`` for each of them."""

    out = forms.TypedMultipleChoiceField(coerce=int, label=_("Players out"))
    key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)
    require_all = False
    tie_needs_card = _("%(names)s have equal chip counts: each draws a card to decide (R5.10).")
    stack_missing = _("%(name)s: give the chip count.")

    def __init__(
        self, *args: Any, entries: Sequence[Entry], needs_busted_by: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.entries = {e.pk: e for e in entries}
        self.needs_busted_by = needs_busted_by  # docs/money.md: a bounty event
        out = self.fields["out"]
        assert isinstance(out, forms.TypedMultipleChoiceField)  # noqa: S101 - declared above
        out.choices = [(e.pk, e.player.name) for e in entries]
        if self.require_all:
            out.required = False

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        chosen = list(self.entries) if self.require_all else cleaned.get("out", [])
        rows: list[StackInput] = []
        for entry_id in chosen:
            name = self.entries[entry_id].player.name
            try:
                stack = parse_stack(self.data.get(f"stack-{entry_id}"))
                card = parse_tie_card(self.data.get(f"card-{entry_id}"))
            except forms.ValidationError as error:
                raise forms.ValidationError(f"{name}: {' '.join(error.messages)}") from error
            if stack is None and (self.require_all or len(chosen) > 1):
                raise forms.ValidationError(self.stack_missing % {"name": name})
            busted_by = self._busted_by(entry_id, name) if self.needs_busted_by else None
            rows.append(StackInput(entry_id=entry_id, stack=stack, card=card, busted_by=busted_by))
        self.check_tie_cards(rows)
        cleaned["rows"] = rows
        return cleaned

    def check_tie_cards(self, rows: Sequence[StackInput]) -> None:
        """Every equal stack needs its card, and no card is given twice (R5.6, R5.10)."""
        groups: dict[int | None, list[StackInput]] = {}
        for row in rows:
            groups.setdefault(row.stack, []).append(row)
        for group in groups.values():
            if len(group) > 1 and any(row.card is None for row in group):
                names = ", ".join(self.entries[row.entry_id].player.name for row in group)
                raise forms.ValidationError(self.tie_needs_card % {"names": names})
        cards = [row.card for row in rows if row.card is not None]
        if len(set(cards)) != len(cards):
            raise forms.ValidationError(_("Two players cannot have the same card."))

    def _busted_by(self, entry_id: int, name: str) -> int:
        """``by-<id>``: the player still in who busted him and wins his bounty."""
        by = parse_id(self.data.get(f"by-{entry_id}"))
        if by is None or by not in self.entries:
            raise forms.ValidationError(
                _("%(name)s: choose who busted him (his bounty goes to that player).")
                % {"name": name}
            )
        return by


class BustForm(StacksForm):
    """R5.6: the players out in one hand; two or more: their stacks at its start, for a tie the
    card in hand (the stack only orders busts of the same hand)."""

    stack_missing = _(
        "%(name)s: two or more went out in this hand: give the stack each had when it started "
        "(R5.6)."
    )

    tie_needs_card = _(
        "%(names)s started the hand with equal stacks: give the higher card in each one's "
        "hand (R5.6)."
    )


class StopForm(StacksForm):
    """R5.10: every remaining player's chip count."""

    require_all = True


class QuitForm(forms.Form):
    """R5.9: the player who quits and the chips that leave play with him."""

    entry = forms.IntegerField(label=_("Player"), min_value=1, max_value=MAX_ID)
    stack = forms.CharField(label=_("Chips leaving play"), required=False, max_length=20)
    key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)

    def clean_stack(self) -> int | None:
        return parse_stack(self.cleaned_data.get("stack"))


class HandDoneForm(forms.Form):
    """TDA RP-8: a table reports the hand-for-hand hand done (or takes that report back)."""

    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=MAX_ID)
    hand = forms.IntegerField(label=_("Hand"), min_value=1, max_value=DB_INT_MAX)
    key = forms.CharField(max_length=64, required=False)
