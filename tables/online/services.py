"""Online tables, the seats and the chips: open and close tables, sit down, sit out, come back,
leave, house bots, chip accounts. Every change is atomic, audited where staff act, and told to
the open pages after the commit. The hands themselves: tables.online.play."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db.models import BigIntegerField, Case, F, Max, OuterRef, Subquery, Sum, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.online.models import (
    ChipAccount,
    ChipTransfer,
    OnlineSeat,
    OnlineTable,
    SeatStatus,
    TableHand,
    TableStatus,
    TransferKind,
)
from tables.online.publish import publish_table_changed, publish_user_event
from tables.online.tournament import event_chips
from tournaments.models import Event, EventStatus
from tournaments.services import record_audit

BOT_NAMES = ("Anna", "Ben", "Clara", "David", "Emma", "Felix", "Greta", "Hugo", "Ida", "Jonas")
START_PAUSE_SECONDS = 2.0


@dataclass
class TableError(Exception):
    """A table action refused: the reason for the person, and the HTTP status it gets."""

    message: str
    status: int = 400

    def __str__(self) -> str:
        return self.message


# -- chip accounts -----------------------------------------------------------------------------


def ensure_account(user: User) -> ChipAccount:
    """The player's chip account; a new one starts with the house's grant of play chips."""
    account = ChipAccount.objects.filter(user=user).first()
    if account is not None:
        return account
    grant = int(settings.FLOORMAN_PLAY_CHIPS)
    with transaction.atomic():
        account, created = ChipAccount.objects.get_or_create(user=user)
        if created and grant:
            _grant(account=account, amount=grant, actor=None)
    return account


def _grant(*, account: ChipAccount, amount: int, actor: User | None) -> None:
    ChipTransfer.objects.create(
        user=account.user, kind=TransferKind.GRANT, amount=amount, actor=actor
    )
    ChipAccount.objects.filter(pk=account.pk).update(balance=F("balance") + amount)


@transaction.atomic
def grant_chips(*, user: User, amount: int, actor: User) -> ChipAccount:
    """Floor staff give a player play chips (audited)."""
    if amount <= 0:
        raise TableError(_("Grant a positive number of chips."))
    account = ensure_account(user)
    _grant(account=account, amount=amount, actor=actor)
    record_audit(actor=actor, action="online.grant_chips", user=user.pk, amount=amount)
    user_id = user.pk
    transaction.on_commit(lambda: publish_user_event(user_id, what="chips"))
    account.refresh_from_db()
    return account


def _buy_in(*, table: OnlineTable, user: User, amount: int) -> None:
    """Move chips from the account to the table; refused beyond the balance."""
    account = ChipAccount.objects.select_for_update().get(pk=ensure_account(user).pk)
    if amount > account.balance:
        raise TableError(
            _("You have %(balance)s chips; you cannot buy in for %(amount)s.")
            % {"balance": account.balance, "amount": amount}
        )
    account.balance -= amount
    account.save(update_fields=["balance"])
    ChipTransfer.objects.create(user=user, table=table, kind=TransferKind.BUY_IN, amount=amount)


def cash_out(*, seat: OnlineSeat) -> int:
    """The seat's chips back to its account and the seat freed (between hands only)."""
    amount = seat.stack
    if amount:
        account = ChipAccount.objects.select_for_update().get(pk=ensure_account(seat.user).pk)
        account.balance += amount
        account.save(update_fields=["balance"])
        ChipTransfer.objects.create(
            user=seat.user, table=seat.table, kind=TransferKind.CASH_OUT, amount=amount
        )
    user_id, table_id = seat.user_id, seat.table_id
    seat.delete()
    transaction.on_commit(lambda: publish_user_event(user_id, what="chips", table_id=table_id))
    return amount


def table_chips(table: OnlineTable) -> tuple[int, int]:
    """Chips conserved (docs/architecture.md): the chips at the table by its seats, and by its
    ledger (buy-ins less cash-outs). Between hands and during one (a seat keeps its starting
    stack until the hand is settled) the two are equal.

    One statement, so one snapshot: read apart, a rebuy committing between the reads (its
    buy-in in the ledger, its stack not yet read) would make them differ for a moment
    (PostgreSQL's READ COMMITTED), as event_chips reads an event's chips."""
    here = OuterRef("pk")
    seats = OnlineSeat.objects.filter(table=here).order_by().values("table")
    transfers = ChipTransfer.objects.filter(table=here).order_by().values("table")
    signed = Case(
        When(kind=TransferKind.BUY_IN, then=F("amount")),
        When(kind=TransferKind.CASH_OUT, then=-F("amount")),
        default=Value(0),
        output_field=BigIntegerField(),
    )
    seated, ledger = (
        OnlineTable.objects.filter(pk=table.pk)
        .values_list(
            Coalesce(Subquery(seats.annotate(total=Sum("stack")).values("total")), 0),
            Coalesce(Subquery(transfers.annotate(total=Sum(signed)).values("total")), 0),
        )
        .get()
    )
    return int(seated), int(ledger)


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


