"""The table's page includes its two parts as its stream draws them (tables.online.drawing)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from tables.online.drawing import PRIVATE, PUBLIC, draw

register = template.Library()


@register.simple_tag(takes_context=True)
def online_part(context: Any, which: str) -> SafeString:
    """``{% online_part "public" %}`` or ``"private"``: drawn from the page's table, view,
    viewer and request; the private part finds the page's ``elsewhere`` read already."""
    values = {name: context.get(name) for name in ("table", "view", "user", "elsewhere")}
    if which == "public":
        return draw(PUBLIC, values, context.get("request"))
    if which == "private":
        return draw(PRIVATE, values | {"elsewhere_read": True}, context.get("request"))
    raise template.TemplateSyntaxError(f"online_part: no part {which!r}")
