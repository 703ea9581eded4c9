"""Absurd numbers through the pages: a form error with its reason, nothing changes (issue 16)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.factories import make_structure
from tests.floor_helpers import at_table, seated_event
from tests.floor_helpers import snapshot as floor_snapshot
from tests.tournaments.test_event_views import form_data
from tests.tournaments.test_event_views import snapshot as event_snapshot
from tests.tournaments.test_structure_views import level_data
from tests.tournaments.test_structure_views import snapshot as structure_snapshot
from tournaments.bounds import MAX_ID, MAX_LEVELS, parse_id
from tournaments.models import BlindStructure, Event

pytestmark = pytest.mark.django_db

HUGE, NEGATIVE, ZERO = 10**30, -5, 0


@pytest.fixture
def admin_client(client, admin_user):
    client.force_login(admin_user)
    return client


@pytest.fixture
def structure(db):
    return make_structure(levels=((25, 50, 0, 12), (50, 100, 0, 12)))


def document(**changes):
    levels = [
        {"small_blind": 25, "big_blind": 50, "ante": 0, "minutes": 15},
        {"small_blind": 50, "big_blind": 100, "ante": 0, "minutes": 15},
    ]
    data = {
        "format": "floorman.blind_structure",
        "version": 1,
        "name": "Imported",
        "game": "no_limit",
        "starting_stack": 10_000,
        "chip_set": "Standard (R5.12)",
        "smallest_chip": None,
        "levels": levels,
    }
    return data | changes


def import_text(client, text):
    return client.post(reverse("tournaments:structure_import"), {"text": text})


def test_the_reference_document_imports(admin_client, structure):
    response = import_text(admin_client, json.dumps(document()))
    assert response.status_code == 302
    assert BlindStructure.objects.filter(name="Imported").exists()


IMPORT_FIELDS = ["small_blind", "big_blind", "ante", "minutes", "chip_up", "starting_stack",
                 "smallest_chip"]  # fmt: skip


@pytest.mark.parametrize(
    ("field", "value"),
    [(f, v) for f in IMPORT_FIELDS for v in (HUGE, NEGATIVE, ZERO) if (f, v) != ("ante", ZERO)],
)
def test_an_absurd_number_in_an_import_is_refused_with_the_reason(
    admin_client, structure, field, value
):
    data = document()
    if field in ("starting_stack", "smallest_chip"):
        data[field] = value
    else:
        data["levels"][1][field] = value
    before = structure_snapshot()
    response = import_text(admin_client, json.dumps(data))
    assert response.status_code == 422
    assert 'class="errorlist' in response.content.decode() or "problem" in response.content.decode()
    assert structure_snapshot() == before


def test_json_nested_100000_deep_is_refused(admin_client, structure):
    before = structure_snapshot()
    response = import_text(admin_client, "[" * 100_000 + "]" * 100_000)
    assert response.status_code == 422
    assert "nested too deep" in response.content.decode()
    assert structure_snapshot() == before


def test_a_structure_has_at_most_200_levels(admin_client, structure):
    levels = [
        {"small_blind": 25 * n, "big_blind": 50 * n, "ante": 0, "minutes": 1}
        for n in range(1, 10_001)
    ]
    before = structure_snapshot()
    response = import_text(admin_client, json.dumps(document(levels=levels)))
    assert response.status_code == 422
    assert f"at most {MAX_LEVELS} levels" in response.content.decode()
    assert structure_snapshot() == before
    ok = import_text(admin_client, json.dumps(document(levels=levels[:MAX_LEVELS])))
    assert ok.status_code == 302


def test_no_level_is_added_past_200(admin_client):
    rows = tuple((25 * n, 50 * n, 0, 1) for n in range(1, MAX_LEVELS + 1))
    full = make_structure(name="Full", levels=rows)
    url = reverse("tournaments:level_add", args=[full.pk])
    response = admin_client.post(url, level_data(25 * 10_000, 50 * 10_000, minutes=1))
    assert response.status_code == 422
    assert f"at most {MAX_LEVELS} levels" in response.content.decode()
    assert full.levels.count() == MAX_LEVELS


@pytest.mark.parametrize("value", [HUGE, NEGATIVE])
@pytest.mark.parametrize("field", ["small_blind", "big_blind", "ante", "minutes"])
def test_an_absurd_number_in_a_level_is_a_form_error(admin_client, structure, field, value):
    data = level_data(200, 400) | {field: value}
    before = structure_snapshot()
    response = admin_client.post(reverse("tournaments:level_add", args=[structure.pk]), data)
    assert response.status_code == 422
    assert structure_snapshot() == before


@pytest.mark.parametrize("value", [HUGE, NEGATIVE, ZERO])
def test_an_absurd_starting_stack_of_a_new_structure_is_a_form_error(admin_client, value):
    data = {"name": "N", "game": "no_limit", "starting_stack": value}
    before = structure_snapshot()
    response = admin_client.post(reverse("tournaments:structure_create"), data)
    assert response.status_code == 422
    assert structure_snapshot() == before


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("starting_stack", HUGE, "The starting stack is at most 1000000000 chips."),
        ("starting_stack", NEGATIVE, "The starting stack must be a positive whole number"),
        ("starting_stack", ZERO, "The starting stack must be a positive whole number"),
        ("start_players", HUGE, "A sit&amp;go starts with at most 10000 players."),
        ("start_players", NEGATIVE, "A sit&amp;go needs at least two players."),
        ("start_players", ZERO, "A sit&amp;go needs at least two players."),
        ("scheduled_start", "0001-01-01T00:30", "between the years 2000 and 2100"),
        ("scheduled_start", "9999-12-31T23:59", "between the years 2000 and 2100"),
    ],
)
def test_an_absurd_event_is_a_form_error(admin_client, structure, field, value, reason):
    before = event_snapshot()
    data = form_data(structure, **{field: value})
    response = admin_client.post(reverse("tournaments:event_create"), data)
    assert response.status_code == 422
    assert reason in response.content.decode()
    assert event_snapshot() == before
    assert not Event.objects.exists()


@pytest.mark.parametrize("amount", [str(HUGE), "-5", "20000000"])
def test_an_absurd_amount_of_money_is_a_form_error(admin_client, structure, amount):
    data = form_data(structure) | {"money-buy_in": amount}
    response = admin_client.post(reverse("tournaments:event_create"), data)
    assert response.status_code == 422
    assert not Event.objects.exists()


@pytest.mark.parametrize("stack", [str(HUGE), "1000000001"])
def test_an_absurd_bust_stack_is_refused_with_the_reason(client, floor_user, stack):
    event = seated_event(players=6, tables=1)[0]
    client.force_login(floor_user)
    player = at_table(event, 1)[0]
    before = floor_snapshot(event)
    response = client.post(
        reverse("scoring:record_busts", args=[event.pk]),
        {"out": [player.pk], f"stack-{player.pk}": stack},
    )
    assert response.status_code == 400
    assert "at most 1,000,000,000 chips" in response.content.decode()
    assert floor_snapshot(event) == before


# --- numbers a request names (ids, versions, positions): tournaments.bounds.parse_id -----------

# ``str.isdigit`` takes a superscript two, which ``int`` refuses (the views answered 500), and
# 5,000 digits pass it too (past ``int``'s limit, or past the column).
FORGED = ["²", "٣", "9" * 5000, str(2**63), "-1", "1e3", " ", "0x1f"]


@pytest.mark.parametrize("text", FORGED)
def test_a_forged_number_in_a_request_is_no_number_never_an_error(text):
    assert parse_id(text) is None


def test_a_plain_number_is_read_up_to_a_row_ids_maximum():
    assert [parse_id(t) for t in ["0", " 42 ", str(MAX_ID), None]] == [0, 42, MAX_ID, None]


@pytest.mark.parametrize("text", FORGED)
def test_a_forged_table_or_last_id_on_the_table_stream_is_left_out(client, text):
    from tables.online.live import Cursor
    from tournaments.live_clock import MessageId

    url = reverse("tables:online_stream")
    response = client.get(url, {"t": text})
    assert response.status_code == 400
    assert "Name the tables to follow" in response.content.decode()
    assert Cursor.parse(f"t{text}=4,t7={text},p={text}") == ({}, None)
    assert MessageId.parse(f"{text}.{text}") is None


def test_a_stream_follows_at_most_its_tables_however_many_it_names(rf):
    from tables.online.live import MAX_TABLES
    from tables.online.views import _table_ids

    named = ",".join(str(i) for i in range(1, 20_001))
    assert _table_ids(rf.get("/", {"t": [named, named]})) == list(range(1, MAX_TABLES + 1))


def test_a_forged_row_to_edit_shows_the_payout_editor(admin_client):
    from scoring.models import PayoutStructure

    structure = PayoutStructure.objects.create(name="House")
    url = reverse("payouts:structure_editor", args=[structure.pk])
    for text in FORGED:
        assert admin_client.get(url, {"edit": text}).status_code == 200


def test_a_forged_bounty_winner_is_a_refusal_with_the_reason(client, floor_user):
    from tournaments.models import EventMoney

    event, entries = seated_event(players=4, tables=1)
    EventMoney.objects.create(event=event, buy_in=2000, bounty=500)
    client.force_login(floor_user)
    before = floor_snapshot(event)
    url = reverse("scoring:record_busts", args=[event.pk])
    for text in FORGED:
        data = {"out": entries[0].pk, f"stack-{entries[0].pk}": "100", f"by-{entries[0].pk}": text}
        response = client.post(url, data)
        assert response.status_code == 400, text
        assert "choose who busted him" in response.content.decode()
    assert floor_snapshot(event) == before
