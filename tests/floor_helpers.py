"""Helpers of the floor-operation tests: a seated event and a snapshot of what the floor changes."""

from __future__ import annotations

import random
import uuid

from scoring.models import Elimination
from tables import services as table_services
from tables.models import FloorStep, Move, Seat, Table
from tests import factories
from tournaments.models import AuditEvent, Entry


def seated_event(*, players: int = 20, tables: int = 2, seed: int = 7, starting_stack=3_000):
    """An event with the players checked in and seated at random on the tables."""
    structure = factories.make_structure(
        name=f"Structure {uuid.uuid4().hex[:8]}", starting_stack=starting_stack
    )
    event = factories.make_event(structure=structure)
    entries = factories.make_entries(event=event, count=players)
    table_services.draw_seats(event_id=event.pk, actor=None, tables=tables, rng=random.Random(seed))
    return event, [Entry.objects.get(pk=e.pk) for e in entries]


def seat_of(entry):
    """(table number, seat number) of an entry, or None."""
    seat = Seat.objects.filter(entry=entry).select_related("table").first()
    return None if seat is None else (seat.table.number, seat.number)


def at_table(event, number):
    """The entries at a table, by seat."""
    seats = Seat.objects.filter(table__event=event, table__number=number).order_by("number")
    return [s.entry for s in seats.select_related("entry__player")]


def snapshot(event):
    """Everything a floor action may change, as plain comparable data."""
    return {
        "entries": sorted(
            Entry.objects.filter(event=event).values_list(
                "pk", "status", "place", "starting_stack", "busted_at"
            )
        ),
        "seats": sorted(
            Seat.objects.filter(table__event=event).values_list(
                "entry_id", "table__number", "number"
            )
        ),
        "tables": sorted(
            Table.objects.filter(event=event).values_list("number", "is_broken", "button_seat")
        ),
        "steps": sorted(
            FloorStep.objects.filter(event=event).values_list("pk", "status", "sequence")
        ),
        "moves": sorted(
            Move.objects.filter(step__event=event).values_list(
                "pk", "entry_id", "to_table__number", "to_seat", "undone", "confirmed_at"
            )
        ),
        "eliminations": sorted(
            Elimination.objects.filter(event=event).values_list("pk", "entry_id", "place", "undone")
        ),
        "audit": AuditEvent.objects.filter(event=event).count(),
    }


def floor_state(event):
    """Seats, statuses, places and broken tables: what undo must restore exactly."""
    state = snapshot(event)
    return {key: state[key] for key in ("entries", "seats", "tables")}
