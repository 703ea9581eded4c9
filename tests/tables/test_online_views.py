"""The HTTP contract of the online tables' pages (docs/architecture.md, "Live updates"): the
fragment's ETag and 304, the answers to a table's POSTs (the fragment, or a 4xx with the reason
as text; without the header a redirect, or the page with the error), the stream's answers,
and the German page."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from tables.engine import IllegalAction
from tables.online import live as online_live
from tables.online import play as online_play
from tables.online import services as online_services
from tables.online.models import ChipAccount, HandAction, OnlineSeat, OnlineTable, TableHand
from tests.factories import make_user
from tests.tables.online_helpers import make_table, seat_players, stacked_deck
from tests.tables.test_online_roles import snapshot

pytestmark = pytest.mark.django_db

FRAGMENT = {"X-Floorman": "table"}


@pytest.fixture(autouse=True)
def quick_logins(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LANGUAGE_CODE = "en"
    settings.LIVE_BUS = "db"


@pytest.fixture
def table():
    """Alice, bob and carol at a table, a hand dealt: alice (the button) acts first (R3.2)."""
    table = make_table()
    seat_players(table, ["alice", "bob", "carol"])
    online_play.deal_hand(table=table, deck=stacked_deck(["KhKd", "7c2d", "AsAh"], "Ac7h2s9d3c"))
    return table


def client_of(username: str) -> Client:
    from django.contrib.auth.models import User

    client = Client()
    client.force_login(User.objects.get(username=username))
    return client


def hand_of(table) -> TableHand:
    return TableHand.objects.filter(table=table).order_by("-number").first()


def move(table, **values) -> dict:
    hand = hand_of(table)
    return {"hand": hand.pk, "sequence": hand.sequence, "action": "call", "key": ""} | values


def act_url(table) -> str:
    return reverse("tables:online_act", args=[table.pk])


def state_url(table) -> str:
    return reverse("tables:online_state", args=[table.pk])


# -- the fragment: ETag and 304 -----------------------------------------------------------------


def test_the_fragment_answers_304_until_the_table_changes_then_a_new_etag(table):
    bob = client_of("bob")
    first = bob.get(state_url(table))
    assert first.status_code == 200 and first["Cache-Control"] == "no-cache, private"
    tag = first["ETag"]
    assert 'id="state"' in first.content.decode() and "<html" not in first.content.decode()
    again = bob.get(state_url(table), headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
    # Each viewer (and language) has his own fragment: another's tag is no match.
    assert (
        client_of("carol").get(state_url(table), headers={"If-None-Match": tag}).status_code == 200
    )
    assert Client().get(state_url(table), headers={"If-None-Match": tag}).status_code == 200
    assert client_of("alice").post(act_url(table), move(table), headers=FRAGMENT).status_code == 200
    changed = bob.get(state_url(table), headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert bob.get(state_url(table), headers={"If-None-Match": changed["ETag"]}).status_code == 304
    assert Client().get(state_url(table)).status_code == 200
    assert Client().get(reverse("tables:online_state", args=[999_999])).status_code == 404


# -- a table's POSTs with X-Floorman: table -----------------------------------------------------


def text_refusal(client: Client, table, data: dict, status: int) -> str:
    before = snapshot()
    response = client.post(act_url(table), data, headers=FRAGMENT)
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert snapshot() == before
    return response.content.decode()


def test_a_move_answers_the_players_fragment(table):
    response = client_of("alice").post(act_url(table), move(table), headers=FRAGMENT)
    assert response.status_code == 200
    text = response.content.decode()
    assert text.lstrip().startswith('<section id="state"') and 'data-sequence="1"' in text
    assert 'data-card="Ah"' in text and 'data-card="As"' in text  # alice's own cards
    assert HandAction.objects.filter(hand=hand_of(table)).count() == 1


# A move from a page whose stream is open is answered 204 (issue 17): the move's own messages
# carry the table and the player's part to that page, so the answer no longer draws the whole
# fragment a third time. Without the stream (or from a plain form) the answer is as before, and
# a refusal is the same 4xx with its reason either way.
STREAMED = FRAGMENT | {"X-Floorman-Stream": "1"}


def test_a_move_from_a_streamed_page_is_a_204_that_draws_nothing(table):
    alice = client_of("alice")
    alice.get(reverse("tables:online_table", args=[table.pk]))  # the session, warm
    with CaptureQueriesContext(connection) as streamed:
        response = alice.post(act_url(table), move(table, key="k-1"), headers=STREAMED)
    assert response.status_code == 204 and response.content == b""
    assert HandAction.objects.filter(user__username="alice").count() == 1
    # The same move by a page without its stream: the fragment, drawn after a read-back.
    bob = client_of("bob")
    with CaptureQueriesContext(connection) as drawn:
        answer = bob.post(act_url(table), move(table, key="k-2"), headers=FRAGMENT)
    assert answer.status_code == 200 and answer.content.lstrip().startswith(b'<section id="state"')
    assert len(streamed) < len(drawn)
    # The view reads no table before the move locks it (issue 17: a query a move less): the
    # table's row is read once, by the lock.
    tables = [
        query["sql"]
        for query in streamed.captured_queries
        if query["sql"].startswith("SELECT") and 'FROM "tables_onlinetable"' in query["sql"]
    ]
    assert len(tables) == 1, tables


def test_a_resend_of_the_same_key_is_one_move_and_two_204s(table):
    alice = client_of("alice")
    data = move(table, key="double-click")
    first = alice.post(act_url(table), data, headers=STREAMED)
    second = alice.post(act_url(table), data, headers=STREAMED)
    assert first.status_code == second.status_code == 204
    assert HandAction.objects.filter(user__username="alice").count() == 1


def test_a_refusal_is_the_same_reason_with_or_without_the_stream(table):
    for headers in (STREAMED, FRAGMENT):
        before = snapshot()
        response = client_of("bob").post(act_url(table), move(table), headers=headers)
        assert response.status_code == 409
        assert response.content.decode() == "It is not your turn."
        assert snapshot() == before


def test_only_the_players_own_changes_are_answered_204_and_only_to_the_tables_requests(table):
    # A plain form post (no X-Floorman: the page without its script) is redirected as before.
    plain = client_of("alice").post(act_url(table), move(table), headers={"X-Floorman-Stream": "1"})
    assert plain.status_code == 302
    # Sitting out, coming back and adding chips change only the player's own seat: their
    # messages carry his part, as a move's do (issue 17).
    carol = client_of("carol")
    sit_out = reverse("tables:online_sit_out", args=[table.pk])
    assert carol.post(sit_out, {}, headers=STREAMED).status_code == 204
    assert OnlineSeat.objects.get(user__username="carol").status == "sitting_out"
    back = reverse("tables:online_back", args=[table.pk])
    assert carol.post(back, {"post": ""}, headers=STREAMED).status_code == 204
    assert OnlineSeat.objects.get(user__username="carol").status == "waiting"
    dave_user = make_user(username="dave")  # seated after the deal: he may add chips
    online_services.take_seat(table=table, user=dave_user, buy_in=500, number=4)
    dave, chips = client_of("dave"), reverse("tables:online_add_chips", args=[table.pk])
    stack = OnlineSeat.objects.get(user__username="dave").stack
    assert dave.post(chips, {"amount": 100}, headers=STREAMED).status_code == 204
    assert OnlineSeat.objects.get(user__username="dave").stack == stack + 100
    # A refusal is the same reason with the stream (carol is in the hand).
    refused = carol.post(chips, {"amount": 100}, headers=STREAMED)
    assert refused.status_code == 409 and refused.content.decode() == "Add chips after this hand."
    # Leaving makes him a spectator, whose part no stream carries: the fragment, as before.
    leave = reverse("tables:online_leave", args=[table.pk])
    answer = dave.post(leave, {}, headers=STREAMED)
    assert answer.status_code == 200 and b'id="state"' in answer.content
    assert not OnlineSeat.objects.filter(user__username="dave").exists()


@pytest.mark.django_db(transaction=True)
def test_a_204_to_sitting_out_is_backed_by_his_part_on_his_own_stream(settings):
    """The 204 draws nothing: the change's messages must bring the page its new part (the
    "I'm back" buttons) on the player's own stream, and to nobody else's. Each stream is read
    until the event it needs (a generous cap on each): carol's until her part comes; bob's
    until the change's table message and then a heartbeat, which a stream sends only once it
    has nothing more to deliver."""
    settings.LIVE_BUS = "db"
    table = make_table()
    carol_user, bob_user = seat_players(table, ["carol", "bob"])
    streams = {
        user: online_live.stream_tables_sync(
            [table.pk], user_id=user.pk, seconds=60, heartbeat=0.3, language="en"
        )
        for user in (carol_user, bob_user)
    }
    back = reverse("tables:online_back", args=[table.pk])

    def read(user, until) -> list[dict]:
        frames: list[dict] = []
        for chunk in streams[user]:
            if "data: " in chunk:
                frames.append(json.loads(chunk.split("data: ", 1)[1]))
            if until(frames, chunk):
                return frames
        raise AssertionError(f"{user}'s stream ended before what the test waits for")

    def parts(frames: list[dict]) -> list[str]:
        return [f["html"]["en"] for f in frames if f.get("what") == "private"]

    try:
        for stream in streams.values():
            assert next(stream).startswith("retry:") and next(stream).startswith("event: changed")
        sit_out = reverse("tables:online_sit_out", args=[table.pk])
        assert client_of("carol").post(sit_out, {}, headers=STREAMED).status_code == 204
        version = OnlineTable.objects.get(pk=table.pk).version
        carols = parts(
            read(carol_user, lambda frames, _chunk: any(back in p for p in parts(frames)))
        )
        bobs = read(
            bob_user,
            lambda frames, chunk: (
                chunk.startswith(": heartbeat")
                and any(f.get("version", -1) >= version and "user" not in f for f in frames)
            ),
        )
    finally:
        for stream in streams.values():
            stream.close()  # each stream's end recorded now, not at the interpreter's exit
    (part,) = carols
    assert "I'm back: post a big blind" in part
    assert not [part for part in parts(bobs) if back in part]


def test_a_stale_sequence_or_out_of_turn_move_is_a_409_with_the_reason(table):
    alice, bob = client_of("alice"), client_of("bob")
    stale = text_refusal(alice, table, move(table, sequence=3), 409)
    assert stale == "The hand has moved on since your page was drawn; look again."
    assert text_refusal(bob, table, move(table), 409) == "It is not your turn."
    assert text_refusal(client_of("floor-0"), table, move(table), 403).startswith("You are not")


def test_a_forged_amount_is_a_400_with_the_engines_reason(table):
    engine = online_play.engine_of(hand_of(table))
    for amount in (15, 10**6):
        with pytest.raises(IllegalAction) as refusal:
            engine.verify_raise_to(amount)
        data = move(table, action="raise", amount=amount)
        assert text_refusal(client_of("alice"), table, data, 400) == str(refusal.value)
    said = text_refusal(client_of("alice"), table, move(table, action="raise"), 400)
    assert said == "Say how much to bet or raise to."


def test_the_same_key_twice_is_one_move_and_both_answers_are_the_fragment(table):
    alice = client_of("alice")
    data = move(table, key="9f1c-double-click")
    first = alice.post(act_url(table), data, headers=FRAGMENT)
    second = alice.post(act_url(table), data, headers=FRAGMENT)  # the same (now stale) page
    assert first.status_code == second.status_code == 200
    assert 'id="state"' in second.content.decode()
    (action,) = HandAction.objects.filter(hand=hand_of(table))
    assert action.key == "9f1c-double-click" and action.record["move"] == "call"
    # Another player's key is his own (issue 16): bob's move with the same key is bob's move.
    bob_move = move(table, key="9f1c-double-click")
    assert client_of("bob").post(act_url(table), bob_move, headers=FRAGMENT).status_code == 200
    assert HandAction.objects.filter(hand=hand_of(table), key="9f1c-double-click").count() == 2


def test_a_bad_form_is_a_400_with_the_forms_reason(table):
    alice = client_of("alice")
    for data in (
        move(table, action="shove"),
        move(table, hand="x"),
        move(table, sequence=-1),
        {"action": "call"},
        move(table, action="raise", amount="lots"),
    ):
        assert text_refusal(alice, table, data, 400)


def test_a_move_to_a_table_that_is_not_there_is_a_404_and_changes_nothing(table):
    """The move's lock reads its table with a query compiled once (tables.online.statements):
    an id no table has, or no column could hold, is a 404 like the ORM's, never a server
    error; from a page with or without its stream, or a plain form; and so for every action."""
    alice = client_of("alice")
    sequence = hand_of(table).sequence
    for pk in (table.pk + 1000, 10**30):
        url = reverse("tables:online_act", args=[pk])
        for headers in ({"X-Floorman-Stream": "1"}, FRAGMENT, {}):
            response = alice.post(url, move(table), headers=headers)
            assert response.status_code == 404
        for name in ("tables:online_sit_out", "tables:online_back", "tables:online_leave"):
            assert alice.post(reverse(name, args=[pk]), {"post": ""}).status_code == 404
    assert hand_of(table).sequence == sequence


def test_sitting_down_outside_the_buy_in_range_or_above_the_balance_is_a_400(table):
    dave = make_user(username="dave")
    client = client_of("dave")
    sit = reverse("tables:online_sit", args=[table.pk])
    client.get(reverse("tables:online_lobby"))  # his chip account: 10,000 play chips
    ChipAccount.objects.filter(user=dave).update(balance=300)
    for buy_in, reason in (
        (199, "Buy in for 200 to 1000 chips."),
        (1_001, "Buy in for 200 to 1000 chips."),
        (500, "You have 300 chips; you cannot buy in for 500."),
    ):
        before = snapshot()
        response = client.post(sit, {"buy_in": buy_in, "seat": 5}, headers=FRAGMENT)
        assert (response.status_code, response.content.decode()) == (400, reason)
        assert snapshot() == before
    response = client.post(sit, {"buy_in": 300, "seat": 5}, headers=FRAGMENT)
    assert response.status_code == 200
    seat = OnlineSeat.objects.get(table=table, user=dave)
    assert (seat.number, seat.stack, ChipAccount.objects.get(user=dave).balance) == (5, 300, 0)


# -- the same POSTs from a page without JavaScript ----------------------------------------------


def test_without_the_header_a_move_redirects_and_a_refusal_shows_the_page_with_the_reason(table):
    bob = client_of("bob")
    response = bob.post(act_url(table), move(table))
    assert response.status_code == 409
    page = response.content.decode()
    assert "<html" in page and 'data-testid="table-error"' in page
    assert ">It is not your turn.</p>" in page
    assert 'data-card="Kh"' in page  # the page is bob's: his own cards
    response = client_of("alice").post(act_url(table), move(table))
    assert response.status_code in (302, 303)
    assert response["Location"] == reverse("tables:online_table", args=[table.pk])
    assert HandAction.objects.filter(hand=hand_of(table)).count() == 1
    sit = reverse("tables:online_sit", args=[table.pk])
    make_user(username="dave")
    response = client_of("dave").post(sit, {"buy_in": 5})
    assert response.status_code == 400
    assert ">Buy in for 200 to 1000 chips.</p>" in response.content.decode()


# -- the stream ---------------------------------------------------------------------------------


def test_the_stream_wants_tables_and_a_wsgi_server_holds_none(table, settings):
    stream = reverse("tables:online_stream")
    for query in ("", "?t=", "?t=abc", "?t=999999"):
        response = Client().get(stream + query)
        assert response.status_code == 400, query
        assert response.content.decode() == "Name the tables to follow: ?t=1&t=2."
    settings.LIVE_WSGI_STREAM_SECONDS = 0
    assert Client().get(f"{stream}?t={table.pk}").status_code == 204
    assert client_of("bob").get(f"{stream}?t={table.pk}").status_code == 204


def test_a_bounded_wsgi_stream_tells_the_versions_then_each_change(
    table, settings, django_capture_on_commit_callbacks
):
    settings.LIVE_WSGI_STREAM_SECONDS = 5
    other = make_table(name="Table 2")
    stream = reverse("tables:online_stream")
    response = client_of("bob").get(f"{stream}?t={table.pk},{other.pk}&t={table.pk}")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-cache" and response["X-Accel-Buffering"] == "no"
    frames = iter(response.streaming_content)
    assert next(frames).decode().startswith("retry: ")
    versions = {next(frames).decode() for _table in (table, other)}
    table.refresh_from_db()
    assert f'data: {{"table": {table.pk}, "version": {table.version}}}\n\n' in "".join(versions)
    with django_capture_on_commit_callbacks(execute=True):
        online_play.act(table=table, user=table.players.get(number=1).user,
                        hand_id=hand_of(table).pk, sequence=0, action="call")  # fmt: skip
    table.refresh_from_db()
    bob = table.players.get(number=2).user_id
    told = [json.loads(next(frames).decode().split("data: ", 1)[1]) for _frame in range(2)]
    public, private = sorted(told, key=lambda message: "user" in message)
    # The table's new version with the table itself, and bob's own part: his turn, his buttons.
    assert (public["table"], public["version"]) == (table.pk, table.version)
    assert 'data-testid="seat-1"' in public["html"]["en"]
    assert (private["user"], private["what"], private["table"]) == (bob, "private", table.pk)
    assert 'data-testid="actions"' in private["html"]["en"]
    response.close()


# -- languages ----------------------------------------------------------------------------------


def german(text: str) -> str:
    with translation.override("de"):
        return translation.gettext(text)


def test_the_table_speaks_german_to_a_german_browser(table):
    english = ["Sit down", "You are watching.", "Four-colour deck", "Sit out", "Fold"]
    for text in english:
        assert german(text) != text, f"{text!r} has no German translation"
    sam = Client(headers={"Accept-Language": "de"})
    sam.force_login(make_user(username="sam"))
    page = sam.get(reverse("tables:online_table", args=[table.pk])).content.decode()
    assert german("Sit down") in page and "Sit down" not in page
    assert german("Four-colour deck") in page
    watcher = Client(headers={"Accept-Language": "de"})
    assert german("You are watching.") in watcher.get(state_url(table)).content.decode()
    alice = Client(headers={"Accept-Language": "de"})
    alice.force_login(table.players.get(number=1).user)
    fragment = alice.get(state_url(table)).content.decode()
    assert f">{german('Fold')}</button>" in fragment and ">Fold</button>" not in fragment
    assert german("Sit out") in fragment
    bob = Client(headers={"Accept-Language": "de"})
    bob.force_login(table.players.get(number=2).user)
    reason = bob.post(act_url(table), move(table), headers=FRAGMENT).content.decode()
    assert reason == german("It is not your turn.") != "It is not your turn."
    # The English page, for the same viewer in another browser.
    english_page = client_of("alice").get(state_url(table)).content.decode()
    assert ">Fold</button>" in english_page
    tags = {c.get(state_url(table))["ETag"] for c in (alice, client_of("alice"))}
    assert len(tags) == 2  # a fragment per language


# -- the fragment's snapshot: one read of the table a version ------------------------------------


def _fragment(client: Client, table) -> tuple[str, list[str]]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        response = client.get(state_url(table), headers=FRAGMENT)
    assert response.status_code == 200
    # The clock's "now" and the masked CSRF token differ between two renders; nothing else may.
    text = re.sub(r'data-now="\d+"|name="csrfmiddlewaretoken" value="\w+"', "", response.text)
    return text, [query["sql"] for query in captured.captured_queries]


def test_after_a_move_each_player_reads_the_versions_snapshot_and_sees_only_his_own_cards(table):
    """bench/online_tables.py: every other player's page fetches its fragment after every move.
    The first reader of a version reads the table, its seats, the hand and its moves; the others
    read the cached snapshot (the viewer and the ETag's query only), and each still sees exactly
    what a fresh read shows him: his own cards, nobody else's (R1.8)."""
    from django.core.cache import cache

    assert client_of("alice").post(act_url(table), move(table), headers=FRAGMENT).status_code == 200
    cache.clear()  # the test's transaction never commits: no publisher read the new version
    players = {name: client_of(name) for name in ("alice", "bob", "carol")}
    first, first_sqls = _fragment(players["bob"], table)
    cached = {name: _fragment(client, table) for name, client in players.items()}
    cache.clear()
    fresh = {name: _fragment(client, table)[0] for name, client in players.items()}

    tables_read = [sql for sql in first_sqls if '"tables_' in sql]
    assert len(tables_read) == 5, tables_read  # the ETag's, the table, seats, hand, moves
    for name, (text, sqls) in cached.items():
        assert text == fresh[name], name
        read = [sql for sql in sqls if '"tables_' in sql]
        assert len(read) == 1 and read[0].startswith('SELECT "tables_onlinetable"."version"'), sqls
    assert cached["bob"][0] == first
    hole = {name: re.findall(r'data-card="(\w\w)"', fresh[name]) for name in fresh}
    assert len({tuple(cards) for cards in hole.values()}) == 3  # three players, three hands
    for name, cards in hole.items():
        assert len(cards) == 2, (name, cards)  # his own two, and no other live card


def test_a_change_that_was_never_published_is_read_from_the_database(table):
    """A snapshot is kept under its version: a change bumps the version, so no reader is shown
    the old snapshot, even when the process that made the change did not get to publish it."""
    bob = client_of("bob")
    before, _ = _fragment(bob, table)
    assert "Sitting out" not in before
    OnlineSeat.objects.filter(table=table, number=3).update(status="sitting_out")
    type(table).objects.filter(pk=table.pk).update(version=F("version") + 1)
    after, _ = _fragment(bob, table)
    assert "Sitting out" in after


def test_a_new_table_with_a_reused_id_never_reads_the_old_tables_snapshot(table):
    """SQLite gives a rolled-back row's id again (tests, a failed save): the key carries the
    table's creation, so a table that reuses id and version reads its own seats."""
    before, _ = _fragment(client_of("bob"), table)
    assert "carol" in before
    table.refresh_from_db()
    pk, version = table.pk, table.version  # the version the snapshot above was kept under
    OnlineSeat.objects.filter(table=table).delete()
    TableHand.objects.filter(table=table).delete()
    fields = {"name": "Table 2", "version": version}
    type(table).objects.filter(pk=pk).update(created_at=table.created_at + timedelta(seconds=1))
    type(table).objects.filter(pk=pk).update(**fields)
    after, _ = _fragment(client_of("bob"), table)
    assert "carol" not in after and 'data-seat="1"' in after


def test_the_fragment_is_drawn_when_the_cache_is_down(table, monkeypatch):
    """The snapshot's cache is a saving, never a dependency: a cache that fails means a read
    of the database, and a log line, not an error page."""
    from tables.online import selectors as online_selectors

    class Down:
        def get(self, *args, **kwargs):
            raise ConnectionError("the cache is down")

        set = get

    monkeypatch.setattr(online_selectors, "cache", Down())
    text, sqls = _fragment(client_of("bob"), table)
    assert 'id="state"' in text and len([sql for sql in sqls if '"tables_' in sql]) == 5


def test_the_process_that_publishes_a_move_reads_the_snapshot_before_the_pages_ask(
    table, django_capture_on_commit_callbacks
):
    """The nudge goes out after the snapshot is in the cache: even the first page to ask after a
    move reads no table, seat, hand or move, though no page drew the move (a time-out, a bot's
    move and a deal are the sweeper's)."""
    from django.contrib.auth.models import User

    hand = hand_of(table)
    with django_capture_on_commit_callbacks(execute=True):
        online_play.act(
            table=table, user=User.objects.get(username="alice"), hand_id=hand.pk,
            sequence=hand.sequence, action="call",
        )  # fmt: skip
    _, sqls = _fragment(client_of("bob"), table)
    assert [sql for sql in sqls if '"tables_' in sql][1:] == [], sqls


def test_the_lobby_shows_the_starting_chips_on_the_first_visit_as_after_a_reload(settings):
    """Issue 18: the account is opened on the first visit to the lobby; that very page shows
    its grant, not 0 (the page read the new account before the grant reached it)."""
    settings.FLOORMAN_PLAY_CHIPS = 10_000
    make_user(username="newcomer")
    client = client_of("newcomer")
    first = client.get(reverse("tables:online_lobby")).content.decode()
    again = client.get(reverse("tables:online_lobby")).content.decode()
    shown = [
        re.search(r'data-testid="balance">Your chips: ([\d,]+)', page) for page in (first, again)
    ]
    assert [found.group(1) for found in shown if found] == ["10000", "10000"]
    assert ChipAccount.objects.get(user__username="newcomer").balance == 10_000
