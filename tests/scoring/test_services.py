"""Busts of one hand (R5.6), quits (R5.9), agreed stops (R5.10), undo/redo and standings."""

from __future__ import annotations

import threading

import pytest
from django.db import close_old_connections

from scoring import services, undo_services
from scoring.models import Elimination, EliminationKind
from scoring.selectors import event_standings
from scoring.services import StackInput
from tables import services as table_services
from tables.engine import parse_card
from tables.models import FloorStep, StepStatus
from tests.floor_helpers import at_table, floor_state, seat_of, seated_event, snapshot
from tournaments.entry_services import (
    EntryStateError,
    EventFinishedError,
    FloorError,
    WrongEventError,
)
from tournaments.event_services import finish_event
from tournaments.models import AuditEvent, Entry, EntryStatus, EventStatus


def _place(entry):
    return Entry.objects.get(pk=entry.pk).place


@pytest.mark.django_db
def test_three_busts_in_one_hand_are_placed_by_their_starting_stacks():
    event, _ = seated_event(players=20, tables=2)
    small, big, middle = at_table(event, 1)[:3]
    step = services.record_busts(
        event_id=event.pk,
        actor=None,
        busts=[
            StackInput(entry_id=small.pk, stack=1_200),
            StackInput(entry_id=big.pk, stack=9_000),
            StackInput(entry_id=middle.pk, stack=4_500),
        ],
    )
    # R5.6: more chips at the start of the hand place higher
    assert (_place(big), _place(middle), _place(small)) == (18, 19, 20)
    assert {e.status for e in Entry.objects.filter(pk__in=[small.pk, big.pk, middle.pk])} == {
        EntryStatus.BUSTED
    }
    assert step.eliminations.count() == 3
    assert all(seat_of(e) is None for e in (small, big, middle))  # R5.6: seat open
    audit = AuditEvent.objects.get(event=event, action="busts.recorded")
    assert len(audit.data["places"]) == 3


@pytest.mark.django_db
def test_equal_stacks_are_decided_by_the_card_suit_included():
    event, _ = seated_event(players=10, tables=1)
    spades, hearts = at_table(event, 1)[:2]
    services.record_busts(
        event_id=event.pk,
        actor=None,
        busts=[
            StackInput(entry_id=hearts.pk, stack=3_000, card=parse_card("Ah")),
            StackInput(entry_id=spades.pk, stack=3_000, card=parse_card("As")),
        ],
    )
    assert (_place(spades), _place(hearts)) == (9, 10)  # R5.6, R1.6: spades beat hearts


@pytest.mark.django_db
def test_equal_stacks_without_cards_are_refused_and_change_nothing():
    event, _ = seated_event(players=10, tables=1)
    one, two = at_table(event, 1)[:2]
    before = snapshot(event)
    # R5.6: the floor gives the higher card in each one's hand; nothing is drawn for them
    with pytest.raises(services.TieNeedsCardError, match="higher card in each one's hand"):
        services.record_busts(
            event_id=event.pk,
            actor=None,
            busts=[StackInput(entry_id=one.pk, stack=800), StackInput(entry_id=two.pk, stack=800)],
        )
    assert snapshot(event) == before
    assert not Elimination.objects.filter(event=event).exists()


@pytest.mark.django_db
def test_two_busts_cannot_hold_the_same_card_and_nothing_changes():
    event, _ = seated_event(players=10, tables=1)
    one, two = at_table(event, 1)[:2]
    before = snapshot(event)
    with pytest.raises(services.TieNeedsCardError, match="same card"):
        services.record_busts(
            event_id=event.pk,
            actor=None,
            busts=[
                StackInput(entry_id=one.pk, stack=800, card=parse_card("Qh")),
                StackInput(entry_id=two.pk, stack=800, card=parse_card("Qh")),
            ],
        )
    assert snapshot(event) == before


@pytest.mark.django_db
def test_an_agreed_stop_tie_without_cards_drawn_is_refused_and_changes_nothing():
    event, _ = seated_event(players=3, tables=1)
    a, b, c = at_table(event, 1)
    before = snapshot(event)
    with pytest.raises(services.TieNeedsCardError, match="each draws a card"):
        services.record_agreed_stop(
            event_id=event.pk,
            actor=None,
            counts=[
                StackInput(entry_id=a.pk, stack=900),
                StackInput(entry_id=b.pk, stack=900),
                StackInput(entry_id=c.pk, stack=1_200),
            ],
        )
    assert snapshot(event) == before


