"""Eliminations and places; seasons, points; satellite infractions; chip-ups; hand-for-hand."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import points
from tables.models import FloorStep, Table
from tournaments.models import Entry, Event, Player


class EliminationKind(models.TextChoices):
    BUST = "bust", _("Busted")
    QUIT = "quit", _("Quit")  # R5.9
    STOP = "stop", _("Agreed stop")  # R5.10
    WINNER = "winner", _("Winner")


class EliminationQuerySet(models.QuerySet["Elimination"]):
    def active(self) -> EliminationQuerySet:
        return self.filter(undone=False)


class Elimination(models.Model):
    """One entry's place: out in a hand (with the hand's other busts), by quitting or a stop."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="eliminations")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="eliminations")
    # The hand group: busts recorded together in one hand share the step (R5.6).
    step = models.ForeignKey(FloorStep, on_delete=models.CASCADE, related_name="eliminations")
    kind = models.CharField(max_length=8, choices=EliminationKind, default=EliminationKind.BUST)
    # R5.6: the stack at the start of the hand; R5.10: the chip count at the stop.
    stack = models.PositiveIntegerField(_("stack"), null=True, blank=True)
    # R5.6 / R5.10: the card drawn when stacks tie (0..51, tables.engine.cards).
    card = models.PositiveSmallIntegerField(_("card"), null=True, blank=True)
    place = models.PositiveIntegerField(_("place"))
    # Where the player sat, so an undo puts him back in the same seat.
    table_number = models.PositiveIntegerField(null=True, blank=True)
    seat_number = models.PositiveSmallIntegerField(null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    undone = models.BooleanField(default=False)

    objects = EliminationQuerySet.as_manager()

    class Meta:
        ordering = ["event", "place"]
        verbose_name = _("elimination")
        verbose_name_plural = _("eliminations")
        constraints = [
            models.UniqueConstraint(
                fields=["entry"], condition=Q(undone=False), name="elimination_once_per_entry"
            ),
            models.CheckConstraint(condition=Q(place__gte=1), name="elimination_place_positive"),
            models.CheckConstraint(
                condition=Q(stack__isnull=True) | Q(stack__gt=0),
                name="elimination_stack_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry.player}: {self.place}"


class Season(models.Model):
    """A run of events whose places earn points under one formula at a time (R6.3)."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    # R6.3: exactly one active formula per season, a key of scoring.points' registry; no
    # choices here, so a new formula in the registry needs no migration.
    formula = models.CharField(_("points formula"), max_length=40, default=points.DEFAULT_FORMULA)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="season_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("seasons:season_detail", args=[self.pk])

    def clean(self) -> None:
        if self.formula not in points.FORMULAS:
            raise ValidationError({"formula": _("Unknown points formula.")})
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("A season cannot end before it starts.")})


class InfractionKind(models.TextChoices):
    WARNING = "warning", _("Warning")
    EXCLUSION = "exclusion", _("Exclusion")


class SatelliteInfraction(models.Model):
    """R5.5: a player who tried to play two running satellites at once: warned, then excluded."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="infractions")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    # The running satellite he was already playing.
    other_event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=10, choices=InfractionKind)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("satellite infraction")
        verbose_name_plural = _("satellite infractions")

    def __str__(self) -> str:
        return f"{self.player}: {self.get_kind_display()} ({self.event})"


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


# The money part of scoring lives in its own module; importing it here registers its models.
from scoring.payout_models import (  # noqa: E402, F401
    Deal,
    DealMethod,
    EventPayout,
    PayoutStructure,
    PayoutTier,
)
