"""A satellite's qualifying rule with the number for the field as it stands (R5.5)."""

from __future__ import annotations

from dataclasses import dataclass

from django import template

from scoring.places import QUALIFYING_PERCENT, satellite_qualifiers
from scoring.season_selectors import entrants_by_event
from tournaments.live_board import shared_reading
from tournaments.models import Event, EventKind

register = template.Library()


@dataclass(frozen=True)
class QualifyingRule:
    """R5.5: the share that qualifies and, once the field is known, how many seats that is."""

    percent: int
    entrants: int
    qualifiers: int  # 0 while nobody has entered the field yet


@register.simple_tag(takes_context=True)
def satellite_rule(context: template.Context, event: Event) -> QualifyingRule | None:
    """The qualifying rule of a satellite (None for any other event): numbers only, so one
    reading serves the board's languages (tournaments.live_board)."""
    if event.kind != EventKind.SATELLITE:
        return None
    return shared_reading(context, "satellite", lambda: _rule(event))


def _rule(event: Event) -> QualifyingRule:
    entrants = entrants_by_event([event.pk]).get(event.pk, 0)
    seats = satellite_qualifiers(entrants) if entrants else 0
    return QualifyingRule(percent=QUALIFYING_PERCENT, entrants=entrants, qualifiers=seats)
