"""What a clock page shows: the reading, the levels around it and the time to the next break."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import get_language

from tournaments.clock import ClockReading, ClockStatus
from tournaments.models import Denomination, Event, EventStatus, Level


@dataclass(frozen=True, kw_only=True, slots=True)
class LevelRow:
    """One line of the level list."""

    index: int
    number: int | None  # play levels are numbered 1, 2, …; breaks are not
    level: Level
    is_current: bool
    is_past: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class ClockDisplay:
    """Everything a clock page or fragment renders, computed once at ``now``."""

    event: Event
    reading: ClockReading
    now: datetime
    rows: list[LevelRow]
    break_after_ms: int | None  # from the end of this level to the start of the next break

    @property
    def status(self) -> str:
        if self.event.status == EventStatus.FINISHED:
            return "event_finished"
        return self.reading.status.value

    @property
    def current(self) -> LevelRow:
        return self.rows[self.reading.level_index]

    @property
    def level(self) -> Level:
        return self.current.level

    @property
    def next_row(self) -> LevelRow | None:
        index = self.reading.level_index + 1
        return self.rows[index] if index < len(self.rows) else None

    @property
    def next_play_row(self) -> LevelRow | None:
        """The next level with blinds (after a break, the one it leads to)."""
        for row in self.rows[self.reading.level_index + 1 :]:
            if not row.level.is_break:
                return row
        return None

    @property
    def remaining_ms(self) -> int:
        return int(self.reading.remaining.total_seconds() * 1000)

    @property
    def break_in_ms(self) -> int | None:
        """Time until the next break starts, if the clock runs on untouched."""
        if self.break_after_ms is None:
            return None
        return self.remaining_ms + self.break_after_ms

    @property
    def chip_up(self) -> Denomination | None:
        """R5.11: the chip that leaves play after the current level, when one does."""
        return self.level.chip_up

    @property
    def is_running(self) -> bool:
        return self.status == ClockStatus.RUNNING.value

    @property
    def is_started(self) -> bool:
        return self.reading.status is not ClockStatus.NOT_STARTED

    @property
    def ends_at_iso(self) -> str:
        ends_at = self.reading.ends_at if self.is_running else None
        return ends_at.isoformat() if ends_at else ""

    @property
    def server_now_iso(self) -> str:
        return self.now.isoformat()

    @property
    def remaining_text(self) -> str:
        return countdown_text(self.remaining_ms)

    @property
    def break_in_text(self) -> str:
        return "" if self.break_in_ms is None else countdown_text(self.break_in_ms)

    # The controls drawn; the clock module still refuses what does not apply (tournaments.clock).
    @property
    def can_start(self) -> bool:
        return self.status == ClockStatus.NOT_STARTED.value

    @property
    def can_pause(self) -> bool:
        return self.status in {ClockStatus.RUNNING.value, ClockStatus.FINISHED.value}

    @property
    def can_resume(self) -> bool:
        return self.status == ClockStatus.PAUSED.value

    @property
    def can_change_time(self) -> bool:
        return self.is_started and self.status != "event_finished"

    @property
    def can_previous(self) -> bool:
        return self.reading.level_index > 0 and self.status != "event_finished"

    @property
    def can_next(self) -> bool:
        return self.next_row is not None and self.status != "event_finished"

    @property
    def etag(self) -> str:
        """Changes with every clock action, level change, status and language, never with now."""
        structure_stamp = int(self.event.structure.updated_at.timestamp())
        return (
            f"c{self.event.clock_version}-l{self.reading.level_index}-{self.status}"
            f"-s{structure_stamp}-{get_language()}"
        )


def countdown_text(milliseconds: int) -> str:
    """12:00 or 1:05:09, rounded up to the second like the browser's countdown."""
    total = max(0, -(-milliseconds // 1000))
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes:02d}:{seconds:02d}"


def clock_display(event: Event, *, now: datetime | None = None) -> ClockDisplay:
    """Read an event's clock at ``now`` and lay out its levels for a page."""
    now = now or timezone.now()
    levels = event.levels_list()
    reading = event.read_clock(now)
    rows: list[LevelRow] = []
    number = 0
    for index, level in enumerate(levels):
        if not level.is_break:
            number += 1
        rows.append(
            LevelRow(
                index=index,
                number=None if level.is_break else number,
                level=level,
                is_current=index == reading.level_index,
                is_past=index < reading.level_index,
            )
        )
    break_after_ms: int | None = None
    between = 0
    for level in levels[reading.level_index + 1 :]:
        if level.is_break:
            break_after_ms = between * 1000
            break
        between += level.seconds
    return ClockDisplay(
        event=event, reading=reading, now=now, rows=rows, break_after_ms=break_after_ms
    )


def render_clock(display: ClockDisplay) -> str:
    """The clock fragment in the active language: the fragment view's body and the stream's."""
    return render_to_string("tournaments/_clock.html#clock", {"clock": display})


def _views(display: ClockDisplay) -> dict[str, dict[str, str]]:
    """The fragment and its ETag in every language of the site."""
    views = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            views[code] = {"etag": display.etag, "html": render_clock(display)}
    return views


def clock_state(event: Event, *, now: datetime) -> dict[str, Any]:
    """The clock's public state at ``now`` for the live stream: what a phone or the TV shows.

    ``next`` is the fragment as it reads the moment the level in force runs out (the next
    level, or "time is up" after the last), so a page can show it on time by itself.
    """
    display = clock_display(event, now=now)
    state: dict[str, Any] = {
        "version": event.clock_version,
        "level_index": display.reading.level_index,
        "status": display.status,
        "ends_at": display.ends_at_iso,
        "remaining_ms": display.remaining_ms,
        "chip_up": None if display.chip_up is None else display.chip_up.value,  # R5.11
        "views": _views(display),
        "next": None,
    }
    ends_at = display.reading.ends_at
    if display.is_running and ends_at is not None:
        upcoming = clock_display(event, now=ends_at)
        state["next"] = {
            "at": ends_at.isoformat(),
            "level_index": upcoming.reading.level_index,
            "status": upcoming.status,
            "views": _views(upcoming),
        }
    return state
