"""What a move costs the database (issue 17: a move's server CPU, bench/online_move_cost.py): the
number of queries of a player's move and of a house bot's, its publishing after the commit
included, pinned so it cannot grow unseen; and the table a move publishes from its own rows is
the one the database holds."""

from __future__ import annotations

import json
import re
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables.online import play as online_play
from tables.online import publish as online_publish
from tables.online import services as online_services
from tables.online.broadcast import public_message
from tables.online.models import HandAction, OnlineSeat, Presence, TableHand
from tables.online.selectors import build_snapshot
from tests.tables.online_helpers import make_table, seat_players

# The tables are watched: their messages carry the public table (tests/tables/conftest.py).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("watched")]

# A player's move while the hand runs: lock the table (the seats whose player's connection
# dropped, which the public table marks, read in the same query: R3.10), lock the hand (his
# key looked up in the same query), store the move, read the seats with their names, save the
# hand, bump the version; the atomic block's savepoint and its release (the test's
# transaction around it). The publishing after the commit reads nothing back: the table is
# drawn from the move's own rows.
PLAYER_MOVE_QUERIES = 8
# A house bot's move applied by the sweeper: the same without the key (the table's id given).
BOT_MOVE_QUERIES = 8
# A move after its commit: its engine's state kept (tables.online.kept); then its publishing
# (tables.online.publish): the snapshot kept with the reads of the streams' languages and of
# what each player was last sent; the fingerprints of the parts sent with the messages kept;
# the messages published. Each round trip is CPU in the process, in Redis and in the kernel
# (issue 17); the publishing took six, and a query.
AFTER_COMMIT_ROUND_TRIPS = 1 + 3


@pytest.fixture
def published(monkeypatch):
    """Every message published: (channel, message)."""
    sent: list[tuple[str, dict]] = []

    def publish_many(messages: list[tuple[str, str]]) -> None:
        sent.extend((channel, json.loads(payload)) for channel, payload in messages)

    monkeypatch.setattr(online_publish, "publish_many", publish_many)
    return sent


def _running(capture) -> tuple[TableHand, dict[int, User]]:
    table = make_table()
    users = seat_players(table, ["ann", "bob", "cid", "dan"])
    with capture(execute=True):
        hand = online_play.deal_hand(table=table)
    assert hand is not None
    return hand, {user.pk: user for user in users}


def _move(hand: TableHand, users: dict[int, User], capture, *, key: str, action: str = "call"):
    with CaptureQueriesContext(connection) as queries, capture(execute=True):
        online_play.act(
            table=hand.table, user=users[hand.user_ids[hand.actor]], hand_id=hand.pk,
            sequence=hand.sequence, action=action, key=key,
        )  # fmt: skip
    return [query["sql"] for query in queries.captured_queries]


def _without_clock(html: str) -> str:
    return re.sub(r'data-now="\d*"', "", html)  # the render's second, not the table's


def test_a_players_move_costs_a_pinned_number_of_queries(
    django_capture_on_commit_callbacks, published
):
    hand, users = _running(django_capture_on_commit_callbacks)
    queries = _move(hand, users, django_capture_on_commit_callbacks, key=uuid.uuid4().hex)
    assert len(queries) == PLAYER_MOVE_QUERIES, "\n".join(queries)
    assert sum("tables_handaction" in sql for sql in queries) == 2  # the key's look-up, the move
    assert [channel.split(":")[-2] for channel, _message in published][0] == "table"


