"""Issue 16: no admin page, lookup, filter, search or ordering can test a secret field.

Every registered ModelAdmin is probed as a superuser while a hand runs: for each secret field
(tables.online.models.SECRET_FIELDS), reached directly or through relations, a querystring
with a true guess and one with a false guess must get the same answer.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from django.contrib import admin
from django.contrib.contenttypes.models import ContentType
from django.core.checks import run_checks
from django.db import models
from django.test import Client
from django.urls import reverse

from config.admin import SecretGuard, guarded, touches_secret
from tables.online import play as online_play
from tables.online.models import SECRET_FIELDS, HandAction, OnlineTable, TableHand
from tests.factories import make_user
from tests.tables.online_helpers import make_table, seat_players, stacked_deck

pytestmark = pytest.mark.django_db
DEPTH = 4  # relations followed from an admin's model (User -> seats -> table -> hands -> moves)


@dataclass(frozen=True)
class Running:
    client: Client
    hand: TableHand
    table: OnlineTable


@pytest.fixture
def running() -> Running:
    table = make_table()
    users = seat_players(table, ["alice", "bob", "carol"])
    deck = stacked_deck(["AhKd", "QsJs", "7c2d"], "2c3c4c5c6c")
    hand = online_play.deal_hand(table=table, deck=deck)
    actor = users[hand.seat_numbers[hand.actor] - 1]  # seats 1.. in order
    online_play.act(table=table, user=actor, hand_id=hand.pk, sequence=0, action="call")
    hand.refresh_from_db()
    assert not hand.is_over and hand.actions.exists()
    client = Client()
    client.force_login(make_user(username="root", role="admin"))
    return Running(client=client, hand=hand, table=table)


def _paths(model: type[models.Model]) -> Iterator[tuple[str, type[models.Model]]]:
    """Each model reachable from ``model`` (itself first) by its shortest relation path."""
    seen = {model}
    queue = deque([("", model, 0)])
    while queue:
        path, current, depth = queue.popleft()
        yield path, current
        if depth == DEPTH:
            continue
        for field in current._meta.get_fields():
            target = field.related_model
            if not field.is_relation or target is None or target in seen or target == "self":
                continue
            seen.add(target)
            queue.append((f"{path}{field.name}__", target, depth + 1))


def _guesses(field: str, true: object, false: object) -> list[tuple[str, str, str]]:
    """(lookup, a true guess, a false guess) for one field's stored value."""
    text, wrong = str(true), str(false)
    return [
        (field, text, wrong),
        (f"{field}__iexact", text, wrong),
        (f"{field}__startswith", text[:3], wrong[:3]),
        (f"{field}__regex", "^" + re.escape(text[:2]), "^" + re.escape(wrong[:2])),
        (f"{field}__gt", "", "~"),
        (f"{field}__lt", "~", ""),
        (f"{field}__isnull", "False", "True"),
    ]


def _probes(run: Running) -> dict[type[models.Model], list[tuple[str, str, str]]]:
    """Per secret model, the guesses: the stored row's values and the real cards."""
    hand = TableHand.objects.get(pk=run.hand.pk)  # the row as stored
    cards = hand.cards()
    first, other = cards.deck[0], next(c for c in range(52) if c != cards.deck[0])
    action = HandAction.objects.filter(hand=hand).first()
    return {
        TableHand: [
            *_guesses("sealed_cards", hand.sealed_cards, "fm1.00000000.AAAA"),
            *_guesses("secret", cards.secret.hex(), "f" * 64),
            *_guesses("secret", hand.secret, "0"),
            ("deck__0", str(first), str(other)),
            ("deck__0__iexact", str(first), str(other)),
            ("deck__0__gt", str(first - 1), str(first)),
            ("deck__contains", f"[{first}]", f"[{other}]"),
            ("deck__isnull", "True", "False"),
        ],
        HandAction: [
            ("record__move", action.record["move"], "raise"),
            ("record__position", str(action.record["position"]), "9"),
            ("record__isnull", "False", "True"),
        ],
        OnlineTable: _guesses("bot_seed", run.table.bot_seed, "z" * 32),
    }


def _answer(client: Client, url: str, query: dict[str, str]) -> tuple[object, ...]:
    """What a changelist tells about a querystring: status and count, or where it sends."""
    response = client.get(url, query)
    if response.status_code == 200:
        return (200, response.context["cl"].result_count)
    return (response.status_code, response.get("Location", ""))


def _admin_urls() -> Iterator[tuple[type[models.Model], admin.ModelAdmin, str]]:
    for model, model_admin in admin.site._registry.items():
        opts = model._meta
        yield model, model_admin, reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")


