"""The chip-up banner's tag: the race due now, for a fragment rendered from the event alone."""

from __future__ import annotations

from django import template

from tables.chipup_services import ChipUpNotice, chip_up_notice
from tournaments.live_board import shared_reading
from tournaments.models import Event

register = template.Library()


@register.simple_tag(name="chip_up_due", takes_context=True)
def chip_up_due(context: template.Context, event: Event) -> ChipUpNotice | None:
    """R5.11: the chip-up race due now (tables still to race), None when none is. A chip and a
    count: one reading serves the board's languages (tournaments.live_board)."""
    notice = shared_reading(context, "chip_up", lambda: chip_up_notice(event))
    return notice if notice is not None and notice.due_now else None
