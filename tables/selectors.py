"""Reads for pages: the tables with their seats, a player's seat and his last move."""

from __future__ import annotations

from dataclasses import dataclass, field

from tables.models import Move, Seat, StepStatus, Table
from tournaments.models import Entry, Event


@dataclass
class TableView:
    """A table with its seats 1..n, each a Seat or None."""

    table: Table
    seats: list[tuple[int, Seat | None]] = field(default_factory=list)

    @property
    def players(self) -> int:
        return sum(1 for _, seat in self.seats if seat is not None)


def tables_with_seats(event: Event, *, include_broken: bool = False) -> list[TableView]:
    """The event's tables with every seat, empty ones too, for the floor and the seat list."""
    tables = Table.objects.filter(event=event).order_by("number")
    if not include_broken:
        tables = tables.filter(is_broken=False)
    seats: dict[int, dict[int, Seat]] = {}
    for seat in Seat.objects.filter(table__event=event).select_related("entry__player"):
        seats.setdefault(seat.table_id, {})[seat.number] = seat
    return [
        TableView(
            table=t,
            seats=[(n, seats.get(t.pk, {}).get(n)) for n in range(1, t.seats + 1)],
        )
        for t in tables
    ]


@dataclass(frozen=True)
class SeatCard:
    """What a player's phone shows: his seat and, after a move, where to go."""

    entry: Entry
    table: int | None
    seat: int | None
    moved: bool  # the last confirmed move brought him to this seat
    dealt_in: bool = True  # TDA 10B: False if that move put him between the SB and the button


def seat_card(entry: Entry) -> SeatCard:
    """A player's seat now, and whether a confirmed move brought him there (go to …)."""
    seat = Seat.objects.filter(entry=entry).select_related("table").first()
    if seat is None:
        return SeatCard(entry=entry, table=None, seat=None, moved=False)
    move = (
        Move.objects.filter(entry=entry, undone=False, step__status=StepStatus.DONE)
        .order_by("-confirmed_at", "-pk")
        .first()
    )
    moved = move is not None and (move.to_table_id, move.to_seat) == (seat.table_id, seat.number)
    return SeatCard(
        entry=entry,
        table=seat.table.number,
        seat=seat.number,
        moved=moved,
        dealt_in=not moved or move is None or move.dealt_in,
    )
