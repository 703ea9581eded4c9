"""The home page by role: running and coming events, recent results, season leaders, links."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_event, make_structure
from tests.scoring.season_helpers import finished_event, make_season
from tournaments.models import Denomination
from tournaments.services import ClockAction, act_on_clock


@pytest.fixture
def structure(db):
    """Two levels; the 25s are the smallest chip in play at level 1."""
    structure = make_structure(name="Friday", starting_stack=3_000)
    structure.smallest_chip = Denomination.objects.get(chip_set=structure.chip_set, value=25)
    structure.save()
    return structure


@pytest.fixture
def admin_client(client, admin_user):
    client.force_login(admin_user)
    return client


def start_clock(event, user):
    return act_on_clock(event_id=event.pk, actor=user, action=ClockAction.START)


@pytest.fixture
def evening(structure, admin_user):
    """A running event, a coming one, a finished one in a season with points."""
    season = make_season(name="Winter")
    running = make_event(structure=structure, name="Tonight", code="tonight")
    start_clock(running, admin_user)
    coming = make_event(structure=structure, name="Next week", code="nextwk")
    done = finished_event(season=season, names=["Anna", "Bert", "Carl"], name="Last week")
    return {"running": running, "coming": coming, "done": done, "season": season}


def test_everyone_sees_events_results_and_seasons_on_the_home_page(client, evening):
    html = client.get("/").content.decode()
    running, coming, done = evening["running"], evening["coming"], evening["done"]
    for event in (running, coming):
        assert event.name in html
        assert f'href="/e/{event.code}/"' in html and f'href="/e/{event.code}/tv/"' in html
        assert f'href="/e/{event.code}/seats/"' in html
    assert "Running now" in html and "Level 1 · 25 / 50" in html and "Coming up" in html
    results = html.split('id="home-results"')[1].split('id="home-seasons"')[0]
    assert "Last week" in results and "Anna" in results
    assert reverse("seasons:event_results_csv", args=[done.pk]) in results
    seasons = html.split('id="home-seasons"')[1]
    assert (
        "Winter" in seasons
        and reverse("seasons:season_detail", args=[evening["season"].pk]) in seasons
    )
    assert "Anna" in seasons  # the leader
    assert "/floor/" not in html and 'data-testid="admin-links"' not in html


def test_floor_staff_see_the_floor_links_and_not_the_admins(client, floor_user, evening):
    client.force_login(floor_user)
    html = client.get("/").content.decode()
    for event in (evening["running"], evening["coming"]):
        assert reverse("floor:event_floor", args=[event.pk]) in html
        assert reverse("floor:tables", args=[event.pk]) in html
    assert 'data-testid="admin-links"' not in html
    assert f'href="{reverse("tournaments:event_list")}"' in html  # floor staff run events
    assert f'href="{reverse("tournaments:event_create")}"' in html
    assert f'href="{reverse("payouts:structure_list")}"' not in html


def test_admins_see_the_management_links(admin_client, evening):
    html = admin_client.get("/").content.decode()
    for url in (
        reverse("tournaments:event_create"),
        reverse("tournaments:event_list"),
        reverse("tournaments:structure_list"),
        reverse("admin:tournaments_season_changelist"),
        reverse("admin:tournaments_auditevent_changelist"),
        reverse("tournaments:event_edit", args=[evening["coming"].pk]),
    ):
        assert f'href="{url}"' in html, url
