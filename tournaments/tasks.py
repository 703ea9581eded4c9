"""Celery tasks of the clock: thin, take ids, safe to run twice."""

from __future__ import annotations

from celery import shared_task

from tournaments import services
from tournaments.models import Event


@shared_task(ignore_result=True)
def reconcile_clocks() -> int:
    """Beat's job: record and push every level that started on its own, once."""
    recorded = 0
    for event_id in Event.objects.running().with_clock_started().values_list("pk", flat=True):
        recorded += len(services.reconcile_clock(event_id=event_id))
    return recorded
