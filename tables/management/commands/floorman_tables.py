"""Open the demo online table with two house bots waiting for a player, and print its URL."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.urls import reverse

from tables.online import services as online_services
from tables.online.models import Game, OnlineTable, TableHand, TableStatus

DEMO_TABLE = "Demo table"
DEMO_BOTS = 2
DEMO_STAFF = ("floor", "admin")  # floorman_setup's demo log-ins, the floor's first


class Command(BaseCommand):
    help = "Open the demo online table (no-limit 5/10, 6 seats) with two house bots (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000")
        parser.add_argument("--no-demo", action="store_true", help="do nothing (production)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["no_demo"]:
            return
        staff = {user.username: user for user in User.objects.filter(username__in=DEMO_STAFF)}
        actor = next((staff[name] for name in DEMO_STAFF if name in staff), None)
        if actor is None:
            raise CommandError("No demo log-in: run floorman_setup (without --no-demo) first.")
        table = demo_table(actor=actor)
        url = options["url"].rstrip("/")
        link = reverse("tables:online_table", args=[table.pk])
        self.stdout.write(f"Demo online table (log in as a player, sit down): {url}{link}\n\n")


@transaction.atomic
def demo_table(*, actor: User) -> OnlineTable:
    """The open demo table with its house bots; opened and seated (audited) only if missing."""
    table = OnlineTable.objects.filter(name=DEMO_TABLE, status=TableStatus.OPEN).first()
    if table is None:
        table = online_services.open_table(
            actor=actor,
            name=DEMO_TABLE,
            game=Game.NO_LIMIT_HOLDEM,
            seats=6,
            small_blind=5,
            big_blind=10,
        )
    bots = table.players.filter(is_bot=True).count()
    free = table.seats - table.players.count()
    for _ in range(min(DEMO_BOTS - bots, free)):
        online_services.seat_bot(table=table, actor=actor)
    _bots_wait_for_a_player(table)
    return table


def _bots_wait_for_a_player(table: OnlineTable) -> None:
    """Bots alone would deal to each other at once: no deal is due until a player sits down
    (taking a seat schedules the first deal again)."""
    players = table.players.filter(is_bot=False).exists()
    running = TableHand.objects.filter(table=table, is_over=False).exists()
    if not players and not running:
        OnlineTable.objects.filter(pk=table.pk).update(next_hand_at=None)
