"""Fixed queries, built by the ORM and compiled once a process (issue 17).

The ORM takes longer to build and compile a query than PostgreSQL takes to answer it: the
director's probe took 9 ms a tick to compile and 1 ms to answer (bench/online_mtt.py); a table's
move spent 1.6 ms of Python on the query of its dropped seats and 1 ms on locking its hand, most
of it compiling (bench/online_move_cost.py). A query whose text depends only on its arguments'
values is written with the ORM as a function of those arguments (``build``), compiled once (for
the database's vendor) with a marker in each argument's place, then run as that SQL with the
arguments where the markers were: the rows converted (a JSON field; a date on SQLite) and the
models built as the ORM's own iterator builds them. tests/tables/test_statements.py holds each
prepared query equal to its ORM queryset.

On PostgreSQL a query run ``DB_PREPARE_THRESHOLD`` times on a connection is also prepared on the
server (config/settings.py): parsed and planned once, then run with a generic plan. That suits a
table's queries (one table, one hand: the same plan fits every table). An event-wide query does
not: its best plan depends on the event's size, and a generic plan made a 1,000-player event's
probe 7x slower in mid-run (bench/RESULTS.md, eighteenth pass). Such a query is compiled once all
the same, but planned for its arguments at each run (``server_prepared=False``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable

# Arguments' stand-ins while the query compiles. Integers within every integer field's range
# (Django answers "nothing" for a value a column cannot hold, with no SQL to read).
_INT_MARKS = (32_000, 31_000)
_BIGINT = (-(2**63), 2**63 - 1)
_STR_MARK = "\u2063marker-{}-{}\u2063"


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[tuple[int | None, Any], ...]  # (the argument's index, or None: this value)
    converters: tuple[tuple[int, tuple[Callable[..., Any], ...], Any], ...]
    model: type[Model] | None  # None: the rows themselves (values_list)
    fields: tuple[str, ...] = ()  # the model's columns, in the row's order
    start: int = 0
    annotations: tuple[tuple[str, int], ...] = ()


class Prepared[M: Model]:
    """``build(*args)``'s queryset, compiled once: ``kinds`` are the arguments'
    types (int or str), each of which must reach the SQL as a parameter of its own.
    ``server_prepared=False``: never prepared on the server, planned for each run's arguments."""

    def __init__(
        self, build: Callable[..., QuerySet[Any]], *kinds: type, server_prepared: bool = True
    ) -> None:
        self.build = build
        self.kinds = kinds
        self.server_prepared = server_prepared
        self._compiled: dict[str, _Compiled] = {}  # by the database's vendor
        self._lock = threading.Lock()

    def _markers(self, round: int) -> tuple[Any, ...]:
        return tuple(
            _INT_MARKS[round] + index if kind is int else _STR_MARK.format(round, index)
            for index, kind in enumerate(self.kinds)
        )

    def _compile(self, vendor: str) -> _Compiled:
        compiled = self._compiled.get(vendor)
        if compiled is not None:
            return compiled
        # Compiled with two sets of markers: a parameter that differs between them is an
        # argument (the first set says which); one that does not is the code's constant, even
        # if it happens to equal a marker.
        markers = self._markers(0)
        queryset = self.build(*markers)
        compiler = queryset.query.get_compiler(using=DEFAULT_DB_ALIAS)
        sql, raw = compiler.as_sql()
        other = self.build(*self._markers(1)).query.get_compiler(using=DEFAULT_DB_ALIAS)
        other_sql, other_raw = other.as_sql()
        name = self.build.__qualname__
        if other_sql != sql or len(other_raw) != len(raw):
            raise ValueError(f"{name}: its SQL depends on its arguments' values")
        params: list[tuple[int | None, Any]] = []
        for value, again in zip(raw, other_raw, strict=True):
            if value == again and type(value) is type(again):
                params.append((None, value))
            elif type(value) is type(again) and value in markers:
                params.append((markers.index(value), None))
            else:
                raise ValueError(f"{name}: an argument reaches the SQL changed: {value!r}")
        unplaced = set(range(len(markers))) - {index for index, _ in params}
        if unplaced:
            raise ValueError(f"{name}: arguments {sorted(unplaced)} are not parameters")
        columns = [column for column, _sql, _alias in compiler.select]
        converters = tuple(
            (position, tuple(found), expression)
            for position, (found, expression) in compiler.get_converters(columns).items()
        )
        if queryset._iterable_class is not ModelIterable:
            compiled = _Compiled(sql, tuple(params), converters, None)
        else:
            info = compiler.klass_info
            assert info is not None and not info.get("related_klass_infos")  # noqa: S101
            fields = info["select_fields"]
            start, end = fields[0], fields[-1] + 1
            compiled = _Compiled(
                sql, tuple(params), converters, info["model"],
                tuple(column.target.attname for column in columns[start:end]), start,
                tuple((compiler.annotation_col_map or {}).items()),
            )  # fmt: skip
        with self._lock:
            return self._compiled.setdefault(vendor, compiled)

    def _rows(self, args: tuple[Any, ...]) -> tuple[_Compiled, list[list[Any]]]:
        if len(args) != len(self.kinds):
            raise TypeError(f"{self.build.__qualname__} takes {len(self.kinds)} arguments")
        connection = connections[DEFAULT_DB_ALIAS]  # one database, no routers
        compiled = self._compile(connection.vendor)
        if any(type(arg) is int and not _BIGINT[0] <= arg <= _BIGINT[1] for arg in args):
            # No column holds it: nothing matches, as the ORM answers (SQLite would overflow).
            return compiled, []
        params = [value if index is None else args[index] for index, value in compiled.params]
        with connection.cursor() as cursor, self._planned(connection.connection):
            cursor.execute(compiled.sql, params)
            rows = [list(row) for row in cursor.fetchall()]
        for row in rows:
            for position, found, expression in compiled.converters:
                value = row[position]
                for converter in found:
                    value = converter(value, expression, connection)
                row[position] = value
        return compiled, rows

    @contextmanager
    def _planned(self, raw: Any) -> Iterator[None]:
        """This run planned for its arguments if the query is not to be prepared on the server:
        psycopg's threshold off for the one statement (the connection is this thread's own)."""
        threshold = getattr(raw, "prepare_threshold", None)
        if self.server_prepared or threshold is None:  # SQLite, or nothing is prepared
            yield
            return
        raw.prepare_threshold = None
        try:
            yield
        finally:
            raw.prepare_threshold = threshold

    def rows(self, *args: Any) -> list[tuple[Any, ...]]:
        """The rows of a ``values_list`` query."""
        _compiled, rows = self._rows(args)
        return [tuple(row) for row in rows]

    def row(self, *args: Any) -> tuple[Any, ...] | None:
        rows = self.rows(*args)
        return rows[0] if rows else None

    def models(self, *args: Any) -> list[M]:
        """The model instances of a model query, with its annotations set on them."""
        compiled, rows = self._rows(args)
        model = compiled.model
        assert model is not None  # noqa: S101 - a values_list query is read with rows()
        end = compiled.start + len(compiled.fields)
        found = []
        for row in rows:
            instance = model.from_db(DEFAULT_DB_ALIAS, compiled.fields, row[compiled.start : end])
            for name, position in compiled.annotations:
                setattr(instance, name, row[position])
            found.append(instance)
        return found  # type: ignore[return-value]

    def first(self, *args: Any) -> M | None:
        found = self.models(*args)
        return found[0] if found else None


def event_row(build: Callable[[int], QuerySet[Any]]) -> Callable[[int], tuple[Any, ...] | None]:
    """``build(event_id)``'s first row (a ``values_list`` query), compiled once and planned for
    its event at each run: an event-wide query's plan depends on the event's size."""
    return Prepared(build, int, server_prepared=False).row
