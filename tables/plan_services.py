"""Balancing plans on the floor (R5.7, TDA): proposed after a bust or move, confirmed, applied.

The pure rules are tables.balancing; this module stores a plan as a pending step and carries
out its moves (forwards for confirm and redo, backwards for undo).
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables import balancing, positions, seating
from tables.floor_state import (
    SeatingError,
    break_order,
    check_open_seat,
    discard_redo,
    next_sequence,
    table_states,
)
from tables.models import FloorStep, Move, Seat, StepKind, StepStatus, Table
from tournaments.entry_services import (
    FloorError,
    lock_entries,
    lock_event,
    publish_standings,
    refuse_online_floor,
)
from tournaments.models import Event
from tournaments.services import record_audit


class StalePlanError(FloorError):
    """The floor confirmed a plan that a newer bust or move replaced."""


# ---- moves --------------------------------------------------------------------------------


def apply_moves(*, step: FloorStep, backwards: bool = False) -> None:
    """Carry out (or take back) a step's moves and table breaks; raise if a seat is not free."""
    moves = list(step.moves.select_related("entry__player", "from_table", "to_table"))
    broken = step.data.get("broken_tables", [])
    if backwards:
        Table.objects.filter(event=step.event, number__in=broken).update(is_broken=False)
    seats = {
        s.entry_id: s
        for s in Seat.objects.select_for_update().filter(entry__in=[m.entry for m in moves])
    }
    for move in moves:
        at_table, at_seat = (move.to_table, move.to_seat) if backwards else (
            move.from_table, move.from_seat
        )  # fmt: skip
        current = seats.get(move.entry_id)
        if current is None or (current.table_id, current.number) != (at_table.pk, at_seat):
            raise SeatingError(
                _("%(name)s is no longer in seat %(seat)s at table %(table)s.")
                % {"name": move.entry.player.name, "table": at_table.number, "seat": at_seat}
            )
    Seat.objects.filter(pk__in=[s.pk for s in seats.values()]).delete()
    for move in moves:
        table, number = (move.from_table, move.from_seat) if backwards else (
            move.to_table, move.to_seat
        )  # fmt: skip
        table.refresh_from_db(fields=["is_broken"])
        check_open_seat(table=table, seat=number)
        Seat.objects.create(table=table, number=number, entry_id=move.entry_id)
    if not backwards:
        Table.objects.filter(event=step.event, number__in=broken).update(is_broken=True)
    _set_final_button(step=step, backwards=backwards)
    step.moves.update(undone=backwards, confirmed_at=None if backwards else timezone.now())


def _set_final_button(*, step: FloorStep, backwards: bool) -> None:
    """TDA: the final table's button goes where the fresh draw put it (and back on undo)."""
    final = step.data.get("final_table")
    if final is None:
        return
    table = Table.objects.get(event=step.event, number=final)
    table.button_seat = step.data.get("button_before" if backwards else "final_button_seat")
    table.big_blind_seat = None
    table.small_blind_seat = step.data.get("small_blind_before")
    if not backwards and table.button_seat is not None:
        players = dict(Seat.objects.filter(table=table).values_list("number", "entry_id"))
        table.small_blind_seat = positions.small_blind_after_button(
            seats=table.seats, players=players, button_seat=table.button_seat
        )  # R2.1: the first hand's small blind sits left of the drawn button
    table.save(update_fields=["button_seat", "small_blind_seat", "big_blind_seat"])


def _plan_data(plan: balancing.BalancePlan, event: Event) -> dict[str, object]:
    final_button = small_blind = None
    if plan.final_table is not None:
        final_button, small_blind = (
            Table.objects.filter(event=event, number=plan.final_table)
            .values_list("button_seat", "small_blind_seat")
            .first()
        ) or (None, None)
    return {
        "broken_tables": list(plan.broken_tables),
        "halt_tables": list(plan.halt_tables),
        "final_table": plan.final_table,
        "final_button_seat": plan.final_button_seat,
        "button_before": final_button,
        "small_blind_before": small_blind,
        "notes": list(plan.explain()),
    }


def refresh_plan(*, event: Event, rng: seating.Rng | None = None) -> FloorStep | None:
    """Recompute the pending balancing plan from the seats as they stand (R5.7, TDA)."""
    FloorStep.objects.filter(event=event, status=StepStatus.PENDING).delete()
    states = table_states(event)
    if len(states) < 2:
        return None
    plan = balancing.plan_balance(tables=states, break_order=break_order(event), rng=rng)
    if not (plan.moves or plan.broken_tables or plan.halt_tables):
        return None
    step = FloorStep.objects.create(
        event=event, kind=StepKind.PLAN, status=StepStatus.PENDING, data=_plan_data(plan, event)
    )
    tables = {t.number: t for t in Table.objects.filter(event=event)}
    Move.objects.bulk_create(
        Move(
            step=step,
            entry_id=m.player,
            from_table=tables[m.from_table],
            from_seat=m.from_seat,
            to_table=tables[m.to_table],
            to_seat=m.to_seat,
            reason=m.reason,
            dealt_in=m.dealt_in,
        )  # fmt: skip
        for m in plan.moves
    )
    return step


@transaction.atomic
def confirm_plan(*, event_id: int, step_id: int, actor: User | None) -> FloorStep:
    """Carry out the pending balancing plan the floor saw: moves made, tables broken."""
    event = lock_event(event_id)
    refuse_online_floor(event, actor)  # docs/online.md: the engine reports online
    step = FloorStep.objects.filter(event=event, pk=step_id).first()
    if step is not None and step.status == StepStatus.DONE and step.kind == StepKind.PLAN:
        return step  # R: a double click confirms once
    if step is None or step.status != StepStatus.PENDING:
        raise StalePlanError(_("The plan changed since the page was drawn; look at the new plan."))
    moves = list(step.moves.all())
    lock_entries(event=event, entry_ids=[m.entry_id for m in moves])
    try:
        balancing.verify_plan(tables=table_states(event), plan=_as_plan(step))
    except ValueError as error:
        raise StalePlanError(_("The plan no longer fits the tables; look at the new plan.")) from (
            error
        )
    apply_moves(step=step)
    discard_redo(event)
    step.status = StepStatus.DONE
    step.sequence = next_sequence(event)
    step.actor = actor
    step.save(update_fields=["status", "sequence", "actor"])
    record_audit(
        actor=actor,
        action="plan.confirmed",
        event=event,
        step=step.pk,
        moves=[
            [m.entry_id, m.from_table_id, m.from_seat, m.to_table_id, m.to_seat, m.dealt_in]
            for m in moves
        ],
        broken_tables=step.data.get("broken_tables", []),
    )
    refresh_plan(event=event)
    publish_standings(event.pk)
    return step


def _as_plan(step: FloorStep) -> balancing.BalancePlan:
    """A stored plan back as the pure rules' plan, to verify it before carrying it out."""
    moves = tuple(
        balancing.Move(
            player=m.entry_id,
            from_table=m.from_table.number,
            from_seat=m.from_seat,
            to_table=m.to_table.number,
            to_seat=m.to_seat,
            reason=m.reason,
            dealt_in=m.dealt_in,
        )  # fmt: skip
        for m in step.moves.select_related("from_table", "to_table")
    )
    return balancing.BalancePlan(
        moves=moves,
        broken_tables=tuple(step.data.get("broken_tables", [])),
        final_table=step.data.get("final_table"),
        final_button_seat=step.data.get("final_button_seat"),
    )
