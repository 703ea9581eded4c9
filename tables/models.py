"""Tables and seats of an event, the floor's undoable steps and the moves between seats."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry, Event


class Table(models.Model):
    """A physical table of an event: its number, seats, button and place in the break order."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("number"))
    seats = models.PositiveSmallIntegerField(_("seats"), default=10)
    button_seat = models.PositiveSmallIntegerField(_("button seat"), null=True, blank=True)
    # The blinds of the last hand, when the floor knows them (R2.7, dead button): a blind who
    # busted leaves his seat empty, and the next button goes to the small blind's seat.
    small_blind_seat = models.PositiveSmallIntegerField(
        _("last small blind"), null=True, blank=True
    )
    big_blind_seat = models.PositiveSmallIntegerField(_("last big blind"), null=True, blank=True)
    # R5.7: tables break in a pre-set order (lowest first); empty: after the listed ones.
    break_order = models.PositiveIntegerField(_("break order"), null=True, blank=True)
    is_broken = models.BooleanField(_("broken"), default=False)

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="table_unique_number"),
            models.CheckConstraint(
                condition=Q(seats__gte=2, seats__lte=10), name="table_seats_2_to_10"
            ),
            models.CheckConstraint(
                condition=Q(button_seat__isnull=True)
                | Q(button_seat__gte=1, button_seat__lte=F("seats")),
                name="table_button_on_a_seat",
            ),
            models.CheckConstraint(
                condition=Q(small_blind_seat__isnull=True)
                | Q(small_blind_seat__gte=1, small_blind_seat__lte=F("seats")),
                name="table_small_blind_on_a_seat",
            ),
        ]

    def __str__(self) -> str:
        return str(_("Table %(number)s") % {"number": self.number})


class Seat(models.Model):
    """One player in one seat: a seat holds one player, a player sits once."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seated")
    number = models.PositiveSmallIntegerField(_("seat"))
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="seat")
    # R2.3: the card drawn for this seat (0..51, tables.engine.cards), when seats went by card.
    drawn_card = models.PositiveSmallIntegerField(null=True, blank=True)
    seated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["table__number", "number"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_one_player_per_seat"),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=10), name="seat_number_1_to_10"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} / {self.number}: {self.entry.player}"


class StepKind(models.TextChoices):
    BUSTS = "busts", _("Busts of one hand")
    QUIT = "quit", _("Quit")
    STOP = "stop", _("Agreed stop")
    PLAN = "plan", _("Balancing plan")
    MOVE = "move", _("Move")


class StepStatus(models.TextChoices):
    PENDING = "pending", _("Pending")  # a balancing plan the floor has not confirmed yet
    DONE = "done", _("Done")
    UNDONE = "undone", _("Undone")  # on the redo stack
    DISCARDED = "discarded", _("Discarded")  # undone, then overtaken by a new step


class FloorStep(models.Model):
    """One undoable floor action (a hand's busts, a quit, a stop, a confirmed plan or move)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="floor_steps")
    kind = models.CharField(max_length=8, choices=StepKind)
    status = models.CharField(max_length=10, choices=StepStatus, default=StepStatus.DONE)
    # Order of the done steps; undo takes the highest, redo the lowest undone one.
    sequence = models.PositiveIntegerField(null=True, blank=True)
    # The idempotency key of the form that asked for it: a double submit finds this step.
    key = models.CharField(max_length=64, blank=True, default="")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    data: models.JSONField[Any, Any] = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["event", "sequence", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "sequence"], name="floor_step_unique_seq"),
            models.UniqueConstraint(
                fields=["event", "key"], condition=~Q(key=""), name="floor_step_unique_key"
            ),
            models.UniqueConstraint(
                fields=["event"],
                condition=Q(status="pending"),
                name="floor_step_one_pending_plan",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} #{self.sequence} {self.kind} ({self.status})"


class MoveReason(models.TextChoices):
    BALANCE = "balance", _("Balancing")
    TABLE_BREAK = "table_break", _("Table break")
    FINAL_TABLE = "final_table", _("Final table")
    FLOOR = "floor", _("Floor decision")


