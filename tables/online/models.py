"""Online tables: the table, its seats, its hands and their moves, and the players' chip accounts.

A hand's deck and secret are columns that no page, stream, admin or log ever reads except the
dealing service and the selectors that give each viewer what he may see (docs/architecture.md,
"Online tables"). While the hand runs they are sealed (tables.online.sealing): a dump, a replica
or the cache shows no live card (docs/threat-model.md); they are opened when it is over.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables.online.sealing import seal, unseal
from tournaments.models import Entry, Event

STUD_SEATS = 8  # R7.2


def new_bot_seed() -> str:
    """A fresh secret seed for a table's house bots."""
    return secrets.token_hex(16)


class Game(models.TextChoices):
    """The games an online table deals (R7.1)."""

    NO_LIMIT_HOLDEM = "nl_holdem", _("No-limit hold'em")
    POT_LIMIT_HOLDEM = "pl_holdem", _("Pot-limit hold'em")
    LIMIT_HOLDEM = "fl_holdem", _("Limit hold'em")
    POT_LIMIT_OMAHA = "plo", _("Pot-limit Omaha")
    # R7.2: the table's small blind is the bring-in, its big blind the small bet (the big bet
    # is twice it), its ante the ante; at most eight players.
    SEVEN_CARD_STUD = "stud", _("Seven-card stud")
    DRAW_HOLDEM = "draw_holdem", _("Draw Hold'em")  # R7.3-R7.11: no-limit, with paid swaps


class TableStatus(models.TextChoices):
    OPEN = "open", _("Open")
    CLOSED = "closed", _("Closed")


class OnlineTable(models.Model):
    """A table dealt by the engine: game, stakes (or an event's clock, R2.11), seats, clock."""

    name = models.CharField(_("name"), max_length=80)
    game = models.CharField(_("game"), max_length=12, choices=Game, default=Game.NO_LIMIT_HOLDEM)
    seats = models.PositiveSmallIntegerField(_("seats"), default=6)
    small_blind = models.PositiveIntegerField(_("small blind"), default=5)
    big_blind = models.PositiveIntegerField(_("big blind"), default=10)
    ante = models.PositiveIntegerField(_("ante"), default=0)
    # House options (R3.6, R3.7 for pot-limit Omaha; R7.1 the smallest chip a pot bet rounds to).
    small_blind_counts_as_big = models.BooleanField(
        _("the small blind counts as a big blind in the pot (R3.6)"), default=False
    )
    any_all_in_reopens = models.BooleanField(
        _("any all-in reopens the betting (R3.7)"), default=False
    )
    smallest_chip = models.PositiveIntegerField(_("smallest chip in play (R7.1)"), default=1)
    # R2.11: with an event, the blinds are its clock's level when a hand's blinds are posted.
    event = models.ForeignKey(
        Event,
        verbose_name=_("event clock"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="online_tables",
    )
    # An online event's table (docs/online.md): its seats mirror the floor's table, whose
    # button and last blinds (R2.7, dead button) the deal keeps; chips are tournament chips.
    floor_table = models.OneToOneField(
        "tables.Table",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="online",
    )
    # Held between hands by the event's director: a balancing plan waits for the tables it
    # moves players from (R5.7), or a hand-for-hand hand for the other tables (TDA RP-8).
    hold = models.BooleanField(default=False)
    # R5.11 online: the last level whose chip-up the stacks were coloured up after (-1: none).
    coloured_up_to = models.IntegerField(default=-1)
    min_buy_in = models.PositiveIntegerField(_("minimum buy-in"), default=200)
    max_buy_in = models.PositiveIntegerField(_("maximum buy-in"), default=1_000)
    # R3.10: the action clock, then a visible countdown; an optional time bank.
    action_seconds = models.PositiveSmallIntegerField(_("action seconds"), default=10)
    countdown_seconds = models.PositiveSmallIntegerField(_("countdown seconds"), default=20)
    reconnect_seconds = models.PositiveSmallIntegerField(_("seconds on reconnect"), default=20)
    time_bank_seconds = models.PositiveSmallIntegerField(_("time bank seconds"), default=0)
    time_bank_refill_hands = models.PositiveSmallIntegerField(
        _("time bank refilled every N hands"), default=10
    )
    protections_per_day = models.PositiveSmallIntegerField(
        _("disconnect protections a day"), default=2
    )
    status = models.CharField(max_length=8, choices=TableStatus, default=TableStatus.OPEN)
    # The seat that had the button in the last hand (R2.1); None before the first hand (R2.2).
    button_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    hands_dealt = models.PositiveIntegerField(default=0)
    # When the sweeper deals the next hand (a pause shows the last showdown); None: not due.
    next_hand_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The house bots' generator seed (never the deck's, never shown): secrets, at creation.
    bot_seed = models.CharField(max_length=32, default=new_bot_seed, editable=False)
    # Bumped on every change a viewer could see: the ETag and the stream's nudges carry it.
    version = models.PositiveBigIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["status", "name", "pk"]
        verbose_name = _("online table")
        verbose_name_plural = _("online tables")
        constraints = [
            models.CheckConstraint(
                condition=Q(seats__gte=2, seats__lte=10), name="online_table_seats_2_to_10"
            ),
            models.CheckConstraint(
                condition=Q(big_blind__gt=0, small_blind__lte=F("big_blind")),
                name="online_table_blinds",
            ),
            models.CheckConstraint(
                condition=Q(min_buy_in__gt=0, min_buy_in__lte=F("max_buy_in")),
                name="online_table_buy_in_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_open(self) -> bool:
        return self.status == TableStatus.OPEN

    def clean(self) -> None:
        if self.game == Game.SEVEN_CARD_STUD and self.seats > STUD_SEATS:
            raise ValidationError({"seats": _("Seven-card stud seats at most 8 players (R7.2).")})


class SeatStatus(models.TextChoices):
    PLAYING = "playing", _("Playing")
    SITTING_OUT = "sitting_out", _("Sitting out")
    # R2.6: a newcomer (or a player back from sitting out) who waits for the big blind.
    WAITING = "waiting", _("Waiting for the big blind")


class OnlineSeat(models.Model):
    """A player (or a house bot) in a seat with the chips he has at the table."""

    table = models.ForeignKey(OnlineTable, on_delete=models.CASCADE, related_name="players")
    number = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="online_seats"
    )
    is_bot = models.BooleanField(default=False)
    # An online event's entry in this seat (its floor seat is the same table and number).
    entry = models.OneToOneField(
        Entry, on_delete=models.CASCADE, null=True, blank=True, related_name="online_seat"
    )
    # Chips at the table; while a hand runs, the chips he started it with (settled after it).
    stack = models.PositiveIntegerField(_("stack"))
    status = models.CharField(max_length=12, choices=SeatStatus, default=SeatStatus.PLAYING)
    # R2.6: post a big blind out of turn in the next hand to play at once.
    posts_big_blind = models.BooleanField(default=False)
    # Leave after the hand: the seat is freed and the chips go back to the balance.
    leaving = models.BooleanField(default=False)
    time_bank = models.PositiveSmallIntegerField(default=0)  # seconds left
    hands_since_refill = models.PositiveIntegerField(default=0)
    seated_order = models.PositiveIntegerField(default=0)  # R2.2: the first seated, the button
    seated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("online seat")
        verbose_name_plural = _("online seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="online_seat_one_per_seat"),
            models.UniqueConstraint(fields=["table", "user"], name="online_seat_once_per_table"),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=10), name="online_seat_number_1_to_10"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} / {self.number}: {self.user}"


