"""The event form's optional Money fieldset: amounts as typed, refusals, audit, freeroll default."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_event, make_structure
from tournaments.entry_services import register_entry
from tournaments.models import AuditEvent, Event, EventMoney

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, admin_user):
    client.force_login(admin_user)
    return client


def form_data(structure, /, **money):
    data = {
        "name": "Friday bounty",
        "kind": "custom",
        "structure": structure.pk,
        "starting_stack": "3000",
        "scheduled_start": "2026-05-02T19:30",
        "season": "",
    }
    return data | {f"money-{name}": value for name, value in money.items()}


def test_an_event_without_money_stays_a_freeroll(admin_client):
    structure = make_structure()
    response = admin_client.post(reverse("tournaments:event_create"), form_data(structure))
    assert response.status_code == 303
    assert not EventMoney.objects.exists()
    assert not AuditEvent.objects.filter(action="event.money").exists()


@pytest.mark.parametrize(("typed", "cents"), [("20", 2000), ("20.00", 2000), ("20,00", 2000)])
def test_amounts_are_read_as_typed_and_stored_in_cents(admin_client, typed, cents):
    structure = make_structure()
    data = form_data(structure, buy_in=typed, fee="2,50", bounty="5")
    response = admin_client.post(reverse("tournaments:event_create"), data)
    assert response.status_code == 303
    row = EventMoney.objects.get()
    assert (row.buy_in, row.fee, row.bounty) == (cents, 250, 500)
    assert AuditEvent.objects.get(action="event.money").data["after"]["buy_in"] == cents


def test_rebuys_and_add_on_are_saved_with_their_levels(admin_client):
    structure = make_structure()
    data = form_data(
        structure, buy_in="10", rebuy_price="10", rebuy_chips="3000", rebuy_last_level="2",
        rebuy_limit="3", add_on_price="5", add_on_chips="5000", add_on_first_level="2",
        add_on_last_level="2", re_entry="on", late_registration_last_level="1",
    )  # fmt: skip
    assert admin_client.post(reverse("tournaments:event_create"), data).status_code == 303
    rules = EventMoney.objects.get().rules()
    assert rules.rebuy is not None and rules.rebuy.chips == 3000
    assert (rules.rebuy_window.last, rules.rebuy_limit) == (2, 3)
    assert rules.add_on is not None and rules.add_on_window.first == 2
    assert rules.re_entry and rules.re_entry_window.last == 1  # closes with late registration


@pytest.mark.parametrize(
    ("money", "field_error"),
    [
        ({"buy_in": "zwanzig"}, "Give an amount such as 20, 20.00 or 20,00."),
        ({"buy_in": "10", "bounty": "20"}, "The bounty is part of the buy-in: at most the buy-in."),
        ({"rebuy_price": "10"}, "Say how many chips it gives."),
        ({"rebuy_chips": "1000", "rebuy_last_level": "9"}, "The structure has no such level."),
        (
            {"add_on_chips": "1000", "add_on_first_level": "2", "add_on_last_level": "1"},
            "The last level comes before the first.",
        ),
    ],
)
def test_bad_money_is_refused_and_changes_nothing(admin_client, money, field_error):
    structure = make_structure()
    response = admin_client.post(reverse("tournaments:event_create"), form_data(structure, **money))
    assert response.status_code == 422
    assert field_error in response.content.decode()
    assert not Event.objects.exists()
    assert not EventMoney.objects.exists()


def test_the_edit_form_shows_the_amounts_in_the_pages_language(admin_client):
    event = make_event()
    EventMoney.objects.create(event=event, buy_in=2000, fee=250)
    page = admin_client.get(
        reverse("tournaments:event_edit", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert 'value="20,00"' in page and 'value="2,50"' in page
    assert '<details class="money-settings" open>' in page


def test_clearing_the_money_makes_the_event_a_freeroll_again(admin_client):
    event = make_event()
    EventMoney.objects.create(event=event, buy_in=2000)
    data = form_data(event.structure)
    assert (
        admin_client.post(reverse("tournaments:event_edit", args=[event.pk]), data).status_code
        == 303
    )
    assert not EventMoney.objects.exists()
    audit = AuditEvent.objects.get(action="event.money")
    assert audit.data["before"]["buy_in"] == 2000 and audit.data["after"] == {}


def admin_event_data(event, **money):
    """The Django admin's event change form with the money inline."""
    data = {
        "name": event.name,
        "kind": event.kind,
        "structure": event.structure_id,
        "starting_stack": event.starting_stack,
        "scheduled_start_0": "2026-05-02",
        "scheduled_start_1": "19:30:00",
        "status": event.status,
        "code": event.code,
        "season": "",
        "money-TOTAL_FORMS": 1,
        "money-INITIAL_FORMS": 0,
        "money-MIN_NUM_FORMS": 0,
        "money-MAX_NUM_FORMS": 1,
    }
    defaults = {
        "buy_in": 0, "fee": 0, "bounty": 0, "rebuy_price": 0, "rebuy_fee": 0, "rebuy_chips": 0,
        "rebuy_first_level": 1, "add_on_price": 0, "add_on_fee": 0, "add_on_chips": 0,
        "add_on_first_level": 1, "add_on_limit": 1, "guarantee": 0,
    }  # fmt: skip
    for name, value in (defaults | money).items():
        data[f"money-0-{name}"] = value
    data["money-0-event"] = event.pk
    return data


def test_money_set_in_the_django_admin_is_audited(admin_client):
    event = make_event()
    url = reverse("admin:tournaments_event_change", args=[event.pk])
    response = admin_client.post(url, admin_event_data(event, buy_in=1500, fee=150))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert (EventMoney.objects.get().buy_in, EventMoney.objects.get().fee) == (1500, 150)
    audit = AuditEvent.objects.get(action="event.money")
    assert audit.data["source"] == "admin" and "buy_in" in audit.data["changed"]


def test_the_ledger_cannot_be_edited_in_the_django_admin(admin_client):
    event = make_event()
    EventMoney.objects.create(event=event, buy_in=1000)
    entry = register_entry(event_id=event.pk, actor=None, name="Anna")
    purchase = entry.purchases.get()
    listing = admin_client.get(reverse("admin:tournaments_purchase_changelist"))
    assert listing.status_code == 200 and "Anna" in listing.content.decode()
    url = reverse("admin:tournaments_purchase_change", args=[purchase.pk])
    admin_client.post(url, {"amount": 1})
    purchase.refresh_from_db()
    assert purchase.amount == 1000
    delete = reverse("admin:tournaments_purchase_delete", args=[purchase.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403


def test_the_django_admin_refuses_a_rebuy_without_chips(admin_client):
    event = make_event()
    url = reverse("admin:tournaments_event_change", args=[event.pk])
    response = admin_client.post(url, admin_event_data(event, rebuy_price=1000))
    assert response.status_code == 200  # the form again, with the reason
    assert "Say how many chips it gives." in response.content.decode()
    assert not EventMoney.objects.exists()
