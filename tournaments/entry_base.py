"""What entry and money writes share: the floor's error types, the event and entry locks, the
starting stack (R5.5). Below both service modules, so neither imports the other back."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import live
from tournaments.models import (
    Entry,
    Event,
    EventKind,
    EventStatus,
    Season,
    SuperFinalStackRule,
)

SATELLITE_BONUS_CHIPS = 3_000  # R5.5: every satellite won adds 3,000 chips to the final stack


class FloorError(ValueError):
    """A floor action that cannot be applied; the message is for the floor, nothing changed."""


class WrongEventError(FloorError):
    """The entry, table or seat belongs to another event."""


class EntryStateError(FloorError):
    """The entry is not in a state that allows the action (already out, not checked in…)."""


# When this thread last began reading an event's board to publish it (time.monotonic_ns()).
_board_reads = threading.local()


class _PublishStandings:
    """An event's board to publish after the commit of a change registered at ``registered``."""

    def __init__(self, event_id: int) -> None:
        self.event_id = event_id
        self.registered = time.monotonic_ns()

    def __call__(self) -> None:
        reads: dict[int, int] = getattr(_board_reads, "events", {})
        if reads.get(self.event_id, -1) > self.registered:
            # This thread read the board after this change was made, and so after its commit
            # (a thread runs its callbacks after its own commit): that board holds it.
            return
        _board_reads.events = {**reads, self.event_id: time.monotonic_ns()}
        live.publish_event_changed(event_id=self.event_id, what="standings")


def publish_standings(event_id: int) -> None:
    """After the commit, tell the event's pages that standings and seats changed: one board for
    the transaction, however many of its writes call it. The board is read after the commit, so
    the first holds them all; the director's tick (busts, then a table broken seat by seat)
    rendered it once a write, a 1,000-place board at 140 ms each (issue 17)."""
    transaction.on_commit(_PublishStandings(event_id))


class OnlineEventFloorError(FloorError):
    """A floor action typed in for an online event, whose seats and busts follow the engine."""


def refuse_online_floor(event: Event, actor: User | None) -> None:
    """An online event's seats, busts, moves and chip-ups follow the engine and its director
    (docs/online.md), which act with no actor; the floor's hand-entered versions are refused."""
    if event.online and actor is not None:
        raise OnlineEventFloorError(
            _(
                "This event is played online: its seats and busts follow the engine. Remove a "
                "player with the online controls."
            )
        )


class EventFinishedError(FloorError):
    """The event has finished: its seats, places and moves are final."""


def lock_event(event_id: int) -> Event:
    """Lock the event row: every floor write of one event goes through this one lock.

    A finished event refuses them all, so an undo or a late bust cannot reopen its results.
    """
    # NO KEY: rows that point at the event (tables, online tables) check their foreign key with
    # a KEY SHARE lock, which FOR UPDATE would block (a deadlock with the tables' sweeper).
    event = Event.objects.select_for_update(no_key=True).get(pk=event_id)
    if event.status == EventStatus.FINISHED:
        raise EventFinishedError(
            _("%(event)s has finished; its results are final.") % {"event": event.name}
        )
    return event


def lock_entries(*, event: Event, entry_ids: Iterable[int]) -> list[Entry]:
    """Lock the given entries, in id order; raise unless all exist and belong to the event."""
    ids = sorted(set(entry_ids))
    entries = list(
        Entry.objects.select_for_update(of=("self",), no_key=True)
        .select_related("player")
        .filter(pk__in=ids)
        .order_by("pk")
    )
    if len(entries) != len(ids):
        raise FloorError(_("An entry does not exist."))
    for entry in entries:
        if entry.event_id != event.pk:
            raise WrongEventError(
                _("%(name)s is not an entry of this event.") % {"name": entry.player.name}
            )
    return entries


class NoSuperFinalStackError(FloorError):
    """R5.5: with 3,000 per satellite won alone, a player who won none has no stack."""


def super_final_stack(
    *,
    event_stack: int,
    satellites_won: int,
    rule: str = SuperFinalStackRule.BASE_PLUS_BONUS,
) -> int:
    """R5.5: 3,000 chips per satellite won (counted by scoring), added to the final's stack by
    default, or the whole stack under the season's rule BONUS_ONLY."""
    if satellites_won < 0:
        raise ValueError("satellites won cannot be negative")
    bonus = SATELLITE_BONUS_CHIPS * satellites_won
    return bonus if rule == SuperFinalStackRule.BONUS_ONLY else event_stack + bonus


def stack_rule(event: Event) -> str:
    """R5.5: the super-final stack rule of the event's season (the default without one)."""
    if event.season_id is None:
        return SuperFinalStackRule.BASE_PLUS_BONUS
    return str(
        Season.objects.filter(pk=event.season_id)
        .values_list("super_final_stack_rule", flat=True)
        .first()
        or SuperFinalStackRule.BASE_PLUS_BONUS
    )


def starting_stack_for(*, event: Event, satellites_won: int, name: str = "") -> int:
    """The event's starting stack; in a super final as its season's rule says (R5.5).

    Raises NoSuperFinalStackError for a player with no satellite won when the satellites'
    chips are the whole stack (he would start with none).
    """
    if event.kind != EventKind.FINAL:
        return event.starting_stack
    rule = stack_rule(event)
    stack = super_final_stack(
        event_stack=event.starting_stack, satellites_won=satellites_won, rule=rule
    )
    if stack <= 0:
        raise NoSuperFinalStackError(
            _(
                "%(name)s won no satellite: in this season the super-final stack is 3,000 per "
                "satellite won alone, so he has no chips (R5.5). Give his satellites won."
            )
            % {"name": name or _("The player")}
        )
    return stack
