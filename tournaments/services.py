"""Writes that touch events and their clock: floor clock actions, level starts, the audit log."""

from __future__ import annotations

import enum
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import clock, live
from tournaments.models import AuditEvent, Event, EventStatus, LevelStart


class ClockActionError(ValueError):
    """A clock action that cannot be applied; the message is for the floor."""


class StaleClockError(ClockActionError):
    """The floor acted on a clock that someone else changed since the page was drawn."""


class ClockAction(enum.StrEnum):
    START = "start"
    PAUSE = "pause"
    RESUME = "resume"
    NEXT = "next"
    PREVIOUS = "previous"
    GO_TO = "go_to"
    ADD_TIME = "add_time"


def record_audit(
    *, actor: User | None, action: str, event: Event | None = None, **data: Any
) -> AuditEvent:
    """Append one audit event: who did what, when, to which event."""
    return AuditEvent.objects.create(actor=actor, action=action, event=event, data=data)


def _record_level_start(
    *, event: Event, level_index: int, started_at: datetime, cause: LevelStart.Cause
) -> LevelStart:
    sequence = event.level_starts.count() + 1
    start = LevelStart.objects.create(
        event=event,
        sequence=sequence,
        level_index=level_index,
        started_at=started_at,
        cause=cause,
    )
    event.announced_level_index = level_index
    return start


def _record_natural_starts(*, event: Event, now: datetime) -> list[LevelStart]:
    """Record the levels that began on their own since the last recorded start."""
    pending = clock.level_starts_between(
        event.clock_state,
        event.durations(),
        after_index=event.announced_level_index,
        now=now,
    )
    return [
        _record_level_start(
            event=event, level_index=index, started_at=started, cause=LevelStart.Cause.CLOCK
        )
        for index, started in pending
    ]


def _apply(
    action: ClockAction, event: Event, *, now: datetime, level: int | None, seconds: int | None
) -> clock.ClockState:
    state, durations = event.clock_state, event.durations()
    moves: dict[ClockAction, Callable[[], clock.ClockState]] = {
        ClockAction.START: lambda: clock.start(state, durations, now=now),
        ClockAction.PAUSE: lambda: clock.pause(state, durations, now=now),
        ClockAction.RESUME: lambda: clock.resume(state, durations, now=now),
        ClockAction.NEXT: lambda: clock.next_level(state, durations, now=now),
        ClockAction.PREVIOUS: lambda: clock.previous_level(state, durations, now=now),
        ClockAction.GO_TO: lambda: clock.go_to_level(
            state, durations, index=_required(level, _("Choose a level.")), now=now
        ),
        ClockAction.ADD_TIME: lambda: clock.add_time(
            state, durations, seconds=_required(seconds, _("Say how many seconds.")), now=now
        ),
    }
    try:
        return moves[action]()
    except clock.ClockError as error:
        raise ClockActionError(_clock_error_text(error)) from error


# The pure clock speaks English; the floor reads its refusals in the page's language.
CLOCK_ERROR_TEXTS = {
    "the clock has already started": gettext_lazy("The clock has already started."),
    "the clock has not started": gettext_lazy("The clock has not started."),
    "the clock is already paused": gettext_lazy("The clock is already paused."),
    "the clock is not paused": gettext_lazy("The clock is not paused."),
    "this is the last level": gettext_lazy("This is the last level."),
    "this is the first level": gettext_lazy("This is the first level."),
    "start the clock before changing its time": gettext_lazy(
        "Start the clock before changing its time."
    ),
    "add or remove at least one second": gettext_lazy("Add or remove at least one second."),
}


def _clock_error_text(error: clock.ClockError) -> str:
    text = str(error)
    if text.startswith("there is no level"):
        return _("There is no such level in this structure.")
    return str(CLOCK_ERROR_TEXTS.get(text, text))


def _required(value: int | None, message: str) -> int:
    if value is None:
        raise ClockActionError(message)
    return value


@transaction.atomic
def act_on_clock(
    *,
    event_id: int,
    actor: User | None,
    action: ClockAction,
    expected_version: int | None = None,
    level: int | None = None,
    seconds: int | None = None,
    now: datetime | None = None,
) -> Event:
    """Apply one floor action to an event's clock, once, audited, and push it to every page.

    The row is locked and the page's clock version compared, so two floor staff pressing pause
    at once give one pause and a stale page changes nothing.
    """
    now = now or timezone.now()
    event = (
        Event.objects.select_for_update(no_key=True).select_related("structure").get(pk=event_id)
    )
    if event.status == EventStatus.FINISHED:
        raise ClockActionError(_("The event has finished."))
    if expected_version is not None and expected_version != event.clock_version:
        raise StaleClockError(
            _("Someone changed the clock a moment ago; look again and repeat if still needed.")
        )
    _record_natural_starts(event=event, now=now)
    before = event.read_clock(now)
    event.set_clock_state(_apply(action, event, now=now, level=level, seconds=seconds))
    after = event.read_clock(now)
    if action is ClockAction.START or after.level_index != before.level_index:
        started = after.level_started_at or now
        _record_level_start(
            event=event, level_index=after.level_index, started_at=started,
            cause=LevelStart.Cause.FLOOR,
        )  # fmt: skip
    event.clock_version += 1
    if event.clock_level_started_at is not None:
        event.status = EventStatus.RUNNING
    event.save()
    record_audit(
        actor=actor,
        action=f"clock.{action.value}",
        event=event,
        level_before=before.level_index + 1,
        level_after=after.level_index + 1,
        remaining_before=before.remaining_seconds,
        remaining_after=after.remaining_seconds,
        seconds=seconds,
        version=event.clock_version,
    )
    transaction.on_commit(lambda: live.publish_event_changed(event_id=event.pk, what="clock"))
    return event


@transaction.atomic
def reconcile_clock(*, event_id: int, now: datetime | None = None) -> list[LevelStart]:
    """Record each level that started on its own since the last record, once; push it.

    Idempotent: the row lock and the stored last-announced level make a second run (or a
    second worker) find nothing to do.
    """
    now = now or timezone.now()
    event = (
        Event.objects.select_for_update(no_key=True).select_related("structure").get(pk=event_id)
    )
    if event.clock_level_started_at is None or event.status == EventStatus.FINISHED:
        return []
    started = _record_natural_starts(event=event, now=now)
    if started:
        event.clock_version += 1
        event.save(update_fields=["announced_level_index", "clock_version"])
        for level_start in started:
            record_audit(
                actor=None,
                action="clock.level_started",
                event=event,
                level=level_start.level_index + 1,
                started_at=level_start.started_at.isoformat(),
            )
        transaction.on_commit(lambda: live.publish_event_changed(event_id=event.pk, what="level"))
    return started
