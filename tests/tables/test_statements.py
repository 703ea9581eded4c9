"""Queries compiled once a process (tables/online/statements.py, issue 17): each prepared query
answers what its ORM queryset answers, row for row and field for field, annotations and JSON
fields included; it compiles once; and a builder whose argument does not reach the SQL as a
parameter is refused rather than compiled with its first call's value."""

from __future__ import annotations

import re
import uuid

import pytest
from django.db import transaction
from django.db.models import F
from django.db.models.sql.compiler import SQLCompiler
from django.utils import timezone

from tables.online import locks
from tables.online import play as online_play
from tables.online.away import away_seats, dropped_seats
from tables.online.kept import stored_moves
from tables.online.models import HandAction, OnlineSeat, OnlineTable, Presence, TableHand
from tables.online.selectors import build_snapshot, named_seats
from tables.online.statements import Prepared
from tests.tables.online_helpers import make_table, seat_players

pytestmark = pytest.mark.django_db


def fields(instance) -> dict[str, object]:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def assert_same(prepared, orm, *annotations: str) -> None:
    assert type(prepared) is type(orm)
    assert fields(prepared) == fields(orm)
    assert prepared._state.adding is False and prepared._state.db == "default"
    for name in annotations:
        assert getattr(prepared, name) == getattr(orm, name), name


@pytest.fixture
def hand():
    table = make_table()
    users = seat_players(table, ["ann", "bob", "cid"])
    running = online_play.deal_hand(table=table)
    assert running is not None
    return running, users


@transaction.atomic
def test_the_locks_read_what_the_orm_reads(hand):
    running, users = hand
    table = running.table
    assert_same(locks.lock_table(table.pk), OnlineTable.objects.get(pk=table.pk))
    orm_hand = TableHand.objects.get(pk=running.pk)
    assert orm_hand.rules and orm_hand.user_ids  # JSON fields, converted from the row
    assert_same(locks.lock_hand(table.pk), orm_hand)
    assert_same(locks.lock_hand(table.pk, running.pk), orm_hand)
    assert locks.lock_hand(table.pk, running.pk + 1) is None
    assert locks.lock_hand(make_table().pk) is None
    assert locks.lock_hand(10**30, running.pk) is None  # no column holds it: nothing, no error
    with pytest.raises(OnlineTable.DoesNotExist):
        locks.lock_table(table.pk + 1000)

    # A player's move: his key looked up in the lock's own query.
    key = uuid.uuid4().hex
    mover = next(user for user in users if user.pk == running.user_ids[0])
    before = locks.lock_hand_for_move(table.pk, running.pk, user_id=mover.pk, key=key)
    assert before is not None and before.made is False
    assert_same(before, orm_hand)
    HandAction.objects.create(hand=running, sequence=999, record={}, user=mover, key=key)
    after = locks.lock_hand_for_move(table.pk, running.pk, user_id=mover.pk, key=key)
    assert after is not None and after.made is True
    other = locks.lock_hand_for_move(table.pk, running.pk, user_id=users[1].pk, key=key)
    assert other is not None and other.made is False  # his key, not another's


def test_the_seats_and_their_names_are_the_orms(hand):
    running, users = hand
    table = running.table
    users[1].first_name, users[1].last_name = "Bea", "Brandt"
    users[1].save()
    seats = named_seats(table)
    orm = list(
        OnlineSeat.objects.filter(table=table)
        .annotate(
            player_name=F("user__player__name"), first_name=F("user__first_name"),
            last_name=F("user__last_name"), username=F("user__username"),
        )
        .order_by("number")
    )  # fmt: skip
    assert [seat.number for seat in seats] == [seat.number for seat in orm] == [1, 2, 3]
    for prepared, read in zip(seats, orm, strict=True):
        assert_same(prepared, read, "player_name", "first_name", "last_name", "username")
        assert prepared.table is table  # no query to read it back
    assert (seats[1].first_name, seats[1].last_name) == ("Bea", "Brandt")


