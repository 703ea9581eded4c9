"""The live table's all-in equity (issue 19), for the public table's partial."""

from __future__ import annotations

from django import template

from tables.online.selectors import TableView
from tables.online.table_equity import StreetEquity, table_equity

register = template.Library()


@register.simple_tag
def all_in_equity_of(
    view: TableView, game: str
) -> list[tuple[int, list[tuple[int, str, float, float]]]]:
    """The hand's all-in figures by street (board length; each player's seat, name, win and tie),
    from the cards face up to everyone only."""
    names = {seat.number: seat.name for seat in view.seats}
    streets: list[StreetEquity] = table_equity(view.hand, game)
    return [
        (street.board, [(n, names.get(n) or str(n), win, tie) for n, win, tie in street.players])
        for street in streets
    ]
