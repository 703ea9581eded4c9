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


@register.simple_tag
def floor_notices(event: Event) -> FloorNotices:
    """The notices of an event, read fresh (the dashboard needs no view change for them)."""
    return FloorNotices(chip_up=chip_up_notice(event), hand_for_hand=hand_for_hand_view(event))
