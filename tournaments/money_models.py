"""An event's money settings and its append-only ledger of purchases (amounts in cents).

No ``EventMoney`` row means a freeroll freeze-out (R5.1): nothing is charged, nothing offered.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import money

# What is wrong with a setting (tournaments.money.MoneyInput.problems), for the form and the admin.
MONEY_PROBLEMS = {
    "bounty_above_buy_in": _("The bounty is part of the buy-in: at most the buy-in."),
    "no_chips": _("Say how many chips it gives."),
    "last_before_first": _("The last level comes before the first."),
    "no_such_level": _("The structure has no such level."),
}


class EventMoney(models.Model):
    """Buy-in, fee, bounty, rebuys, add-ons, re-entry, late registration and a guarantee.

    Amounts are cents of the house currency; level numbers are the clock's play levels, a
    break counting as the level before it (tournaments.money.Window).
    """

    event = models.OneToOneField(
        "tournaments.Event", on_delete=models.CASCADE, related_name="money", primary_key=True
    )
    buy_in = models.PositiveIntegerField(
        _("buy-in"), default=0, help_text=_("To the prize pool, the bounty included.")
    )
    fee = models.PositiveIntegerField(
        _("fee"), default=0, help_text=_("The house's part, never in the prize pool.")
    )
    bounty = models.PositiveIntegerField(
        _("bounty"),
        default=0,
        help_text=_("The part of the buy-in paid to whoever busts the player."),
    )
    rebuy_price = models.PositiveIntegerField(_("rebuy price"), default=0)
    rebuy_fee = models.PositiveIntegerField(_("rebuy fee"), default=0)
    rebuy_chips = models.PositiveIntegerField(_("rebuy chips"), default=0)
    rebuy_first_level = models.PositiveIntegerField(_("rebuys from level"), default=1)
    rebuy_last_level = models.PositiveIntegerField(_("rebuys until level"), null=True, blank=True)
    rebuy_limit = models.PositiveIntegerField(_("rebuys per player"), null=True, blank=True)
    add_on_price = models.PositiveIntegerField(_("add-on price"), default=0)
    add_on_fee = models.PositiveIntegerField(_("add-on fee"), default=0)
    add_on_chips = models.PositiveIntegerField(_("add-on chips"), default=0)
    add_on_first_level = models.PositiveIntegerField(_("add-on from level"), default=1)
    add_on_last_level = models.PositiveIntegerField(_("add-on until level"), null=True, blank=True)
    add_on_limit = models.PositiveIntegerField(_("add-ons per player"), default=1)
    re_entry = models.BooleanField(_("re-entry"), default=False)
    re_entry_last_level = models.PositiveIntegerField(
        _("re-entry until level"), null=True, blank=True
    )
    re_entry_limit = models.PositiveIntegerField(_("re-entries per player"), null=True, blank=True)
    late_registration_last_level = models.PositiveIntegerField(
        _("late registration until level"), null=True, blank=True
    )
    guarantee = models.PositiveIntegerField(_("guaranteed prize pool"), default=0)

    class Meta:
        verbose_name = _("money settings")
        verbose_name_plural = _("money settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(bounty__lte=F("buy_in")), name="event_money_bounty_in_buy_in"
            ),
            models.CheckConstraint(
                condition=Q(add_on_limit__gte=1), name="event_money_add_on_limit_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.buy_in}+{self.fee}"

    def clean(self) -> None:
        """The same checks as the event form's (the Django admin edits this row directly)."""
        settings_input = money.MoneyInput(
            **{name: getattr(self, name) for name in money.MoneyInput.__dataclass_fields__}
        )
        try:
            structure = self.event.structure
        except ObjectDoesNotExist:
            return  # the event's own form reports a missing structure
        play_levels = structure.levels.filter(kind="play").count()
        problems = settings_input.problems(play_levels=play_levels)
        if problems:
            raise ValidationError({field: MONEY_PROBLEMS[code] for field, code in problems})

    def rules(self) -> money.MoneyRules:
        """The settings as the pure rules read them (tournaments.money)."""
        late = money.Window(last=self.late_registration_last_level)
        return money.MoneyRules(
            buy_in=money.Price(amount=self.buy_in, fee=self.fee, bounty=self.bounty),
            rebuy=self._price(self.rebuy_price, self.rebuy_fee, self.rebuy_chips),
            rebuy_window=money.Window(first=self.rebuy_first_level, last=self.rebuy_last_level),
            rebuy_limit=self.rebuy_limit,
            add_on=self._price(self.add_on_price, self.add_on_fee, self.add_on_chips),
            add_on_window=money.Window(
                first=self.add_on_first_level, last=self.add_on_last_level
            ),
            add_on_limit=self.add_on_limit,
            re_entry=self.re_entry,
            # Empty: re-entry closes with late registration.
            re_entry_window=money.Window(last=self.re_entry_last_level) if self.re_entry_last_level
            else late,
            re_entry_limit=self.re_entry_limit,
            late_registration=late,
            guarantee=self.guarantee,
        )  # fmt: skip

    @staticmethod
    def _price(amount: int, fee: int, chips: int) -> money.Price | None:
        """A rebuy or add-on is offered when it gives chips (R5.1: none by default)."""
        return money.Price(amount=amount, fee=fee, chips=chips) if chips else None


