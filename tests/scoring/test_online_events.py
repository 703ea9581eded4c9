"""Online events (docs/online.md, "Online tournaments"): a sit&go of house bots from the
registration to one winner on the tables' sweeper and the events' director, with every rule
the floor keeps checked on the way: R5.6 places, chips conserved, balancing, the final table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring import online_events, services
from scoring.models import Elimination
from scoring.season_selectors import event_results, season_table
from tables.models import FloorStep, Move, StepKind, StepStatus
from tables.online import play as online_play
from tables.online.models import OnlineSeat, OnlineTable, TableHand, TableStatus
from tables.online.tournament import TABLE_GAMES, coloured_stack, event_chips
from tests.factories import make_user
from tests.scoring.online_event_helpers import (
    TickShadow,
    online_event,
    quick_structure,
    register_bots,
    run_event,
    started_event,
)
from tests.scoring.season_helpers import finished_event, make_season
from tournaments.models import Entry, EntryStatus, EventStatus

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quick_tables(settings):
    settings.FLOORMAN_TABLE_PACE = 0.05
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_a_sit_and_go_starts_when_its_players_have_registered():
    floor = make_user(username="flo", role="floor")
    event = online_event(start_players=6, table_size=6)
    register_bots(event, 5, floor)
    online_events.tick(event_id=event.pk)
    event.refresh_from_db()
    assert event.status == EventStatus.SCHEDULED and not OnlineTable.objects.exists()
    register_bots(event, 1, floor)
    online_events.tick(event_id=event.pk)
    event.refresh_from_db()
    assert event.status == EventStatus.RUNNING and event.clock_level_started_at is not None
    table = OnlineTable.objects.get(floor_table__event=event)
    assert table.players.count() == 6 and table.game == "nl_holdem"
    assert set(table.players.values_list("stack", flat=True)) == {3_000}


def test_a_full_sit_and_go_places_everyone_once_and_conserves_every_chip(monkeypatch):
    floor = make_user(username="flo", role="floor")
    shadow = TickShadow(monkeypatch)  # what a tick skips, the full tick finds nothing to do in
    season = make_season(formula="linear")
    season.include_bots = True  # a sit&go of house bots only: its places count in this season
    season.save()
    live = finished_event(season=season, names=["Anna", "Ben", "Carl"], name="Live night")
    event = online_event(start_players=18, table_size=6, season=season)
    register_bots(event, 18, floor)
    now = timezone.now()
    seen_tables: set[int] = set()

    def check(at):
        seated, brought = event_chips(event)
        assert seated == brought  # every chip of the event, every step
        seen_tables.update(
            OnlineTable.objects.filter(
                floor_table__event=event, status=TableStatus.OPEN
            ).values_list("pk", flat=True)
        )
        held = OnlineTable.objects.filter(floor_table__event=event, hold=True)
        if held.exists():
            # TDA 11D: a table holds only while a plan waits for another table's hand, and
            # deals nothing meanwhile (whether a hold happens at all is up to the cards: see
            # test_a_table_the_final_tables_plan_waits_for_holds_and_deals_nothing).
            assert FloorStep.objects.filter(event=event, status=StepStatus.PENDING).exists()
            assert not TableHand.objects.filter(table__in=held, is_over=False).exists()

    run_event(event, now=now, each_step=check)
    assert shadow.idle > 0 and shadow.busy > 0 and shadow.skipped > 0
    assert not OnlineTable.objects.filter(floor_table__event=event, hold=True).exists()
    entries = list(Entry.objects.filter(event=event))
    assert sorted(e.place for e in entries) == list(range(1, 19))
    winner = next(e for e in entries if e.place == 1)
    assert winner.status == EntryStatus.FINISHED
    assert OnlineSeat.objects.get(entry=winner).stack == sum(e.starting_stack for e in entries) + (
        sum(c.after - c.before for c in winner.event.chip_changes.all())
    )
    assert len(seen_tables) == 3
    # Tables broke (R5.7) and a final table was drawn (TDA RP-9) by the floor's own plans.
    moves = Move.objects.filter(step__event=event, step__kind=StepKind.PLAN)
    assert moves.filter(reason="table_break").exists() or moves.filter(reason="balance").exists()
    assert moves.filter(reason="final_table").exists()
    # R5.6: busts of one hand placed by the stacks they started it with.
    for step in FloorStep.objects.filter(event=event, kind=StepKind.BUSTS):
        busts = list(Elimination.objects.filter(step=step, kind="bust").order_by("place"))
        stacks = [b.stack for b in busts]
        assert stacks == sorted(stacks, reverse=True)
    # R6: the season mixes the live night and the online sit&go under the active formula.
    table = season_table(season)
    assert {e.pk for e in table.events} == {live.pk, event.pk}
    lines = {line.player_id: line for line in event_results(event)}
    standing = {s.player_id: s for s in table.standings}
    assert standing[winner.player_id].points == lines[winner.player_id].points > 0
    assert standing[winner.player_id].wins == 1 and len(standing) == 21
    # Every hand used the level in force when it was dealt (R2.11).
    for hand in TableHand.objects.filter(table__floor_table__event=event):
        level = event.levels_list()[hand.level_index]
        assert hand.rules["big_blind"] == level.big_blind


@pytest.mark.parametrize(
    ("stack", "chip", "coloured"),
    [(3_025, 100, 3_000), (3_075, 100, 3_100), (3_000, 100, 3_000), (3_049, 100, 3_000),
     (3_050, 100, 3_100), (25, 100, 100), (49, 100, 100), (0, 100, 0), (1_234, 1, 1_234)],
)  # fmt: skip
def test_the_online_colour_up_rounds_half_up_and_races_nobody_out(stack, chip, coloured):
    # R5.11: half a new chip or more rounds up, less is lost; TDA 24: nobody is raced out.
    assert coloured_stack(stack, chip) == coloured


def test_unregistering_before_the_start_frees_the_place_and_after_it_is_refused():
    floor = make_user(username="flo", role="floor")
    anna = make_user(username="anna")
    event = online_event(start_players=3, table_size=6)
    online_events.register(event_id=event.pk, user=anna)
    online_events.unregister(event_id=event.pk, user=anna)
    assert not Entry.objects.filter(event=event).exists()
    online_events.register(event_id=event.pk, user=anna)
    register_bots(event, 2, floor)
    online_events.tick(event_id=event.pk, now=timezone.now() + timedelta(seconds=1))
    with pytest.raises(online_events.OnlineEventError):
        online_events.unregister(event_id=event.pk, user=anna)
    with pytest.raises(online_events.OnlineEventError):
        online_events.register(event_id=event.pk, user=make_user(username="late"))


def test_a_satellite_plays_its_bubble_hand_for_hand_at_every_table(monkeypatch):
    # R5.5: 12 entrants, 2 qualify, so the bubble is 3 left; TDA RP-8: each table then deals one
    # hand and waits until every table has finished it. The bots' hands are dealt from a real
    # shuffle: a hand that takes the field from 4 to 2 never reaches the bubble, so a new
    # satellite is played until one does (one in most runs).
    floor = make_user(username="flo", role="floor")
    TickShadow(monkeypatch)  # the bubble's waits too: what a tick skips has nothing to do
    for attempt in range(5):
        event = online_event(
            name=f"Online satellite {attempt}", start_players=12, table_size=6, kind="satellite"
        )
        register_bots(event, 12, floor)
        left: list[int] = []

        def count(_now, event=event, left=left):
            left.append(Entry.objects.filter(event=event, place__isnull=True).count())

        run_event(event, now=timezone.now(), each_step=count)
        places = list(Entry.objects.filter(event=event).values_list("place", flat=True))
        # Everyone placed; busts of one hand-for-hand hand at two tables may share a place.
        assert None not in places and places.count(1) == 1 and max(places) <= 12
        hands = TableHand.objects.filter(table__floor_table__event=event)
        numbers = set(
            hands.filter(hand_for_hand__isnull=False).values_list("hand_for_hand", flat=True)
        )
        if 3 not in left and not numbers:
            continue  # 4 to 2 in one hand (or two hands recorded in one tick): no bubble
        assert numbers, "the bubble was reached and not played hand-for-hand"
        for number in numbers:
            per_table = list(hands.filter(hand_for_hand=number).values_list("table_id", flat=True))
            assert len(per_table) == len(set(per_table))  # one hand a table per hand-for-hand hand
        return
    raise AssertionError("five satellites in a row jumped over the bubble")


def test_the_floor_removes_a_player_who_places_where_he_left_and_whose_chips_leave_play():
    # R5.9: out where he left, his chips leave play; R2.9: his hand in play folds.
    floor = make_user(username="flo", role="floor")
    event, now = started_event(4, 6, floor)
    seat = OnlineSeat.objects.filter(table__floor_table__event=event).first()
    assert seat is not None and seat.entry is not None
    online_events.remove_player(event_id=event.pk, entry_id=seat.entry_id, actor=floor)
    for _ in range(60):
        now += timedelta(seconds=0.2)
        online_play.sweep(now=now)
        online_events.tick(event_id=event.pk, now=now)
        if not OnlineSeat.objects.filter(pk=seat.pk).exists():
            break
    entry = Entry.objects.get(pk=seat.entry_id)
    assert entry.status == EntryStatus.QUIT and entry.place == 4
    removed = event.chip_changes.get(entry=entry, kind="removed")
    assert removed.after == 0 and removed.before > 0
    seated, brought = event_chips(event)
    assert seated == brought
    assert event.audit_events.filter(action="online.player_removed").exists()


def test_a_plan_gone_stale_before_it_is_carried_out_moves_nobody_and_waits_a_tick(monkeypatch):
    # R5.7, TDA 11A/10B: the director refreshes the plan, then confirms it; a table the plan
    # moves a player to may deal in between (the sweeper), its button moves and so does who is
    # dealt in, and the floor's confirm_plan refuses the stale plan. The director then moves
    # nobody, raises nothing (a Celery run logged it as a failed tick), and a later tick
    # carries out a fresh plan.
    from tables import plan_services  # noqa: PLC0415

    floor = make_user(username="flo", role="floor")
    event, now = started_event(12, 4, floor)  # three tables of four, no hand dealt
    short = OnlineTable.objects.filter(event=event).order_by("pk").first()
    assert short is not None
    for seat in list(short.players.all()[:2]):  # two removed: 2 against 4 and 4
        online_events.remove_player(event_id=event.pk, entry_id=seat.entry_id, actor=floor)
    real = plan_services.confirm_plan
    calls: list[int] = []

    def dealt_meanwhile(**kwargs):
        calls.append(kwargs["step_id"])
        if len(calls) == 1:
            raise plan_services.StalePlanError("The plan no longer fits the tables.")
        return real(**kwargs)

    monkeypatch.setattr(online_events, "confirm_plan", dealt_meanwhile)
    seats = sorted(OnlineSeat.objects.filter(table__event=event).values_list("pk", "table_id"))
    now += timedelta(seconds=0.2)
    online_events.tick(event_id=event.pk, now=now)  # the leavers go; the plan goes stale
    assert len(calls) == 1
    left = sorted(OnlineSeat.objects.filter(table__event=event).values_list("pk", "table_id"))
    assert set(left) <= set(seats) and len(left) == 10  # nobody moved, the two removed gone
    done = Move.objects.filter(step__event=event, reason="balance", step__status=StepStatus.DONE)
    assert not done.exists()  # the plan is still only a plan
    now += timedelta(seconds=0.2)
    online_events.tick(event_id=event.pk, now=now)  # a fresh plan, carried out
    assert len(calls) == 2
    counts = sorted(t.players.count() for t in OnlineTable.objects.filter(event=event))
    assert counts == [3, 3, 4]
    assert done.count() == 1
    seated, brought = event_chips(event)
    assert seated == brought


def test_a_table_the_final_tables_plan_waits_for_holds_and_deals_nothing():
    # TDA 11D and RP-9: the final table's plan moves players from every table, so it waits until
    # each is between hands; a table already between hands holds (deals nothing, though its
    # next hand is due) while another plays its hand on. Once that hand is over the plan is
    # carried out and nothing holds, the closed table included.
    floor = make_user(username="flo", role="floor")
    event, now = started_event(5, 4, floor)  # two tables, none dealt yet
    playing, waiting = OnlineTable.objects.filter(event=event).order_by("pk")
    OnlineTable.objects.filter(pk=waiting.pk).update(next_hand_at=None)
    now += timedelta(seconds=4)
    online_play.sweep(now=now)  # only the first table deals
    assert TableHand.objects.filter(table=playing, is_over=False).exists()
    leaver = waiting.players.first()
    assert leaver is not None
    online_events.remove_player(event_id=event.pk, entry_id=leaver.entry_id, actor=floor)
    now += timedelta(seconds=0.2)
    online_events.tick(event_id=event.pk, now=now)  # he goes: four left, the final table
    step = FloorStep.objects.get(event=event, status=StepStatus.PENDING)
    assert step.data.get("final_table") is not None
    holds = dict(OnlineTable.objects.filter(event=event).values_list("pk", "hold"))
    assert holds == {playing.pk: False, waiting.pk: True}
    OnlineTable.objects.filter(pk=waiting.pk).update(next_hand_at=now)  # its deal is due
    for _ in range(600):
        if not TableHand.objects.filter(table=playing, is_over=False).exists():
            break
        now += timedelta(seconds=0.2)
        online_play.sweep(now=now)
        assert not TableHand.objects.filter(table=waiting).exists()  # held: it dealt nothing
    else:
        raise AssertionError("the first table's hand did not end")
    (ended,) = TableHand.objects.filter(table=playing)
    assert not ended.results_recorded  # with a plan pending it waits for the director
    online_events.tick(event_id=event.pk, now=now + timedelta(seconds=0.2))
    assert not FloorStep.objects.filter(event=event, status=StepStatus.PENDING).exists()
    done = Move.objects.filter(step__event=event, step__status=StepStatus.DONE)
    assert done.filter(reason="final_table").exists()  # carried out (planned afresh, TDA 10B)
    tables = list(OnlineTable.objects.filter(event=event))
    assert sorted(t.status for t in tables) == [TableStatus.CLOSED, TableStatus.OPEN]
    assert not any(t.hold for t in tables)
    seated, brought = event_chips(event)
    assert seated == brought


def test_a_tick_whose_only_work_is_a_table_to_deal_wakes_it_and_runs_no_other_part(monkeypatch):
    # The director's probe (scoring.online_events.Work): a table between hands told to wait (its
    # deal came before the director's word, R5.7, TDA RP-8) and nothing else to do. The tick
    # wakes that table, and that table only, and runs no other part (no busts, leavers, end,
    # late seats or balancing); the next tick finds nothing; the sweeper deals there.
    floor = make_user(username="flo", role="floor")
    event, now = started_event(12, 6, floor)  # two tables of six, none dealt yet
    asleep, other = OnlineTable.objects.filter(event=event).order_by("pk")
    OnlineTable.objects.filter(pk=asleep.pk).update(next_hand_at=None)
    nothing = online_events.Work(*(False for _flag in online_events.Work._fields))
    assert _work(event) == nothing._replace(to_deal=True)

    def not_called(*args, **kwargs):
        raise AssertionError("a part the probe did not name ran")

    for part in ("_record_hand", "_remove_leavers", "_finish", "_seat_late", "_balance"):
        monkeypatch.setattr(online_events, part, not_called)
    later = now + timedelta(seconds=1)
    online_events.tick(event_id=event.pk, now=later)
    asleep.refresh_from_db()
    assert asleep.next_hand_at == later and not asleep.hold
    assert OnlineTable.objects.get(pk=other.pk).next_hand_at == other.next_hand_at  # untouched
    assert _work(event) == nothing  # the next tick is idle
    online_play.sweep(now=later)
    assert TableHand.objects.filter(table=asleep, is_over=False).exists()


def test_a_held_table_or_one_with_a_hand_in_play_is_not_a_table_to_deal():
    # A table that holds for a plan (TDA 11D) deals when the plan is carried out, not on the
    # director's word; a table in its hand has nothing to be woken for.
    floor = make_user(username="flo", role="floor")
    event, now = started_event(12, 6, floor)
    held, playing = OnlineTable.objects.filter(event=event).order_by("pk")
    OnlineTable.objects.filter(pk=held.pk).update(next_hand_at=None, hold=True)
    assert online_play.deal_hand(table=playing, now=now + timedelta(seconds=4)) is not None
    work = _work(event)
    assert work.held and not work.to_deal


def test_a_broken_table_and_the_tables_it_fills_are_sent_again_and_no_other():
    # R5.7: four tables of four; two players leave each of the first two (2, 2, 4, 4: twelve
    # players need three tables), so a table breaks (TDA 10B: the floor's breaking order) and
    # its players fill the short ones. The tables whose seats changed get a new version (the
    # broken one shows it closed); a table whose seats did not change is not drawn and sent
    # again.
    floor = make_user(username="flo", role="floor")
    event, now = started_event(16, 4, floor)
    for table in OnlineTable.objects.filter(event=event).order_by("pk")[:2]:
        for seat in list(table.players.all()[:2]):
            online_events.remove_player(event_id=event.pk, entry_id=seat.entry_id, actor=floor)
    versions = dict(OnlineTable.objects.filter(event=event).values_list("pk", "version"))
    online_events.tick(event_id=event.pk, now=now + timedelta(seconds=0.2))
    tables = {t.pk: t for t in OnlineTable.objects.filter(event=event)}
    broken = [t for t in tables.values() if t.status == TableStatus.CLOSED]
    assert len(broken) == 1
    moves = Move.objects.filter(step__event=event, reason="table_break")
    assert set(moves.values_list("from_table", flat=True)) == {broken[0].floor_table_id}
    floor_ids = {broken[0].floor_table_id, *moves.values_list("to_table", flat=True)}
    seated_anew = {t.pk for t in tables.values() if t.floor_table_id in floor_ids}
    assert 2 <= len(seated_anew) < len(tables)  # a table was left as it was
    for pk, table in tables.items():
        assert (table.version > versions[pk]) == (pk in seated_anew), table


def test_a_multi_table_event_starts_at_its_time_and_seats_late_registrations():
    # The floor's rule for late arrivals: a random seat at one of the shortest tables.
    floor = make_user(username="flo", role="floor")
    start = timezone.now() + timedelta(minutes=5)
    event = online_event(name="Online MTT", start_players=None, table_size=4, scheduled_start=start)
    register_bots(event, 7, floor)
    online_events.tick(event_id=event.pk, now=start - timedelta(seconds=1))
    event.refresh_from_db()
    assert event.status == EventStatus.SCHEDULED
    online_events.tick(event_id=event.pk, now=start)
    event.refresh_from_db()
    assert event.status == EventStatus.RUNNING
    counts = sorted(t.players.count() for t in OnlineTable.objects.filter(floor_table__event=event))
    assert counts == [3, 4]
    late = make_user(username="late")
    entry = online_events.register(event_id=event.pk, user=late)
    seat = OnlineSeat.objects.get(entry=entry)
    assert seat.table.players.count() == 4 and seat.stack == event.starting_stack
    assert entry.__class__.objects.get(pk=entry.pk).status == EntryStatus.PLAYING


def test_an_online_bust_cannot_be_undone():
    from scoring.undo_services import NothingToUndoError, undo_last  # noqa: PLC0415

    floor = make_user(username="flo", role="floor")
    event = online_event(start_players=2, table_size=6)
    register_bots(event, 2, floor)
    online_events.tick(event_id=event.pk)
    with pytest.raises(NothingToUndoError):
        undo_last(event_id=event.pk, actor=floor)


def test_a_bounty_goes_to_the_winner_of_the_busted_players_last_pot():
    # docs/money.md: whoever busts a player wins his bounty; online the engine's pots say who.
    from tournaments.models import EventMoney  # noqa: PLC0415

    floor = make_user(username="flo", role="floor")
    event = online_event(start_players=5, table_size=6)
    EventMoney.objects.create(event=event, buy_in=2_000, bounty=500)
    register_bots(event, 5, floor)
    run_event(event, now=timezone.now())
    out = Entry.objects.filter(event=event, status=EntryStatus.BUSTED)
    assert out.count() == 4
    for entry in out:
        assert entry.busted_by is not None and entry.busted_by.event_id == event.pk
        # The winner was still in after that hand: he placed better than the player he busted.
        assert entry.busted_by.place < entry.place


def test_an_online_colour_up_needs_no_race_and_keeps_the_chips_accounted_for():
    # R5.11 online: the 25s leave after level 2; before the first hand of level 3 every stack is
    # coloured up (half a 100 or more rounds up, less is lost), each change is recorded so the
    # event's chips still add up, and the floor is shown no race to deal.
    from tables.chipup_services import chip_up_notice  # noqa: PLC0415
    from tournaments.services import ClockAction, act_on_clock  # noqa: PLC0415

    floor = make_user(username="flo", role="floor")
    event, now = started_event(3, 6, floor)
    act_on_clock(event_id=event.pk, actor=floor, action=ClockAction.GO_TO, level=2, now=now)
    seats = list(OnlineSeat.objects.filter(table__floor_table__event=event).order_by("number"))
    for seat, stack in zip(seats, (3_025, 3_050, 2_925), strict=True):
        seat.stack = stack  # as a hand of level 2 could have left them: 9,000 in all
        seat.save(update_fields=["stack"])
    online_play.sweep(now=now + timedelta(seconds=5))
    hand = TableHand.objects.get(table__floor_table__event=event)
    assert hand.level_index == 2 and sorted(hand.starting_stacks) == [2_900, 3_000, 3_100]
    changes = sorted((c.before, c.after) for c in event.chip_changes.all())
    assert changes == [(2_925, 2_900), (3_025, 3_000), (3_050, 3_100)]
    event.refresh_from_db()
    assert chip_up_notice(event) is None
    seated, brought = event_chips(event)
    assert seated == brought == 9_000


def test_a_player_sitting_out_is_dealt_in_posts_and_his_hand_folds_where_a_bet_is_owed():
    # R2.9 in an online event: dealt in, posts his blinds and antes, checks or folds at once.
    floor = make_user(username="flo", role="floor")
    anna = make_user(username="anna")
    event = online_event(start_players=3, table_size=6)
    online_events.register(event_id=event.pk, user=anna)
    register_bots(event, 2, floor)
    now = timezone.now()
    online_events.tick(event_id=event.pk, now=now)
    table = OnlineTable.objects.get(floor_table__event=event)
    online_play.sit_out(table=table, user=anna, now=now)
    for _ in range(3):
        now += timedelta(seconds=5)
        online_play.sweep(now=now)
        online_events.tick(event_id=event.pk, now=now)
        hand = TableHand.objects.filter(table=table).order_by("-number").first()
        if hand is not None:
            break
    assert hand is not None
    # Hands until one where a move was hers: where she is the big blind and both bots fold, she
    # has none (the button moves every hand, so a hand where she must act comes within three).
    hers: list[dict] = []
    played: list[TableHand] = []
    for _ in range(400):  # the bots' moves, hers by the server at once
        now += timedelta(seconds=1)
        online_play.sweep(now=now)
        online_events.tick(event_id=event.pk, now=now)
        played = list(TableHand.objects.filter(table=table, is_over=True).order_by("number"))
        hers = [
            move
            for done in played
            for move in done.actions.order_by("sequence").values_list("record", flat=True)
            if move.get("position") == done.position_of(anna.pk)
        ]
        if hers:
            break
    assert played and all(anna.pk in done.user_ids for done in played)  # dealt in although out
    assert hers and all(m["move"] in ("check", "fold") and m["cause"] == "absent" for m in hers)


def test_a_paused_clock_stops_the_deal_at_every_table_of_the_event():
    from tournaments.services import ClockAction, act_on_clock  # noqa: PLC0415

    floor = make_user(username="flo", role="floor")
    event, now = started_event(8, 4, floor)
    act_on_clock(event_id=event.pk, actor=floor, action=ClockAction.PAUSE, now=now)
    online_play.sweep(now=now + timedelta(seconds=10))
    assert not TableHand.objects.filter(table__floor_table__event=event).exists()
    act_on_clock(event_id=event.pk, actor=floor, action=ClockAction.RESUME, now=now)
    online_events.tick(event_id=event.pk, now=now + timedelta(seconds=11))
    online_play.sweep(now=now + timedelta(seconds=16))  # a paused table looks again every 5 s
    assert TableHand.objects.filter(table__floor_table__event=event).count() == 2


def test_the_floors_typed_in_busts_and_moves_are_refused_online_and_change_nothing():
    # docs/online.md: an online event's seats and busts follow the engine and its director.
    from tables.plan_services import confirm_plan  # noqa: PLC0415
    from tables.services import move_entry  # noqa: PLC0415
    from tournaments.entry_services import OnlineEventFloorError  # noqa: PLC0415

    floor = make_user(username="flo", role="floor")
    event = online_event(start_players=4, table_size=2)
    register_bots(event, 4, floor)
    online_events.tick(event_id=event.pk)
    entry = Entry.objects.filter(event=event).first()
    before = sorted(OnlineSeat.objects.values_list("entry_id", "table_id", "number", "stack"))
    with pytest.raises(OnlineEventFloorError):
        services.record_busts(
            event_id=event.pk, actor=floor, busts=[services.StackInput(entry.pk, 3_000)]
        )
    with pytest.raises(OnlineEventFloorError):
        services.record_quit(event_id=event.pk, entry_id=entry.pk, actor=floor)
    with pytest.raises(OnlineEventFloorError):
        move_entry(event_id=event.pk, entry_id=entry.pk, actor=floor, table_number=2, seat_number=1)
    step = FloorStep.objects.filter(event=event).first()
    with pytest.raises(OnlineEventFloorError):
        confirm_plan(event_id=event.pk, step_id=step.pk if step else 0, actor=floor)
    assert sorted(OnlineSeat.objects.values_list("entry_id", "table_id", "number", "stack")) == (
        before
    )
    assert Entry.objects.filter(event=event, place__isnull=False).count() == 0


@pytest.mark.parametrize("game", ["plo", "stud", "draw_holdem"])
def test_an_online_event_deals_its_structures_game_to_one_winner(game):
    # R7.1-R7.11: the structure names the game; stud deals without blinds (R7.2).
    floor = make_user(username="flo", role="floor")
    structure = quick_structure(f"Quick {game}")
    structure.game = game
    structure.save(update_fields=["game"])
    event = online_event(name=f"Online {game}", start_players=3, structure=structure)
    register_bots(event, 3, floor)
    run_event(event, now=timezone.now())
    hands = TableHand.objects.filter(table__floor_table__event=event)
    assert hands.exists() and {h.rules["game"] for h in hands} == {TABLE_GAMES[game]}
    assert sorted(Entry.objects.filter(event=event).values_list("place", flat=True)) == [1, 2, 3]
    seated, brought = event_chips(event)
    rounding = sum(c.after - c.before for c in event.chip_changes.all())  # R5.11 online
    assert seated == brought == 9_000 + rounding


def test_r5_6_equal_stacks_out_in_the_same_hand_place_by_the_higher_card_in_hand():
    # R5.6: two players out in one hand who started it with equal stacks: the higher card in
    # hand places higher. K-2 against Q-7: by the higher card the king's player is second; by
    # the lower card (the 7 beats the 2) it would be the other way round.
    from tables.engine import parse_cards  # noqa: PLC0415
    from tests.tables.online_helpers import stacked_deck  # noqa: PLC0415

    event, table, by_id, now = _three_at_one_table()
    assert not TableHand.objects.filter(table=table).exists()
    deck = stacked_deck(["AsAh", "Kd2c", "Qc7d"], board="Jh9s4c8d5h")
    hand = online_play.deal_hand(table=table, now=now, deck=deck)
    assert hand is not None and len(set(hand.starting_stacks)) == 1  # equal stacks
    engine = online_play.engine_of(hand)
    holder = {
        cards: hand.user_ids[position]
        for position in range(3)
        for cards in ("AsAh", "Kd2c", "Qc7d")
        if sorted(engine.hole_cards[position]) == sorted(parse_cards(cards))
    }
    assert len(holder) == 3
    hand = _play_out(hand, by_id, now, _all_in)  # everyone all in: the aces take every chip
    assert sorted(hand.final_stacks) == [0, 0, 9_000]
    online_events.tick(event_id=event.pk, now=now + timedelta(seconds=1))
    place = {
        entry.player.user_id: entry.place
        for entry in Entry.objects.filter(event=event).select_related("player")
    }
    assert place[holder["AsAh"]] == 1
    assert place[holder["Kd2c"]] == 2  # the king is the higher card in hand
    assert place[holder["Qc7d"]] == 3


def test_an_online_event_is_won_as_a_live_one_is_through_the_same_service():
    """Issue 18: the last bust wins the event (scoring.services.end_event), the tables close."""
    from tournaments.models import AuditEvent  # noqa: PLC0415 - only this test reads it

    floor = make_user(username="flo", role="floor")
    event = online_event(start_players=2, table_size=6)
    register_bots(event, 2, floor)
    run_event(event, now=timezone.now())
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    won = AuditEvent.objects.filter(event=event, action="event.won")
    assert won.count() == 1 and won.get().data["winner"]
    assert not AuditEvent.objects.filter(event=event, action="event.finished").exists()
    assert AuditEvent.objects.filter(event=event, action="online.event_finished").count() == 1
    assert not OnlineTable.objects.filter(floor_table__event=event, status=TableStatus.OPEN)


def _work(event) -> online_events.Work:
    """What the director's probe finds to do at the event (its lock-free first query)."""
    probed = online_events._probe(event.pk)
    assert probed is not None
    return probed[2]


