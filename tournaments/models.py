"""Seasons, events with their clock, players and entries, the audit log and live messages.

Chip sets and blind structures live in tournaments.structure_models; importable from here too.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import clock
from tournaments.structure_models import (
    CHIP_COLOURS,
    BlindStructure,
    ChipSet,
    Denomination,
    Game,
    Level,
    LevelKind,
)

# The structure and money models (tournaments.structure_models, tournaments.money_models) are
# importable from here too.
__all__ = [
    "AuditEvent",
    "BlindStructure",
    "CHIP_COLOURS",
    "ChipSet",
    "DEFAULT_POINTS_FORMULA",
    "Denomination",
    "Entry",
    "EntryQuerySet",
    "EntryStatus",
    "Event",
    "EventKind",
    "EventMoney",
    "EventQuerySet",
    "EventStatus",
    "Game",
    "Level",
    "LevelKind",
    "LevelStart",
    "LiveMessage",
    "new_short_code",
    "Player",
    "Purchase",
    "PurchaseVoid",
    "Season",
    "SuperFinalStackRule",
]

# R6.1: scoring.points.DEFAULT_FORMULA, the key a new season starts with.
DEFAULT_POINTS_FORMULA = "linear"


class SuperFinalStackRule(models.TextChoices):
    """R5.5: what a super-final player's stack is made of (a season's setting, default first)."""

    BASE_PLUS_BONUS = "base_plus_bonus", _("The final's stack plus 3,000 per satellite won")
    BONUS_ONLY = "bonus_only", _("3,000 per satellite won alone")


class Season(models.Model):
    """A run of events whose places earn points under one formula at a time (R6.3).

    The formulas and the standings are the scoring layer's (scoring.points, scoring.standings):
    ``formula`` is a key of its registry, checked by scoring's forms, so a new formula needs no
    migration. The table keeps the name it was created with when the model lived in scoring.
    """

    name = models.CharField(_("name"), max_length=120, unique=True)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    formula = models.CharField(_("points formula"), max_length=40, default=DEFAULT_POINTS_FORMULA)
    # R5.5: "every satellite won adds 3,000 chips to the player's final stack": added to the
    # final's stack (default), or the satellites' chips are the whole stack.
    super_final_stack_rule = models.CharField(
        _("super-final stack"),
        max_length=16,
        choices=SuperFinalStackRule,
        default=SuperFinalStackRule.BASE_PLUS_BONUS,
        help_text=_("R5.5: how the super final's starting stacks are made up."),
    )
    include_bots = models.BooleanField(
        _("house bots count"),
        default=False,
        help_text=_(
            "Off: the season counts people only, ranked among the people of each event; the "
            "event's own places still list everyone."
        ),
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "scoring_season"
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

    def clean(self) -> None:
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("A season cannot end before it starts.")})


class EventKind(models.TextChoices):
    SIT_AND_GO = "sit_and_go", _("Sit & Go")
    SATELLITE = "satellite", _("Satellite")
    FINAL = "final", _("Final")
    DEEPSTACK = "deepstack", _("Deepstack")
    CUSTOM = "custom", _("Custom")


class EventStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("Scheduled")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


def new_short_code() -> str:
    """A short, unambiguous code for the phone link (/e/<code>)."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(6))


class EventQuerySet(models.QuerySet["Event"]):
    def running(self) -> EventQuerySet:
        return self.filter(status=EventStatus.RUNNING)

    def with_clock_started(self) -> EventQuerySet:
        return self.filter(clock_level_started_at__isnull=False)


class Event(models.Model):
    """A tournament night: its structure, its entries and its clock."""

    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(_("kind"), max_length=12, choices=EventKind, default=EventKind.CUSTOM)
    structure = models.ForeignKey(
        BlindStructure,
        on_delete=models.PROTECT,
        related_name="events",
        verbose_name=_("blind structure"),
    )
    starting_stack = models.PositiveIntegerField(_("starting stack"))
    scheduled_start = models.DateTimeField(_("scheduled start"))
    status = models.CharField(
        _("status"), max_length=10, choices=EventStatus, default=EventStatus.SCHEDULED
    )
    code = models.CharField(_("short code"), max_length=12, unique=True, default=new_short_code)
    # R6: the season whose standings this event's places count in; none for a one-off.
    season = models.ForeignKey(
        Season,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("season"),
    )

    # Online events (docs/online.md, "Online tournaments"): dealt by the engine on online
    # tables; a sit&go starts when ``start_players`` have registered, a multi-table event at
    # its scheduled start.
    online = models.BooleanField(_("played online"), default=False)
    table_size = models.PositiveSmallIntegerField(
        _("players a table"), default=9, validators=[MinValueValidator(2), MaxValueValidator(10)]
    )
    start_players = models.PositiveSmallIntegerField(
        _("start when this many have registered"),
        null=True,
        blank=True,
        validators=[MinValueValidator(2)],
        help_text=_("A sit&go starts when this many players have registered; empty: at the "
                    "scheduled start."),
    )  # fmt: skip

    # The clock (docs/architecture.md): timestamps and a level index, never a counter that a
    # task decrements.
    clock_level_index = models.PositiveIntegerField(default=0)
    clock_level_started_at = models.DateTimeField(null=True, blank=True)
    clock_paused_at = models.DateTimeField(null=True, blank=True)
    # Bumped by every clock change: the compare-and-set token of floor actions and the ETag seed.
    clock_version = models.PositiveIntegerField(default=0)
    # The last level start recorded (by the floor or the reconciler), -1 before the first.
    announced_level_index = models.IntegerField(default=-1)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-scheduled_start"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(
                condition=Q(table_size__gte=2, table_size__lte=10), name="event_table_size_2_to_10"
            ),
            models.CheckConstraint(
                condition=Q(start_players__isnull=True) | Q(start_players__gte=2),
                name="event_start_players_two_or_more",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:event_phone", args=[self.code])

    @property
    def clock_state(self) -> clock.ClockState:
        return clock.ClockState(
            level_index=self.clock_level_index,
            level_started_at=self.clock_level_started_at,
            paused_at=self.clock_paused_at,
        )

    def set_clock_state(self, state: clock.ClockState) -> None:
        self.clock_level_index = state.level_index
        self.clock_level_started_at = state.level_started_at
        self.clock_paused_at = state.paused_at

    def levels_list(self) -> list[Level]:
        """The structure's levels in order (cached on the instance)."""
        cached: list[Level] | None = getattr(self, "_levels_cache", None)
        if cached is None:
            cached = list(self.structure.levels.select_related("chip_up").order_by("position"))
            self._levels_cache = cached
        return cached

    def durations(self) -> list[int]:
        return [level.seconds for level in self.levels_list()]

    def read_clock(self, now: datetime | None = None) -> clock.ClockReading:
        return clock.read_clock(self.clock_state, self.durations(), now=now or timezone.now())


class LevelStart(models.Model):
    """A level's start, recorded exactly once (by the floor's action or by the reconciler)."""

    class Cause(models.TextChoices):
        CLOCK = "clock", _("Time")
        FLOOR = "floor", _("Floor")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="level_starts")
    sequence = models.PositiveIntegerField()
    level_index = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    cause = models.CharField(max_length=5, choices=Cause)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["event", "sequence"], name="level_start_unique_seq")
        ]

    def __str__(self) -> str:
        return f"{self.event} level {self.level_index + 1} at {self.started_at:%H:%M:%S}"


