"""Small keyword-only factories that set only what a test depends on."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.contrib.auth.models import Group, User
from django.utils import timezone

from tournaments.models import BlindStructure, Event, EventKind, Level, LevelKind
from tournaments.presets import default_chip_set
from tournaments.selectors import ADMIN_GROUP, FLOOR_GROUP


def make_user(*, username: str = "someone", role: str = "player", password: str = "pw") -> User:
    """A user with a role: 'admin', 'floor', 'player' (no group)."""
    user = User.objects.create_user(username=username, password=password)
    if role == "admin":
        user.is_staff = user.is_superuser = True
        user.save()
        user.groups.add(Group.objects.get_or_create(name=ADMIN_GROUP)[0])
    elif role == "floor":
        user.groups.add(Group.objects.get_or_create(name=FLOOR_GROUP)[0])
    return user


def make_structure(
    *,
    name: str = "Test structure",
    levels: Sequence[tuple[int, int, int, int]] = ((25, 50, 0, 12), (50, 100, 0, 12)),
    breaks_after: Sequence[int] = (),
    starting_stack: int = 3_000,
) -> BlindStructure:
    """A structure from (small blind, big blind, ante, minutes) rows; breaks of 10 minutes."""
    chip_set = default_chip_set()
    structure = BlindStructure.objects.create(
        name=name, chip_set=chip_set, starting_stack=starting_stack
    )
    position = 1
    for index, (small, big, ante, minutes) in enumerate(levels):
        Level.objects.create(
            structure=structure, position=position, small_blind=small, big_blind=big,
            ante=ante, minutes=minutes,
        )  # fmt: skip
        position += 1
        if index in breaks_after:
            Level.objects.create(
                structure=structure, position=position, kind=LevelKind.BREAK, minutes=10
            )
            position += 1
    return structure


def make_event(
    *,
    structure: BlindStructure | None = None,
    name: str = "Test event",
    code: str | None = None,
    scheduled_start: datetime | None = None,
) -> Event:
    """An event on a structure (a two-level one by default), clock not started."""
    structure = structure or make_structure()
    extra = {"code": code} if code else {}
    return Event.objects.create(
        name=name,
        kind=EventKind.CUSTOM,
        structure=structure,
        starting_stack=structure.starting_stack,
        scheduled_start=scheduled_start or timezone.now(),
        **extra,
    )


def make_entries(*, event: Event, count: int, status: str = "checked_in") -> list:
    """Entries of players 'Player 01'..; checked in (ready for the seat draw) by default."""
    from tournaments.models import Entry, Player

    entries = []
    for number in range(1, count + 1):
        player = Player.objects.create(name=f"Player {number:02d}")
        entries.append(
            Entry.objects.create(
                event=event, player=player, status=status, starting_stack=event.starting_stack
            )
        )
    return entries
