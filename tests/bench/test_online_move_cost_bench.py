"""The move-cost benchmark's --parts, small: a player's min-raise POSTed through Django's whole
request path (bench/online_move_cost.py, post_parts), its CPU by part."""

from __future__ import annotations

import pytest

from bench import online_move_cost
from tables.online import play as online_play
from tables.online.forms import ActForm
from tables.online.models import HandAction

MOVE = "the move (play.act, its commit and publishing)"
PUBLISHING = "  the publishing, after the commit"


@pytest.mark.django_db(transaction=True)
def test_every_posted_move_lands_and_its_parts_fit_inside_the_post():
    act, is_valid = online_play.act, ActForm.is_valid
    post, parts = online_move_cost.post_parts(8)

    assert HandAction.objects.filter(user__isnull=False).count() == 8  # each POST one move
    assert parts.calls[MOVE] == 8 and parts.calls[PUBLISHING] == 8  # published after each
    assert 0 < parts.seconds[PUBLISHING] < parts.seconds[MOVE] < post * 8
    assert parts.calls["request: the user's row"] == 8
    lines = online_move_cost.parts_lines(post, parts, 8)
    assert len(lines) == len(online_move_cost.PARTS) + 3
    # Every wrapper is gone: the service and the inherited method are the originals again.
    assert online_play.act is act and ActForm.is_valid is is_valid
    assert "is_valid" not in vars(ActForm)
