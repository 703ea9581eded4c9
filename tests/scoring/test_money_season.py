"""Season points with re-entries: each entry has a place and counts in the field; a player's
result in an event is his best entry (docs/money.md)."""

from __future__ import annotations

import pytest

from scoring import season_selectors
from tests.factories import make_event, make_structure
from tests.scoring.season_helpers import make_season, player
from tournaments.models import Entry, EntryStatus, EventStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def re_entered_event():
    """Anna busts 4th, re-enters and wins; four entries of three players (R6.1: 4 points first)."""
    season = make_season()
    event = make_event(name="Re-entry night", structure=make_structure(name="Re-entry"))
    event.season, event.status = season, EventStatus.FINISHED
    event.save()
    rows = [("Anna", 1, 4), ("Bert", 1, 2), ("Carl", 1, 3), ("Anna", 2, 1)]
    for name, number, place in rows:
        Entry.objects.create(
            event=event, player=player(name), number=number, place=place,
            starting_stack=event.starting_stack,
            status=EntryStatus.FINISHED if place == 1 else EntryStatus.BUSTED,
        )  # fmt: skip
    return season, event


def test_a_re_entered_player_scores_his_best_entry_once(re_entered_event):
    season, _ = re_entered_event
    table = season_selectors.season_table(season)
    points = {line.player_name: line.points for line in table.standings}
    assert points == {"Anna": 4, "Bert": 3, "Carl": 2}  # R6.1 over the 4 entries


def test_the_event_lists_every_entry_with_its_place(re_entered_event):
    _, event = re_entered_event
    lines = season_selectors.event_results(event)
    assert [(line.place, line.player_name, line.points) for line in lines] == [
        (1, "Anna (2)", 4), (2, "Bert", 3), (3, "Carl", 2), (4, "Anna", None),
    ]  # fmt: skip
    assert {line.entrants for line in lines} == {4}


def test_the_players_summary_counts_the_event_once(re_entered_event):
    season, _ = re_entered_event
    lines = season_selectors.player_results(player("Anna"))
    summary = season_selectors.player_summary(lines)
    assert (summary.events, summary.wins, summary.best_place) == (1, 1, 1)
    assert [total for _, total in summary.seasons] == [4]
