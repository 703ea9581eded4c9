"""Template filters of the floor's money (docs/money.md)."""

from __future__ import annotations

from django import template

from tournaments.models import Entry
from tournaments.money_display import FloorMoney

register = template.Library()


@register.filter
def stack_hint(money: FloorMoney | None, entry: Entry) -> int:
    """The bust form's hint: the starting stack plus the entry's rebuy and add-on chips."""
    return entry.starting_stack if money is None else money.stack_hint(entry)
