"""Seat draws, late seats, moves and the balancing plan through the services, on the database."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import close_old_connections
from django.urls import reverse

from scoring import services as scoring_services
from scoring import undo_services
from scoring.services import StackInput
from tables import positions, services
from tables.engine import card_name
from tables.models import FloorStep, Seat, StepStatus, Table
from tables.selectors import seat_card
from tests import factories
from tests.floor_helpers import at_table, floor_state, seat_of, seated_event, snapshot
from tournaments.entry_services import (
    EntryStateError,
    FloorError,
    WrongEventError,
    check_in_entry,
    register_entry,
)
from tournaments.models import AuditEvent, Entry, EntryStatus, EventKind

pytestmark = pytest.mark.django_db


def test_random_draw_spreads_twenty_players_over_two_tables(floor_user):
    event, entries = seated_event(players=20, tables=2)
    assert [len(at_table(event, n)) for n in (1, 2)] == [10, 10]
    assert all(e.status == EntryStatus.PLAYING for e in entries)
    assert len({seat_of(e) for e in entries}) == 20
    assert all(t.button_seat for t in Table.objects.filter(event=event))
    assert AuditEvent.objects.filter(event=event, action="seats.drawn").count() == 1


def test_uneven_draw_keeps_tables_within_one_player():
    event, _ = seated_event(players=17, tables=2)
    assert sorted(len(at_table(event, n)) for n in (1, 2)) == [8, 9]
    assert services.pending_plan(event) is None


def test_card_draw_seats_descending_cards_and_gives_the_highest_card_the_button():
    event = factories.make_event()
    factories.make_entries(event=event, count=6)
    services.draw_seats(event_id=event.pk, actor=None, tables=1, by_card=True, rng=random.Random(3))
    seats = list(Seat.objects.filter(table__event=event).order_by("number"))
    assert [s.number for s in seats] == [1, 2, 3, 4, 5, 6]
    # R2.3: seats go in descending card order counter-clockwise, so seat number grows with the card
    cards = [s.drawn_card for s in seats]
    assert cards == sorted(cards), [card_name(c) for c in cards]
    assert Table.objects.get(event=event).button_seat == 6


def test_card_draw_for_two_tables_is_refused_and_changes_nothing():
    event = factories.make_event()
    factories.make_entries(event=event, count=12)
    before = snapshot(event)
    with pytest.raises(FloorError, match="one table"):
        services.draw_seats(event_id=event.pk, actor=None, tables=2, by_card=True)
    assert snapshot(event) == before


def test_too_many_players_for_the_tables_is_refused():
    event = factories.make_event()
    factories.make_entries(event=event, count=21)
    before = snapshot(event)
    with pytest.raises(FloorError, match="do not fit"):
        services.draw_seats(event_id=event.pk, actor=None, tables=2)
    assert snapshot(event) == before


def test_drawing_twice_is_refused():
    event, _ = seated_event(players=10, tables=1)
    before = snapshot(event)
    with pytest.raises(FloorError, match="already drawn"):
        services.draw_seats(event_id=event.pk, actor=None, tables=1)
    assert snapshot(event) == before


def test_seating_a_player_twice_is_refused_and_changes_nothing():
    event, entries = seated_event(players=10, tables=2)
    before = snapshot(event)
    with pytest.raises(services.SeatingError, match="already has a seat"):
        services.seat_entry(event_id=event.pk, entry_id=entries[0].pk, actor=None)
    assert snapshot(event) == before


def test_late_player_gets_a_seat_at_the_shortest_table():
    event, _ = seated_event(players=9, tables=2)
    late = register_entry(event_id=event.pk, actor=None, name="Late Larry", check_in=True)
    seat = services.seat_entry(
        event_id=event.pk, entry_id=late.pk, actor=None, rng=random.Random(1)
    )
    assert sorted(len(at_table(event, n)) for n in (1, 2)) == [5, 5]
    assert Entry.objects.get(pk=late.pk).status == EntryStatus.PLAYING
    assert seat.table.number in (1, 2)


def test_late_player_in_an_occupied_seat_is_refused():
    event, entries = seated_event(players=9, tables=2)
    late = register_entry(event_id=event.pk, actor=None, name="Late Larry", check_in=True)
    table, number = seat_of(entries[0])
    before = snapshot(event)
    with pytest.raises(services.SeatingError, match="taken"):
        services.seat_entry(
            event_id=event.pk, entry_id=late.pk, actor=None, table_number=table,
            seat_number=number,
        )  # fmt: skip
    assert snapshot(event) == before


def test_moving_to_an_occupied_seat_is_refused_and_changes_nothing():
    event, entries = seated_event(players=12, tables=2)
    table, number = seat_of(entries[1])
    before = snapshot(event)
    with pytest.raises(services.SeatingError, match="taken"):
        services.move_entry(
            event_id=event.pk, entry_id=entries[0].pk, actor=None, table_number=table,
            seat_number=number,
        )  # fmt: skip
    assert snapshot(event) == before


def test_moving_to_a_broken_table_is_refused_and_changes_nothing():
    event, entries = seated_event(players=12, tables=2)
    Table.objects.filter(event=event, number=2).update(is_broken=True)
    before = snapshot(event)
    with pytest.raises(services.SeatingError, match="broken"):
        services.move_entry(
            event_id=event.pk, entry_id=entries[0].pk, actor=None, table_number=2, seat_number=10
        )
    assert snapshot(event) == before


def test_moving_to_a_seat_the_table_does_not_have_is_refused():
    event, entries = seated_event(players=12, tables=2)
    Table.objects.filter(event=event, number=2).update(seats=9)
    before = snapshot(event)
    with pytest.raises(services.SeatingError, match="no seat 10"):
        services.move_entry(
            event_id=event.pk, entry_id=entries[0].pk, actor=None, table_number=2, seat_number=10
        )
    assert snapshot(event) == before


def test_acting_on_another_events_entry_is_refused_and_changes_nothing():
    event, _ = seated_event(players=10, tables=1)
    _, others = seated_event(players=10, tables=1)
    before = snapshot(event)
    with pytest.raises(WrongEventError):
        services.move_entry(
            event_id=event.pk, entry_id=others[0].pk, actor=None, table_number=1, seat_number=1
        )
    with pytest.raises(WrongEventError):
        services.seat_entry(event_id=event.pk, entry_id=others[0].pk, actor=None)
    with pytest.raises(WrongEventError):
        check_in_entry(event_id=event.pk, entry_id=others[0].pk, actor=None)
    assert snapshot(event) == before


def test_registering_a_player_twice_is_refused():
    event = factories.make_event()
    register_entry(event_id=event.pk, actor=None, name="Anna")
    before = snapshot(event)
    with pytest.raises(EntryStateError, match="already registered"):
        register_entry(event_id=event.pk, actor=None, name="  anna ")
    assert snapshot(event) == before


def test_super_final_entry_starts_with_3000_more_per_satellite_won():
    event = factories.make_event()
    event.kind = EventKind.FINAL
    event.save()
    entry = register_entry(event_id=event.pk, actor=None, name="Sat Sam", satellites_won=2)
    assert entry.starting_stack == event.starting_stack + 6_000  # R5.5


def _bust_three_at(event, table):
    players = at_table(event, table)[:3]
    scoring_services.record_busts(
        event_id=event.pk,
        actor=None,
        busts=[StackInput(entry_id=e.pk, stack=1_000 * (i + 1)) for i, e in enumerate(players)],
    )
    return players


def test_busts_leave_a_plan_that_the_floor_confirms_and_the_moved_player_sees():
    event, _ = seated_event(players=20, tables=2)
    _bust_three_at(event, 1)
    plan = services.pending_plan(event)
    assert plan is not None
    assert plan.data["halt_tables"] == [1]  # TDA 11D: 7 against 10 halts table 1
    (move,) = plan.moves.all()
    assert (move.from_table.number, move.to_table.number) == (2, 1)
    mover = move.entry
    services.confirm_plan(event_id=event.pk, step_id=plan.pk, actor=None)
    assert seat_of(mover) == (1, move.to_seat)
    assert sorted(len(at_table(event, n)) for n in (1, 2)) == [8, 9]
    assert services.pending_plan(event) is None
    card = seat_card(Entry.objects.get(pk=mover.pk))
    assert (card.table, card.seat, card.moved) == (1, move.to_seat, True)
    assert AuditEvent.objects.filter(event=event, action="plan.confirmed").count() == 1


def test_confirming_twice_moves_once():
    event, _ = seated_event(players=20, tables=2)
    _bust_three_at(event, 1)
    plan = services.pending_plan(event)
    services.confirm_plan(event_id=event.pk, step_id=plan.pk, actor=None)
    after = snapshot(event)
    services.confirm_plan(event_id=event.pk, step_id=plan.pk, actor=None)
    assert snapshot(event) == after


def test_confirming_a_replaced_plan_is_refused():
    event, _ = seated_event(players=20, tables=2)
    _bust_three_at(event, 1)
    old = services.pending_plan(event)
    victim = at_table(event, 1)[0]
    scoring_services.record_busts(
        event_id=event.pk, actor=None, busts=[StackInput(entry_id=victim.pk, stack=500)]
    )
    before = snapshot(event)
    with pytest.raises(services.StalePlanError):
        services.confirm_plan(event_id=event.pk, step_id=old.pk, actor=None)
    assert snapshot(event) == before


def test_table_breaks_when_the_others_can_seat_its_players():
    event, _ = seated_event(players=25, tables=3)
    table_three = at_table(event, 3)
    out = table_three[:-3]  # three players stay at table 3
    scoring_services.record_busts(
        event_id=event.pk,
        actor=None,
        busts=[StackInput(entry_id=e.pk, stack=100 + i) for i, e in enumerate(out)],
    )
    plan = services.pending_plan(event)
    # Table 3 breaks first (unlisted tables: highest number first) and its three fit elsewhere.
    assert plan.data["broken_tables"] == [3]
    assert {m.reason for m in plan.moves.all()} == {"table_break"}
    services.confirm_plan(event_id=event.pk, step_id=plan.pk, actor=None)
    counts = [len(at_table(event, n)) for n in (1, 2, 3)]
    assert counts[2] == 0 and sum(counts) == 25 - len(out) and abs(counts[0] - counts[1]) <= 1
    assert Table.objects.get(event=event, number=3).is_broken


def test_final_table_draw_seats_everyone_at_one_table():
    event, _ = seated_event(players=11, tables=2)
    victim = at_table(event, 1)[0]
    scoring_services.record_busts(
        event_id=event.pk, actor=None, busts=[StackInput(entry_id=victim.pk, stack=100)]
    )
    plan = services.pending_plan(event)
    final = plan.data["final_table"]
    services.confirm_plan(event_id=event.pk, step_id=plan.pk, actor=None)
    assert len(at_table(event, final)) == 10
    assert (
        Table.objects.get(event=event, number=final).button_seat == plan.data["final_button_seat"]
    )


def test_undo_and_redo_of_a_confirmed_plan_restore_the_seats_exactly():
    event, _ = seated_event(players=20, tables=2)
    _bust_three_at(event, 1)
    before = floor_state(event)
    plan = services.pending_plan(event)
    services.confirm_plan(event_id=event.pk, step_id=plan.pk, actor=None)
    after = floor_state(event)
    undo_services.undo_last(event_id=event.pk, actor=None)
    assert floor_state(event) == before
    assert FloorStep.objects.get(pk=plan.pk).status == StepStatus.UNDONE
    undo_services.redo_next(event_id=event.pk, actor=None)
    assert floor_state(event) == after
    actions = list(AuditEvent.objects.filter(event=event).values_list("action", flat=True))
    assert "floor.undo" in actions and "floor.redo" in actions


def test_undo_of_a_final_table_unbreaks_the_table():
    event, _ = seated_event(players=11, tables=2)
    victim = at_table(event, 1)[0]
    scoring_services.record_busts(
        event_id=event.pk, actor=None, busts=[StackInput(entry_id=victim.pk, stack=100)]
    )
    before = floor_state(event)
    plan = services.pending_plan(event)
    services.confirm_plan(event_id=event.pk, step_id=plan.pk, actor=None)
    assert Table.objects.filter(event=event, is_broken=True).count() == 1
    undo_services.undo_last(event_id=event.pk, actor=None)
    assert floor_state(event) == before


def test_a_manual_move_is_undoable():
    event, entries = seated_event(players=12, tables=2)
    taken = {seat_of(e)[1] for e in at_table(event, 2)}
    free = next(n for n in range(1, 11) if n not in taken)
    mover = at_table(event, 1)[0]
    before = floor_state(event)
    services.move_entry(
        event_id=event.pk, entry_id=mover.pk, actor=None, table_number=2, seat_number=free
    )
    assert seat_of(mover) == (2, free)
    undo_services.undo_last(event_id=event.pk, actor=None)
    assert floor_state(event) == before


def test_a_break_fills_a_seat_between_small_blind_and_button_and_he_waits(client):
    event, _ = seated_event(players=25, tables=3)  # 9, 8 and 8 players
    taken = {seat_of(e)[1] for e in at_table(event, 1)}
    (empty,) = [n for n in range(1, 11) if n not in taken]
    # Button two seats before the empty one: seats button, small blind, empty, big blind (R2.7).
    button = (empty - 3) % 10 + 1
    services.set_button(event_id=event.pk, table_number=1, button_seat=button, actor=None)
    out = at_table(event, 3)[:5]
    scoring_services.record_busts(
        event_id=event.pk,
        actor=None,
        busts=[StackInput(entry_id=e.pk, stack=100 + i) for i, e in enumerate(out)],
    )
    plan = services.pending_plan(event)
    # TDA 10B: table 3's three players fill the three empty seats at once, no hand waited.
    assert plan.data["broken_tables"] == [3]
    into_gap = plan.moves.get(to_table__number=1, to_seat=empty)
    assert not into_gap.dealt_in
    assert plan.moves.count() == 3 and plan.moves.filter(to_table__number=1).count() == 1
    services.confirm_plan(event_id=event.pk, step_id=plan.pk, actor=None)
    card = seat_card(Entry.objects.get(pk=into_gap.entry_id))
    assert (card.table, card.seat, card.moved, card.dealt_in) == (1, empty, True, False)
    page = client.get(reverse("tables:my_seat", args=[event.code, into_gap.entry_id]))
    assert f"Go to table 1, seat {empty} — you are dealt in after the button passes" in (
        page.content.decode()
    )
    audit = AuditEvent.objects.get(event=event, action="plan.confirmed")
    assert [into_gap.entry_id, False] in [[m[0], m[5]] for m in audit.data["moves"]]


@pytest.mark.django_db(transaction=True)
def test_two_floor_staff_confirming_the_plan_at_once_move_once():
    event, _ = seated_event(players=20, tables=2)
    _bust_three_at(event, 1)
    plan = services.pending_plan(event)
    (move,) = plan.moves.all()
    barrier = threading.Barrier(2)
    errors: list[Exception] = []

    def confirm():
        try:
            barrier.wait()
            services.confirm_plan(event_id=event.pk, step_id=plan.pk, actor=None)
        except Exception as error:  # noqa: BLE001 - the test reports any failure
            errors.append(error)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=confirm) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert seat_of(move.entry) == (1, move.to_seat)
    assert AuditEvent.objects.filter(event=event, action="plan.confirmed").count() == 1
    assert FloorStep.objects.get(pk=plan.pk).status == StepStatus.DONE


def test_setting_the_same_button_twice_records_once():
    event, _ = seated_event(players=20, tables=2)
    plan_before = services.pending_plan(event)
    for _click in range(2):
        services.set_button(event_id=event.pk, table_number=1, button_seat=4, actor=None)
    assert Table.objects.get(event=event, number=1).button_seat == 4
    assert AuditEvent.objects.filter(event=event, action="table.button").count() == 1
    assert (services.pending_plan(event) is None) == (plan_before is None)


def _seats(event, number):
    return dict(
        Seat.objects.filter(table__event=event, table__number=number).values_list(
            "number", "entry_id"
        )
    )


def test_the_opening_draw_stores_each_tables_small_blind_seat():
    event, _ = seated_event(players=15, tables=2)
    for table in Table.objects.filter(event=event):
        after = sorted(
            _seats(event, table.number), key=lambda s: (s - table.button_seat) % table.seats
        )
        after = [s for s in after if s != table.button_seat]
        assert table.small_blind_seat == after[0]  # R2.1: left of the button


def test_r2_7_the_stored_small_blind_seat_deals_a_newcomer_in_on_the_dead_button():
    """Issue #7 (TDA 10B): the small blind busts; his empty seat is the next button."""
    event, _ = seated_event(players=18, tables=2)
    occupied = sorted(_seats(event, 1))
    button = occupied[0]
    services.set_button(event_id=event.pk, table_number=1, button_seat=button, actor=None)
    table = Table.objects.get(event=event, number=1)
    small_blind = occupied[1]
    assert table.small_blind_seat == small_blind  # derived: the player after the button
    sb_entry = Entry.objects.get(pk=_seats(event, 1)[small_blind])
    scoring_services.record_busts(
        event_id=event.pk, actor=None, busts=[StackInput(entry_id=sb_entry.pk, stack=500)]
    )
    (state,) = [t for t in services.table_states(event) if t.table == 1]
    assert state.small_blind_seat == small_blind and small_blind not in state.players
    assert positions.dealt_in(table=state, seat=small_blind)  # on the dead button: dealt in
    assert positions.next_hand(state).button_seat == small_blind


