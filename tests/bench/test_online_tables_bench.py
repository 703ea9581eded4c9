"""The online-tables benchmark's code paths, small: one table of six players for a few seconds.

The same setup (services, sessions), the same production processes (gunicorn, uvicorn, a Celery
worker and beat whose sweeper deals) and the same client as bench/online_tables.py, on pytest's
test database and a Redis database of its own: moves are made and reach every page, with no
error and no card where it must not be.
"""

from __future__ import annotations

import asyncio
import io
import threading
import time
from typing import Any

import pytest
from asgiref.sync import ThreadSensitiveContext
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench import online_tables
from tables.online import live as online_live
from tables.online import play as online_play
from tables.online import services as online_services
from tables.online.models import HandAction
from tests.factories import make_user
from tests.integration.conftest import processes_database_url, redis_test_url  # noqa: F401
from tests.tables.online_helpers import make_table, seat_players
from tournaments.selectors import roles

MOVES = 6  # the window waits for them on a loaded machine (at most 300 s past its 5 s)


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_one_table_of_six_plays_with_no_error_and_no_leak(redis_test_url, tmp_path):  # noqa: F811
    call_command("floorman_setup", stdout=io.StringIO())
    layout = online_tables.seat_players(tables=1, players=6)
    args = online_tables.arguments().parse_args(
        # No warm-up: beat starts once every tab shows its table, its sweeper deals at once and
        # that hand's moves are measured (a later window could fall in a showdown's 5 s pause).
        ["--tables", "1", "--seconds", "5", "--min-moves", str(MOVES), "--warmup", "0",
         "--think", "0", "0.05", "--web-workers", "2", "--connections", "8"]
    )  # fmt: skip
    online_tables.choose_ports(args)
    database_url = processes_database_url()
    with online_tables.servers(args, tmp_path, database_url, redis_test_url) as start_beat:
        report = asyncio.run(online_tables.play(args, layout, start_beat))
        server_errors = online_tables.server_errors(tmp_path)

    assert report["moves"] >= MOVES, report
    assert report["round_trip"]["count"] == report["moves"]
    assert report["errors"] == {}, report["examples"]
    assert report["missing"] == 0
    assert server_errors == {}
    assert report["leaks"] == 0, report["leak_examples"]
    assert report["fragments_checked"] > report["moves"]
    assert report["messages_checked"] > 0
    assert report["peers"]["static"]["count"] > 0 and report["peers"]["clock"]["count"] > 0
    # Every move answered (204: the stream shows it, as table.js asks) is one stored move, and
    # only those are.
    answered = report["statuses"]["act"]
    assert set(answered) == {204}, answered
    assert HandAction.objects.filter(user__isnull=False).count() == answered[204]
    counts = online_tables.database_counts(database_url, report["window"])
    assert counts["tables_chips_unbalanced"] == 0


def test_a_fragment_with_another_seats_cards_is_a_leak_until_the_hand_is_over():
    def fragment(*, over: bool) -> str:
        return (
            f'<section id="state" data-version="3" data-hand="9" data-sequence="2" '
            f'data-over="{"1" if over else ""}" data-in-hand="1">'
            '<li class="seat me" data-seat="1"><span class="hole" data-testid="hole-1">'
            '<span class="pcard" data-card="Ah">A</span><span class="pcard" data-card="Kd">K'
            "</span></span></li>"
            '<li class="seat" data-seat="2"><span class="hole" data-testid="hole-2">'
            '<span class="pcard" data-card="7c">7</span><span class="pcard" data-card="2s">2'
            "</span></span></li></section>"
        )

    live = online_tables.parse(fragment(over=False))
    shown = online_tables.parse(fragment(over=True))
    assert live is not None and shown is not None
    assert live.shows == (9, 2) and live.version == 3
    assert online_tables.leaks(live, seat=1) == ["seat 2's cards ['7c', '2s'] shown to seat 1"]
    assert online_tables.leaks(shown, seat=1) == []
    assert online_tables.leaks(live, seat=3) == [
        "seat 1's cards ['Ah', 'Kd'] shown to seat 3",
        "seat 2's cards ['7c', '2s'] shown to seat 3",
        "seat 3 is in the hand without his cards",
    ]