def test_no_querystring_on_any_admin_tells_a_secret_guess_from_a_wrong_one(running):
    probes = _probes(running)
    tried = 0
    told: list[str] = []
    for model, _model_admin, url in _admin_urls():
        for path, reached in _paths(model):
            for secret_model, guesses in probes.items():
                if not issubclass(reached, secret_model):
                    continue
                for lookup, true, false in guesses:
                    key = f"{path}{lookup}"
                    right = _answer(running.client, url, {key: true})
                    wrong = _answer(running.client, url, {key: false})
                    tried += 1
                    if right != wrong:
                        told.append(f"{url}?{key}: {right} vs {wrong}")
    assert not told, "\n".join(told)
    assert tried > 300  # every admin, every secret field, directly and through relations


def test_the_probe_tells_apart_what_is_no_secret(running):
    """The same comparison does see a difference on an ordinary field: it can fail."""
    url = reverse("admin:tables_tablehand_changelist")
    assert _answer(running.client, url, {"number": "1"}) != _answer(
        running.client, url, {"number": "2"}
    )
    assert _answer(running.client, url, {"number": "1"}) == (200, 1)


def test_search_and_ordering_reach_no_secret(running):
    hand = TableHand.objects.get(pk=running.hand.pk)
    cards = hand.cards()
    rows = [cards.secret.hex(), hand.sealed_cards[:20], running.table.bot_seed]
    rows.append(str(list(cards.deck[:3]))[1:-1])  # the first cards as the deck column holds them
    for model, model_admin, url in _admin_urls():
        request = running.client.get(url).wsgi_request
        for option in ("get_list_display", "get_search_fields", "get_list_filter"):
            for item in getattr(model_admin, option)(request):
                assert not (isinstance(item, str) and touches_secret(model, item)), (url, item)
        for name in model_admin.get_sortable_by(request) or ():
            assert not touches_secret(model, name), (url, name)
        for name in model_admin.get_ordering(request) or ():
            assert not touches_secret(model, name), (url, name)
        for guess in rows:
            assert _answer(running.client, url, {"q": guess}) == _answer(
                running.client, url, {"q": "zz-no-such-thing"}
            ), (url, guess)
        columns = len(model_admin.get_list_display(request))
        for index in range(columns + 1):  # o=N orders by the N-th column: none is secret
            response = running.client.get(url, {"o": str(index)})
            assert response.status_code in {200, 302}, (url, index)


def test_a_running_hands_pages_show_none_of_its_secrets(running):
    hand = TableHand.objects.get(pk=running.hand.pk)
    cards = hand.cards()
    secrets_ = [cards.secret.hex(), hand.sealed_cards, running.table.bot_seed]
    deck_text = ", ".join(str(c) for c in cards.deck[:8])
    pages = [
        reverse("admin:tables_tablehand_change", args=[hand.pk]),
        reverse("admin:tables_tablehand_history", args=[hand.pk]),
        reverse("admin:tables_tablehand_changelist"),
        reverse("admin:tables_onlinetable_change", args=[running.table.pk]),
        reverse("admin:tables_onlinetable_history", args=[running.table.pk]),
        reverse("admin:tables_onlinetable_changelist"),
    ]
    for page in pages:
        response = running.client.get(page)
        assert response.status_code == 200, page
        text = response.content.decode()
        assert not [s for s in secrets_ if s and s in text], page
        assert deck_text not in text, page
    for model, pk in ((TableHand, hand.pk), (OnlineTable, running.table.pk)):
        kind = ContentType.objects.get_for_model(model)  # "view on site": there is none
        response = running.client.get(reverse("admin:view_on_site", args=[kind.pk, pk]))
        assert response.status_code == 404


def test_to_field_cannot_name_a_secret(running):
    url = reverse("admin:tables_tablehand_changelist")
    for field in ("deck", "secret", "sealed_cards"):
        assert running.client.get(url, {"_to_field": field}).status_code == 400


def test_every_secret_field_is_refused_directly_and_through_a_relation():
    for model, names in SECRET_FIELDS.items():
        for name in names:
            assert touches_secret(model, name) and touches_secret(model, f"-{name}")
            assert touches_secret(model, f"{name}__0__iexact")
    assert touches_secret(OnlineTable, "hands__deck__0")
    assert touches_secret(HandAction, "hand__table__bot_seed__startswith")
    assert touches_secret(TableHand, "actions__record__drawn")
    assert touches_secret(OnlineTable, "^hands__secret")
    assert not touches_secret(TableHand, "number")
    assert not touches_secret(OnlineTable, "hands__number__gt")


def test_an_admin_that_names_a_secret_field_fails_the_system_check():
    planted = type(
        "PlantedAdmin",
        (admin.ModelAdmin,),
        {
            "search_fields": ["hands__secret"],
            "list_filter": [("bot_seed", admin.AllValuesFieldListFilter)],
        },
    )
    errors = guarded(planted)(OnlineTable, admin.site).check()
    ids = [e.id for e in errors]
    assert ids.count("floorman.E001") == 2, errors
    assert not [e for e in run_checks() if e.id.startswith("floorman.")]


def test_every_registered_admin_is_guarded():
    assert admin.site._registry
    for model, model_admin in admin.site._registry.items():
        assert isinstance(model_admin, SecretGuard), model
