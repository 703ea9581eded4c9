"""Blind structure validation, the R5.2-R5.4 presets, R2.4 limit blinds, the shape and JSON."""

from __future__ import annotations

import json

import pytest

from tournaments import presets
from tournaments.structure_services import export_structure, import_structure, structure_problems
from tournaments.structure_shape import structure_shape
from tournaments.structures import (
    BREAK,
    FORMAT,
    LevelSpec,
    StructureImportError,
    StructureSpec,
    chips_at_start,
    limit_small_blind,
    parse_structure_json,
    structure_to_dict,
    validate_levels,
)

CHIPS = [value for value, _colour, _hex in presets.DEFAULT_CHIPS]  # R5.12: 1 ... 5,000


def play(small, big, ante=0, minutes=12, chip_up=None):
    return LevelSpec(small_blind=small, big_blind=big, ante=ante, minutes=minutes, chip_up=chip_up)


def pause(minutes=10, chip_up=None):
    return LevelSpec(kind=BREAK, minutes=minutes, chip_up=chip_up)


def problems_of(levels, **kwargs):
    kwargs.setdefault("chips", CHIPS)
    kwargs.setdefault("smallest_chip", 25)
    return [str(p) for p in validate_levels(levels, **kwargs)]


def preset_specs(preset):
    return [
        play(level.small_blind, level.big_blind, level.ante, preset.minutes, level.chip_up_after)
        for level in preset.levels
    ]


# --- each rule ---------------------------------------------------------------------------------


def test_a_good_structure_has_no_problems():
    levels = [play(25, 50), play(50, 100, chip_up=25), pause(), play(100, 200, 100)]
    assert problems_of(levels, starting_stack=3_000) == []


def test_blinds_must_be_positive():
    assert "Level 2: the small and the big blind must be at least one chip." in problems_of(
        [play(25, 50), play(0, 100)]
    )
    assert "Level 1: the small and the big blind must be at least one chip." in problems_of(
        [play(0, 0)]
    )


def test_small_blind_not_above_big_blind():
    assert problems_of([play(100, 50)]) == [
        "Level 1: the small blind cannot be above the big blind."
    ]


def test_a_level_lasts_at_least_a_minute():
    assert problems_of([play(25, 50, minutes=0)]) == ["Level 1: a level lasts at least one minute."]


@pytest.mark.parametrize(
    ("second", "name"),
    [((25, 100, 0), "small blind"), ((50, 75, 0), "big blind"), ((50, 100, 0), "ante")],
)
def test_levels_never_go_down(second, name):
    levels = [play(50, 100, 25), play(*second)]
    messages = problems_of(levels)
    assert any(m.startswith("Level 2: the " + name + " goes down") for m in messages), messages


def test_going_down_is_checked_across_a_break():
    messages = problems_of([play(100, 200), pause(), play(50, 100)])
    assert "Level 3: the small blind goes down (100 → 50)." in messages
    assert "Level 3: the big blind goes down (200 → 100)." in messages


def test_equal_levels_are_fine():
    assert problems_of([play(25, 50), play(25, 50)]) == []


def test_amounts_are_made_of_the_chips_in_play():
    assert problems_of([play(10, 20)]) == [
        "Level 1: blinds and ante must be multiples of 25, the smallest chip in play."
    ]
    # Without a smallest chip the set's smallest (1) is in play: anything goes.
    assert problems_of([play(10, 20)], smallest_chip=None) == []


def test_after_a_chip_up_the_next_chip_is_the_smallest():
    levels = [play(25, 50, chip_up=25), play(75, 150)]
    assert problems_of(levels) == [
        "Level 2: blinds and ante must be multiples of 100, the smallest chip in play."
    ]
    assert problems_of([play(25, 50, chip_up=25), play(100, 200)]) == []


def test_a_chip_up_takes_out_the_smallest_chip_in_play():
    assert problems_of([play(100, 200, chip_up=100), play(100, 200)]) == [
        "Level 1: the chip-up must take out 25, the smallest chip in play."
    ]
    # A chip that already left play cannot leave again.
    levels = [play(25, 50, chip_up=25), play(100, 200, chip_up=25)]
    assert problems_of(levels) == [
        "Level 2: the chip-up must take out 100, the smallest chip in play."
    ]


def test_the_last_chip_cannot_be_chipped_up():
    assert problems_of([play(5_000, 10_000, chip_up=5_000)], smallest_chip=5_000) == [
        "Level 1: the chip-up would take out the last chip in play."
    ]


def test_a_chip_up_after_a_break_is_fine():
    assert problems_of([play(25, 50), pause(chip_up=25), play(100, 200)]) == []


def test_a_break_has_no_blinds():
    levels = [play(25, 50), LevelSpec(kind=BREAK, small_blind=25, big_blind=50, minutes=10)]
    assert problems_of(levels) == ["Level 2: a break has no blinds and no ante."]


