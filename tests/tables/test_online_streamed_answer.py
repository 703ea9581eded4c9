"""A move from a page whose stream is open is answered 204 (issue 17): the move's own messages
carry the table and the player's part to that page, so the answer no longer draws the whole
fragment a third time. Without the stream (or from a plain form) the answer is as before, and
a refusal is the same 4xx with its reason either way."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tables.online import play as online_play
from tables.online.models import HandAction, TableHand
from tests.tables.online_helpers import make_table, seat_players, stacked_deck
from tests.tables.test_online_roles import snapshot

pytestmark = pytest.mark.django_db
FRAGMENT = {"X-Floorman": "table"}
STREAMED = FRAGMENT | {"X-Floorman-Stream": "1"}


@pytest.fixture(autouse=True)
def quick(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LANGUAGE_CODE = "en"
    settings.LIVE_BUS = "db"


@pytest.fixture
def table():
    table = make_table()
    seat_players(table, ["alice", "bob", "carol"])
    online_play.deal_hand(table=table, deck=stacked_deck(["KhKd", "7c2d", "AsAh"], "Ac7h2s9d3c"))
    return table


def _client(username: str) -> Client:
    client = Client()
    client.force_login(User.objects.get(username=username))
    return client


def _move(table, **values) -> dict:
    hand = TableHand.objects.filter(table=table).order_by("-number").first()
    assert hand is not None
    return {"hand": hand.pk, "sequence": hand.sequence, "action": "call", "key": ""} | values


def _url(table) -> str:
    return reverse("tables:online_act", args=[table.pk])


def test_a_move_from_a_streamed_page_is_a_204_that_draws_nothing(table):
    alice = _client("alice")
    alice.get(reverse("tables:online_table", args=[table.pk]))  # the session, warm
    with CaptureQueriesContext(connection) as streamed:
        response = alice.post(_url(table), _move(table, key="k-1"), headers=STREAMED)
    assert response.status_code == 204 and response.content == b""
    assert HandAction.objects.filter(user__username="alice").count() == 1
    # The same move by a page without its stream: the fragment, drawn after a read-back.
    bob = _client("bob")
    with CaptureQueriesContext(connection) as drawn:
        answer = bob.post(_url(table), _move(table, key="k-2"), headers=FRAGMENT)
    assert answer.status_code == 200 and answer.content.lstrip().startswith(b'<section id="state"')
    assert len(streamed) < len(drawn)


def test_a_resend_of_the_same_key_is_one_move_and_two_204s(table):
    alice = _client("alice")
    data = _move(table, key="double-click")
    first = alice.post(_url(table), data, headers=STREAMED)
    second = alice.post(_url(table), data, headers=STREAMED)
    assert first.status_code == second.status_code == 204
    assert HandAction.objects.filter(user__username="alice").count() == 1


def test_a_refusal_is_the_same_reason_with_or_without_the_stream(table):
    for headers in (STREAMED, FRAGMENT):
        before = snapshot()
        response = _client("bob").post(_url(table), _move(table), headers=headers)
        assert response.status_code == 409
        assert response.content.decode() == "It is not your turn."
        assert snapshot() == before


def test_only_a_move_is_answered_204_and_only_to_the_tables_own_requests(table):
    # A plain form post (no X-Floorman: the page without its script) is redirected as before.
    plain = _client("alice").post(_url(table), _move(table), headers={"X-Floorman-Stream": "1"})
    assert plain.status_code == 302
    # Sitting out is no move: its answer is the fragment whatever the page says.
    sit_out = reverse("tables:online_sit_out", args=[table.pk])
    answer = _client("carol").post(sit_out, {}, headers=STREAMED)
    assert answer.status_code == 200 and b'id="state"' in answer.content
