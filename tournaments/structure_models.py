"""Chip sets, their denominations, blind structures and their levels (R2.4, R5.11, R5.12).

Loaded through tournaments.models, which re-exports every name here.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import structures


class ChipSet(models.Model):
    """The denominations a house plays with (R5.12 is the default set)."""

    name = models.CharField(_("name"), max_length=80, unique=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("chip set")
        verbose_name_plural = _("chip sets")

    def __str__(self) -> str:
        return self.name


# R5.12: the preset colours are stored in English and shown in the page's language; a colour
# the admin typed stays as typed.
CHIP_COLOURS = {
    "white": _("white"),
    "red": _("red"),
    "blue": _("blue"),
    "green": _("green"),
    "black": _("black"),
    "purple": _("purple"),
    "yellow": _("yellow"),
    "grey": _("grey"),
}


class Denomination(models.Model):
    """One chip value of a set, with its colour."""

    chip_set = models.ForeignKey(ChipSet, on_delete=models.CASCADE, related_name="denominations")
    value = models.PositiveIntegerField(_("value"))
    colour = models.CharField(_("colour"), max_length=30)
    colour_hex = models.CharField(_("colour code"), max_length=7, default="#ffffff")

    class Meta:
        ordering = ["chip_set", "value"]
        verbose_name = _("denomination")
        verbose_name_plural = _("denominations")
        constraints = [
            models.UniqueConstraint(fields=["chip_set", "value"], name="denomination_unique_value"),
            models.CheckConstraint(condition=Q(value__gt=0), name="denomination_value_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.value} ({self.colour_name})"

    @property
    def colour_name(self) -> str:
        """The colour in the page's language (the preset colours are translated)."""
        return str(CHIP_COLOURS.get(self.colour.strip().lower(), self.colour))


class Game(models.TextChoices):
    """The game a structure is played at; the clock shows it (R7.1, R7.2, R7.3)."""

    NO_LIMIT = "no_limit", _("No-limit hold'em")
    POT_LIMIT = "pot_limit", _("Pot-limit hold'em")
    LIMIT = "limit", _("Limit hold'em")
    POT_LIMIT_OMAHA = "plo", _("Pot-limit Omaha")
    SEVEN_CARD_STUD = "stud", _("Seven-card stud")
    DRAW_HOLDEM = "draw_holdem", _("Draw Hold'em")


class BlindStructure(models.Model):
    """An ordered list of levels with a starting stack, edited by the admin."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    description = models.TextField(_("description"), blank=True)
    game = models.CharField(_("game"), max_length=12, choices=Game, default=Game.NO_LIMIT)
    starting_stack = models.PositiveIntegerField(_("starting stack"), default=10_000)
    chip_set = models.ForeignKey(
        ChipSet, on_delete=models.PROTECT, related_name="structures", verbose_name=_("chip set")
    )
    # The smallest chip in play at level 1; every larger chip of the set is in play too, and each
    # chip-up takes the smallest one out (R5.11). Empty: the chip set's smallest.
    smallest_chip = models.ForeignKey(
        Denomination,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("smallest chip at the start"),
    )
    is_preset = models.BooleanField(_("preset"), default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("blind structure")
        verbose_name_plural = _("blind structures")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:structure_detail", args=[self.pk])

    @property
    def description_text(self) -> str:
        """The description in the page's language: a preset's is a message id (presets.py)."""
        return (
            gettext(self.description) if self.is_preset and self.description else self.description
        )

    def clean(self) -> None:
        if self.smallest_chip is not None and self.smallest_chip.chip_set_id != self.chip_set_id:
            raise ValidationError(
                {"smallest_chip": _("This chip is not in the structure's chip set.")}
            )

    def chip_values(self) -> list[int]:
        return list(self.chip_set.denominations.values_list("value", flat=True))

    def level_specs(self) -> list[structures.LevelSpec]:
        """The levels in order as plain data for validation and the shape."""
        return [
            level.spec() for level in self.levels.select_related("chip_up").order_by("position")
        ]


class LevelKind(models.TextChoices):
    PLAY = "play", _("Level")
    BREAK = "break", _("Break")


class Level(models.Model):
    """One level of a structure: blinds, ante and minutes, or a break; and a chip-up after it."""

    structure = models.ForeignKey(BlindStructure, on_delete=models.CASCADE, related_name="levels")
    position = models.PositiveIntegerField(_("position"))
    kind = models.CharField(_("kind"), max_length=5, choices=LevelKind, default=LevelKind.PLAY)
    small_blind = models.PositiveIntegerField(_("small blind"), default=0)
    big_blind = models.PositiveIntegerField(_("big blind"), default=0)
    ante = models.PositiveIntegerField(_("ante"), default=0)
    minutes = models.PositiveIntegerField(_("minutes"))
    # R5.2, R5.4, R5.11: after this level the chips of this value leave play (colour-up).
    chip_up = models.ForeignKey(
        Denomination,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("chip-up after this level"),
    )

    class Meta:
        ordering = ["structure", "position"]
        verbose_name = _("level")
        verbose_name_plural = _("levels")
        constraints = [
            models.UniqueConstraint(fields=["structure", "position"], name="level_unique_position"),
            models.CheckConstraint(condition=Q(minutes__gt=0), name="level_minutes_positive"),
            models.CheckConstraint(
                condition=Q(small_blind__lte=F("big_blind")), name="level_small_not_above_big"
            ),
        ]

    def __str__(self) -> str:
        if self.is_break:
            return f"{_('Break')} ({self.minutes} min)"
        ante = f" ({_('ante')} {self.ante})" if self.ante else ""
        return f"{self.small_blind}/{self.big_blind}{ante}"

    @property
    def is_break(self) -> bool:
        return self.kind == LevelKind.BREAK

    @property
    def seconds(self) -> int:
        return self.minutes * 60

    def spec(self) -> structures.LevelSpec:
        return structures.LevelSpec(
            kind=self.kind,
            small_blind=self.small_blind or 0,
            big_blind=self.big_blind or 0,
            ante=self.ante or 0,
            minutes=self.minutes or 0,
            chip_up=self.chip_up.value if self.chip_up is not None else None,
        )

    def clean(self) -> None:
        """The checks of one level on its own; the whole structure is checked in structures."""
        problems = structures.check_level(self.spec())
        if (
            self.chip_up is not None
            and self.structure_id is not None
            and self.chip_up.chip_set_id != self.structure.chip_set_id
        ):
            problems.append(str(_("the chip-up chip is not in the structure's chip set.")))
        if problems:
            raise ValidationError([message[:1].upper() + message[1:] for message in problems])