def test_at_least_one_playing_level():
    assert problems_of([]) == ["A structure needs at least one level."]
    assert problems_of([pause()]) == ["A structure needs at least one level."]


def test_the_starting_stack_is_made_of_the_chips_in_play():
    assert problems_of([play(25, 50)], starting_stack=3_010) == [
        "The starting stack must be a positive multiple of 25."
    ]


def test_every_problem_is_reported_in_level_order():
    levels = [play(100, 50), play(10, 20), pause(), LevelSpec(kind=BREAK, ante=5, minutes=5)]
    numbers = [p.level for p in validate_levels(levels, chips=CHIPS, smallest_chip=25)]
    assert numbers == sorted(numbers)
    assert {1, 2, 4} <= set(numbers)


def test_chips_in_play_at_the_start():
    assert chips_at_start(CHIPS, 25) == [25, 100, 500, 1_000, 5_000]
    assert chips_at_start(CHIPS, None) == CHIPS


# --- R2.4 limit --------------------------------------------------------------------------------


def test_limit_small_blind_is_half_the_small_bet_rounded_down():
    assert limit_small_blind(10) == 5
    assert limit_small_blind(5) == 2  # R2.4: $5/$10 -> small blind $2
    assert limit_small_blind(150, 25) == 75
    assert limit_small_blind(75, 25) == 25  # 37.5 rounded down to a whole green chip


def test_limit_structures_enforce_the_small_blind():
    ok = [play(2, 5), play(5, 10)]
    assert problems_of(ok, smallest_chip=None, game="limit") == []
    wrong = [play(3, 5)]
    assert problems_of(wrong, smallest_chip=None, game="limit") == [
        "Level 1: in limit the small blind is half the big blind, rounded down: 2."
    ]
    # No-limit does not care.
    assert problems_of(wrong, smallest_chip=None) == []


# --- the presets (R5.2, R5.3, R5.4) ------------------------------------------------------------


def test_presets_validate_clean():
    for preset in presets.PRESETS:
        levels = preset_specs(preset)
        assert problems_of(levels, starting_stack=preset.starting_stack) == [], preset.name


def test_sit_and_go_preset_matches_r5_2():
    preset = presets.PRESETS[0]
    assert (preset.starting_stack, preset.minutes) == (3_000, 12)
    blinds = [(lv.small_blind, lv.big_blind) for lv in preset.levels]
    assert blinds == [
        (25, 50), (50, 100), (75, 150), (100, 200), (200, 400), (400, 800), (600, 1_200),
        (1_000, 2_000), (1_500, 3_000), (2_000, 4_000),
    ]  # fmt: skip
    chip_ups = {n: lv.chip_up_after for n, lv in enumerate(preset.levels, 1) if lv.chip_up_after}
    assert chip_ups == {3: 25, 7: 100}
    assert all(lv.ante == 0 for lv in preset.levels)


def test_final_round_preset_matches_r5_3():
    final = presets.PRESETS[1]
    assert final.minutes == 10
    assert final.levels == presets.PRESETS[0].levels
    assert final.starting_stack == 3_000


def test_deepstack_preset_matches_r5_4():
    preset = presets.PRESETS[2]
    assert (preset.starting_stack, preset.minutes, len(preset.levels)) == (10_000, 20, 16)
    rows = [(lv.small_blind, lv.big_blind, lv.ante) for lv in preset.levels]
    assert rows == [
        (25, 50, 0), (50, 100, 0), (75, 150, 0), (100, 200, 0), (200, 400, 0), (300, 600, 0),
        (400, 800, 0), (500, 1_000, 100), (700, 1_400, 100), (1_000, 2_000, 200),
        (1_500, 3_000, 300), (2_000, 4_000, 400), (2_500, 5_000, 500), (3_000, 6_000, 500),
        (4_000, 8_000, 500), (5_000, 10_000, 1_000),
    ]  # fmt: skip
    chip_ups = {n: lv.chip_up_after for n, lv in enumerate(preset.levels, 1) if lv.chip_up_after}
    assert chip_ups == {3: 25, 12: 100}


@pytest.mark.django_db
def test_loaded_presets_validate_clean():
    for structure in presets.load_presets():
        assert structure_problems(structure) == [], structure.name


# --- the shape ---------------------------------------------------------------------------------


