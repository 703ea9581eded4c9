"""The online table's parts, drawn after every move (tables.online.broadcast): the private
part's forms' addresses reversed once per process, not on each draw, and a card and a pot
drawn once for what they show."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django import template
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

register = template.Library()


@register.simple_tag
def table_url(name: str, table_id: int) -> str:
    """``{% url name table_id %}``, remembered: the same address for the same table, URL
    configuration and script prefix (bench/online_move_cost.py: a move reversed about forty)."""
    urlconf = get_urlconf() or settings.ROOT_URLCONF
    return _reversed(get_script_prefix(), urlconf, name, int(table_id))


@functools.lru_cache(maxsize=8_192)
def _reversed(prefix: str, urlconf: str, name: str, table_id: int) -> str:
    return reverse(name, args=[table_id], urlconf=urlconf)


# -- a card, drawn once ------------------------------------------------------------------------

SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


@register.simple_tag
def card(card: Any) -> SafeString:
    """A card as the page draws it (a CardView or its code): the rank, then the suit's symbol;
    a winning card marked, one's own stud down card dashed (R7.2)."""
    code = str(getattr(card, "code", card) or "")
    highlight = bool(getattr(card, "highlight", False))
    down = bool(getattr(card, "down", False))
    return _card(code, highlight, down, translation.get_language() or "")


@functools.lru_cache(maxsize=1_024)
def _card(code: str, highlight: bool, down: bool, language: str) -> SafeString:
    rank, suit = code[:1], code[1:]
    classes = f"pcard suit-{suit}" + (" win" if highlight else "") + (" down" if down else "")
    with translation.override(language or None):
        title = format_html(' title="{}"', _("Face down: only you see it")) if down else ""
    return format_html(
        '<span class="{}" data-card="{}"{}>{}<i>{}</i></span>',
        classes, code, title, "10" if rank == "T" else rank, SUITS.get(suit, "♣"),
    )  # fmt: skip


@register.simple_tag
def card_backs(count: int) -> SafeString:
    """The backs of the cards a player holds face down, as everyone else sees them."""
    return SafeString('<span class="pcard back"></span>' * int(count))


# -- a pot, drawn once -------------------------------------------------------------------------


@register.simple_tag
def pot(pot: Any, pots: Sequence[Any]) -> SafeString:
    """A pot in the middle or in the hand's results (tables.online.table_pots.PotView): its
    name (the main pot, a side pot, the swap fees of Draw Hold'em, R7.9) and its chips; drawn
    once for what it shows, as a card is."""
    many = len(pots) > 1
    return _pot(pot.kind, pot.number, pot.amount, many, translation.get_language() or "")


@functools.lru_cache(maxsize=4_096)
def _pot(kind: str, number: int, amount: int, many: bool, language: str) -> SafeString:
    with translation.override(language or None):
        if kind == "fees":
            name = _("Swap fees for the best hand")
        elif kind == "side":
            name = _("Side pot %(number)s") % {"number": number}
        else:
            name = _("Main pot") if many else _("Pot")
    testid = f"pot-{kind}-{number}" if number else f"pot-{kind}"
    return format_html(
        '<span class="pot pot-{}" data-testid="{}"><span class="pot-name">{}</span> '
        '<b class="pot-chips">{}</b></span>\n',  # a space between two pots, as a line's end
        kind, testid, name, amount,
    )  # fmt: skip
