"""The public seat pages: the seat list, find my seat, a moved player's phone."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services as scoring_services
from scoring.services import StackInput
from tables import services
from tests.floor_helpers import at_table, seat_of, seated_event
from tournaments import money_services
from tournaments.models import EventMoney

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return seated_event(players=20, tables=2)[0]


def test_a_moved_players_phone_says_where_to_go(client, event):
    for victim in at_table(event, 1)[:3]:
        scoring_services.record_busts(
            event_id=event.pk, actor=None, busts=[StackInput(entry_id=victim.pk, stack=100)]
        )
    plan = services.pending_plan(event)
    move = plan.moves.get()
    services.confirm_plan(event_id=event.pk, step_id=plan.pk, actor=None)
    response = client.get(reverse("tables:my_seat", args=[event.code, move.entry_id]))
    assert f"Go to table {move.to_table.number}, seat {move.to_seat}" in response.content.decode()
    found = client.get(
        reverse("tables:public_seats", args=[event.code]), {"name": move.entry.player.name}
    )
    assert f"Go to table {move.to_table.number}, seat {move.to_seat}" in found.content.decode()


def test_the_public_seat_list_and_find_my_seat(client, event):
    player = at_table(event, 2)[0]
    table, number = seat_of(player)
    response = client.get(reverse("tables:public_seats", args=[event.code]), {"name": "player 0"})
    body = response.content.decode()
    assert response.status_code == 200
    assert "Table 1" in body and "Table 2" in body
    assert "Player 01" in body
    missing = client.get(reverse("tables:public_seats", args=[event.code]), {"name": "Nobody"})
    assert "Nobody" in missing.content.decode()
    mine = client.get(reverse("tables:my_seat", args=[event.code, player.pk]))
    assert f"<strong>{table}</strong>" in mine.content.decode()
    assert f"<strong>{number}</strong>" in mine.content.decode()
    assert "Go to table" not in mine.content.decode()


def test_a_re_entered_player_is_listed_with_the_entry_number(client, floor_user):
    """As the standings name him (Entry.label): "Player 01" busted, "Player 01 (2)" seated."""
    event, entries = seated_event(players=6, tables=1)
    EventMoney.objects.create(event=event, buy_in=1000, re_entry=True)
    first = entries[0]
    scoring_services.record_busts(
        event_id=event.pk, actor=floor_user, busts=[StackInput(entry_id=first.pk, stack=9)]
    )
    again = money_services.re_enter(event_id=event.pk, entry_id=first.pk, actor=floor_user)
    services.seat_entry(event_id=event.pk, entry_id=again.pk, actor=floor_user)
    table, number = seat_of(again)
    url = reverse("tables:public_seats", args=[event.code])
    body = client.get(url, {"name": "Player 01"}).content.decode()
    found = [line for line in body.splitlines() if "<strong>Player 01" in line]
    assert [line.split("<strong>")[1].split("</strong>")[0] for line in found] == [
        "Player 01", "Player 01 (2)",
    ]  # fmt: skip
    assert f"table {table}, seat {number}" in body
    assert f'<span class="seat-no">{number}</span> Player 01 (2)</li>' in body
    mine = client.get(reverse("tables:my_seat", args=[event.code, again.pk])).content.decode()
    assert '<h1 class="seat-name">Player 01 (2)</h1>' in mine
