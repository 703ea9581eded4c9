"""Online tables, service level: dealing (R2.1, R2.2, R2.6), moves under the hand's lock with
idempotency keys, time-outs (R3.10), leaving (R2.9), showdown (R1.8) and chips conserved."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.online import play as online_play
from tables.online import services as online_services
from tables.online.models import (
    ChipAccount,
    ChipTransfer,
    HandAction,
    OnlineSeat,
    Presence,
    Protection,
    SeatStatus,
    TableHand,
    TransferKind,
)
from tables.online.services import TableError, table_chips
from tests.factories import make_user
from tests.tables.online_helpers import make_table, rebuys, seat_players, stacked_deck
from tournaments.models import AuditEvent

pytestmark = pytest.mark.django_db


def balances(*users):
    return [ChipAccount.objects.get(user=u).balance for u in users]


def assert_chips_conserved(table, users, start_balance=10_000):
    seated, ledger = table_chips(table)
    assert seated == ledger
    assert sum(balances(*users)) + seated == start_balance * len(users)


def play(table, user, action, amount=None, key=""):
    hand = TableHand.objects.get(table=table, is_over=False)
    return online_play.act(
        table=table, user=user, hand_id=hand.pk, sequence=hand.sequence, action=action,
        amount=amount, key=key,
    )  # fmt: skip


def test_r2_2_first_seated_has_the_button_then_r2_1_it_moves_on():
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    first = online_play.deal_hand(table=table)
    assert first.seat_numbers == [1, 2, 3]
    assert first.button == 0  # R2.2: alice sat first
    engine = online_play.engine_of(first)
    assert engine.actor == 0  # R3.2: left of the big blind, three-handed the button
    play(table, alice, "fold")
    play(table, bob, "fold")
    assert TableHand.objects.get(pk=first.pk).is_over
    second = online_play.deal_hand(table=table)
    assert second.button == 1  # R2.1: bob's seat
    assert_chips_conserved(table, [alice, bob, carol])


def test_a_scripted_hand_to_showdown_pays_the_best_hand_and_conserves_chips():
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    # Dealing order from the small blind: bob, carol, alice.
    deck = stacked_deck(["KhKd", "7c2d", "AsAh"], board="Ac7h2s9d3c")
    hand = online_play.deal_hand(table=table, deck=deck)
    play(table, alice, "raise", 30)
    play(table, bob, "call")
    play(table, carol, "fold")
    for _street in range(3):
        play(table, bob, "check")
        play(table, alice, "check")
    hand.refresh_from_db()
    assert hand.is_over
    assert hand.final_stacks == [1_040, 970, 990]
    stacks = {s.user.username: s.stack for s in OnlineSeat.objects.filter(table=table)}
    assert stacks == {"alice": 1_040, "bob": 970, "carol": 990}
    # Nobody bet the river: bob, first left of the button, shows first; alice's trip aces beat
    # his kings and show (R1.8); carol folded and shows nothing.
    assert hand.shown == [1, 0]
    assert_chips_conserved(table, [alice, bob, carol])


def test_a_resent_move_with_the_same_key_changes_nothing():
    table = make_table()
    alice, bob, _carol = seat_players(table, ["alice", "bob", "carol"])
    hand = online_play.deal_hand(table=table)
    online_play.act(table=table, user=alice, hand_id=hand.pk, sequence=0, action="call", key="k1")
    online_play.act(table=table, user=alice, hand_id=hand.pk, sequence=0, action="call", key="k1")
    assert HandAction.objects.filter(hand=hand).count() == 1


def test_an_idempotency_key_belongs_to_its_sender():
    """Issue 16: another player's move with the same key is his own move, not "made already"."""
    table = make_table()
    alice, bob, _carol = seat_players(table, ["alice", "bob", "carol"])
    hand = online_play.deal_hand(table=table)
    online_play.act(table=table, user=alice, hand_id=hand.pk, sequence=0, action="call", key="k1")
    online_play.act(table=table, user=bob, hand_id=hand.pk, sequence=1, action="call", key="k1")
    moves = HandAction.objects.filter(hand=hand, key="k1").order_by("sequence")
    assert [(m.user_id, m.sequence) for m in moves] == [(alice.pk, 1), (bob.pk, 2)]
    # His resend of his own key is still answered as done, and changes nothing.
    online_play.act(table=table, user=bob, hand_id=hand.pk, sequence=1, action="call", key="k1")
    assert HandAction.objects.filter(hand=hand).count() == 2


