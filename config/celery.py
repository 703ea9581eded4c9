"""The Celery app: tasks from every app, settings from Django's (CELERY_ prefix)."""

import os
import sys

from celery import Celery, signals
from django.core.exceptions import ImproperlyConfigured
from kombu.transport import TRANSPORT_ALIASES

from config.startup import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# The embedded default's broker: kombu's file-system transport with atomic writes (issue 16).
TRANSPORT_ALIASES["floorman-fs"] = "config.broker:Transport"

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
