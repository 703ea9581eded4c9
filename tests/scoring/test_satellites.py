"""R5.5: satellite qualifiers (20%), +3,000 per satellite won, one running satellite at a time."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import places, satellites, services
from scoring.models import InfractionKind, SatelliteInfraction
from scoring.services import StackInput
from tests.factories import make_event, make_structure
from tests.floor_helpers import at_table, seated_event
from tests.scoring.season_helpers import finished_event, make_season, player
from tournaments.entry_services import NoSuperFinalStackError, register_entry
from tournaments.models import (
    AuditEvent,
    Entry,
    EntryStatus,
    Event,
    EventKind,
    EventStatus,
    SuperFinalStackRule,
)


@pytest.mark.parametrize(
    ("entrants", "qualify"),
    [(1, 1), (3, 1), (7, 1), (8, 2), (10, 2), (12, 2), (13, 3), (20, 4), (23, 5)],
)
def test_a_fifth_of_the_field_qualifies_rounded_half_up_at_least_one(entrants, qualify):
    assert places.satellite_qualifiers(entrants) == qualify


def test_every_satellite_won_adds_3000_chips():
    assert places.super_final_stack(event_stack=10_000, satellites_won=0) == 10_000
    assert places.super_final_stack(event_stack=10_000, satellites_won=2) == 16_000


@pytest.mark.parametrize(
    ("rule", "stacks"),
    [(SuperFinalStackRule.BASE_PLUS_BONUS, (10_000, 13_000, 19_000)),
     (SuperFinalStackRule.BONUS_ONLY, (0, 3_000, 9_000))],
)  # fmt: skip
def test_r5_5_the_super_final_stack_rule_each_option(rule, stacks):
    assert (
        tuple(
            places.super_final_stack(event_stack=10_000, satellites_won=won, rule=rule)
            for won in (0, 1, 3)
        )
        == stacks
    )


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


def _final_of(season, *who):
    final = make_event(name="Final", structure=make_structure(name="Final structure"))
    final.kind, final.season, final.starting_stack = EventKind.FINAL, season, 10_000
    final.save()
    for name in who:
        Entry.objects.create(event=final, player=player(name), starting_stack=10_000)
    return final


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("rule", "expected"),
    [(SuperFinalStackRule.BASE_PLUS_BONUS, {"P01": (2, 16_000), "P02": (1, 13_000)}),
     (SuperFinalStackRule.BONUS_ONLY, {"P01": (2, 6_000), "P02": (1, 3_000)})],
)  # fmt: skip
def test_r5_5_super_final_stacks_follow_the_seasons_rule(floor_user, rule, expected):
    season = make_season()
    season.super_final_stack_rule = rule
    season.save()
    finished_event(season=season, names=names(10), name="Sat 1", kind=EventKind.SATELLITE)
    sat_2 = ["P01", *names(10)[2:], "P02"]  # P01 and P03 qualify, P02 is last
    finished_event(season=season, names=sat_2, name="Sat 2", kind=EventKind.SATELLITE)
    final = _final_of(season, "P01", "P02")
    satellites.compute_super_final_stacks(event_id=final.pk, actor=floor_user)
    stacks = {e.player.name: (e.satellites_won, e.starting_stack) for e in final.entries.all()}
    assert stacks == expected
    assert AuditEvent.objects.get(action="super_final.stacks").data["rule"] == rule


@pytest.mark.django_db
def test_r5_5_satellite_chips_alone_refuse_a_final_player_without_a_win(floor_user):
    season = make_season()
    season.super_final_stack_rule = SuperFinalStackRule.BONUS_ONLY
    season.save()
    finished_event(season=season, names=names(10), name="Sat 1", kind=EventKind.SATELLITE)
    final = _final_of(season, "P01", "P09")
    before = list(final.entries.order_by("pk").values("satellites_won", "starting_stack"))
    with pytest.raises(NoSuperFinalStackError, match="P09 won no satellite"):
        satellites.compute_super_final_stacks(event_id=final.pk, actor=floor_user)
    assert list(final.entries.order_by("pk").values("satellites_won", "starting_stack")) == before
    assert not AuditEvent.objects.filter(action="super_final.stacks").exists()
    with pytest.raises(NoSuperFinalStackError, match="Zed won no satellite"):
        register_entry(event_id=final.pk, actor=floor_user, name="Zed")
    entry = register_entry(event_id=final.pk, actor=floor_user, name="Ute", satellites_won=2)
    assert entry.starting_stack == 6_000


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


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("rule", "text"),
    [(SuperFinalStackRule.BASE_PLUS_BONUS, "starts with 10000 chips plus 3,000 per satellite"),
     (SuperFinalStackRule.BONUS_ONLY, "3,000 chips per satellite won this season, no base")],
)  # fmt: skip
def test_r5_5_the_super_final_page_shows_the_seasons_stack_rule(client, floor_user, rule, text):
    season = make_season()
    season.super_final_stack_rule = rule
    season.save()
    final = _final_of(season)
    client.force_login(floor_user)
    page = client.get(reverse("seasons:super_final_stacks", args=[final.pk])).content.decode()
    assert text in page


@pytest.mark.django_db
def test_r5_5_the_standings_show_the_qualifying_rule_with_the_number_for_the_field(client):
    event, _ = seated_event(players=13, tables=2)
    Event.objects.filter(pk=event.pk).update(kind=EventKind.SATELLITE)
    url = reverse("scoring:standings", args=[event.code])
    body = client.get(url).content.decode()
    assert "20% of the entrants qualify for the super final, rounded to the nearest whole " in body
    assert "13 entrants: 3 qualify." in body  # 2.6 -> 3
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "20 % der Teilnehmer" in german and "13 Teilnehmer: 3 qualifizieren sich." in german
    services.record_busts(
        event_id=event.pk, actor=None, busts=[StackInput(entry_id=at_table(event, 1)[0].pk,
                                                         stack=500)],
    )  # fmt: skip
    body = client.get(url).content.decode()
    assert 'data-testid="qualified"' not in body  # 13th place does not qualify
    Event.objects.filter(pk=event.pk).update(kind=EventKind.CUSTOM)
    assert "qualify" not in client.get(url).content.decode()
