"""Hand-for-hand on the satellite bubble (TDA RP-8): shared places, "hand done", undo/redo."""

from __future__ import annotations

import threading

import pytest
from django.db import close_old_connections
from django.urls import reverse

from scoring import hand_for_hand_services as hand_for_hand
from scoring import services, undo_services
from scoring.services import StackInput
from tables.models import HandForHand
from tests.floor_helpers import at_table, floor_state, seated_event
from tournaments.models import AuditEvent, Entry, Event, EventKind


def _place(entry):
    return Entry.objects.get(pk=entry.pk).place


def _bust(event, players, first_stack=1_000):
    return services.record_busts(
        event_id=event.pk,
        actor=None,
        busts=[
            StackInput(entry_id=e.pk, stack=first_stack + 100 * i) for i, e in enumerate(players)
        ],
    )


def satellite_on_the_bubble():
    """20 entrants, 4 qualify (R5.5); busted down to 5 players: 2 at table 1, 3 at table 2."""
    event, _ = seated_event(players=20, tables=2)
    Event.objects.filter(pk=event.pk).update(kind=EventKind.SATELLITE)
    event.refresh_from_db()
    _bust(event, at_table(event, 1)[:8])
    assert hand_for_hand.open_hand(event) is None  # 12 left: not yet
    _bust(event, at_table(event, 2)[:7])
    return event


@pytest.mark.django_db
def test_the_bubble_opens_hand_for_hand_hand_one():
    event = satellite_on_the_bubble()
    hand = hand_for_hand.open_hand(event)
    assert hand is not None and hand.number == 1 and hand.done_tables == []
    assert AuditEvent.objects.filter(event=event, action="hand_for_hand.started").count() == 1


@pytest.mark.django_db
def test_a_custom_event_has_no_hand_for_hand():
    event, _ = seated_event(players=20, tables=2)
    _bust(event, at_table(event, 1)[:8])
    _bust(event, at_table(event, 2)[:7])  # 5 left, but no qualifiers to play for
    assert hand_for_hand.open_hand(event) is None


@pytest.mark.django_db
def test_busts_of_one_hand_at_different_tables_share_the_place_and_undo_restores():
    event = satellite_on_the_bubble()
    alone = at_table(event, 1)[0]
    two = at_table(event, 2)[:2]
    _bust(event, [alone], first_stack=5_000)
    assert _place(alone) == 5  # so far only table 1: placed as usual
    before_second = floor_state(event)
    step = _bust(event, two, first_stack=100)
    # TDA RP-8: out in the same hand at different tables, all three tie for 3rd (3, 4 and 5),
    # the two of table 2 too although their stacks differed (our rule for a mix).
    assert [_place(e) for e in (alone, *two)] == [3, 3, 3]
    assert step.data["hand_for_hand"] == 1
    audit = AuditEvent.objects.filter(event=event, action="busts.recorded").latest("pk")
    assert audit.data["hand_for_hand"] == 1 and audit.data["shared"]
    undo_services.undo_last(event_id=event.pk, actor=None)
    assert floor_state(event) == before_second
    assert _place(alone) == 5
    undo_services.redo_next(event_id=event.pk, actor=None)
    assert [_place(e) for e in (alone, *two)] == [3, 3, 3]


@pytest.mark.django_db
def test_busts_of_one_hand_at_one_table_follow_r5_6():
    event = satellite_on_the_bubble()
    small, big = at_table(event, 2)[:2]
    services.record_busts(
        event_id=event.pk,
        actor=None,
        busts=[StackInput(entry_id=small.pk, stack=800), StackInput(entry_id=big.pk, stack=2_000)],
    )
    assert (_place(big), _place(small)) == (4, 5)  # R5.6: the bigger starting stack higher


@pytest.mark.django_db
def test_a_hand_ends_when_every_table_reports_and_the_next_one_starts():
    event = satellite_on_the_bubble()
    hand = hand_for_hand.report_hand_done(
        event_id=event.pk, table_number=1, hand_number=1, actor=None
    )
    assert hand.done_tables == [1] and hand.completed_at is None
    again = hand_for_hand.report_hand_done(
        event_id=event.pk, table_number=1, hand_number=1, actor=None
    )
    assert again.done_tables == [1]  # a double click reports once
    hand_for_hand.report_hand_done(event_id=event.pk, table_number=2, hand_number=1, actor=None)
    assert HandForHand.objects.get(event=event, number=1).completed_at is not None
    assert hand_for_hand.open_hand(event).number == 2  # nobody busted: still on the bubble
    late = hand_for_hand.report_hand_done(
        event_id=event.pk, table_number=2, hand_number=1, actor=None
    )
    assert late.number == 1 and hand_for_hand.open_hand(event).done_tables == []
    actions = list(AuditEvent.objects.filter(event=event).values_list("action", flat=True))
    assert actions.count("hand_for_hand.done") == 2
    assert actions.count("hand_for_hand.completed") == 1
    with pytest.raises(hand_for_hand.HandForHandError):
        hand_for_hand.report_hand_done(event_id=event.pk, table_number=9, hand_number=2, actor=None)


