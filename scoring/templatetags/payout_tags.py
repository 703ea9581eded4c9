"""Tags of the payout pages and fragments: amounts and percentages in the page's language,
and an event's standings and payouts for the standings fragment (floor, TV, phone)."""

from __future__ import annotations

from django import template

from scoring import payouts
from scoring.payout_selectors import EventPayouts, event_payouts
from scoring.selectors import Standings, event_standings
from tournaments.live_board import shared_reading
from tournaments.models import Event
from tournaments.money_format import format_money
from tournaments.money_windows import PublicWindow, public_windows

register = template.Library()


@register.filter
def percent(basis_points: int) -> str:
    """5000 -> "50%" (English), "50 %" (German)."""
    return payouts.percent_text(int(basis_points))


@register.filter
def money(cents: int) -> str:
    """2000 -> "€20.00" (English), "20,00 €" (German)."""
    return format_money(int(cents))


@register.filter
def prize_for(money: EventPayouts | None, entry_id: int) -> str:
    """The prize an entry won (a place's prize, or his share of a deal), "" if none."""
    return money.prize_text(int(entry_id)) if money is not None else ""


# The places the public standings list (the TV, the phones): the most recent busts while the
# event runs, the best places once it is over. A field of 1,000 made the list 97 KB in each
# language, rendered in 140 ms after every bust and sent to every phone (issue 17); the full
# results are the event's CSV.
PUBLIC_PLACES = 50


@register.simple_tag(name="event_standings", takes_context=True)
def event_standings_tag(context: template.Context, event: Event) -> Standings:
    """The places so far (the first PUBLIC_PLACES), players left and chips in play: the public
    standings' own reading, so that the fragment renders from the event alone
    (tournaments.live_board). The board's renders in each language share one reading: the
    standings' queries were half of a board's cost, once a language."""
    return shared_reading(context, "standings", lambda: event_standings(event, shown=PUBLIC_PLACES))


@register.simple_tag(name="event_payouts", takes_context=True)
def event_payouts_tag(context: template.Context, event: Event) -> EventPayouts | None:
    """The prize pool and payouts of an event for a page or fragment; None for a freeroll (one
    reading for the board's languages: its amounts are worded as they are shown)."""
    return shared_reading(context, "payouts", lambda: event_payouts(event))


@register.filter
def has_payouts(event: Event) -> bool:
    """Whether the event pays prizes (a link to the deal calculator is worth showing)."""
    money = event_payouts(event)
    return money is not None and money.has_table


@register.simple_tag(name="purchase_windows", takes_context=True)
def purchase_windows_tag(context: template.Context, event: Event) -> list[PublicWindow]:
    """The purchase windows at the clock's level (docs/money.md); empty for a freeroll (one
    reading for the board's languages: each window is worded as it is shown)."""
    return shared_reading(context, "windows", lambda: public_windows(event))