def test_a_stale_tab_out_of_turn_or_forged_amount_is_refused_and_changes_nothing():
    table = make_table()
    alice, bob, _carol = seat_players(table, ["alice", "bob", "carol"])
    hand = online_play.deal_hand(table=table)
    with pytest.raises(TableError, match="not your turn") as error:
        online_play.act(table=table, user=bob, hand_id=hand.pk, sequence=0, action="fold")
    assert error.value.status == 409
    with pytest.raises(TableError, match="smallest raise") as error:
        online_play.act(
            table=table, user=alice, hand_id=hand.pk, sequence=0, action="raise", amount=15
        )
    assert error.value.status == 400
    with pytest.raises(TableError, match="largest raise"):
        online_play.act(
            table=table, user=alice, hand_id=hand.pk, sequence=0, action="raise", amount=10**6
        )
    online_play.act(table=table, user=alice, hand_id=hand.pk, sequence=0, action="call", key="a")
    with pytest.raises(TableError, match="moved on") as error:
        online_play.act(table=table, user=bob, hand_id=hand.pk, sequence=0, action="call", key="b")
    assert error.value.status == 409
    assert HandAction.objects.filter(hand=hand).count() == 1


def test_a_spectator_or_another_tables_player_cannot_act():
    table = make_table()
    seat_players(table, ["alice", "bob"])
    other = make_table(name="Table 2")
    (dave,) = seat_players(other, ["dave"])
    hand = online_play.deal_hand(table=table)
    with pytest.raises(TableError, match="not dealt in") as error:
        online_play.act(table=table, user=dave, hand_id=hand.pk, sequence=0, action="fold")
    assert error.value.status == 403


def expire(hand, *, after=31):
    hand.refresh_from_db()
    return online_play.expire_turn(
        hand_id=hand.pk, sequence=hand.sequence, now=hand.deadline + timedelta(seconds=after - 30)
    )


def test_r3_10_a_connected_player_who_times_out_folds_facing_a_bet():
    table = make_table()
    alice, bob, _carol = seat_players(table, ["alice", "bob", "carol"])
    hand = online_play.deal_hand(table=table)
    play(table, alice, "raise", 40)
    assert not online_play.expire_turn(hand_id=hand.pk, sequence=1, now=timezone.now())  # not yet
    assert expire(hand)
    record = HandAction.objects.get(hand=hand, sequence=2).record
    assert record == {"move": "fold", "position": 1, "cause": "clock"}
    assert not expire(hand, after=0)  # the same deadline is applied once


def test_r3_10_a_dropped_player_with_chips_in_is_protected_at_most_twice_a_day():
    table = make_table(protections_per_day=2)
    alice, bob = seat_players(table, ["alice", "bob"])
    Presence.objects.create(user=bob, streams=0, dropped_at=timezone.now())
    records = []
    for number in range(3):
        hand = online_play.deal_hand(table=table)
        if number != 1:
            play(table, alice, "raise", 40)  # R2.8: alice has the button and acts first
        # Bob faces the action with his blind in, and his connection dropped.
        assert expire(hand)
        records.append(HandAction.objects.filter(hand=hand).order_by("sequence").last().record)
        hand.refresh_from_db()
        if not hand.is_over:
            play(table, alice, "call" if online_play.engine_of(hand).can_call() else "check")
            hand.refresh_from_db()
        assert hand.is_over
        # A time-out sits him out; he comes back for the next hand (heads-up: at once, R2.6).
        assert OnlineSeat.objects.get(user=bob).status == SeatStatus.SITTING_OUT
        online_services.come_back(table=table, user=bob, post=False)
    assert [r["move"] for r in records] == ["time_out", "time_out", "fold"]
    assert records[2]["cause"] == "clock"  # the third time: no protection left today
    assert Protection.objects.filter(user=bob).count() == 2
    assert AuditEvent.objects.filter(action="online.disconnect_protection").count() == 2
    assert_chips_conserved(table, [alice, bob])