# -- tables ------------------------------------------------------------------------------------


def _changed(table: OnlineTable) -> None:
    """Bump the table's version and nudge its pages after the commit."""
    OnlineTable.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table_id = table.pk
    transaction.on_commit(lambda: publish_table_changed(table_id))


@transaction.atomic
def open_table(*, actor: User, **settings_: Any) -> OnlineTable:
    """Floor staff or an admin open a table (audited)."""
    table = OnlineTable(created_by=actor, **settings_)
    table.full_clean()
    table.save()
    record_audit(actor=actor, action="online.open_table", table=table.pk, name=table.name)
    return table


@transaction.atomic
def close_table(*, table: OnlineTable, actor: User) -> OnlineTable:
    """Close a table: no new hand; everyone's chips go back now, or after the running hand."""
    table = OnlineTable.objects.select_for_update().get(pk=table.pk)
    if not table.is_open:
        raise TableError(_("This table is closed already."), status=409)
    refuse_event_table(table)
    table.status = TableStatus.CLOSED
    table.closed_at = timezone.now()
    table.next_hand_at = None
    table.save(update_fields=["status", "closed_at", "next_hand_at"])
    if not TableHand.objects.filter(table=table, is_over=False).exists():
        for seat in table.players.select_for_update():
            cash_out(seat=seat)
    record_audit(actor=actor, action="online.close_table", table=table.pk)
    _changed(table)
    return table


def refuse_event_table(table: OnlineTable) -> None:
    """An online event's table: seats, chips and closing are the event director's."""
    if table.floor_table_id is not None:
        raise TableError(
            _("This table belongs to an online event: its seats and chips follow the event."),
            status=409,
        )


def _locked_open_table(table: OnlineTable) -> OnlineTable:
    table = OnlineTable.objects.select_for_update().get(pk=table.pk)
    if not table.is_open:
        raise TableError(_("This table is closed."), status=409)
    return table


def _running_hand(table: OnlineTable) -> TableHand | None:
    return TableHand.objects.filter(table=table, is_over=False).first()


def _check_seat_number(table: OnlineTable, number: int | None) -> int:
    taken = set(table.players.values_list("number", flat=True))
    if number is None:
        free = [n for n in range(1, table.seats + 1) if n not in taken]
        if not free:
            raise TableError(_("Every seat at this table is taken."), status=409)
        return free[0]
    if not 1 <= number <= table.seats:
        raise TableError(_("This table has seats 1 to %(seats)s.") % {"seats": table.seats})
    if number in taken:
        raise TableError(_("Seat %(number)s is taken.") % {"number": number}, status=409)
    return number


def _check_buy_in(table: OnlineTable, amount: int) -> None:
    if not table.min_buy_in <= amount <= table.max_buy_in:
        raise TableError(
            _("Buy in for %(low)s to %(high)s chips.")
            % {"low": table.min_buy_in, "high": table.max_buy_in}
        )


def _wants_to_play_now(table: OnlineTable) -> None:
    """A table with two players and no hand deals after a short pause."""
    if table.next_hand_at is None and _running_hand(table) is None:
        ready = table.players.filter(stack__gt=0).exclude(status=SeatStatus.SITTING_OUT)
        if ready.count() >= 2:
            table.next_hand_at = timezone.now() + timedelta(seconds=START_PAUSE_SECONDS)
            table.save(update_fields=["next_hand_at"])


@transaction.atomic
def take_seat(
    *, table: OnlineTable, user: User, buy_in: int, number: int | None = None, post: bool = False
) -> OnlineSeat:
    """A player sits down with a buy-in within the table's limits (R2.6: waits for the big
    blind, or posts one to play at once)."""
    table = _locked_open_table(table)
    refuse_event_table(table)
    if table.players.filter(user=user).exists():
        raise TableError(_("You are seated at this table already."), status=409)
    number = _check_seat_number(table, number)
    _check_buy_in(table, buy_in)
    _buy_in(table=table, user=user, amount=buy_in)
    try:
        with transaction.atomic():
            seat = OnlineSeat.objects.create(
                table=table,
                number=number,
                user=user,
                stack=buy_in,
                status=SeatStatus.WAITING,
                posts_big_blind=post,
                time_bank=table.time_bank_seconds,
                seated_order=_next_order(table),
            )
    except IntegrityError:
        raise TableError(_("That seat was just taken."), status=409) from None
    _wants_to_play_now(table)
    _changed(table)
    return seat


