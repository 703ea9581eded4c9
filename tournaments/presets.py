"""The preset chip set (R5.12) and blind structures (R5.2, R5.3, R5.4), loaded idempotently."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext_noop

from tournaments.models import BlindStructure, ChipSet, Denomination, Game, Level, LevelKind

DEFAULT_CHIP_SET = "Standard (R5.12)"

# R5.12: default chip colours.
DEFAULT_CHIPS: tuple[tuple[int, str, str], ...] = (
    (1, "white", "#f4f4f4"),
    (5, "red", "#c62828"),
    (10, "blue", "#1565c0"),
    (25, "green", "#2e7d32"),
    (100, "black", "#212121"),
    (500, "purple", "#6a1b9a"),
    (1_000, "yellow", "#f9a825"),
    (5_000, "grey", "#9e9e9e"),
)


@dataclass(frozen=True)
class PresetLevel:
    small_blind: int
    big_blind: int
    ante: int = 0
    chip_up_after: int | None = None  # the chip value that leaves play after this level


# R5.2: Sit&Go and satellites; R5.3 uses the same levels. The chip-ups stand between levels in
# the source ("chip-up of the 25s"); here each is attached to the level before it.
SIT_AND_GO_LEVELS = (
    PresetLevel(25, 50),
    PresetLevel(50, 100),
    PresetLevel(75, 150, chip_up_after=25),
    PresetLevel(100, 200),
    PresetLevel(200, 400),
    PresetLevel(400, 800),
    PresetLevel(600, 1_200, chip_up_after=100),
    PresetLevel(1_000, 2_000),
    PresetLevel(1_500, 3_000),
    PresetLevel(2_000, 4_000),
)

# R5.4: Deepstack.
DEEPSTACK_LEVELS = (
    PresetLevel(25, 50),
    PresetLevel(50, 100),
    PresetLevel(75, 150, chip_up_after=25),
    PresetLevel(100, 200),
    PresetLevel(200, 400),
    PresetLevel(300, 600),
    PresetLevel(400, 800),
    PresetLevel(500, 1_000, 100),
    PresetLevel(700, 1_400, 100),
    PresetLevel(1_000, 2_000, 200),
    PresetLevel(1_500, 3_000, 300),
    PresetLevel(2_000, 4_000, 400, chip_up_after=100),
    PresetLevel(2_500, 5_000, 500),
    PresetLevel(3_000, 6_000, 500),
    PresetLevel(4_000, 8_000, 500),
    PresetLevel(5_000, 10_000, 1_000),
)


@dataclass(frozen=True)
class PresetStructure:
    name: str
    description: str  # stored in English; shown translated (BlindStructure.description_text)
    starting_stack: int
    minutes: int
    levels: tuple[PresetLevel, ...]


PRESETS = (
    PresetStructure(
        "Sit&Go (R5.2)",
        gettext_noop("Sit&Go and satellites: 3,000 chips, a new level every 12 minutes."),
        3_000,
        12,
        SIT_AND_GO_LEVELS,
    ),
    PresetStructure(
        "Final round (R5.3)",
        gettext_noop(
            "The final round: the Sit&Go levels every 10 minutes; later levels set by the director."
        ),
        3_000,
        10,
        SIT_AND_GO_LEVELS,
    ),
    PresetStructure(
        "Deepstack (R5.4)",
        gettext_noop("Deepstack: 10,000 chips, 20-minute levels with antes from 500/1,000."),
        10_000,
        20,
        DEEPSTACK_LEVELS,
    ),
)


def default_chip_set() -> ChipSet:
    """The R5.12 chip set, created if missing."""
    chip_set, _ = ChipSet.objects.get_or_create(name=DEFAULT_CHIP_SET)
    for value, colour, colour_hex in DEFAULT_CHIPS:
        Denomination.objects.get_or_create(
            chip_set=chip_set, value=value, defaults={"colour": colour, "colour_hex": colour_hex}
        )
    return chip_set


@transaction.atomic
def load_presets() -> list[BlindStructure]:
    """Create the missing preset structures; existing ones stay as the admin left them."""
    chip_set = default_chip_set()
    chips = {d.value: d for d in chip_set.denominations.all()}
    loaded = []
    for preset in PRESETS:
        structure, created = BlindStructure.objects.get_or_create(
            name=preset.name,
            defaults={
                "description": preset.description,
                "game": Game.NO_LIMIT,
                "starting_stack": preset.starting_stack,
                "chip_set": chip_set,
                "smallest_chip": chips[25],
                "is_preset": True,
            },
        )
        if created:
            Level.objects.bulk_create(
                Level(
                    structure=structure,
                    position=position,
                    kind=LevelKind.PLAY,
                    small_blind=level.small_blind,
                    big_blind=level.big_blind,
                    ante=level.ante,
                    minutes=preset.minutes,
                    chip_up=chips[level.chip_up_after] if level.chip_up_after else None,
                )
                for position, level in enumerate(preset.levels, start=1)
            )
        loaded.append(structure)
    return loaded