def test_r2_6_a_newcomer_waits_for_the_big_blind_unless_he_posts():
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    online_play.deal_hand(table=table)  # button alice, SB bob, BB carol
    dave = make_user(username="dave")
    online_services.take_seat(table=table, user=dave, buy_in=500, number=5)
    erin = make_user(username="erin")
    online_services.take_seat(table=table, user=erin, buy_in=500, number=6, post=True)
    play(table, alice, "fold")
    play(table, bob, "fold")
    second = online_play.deal_hand(table=table)
    # Button bob (2), SB carol (3), BB would be alice (1): dave (5) lies between carol and
    # alice, so his big blind has come: he posts it in turn. Erin posts one out of turn.
    assert second.seat_numbers == [1, 2, 3, 5, 6]
    engine = online_play.engine_of(second)
    assert engine.big_blind_seat == 3  # dave
    assert second.posts == [4]  # erin
    assert engine.bets == [0, 0, 5, 10, 10]
    seats = {s.user.username: s.status for s in OnlineSeat.objects.filter(table=table)}
    assert seats["dave"] == seats["erin"] == SeatStatus.PLAYING


def test_r2_9_a_player_who_leaves_during_his_hand_folds_at_his_turn_and_is_paid_out_after():
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    online_play.deal_hand(table=table)
    assert online_play.leave(table=table, user=bob) is None  # in the hand: after it
    play(table, alice, "raise", 30)
    # Bob's turn: his hand folds at once (R2.9); carol acts.
    hand = TableHand.objects.get(table=table)
    assert HandAction.objects.get(hand=hand, sequence=2).record["cause"] == "absent"
    play(table, carol, "fold")
    assert not OnlineSeat.objects.filter(table=table, user=bob).exists()
    assert balances(bob) == [10_000 - 5]
    assert_chips_conserved(table, [alice, bob, carol])


def test_house_bots_wait_for_a_player_before_they_deal():
    table = make_table(seats=4)
    for _ in range(2):
        online_services.seat_bot(table=table, actor=table.created_by)
    now = timezone.now()
    for _step in range(5):
        now += timedelta(seconds=3)
        online_play.sweep(now=now)
    assert not TableHand.objects.filter(table=table).exists()
    alice = make_user(username="alice")
    online_services.take_seat(table=table, user=alice, buy_in=500, number=3)
    now += timedelta(seconds=3)
    online_play.sweep(now=now)
    assert TableHand.objects.filter(table=table).count() == 1


def test_house_bots_play_hands_by_the_sweeper_and_conserve_chips(settings):
    settings.FLOORMAN_BOTS_PLAY_ALONE = True
    table = make_table(seats=4)
    floor = table.created_by
    for _ in range(3):
        online_services.seat_bot(table=table, actor=floor)
    now = timezone.now()
    for _step in range(400):
        now += timedelta(seconds=2)
        online_play.sweep(now=now)
    # A bot that loses its chips buys in again: the bots never stop each other.
    assert TableHand.objects.filter(table=table, is_over=True).count() >= 10
    seated, ledger = table_chips(table)
    assert seated == ledger == (3 + rebuys(table)) * table.max_buy_in
    assert AuditEvent.objects.filter(action="online.seat_bot").count() == 3


