import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import points


def test_r6_1_winner_gets_n_points_last_gets_one():
    assert [points.linear(place=p, entrants=7) for p in range(1, 8)] == [7, 6, 5, 4, 3, 2, 1]


def test_r6_2_ten_times_display_first_of_four_gets_40():
    assert points.linear_x10(place=1, entrants=4) == 40
    assert points.linear_x10(place=4, entrants=4) == 10


def test_r6_3_square_root_formula_worked_examples():
    # 10 * sqrt(N / p), rounded to a whole point
    assert points.square_root(place=1, entrants=25) == 50
    assert points.square_root(place=4, entrants=25) == 25
    assert points.square_root(place=3, entrants=10) == 18  # 10 * sqrt(3.33) = 18.26
    assert points.square_root(place=10, entrants=10) == 10


def test_places_outside_the_field_are_refused():
    for formula in points.FORMULAS.values():
        with pytest.raises(ValueError, match="place 0 is not within a field of 5"):
            formula.points(place=0, entrants=5)
        with pytest.raises(ValueError, match="place 6 is not within a field of 5"):
            formula.points(place=6, entrants=5)


def test_r6_3_registry_keys_labels_and_default():
    assert points.DEFAULT_FORMULA == "linear"
    assert set(points.FORMULAS) >= {"linear", "linear_x10", "square_root"}
    for key, formula in points.FORMULAS.items():
        assert formula.key == key
        assert str(formula.label)
        assert isinstance(formula.points(place=1, entrants=3), int)


@given(entrants=st.integers(1, 500))
def test_property_every_formula_rewards_a_better_place(entrants):
    for formula in points.FORMULAS.values():
        scores = [formula.points(place=p, entrants=entrants) for p in range(1, entrants + 1)]
        assert scores == sorted(scores, reverse=True)
        assert scores[-1] >= 1
    linear = [points.linear(place=p, entrants=entrants) for p in range(1, entrants + 1)]
    assert sorted(linear) == list(range(1, entrants + 1))


def test_a_new_season_starts_with_the_default_formula_of_the_registry():
    """tournaments.Season sits below scoring: its default is a key of scoring's registry."""
    from tournaments.models import Season

    default = Season._meta.get_field("formula").default
    assert default == points.DEFAULT_FORMULA and default in points.FORMULAS