@pytest.mark.django_db
def test_the_hand_the_bubble_burst_in_is_played_out_then_hand_for_hand_stops():
    event = satellite_on_the_bubble()
    _bust(event, at_table(event, 1)[:1])
    hand = hand_for_hand.open_hand(event)
    assert hand is not None and hand.number == 1  # 4 left: the bubble burst, the hand goes on
    assert not hand_for_hand.hand_for_hand_view(event).on_the_bubble
    for table in (1, 2):
        hand_for_hand.report_hand_done(
            event_id=event.pk, table_number=table, hand_number=1, actor=None
        )
    assert hand_for_hand.open_hand(event) is None


@pytest.mark.django_db(transaction=True)
def test_two_floor_staff_reporting_the_same_table_at_once_report_it_once():
    event = satellite_on_the_bubble()
    barrier = threading.Barrier(2)

    def report():
        try:
            barrier.wait()
            hand_for_hand.report_hand_done(
                event_id=event.pk, table_number=1, hand_number=1, actor=None
            )
        finally:
            close_old_connections()

    threads = [threading.Thread(target=report) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert HandForHand.objects.get(event=event, number=1).done_tables == [1]
    assert AuditEvent.objects.filter(event=event, action="hand_for_hand.done").count() == 1


@pytest.mark.django_db
def test_the_floor_page_shows_the_banner_and_takes_hand_done_reports(client, floor_user):
    event = satellite_on_the_bubble()
    client.force_login(floor_user)
    url = reverse("floor:tables", args=[event.pk])
    page = client.get(url).content.decode()
    assert 'data-testid="hand-for-hand"' in page and "TDA RP-8" in page
    assert "5 players left, 4 qualify" in page
    assert page.count('data-testid="hand-done-') == 2
    response = client.post(
        reverse("scoring:hand_done", args=[event.pk]), {"table": "2", "hand": "1"}
    )
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert page.count('data-done="yes"') == 1
    audit = AuditEvent.objects.get(event=event, action="hand_for_hand.done")
    assert audit.actor == floor_user and audit.data["table"] == 2
    bad = client.post(reverse("scoring:hand_done", args=[event.pk]), {"table": "x", "hand": "1"})
    assert bad.status_code == 400
    dashboard = client.get(reverse("floor:event_floor", args=[event.pk])).content.decode()
    assert 'data-testid="hand-for-hand-banner"' in dashboard


@pytest.mark.django_db
def test_no_banner_off_the_bubble(client, floor_user):
    event, _ = seated_event(players=20, tables=2)
    Event.objects.filter(pk=event.pk).update(kind=EventKind.SATELLITE)
    client.force_login(floor_user)
    page = client.get(reverse("floor:tables", args=[event.pk])).content.decode()
    assert 'data-testid="hand-for-hand"' not in page and 'data-testid="hand-done-' not in page


# --- taking back a "hand done" report (TDA RP-8) ---


def _take_back(event, table, hand=1, key=""):
    return hand_for_hand.take_back_hand_done(
        event_id=event.pk, table_number=table, hand_number=hand, actor=None, key=key
    )


def _done(event, table, hand=1):
    return hand_for_hand.report_hand_done(
        event_id=event.pk, table_number=table, hand_number=hand, actor=None
    )


@pytest.mark.django_db
def test_rp_8_a_hand_done_report_is_taken_back_while_the_hand_is_open_audited_once():
    event = satellite_on_the_bubble()
    _done(event, 1)
    for _click in range(2):  # a double click: the same form key
        hand = _take_back(event, 1, key="k-hd1")
    assert hand.done_tables == [] and hand.completed_at is None
    audits = AuditEvent.objects.filter(event=event, action="hand_for_hand.done_taken_back")
    assert [(a.data["table"], a.data["reopened"]) for a in audits] == [(1, False)]
    _done(event, 1)  # the table reports again when it is really done
    assert hand_for_hand.open_hand(event).done_tables == [1]


@pytest.mark.django_db
@pytest.mark.parametrize("table", [1, 2, 9])
def test_rp_8_nothing_to_take_back_is_refused_with_the_reason_and_changes_nothing(table):
    event = satellite_on_the_bubble()
    if table == 1:
        _done(event, 2)  # another table's report is not this one's
    before = (list(HandForHand.objects.filter(event=event).values()), floor_state(event))
    with pytest.raises(hand_for_hand.HandForHandError, match="nothing to take back"):
        _take_back(event, table if table != 2 else 1, hand=1 if table != 9 else 5)
    assert (list(HandForHand.objects.filter(event=event).values()), floor_state(event)) == before


@pytest.mark.django_db
def test_rp_8_the_report_that_ended_the_hand_reopens_it_while_nothing_happened_since():
    event = satellite_on_the_bubble()
    _done(event, 1)
    _done(event, 2)  # the hand ends; hand 2 is dealt
    assert hand_for_hand.open_hand(event).number == 2
    assert hand_for_hand.reopenable_hand(event).number == 1
    hand = _take_back(event, 2)
    assert (hand.number, hand.done_tables, hand.completed_at) == (1, [1], None)
    assert hand_for_hand.open_hand(event).number == 1
    assert not HandForHand.objects.filter(event=event, number=2).exists()
    audit = AuditEvent.objects.get(event=event, action="hand_for_hand.done_taken_back")
    assert audit.data["reopened"] is True
    assert AuditEvent.objects.filter(event=event, action="hand_for_hand.ended", data__hand=2)


@pytest.mark.django_db
@pytest.mark.parametrize("since", ["report", "bust"])
def test_rp_8_an_ended_hand_stays_ended_once_play_went_on(since):
    event = satellite_on_the_bubble()
    _done(event, 1)
    _done(event, 2)
    if since == "report":
        _done(event, 1, hand=2)
    else:
        _bust(event, at_table(event, 1)[:1])
    assert hand_for_hand.reopenable_hand(event) is None
    before = list(HandForHand.objects.filter(event=event).order_by("number").values())
    with pytest.raises(hand_for_hand.HandForHandError, match="play went on"):
        _take_back(event, 2)
    assert list(HandForHand.objects.filter(event=event).order_by("number").values()) == before


@pytest.mark.django_db
def test_rp_8_the_floor_page_takes_back_a_report_and_a_double_click_changes_nothing(
    client, floor_user
):
    event = satellite_on_the_bubble()
    client.force_login(floor_user)
    _done(event, 2)
    url = reverse("floor:tables", args=[event.pk])
    page = client.get(url).content.decode()
    assert 'data-testid="take-back-2"' in page and 'data-testid="take-back-1"' not in page
    post = {"table": "2", "hand": "1", "key": "page-hd2"}
    take_back = reverse("scoring:take_back_hand_done", args=[event.pk])
    assert client.post(take_back, post).status_code == 302
    assert client.post(take_back, post).status_code == 302  # the second click: nothing twice
    assert hand_for_hand.open_hand(event).done_tables == []
    audit = AuditEvent.objects.get(event=event, action="hand_for_hand.done_taken_back")
    assert audit.actor == floor_user
    refused = client.post(take_back, {"table": "2", "hand": "1", "key": "other"})
    assert refused.status_code == 400
    assert "nothing to take back" in refused.content.decode()
    client.cookies["django_language"] = "de"
    german = client.post(take_back, {"table": "2", "hand": "1"}, HTTP_ACCEPT_LANGUAGE="de")
    assert "nichts zurückzunehmen" in german.content.decode()


@pytest.mark.django_db
def test_rp_8_the_floor_page_offers_to_reopen_the_hand_the_last_report_ended(client, floor_user):
    event = satellite_on_the_bubble()
    client.force_login(floor_user)
    _done(event, 1)
    _done(event, 2)
    page = client.get(reverse("floor:tables", args=[event.pk])).content.decode()
    assert 'data-testid="hand-reopen"' in page
    response = client.post(
        reverse("scoring:take_back_hand_done", args=[event.pk]), {"table": "1", "hand": "1"}
    )
    assert response.status_code == 302
    page = client.get(reverse("floor:tables", args=[event.pk])).content.decode()
    assert 'data-testid="hand-reopen"' not in page
    assert page.count('data-done="yes"') == 1  # table 2 still done, table 1 again to report
