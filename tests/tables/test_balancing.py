import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.balancing import BalanceSettings, apply_plan, plan_balance, verify_plan
from tables.hand_for_hand import on_the_bubble, share_hand_for_hand_place
from tables.positions import (
    TableState,
    after_hand,
    dealt_in,
    last_big_blind_seat,
    next_hand,
    worst_open_seats,
)


def make_table(*, table, seats=10, occupied, button=1, big_blind=None, small_blind=None):
    """Players are numbered table * 100 + seat so a test can name them."""
    return TableState(
        table=table,
        seats=seats,
        players={s: table * 100 + s for s in occupied},
        button_seat=button,
        big_blind_seat=big_blind,
        small_blind_seat=small_blind,
    )


def counts_after(tables, plan):
    """Seat maps after the plan, built here independently of apply_plan."""
    seated = {t.table: dict(t.players) for t in tables}
    for m in plan.moves:
        assert seated[m.from_table].pop(m.from_seat) == m.player
    for m in plan.moves:
        assert m.to_seat not in seated[m.to_table]
        seated[m.to_table][m.to_seat] = m.player
    for t in plan.broken_tables:
        assert seated[t] == {}
        del seated[t]
    return seated


# --- positions (R2.7 dead button) ---


def test_r2_7_next_big_blind_is_first_occupied_seat_after_last_big_blind():
    table = make_table(table=1, occupied=[1, 2, 3, 4, 6, 7, 8, 9], button=3, big_blind=4)
    hand = next_hand(table)
    assert hand.small_blind_seat == 4
    assert hand.big_blind_seat == 6


def test_r2_7_busted_big_blind_leaves_a_dead_small_blind():
    table = make_table(table=1, occupied=[1, 2, 3, 6, 7], button=2, big_blind=4)
    hand = next_hand(table)
    assert hand.small_blind_seat == 4  # empty: nobody posts the small blind
    assert 4 not in table.players
    assert hand.big_blind_seat == 6


def test_last_big_blind_derived_from_button():
    assert last_big_blind_seat(make_table(table=1, occupied=[1, 2, 4, 6], button=2)) == 6
    assert last_big_blind_seat(make_table(table=1, occupied=[1, 2, 4, 6], button=6)) == 2


def test_r2_8_heads_up_big_blind_is_the_player_off_the_button():
    table = make_table(table=1, occupied=[3, 7], button=3)
    assert last_big_blind_seat(table) == 7
    assert next_hand(table).big_blind_seat == 3
    assert next_hand(table).small_blind_seat == 7  # R2.8: the new button posts the SB


def test_before_first_hand_blinds_follow_the_button():
    table = TableState.before_first_hand(
        table=1, seats=10, players={2: 1, 5: 2, 8: 3, 9: 4}, button_seat=8
    )
    assert next_hand(table).small_blind_seat == 9
    assert next_hand(table).big_blind_seat == 2


def test_tda_worst_position_is_the_big_blind_never_the_small_blind():
    # Last BB in seat 4; seat 5 is empty, so a newcomer there is next hand's big blind.
    table = make_table(table=1, occupied=[1, 2, 3, 4, 6, 7, 8], big_blind=4)
    assert worst_open_seats(table=table) == [5, 9, 10]
    # The big blind busted: seat 4 would be next hand's small blind and is never offered.
    table = make_table(table=1, occupied=[1, 2, 3, 6, 7, 8], big_blind=4)
    assert worst_open_seats(table=table) == [5, 9, 10]


# --- balancing moves (TDA balancing tables) ---


def test_tda_next_big_blind_of_full_table_moves_to_worst_seat_of_short_table():
    """R5.7, TDA 11A: a player moves from the fuller table to the shorter one."""
    full = make_table(table=1, occupied=range(1, 11), button=1, big_blind=3)
    short = make_table(table=2, occupied=range(1, 9), button=6, big_blind=8)
    plan = plan_balance(tables=[full, short], break_order=[2, 1])
    assert len(plan.moves) == 1
    move = plan.moves[0]
    # seat 4 of table 1 is next to post the big blind there; seat 9 of table 2 is the first
    # seat after table 2's last big blind (8): he posts the big blind there next hand.
    assert (move.player, move.from_table, move.from_seat) == (104, 1, 4)
    assert (move.to_table, move.to_seat, move.reason) == (2, 9, "balance")
    assert plan.broken_tables == ()
    assert any("TDA" in line for line in plan.explain())


