"""App config for tournaments."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        """Connect the audit of log-in lockouts."""
        from tournaments import login_audit  # noqa: F401, PLC0415 - connects its receiver
