"""The floor's side of the place rules: calls scoring.places, words its refusals for the floor."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.entry_services import FloorError


@dataclass(frozen=True)
class StackInput:
    """One player as the floor reports him: the entry, his stack and, for a tie, his card."""

    entry_id: int
    stack: int | None
    card: int | None = None


class TieNeedsCardError(FloorError):
    """Equal stacks and no card drawn to separate them (R5.6, R5.10)."""


def order_by_stack_then_card(*, rows: Sequence[StackInput], names: Mapping[int, str]) -> list[int]:
    """Entry ids best first: more chips first; equal chips by the higher card, suit deciding.

    scoring.places holds no R5.6/R5.10 ordering yet, so it lives here until it does; cards are
    tables.engine.cards numbers, whose plain order is rank, then suit (R1.6).
    """
    tied: dict[int, list[StackInput]] = {}
    for row in rows:
        tied.setdefault(row.stack or 0, []).append(row)
    for group in tied.values():
        if len(group) < 2:
            continue
        cards = [row.card for row in group]
        if None in cards:
            raise TieNeedsCardError(_tie_message([names[row.entry_id] for row in group]))
        if len(set(cards)) != len(cards):
            raise TieNeedsCardError(_("Two players cannot draw the same card."))
    order = sorted(rows, key=lambda r: (r.stack or 0, r.card if r.card is not None else -1))
    return [row.entry_id for row in reversed(order)]


def place_busts(
    *, busts: Sequence[StackInput], players_left: int, names: Mapping[int, str]
) -> dict[int, int]:
    """R5.6: entry id -> place for the players out in one hand (best of them first)."""
    best = players_left - len(busts) + 1
    order = order_by_stack_then_card(rows=busts, names=names)
    return {entry_id: best + index for index, entry_id in enumerate(order)}


def place_stop(*, counts: Sequence[StackInput], names: Mapping[int, str]) -> dict[int, int]:
    """R5.10: entry id -> place for everyone left at an agreed stop, by chip count."""
    order = order_by_stack_then_card(rows=counts, names=names)
    return {entry_id: 1 + index for index, entry_id in enumerate(order)}


def _tie_message(names: Sequence[str]) -> str:
    return _("%(names)s have equal stacks: each draws a card to decide (R5.6).") % {
        "names": ", ".join(names)
    }
