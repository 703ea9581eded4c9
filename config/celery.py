"""The Celery app: tasks from every app, settings from Django's (CELERY_ prefix)."""

import os
import sys

from celery import Celery, signals
from django.core.exceptions import ImproperlyConfigured

from config.startup import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("floorman")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.worker_init.connect
@signals.beat_init.connect
def _require_secret_key(**_: object) -> None:
    """A worker or beat refuses to start in production without SECRET_KEY, like the web."""
    try:
        require_secret_key()
    except ImproperlyConfigured as error:
        sys.exit(str(error))  # Celery logs an exception from a signal handler and goes on
