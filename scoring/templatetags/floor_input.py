"""What the floor typed into a refused form, drawn back into it (nothing is lost on an error)."""

from __future__ import annotations

from django import template
from django.http import QueryDict

register = template.Library()


@register.filter
def posted_row(posted: QueryDict | None, entry_id: int) -> dict[str, object]:
    """One player's row of a refused bust form: ticked, his stack, his card, who busted him."""
    if posted is None:
        return {"out": False, "stack": "", "card": "", "by": ""}
    return {
        "out": str(entry_id) in posted.getlist("out"),
        "stack": posted.get(f"stack-{entry_id}", ""),
        "card": posted.get(f"card-{entry_id}", ""),
        "by": posted.get(f"by-{entry_id}", ""),
    }