def test_tda_never_moves_into_the_small_blind_seat():
    full = make_table(table=1, occupied=range(1, 11), big_blind=10)
    # The big blind in seat 8 of table 2 busted: seat 8 is next hand's (dead) small blind.
    short = make_table(table=2, occupied=[1, 2, 3, 4, 5, 6, 7, 9], big_blind=8)
    plan = plan_balance(tables=[full, short], break_order=[])
    assert [(m.player, m.to_table, m.to_seat) for m in plan.moves] == [(101, 2, 10)]


def test_tda_balance_within_the_allowed_gap():
    full = make_table(table=1, occupied=range(1, 11), big_blind=3)
    short = make_table(table=2, occupied=range(1, 9), big_blind=8)
    plan = plan_balance(tables=[full, short], break_order=[], settings=BalanceSettings(max_gap=2))
    assert plan.moves == ()
    assert plan.explain() == ["Tables are balanced (TDA: within one player); nobody moves."]


def test_tda_halt_tables_three_short_and_moves_in_break_order():
    """TDA 11D: the table 3 short halts; TDA 11C: the source table by the break order."""
    tables = [
        make_table(table=1, occupied=range(1, 11), big_blind=5),
        make_table(table=2, occupied=range(1, 10), big_blind=5),
        make_table(table=3, occupied=range(1, 7), big_blind=6),
    ]
    plan = plan_balance(tables=tables, break_order=[3, 2, 1])
    assert plan.halt_tables == (3,)
    # 10/9/6: table 1 gives its next BB (seat 6); then 9/9/7: table 2 breaks before table 1,
    # so it gives its next BB (seat 6); 9/8/8 is balanced.
    assert [(m.from_table, m.from_seat, m.to_table, m.to_seat) for m in plan.moves] == [
        (1, 6, 3, 7),
        (2, 6, 3, 8),
    ]
    assert {t: len(s) for t, s in counts_after(tables, plan).items()} == {1: 9, 2: 8, 3: 8}


def test_tda_table_breaks_in_preset_order_into_random_seats():
    """R5.7, TDA 10: the next table in the break order breaks once the others can seat it."""
    tables = [
        make_table(table=1, occupied=range(1, 8), big_blind=2),
        make_table(table=2, occupied=range(1, 8), big_blind=5),
        make_table(table=3, occupied=range(1, 7), big_blind=3),
    ]
    plan = plan_balance(tables=tables, break_order=[2, 3, 1], rng=random.Random(3))
    assert plan.broken_tables == (2,)
    assert sorted(m.player for m in plan.moves) == [201, 202, 203, 204, 205, 206, 207]
    assert {m.reason for m in plan.moves} == {"table_break"}
    seated = counts_after(tables, plan)
    assert {t: len(s) for t, s in seated.items()} == {1: 10, 3: 10}


def test_tda_10b_break_does_not_wait_for_small_blind_seats():
    tables = [
        make_table(table=1, occupied=range(1, 7), button=5, big_blind=7),  # seat 7 is next SB
        make_table(table=2, occupied=range(1, 8), button=9, big_blind=2),
        make_table(table=3, occupied=range(1, 8), button=9, big_blind=2),
    ]
    plan = plan_balance(tables=tables, break_order=[3], rng=random.Random(1))
    # 20 players, 19 free seats elsewhere before: table 3's 7 fit (4 + 3 + 3 empty incl. seat 7)
    assert plan.broken_tables == (3,)
    assert sorted(m.player for m in plan.moves) == [301, 302, 303, 304, 305, 306, 307]
    assert {t: len(s) for t, s in counts_after(tables, plan).items()} == {1: 10, 2: 10}
    into_sb = [m for m in plan.moves if (m.to_table, m.to_seat) == (1, 7)]
    assert len(into_sb) == 1  # table 1 fills up, so its small blind seat is drawn too
    assert not into_sb[0].dealt_in  # TDA 10B: he waits until the button passes
    assert "after the button passes" in into_sb[0].text
    verify_plan(tables=tables, plan=plan)


