"""Season pages: leaderboard, what-if, player page, CSV exports and who may change a formula."""

from __future__ import annotations

import csv
import io

import pytest

from tests.scoring.season_helpers import finished_event, make_season
from tournaments.models import AuditEvent, Player, Season

pytestmark = pytest.mark.django_db


def rows(response) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(response.content.decode())))


@pytest.fixture
def season():
    season = make_season(formula="linear")
    finished_event(season=season, names=["Anna", "Bert", "Cleo", "Dora"], name="Night 1")
    finished_event(season=season, names=["Cleo", "Anna", "Bert"], name="Night 2")
    return season


def test_leaderboard_is_public_and_sums_the_nights(client, season):
    response = client.get(f"/seasons/{season.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    # Anna 4 + 2 = 6, Cleo 2 + 3 = 5, Bert 3 + 1 = 4, Dora 1.
    assert 'data-player="Anna" data-points="6" data-rank="1"' in html
    assert 'data-player="Cleo" data-points="5" data-rank="2"' in html
    assert 'data-player="Dora" data-points="1" data-rank="4"' in html


def test_leaderboard_answers_304_while_nothing_changed(client, season):
    first = client.get(f"/seasons/{season.pk}/")
    again = client.get(f"/seasons/{season.pk}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    entry = season.events.get(name="Night 2").entries.get(place=1)
    entry.place = 3
    entry.save()  # a corrected result: new standings, new ETag
    changed = client.get(f"/seasons/{season.pk}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200


def test_what_if_shows_another_formula_without_changing_the_season(client, season):
    response = client.get(f"/seasons/{season.pk}/?formula=linear_x10")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-player="Anna" data-points="60"' in html
    assert 'data-testid="what-if"' in html
    season.refresh_from_db()
    assert season.formula == "linear"
    assert not AuditEvent.objects.filter(action__startswith="season.").exists()


def test_what_if_with_a_bad_formula_is_400_with_the_reason(client, season):
    response = client.get(f"/seasons/{season.pk}/?formula=nonsense")
    assert response.status_code == 400
    assert "nonsense is not a points formula" in response.content.decode()


def test_standings_csv_parses_and_matches_the_page(client, season):
    response = client.get(f"/seasons/{season.pk}/standings.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    table = rows(response)
    assert [(r["rank"], r["player"], r["points"]) for r in table] == [
        ("1", "Anna", "6"), ("2", "Cleo", "5"), ("3", "Bert", "4"), ("4", "Dora", "1"),
    ]  # fmt: skip
    assert table[0]["events"] == "2" and table[0]["wins"] == "1"


def test_event_results_csv_gives_places_and_points(client, season):
    event = season.events.get(name="Night 1")
    table = rows(client.get(f"/events/{event.pk}/results.csv"))
    assert [(r["place"], r["player"], r["entrants"], r["points"]) for r in table] == [
        ("1", "Anna", "4", "4"), ("2", "Bert", "4", "3"), ("3", "Cleo", "4", "2"),
        ("4", "Dora", "4", "1"),
    ]  # fmt: skip


def test_player_page_lists_results_places_and_points(client, season):
    anna = Player.objects.get(name="Anna")
    response = client.get(f"/players/{anna.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Night 1" in html and "Night 2" in html
    assert '1<span class="muted">/4</span>' in html and '2<span class="muted">/3</span>' in html
    assert "6 points" in html


def test_admin_sets_the_formula_and_it_is_audited(client, admin_user, season):
    client.force_login(admin_user)
    response = client.post(f"/seasons/{season.pk}/formula/", {"formula": "square_root"})
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.formula == "square_root"
    audit = AuditEvent.objects.get(action="season.changed")
    assert audit.actor == admin_user
    assert audit.data["changes"] == {"formula": ["linear", "square_root"]}


def test_anonymous_is_sent_to_log_in_and_nothing_changes(client, season):
    response = client.post(f"/seasons/{season.pk}/formula/", {"formula": "linear_x10"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Season.objects.get(pk=season.pk).formula == "linear"


@pytest.mark.parametrize("role", ["player_user", "floor_user"])
def test_players_and_floor_may_not_change_the_formula(client, season, role, request):
    client.force_login(request.getfixturevalue(role))
    response = client.post(f"/seasons/{season.pk}/formula/", {"formula": "linear_x10"})
    assert response.status_code == 403
    assert Season.objects.get(pk=season.pk).formula == "linear"


def test_bad_formula_key_is_400_with_the_reason_and_nothing_changes(client, admin_user, season):
    client.force_login(admin_user)
    response = client.post(f"/seasons/{season.pk}/formula/", {"formula": "best_of_five"})
    assert response.status_code == 400
    assert "best_of_five is not a points formula" in response.content.decode()
    assert Season.objects.get(pk=season.pk).formula == "linear"
    assert not AuditEvent.objects.filter(action__startswith="season.").exists()


def test_the_django_admin_audits_a_formula_change(client, admin_user, season):
    client.force_login(admin_user)
    response = client.post(
        f"/admin/tournaments/season/{season.pk}/change/",
        {"name": season.name, "starts_on": "2026-01-01", "ends_on": "2026-12-31",
         "formula": "linear_x10", "super_final_stack_rule": "base_plus_bonus"},
    )  # fmt: skip
    assert response.status_code == 302
    assert Season.objects.get(pk=season.pk).formula == "linear_x10"
    audit = AuditEvent.objects.get(action="season.changed")
    assert audit.data["changes"]["formula"] == ["linear", "linear_x10"]


def test_the_django_admin_refuses_an_unknown_formula(client, admin_user, season):
    client.force_login(admin_user)
    response = client.post(
        f"/admin/tournaments/season/{season.pk}/change/",
        {"name": season.name, "starts_on": "2026-01-01", "ends_on": "2026-12-31",
         "formula": "nonsense", "super_final_stack_rule": "base_plus_bonus"},
    )  # fmt: skip
    assert response.status_code == 200  # the form again, with its error
    assert Season.objects.get(pk=season.pk).formula == "linear"


def test_r5_5_the_django_admin_sets_the_super_final_stack_rule_audited(client, admin_user, season):
    client.force_login(admin_user)
    response = client.post(
        f"/admin/tournaments/season/{season.pk}/change/",
        {"name": season.name, "starts_on": "2026-01-01", "ends_on": "2026-12-31",
         "formula": "linear", "super_final_stack_rule": "bonus_only"},
    )  # fmt: skip
    assert response.status_code == 302
    assert Season.objects.get(pk=season.pk).super_final_stack_rule == "bonus_only"
    audit = AuditEvent.objects.get(action="season.changed")
    assert audit.data["changes"]["super_final_stack_rule"] == ["base_plus_bonus", "bonus_only"]
    bad = client.post(
        f"/admin/tournaments/season/{season.pk}/change/",
        {"name": season.name, "starts_on": "2026-01-01", "ends_on": "2026-12-31",
         "formula": "linear", "super_final_stack_rule": "everything"},
    )  # fmt: skip
    assert bad.status_code == 200  # the form again, with its error
    assert Season.objects.get(pk=season.pk).super_final_stack_rule == "bonus_only"


FORMULAS = ["=1+1", "=HYPERLINK(\"http://evil.example\",\"x\")", "@SUM(1+1)", "+1+1", "-1+1",
            "\t=1+1", "\r=1+1"]  # fmt: skip


@pytest.mark.parametrize("name", FORMULAS)
def test_csv_exports_neutralise_formula_cells(client, name):
    """OWASP CSV injection: a cell that a spreadsheet would run starts with a quote instead."""
    season = make_season()
    event = finished_event(season=season, names=[name, "Anna"], name="Night 1")
    results = rows(client.get(f"/events/{event.pk}/results.csv"))
    standings = rows(client.get(f"/seasons/{season.pk}/standings.csv"))
    assert results[0]["player"] == "'" + name
    assert {r["player"] for r in standings} == {"'" + name, "Anna"}
