"""Season standings from final places (R6.1-R6.3): the pure part over plain records."""

from __future__ import annotations

import pytest

from scoring.standings import Result, season_standings


def linear(place: int, entrants: int) -> int:
    """R6.1 written out here, so the pure tests do not lean on the registry."""
    return entrants - place + 1


def night(event_id: int, *names: str, unplaced: tuple[str, ...] = ()) -> list[Result]:
    """An event's results: names in finishing order, then entries still in play."""
    entrants = len(names) + len(unplaced)
    placed = [
        Result(event_id=event_id, player_id=ord(name[0]), player_name=name, place=place,
               entrants=entrants)
        for place, name in enumerate(names, start=1)
    ]  # fmt: skip
    waiting = [
        Result(event_id=event_id, player_id=ord(name[0]), player_name=name, place=None,
               entrants=entrants)
        for name in unplaced
    ]  # fmt: skip
    return placed + waiting


def test_winner_of_four_gets_four_points_last_gets_one():
    table = season_standings(night(1, "Anna", "Bert", "Cleo", "Dora"), formula=linear)
    assert [(line.player_name, line.points, line.rank) for line in table] == [
        ("Anna", 4, 1), ("Bert", 3, 2), ("Cleo", 2, 3), ("Dora", 1, 4),
    ]  # fmt: skip


def test_points_sum_over_the_season_and_count_events_and_wins():
    results = night(1, "Anna", "Bert", "Cleo") + night(2, "Cleo", "Bert", "Anna", "Dora")
    table = {line.player_name: line for line in season_standings(results, formula=linear)}
    assert table["Anna"].points == 3 + 2
    assert table["Cleo"].points == 1 + 4
    assert table["Bert"].points == 2 + 3
    assert table["Anna"].events == 2 and table["Anna"].wins == 1
    assert table["Dora"].points == 1 and table["Dora"].best_place == 4


def test_equal_points_share_a_rank_and_wins_order_the_lines():
    results = night(1, "Anna", "Bert", "Cleo") + night(2, "Cleo", "Bert", "Anna")
    table = season_standings(results, formula=linear)
    assert [(line.rank, line.player_name, line.points) for line in table] == [
        (1, "Anna", 4), (1, "Cleo", 4), (1, "Bert", 4),
    ]  # fmt: skip
    assert [line.wins for line in table] == [1, 1, 0]


def test_entries_still_in_play_count_as_entrants_but_score_nothing_yet():
    def line(player_id: int, name: str, place: int | None) -> Result:
        return Result(event_id=1, player_id=player_id, player_name=name, place=place, entrants=4)

    results = [line(1, "Anna", None), line(2, "Bert", None), line(3, "Cleo", 3), line(4, "Dora", 4)]
    table = season_standings(results, formula=linear)
    assert [(line.player_name, line.points) for line in table] == [("Cleo", 2), ("Dora", 1)]


def test_a_corrected_place_recomputes_the_table():
    before = night(1, "Anna", "Bert", "Cleo", "Dora")
    after = night(1, "Bert", "Anna", "Cleo", "Dora")  # the floor swapped first and second
    assert season_standings(before, formula=linear)[0].player_name == "Anna"
    corrected = season_standings(after, formula=linear)
    assert [(line.player_name, line.points) for line in corrected[:2]] == [("Bert", 4), ("Anna", 3)]


def test_a_place_outside_the_field_is_refused():
    bad = [Result(event_id=1, player_id=1, player_name="Anna", place=5, entrants=4)]
    with pytest.raises(ValueError, match="outside"):
        season_standings(bad, formula=linear)


def test_an_empty_season_has_an_empty_table():
    assert season_standings([], formula=linear) == []


# ---- the registry's formulas and the selector over the database -------------------------------

from scoring import points  # noqa: E402
from scoring.season_selectors import formula_for, season_table  # noqa: E402
from tests.scoring.season_helpers import finished_event, make_season  # noqa: E402


def test_r6_1_winner_of_n_gets_n_and_last_gets_one():
    assert [points.linear(place=p, entrants=4) for p in (1, 2, 3, 4)] == [4, 3, 2, 1]


def test_r6_2_times_ten_gives_the_first_of_four_forty():
    assert [points.linear_x10(place=p, entrants=4) for p in (1, 2, 3, 4)] == [40, 30, 20, 10]


def test_the_third_formula_rewards_the_field_and_the_top():
    assert points.square_root(place=1, entrants=4) == 20  # 10 * sqrt(4)
    assert points.square_root(place=4, entrants=4) == 10
    assert points.square_root(place=1, entrants=16) == 40


def test_the_registry_names_three_formulas_and_defaults_to_r6_1():
    assert set(points.FORMULAS) == {"linear", "linear_x10", "square_root"}
    assert points.DEFAULT_FORMULA == "linear"
    assert formula_for("linear_x10")(1, 4) == 40


@pytest.mark.django_db
def test_standings_recompute_when_a_place_is_corrected():
    season = make_season()
    event = finished_event(season=season, names=["Anna", "Bert", "Cleo"])
    assert season_table(season).standings[0].player_name == "Anna"
    # The floor corrects the result: Bert won, Anna came second.
    anna, bert = event.entries.get(player__name="Anna"), event.entries.get(player__name="Bert")
    anna.place, bert.place = 2, 1
    anna.save()
    bert.save()
    table = season_table(season)
    assert [(s.player_name, s.points) for s in table.standings[:2]] == [("Bert", 3), ("Anna", 2)]


@pytest.mark.django_db
def test_what_if_shows_another_formula_and_leaves_the_season_alone():
    season = make_season(formula="linear")
    finished_event(season=season, names=["Anna", "Bert", "Cleo", "Dora"])
    what_if = season_table(season, formula="linear_x10")
    assert what_if.is_what_if and what_if.standings[0].points == 40
    season.refresh_from_db()
    assert season.formula == "linear"
    assert season_table(season).standings[0].points == 4


@pytest.mark.django_db
def test_events_of_other_seasons_do_not_count():
    season, other = make_season(), make_season(name="Summer")
    finished_event(season=season, names=["Anna", "Bert"])
    finished_event(season=other, names=["Bert", "Anna"])
    finished_event(season=None, names=["Bert", "Anna"])
    assert [(s.player_name, s.points) for s in season_table(season).standings] == [
        ("Anna", 2), ("Bert", 1),
    ]  # fmt: skip
