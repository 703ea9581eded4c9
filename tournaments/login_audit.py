"""Log-in lockouts (django-axes) go into the audit log, beside the floor's actions."""

from __future__ import annotations

from typing import Any

from axes.signals import user_locked_out
from django.dispatch import receiver

from tournaments.services import record_audit


@receiver(user_locked_out, dispatch_uid="tournaments.login_audit.audit_lockout")
def audit_lockout(*, username: str | None, ip_address: str | None, **_: Any) -> None:
    """One audit event per lockout: which account, from which address (no actor: nobody is in)."""
    record_audit(actor=None, action="login.locked_out", username=username, ip_address=ip_address)
