"""The one lock order of the online tables (docs/architecture.md, "One lock order").

Everything that touches a table and its hand (a move, the sweeper, the event's director, the
floor) takes its row locks in this order, each kind at most once per transaction:

1. the online event (``lock_event``, FOR NO KEY UPDATE), if the change is the director's;
2. the table rows, in id order (``lock_table``, ``lock_tables``);
3. the table's hand row (``lock_hand``);
4. the seat rows, then the chip accounts and the player's presence.

A transaction that holds a lock lower in the list never waits for one higher up, so no two of
them can wait for each other. The rows are locked by themselves (``of=("self",)`` and no
ordering that joins another table): FOR UPDATE on a join locks the joined rows too, in an order
of PostgreSQL's choosing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet

from tables.online.away import dropped_seats
from tables.online.models import HandAction, OnlineTable, TableHand
from tables.online.statements import Prepared


def lock_table(table_id: int) -> OnlineTable:
    """Lock one table's row (2.); DoesNotExist if there is none."""
    table = _TABLE.first(table_id)
    if table is None:
        raise OnlineTable.DoesNotExist(f"no online table {table_id}")
    return table


def lock_tables(table_ids: Iterable[int] | QuerySet[Any]) -> list[OnlineTable]:
    """Lock several tables' rows (2.), in id order, and read them: ids, or a query of them (its
    subquery, so one statement)."""
    return list(_tables(table_ids))


def lock_table_ids(table_ids: Iterable[int] | QuerySet[Any]) -> list[int]:
    """``lock_tables`` for a caller that reads none of the rows: their ids only."""
    return list(_tables(table_ids).values_list("pk", flat=True))


def _tables(table_ids: Iterable[int] | QuerySet[Any]) -> QuerySet[OnlineTable]:
    ids = table_ids if isinstance(table_ids, QuerySet) else list(table_ids)
    return OnlineTable.objects.select_for_update(of=("self",)).filter(pk__in=ids).order_by("pk")


def lock_hand(table_id: int, hand_id: int | None = None) -> TableHand | None:
    """Lock the table's hand row (3.): ``hand_id``, or the running hand; the caller holds the
    table's lock (2.)."""
    return _RUNNING_HAND.first(table_id) if hand_id is None else _HAND.first(table_id, hand_id)


def lock_hand_for_move(table_id: int, hand_id: int, *, user_id: int, key: str) -> TableHand | None:
    """``lock_hand(table_id, hand_id)`` for a player's move, in the same query: ``made`` says
    whether his move with this idempotency key is stored already (a resend)."""
    if key:
        return _HAND_FOR_MOVE.first(table_id, hand_id, user_id, key)
    return _HAND.first(table_id, hand_id)


# The queries of every move, compiled once (tables.online.statements).
# The table's row is read with the seats whose player's connection dropped (``dropped``, as
# tables.online.away writes them): a move publishes them with the table (R3.10), read under its
# lock, where a drop's own version waits for it, so the publishing after the commit asks nothing.
_TABLE = Prepared[OnlineTable](
    lambda table_id: (
        OnlineTable.objects.select_for_update(of=("self",))
        .filter(pk=table_id)
        .annotate(dropped=dropped_seats())
    ),
    int,
)


def _hand(table_id: int, **where: Any) -> QuerySet[TableHand]:
    # Ordered by id and limited to one, as ``first()`` reads (one running hand; one of an id).
    hands = TableHand.objects.select_for_update(of=("self",)).filter(table_id=table_id, **where)
    return hands.order_by("pk")[:1]


_RUNNING_HAND = Prepared[TableHand](lambda table_id: _hand(table_id, is_over=False), int)
_HAND = Prepared[TableHand](lambda table_id, hand_id: _hand(table_id, pk=hand_id), int, int)
_HAND_FOR_MOVE = Prepared[TableHand](
    lambda table_id, hand_id, user_id, key: _hand(table_id, pk=hand_id).annotate(
        made=Exists(HandAction.objects.filter(hand=OuterRef("pk"), user_id=user_id, key=key))
    ),
    int, int, int, str,
)  # fmt: skip


def table_of(hand_id: int) -> int | None:
    """The table of a hand, read without a lock: the caller locks it, then the hand."""
    return TableHand.objects.filter(pk=hand_id).values_list("table_id", flat=True).first()
