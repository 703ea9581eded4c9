"""App config for scoring."""

from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _load_payout_presets(sender: AppConfig, **kwargs: Any) -> None:
    """The preset payout structures exist after every migrate (idempotent; docs/money.md)."""
    from scoring.payout_services import load_payout_presets

    load_payout_presets()


class ScoringConfig(AppConfig):
    name = "scoring"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        post_migrate.connect(_load_payout_presets, sender=self)
