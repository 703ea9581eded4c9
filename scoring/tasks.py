"""Celery tasks of the scoring layer: thin, take no state, safe to run twice."""

from __future__ import annotations

from celery import shared_task

from scoring import online_events


@shared_task(ignore_result=True)
def run_online_events() -> dict[str, int]:
    """Beat's job: start the online events that are due, record the busts the engine reported,
    balance the tables between hands, finish the events that are over (docs/online.md)."""
    return online_events.tick_all()