class Move(models.Model):
    """A player's move from one seat to another, planned or confirmed by the floor."""

    step = models.ForeignKey(FloorStep, on_delete=models.CASCADE, related_name="moves")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="moves")
    from_table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    from_seat = models.PositiveSmallIntegerField()
    to_table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    to_seat = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=12, choices=MoveReason)
    # TDA 10B: False when the new seat lies between the small blind and the button (R2.7):
    # the player waits until the button has passed him (tables.positions.dealt_in).
    dealt_in = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    undone = models.BooleanField(default=False)

    class Meta:
        ordering = ["step", "id"]
        constraints = [
            models.UniqueConstraint(fields=["step", "entry"], name="move_once_per_step"),
        ]

    def __str__(self) -> str:
        return f"{self.entry.player}: {self.from_table.number}/{self.from_seat} -> " + (
            f"{self.to_table.number}/{self.to_seat}"
        )


class ChipUpRace(models.Model):
    """R5.11: one table's chip race after a level: the leftovers, the cards, who got a chip."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="chip_up_races")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chip_up_races")
    # The level (0-based index) after which the chips left play, and their value.
    level_index = models.PositiveIntegerField()
    chip_value = models.PositiveIntegerField(_("chip raced off"))
    new_chip_value = models.PositiveIntegerField(_("new chip"))
    # One row per player in dealing order: entry, name, seat, small chips, exchanged, leftover,
    # every card dealt to him (one per leftover chip, R5.11), his best card, new chips.
    lines: models.JSONField[Any, Any] = models.JSONField(default=list)
    # The pool's arithmetic (R5.11, TDA 24), in chip value except the chip counts.
    pool = models.PositiveIntegerField(_("pool"), default=0)
    race_chips = models.PositiveIntegerField(_("chips raced for"), default=0)
    lost = models.PositiveIntegerField(_("value lost"), default=0)
    rounded_up = models.PositiveIntegerField(_("value rounded up"), default=0)
    created = models.PositiveIntegerField(_("chips created"), default=0)
    exchanged = models.PositiveIntegerField(_("chips exchanged"), default=0)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["event", "level_index", "table__number"]
        verbose_name = _("chip-up race")
        verbose_name_plural = _("chip-up races")
        db_table = "scoring_chipuprace"  # born in scoring: the table keeps its name
        constraints = [
            models.UniqueConstraint(
                fields=["table", "level_index"], name="chip_up_race_once_per_table_level"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.table} L{self.level_index + 1}"


class HandForHand(models.Model):
    """TDA RP-8: one hand dealt hand-for-hand on the satellite bubble; tables report it done."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="hands_for_hand")
    number = models.PositiveIntegerField(_("hand"))
    # Numbers of the tables that have finished this hand; the hand ends when every table has.
    done_tables: models.JSONField[Any, Any] = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("hand-for-hand hand")
        verbose_name_plural = _("hand-for-hand hands")
        db_table = "scoring_handforhand"  # born in scoring: the table keeps its name
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="hand_for_hand_unique_number"),
            models.UniqueConstraint(
                fields=["event"],
                condition=Q(completed_at__isnull=True),
                name="hand_for_hand_one_open_hand",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} hand-for-hand {self.number}"


# Online tables live in their own module; Django finds their models through this import.
from tables.online.models import (  # noqa: E402
    ChipAccount,
    ChipChangeKind,
    ChipTransfer,
    Game,
    HandAction,
    OnlineChipChange,
    OnlineSeat,
    OnlineTable,
    Presence,
    Protection,
    SeatStatus,
    TableHand,
    TableStatus,
    TransferKind,
)

__all__ = [
    "ChipAccount",
    "ChipChangeKind",
    "OnlineChipChange",
    "ChipTransfer",
    "ChipUpRace",
    "FloorStep",
    "Game",
    "HandAction",
    "HandForHand",
    "Move",
    "MoveReason",
    "OnlineSeat",
    "OnlineTable",
    "Presence",
    "Protection",
    "Seat",
    "SeatStatus",
    "StepKind",
    "StepStatus",
    "Table",
    "TableHand",
    "TableStatus",
    "TransferKind",
]
