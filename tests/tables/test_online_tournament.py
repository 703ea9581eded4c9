"""The deal at an online event's table (tables/online_tournament.py): the dead button (R2.7),
heads-up (R2.8), everyone with chips dealt in (R2.9), moved players who wait (TDA 10B) and
the tables a balancing plan holds (TDA 11D, RP-9)."""

from __future__ import annotations

from tables.online.tournament import plan_tournament_hand, tables_a_plan_holds
from tables.positions import TableState


def state(players: list[int], *, button: int, small: int | None, big: int | None) -> TableState:
    return TableState(
        table=1, seats=9, players={s: s for s in players}, button_seat=button,
        small_blind_seat=small, big_blind_seat=big,
    )  # fmt: skip


def test_the_big_blind_moves_on_one_player_and_the_small_blind_and_button_follow_it():
    # R2.7: last hand button 1, blinds 3 and 5; next: button 3, small blind 5, big blind 1.
    hand = plan_tournament_hand(state=state([1, 3, 5], button=1, small=3, big=5), ready=[1, 3, 5])
    assert hand is not None and not hand.dead_small_blind
    assert (hand.button_seat, hand.small_blind_seat, hand.big_blind_seat) == (3, 5, 1)
    plan = hand.plan
    assert plan.seat_numbers == (5, 1, 3)  # clockwise from the left of the button
    assert (plan.button, plan.small_blind, plan.big_blind) == (2, 0, 1)


def test_a_busted_big_blind_leaves_a_dead_small_blind():
    # R2.7: seat 5 (last big blind) busted: nobody posts the small blind; 7 is the big blind.
    hand = plan_tournament_hand(state=state([1, 3, 7], button=1, small=3, big=5), ready=[1, 3, 7])
    assert hand is not None and hand.dead_small_blind
    assert (hand.button_seat, hand.small_blind_seat, hand.big_blind_seat) == (3, 5, 7)
    assert hand.plan.seat_numbers == (7, 1, 3) and hand.plan.big_blind == 0


def test_a_busted_small_blind_leaves_a_dead_button():
    # R2.7: seat 3 (last small blind) busted: the button stays on the empty seat 3, so the
    # engine's button is the player right of it (seat 1), who acts last after the flop.
    hand = plan_tournament_hand(state=state([1, 5, 7], button=1, small=3, big=5), ready=[1, 5, 7])
    assert hand is not None and not hand.dead_small_blind
    assert (hand.button_seat, hand.small_blind_seat, hand.big_blind_seat) == (3, 5, 7)
    assert hand.plan.seat_numbers == (5, 7, 1)
    assert (hand.plan.button, hand.plan.small_blind, hand.plan.big_blind) == (2, 0, 1)


def test_heads_up_the_button_posts_the_small_blind():
    # R2.8: two left; the big blind moves on and the other player has the button and the SB.
    hand = plan_tournament_hand(state=state([3, 5], button=1, small=3, big=5), ready=[3, 5])
    assert hand is not None and not hand.dead_small_blind
    assert (hand.button_seat, hand.small_blind_seat, hand.big_blind_seat) == (5, 5, 3)
    assert hand.plan.seat_numbers[hand.plan.button] == 5
    assert hand.plan.seat_numbers[hand.plan.small_blind] == 5


def test_everyone_with_chips_is_dealt_in_and_a_player_without_chips_is_not():
    # R2.9: sitting out changes nothing here (the seat list has no status); no chips: no hand.
    hand = plan_tournament_hand(
        state=state([1, 3, 5, 7], button=1, small=3, big=5), ready=[1, 3, 7]
    )
    assert hand is not None and 5 not in hand.plan.seat_numbers


def test_a_player_moved_in_between_the_small_blind_and_the_button_waits():
    # TDA 10B: last blinds 3 and 5, the button goes to 3; a player moved into seat 4 sits
    # between that button and the small blind (5): he waits; one moved into seat 8 plays.
    table = state([1, 3, 5, 4, 8], button=1, small=3, big=5)
    hand = plan_tournament_hand(state=table, ready=[1, 3, 4, 5, 8], waiting=[4, 8])
    assert hand is not None
    assert 4 not in hand.plan.seat_numbers and 8 in hand.plan.seat_numbers
    assert hand.plan.joined == (8,)


def test_fewer_than_two_with_chips_deal_nothing():
    assert plan_tournament_hand(state=state([1, 3], button=1, small=1, big=3), ready=[1]) is None


def test_tda_11d_a_plan_holds_the_tables_it_takes_players_from_and_the_tables_it_breaks():
    # TDA 11D: a balancing plan waits, between hands, for the tables it takes players from and
    # the tables it breaks; the tables it fills and the others play on.
    numbers = [1, 2, 3, 4]
    plan = {"broken_tables": [4]}
    held = tables_a_plan_holds(plan, moves_anyone=True, moves_from=[1, 4], numbers=numbers)
    assert held == {1, 4}
    assert tables_a_plan_holds({}, moves_anyone=True, moves_from=[2], numbers=numbers) == {2}
    # The hand's end asks for its own table only (waits_for_the_director).
    assert tables_a_plan_holds(plan, moves_anyone=True, moves_from=[], numbers=[3]) == set()
    assert tables_a_plan_holds(plan, moves_anyone=True, moves_from=[], numbers=[4]) == {4}


def test_tda_rp_9_a_final_tables_draw_holds_every_table_and_a_plan_that_moves_nobody_none():
    # TDA RP-9: the final table is drawn when every table is between hands.
    final = {"final_table": 1, "broken_tables": [2, 3]}
    assert tables_a_plan_holds(final, moves_anyone=True, moves_from=[2, 3], numbers=[1, 2, 3]) == {
        1,
        2,
        3,
    }
    assert tables_a_plan_holds(
        {"final_table": 1}, moves_anyone=True, moves_from=[], numbers=[1]
    ) == {1}
    # A plan with nothing to carry out (no move, no table broken) holds no table, whatever
    # it names: the director releases every hold (scoring.online_events._balance).
    assert (
        tables_a_plan_holds({"final_table": 1}, moves_anyone=False, moves_from=[], numbers=[1, 2])
        == set()
    )
