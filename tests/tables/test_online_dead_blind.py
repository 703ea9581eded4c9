"""R2.7 at an online event: a hand dealt with a dead small blind (the last big blind's seat is
empty after a bust) replays as it was dealt, for the spectator's view (the live table's
equity), the replayer, the hand's PHH and its proof (issue 19: "the small blind and the big
blind must be different players")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring import online_events
from tables.engine.phh import read, read_draw
from tables.models import Table
from tables.online import play as online_play
from tables.online.history import hand_phh, openings, steps, viewer_hand
from tables.online.models import Game, OnlineTable, TableHand
from tables.online.table_equity import table_equity
from tables.online.tournament import TABLE_GAMES
from tests.factories import make_user
from tests.scoring.online_event_helpers import online_event, register_bots

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quick(settings):
    settings.FLOORMAN_TABLE_PACE = 0.05
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _run_until(event, now, done, *, steps_=3_000):
    for _ in range(steps_):
        online_events.tick(event_id=event.pk, now=now)
        online_play.sweep(now=now)
        if done():
            return now
        now += timedelta(seconds=0.2)
    raise AssertionError("the event never got there")


def _dead_small_blind_hand(game: str) -> TableHand:
    """An event's table of three bots whose last big blind's seat is empty (its player bust):
    the next hand has a dead small blind (R2.7), played to its end by the bots."""
    floor = make_user(username="flo", role="floor")
    for attempt in range(10):
        event = online_event(name=f"Dead blind {attempt}", start_players=3, table_size=6)
        event.structure.game = game
        event.structure.save(update_fields=["game"])
        register_bots(event, 3, floor)
        now = timezone.now()
        hands = TableHand.objects.filter(table__floor_table__event=event)
        now = _run_until(event, now, lambda hands=hands: hands.filter(is_over=True).exists())
        table = OnlineTable.objects.get(floor_table__event=event)
        # Between hands: the last big blind sat in an empty seat (he bust and left it).
        now = _run_until(
            event,
            now,
            lambda table=table: not TableHand.objects.filter(table=table, is_over=False).exists(),
        )
        taken = sorted(table.players.values_list("number", flat=True))
        if len(taken) == 3:
            break
        # A bot went broke in the first hand: two left play heads-up, where the small blind is
        # never dead (the button posts it); a new event.
    else:
        raise AssertionError("every event lost a bot in its first hand")
    empty = next(s for s in range(1, table.seats + 1) if s not in taken)
    before = [s for s in taken if s < empty] or taken
    small = before[-1]
    button = ([s for s in taken if s < small] or [taken[-1]])[-1]
    Table.objects.filter(pk=table.floor_table_id).update(
        button_seat=button, small_blind_seat=small, big_blind_seat=empty
    )
    last = TableHand.objects.filter(table=table).count()
    now = _run_until(
        event,
        now,
        lambda: TableHand.objects.filter(table=table, number=last + 1, is_over=True).exists(),
    )
    hand = TableHand.objects.get(table=table, number=last + 1)
    assert hand.rules.get("dead_small_blind"), (taken, empty, hand.seat_numbers, hand.rules)
    assert hand.rules["small_blind_position"] is None
    return hand


@pytest.mark.parametrize("structure_game", ["no_limit", "draw_holdem"])
def test_r2_7_a_dead_small_blind_hand_replays_as_it_was_dealt(structure_game):
    hand = _dead_small_blind_hand(structure_game)
    game = TABLE_GAMES[structure_game]
    full = online_play.engine_of(hand)
    assert full.small_blind_seat is None  # R2.7: nobody posted it
    for viewer in (None, hand.user_ids[0]):
        seen = viewer_hand(hand, viewer)
        assert seen.small_blind_seat is None
        assert seen.big_blind_seat == full.big_blind_seat
        assert seen.stacks == full.stacks
    assert steps(hand, None)
    assert openings(hand, hand.user_ids[0])  # his own hole cards at least
    # PHH has no dead small blind: Floorman's extension says it, and the document replays to
    # the hand's very stacks.
    document = hand_phh(hand, None, all_cards=True)
    assert "_floorman_dead_small_blind = true" in document
    replayed = read_draw(document) if game == Game.DRAW_HOLDEM else read(document)
    assert replayed.small_blind_seat is None
    order = [(full.button + 1 + k) % full.n for k in range(full.n)]
    assert replayed.stacks == [full.stacks[seat] for seat in order]
    assert hand_phh(hand, None)  # the spectator's, without the hidden hands
    table_equity(hand, game)  # the live table's figures replay it as the spectator saw it
    # The hand page and its PHH answer the player who was dealt in.
    player = make_user(username="looker")
    client = Client()
    client.force_login(player)
    TableHand.objects.filter(pk=hand.pk).update(user_ids=[player.pk, *hand.user_ids[1:]])
    for route in ("tables:online_hand", "tables:online_hand_phh"):
        assert client.get(reverse(route, args=[hand.pk])).status_code == 200