def test_tda_10b_dealt_in_except_between_small_blind_and_button():
    # Last hand: button 2, small blind 4, big blind 7 (seats 3, 5 and 6 were empty).
    table = make_table(table=1, occupied=[1, 2, 4, 7, 8, 9], button=2, big_blind=7)
    # Next hand: button 4 (last SB), SB 7, BB 8: seats 5 and 6 lie between button and SB.
    assert [s for s in (3, 5, 6, 10) if not dealt_in(table=table, seat=s)] == [5, 6]
    assert not dealt_in(table=table, seat=7)  # a dead small blind seat: he would not post
    # The small blind busted: the button goes to his (dead) seat; we take it from the last
    # button, so seat 4 waits as well as 5 and 6.
    table = make_table(table=1, occupied=[1, 2, 7, 8, 9], button=2, big_blind=7)
    assert [s for s in (3, 4, 5, 6, 10) if not dealt_in(table=table, seat=s)] == [3, 4, 5, 6]
    # Heads-up before the first hand the button is the small blind: only that seat waits.
    heads_up = TableState.before_first_hand(table=1, seats=6, players={1: 1, 4: 2}, button_seat=1)
    assert [s for s in range(1, 7) if not dealt_in(table=heads_up, seat=s)] == [1]


def test_tda_10b_r2_7_newcomer_on_the_dead_button_seat_is_dealt_in():
    # Issue #7: last hand button 1, small blind 2, big blind 3; the small blind busted. The
    # dead button moves to his empty seat 2: a newcomer put there is on the button, dealt in.
    table = make_table(table=1, seats=9, occupied=[1, 3, 4, 5], button=1, small_blind=2,
                       big_blind=3)  # fmt: skip
    assert dealt_in(table=table, seat=2)
    assert not dealt_in(table=table, seat=3)  # next hand's small blind (R2.7)
    assert all(dealt_in(table=table, seat=s) for s in (6, 7, 8, 9))


def test_tda_10b_r2_7_newcomer_between_the_old_button_and_the_dead_button_is_dealt_in():
    # Last hand: button 1, small blind 4 (seats 2 and 3 empty), big blind 6; the small blind
    # busted. Next hand: button 4 (dead), small blind 6, big blind 7.
    table = make_table(table=1, occupied=[1, 6, 7, 8], button=1, small_blind=4, big_blind=6)
    assert [s for s in (2, 3, 4) if dealt_in(table=table, seat=s)] == [2, 3, 4]
    assert [s for s in (5, 6) if not dealt_in(table=table, seat=s)] == [5, 6]  # SB..button
    assert all(dealt_in(table=table, seat=s) for s in (9, 10))


def test_tda_10b_only_seats_between_the_next_button_and_small_blind_wait():
    # Last hand: button 2, small blind 5, big blind 9; seats 3, 4, 6, 7 and 8 are empty now.
    table = make_table(table=1, occupied=[1, 2, 9, 10], button=2, small_blind=5, big_blind=9)
    waiting = [s for s in range(1, 11) if s not in table.players and not dealt_in(
        table=table, seat=s)]  # fmt: skip
    assert waiting == [6, 7, 8]  # strictly between button 5 and small blind 9
    assert not dealt_in(table=table, seat=9)  # the small blind's own seat


def test_r2_7_next_hand_moves_the_button_to_the_last_small_blind_seat():
    table = make_table(table=1, occupied=[1, 3, 4, 5], button=1, small_blind=2, big_blind=3)
    hand = next_hand(table)
    assert (hand.button_seat, hand.small_blind_seat, hand.big_blind_seat) == (2, 3, 4)
    after = after_hand(table)
    assert (after.button_seat, after.small_blind_seat, after.big_blind_seat) == (2, 3, 4)
    # Unknown small blind: derived as before from the seats occupied now.
    unknown = make_table(table=1, occupied=[1, 2, 4, 7], button=1, big_blind=4)
    assert next_hand(unknown).button_seat == 2


def test_r2_7_a_known_small_blind_gives_the_big_blind_when_it_is_unknown():
    # The small blind in seat 3 busted; the big blind is the first player after his seat.
    table = make_table(table=1, occupied=[1, 5, 8], button=1, small_blind=3)
    assert last_big_blind_seat(table) == 5


def test_table_without_players_closes_first():
    tables = [
        make_table(table=1, occupied=range(1, 10), big_blind=2),
        make_table(table=2, occupied=[], big_blind=2),
        make_table(table=3, occupied=range(1, 10), big_blind=2),
    ]
    plan = plan_balance(tables=tables, break_order=[1, 3, 2])
    assert plan.broken_tables == (2,)
    assert plan.moves == ()


