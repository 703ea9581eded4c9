"""The stream carries the table (issue 17; docs/architecture.md, "Live updates"): the public table
rendered once per version, and each player's private part on his own channel only when it
changed for him."""

from __future__ import annotations

import json

import pytest
import redis

from tables.engine import card_name
from tables.online import play as online_play
from tables.online import publish as online_publish
from tables.online.models import TableHand
from tests.integration.conftest import wait_until
from tests.tables.online_helpers import make_table, seat_players, stacked_deck
from tournaments.live import user_channel
from tournaments.models import LiveMessage

# The tables are watched: their messages carry the public table (tests/tables/conftest.py).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("watched")]
HOLES = ["AhKd", "QsJs", "9c9d"]


@pytest.fixture
def sent(monkeypatch):
    """Every message published: (channel kind, id, message)."""
    published: list[tuple[str, int, dict]] = []

    def publish(channel: str, payload: str) -> None:
        kind, number = channel.split(":")[-2:]
        published.append((kind, int(number), json.loads(payload)))

    def publish_many(messages: list[tuple[str, str]]) -> None:
        for channel, payload in messages:
            publish(channel, payload)

    monkeypatch.setattr(online_publish, "publish", publish)
    monkeypatch.setattr(online_publish, "publish_many", publish_many)
    return published


def _deal(table, capture) -> TableHand:
    with capture(execute=True):
        hand = online_play.deal_hand(table=table, deck=stacked_deck(HOLES, "2c3c4c5c6c"))
    assert hand is not None
    return hand


def _holes(hand: TableHand) -> dict[int, set[str]]:
    """User id -> his hole cards' codes."""
    engine = online_play.engine_of(hand)
    return {
        user_id: {card_name(card) for card in engine.hole_cards[position]}
        for position, user_id in enumerate(hand.user_ids)
    }


def test_the_public_table_is_carried_in_every_language_without_a_live_card(
    sent, django_capture_on_commit_callbacks
):
    table = make_table()
    seat_players(table, ["ann", "bob", "cid"])
    hand = _deal(table, django_capture_on_commit_callbacks)
    public = [m for kind, number, m in sent if kind == "table" and number == table.pk]
    assert len(public) == 1
    table.refresh_from_db()
    assert public[0]["version"] == table.version
    assert set(public[0]["html"]) == {"en", "de"}
    html = public[0]["html"]["en"]
    assert 'data-testid="seat-1"' in html and "data-public" in html
    for cards in _holes(hand).values():
        assert not any(f'data-card="{code}"' in html for code in cards)


def test_each_player_gets_his_own_cards_on_his_channel_only_when_his_part_changes(
    sent, django_capture_on_commit_callbacks
):
    table = make_table()
    users = seat_players(table, ["ann", "bob", "cid"])
    hand = _deal(table, django_capture_on_commit_callbacks)
    holes = _holes(hand)
    private = {number: m for kind, number, m in sent if kind == "user"}
    assert set(private) == {user.pk for user in users}  # the deal: everyone's cards
    for user_id, message in private.items():
        assert message["user"] == user_id and message["what"] == "private"
        html = message["html"]["en"] + message["html"]["de"]
        assert all(f'data-card="{code}"' in html for code in holes[user_id])
        others = set().union(*(cards for uid, cards in holes.items() if uid != user_id))
        assert not any(f'data-card="{code}"' in html for code in others)
    actor = hand.user_ids[hand.actor]
    assert 'data-testid="actions"' in private[actor]["html"]["en"]
    # The same version again: nothing changed for anyone, so nobody's part is sent.
    sent.clear()
    online_publish.publish_table_changed(table.pk)
    assert [kind for kind, _number, _m in sent] == ["table"]
    # A move: the one who acted loses his buttons, the next one gets his; the third sees
    # nothing new of his own.
    sent.clear()
    by_id = {user.pk: user for user in users}
    with django_capture_on_commit_callbacks(execute=True):
        online_play.act(
            table=table, user=by_id[actor], hand_id=hand.pk, sequence=hand.sequence, action="call"
        )
    hand.refresh_from_db()
    told = {number for kind, number, _m in sent if kind == "user"}
    assert told == {actor, hand.user_ids[hand.actor]}


