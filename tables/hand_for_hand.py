"""Hand-for-hand (TDA RP-8, R5.8): the hands dealt in step at every table, "hand done" reports.

When hand-for-hand runs (a satellite's bubble) and the places shared by the busts of one hand
are the scoring layer's (scoring.hand_for_hand_services): here the number of qualifying places
is an argument, and a completed hand calls the caller's ``after_hand``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.models import FloorStep, HandForHand, StepStatus, Table
from tournaments.entry_services import (
    FloorError,
    lock_event,
    publish_standings,
    refuse_online_floor,
)
from tournaments.models import AuditEvent, Entry, Event, EventKind
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


def on_the_bubble(*, players_left: int, paid_places: int) -> bool:
    """The next bust is the last one out of the money (satellite: out of the qualifiers)."""
    return players_left == paid_places + 1  # TDA: hand-for-hand play on the bubble


@dataclass(frozen=True)
class SharedPlace:
    """Players out in the same hand-for-hand hand at different tables: one shared place."""

    players: tuple[int, ...]
    place: int  # the best of the places they cover, as in "tied for 8th"
    places: tuple[int, ...]  # all places covered, for splitting prizes


def share_hand_for_hand_place(*, players_left_before: int, busted: Sequence[int]) -> SharedPlace:
    """TDA: busts in one hand-for-hand hand at different tables tie and share the place.

    With 10 left and three out, they share 8th (places 8, 9 and 10; prizes split). Busts at
    one table alone are ordered by starting stack instead: scoring.places (R5.6).
    """
    if not 0 < len(busted) <= players_left_before or len(set(busted)) != len(busted):
        raise ValueError("the busted players must be distinct and among the players left")
    best = players_left_before - len(busted) + 1
    return SharedPlace(
        players=tuple(busted), place=best, places=tuple(range(best, players_left_before + 1))
    )


def players_left(event: Event) -> int:
    return Entry.objects.filter(event=event).in_play().count()


def is_on_the_bubble(event: Event, *, qualifiers: int) -> bool:
    """R5.5, TDA RP-8: a satellite with one player more than its ``qualifiers`` seats."""
    if event.kind != EventKind.SATELLITE:
        return False
    return qualifiers > 0 and on_the_bubble(
        players_left=players_left(event), paid_places=qualifiers
    )


def open_hand(event: Event) -> HandForHand | None:
    """The hand-for-hand hand in play, if any."""
    return HandForHand.objects.filter(event=event, completed_at__isnull=True).first()


def start_hand(*, event: Event, actor: User | None) -> HandForHand:
    """Deal the next hand hand-for-hand (the caller holds the event's lock)."""
    last = HandForHand.objects.filter(event=event).order_by("-number").first()
    hand = HandForHand.objects.create(event=event, number=(last.number + 1) if last else 1)
    record_audit(actor=actor, action="hand_for_hand.started", event=event, hand=hand.number)
    return hand


def drop_hand(*, hand: HandForHand, actor: User | None) -> None:
    """Hand-for-hand is over before this hand counted: nobody busted in it."""
    record_audit(actor=actor, action="hand_for_hand.ended", event=hand.event, hand=hand.number)
    hand.delete()


def tables_in_play(event: Event) -> set[int]:
    return set(
        Table.objects.filter(event=event, is_broken=False, seated__isnull=False)
        .values_list("number", flat=True)
        .distinct()
    )


@transaction.atomic
def report_hand_done(
    *,
    event_id: int,
    table_number: int,
    hand_number: int,
    actor: User | None,
    after_hand: Callable[[Event], object] | None = None,
) -> HandForHand:
    """TDA RP-8: a table has finished the hand-for-hand hand; the last one ends the hand.

    A second report of the same table, or a report for a hand already over, changes nothing.
    When the hand ends, ``after_hand(event)`` runs under the event's lock (the next hand).
    """
    event = lock_event(event_id)
    refuse_online_floor(event, actor)  # docs/online.md: the engine reports online
    hand = open_hand(event)
    if hand is None or hand.number != hand_number:
        over = HandForHand.objects.filter(event=event, number=hand_number).first()
        if over is not None and over.completed_at is not None:
            return over  # a double click after the last table ended the hand
        raise HandForHandError(
            _("No hand-for-hand hand %(hand)s is in play.") % {"hand": hand_number}
        )
    tables = tables_in_play(event)
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
    if hand.completed_at is not None and after_hand is not None:
        after_hand(event)
    publish_standings(event.pk)  # after the commit: the floor pages show the report
    return hand


TAKEN_BACK = "hand_for_hand.done_taken_back"


def reopenable_hand(event: Event) -> HandForHand | None:
    """The last completed hand, while nothing happened since it ended (its reports can go back).

    Nothing: no later hand has a report, and no bust, quit, stop or move was recorded after it.
    """
    hand = (
        HandForHand.objects.filter(event=event, completed_at__isnull=False)
        .order_by("-number")
        .first()
    )
    if hand is None or hand.completed_at is None:
        return None
    later = HandForHand.objects.filter(event=event, number__gt=hand.number)
    if any(h.done_tables or h.completed_at for h in later):
        return None
    since = FloorStep.objects.filter(event=event, created_at__gt=hand.completed_at)
    if since.exclude(status=StepStatus.PENDING).exists():
        return None
    return hand


def _refuse_take_back(*, hand: HandForHand | None, table_number: int, hand_number: int) -> None:
    """Raise unless the table's report of this hand can be taken back (see take_back)."""
    if hand is None or table_number not in hand.done_tables:
        raise HandForHandError(
            _("Table %(table)s has not reported hand %(hand)s done: nothing to take back.")
            % {"table": table_number, "hand": hand_number}
        )
    if hand.completed_at is not None and reopenable_hand(hand.event) != hand:
        raise HandForHandError(
            _("Hand %(hand)s is over and play went on since: its reports stay as they are.")
            % {"hand": hand_number}
        )


@transaction.atomic
def take_back_hand_done(
    *, event_id: int, table_number: int, hand_number: int, actor: User | None, key: str = ""
) -> HandForHand:
    """TDA RP-8: a table's "hand done" report taken back (a wrong click on the floor).

    While the hand is open, the table is simply not done again. If its report ended the hand,
    the hand opens again as long as nothing happened since (reopenable_hand): the next hand,
    dealt by nobody yet, is dropped. The form's ``key`` makes a double click change nothing.
    """
    event = lock_event(event_id)
    refuse_online_floor(event, actor)  # docs/online.md: the engine reports online
    hand = HandForHand.objects.filter(event=event, number=hand_number).first()
    done = AuditEvent.objects.filter(event=event, action=TAKEN_BACK, data__key=key)
    if key and hand is not None and done.exists():
        return hand  # the second click of a double click: taken back once
    _refuse_take_back(hand=hand, table_number=table_number, hand_number=hand_number)
    assert hand is not None  # noqa: S101 - refused above
    reopened = hand.completed_at is not None
    if reopened:
        for later in HandForHand.objects.filter(event=event, number__gt=hand.number):
            drop_hand(hand=later, actor=actor)
    hand.done_tables = [t for t in hand.done_tables if t != table_number]
    hand.completed_at = None
    hand.save(update_fields=["done_tables", "completed_at"])
    record_audit(
        actor=actor, action=TAKEN_BACK, event=event, hand=hand.number, table=table_number,
        reopened=reopened, key=key,
    )  # fmt: skip
    publish_standings(event.pk)
    return hand


def hand_for_hand_view(event: Event, *, qualifiers: int) -> HandForHandView | None:
    """The open hand-for-hand hand with the bubble's numbers, for the floor page."""
    hand = open_hand(event)
    if hand is None:
        return None
    return HandForHandView(
        hand=hand,
        players_left=players_left(event),
        qualifiers=qualifiers,
        on_the_bubble=is_on_the_bubble(event, qualifiers=qualifiers),
    )
