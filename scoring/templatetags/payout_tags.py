"""Filters of the payout pages: a percentage and an amount in the page's language."""

from __future__ import annotations

from django import template

from scoring import payouts
from scoring.payout_selectors import EventPayouts
from tournaments.money_format import format_money

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