class ChipAccount(models.Model):
    """A player's chips away from the tables: what he buys in with and cashes out to."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chip_account"
    )
    balance = models.PositiveBigIntegerField(_("balance"), default=0)

    class Meta:
        verbose_name = _("chip account")
        verbose_name_plural = _("chip accounts")

    def __str__(self) -> str:
        return f"{self.user}: {self.balance}"


class TransferKind(models.TextChoices):
    GRANT = "grant", _("Chips granted")
    BUY_IN = "buy_in", _("Buy-in")
    CASH_OUT = "cash_out", _("Cash-out")


class ChipTransfer(models.Model):
    """The append-only ledger of chips: grants to an account, buy-ins and cash-outs at tables.

    Chips are conserved (docs/architecture.md): a table's chips are its buy-ins less its
    cash-outs, and an account's balance is its grants less its buy-ins plus its cash-outs.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(
        OnlineTable, on_delete=models.PROTECT, null=True, blank=True, related_name="transfers"
    )
    kind = models.CharField(max_length=8, choices=TransferKind)
    amount = models.PositiveBigIntegerField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="chip_transfer_positive"),
            models.CheckConstraint(
                condition=Q(kind="grant", table__isnull=True)
                | (~Q(kind="grant") & Q(table__isnull=False)),
                name="chip_transfer_table_unless_grant",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.amount} {self.user}"


@dataclass(frozen=True, slots=True)
class HandCards:
    """A hand's deck (card numbers in dealing order, R1.1) and the secret its salts derive from."""

    deck: tuple[int, ...]
    secret: bytes