def _three_at_one_table() -> tuple:
    """A sit&go of three players (people: their moves are the test's) at one table, started,
    no hand dealt yet."""
    users = [make_user(username=name) for name in ("anna", "bert", "cleo")]
    event = online_event(start_players=3, table_size=6)
    for user in users:
        online_events.register(event_id=event.pk, user=user)
    now = timezone.now()
    online_events.tick(event_id=event.pk, now=now)
    table = OnlineTable.objects.get(floor_table__event=event)
    return event, table, {user.pk: user for user in users}, now


def _play_out(hand: TableHand, by_id: dict, now, moves) -> TableHand:
    """Play ``hand`` to its end: ``moves(engine, user_id)`` names each actor's move."""
    while not hand.is_over:
        engine = online_play.engine_of(hand)
        user_id = hand.user_ids[engine.actor]
        online_play.act(
            table=hand.table, user=by_id[user_id], hand_id=hand.pk, sequence=hand.sequence,
            now=now, **moves(engine, user_id),
        )  # fmt: skip
        hand.refresh_from_db()
    return hand


def _fold(_engine, _user_id) -> dict:
    return {"action": "fold", "amount": None}


def _all_in(engine, _user_id) -> dict:
    if engine.max_raise_to() <= engine.min_raise_to() and engine.can_call():
        return {"action": "call", "amount": None}
    return {"action": "raise", "amount": engine.max_raise_to()}


