"""Eliminations and places; satellite infractions (R5.5)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables.models import FloorStep
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
    # Equal stacks: R5.6 the higher card in his hand, R5.10 the card he drew (0..51, engine.cards).
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


# The money part of scoring lives in its own module; importing it here registers its models.
from scoring.payout_models import (  # noqa: E402, F401
    Deal,
    DealMethod,
    EventPayout,
    PayoutStructure,
    PayoutTier,
)