CARD_FIELDS = ("deck", "secret", "sealed_cards")
# A stored move's cards (a swap's, R7.11; a reshuffled stub's order): sealed while the hand runs.
MOVE_CARD_KEYS = ("discarded", "drawn", "cards")
SEALED_KEY = "sealed"


def seal_cards(*, deck: list[Any], secret: str) -> str:
    """A running hand's deck and secret (hex) as the token its row keeps."""
    opened = {"deck": [int(card) for card in deck], "secret": secret}
    return seal(json.dumps(opened).encode("ascii")).decode("ascii")


def open_cards(token: str) -> tuple[list[int], str]:
    """The deck and secret (hex) a running hand's token was sealed from."""
    opened = json.loads(unseal(token.encode("ascii")))
    return [int(card) for card in opened["deck"]], str(opened["secret"])


def seal_move(record: dict[str, Any]) -> dict[str, Any]:
    """A stored move with its cards sealed (a move without cards as it is)."""
    cards = {key: record[key] for key in MOVE_CARD_KEYS if key in record}
    if not cards:
        return record
    kept = {key: value for key, value in record.items() if key not in cards}
    return kept | {SEALED_KEY: seal(json.dumps(cards).encode("ascii")).decode("ascii")}


def open_move(record: dict[str, Any]) -> dict[str, Any]:
    """A stored move with its cards opened (the server's replay, or the finished hand's row)."""
    if SEALED_KEY not in record:
        return record
    cards = json.loads(unseal(str(record[SEALED_KEY]).encode("ascii")))
    kept = {key: value for key, value in record.items() if key != SEALED_KEY}
    return kept | dict(cards)


