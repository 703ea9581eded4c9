"""Writes on tables and seats: opening draw, late seats, moves, the balancing plan (R2.3, R5.7)."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tables import balancing, seating
from tables.models import FloorStep, Move, MoveReason, Seat, StepKind, StepStatus, Table
from tournaments.entry_services import (
    EntryStateError,
    FloorError,
    WrongEventError,
    lock_entries,
    lock_event,
    publish_standings,
)
from tournaments.late_entry_services import enter_the_field
from tournaments.models import Entry, EntryStatus, Event
from tournaments.services import record_audit


class SeatingError(FloorError):
    """A seat that cannot be taken: occupied, off the table, at a broken table, seated twice."""


class StalePlanError(FloorError):
    """The floor confirmed a plan that a newer bust or move replaced."""


# ---- reading the tables -------------------------------------------------------------------


def live_tables(event: Event) -> list[Table]:
    """The tables still in play, by number."""
    return list(Table.objects.filter(event=event, is_broken=False).order_by("number"))


def table_states(event: Event) -> list[balancing.TableState]:
    """The tables as the pure balancing rules see them: seat -> entry id (R5.7)."""
    tables = live_tables(event)
    seated: dict[int, dict[int, int]] = {t.pk: {} for t in tables}
    for seat in Seat.objects.filter(table__in=tables).only("table_id", "number", "entry_id"):
        seated[seat.table_id][seat.number] = seat.entry_id
    states = []
    for table in tables:
        players = seated[table.pk]
        button = table.button_seat or (min(players) if players else 1)
        states.append(
            balancing.TableState(
                table=table.number,
                seats=table.seats,
                players=players,
                button_seat=button,
                big_blind_seat=table.big_blind_seat,
            )
        )
    return states


def break_order(event: Event) -> list[int]:
    """Table numbers in their pre-set break order (R5.7); unlisted tables follow in the rules."""
    return list(
        Table.objects.filter(event=event, break_order__isnull=False)
        .order_by("break_order", "number")
        .values_list("number", flat=True)
    )


def pending_plan(event: Event) -> FloorStep | None:
    """The balancing plan waiting for the floor's confirmation, if any."""
    return FloorStep.objects.filter(event=event, status=StepStatus.PENDING).first()


# ---- steps: the undo stack ----------------------------------------------------------------


def next_sequence(event: Event) -> int:
    """The sequence number of the next done step of an event."""
    last = FloorStep.objects.filter(event=event).aggregate(last=Max("sequence"))["last"]
    return (last or 0) + 1


def discard_redo(event: Event) -> None:
    """A new floor action overtakes whatever was undone: it can no longer be redone."""
    FloorStep.objects.filter(event=event, status=StepStatus.UNDONE).update(
        status=StepStatus.DISCARDED
    )


def find_by_key(event: Event, key: str) -> FloorStep | None:
    """The step a form with this idempotency key already made (a double submit)."""
    if not key:
        return None
    return FloorStep.objects.filter(event=event, key=key).first()


def start_step(*, event: Event, kind: StepKind, actor: User | None, key: str) -> FloorStep:
    """A new done step at the top of the undo stack; the redo stack is discarded."""
    discard_redo(event)
    return FloorStep.objects.create(
        event=event, kind=kind, actor=actor, key=key[:64], sequence=next_sequence(event)
    )


# ---- seats --------------------------------------------------------------------------------


def _table(event: Event, number: int) -> Table:
    table = Table.objects.select_for_update().filter(event=event, number=number).first()
    if table is None:
        raise WrongEventError(_("This event has no table %(number)s.") % {"number": number})
    return table


def check_open_seat(*, table: Table, seat: int, entry: Entry | None = None) -> None:
    """Raise SeatingError unless the seat exists, its table plays and nobody else sits there."""
    if table.is_broken:
        raise SeatingError(_("Table %(table)s is broken.") % {"table": table.number})
    if not 1 <= seat <= table.seats:
        raise SeatingError(
            _("Table %(table)s has no seat %(seat)s.") % {"table": table.number, "seat": seat}
        )
    taken = Seat.objects.select_for_update().filter(table=table, number=seat).first()
    if taken is not None and (entry is None or taken.entry_id != entry.pk):
        raise SeatingError(
            _("Seat %(seat)s at table %(table)s is taken.") % {"table": table.number, "seat": seat}
        )