def test_r5_6_a_hand_nobody_busted_in_is_recorded_as_it_ends_and_the_table_deals_on_alone():
    # R5.6: a hand that leaves every player chips places nobody and needs no plan, so it is
    # recorded as it ends and the table deals its next hand after the pause, as a cash table
    # does: no director's tick in between (bench/online_mtt.py: a tick cost as much as a hand).
    event, table, by_id, now = _three_at_one_table()
    hand = online_play.deal_hand(table=table, now=now)
    assert hand is not None
    hand = _play_out(hand, by_id, now, _fold)  # everyone folds to the big blind
    assert all(hand.final_stacks) and hand.results_recorded
    assert not _work(event).hands  # nothing for the director
    online_play.sweep(now=now + timedelta(seconds=30))  # no tick since the hand ended
    assert TableHand.objects.filter(table=table, is_over=False, number=2).exists()


def test_r5_6_a_hand_with_a_bust_waits_for_the_director_before_the_table_deals_again():
    # R5.6: a bust is placed by the director, through the floor's service, before the next deal.
    from tables.engine import parse_cards  # noqa: PLC0415
    from tests.tables.online_helpers import stacked_deck  # noqa: PLC0415

    event, table, by_id, now = _three_at_one_table()
    deck = stacked_deck(["AsAh", "Kd2c", "Qc7d"], board="Jh9s4c8d5h")
    hand = online_play.deal_hand(table=table, now=now, deck=deck)
    assert hand is not None
    engine = online_play.engine_of(hand)
    kings = sorted(parse_cards("Kd2c"))
    (folder,) = (hand.user_ids[p] for p in range(3) if sorted(engine.hole_cards[p]) == kings)

    def queen_and_aces_all_in(engine, user_id) -> dict:
        return _fold(engine, user_id) if user_id == folder else _all_in(engine, user_id)

    hand = _play_out(hand, by_id, now, queen_and_aces_all_in)
    assert sorted(hand.final_stacks).count(0) == 1  # the queen's player is out
    assert not hand.results_recorded
    later = now + timedelta(seconds=30)
    online_play.sweep(now=later)
    assert not TableHand.objects.filter(table=table, number=2).exists()  # it waits
    online_events.tick(event_id=event.pk, now=later)  # the bust placed, the table woken
    hand.refresh_from_db()
    assert hand.results_recorded
    assert Entry.objects.filter(event=event, place=3).count() == 1
    online_play.sweep(now=later + timedelta(seconds=1))
    assert TableHand.objects.filter(table=table, number=2, is_over=False).exists()


