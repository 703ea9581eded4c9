"""Writes on events: create, change and finish one; each refused with a reason, audited, atomic."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import clock, live, money, structures
from tournaments.entry_services import NoSuperFinalStackError, starting_stack_for
from tournaments.models import (
    BlindStructure,
    Entry,
    EntryStatus,
    Event,
    EventKind,
    EventMoney,
    EventStatus,
    LevelKind,
    Season,
)
from tournaments.money_models import MONEY_PROBLEMS
from tournaments.services import record_audit

CLOCK_FIELDS = ["clock_level_index", "clock_level_started_at", "clock_paused_at"]


class EventEditError(ValueError):
    """A write that is refused, nothing changed; ``field`` names the form field it concerns."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class PlayersStillInError(EventEditError):
    """Finishing an event with players still in needs the floor's confirmation."""

    def __init__(self, message: str, *, names: list[str]) -> None:
        super().__init__(message)
        self.names = names


def finished_text() -> str:
    """Why a finished event is not edited (in the page's language)."""
    return _("This event has finished: its settings and results stay as they are.")


def smallest_chip_at_start(structure: BlindStructure) -> int:
    """The smallest chip in play at level 1 of a structure (every stack is a multiple of it)."""
    smallest = structure.smallest_chip.value if structure.smallest_chip else None
    in_play = structures.chips_at_start(structure.chip_values(), smallest)
    return in_play[0] if in_play else 1


def has_playing_level(structure: BlindStructure) -> bool:
    """Whether a structure has a level with blinds (a clock of breaks alone cannot run)."""
    return structure.levels.filter(kind=LevelKind.PLAY).exists()


def _clean_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise EventEditError(_("Give the event a name."), field="name")
    return name


def _check_kind(kind: str) -> None:
    if kind not in EventKind.values:
        raise EventEditError(_("Choose a kind of event."), field="kind")


def _locked_structure(structure: BlindStructure) -> BlindStructure:
    """The structure row, locked against the editor while an event is put on it."""
    structure = BlindStructure.objects.select_for_update().get(pk=structure.pk)
    if not has_playing_level(structure):
        raise EventEditError(
            _("“%(name)s” has no playing level yet: add levels in the structure editor first.")
            % {"name": structure.name},
            field="structure",
        )
    return structure


def _check_stack(structure: BlindStructure, stack: object) -> int:
    """A positive whole number of chips, a multiple of the smallest chip at level 1."""
    if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
        raise EventEditError(
            _("The starting stack must be a positive whole number of chips."),
            field="starting_stack",
        )
    chip = smallest_chip_at_start(structure)
    if stack % chip:
        raise EventEditError(
            _(
                "The starting stack must be a multiple of %(chip)s, the smallest chip in play "
                "at level 1 of “%(structure)s”."
            )
            % {"chip": chip, "structure": structure.name},
            field="starting_stack",
        )
    return stack


def _facts(event: Event) -> dict[str, Any]:
    """What the audit log keeps of an event's settings (plain JSON values)."""
    return {
        "name": event.name,
        "kind": event.kind,
        "structure": event.structure_id,
        "starting_stack": event.starting_stack,
        "scheduled_start": timezone.localtime(event.scheduled_start).isoformat(),
        "season": event.season_id,
        "online": event.online,
        "table_size": event.table_size,
        "start_players": event.start_players,
    }


@transaction.atomic
def create_event(
    *,
    actor: User | None,
    name: str,
    kind: str,
    structure: BlindStructure,
    scheduled_start: datetime,
    starting_stack: int | None = None,
    season: Season | None = None,
    money_settings: money.MoneyInput | None = None,
    online: bool = False,
    table_size: int = 9,
    start_players: int | None = None,
) -> Event:
    """Schedule an event on a playable structure; the stack defaults to the structure's. An
    online one: its table size and sit&go start rule (docs/online.md)."""
    name = _clean_name(name)
    _check_kind(kind)
    structure = _locked_structure(structure)
    stack = _check_stack(
        structure, structure.starting_stack if starting_stack is None else starting_stack
    )
    event = Event.objects.create(
        name=name,
        kind=kind,
        structure=structure,
        starting_stack=stack,
        scheduled_start=scheduled_start,
        season=season,
        online=online,
        table_size=table_size,
        start_players=start_players,
    )
    record_audit(actor=actor, action="event.created", event=event, **_facts(event))
    save_money_settings(event=event, actor=actor, settings=money_settings or money.MoneyInput())
    return event


