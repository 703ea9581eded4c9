"""Seven-card stud on an online table (R7.2): antes and the bring-in, up cards everyone sees,
down cards only their owner, the dealer's place moving on, bots, and the hand's PHH."""

import pytest
from django.core.exceptions import ValidationError

from tables.engine.phh import read_stud
from tables.engine.stud import StudHand
from tables.online import play as online_play
from tables.online import services as online_services
from tables.online.history import hand_phh
from tables.online.models import Game, TableHand
from tables.online.selectors import table_view
from tables.online.services import TableError, table_chips
from tests.tables.online_helpers import make_table, play_bots, seat_players

pytestmark = pytest.mark.django_db


def stud_table(**kw):
    # Ante 1, bring-in 2 (the table's small blind), small bet 5, big bet 10.
    return make_table(game=Game.SEVEN_CARD_STUD, blinds=(2, 5), ante=1, **kw)


def test_r7_2_a_stud_table_seats_at_most_eight():
    with pytest.raises(ValidationError, match="at most 8"):
        stud_table(seats=9)


def test_r7_2_the_low_card_brings_in_and_each_viewer_sees_up_cards_and_only_his_down_cards():
    table = stud_table()
    users = seat_players(table, ["alice", "bob", "carol"])
    hand = online_play.deal_hand(table=table)
    engine = online_play.engine_of(hand)
    assert isinstance(engine, StudHand)
    assert engine.pot_total == 3  # R7.2: everyone antes
    low = engine.actor
    low_user = users[hand.seat_numbers[low] - 1]
    other = next(u for u in users if u != low_user)
    # The low card must bring in: no check, no fold.
    with pytest.raises(TableError):
        online_play.act(table=table, user=low_user, hand_id=hand.pk, sequence=0, action="check")
    view = table_view(table, low_user)
    assert view.controls is not None and view.controls.can_bring_in
    assert view.controls.bring_in == 2
    for viewer in users:
        seen = table_view(table, viewer)
        for seat in seen.seats:
            if not seat.in_hand:
                continue
            position = hand.seat_numbers.index(seat.number)
            codes = [card.code for card in seat.cards]
            up = list(engine.up_cards[position])
            down = engine.down_cards[position]
            if seat.is_me:
                assert len(codes) == 3  # his two down cards and his up card
            else:
                assert len(codes) == len(up) == 1 and seat.card_backs == len(down)
                assert all(code not in codes for code in map(_name, down))
    online_play.act(table=table, user=low_user, hand_id=hand.pk, sequence=0, action="bring_in")
    hand.refresh_from_db()
    assert online_play.engine_of(hand).call_amount() == 2
    assert table_view(table, other).seats  # still renders for everyone
    _play_out(table, hand, users)
    hand.refresh_from_db()
    assert hand.is_over
    seated, ledger = table_chips(table)
    assert seated == ledger == 3_000
    history = hand_phh(hand, users[0].pk)
    assert read_stud(history).stacks == list(hand.final_stacks)


def _name(card):
    from tables.engine import card_name

    return card_name(card)


def _play_out(table, hand, users):
    while True:
        hand.refresh_from_db()
        if hand.is_over:
            return
        engine = online_play.engine_of(hand)
        actor = users[hand.seat_numbers[engine.actor] - 1]
        # R7.2: the low card brings in; then everyone checks or calls down.
        action = "bring_in" if engine.can_bring_in() else "check" if engine.can_check() else "call"
        online_play.act(
            table=table, user=actor, hand_id=hand.pk, sequence=hand.sequence, action=action
        )


def test_r7_2_the_deal_starts_left_of_a_dealer_place_that_moves_on():
    table = stud_table()
    users = seat_players(table, ["alice", "bob", "carol"])
    first = online_play.deal_hand(table=table)
    assert first.seat_numbers == [2, 3, 1]  # alice sat first: her seat is the dealer's
    _play_out(table, first, users)
    second = online_play.deal_hand(table=table)
    assert second.seat_numbers == [3, 1, 2]


def test_house_bots_play_stud_and_conserve_chips(settings):
    settings.FLOORMAN_BOTS_PLAY_ALONE = True
    table = stud_table(seats=6)
    for _ in range(4):
        online_services.seat_bot(table=table, actor=table.created_by)
    rebuys = play_bots(table, sweeps=300)
    finished = TableHand.objects.filter(table=table, is_over=True)
    assert finished.count() >= 5
    for hand in finished:
        assert sum(hand.final_stacks) == sum(hand.starting_stacks)
        assert read_stud(hand_phh(hand, None, all_cards=True)).stacks == list(hand.final_stacks)
    seated, ledger = table_chips(table)
    assert seated == ledger == (4 + rebuys) * table.max_buy_in
