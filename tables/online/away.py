"""Seats whose player's connection dropped: the server saw his last stream end (R3.10).

A drop is shown by a table version of its own, after a grace (``tables.online.live``,
``announce_presence``); meanwhile, and for the pages that poll, the fragment's ETag reads these
with the version, and the table page marks those seats "Disconnected"
(``tables.online.selectors``); the stream's public table reads them too
(``tables.online.broadcast``)."""

from __future__ import annotations

from django.db.models import CharField, OuterRef, StringAgg, Subquery, Value
from django.db.models.functions import Cast

from tables.online.models import OnlineSeat, OnlineTable
from tables.online.statements import Prepared


def away_seats(table_id: int) -> frozenset[int]:
    """The seats whose player's stream dropped (the server saw it: R3.10)."""
    row = _AWAY.row(table_id)
    return seat_numbers(row[0] if row else None)


def dropped_seats() -> Subquery:
    """The numbers of a table's seats whose player's connection dropped, as "2,5"."""
    return Subquery(
        OnlineSeat.objects.filter(
            table_id=OuterRef("pk"),
            user__presence__streams__lte=0,
            user__presence__dropped_at__isnull=False,
        )
        .values("table_id")
        # No order: a set is read back, and SQLite (the embedded default) has no ordered aggregate.
        .annotate(seats=StringAgg(Cast("number", CharField()), Value(",")))
        .values("seats")
    )


def seat_numbers(text: str | None) -> frozenset[int]:
    """The seat numbers of ``dropped_seats``' text."""
    return frozenset(int(number) for number in text.split(",")) if text else frozenset()


# Read after every move of a table with players: compiled once (tables.online.statements).
_AWAY = Prepared[OnlineTable](
    lambda table_id: (
        OnlineTable.objects.filter(pk=table_id).annotate(away=dropped_seats()).values_list("away")
    ),
    int,
)