def _clock_started(event: Event) -> bool:
    return event.clock_level_started_at is not None or event.status != EventStatus.SCHEDULED


def _check_started_event(event: Event, *, structure: BlindStructure, stack: int) -> None:
    """Once the clock runs, its levels come from the structure and the chips are on the tables."""
    if structure.pk != event.structure_id:
        raise EventEditError(
            _(
                "The clock has started: another structure would shift the clock's levels. "
                "The event keeps “%(name)s”."
            )
            % {"name": event.structure.name},
            field="structure",
        )
    if stack != event.starting_stack:
        raise EventEditError(
            _("The clock has started and the chips are on the tables: the stack stays %(stack)s.")
            % {"stack": event.starting_stack},
            field="starting_stack",
        )


def _check_started_online(
    event: Event, *, online: bool, table_size: int, start_players: int | None
) -> None:
    """Once an event has started, its players sit where they sit: online or not, the table size
    and the start rule stay (docs/online.md)."""
    if (online, table_size, start_players) != (
        event.online,
        event.table_size,
        event.start_players,
    ):
        raise EventEditError(
            _("The event has started: where it is played, its table size and its start rule stay."),
            field="online",
        )


def _restack_waiting_entries(event: Event) -> int:
    """Entries not yet playing get the new stack (R5.5: a final's bonus kept); how many."""
    waiting = Entry.objects.select_for_update().filter(
        event=event, status__in=[EntryStatus.REGISTERED, EntryStatus.CHECKED_IN]
    )
    changed = 0
    for entry in waiting:
        try:
            stack = starting_stack_for(event=event, satellites_won=entry.satellites_won)
        except NoSuperFinalStackError:
            continue  # R5.5: no satellite won, no stack of his own: the floor's stacks page says
        if entry.starting_stack != stack:
            entry.starting_stack = stack
            entry.save(update_fields=["starting_stack"])
            changed += 1
    return changed


@transaction.atomic
def update_event(
    *,
    actor: User | None,
    event_id: int,
    name: str,
    kind: str,
    structure: BlindStructure,
    scheduled_start: datetime,
    starting_stack: int | None = None,
    season: Season | None = None,
    money_settings: money.MoneyInput | None = None,
    online: bool | None = None,
    table_size: int | None = None,
    start_players: int | None = None,
) -> Event:
    """Change an event's settings; not a finished event, nor a started clock's levels or stack,
    nor a started event's online settings. ``online`` None leaves those as they are.

    ``money_settings`` None leaves the money as it is (docs/money.md).
    """
    event = (
        Event.objects.select_for_update(no_key=True).select_related("structure").get(pk=event_id)
    )
    if event.status == EventStatus.FINISHED:
        raise EventEditError(finished_text())
    name = _clean_name(name)
    _check_kind(kind)
    stack = structure.starting_stack if starting_stack is None else starting_stack
    if _clock_started(event):
        _check_started_event(event, structure=structure, stack=stack)
    else:
        structure = _locked_structure(structure)
        _check_stack(structure, stack)
    if online is None:
        online, table_size, start_players = event.online, event.table_size, event.start_players
    table_size = event.table_size if table_size is None else table_size
    if _clock_started(event):
        _check_started_online(
            event, online=online, table_size=table_size, start_players=start_players
        )
    before = _facts(event)
    event.name, event.kind, event.structure = name, kind, structure
    event.starting_stack, event.scheduled_start, event.season = stack, scheduled_start, season
    event.online, event.table_size, event.start_players = online, table_size, start_players
    after = _facts(event)
    changes = {key: [before[key], after[key]] for key in after if before[key] != after[key]}
    if money_settings is not None:
        save_money_settings(event=event, actor=actor, settings=money_settings)
    if not changes:
        return event
    event.save()
    restacked = _restack_waiting_entries(event) if "starting_stack" in changes else 0
    record_audit(
        actor=actor, action="event.changed", event=event, changes=changes, restacked=restacked
    )
    transaction.on_commit(lambda: live.publish_event_changed(event_id=event.pk, what="clock"))
    return event