def test_the_dropped_seats_are_the_orms(hand):
    running, users = hand
    table = running.table
    assert away_seats(table.pk) == frozenset()
    Presence.objects.create(user=users[0], streams=0, dropped_at=timezone.now())
    Presence.objects.create(user=users[2], streams=0, dropped_at=timezone.now())
    Presence.objects.create(user=users[1], streams=1, dropped_at=timezone.now())
    (orm,) = (
        OnlineTable.objects.filter(pk=table.pk)
        .annotate(away=dropped_seats())
        .values_list("away", flat=True)
    )
    assert away_seats(table.pk) == frozenset(map(int, orm.split(","))) == {1, 3}
    assert away_seats(make_table().pk) == frozenset()


def test_a_query_compiles_once_and_takes_each_calls_arguments():
    tables = [make_table(seats=seats) for seats in (6, 9, 2)]
    built = []

    def build(seats: int, name: str):
        built.append((seats, name))
        return OnlineTable.objects.filter(seats=seats, name=name).values_list("pk", "seats")

    prepared = Prepared[OnlineTable](build, int, str)
    for table in tables:
        assert prepared.rows(table.seats, table.name) == [(table.pk, table.seats)]
    assert prepared.rows(6, "no such table") == []
    assert len(built) == 2  # compiled on its first use only (with two sets of markers)
    assert prepared.row(9, tables[1].name) == (tables[1].pk, 9)
    with pytest.raises(TypeError):
        prepared.rows(6)


def test_a_constant_that_equals_a_marker_stays_the_codes_constant():
    """The markers are ordinary numbers: a constant of the query may equal one (32,000, the
    first argument's first marker). It stays in place whatever the call's argument."""
    cheap, dear = make_table(seats=6, max_buy_in=20_000), make_table(seats=6, max_buy_in=40_000)

    def build(seats: int):
        return OnlineTable.objects.filter(seats=seats, max_buy_in__lt=32_000).values_list("pk")

    prepared = Prepared[OnlineTable](build, int)
    assert prepared.rows(6) == list(build(6)) == [(cheap.pk,)]
    assert dear.pk not in {pk for (pk,) in prepared.rows(6)}
    assert prepared.rows(9) == []


def test_an_argument_that_is_not_a_parameter_is_refused():
    """Compiled once, such a query would answer every call with the first call's value; the
    compile says so instead: a slice's bound is written into the SQL, and an unused argument
    reaches nothing."""
    sliced = Prepared[OnlineTable](lambda count: OnlineTable.objects.all()[:count], int)
    with pytest.raises(ValueError, match="its SQL depends on its arguments"):
        sliced.models(3)
    unused = Prepared[OnlineTable](lambda table_id: OnlineTable.objects.all(), int)
    with pytest.raises(ValueError, match=r"arguments \[0\] are not parameters"):
        unused.models(3)


def test_the_directors_event_lock_reads_what_the_orm_reads():
    from scoring.online_events import _EVENT  # noqa: PLC0415 - the director's own query
    from tests.scoring.online_event_helpers import online_event  # noqa: PLC0415
    from tournaments.models import Event  # noqa: PLC0415

    event = online_event(start_players=3)
    with transaction.atomic():
        prepared = _EVENT.first(event.pk)
        assert prepared is not None
        assert_same(prepared, Event.objects.select_for_update(no_key=True).get(pk=event.pk))
    assert _EVENT.first(event.pk + 1_000) is None