def test_r5_9_a_hand_ended_with_a_player_the_floor_removed_waits_for_the_director():
    # R5.9: the removed player places where he left once his hand is over: the director does
    # that between hands, so the table does not deal on before it has.
    floor = make_user(username="flo", role="floor")
    event, table, by_id, now = _three_at_one_table()
    hand = online_play.deal_hand(table=table, now=now)
    assert hand is not None
    leaver = OnlineSeat.objects.get(table=table, user_id=hand.user_ids[-1])
    online_events.remove_player(event_id=event.pk, entry_id=leaver.entry_id, actor=floor)
    hand.refresh_from_db()  # his hand folded where a bet was owed (R2.9)
    hand = _play_out(hand, by_id, now, _fold)
    assert all(hand.final_stacks) and not hand.results_recorded
    later = now + timedelta(seconds=30)
    online_play.sweep(now=later)
    assert not TableHand.objects.filter(table=table, number=2).exists()
    online_events.tick(event_id=event.pk, now=later)
    assert Entry.objects.get(pk=leaver.entry_id).place == 3
    assert not OnlineSeat.objects.filter(pk=leaver.pk).exists()


def test_tda_11d_a_pending_plan_keeps_the_director_between_hands_only_at_the_tables_it_waits_for():
    # TDA 11D: a plan waits for the tables it takes players from to be between hands, so a hand
    # ending there waits for the director; a table the plan only fills, or one it leaves alone,
    # deals on. A table it breaks, every table when it draws the final table (RP-9), and a
    # table that holds wait too.
    from tables.online.tournament import waits_for_the_director  # noqa: PLC0415

    floor = make_user(username="flo", role="floor")
    event, now = started_event(12, 4, floor)  # three tables of four
    source, target, other = OnlineTable.objects.filter(event=event).order_by("pk")
    hands = {}
    for table in (source, target, other):
        hand = online_play.deal_hand(table=table, now=now + timedelta(seconds=4))
        assert hand is not None
        hands[table.pk] = hand
    chips = [1_000, 2_000, 3_000, 4_000]  # nobody busted

    def waiting() -> dict[str, bool]:
        names = {source.pk: "source", target.pk: "target", other.pk: "other"}
        return {names[pk]: waits_for_the_director(hand, chips) for pk, hand in hands.items()}

    assert waiting() == {"source": False, "target": False, "other": False}
    step = FloorStep.objects.create(
        event=event, kind=StepKind.PLAN, status=StepStatus.PENDING,
        data={"broken_tables": [], "final_table": None},
    )  # fmt: skip
    seat = source.players.first()
    assert seat is not None and source.floor_table is not None
    Move.objects.create(
        step=step, entry_id=seat.entry_id, from_table=source.floor_table, from_seat=seat.number,
        to_table=target.floor_table, to_seat=5, reason="balance",
    )  # fmt: skip
    assert waiting() == {"source": True, "target": False, "other": False}
    assert other.floor_table is not None
    step.data = {"broken_tables": [other.floor_table.number], "final_table": None}
    step.save(update_fields=["data"])
    assert waiting() == {"source": True, "target": False, "other": True}
    step.data = {"broken_tables": [], "final_table": 1}
    step.save(update_fields=["data"])
    assert waiting() == {"source": True, "target": True, "other": True}
    step.delete()
    OnlineTable.objects.filter(pk=other.pk).update(hold=True)
    assert waiting() == {"source": False, "target": False, "other": True}
    assert waits_for_the_director(hands[source.pk], [0, *chips[1:]])  # R5.6: a bust
