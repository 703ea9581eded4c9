"""`manage.py floorman_chips`: the operator's check that chips are conserved
(docs/operations.md, "Checking that chips are conserved"), safe while tables play."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db.models import F

from tables.online import play as online_play
from tables.online.models import OnlineSeat
from tests.factories import make_user
from tests.scoring.online_event_helpers import started_event
from tests.tables.online_helpers import make_table, seat_players
from tournaments.models import Entry


def report(*args: str) -> list[str]:
    out = StringIO()
    call_command("floorman_chips", *args, stdout=out)
    return out.getvalue().splitlines()


@pytest.mark.django_db(transaction=True)  # the command's own transaction, as an operator runs it
def test_a_cash_table_in_a_hand_and_an_online_event_add_up_and_a_wrong_stack_is_named():
    table = make_table(name="Cash")
    seat_players(table, ["ann", "bob", "cid"], buy_in=600)
    assert online_play.deal_hand(table=table) is not None  # blinds in: the stacks wait (R2.6)
    event, _now = started_event(
        players=6, table_size=3, floor=make_user(username="fl", role="floor")
    )

    lines = report()
    assert f"table  {table.pk} Cash: 1800 1800 ok" in lines
    # The event's tables hold tournament chips, not play money: checked against the entries
    # (R5.6), never against a ledger they do not have.
    brought = sum(Entry.objects.filter(event=event).values_list("starting_stack", flat=True))
    assert brought > 0
    assert [line for line in lines if line.startswith("event")] == [
        f"event  {event.pk} {event.name}: {brought} {brought} ok"
    ]
    assert lines[-1].startswith("play money  granted, in accounts and at cash seats: ")
    assert lines[-1].endswith(" ok") and "MISMATCH" not in "\n".join(lines)

    OnlineSeat.objects.filter(table=table, user__username="bob").update(stack=F("stack") + 1)
    out = StringIO()
    with pytest.raises(CommandError, match="2 MISMATCH: a bug"):
        call_command("floorman_chips", stdout=out)
    assert f"table  {table.pk} Cash: 1801 1800 MISMATCH" in out.getvalue().splitlines()
