"""Who may do what at an online table (docs/architecture.md, "Integrity": deny by default,
checked in the view): every endpoint against anonymous, a spectator, a player of another table,
a seated player, floor staff and admin; and a refused request changes nothing."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import resolve, reverse

from tables.online import forms as online_forms
from tables.online import play as online_play
from tables.online import services as online_services
from tables.online import urls as online_urls
from tables.online.models import (
    ChipAccount,
    ChipTransfer,
    HandAction,
    OnlineSeat,
    OnlineTable,
    SeatStatus,
    TableHand,
)
from tests.factories import make_user
from tests.tables.online_helpers import make_table, seat_players, stacked_deck
from tournaments.models import AuditEvent

pytestmark = pytest.mark.django_db

FRAGMENT = {"X-Floorman": "table"}


@pytest.fixture(autouse=True)
def quick_logins(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LANGUAGE_CODE = "en"


@dataclass
class Scene:
    """A table with a hand running (alice, bob, carol), another table (dave, erin), and a
    client for each role."""

    table: OnlineTable
    other: OnlineTable
    hand: TableHand
    users: dict[str, User]
    clients: dict[str, Client]

    def url(self, name: str, *args: object) -> str:
        return reverse(f"tables:{name}", args=args or [self.table.pk])


@pytest.fixture
def scene() -> Scene:
    floor = make_user(username="flo", role="floor")
    admin = make_user(username="ada", role="admin")
    table = make_table(actor=floor)
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    other = make_table(name="Table 2", actor=floor)
    dave, erin = seat_players(other, ["dave", "erin"])
    spectator = make_user(username="sam")
    # Alice sat first: the button, and three-handed she acts first (R2.2, R3.2).
    hand = online_play.deal_hand(
        table=table, deck=stacked_deck(["KhKd", "7c2d", "AsAh"], "Ac7h2s9d3c")
    )
    online_play.deal_hand(table=other)
    users = {
        "spectator": spectator, "alice": alice, "bob": bob, "carol": carol, "dave": dave,
        "erin": erin, "floor": floor, "admin": admin,
    }  # fmt: skip
    clients = {"anonymous": Client()}
    for name, user in users.items():
        online_services.ensure_account(user)  # a first visit's account is no change below
        clients[name] = Client()
        clients[name].force_login(user)
    return Scene(table=table, other=other, hand=hand, users=users, clients=clients)


def snapshot() -> dict[str, object]:
    """Everything a request could change at the tables and in the chip accounts."""
    return {
        "tables": list(OnlineTable.objects.order_by("pk").values_list()),
        "seats": list(OnlineSeat.objects.order_by("pk").values_list()),
        "hands": list(TableHand.objects.order_by("pk").values_list()),
        "actions": list(HandAction.objects.order_by("pk").values_list()),
        "accounts": list(ChipAccount.objects.order_by("pk").values_list()),
        "transfers": list(ChipTransfer.objects.order_by("pk").values_list()),
        "audit": AuditEvent.objects.count(),
        "users": User.objects.count(),
    }


def refused(client: Client, url: str, *, status: int, data=None, method: str = "post", **kw):
    """A request that must be refused with ``status`` and change nothing."""
    before = snapshot()
    response = getattr(client, method)(url, data or {}, **kw)
    assert response.status_code == status, (url, response.status_code, response.content[:300])
    assert snapshot() == before, url
    return response


def posts(scene: Scene) -> list[tuple[str, dict]]:
    """Every POST of the table pages with data that would be accepted from the right person."""
    hand = scene.hand
    return [
        (reverse("tables:online_open"), open_form_data(name="New")),
        (reverse("tables:online_grant"), {"username": "alice", "amount": 500}),
        (scene.url("online_sit"), {"buy_in": 500, "seat": 5}),
        (scene.url("online_act"), {"hand": hand.pk, "sequence": 0, "action": "call"}),
        (scene.url("online_sit_out"), {}),
        (scene.url("online_back"), {}),
        (scene.url("online_add_chips"), {"amount": 100}),
        (scene.url("online_leave"), {}),
        (scene.url("online_show"), {"hand": hand.pk}),
        (scene.url("online_close"), {}),
        (scene.url("online_add_bot"), {}),
        (scene.url("online_unseat", scene.table.pk, 2), {}),
        (scene.url("online_unseat", scene.table.pk, 2), {}),
    ]


def open_form_data(**values) -> dict:
    """The open-a-table form as the page fills it in (its defaults), with ``values``."""
    form = online_forms.OpenTableForm()
    data = {name: form[name].value() for name in form.fields} | values
    return {name: value for name, value in data.items() if value is not None and value is not False}


def private_pages(scene: Scene) -> list[str]:
    return [
        reverse("tables:online_mine"),
        reverse("tables:online_open"),
        reverse("tables:online_history"),
        reverse("tables:online_history_phh"),
        reverse("tables:online_hand", args=[scene.hand.pk]),
        reverse("tables:online_hand_phh", args=[scene.hand.pk]),
        scene.url("online_session_phh"),
    ]


def public_pages(scene: Scene) -> list[str]:
    return [
        reverse("tables:online_lobby"),
        scene.url("online_table"),
        scene.url("online_state"),
        reverse("tables:online_stream") + f"?t={scene.table.pk}",
    ]


def test_these_tests_cover_every_endpoint_of_the_online_tables(scene):
    """A new endpoint of tables/online_urls.py gets its role checks here before it ships."""
    names = {pattern.name for pattern in online_urls.urlpatterns}
    urls = public_pages(scene) + [url for url, _data in posts(scene)] + private_pages(scene)
    covered = {resolve(url.split("?")[0]).url_name for url in urls}
    assert covered == names


def test_anyone_may_watch_the_lobby_a_table_and_its_fragment(scene):
    for name, client in scene.clients.items():
        *pages, stream = public_pages(scene)
        for url in [*pages, scene.url("online_table") + "?embed=1"]:
            assert client.get(url).status_code == 200, (name, url)
        if name != "anonymous":  # his tables in one page (any he names, by ?t=)
            for query in ("", f"?t={scene.table.pk}&t={scene.other.pk}"):
                mine = client.get(reverse("tables:online_mine") + query)
                assert mine.status_code == 200, (name, query)
        # A WSGI server holds no stream (LIVE_WSGI_STREAM_SECONDS=0): the page polls.
        assert client.get(stream).status_code == 204, name


def test_anonymous_posts_and_private_pages_go_to_the_log_in_and_change_nothing(scene):
    anonymous = scene.clients["anonymous"]
    login = reverse(settings.LOGIN_URL)
    for url, data in posts(scene):
        for headers in ({}, FRAGMENT):
            response = refused(anonymous, url, status=302, data=data, headers=headers)
            assert response["Location"].startswith(f"{login}?next="), url
    for url in private_pages(scene):
        response = refused(anonymous, url, status=302, method="get")
        assert response["Location"].startswith(f"{login}?next="), url


def test_players_and_spectators_may_not_open_close_or_staff_a_table(scene):
    everything = dict(posts(scene))
    staff_posts = [
        (reverse("tables:online_open"), everything[reverse("tables:online_open")]),
        (reverse("tables:online_grant"), everything[reverse("tables:online_grant")]),
        (scene.url("online_close"), {}),
        (scene.url("online_add_bot"), {}),
        (scene.url("online_unseat", scene.table.pk, 2), {}),
        (scene.url("online_unseat", scene.table.pk, 2), {}),
    ]
    for name in ("spectator", "alice", "bob", "dave"):
        client = scene.clients[name]
        for url, data in staff_posts:
            for headers in ({}, FRAGMENT):
                refused(client, url, status=403, data=data, headers=headers)
        refused(client, reverse("tables:online_open"), status=403, method="get")
        refused(client, scene.url("online_session_phh"), status=403, method="get")


def test_floor_staff_open_tables_give_chips_seat_and_unseat_bots_and_close(scene):
    floor = scene.clients["floor"]
    assert floor.get(reverse("tables:online_open")).status_code == 200
    data = open_form_data(
        name="Late game", game="pl_holdem", seats=4, small_blind=10, big_blind=20,
        min_buy_in=400, max_buy_in=2_000,
    )  # fmt: skip
    response = floor.post(reverse("tables:online_open"), data)
    assert response.status_code == 302
    opened = OnlineTable.objects.get(name="Late game")
    assert (opened.game, opened.seats, opened.created_by) == ("pl_holdem", 4, scene.users["floor"])
    alice = ChipAccount.objects.get(user=scene.users["alice"])
    assert floor.post(reverse("tables:online_grant"), {"username": "alice", "amount": 500})
    assert ChipAccount.objects.get(pk=alice.pk).balance == alice.balance + 500
    assert floor.post(scene.url("online_add_bot", opened.pk), {"seat": 3}).status_code == 302
    bot = OnlineSeat.objects.get(table=opened, number=3)
    assert bot.is_bot and bot.stack == 2_000
    assert floor.post(scene.url("online_unseat", opened.pk, 3)).status_code == 302
    assert not OnlineSeat.objects.filter(table=opened).exists()
    assert floor.post(scene.url("online_close", opened.pk)).status_code == 302
    assert not OnlineTable.objects.get(pk=opened.pk).is_open
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {"online.open_table", "online.grant_chips", "online.seat_bot"} <= actions
    assert {"online.close_table"} <= actions
    # Floor staff run tables; the whole session's cards are the admin's alone.
    refused(floor, scene.url("online_session_phh", opened.pk), status=403, method="get")


def test_only_an_admin_exports_a_session_and_only_after_the_table_closed(scene):
    admin = scene.clients["admin"]
    response = refused(admin, scene.url("online_session_phh"), status=409, method="get")
    assert b"after the table closed" in response.content
    assert admin.post(scene.url("online_close")).status_code == 302  # an admin is floor too
    for name in ("floor", "alice", "spectator", "dave"):
        refused(scene.clients[name], scene.url("online_session_phh"), status=403, method="get")
    response = admin.get(scene.url("online_session_phh"))
    assert response.status_code == 200
    assert AuditEvent.objects.filter(action="online.export_session").count() == 1


def act(scene: Scene, **extra) -> dict:
    hand = TableHand.objects.get(pk=scene.hand.pk)
    return {"hand": hand.pk, "sequence": hand.sequence, "action": "call", "key": "", **extra}


def test_nobody_acts_for_another_player(scene):
    url = scene.url("online_act")
    alice = scene.users["alice"]
    assert online_play.engine_of(scene.hand).actor == 0  # alice's turn
    for name in ("bob", "carol"):  # dealt in, not their turn; naming alice changes nothing
        for data in (act(scene), act(scene, user=alice.pk, seat=1, position=0)):
            response = refused(scene.clients[name], url, status=409, data=data, headers=FRAGMENT)
            assert response.content.decode() == "It is not your turn."
    for name in ("spectator", "dave", "floor", "admin"):
        response = refused(
            scene.clients[name], url, status=403, data=act(scene, user=alice.pk), headers=FRAGMENT
        )
        assert response.content.decode() == "You are not dealt in this hand."
    assert scene.clients["alice"].post(url, act(scene), headers=FRAGMENT).status_code == 200
    (action,) = HandAction.objects.filter(hand=scene.hand)
    assert action.user == alice and action.record["position"] == 0


def test_a_player_of_another_table_cannot_act_show_or_see_its_private_state(scene):
    dave = scene.clients["dave"]
    fragment = dave.get(scene.url("online_state")).content.decode()
    assert "data-card=" not in fragment  # no board yet, and no hole card of anybody
    assert fragment.count('class="pcard back"') == 6  # three players' card backs
    assert 'data-my-turn=""' in fragment and 'data-testid="actions"' not in fragment
    for route in ("online_sit_out", "online_leave", "online_add_chips"):
        response = refused(
            dave, scene.url(route), status=403, data={"amount": 100}, headers=FRAGMENT
        )
        assert response.content.decode() == "You have no seat at this table."
    online_play.act(
        table=scene.table, user=scene.users["alice"], hand_id=scene.hand.pk, sequence=0,
        action="fold",
    )  # fmt: skip
    online_play.act(
        table=scene.table, user=scene.users["bob"], hand_id=scene.hand.pk, sequence=1,
        action="fold",
    )  # fmt: skip
    assert TableHand.objects.get(pk=scene.hand.pk).is_over
    refused(dave, scene.url("online_show"), status=403, data={"hand": scene.hand.pk})
    for name in ("online_hand", "online_hand_phh"):
        refused(dave, reverse(f"tables:{name}", args=[scene.hand.pk]), status=403, method="get")
    # Nor may his own table's act form move this table's hand.
    other_act = scene.url("online_act", scene.other.pk)
    refused(dave, other_act, status=404, data=act(scene), headers=FRAGMENT)


def test_players_change_only_their_own_seat(scene):
    bob = scene.users["bob"]
    before = {s.user_id: s.status for s in OnlineSeat.objects.filter(table=scene.table)}
    response = scene.clients["bob"].post(
        scene.url("online_sit_out"), {"user": scene.users["carol"].pk, "seat": 3}, headers=FRAGMENT
    )
    assert response.status_code == 200
    after = {s.user_id: s.status for s in OnlineSeat.objects.filter(table=scene.table)}
    assert after == before | {bob.pk: SeatStatus.SITTING_OUT}
    refused(scene.clients["spectator"], scene.url("online_sit_out"), status=403)
    refused(scene.clients["spectator"], scene.url("online_back"), status=403)
    # Chips only between one's hands; a seat that is taken stays its owner's.
    refused(scene.clients["carol"], scene.url("online_add_chips"), status=409, data={"amount": 1})
    refused(
        scene.clients["spectator"],
        scene.url("online_sit"),
        status=409,
        data={"buy_in": 500, "seat": 2},
    )
    refused(scene.clients["alice"], scene.url("online_sit"), status=409, data={"buy_in": 500})


def test_the_admin_reads_the_online_records_but_deletes_no_ledger_row_account_or_hand(scene):
    """The chip ledger is append-only (chips conserved, docs/architecture.md): a deleted
    transfer or account would leave a table's chips unaccounted for, and a deleted hand its
    history; the admin reads them, and may delete none (403, nothing changes)."""
    admin = scene.clients["admin"]
    records = {
        "chiptransfer": ChipTransfer.objects.filter(table=scene.table).first(),
        "chipaccount": ChipAccount.objects.get(user=scene.users["alice"]),
        "tablehand": scene.hand,
    }
    for model, record in records.items():
        page = f"/admin/tables/{model}/"
        assert admin.get(page).status_code == 200
        assert admin.get(f"{page}{record.pk}/change/").status_code == 200
        assert b'value="delete_selected"' not in admin.get(page).content, model
        refused(admin, f"{page}{record.pk}/delete/", status=403, method="get")
        refused(admin, f"{page}{record.pk}/delete/", status=403, data={"post": "yes"})
        refused(
            admin,
            page,
            status=200,
            data={"action": "delete_selected", "_selected_action": [record.pk], "post": "yes"},
        )
