"""The floor dashboard's notices: a chip-up due (R5.11) and hand-for-hand (TDA RP-8)."""

from __future__ import annotations

from dataclasses import dataclass

from django import template

from scoring.hand_for_hand_services import HandForHandView, hand_for_hand_view
from tables.chipup_services import ChipUpNotice, chip_up_notice
from tournaments.models import Event

register = template.Library()


@dataclass(frozen=True)
class FloorNotices:
    """What the clock dashboard points the floor to, beside the clock."""

    chip_up: ChipUpNotice | None
    hand_for_hand: HandForHandView | None

    @property
    def key(self) -> str:
        """What the notices say, for the dashboard's ETag: a race or a report changes it."""
        chip, hand = self.chip_up, self.hand_for_hand
        chip_key = f"c{int(chip.due_now)}.{chip.chip.value}.{chip.tables_left}" if chip else "c"
        hand_key = f"h{hand.hand.number}.{len(hand.done_tables)}" if hand else "h"
        return f"{chip_key}-{hand_key}"


@register.simple_tag
def floor_notices(event: Event) -> FloorNotices:
    """The notices of an event, read fresh (the dashboard needs no view change for them)."""
    return FloorNotices(chip_up=chip_up_notice(event), hand_for_hand=hand_for_hand_view(event))
