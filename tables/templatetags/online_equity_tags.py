"""The live table's all-in equity (issue 19), for the public table's partial."""

from __future__ import annotations

from django import template

from tables.online.models import TableHand
from tables.online.table_equity import StreetEquity, table_equity

register = template.Library()


@register.simple_tag
def all_in_equity_of(hand: TableHand | None, game: str) -> list[StreetEquity]:
    """The hand's all-in figures by street, from the cards face up to everyone only."""
    return table_equity(hand, game)