def test_shape_average_falls_and_hours_are_computed():
    levels = preset_specs(presets.PRESETS[0])
    shape = structure_shape(levels, players=10, starting_stack=3_000)
    averages = [row.average_big_blinds for row in shape.rows]
    assert averages[0] == 60
    assert all(a >= b for a, b in zip(averages, averages[1:], strict=False))
    assert averages[-1] < averages[0]
    # Total chips 30,000 are worth 20 big blinds at 1,500: level 8 (1,000/2,000), half way.
    assert shape.end_level == 8
    assert shape.hours == pytest.approx((7 * 12 + 6) / 60)
    assert shape.ends_within_structure
    players = [row.players_left for row in shape.rows]
    assert players[0] == 10 and players[shape.end_level - 1] == 1
    assert all(a >= b for a, b in zip(players, players[1:], strict=False))


def test_a_bigger_field_plays_longer():
    levels = preset_specs(presets.PRESETS[2])
    small = structure_shape(levels, players=10, starting_stack=10_000)
    big = structure_shape(levels, players=30, starting_stack=10_000)
    assert big.hours > small.hours


def test_a_field_too_big_for_the_structure_runs_past_its_end():
    levels = preset_specs(presets.PRESETS[0])
    shape = structure_shape(levels, players=200, starting_stack=3_000)
    assert not shape.ends_within_structure
    assert shape.hours == pytest.approx(10 * 12 / 60)


def test_breaks_count_in_the_time_and_have_no_average():
    shape = structure_shape(
        [play(25, 50, minutes=20), pause(15), play(50, 100, minutes=20)],
        players=2,
        starting_stack=1_000,
    )
    assert [row.starts_after_minutes for row in shape.rows] == [0, 20, 35]
    assert shape.rows[1].average_big_blinds is None
    assert shape.end_level == 3 and shape.hours == pytest.approx(45 / 60)


# --- JSON --------------------------------------------------------------------------------------


def spec():
    return StructureSpec(
        name="Round trip",
        description="With a break",
        game="no_limit",
        starting_stack=5_000,
        chip_set=presets.DEFAULT_CHIP_SET,
        smallest_chip=25,
        levels=(play(25, 50, minutes=15), pause(10, chip_up=25), play(100, 200, 25, 15)),
    )


def test_json_round_trip_pure():
    document = json.dumps(structure_to_dict(spec()))
    assert json.loads(document)["format"] == FORMAT
    assert json.loads(document)["version"] == 1
    assert parse_structure_json(document) == spec()


@pytest.mark.django_db
def test_export_import_round_trip():
    deepstack = presets.load_presets()[2]
    exported = export_structure(deepstack)
    copy = import_structure(actor=None, text=json.dumps(exported))
    assert copy.pk != deepstack.pk
    assert copy.name == "Deepstack (R5.4) (2)"
    assert not copy.is_preset
    again = export_structure(copy)
    assert again | {"name": exported["name"]} == exported


def test_import_reports_every_shape_problem():
    document = {
        "format": FORMAT,
        "version": 2,
        "name": "",
        "starting_stack": "lots",
        "chip_set": presets.DEFAULT_CHIP_SET,
        "levels": [
            {"kind": "play", "small_blind": 25, "big_blind": 50, "minutes": 10},
            {"kind": "nap", "small_blind": 2.5, "big_blind": 50, "minutes": 10},
        ],
    }
    with pytest.raises(StructureImportError) as caught:
        parse_structure_json(json.dumps(document))
    messages = [str(p) for p in caught.value.problems]
    assert any("version" in m for m in messages)
    assert "“name” must be a non-empty text." in messages
    assert "“starting_stack” must be a whole number." in messages
    assert "Level 2: kind must be “play” or “break”." in messages
    assert "Level 2: small_blind must be a whole number." in messages


def test_import_refuses_what_is_not_json():
    with pytest.raises(StructureImportError) as caught:
        parse_structure_json("{levels: ")
    assert str(caught.value.problems[0]).startswith("Not JSON")


@pytest.mark.django_db
def test_import_validates_the_levels_with_their_numbers():
    presets.default_chip_set()
    document = structure_to_dict(spec()) | {
        "levels": [
            {"kind": "play", "small_blind": 50, "big_blind": 100, "ante": 0, "minutes": 10},
            {"kind": "play", "small_blind": 25, "big_blind": 50, "ante": 0, "minutes": 10},
            {"kind": "break", "minutes": 10, "chip_up": 100},
        ]
    }
    with pytest.raises(StructureImportError) as caught:
        import_structure(actor=None, text=json.dumps(document))
    messages = [str(p) for p in caught.value.problems]
    assert "Level 2: the small blind goes down (50 → 25)." in messages
    assert "Level 3: the chip-up must take out 25, the smallest chip in play." in messages


@pytest.mark.django_db
def test_import_needs_a_known_chip_set():
    document = structure_to_dict(spec()) | {"chip_set": "Casino chips"}
    with pytest.raises(StructureImportError) as caught:
        import_structure(actor=None, text=json.dumps(document))
    assert "There is no chip set named “Casino chips”." in str(caught.value)
