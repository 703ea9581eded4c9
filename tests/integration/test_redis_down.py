"""While Redis restarts, the pages that only use it as an economy go on from the database
(issue 17). With Redis stopped for 3 s under bench/online_tables.py, every request of a
logged-in player answered 500 (Django's ``cached_db`` sessions read the database, then failed
putting the session back into the cache) and so did the phones' clock fragments (their ETag's
cache); the streams caught up once it was back (tests/integration/test_live_bus_gap.py).

The cache here is a Redis where nothing listens: every command fails as during a restart.
"""

from __future__ import annotations

import pytest
import redis
from django.urls import reverse

from tables.online import play as online_play
from tables.online.models import TableHand
from tests.factories import make_event
from tests.tables.online_helpers import make_table, seat_players

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

NOBODY = "redis://127.0.0.1:1/0"  # a port nothing listens on: connection refused


@pytest.fixture
def redis_goes_down(settings, redis_test_url):
    """Sessions and the cache on the test's Redis, as in production; call it to take the cache
    away (the bus and the broker are not under test here)."""
    settings.SESSION_ENGINE = "config.sessions"
    settings.CACHES = {
        "default": {"BACKEND": "config.cache.RedisCache", "LOCATION": redis_test_url}
    }

    def down() -> None:
        settings.CACHES = {"default": {"BACKEND": "config.cache.RedisCache", "LOCATION": NOBODY}}
        from django.core.cache import cache

        with pytest.raises(redis.ConnectionError):
            cache.get("anything")  # it is down indeed

    return down


def test_a_logged_in_player_is_served_and_moves_while_the_cache_is_down(client, redis_goes_down):
    table = make_table()
    alice, bob = seat_players(table, ["alice", "bob"])
    hand = online_play.deal_hand(table=table)
    actor = alice if hand.user_ids[hand.actor] == alice.pk else bob
    client.force_login(actor)  # the session in the database and in the cache
    redis_goes_down()

    lobby = client.get(reverse("tables:online_lobby"))
    assert lobby.status_code == 200
    assert actor.username in lobby.content.decode(), "still logged in"
    answer = client.post(
        reverse("tables:online_act", args=[table.pk]),
        {"hand": hand.pk, "sequence": hand.sequence, "action": "call", "key": "k-1"},
        HTTP_X_FLOORMAN="table",
    )
    assert answer.status_code == 200, answer.content[:300]
    assert TableHand.objects.get(pk=hand.pk).actions.filter(user=actor).count() == 1


def test_the_phones_clock_is_served_while_the_cache_is_down(client, redis_goes_down):
    event = make_event()
    url = reverse("tournaments:event_clock", args=[event.code])
    assert client.get(url).status_code == 200  # its ETag cached
    redis_goes_down()
    answer = client.get(url)
    assert answer.status_code == 200
    assert 'id="clock"' in answer.content.decode()
    again = client.get(url, HTTP_IF_NONE_MATCH=answer.headers["ETag"])
    assert again.status_code == 304  # from the database's reading, not the cache