@pytest.mark.django_db
def test_busting_an_entry_already_out_is_refused_and_changes_nothing():
    event, _ = seated_event(players=10, tables=1)
    gone = at_table(event, 1)[0]
    services.record_busts(
        event_id=event.pk, actor=None, busts=[StackInput(entry_id=gone.pk, stack=500)]
    )
    before = snapshot(event)
    with pytest.raises(EntryStateError, match="already out"):
        services.record_busts(
            event_id=event.pk, actor=None, busts=[StackInput(entry_id=gone.pk, stack=500)]
        )
    assert snapshot(event) == before


@pytest.mark.django_db
@pytest.mark.parametrize("stack", [0, -100, 2.5, True, "1000"])
def test_a_stack_that_is_not_a_positive_whole_number_is_refused(stack):
    event, _ = seated_event(players=10, tables=1)
    player = at_table(event, 1)[0]
    before = snapshot(event)
    with pytest.raises(services.BadStackError):
        services.record_busts(
            event_id=event.pk, actor=None, busts=[StackInput(entry_id=player.pk, stack=stack)]
        )
    assert snapshot(event) == before


@pytest.mark.django_db
def test_two_out_in_one_hand_need_their_stacks_one_alone_does_not():
    """R5.6: the stacks at the start of the hand order the players out in it; one needs none."""
    event, _ = seated_event(players=10, tables=1)
    one, two = at_table(event, 1)[:2]
    before = snapshot(event)
    with pytest.raises(services.BadStackError):
        services.record_busts(
            event_id=event.pk, actor=None,
            busts=[StackInput(entry_id=one.pk, stack=500), StackInput(entry_id=two.pk, stack=None)],
        )  # fmt: skip
    assert snapshot(event) == before
    services.record_busts(event_id=event.pk, actor=None, busts=[StackInput(one.pk, None)])
    assert Entry.objects.get(pk=one.pk).place == 10


@pytest.mark.django_db
def test_busting_another_events_entry_is_refused_and_changes_nothing():
    event, _ = seated_event(players=10, tables=1)
    other, _ = seated_event(players=10, tables=1)
    stranger = at_table(other, 1)[0]
    before, before_other = snapshot(event), snapshot(other)
    with pytest.raises(WrongEventError):
        services.record_busts(
            event_id=event.pk, actor=None, busts=[StackInput(entry_id=stranger.pk, stack=500)]
        )
    with pytest.raises(WrongEventError):
        services.record_quit(event_id=event.pk, entry_id=stranger.pk, actor=None)
    assert (snapshot(event), snapshot(other)) == (before, before_other)


@pytest.mark.django_db
def test_the_whole_table_cannot_bust_in_one_hand():
    event, _ = seated_event(players=3, tables=1)
    everyone = at_table(event, 1)
    before = snapshot(event)
    with pytest.raises(FloorError, match="at least one player"):
        services.record_busts(
            event_id=event.pk,
            actor=None,
            busts=[StackInput(entry_id=e.pk, stack=100 * (i + 1)) for i, e in enumerate(everyone)],
        )
    assert snapshot(event) == before


@pytest.mark.django_db
def test_the_same_form_sent_twice_records_once():
    event, _ = seated_event(players=10, tables=1)
    player = at_table(event, 1)[0]
    bust = [StackInput(entry_id=player.pk, stack=700)]
    first = services.record_busts(event_id=event.pk, actor=None, busts=bust, key="form-1")
    again = services.record_busts(event_id=event.pk, actor=None, busts=bust, key="form-1")
    assert first.pk == again.pk
    assert Elimination.objects.filter(entry=player).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("same_key", [True, False])
def test_two_floor_staff_recording_the_same_bust_at_once_record_it_once(same_key):
    event, _ = seated_event(players=10, tables=1)
    player = at_table(event, 1)[0]
    barrier = threading.Barrier(2)
    results: list[object] = []

    def record(number):
        try:
            barrier.wait()
            key = "same" if same_key else f"staff-{number}"
            services.record_busts(
                event_id=event.pk,
                actor=None,
                busts=[StackInput(entry_id=player.pk, stack=1_500)],
                key=key,
            )
            results.append("ok")
        except FloorError as error:
            results.append(error)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=record, args=(n,)) for n in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Elimination.objects.filter(entry=player, undone=False).count() == 1
    assert FloorStep.objects.filter(event=event, kind="busts").count() == 1
    assert Entry.objects.get(pk=player.pk).place == 10
    if same_key:
        assert results == ["ok", "ok"]
    else:
        assert results.count("ok") == 1
        assert any(isinstance(r, EntryStateError) for r in results)


