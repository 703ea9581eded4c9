"""Writes on players and entries: register, check in; the floor's error types."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments import money_services
from tournaments.entry_base import (
    SATELLITE_BONUS_CHIPS,
    EntryStateError,
    EventFinishedError,
    FloorError,
    NoSuperFinalStackError,
    OnlineEventFloorError,
    WrongEventError,
    lock_entries,
    lock_event,
    publish_standings,
    refuse_online_floor,
    stack_rule,
    starting_stack_for,
    super_final_stack,
)
from tournaments.models import Entry, EntryStatus, Player
from tournaments.services import record_audit

# The shared part lives in entry_base (money_services builds on it); callers keep this import.
__all__ = [
    "EntryStateError",
    "EventFinishedError",
    "FloorError",
    "NoSuperFinalStackError",
    "OnlineEventFloorError",
    "SATELLITE_BONUS_CHIPS",
    "WrongEventError",
    "lock_entries",
    "lock_event",
    "publish_standings",
    "refuse_online_floor",
    "stack_rule",
    "starting_stack_for",
    "super_final_stack",
    "check_in_entry",
    "register_entry",
]


@transaction.atomic
def register_entry(
    *,
    event_id: int,
    actor: User | None,
    name: str = "",
    player: Player | None = None,
    satellites_won: int = 0,
    check_in: bool = False,
    key: str = "",
) -> Entry:
    """Register a player (an existing one, or one found or created by name) for an event.

    With money settings (docs/money.md) late registration may have closed, and the buy-in is
    recorded with the entry; a freeroll registers exactly as before.
    """
    event = lock_event(event_id)
    money_services.check_registration_open(event)
    name = " ".join(name.split())
    if player is None:
        if not name:
            raise FloorError(_("Give the player's name."))
        player = Player.objects.filter(name__iexact=name).order_by("pk").first()
        if player is None:
            player = Player.objects.create(name=name)
    if satellites_won < 0:
        raise FloorError(_("Satellites won cannot be negative."))
    if Entry.objects.filter(event=event, player=player).exists():
        raise EntryStateError(
            _("%(name)s is already registered (a busted player re-enters).") % {"name": player.name}
        )
    try:
        with transaction.atomic():
            entry = Entry.objects.create(
                event=event,
                player=player,
                satellites_won=satellites_won,
                starting_stack=starting_stack_for(
                    event=event, satellites_won=satellites_won, name=player.name
                ),
                status=EntryStatus.CHECKED_IN if check_in else EntryStatus.REGISTERED,
            )
    except IntegrityError as error:  # pragma: no cover - the event lock makes this unreachable
        raise EntryStateError(_("%(name)s is already registered.") % {"name": player.name}) from (
            error
        )
    record_audit(
        actor=actor,
        action="entry.registered",
        event=event,
        entry=entry.pk,
        player=player.name,
        starting_stack=entry.starting_stack,
        checked_in=check_in,
    )
    money_services.charge_buy_in(event=event, entry=entry, actor=actor, key=key)
    publish_standings(event.pk)
    return entry


@transaction.atomic
def check_in_entry(*, event_id: int, entry_id: int, actor: User | None) -> Entry:
    """Mark a registered entry as present: it takes part in the next seat draw."""
    event = lock_event(event_id)
    (entry,) = lock_entries(event=event, entry_ids=[entry_id])
    if entry.status == EntryStatus.CHECKED_IN:
        return entry  # a second click changes nothing
    if entry.status != EntryStatus.REGISTERED:
        raise EntryStateError(
            _("%(name)s is %(status)s, not waiting to check in.")
            % {"name": entry.player.name, "status": entry.get_status_display()}
        )
    entry.status = EntryStatus.CHECKED_IN
    entry.save(update_fields=["status"])
    record_audit(actor=actor, action="entry.checked_in", event=event, entry=entry.pk)
    publish_standings(event.pk)
    return entry
