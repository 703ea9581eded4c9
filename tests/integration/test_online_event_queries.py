"""The online event's hot queries on PostgreSQL read what they ask for, not the night's history
(issue 17; bench/RESULTS.md, "Issue 17, ninth pass"): a table's hands grow all night, the hands
the director still has to record stay a handful."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from scoring import online_events
from tables.online import play as online_play
from tables.online.models import OnlineTable, TableHand
from tables.online.tournament import may_deal
from tests.factories import make_user
from tests.scoring.online_event_helpers import started_event

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


def _plan(sql: str, params: tuple) -> str:
    with transaction.atomic(), connection.cursor() as cursor:
        # With a sequential scan priced out, the plan shows which index the query can use.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_the_probe_a_deal_and_the_busy_tables_find_unrecorded_hands_by_their_own_index():
    floor = make_user(username="flo", role="floor")
    event, now = started_event(12, 6, floor)
    table = OnlineTable.objects.filter(event=event).first()
    assert table is not None
    hand = online_play.deal_hand(table=table, now=now)
    assert hand is not None and not hand.results_recorded  # in play: the director's until over
    # Many hands played and recorded before it, as late in a night.
    fields = {
        field.attname: getattr(hand, field.attname)
        for field in TableHand._meta.concrete_fields
        if not field.primary_key
    }
    TableHand.objects.bulk_create(
        TableHand(**(fields | {"number": 1_000 + n, "is_over": True, "results_recorded": True}))
        for n in range(200)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE tables_tablehand")
    probe = online_events._work_row.__self__.build(event.pk)
    assert "table_hand_unrecorded" in _plan(*probe.query.sql_with_params())
    unrecorded = TableHand.objects.filter(table=table, results_recorded=False)
    assert "table_hand_unrecorded" in _plan(*unrecorded.query.sql_with_params())
    assert not may_deal(table)  # its hand is in play
    # A table in its hand is busy (the director's balancing waits for it, TDA 11D): found by
    # the same index, as an event's hand is dealt unrecorded.
    assert online_events._busy_tables(event) == {table.floor_table.number}
    busy = TableHand.objects.filter(online_events.BUSY, table__floor_table__event=event)
    assert "table_hand_unrecorded" in _plan(*busy.query.sql_with_params())
