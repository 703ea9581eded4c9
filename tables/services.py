"""Seating on the floor (R5.7): the opening draw, late seats, moves and the button.

The floor's state and its undo stack are tables.floor_state, balancing plans
tables.plan_services; their public names stay importable from here.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from tables import positions, seating
from tables.floor_state import (
    SeatingError,
    check_open_seat,
    discard_redo,
    find_by_key,
    live_tables,
    next_sequence,
    pending_plan,
    seated_entries,
    start_step,
    table_for_update,
    table_states,
)
from tables.models import Move, MoveReason, Seat, StepKind, Table
from tables.plan_services import StalePlanError, apply_moves, confirm_plan, refresh_plan
from tournaments.entry_services import (
    EntryStateError,
    lock_entries,
    lock_event,
    publish_standings,
    refuse_online_floor,
)
from tournaments.late_entry_services import enter_the_field
from tournaments.models import Entry, EntryStatus, Event
from tournaments.services import record_audit

__all__ = [
    "SeatingError",
    "StalePlanError",
    "apply_moves",
    "check_open_seat",
    "confirm_plan",
    "draw_seats",
    "find_by_key",
    "live_tables",
    "move_entry",
    "next_sequence",
    "pending_plan",
    "refresh_plan",
    "seat_entry",
    "seated_entries",
    "set_button",
    "start_step",
    "table_states",
]


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
    refuse_online_floor(event, actor)  # docs/online.md: the engine reports online
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
        table = made[number]
        table.button_seat = button
        table.small_blind_seat = _small_blind_for(
            table=table, button_seat=button, small_blind_seat=None
        )  # R2.3: with a card draw this is the lowest card's seat
        table.save(update_fields=["button_seat", "small_blind_seat"])
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
    refuse_online_floor(event, actor)  # docs/online.md: the engine reports online
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
    table = table_for_update(event, table_number)
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
    seats = positions.worst_open_seats(table=state) or [
        n for n in range(1, state.seats + 1) if n not in state.players
    ]
    return state.table, rng.choice(seats)


# ---- moves and the button -------------------------------------------------------------------


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
    refuse_online_floor(event, actor)  # docs/online.md: the engine reports online
    done = find_by_key(event, key)
    if done is not None:
        return done.moves.get()
    (entry,) = lock_entries(event=event, entry_ids=[entry_id])
    current = Seat.objects.select_for_update().select_related("table").filter(entry=entry).first()
    if current is None or entry.status != EntryStatus.PLAYING:
        raise SeatingError(_("%(name)s has no seat to move from.") % {"name": entry.player.name})
    table = table_for_update(event, table_number)
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


def _small_blind_for(*, table: Table, button_seat: int, small_blind_seat: int | None) -> int:
    """The hand's small-blind seat: as the floor gives it, else the player after the button."""
    players = dict(Seat.objects.filter(table=table).values_list("number", "entry_id"))
    for seat in (button_seat, small_blind_seat):
        if seat is not None and not 1 <= seat <= table.seats:
            raise SeatingError(
                _("Table %(table)s has no seat %(seat)s.") % {"table": table.number, "seat": seat}
            )
    if small_blind_seat is None:
        return positions.small_blind_after_button(
            seats=table.seats, players=players, button_seat=button_seat
        )  # R2.1: the small blind is left of the button (R2.8: heads-up the button itself)
    if small_blind_seat == button_seat and len(players) > 2:
        raise SeatingError(
            _("Only heads-up does the button post the small blind (R2.8): give another seat.")
        )
    return small_blind_seat


@transaction.atomic
def set_button(
    *,
    event_id: int,
    table_number: int,
    button_seat: int,
    actor: User | None,
    small_blind_seat: int | None = None,
) -> Table:
    """The floor says where the button and the small blind are at a table (R2.7).

    The small-blind seat is stored with the button (as given, or the player after the button),
    so the dead button still knows it when the small blind busts (TDA 10B, tables.positions).
    """
    event = lock_event(event_id)
    refuse_online_floor(event, actor)  # docs/online.md: the engine reports online
    table = table_for_update(event, table_number)
    small_blind = _small_blind_for(
        table=table, button_seat=button_seat, small_blind_seat=small_blind_seat
    )
    if (table.button_seat, table.small_blind_seat, table.big_blind_seat) == (
        button_seat, small_blind, None,
    ):  # fmt: skip
        return table  # a second click: nothing to change, nothing to record
    table.button_seat, table.small_blind_seat, table.big_blind_seat = button_seat, small_blind, None
    table.save(update_fields=["button_seat", "small_blind_seat", "big_blind_seat"])
    record_audit(
        actor=actor, action="table.button", event=event, table=table.number, seat=button_seat,
        small_blind=small_blind,
    )  # fmt: skip
    refresh_plan(event=event)
    publish_standings(event.pk)
    return table
