"""Factories for online-table tests: a table, seated players, a scripted deck."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from tables.engine import new_deck, parse_cards
from tables.online import play as online_play
from tables.online import services as online_services
from tables.online.models import OnlineTable, TableHand
from tables.online.services import TableError
from tests.factories import make_user
from tournaments.models import AuditEvent


def make_table(*, seats: int = 6, blinds: tuple[int, int] = (5, 10), **kw) -> OnlineTable:
    """An open no-limit table (buy-in 200 to 1,000) opened by a floor user."""
    floor = kw.pop("actor", None) or make_user(
        username=f"floor-{OnlineTable.objects.count()}", role="floor"
    )
    small, big = blinds
    return online_services.open_table(
        actor=floor, name=kw.pop("name", "Table 1"), seats=seats, small_blind=small,
        big_blind=big, **kw,
    )  # fmt: skip


def seat_players(table: OnlineTable, names: Sequence[str], *, buy_in: int = 1_000) -> list:
    """Users seated in seats 1.. in order, each with ``buy_in`` chips."""
    users = []
    for number, name in enumerate(names, start=1):
        user = make_user(username=name)
        online_services.take_seat(table=table, user=user, buy_in=buy_in, number=number)
        users.append(user)
    return users


def stacked_deck(holes: Sequence[str], board: str = "") -> list[int]:
    """A deck whose hole cards go to positions in dealing order (one card at a time from the
    small blind, R2.1), then a burn before each street and the board."""
    n = len(holes)
    hole_cards = [parse_cards(h) for h in holes]
    per_player = len(hole_cards[0])  # two in hold'em, four in Omaha (R7.1)
    order = [hole_cards[k % n][k // n] for k in range(per_player * n)]
    board_cards = parse_cards(board)
    rest = [c for c in new_deck() if c not in order and c not in board_cards]
    deck = list(order)
    for street in (board_cards[:3], board_cards[3:4], board_cards[4:5]):
        if street:
            deck.append(rest.pop())  # the burn
            deck.extend(street)
    return deck + rest


def play_bots(table: OnlineTable, *, sweeps: int, step: int = 2) -> int:
    """The sweeper plays the table's bots on a fake clock ``step`` seconds a sweep. A bot that
    loses its chips buys in again (one bot takes every chip within a few hands at about one
    table in twenty-five). Returns how many times the table's bots bought in again."""
    now = timezone.now()
    for _sweep in range(sweeps):
        now += timedelta(seconds=step)
        online_play.sweep(now=now)
    return rebuys(table)


def rebuys(table: OnlineTable) -> int:
    """How many times the table's broke house bots bought in again (audited, online.bot_rebuy)."""
    return AuditEvent.objects.filter(action="online.bot_rebuy", data__table=table.pk).count()


def check_or_call(table: OnlineTable) -> User:
    """The player to act in the table's running hand checks, or calls; returns him."""
    hand = TableHand.objects.get(table=table, is_over=False)
    user = User.objects.get(pk=hand.user_ids[hand.actor])
    for action in ("check", "call"):
        try:
            online_play.act(
                table=table, user=user, hand_id=hand.pk, sequence=hand.sequence, action=action
            )
            return user
        except TableError:
            continue
    raise AssertionError("neither check nor call was taken")
