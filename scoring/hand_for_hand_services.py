"""Hand-for-hand on the satellite bubble (TDA RP-8, R5.8): hands, "hand done", shared places."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Elimination, EliminationKind, HandForHand
from tables.balancing import on_the_bubble, share_hand_for_hand_place
from tables.models import Table
from tournaments.entry_services import FloorError, lock_event
from tournaments.models import Entry, Event, EventKind
from tournaments.satellites import qualifying_places
from tournaments.services import record_audit


class HandForHandError(FloorError):
    """A "hand done" report for a hand or table that is not in play."""


@dataclass(frozen=True)
class HandForHandView:
    """What the floor page shows while hand-for-hand runs."""

    hand: HandForHand
    players_left: int
    qualifiers: int
    on_the_bubble: bool  # False once the bubble burst in this hand: it is played out first

    @property
    def done_tables(self) -> list[int]:
        return list(self.hand.done_tables)


def is_on_the_bubble(event: Event) -> bool:
    """R5.5, TDA RP-8: a satellite with one player more than seats in the super final."""
    if event.kind != EventKind.SATELLITE:
        return False
    qualifiers = qualifying_places(event)
    left = Entry.objects.filter(event=event).in_play().count()
    return qualifiers > 0 and on_the_bubble(players_left=left, paid_places=qualifiers)


def open_hand(event: Event) -> HandForHand | None:
    """The hand-for-hand hand in play, if any."""
    return HandForHand.objects.filter(event=event, completed_at__isnull=True).first()


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
        last = HandForHand.objects.filter(event=event).order_by("-number").first()
        hand = HandForHand.objects.create(event=event, number=(last.number + 1) if last else 1)
        record_audit(actor=actor, action="hand_for_hand.started", event=event, hand=hand.number)
    elif hand is not None and not bubble and not _busts_in(hand):
        record_audit(actor=actor, action="hand_for_hand.ended", event=event, hand=hand.number)
        hand.delete()
        hand = None
    return hand


def _tables_in_play(event: Event) -> set[int]:
    return set(
        Table.objects.filter(event=event, is_broken=False, seated__isnull=False)
        .values_list("number", flat=True)
        .distinct()
    )


@transaction.atomic
def report_hand_done(
    *, event_id: int, table_number: int, hand_number: int, actor: User | None
) -> HandForHand:
    """TDA RP-8: a table has finished the hand-for-hand hand; the last one ends the hand.

    A second report of the same table, or a report for a hand already over, changes nothing.
    """
    event = lock_event(event_id)
    hand = open_hand(event)
    if hand is None or hand.number != hand_number:
        over = HandForHand.objects.filter(event=event, number=hand_number).first()
        if over is not None and over.completed_at is not None:
            return over  # a double click after the last table ended the hand
        raise HandForHandError(
            _("No hand-for-hand hand %(hand)s is in play.") % {"hand": hand_number}
        )
    tables = _tables_in_play(event)
    if table_number not in tables:
        raise HandForHandError(_("Table %(table)s is not in play.") % {"table": table_number})
    if table_number in hand.done_tables:
        return hand
    hand.done_tables = sorted([*hand.done_tables, table_number])
    record_audit(
        actor=actor, action="hand_for_hand.done", event=event, hand=hand.number, table=table_number
    )
    if tables <= set(hand.done_tables):
        hand.completed_at = timezone.now()
        record_audit(actor=actor, action="hand_for_hand.completed", event=event, hand=hand.number)
    hand.save(update_fields=["done_tables", "completed_at"])
    if hand.completed_at is not None:
        sync_hand_for_hand(event=event, actor=actor)
    return hand


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
    hand = open_hand(event)
    if hand is None:
        return None
    return HandForHandView(
        hand=hand,
        players_left=Entry.objects.filter(event=event).in_play().count(),
        qualifiers=qualifying_places(event),
        on_the_bubble=is_on_the_bubble(event),
    )
