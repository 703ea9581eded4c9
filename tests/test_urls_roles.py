"""Every URL x every role x GET and POST, generated from the URLconf (issue 16).

Each named pattern needs a rule in EXPECTED; a new URL without one fails here with its name. The
requests run against one small world built by the factories; each request is rolled back, so an
allowed POST changes nothing for the next role. Statuses: ``LOGIN`` is a redirect to the log-in
page (``ADMIN_LOGIN``: the admin's), ``HANDLED`` any answer of a view that took the request (a
page, a redirect that is not to a log-in, a form error, a conflict). No role ever gets a 500.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.contrib import admin
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring import online_events
from scoring.payout_models import Deal, PayoutStructure
from tables.online import play as online_play
from tests import factories
from tests.scoring.online_event_helpers import online_event
from tests.scoring.payout_helpers import money_event
from tests.scoring.season_helpers import make_season
from tests.tables.online_helpers import make_table
from tournaments import people

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "player", "floor", "admin")
LOGIN, ADMIN_LOGIN = "login", "admin-login"
HANDLED = frozenset({200, 204, 302, 303, 400, 409, 422})
REFUSED_METHOD = frozenset({LOGIN, 403, 405})  # the method or the role, whichever is checked first

# -- the rules -----------------------------------------------------------------------------------
# Who may use a URL: PUBLIC (everyone), USER (logged in), FLOOR (floor staff and admins), ADMIN.
# Change a URL's access HERE (one line per URL); the statuses follow from it.
PUBLIC, USER, FLOOR, ADMIN = "public", "user", "floor", "admin"
MAY = {
    PUBLIC: set(ROLES),
    USER: {"player", "floor", "admin"},
    FLOOR: {"floor", "admin"},
    ADMIN: {"admin"},
}

type Expect = dict[str, dict[str, frozenset[int | str]]]  # method -> role -> statuses


def _refused(role: str) -> frozenset[int | str]:
    return frozenset({LOGIN}) if role == "anonymous" else frozenset({403})


def rule(who: str, *, get: bool = False, post: bool = False, ok: int | None = None) -> Expect:
    """A URL for ``who`` answering GET (a page: 200, or ``ok``) and/or POST (an action)."""
    expect: Expect = {"GET": {}, "POST": {}}
    for role in ROLES:
        allowed = role in MAY[who]
        for method, served in (("GET", get), ("POST", post)):
            if not served:
                statuses = frozenset({405}) if allowed else REFUSED_METHOD
            elif not allowed:
                statuses = _refused(role)
            elif method == "GET":
                statuses = frozenset({ok or 200})
            else:
                statuses = HANDLED
            expect[method][role] = statuses
    return expect


def page(who: str, ok: int | None = None) -> Expect:
    return rule(who, get=True, ok=ok)


def action(who: str) -> Expect:
    return rule(who, post=True)


def form(who: str) -> Expect:
    return rule(who, get=True, post=True)


def but(expect: Expect, method: str, **roles: set[int | str]) -> Expect:
    """``expect`` with other statuses for some roles (the reason goes next to the call)."""
    return expect | {method: expect[method] | {r: frozenset(s) for r, s in roles.items()}}


EXPECTED: dict[str, Expect] = {
    "home": page(PUBLIC),
    "login": form(PUBLIC),
    "logout": action(PUBLIC),
    "set_language": rule(PUBLIC, get=True, post=True, ok=302),
    # The clock, TV and phone pages of an event, and its stream (204 on a WSGI server).
    "tournaments:event_phone": page(PUBLIC),
    "tournaments:event_tv": page(PUBLIC),
    "tournaments:event_clock": page(PUBLIC),
    "tournaments:event_stream": page(PUBLIC, ok=204),
    # Events: the floor runs the night alone (issue 18); structures stay the admin's to change.
    "tournaments:event_list": page(FLOOR),
    "tournaments:event_create": form(FLOOR),
    "tournaments:event_edit": form(FLOOR),
    "tournaments:event_finish": action(FLOOR),
    "tournaments:structure_list": page(FLOOR),
    # People: anyone may ask for an account; the floor approves it (issue 18).
    "tournaments:signup": form(PUBLIC),
    "tournaments:signup_pending": page(FLOOR),
    "tournaments:signup_decide": action(FLOOR),
    "tournaments:structure_create": action(ADMIN),
    "tournaments:structure_import": action(ADMIN),
    "tournaments:structure_detail": page(PUBLIC),
    "tournaments:structure_editor": page(ADMIN),
    "tournaments:structure_export": page(ADMIN),
    "tournaments:structure_duplicate": action(ADMIN),
    "tournaments:level_add": action(ADMIN),
    "tournaments:level_update": action(ADMIN),
    "tournaments:level_delete": action(ADMIN),
    "tournaments:level_move": action(ADMIN),
    # Seats and colour-ups of a live event.
    "tables:floor_print": page(FLOOR),
    "tables:chip_up": form(FLOOR),
    "tables:chip_up_banner": page(PUBLIC),
    "tables:public_seats": page(PUBLIC),
    "tables:my_seat": page(PUBLIC),
    # Online tables: watching is public, playing needs a log-in, running a table the floor.
    "tables:online_lobby": page(PUBLIC),
    "tables:online_open": form(FLOOR),
    "tables:online_grant": action(FLOOR),
    "tables:online_stream": page(PUBLIC, ok=204),
    "tables:online_mine": page(USER),
    "tables:online_table": page(PUBLIC),
    "tables:online_state": page(PUBLIC),
    "tables:online_sit": action(USER),
    "tables:online_act": action(USER),
    # Only a seated player may sit out, come back or leave (the floor and admins sit nowhere).
    "tables:online_sit_out": but(action(USER), "POST", floor={403}, admin={403}),
    "tables:online_back": but(action(USER), "POST", floor={403}, admin={403}),
    "tables:online_add_chips": action(USER),
    "tables:online_leave": but(action(USER), "POST", floor={403}, admin={403}),
    "tables:online_show": action(USER),
    "tables:online_close": action(FLOOR),
    "tables:online_add_bot": action(FLOOR),
    "tables:online_unseat": action(FLOOR),
    # Every card of a session, to admins, once the table closed (the world's table is open).
    "tables:online_session_phh": page(ADMIN, ok=409),
    "tables:online_history": page(USER),
    "tables:online_history_phh": page(USER),
    # A hand's replay and PHH: only to the players dealt in (the floor and admins were not).
    "tables:online_hand": but(page(USER), "GET", floor={403}, admin={403}),
    "tables:online_hand_phh": but(page(USER), "GET", floor={403}, admin={403}),
    # The floor's work on a live event.
    "scoring:record_busts": action(FLOOR),
    "scoring:record_quit": action(FLOOR),
    "scoring:agreed_stop": action(FLOOR),
    "scoring:buy": action(FLOOR),
    "scoring:void": action(FLOOR),
    "scoring:undo": action(FLOOR),
    "scoring:redo": action(FLOOR),
    "scoring:hand_done": action(FLOOR),
    "scoring:take_back_hand_done": action(FLOOR),
    "scoring:standings": page(PUBLIC),
    "floor:event_floor": page(FLOOR),
    "floor:clock_action": action(FLOOR),
    "floor:tables": page(FLOOR),
    "floor:register": action(FLOOR),
    "floor:check_in": action(FLOOR),
    "floor:draw": action(FLOOR),
    "floor:seat": action(FLOOR),
    "floor:move": action(FLOOR),
    "floor:button": action(FLOOR),
    "floor:confirm_plan": action(FLOOR),
    # Seasons: public standings; the formula is the admins'.
    "seasons:season_detail": page(PUBLIC),
    "seasons:season_chart": page(PUBLIC),
    "seasons:season_formula": action(ADMIN),
    "seasons:season_standings_csv": page(PUBLIC),
    "seasons:player_detail": page(PUBLIC),
    "seasons:event_results_csv": page(PUBLIC),
    "seasons:super_final_stacks": form(FLOOR),
    # Payout structures are the admins'; an event's deal is the floor's.
    "payouts:structure_list": page(ADMIN),
    "payouts:structure_create": action(ADMIN),
    "payouts:structure_editor": page(ADMIN),
    "payouts:structure_duplicate": action(ADMIN),
    "payouts:row_add": action(ADMIN),
    "payouts:row_update": action(ADMIN),
    "payouts:row_delete": action(ADMIN),
    "payouts:event_payouts": form(ADMIN),
    "payouts:deal": form(FLOOR),
    "payouts:deal_cancel": action(FLOOR),
    # Online events: the page is public, registering needs a log-in, running it the floor.
    "online_events:event": page(PUBLIC),
    "online_events:field": page(PUBLIC),
    "online_events:register": action(USER),
    "online_events:unregister": action(USER),
    "online_events:add_bots": action(FLOOR),
    "online_events:remove_player": action(FLOOR),
}

# Query strings some URLs need (an online stream names its tables).
QUERY = {"tables:online_stream": "?t={table}"}

# The admin site: every pattern Django's admin makes, for every registered model. Only admins
# (staff) get in; everyone else is sent to the admin's log-in. Objects that exist are opened. An
# admin may still get 403 (ledgers, the audit log and hands are read-only: no add, change or
# delete), 404 (no such object) or 405 (the GET-only helpers), never a 500.
ADMIN_SITE: Expect = {
    method: {
        "anonymous": frozenset({ADMIN_LOGIN}),
        "player": frozenset({ADMIN_LOGIN}),
        "floor": frozenset({ADMIN_LOGIN}),
        "admin": frozenset({200, 302, 403, 404, 405}),
    }
    for method in ("GET", "POST")
}
ADMIN_EXPECTED: dict[str, Expect] = {
    # The log-in form answers everyone (an empty POST: the form again); an admin goes on.
    "admin:login": {
        "GET": {r: frozenset({302} if r == "admin" else {200}) for r in ROLES},
        "POST": {r: frozenset({200, 302}) for r in ROLES},
    },
    "admin:logout": {
        "GET": {r: frozenset({302, 405}) for r in ROLES},
        "POST": {r: frozenset({200, 302}) for r in ROLES},
    },
}


# -- the URLconf, walked -------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    name: str
    route: str
    keys: tuple[str, ...]


def _walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> Iterator[Route]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}:{entry.namespace}" if entry.namespace else namespace
            yield from _walk(entry.url_patterns, prefix + str(entry.pattern), inner.strip(":"))
        elif isinstance(entry, URLPattern):
            name = f"{namespace}:{entry.name}" if namespace else str(entry.name)
            keys = tuple(entry.pattern.regex.groupindex)
            yield Route(name=name, route=prefix + str(entry.pattern), keys=keys)


ROUTES = list(_walk(get_resolver().url_patterns))
APP_ROUTES = [r for r in ROUTES if not r.name.startswith("admin:")]
ADMIN_ROUTES = [r for r in ROUTES if r.name.startswith("admin:")]


def test_every_url_has_a_rule():
    """A new URL fails here until EXPECTED says who may use it."""
    missing = [f"{r.name} ({r.route})" for r in APP_ROUTES if r.name not in EXPECTED]
    assert not missing, "URLs without a rule in tests/test_urls_roles.py: " + ", ".join(missing)
    stale = set(EXPECTED) - {r.name for r in APP_ROUTES}
    assert not stale, f"rules for URLs that no longer exist: {sorted(stale)}"
    unnamed = [r.route for r in APP_ROUTES if r.name.endswith(":None") or r.name == "None"]
    assert unnamed == [], f"unnamed URL patterns (give each a name and a rule): {unnamed}"
    assert len(ADMIN_ROUTES) > 5 * len(admin.site._registry)  # the admin is walked too


# -- the world the URLs point into -----------------------------------------------------------------


@dataclass
class World:
    users: dict[str, User]
    kwargs: dict[str, Any]


@pytest.fixture
def world(settings) -> World:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    floor = factories.make_user(username="floor", role="floor")
    admin_user = factories.make_user(username="admin", role="admin")
    player = factories.make_user(username="player")
    bob = factories.make_user(username="bob")
    # A live event with money: four players seated, a payout structure, a saved deal.
    event = money_event(actor=floor, players=4, code="roles")
    event.season = make_season()
    event.save(update_fields=["season"])
    entry = event.entries.order_by("pk").first()
    deal = Deal.objects.create(event=event, method="chip_chop", total=0, unit=100, key="roles")
    payout = PayoutStructure.objects.get(name="Club table")
    # An online table where the player and bob played a hand (over) and sit for the next one.
    table = make_table(name="Roles")
    from tables.online import services as online_services  # noqa: PLC0415

    online_services.take_seat(table=table, user=player, buy_in=1_000, number=1)
    online_services.take_seat(table=table, user=bob, buy_in=1_000, number=2)
    hand = online_play.deal_hand(table=table)
    online_play.act(table=table, user=player, hand_id=hand.pk, sequence=0, action="fold")
    # An online event the player registered for.
    online = online_event(start_players=6)
    online_entry = online_events.register(event_id=online.pk, user=player)
    signup = people.sign_up(username="newcomer", password="a long pass phrase", display_name="Neu")
    by_prefix = {
        "signups/": signup.pk,
        "events/": event.pk,
        "structures/": event.structure_id,
        "play/t/": table.pk,
        "play/hands/": hand.pk,
        "play/e/": online.pk,
        "seasons/": event.season.pk,
        "players/": entry.player_id,
        "payouts/": payout.pk,
    }
    kwargs = {
        "by_prefix": by_prefix,
        "code": event.code,
        "level_pk": event.structure.levels.order_by("position").first().pk,
        "entry_id": entry.pk,
        "online_entry_id": online_entry.pk,
        "number": 2,
        "tier_pk": payout.tiers.order_by("pk").first().pk,
        "deal_pk": deal.pk,
    }
    return World(users={"player": player, "floor": floor, "admin": admin_user}, kwargs=kwargs)


def _app_kwargs(world: World, route: Route) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key in route.keys:
        if key == "pk":
            prefix = next((p for p in world.kwargs["by_prefix"] if route.route.startswith(p)), "")
            assert prefix, f"{route.name}: no object for <pk> in {route.route}: add one to world"
            values[key] = world.kwargs["by_prefix"][prefix]
        elif key == "entry_id" and route.name.startswith("online_events:"):
            values[key] = world.kwargs["online_entry_id"]
        else:
            assert key in world.kwargs, f"{route.name}: no value for <{key}>: add one to world"
            values[key] = world.kwargs[key]
    return values


def _admin_url(route: Route) -> str:
    """The URL of an admin pattern, with an object of its model where one exists."""
    values: dict[str, str] = {}
    for key in route.keys:
        if key in ("object_id", "id") and "/r/" not in f"/{route.route}":
            app_label, model_name = route.route.split("/")[1:3]
            model = next(
                m for m in admin.site._registry
                if (m._meta.app_label, m._meta.model_name) == (app_label, model_name)
            )  # fmt: skip
            first = model._default_manager.order_by("pk").first()
            values[key] = str(first.pk) if first is not None else "0"
        elif key == "object_id":  # the admin's "view on site" (r/<content type>/<object>/)
            values[key] = str(User.objects.order_by("pk").first().pk)
        elif key == "content_type_id":
            values[key] = str(ContentType.objects.get_for_model(User).pk)
        elif key == "app_label":
            values[key] = "auth"
        elif key == "url":
            values[key] = "no-such-page/"
        else:
            raise AssertionError(f"{route.name}: no value for <{key}> in {route.route}")
    if not route.name.endswith(":None"):
        return reverse(route.name, kwargs=values)
    if "url" in values:  # the admin's catch-all pattern
        return "/admin/" + values["url"]
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m.group(1)], route.route)


def _client(world: World, role: str) -> Client:
    client = Client(raise_request_exception=False)
    if role != "anonymous":
        client.force_login(world.users[role])
    return client


def _status(response: Any, url: str) -> int | str:
    location = response.headers.get("Location", "")
    if response.status_code == 302 and location.startswith(reverse(settings.LOGIN_URL) + "?"):
        return LOGIN
    if response.status_code == 302 and location.startswith(reverse("admin:login") + "?"):
        return ADMIN_LOGIN
    return int(response.status_code)


def _check(world: World, route: Route, url: str, expect: Expect) -> list[str]:
    wrong = []
    for role in ROLES:
        client = _client(world, role)
        for method in ("GET", "POST"):
            with transaction.atomic():
                response = getattr(client, method.lower())(url)
                transaction.set_rollback(True)
            got = _status(response, url)
            if got == 500 or got not in expect[method][role]:
                wanted = sorted(map(str, expect[method][role]))
                wrong.append(f"{method} {url} ({route.name}) as {role}: {got}, expected {wanted}")
    return wrong


@pytest.mark.parametrize("route", APP_ROUTES, ids=lambda r: r.name)
def test_every_role_gets_what_its_rule_says(world, route):
    expect = EXPECTED.get(route.name)
    assert expect is not None, f"{route.name} ({route.route}) has no rule in EXPECTED"
    url = reverse(route.name, kwargs=_app_kwargs(world, route)) + QUERY.get(route.name, "").format(
        table=world.kwargs["by_prefix"]["play/t/"]
    )
    wrong = _check(world, route, url, expect)
    assert not wrong, "\n".join(wrong)


def test_the_admin_site_lets_in_admins_only(world):
    """Every admin URL (every registered model's list, add, change, delete, history)."""
    wrong: list[str] = []
    for route in ADMIN_ROUTES:
        url = _admin_url(route)
        wrong += _check(world, route, url, ADMIN_EXPECTED.get(route.name, ADMIN_SITE))
    assert not wrong, "\n".join(wrong)


def test_a_refused_request_leaves_no_trace(world):
    """The refusals above change nothing: no audit line, no row, for a sample of actions."""
    from tournaments.models import AuditEvent  # noqa: PLC0415

    before = AuditEvent.objects.count()
    for name in ("tournaments:event_finish", "scoring:undo", "tables:online_close"):
        route = next(r for r in APP_ROUTES if r.name == name)
        url = reverse(name, kwargs=_app_kwargs(world, route))
        for role in ("anonymous", "player"):
            response = _client(world, role).post(url)
            assert response.status_code in (302, 403), (name, role)
    assert AuditEvent.objects.count() == before
