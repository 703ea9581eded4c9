"""A running hand's engine state kept between moves (docs/architecture.md, "Online tables").

The hand's moves in the database are the durable log; the state after the move at sequence N is
kept under (hand, N), sealed (it holds the deck: tables.online.sealing), in this process and in
the shared cache. A move reads the state of the hand's sequence as its locked row says, so an
entry of another sequence is never used, and rebuilds from the log only on a miss: a move costs
the same at move 5 and at move 60. A state is kept only after its transaction commits, so a
rolled-back move never leaves one behind; a cache that fails means a replay, never an error.
"""

from __future__ import annotations

import logging
import pickle  # noqa: S403 - only of tokens this server sealed (AES-GCM authenticates them)
from collections import OrderedDict
from threading import Lock
from typing import Any

from django.core.cache import cache
from django.db import transaction

from tables.online.engine import PlayHand, rebuild
from tables.online.models import HandAction, TableHand
from tables.online.sealing import seal, unseal
from tables.online.statements import Prepared
from tournaments.live_clock import namespace

logger = logging.getLogger(__name__)
KEEP_SECONDS = 15 * 60  # longer than any hand's pauses
LOCAL_STATES = 2_048  # per process: a few per running table
_local: OrderedDict[str, bytes] = OrderedDict()
_local_lock = Lock()


def state_key(hand: TableHand, sequence: int) -> str:
    """The key of a hand's state after its move ``sequence``. The commitment (random per hand)
    tells apart two hands with the same id (a database restored or recreated)."""
    return f"{namespace()}:engine:{hand.pk}:{hand.commitment[:16]}:{sequence}"


def _seal_state(engine: PlayHand) -> bytes:
    return seal(pickle.dumps(engine, protocol=pickle.HIGHEST_PROTOCOL))


def _open_state(token: bytes) -> PlayHand:
    engine: PlayHand = pickle.loads(unseal(token))  # noqa: S301 - our own sealed token
    return engine


def _remember(key: str, token: bytes) -> None:
    with _local_lock:
        _local[key] = token
        _local.move_to_end(key)
        while len(_local) > LOCAL_STATES:
            _local.popitem(last=False)


def kept_state(hand: TableHand) -> PlayHand | None:
    """The kept state of the hand at its sequence now, or None (a miss)."""
    key = state_key(hand, hand.sequence)
    with _local_lock:
        token = _local.get(key)
    if token is None:
        try:
            token = cache.get(key)
        except Exception:
            logger.warning("the cache failed: hand %s is replayed", hand.pk, exc_info=True)
            return None
        if token is None:
            return None
        _remember(key, token)
    try:
        return _open_state(token)
    except Exception:
        # A key rotated away or a damaged entry: the log answers.
        logger.warning("a kept state of hand %s does not open: replayed", hand.pk, exc_info=True)
        return None


def keep_state(hand: TableHand, engine: PlayHand) -> None:
    """Keep the state as of the hand's sequence now, once the transaction commits."""
    key = state_key(hand, hand.sequence)
    token = _seal_state(engine)  # now: the engine may change after this transaction

    def store() -> None:
        _remember(key, token)
        try:
            cache.set(key, token, KEEP_SECONDS)
        except Exception:
            logger.warning("the cache failed: hand %s is not kept", hand.pk, exc_info=True)

    transaction.on_commit(store)


def engine_of(hand: TableHand) -> PlayHand:
    """The engine's hand now: kept, or rebuilt from its rows (and kept)."""
    engine = kept_state(hand)
    if engine is not None:
        return engine
    engine = rebuild(hand, stored_moves(hand.pk))
    if not hand.is_over:
        keep_state(hand, engine)
    return engine


def stored_moves(hand_id: int, *, through: int | None = None) -> list[dict[str, Any]]:
    """The hand's durable log: its move records in order (up to the move ``through``)."""
    rows = _MOVES.rows(hand_id) if through is None else _MOVES_THROUGH.rows(hand_id, through)
    return [record for (record,) in rows]


# Read on every replay and every snapshot read back: compiled once (tables.online.statements).
_MOVES = Prepared[HandAction](
    lambda hand_id: (
        HandAction.objects.filter(hand_id=hand_id).order_by("sequence").values_list("record")
    ),
    int,
)
_MOVES_THROUGH = Prepared[HandAction](
    lambda hand_id, through: (
        HandAction.objects.filter(hand_id=hand_id, sequence__lte=through)
        .order_by("sequence")
        .values_list("record")
    ),
    int,
    int,
)


def forget_local() -> None:
    """Drop this process's kept states (tests: a cold process)."""
    with _local_lock:
        _local.clear()
