"""The variants on the table page in real Chromium: seven-card stud's bring-in with up cards
for everyone and down cards for their owner (R7.2), and Draw Hold'em's private swap with its
fee (R7.4, R7.5, R7.11)."""

from __future__ import annotations

import functools
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tables.engine import card_name
from tables.online import live as online_live
from tables.online import play as online_play
from tables.online.models import Game, TableHand
from tests.browser.conftest import close_pages, login
from tests.tables.online_helpers import make_table, seat_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
CARD = re.compile(r'data-card="(\w\w)"')


@pytest.fixture
def stream(settings, monkeypatch):
    """Streams on the test server, a quick heartbeat; every page's stream has ended (the server
    saw it) before the database goes."""
    settings.LIVE_WSGI_STREAM_SECONDS = 60
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    follow = functools.partial(online_live.stream_tables_sync, heartbeat=0.5)
    monkeypatch.setattr(online_live, "stream_tables_sync", follow)
    contexts = []
    yield contexts
    close_pages(contexts)


def open_table(browser, live_server, table, username, contexts, *, phone=False):
    size = {"width": 360, "height": 740} if phone else {"width": 1280, "height": 800}
    context = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone)
    contexts.append(context)
    page = context.new_page()
    page.set_default_timeout(10_000)
    login(page, live_server, username)
    page.goto(live_server.url + reverse("tables:online_table", args=[table.pk]))
    expect(page.locator("#state")).to_be_visible()
    return page


def seat_cards(page, number):
    return CARD.findall(page.locator(f'[data-testid="hole-{number}"]').inner_html())


def test_r7_2_stud_the_low_card_brings_in_and_down_cards_stay_their_owners(
    browser, live_server, stream
):
    table = make_table(game=Game.SEVEN_CARD_STUD, blinds=(2, 5), ante=1, seats=4)
    users = seat_players(table, ["anna", "ben", "cleo"])
    hand = online_play.deal_hand(table=table)
    engine = online_play.engine_of(hand)
    pages = [open_table(browser, live_server, table, u.username, stream, phone=i == 2)
             for i, u in enumerate(users)]  # fmt: skip
    for viewer, page in enumerate(pages):
        for position, number in enumerate(hand.seat_numbers):
            shown = seat_cards(page, number)
            up = [card_name(c) for c in engine.up_cards[position]]
            down = [card_name(c) for c in engine.down_cards[position]]
            if number == viewer + 1:
                assert sorted(shown) == sorted(up + down)  # his own three cards
            else:
                assert shown == up  # the others' up card, never their down cards
                assert page.locator(f'[data-testid="hole-{number}"] .back').count() == 2
    low = hand.seat_numbers[engine.actor] - 1
    page = pages[low]
    button = page.locator("form.actions button[value=bring_in]")
    expect(button).to_have_text(re.compile("Bring in 2"))
    expect(page.locator("form.actions button[value=check]")).to_have_count(0)
    button.click()
    for other in pages:
        expect(other.locator(f'[data-testid="bet-{low + 1}"]')).to_have_text("2", timeout=5_000)
    assert TableHand.objects.get(pk=hand.pk).actions.get().record["move"] == "bring_in"


def test_r7_4_a_draw_holdem_swap_is_private_and_costs_the_small_blind(browser, live_server, stream):
    table = make_table(game=Game.DRAW_HOLDEM, blinds=(5, 10), seats=4)
    users = seat_players(table, ["anna", "ben", "cleo"])
    hand = online_play.deal_hand(table=table)
    pages = [open_table(browser, live_server, table, u.username, stream, phone=i == 0)
             for i, u in enumerate(users)]  # fmt: skip
    anna = pages[0]  # the button decides first; the blinds last (R7.5)
    swap = anna.locator('[data-testid="swap"]')
    expect(swap).to_contain_text("5")
    before = seat_cards(anna, 1)
    anna.locator('.swap-card input[name="card"]').first.check(force=True)
    given = anna.locator('.swap-card input[name="card"]').first.get_attribute("value")
    anna.locator("button[value=swap]").click()
    expect(anna.locator('[data-testid="hole-1"] [data-card]')).not_to_have_count(0)
    expect(anna.locator(f'[data-testid="hole-1"] [data-card="{given}"]')).to_have_count(
        0, timeout=5_000
    )
    after = seat_cards(anna, 1)
    drawn = next(code for code in after if code not in before)
    for other in pages[1:]:
        expect(other.locator('[data-testid="seat-1"] .swapped')).to_contain_text("5", timeout=5_000)
        html = other.content()
        assert f'data-card="{drawn}"' not in html and f'data-card="{given}"' not in html
    record = TableHand.objects.get(pk=hand.pk).actions.get().record
    assert record["move"] == "swap" and record["fee"] == 5
