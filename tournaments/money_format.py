"""Amounts for people: cents of the house currency written in the page's language."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.utils.formats import number_format
from django.utils.translation import get_language

SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£"}
# Languages that write the symbol after the number, with a no-break space: "20,00 €".
SYMBOL_AFTER = {"de", "fr", "es", "it", "nl", "pl", "cs", "sv", "fi", "da"}
NBSP = "\u00a0"


def currency() -> str:
    """The house currency (ISO 4217 code) from settings; EUR by default."""
    return str(getattr(settings, "FLOORMAN_CURRENCY", "EUR"))


def format_money(cents: int, *, code: str | None = None) -> str:
    """20,00 € in German, €20.00 in English; grouped thousands; a minus sign before it all."""
    code = code or currency()
    number = number_format(Decimal(abs(cents)) / 100, decimal_pos=2, force_grouping=True)
    symbol = SYMBOLS.get(code, code)
    language = (get_language() or settings.LANGUAGE_CODE).split("-")[0]
    if language in SYMBOL_AFTER:
        text = f"{number}{NBSP}{symbol}"
    else:
        text = f"{symbol}{number}" if len(symbol) == 1 else f"{symbol}{NBSP}{number}"
    return f"-{text}" if cents < 0 else text


def amount_text(cents: int) -> str:
    """The amount as a form shows it for editing, without the symbol: 20.00 / 20,00."""
    return number_format(Decimal(cents) / 100, decimal_pos=2)
