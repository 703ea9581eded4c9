"""Undo says what it will undo; a redo of a balancing plan makes the same moves (issue 18)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import undo_services
from scoring.services import StackInput, record_busts
from tables import services as table_services
from tables.models import FloorStep, StepStatus
from tests.factories import make_user
from tests.floor_helpers import at_table, floor_state, seated_event

pytestmark = pytest.mark.django_db


def _bust_three_and_confirm(event):
    for entry in at_table(event, 2)[:3]:
        record_busts(event_id=event.pk, actor=None, busts=[StackInput(entry.pk, None)])
    plan = table_services.pending_plan(event)
    assert plan is not None and plan.moves.exists()
    table_services.confirm_plan(event_id=event.pk, step_id=plan.pk, actor=None)
    return plan


def test_a_redo_of_a_balancing_plan_makes_the_same_moves_and_no_new_plan_is_offered():
    event, _ = seated_event(players=20, tables=2)
    plan = _bust_three_and_confirm(event)
    confirmed = floor_state(event)
    undo_services.undo_last(event_id=event.pk, actor=None)
    assert table_services.pending_plan(event) is None  # only the redo: the same seats
    undo_services.redo_next(event_id=event.pk, actor=None)
    assert floor_state(event) == confirmed
    assert FloorStep.objects.get(pk=plan.pk).status == StepStatus.DONE


def test_the_undo_and_redo_buttons_name_what_they_take_back(client):
    event, _ = seated_event(players=20, tables=2)
    victim = at_table(event, 1)[0]
    record_busts(event_id=event.pk, actor=None, busts=[StackInput(victim.pk, None)])
    client.force_login(make_user(username="floor", role="floor"))
    body = client.get(reverse("floor:tables", args=[event.pk])).content.decode()
    assert f'Undo: <span class="step-label">the bust of {victim.label} (20)</span>' in body
    plan = _bust_three_and_confirm(event)
    body = client.get(reverse("floor:tables", args=[event.pk])).content.decode()
    moves = plan.moves.count()
    assert f"the balancing plan: {moves} move" in body
    client.post(reverse("scoring:undo", args=[event.pk]), {"step": plan.pk})
    body = client.get(reverse("floor:tables", args=[event.pk])).content.decode()
    assert 'Redo: <span class="step-label">the balancing plan' in body
    assert 'data-testid="plan"' not in body
