"""Undo and redo on the floor: the last bust, quit, stop, move or confirmed plan, taken back.

Places come back as they were recorded (scoring.services); moves run backwards
(tables.plan_services); hand-for-hand and the balancing plan follow the players left.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from scoring import hand_for_hand_services as hand_for_hand
from scoring.models import EliminationKind
from scoring.services import OUT_STATUS, set_shared_places
from tables.models import FloorStep, Seat, StepKind, StepStatus
from tables.services import (
    SeatingError,
    apply_moves,
    check_open_seat,
    next_sequence,
    refresh_plan,
)
from tournaments.entry_services import (
    EntryStateError,
    EventFinishedError,
    FloorError,
    lock_entries,
    lock_event,
    publish_standings,
)
from tournaments.event_services import end_won_event, reopen_won_event
from tournaments.models import Entry, EntryStatus, Event
from tournaments.services import record_audit


class StaleUndoError(FloorError):
    """Undo or redo of a step that is no longer the one on top of its stack."""


class NothingToUndoError(FloorError):
    """Undo or redo with nothing on its stack."""


# ---- undo and redo -------------------------------------------------------------------------


def _lock_for_undo(event_id: int) -> Event:
    """Lock the event; a finished one only when its last step won it (that step undoes it)."""
    try:
        return lock_event(event_id)
    except EventFinishedError:
        event = Event.objects.select_for_update(no_key=True).get(pk=event_id)
        top = FloorStep.objects.filter(event=event, status=StepStatus.DONE)
        if "ended_event" in getattr(top.order_by("-sequence").first(), "data", {}):
            return event
        raise


def _take_back_places(step: FloorStep) -> None:
    """Undo: the entries of a step are back in play, in the seats they left."""
    for out in step.eliminations.active().select_related("entry__player"):
        entry = out.entry
        _check_not_re_entered(entry)
        seated = Seat.objects.filter(entry=entry).exists()
        if out.table_number is not None and out.seat_number is not None and not seated:
            _reseat(step=step, entry=entry, table_number=out.table_number, seat=out.seat_number)
        entry.status, entry.place, entry.busted_at = EntryStatus.PLAYING, None, None
        entry.busted_by = None  # docs/money.md: the bounty goes back too
        entry.save(update_fields=["status", "place", "busted_at", "busted_by"])
    step.eliminations.update(undone=True)
    set_shared_places(step.data.get("shared"), backwards=True)  # TDA RP-8: the tie is taken back


def _check_not_re_entered(entry: Entry) -> None:
    """A bust whose player has re-entered since stays: he cannot play two entries at once."""
    later = Entry.objects.filter(
        event_id=entry.event_id, player_id=entry.player_id, number__gt=entry.number
    )
    if later.exists():
        raise EntryStateError(
            _("%(name)s has re-entered since: this bust stays (docs/money.md).")
            % {"name": entry.label}
        )


def _reseat(*, step: FloorStep, entry: Entry, table_number: int, seat: int) -> None:
    """Put a player back in the seat he left (undo of a bust or quit)."""
    table = step.event.tables.select_for_update().get(number=table_number)
    if table.is_broken:
        raise SeatingError(
            _("Table %(table)s is broken; undo the plan that broke it first.")
            % {"table": table.number}
        )
    check_open_seat(table=table, seat=seat)
    Seat.objects.create(table=table, number=seat, entry=entry)


def _give_back_places(step: FloorStep) -> None:
    """Redo: the same places again, the seats open again."""
    outs = list(step.eliminations.select_related("entry__player"))
    lock_entries(event=step.event, entry_ids=[o.entry_id for o in outs])
    for out in outs:
        entry = Entry.objects.get(pk=out.entry_id)
        if entry.status != EntryStatus.PLAYING:
            raise EntryStateError(_("%(name)s is not playing.") % {"name": entry.player.name})
        if out.kind in {EliminationKind.BUST, EliminationKind.QUIT}:
            Seat.objects.filter(entry=entry).delete()
        entry.status, entry.place = OUT_STATUS[EliminationKind(out.kind)], out.place
        entry.busted_at = out.created_at
        entry.busted_by_id = step.data.get("busted_by", {}).get(str(entry.pk))
        entry.save(update_fields=["status", "place", "busted_at", "busted_by"])
    step.eliminations.update(undone=False)
    set_shared_places(step.data.get("shared"), backwards=False)


def _reverse(step: FloorStep, *, backwards: bool) -> None:
    if step.kind in {StepKind.PLAN, StepKind.MOVE}:
        apply_moves(step=step, backwards=backwards)
    elif backwards:
        _take_back_places(step)
    else:
        _give_back_places(step)


def _already_moved(
    event: Event, top: FloorStep | None, step_id: int | None, moved_to: str
) -> FloorStep | None:
    """The page's step if a first click already moved it; raise if the floor moved on since."""
    if step_id is None or (top is not None and top.pk == step_id):
        return None
    done = FloorStep.objects.filter(event=event, pk=step_id, status=moved_to).first()
    if done is not None:
        return done  # a double click: the first one did it
    raise StaleUndoError(_("The floor changed since the page was drawn; look again."))