def _check_fits(*, players: int, tables: int, seats: int) -> None:
    try:
        seating.check_seat_count(seats)
    except ValueError as error:
        raise SeatingError(_("A table has 2 to 10 seats.")) from error
    if tables < 1:
        raise SeatingError(_("Draw for at least one table."))
    if players < 2:
        raise SeatingError(_("Check in at least two players before the draw."))
    if players > tables * seats:
        raise SeatingError(
            _("%(players)s players do not fit %(tables)s tables of %(seats)s seats.")
            % {"players": players, "tables": tables, "seats": seats}
        )


@transaction.atomic
def draw_seats(
    *,
    event_id: int,
    actor: User | None,
    tables: int,
    seats_per_table: int = seating.DEFAULT_SEATS,
    by_card: bool = False,
    rng: seating.Rng | None = None,
) -> list[Seat]:
    """Draw the opening seats of every checked-in player: random (CSPRNG) or by card (R2.3)."""
    event = lock_event(event_id)
    if Seat.objects.filter(table__event=event).exists():
        raise SeatingError(_("Seats are already drawn; seat late players one by one."))
    ids = list(
        Entry.objects.filter(event=event, status=EntryStatus.CHECKED_IN).values_list(
            "pk", flat=True
        )
    )
    entries = {e.pk: e for e in lock_entries(event=event, entry_ids=ids)}
    _check_fits(players=len(entries), tables=tables, seats=seats_per_table)
    if by_card and tables != 1:
        raise SeatingError(_("The card draw (R2.3) seats one table; choose one table."))
    Table.objects.filter(event=event).delete()
    made = {
        n: Table.objects.create(event=event, number=n, seats=seats_per_table)
        for n in range(1, tables + 1)
    }
    rng = rng or seating.system_rng()  # R1.1: the operating system's CSPRNG
    rows: list[Seat] = []
    if by_card:
        draw = seating.draw_seats_by_card(players=list(entries), seats=seats_per_table, rng=rng)
        cards = {d.player: d.card for d in draw.draws}
        for entry_id, seat in draw.seat_of.items():  # R2.3: descending cards counter-clockwise
            rows.append(
                Seat(table=made[1], number=seat, entry_id=entry_id, drawn_card=cards[entry_id])
            )
        buttons = {1: draw.button_seat}  # R2.3: the highest card has the button
    else:
        opening = seating.draw_opening_seats(
            players=list(entries),
            tables=[seating.TableSpec(table=n, seats=seats_per_table) for n in made],
            rng=rng,
        )
        rows = [Seat(table=made[s.table], number=s.seat, entry_id=s.player) for s in opening.seats]
        buttons = dict(opening.button_seats)
    Seat.objects.bulk_create(rows)
    for number, button in buttons.items():
        made[number].button_seat = button
        made[number].save(update_fields=["button_seat"])
    Entry.objects.filter(pk__in=list(entries)).update(status=EntryStatus.PLAYING)
    record_audit(
        actor=actor,
        action="seats.drawn",
        event=event,
        method="card" if by_card else "random",
        tables=tables,
        seats_per_table=seats_per_table,
        seats=[[r.entry_id, r.table.number, r.number, r.drawn_card] for r in rows],
        buttons=buttons,
    )
    refresh_plan(event=event, rng=rng)
    publish_standings(event.pk)
    return rows


@transaction.atomic
def seat_entry(
    *,
    event_id: int,
    entry_id: int,
    actor: User | None,
    table_number: int | None = None,
    seat_number: int | None = None,
    rng: seating.Rng | None = None,
) -> Seat:
    """Seat a late player: in the seat the floor names, or at random at the shortest table."""
    event = lock_event(event_id)
    (entry,) = lock_entries(event=event, entry_ids=[entry_id])
    if Seat.objects.filter(entry=entry).exists():
        raise SeatingError(_("%(name)s already has a seat.") % {"name": entry.player.name})
    if entry.status not in {EntryStatus.REGISTERED, EntryStatus.CHECKED_IN}:
        raise EntryStateError(
            _("%(name)s is %(status)s and cannot take a seat.")
            % {"name": entry.player.name, "status": entry.get_status_display()}
        )
    rng = rng or seating.system_rng()
    if table_number is None:
        table_number, seat_number = _random_open_seat(event, rng)
    table = _table(event, table_number)
    if seat_number is None:
        raise SeatingError(_("Choose a seat."))
    check_open_seat(table=table, seat=seat_number)
    seat = Seat.objects.create(table=table, number=seat_number, entry=entry)
    entry.status = EntryStatus.PLAYING
    entry.save(update_fields=["status"])
    moved = enter_the_field(event=event, entry=entry)  # docs/money.md: each entry gets a place
    discard_redo(event)
    record_audit(
        actor=actor, action="seats.seated", event=event, entry=entry.pk,
        table=table.number, seat=seat_number, places_moved=moved,
    )  # fmt: skip
    refresh_plan(event=event, rng=rng)
    publish_standings(event.pk)
    return seat


