"""The clock's pages over HTTP: the fragment's ETags, the public phone and TV views, the stream.

The floor dashboard and its clock controls: tests/scoring/test_dashboard_views.py.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_event, make_structure
from tournaments.services import ClockAction, act_on_clock

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def event():
    return make_event(code="tst123")


def test_the_clock_fragment_has_an_etag_and_answers_304(
    client, event, floor_user, django_capture_on_commit_callbacks
):
    url = reverse("tournaments:event_clock", args=[event.code])
    response = client.get(url)
    assert response.status_code == 200
    etag = response["ETag"]
    assert "no-cache" in response["Cache-Control"]
    html = response.content.decode()
    assert 'data-status="not_started"' in html
    assert 'data-remaining-ms="720000"' in html
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):  # as when the action commits
        act_on_clock(
            event_id=event.pk, actor=floor_user, action=ClockAction.START, expected_version=0
        )
    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response["ETag"] != etag
    html = response.content.decode()
    assert 'data-status="running"' in html
    assert 'data-ends-at="20' in html
    assert "data-server-now=" in html


def test_the_etag_follows_the_language(client, event):
    url = reverse("tournaments:event_clock", args=[event.code])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert english["ETag"] != german["ETag"]
    assert (
        client.get(url, HTTP_ACCEPT_LANGUAGE="de", HTTP_IF_NONE_MATCH=english["ETag"]).status_code
        == 200
    )


def test_tv_and_phone_pages_are_public(client, event):
    phone = client.get(reverse("tournaments:event_phone", args=[event.code]))
    assert phone.status_code == 200
    assert 'id="clock"' in phone.content.decode()
    tv = client.get(reverse("tournaments:event_tv", args=[event.code]))
    assert tv.status_code == 200
    html = tv.content.decode()
    assert "<svg" in html
    assert "http://testserver/e/tst123/" in html
    assert "Test event" in html


def test_a_break_shows_instead_of_blinds_and_the_next_break_is_counted(client, floor_user):
    structure = make_structure(levels=((25, 50, 0, 12), (50, 100, 10, 12)), breaks_after=(0,))
    event = make_event(structure=structure, code="brk123")
    url = reverse("tournaments:event_clock", args=[event.code])
    html = client.get(url).content.decode()
    assert 'data-break-after-ms="0"' in html  # the break follows this level
    assert "12:00" in html
    act_on_clock(event_id=event.pk, actor=floor_user, action=ClockAction.START, expected_version=0)
    act_on_clock(event_id=event.pk, actor=floor_user, action=ClockAction.NEXT, expected_version=1)
    html = client.get(url).content.decode()
    assert "clock-on-break" in html
    assert '<span class="blinds">Break</span>' in html
    assert "Ante 10" in html  # the next level


def test_the_paused_state_is_shown(client, event, floor_user):
    act_on_clock(event_id=event.pk, actor=floor_user, action=ClockAction.START, expected_version=0)
    act_on_clock(event_id=event.pk, actor=floor_user, action=ClockAction.PAUSE, expected_version=1)
    html = client.get(reverse("tournaments:event_phone", args=[event.code])).content.decode()
    assert 'data-status="paused"' in html
    assert "Paused" in html
    assert 'data-ends-at=""' in html


def test_german_pages(client, event):
    html = client.get(
        reverse("tournaments:event_phone", args=[event.code]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "Nächstes Level" in html
    assert "Nicht gestartet" in html


def test_unknown_codes_are_404(client):
    for name in ("event_phone", "event_tv", "event_clock", "event_stream"):
        assert client.get(reverse(f"tournaments:{name}", args=["nope42"])).status_code == 404


def test_the_stream_under_wsgi_answers_204_so_the_page_polls(client, event):
    response = client.get(reverse("tournaments:event_stream", args=[event.code]))
    assert response.status_code == 204


@pytest.mark.parametrize(
    ("game", "name"),
    [("no_limit", "No-limit hold'em"), ("plo", "Pot-limit Omaha"), ("stud", "Seven-card stud"),
     ("draw_holdem", "Draw Hold'em")],
)  # fmt: skip
def test_the_clock_names_the_structures_game(client, game, name):
    """R7.1, R7.2, R7.3: the games a structure can name, shown on the clock."""
    structure = make_structure(name=f"Structure {game}")
    structure.game = game
    structure.save()
    event = make_event(structure=structure, code=f"g{game[:8]}")
    html = client.get(reverse("tournaments:event_clock", args=[event.code])).content.decode()
    assert f'data-testid="game">{name}<' in html.replace("&#x27;", "'")
