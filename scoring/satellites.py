"""Satellites and the super final (R5.5): qualifiers, final stacks, one satellite at a time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from scoring import places
from scoring.models import InfractionKind, SatelliteInfraction
from scoring.season_selectors import entrants_by_event
from tournaments.entry_services import (
    FloorError,
    check_in_entry,
    lock_event,
    register_entry,
    stack_rule,
    starting_stack_for,
)
from tournaments.models import Entry, EntryStatus, Event, EventKind, EventStatus, Player
from tournaments.services import record_audit

# A player "sits in" a satellite from check-in until he is out.
SITTING = [EntryStatus.CHECKED_IN, EntryStatus.PLAYING]


class SatelliteExclusionError(FloorError):
    """R5.5: a second attempt to play two satellites at once: the player is excluded."""


def qualifying_places(event: Event) -> int:
    """R5.5: how many places of a satellite qualify for the super final (20% of the field)."""
    entrants = entrants_by_event([event.pk]).get(event.pk, 0)
    return places.satellite_qualifiers(entrants) if entrants else 0


def qualifiers(event: Event) -> list[Entry]:
    """The entries of a satellite that qualified, best first (places given so far)."""
    if event.kind != EventKind.SATELLITE:
        return []
    cut = qualifying_places(event)
    return list(
        Entry.objects.filter(event=event, place__isnull=False, place__lte=cut)
        .select_related("player")
        .order_by("place")
    )


def satellites_won(*, player: Player, final: Event) -> int:
    """R5.5: the satellites of the final's season in which the player qualified."""
    if final.season_id is None:
        return 0
    won = 0
    satellites = Event.objects.filter(season_id=final.season_id, kind=EventKind.SATELLITE)
    entries = Entry.objects.filter(player=player, event__in=satellites, place__isnull=False)
    cut = {event.pk: qualifying_places(event) for event in satellites}
    for entry in entries:
        won += entry.place is not None and entry.place <= cut.get(entry.event_id, 0)
    return won


@dataclass(frozen=True)
class StackChange:
    """One super-final entry whose stack was set from the satellites he won."""

    entry_id: int
    player: str
    satellites_won: int
    starting_stack: int


@transaction.atomic
def compute_super_final_stacks(*, event_id: int, actor: User | None) -> list[StackChange]:
    """R5.5: each final entry's stack from the satellites he won, by the season's stack rule.

    The final's stack plus 3,000 per satellite won (default), or 3,000 per satellite won alone;
    under the latter an entry with no satellite won is refused by name and nothing changes.
    """
    event = lock_event(event_id)
    if event.kind != EventKind.FINAL:
        raise FloorError(_("Only a final has super-final stacks."))
    if event.season_id is None:
        raise FloorError(_("The final belongs to no season: there are no satellites to count."))
    changes = []
    for entry in (
        Entry.objects.select_for_update(of=("self",)).filter(event=event).select_related("player")
    ):
        won = satellites_won(player=entry.player, final=event)
        stack = starting_stack_for(event=event, satellites_won=won, name=entry.player.name)
        if (entry.satellites_won, entry.starting_stack) != (won, stack):
            entry.satellites_won, entry.starting_stack = won, stack
            entry.save(update_fields=["satellites_won", "starting_stack"])
            changes.append(StackChange(entry.pk, entry.player.name, won, stack))
    record_audit(
        actor=actor,
        action="super_final.stacks",
        event=event,
        rule=stack_rule(event),
        changes=[[c.entry_id, c.satellites_won, c.starting_stack] for c in changes],
    )
    return changes


def other_running_satellite(*, event: Event, player: Player) -> Event | None:
    """The running satellite, other than this one, that the player sits in, if any."""
    entry = (
        Entry.objects.filter(
            player=player,
            status__in=SITTING,
            event__kind=EventKind.SATELLITE,
            event__status=EventStatus.RUNNING,
        )
        .exclude(event=event)
        .select_related("event")
        .first()
    )
    return entry.event if entry else None


def _earlier_warnings(*, event: Event, player: Player) -> int:
    """Warnings the player already had: in the event's season, or ever if it has none."""
    same_season = Q(event__season_id=event.season_id) if event.season_id else Q()
    return SatelliteInfraction.objects.filter(
        same_season, player=player, kind=InfractionKind.WARNING
    ).count()


@transaction.atomic
def _record_infraction(
    *, event_id: int, player: Player, actor: User | None
) -> SatelliteInfraction | None:
    event = Event.objects.select_for_update(no_key=True).get(pk=event_id)
    if event.kind != EventKind.SATELLITE or event.status != EventStatus.RUNNING:
        return None
    other = other_running_satellite(event=event, player=player)
    if other is None:
        return None
    # R5.5: a warning the first time, exclusion after that.
    warned = _earlier_warnings(event=event, player=player)
    kind = InfractionKind.EXCLUSION if warned else InfractionKind.WARNING
    infraction = SatelliteInfraction.objects.create(
        player=player, event=event, other_event=other, kind=kind, actor=actor
    )
    record_audit(
        actor=actor,
        action=f"satellite.{kind}",
        event=event,
        player=player.pk,
        name=player.name,
        other_event=other.pk,
        earlier_warnings=warned,
    )
    return infraction


def screen_satellite_entry(
    *, event_id: int, player: Player | None, actor: User | None
) -> SatelliteInfraction | None:
    """R5.5: before a player registers or checks in to a running satellite while sitting in
    another: record a warning the first time; the next time record an exclusion and refuse.

    Runs in its own transaction, so the exclusion stays on record although the registration
    is refused: call it before (outside) the registration's transaction.
    """
    if player is None or player.pk is None:
        return None  # a new player sits nowhere yet
    infraction = _record_infraction(event_id=event_id, player=player, actor=actor)
    if infraction is not None and infraction.kind == InfractionKind.EXCLUSION:
        raise SatelliteExclusionError(
            _(
                "%(name)s is already playing %(other)s and was warned before: excluded (R5.5, "
                "nobody plays two satellites at once)."
            )
            % {"name": player.name, "other": infraction.other_event.name}
        )
    return infraction


def warning_text(infraction: SatelliteInfraction) -> str:
    """The floor's message for a first infraction."""
    return _(
        "Warning: %(name)s is also playing %(other)s. Nobody plays two satellites at once; "
        "next time he is excluded (R5.5)."
    ) % {"name": infraction.player.name, "other": infraction.other_event.name}


def register_for_satellite(*, event_id: int, actor: User | None, **kwargs: Any) -> Entry:
    """register_entry, screened first for two running satellites (R5.5)."""
    player = (
        kwargs.get("player")
        or Player.objects.filter(name__iexact=" ".join(str(kwargs.get("name", "")).split())).first()
    )
    screen_satellite_entry(event_id=event_id, player=player, actor=actor)
    return register_entry(event_id=event_id, actor=actor, **kwargs)


def check_in_for_satellite(*, event_id: int, entry_id: int, actor: User | None) -> Entry:
    """check_in_entry, screened first for two running satellites (R5.5)."""
    entry = Entry.objects.select_related("player").get(pk=entry_id)
    screen_satellite_entry(event_id=event_id, player=entry.player, actor=actor)
    return check_in_entry(event_id=event_id, entry_id=entry_id, actor=actor)
