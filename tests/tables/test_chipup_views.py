"""R5.11 / TDA 24: the floor's chip-up race page: stored, audited, one chip each, nobody out."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tables import chipup
from tables.chipup_services import race_chip_up
from tables.models import ChipUpRace, Seat, Table
from tests.factories import make_entries, make_event, make_structure
from tournaments import live
from tournaments.models import AuditEvent, Denomination, EntryStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    """Level 1 (with the chip-up of the 25s) has ended; four players at table 1, button seat 3."""
    structure = make_structure(name="Chip-up structure")
    first = structure.levels.get(position=1)
    first.chip_up = Denomination.objects.get(chip_set=structure.chip_set, value=25)
    first.save()
    event = make_event(structure=structure)
    event.clock_level_index, event.clock_level_started_at = 1, timezone.now()
    event.status = "running"
    event.save()
    table = Table.objects.create(event=event, number=1, seats=10, button_seat=3)
    for seat, entry in zip((1, 3, 5, 8), make_entries(event=event, count=4), strict=True):
        entry.status = EntryStatus.PLAYING
        entry.save()
        Seat.objects.create(table=table, number=seat, entry=entry)
    return event


def chips_form(event, counts, alone=()):
    entries = [s.entry for s in Seat.objects.filter(table__event=event).order_by("number")]
    data = {"table": "1", "level": "0"}
    for entry, count in zip(entries, counts, strict=True):
        data[f"chips_{entry.pk}"] = str(count)
        if entry.player.name in alone:
            data[f"alone_{entry.pk}"] = "on"
    return data


def test_the_page_shows_the_due_chip_up_and_seats_from_left_of_the_button(
    client, floor_user, event
):
    client.force_login(floor_user)
    response = client.get(f"/events/{event.pk}/floor/chip-up/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "The 25s" in html and "chips of 100" in html
    # Button in seat 3: the deal starts at seat 5, then 8, 1, 3.
    order = [html.index(f"Player {n:02d}</label>") for n in (3, 4, 1, 2)]
    assert order == sorted(order)


def test_a_race_is_stored_audited_and_gives_at_most_one_chip_each(client, floor_user, event):
    client.force_login(floor_user)
    # Leftovers 3, 2, 1, 3 of the 25s: 9 x 25 = 225 -> two 100s, 25 lost (less than half).
    response = client.post(f"/events/{event.pk}/floor/chip-up/", chips_form(event, [3, 2, 1, 3]))
    assert response.status_code == 302
    race = ChipUpRace.objects.get()
    winners = [line for line in race.lines if line["race_chip"]]
    assert len(winners) == 2 and len({w["entry"] for w in winners}) == 2
    cards = [line["card"] for line in race.lines]
    assert len(set(cards)) == 4  # one card each, no card twice
    best_two = sorted(cards, reverse=True)[:2]
    assert sorted(w["card"] for w in winners) == sorted(best_two)
    audit = AuditEvent.objects.get(action="chip_up.race")
    assert audit.actor == floor_user and audit.data["race_chips"] == 2 and audit.data["lost"] == 25
    page = client.get(f"/events/{event.pk}/floor/chip-up/").content.decode()
    assert "playing-card" in page and any(s in page for s in "♠♥♦♣")
    # A second submit of the same table races nothing again.
    client.post(f"/events/{event.pk}/floor/chip-up/", chips_form(event, [0, 0, 0, 0]))
    assert ChipUpRace.objects.count() == 1


def test_nobody_is_raced_out(floor_user, event):
    seats = Seat.objects.filter(table__event=event).order_by("number")
    counts = {s.entry_id: n for s, n in zip(seats, [1, 1, 1, 1], strict=True)}
    alone = {seats[0].entry_id}
    # Deal order 5, 8, 1, 3: seat 1 (alone, only a 25 left) gets the lowest card.
    deck = [51, 50, 49, 0, *range(1, 49)]
    race = race_chip_up(
        event_id=event.pk, table_number=1, level_index=0, small_chips=counts,
        no_other_chips=alone, actor=floor_user, deck=deck,
    )  # fmt: skip
    line = next(x for x in race.lines if x["entry"] == seats[0].entry_id)
    assert not line["race_chip"] and line["saved"]  # he keeps a chip and plays on


@pytest.mark.parametrize("bad", ["-1", "2.5", "two", ""])
def test_bad_chip_counts_are_a_form_error_and_change_nothing(client, floor_user, event, bad):
    client.force_login(floor_user)
    data = chips_form(event, [1, 1, 1, 1])
    first_key = next(k for k in data if k.startswith("chips_"))
    data[first_key] = bad
    response = client.post(f"/events/{event.pk}/floor/chip-up/", data)
    assert response.status_code == 400
    assert 'class="errorlist"' in response.content.decode()
    assert not ChipUpRace.objects.exists()
    assert not AuditEvent.objects.filter(action="chip_up.race").exists()


def test_the_chip_up_page_is_floor_only(client, player_user, event):
    url = f"/events/{event.pk}/floor/chip-up/"
    assert "/accounts/login/" in client.get(url)["Location"]
    assert client.post(url, chips_form(event, [1, 1, 1, 1])).status_code == 302
    client.force_login(player_user)
    assert client.get(url).status_code == 403
    assert client.post(url, chips_form(event, [1, 1, 1, 1])).status_code == 403
    assert not ChipUpRace.objects.exists()


def test_pure_race_rounds_half_a_chip_up_and_exchanges_whole_sets():
    players = [chipup.RacePlayer(key=k, small_chips=n) for k, n in ((1, 6), (2, 1), (3, 1))]
    result = chipup.race(players=players, chip_value=25, new_chip_value=100, deck=list(range(52)))
    # Player 1 exchanges one set of four and races 2; pool 2+1+1 = 4 x 25 = one 100.
    assert result.lines[0].exchanged == 1 and result.lines[0].leftover == 2
    assert result.pool == 100 and result.race_chips == 1 and result.lost == 0
    half = chipup.race(
        players=[chipup.RacePlayer(key=1, small_chips=1), chipup.RacePlayer(key=2, small_chips=1)],
        chip_value=25, new_chip_value=100, deck=list(range(52)),
    )  # fmt: skip
    assert half.race_chips == 1 and [x.race_chip for x in half.lines] == [False, True]


def test_the_full_race_is_stored_and_shown_every_card_new_chips_and_totals(
    client, floor_user, event
):
    seats = list(Seat.objects.filter(table__event=event).order_by("number"))  # seats 1, 3, 5, 8
    counts = {s.entry_id: n for s, n in zip(seats, [7, 2, 1, 3], strict=True)}
    race = race_chip_up(
        event_id=event.pk, table_number=1, level_index=0, small_chips=counts,
        no_other_chips=set(), actor=floor_user, deck=list(range(51, -1, -1)),
    )  # fmt: skip
    # Dealt from the left of the button (seat 3): seats 5, 8, 1, 3; one card per leftover chip.
    assert [(x["seat"], x["leftover"], x["cards"]) for x in race.lines] == [
        (5, 1, [51]),
        (8, 3, [50, 49, 48]),
        (1, 3, [47, 46, 45]),  # 7 chips: one set of four exchanged, three race
        (3, 2, [44, 43]),
    ]
    # Pool 9 x 25 = 225: two 100s, 25 lost (under half a chip); one 100 for the whole set.
    assert (race.pool, race.race_chips, race.lost, race.rounded_up) == (225, 2, 25, 0)
    assert (race.created, race.exchanged) == (0, 1)
    assert [x["new_chips"] for x in race.lines] == [1, 1, 1, 0]
    client.force_login(floor_user)
    page = client.get(f"/events/{event.pk}/floor/chip-up/").content.decode()
    assert page.count('class="playing-card') == 9
    assert "Pool of leftovers: 225" in page and "Lost: 25" in page
    audit = AuditEvent.objects.get(action="chip_up.race")
    assert audit.data["exchanged"] == 1 and audit.data["lines"][1]["cards"] == [50, 49, 48]


def test_half_a_chip_rounds_up_and_is_stored(floor_user, event):
    seats = list(Seat.objects.filter(table__event=event).order_by("number"))
    counts = {s.entry_id: n for s, n in zip(seats, [1, 2, 2, 1], strict=True)}
    race = race_chip_up(
        event_id=event.pk, table_number=1, level_index=0, small_chips=counts,
        no_other_chips=set(), actor=floor_user, deck=list(range(52)),
    )  # fmt: skip
    # 6 x 25 = 150: one 100 and a remainder of 50, half a chip: rounds up to two (R5.11).
    assert (race.race_chips, race.rounded_up, race.lost) == (2, 50, 0)


def test_the_floor_dashboard_points_to_the_due_chip_up_until_every_table_raced(
    client, floor_user, event
):
    client.force_login(floor_user)
    dashboard = f"/events/{event.pk}/floor/"
    page = client.get(dashboard).content.decode()
    assert 'data-testid="chip-up-banner"' in page
    assert "Chip-up of the 25s is due: 1 table still to race." in page
    assert f'href="/events/{event.pk}/floor/chip-up/"' in page
    assert 'data-testid="super-final-link"' not in page
    client.post(f"/events/{event.pk}/floor/chip-up/", chips_form(event, [1, 1, 1, 1]))
    assert 'data-testid="chip-up-banner"' not in client.get(dashboard).content.decode()


def test_the_dashboard_warns_of_a_chip_up_after_the_level_in_play(client, floor_user, event):
    event.clock_level_index = 0
    event.save()
    client.force_login(floor_user)
    page = client.get(f"/events/{event.pk}/floor/").content.decode()
    assert "Chip-up of the 25s after this level." in page


def test_a_final_links_its_super_final_stacks(client, floor_user, event):
    event.kind = "final"
    event.save()
    client.force_login(floor_user)
    page = client.get(f"/events/{event.pk}/floor/").content.decode()
    assert f'href="/events/{event.pk}/floor/super-final/"' in page


def _race(event, counts=(3, 2, 1, 3)):
    seats = Seat.objects.filter(table__event=event, table__number=1).order_by("number")
    entries = [s.entry_id for s in seats]
    return race_chip_up(
        event_id=event.pk, table_number=1, level_index=0, no_other_chips=set(), actor=None,
        small_chips=dict(zip(entries, counts, strict=True)),
    )  # fmt: skip


def test_r5_11_a_race_tells_the_open_pages_after_its_commit_once(
    event, monkeypatch, django_capture_on_commit_callbacks
):
    published = []
    monkeypatch.setattr(live, "publish_event_changed", lambda **kwargs: published.append(kwargs))
    with django_capture_on_commit_callbacks() as callbacks:
        _race(event)
    assert published == []  # nothing before the commit: a rolled-back race is never announced
    for callback in callbacks:
        callback()
    assert published == [{"event_id": event.pk, "what": "standings"}]
    with django_capture_on_commit_callbacks(execute=True):
        _race(event)  # the same table again: found, nothing new to announce
    assert len(published) == 1


def test_r5_11_the_public_banner_counts_the_tables_still_to_race(client, event):
    table = Table.objects.create(event=event, number=2, seats=10, button_seat=1)
    extra = make_entries(event=event, count=1)[0]
    extra.status = EntryStatus.PLAYING
    extra.save()
    Seat.objects.create(table=table, number=4, entry=extra)
    url = f"/e/{event.code}/chip-up/"
    first = client.get(url)
    assert "Chip-up of the 25s is due: 2 tables still to race." in first.content.decode()
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    _race(event)
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    assert "1 table still to race." in second.content.decode()
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Chip-up" in german and "Tisch" in german


def test_r5_11_the_floor_dashboard_etag_changes_when_a_table_races(client, floor_user, event):
    client.force_login(floor_user)
    url = f"/events/{event.pk}/floor/"
    first = client.get(url, HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    _race(event)
    after = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200  # the banner changed, so the dashboard is fetched anew
    assert 'data-testid="chip-up-banner"' not in after.content.decode()  # every table raced