def test_a_tabled_runout_shows_every_live_hand_but_a_missing_own_hand_is_still_caught():
    """TDA 16: once betting is closed with the players all-in, every live hand lies face up
    (the public table says ``data-tabled``); the bench must not count those as leaks."""
    public = (
        '<div class="public" data-public data-version="4" data-hand="9" data-sequence="5" '
        '{tabled}data-over="">'
        '<li class="seat" data-seat="1"><span class="pcard" data-card="Ah">A</span>'
        '<span class="pcard" data-card="Kd">K</span></li>'
        '<li class="seat" data-seat="2"><span class="pcard" data-card="7c">7</span>'
        '<span class="pcard" data-card="2s">2</span></li></div>'
    )
    tabled = online_tables.parse_public(public.format(tabled='data-tabled="1" '))
    live = online_tables.parse_public(public.format(tabled=""))
    assert tabled is not None and live is not None
    assert tabled.tabled and not live.tabled
    assert online_tables.leaks(tabled, seat=0) == []
    assert len(online_tables.leaks(live, seat=0)) == 2


@pytest.mark.django_db
def test_a_players_fragment_skips_the_floors_role_queries_and_his_balance(settings):
    """The benchmark's finding: every move is rendered five times for the other players, so the
    fragment must not query what it never shows (the floor's controls, the sit-down form's
    balance), and the 304 every page gets after every change costs the session, the user and
    one query for the ETag. Someone who can sit down still sees his chips."""
    settings.LIVE_BUS = "db"
    table = make_table()
    seat_players(table, ["alice", "bob", "carol"])
    online_play.deal_hand(table=table)
    url = reverse("tables:online_state", args=[table.pk])

    def queries(username: str, etag: str = "") -> tuple[list[str], Any]:
        client = Client()
        client.force_login(User.objects.get(username=username))
        headers = {"X-Floorman": "table"} | ({"If-None-Match": etag} if etag else {})
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url, headers=headers)
        assert response.status_code == (304 if etag else 200)
        return [query["sql"] for query in captured.captured_queries], response

    def chip_reads(sqls: list[str]) -> list[str]:
        return [sql for sql in sqls if sql.startswith('SELECT "tables_chipaccount"')]

    seated, answer = queries("alice")
    unchanged, _ = queries("alice", etag=answer["ETag"])
    online_services.grant_chips(
        user=make_user(username="dave"), amount=1234, actor=make_user(role="floor")
    )
    watching, answer = queries("dave")
    # No role query: the site-wide context processor's (tournaments.selectors.roles) are lazy,
    # and the fragment never asks; the page's floor controls ask once for the user's groups.
    assert [sql for sql in seated if "auth_group" in sql] == []
    request = RequestFactory().get(url)
    request.user = User.objects.get(username="alice")
    with CaptureQueriesContext(connection) as processor:
        context = roles(request)
    assert processor.captured_queries == []
    with CaptureQueriesContext(connection) as processor:
        assert (context["user_is_floor"](), context["user_is_admin"]()) == (False, False)
    assert len(processor.captured_queries) == 1
    assert chip_reads(seated) == []
    assert len(chip_reads(watching)) == 1
    # The user and the ETag; the session too where it is not in the shared cache (Redis).
    cached = settings.SESSION_ENGINE != "django.contrib.sessions.backends.db"
    assert len([sql for sql in unchanged if "django_session" not in sql]) == 2, unchanged
    assert len(unchanged) == (2 if cached else 3), unchanged
    assert 'data-testid="sit"' in answer.text
    assert f"Your chips: {settings.FLOORMAN_PLAY_CHIPS + 1234}" in answer.text


def test_a_herd_of_streams_opening_uses_a_few_database_connections_at_once():
    """The benchmark's 600 tabs opening within a second each did their database work in a thread
    of their own at once, and PostgreSQL refused connections ("too many clients"): streams,
    pages and the Celery worker failed. The events process now lets a few at a time through."""
    running, most = 0, 0
    lock = threading.Lock()
    full = threading.Event()  # as many as the gate lets through have come in at once

    def work() -> None:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
            if running == online_live.DATABASE_CALLS_AT_ONCE:
                full.set()
        # The first ones wait for the gate to fill rather than for a time: on a loaded machine a
        # short sleep could end before the last of them had a thread (CI read 7 for 8).
        full.wait(timeout=30)
        time.sleep(0.01)
        with lock:
            running -= 1

    async def tab() -> None:
        async with ThreadSensitiveContext():  # as uvicorn runs each request: a thread of its own
            await online_live.in_database(work)

    async def herd() -> None:
        await asyncio.gather(*(tab() for _ in range(60)))

    asyncio.run(herd())
    assert most == online_live.DATABASE_CALLS_AT_ONCE
