"""Reads for season pages: standings computed on read from the entries' places (R6).

Nothing is stored: a corrected place (an undo, a redo, an edit) shows on the next read.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass

from django.db.models import Count, Q

from scoring import places, points
from scoring.standings import Formula, Result, Standing, season_standings
from tournaments.models import Entry, EntryStatus, Event, EventKind, Player, Season

# Entrants are the entries whose chips came into play; a registration that never sat is none.
IN_THE_FIELD = [EntryStatus.PLAYING, EntryStatus.BUSTED, EntryStatus.QUIT, EntryStatus.FINISHED]


class UnknownFormulaError(ValueError):
    """A formula key that the registry does not know."""


def formula_for(key: str) -> Formula:
    """The registry's formula for a key, as (place, entrants) -> points."""
    if key not in points.FORMULAS:
        raise UnknownFormulaError(key)
    formula = points.FORMULAS[key]
    return lambda place, entrants: formula.points(place=place, entrants=entrants)


def formula_label(key: str) -> str:
    """The formula's name for people."""
    return str(points.FORMULAS[key].label)


def formula_choices() -> list[tuple[str, str]]:
    """Every formula of the registry, for a select box."""
    return [(key, str(formula.label)) for key, formula in points.FORMULAS.items()]


def season_formula_key(event: Event) -> str:
    """The formula an event's places count by: its season's, else the house default (R6.1)."""
    return event.season.formula if event.season_id and event.season else points.DEFAULT_FORMULA


def entrants_by_event(event_ids: list[int]) -> dict[int, int]:
    """Entrants per event: its entries whose chips came into play (a no-show is no entrant)."""
    counts = (
        Event.objects.filter(pk__in=event_ids)
        .annotate(n=Count("entries", filter=Q(entries__status__in=IN_THE_FIELD)))
        .values_list("pk", "n")
    )
    return dict(counts)


def results_of(entries: list[Entry]) -> list[Result]:
    """Plain records of entries with their events' field sizes."""
    entrants = entrants_by_event(sorted({entry.event_id for entry in entries}))
    return [
        Result(
            event_id=entry.event_id,
            player_id=entry.player_id,
            player_name=entry.player.name,
            place=entry.place,
            # A place is never beyond the field, even if a status was edited by hand.
            entrants=max(entrants.get(entry.event_id, 0), entry.place or 1),
        )
        for entry in entries
    ]


def best_entry_ids(entries: list[Entry]) -> set[int]:
    """docs/money.md: with re-entries, a player's season result in an event is his best entry."""
    best: dict[tuple[int, int], Entry] = {}
    for entry in entries:
        if entry.place is None:
            continue
        key = (entry.event_id, entry.player_id)
        if key not in best or entry.place < (best[key].place or 0):
            best[key] = entry
    return {entry.pk for entry in best.values()}


def house_bot(prefix: str = "") -> Q:
    """A house bot's entry (tables.online.services.new_bot_user: "bot-N", no usable password)."""
    return Q(**{
        f"{prefix}player__user__username__startswith": "bot-",
        f"{prefix}player__user__password__startswith": "!",
    })  # fmt: skip


def season_results(season: Season) -> list[Result]:
    """Every placed entry of the season's events (a player's best one per event), as records.

    Unless the season includes house bots, it counts people only: each ranked among the people
    of his event, the field its people (the event's own places still list everyone).
    """
    placed = Entry.objects.filter(event__season=season, place__isnull=False)
    if not season.include_bots:
        placed = placed.exclude(house_bot())
    entries = list(placed.select_related("player"))
    best = best_entry_ids(entries)
    results = results_of([entry for entry in entries if entry.pk in best])
    return results if season.include_bots else _among_people(results)


def _among_people(results: list[Result]) -> list[Result]:
    """Places and fields of people only: a bot ahead of a person no longer takes his place."""
    people = dict(
        Event.objects.filter(pk__in={r.event_id for r in results})
        .annotate(
            n=Count(
                "entries",
                filter=Q(entries__status__in=IN_THE_FIELD) & ~house_bot("entries__"),
            )
        )
        .values_list("pk", "n")
    )
    ranked = []
    for result in results:
        ahead = sum(
            1
            for r in results
            if r.event_id == result.event_id and (r.place or 0) < (result.place or 0)
        )
        field = max(people.get(result.event_id, 0), ahead + 1)
        ranked.append(dataclasses.replace(result, place=ahead + 1, entrants=field))
    return ranked


