"""Online events for tests and benchmarks: a quick structure, bots registered, and a loop that
runs the tables' sweeper and the events' director on a virtual clock."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from scoring import online_events
from tables.online import play as online_play
from tests.factories import make_structure
from tournaments.models import Denomination, Event, EventKind, EventStatus, Level, Season

# Fast levels (a minute each) so that bots finish a sit&go in a few hundred hands; the 25s
# leave play after level 2 (R5.11).
QUICK_LEVELS = (
    (25, 50, 0, 1), (50, 100, 0, 1), (100, 200, 0, 1), (200, 400, 100, 1), (400, 800, 100, 1),
    (1_000, 2_000, 200, 1), (2_000, 4_000, 500, 1), (5_000, 10_000, 1_000, 1),
    (10_000, 20_000, 2_000, 60),
)  # fmt: skip


def quick_structure(name: str = "Quick online", *, chip_up_after: int | None = 1):
    structure = make_structure(name=name, levels=QUICK_LEVELS, starting_stack=3_000)
    if chip_up_after is not None:
        level = Level.objects.get(structure=structure, position=chip_up_after + 1)
        level.chip_up = Denomination.objects.get(chip_set=structure.chip_set, value=25)
        level.save(update_fields=["chip_up"])
        structure.smallest_chip = Denomination.objects.get(chip_set=structure.chip_set, value=25)
        structure.save(update_fields=["smallest_chip"])
    return structure


def online_event(
    *,
    name: str = "Online sit&go",
    start_players: int | None = 18,
    table_size: int = 6,
    kind: str = EventKind.SIT_AND_GO,
    season: Season | None = None,
    structure=None,
    scheduled_start: datetime | None = None,
) -> Event:
    structure = structure or quick_structure(f"{name} structure")
    return Event.objects.create(
        name=name, kind=kind, structure=structure, starting_stack=structure.starting_stack,
        scheduled_start=scheduled_start or timezone.now(), online=True, table_size=table_size,
        start_players=start_players, season=season,
    )  # fmt: skip


def register_bots(event: Event, count: int, floor: User):
    return online_events.register_bots(event_id=event.pk, count=count, actor=floor)


def run_event(
    event: Event,
    *,
    now: datetime,
    step: float = 0.6,
    max_steps: int = 200_000,
    each_step: Callable[[datetime], None] | None = None,
) -> datetime:
    """Run the sweeper and the director on a virtual clock until the event finishes."""
    for _ in range(max_steps):
        online_events.tick(event_id=event.pk, now=now)
        online_play.sweep(now=now)
        if each_step is not None:
            each_step(now)
        event.refresh_from_db(fields=["status"])
        if event.status == EventStatus.FINISHED:
            return now
        now += timedelta(seconds=step)
    raise AssertionError(f"{event} did not finish in {max_steps} steps")


def _event_state(event: Event) -> tuple:
    """What a director's tick may change, as plain values."""
    from tables.models import FloorStep  # noqa: PLC0415 - the test helpers' only floor rows
    from tables.online.models import OnlineSeat, OnlineTable, TableHand  # noqa: PLC0415
    from tournaments.models import Entry  # noqa: PLC0415

    return (
        list(
            OnlineTable.objects.filter(floor_table__event=event)
            .order_by("pk")
            .values_list("pk", "status", "hold", "next_hand_at")
        ),
        list(
            OnlineSeat.objects.filter(table__floor_table__event=event)
            .order_by("pk")
            .values_list("pk", "table_id", "number", "stack", "status", "leaving")
        ),
        list(Entry.objects.filter(event=event).order_by("pk").values_list("pk", "status", "place")),
        list(FloorStep.objects.filter(event=event).order_by("pk").values_list("pk", "status")),
        list(
            TableHand.objects.filter(table__floor_table__event=event)
            .order_by("pk")
            .values_list("pk", "results_recorded")
        ),
    )


class TickShadow:
    """Checks the director's short cuts (scoring.online_events.Work) against the full tick: on
    every tick of a running event, after the director did what its probe found (nothing, on an
    idle tick, which ends at the probe), the full tick (every part, whatever the probe says)
    runs too and must change nothing. Counts the idle ticks, the busy ones and the busy ones
    that skipped a part, so a test can see each happened."""

    def __init__(self, monkeypatch) -> None:
        self.idle = 0
        self.busy = 0
        self.skipped = 0
        self._tick = online_events.tick
        self._probe = online_events._probe
        self._probed: tuple[bool, str, online_events.Work] | None = None
        monkeypatch.setattr(online_events, "_probe", self._seen)
        monkeypatch.setattr(online_events, "tick", self._shadowed)

    def _seen(self, event_id: int) -> tuple[bool, str, online_events.Work] | None:
        self._probed = self._probe(event_id)
        return self._probed

    def _shadowed(self, *, event_id: int, now: datetime | None = None) -> None:
        now = now or timezone.now()
        self._probed = None
        self._tick(event_id=event_id, now=now)
        if self._probed is None or self._probed[1] != EventStatus.RUNNING:
            return
        work = self._probed[2]
        if any(work):
            self.busy += 1
            self.skipped += not all(work)
        else:
            self.idle += 1
        event = Event.objects.get(pk=event_id)
        before = _event_state(event)
        online_events._locked_tick(event_id, now, online_events.Work(*(True for _flag in work)))
        assert _event_state(event) == before, f"the director skipped work ({work})"


def started_event(players: int, table_size: int, floor: User) -> tuple[Event, datetime]:
    """A sit&go of ``players`` house bots at tables of ``table_size``, started by the director's
    first tick (seats drawn, tables open, no hand dealt yet), and that tick's moment."""
    event = online_event(start_players=players, table_size=table_size)
    register_bots(event, players, floor)
    now = timezone.now()
    online_events.tick(event_id=event.pk, now=now)
    return event, now