class TableHand(models.Model):
    """One hand at an online table: who was dealt in, its rules (R2.11), its secret deck.

    ``deck`` and ``secret`` never leave the server except through the hand-history openings
    after the hand, card by card, to whoever saw the card.
    """

    table = models.ForeignKey(OnlineTable, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    # The engine's setup: seat numbers by position clockwise, user ids, stacks, blinds.
    seat_numbers: models.JSONField[Any, Any] = models.JSONField()
    user_ids: models.JSONField[Any, Any] = models.JSONField()
    starting_stacks: models.JSONField[Any, Any] = models.JSONField()
    button = models.PositiveSmallIntegerField()  # a position
    posts: models.JSONField[Any, Any] = models.JSONField(default=list)  # R2.6, positions
    rules: models.JSONField[Any, Any] = models.JSONField()  # R2.11: fixed at the posting
    level_index = models.IntegerField(null=True, blank=True)  # the event clock's level, if any
    # R1.1: secrets.SystemRandom. Both are written opened and kept sealed while the hand runs
    # (``sealed_cards``, ``save``); read them through ``cards()`` only.
    deck: models.JSONField[Any, Any] = models.JSONField(null=True, blank=True)
    secret = models.CharField(max_length=64, blank=True)  # hex; the per-card salts derive from it
    sealed_cards = models.TextField(blank=True, default="")  # a token while the hand runs
    commitment = models.CharField(max_length=64)  # shown before the deal
    leaves: models.JSONField[Any, Any] = models.JSONField(default=list)  # per-card commitments
    sequence = models.PositiveIntegerField(default=0)  # moves made
    actor = models.SmallIntegerField(null=True, blank=True)  # a position; None when none
    turn_started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    reconnect_extended = models.BooleanField(default=False)  # R3.10: once per turn
    bank_used = models.BooleanField(default=False)  # the actor's time bank runs this turn
    is_over = models.BooleanField(default=False)
    # An online event's hand: False until the director has recorded its busts (R5.6) and
    # balanced the tables; the table deals no next hand before that.
    results_recorded = models.BooleanField(default=True)
    hand_for_hand = models.PositiveIntegerField(null=True, blank=True)  # TDA RP-8: its number
    final_stacks: models.JSONField[Any, Any] = models.JSONField(null=True, blank=True)
    # After the hand: positions whose cards were shown (R1.8) or shown by choice.
    shown: models.JSONField[Any, Any] = models.JSONField(default=list)
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="table_hand_unique_number"),
            models.UniqueConstraint(
                fields=["table"], condition=Q(is_over=False), name="table_hand_one_running"
            ),
        ]
        indexes = [
            # An online event's hands still to be recorded (or in play): a handful at any
            # moment, where a table's hands grow all night. The director's probe asks for them
            # at every tick (scoring.online_events, Work.hands) and a table before it deals
            # (tables.online.tournament.may_deal); through the table's index it read every
            # hand of every table, 10 ms a tick at 112 tables near the end of a 1,000-player
            # event (bench/RESULTS.md, "Issue 17, ninth pass").
            models.Index(
                fields=["table"], condition=Q(results_recorded=False), name="table_hand_unrecorded"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.number}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Seal the cards of a running hand, open those of a finished one (docs/threat-model.md)."""
        if {"deck", "secret", "sealed_cards", "is_over"}.isdisjoint(self.get_deferred_fields()):
            opened = self.is_over and bool(self.sealed_cards)
            if self._seal_or_open() and kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], *CARD_FIELDS}
            if opened:
                for action in self.actions.filter(record__has_key=SEALED_KEY):
                    action.save(update_fields=["record"])  # HandAction.save opens it
        super().save(*args, **kwargs)

    def cards(self) -> HandCards:
        """The deck and secret: unsealed while the hand runs (for the server's dealing and
        settling only), as stored once it is over (history, PHH export, the commitment's proof).
        """
        if self.sealed_cards:
            deck, secret = open_cards(self.sealed_cards)
        elif self.deck is not None:
            deck, secret = self.deck, self.secret
        else:
            raise ValueError(f"hand {self.pk} has no cards")
        return HandCards(deck=tuple(int(card) for card in deck), secret=bytes.fromhex(secret))

    def _seal_or_open(self) -> bool:
        """Move the cards between the opened columns and the seal; whether anything moved."""
        if not self.is_over and self.deck is not None:
            self.sealed_cards = seal_cards(deck=self.deck, secret=self.secret)
            self.deck, self.secret = None, ""
            return True
        if self.is_over and self.sealed_cards:
            cards = self.cards()
            self.deck, self.secret = list(cards.deck), cards.secret.hex()
            self.sealed_cards = ""
            return True
        return False

    def position_of(self, user_id: int) -> int | None:
        """The position a user was dealt in at, or None."""
        try:
            return list(self.user_ids).index(user_id)
        except ValueError:
            return None


class HandAction(models.Model):
    """One move of a hand, in order: the engine record, who asked, and his idempotency key."""

    hand = models.ForeignKey(TableHand, on_delete=models.CASCADE, related_name="actions")
    sequence = models.PositiveIntegerField()
    record: models.JSONField[Any, Any] = models.JSONField()
    key = models.CharField(max_length=64, blank=True, default="")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["hand", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "sequence"], name="hand_action_unique_seq"),
            # Issue 16: a key is its sender's; another player's move with the same key is his.
            models.UniqueConstraint(
                fields=["hand", "user", "key"], condition=~Q(key=""), name="hand_action_user_key"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand} #{self.sequence}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """A move's cards are sealed while its hand runs and opened with the hand's."""
        if SEALED_KEY in self.record or not set(MOVE_CARD_KEYS).isdisjoint(self.record):
            self.record = open_move(self.record) if self.hand.is_over else seal_move(self.record)
        super().save(*args, **kwargs)


class Presence(models.Model):
    """Whether a player's browser holds a stream open: R3.10's disconnect protection needs the
    server to have seen his connection drop."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="presence"
    )
    streams = models.IntegerField(default=0)
    last_seen = models.DateTimeField(default=timezone.now)
    dropped_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user}: {self.streams}"


class Protection(models.Model):
    """R3.10: one use of the disconnect protection (all-in for the pot so far), audited."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    hand = models.ForeignKey(TableHand, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "hand"], name="protection_once_per_hand"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.day}"


class ChipChangeKind(models.TextChoices):
    COLOUR_UP = "colour_up", _("Colour-up (R5.11)")
    REMOVED = "removed", _("Removed from play (R5.9)")


class OnlineChipChange(models.Model):
    """An online event's chips that entered or left play outside a hand: a colour-up's rounding
    (R5.11) or a removed player's stack (R5.9). With the starting stacks they account for every
    chip at the event's tables."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="chip_changes")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="chip_changes")
    kind = models.CharField(max_length=10, choices=ChipChangeKind)
    level_index = models.IntegerField(null=True, blank=True)
    before = models.PositiveBigIntegerField()
    after = models.PositiveBigIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["event", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["entry", "kind", "level_index"], name="online_chip_change_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry} {self.kind} {self.before} -> {self.after}"


# The fields that would tell a live card (or the house bots' next whim): no admin lookup, list
# filter, search, ordering, column or form may touch them, directly or through a relation
# (config/admin.py, docs/threat-model.md). The one registry: a new such field is added here.
SECRET_FIELDS: dict[type[models.Model], frozenset[str]] = {
    TableHand: frozenset(CARD_FIELDS),
    HandAction: frozenset({"record"}),
    OnlineTable: frozenset({"bot_seed"}),
}
