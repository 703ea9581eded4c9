"""The home page: running and coming events, recent results, season leaders; links by role.

It shows every layer (the clock, places, season standings), so it sits in the top one.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring.season_selectors import season_table
from scoring.standings import Standing
from tournaments.display import ClockDisplay, clock_display
from tournaments.models import Entry, Event, EventStatus, Season

RECENT_RESULTS = 5
SEASONS_SHOWN = 4


@dataclass(frozen=True, kw_only=True, slots=True)
class RunningEvent:
    """A running event and its clock as the home page shows it."""

    event: Event
    clock: ClockDisplay


@dataclass(frozen=True, kw_only=True, slots=True)
class FinishedEvent:
    """A finished event with its first places."""

    event: Event
    podium: list[Entry]


@dataclass(frozen=True, kw_only=True, slots=True)
class SeasonLeaders:
    """A season with the top of its leaderboard."""

    season: Season
    leaders: list[Standing]


def _finished_events() -> list[FinishedEvent]:
    events = list(
        Event.objects.filter(status=EventStatus.FINISHED)
        .select_related("season")
        .order_by("-scheduled_start", "-pk")[:RECENT_RESULTS]
    )
    podiums: dict[int, list[Entry]] = {event.pk: [] for event in events}
    placed = Entry.objects.filter(event__in=events, place__lte=3).select_related("player")
    for entry in placed.order_by("place", "player__name"):
        podiums[entry.event_id].append(entry)
    return [FinishedEvent(event=event, podium=podiums[event.pk]) for event in events]


def _seasons() -> list[SeasonLeaders]:
    return [
        SeasonLeaders(season=season, leaders=season_table(season).standings[:3])
        for season in Season.objects.all()[:SEASONS_SHOWN]
    ]


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The start page: running and coming events, recent results, seasons; links by role."""
    events = Event.objects.select_related("structure", "season")
    running = events.filter(status=EventStatus.RUNNING).order_by("scheduled_start", "pk")
    context = {
        "running": [RunningEvent(event=e, clock=clock_display(e)) for e in running],
        "upcoming": list(
            events.filter(status=EventStatus.SCHEDULED).order_by("scheduled_start", "pk")[:20]
        ),
        "finished": _finished_events(),
        "seasons": _seasons(),
    }
    return render(request, "scoring/home.html", context)
