"""Writes to blind structures and their levels: every one validated whole, audited, atomic."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments import structures
from tournaments.models import BlindStructure, ChipSet, Denomination, Game, Level
from tournaments.services import record_audit
from tournaments.structures import LevelSpec, StructureProblem, StructureSpec


class StructureEditError(ValueError):
    """A write that is refused; `problems` says why, with level numbers where they apply."""

    def __init__(self, problems: Sequence[StructureProblem | str]) -> None:
        self.problems = [
            p if isinstance(p, StructureProblem) else StructureProblem(message=p) for p in problems
        ]
        super().__init__("; ".join(str(p) for p in self.problems))


def structure_spec(structure: BlindStructure) -> StructureSpec:
    """A structure as plain data (what the JSON export holds)."""
    return StructureSpec(
        name=structure.name,
        description=structure.description,
        game=structure.game,
        starting_stack=structure.starting_stack,
        chip_set=structure.chip_set.name,
        smallest_chip=structure.smallest_chip.value if structure.smallest_chip else None,
        levels=tuple(structure.level_specs()),
    )


def structure_problems(
    structure: BlindStructure, levels: Sequence[LevelSpec] | None = None
) -> list[StructureProblem]:
    """What validate_levels finds in a structure (or in a proposed list of its levels)."""
    return structures.validate_levels(
        structure.level_specs() if levels is None else levels,
        chips=structure.chip_values(),
        smallest_chip=structure.smallest_chip.value if structure.smallest_chip else None,
        game=structure.game,
        starting_stack=structure.starting_stack,
    )


def _locked(structure: BlindStructure) -> BlindStructure:
    """The structure row, locked for this transaction; presets are read-only."""
    locked = BlindStructure.objects.select_for_update().get(pk=structure.pk)
    if locked.is_preset:
        raise StructureEditError(
            [_("Presets are read-only: duplicate the structure to change it.")]
        )
    return locked


def _ensure_playable(structure: BlindStructure, levels: Sequence[LevelSpec]) -> None:
    """Refuse a change that leaves problems; an empty structure is a draft and may be saved."""
    if not levels:
        return
    problems = structure_problems(structure, levels)
    if problems:
        raise StructureEditError(problems)


def _with_limit_small_blind(
    structure: BlindStructure, levels: list[LevelSpec], index: int
) -> list[LevelSpec]:
    """R2.4: in limit, a small blind left at 0 is filled in as half the big blind."""
    level = levels[index]
    if structure.game != Game.LIMIT or level.is_break or level.small_blind or not level.big_blind:
        return levels
    chips = structures.chips_at_start(
        structure.chip_values(), structure.smallest_chip.value if structure.smallest_chip else None
    )
    unit = structures.smallest_chip_at(levels, index, chips=chips)
    small = structures.limit_small_blind(level.big_blind, unit)
    return [*levels[:index], dataclasses.replace(level, small_blind=small), *levels[index + 1 :]]


def _chip(structure: BlindStructure, value: int | None) -> Denomination | None:
    if value is None:
        return None
    return Denomination.objects.get(chip_set_id=structure.chip_set_id, value=value)


def _apply_spec(level: Level, structure: BlindStructure, spec: LevelSpec) -> None:
    level.kind = spec.kind
    level.small_blind, level.big_blind, level.ante = spec.small_blind, spec.big_blind, spec.ante
    level.minutes = spec.minutes
    level.chip_up = _chip(structure, spec.chip_up)


def _renumber(structure: BlindStructure, ordered: Sequence[Level]) -> None:
    """Positions 1..n in this order, in two passes so the unique position never clashes."""
    top = structure.levels.aggregate(top=Max("position"))["top"] or 0
    offset = max(top, len(ordered)) + 1
    saved = [level for level in ordered if level.pk is not None]
    # First pass: every existing level above all old and new positions.
    for index, level in enumerate(saved, start=1):
        level.position = offset + index
    Level.objects.bulk_update(saved, ["position"])
    for index, level in enumerate(ordered, start=1):
        level.position = index
    Level.objects.bulk_update(saved, ["position"])
    for level in ordered:
        if level.pk is None:
            level.save()


def _values(spec: LevelSpec) -> dict[str, Any]:
    return dataclasses.asdict(spec)


@transaction.atomic
def create_structure(
    *,
    actor: User | None,
    name: str,
    chip_set: ChipSet,
    starting_stack: int,
    game: str = Game.NO_LIMIT,
    smallest_chip: Denomination | None = None,
    description: str = "",
) -> BlindStructure:
    """Create an empty structure (a draft until it has a level)."""
    if BlindStructure.objects.filter(name=name).exists():
        raise StructureEditError([_("A structure with this name exists.")])
    structure = BlindStructure.objects.create(
        name=name,
        chip_set=chip_set,
        starting_stack=starting_stack,
        game=game,
        smallest_chip=smallest_chip,
        description=description,
    )
    record_audit(actor=actor, action="structure.created", structure=structure.pk, name=name)
    return structure


@transaction.atomic
def duplicate_structure(
    *, actor: User | None, structure: BlindStructure, name: str
) -> BlindStructure:
    """Copy a structure and its levels under a new name; the copy is never a preset."""
    if BlindStructure.objects.filter(name=name).exists():
        raise StructureEditError([_("A structure with this name exists.")])
    levels = list(structure.levels.order_by("position"))
    copy = BlindStructure.objects.get(pk=structure.pk)
    copy.pk = None
    copy.name, copy.is_preset = name, False
    copy.save()
    for level in levels:
        level.pk, level.structure = None, copy
    Level.objects.bulk_create(levels)
    record_audit(
        actor=actor,
        action="structure.duplicated",
        structure=copy.pk,
        source=structure.pk,
        name=name,
    )
    return copy


@transaction.atomic
def insert_level(
    *, actor: User | None, structure: BlindStructure, values: LevelSpec, position: int | None = None
) -> Level:
    """Insert a level at a 1-based position (None: at the end), moving the later ones down."""
    structure = _locked(structure)
    existing = list(structure.levels.select_related("chip_up").order_by("position"))
    index = len(existing) if position is None else position - 1
    if not 0 <= index <= len(existing):
        raise StructureEditError([_("There is no position %(n)s.") % {"n": position}])
    specs = [level.spec() for level in existing]
    specs.insert(index, values)
    specs = _with_limit_small_blind(structure, specs, index)
    _ensure_playable(structure, specs)
    level = Level(structure=structure, position=index + 1)
    _apply_spec(level, structure, specs[index])
    _renumber(structure, [*existing[:index], level, *existing[index:]])
    record_audit(
        actor=actor,
        action="structure.level_added",
        structure=structure.pk,
        position=index + 1,
        **_values(specs[index]),
    )
    return level


@transaction.atomic
def update_level(*, actor: User | None, level: Level, values: LevelSpec) -> Level:
    """Change one level's blinds, ante, minutes, kind or chip-up."""
    structure = _locked(level.structure)
    existing = list(structure.levels.select_related("chip_up").order_by("position"))
    index = next(i for i, row in enumerate(existing) if row.pk == level.pk)
    specs = [row.spec() for row in existing]
    before = specs[index]
    specs[index] = values
    specs = _with_limit_small_blind(structure, specs, index)
    _ensure_playable(structure, specs)
    level = existing[index]
    _apply_spec(level, structure, specs[index])
    level.save()
    record_audit(
        actor=actor,
        action="structure.level_changed",
        structure=structure.pk,
        position=index + 1,
        before=_values(before),
        after=_values(specs[index]),
    )
    return level