def _bot_all_in_on_the_big_blind(*, remove_bot: bool = False):
    """Alice (button, small blind) calls a house bot all-in for its blind, aces against 7-2;
    the runout dealt by the sweeper. The table's only buy-in is the big blind."""
    table = make_table(min_buy_in=10, max_buy_in=10)
    (alice,) = seat_players(table, ["alice"], buy_in=10)
    bot = online_services.seat_bot(table=table, actor=table.created_by, number=2)
    deck = stacked_deck(["AsAh", "7c2d"], board="Kc9h5s4dJc")
    hand = online_play.deal_hand(table=table, deck=deck)
    if remove_bot:
        online_play.unseat(table=table, actor=table.created_by, number=2)
    play(table, alice, "call")
    now = timezone.now()
    while not TableHand.objects.get(pk=hand.pk).is_over:
        now += timedelta(seconds=3)
        online_play.sweep(now=now)
    hand.refresh_from_db()
    assert hand.final_stacks == [20, 0]
    return table, alice, bot


def test_a_broke_house_bot_buys_in_again_and_the_table_deals_on():
    table, alice, bot = _bot_all_in_on_the_big_blind()
    seat = OnlineSeat.objects.get(pk=bot.pk)
    assert seat.stack == table.max_buy_in and seat.status != SeatStatus.SITTING_OUT
    rebuy = AuditEvent.objects.get(action="online.bot_rebuy")
    assert rebuy.actor is None and rebuy.data == {"table": table.pk, "seat": 2, "amount": 10}
    # Its account held the house's play chips, so it paid from them: no new grant.
    assert balances(bot.user) == [10_000 - 10]
    seated, ledger = table_chips(table)
    assert seated == ledger == 30
    assert online_play.deal_hand(table=table).user_ids == [alice.pk, bot.user_id]


def test_a_broke_house_bot_short_of_chips_is_granted_what_it_lacks():
    table = make_table(min_buy_in=10, max_buy_in=10)
    bot = online_services.seat_bot(table=table, actor=table.created_by)
    ChipAccount.objects.filter(user=bot.user).update(balance=3)
    online_services.rebuy_bot(seat=bot, table=table)
    assert balances(bot.user) == [0]
    grants = ChipTransfer.objects.filter(user=bot.user, kind=TransferKind.GRANT)
    assert list(grants.filter(actor=None).values_list("amount", flat=True)) == [10_000, 7]


def test_a_house_bot_removed_during_its_hand_leaves_broke_and_buys_nothing():
    table, _alice, bot = _bot_all_in_on_the_big_blind(remove_bot=True)
    assert not OnlineSeat.objects.filter(pk=bot.pk).exists()
    assert not AuditEvent.objects.filter(action="online.bot_rebuy").exists()
    seated, ledger = table_chips(table)
    assert seated == ledger == 20


def test_a_broke_player_sits_out_and_nothing_buys_in_for_him():
    table = make_table()
    alice, bob = seat_players(table, ["alice", "bob"], buy_in=500)
    deck = stacked_deck(["7c2d", "AsAh"], board="Kc9h5s4dJc")
    online_play.deal_hand(table=table, deck=deck)
    play(table, alice, "raise", 500)
    play(table, bob, "call")
    now = timezone.now()
    while TableHand.objects.filter(table=table, is_over=False).exists():
        now += timedelta(seconds=3)
        online_play.sweep(now=now)
    seat = OnlineSeat.objects.get(user=alice)
    assert seat.stack == 0 and seat.status == SeatStatus.SITTING_OUT
    assert not AuditEvent.objects.filter(action="online.bot_rebuy").exists()


