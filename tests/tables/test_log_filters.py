"""No log line holds a hand's deck: Django's SQL debug records of a hand's writes are dropped."""

import io
import logging

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.module_loading import import_string

from tables.log_filters import HideHandSecrets
from tables.online import play as online_play
from tests.tables.online_helpers import make_table, seat_players


def record_of(sql: str) -> logging.LogRecord:
    record = logging.LogRecord("django.db.backends", logging.DEBUG, "", 0, "%s", (sql,), None)
    record.sql = sql
    return record


def test_the_filter_drops_a_hands_writes_and_keeps_everything_else():
    hide = HideHandSecrets()
    assert not hide.filter(record_of('INSERT INTO "tables_tablehand" ("deck") VALUES (...)'))
    assert not hide.filter(record_of('UPDATE "tables_tablehand" SET "sequence" = 1'))
    assert hide.filter(record_of('SELECT "tables_tablehand"."id" FROM "tables_tablehand"'))
    assert hide.filter(record_of('INSERT INTO "tables_handaction" ("record") VALUES (...)'))


@pytest.mark.django_db
def test_at_debug_the_configured_console_prints_no_deck_of_a_dealt_hand():
    table = make_table()
    seat_players(table, ["alice", "bob"])
    # The console handler as settings.LOGGING builds it: with the filters it names.
    console = settings.LOGGING["handlers"]["console"]
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    for name in console["filters"]:
        handler.addFilter(import_string(settings.LOGGING["filters"][name]["()"])())
    sql_log = logging.getLogger("django.db.backends")
    sql_log.addHandler(handler)
    level = sql_log.level
    sql_log.setLevel(logging.DEBUG)
    try:
        with CaptureQueriesContext(connection):  # Django logs SQL while queries are captured
            hand = online_play.deal_hand(table=table)
            player = table.players.get(number=1).user
            online_play.act(table=table, user=player, hand_id=hand.pk, sequence=0, action="call")
    finally:
        sql_log.removeHandler(handler)
        sql_log.setLevel(level)
    printed = out.getvalue()
    assert "tables_handaction" in printed  # the SQL log was on
    dealt = hand.cards()
    assert dealt.secret.hex() not in printed and str(list(dealt.deck))[1:-1] not in printed