@transaction.atomic
def delete_level(*, actor: User | None, level: Level) -> None:
    """Delete a level; the later ones move up."""
    structure = _locked(level.structure)
    existing = list(structure.levels.select_related("chip_up").order_by("position"))
    index = next(i for i, row in enumerate(existing) if row.pk == level.pk)
    remaining = existing[:index] + existing[index + 1 :]
    _ensure_playable(structure, [row.spec() for row in remaining])
    removed = existing[index].spec()
    existing[index].delete()
    _renumber(structure, remaining)
    record_audit(
        actor=actor,
        action="structure.level_deleted",
        structure=structure.pk,
        position=index + 1,
        **_values(removed),
    )


@transaction.atomic
def move_level(*, actor: User | None, level: Level, offset: int) -> None:
    """Move a level up (offset -1) or down (+1), if the structure stays playable."""
    structure = _locked(level.structure)
    existing = list(structure.levels.select_related("chip_up").order_by("position"))
    index = next(i for i, row in enumerate(existing) if row.pk == level.pk)
    target = index + offset
    if offset not in (-1, 1) or not 0 <= target < len(existing):
        raise StructureEditError([_("This level cannot move further.")])
    existing[index], existing[target] = existing[target], existing[index]
    _ensure_playable(structure, [row.spec() for row in existing])
    _renumber(structure, existing)
    record_audit(
        actor=actor,
        action="structure.level_moved",
        structure=structure.pk,
        from_position=index + 1,
        to_position=target + 1,
    )


def export_structure(structure: BlindStructure) -> dict[str, Any]:
    """The JSON document of a structure (format: tournaments.structures)."""
    return structures.structure_to_dict(structure_spec(structure))


def _free_name(name: str) -> str:
    candidate, number = name, 1
    while BlindStructure.objects.filter(name=candidate).exists():
        number += 1
        candidate = f"{name} ({number})"
    return candidate


@transaction.atomic
def import_structure(*, actor: User | None, text: str | bytes) -> BlindStructure:
    """Create a structure from a JSON document, or refuse it with every problem found."""
    spec = structures.parse_structure_json(text)
    chip_set = ChipSet.objects.filter(name=spec.chip_set).first()
    if chip_set is None:
        message = _("There is no chip set named “%(name)s”.") % {"name": spec.chip_set}
        raise structures.StructureImportError([StructureProblem(message=message)])
    chips = list(chip_set.denominations.values_list("value", flat=True))
    problems = structures.validate_levels(
        spec.levels,
        chips=chips,
        smallest_chip=spec.smallest_chip,
        game=spec.game,
        starting_stack=spec.starting_stack,
    )
    if problems:
        raise structures.StructureImportError(problems)
    structure = BlindStructure.objects.create(
        name=_free_name(spec.name[:110]),
        description=spec.description,
        game=spec.game,
        starting_stack=spec.starting_stack,
        chip_set=chip_set,
        smallest_chip=(
            chip_set.denominations.filter(value=spec.smallest_chip).first()
            if spec.smallest_chip is not None
            else None
        ),
    )
    by_value = {d.value: d for d in chip_set.denominations.all()}
    Level.objects.bulk_create(
        Level(
            structure=structure,
            position=number,
            kind=level.kind,
            small_blind=level.small_blind,
            big_blind=level.big_blind,
            ante=level.ante,
            minutes=level.minutes,
            chip_up=by_value[level.chip_up] if level.chip_up is not None else None,
        )
        for number, level in enumerate(spec.levels, start=1)
    )
    record_audit(
        actor=actor,
        action="structure.imported",
        structure=structure.pk,
        name=structure.name,
        levels=len(spec.levels),
    )
    return structure
