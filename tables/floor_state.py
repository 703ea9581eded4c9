"""The floor's state: live tables, their seats, the pending plan and the undo stack of steps."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db.models import Max
from django.utils.translation import gettext as _

from tables import positions
from tables.models import FloorStep, Seat, StepKind, StepStatus, Table
from tournaments.entry_services import (
    FloorError,
    WrongEventError,
)
from tournaments.models import Entry, Event


class SeatingError(FloorError):
    """A seat that cannot be taken: occupied, off the table, at a broken table, seated twice."""


# ---- reading the tables -------------------------------------------------------------------


def live_tables(event: Event) -> list[Table]:
    """The tables still in play, by number."""
    return list(Table.objects.filter(event=event, is_broken=False).order_by("number"))


def table_states(event: Event) -> list[positions.TableState]:
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
            positions.TableState(
                table=table.number,
                seats=table.seats,
                players=players,
                button_seat=button,
                big_blind_seat=table.big_blind_seat,
                small_blind_seat=table.small_blind_seat,
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


# ---- seats ---------------------------------------------------------------------------------


def table_for_update(event: Event, number: int) -> Table:
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


def seated_entries(event: Event, tables: Sequence[Table]) -> dict[int, dict[int, Seat]]:
    """Table id -> seat number -> seat (with the entry and player), for pages."""
    result: dict[int, dict[int, Seat]] = {t.pk: {} for t in tables}
    for seat in Seat.objects.filter(table__in=tables).select_related("entry__player"):
        result[seat.table_id][seat.number] = seat
    return result