@pytest.mark.django_db
def test_undo_and_redo_of_a_hand_restore_exactly():
    event, _ = seated_event(players=20, tables=2)
    busted = at_table(event, 2)[:3]
    before = floor_state(event)
    plan_before = table_services.pending_plan(event)
    services.record_busts(
        event_id=event.pk,
        actor=None,
        busts=[StackInput(entry_id=e.pk, stack=1_000 + i) for i, e in enumerate(busted)],
    )
    after = floor_state(event)
    assert table_services.pending_plan(event) is not None
    step = undo_services.undo_last(event_id=event.pk, actor=None)
    assert floor_state(event) == before
    assert step.status == StepStatus.UNDONE
    assert not Elimination.objects.active().filter(event=event).exists()
    assert (table_services.pending_plan(event) is None) == (plan_before is None)
    undo_services.redo_next(event_id=event.pk, actor=None)
    redone = floor_state(event)
    # busted_at is the time of the bust itself, also after a redo
    assert redone == after
    assert Elimination.objects.active().filter(event=event).count() == 3
    with pytest.raises(undo_services.NothingToUndoError):
        undo_services.redo_next(event_id=event.pk, actor=None)
    actions = list(AuditEvent.objects.filter(event=event).values_list("action", flat=True))
    assert actions.count("floor.undo") == 1 and actions.count("floor.redo") == 1


@pytest.mark.django_db
def test_a_new_bust_discards_the_redo_stack():
    event, _ = seated_event(players=10, tables=1)
    first, second = at_table(event, 1)[:2]
    services.record_busts(
        event_id=event.pk, actor=None, busts=[StackInput(entry_id=first.pk, stack=100)]
    )
    undo_services.undo_last(event_id=event.pk, actor=None)
    services.record_busts(
        event_id=event.pk, actor=None, busts=[StackInput(entry_id=second.pk, stack=100)]
    )
    with pytest.raises(undo_services.NothingToUndoError):
        undo_services.redo_next(event_id=event.pk, actor=None)
    assert _place(second) == 10 and _place(first) is None


@pytest.mark.django_db
def test_nothing_to_undo():
    event, _ = seated_event(players=4, tables=1)
    with pytest.raises(undo_services.NothingToUndoError):
        undo_services.undo_last(event_id=event.pk, actor=None)


@pytest.mark.django_db
def test_a_quitter_places_where_he_left_and_his_chips_leave_play():
    event, _ = seated_event(players=10, tables=1, starting_stack=3_000)
    quitter = at_table(event, 1)[4]
    services.record_quit(event_id=event.pk, entry_id=quitter.pk, actor=None, stack=2_500)
    entry = Entry.objects.get(pk=quitter.pk)
    assert (entry.status, entry.place) == (EntryStatus.QUIT, 10)  # R5.9
    standings = event_standings(event)
    assert standings.total_chips == 30_000
    assert standings.chips_in_play == 27_500  # R5.9: his chips leave play
    assert standings.players_left == 9
    assert standings.average_stack == round(27_500 / 9)


@pytest.mark.django_db
def test_the_last_player_left_wins():
    event, _ = seated_event(players=3, tables=1)
    one, two, three = at_table(event, 1)
    services.record_busts(
        event_id=event.pk,
        actor=None,
        busts=[StackInput(entry_id=one.pk, stack=100), StackInput(entry_id=two.pk, stack=200)],
    )
    winner = Entry.objects.get(pk=three.pk)
    assert (winner.status, winner.place) == (EntryStatus.FINISHED, 1)
    assert [line.place for line in event_standings(event).places] == [1, 2, 3]
    undo_services.undo_last(event_id=event.pk, actor=None)
    assert Entry.objects.filter(event=event, status=EntryStatus.PLAYING).count() == 3