@dataclass(frozen=True)
class SeasonTable:
    """A season's standings under one formula, and whether that is the stored one."""

    formula: str
    formula_label: str
    is_what_if: bool
    standings: list[Standing]
    events: list[Event]

    @property
    def etag(self) -> str:
        """A fingerprint of what the page shows: 304 when nothing changed."""
        text = repr((self.formula, [(e.pk, e.name, e.status) for e in self.events], self.standings))
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def season_table(season: Season, *, formula: str | None = None) -> SeasonTable:
    """The season's standings under its own formula, or another one without changing it."""
    key = formula or season.formula
    computed = season_standings(season_results(season), formula=formula_for(key))
    return SeasonTable(
        formula=key,
        formula_label=formula_label(key),
        is_what_if=key != season.formula,
        standings=computed,
        events=list(Event.objects.filter(season=season).order_by("scheduled_start", "pk")),
    )


@dataclass(frozen=True)
class ResultLine:
    """One entry's result: place, field, points and, in a satellite, whether it qualified."""

    event: Event
    player_id: int
    player_name: str
    place: int | None
    entrants: int
    points: int | None
    qualified: bool


def _lines(entries: list[Entry]) -> list[ResultLine]:
    lines = []
    best = best_entry_ids(entries)
    for entry, record in zip(entries, results_of(entries), strict=True):
        event, place = entry.event, record.place
        earned = None
        if place is not None and entry.pk in best:  # a re-entered player scores once
            earned = formula_for(season_formula_key(event))(place, record.entrants)
        is_satellite = event.kind == EventKind.SATELLITE
        lines.append(
            ResultLine(
                event=event,
                player_id=record.player_id,
                player_name=entry.label,
                place=place,
                entrants=record.entrants,
                points=earned,
                # R5.5: the top 20% of a satellite's entrants qualify for the super final.
                qualified=is_satellite
                and place is not None
                and place <= places.satellite_qualifiers(record.entrants),
            )
        )
    return lines


def event_results(event: Event) -> list[ResultLine]:
    """An event's entries in place order (unplaced last), with points by its season's formula."""
    entries = list(
        Entry.objects.filter(event=event, status__in=IN_THE_FIELD)
        .select_related("player", "event__season")
        .order_by("place", "player__name", "pk")
    )
    entries.sort(key=lambda entry: (entry.place is None, entry.place or 0))
    return _lines(entries)


def player_results(player: Player) -> list[ResultLine]:
    """A player's events, newest first, with places and points by each season's formula."""
    entries = list(
        Entry.objects.filter(player=player)
        .select_related("player", "event__season")
        .order_by("-event__scheduled_start", "-pk")
    )
    return _lines(entries)


@dataclass(frozen=True)
class PlayerSummary:
    """A player's totals: events placed, wins, best place, satellites won, points per season."""

    events: int
    wins: int
    best_place: int | None
    qualified: int
    seasons: list[tuple[Season, int]]


def player_summary(lines: list[ResultLine]) -> PlayerSummary:
    """Totals of a player's result lines; points add up only within a season (R6.3)."""
    placed = [line.place for line in lines if line.place is not None]
    events = {line.event.pk for line in lines if line.place is not None}
    by_season: dict[int, tuple[Season, int]] = {}
    for line in lines:
        season = line.event.season
        if season is not None and line.points is not None:
            _, total = by_season.get(season.pk, (season, 0))
            by_season[season.pk] = (season, total + line.points)
    return PlayerSummary(
        events=len(events),
        wins=placed.count(1),
        best_place=min(placed, default=None),
        qualified=sum(line.qualified for line in lines),
        seasons=sorted(by_season.values(), key=lambda item: item[0].starts_on, reverse=True),
    )