def test_tda_rp_9_final_table_fresh_draw_for_everyone():
    tables = [
        make_table(table=1, occupied=[1, 4, 6, 8, 9], big_blind=4),
        make_table(table=2, occupied=[2, 3, 5, 7, 10], big_blind=3),
    ]
    plan = plan_balance(tables=tables, break_order=[2], rng=random.Random(9))
    assert plan.final_table == 1
    assert plan.broken_tables == (2,)
    assert len(plan.moves) == 10
    assert {m.reason for m in plan.moves} == {"final_table"}
    assert sorted(m.to_seat for m in plan.moves) == list(range(1, 11))
    assert {m.to_table for m in plan.moves} == {1}
    (final,) = apply_plan(tables=tables, plan=plan)
    assert final.table == 1
    assert final.players[plan.final_button_seat]
    verify_plan(tables=tables, plan=plan)


def test_tda_rp_9_the_final_table_draw_is_random_seats_and_button():
    tables = [
        make_table(table=1, occupied=[1, 4, 6, 8], big_blind=4),
        make_table(table=2, occupied=[2, 3, 5, 7], big_blind=3),
    ]
    draws = set()
    for seed in range(30):
        plan = plan_balance(tables=tables, break_order=[2], rng=random.Random(seed))
        assert "TDA RP-9" in plan.notes[0]
        seats = tuple(sorted((m.player, m.to_seat) for m in plan.moves))
        draws.add((seats, plan.final_button_seat))
        assert plan.final_button_seat in {m.to_seat for m in plan.moves}  # an occupied seat
    # staying put is not a redraw: players of the final table move too, in many ways
    assert len(draws) > 20


def test_final_table_size_setting():
    tables = [
        make_table(table=1, occupied=range(1, 6)),
        make_table(table=2, occupied=range(1, 5)),
    ]
    plan = plan_balance(
        tables=tables, break_order=[1], settings=BalanceSettings(final_table_size=9)
    )
    assert plan.final_table == 2
    assert all(1 <= m.to_seat <= 9 for m in plan.moves)


def test_bad_states_are_refused():
    with pytest.raises(ValueError, match="seated twice"):
        plan_balance(
            tables=[
                TableState(table=1, seats=10, players={1: 5}, button_seat=1),
                TableState(table=2, seats=10, players={1: 5}, button_seat=1),
            ],
            break_order=[],
        )
    with pytest.raises(ValueError, match="no seat"):
        plan_balance(
            tables=[TableState(table=1, seats=9, players={10: 5}, button_seat=1)],
            break_order=[],
        )


def test_verify_plan_catches_a_wrong_dealt_in_mark():
    tables = [
        make_table(table=1, occupied=range(1, 7), button=5, big_blind=7),
        make_table(table=2, occupied=range(1, 8), button=9, big_blind=2),
        make_table(table=3, occupied=range(1, 8), button=9, big_blind=2),
    ]
    plan = plan_balance(tables=tables, break_order=[3], rng=random.Random(1))
    flipped = tuple(replace(m, dealt_in=not m.dealt_in) if m.to_seat == 7 and m.to_table == 1
                    else m for m in plan.moves)  # fmt: skip
    with pytest.raises(ValueError, match="dealt in"):
        verify_plan(tables=tables, plan=replace(plan, moves=flipped))


def test_verify_plan_catches_a_small_blind_move():
    full = make_table(table=1, occupied=range(1, 11), big_blind=10)
    short = make_table(table=2, occupied=[1, 2, 3, 4, 5, 6, 7, 9], big_blind=8)
    plan = plan_balance(tables=[full, short], break_order=[])
    bad = replace(plan, moves=(replace(plan.moves[0], to_seat=8),))
    with pytest.raises(ValueError, match="small blind"):
        verify_plan(tables=[full, short], plan=bad)


# --- hand-for-hand ---


def test_tda_bubble_is_one_more_player_than_places():
    assert on_the_bubble(players_left=11, paid_places=10)
    assert not on_the_bubble(players_left=12, paid_places=10)
    assert not on_the_bubble(players_left=10, paid_places=10)


def test_tda_same_hand_for_hand_busts_at_different_tables_share_the_place():
    """R5.8, TDA RP-8: busts of one hand-for-hand hand at different tables tie."""
    shared = share_hand_for_hand_place(players_left_before=10, busted=[7, 3, 9])
    assert shared.place == 8
    assert shared.places == (8, 9, 10)
    assert shared.players == (7, 3, 9)
    with pytest.raises(ValueError, match="the busted players must be distinct and among"):
        share_hand_for_hand_place(players_left_before=2, busted=[1, 2, 3])


