"""The payout editor, an event's payouts and the deal calculator through their views: roles,
every action, refusals that change nothing, German pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.payout_models import Deal, EventPayout, PayoutStructure, PayoutTier
from scoring.payout_selectors import players_left
from scoring.payout_services import create_payout_structure, load_payout_presets
from scoring.services import StackInput, record_busts
from tests.factories import make_event
from tests.scoring.payout_helpers import money_event
from tests.test_i18n import ENGLISH_ONLY, GERMAN_ONLY, readable_text
from tournaments.models import AuditEvent

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def snapshot():
    return (
        list(PayoutStructure.objects.order_by("pk").values()),
        list(PayoutTier.objects.order_by("pk").values()),
        list(EventPayout.objects.order_by("pk").values()),
        list(Deal.objects.order_by("pk").values()),
        AuditEvent.objects.count(),
    )


@pytest.fixture
def admin_client(client, admin_user):
    client.force_login(admin_user)
    return client


@pytest.fixture
def floor_client(client, floor_user):
    client.force_login(floor_user)
    return client


@pytest.fixture
def house(admin_user):
    return create_payout_structure(actor=admin_user, name="House")


# --- roles --------------------------------------------------------------------------------------


def test_only_admins_edit_payouts_and_only_floor_staff_make_deals(client, house, player_user):
    event = make_event()
    admin_pages = [
        reverse("payouts:structure_list"),
        reverse("payouts:structure_editor", args=[house.pk]),
        reverse("payouts:event_payouts", args=[event.pk]),
    ]
    floor_pages = [reverse("payouts:deal", args=[event.pk])]
    for url in admin_pages + floor_pages:
        assert client.get(url).status_code == 302  # to the log-in
    client.force_login(player_user)
    for url in admin_pages + floor_pages:
        assert client.get(url).status_code == 403
    before = snapshot()
    response = client.post(
        reverse("payouts:row_add", args=[house.pk]),
        {"min_entries": 2, "max_entries": "", "percentages": "100"},
    )
    assert response.status_code == 403 and snapshot() == before


# --- the editor ---------------------------------------------------------------------------------


def test_an_admin_creates_a_structure_and_adds_rows_with_htmx(admin_client):
    response = admin_client.post(
        reverse("payouts:structure_create"), {"name": "Friday", "description": ""}
    )
    structure = PayoutStructure.objects.get(name="Friday")
    assert response.status_code == 302
    assert response["Location"] == reverse("payouts:structure_editor", args=[structure.pk])
    url = reverse("payouts:row_add", args=[structure.pk])
    response = admin_client.post(
        url, {"min_entries": 2, "max_entries": 9, "percentages": "27,5 ; 22,5 / 50"}, **HTMX
    )
    assert response.status_code == 422  # 2nd pays less than 3rd
    assert "a place pays more than the place above it" in response.content.decode().lower()
    response = admin_client.post(
        url, {"min_entries": 2, "max_entries": 9, "percentages": "65 35"}, **HTMX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.strip().startswith('<section id="rows"')  # the fragment only
    assert structure.rows()[0].percentages == (6_500, 3_500)
    assert "10 or more entries" in html  # the gap the editor points out


def test_a_row_that_clashes_with_another_is_refused_naming_it(admin_client, admin_user, house):
    admin_client.post(
        reverse("payouts:row_add", args=[house.pk]),
        {"min_entries": 2, "max_entries": 10, "percentages": "100"},
    )
    before = snapshot()
    response = admin_client.post(
        reverse("payouts:row_add", args=[house.pk]),
        {"min_entries": 10, "max_entries": "", "percentages": "50 30 20"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 422
    assert "Row 2 (10 or more entries): its fields overlap" in response.content.decode()
    assert snapshot() == before


def test_a_row_is_edited_and_deleted(admin_client, house):
    admin_client.post(
        reverse("payouts:row_add", args=[house.pk]),
        {"min_entries": 2, "max_entries": 10, "percentages": "100"},
    )
    tier = house.tiers.get()
    page = admin_client.get(
        reverse("payouts:structure_editor", args=[house.pk]) + f"?edit={tier.pk}",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert 'value="100"' in page.content.decode()
    response = admin_client.post(
        reverse("payouts:row_update", args=[house.pk, tier.pk]),
        {"min_entries": 3, "max_entries": 10, "percentages": "60 40"},
    )
    assert response.status_code == 302
    tier.refresh_from_db()
    assert (tier.min_entries, tier.percentages) == (3, [6_000, 4_000])
    admin_client.post(reverse("payouts:row_delete", args=[house.pk, tier.pk]))
    assert not house.tiers.exists()
    actions = list(AuditEvent.objects.order_by("pk").values_list("action", flat=True))
    assert actions[-3:] == ["payouts.row_saved", "payouts.row_saved", "payouts.row_deleted"]


def test_a_preset_is_read_only_and_can_be_duplicated(admin_client):
    club = load_payout_presets()[0]
    before = snapshot()
    response = admin_client.post(
        reverse("payouts:row_add", args=[club.pk]),
        {"min_entries": 2, "max_entries": 3, "percentages": "100"},
    )
    assert response.status_code == 422 and snapshot() == before
    response = admin_client.post(
        reverse("payouts:structure_duplicate", args=[club.pk]), {"name": "Our club"}
    )
    copy = PayoutStructure.objects.get(name="Our club")
    assert response.status_code == 302 and copy.rows() == club.rows()


# --- an event's payouts -------------------------------------------------------------------------


def test_an_admin_picks_the_payout_structure_of_an_event(admin_client, floor_user):
    event = money_event(actor=floor_user, players=8, payout=None)
    url = reverse("payouts:event_payouts", args=[event.pk])
    html = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="payout-table"' not in html  # no structure yet: the pool only
    club = PayoutStructure.objects.get(name="Club table")
    response = admin_client.post(url, {"structure": club.pk, "unit": 500, "remainder": "winner"})
    assert response.status_code == 302
    payout = EventPayout.objects.get(event=event)
    assert (payout.structure, payout.unit) == (club, 500)
    html = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    # 240 € at 50/30/20 to 5 €: 120, 72 -> 70, 48 -> 45; the 5 € over go to the winner.
    assert "125,00\u00a0€" in html and "70,00\u00a0€" in html and "Preispool" in html
    response = admin_client.post(url, {"structure": club.pk, "unit": 3, "remainder": "winner"})
    assert response.status_code == 422
    assert EventPayout.objects.get(event=event).unit == 500


def test_a_freeroll_page_says_so(admin_client):
    event = make_event()
    html = admin_client.get(
        reverse("payouts:event_payouts", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert 'data-testid="freeroll"' in html and 'data-testid="payouts"' not in html


# --- the deal calculator ------------------------------------------------------------------------


def three_left(floor_user):
    event = money_event(actor=floor_user, players=6)
    for entry in players_left(event)[:3]:
        record_busts(event_id=event.pk, actor=floor_user, busts=[StackInput(entry.pk, 3_000)])
    return event, players_left(event)


def deal_data(left, chips, **extra):
    data = {f"chips_{entry.pk}": count for entry, count in zip(left, chips, strict=True)}
    return {"key": "page-1", "kept": "", **data, **extra}


def test_the_floor_calculates_both_deals_side_by_side(floor_client, floor_user):
    event, left = three_left(floor_user)
    url = reverse("payouts:deal", args=[event.pk])
    page = floor_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page.count('name="chips_') == 3 and 'value="' not in page.split("chips_")[1][:80]
    response = floor_client.post(url, deal_data(left, [9_000, 6_000, 3_000]), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and html.strip().startswith('<div id="deal"')
    assert 'data-testid="chop-1">€90.00' in html  # 180 € by chips: 90/60/30
    assert 'data-testid="icm-total">€180.00' in html
    assert not Deal.objects.exists()


def test_the_page_says_when_icm_is_an_estimate_and_how_close(floor_client, floor_user, monkeypatch):
    event, left = three_left(floor_user)
    url = reverse("payouts:deal", args=[event.pk])
    data = deal_data(left, [9_000, 6_000, 3_000])
    exact = floor_client.post(url, data, HTTP_ACCEPT_LANGUAGE="en", **HTMX).content.decode()
    assert 'data-testid="icm-estimate"' not in exact
    monkeypatch.setattr("scoring.deals.EXACT_ICM_STEPS", 0)  # as if 18 players were left
    html = floor_client.post(url, data, HTTP_ACCEPT_LANGUAGE="en", **HTMX).content.decode()
    assert "333,333 simulated finishes" in html and "of the exact value (99.7 %)" in html
    assert 'data-testid="icm-total">€180.00' in html


def test_a_saved_deal_is_saved_once_and_can_be_cancelled(floor_client, floor_user):
    event, left = three_left(floor_user)
    url = reverse("payouts:deal", args=[event.pk])
    data = deal_data(left, [9_000, 6_000, 3_000], method="icm")
    first = floor_client.post(url, data)
    second = floor_client.post(url, data)  # the double click
    assert first.status_code == second.status_code == 302
    deal = Deal.objects.get()
    assert deal.method == "icm" and sum(line["amount"] for line in deal.lines) == 18_000
    html = floor_client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Gespeicherter Deal: ICM" in html
    floor_client.post(reverse("payouts:deal_cancel", args=[event.pk, deal.pk]))
    deal.refresh_from_db()
    assert deal.cancelled_at is not None
    assert [a.action for a in AuditEvent.objects.filter(action__startswith="deal.")] == [
        "deal.cancelled",
        "deal.saved",
    ]


@pytest.mark.parametrize(
    ("chips", "kept", "message"),
    [
        ([9_000, 0, 3_000], "", "greater than or equal to 1"),
        ([9_000, 6_000, 3_000], "abc", "is not an amount of money"),
        ([9_000, 6_000, 3_000], "60", "at most 1st prize minus 2nd prize"),
    ],
)
def test_bad_input_is_refused_with_a_reason_and_saves_nothing(
    floor_client, floor_user, chips, kept, message
):
    event, left = three_left(floor_user)
    before = snapshot()
    response = floor_client.post(
        reverse("payouts:deal", args=[event.pk]),
        deal_data(left, chips, kept=kept, method="chip_chop"),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 422
    assert message in response.content.decode()
    assert snapshot() == before


@pytest.mark.parametrize(
    ("url_name", "german", "english"),
    [
        ("payouts:structure_list", ["Auszahlungsstrukturen", "Neue Auszahlungsstruktur"],
         ["Payout structures", "New payout structure"]),
        ("payouts:structure_editor", ["Zeile hinzufügen", "Prozente, 1. Platz zuerst"],
         ["Add row", "Percentages, 1st place first"]),
        ("payouts:event_payouts", ["Auszahlungsstruktur", "Preispool"],
         ["Payout structure", "Prize pool"]),
        ("payouts:deal", ["Berechnen", "Für den Sieger zurückbehalten"],
         ["Calculate", "Kept back for the winner"]),
    ],
)  # fmt: skip
def test_every_payout_page_speaks_the_browsers_language(
    client, admin_user, floor_user, house, url_name, german, english
):
    event = money_event(actor=floor_user, players=4)
    client.force_login(admin_user)
    args = [house.pk] if url_name == "payouts:structure_editor" else [event.pk]
    url = reverse(url_name, args=[] if url_name == "payouts:structure_list" else args)
    for language, present, absent, giveaway in (
        ("de", german, english, ENGLISH_ONLY),
        ("en", english, german, GERMAN_ONLY),
    ):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        text = readable_text(html)
        for word in present:
            assert word in text, (language, word)
        for word in absent:
            assert word not in text, (language, word)
        # Preset names are data, shown as typed ("Winner takes all", "Club table").
        leaks = [w for w in giveaway.findall(text) if w not in {"takes"}]
        assert leaks == [], (url, language, leaks)


def test_chip_counts_that_miss_the_chips_in_play_are_pointed_out(floor_client, floor_user):
    """6 entries of 3,000 chips: 18,000 in play. Counts adding up to 17,000 still calculate,
    with a note to check them."""
    event, left = three_left(floor_user)
    url = reverse("payouts:deal", args=[event.pk])
    html = floor_client.post(
        url, deal_data(left, [9_000, 6_000, 2_000]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "The chips typed add up to 17,000, but 18,000 are in play" in html
    html = floor_client.post(
        url, deal_data(left, [9_000, 6_000, 3_000]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert 'data-testid="chips-differ"' not in html


# --- the standings fragment (floor, TV, phone) --------------------------------------------------


def test_the_standings_show_the_prize_pool_the_payouts_and_each_finished_prize(client, floor_user):
    event = money_event(actor=floor_user, players=8, code="money8")  # 240 €: 120/72/48
    left = players_left(event)
    for entry in left[:6]:
        record_busts(event_id=event.pk, actor=floor_user, busts=[StackInput(entry.pk, 3_000)])
    html = client.get(
        reverse("scoring:standings", args=[event.code]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert 'data-testid="prize-pool">240,00\u00a0€' in html
    assert '<td>1.</td><td>50\u00a0%</td><td class="num">120,00\u00a0€</td>' in html
    assert 'data-testid="prize-3">48,00\u00a0€' in html  # the 3rd place is decided
    assert 'data-testid="prize-4"></td>' in html  # 4th wins nothing
    assert left[5].player.name in html.split('data-place="3"')[2]  # named in the payouts


def test_a_freeroll_shows_no_money_at_all(client, floor_user):
    event = money_event(actor=floor_user, players=4, payout=None, buy_in=0, fee=0, code="free4")
    record_busts(
        event_id=event.pk, actor=floor_user, busts=[StackInput(players_left(event)[0].pk, 3_000)]
    )
    html = client.get(reverse("scoring:standings", args=[event.code])).content.decode()
    assert 'data-testid="payouts"' not in html
    assert "prize" not in html.lower() and "€" not in html


def test_the_standings_follow_a_saved_deal(client, floor_user):
    event, left = three_left(floor_user)
    from scoring.payout_models import DealMethod
    from scoring.payout_services import save_deal

    stacks = {entry.pk: chips for entry, chips in zip(left, [9_000, 6_000, 3_000], strict=True)}
    save_deal(actor=floor_user, event_id=event.pk, method=DealMethod.CHIP_CHOP, stacks=stacks,
              kept=0, key="deal")  # fmt: skip
    html = client.get(
        reverse("scoring:standings", args=[event.code]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Deal (Chip-chop) of the last 3 players:" in html
    assert f'data-deal-entry="{left[0].pk}"><td>{left[0].label}</td><td class="num">€90.00' in html
    assert 'data-testid="payout-table"' not in html  # the deal covers every place still paid


def test_the_floor_dashboard_links_the_deal_only_when_the_event_pays_prizes(
    floor_client, floor_user
):
    paid = money_event(actor=floor_user, players=3, code="paid3")
    free = money_event(actor=floor_user, players=3, payout=None, buy_in=0, fee=0, code="free3")
    html = floor_client.get(reverse("floor:event_floor", args=[paid.pk])).content.decode()
    assert f'href="{reverse("payouts:deal", args=[paid.pk])}"' in html
    html = floor_client.get(reverse("floor:event_floor", args=[free.pk])).content.decode()
    assert 'data-testid="deal-link"' not in html


def test_the_event_list_and_the_home_page_lead_admins_to_the_payouts(admin_client):
    event = make_event()
    html = admin_client.get(reverse("tournaments:event_list")).content.decode()
    assert f'href="{reverse("payouts:event_payouts", args=[event.pk])}"' in html
    html = admin_client.get(reverse("home")).content.decode()
    assert f'href="{reverse("payouts:structure_list")}"' in html


def test_the_results_csv_of_an_event_with_money_adds_each_prize(client, floor_user):
    import csv
    import io

    event = money_event(actor=floor_user, players=4)  # 120 €: 78/42
    for entry in players_left(event)[:3]:
        record_busts(event_id=event.pk, actor=floor_user, busts=[StackInput(entry.pk, 3_000)])
    response = client.get(reverse("seasons:event_results_csv", args=[event.pk]))
    table = list(csv.reader(io.StringIO(response.content.decode())))
    assert table[0][-1] == "prize_eur"
    assert [(row[0], row[-1]) for row in table[1:]] == [
        ("1", "78.00"), ("2", "42.00"), ("3", ""), ("4", ""),
    ]  # fmt: skip
    free = money_event(actor=floor_user, players=2, payout=None, buy_in=0, fee=0, code="f2")
    response = client.get(reverse("seasons:event_results_csv", args=[free.pk]))
    assert "prize" not in response.content.decode()
