"""Sane maxima for what people type or import: each fits its column and the business (issue 16).

A number past one of these is a form error with its reason, never a 500 from the database.
"""

from __future__ import annotations

DB_INT_MAX = 2_147_483_647  # PostgreSQL integer: Django's (Positive)IntegerField
MAX_ID = 2**63 - 1  # PostgreSQL bigint: a row id (BigAutoField)
MAX_CHIPS = 1_000_000_000  # a stack, a blind, an ante, a starting stack, chips bought
MAX_CENTS = 1_000_000_000  # an amount of money: 10 million in the house currency
MAX_MINUTES = 24 * 60  # a level or a break
MAX_LEVELS = 200  # levels (breaks included) in a structure: 200 levels of 1 minute is 3 hours
MAX_PLAYERS = 10_000  # players in one event, entries in a payout row
MAX_COUNT = 1_000  # rebuys, add-ons, re-entries of one player; a level number in the rules
MAX_JSON_BYTES = 1_000_000  # an imported document
EARLIEST_YEAR, LATEST_YEAR = 2000, 2100  # an event's scheduled start


def parse_id(text: object) -> int | None:
    """A whole number a request names (a row id, a version, a position): ASCII digits up to
    MAX_ID. Anything else is None, never an error: ``str.isdigit`` also takes "²" (which
    ``int`` refuses: a 500) and 5,000 digits (past ``int``'s limit, or the column's)."""
    value = str(text or "").strip()
    if not (value.isascii() and value.isdigit()) or len(value) > len(str(MAX_ID)):
        return None
    number = int(value)
    return number if number <= MAX_ID else None
