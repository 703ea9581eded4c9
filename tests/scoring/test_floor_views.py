"""The floor's seating page and its actions: who may use them, what bad input answers."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services as scoring_services
from scoring.services import StackInput
from tests import factories
from tests.floor_helpers import at_table, seat_of, seated_event, snapshot
from tournaments.models import Entry, EntryStatus

pytestmark = pytest.mark.django_db

FLOOR_POSTS = [
    ("floor:register", {"name": "Zed"}),
    ("floor:draw", {"tables": "1", "seats_per_table": "10", "method": "random"}),
    ("floor:seat", {"entry": "1"}),
    ("floor:move", {"entry": "1", "table": "1", "seat": "1"}),
    ("floor:button", {"table": "1", "seat": "1"}),
    ("floor:confirm_plan", {"step": "1"}),
    ("scoring:record_busts", {"out": "1", "stack-1": "100"}),
    ("scoring:record_quit", {"entry": "1"}),
    ("scoring:agreed_stop", {}),
    ("scoring:undo", {}),
    ("scoring:redo", {}),
    ("scoring:hand_done", {"table": "1", "hand": "1"}),
    ("scoring:take_back_hand_done", {"table": "1", "hand": "1"}),
]


@pytest.fixture
def event():
    return seated_event(players=20, tables=2)[0]


def _urls(event):
    entry = Entry.objects.filter(event=event).first()
    posts = [(reverse(name, args=[event.pk]), data) for name, data in FLOOR_POSTS]
    posts.append((reverse("floor:check_in", args=[event.pk, entry.pk]), {}))
    return posts


def test_anonymous_users_are_sent_to_log_in_for_every_floor_action(client, event):
    before = snapshot(event)
    for url in [
        reverse("floor:tables", args=[event.pk]),
        reverse("tables:floor_print", args=[event.pk]),
    ]:
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    for url, data in _urls(event):
        response = client.post(url, data)
        assert response.status_code == 302, url
        assert "/accounts/login/" in response["Location"]
    assert snapshot(event) == before


def test_players_get_403_for_every_floor_action(client, event, player_user):
    client.force_login(player_user)
    before = snapshot(event)
    for url in [
        reverse("floor:tables", args=[event.pk]),
        reverse("tables:floor_print", args=[event.pk]),
    ]:
        assert client.get(url).status_code == 403
    for url, data in _urls(event):
        assert client.post(url, data).status_code == 403, url
    assert snapshot(event) == before


def test_the_floor_page_shows_tables_seats_and_standings(client, event, floor_user):
    client.force_login(floor_user)
    response = client.get(reverse("floor:tables", args=[event.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Table 1" in body and "Table 2" in body
    assert at_table(event, 1)[0].player.name in body
    assert "20 / 20" in body


def test_busts_through_the_form_show_places_and_the_plan(client, event, floor_user):
    client.force_login(floor_user)
    one, two, three = at_table(event, 1)[:3]
    data = {"out": [one.pk, two.pk, three.pk], "key": "k1"}
    data |= {f"stack-{one.pk}": "2,000", f"stack-{two.pk}": "9000", f"stack-{three.pk}": "4.500"}
    response = client.post(reverse("scoring:record_busts", args=[event.pk]), data)
    assert response.status_code == 302
    assert [Entry.objects.get(pk=e.pk).place for e in (two, three, one)] == [18, 19, 20]
    body = client.get(reverse("floor:tables", args=[event.pk])).content.decode()
    assert "Balancing plan" in body and "TDA 11A" in body
    assert "TDA 11D" in body  # halt: table 1 is three short


@pytest.mark.parametrize(
    ("stack", "reason"),
    [("abc", "positive whole number"), ("0", "positive whole number"),
     ("1.5", "positive whole number")],
)  # fmt: skip
def test_a_bad_stack_answers_400_with_the_reason_and_changes_nothing(
    client, event, floor_user, stack, reason
):
    client.force_login(floor_user)
    player = at_table(event, 1)[0]
    before = snapshot(event)
    response = client.post(
        reverse("scoring:record_busts", args=[event.pk]),
        {"out": [player.pk], f"stack-{player.pk}": stack},
    )
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert snapshot(event) == before


def test_a_single_bust_needs_no_stack(client, event, floor_user):
    """R5.6: the stack only orders players out in the same hand."""
    client.force_login(floor_user)
    player = at_table(event, 1)[0]
    response = client.post(
        reverse("scoring:record_busts", args=[event.pk]), {"out": [player.pk], "key": "k1"}
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.place == 20 and player.status == EntryStatus.BUSTED


def test_two_out_in_one_hand_need_their_stacks_and_the_page_keeps_what_was_entered(
    client, event, floor_user
):
    client.force_login(floor_user)
    one, two = at_table(event, 1)[:2]
    before = snapshot(event)
    response = client.post(
        reverse("scoring:record_busts", args=[event.pk]),
        {"out": [one.pk, two.pk], f"stack-{one.pk}": "1200", f"card-{one.pk}": "Kd"},
    )
    body = response.content.decode()
    assert response.status_code == 400
    assert f"{two.player.name}: two or more went out in this hand" in body
    assert f'id="out-{one.pk}" checked' in body and f'id="out-{two.pk}" checked' in body
    assert f'name="stack-{one.pk}" inputmode="numeric" value="1200"' in body
    assert f'name="card-{one.pk}" maxlength="2" value="Kd"' in body
    assert f'id="out-{at_table(event, 1)[2].pk}" aria-label' in body  # not ticked
    assert snapshot(event) == before


def test_a_bust_resent_with_its_key_answers_as_the_first_one_did(client, event, floor_user):
    """Issue 16/18: the same form twice (a double submit or a retry) is one bust, 200 both."""
    client.force_login(floor_user)
    player = at_table(event, 1)[0]
    url = reverse("scoring:record_busts", args=[event.pk])
    data = {"out": [player.pk], "key": "same-key"}
    first = client.post(url, data, headers={"HX-Request": "true"})
    after = snapshot(event)
    again = client.post(url, data, headers={"HX-Request": "true"})
    assert (first.status_code, again.status_code) == (200, 200)
    assert 'data-testid="floor-error"' not in again.content.decode()
    assert snapshot(event) == after
    assert Entry.objects.get(pk=player.pk).place == 20


def test_the_seat_draw_defaults_to_the_entries_and_the_events_table_size(client, floor_user):
    event = factories.make_event()
    event.table_size = 9
    event.save()
    factories.make_entries(event=event, count=20)
    client.force_login(floor_user)
    body = client.get(reverse("floor:tables", args=[event.pk])).content.decode()
    assert 'name="tables" min="1" max="100" value="3"' in body
    assert 'name="seats_per_table" min="2" max="10" value="9"' in body
    response = client.post(
        reverse("floor:draw", args=[event.pk]),
        {"tables": "3", "seats_per_table": "9", "method": "random"},
    )
    assert response.status_code == 302
    assert Entry.objects.filter(event=event, status=EntryStatus.PLAYING).count() == 20


def test_busting_a_player_already_out_answers_400(client, event, floor_user):
    client.force_login(floor_user)
    player = at_table(event, 1)[0]
    scoring_services.record_busts(
        event_id=event.pk, actor=None, busts=[StackInput(entry_id=player.pk, stack=100)]
    )
    before = snapshot(event)
    response = client.post(
        reverse("scoring:record_busts", args=[event.pk]),
        {"out": [player.pk], f"stack-{player.pk}": "100"},
    )
    assert response.status_code == 400
    assert snapshot(event) == before


def test_moving_into_an_occupied_seat_answers_400_with_the_reason(client, event, floor_user):
    client.force_login(floor_user)
    mover, sitter = at_table(event, 1)[:2]
    table, number = seat_of(sitter)
    before = snapshot(event)
    response = client.post(
        reverse("floor:move", args=[event.pk]),
        {"entry": mover.pk, "table": table, "seat": number},
    )
    assert response.status_code == 400
    assert "is taken" in response.content.decode()
    assert snapshot(event) == before


def test_bad_draw_input_answers_400(client, floor_user):
    event = factories.make_event()
    factories.make_entries(event=event, count=30)
    client.force_login(floor_user)
    before = snapshot(event)
    url = reverse("floor:draw", args=[event.pk])
    for data, reason in [
        ({"tables": "0", "seats_per_table": "10", "method": "random"}, "Tables"),
        ({"tables": "2", "seats_per_table": "11", "method": "random"}, "Seats per table"),
        ({"tables": "2", "seats_per_table": "10", "method": "random"}, "do not fit"),
        ({"tables": "4", "seats_per_table": "10", "method": "card"}, "one table"),
    ]:
        response = client.post(url, data)
        assert response.status_code == 400
        assert reason in response.content.decode()
    assert snapshot(event) == before


def test_register_check_in_and_draw_through_the_forms(client, floor_user):
    event = factories.make_event()
    client.force_login(floor_user)
    for name in ["Anna", "Ben", "Cleo"]:
        client.post(reverse("floor:register", args=[event.pk]), {"name": name, "check_in": "on"})
    late = client.post(reverse("floor:register", args=[event.pk]), {"name": "Dora"})
    assert late.status_code == 302
    dora = Entry.objects.get(event=event, player__name="Dora")
    assert dora.status == EntryStatus.REGISTERED
    client.post(reverse("floor:check_in", args=[event.pk, dora.pk]))
    response = client.post(
        reverse("floor:draw", args=[event.pk]),
        {"tables": "1", "seats_per_table": "10", "method": "card"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert b"<html" not in response.content and b'id="floor"' in response.content
    assert Entry.objects.filter(event=event, status=EntryStatus.PLAYING).count() == 4
    again = client.post(reverse("floor:register", args=[event.pk]), {"name": "anna"})
    assert again.status_code == 400 and "already registered" in again.content.decode()


def test_the_standings_fragment_answers_304_while_nothing_changed(client, event):
    url = reverse("scoring:standings", args=[event.code])
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304
    victim = at_table(event, 1)[0]
    scoring_services.record_busts(
        event_id=event.pk, actor=None, busts=[StackInput(entry_id=victim.pk, stack=100)]
    )
    changed = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and victim.player.name in changed.content.decode()


def test_undo_through_the_page(client, event, floor_user):
    client.force_login(floor_user)
    victim = at_table(event, 1)[0]
    before = snapshot(event)["seats"]
    scoring_services.record_busts(
        event_id=event.pk, actor=None, busts=[StackInput(entry_id=victim.pk, stack=100)]
    )
    assert client.post(reverse("scoring:undo", args=[event.pk])).status_code == 302
    assert snapshot(event)["seats"] == before
    assert client.post(reverse("scoring:redo", args=[event.pk])).status_code == 302
    assert Entry.objects.get(pk=victim.pk).place == 20
    client.post(reverse("scoring:undo", args=[event.pk]))
    response = client.post(reverse("scoring:undo", args=[event.pk]))
    assert response.status_code == 400 and "Nothing to undo" in response.content.decode()


def _tie_post(one, two, cards):
    data = {"out": [one.pk, two.pk], f"stack-{one.pk}": "800", f"stack-{two.pk}": "800"}
    return data | {f"card-{k}": v for k, v in cards.items()}


@pytest.mark.parametrize(
    ("cards", "reason"),
    [({}, "the higher card in each one"), ({"first": "As"}, "the higher card in each one"),
     ({"first": "As", "second": "as"}, "cannot have the same card")],
)  # fmt: skip
def test_a_bust_tie_needs_each_ones_higher_card_in_hand_or_nothing_is_recorded(
    client, event, floor_user, cards, reason
):
    client.force_login(floor_user)
    one, two = at_table(event, 1)[:2]
    keyed = {{"first": one.pk, "second": two.pk}[k]: v for k, v in cards.items()}
    before = snapshot(event)
    response = client.post(
        reverse("scoring:record_busts", args=[event.pk]), _tie_post(one, two, keyed)
    )
    body = response.content.decode()
    assert response.status_code == 400
    assert reason in body  # R5.6: the card in hand, never a drawn one
    if "higher card" in reason:
        assert one.player.name in body and two.player.name in body
    assert snapshot(event) == before


def test_a_bust_tie_with_the_cards_in_hand_is_placed_by_them(client, event, floor_user):
    client.force_login(floor_user)
    one, two = at_table(event, 1)[:2]
    data = _tie_post(one, two, {one.pk: "Kd", two.pk: "kS"})
    response = client.post(reverse("scoring:record_busts", args=[event.pk]), data)
    assert response.status_code == 302
    # R5.6, R1.6: equal rank, spades beat diamonds
    assert [Entry.objects.get(pk=e.pk).place for e in (two, one)] == [19, 20]


def test_the_bust_form_asks_for_the_higher_card_in_hand_and_the_stop_for_the_card_drawn(
    client, event, floor_user
):
    client.force_login(floor_user)
    body = client.get(reverse("floor:tables", args=[event.pk])).content.decode()
    assert "Higher card in hand (tie)" in body and "Card drawn (tie)" in body
    player = at_table(event, 1)[0]
    assert f"Higher card in the hand of {player.player.name}" in body
    client.cookies["django_language"] = "de"
    german = client.get(
        reverse("floor:tables", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "Höhere Karte auf der Hand (Gleichstand)" in german


def test_the_floor_sets_button_and_small_blind_and_the_page_shows_both(client, event, floor_user):
    client.force_login(floor_user)
    response = client.post(
        reverse("floor:button", args=[event.pk]), {"table": "1", "seat": "3", "small_blind": "5"}
    )
    assert response.status_code == 302
    body = client.get(reverse("floor:tables", args=[event.pk])).content.decode()
    assert 'data-testid="small-blind-1">SB<' in body
    assert "Button seat 3, small blind seat 5" in body
    assert 'name="small_blind" min="1" max="10" value="5"' in body