def _next_order(table: OnlineTable) -> int:
    last = table.players.aggregate(last=Max("seated_order"))["last"]
    return 1 if last is None else last + 1


def _my_seat(table: OnlineTable, user: User) -> OnlineSeat:
    seat = table.players.select_for_update().filter(user=user).first()
    if seat is None:
        raise TableError(_("You have no seat at this table."), status=403)
    return seat


@transaction.atomic
def come_back(*, table: OnlineTable, user: User, post: bool) -> OnlineSeat:
    """R2.6: back in: post a big blind to play at once, or wait for the big blind."""
    table = _locked_open_table(table)
    seat = _my_seat(table, user)
    if seat.status != SeatStatus.SITTING_OUT:
        raise TableError(_("You are not sitting out."), status=409)
    if not seat.stack:
        raise TableError(_("You have no chips at this table; add chips first."), status=409)
    # R2.9: in an online event he was dealt in all along; he plays his next hand himself.
    seat.status = SeatStatus.PLAYING if table.floor_table_id else SeatStatus.WAITING
    seat.posts_big_blind = post and not table.floor_table_id
    seat.save(update_fields=["status", "posts_big_blind"])
    _wants_to_play_now(table)
    _changed(table)
    return seat


@transaction.atomic
def add_chips(*, table: OnlineTable, user: User, amount: int) -> OnlineSeat:
    """Top up between hands, up to the table's maximum buy-in."""
    table = _locked_open_table(table)
    refuse_event_table(table)
    seat = _my_seat(table, user)
    hand = _running_hand(table)
    if hand is not None and seat.user_id in hand.user_ids:
        raise TableError(_("Add chips after this hand."), status=409)
    if amount <= 0 or seat.stack + amount > table.max_buy_in:
        raise TableError(
            _("You may add up to %(most)s chips.") % {"most": max(0, table.max_buy_in - seat.stack)}
        )
    _buy_in(table=table, user=user, amount=amount)
    seat.stack += amount
    seat.save(update_fields=["stack"])
    _changed(table)
    return seat


def rebuy_bot(*, seat: OnlineSeat, table: OnlineTable) -> None:
    """A house bot that lost its last chip buys in again for the table's maximum, so that the
    table it fills plays on (a bot cannot press "Add chips"). Its account pays; the house grants
    what the account lacks. Called as the hand is settled, under the table's lock (audited)."""
    account = ChipAccount.objects.select_for_update().get(pk=ensure_account(seat.user).pk)
    short = table.max_buy_in - account.balance
    if short > 0:
        _grant(account=account, amount=short, actor=None)
    _buy_in(table=table, user=seat.user, amount=table.max_buy_in)  # the row locked above
    seat.stack = table.max_buy_in
    record_audit(
        actor=None, action="online.bot_rebuy", table=table.pk, seat=seat.number,
        amount=table.max_buy_in,
    )  # fmt: skip


def _bot_user(table: OnlineTable) -> User:
    """A fresh house bot's log-in for a seat: named apart from the bots at the table."""
    taken = set(table.players.filter(is_bot=True).values_list("user__first_name", flat=True))
    return new_bot_user(next((n for n in BOT_NAMES if f"Bot {n}" not in taken), ""))


def new_bot_user(name: str = "") -> User:
    """A fresh house bot's log-in (unusable password, never a person's)."""
    number = User.objects.filter(username__startswith="bot-").count() + 1
    while User.objects.filter(username=f"bot-{number}").exists():
        number += 1
    first = f"Bot {name}" if name else f"Bot {BOT_NAMES[number % len(BOT_NAMES)]} {number}"
    user = User(username=f"bot-{number}", first_name=first)
    user.set_unusable_password()
    user.save()
    return user


def is_house_bot(user: User) -> bool:
    """Whether a log-in is one of the house bots (new_bot_user)."""
    return user.username.startswith("bot-") and not user.has_usable_password()


@transaction.atomic
def seat_bot(*, table: OnlineTable, actor: User, number: int | None = None) -> OnlineSeat:
    """Floor staff seat a house bot with the table's maximum buy-in (granted to it, audited)."""
    table = _locked_open_table(table)
    refuse_event_table(table)
    number = _check_seat_number(table, number)
    bot = _bot_user(table)
    account = ensure_account(bot)
    _grant(account=account, amount=table.max_buy_in, actor=actor)
    _buy_in(table=table, user=bot, amount=table.max_buy_in)
    seat = OnlineSeat.objects.create(
        table=table,
        number=number,
        user=bot,
        is_bot=True,
        stack=table.max_buy_in,
        status=SeatStatus.WAITING,
        seated_order=_next_order(table),
    )
    record_audit(actor=actor, action="online.seat_bot", table=table.pk, seat=number)
    _wants_to_play_now(table)
    _changed(table)
    return seat
