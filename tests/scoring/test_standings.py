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