def test_a_tables_snapshot_reads_what_the_orm_reads_and_compiles_nothing_again(hand, monkeypatch):
    """A change that is not a move of a running hand (a deal, a hand's end, a seat's, a drop)
    publishes the table as build_snapshot reads it after the commit: its table with the dropped
    seats (R3.10), its last hand and that hand's moves, as the ORM reads them; compiled once."""
    running, users = hand
    table = running.table
    _call(running, users)  # a move stored
    Presence.objects.create(user=users[1], streams=0, dropped_at=timezone.now())
    snapshot = build_snapshot(table.pk, keep=False)
    assert snapshot is not None
    orm_table = OnlineTable.objects.annotate(dropped=dropped_seats()).get(pk=table.pk)
    assert_same(snapshot.table, orm_table, "dropped")
    assert snapshot.away == {2}
    last = TableHand.objects.filter(table=table).order_by("-number").first()
    assert last is not None
    assert_same(snapshot.hand, last)
    moves = list(last.actions.order_by("sequence").values_list("record", flat=True))
    assert moves and list(snapshot.moves or ()) == moves  # the move, with its JSON converted
    assert build_snapshot(make_table().pk, keep=False).hand is None  # no hand yet: none read
    assert build_snapshot(table.pk + 1_000, keep=False) is None

    compiled: list[object] = []
    as_sql = SQLCompiler.as_sql

    def counted(self, *args, **kwargs):
        compiled.append(self.query.model)
        return as_sql(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", counted)
    assert build_snapshot(table.pk, keep=False) is not None
    assert compiled == []  # every query of it compiled once, at its first use


def _call(running: TableHand, users) -> None:
    """The player to act calls (pre-flop, facing the big blind: always allowed)."""
    actor = running.user_ids[online_play.engine_of(running).actor]
    online_play.act(
        table=running.table, user=next(user for user in users if user.pk == actor),
        hand_id=running.pk, sequence=running.sequence, action="call",
    )  # fmt: skip
    running.refresh_from_db()


def test_the_stored_moves_are_the_orms_up_to_any_move(hand):
    """Every replay reads the hand's log with ``stored_moves``: each record as the ORM reads
    it (its JSON converted), in order, all of them or up to a move ``through``."""
    running, users = hand
    _call(running, users)
    _call(running, users)
    orm = list(running.actions.order_by("sequence").values_list("sequence", "record"))
    assert len(orm) == 2
    assert stored_moves(running.pk) == [record for _sequence, record in orm]
    first = orm[0][0]
    assert stored_moves(running.pk, through=first) == [orm[0][1]]
    assert stored_moves(running.pk, through=first - 1) == []
    assert stored_moves(running.pk + 1_000) == []


def _prepared_on_the_server(prepared: Prepared) -> bool:
    """Whether the connection holds ``prepared``'s SQL as a server-prepared statement (which
    PostgreSQL lists with its parameters numbered)."""
    from django.db import connection  # noqa: PLC0415

    numbers = iter(range(1, 100))
    sql = re.sub(r"%s", lambda _: f"${next(numbers)}", prepared._compile("postgresql").sql)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement = %s", [sql])
        return cursor.fetchone()[0] > 0


def test_an_event_wide_query_is_planned_for_its_event_each_run_never_prepared_on_the_server():
    """The director's probe and the event's chips (``event_row``) cover an event's every table,
    and their best plan depends on how many there are: a server-prepared statement's generic
    plan, chosen after five runs, made a 1,000-player event's probe 7x slower mid-run
    (bench/RESULTS.md, eighteenth pass). A table's query (one table, one hand) stays prepared."""
    from django.db import connection  # noqa: PLC0415

    from scoring.online_events import _probe, _work_row  # noqa: PLC0415
    from tables.online.tournament import _chips_row, event_chips  # noqa: PLC0415
    from tests.scoring.online_event_helpers import online_event  # noqa: PLC0415

    assert connection.vendor == "postgresql", "scripts/test.sh runs the suite on PostgreSQL"
    event = online_event(start_players=3)
    table = make_table()
    with transaction.atomic():
        for _ in range(12):  # more than the settings' prepare threshold (5)
            assert _probe(event.pk) is not None
            event_chips(event)
            assert locks._TABLE.first(table.pk) is not None
    threshold = connection.settings_dict["OPTIONS"]["prepare_threshold"]
    assert threshold is not None, "run with prepared statements on (DB_PREPARE_THRESHOLD)"
    assert connection.connection.prepare_threshold == threshold  # restored after each run
    assert _prepared_on_the_server(locks._TABLE)
    assert not _prepared_on_the_server(_work_row.__self__)  # type: ignore[attr-defined]
    assert not _prepared_on_the_server(_chips_row.__self__)  # type: ignore[attr-defined]