def test_the_floor_gives_the_small_blind_seat_with_the_button_audited_once():
    event, _ = seated_event(players=16, tables=2)
    occupied = sorted(_seats(event, 1))
    empty = next(n for n in range(1, 11) if n not in occupied)
    for _click in range(2):
        services.set_button(
            event_id=event.pk, table_number=1, button_seat=occupied[0], small_blind_seat=empty,
            actor=None,
        )  # fmt: skip
    table = Table.objects.get(event=event, number=1)
    assert (table.button_seat, table.small_blind_seat) == (occupied[0], empty)  # a dead SB
    audits = AuditEvent.objects.filter(event=event, action="table.button")
    assert [a.data["small_blind"] for a in audits] == [empty]


@pytest.mark.parametrize("small_blind", ["button", 11])
def test_a_small_blind_seat_that_cannot_be_is_refused_and_changes_nothing(small_blind):
    event, _ = seated_event(players=16, tables=2)
    button = sorted(_seats(event, 1))[0]
    seat = button if small_blind == "button" else small_blind
    before = (snapshot(event), list(Table.objects.filter(event=event).values()))
    with pytest.raises(FloorError, match="R2.8|no seat"):
        services.set_button(
            event_id=event.pk, table_number=1, button_seat=button, small_blind_seat=seat,
            actor=None,
        )  # fmt: skip
    assert (snapshot(event), list(Table.objects.filter(event=event).values())) == before
