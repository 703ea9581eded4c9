"""Check that every online chip is accounted for, at any time, play going on
(docs/operations.md, "Checking that chips are conserved")."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.db.models import Sum

from tables.online.models import ChipAccount, ChipTransfer, OnlineSeat, OnlineTable, TransferKind
from tables.online.services import table_chips
from tables.online.tournament import event_chips
from tournaments.models import Event, EventStatus


def chips_report() -> tuple[list[str], int]:
    """One line a cash table (its seats against its ledger), one an online event that started
    (its seats against what its entries brought, R5.11's colour-ups counted), and one for the
    play money (every chip granted is in an account or at a cash table's seat); and how many
    do not add up. Read in one snapshot: a buy-in or a hand settled while it reads moves chips
    between two of its sums."""
    outer = connection.in_atomic_block
    lines, wrong = [], 0

    def line(what: str, name: str, left: int, right: int) -> None:
        nonlocal wrong
        wrong += left != right
        lines.append(f"{what}  {name}: {left} {right} {'ok' if left == right else 'MISMATCH'}")

    with transaction.atomic():
        if connection.vendor == "postgresql" and not outer:
            with connection.cursor() as cursor:  # SQLite's transactions are serializable
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        for table in OnlineTable.objects.filter(floor_table__isnull=True).order_by("pk"):
            line("table", f"{table.pk} {table.name}", *table_chips(table))
        events = Event.objects.filter(online=True).exclude(status=EventStatus.SCHEDULED)
        for event in events.order_by("pk"):
            line("event", f"{event.pk} {event.name}", *event_chips(event))
        grants = ChipTransfer.objects.filter(kind=TransferKind.GRANT)
        granted = grants.aggregate(total=Sum("amount"))["total"] or 0
        accounts = ChipAccount.objects.aggregate(total=Sum("balance"))["total"] or 0
        seats = OnlineSeat.objects.filter(table__floor_table__isnull=True)
        seated = seats.aggregate(total=Sum("stack"))["total"] or 0
        line("play money", "granted, in accounts and at cash seats", granted, accounts + seated)
    return lines, wrong


class Command(BaseCommand):
    help = (
        "Check that chips are conserved: each cash table against its ledger, each online event "
        "against what its entries brought, every play chip granted in an account or at a seat. "
        "Safe while tables play; exits with an error on a mismatch."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        lines, wrong = chips_report()
        self.stdout.write("\n".join(lines) + "\n")
        if wrong:
            raise CommandError(
                f"{wrong} MISMATCH: a bug. Keep the database as it is (take a backup) and "
                "report it with these lines."
            )
