"""Draw Hold'em on an online table (R7.3-R7.11): the first swap round, a swap's fee, a swap
private to its player, the swap on the player's own action clock, bots, and the hand's PHH."""

import pytest

from tables.engine import card_name
from tables.engine.draw import DrawHand
from tables.engine.phh import read_draw
from tables.online import play as online_play
from tables.online import services as online_services
from tables.online.history import hand_phh, steps
from tables.online.models import Game, HandAction, TableHand
from tables.online.selectors import table_view
from tables.online.services import TableError, table_chips
from tests.tables.online_helpers import make_table, play_bots, seat_players

pytestmark = pytest.mark.django_db


def draw_table(**kw):
    return make_table(game=Game.DRAW_HOLDEM, blinds=(5, 10), **kw)


def test_r7_5_the_first_swap_costs_the_small_blind_and_is_private():
    table = draw_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    hand = online_play.deal_hand(table=table)
    engine = online_play.engine_of(hand)
    assert isinstance(engine, DrawHand) and engine.swap_only
    # Three-handed, alice (the button) decides first; the blinds decide last (R7.5).
    assert hand.user_ids[engine.actor] == alice.pk
    view = table_view(table, alice)
    assert view.controls.can_swap and view.controls.can_stand_pat
    assert view.controls.swap_fee == 5
    given = view.controls.swap_cards[0].code
    with pytest.raises(TableError):
        online_play.act(table=table, user=alice, hand_id=hand.pk, sequence=0, action="check")
    online_play.act(table=table, user=alice, hand_id=hand.pk, sequence=0, action="swap", card=given)
    engine = online_play.engine_of(hand)
    new_cards = [card_name(c) for c in engine.hole_cards[0]]
    assert given not in new_cards
    drawn = next(
        code for code in new_cards if code not in [c.code for c in view.controls.swap_cards]
    )
    # The others see that she swapped and paid, never the card she gave back or drew (R7.11).
    for other in (bob, carol, None):
        seen = table_view(table, other) if other else table_view(table, _anonymous())
        alice_seat = next(s for s in seen.seats if s.number == 1)
        assert alice_seat.swap_fee == 5
        assert alice_seat.cards == []
    # Bob and carol keep their cards; then alice's swap fee counts toward her call (R7.5).
    hand.refresh_from_db()
    online_play.act(table=table, user=bob, hand_id=hand.pk, sequence=hand.sequence,
                    action="stand_pat")  # fmt: skip
    hand.refresh_from_db()
    online_play.act(table=table, user=carol, hand_id=hand.pk, sequence=hand.sequence,
                    action="stand_pat")  # fmt: skip
    engine = online_play.engine_of(hand)
    assert not engine.swap_only and engine.call_amount() == 5  # 10 to call, 5 paid already
    assert drawn not in str(table_view(table, bob).seats)  # her new card is hers alone


def _anonymous():
    from django.contrib.auth.models import AnonymousUser

    return AnonymousUser()


def test_house_bots_play_draw_holdem_and_every_hand_replays_and_exports(settings):
    settings.FLOORMAN_BOTS_PLAY_ALONE = True
    table = draw_table(seats=6)
    for _ in range(4):
        online_services.seat_bot(table=table, actor=table.created_by)
    rebuys = play_bots(table, sweeps=300)
    finished = list(TableHand.objects.filter(table=table, is_over=True))
    assert len(finished) >= 4
    swaps = HandAction.objects.filter(hand__table=table, record__move="swap").count()
    assert swaps > 0
    for hand in finished:
        assert sum(hand.final_stacks) == sum(hand.starting_stacks)
        assert online_play.engine_of(hand).stacks == list(hand.final_stacks)
        history = hand_phh(hand, hand.user_ids[0])
        assert read_draw(history).stacks == _phh_order(hand)
        assert steps(hand, hand.user_ids[0])
    seated, ledger = table_chips(table)
    assert seated == ledger == (4 + rebuys) * table.max_buy_in


def _phh_order(hand):
    n, button = len(hand.final_stacks), hand.button
    return [hand.final_stacks[(button + 1 + k) % n] for k in range(n)]
