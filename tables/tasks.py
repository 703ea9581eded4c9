"""Celery tasks of the online tables: thin, take no state, safe to run twice."""

from __future__ import annotations

from celery import shared_task

from tables.online import live as online_live
from tables.online import play as online_play


@shared_task(ignore_result=True)
def sweep_tables() -> dict[str, int]:
    """Beat's job: apply every expired turn (time-outs, bots) and deal every due hand, once."""
    online_live.drop_stale_presence()
    return online_play.sweep()
