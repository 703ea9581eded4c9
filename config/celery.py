"""The Celery app: tasks from every app, settings from Django's (CELERY_ prefix)."""

import os

from celery import Celery
from kombu.transport import TRANSPORT_ALIASES

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# The embedded default's broker: kombu's file-system transport with atomic writes (issue 16).
TRANSPORT_ALIASES["floorman-fs"] = "config.broker:Transport"

app = Celery("floorman")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
