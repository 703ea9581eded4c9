"""The online table's private part, drawn for every player whose part changed after every move
(tables.online.broadcast): its forms' addresses reversed once per process, not on each draw."""

from __future__ import annotations

import functools

from django import template
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse

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
