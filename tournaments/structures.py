"""Blind structures as plain data: validation (R2.4, R5.11) and the JSON format.

Nothing here touches the database: the admin, Floorman's editor and the importer turn their rows
or input into `LevelSpec`s and ask the same functions. The shape: tournaments.structure_shape.

JSON format (``FORMAT``, version 1)::

    {
      "format": "floorman.blind_structure",
      "version": 1,
      "name": "Deepstack (R5.4)",
      "description": "",
      "game": "no_limit",              # no_limit | pot_limit | limit
      "starting_stack": 10000,
      "chip_set": "Standard (R5.12)",  # the name of a chip set that exists
      "smallest_chip": 25,             # a value of that set, or null for its smallest
      "levels": [                      # in order; level numbers are 1-based
        {"kind": "play", "small_blind": 25, "big_blind": 50, "ante": 0, "minutes": 20,
         "chip_up": null},             # the chip value that leaves play after this level
        {"kind": "break", "minutes": 10, "chip_up": 25}
      ]
    }
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from tournaments.bounds import MAX_CHIPS, MAX_JSON_BYTES, MAX_LEVELS, MAX_MINUTES

FORMAT = "floorman.blind_structure"
VERSION = 1
PLAY = "play"
BREAK = "break"
LIMIT = "limit"
GAMES = ("no_limit", "pot_limit", "limit")


@dataclass(frozen=True, kw_only=True, slots=True)
class LevelSpec:
    """One level as plain numbers; `chip_up` is the chip value that leaves play after it."""

    kind: str = PLAY
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    minutes: int = 0
    chip_up: int | None = None

    @property
    def is_break(self) -> bool:
        return self.kind == BREAK


@dataclass(frozen=True, kw_only=True, slots=True)
class StructureProblem:
    """What is wrong, and at which level (1-based; None for the structure as a whole)."""

    message: str
    level: int | None = None

    def __str__(self) -> str:
        if self.level is None:
            return self.message
        return _("Level %(number)d: %(problem)s") % {"number": self.level, "problem": self.message}


@dataclass(frozen=True, kw_only=True, slots=True)
class StructureSpec:
    """A whole structure as plain data: what the JSON format holds."""

    name: str
    description: str = ""
    game: str = "no_limit"
    starting_stack: int
    chip_set: str
    smallest_chip: int | None = None
    levels: tuple[LevelSpec, ...] = field(default_factory=tuple)


def limit_small_blind(big_blind: int, unit: int = 1) -> int:
    """R2.4: half the big blind (the small bet), rounded down to a whole unit ($5 → $2)."""
    return (big_blind // 2) // unit * unit


def too_many_levels() -> str:
    return _("A structure has at most %(most)s levels (breaks included).") % {"most": MAX_LEVELS}


def stack_too_big() -> str:
    return _("The starting stack is at most %(most)s chips.") % {"most": f"{MAX_CHIPS:,}"}


def check_level(level: LevelSpec) -> list[str]:
    """Problems of one level on its own (positive whole blinds, small not above big, a break)."""
    problems = []
    if level.minutes <= 0:
        problems.append(_("a level lasts at least one minute."))
    if level.minutes > MAX_MINUTES:
        problems.append(_("a level lasts at most %(most)s minutes.") % {"most": MAX_MINUTES})
    if min(level.small_blind, level.big_blind, level.ante) < 0:
        problems.append(_("blinds and ante cannot be negative."))
    if max(level.small_blind, level.big_blind, level.ante) > MAX_CHIPS:
        problems.append(
            _("blinds and ante are at most %(most)s chips.") % {"most": f"{MAX_CHIPS:,}"}
        )
    if level.is_break:
        if level.small_blind or level.big_blind or level.ante:
            problems.append(_("a break has no blinds and no ante."))
        return problems
    if level.kind != PLAY:
        problems.append(_("the kind must be “play” or “break”."))
    if level.small_blind <= 0 or level.big_blind <= 0:
        problems.append(_("the small and the big blind must be at least one chip."))
    if level.small_blind > level.big_blind:
        problems.append(_("the small blind cannot be above the big blind."))
    return problems


def chips_at_start(chips: Sequence[int], smallest_chip: int | None) -> list[int]:
    """The chip values in play at level 1: every chip of the set from the smallest in play up."""
    floor = smallest_chip if smallest_chip is not None else min(chips, default=0)
    return sorted(value for value in set(chips) if value >= floor)


def smallest_chip_at(levels: Sequence[LevelSpec], index: int, *, chips: Sequence[int]) -> int:
    """The smallest chip in play during level `index` (0-based), after the chip-ups before it."""
    in_play = sorted(chips)
    for level in levels[:index]:
        if level.chip_up is not None and len(in_play) > 1 and level.chip_up == in_play[0]:
            in_play.pop(0)
    return in_play[0] if in_play else 1


def validate_levels(
    levels: Sequence[LevelSpec],
    *,
    chips: Sequence[int],
    smallest_chip: int | None = None,
    game: str = "no_limit",
    starting_stack: int | None = None,
) -> list[StructureProblem]:
    """Every problem of a structure, in level order; an empty list means it can be played."""
    problems = [
        StructureProblem(message=message, level=number)
        for number, level in enumerate(levels, start=1)
        for message in check_level(level)
    ]
    if smallest_chip is not None and smallest_chip not in chips:
        problems.append(StructureProblem(message=_("The smallest chip is not in the chip set.")))
    in_play = chips_at_start(chips, smallest_chip)
    if not in_play:
        return [*problems, StructureProblem(message=_("The chip set has no chips."))]
    if len(levels) > MAX_LEVELS:
        problems.append(StructureProblem(message=too_many_levels()))
    if starting_stack is not None and starting_stack > MAX_CHIPS:
        problems.append(StructureProblem(message=stack_too_big()))
    elif starting_stack is not None and (starting_stack <= 0 or starting_stack % in_play[0]):
        problems.append(
            StructureProblem(
                message=_("The starting stack must be a positive multiple of %(chip)s.")
                % {"chip": in_play[0]}
            )
        )
    if not any(not level.is_break for level in levels):
        problems.append(StructureProblem(message=_("A structure needs at least one level.")))
    problems += _check_order(levels)
    problems += _check_chips(levels, in_play=in_play, game=game)
    return sorted(problems, key=lambda p: p.level or 0)


def _check_order(levels: Sequence[LevelSpec]) -> list[StructureProblem]:
    """Blinds and ante never go down from one playing level to the next (breaks skipped)."""
    problems = []
    previous: LevelSpec | None = None
    for number, level in enumerate(levels, start=1):
        if level.is_break:
            continue
        if previous is not None:
            names = {
                _("small blind"): (previous.small_blind, level.small_blind),
                _("big blind"): (previous.big_blind, level.big_blind),
                _("ante"): (previous.ante, level.ante),
            }
            for name, (before, now) in names.items():
                if now < before:
                    message = _("the %(name)s goes down (%(before)s → %(now)s).") % {
                        "name": name,
                        "before": before,
                        "now": now,
                    }
                    problems.append(StructureProblem(message=message, level=number))
        previous = level
    return problems


def _check_chips(
    levels: Sequence[LevelSpec], *, in_play: list[int], game: str
) -> list[StructureProblem]:
    """R5.11: amounts are made of the chips in play; a chip-up takes out the smallest one."""
    problems = []
    in_play = list(in_play)
    for number, level in enumerate(levels, start=1):
        unit = in_play[0]
        amounts = (level.small_blind, level.big_blind, level.ante)
        if any(amount % unit for amount in amounts if amount > 0):
            message = _("blinds and ante must be multiples of %(chip)s, the smallest chip in play.")
            problems.append(StructureProblem(message=message % {"chip": unit}, level=number))
        if game == LIMIT and not level.is_break and level.big_blind > 0:
            expected = limit_small_blind(level.big_blind, unit)
            if level.small_blind != expected:
                message = _("in limit the small blind is half the big blind, rounded down: %(sb)s.")
                problems.append(StructureProblem(message=message % {"sb": expected}, level=number))
        if level.chip_up is None:
            continue
        if level.chip_up != unit:
            message = _("the chip-up must take out %(chip)s, the smallest chip in play.")
            problems.append(StructureProblem(message=message % {"chip": unit}, level=number))
        elif len(in_play) == 1:
            message = _("the chip-up would take out the last chip in play.")
            problems.append(StructureProblem(message=message, level=number))
        else:
            in_play.pop(0)
    return problems


# --- JSON -------------------------------------------------------------------------------------


def structure_to_dict(spec: StructureSpec) -> dict[str, Any]:
    """The JSON document of a structure (see the module docstring)."""
    levels: list[dict[str, Any]] = []
    for level in spec.levels:
        row: dict[str, Any] = {"kind": level.kind}
        if not level.is_break:
            row |= {"small_blind": level.small_blind, "big_blind": level.big_blind}
            row["ante"] = level.ante
        row |= {"minutes": level.minutes, "chip_up": level.chip_up}
        levels.append(row)
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": spec.name,
        "description": spec.description,
        "game": spec.game,
        "starting_stack": spec.starting_stack,
        "chip_set": spec.chip_set,
        "smallest_chip": spec.smallest_chip,
        "levels": levels,
    }


class StructureImportError(ValueError):
    """A document that cannot be imported; `problems` lists every reason."""

    def __init__(self, problems: Sequence[StructureProblem]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = list(problems)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_level(number: int, raw: object) -> tuple[LevelSpec | None, list[StructureProblem]]:
    if not isinstance(raw, dict):
        return None, [StructureProblem(message=_("a level must be an object."), level=number)]
    problems = []
    values: dict[str, Any] = {}
    kind = raw.get("kind", PLAY)
    if kind not in (PLAY, BREAK):
        problems.append(
            StructureProblem(message=_("kind must be “play” or “break”."), level=number)
        )
    for key in ("small_blind", "big_blind", "ante", "minutes"):
        value = raw.get(key, 0)
        if not _whole(value):
            message = _("%(field)s must be a whole number.") % {"field": key}
            problems.append(StructureProblem(message=message, level=number))
            value = 0
        values[key] = value
    chip_up = raw.get("chip_up")
    if chip_up is not None and not _whole(chip_up):
        problems.append(
            StructureProblem(message=_("chip_up must be a chip value or null."), level=number)
        )
        chip_up = None
    return LevelSpec(kind=str(kind), chip_up=chip_up, **values), problems


def parse_structure_json(text: str | bytes) -> StructureSpec:
    """Read a JSON document; raises StructureImportError with every problem of its shape."""
    if len(text) > MAX_JSON_BYTES:
        raise StructureImportError(
            [StructureProblem(message=_("The file is too big (1 MB at most)."))]
        )
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise StructureImportError([StructureProblem(message=_("Not JSON: %s") % error)]) from error
    except RecursionError as error:  # "[[[[..." 100,000 deep: Python's parser gives up
        message = _("Not JSON that Floorman reads: it is nested too deep.")
        raise StructureImportError([StructureProblem(message=message)]) from error
    if not isinstance(data, dict):
        raise StructureImportError([StructureProblem(message=_("The document must be an object."))])
    problems = []

    def problem(message: str) -> None:
        problems.append(StructureProblem(message=message))

    if data.get("format") != FORMAT:
        problem(_("“format” must be “%(format)s”.") % {"format": FORMAT})
    if data.get("version") != VERSION:
        problem(_("Unknown version %(version)r; this Floorman reads version %(ours)d.")
                % {"version": data.get("version"), "ours": VERSION})  # fmt: skip
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        problem(_("“name” must be a non-empty text."))
    if data.get("game", "no_limit") not in GAMES:
        problem(_("“game” must be one of %(games)s.") % {"games": ", ".join(GAMES)})
    if not _whole(data.get("starting_stack")):
        problem(_("“starting_stack” must be a whole number."))
    if not isinstance(data.get("chip_set"), str):
        problem(_("“chip_set” must name a chip set."))
    smallest = data.get("smallest_chip")
    if smallest is not None and not _whole(smallest):
        problem(_("“smallest_chip” must be a chip value or null."))
    raw_levels = data.get("levels")
    levels: list[LevelSpec] = []
    if not isinstance(raw_levels, list):
        problem(_("“levels” must be a list."))
    elif len(raw_levels) > MAX_LEVELS:
        problem(too_many_levels())
    else:
        for number, raw in enumerate(raw_levels, start=1):
            level, level_problems = _parse_level(number, raw)
            problems += level_problems
            if level is not None:
                levels.append(level)
    if problems:
        raise StructureImportError(problems)
    return StructureSpec(
        name=str(name).strip(),
        description=str(data.get("description") or ""),
        game=str(data.get("game", "no_limit")),
        starting_stack=int(data["starting_stack"]),
        chip_set=str(data["chip_set"]),
        smallest_chip=smallest,
        levels=tuple(levels),
    )