def test_a_moves_publishing_is_a_pinned_number_of_round_trips_to_redis_and_no_query(
    django_capture_on_commit_callbacks, redis_round_trips
):
    hand, users = _running(django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks() as publishing:
        online_play.act(
            table=hand.table, user=users[hand.user_ids[hand.actor]], hand_id=hand.pk,
            sequence=hand.sequence, action="call", key=uuid.uuid4().hex,
        )  # fmt: skip
    before = redis_round_trips[0]
    with CaptureQueriesContext(connection) as queries:
        for callback in publishing:
            callback()
    assert redis_round_trips[0] - before == AFTER_COMMIT_ROUND_TRIPS
    assert not queries.captured_queries, [query["sql"] for query in queries.captured_queries]


def test_a_moves_table_marks_the_seats_it_read_dropped_with_its_lock_r3_10(
    django_capture_on_commit_callbacks, published
):
    """R3.10: a seat whose player's connection dropped is marked on the public table a move
    publishes, read by the move's locking query, not asked again after the commit."""
    hand, users = _running(django_capture_on_commit_callbacks)
    waiting = hand.user_ids[(hand.actor + 1) % len(hand.user_ids)]  # not the mover
    number = OnlineSeat.objects.get(table=hand.table, user_id=waiting).number
    Presence.objects.update_or_create(
        user_id=waiting, defaults={"streams": 0, "dropped_at": timezone.now()}
    )
    published.clear()  # the deal's
    _move(hand, users, django_capture_on_commit_callbacks, key=uuid.uuid4().hex)
    sent = next(message for channel, message in published if ":table:" in channel)
    assert f'data-testid="away-{number}"' in sent["html"]["en"]
    assert sent["html"]["en"].count('data-testid="away-') == 1
    # Back: the next move's table shows no mark.
    Presence.objects.filter(user_id=waiting).update(streams=1, dropped_at=None)
    hand.refresh_from_db()
    published.clear()
    _move(hand, users, django_capture_on_commit_callbacks, key=uuid.uuid4().hex)
    sent = next(message for channel, message in published if ":table:" in channel)
    assert 'data-testid="away-' not in sent["html"]["en"]


def test_a_resend_by_the_mover_is_found_in_the_locking_query(django_capture_on_commit_callbacks):
    hand, users = _running(django_capture_on_commit_callbacks)
    key = uuid.uuid4().hex
    mover = users[hand.user_ids[hand.actor]]
    sequence = hand.sequence
    _move(hand, users, django_capture_on_commit_callbacks, key=key)
    stored = HandAction.objects.filter(hand=hand).count()
    # The same click again, as his page showed it before his move (idempotent: issue 16).
    with CaptureQueriesContext(connection) as queries:
        again = online_play.act(
            table=hand.table, user=mover, hand_id=hand.pk, sequence=sequence, action="call",
            key=key,
        )  # fmt: skip
    assert again.sequence == sequence + 1  # the stored move's hand, nothing made twice
    assert HandAction.objects.filter(hand=hand).count() == stored
    assert HandAction.objects.filter(hand=hand, key=key).count() == 1
    # The table's lock and the hand's with the key's look-up, in the savepoint: nothing else.
    assert len(queries.captured_queries) == 4, [q["sql"] for q in queries.captured_queries]


def test_the_table_a_move_publishes_is_the_one_the_database_holds(
    django_capture_on_commit_callbacks, published
):
    """The move's own rows (``move_snapshot``) draw the same public table as a fresh read,
    over a whole hand of calls, raises and checks, in every language."""
    hand, users = _running(django_capture_on_commit_callbacks)
    actions = ["raise", "call", "call", "call", "check", "raise", "call", "fold", "call"]
    for number, action in enumerate(actions):
        hand.refresh_from_db()
        if hand.is_over:
            break
        published.clear()
        engine = online_play.engine_of(hand)
        if action == "check" and not engine.can_check():
            action = "call"
        if action == "raise":
            with django_capture_on_commit_callbacks(execute=True):
                online_play.act(
                    table=hand.table, user=users[hand.user_ids[hand.actor]], hand_id=hand.pk,
                    sequence=hand.sequence, action="raise", amount=engine.min_raise_to(),
                    key=f"k{number}",
                )  # fmt: skip
        else:
            _move(hand, users, django_capture_on_commit_callbacks, key=f"k{number}", action=action)
        sent = next(message for channel, message in published if ":table:" in channel)
        fresh = public_message(build_snapshot(hand.table_id))
        assert sent["version"] == fresh["version"]
        for language, html in fresh["html"].items():
            assert _without_clock(sent["html"][language]) == _without_clock(html), language


def test_a_bots_move_costs_a_pinned_number_of_queries(
    django_capture_on_commit_callbacks, published, settings
):
    settings.FLOORMAN_BOTS_PLAY_ALONE = True
    table = make_table()
    for _seat in range(4):
        online_services.seat_bot(table=table, actor=table.created_by)
    with django_capture_on_commit_callbacks(execute=True):
        hand = online_play.deal_hand(table=table)
    assert hand is not None
    now = hand.deadline + timedelta(seconds=1)
    published.clear()  # the deal's
    with (
        CaptureQueriesContext(connection) as queries,
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert online_play.expire_turn(
            hand_id=hand.pk, sequence=hand.sequence, now=now, table_id=table.pk
        )
    sqls = [query["sql"] for query in queries.captured_queries]
    assert len(sqls) == BOT_MOVE_QUERIES, "\n".join(sqls)
    assert TableHand.objects.get(pk=hand.pk).sequence == hand.sequence + 1
    assert [channel.split(":")[-2] for channel, _message in published] == ["table"]


@pytest.mark.parametrize(
    "name",
    ["tables:online_act", "tables:online_show", "tables:online_back", "tables:online_sit_out",
     "tables:online_add_chips", "tables:online_leave", "tables:online_sit"],
)  # fmt: skip
def test_the_private_parts_remembered_addresses_are_the_reversed_ones(name):
    from django.urls import reverse, set_script_prefix

    from tables.templatetags.online_table_tags import table_url

    assert table_url(name, 7) == reverse(name, args=[7])
    assert table_url(name, 8) == reverse(name, args=[8]) != table_url(name, 7)
    set_script_prefix("/floor/")  # a site served under a prefix: its own addresses
    try:
        assert table_url(name, 7) == reverse(name, args=[7])
        assert table_url(name, 7).startswith("/floor/")
    finally:
        set_script_prefix("/")
