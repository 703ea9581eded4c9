"""Hand-for-hand on the satellite bubble (TDA RP-8, R5.8): when it runs, and shared places.

The hands and the tables' "hand done" reports are the tables layer's (tables.hand_for_hand);
this module knows the bubble (a satellite's qualifying places, R5.5) and the eliminations.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.models import User

from scoring.models import Elimination, EliminationKind
from scoring.satellites import qualifying_places
from tables import hand_for_hand as hands
from tables.hand_for_hand import (
    HandForHandError,
    HandForHandView,
    open_hand,
    reopenable_hand,
    share_hand_for_hand_place,
    take_back_hand_done,
)
from tables.models import HandForHand
from tournaments.models import Event, EventKind

__all__ = [
    "HandForHandError",
    "HandForHandView",
    "hand_for_hand_view",
    "is_on_the_bubble",
    "open_hand",
    "reopenable_hand",
    "report_hand_done",
    "shared_places",
    "sync_hand_for_hand",
    "take_back_hand_done",
]


def _qualifiers(event: Event) -> int:
    return qualifying_places(event) if event.kind == EventKind.SATELLITE else 0


def is_on_the_bubble(event: Event) -> bool:
    """R5.5, TDA RP-8: a satellite with one player more than seats in the super final."""
    return hands.is_on_the_bubble(event, qualifiers=_qualifiers(event))


def _busts_in(hand: HandForHand) -> list[Elimination]:
    return list(
        Elimination.objects.active()
        .filter(event=hand.event, kind=EliminationKind.BUST, step__data__hand_for_hand=hand.number)
        .order_by("pk")
    )


def sync_hand_for_hand(*, event: Event, actor: User | None) -> HandForHand | None:
    """Open a hand when the bubble is reached; drop an open hand nobody busted in off it.

    Called under the event's lock after every change of the players left (busts, quits, undo,
    redo). A hand in which the bubble burst stays open until every table reports it done, so
    that busts at other tables in that same hand still share the place (TDA RP-8).
    """
    hand = open_hand(event)
    bubble = is_on_the_bubble(event)
    if hand is None and bubble:
        hand = hands.start_hand(event=event, actor=actor)
    elif hand is not None and not bubble and not _busts_in(hand):
        hands.drop_hand(hand=hand, actor=actor)
        hand = None
    return hand


def report_hand_done(
    *, event_id: int, table_number: int, hand_number: int, actor: User | None
) -> HandForHand:
    """TDA RP-8: a table has finished the hand; the last one ends it, the bubble decides next."""
    return hands.report_hand_done(
        event_id=event_id,
        table_number=table_number,
        hand_number=hand_number,
        actor=actor,
        after_hand=lambda event: sync_hand_for_hand(event=event, actor=actor),
    )


def shared_places(
    *, hand: HandForHand, new_busts: Mapping[int, int | None], players_left: int
) -> tuple[int | None, list[Elimination]]:
    """TDA RP-8: the place shared by every bust of this hand, or None if they are all at one table.

    ``new_busts`` maps each entry busting now to his table. Busts of one hand at a single table
    are placed by R5.6 among themselves; as soon as the hand's busts span two tables, all of them
    (several at one table too) finish tied and share the best place they cover (TDA RP-8: players
    eliminated in the same hand-for-hand hand at different tables tie). Returns the shared place
    and the earlier busts of the hand, whose places the caller changes.
    """
    earlier = _busts_in(hand)
    tables = {e.table_number for e in earlier} | set(new_busts.values())
    if len(tables) < 2:
        return None, earlier
    shared = share_hand_for_hand_place(
        players_left_before=players_left + len(earlier),
        busted=[e.entry_id for e in earlier] + list(new_busts),
    )
    return shared.place, earlier


def hand_for_hand_view(event: Event) -> HandForHandView | None:
    """The open hand-for-hand hand with the bubble's numbers, for the floor page."""
    return hands.hand_for_hand_view(event, qualifiers=_qualifiers(event))
