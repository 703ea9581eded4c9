"""The Celery app: tasks from every app, settings from Django's (CELERY_ prefix)."""

import os
import sys

from celery import Celery, signals
from django.core.exceptions import ImproperlyConfigured
from django.db import close_old_connections
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


@signals.task_prerun.connect
@signals.task_postrun.connect
def _close_old_connections(task: object = None, **_: object) -> None:
    """Around each task, close the database connections that are unusable or older than
    CONN_MAX_AGE, as Django does around a request (settings.CELERY_DB_REUSE_MAX: Celery's
    own fixup would close them all, and the worker would connect anew four times a second).
    Not for a task run eagerly: it runs in its caller's connection, maybe in its transaction."""
    request = getattr(task, "request", None)
    if getattr(request, "is_eager", False):
        return
    close_old_connections()