@transaction.atomic
def finish_event(*, actor: User | None, event_id: int, confirm_players_in: bool = False) -> Event:
    """Mark a running event finished; with players still in only when the floor confirms.

    Places, the winner's too, are recorded by scoring.services as the players go out; this
    only closes the event, so the clock stops counting and the pages say it is over.
    """
    event = Event.objects.select_for_update(no_key=True).get(pk=event_id)
    if event.status == EventStatus.FINISHED:
        raise EventEditError(_("This event has already finished."))
    if event.status != EventStatus.RUNNING:
        raise EventEditError(_("Only a running event can finish: its clock has not started."))
    still_in = list(
        Entry.objects.filter(event=event).in_play().order_by("player__name")
        .values_list("player__name", flat=True)
    )  # fmt: skip
    if still_in and not confirm_players_in:
        raise PlayersStillInError(
            ngettext(
                "%(count)s player is still in: %(names)s. Record the player's place first "
                "(bust-outs or an agreed stop), or confirm to finish without placing them.",
                "%(count)s players are still in: %(names)s. Record their places first "
                "(bust-outs or an agreed stop), or confirm to finish without placing them.",
                len(still_in),
            )
            % {"count": len(still_in), "names": ", ".join(still_in)},
            names=still_in,
        )
    event.status = EventStatus.FINISHED
    event.clock_version += 1
    event.save(update_fields=["status", "clock_version"])
    winner = Entry.objects.filter(event=event, place=1).values_list("player__name", flat=True)
    record_audit(
        actor=actor,
        action="event.finished",
        event=event,
        players_still_in=still_in,
        confirmed=bool(still_in),
        winners=list(winner),
    )
    transaction.on_commit(lambda: live.publish_event_changed(event_id=event.pk, what="clock"))
    return event


def end_won_event(*, event: Event, actor: User | None, winner: str | None) -> dict[str, Any]:
    """The last place is recorded: the event is over, its clock stopped (the caller holds the
    event's lock). Returns what reopen_won_event needs to take it back (an undo)."""
    now = timezone.now()
    undo = {"status_before": event.status, "clock_ran": False}
    if event.read_clock(now).status is clock.ClockStatus.RUNNING:
        event.set_clock_state(clock.pause(event.clock_state, event.durations(), now=now))
        undo["clock_ran"] = True
    event.status = EventStatus.FINISHED
    event.clock_version += 1
    event.save(update_fields=[*CLOCK_FIELDS, "status", "clock_version"])
    record_audit(actor=actor, action="event.won", event=event, winner=winner, **undo)
    transaction.on_commit(lambda: live.publish_event_changed(event_id=event.pk, what="clock"))
    return undo


def reopen_won_event(*, event: Event, actor: User | None, undo: dict[str, Any]) -> None:
    """Undo of the bust that won the event: it runs again, its clock on from where it stopped."""
    if undo.get("clock_ran") and event.clock_paused_at is not None:
        now = timezone.now()
        event.set_clock_state(clock.resume(event.clock_state, event.durations(), now=now))
    event.status = undo.get("status_before") or EventStatus.RUNNING
    event.clock_version += 1
    event.save(update_fields=[*CLOCK_FIELDS, "status", "clock_version"])
    record_audit(actor=actor, action="event.reopened", event=event, **undo)
    transaction.on_commit(lambda: live.publish_event_changed(event_id=event.pk, what="clock"))


def _money_values(event: Event) -> dict[str, Any]:
    row = EventMoney.objects.filter(event=event).first()
    return {name: getattr(row, name) for name in MONEY_FIELDS} if row else {}


MONEY_FIELDS = list(money.MoneyInput.__dataclass_fields__)


def save_money_settings(*, event: Event, actor: User | None, settings: money.MoneyInput) -> None:
    """Set an event's money (docs/money.md); a freeroll keeps no settings row (R5.1 default).

    Purchases already recorded keep the prices they were made at.
    """
    play_levels = event.structure.levels.filter(kind=LevelKind.PLAY).count()
    for field, problem in settings.problems(play_levels=play_levels):
        raise EventEditError(str(MONEY_PROBLEMS[problem]), field=f"money-{field}")
    before = _money_values(event)
    after = {} if settings.is_freeroll else {name: getattr(settings, name) for name in MONEY_FIELDS}
    if before == after:
        return
    if settings.is_freeroll:
        EventMoney.objects.filter(event=event).delete()
    else:
        EventMoney.objects.update_or_create(event=event, defaults=after)
    record_audit(actor=actor, action="event.money", event=event, before=before, after=after)
    transaction.on_commit(lambda: live.publish_event_changed(event_id=event.pk, what="standings"))