def _random_open_seat(event: Event, rng: seating.Rng) -> tuple[int, int]:
    """TDA: a new player gets a random seat at one of the shortest tables, never the SB."""
    states = [s for s in table_states(event) if len(s.players) < s.seats]
    if not states:
        raise SeatingError(_("Every seat is taken."))
    fewest = min(len(s.players) for s in states)
    state = rng.choice([s for s in states if len(s.players) == fewest])
    seats = balancing.worst_open_seats(table=state) or [
        n for n in range(1, state.seats + 1) if n not in state.players
    ]
    return state.table, rng.choice(seats)


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
    key = "button_before" if backwards else "final_button_seat"
    Table.objects.filter(event=step.event, number=final).update(
        button_seat=step.data.get(key), big_blind_seat=None
    )


def _plan_data(plan: balancing.BalancePlan, event: Event) -> dict[str, object]:
    final_button = None
    if plan.final_table is not None:
        final_button = (
            Table.objects.filter(event=event, number=plan.final_table)
            .values_list("button_seat", flat=True)
            .first()
        )
    return {
        "broken_tables": list(plan.broken_tables),
        "halt_tables": list(plan.halt_tables),
        "final_table": plan.final_table,
        "final_button_seat": plan.final_button_seat,
        "button_before": final_button,
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


@transaction.atomic
def move_entry(
    *,
    event_id: int,
    entry_id: int,
    actor: User | None,
    table_number: int,
    seat_number: int,
    key: str = "",
) -> Move:
    """The floor moves one seated player to a free seat (undoable)."""
    event = lock_event(event_id)
    done = find_by_key(event, key)
    if done is not None:
        return done.moves.get()
    (entry,) = lock_entries(event=event, entry_ids=[entry_id])
    current = Seat.objects.select_for_update().select_related("table").filter(entry=entry).first()
    if current is None or entry.status != EntryStatus.PLAYING:
        raise SeatingError(_("%(name)s has no seat to move from.") % {"name": entry.player.name})
    table = _table(event, table_number)
    check_open_seat(table=table, seat=seat_number)
    step = start_step(event=event, kind=StepKind.MOVE, actor=actor, key=key)
    move = Move.objects.create(
        step=step, entry=entry, from_table=current.table, from_seat=current.number,
        to_table=table, to_seat=seat_number, reason=MoveReason.FLOOR,
    )  # fmt: skip
    apply_moves(step=step)
    record_audit(
        actor=actor, action="seats.moved", event=event, entry=entry.pk, step=step.pk,
        from_table=current.table.number, from_seat=current.number,
        to_table=table.number, to_seat=seat_number,
    )  # fmt: skip
    refresh_plan(event=event)
    publish_standings(event.pk)
    return move


@transaction.atomic
def set_button(*, event_id: int, table_number: int, button_seat: int, actor: User | None) -> Table:
    """The floor says where the button is at a table (the balancing plan starts from it)."""
    event = lock_event(event_id)
    table = _table(event, table_number)
    if (table.button_seat, table.big_blind_seat) == (button_seat, None):
        return table  # a second click: nothing to change, nothing to record
    if not 1 <= button_seat <= table.seats:
        raise SeatingError(
            _("Table %(table)s has no seat %(seat)s.")
            % {"table": table.number, "seat": button_seat}
        )
    table.button_seat, table.big_blind_seat = button_seat, None
    table.save(update_fields=["button_seat", "big_blind_seat"])
    record_audit(
        actor=actor, action="table.button", event=event, table=table.number, seat=button_seat
    )
    refresh_plan(event=event)
    publish_standings(event.pk)
    return table


def seated_entries(event: Event, tables: Sequence[Table]) -> dict[int, dict[int, Seat]]:
    """Table id -> seat number -> seat (with the entry and player), for pages."""
    result: dict[int, dict[int, Seat]] = {t.pk: {} for t in tables}
    for seat in Seat.objects.filter(table__in=tables).select_related("entry__player"):
        result[seat.table_id][seat.number] = seat
    return result