@transaction.atomic
def undo_last(*, event_id: int, actor: User | None, step_id: int | None = None) -> FloorStep:
    """Take back the last bust, quit, stop or confirmed move; it goes on the redo stack.

    ``step_id`` is the step the page offered to undo: a second click finds it undone already
    and changes nothing.
    """
    event = _lock_for_undo(event_id)
    if event.online:
        # The engine dealt those hands: a bust or a move online cannot be taken back.
        raise NothingToUndoError(_("An online event's busts and moves cannot be undone."))
    step = (
        FloorStep.objects.filter(event=event, status=StepStatus.DONE).order_by("-sequence").first()
    )
    clicked = _already_moved(event, step, step_id, StepStatus.UNDONE)
    if clicked is not None:
        return clicked
    if step is None:
        raise NothingToUndoError(_("Nothing to undo."))
    _reverse(step, backwards=True)
    if "ended_event" in step.data:  # the bust that won the event: it runs again
        reopen_won_event(event=event, actor=actor, undo=step.data["ended_event"])
    step.status = StepStatus.UNDONE
    step.save(update_fields=["status"])
    record_audit(actor=actor, action="floor.undo", event=event, step=step.pk, kind=step.kind)
    hand_for_hand.sync_hand_for_hand(event=event, actor=actor)
    if step.kind == StepKind.PLAN:
        # Its redo carries out the same moves: no fresh plan (a new draw) beside it.
        FloorStep.objects.filter(event=event, status=StepStatus.PENDING).delete()
    else:
        refresh_plan(event=event)
    publish_standings(event.pk)
    return step


@transaction.atomic
def redo_next(*, event_id: int, actor: User | None, step_id: int | None = None) -> FloorStep:
    """Do again the step undone last; exactly as it was recorded (``step_id`` as for undo)."""
    event = lock_event(event_id)
    step = (
        FloorStep.objects.filter(event=event, status=StepStatus.UNDONE).order_by("sequence").first()
    )
    clicked = _already_moved(event, step, step_id, StepStatus.DONE)
    if clicked is not None:
        return clicked
    if step is None:
        raise NothingToUndoError(_("Nothing to redo."))
    _reverse(step, backwards=False)
    if "ended_event" in step.data:  # the same last place again: the event is won again
        step.data = {**step.data, "ended_event": end_won_event(
            event=event, actor=actor, winner=step.data["ended_event"].get("winner")
        )}  # fmt: skip
        step.save(update_fields=["data"])
    step.status = StepStatus.DONE
    step.sequence = step.sequence or next_sequence(event)
    step.save(update_fields=["status", "sequence"])
    record_audit(actor=actor, action="floor.redo", event=event, step=step.pk, kind=step.kind)
    hand_for_hand.sync_hand_for_hand(event=event, actor=actor)
    refresh_plan(event=event)
    publish_standings(event.pk)
    return step
