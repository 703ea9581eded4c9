"""A table's messages are rendered in the languages its streams read (issue 17: rendering was
half of a move's CPU, and every part was rendered in English and German for tabs that read
one); a table no stream reads is sent as a bare nudge, and a player's part no stream of his
reads comes in every language (tables.online.languages). A tab whose language a message lacks
fetches its fragment (static/js/table.js), so no tab sees another language."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from tables.online import languages
from tables.online import play as online_play
from tables.online import publish as online_publish
from tables.online.live import stream_tables_sync, wait_for_announcements
from tables.online.models import TableHand
from tests.tables.online_helpers import make_table, seat_players, stacked_deck

pytestmark = pytest.mark.django_db
HOLES = ["AhKd", "QsJs", "9c9d"]


@pytest.fixture
def sent(monkeypatch):
    """Every message published: (channel kind, id, message)."""
    published: list[tuple[str, int, dict]] = []

    def publish_many(messages: list[tuple[str, str]]) -> None:
        for channel, payload in messages:
            kind, number = channel.split(":")[-2:]
            published.append((kind, int(number), json.loads(payload)))

    monkeypatch.setattr(online_publish, "publish_many", publish_many)
    return published


@pytest.fixture(autouse=True)
def marks(monkeypatch):
    """The marks a test makes are gone after it (not a FLUSHDB: the other test worker shares
    the cache; and a table's id may come again on SQLite)."""
    made: list[tuple[list[int], int | None]] = []
    mark = languages.mark_listening

    def recording(table_ids, user_id, language):
        made.append((list(table_ids), user_id))
        mark(table_ids, user_id, language)

    monkeypatch.setattr(languages, "mark_listening", recording)
    yield made
    for table_ids, user_id in made:
        languages.forget_listening(table_ids, [user_id] if user_id is not None else [])


def _deal(table, capture) -> TableHand:
    with capture(execute=True):
        hand = online_play.deal_hand(table=table, deck=stacked_deck(HOLES, "2c3c4c5c6c"))
    assert hand is not None
    return hand


def _languages(sent, kind: str) -> dict[int, set[str]]:
    return {number: set(message["html"]) for k, number, message in sent if k == kind}


def test_a_table_no_stream_reads_is_a_nudge_and_its_players_parts_are_in_every_language(
    sent, django_capture_on_commit_callbacks, monkeypatch
):
    """Nothing is drawn for nobody: the table's message is its version alone (a tab opening
    later fetches its fragment), and the dropped seats the drawing marks are not even read."""
    table = make_table()
    users = seat_players(table, ["ann", "bob", "cid"])

    def drawn(*args, **kwargs):
        raise AssertionError("the public table was drawn for nobody")

    monkeypatch.setattr(online_publish, "public_message", drawn)
    _deal(table, django_capture_on_commit_callbacks)
    (message,) = [m for k, _n, m in sent if k == "table"]
    table.refresh_from_db()
    assert message == {"table": table.pk, "version": table.version}  # no "html": a nudge
    # A player's tab may be opening: its stream hands it the messages kept since its page.
    assert _languages(sent, "user") == {user.pk: {"en", "de"} for user in users}


def test_the_parts_come_in_the_languages_the_streams_read(sent, django_capture_on_commit_callbacks):
    table = make_table()
    ann, bob, cid = seat_players(table, ["ann", "bob", "cid"])
    languages.mark_listening([table.pk], ann.pk, "de")
    languages.mark_listening([table.pk], bob.pk, "en-us")  # a regional code reads its language
    languages.mark_listening([table.pk], None, "fr")  # a watcher in no language of the site
    _deal(table, django_capture_on_commit_callbacks)
    assert _languages(sent, "table") == {table.pk: {"de", "en"}}
    # cid has no stream: his part comes in every language (a tab of his may open any time).
    assert _languages(sent, "user") == {ann.pk: {"de"}, bob.pk: {"en"}, cid.pk: {"en", "de"}}
    german = next(m for k, n, m in sent if k == "user" and n == ann.pk)["html"]["de"]
    assert 'id="mine"' in german


def test_a_table_read_in_one_language_is_rendered_in_it_alone(
    sent, django_capture_on_commit_callbacks
):
    table = make_table()
    users = seat_players(table, ["ann", "bob", "cid"])
    for user in users:
        languages.mark_listening([table.pk], user.pk, "de")
    _deal(table, django_capture_on_commit_callbacks)
    assert _languages(sent, "table") == {table.pk: {"de"}}
    assert _languages(sent, "user") == {user.pk: {"de"} for user in users}
    public = next(m for k, _n, m in sent if k == "table")["html"]["de"]
    assert "Festlegung des Decks" in public and "Deck commitment" not in public


def test_marks_lapse_and_a_failing_cache_renders_every_language(
    sent, django_capture_on_commit_callbacks, settings
):
    table = make_table()
    (ann, *_others) = seat_players(table, ["ann", "bob", "cid"])
    languages.mark_listening([table.pk], ann.pk, "de")
    assert languages.listening(table.pk, [ann.pk]) == (("de",), {ann.pk: ("de",)})
    languages.forget_listening(
        [table.pk], [ann.pk]
    )  # lapsed: LISTENING_SECONDS after the stream's last word
    assert languages.listening(table.pk, [ann.pk]) == ((), {ann.pk: ("en", "de")})
    languages.mark_listening([table.pk], ann.pk, "de")

    # The cache goes down: a Redis where none listens (port 1), for every cache operation.
    settings.CACHES = {
        "default": {"BACKEND": "config.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
    }
    _deal(table, django_capture_on_commit_callbacks)
    assert _languages(sent, "table") == {table.pk: {"en", "de"}}
    assert _languages(sent, "user")[ann.pk] == {"en", "de"}


def test_a_stream_marks_its_language_for_its_tables_and_its_player(settings):
    settings.LIVE_BUS = "db"
    table = make_table()
    (ann, *_others) = seat_players(table, ["ann", "bob"])
    frames = stream_tables_sync([table.pk], user_id=ann.pk, seconds=0.01, language="de")
    assert next(frames).startswith("retry:")
    frames.close()
    wait_for_announcements()  # his drop's announcement, while the database is the test's
    assert languages.listening(table.pk, [ann.pk]) == (("de",), {ann.pk: ("de",)})


def test_the_stream_view_passes_the_pages_language(settings):
    settings.LIVE_BUS = "db"
    settings.LIVE_WSGI_STREAM_SECONDS = 0.01
    table = make_table()
    (ann, *_others) = seat_players(table, ["ann", "bob"])
    client = Client(headers={"Accept-Language": "de"})
    client.force_login(ann)
    response = client.get(reverse("tables:online_stream") + f"?t={table.pk}")
    assert response.status_code == 200
    b"".join(response.streaming_content)
    wait_for_announcements()
    assert languages.listening(table.pk, [ann.pk]) == (("de",), {ann.pk: ("de",)})