class PurchaseQuerySet(models.QuerySet["Purchase"]):
    def of_kind(self, kind: money.PurchaseKind) -> PurchaseQuerySet:
        return self.filter(kind=kind.value)

    def valid(self) -> PurchaseQuerySet:
        """The purchases not taken back (a void is its own row: the ledger stays append-only)."""
        return self.filter(void__isnull=True)


class Purchase(models.Model):
    """One purchase of an entry, append-only: the money and chips as they were at the time."""

    class Kind(models.TextChoices):
        BUY_IN = money.PurchaseKind.BUY_IN.value, _("Buy-in")
        REBUY = money.PurchaseKind.REBUY.value, _("Rebuy")
        ADD_ON = money.PurchaseKind.ADD_ON.value, _("Add-on")
        RE_ENTRY = money.PurchaseKind.RE_ENTRY.value, _("Re-entry")

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="purchases"
    )
    entry = models.ForeignKey(
        "tournaments.Entry", on_delete=models.CASCADE, related_name="purchases"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind)
    amount = models.PositiveIntegerField(_("amount"), default=0)
    fee = models.PositiveIntegerField(_("fee"), default=0)
    bounty = models.PositiveIntegerField(_("bounty"), default=0)
    chips = models.PositiveIntegerField(_("chips"), default=0)
    # The form's idempotency key: a double submit finds the first purchase and buys nothing.
    key = models.CharField(max_length=64, blank=True, default="")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("bought at"), default=timezone.now)

    objects = PurchaseQuerySet.as_manager()

    class Meta:
        ordering = ["event", "created_at", "id"]
        verbose_name = _("purchase")
        verbose_name_plural = _("purchases")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "key"], condition=~Q(key=""), name="purchase_unique_key"
            ),
            # One buy-in per entry; a re-entry is the buy-in of the player's new entry.
            models.UniqueConstraint(
                fields=["entry"],
                condition=Q(kind__in=["buy_in", "re_entry"]),
                name="purchase_one_entry_fee",
            ),
            models.CheckConstraint(
                condition=Q(bounty__lte=F("amount")), name="purchase_bounty_in_amount"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry} {self.kind} {self.amount}+{self.fee}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise ValueError("purchases are append-only")
        super().save(*args, **kwargs)

    @property
    def paid(self) -> int:
        return self.amount + self.fee

    def bought(self) -> money.Bought:
        return money.Bought(
            kind=money.PurchaseKind(self.kind),
            amount=self.amount,
            fee=self.fee,
            bounty=self.bounty,
            chips=self.chips,
        )


class PurchaseVoid(models.Model):
    """A rebuy or add-on taken back by the floor (a mistake): its own row, never an edit."""

    purchase = models.OneToOneField(Purchase, on_delete=models.CASCADE, related_name="void")
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("taken back at"), default=timezone.now)

    class Meta:
        verbose_name = _("purchase taken back")
        verbose_name_plural = _("purchases taken back")

    def __str__(self) -> str:
        return f"void {self.purchase}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise ValueError("voids are append-only")
        super().save(*args, **kwargs)