class AuditEvent(models.Model):
    """An append-only record of a floor or admin action: who, what, when (docs/architecture.md)."""

    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    action = models.CharField(max_length=60)
    event = models.ForeignKey(
        Event, on_delete=models.SET_NULL, null=True, blank=True, related_name="audit_events"
    )
    data: models.JSONField[Any, Any] = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M:%S} {self.actor} {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise ValueError("audit events are append-only")
        super().save(*args, **kwargs)


class Player(models.Model):
    """A person who plays events; optionally linked to a log-in for the phone view."""

    name = models.CharField(_("name"), max_length=120)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
        verbose_name=_("user"),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name


class EntryStatus(models.TextChoices):
    REGISTERED = "registered", _("Registered")
    CHECKED_IN = "checked_in", _("Checked in")
    PLAYING = "playing", _("Playing")
    BUSTED = "busted", _("Busted")
    QUIT = "quit", _("Quit")
    FINISHED = "finished", _("Finished")


class EntryQuerySet(models.QuerySet["Entry"]):
    def in_play(self) -> EntryQuerySet:
        """Entries still in the event (seated, chips in front of them)."""
        return self.filter(status=EntryStatus.PLAYING)

    def placed(self) -> EntryQuerySet:
        return self.filter(place__isnull=False).order_by("place", "id")


class Entry(models.Model):
    """One player in one event: status, starting stack and, once out, the place."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    status = models.CharField(
        _("status"), max_length=12, choices=EntryStatus, default=EntryStatus.REGISTERED
    )
    # R5.5: a super-final entry starts with 3,000 more chips per satellite won.
    starting_stack = models.PositiveIntegerField(_("starting stack"))
    satellites_won = models.PositiveIntegerField(_("satellites won"), default=0)
    place = models.PositiveIntegerField(_("place"), null=True, blank=True)
    # docs/money.md: a re-entry is the player's next entry (2, 3, …); each entry gets a place.
    number = models.PositiveIntegerField(_("entry number"), default=1)
    # Bounties: the entry that busted this one and won its bounty.
    busted_by = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="knockouts",
        verbose_name=_("busted by"),
    )
    busted_at = models.DateTimeField(_("out at"), null=True, blank=True)
    created_at = models.DateTimeField(_("registered at"), default=timezone.now)

    objects = EntryQuerySet.as_manager()

    class Meta:
        ordering = ["event", "player__name", "id"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player", "number"], name="entry_unique_player_number"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="entry_number_positive"),
            models.CheckConstraint(condition=Q(starting_stack__gt=0), name="entry_stack_positive"),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(place__gte=1), name="entry_place_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.label} @ {self.event}"

    @property
    def label(self) -> str:
        """The player's name, and the entry's number from the first re-entry on: "Anna (2)"."""
        return self.player.name if self.number == 1 else f"{self.player.name} ({self.number})"

    @property
    def is_out(self) -> bool:
        return self.status in {EntryStatus.BUSTED, EntryStatus.QUIT, EntryStatus.FINISHED}


class LiveMessage(models.Model):
    """One message on the database bus of the embedded default (no Redis): polled, then pruned."""

    channel = models.CharField(max_length=100)
    payload = models.TextField()
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.channel} #{self.pk}"


# The money models live in their own module; Django finds them through this one.
from tournaments.money_models import EventMoney as EventMoney  # noqa: E402
from tournaments.money_models import Purchase as Purchase  # noqa: E402
from tournaments.money_models import PurchaseVoid as PurchaseVoid  # noqa: E402
from tournaments.people_models import SignUp as SignUp  # noqa: E402