@pytest.mark.django_db
def test_an_agreed_stop_places_by_chip_count_and_ties_by_card():
    event, _ = seated_event(players=4, tables=1)
    a, b, c, d = at_table(event, 1)
    services.record_agreed_stop(
        event_id=event.pk,
        actor=None,
        counts=[
            StackInput(entry_id=a.pk, stack=5_000),
            StackInput(entry_id=b.pk, stack=2_000, card=parse_card("Kc")),
            StackInput(entry_id=c.pk, stack=2_000, card=parse_card("Kd")),
            StackInput(entry_id=d.pk, stack=3_000),
        ],
    )
    # R5.10: chip counts decide, equal counts by the card (rank, then suit: diamonds beat clubs)
    assert [_place(x) for x in (a, d, c, b)] == [1, 2, 3, 4]
    assert set(Entry.objects.filter(event=event).values_list("status", flat=True)) == {
        EntryStatus.FINISHED
    }
    assert Elimination.objects.filter(event=event, kind=EliminationKind.STOP).count() == 4


@pytest.mark.django_db
def test_an_agreed_stop_needs_everyone_still_in():
    event, _ = seated_event(players=4, tables=1)
    a, b, _c, _d = at_table(event, 1)
    before = snapshot(event)
    with pytest.raises(FloorError, match="every player"):
        services.record_agreed_stop(
            event_id=event.pk,
            actor=None,
            counts=[StackInput(entry_id=a.pk, stack=5_000), StackInput(entry_id=b.pk, stack=100)],
        )
    assert snapshot(event) == before


@pytest.mark.django_db
def test_standings_count_players_left_and_the_average_stack():
    event, _ = seated_event(players=20, tables=2, starting_stack=10_000)
    busted = at_table(event, 1)[:2]
    services.record_busts(
        event_id=event.pk,
        actor=None,
        busts=[StackInput(entry_id=e.pk, stack=1_000 * (i + 1)) for i, e in enumerate(busted)],
    )
    standings = event_standings(event)
    assert (standings.players_left, standings.field) == (18, 20)
    assert standings.total_chips == standings.chips_in_play == 200_000
    assert standings.average_stack == round(200_000 / 18)
    assert [line.place for line in standings.places] == [19, 20]


@pytest.mark.django_db
def test_a_double_click_on_undo_or_redo_moves_one_step():
    event, _ = seated_event(players=10, tables=1)
    first, second = at_table(event, 1)[:2]
    one = services.record_busts(
        event_id=event.pk, actor=None, busts=[StackInput(entry_id=first.pk, stack=100)]
    )
    two = services.record_busts(
        event_id=event.pk, actor=None, busts=[StackInput(entry_id=second.pk, stack=100)]
    )
    for _click in range(2):  # the page offered step two both times
        assert undo_services.undo_last(event_id=event.pk, actor=None, step_id=two.pk).pk == two.pk
    assert (_place(first), _place(second)) == (10, None)
    assert FloorStep.objects.get(pk=one.pk).status == StepStatus.DONE
    for _click in range(2):
        assert undo_services.redo_next(event_id=event.pk, actor=None, step_id=two.pk).pk == two.pk
    assert (_place(first), _place(second)) == (10, 9)
    actions = list(AuditEvent.objects.filter(event=event).values_list("action", flat=True))
    assert actions.count("floor.undo") == 1 and actions.count("floor.redo") == 1
    undo_services.undo_last(event_id=event.pk, actor=None, step_id=two.pk)
    undo_services.undo_last(event_id=event.pk, actor=None, step_id=one.pk)
    before = snapshot(event)
    with pytest.raises(undo_services.StaleUndoError):  # a page drawn before both undos
        undo_services.redo_next(event_id=event.pk, actor=None, step_id=two.pk)
    assert snapshot(event) == before


@pytest.mark.django_db
def test_a_finished_event_refuses_undo_and_new_busts_and_changes_nothing():
    event, _ = seated_event(players=10, tables=1)
    first, second = at_table(event, 1)[:2]
    services.record_busts(
        event_id=event.pk, actor=None, busts=[StackInput(entry_id=first.pk, stack=900)]
    )
    event.status = EventStatus.RUNNING
    event.save(update_fields=["status"])
    finish_event(actor=None, event_id=event.pk, confirm_players_in=True)
    before = snapshot(event)
    with pytest.raises(EventFinishedError, match="has finished"):
        undo_services.undo_last(event_id=event.pk, actor=None)
    with pytest.raises(EventFinishedError):
        services.record_busts(
            event_id=event.pk, actor=None, busts=[StackInput(entry_id=second.pk, stack=900)]
        )
    assert snapshot(event) == before
