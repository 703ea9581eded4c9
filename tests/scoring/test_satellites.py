"""R5.5: satellite qualifiers (20%), +3,000 per satellite won, one running satellite at a time."""

from __future__ import annotations

import pytest

from scoring import places, satellites
from scoring.models import InfractionKind, SatelliteInfraction
from tests.factories import make_event, make_structure
from tests.scoring.season_helpers import finished_event, make_season, player
from tournaments.models import AuditEvent, Entry, EntryStatus, EventKind, EventStatus


@pytest.mark.parametrize(
    ("entrants", "qualify"),
    [(1, 1), (3, 1), (7, 1), (8, 2), (10, 2), (12, 2), (13, 3), (20, 4), (23, 5)],
)
def test_a_fifth_of_the_field_qualifies_rounded_half_up_at_least_one(entrants, qualify):
    assert places.satellite_qualifiers(entrants) == qualify


def test_every_satellite_won_adds_3000_chips():
    assert places.super_final_stack(event_stack=10_000, satellites_won=0) == 10_000
    assert places.super_final_stack(event_stack=10_000, satellites_won=2) == 16_000


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(1, n + 1)]


@pytest.mark.django_db
def test_the_top_20_percent_of_a_satellite_qualify():
    season = make_season()
    sat = finished_event(season=season, names=names(13), name="Sat", kind=EventKind.SATELLITE)
    assert [e.player.name for e in satellites.qualifiers(sat)] == ["P01", "P02", "P03"]


@pytest.mark.django_db
def test_super_final_stacks_add_3000_per_satellite_won_and_are_audited(floor_user):
    season = make_season()
    finished_event(season=season, names=names(10), name="Sat 1", kind=EventKind.SATELLITE)
    finished_event(season=season, names=["P02", "P01", *names(10)[2:]], name="Sat 2",
                   kind=EventKind.SATELLITE)  # fmt: skip
    other = make_season(name="Other")
    finished_event(season=other, names=["P03", "P04"], name="Elsewhere", kind=EventKind.SATELLITE)
    final = make_event(name="Final", structure=make_structure(name="Final structure"))
    final.kind, final.season, final.starting_stack = EventKind.FINAL, season, 10_000
    final.save()
    for who in ("P01", "P02", "P03"):
        Entry.objects.create(event=final, player=player(who), starting_stack=10_000)
    satellites.compute_super_final_stacks(event_id=final.pk, actor=floor_user)
    stacks = {e.player.name: (e.satellites_won, e.starting_stack) for e in final.entries.all()}
    assert stacks == {"P01": (2, 16_000), "P02": (2, 16_000), "P03": (0, 10_000)}
    audit = AuditEvent.objects.get(action="super_final.stacks")
    assert audit.actor == floor_user and len(audit.data["changes"]) == 2


def running_satellite(name: str, season):
    event = make_event(name=name, structure=make_structure(name=f"{name} structure"))
    event.kind, event.status, event.season = EventKind.SATELLITE, EventStatus.RUNNING, season
    event.save()
    return event


@pytest.mark.django_db
def test_two_running_satellites_warn_first_then_exclude_each_audited(floor_user):
    season = make_season()
    first, second, third = (running_satellite(n, season) for n in ("Sat A", "Sat B", "Sat C"))
    satellites.register_for_satellite(event_id=first.pk, actor=floor_user, name="Anna",
                                      check_in=True)  # fmt: skip
    # First time: a warning, recorded and audited; the registration goes through.
    entry = satellites.register_for_satellite(event_id=second.pk, actor=floor_user, name="Anna")
    assert entry.status == EntryStatus.REGISTERED
    warning = SatelliteInfraction.objects.get()
    assert warning.kind == InfractionKind.WARNING and warning.other_event == first
    assert AuditEvent.objects.filter(action="satellite.warning", event=second).count() == 1
    # Second time: exclusion, refused (no entry) and audited.
    with pytest.raises(satellites.SatelliteExclusionError, match="excluded"):
        satellites.register_for_satellite(event_id=third.pk, actor=floor_user, name="Anna")
    assert not Entry.objects.filter(event=third).exists()
    assert SatelliteInfraction.objects.filter(kind=InfractionKind.EXCLUSION).count() == 1
    audit = AuditEvent.objects.get(action="satellite.exclusion")
    assert audit.event == third and audit.actor == floor_user


@pytest.mark.django_db
def test_checking_in_to_a_second_running_satellite_is_screened_too(floor_user):
    season = make_season()
    first, second = running_satellite("Sat A", season), running_satellite("Sat B", season)
    satellites.register_for_satellite(event_id=first.pk, actor=floor_user, name="Bert",
                                      check_in=True)  # fmt: skip
    waiting = Entry.objects.create(event=second, player=player("Bert"), starting_stack=3_000)
    satellites.check_in_for_satellite(event_id=second.pk, entry_id=waiting.pk, actor=floor_user)
    assert SatelliteInfraction.objects.get().kind == InfractionKind.WARNING
    third = running_satellite("Sat C", season)
    late = Entry.objects.create(event=third, player=player("Bert"), starting_stack=3_000)
    with pytest.raises(satellites.SatelliteExclusionError):
        satellites.check_in_for_satellite(event_id=third.pk, entry_id=late.pk, actor=floor_user)
    late.refresh_from_db()
    assert late.status == EntryStatus.REGISTERED
    assert AuditEvent.objects.filter(action="satellite.exclusion").count() == 1


@pytest.mark.django_db
def test_a_player_out_of_his_satellite_may_play_the_next_one(floor_user):
    season = make_season()
    first, second = running_satellite("Sat A", season), running_satellite("Sat B", season)
    entry = satellites.register_for_satellite(event_id=first.pk, actor=floor_user, name="Cleo",
                                              check_in=True)  # fmt: skip
    entry.status, entry.place = EntryStatus.BUSTED, 7
    entry.save()
    satellites.register_for_satellite(event_id=second.pk, actor=floor_user, name="Cleo")
    assert not SatelliteInfraction.objects.exists()
