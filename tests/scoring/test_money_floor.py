"""The floor's money: buy-in at registration, rebuy/add-on/re-entry buttons, "busted by" for
bounties; refusals with reasons that change nothing; a double submit buys once (docs/money.md)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import undo_services
from scoring.services import StackInput, record_busts
from tests.floor_helpers import seated_event, snapshot
from tournaments import money_services
from tournaments.models import AuditEvent, Entry, EntryStatus, EventMoney, Purchase

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_client(client, floor_user):
    client.force_login(floor_user)
    return client


def floor_page(client, event, **headers):
    return client.get(reverse("floor:tables", args=[event.pk]), **headers).content.decode()


def buy(client, event, entry, kind, key="k1"):
    data = {"entry": entry.pk, "kind": kind, "key": key}
    return client.post(reverse("scoring:buy", args=[event.pk]), data)


def test_a_freeroll_floor_page_shows_no_money(floor_client):
    event, _ = seated_event(players=4, tables=1)
    page = floor_page(floor_client, event)
    assert 'data-testid="money"' not in page
    assert "register-price" not in page and "Busted by" not in page


def test_registering_with_a_buy_in_records_it_once(floor_client):
    event, _ = seated_event(players=4, tables=1)
    EventMoney.objects.create(event=event, buy_in=2000, fee=200)
    page = floor_page(floor_client, event, HTTP_ACCEPT_LANGUAGE="de")
    assert "20,00\u00a0€ + 2,00\u00a0€" in page
    data = {"name": "Late Lisa", "check_in": "on", "key": "reg-1"}
    url = reverse("floor:register", args=[event.pk])
    assert floor_client.post(url, data).status_code == 302
    assert floor_client.post(url, data).status_code == 400  # already registered: nothing bought
    purchase = Purchase.objects.get(entry__player__name="Late Lisa")
    assert (purchase.kind, purchase.amount, purchase.fee) == ("buy_in", 2000, 200)


def test_a_rebuy_button_buys_once_and_refuses_over_the_limit(floor_client):
    event, entries = seated_event(players=4, tables=1)
    EventMoney.objects.create(event=event, rebuy_price=1000, rebuy_chips=3000, rebuy_limit=1)
    page = floor_page(floor_client, event)
    assert f'data-testid="rebuy-{entries[0].pk}"' in page
    assert buy(floor_client, event, entries[0], "rebuy").status_code == 302
    assert buy(floor_client, event, entries[0], "rebuy").status_code == 302  # the same key: once
    assert Purchase.objects.filter(kind="rebuy").count() == 1
    before = snapshot(event)
    response = buy(floor_client, event, entries[0], "rebuy", key="k2")
    assert response.status_code == 400
    assert "has reached the limit of 1" in response.content.decode()
    assert snapshot(event) == before and Purchase.objects.count() == 1
    page = floor_page(floor_client, event)
    assert f'data-testid="rebuy-{entries[0].pk}"' not in page
    # the bust form's hint for his stack counts the rebuy's chips
    assert (
        f'name="stack-{entries[0].pk}" inputmode="numeric" value="" title="He has had 6000' in page
    )
    assert (
        f'name="stack-{entries[1].pk}" inputmode="numeric" value="" title="He has had 3000' in page
    )


def test_a_freeze_out_refuses_a_forged_rebuy(floor_client):
    """R5.1: no rebuy, no add-on, whatever the request says."""
    event, entries = seated_event(players=4, tables=1)
    EventMoney.objects.create(event=event, buy_in=1000)
    response = buy(floor_client, event, entries[0], "add_on")
    assert response.status_code == 400 and "R5.1" in response.content.decode()
    assert not Purchase.objects.exists()


def test_a_busted_player_re_enters_from_the_floor(floor_client, floor_user):
    event, entries = seated_event(players=4, tables=1)
    EventMoney.objects.create(event=event, buy_in=1000, re_entry=True)
    record_busts(
        event_id=event.pk, actor=floor_user, busts=[StackInput(entry_id=entries[0].pk, stack=50)]
    )
    assert f'data-testid="re_entry-{entries[0].pk}"' in floor_page(floor_client, event)
    assert buy(floor_client, event, entries[0], "re_entry").status_code == 302
    again = Entry.objects.get(player=entries[0].player, number=2)
    assert again.status == EntryStatus.CHECKED_IN
    assert f"{entries[0].player.name} (2)" in floor_page(floor_client, event)


def test_the_floor_page_has_no_player_role_access(client, player_user):
    event, entries = seated_event(players=2, tables=1)
    client.force_login(player_user)
    assert buy(client, event, entries[0], "rebuy").status_code == 403


def bounty_event():
    event, entries = seated_event(players=4, tables=1)
    EventMoney.objects.create(event=event, buy_in=2000, bounty=500)
    return event, entries


def test_a_bounty_event_asks_who_busted_the_player(floor_client):
    event, entries = bounty_event()
    assert "Busted by" in floor_page(floor_client, event)
    url = reverse("scoring:record_busts", args=[event.pk])
    out = {"out": entries[0].pk, f"stack-{entries[0].pk}": "100"}
    response = floor_client.post(url, out)
    assert response.status_code == 400 and "choose who busted him" in response.content.decode()
    assert not Entry.objects.filter(place__isnull=False).exists()
    assert floor_client.post(url, out | {f"by-{entries[0].pk}": entries[1].pk}).status_code == 302
    assert Entry.objects.get(pk=entries[0].pk).busted_by_id == entries[1].pk
    audit = AuditEvent.objects.filter(action="busts.recorded").latest("pk")
    assert audit.data["busted_by"] == {str(entries[0].pk): entries[1].pk}


def test_undo_gives_the_bounty_back_and_redo_restores_it(floor_user):
    event, entries = bounty_event()
    bust = StackInput(entry_id=entries[0].pk, stack=100, busted_by=entries[2].pk)
    record_busts(event_id=event.pk, actor=floor_user, busts=[bust])
    undo_services.undo_last(event_id=event.pk, actor=floor_user)
    assert Entry.objects.get(pk=entries[0].pk).busted_by_id is None
    undo_services.redo_next(event_id=event.pk, actor=floor_user)
    assert Entry.objects.get(pk=entries[0].pk).busted_by_id == entries[2].pk


def test_a_bust_whose_player_re_entered_cannot_be_undone(floor_user):
    event, entries = seated_event(players=4, tables=1)
    EventMoney.objects.create(event=event, buy_in=1000, re_entry=True)
    record_busts(
        event_id=event.pk, actor=floor_user, busts=[StackInput(entry_id=entries[0].pk, stack=50)]
    )
    money_services.re_enter(event_id=event.pk, entry_id=entries[0].pk, actor=floor_user)
    before = snapshot(event)
    with pytest.raises(undo_services.EntryStateError, match="has re-entered"):
        undo_services.undo_last(event_id=event.pk, actor=floor_user)
    assert snapshot(event) == before


def test_the_money_card_speaks_german(floor_client):
    event, _ = bounty_event()
    page = floor_page(floor_client, event, HTTP_ACCEPT_LANGUAGE="de")
    assert "Preispool" in page and "Ausgeschaltet von" in page
    assert "Bounty 5,00\u00a0€" in page


def test_the_floor_takes_back_a_rebuy_once(floor_client):
    event, entries = seated_event(players=4, tables=1)
    EventMoney.objects.create(event=event, rebuy_price=1000, rebuy_chips=3000)
    buy(floor_client, event, entries[0], "rebuy")
    purchase = Purchase.objects.get(kind="rebuy")
    assert f'data-testid="void-{purchase.pk}"' in floor_page(floor_client, event)
    url = reverse("scoring:void", args=[event.pk])
    for _click in range(2):
        assert floor_client.post(url, {"purchase": purchase.pk}).status_code == 302
    assert AuditEvent.objects.filter(action="money.voided").count() == 1
    assert f'data-testid="void-{purchase.pk}"' not in floor_page(floor_client, event)
    response = floor_client.post(url, {"purchase": 999_999})
    assert response.status_code == 400 and "no such purchase" in response.content.decode()


def test_the_tv_and_phones_average_counts_the_rebuy(floor_client, client):
    event, entries = seated_event(players=4, tables=1)  # 4 x 3,000
    EventMoney.objects.create(event=event, rebuy_price=1000, rebuy_chips=4000)
    url = reverse("scoring:standings", args=[event.code])
    before = client.get(url)
    assert "3,000" in before.content.decode()
    buy(floor_client, event, entries[0], "rebuy")
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200  # not 304: the figure changed
    assert "4,000" in after.content.decode()  # 16,000 chips over 4 players