def test_r3_10_a_player_whose_time_ran_out_sits_out_and_his_next_turns_act_at_once():
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    hand = online_play.deal_hand(table=table)
    play(table, alice, "call")
    assert expire(hand)  # bob, the small blind, connected: he may not check, so he folds
    assert OnlineSeat.objects.get(user=bob).status == SeatStatus.SITTING_OUT
    play(table, carol, "check")
    hand.refresh_from_db()
    assert hand.is_over is False and online_play.engine_of(hand).board


def test_r2_9_sitting_out_on_ones_turn_checks_or_folds_at_once():
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    hand = online_play.deal_hand(table=table)
    online_play.sit_out(table=table, user=alice)  # her turn, facing the big blind
    last = HandAction.objects.filter(hand=hand).order_by("sequence").last().record
    assert last == {"move": "fold", "position": 0, "cause": "absent"}
    with pytest.raises(TableError, match="already"):
        online_play.sit_out(table=table, user=alice)


def test_floor_staff_unseat_a_player_after_his_hand_and_it_is_audited():
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    online_play.deal_hand(table=table)
    online_play.unseat(table=table, actor=table.created_by, number=1)  # alice, to act: folds
    assert OnlineSeat.objects.filter(table=table, user=alice).exists()  # until the hand ends
    play(table, bob, "fold")
    assert not OnlineSeat.objects.filter(table=table, user=alice).exists()
    assert balances(alice) == [10_000]
    assert AuditEvent.objects.filter(action="online.unseat", data__seat=1).count() == 1
    with pytest.raises(TableError, match="empty"):
        online_play.unseat(table=table, actor=table.created_by, number=6)
    assert_chips_conserved(table, [alice, bob, carol])


def test_tda_16_after_an_all_in_every_live_hand_is_shown():
    table = make_table()
    alice, bob = seat_players(table, ["alice", "bob"], buy_in=500)
    # Heads-up alice has the button and the small blind (R2.8); dealing starts with her.
    deck = stacked_deck(["7c2d", "AsAh"], board="Kc9h5s4dJc")
    hand = online_play.deal_hand(table=table, deck=deck)
    play(table, alice, "call")
    play(table, bob, "raise", 500)  # all-in: bob shows first, and wins
    play(table, alice, "call")
    hand.refresh_from_db()
    assert hand.is_over
    # Alice's losing hand is tabled too: after an all-in every live hand is shown (TDA 16).
    assert hand.shown == [1, 0]
    assert_chips_conserved(table, [alice, bob])


def test_r1_8_without_an_all_in_the_winner_shows_and_losers_after_him_muck():
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    # Dealing order from the small blind: bob, carol, alice. Bob, first to show, wins.
    deck = stacked_deck(["AsAh", "7c2d", "8c3d"], board="Kc9h5s4dJc")
    hand = online_play.deal_hand(table=table, deck=deck)
    play(table, alice, "call")
    play(table, bob, "call")
    play(table, carol, "check")
    for _street in range(3):
        play(table, bob, "check")
        play(table, carol, "check")
        play(table, alice, "check")
    hand.refresh_from_db()
    assert hand.is_over and hand.shown == [1]  # carol and alice muck (R1.8)
    online_play.show_cards(table=table, user=carol, hand_id=hand.pk)  # she shows by choice
    hand.refresh_from_db()
    assert hand.shown == [1, 2]


def test_a_tables_chips_are_read_in_one_statement_so_a_commit_between_cannot_split_them(
    django_assert_num_queries,
):
    """Chips conserved (docs/architecture.md, "Integrity"): the seats' stacks and the ledger are
    one snapshot. Read in two statements, a bot's rebuy committing between them (its buy-in in
    the ledger, its stack not yet read) made the soak report 2,000 chips missing at a table
    whose chips were right (bench/RESULTS.md, eighteenth pass)."""
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"], buy_in=700)
    online_services.cash_out(seat=OnlineSeat.objects.get(table=table, user=carol))
    with django_assert_num_queries(1):
        assert table_chips(table) == (1_400, 1_400)
    assert table_chips(make_table(name="empty")) == (0, 0)
