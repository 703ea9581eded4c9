"""House-bot hands (200; 2,000 on demand) dealt and played by the table service on PostgreSQL.

Several tables (no-limit, pot-limit and limit hold'em, two to ten bots each) are run by the
sweeper (``online_play.sweep``) on a fake clock that jumps past every bot's thinking time and
every pause between hands, so each sweep moves every running hand once and deals at every table
that is due. A bot that busts is unseated and a fresh one seated, as the floor would.

After every sweep every table's chips are where its ledger says; at the end every finished hand
replays from its stored rows (``rebuild``) to its stored finishing stacks, and its PHH export
with every card is read back strictly by the engine's reader to the same stacks.
"""

from __future__ import annotations

import os
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from tables.engine.phh import read
from tables.online import play as online_play
from tables.online import services as online_services
from tables.online.engine import rebuild
from tables.online.history import hand_phh
from tables.online.models import Game, TableHand
from tables.online.services import table_chips
from tests.factories import make_user
from tests.tables.online_helpers import make_table, rebuys

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# (game, house bots): every betting structure, heads-up to ten-handed.
TABLES = [
    (Game.NO_LIMIT_HOLDEM, 2), (Game.NO_LIMIT_HOLDEM, 6), (Game.NO_LIMIT_HOLDEM, 10),
    (Game.POT_LIMIT_HOLDEM, 3), (Game.POT_LIMIT_HOLDEM, 8),
    (Game.LIMIT_HOLDEM, 2), (Game.LIMIT_HOLDEM, 5), (Game.LIMIT_HOLDEM, 9),
]  # fmt: skip
# The suite plays 200 hands (about 30 a table) and waits for them however loaded the machine
# is, up to a generous cap; FLOORMAN_BOT_HANDS=2000 makes the full run of 2,000.
HANDS = int(os.environ.get("FLOORMAN_BOT_HANDS", "200"))
PER_TABLE = 10
CAP_SECONDS = 900.0  # fewer hands by then means the service has become far slower, or stuck
STEP = timedelta(seconds=6)  # past a bot's thinking (at most 1.6 s) and any pause (at most 5 s)


def test_hundreds_of_bot_hands_conserve_chips_replay_and_export_to_phh(settings):
    settings.FLOORMAN_BOTS_PLAY_ALONE = True
    with connection.cursor() as cursor:  # this test's data need not outlive a power cut
        cursor.execute("SET synchronous_commit TO OFF")
    floor = make_user(username="flo", role="floor")
    tables = []
    for index, (game, bots) in enumerate(TABLES):
        table = make_table(seats=bots, name=f"Bots {index}", actor=floor, game=game)
        for _bot in range(bots):
            online_services.seat_bot(table=table, actor=floor)
        tables.append(table)
    now = timezone.now()
    started = time.monotonic()
    sweeps = 0
    finished = 0
    per_table = dict.fromkeys((table.pk for table in tables), 0)
    # Every table deals its share, ten-handed as heads-up (a table of nine deals slower).
    while finished < HANDS or min(per_table.values()) < PER_TABLE:
        assert time.monotonic() - started < CAP_SECONDS, f"{finished} of {HANDS} hands played"
        now += STEP
        done = online_play.sweep(now=now)
        sweeps += 1
        assert not done.get("failed"), done
        ended = set(TableHand.objects.filter(ended_at=now).values_list("table_id", flat=True))
        for table in (table for table in tables if table.pk in ended):
            seated, ledger = table_chips(table)  # after every hand
            assert seated == ledger, (table.name, seated, ledger)
        finished += len(ended)
        for table_id in ended:
            per_table[table_id] += 1
    assert TableHand.objects.filter(is_over=True).count() == finished >= HANDS
    played = time.monotonic() - started

    hands = list(TableHand.objects.filter(is_over=True).order_by("pk"))
    for table, (_game, bots) in zip(tables, TABLES, strict=True):
        # Every table kept dealing, ten-handed as heads-up: a broke bot bought in again.
        assert TableHand.objects.filter(table=table, is_over=True).count() >= PER_TABLE, table.name
        bought = bots + rebuys(table)
        assert table_chips(table) == (bought * table.max_buy_in,) * 2, table.name
    assert {hand.rules["game"] for hand in hands} == {game.value for game, _bots in TABLES}
    assert {len(hand.seat_numbers) for hand in hands} >= {2, 10}
    for hand in hands:
        moves = list(hand.actions.order_by("sequence").values_list("record", flat=True))
        engine = rebuild(hand, moves)
        assert engine.is_over and engine.stacks == hand.final_stacks, hand
        assert sum(hand.final_stacks) == sum(hand.starting_stacks)
        exported = read(hand_phh(hand, None, all_cards=True))
        n = len(hand.seat_numbers)
        order = [(hand.button + 1 + k) % n for k in range(n)]  # PHH's p1 sits left of the button
        assert exported.is_over
        assert exported.stacks == [hand.final_stacks[position] for position in order], hand
    checked = time.monotonic() - started - played
    print(
        f"{len(hands)} hands in {sweeps} sweeps, {played:.1f} s; checked in {checked:.1f} s; "
        f"{sum(rebuys(table) for table in tables)} broke bots bought in again"
    )
