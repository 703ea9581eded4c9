"""The director's fixed queries, built and compiled once a process for each event.

The ORM takes longer to build and compile such a query than PostgreSQL takes to answer it: the
director's probe took 9 ms a tick to compile and 1 ms to answer (bench/online_mtt.py). A query
whose text depends only on the event's id (its other values are the code's constants) is kept
as its SQL and parameters and run as one row.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.db import connection
from django.db.models import QuerySet


def event_row(build: Callable[[int], QuerySet[Any]]) -> Callable[[int], tuple[Any, ...] | None]:
    """``build(event_id)``'s first row, the query compiled on its first use for that event."""

    @functools.lru_cache(maxsize=256)
    def statement(event_id: int) -> tuple[str, tuple[Any, ...]]:
        sql, params = build(event_id).query.sql_with_params()
        return sql, tuple(params)

    @functools.wraps(build)
    def row(event_id: int) -> tuple[Any, ...] | None:
        sql, params = statement(event_id)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchone()  # type: ignore[no-any-return]

    return row
