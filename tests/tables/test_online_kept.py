"""A running hand's engine state is kept between moves under (hand, sequence), sealed, and
rebuilt from the stored moves only on a miss (issue 17; docs/architecture.md, "Online tables")."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tables.online import kept
from tables.online import play as online_play
from tables.online.engine import rebuild
from tables.online.models import TableHand
from tests.tables.online_helpers import make_table, seat_players

pytestmark = pytest.mark.django_db


def _state(engine) -> tuple:
    """What a move depends on: whose turn, stacks, bets, the board, the records."""
    return (
        engine.actor, list(engine.stacks), list(engine.contributed), list(engine.board),
        list(engine.records), engine.is_over,
    )  # fmt: skip


def _replayed(hand: TableHand):
    moves = list(hand.actions.order_by("sequence").values_list("record", flat=True))
    return rebuild(hand, moves)


def _running_hand(django_capture_on_commit_callbacks, moves: int = 2) -> TableHand:
    table = make_table()
    users = seat_players(table, ["ann", "bob", "cid", "dan"])
    by_id = {user.pk: user for user in users}
    with django_capture_on_commit_callbacks(execute=True):
        hand = online_play.deal_hand(table=table)
    assert hand is not None
    for _move in range(moves):
        hand.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            online_play.act(
                table=table, user=by_id[hand.user_ids[hand.actor]], hand_id=hand.pk,
                sequence=hand.sequence, action="call",
            )  # fmt: skip
    hand.refresh_from_db()
    return hand


def test_a_move_keeps_the_state_sealed_under_its_hand_and_sequence(
    django_capture_on_commit_callbacks,
):
    hand = _running_hand(django_capture_on_commit_callbacks)
    token = cache.get(kept.state_key(hand, hand.sequence))
    assert token is not None
    assert token.startswith(b"fm1.")  # sealed (tables.online.sealing)
    assert b"tables.engine" not in token  # no pickle in the clear: no deck to read
    assert _state(kept.kept_state(hand)) == _state(_replayed(hand))


def test_a_miss_replays_to_the_same_state(django_capture_on_commit_callbacks):
    hand = _running_hand(django_capture_on_commit_callbacks)
    cache.delete(kept.state_key(hand, hand.sequence))
    kept.forget_local()
    assert kept.kept_state(hand) is None  # a miss
    assert _state(online_play.engine_of(hand)) == _state(_replayed(hand))


def test_an_entry_of_another_sequence_is_never_used(django_capture_on_commit_callbacks):
    hand = _running_hand(django_capture_on_commit_callbacks)
    kept.forget_local()
    cache.delete(kept.state_key(hand, hand.sequence))
    assert cache.get(kept.state_key(hand, hand.sequence - 1)) is not None  # the move before's
    assert kept.kept_state(hand) is None
    engine = online_play.engine_of(hand)
    assert len(engine.records) == len(_replayed(hand).records)
    assert _state(engine) == _state(_replayed(hand))


def test_a_rolled_back_move_keeps_nothing(django_capture_on_commit_callbacks):
    hand = _running_hand(django_capture_on_commit_callbacks)
    kept.forget_local()
    cache.clear()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        kept.keep_state(hand, _replayed(hand))
    assert cache.get(kept.state_key(hand, hand.sequence)) is None  # not before the commit
    for callback in callbacks:
        callback()
    assert cache.get(kept.state_key(hand, hand.sequence)) is not None


def test_the_hand_plays_on_with_the_cache_down(django_capture_on_commit_callbacks, monkeypatch):
    def down(*args, **kwargs):
        raise ConnectionError("the cache is down")

    monkeypatch.setattr(kept.cache, "get", down)
    monkeypatch.setattr(kept.cache, "set", down)
    kept.forget_local()
    hand = _running_hand(django_capture_on_commit_callbacks, moves=3)
    kept.forget_local()
    assert hand.sequence >= 3
    assert _state(online_play.engine_of(hand)) == _state(_replayed(hand))