def test_a_cache_that_fails_sends_every_private_part_never_fewer(
    sent, django_capture_on_commit_callbacks, settings
):
    table = make_table()
    users = seat_players(table, ["ann", "bob", "cid"])
    _deal(table, django_capture_on_commit_callbacks)
    online_publish.publish_table_changed(table.pk)  # each part remembered as sent
    sent.clear()
    online_publish.publish_table_changed(table.pk)
    assert not [number for kind, number, _m in sent if kind == "user"]  # nothing new of his
    # The cache goes down: a Redis where none listens (port 1), for every cache operation.
    settings.CACHES = {
        "default": {"BACKEND": "config.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
    }
    sent.clear()
    online_publish.publish_table_changed(table.pk)
    assert {number for kind, number, _m in sent if kind == "user"} == {u.pk for u in users}


def _move(table, users, capture, action, amount=None) -> set[int]:
    """The actor of the hand in play moves; returns whom a private part was sent."""
    hand = TableHand.objects.get(table=table, is_over=False)
    actor = users[hand.user_ids[online_play.engine_of(hand).actor]]
    with capture(execute=True):
        online_play.act(
            table=table, user=actor, hand_id=hand.pk, sequence=hand.sequence, action=action,
            amount=amount,
        )  # fmt: skip
    return actor.pk


def test_a_raise_at_six_players_sends_only_the_parts_that_changed(
    sent, django_capture_on_commit_callbacks
):
    """A raise changes what everyone would call, but the page works "Call N" out from the
    public table (data-current-bet, each seat's data-bet and data-stack): only the one who
    raised (his buttons go) and the next to act (his come) get a part, not all six."""
    table = make_table(seats=6)
    users = {
        user.pk: user for user in seat_players(table, ["ann", "bob", "cid", "dan", "eve", "fay"])
    }
    _deal(table, django_capture_on_commit_callbacks)

    def told_after(action: str, amount: int | None = None) -> tuple[int, int, set[int]]:
        sent.clear()
        mover = _move(table, users, django_capture_on_commit_callbacks, action, amount)
        hand = TableHand.objects.get(table=table, is_over=False)
        following = hand.user_ids[online_play.engine_of(hand).actor]
        return mover, following, {number for kind, number, _m in sent if kind == "user"}

    mover, following, told = told_after("raise", 30)  # dan, seat 4: eve next
    assert told == {mover, following}
    mover, following, told = told_after("call")
    assert told == {mover, following}
    mover, following, told = told_after("raise", 90)  # fay
    assert told == {mover, following}
    # The public table says what each page needs to work its amount out.
    public = [m for kind, _number, m in sent if kind == "table"][-1]["html"]["en"]
    assert 'data-current-bet="90"' in public
    assert 'data-seat="6" data-bet="90" data-stack="910"' in public
    assert 'data-seat="4" data-bet="30" data-stack="970"' in public
    # Folds, calls, the call that closes the round (the flop: cid acts first) and checks.
    for action in ("fold", "fold", "call", "call", "call", "check", "check"):
        mover, following, told = told_after(action)
        assert told == {mover, following}, (action, told)


@pytest.mark.django_db(transaction=True)
def test_a_change_whose_publishing_failed_goes_out_again_with_every_private_part(
    settings, monkeypatch
):
    """Issue 17: a process that lost Redis left a table's change to its tabs' polls, every 15 s
    while their streams are up, so a player whose turn came saw no buttons until then. It is now
    published again a moment later, the table as it then stands, and every player's own part:
    the failed try remembered the parts as sent (its fingerprints) before the publish failed."""
    settings.LIVE_BUS = "db"
    settings.LIVE_PUBLISH_RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
    table = make_table()
    users = seat_players(table, ["ann", "bob", "cid"])
    LiveMessage.objects.all().delete()  # the seats' own messages
    down = [True]
    real = online_publish.publish_many

    def flaky(messages):
        if down[0]:
            raise redis.ConnectionError("Redis is out of reach")
        real(messages)

    monkeypatch.setattr(online_publish, "publish_many", flaky)
    hand = online_play.deal_hand(table=table, deck=stacked_deck(HOLES, "2c3c4c5c6c"))
    assert hand is not None
    holes = _holes(hand)
    channel = online_publish.table_channel(table.pk)
    assert not LiveMessage.objects.filter(channel=channel).exists()
    down[0] = False  # Redis is back
    wait_until(
        lambda: LiveMessage.objects.filter(channel=channel).exists(), timeout=30, what="the retry"
    )
    wait_until(lambda: not online_publish.table_retries.pending, timeout=30, what="retries done")
    table.refresh_from_db()
    (public,) = [json.loads(m.payload) for m in LiveMessage.objects.filter(channel=channel)]
    assert public["version"] == table.version and set(public["html"]) == {"en", "de"}
    for user in users:
        (private,) = [
            json.loads(m.payload)
            for m in LiveMessage.objects.filter(channel=user_channel(user.pk))
            if json.loads(m.payload).get("what") == "private"
        ]
        html = private["html"]["en"]
        assert all(f'data-card="{code}"' in html for code in holes[user.pk])


@pytest.mark.django_db(transaction=True)
def test_a_players_news_that_could_not_be_published_goes_out_again(settings, monkeypatch):
    settings.LIVE_BUS = "db"
    settings.LIVE_PUBLISH_RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
    down = [True]
    real = online_publish.publish

    def flaky(channel, payload):
        if down[0]:
            raise redis.ConnectionError("Redis is out of reach")
        real(channel, payload)

    monkeypatch.setattr(online_publish, "publish", flaky)
    online_publish.publish_user_event(41, what="moved", table_id=7, event_id=3)
    channel = user_channel(41)
    assert not LiveMessage.objects.filter(channel=channel).exists()
    down[0] = False
    wait_until(
        lambda: LiveMessage.objects.filter(channel=channel).exists(), timeout=30, what="the retry"
    )
    wait_until(lambda: not online_publish.user_retries.pending, timeout=30, what="retries done")
    (message,) = [json.loads(m.payload) for m in LiveMessage.objects.filter(channel=channel)]
    assert (message["user"], message["what"], message["table"], message["event"]) == (
        41,
        "moved",
        7,
        3,
    )
