"""Payout structures (templates of percentage rows), an event's chosen payout, and deals."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring import payouts
from tournaments.models import Event


class PayoutStructure(models.Model):
    """A named payout template: rows "for N to M entries, pay these places these percentages"."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    description = models.TextField(_("description"), blank=True)
    is_preset = models.BooleanField(_("preset"), default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("payout structure")
        verbose_name_plural = _("payout structures")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("payouts:structure_editor", args=[self.pk])

    @property
    def description_text(self) -> str:
        """The description in the page's language: a preset's is a message id."""
        return (
            gettext(self.description) if self.is_preset and self.description else self.description
        )

    def rows(self) -> list[payouts.PayoutRow]:
        return [tier.row() for tier in self.tiers.order_by("min_entries")]


class PayoutTier(models.Model):
    """One row of a payout structure."""

    structure = models.ForeignKey(PayoutStructure, on_delete=models.CASCADE, related_name="tiers")
    min_entries = models.PositiveIntegerField(_("from entries"))
    max_entries = models.PositiveIntegerField(_("to entries"), null=True, blank=True)
    # Basis points (hundredths of a percent), 1st place first; they add up to 10,000.
    percentages: models.JSONField[Any, Any] = models.JSONField(
        pgettext_lazy("payouts", "percentages"), default=list
    )

    class Meta:
        ordering = ["structure", "min_entries"]
        verbose_name = _("payout row")
        verbose_name_plural = _("payout rows")
        constraints = [
            models.UniqueConstraint(
                fields=["structure", "min_entries"], name="payout_tier_unique_min"
            ),
            models.CheckConstraint(condition=Q(min_entries__gte=2), name="payout_tier_min_two"),
            models.CheckConstraint(
                condition=Q(max_entries__isnull=True) | Q(max_entries__gte=F("min_entries")),
                name="payout_tier_max_not_below_min",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.structure}: {self.row().range_text}"

    def clean(self) -> None:
        """One row's checks (the admin's inline); the editor checks the whole table."""
        shares = self.percentages
        if self.min_entries is None:
            return  # the field's own error says it
        if not isinstance(shares, list) or not all(type(p) is int for p in shares):
            raise ValidationError(
                {"percentages": _("A list of whole basis points, e.g. [5000, 3000, 2000].")}
            )
        problems = payouts.row_problems(self.row())
        if problems:
            raise ValidationError([problem[:1].upper() + problem[1:] for problem in problems])

    def row(self) -> payouts.PayoutRow:
        return payouts.PayoutRow(
            min_entries=self.min_entries,
            max_entries=self.max_entries,
            percentages=tuple(int(p) for p in self.percentages),
        )


class EventPayout(models.Model):
    """How an event pays its places; no row or no structure is a freeroll (the default)."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="payout")
    structure = models.ForeignKey(
        PayoutStructure,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("payout structure"),
    )
    unit = models.PositiveIntegerField(_("rounding unit (cents)"), default=100)
    remainder = models.CharField(
        pgettext_lazy("payouts", "remainder"),
        max_length=10,
        choices=[
            (payouts.RemainderRule.WINNER.value, _("to the winner")),
            (payouts.RemainderRule.TOP_DOWN.value, _("one unit each from 1st place down")),
        ],
        default=payouts.RemainderRule.WINNER.value,
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("event payout")
        verbose_name_plural = _("event payouts")
        constraints = [
            models.CheckConstraint(condition=Q(unit__gte=1), name="event_payout_unit_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.structure or '-'}"

    @property
    def remainder_rule(self) -> payouts.RemainderRule:
        return payouts.RemainderRule(self.remainder)


class DealMethod(models.TextChoices):
    CHIP_CHOP = "chip_chop", pgettext_lazy("payouts", "Chip-chop")
    ICM = "icm", pgettext_lazy("payouts", "ICM")


class Deal(models.Model):
    """A final-table deal the players agreed: what each of them gets, whatever his place."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="deals")
    method = models.CharField(pgettext_lazy("payouts", "method"), max_length=10, choices=DealMethod)
    # The prize money of the places still to pay when the deal was made, and the part of it
    # kept back for the winner (played for on top of the deal).
    total = models.PositiveIntegerField(_("prize money shared (cents)"))
    kept = models.PositiveIntegerField(_("kept for the winner (cents)"), default=0)
    unit = models.PositiveIntegerField(_("rounding unit (cents)"))
    # One line per player in the deal: entry id, name, chips, amount (cents).
    lines: models.JSONField[Any, Any] = models.JSONField(default=list)
    key = models.CharField(max_length=64, unique=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    cancelled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "-created_at"]
        verbose_name = pgettext_lazy("payouts", "deal")
        verbose_name_plural = pgettext_lazy("payouts", "deals")
        constraints = [
            models.UniqueConstraint(
                fields=["event"], condition=Q(cancelled_at__isnull=True), name="deal_one_per_event"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.get_method_display()}"

    @property
    def players(self) -> int:
        return len(self.lines)
