"""House bots in a season (issue 18): people only by default, ranked among the people of each
event; a season that includes bots counts everyone; the event's own places list everyone."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from scoring.season_selectors import event_results, season_table
from tests.scoring.season_helpers import finished_event, make_season, player

pytestmark = pytest.mark.django_db


def _bot(name):
    """A house bot as tables.online.services.new_bot_user makes one."""
    user = User(username=f"bot-{User.objects.count() + 1}", first_name=name)
    user.set_unusable_password()
    user.save()
    bot = player(name)
    bot.user = user
    bot.save()
    return bot


def _night(season):
    _bot("Bot Anna")
    people = User.objects.create_user(username="carl", password="pw")  # a person's log-in
    carl = player("Carl")
    carl.user = people
    carl.save()
    return finished_event(season=season, names=["Bot Anna", "Carl", "Dora", "Bot Ben"])


def test_a_season_counts_people_only_by_default():
    season = make_season(formula="linear")  # R6.1: N entrants, the winner N points
    _bot("Bot Ben")
    event = _night(season)
    table = {line.player_name: (line.rank, line.points) for line in season_table(season).standings}
    assert table == {"Carl": (1, 2), "Dora": (2, 1)}  # ranked among the two people
    assert [line.player_name for line in event_results(event)] == [
        "Bot Anna", "Carl", "Dora", "Bot Ben"
    ]  # fmt: skip


def test_a_season_with_bots_counts_everyone():
    season = make_season(formula="linear")
    season.include_bots = True
    season.save()
    _bot("Bot Ben")
    _night(season)
    table = {line.player_name: line.points for line in season_table(season).standings}
    assert table == {"Bot Anna": 4, "Carl": 3, "Dora": 2, "Bot Ben": 1}


def test_the_season_chart_draws_each_leaders_running_total(client):
    from django.urls import reverse  # noqa: PLC0415

    from scoring.season_chart import season_chart  # noqa: PLC0415

    season = make_season(formula="linear")
    finished_event(season=season, names=["Anna", "Ben", "Carl"], name="One")
    finished_event(season=season, names=["Ben", "Anna"], name="Two")
    chart = season_chart(season)
    totals = {line.name: line.total for line in chart.lines}
    assert totals == {"Anna": 3 + 1, "Ben": 2 + 2, "Carl": 1}  # R6.1 after each event
    assert [tick.title for tick in chart.x_ticks] == ["One", "Two"]
    anna = next(line for line in chart.lines if line.name == "Anna")
    ben = next(line for line in chart.lines if line.name == "Ben")
    assert len(anna.points.split()) == 2
    assert anna.end_y == ben.end_y and abs(anna.label_y - ben.label_y) >= 16  # names apart
    page = client.get(reverse("seasons:season_detail", args=[season.pk])).content.decode()
    assert 'data-testid="season-chart"' in page and page.count('data-testid="season-line"') == 3
    fragment = client.get(reverse("seasons:season_chart", args=[season.pk]))
    assert fragment.status_code == 200 and b"<svg" in fragment.content
    assert b"<script" not in fragment.content