# --- properties ---


@st.composite
def event_states(draw, equal_seats=True):
    count = draw(st.integers(1, 7))
    seats = draw(st.integers(2, 10))
    tables = []
    for table in range(1, count + 1):
        n = seats if equal_seats else draw(st.integers(2, 10))
        occupied = draw(st.lists(st.integers(1, n), unique=True, max_size=n))
        button, big_blind = draw(st.integers(1, n)), draw(st.integers(1, n))
        # the last small blind, when the floor gave it: from the button up to the big blind
        arc = (big_blind - button) % n
        small_blind = None
        if arc and draw(st.booleans()):
            small_blind = (button + draw(st.integers(0, arc - 1)) - 1) % n + 1
        tables.append(
            make_table(
                table=table,
                seats=n,
                occupied=occupied,
                button=button,
                big_blind=big_blind,
                small_blind=small_blind,
            )
        )
    order = draw(st.permutations(range(1, count + 1)))
    return tables, list(order)


def waits_for_the_button(table, seat):
    """TDA 10B, worked out seat by seat: L, then back from L to the next button (exclusive)."""
    last = table.big_blind_seat
    waiting = {last}
    if table.button_seat == last:
        return seat in waiting
    # R2.7: the next button is the last small blind's seat when known, empty or not
    known = table.small_blind_seat not in (None, table.button_seat)
    stop = table.small_blind_seat if known else table.button_seat
    walk = (last - 2) % table.seats + 1
    while walk != stop and (known or walk not in table.players):
        waiting.add(walk)
        walk = (walk - 2) % table.seats + 1
    return seat in waiting


def check_plan_rules(tables, plan, *, gap=1, balanced=True):
    by_id = {t.table: t for t in tables}
    before = sorted(p for t in tables for p in t.players.values())
    seated = counts_after(tables, plan)  # asserts no double booking and right from-seats
    after = sorted(p for s in seated.values() for p in s.values())
    assert after == before  # nobody lost or duplicated
    assert len({m.player for m in plan.moves}) == len(plan.moves)
    for m in plan.moves:
        table = by_id[m.to_table]
        assert 1 <= m.to_seat <= table.seats
        if m.reason == "balance":
            # TDA 11A: next hand's small blind is the last big blind's seat (dead button rule)
            assert m.to_seat != table.big_blind_seat
        if m.reason != "final_table":
            # TDA 10B: a broken table's player may draw the SB seat, but then waits
            assert m.dealt_in != waits_for_the_button(table, m.to_seat)
        else:
            assert m.dealt_in
    if balanced and seated:
        counts = [len(s) for s in seated.values()]
        assert max(counts) - min(counts) <= gap


@settings(max_examples=300, deadline=None)
@given(state=event_states(), seed=st.integers(0, 2**32), gap=st.integers(1, 3))
def test_property_plan_never_breaks_the_rules(state, seed, gap):
    tables, order = state
    plan = plan_balance(
        tables=tables,
        break_order=order,
        settings=BalanceSettings(max_gap=gap),
        rng=random.Random(seed),
    )
    check_plan_rules(tables, plan, gap=gap)
    verify_plan(tables=tables, plan=plan, settings=BalanceSettings(max_gap=gap))


@settings(max_examples=200, deadline=None)
@given(state=event_states(equal_seats=False), seed=st.integers(0, 2**32))
def test_property_mixed_table_sizes_keep_seats_valid(state, seed):
    tables, order = state
    plan = plan_balance(tables=tables, break_order=order, rng=random.Random(seed))
    check_plan_rules(tables, plan, balanced=False)


@settings(max_examples=100, deadline=None)
@given(state=event_states(), seed=st.integers(0, 2**32))
def test_property_applied_plan_is_stable(state, seed):
    tables, order = state
    plan = plan_balance(tables=tables, break_order=order, rng=random.Random(seed))
    after = apply_plan(tables=tables, plan=plan)
    again = plan_balance(tables=after, break_order=order, rng=random.Random(seed))
    assert [m for m in again.moves if m.reason == "balance"] == []
    assert Counter(p for t in after for p in t.players.values()) == Counter(
        p for t in tables for p in t.players.values()
    )
