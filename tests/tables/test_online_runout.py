"""The all-in runout shown street by street (issue 19): once nobody can act again, the live
hands lie face up (TDA 16 in docs/rules.md: where the sources are silent, the TDA rules) and
the board comes one street at a time, settings.FLOORMAN_RUNOUT_PACE apart, each street a new table
version with each live hand's chance to win and tie for the cards to come; the sweeper deals
each street once, from the database (a restart changes nothing), and after the river the pots
are pushed. No card of a street to come reaches anyone before it is dealt."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection

from tables.engine import DrawHand, all_in_equity, card_name, parse_cards
from tables.engine.phh import read, read_draw
from tables.online import broadcast
from tables.online import play as online_play
from tables.online.history import hand_phh, steps
from tables.online.kept import forget_local
from tables.online.models import Game, OnlineSeat, TableHand
from tables.online.selectors import build_snapshot, table_view
from tables.online.services import table_chips
from tests.tables.online_helpers import make_table, seat_players, stacked_deck

pytestmark = pytest.mark.django_db
# Dealt from the small blind (seat 2): bob 7c2d, carol aces, alice (seat 1, the button) kings.
HOLES = ["7c2d", "AsAd", "KsKh"]
BOARD = "Qh9c5h3s8d"
PACE = 0.05  # seconds between streets in these tests (2 in play)


@pytest.fixture(autouse=True)
def staged(settings):
    settings.FLOORMAN_RUNOUT_PACE = PACE
    settings.FLOORMAN_TABLE_PACE = 1
    settings.LANGUAGE_CODE = "en"


def _act(table, user, action, amount=None, card=""):
    hand = TableHand.objects.get(table=table, is_over=False)
    online_play.act(
        table=table, user=user, hand_id=hand.pk, sequence=hand.sequence, action=action,
        amount=amount, card=card,
    )  # fmt: skip


def _public(table) -> str:
    snapshot = build_snapshot(table.pk)
    assert snapshot is not None
    return str(broadcast.public_message(snapshot)["html"]["en"])


def _board_in(html: str) -> list[str]:
    board = html.split('data-testid="board"', 1)[1].split("</div>", 1)[0]
    return re.findall(r'data-card="(\w\w)"', board)


def _figure(html: str, board: int, seat: int) -> float:
    found = re.search(rf'data-testid="equity-{board}-seat-{seat}">\w+ wins ([\d.]+)%', html)
    assert found, f"no figure for seat {seat} on a board of {board}"
    return float(found[1])


def _all_in(table, users, *, deck=None) -> TableHand:
    alice, bob, carol = users
    hand = online_play.deal_hand(table=table, deck=deck or stacked_deck(HOLES, board=BOARD))
    assert hand is not None
    _act(table, alice, "raise", 1000)  # all-in
    assert "data-tabled" not in _public(table)  # bob and carol still act: no hand face up
    _act(table, bob, "fold")
    _act(table, carol, "call")  # all-in: nobody acts again
    hand.refresh_from_db()
    return hand


def _due(hand: TableHand):
    hand.refresh_from_db()
    assert hand.deadline is not None
    return hand.deadline + timedelta(milliseconds=1)


def test_each_street_is_a_table_version_with_the_board_so_far_and_the_figures_to_come():
    table = make_table()
    users = seat_players(table, ["alice", "bob", "carol"])
    hand = _all_in(table, users)
    assert not hand.is_over and hand.actor is None
    # R3.10's clock is for a player's turn: the street waits FLOORMAN_RUNOUT_PACE, no more.
    assert hand.turn_started_at is None
    assert abs((hand.deadline - hand.actions.last().created_at).total_seconds() - PACE) < 1
    kings, aces = parse_cards("KsKh"), parse_cards("AsAd")
    board = parse_cards(BOARD)
    versions = []
    for shown in (0, 3, 4):
        table.refresh_from_db()
        versions.append(table.version)
        html = _public(table)
        # TDA 16: both live hands face up to everyone; bob's folded cards stay down.
        assert 'data-card="As"' in html and 'data-card="Ks"' in html
        assert 'data-card="7c"' not in html
        # The page (and bench/online_tables.py's leak check) knows the hands lie face up.
        assert 'data-tabled="1"' in html
        assert _board_in(html) == [card_name(c) for c in board[:shown]]
        for later in board[shown:]:
            assert f'data-card="{card_name(later)}"' not in html  # no street to come
        exact = all_in_equity(
            game="nl_holdem",
            hands=[kings, aces],
            board=board[:shown],
            samples=None if shown else 5_000,
            seed=hand.pk,
        )
        assert _figure(html, shown, 1) == round(exact[0].win * 100, 1)
        assert _figure(html, shown, 3) == round(exact[1].win * 100, 1)
        seats = {s.number: s.stack for s in OnlineSeat.objects.filter(table=table)}
        assert seats == {1: 1000, 2: 1000, 3: 1000}  # nothing pushed before the river
        early = hand.deadline - timedelta(milliseconds=10)
        assert online_play.sweep(now=early)["turns"] == 0  # not due yet
        assert online_play.sweep(now=_due(hand))["turns"] == 1
    hand.refresh_from_db()
    table.refresh_from_db()
    assert versions == sorted(set(versions)) and table.version > versions[-1]
    assert hand.is_over and set(hand.shown) == {0, 2}
    html = _public(table)
    assert _board_in(html) == [card_name(c) for c in board]
    assert "data-tabled" not in html  # over: the shown hands are R1.8's, not a runout's
    # Aces hold: carol doubles up; every chip is where the ledger says.
    stacks = {s.number: s.stack for s in OnlineSeat.objects.filter(table=table)}
    assert stacks == {1: 0, 2: 995, 3: 2005}
    assert sum(hand.final_stacks) == sum(hand.starting_stacks)
    seated, ledger = table_chips(table)
    assert seated == ledger
    assert table.next_hand_at is not None  # the showdown pause, then the next deal
    moves = [m["move"] for m in hand.actions.order_by("sequence").values_list("record", flat=True)]
    assert moves[-3:] == ["street", "street", "street"]
    _history_as_at_once(hand)


def _history_as_at_once(hand: TableHand) -> None:
    """The finished hand's history is that of the hand run out at once: the replayer's steps
    with their figures, and a PHH document that replays to its stacks."""
    replayed = [s for s in steps(hand, None) if s.equity]
    assert len(replayed) == 3  # after the call, the flop, the turn
    document = hand_phh(hand, None, all_cards=True)
    assert "street" not in document and "staged" not in document
    engine = online_play.engine_of(hand)
    order = [(engine.button + 1 + k) % engine.n for k in range(engine.n)]
    again = read_draw(document) if isinstance(engine, DrawHand) else read(document)
    assert again.stacks == [engine.stacks[seat] for seat in order]


def test_each_boards_figures_are_computed_once_for_the_runout_its_end_and_its_replay(
    monkeypatch,
):
    """A pre-flop figure samples for about 50 ms: the runout's every street shows the streets
    before, the hand's end and its replay show them all again, and each board's figures are
    computed once for all of them (tables.online.history_equity)."""
    from tables.online import history_equity

    cache.clear()
    computed = []

    def counted(**kwargs):
        computed.append(len(kwargs["board"]))
        return all_in_equity(**kwargs)

    monkeypatch.setattr(history_equity, "all_in_equity", counted)
    table = make_table()
    users = seat_players(table, ["alice", "bob", "carol"])
    hand = _all_in(table, users)
    for _street in range(3):
        assert _figure(_public(table), 0, 3) > 50  # the aces' pre-flop figure, on every street
        assert online_play.sweep(now=_due(hand))["turns"] == 1
    hand.refresh_from_db()
    assert hand.is_over
    assert _figure(_public(table), 4, 3) > 50
    assert len([s for s in steps(hand, None) if s.equity]) == 3
    assert computed == [0, 3, 4]  # pre-flop, flop and turn: once each


def test_the_private_parts_and_every_viewer_see_no_card_to_come():
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    hand = _all_in(table, [alice, bob, carol])
    to_come = {card_name(c) for c in parse_cards(BOARD)}
    snapshot = build_snapshot(table.pk)
    for user_id, message in broadcast.private_messages(snapshot):
        for html in message["html"].values():
            assert not {f'data-card="{c}"' for c in to_come} & set(
                re.findall(r'data-card="\w\w"', html)
            ), user_id
    for viewer in (alice, bob, carol):
        view = table_view(snapshot, viewer)
        assert view.board == []
        shown = {card.code for seat in view.seats for card in seat.cards}
        assert not shown & to_come
        assert "7c" not in shown or viewer == bob  # a folded hand is its owner's only
    # The hand's history, its PHH and its proof wait for the end of the hand.
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(alice)
    for route in ("tables:online_hand", "tables:online_hand_phh"):
        assert client.get(reverse(route, args=[hand.pk])).status_code == 404


def test_two_sweepers_deal_a_street_once_and_a_restart_loses_nothing():
    table = make_table()
    users = seat_players(table, ["alice", "bob", "carol"])
    hand = _all_in(table, users)
    at = _due(hand)
    sequence = hand.sequence
    assert online_play.expire_turn(hand_id=hand.pk, sequence=sequence, now=at)
    # The second sweeper read the same sequence: the hand moved on, nothing is dealt twice.
    assert not online_play.expire_turn(hand_id=hand.pk, sequence=sequence, now=at)
    hand.refresh_from_db()
    assert hand.sequence == sequence + 1
    # A restart: no process keeps the hand, the cache is empty; the database says it all.
    forget_local()
    cache.clear()
    assert online_play.sweep(now=_due(hand))["turns"] == 1
    forget_local()
    cache.clear()
    assert online_play.sweep(now=_due(hand))["turns"] == 1
    hand.refresh_from_db()
    assert hand.is_over and len(online_play.engine_of(hand).board) == 5
    assert sum(hand.final_stacks) == sum(hand.starting_stacks)


@pytest.mark.django_db(transaction=True)
def test_two_sweepers_at_once_deal_each_street_once():
    if connection.vendor != "postgresql":
        pytest.skip("row locks across threads need PostgreSQL (DATABASE_URL)")
    table = make_table()
    users = seat_players(table, ["alice", "bob", "carol"])
    hand = _all_in(table, users)
    for _street in range(3):
        at = _due(hand)
        done: list[dict[str, int]] = []

        def sweeper(at=at, done=done):
            try:
                done.append(online_play.sweep(now=at))
            finally:
                connection.close()

        threads = [threading.Thread(target=sweeper) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert sorted(d["turns"] for d in done) == [0, 1] and not any(d["failed"] for d in done)
    hand.refresh_from_db()
    assert hand.is_over and hand.sequence == 3 + 3  # three moves, three streets
    assert sum(hand.final_stacks) == sum(hand.starting_stacks)


def test_a_player_leaving_in_the_runout_does_not_hold_the_street():
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    hand = _all_in(table, [alice, bob, carol])
    deadline = hand.deadline
    online_play.leave(table=table, user=bob, now=deadline - timedelta(milliseconds=20))
    hand.refresh_from_db()
    assert hand.deadline == deadline


def test_the_flop_all_in_waits_for_the_turn_and_the_river():
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"], buy_in=500)
    hand = online_play.deal_hand(table=table, deck=stacked_deck(HOLES, board=BOARD))
    _act(table, alice, "call")
    _act(table, bob, "fold")
    _act(table, carol, "check")
    _act(table, carol, "raise", 490)  # all-in on the flop
    _act(table, alice, "call")
    hand.refresh_from_db()
    assert not hand.is_over and _board_in(_public(table)) == ["Qh", "9c", "5h"]
    assert 'data-testid="equity-3-seat-3"' in _public(table)
    online_play.sweep(now=_due(hand))
    assert _board_in(_public(table)) == ["Qh", "9c", "5h", "3s"]
    online_play.sweep(now=_due(hand))
    hand.refresh_from_db()
    assert hand.is_over


def test_pot_limit_omaha_runs_out_street_by_street():
    table = make_table(game=Game.POT_LIMIT_OMAHA, blinds=(25, 50), smallest_chip=25,
                       min_buy_in=200, max_buy_in=5_000)  # fmt: skip
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"], buy_in=400)
    deck = stacked_deck(["2c3c4d5d", "AhKsKdQc", "7h8h9s9c"], board="Th2h3hJhQd")
    hand = online_play.deal_hand(table=table, deck=deck)
    _act(table, alice, "fold")
    _act(table, bob, "raise", 150)  # R3.6: the pot
    _act(table, carol, "raise", 400)  # all-in (R3.6: the pot allows 500)
    _act(table, bob, "call")  # all-in too
    hand.refresh_from_db()
    assert not hand.is_over
    html = _public(table)
    assert _board_in(html) == [] and 'data-testid="equity-0-seat-3"' in html
    # Tabled (TDA 16): bob's and carol's hands; alice folded hers face down.
    assert 'data-card="Ah"' in html and 'data-card="2c"' in html and 'data-card="7h"' not in html
    for shown in (3, 4):
        online_play.sweep(now=_due(hand))
        html = _public(table)
        assert len(_board_in(html)) == shown and f'data-testid="equity-{shown}-seat-2"' in html
        assert 'data-card="Qd"' not in html
    online_play.sweep(now=_due(hand))
    hand.refresh_from_db()
    assert hand.is_over and sum(hand.final_stacks) == sum(hand.starting_stacks)


def test_draw_holdem_all_in_runs_out_street_by_street():
    table = make_table(game=Game.DRAW_HOLDEM, blinds=(5, 10))
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    hand = online_play.deal_hand(table=table, deck=stacked_deck(HOLES, board=BOARD))
    for player in (alice, bob, carol):  # R7.3, R7.5: the first swap round, blinds last
        _act(table, player, "stand_pat")
    _act(table, alice, "raise", 1000)
    _act(table, bob, "fold")
    _act(table, carol, "call")
    hand.refresh_from_db()
    assert not hand.is_over and hand.actor is None
    html = _public(table)
    assert 'data-card="As"' in html and 'data-testid="equity-0-seat-1"' in html
    for shown in (3, 4):
        online_play.sweep(now=_due(hand))
        assert len(_board_in(_public(table))) == shown
    online_play.sweep(now=_due(hand))
    hand.refresh_from_db()
    assert hand.is_over and sum(hand.final_stacks) == sum(hand.starting_stacks)
    _history_as_at_once(hand)


def test_a_pace_of_zero_runs_the_board_out_at_once(settings):
    settings.FLOORMAN_RUNOUT_PACE = 0
    table = make_table()
    users = seat_players(table, ["alice", "bob", "carol"])
    hand = _all_in(table, users)
    assert hand.is_over and "staged_runout" in hand.rules and not hand.rules["staged_runout"]


def test_stud_is_not_staged():
    table = make_table(game=Game.SEVEN_CARD_STUD, blinds=(5, 10))
    seat_players(table, ["alice", "bob"])
    hand = online_play.deal_hand(table=table)
    assert hand is not None and hand.rules["staged_runout"] is False
