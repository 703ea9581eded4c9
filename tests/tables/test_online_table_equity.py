"""All-in equity on the live table (issue 19): the public table shows each shown player's
chance to win and tie, street by street, from the cards face up only; never per viewer."""

from __future__ import annotations

import re

import pytest

from tables.engine import all_in_equity, parse_cards
from tables.online import broadcast
from tables.online import play as online_play
from tables.online import table_equity as equity_module
from tables.online.models import TableHand
from tables.online.selectors import build_snapshot
from tests.tables.online_helpers import make_table, seat_players, stacked_deck

pytestmark = pytest.mark.django_db
# Dealt from the small blind (seat 2): bob 7c2d, carol aces, alice (seat 1, button) kings.
HOLES = ["7c2d", "AsAd", "KsKh"]
BOARD = "Qh9c5h3s8d"
NAMES = {1: "alice", 2: "bob", 3: "carol"}


def _act(table, user, action, amount=None):
    hand = TableHand.objects.get(table=table, is_over=False)
    online_play.act(
        table=table, user=user, hand_id=hand.pk, sequence=hand.sequence, action=action,
        amount=amount,
    )  # fmt: skip


def _public(table) -> str:
    snapshot = build_snapshot(table.pk)
    assert snapshot is not None
    return str(broadcast.public_message(snapshot)["html"]["en"])


def _figure(html: str, board: int, seat: int) -> tuple[float, float]:
    found = re.search(
        rf'data-testid="equity-{board}-seat-{seat}">{NAMES[seat]} wins ([\d.]+)%'
        r'(?: <span class="muted">ties ([\d.]+)%</span>)?',
        html,
    )
    assert found, f"no figure for seat {seat} on a board of {board}"
    return float(found[1]), float(found[2] or 0)


def _without_clock(html: str) -> str:
    """The public table less its data-now, the server's second, which may tick between renders."""
    return re.sub(r'data-now="\d+"', "", html)


def _all_in(table, users) -> TableHand:
    alice, bob, carol = users
    hand = online_play.deal_hand(table=table, deck=stacked_deck(HOLES, board=BOARD))
    assert hand is not None
    _act(table, alice, "raise", 1000)  # all-in
    _act(table, bob, "fold")
    return hand


def test_nothing_is_shown_while_a_player_with_chips_still_has_a_decision():
    table = make_table()
    users = seat_players(table, ["alice", "bob", "carol"])
    _all_in(table, users)
    html = _public(table)
    assert 'data-testid="table-equity"' not in html
    assert 'data-card="As"' not in html and 'data-card="Ks"' not in html  # not face up yet


def test_the_public_table_shows_the_all_in_figures_street_by_street(monkeypatch):
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    hand = _all_in(table, [alice, bob, carol])
    _act(table, carol, "call")  # all-in: the board runs out, the hands are tabled (TDA 16)
    hand.refresh_from_db()
    assert hand.is_over
    html = _public(table)
    assert 'data-testid="table-equity"' in html
    aces, _ = _figure(html, 0, 3)
    kings, _ = _figure(html, 0, 1)
    assert 79.0 <= aces <= 84.0 and 15.5 <= kings <= 20.5  # AA v KK: about 81/18 (sampled)
    exact = all_in_equity(
        game="nl_holdem", hands=[parse_cards("KsKh"), parse_cards("AsAd")],
        board=parse_cards("Qh9c5h"),
    )  # fmt: skip
    assert _figure(html, 3, 1) == (round(exact[0].win * 100, 1), round(exact[0].tie * 100, 1))
    assert _figure(html, 3, 3) == (round(exact[1].win * 100, 1), round(exact[1].tie * 100, 1))
    assert 'data-card="As"' in html and 'data-card="Ks"' in html  # tabled: face up to all
    assert 'data-testid="equity-4"' in html
    assert 'data-testid="equity-0-seat-2"' not in html  # bob folded: no figures, no cards
    assert 'data-card="7c"' not in html and 'data-card="2d"' not in html
    # Computed once for the hand, then kept: the German render and page loads reuse it.
    calls = []
    monkeypatch.setattr(equity_module, "_streets", lambda *a: calls.append(a) or [])
    assert _without_clock(_public(table)) == _without_clock(html)
    assert calls == []


def test_a_hand_won_without_a_showdown_shows_no_equity():
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    _all_in(table, [alice, bob, carol])
    _act(table, carol, "fold")
    html = _public(table)
    assert 'data-testid="table-equity"' not in html
    assert 'data-card="Ks"' not in html  # the winner's cards were never shown


def test_the_german_table_writes_the_figures_with_a_decimal_comma():
    # The public table draws chips as plain integers, unlocalised, but the equity's
    # percentages stay localised: a German page reads 81,3 %, not 81.3 %.
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    _all_in(table, [alice, bob, carol])
    _act(table, carol, "call")
    snapshot = build_snapshot(table.pk)
    assert snapshot is not None
    html = broadcast.public_message(snapshot)["html"]
    win, _tie = _figure(str(html["en"]), 3, 1)
    german = f"{NAMES[1]} gewinnt {str(win).replace('.', ',')}%"
    assert f'data-testid="equity-3-seat-1">{german}' in str(html["de"])
