"""Sign-ups: a player asks for an account; floor staff or an admin approve it (docs/online.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class SignUp(models.Model):
    """One request for an account: the user stays inactive until it is approved."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="signup"
    )
    display_name = models.CharField(_("display name"), max_length=120)
    client = models.CharField(max_length=64, blank=True)  # a keyed hash of the address, no IP
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    approved = models.BooleanField(null=True)  # None: waiting for the floor
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")

    def __str__(self) -> str:
        return self.display_name
